"""The propositional network as arrays of gates, run by Numba-compiled kernels.

:func:`build_gates` lays out a :class:`~plies.gdl.formula.Network` (the one the
:class:`~plies.gdl.reasoner.Reasoner` compiles to Python) as flat arrays of ``and`` and
``or`` gates (the layout is in :mod:`plies.gdl.gatejit`); :class:`GateNet` answers the
reasoner's questions on them with compiled code, and plays whole random playouts
(uniform, or MAST's) without returning to Python between two steps; :meth:`GateNet.batch`
plays uniform ones 64 at a time, one bit of a word per playout
(:mod:`plies.gdl.gatebits`).  The kernels are
compiled once per machine (cached on disk by Numba), not once per game: a game costs
only its arrays, built in one pass over the network's formulas.

The reasoner's Python functions stay the reference: the tests check every answer of a
``GateNet`` against them, state by state, on every game of the test data.

>>> from plies.gdl.parser import parse
>>> from plies.gdl.reasoner import Reasoner
>>> r = Reasoner(parse('''
...     (role you) (init (at 0)) (succ 0 1) (succ 1 2)
...     (<= (legal you (step ?y)) (true (at ?x)) (succ ?x ?y))
...     (legal you stay)
...     (<= (next (at ?y)) (does you (step ?y)))
...     (<= (next (at ?x)) (does you stay) (true (at ?x)))
...     (<= terminal (true (at 2)))
...     (<= (goal you 100) (true (at 2))) (<= (goal you 0) (not (true (at 2))))'''))
>>> net = r.native
>>> s = r.initial_state()
>>> net.legal(s) == r.legal_indices(s)
True
>>> end, status, visited = net.playout(s, seed=1, limit=100)
>>> status, r.is_terminal(end), r.goal(end, 0)
('terminal', True, 100)
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from plies.gdl.formula import Formula, Network, view_refs
from plies.gdl.gatelayout import HEADER, SECTIONS, SIZES

_AND: Final = 0
_OR: Final = 1

class _Builder:
    """Gates made from formulas, shared where a formula object is shared."""

    def __init__(self, net: Network) -> None:
        self.net = net
        self.nf = len(net.fluents)
        self.nm = sum(len(m) for m in net.moves)
        self.false = 2 * (self.nf + self.nm)
        self.true = 2 * (self.nf + self.nm + 1)
        self.base = self.nf + self.nm + 2
        self.kinds: list[int] = []
        self.inputs: list[list[int]] = []
        self.views: dict[int, int] = {}  # view -> reference
        self.memo: dict[int, int] = {}  # id(formula) -> reference
        self.keep: list[Formula] = []  # the formulas whose ids are memo keys
        self.loops: list[tuple[int, int]] = []

    def gate(self, kind: int, refs: list[int]) -> int:
        self.kinds.append(kind)
        self.inputs.append(refs)
        return 2 * (self.base + len(self.kinds) - 1)

    def ref(self, f: Formula) -> int:
        """The reference to a node that holds when ``f`` does."""
        if f is True:
            return self.true
        if f is False:
            return self.false
        tag = f[0]
        if tag in ("and", "or"):
            known = self.memo.get(id(f))
            if known is None:
                refs = [self.ref(p) for p in f[1]]
                known = self.memo[id(f)] = self.gate(_AND if tag == "and" else _OR, refs)
                self.keep.append(f)
            return known
        neg = int(tag[0] == "!")
        kind = tag[-1]
        node: int = f[1]
        if kind == "v":
            return self.views[node] ^ neg
        if kind == "d":
            node += self.nf
        return 2 * node + neg

    def add_views(self, outputs: list[Formula]) -> None:
        """Gates for every view the outputs use, dependencies first; a recursive
        component as one block of gates (see :mod:`plies.gdl.gatejit`)."""
        net = self.net
        cone: set[int] = set()
        todo = [n for f in outputs for n in view_refs(f, [])]
        while todo:
            n = todo.pop()
            if n not in cone:
                cone.add(n)
                todo.extend(view_refs(net.views[n], []))
        for comp in net.order:
            members = [n for n in comp if n in cone]
            if not members:
                continue
            if len(members) == 1 and members[0] not in net.cyclic:
                self.views[members[0]] = self.ref(net.views[members[0]])
                continue
            # A block's gates are its own (a fresh memo): only its members are read
            # from outside, so the whole block can be evaluated as one unit.
            outer, self.memo = self.memo, {}
            start = len(self.kinds)
            holders = {}
            for n in members:
                holders[n] = self.gate(_OR, [])
                self.views[n] = holders[n]
            for n in members:
                self.inputs[(holders[n] >> 1) - self.base] = [self.ref(net.views[n])]
            self.loops.append((start, len(self.kinds)))
            self.memo = outer


    def complement_moves(self) -> list[float]:
        """Rewrite a gate's many move inputs of one role as a gate of the few others.

        Each role makes exactly one move, so an ``or`` of most of a role's moves is the
        ``and`` of the negations of the rest (the frame axiom of a board game's cell,
        "some move is made that does not touch this cell", becomes "no move that touches
        it"), and an ``and`` of most of its negated moves is the ``or`` of the rest: a
        chosen move then counts itself in the few gates that name it.  Returns each
        gate's place in the order (a new gate goes just before its reader).
        """
        key: list[float] = [float(g) for g in range(len(self.kinds))]
        role_of: list[int] = []
        for r, role in enumerate(self.net.moves):
            role_of += [r] * len(role)
        role_moves: dict[int, set[int]] = {}
        for m, r in enumerate(role_of):
            role_moves.setdefault(r, set()).add(m)
        for g in range(len(self.kinds)):
            want = 0 if self.kinds[g] == _OR else 1  # plain moves in an or, negated in an and
            by_role: dict[int, list[int]] = {}
            for ref in self.inputs[g]:
                m = (ref >> 1) - self.nf
                if 0 <= m < self.nm and ref & 1 == want:
                    by_role.setdefault(role_of[m], []).append(ref)
            for r, refs in by_role.items():
                rest = sorted(role_moves[r] - {(ref >> 1) - self.nf for ref in refs})
                if len(rest) >= len(refs):
                    continue
                sub = self.gate(_AND if want == 0 else _OR,
                                [2 * (self.nf + m) + (1 - want) for m in rest])
                key.append(key[g] - 0.5 + len(key) * 1e-9)
                drop = set(refs)
                self.inputs[g] = [ref for ref in self.inputs[g] if ref not in drop] + [sub]
        return key


def build_gates(net: Network) -> Any:
    """The layout of :mod:`plies.gdl.gatejit` for ``net``: one int64 numpy array, the
    header (:data:`~plies.gdl.gatelayout.SIZES`) then the offsets and contents of the
    :data:`~plies.gdl.gatelayout.SECTIONS`."""
    import numpy as np

    b = _Builder(net)
    outputs: list[Formula] = [net.terminal]
    outputs += [f for role in net.legal for _, f in role]
    outputs += [f for _, f in net.next]
    goal_formulas = [f for role in net.goals for _, f in role]
    b.add_views(outputs + goal_formulas)
    terminal = b.ref(net.terminal)
    legal = [b.ref(f) for role in net.legal for _, f in role]
    nxt = [b.false] * len(net.fluents)
    for j, f in net.next:
        nxt[j] = b.ref(f)
        if b.nf <= nxt[j] >> 1 < b.nf + b.nm:  # a move itself: moves are read by gates only
            nxt[j] = b.gate(_OR, [nxt[j]])
    goal_refs = [b.ref(f) for f in goal_formulas]
    goal_role = [r for r, role in enumerate(net.goals) for _ in role]
    goal_value = [v for role in net.goals for v, _ in role]

    key = b.complement_moves()

    # Groups: 0 reads the state only, 1 the moves too, 2 serves the goals only.
    n = len(b.kinds)
    base = b.base
    first_move, past_moves = b.nf, b.nf + b.nm
    moved = [False] * n
    changed = True
    while changed:  # a fixpoint: a recursive block's gates read later gates
        changed = False
        for g in range(n):
            if moved[g]:
                continue
            for r in b.inputs[g]:
                node = r >> 1
                if first_move <= node < past_moves or (node >= base and moved[node - base]):
                    moved[g] = changed = True
                    break
    for lo, hi in b.loops:
        if any(moved[lo:hi]):
            moved[lo:hi] = [True] * (hi - lo)
    needed = [False] * n
    todo = [r >> 1 for r in [terminal, *legal, *nxt]]
    while todo:
        node = todo.pop()
        if node >= base and not needed[node - base]:
            needed[node - base] = True
            todo.extend(r >> 1 for r in b.inputs[node - base])
    group = [1 if moved[g] else 0 if needed[g] else 2 for g in range(n)]
    order = sorted(range(n), key=lambda g: (group[g], key[g]))
    new = [0] * n
    for i, g in enumerate(order):
        new[g] = i

    def renumber(r: int) -> int:
        node = r >> 1
        return r if node < base else 2 * (base + new[node - base]) + (r & 1)

    # Move inputs apart: one move per role is chosen, so a gate's move inputs are
    # counted from the chosen moves' incidence lists, not read one by one (the frame
    # axiom of a board game's cell is an ``and`` of hundreds of negated moves).
    kind = np.array([b.kinds[g] for g in order], dtype=np.int64)
    first = np.zeros(n + 1, dtype=np.int64)
    npos = np.zeros(n, dtype=np.int64)
    nneg = np.zeros(n, dtype=np.int64)
    touches: list[list[int]] = [[] for _ in range(b.nm)]
    flat: list[int] = []
    for i, g in enumerate(order):
        for r in b.inputs[g]:
            node = r >> 1
            if first_move <= node < past_moves:
                touches[node - first_move].append(2 * i + (r & 1))
                if r & 1:
                    nneg[i] += 1
                else:
                    npos[i] += 1
            else:  # an and is written as the negation of an or of the negations
                flat.append(renumber(r) ^ (1 if b.kinds[g] == _AND else 0))
        first[i + 1] = len(flat)
    touch_first = [0]
    for t in touches:
        touch_first.append(touch_first[-1] + len(t))
    loops = sorted((new[lo], new[hi - 1] + 1) for lo, hi in b.loops)
    counts = [group.count(0), group.count(1)]
    role_first = [0]
    for role in net.moves:
        role_first.append(role_first[-1] + len(role))
    sizes = [b.nf, b.nm, len(net.moves), base, counts[0], counts[0] + counts[1], n,
             renumber(terminal)]

    sections = {
        "KIND": kind.tolist(), "FIRST": first.tolist(), "INPUTS": flat,
        "LOOP_LO": [lo for lo, _ in loops], "LOOP_HI": [hi for _, hi in loops],
        "LEGAL": [renumber(r) for r in legal], "NEXT": [renumber(r) for r in nxt],
        "GOAL": [renumber(r) for r in goal_refs], "GOAL_ROLE": goal_role,
        "GOAL_VALUE": goal_value, "ROLE_FIRST": role_first, "NPOS": npos.tolist(),
        "NNEG": nneg.tolist(), "TOUCH_FIRST": touch_first,
        "TOUCH": [t for ts in touches for t in ts],
    }
    header = [*sizes, len(loops), len(goal_refs)]
    assert len(header) == HEADER and list(sections) == list(SECTIONS)
    out = header + [0] * len(SECTIONS)
    for i, values in enumerate(sections.values()):
        out[HEADER + i] = len(out)
        out.extend(values)
    return np.array(out, dtype=np.int64)


_KERNELS: dict[str, Any] = {}


def _kernels() -> Any:
    """:mod:`plies.gdl.gatejit`, imported (and its kernels loaded) once per process."""
    if "module" not in _KERNELS:
        from plies.gdl import gatejit

        _KERNELS["module"] = gatejit
    return _KERNELS["module"]


LOOKAHEAD_MAX: Final = 4_000_000
"""The most entries :meth:`GateNet.lookahead`'s lists may hold (and the most gate inputs
it reads to make them); past it a greedy playout evaluates every gate of a move it
tries."""


def _lookahead(k: Any, words: tuple[Any, Any, Any, Any, Any]) -> Any:
    """:meth:`GateNet.lookahead`'s array for the layout ``k`` and its word view."""
    import numpy as np

    head = dict(zip(SIZES, k[:HEADER].tolist(), strict=True))
    nf, nm, base = head["F"], head["M"], head["BASE"]
    n0, n1, ng = head["N0"], head["N1"], head["G"]
    none = np.empty(0, dtype=np.int64)
    wfirst, wnode, _, _, wmove = words
    if head["NB"] or len(wnode) > LOOKAHEAD_MAX:
        return none

    def section(name: str, length: int) -> list[int]:
        at = int(k[HEADER + SECTIONS.index(name)])
        return [int(x) for x in k[at:at + length]]

    readers: list[list[int]] = [[] for _ in range(base + ng)]
    for g, node in zip(np.repeat(np.arange(ng), np.diff(wfirst)).tolist(), wnode.tolist(),
                       strict=True):
        readers[node].append(g)
    gate_moves: list[list[int]] = [[] for _ in range(ng)]
    for m in range(nm):
        for g in wmove[int(wmove[3 + m]):int(wmove[4 + m])].tolist():
            readers[nf + m].append(g)
            gate_moves[g].append(m)

    def reach(node: int, lo: int, hi: int, keep: list[bool] | None) -> list[int]:
        """The gates of ``[lo, hi)`` (and in ``keep``) that read ``node``, directly or
        through other such gates, in order."""
        seen: set[int] = set()
        todo = [node]
        while todo:
            for g in readers[todo.pop()]:
                if lo <= g < hi and g not in seen and (keep is None or keep[g]):
                    seen.add(g)
                    todo.append(base + g)
        return sorted(seen)

    nxt = section("NEXT", nf)
    fed_by: dict[int, list[int]] = {}  # gate -> the fluents whose next it is
    for j, ref in enumerate(nxt):
        if (ref >> 1) >= base:
            fed_by.setdefault((ref >> 1) - base, []).append(j)
    needed = [False] * ng  # the gates the terminal test and the goals read
    todo = [r >> 1 for r in [head["TERMINAL"], *section("GOAL", head["NGOALS"])]]
    while todo:
        node = todo.pop()
        if node >= base and not needed[node - base]:
            needed[node - base] = True
            todo.extend(wnode[int(wfirst[node - base]):int(wfirst[node - base + 1])].tolist())
    move_cones: list[list[int]] = []
    move_fluents: list[list[int]] = []
    fluent_cones: list[list[int]] = []
    total = 0
    for m in range(nm):
        cone = reach(nf + m, n0, n1, None)
        move_cones.append(cone)
        move_fluents.append(sorted(j for g in cone for j in fed_by.get(g, ())))
        total += len(cone)
        if total > LOOKAHEAD_MAX:
            return none
    for j in range(nf):
        cone = reach(j, 0, ng, needed)
        fluent_cones.append(cone)
        total += len(cone)
        if total > LOOKAHEAD_MAX:
            return none
    out = [nm, nf, ng] + [0] * 8
    for i, rows in enumerate([move_cones, move_fluents, fluent_cones, gate_moves]):
        first = [0]
        for row in rows:
            first.append(first[-1] + len(row))
        out[3 + 2 * i] = len(out)
        out.extend(first)
        out[4 + 2 * i] = len(out)
        out.extend(x for row in rows for x in row)
    return np.array(out, dtype=np.int64)


STATUS: Final = ("terminal", "limit", "no legal move")
"""What :meth:`GateNet.playout` reports: a terminal state was reached, the step limit
was, or a role had no legal move (the rules are broken there)."""


class GateNet:
    """A reasoner's network as compiled gates: its questions, and whole playouts.

    States are the reasoner's (``int`` bit sets over its fluents), moves its indices
    into each role's move table (:meth:`~plies.gdl.reasoner.Reasoner.legal_indices`).
    ``seed`` makes a playout's random choices: the same seed, the same playout.
    """

    def __init__(self, net: Network) -> None:
        import numpy as np

        self._np = np
        self.k = build_gates(net)
        self.jit = _kernels()
        # The node values and move counts, made once: one machine per thread (a thread's
        # playouts draw from its own generator too).
        self._local = threading.local()
        head = dict(zip(SIZES, self.k[:HEADER].tolist(), strict=True))
        self.fluents = head["F"]
        self.moves = head["M"]
        self.roles = head["R"]
        self.gates = head["G"]
        self.role_first = self._section("ROLE_FIRST", self.roles + 1)
        self._bytes = (self.fluents + 7) // 8
        self._goal_role = self._section("GOAL_ROLE", head["NGOALS"])
        self._goal_value = self._section("GOAL_VALUE", head["NGOALS"])
        self._blocks = head["NB"]
        self._words: tuple[Any, Any, Any, Any, Any] | None = None
        self._lookahead: Any = None
        self.greedy_cost: float | None = None
        """The states a uniform batch visits per state of a greedy one in the same
        time, once :meth:`measure_greedy` has run."""
        self.ends = np.zeros(self.moves, dtype=np.uint8)
        """Per global move, 1 once it has ended a greedy playout (:meth:`batch`): the
        moves a greedy playout tries for a decisive one, learnt as Sancho learns its
        terminating moves, shared by every batch of the network."""

    def _machine(self) -> tuple[Any, Any]:
        """This thread's node values and move counts (see :mod:`plies.gdl.gatejit`)."""
        machine = getattr(self._local, "machine", None)
        if machine is None:
            machine = self._local.machine = self.jit.new_machine(self.k)
        return machine  # type: ignore[no-any-return]

    def _section(self, name: str, length: int) -> list[int]:
        start = int(self.k[HEADER + SECTIONS.index(name)])
        return [int(x) for x in self.k[start:start + length]]

    # --- states as arrays ------------------------------------------------------------------

    def to_array(self, state: int) -> Any:
        """``state`` as one byte per fluent (0 or 1)."""
        np = self._np
        raw = np.frombuffer(state.to_bytes(self._bytes, "little"), dtype=np.uint8)
        return np.unpackbits(raw, bitorder="little")[: self.fluents].copy()

    def from_array(self, array: Any) -> int:
        """The ``int`` state of one byte per fluent."""
        return int.from_bytes(self._np.packbits(array, bitorder="little").tobytes(), "little")

    # --- the questions, compiled (for tests and tools; a playout needs none of them) ----

    def _inspect(self, state: int, joint: Sequence[int] = ()) -> tuple[bool, Any, Any, Any]:
        np = self._np
        legal = np.zeros(self.moves, dtype=np.uint8)
        goals = np.zeros(len(self._goal_role), dtype=np.uint8)
        nxt = np.zeros(self.fluents, dtype=np.uint8)
        ks = np.array([self.role_first[r] + i for r, i in enumerate(joint)], dtype=np.int64)
        terminal = self.jit.inspect(self.k, *self._machine(), self.to_array(state), ks, legal,
                                    goals, nxt)
        return bool(terminal), legal, goals, nxt

    def is_terminal(self, state: int) -> bool:
        """Whether ``terminal`` holds in ``state``."""
        return self._inspect(state)[0]

    def legal(self, state: int) -> tuple[list[int], ...]:
        """Per role, the indices of its legal moves (as ``Reasoner.legal_indices``)."""
        on = self._inspect(state)[1]
        return tuple(
            [m - lo for m in range(lo, hi) if on[m]]
            for lo, hi in zip(self.role_first, self.role_first[1:], strict=False)
        )

    def goals(self, state: int) -> tuple[list[int], ...]:
        """Per role, every goal value that holds (as the reasoner's compiled ``goals``:
        ``-k`` for the ``k``-th value that is not an integer from 0 to 100)."""
        on = self._inspect(state)[2]
        out: tuple[list[int], ...] = tuple([] for _ in range(self.roles))
        for e, holds in enumerate(on):
            if holds:
                out[self._goal_role[e]].append(self._goal_value[e])
        return out

    def next_state(self, state: int, joint: Sequence[int]) -> int:
        """The successor after the joint move ``joint`` (one move index per role)."""
        return self.from_array(self._inspect(state, joint)[3])

    # --- playouts ---------------------------------------------------------------------------

    def playout(
        self, state: int, *, seed: int, limit: int, mast: Mast | None = None
    ) -> tuple[int, str, int]:
        """Random moves from ``state`` for at most ``limit`` steps: ``(final state,
        status, states visited)``, the status one of :data:`STATUS`.

        Each role with a choice plays a uniformly random legal move, or MAST's choice
        with ``mast`` (which then learns from the goals of a playout that ended)."""
        np = self._np
        packed = np.frombuffer(bytearray(state.to_bytes(self._bytes, "little")), dtype=np.uint8)
        goals = np.zeros(self.roles, dtype=np.int64)
        if mast is None:
            empty = np.empty(0, dtype=np.float64)
            learn = (False, empty, empty, empty, 1.0)
        else:
            learn = (True, mast.weights, mast.sums, mast.counts, mast.tau)
        status, visited = self.jit.play(self.k, *self._machine(), packed, limit, seed, *learn,
                                        goals)
        self._local.goals = goals
        return int.from_bytes(packed.tobytes(), "little"), STATUS[status], int(visited)

    @property
    def last_goals(self) -> Any:
        """After this thread's last :meth:`playout`: per role, its goal value at the
        terminal state reached (-1 where it has none or several), or the role without a
        legal move first (status ``"no legal move"``)."""
        return self._local.goals

    def words(self) -> tuple[Any, Any, Any, Any, Any]:
        """The gates as :mod:`plies.gdl.gatebits` reads them, made on first use:
        ``(wfirst, wnode, wmask, kmask, wmove)``.  Gate ``g`` is the ``or`` of its
        inputs ``wnode[wfirst[g]:wfirst[g + 1]]`` (nodes; negated where ``wmask`` is
        all ones) and of the moves that list it in ``wmove``, xored with ``kmask[g]``
        (all ones for an ``and``, stored as the negation of an ``or`` of its negated
        inputs).  ``wmove`` holds a gate's plain move inputs (outside a recursive
        block; a negated one is in ``wnode``, as node ``F + m``) by move, so that a
        step reads only the moves chosen in some lane, not every move input of the
        frame axioms: ``[M, lo, hi, start_0, ..., start_M, gates...]``, move ``m``
        feeding the gates ``wmove[wmove[3 + m]:wmove[4 + m]]``, all in ``[lo, hi)``
        (``lo == hi`` when there are none)."""
        if self._words is None:
            np = self._np
            ng, nf, nm = self.gates, self.fluents, self.moves
            first = np.array(self._section("FIRST", ng + 1), dtype=np.int64)
            flat = np.array(self._section("INPUTS", int(first[-1])), dtype=np.int64)
            is_and = np.array(self._section("KIND", ng), dtype=np.int64) == 0
            touch_first = np.array(self._section("TOUCH_FIRST", nm + 1), dtype=np.int64)
            touch = np.array(self._section("TOUCH", int(touch_first[-1])), dtype=np.int64)
            touch_gate = touch >> 1
            move = np.repeat(np.arange(nm, dtype=np.int64), np.diff(touch_first))
            move_refs = (2 * (nf + move) + (touch & 1)) ^ is_and[touch_gate]
            looped = np.zeros(ng + 1, dtype=np.int64)  # +1 from a block's first gate on
            np.add.at(looped, self._section("LOOP_LO", self._blocks), 1)
            np.add.at(looped, self._section("LOOP_HI", self._blocks), -1)
            in_block = np.cumsum(looped)[:ng] > 0
            sparse = ((move_refs & 1) == 0) & ~in_block[touch_gate]
            gate = np.concatenate([np.repeat(np.arange(ng, dtype=np.int64), np.diff(first)),
                                   touch_gate[~sparse]])
            refs = np.concatenate([flat, move_refs[~sparse]])
            order = np.argsort(gate, kind="stable")
            refs = refs[order]
            wfirst = np.zeros(ng + 1, dtype=np.int64)
            wfirst[1:] = np.cumsum(np.bincount(gate, minlength=ng))
            ones = np.uint64(0xFFFFFFFFFFFFFFFF)
            wmask = np.where(refs & 1, ones, np.uint64(0)).astype(np.uint64)
            kmask = np.where(is_and, ones, np.uint64(0)).astype(np.uint64)
            fed = touch_gate[sparse]  # in move order: ``touch`` is
            starts = np.zeros(nm + 1, dtype=np.int64)
            starts[1:] = np.cumsum(np.bincount(move[sparse], minlength=nm))
            span = [int(fed.min()), int(fed.max()) + 1] if fed.size else [0, 0]
            wmove = np.concatenate([np.array([nm, *span], dtype=np.int64),
                                    starts + 3 + nm + 1, fed]).astype(np.int64)
            self._words = (wfirst, refs >> 1, wmask, kmask, wmove)
        return self._words

    def lookahead(self) -> Any:
        """What a greedy playout's lookahead reads to evaluate only what a move can
        change (:func:`plies.gdl.gatebits.playouts`), made on first use: one int64 array,
        empty where the network has a recursive block or the lists would pass
        :data:`LOOKAHEAD_MAX` entries (the lookahead then evaluates every gate).

        ``[nm, nf, ng, MCF, MCG, MFF, MFL, FCF, FCG, GMF, GMM]``, then the sections at
        those offsets: per move ``m``, the move gates that read it, directly or through
        other gates, in order (``MCG[MCF[m]:MCF[m + 1]]``) and the fluents whose ``next``
        is one of them (``MFL[MFF[m]:MFF[m + 1]]``); per fluent, the gates that the
        terminal test or a goal needs and that read it, directly or not, in order
        (``FCG[FCF[j]:FCF[j + 1]]``); per gate, its plain move inputs
        (``GMM[GMF[g]:GMF[g + 1]]``).  Offsets into a section are relative to it."""
        if self._lookahead is None:
            self._lookahead = _lookahead(self.k, self.words())
        return self._lookahead

    def _bits(self) -> Any:
        """:mod:`plies.gdl.gatebits`, imported once per process."""
        if "bits" not in _KERNELS:
            from plies.gdl import gatebits

            _KERNELS["bits"] = gatebits
        return _KERNELS["bits"]

    def batch(self, states: int | Sequence[int], count: int, *, seed: int,
              limit: int, mast: Mast | None = None, greedy: int = 0) -> Batch:
        """``count`` uniformly random playouts from ``states`` (a state, or from each
        of a sequence of states: playout ``p`` starts from ``states[p // count]``), 64
        at a time in one compiled call (one bit of a word per playout,
        :mod:`plies.gdl.gatebits`), for at most ``limit`` joint moves each; the same
        ``seed``, the same batch.  With ``mast`` the moves are MAST's (Gibbs sampling
        on its weights), and ``mast`` learns from the playouts that end."""
        np = self._np
        rows = [states] if isinstance(states, int) else list(states)
        total = max(count, 0) * len(rows)
        goals = np.full((total, self.roles), -1, dtype=np.int64)
        status = np.zeros(total, dtype=np.int8)
        if total == 0:
            return Batch(goals, status, 0)
        starts = np.stack([self.to_array(s) for s in rows])
        self.jit.seed(seed)
        if mast is None:
            empty = np.empty(0, dtype=np.float64)
            learn = (False, empty, empty, empty, 1.0)
        else:
            learn = (True, mast.weights, mast.sums, mast.counts, mast.tau)
        cones = self.lookahead() if greedy else np.empty(0, dtype=np.int64)
        visited = self._bits().playouts(self.k, *self.words(), starts, count, limit, goals,
                                        status, *learn, greedy, self.ends, cones)
        return Batch(goals, status, int(visited))

    def warm(self, state: int) -> None:
        """Compile (or load from Numba's cache) every kernel a player calls, by calling
        each once from ``state``: the questions, a playout and a batch, uniform and
        MAST's.  A first compilation takes seconds; done here, in the thread that builds
        the network, it keeps a player's search from stalling on it mid-match."""
        mast = Mast(self, 10.0)
        self._inspect(state)
        for learn in (None, mast):
            self.playout(state, seed=0, limit=2, mast=learn)
            self.batch(state, 1, seed=0, limit=2, mast=learn)

    def measure_greedy(self, state: int, seconds: float = 0.05, *, limit: int = 10_000) -> float:
        """Time batches of uniform and of greedy (``greedy=2``) playouts from ``state``,
        about ``seconds`` each, and return (and keep, :attr:`greedy_cost`) how many
        states the uniform ones visit per state of the greedy ones: what a greedy
        playout costs, as Sancho measures its greedy rollouts before it uses them.  A
        first greedy batch, not timed, learns :attr:`ends`."""
        import time

        self.batch(state, 64, seed=0, limit=limit, greedy=2)  # learns what ends games first
        rates = []
        for greedy in (0, 2):
            visited, began, seed = 0, time.perf_counter(), 0
            while True:
                visited += self.batch(state, 64, seed=seed, limit=limit, greedy=greedy).visited
                seed += 1
                spent = time.perf_counter() - began
                if spent >= seconds:
                    break
            rates.append(visited / spent)
        self.greedy_cost = rates[0] / max(rates[1], 1e-9)
        return self.greedy_cost

    def playouts(self, state: int, count: int, *, seed: int, limit: int) -> int:
        """The states visited by ``count`` uniformly random playouts from ``state``
        (:meth:`batch`)."""
        return self.batch(state, count, seed=seed, limit=limit).visited


class Batch(NamedTuple):
    """What :meth:`GateNet.batch` reports of each of its playouts ``p``."""

    goals: Any
    """``goals[p, r]``: role ``r``'s goal value at the terminal state playout ``p``
    reached (-1 where it has none or several, or the playout did not reach one); for
    status 2, ``goals[p, 0]`` is the role without a legal move."""
    status: Any
    """``status[p]``: the index in :data:`STATUS` of how playout ``p`` ended."""
    visited: int
    """The states visited by all the playouts (each playout's start state counts)."""


class Mast:
    """MAST's statistics as arrays, for :meth:`GateNet.playout`: per move (global index),
    the sum and count of the goals its role reached in the playouts where it chose it,
    and its Gibbs weight ``exp(mean / tau)`` (``exp(100 / tau)`` for a move never seen)."""

    def __init__(self, net: GateNet, tau: float) -> None:
        np = net._np
        self.tau = tau
        self.sums = np.zeros(net.moves, dtype=np.float64)
        self.counts = np.zeros(net.moves, dtype=np.float64)
        self.weights = np.full(net.moves, math.exp(100.0 / tau), dtype=np.float64)
