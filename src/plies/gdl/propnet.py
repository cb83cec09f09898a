"""A propositional network compiled to Python functions over integer bit sets.

After grounding (:mod:`plies.gdl.ground`), every dynamic atom is a proposition: a
*base* proposition per fluent (bit ``i`` of the state integer ``s``), an *input*
proposition per possible move (bit ``k`` of the move integer ``d``), and a *view*
proposition per derived atom, defined by the disjunction of its ground rule bodies.

The network is simplified: constants folded, views that are a literal or a flat
``and``/``or`` of literals inlined (negated by De Morgan), views with equal formulas
merged, and common conjuncts of a disjunction factored out (``(a and b) or (a and c)``
becomes ``a and (b or c)``).  It is then written out as the source of four Python
functions, compiled once with :func:`exec`:

- ``terminal(s) -> bool``;
- ``legal(s) -> tuple[list[int], ...]``: per role, indices into its move table;
- ``goals(s) -> tuple[list[int], ...]``: per role, the goal values that hold (``-k``
  for the ``k``-th value that is not an integer from 0 to 100, see :class:`Network`);
- ``next(s, d, ks) -> int``: the successor state, given the joint move as the bit set
  ``d`` and as the tuple ``ks`` of its bit positions.

Literals become mask tests on ``s`` and ``d`` (``s & 0b101 == 0b101``, ``not s & m``,
``d & m``), and a test shared by several statements is made once, around all of them
(nested ``if`` s, chosen greedily: for a board game's legal moves, first whose turn it
is, then which cell holds a piece).  The common shapes of ``next`` rules skip the tests
altogether: a fluent that some move *adds*, one that *persists* unless some move is made
(the frame axiom), and one that some move sets when the state matches two masks, become
per-move tables ``ADD[k]``, ``KEEP[k]`` and ``COND[k]``, so a board game's frame axioms
cost one table look-up per role instead of one test per cell.  Views used more than once
are computed once per call into local variables; recursive views (a positive cycle
through the state, such as a path on a board) are computed by a small fixpoint loop.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from itertools import chain
from typing import Any, Final, TypeAlias

from plies.budget import UNLIMITED, Meter
from plies.gdl.ground import (
    DOES,
    GOAL,
    TERMINAL,
    TRUE,
    Grounding,
    GroundingError,
    natural_key,
)
from plies.gdl.strata import strongly_connected
from plies.gdl.terms import Term, pred_of

# A formula is True, False, a literal ("s", i) / ("!s", i) on state bit i, ("d", k) /
# ("!d", k) on move bit k, ("v", n) / ("!v", n) on view n, or ("and", parts) / ("or", parts).
Formula: TypeAlias = Any

_INLINE_DEPTH: Final = 24  # beyond this nesting, an inlined view becomes a local variable
_FACTOR_DEPTH: Final = 40  # nested ifs at most (Python allows 100 levels of indentation)

_NEGATE: Final = {"s": "!s", "!s": "s", "d": "!d", "!d": "d", "v": "!v", "!v": "v"}

_LITERAL_BITS: Final = 256
"""Masks narrower than this are written into the generated code as literals; wider ones
are named constants of its namespace (a decimal literal of a mask beyond about 14,000
bits is more than Python will convert, and would bloat the source anyway)."""

# The meter of the network being built or compiled in this thread (or task): factoring
# and code generation tick it, deep inside helpers that would otherwise all need it.
_METER: ContextVar[Meter | None] = ContextVar("plies_gdl_propnet_meter", default=None)


_NO_METER: Final = UNLIMITED.meter("building a network")  # counts, never looks


def _meter() -> Meter:
    """The meter of this thread's build (one that never stops when there is none)."""
    return _METER.get() or _NO_METER


@contextmanager
def _metered(meter: Meter | None, what: str) -> Iterator[None]:
    if meter is None:
        yield
        return
    meter.what = what
    meter.look()  # a stop that came between two phases ends the build at once
    token = _METER.set(meter)
    try:
        yield
    finally:
        _METER.reset(token)


def negate(f: Formula) -> Formula:
    """The negation of a literal or constant (views are negated by reference)."""
    if f is True or f is False:
        return not f
    return (_NEGATE[f[0]], f[1])


def conjuncts(f: Formula) -> tuple[Formula, ...]:
    """The parts of a conjunction (a formula that is no ``and`` is its only part)."""
    if f is True:
        return ()
    return f[1] if isinstance(f, tuple) and f[0] == "and" else (f,)


def make_and(parts: Iterable[Formula]) -> Formula:
    """A simplified conjunction: flattened, without duplicates or ``True``, ``False`` wins."""
    out: dict[Formula, None] = {}
    for p in parts:
        if p is True:
            continue
        if p is False:
            return False
        for q in conjuncts(p):
            out[q] = None
    for q in out:
        if q[0] in _NEGATE and (_NEGATE[q[0]], q[1]) in out:
            return False
    if not out:
        return True
    if len(out) == 1:
        return next(iter(out))
    return ("and", tuple(out))


def make_or(parts: Iterable[Formula]) -> Formula:
    """A simplified, factored disjunction.

    Flattened, without duplicates or ``False``; ``True`` wins; then common conjuncts are
    factored out greedily (:func:`factor`).
    """
    out: dict[Formula, None] = {}
    for p in parts:
        if p is False:
            continue
        if p is True:
            return True
        if isinstance(p, tuple) and p[0] == "or":
            for q in p[1]:
                out[q] = None
        else:
            out[p] = None
    if not out:
        return False
    if len(out) == 1:
        return next(iter(out))
    return factor([conjuncts(p) for p in out])


def factor(disjuncts: list[tuple[Formula, ...]]) -> Formula:
    """``or`` over conjunctions, with the most frequent conjunct factored out, recursively.

    ``(a and b) or (a and c) or d`` becomes ``(a and (b or c)) or d``; a disjunct that is
    the factor alone absorbs its group (``a or (a and b)`` is ``a``).
    """
    _meter().tick(len(disjuncts))
    # One count over all parts at C speed (an update() per disjunct cost half the build of
    # a big game); the order of first occurrence, hence the choice among ties, is the same.
    counts: Counter[Formula] = Counter(chain.from_iterable(disjuncts))
    best, count = counts.most_common(1)[0] if counts else (None, 0)
    if count < 2:
        flat = [make_and(parts) for parts in disjuncts]
        return flat[0] if len(flat) == 1 else ("or", tuple(flat))
    group = [parts for parts in disjuncts if best in parts]
    rest = [parts for parts in disjuncts if best not in parts]
    inner = [tuple(p for p in parts if p != best) for parts in group]
    if any(not parts for parts in inner):
        factored: Formula = best
    else:
        factored = make_and([best, factor(inner)])
    if not rest:
        return factored
    tail = factor(rest)
    items = [factored, *(tail[1] if isinstance(tail, tuple) and tail[0] == "or" else [tail])]
    return ("or", tuple(items))


def _refs(f: Formula, out: list[int]) -> list[int]:
    if isinstance(f, tuple):
        if f[0] in ("and", "or"):
            _meter().tick(len(f[1]))
            for p in f[1]:
                _refs(p, out)
        elif f[0] in ("v", "!v"):
            out.append(f[1])
    return out


def _substitute(f: Formula, value: Callable[[int], Formula | None]) -> Formula:
    """``f`` with every view reference ``n`` for which ``value(n)`` is not None replaced."""
    if not isinstance(f, tuple):
        return f
    tag = f[0]
    if tag in ("and", "or"):
        parts = [_substitute(p, value) for p in f[1]]
        return make_and(parts) if tag == "and" else make_or(parts)
    if tag in ("v", "!v"):
        found = value(f[1])
        if found is None:
            return f
        return found if tag == "v" else _negation(found, f[1])
    return f


def _negation(f: Formula, view: int) -> Formula:
    """The negation of view ``view`` whose formula is ``f`` (De Morgan for flat ones)."""
    if f is True or f is False or f[0] not in ("and", "or"):
        return negate(f)
    if _flat(f):
        parts = [negate(p) for p in f[1]]
        return make_or(parts) if f[0] == "and" else make_and(parts)
    return ("!v", view)


def _flat(f: Formula) -> bool:
    """An ``and`` or ``or`` of input literals only: a few mask tests, inlined everywhere."""
    return (
        isinstance(f, tuple)
        and f[0] in ("and", "or")
        and all(p[0] in ("s", "!s", "d", "!d") for p in f[1])
    )


def _is_literal(f: Formula) -> bool:
    return f is True or f is False or f[0] in _NEGATE


# --- the network --------------------------------------------------------------------------


@dataclass
class Network:
    """The simplified propositional network of a grounding.

    ``views[n]`` is the formula of view ``n`` (named ``atoms[n]``); ``order`` lists the
    views' strongly connected components, each after those it depends on.  ``goals``
    pairs each goal value with its formula; a value that is not an integer from 0 to 100
    is there as ``-k``, and is ``bad_goals[k - 1]`` (a term).
    """

    fluents: tuple[Term, ...]
    moves: tuple[tuple[Term, ...], ...]
    init: int
    atoms: list[Term]
    views: list[Formula]
    order: list[list[int]]
    cyclic: set[int]
    terminal: Formula
    legal: list[list[tuple[int, Formula]]]
    goals: list[list[tuple[int, Formula]]]
    next: list[tuple[int, Formula]]
    bad_goals: tuple[Term, ...] = ()


def build_network(g: Grounding, meter: Meter | None = None) -> Network:
    """Turn the ground rules of ``g`` into simplified formulas over state and move bits.

    The work is counted on ``meter`` (one step per ground literal, per disjunct factored).

    Raises:
        GroundingError: a ``legal``, ``goal`` or ``terminal`` that depends on ``does``.

    Views are evaluated by strongly connected components of ground atoms, so a relation
    that is stratified only once ground (``goal`` in futoshiki) needs nothing special;
    recursive components are positive, because :func:`~plies.gdl.ground.ground` has
    rejected every rule that depends on its own negation.
        plies.budget.BudgetExceeded: the meter's budget ran out.
    """
    with _metered(meter, "building the propositional network"):
        return _build_network(g)


def _build_network(g: Grounding) -> Network:
    meter = _meter()
    fluents = tuple(sorted(g.fluents, key=natural_key))
    fbit = {f: i for i, f in enumerate(fluents)}
    dbit: dict[Term, int] = {}
    for role_moves in g.moves:
        for atom in role_moves:
            dbit[atom] = len(dbit)

    bodies: dict[Term, list[tuple[tuple[bool, Term], ...]]] = {}
    for rule in g.rules:
        meter.tick(1 + len(rule.body))
        bodies.setdefault(rule.head, []).append(rule.body)
    atoms = list(bodies)
    view_of = {a: n for n, a in enumerate(atoms)}

    def leaf(positive: bool, atom: Term) -> Formula:
        p = pred_of(atom)
        if p == TRUE:
            i = fbit.get(atom[1])
            lit: Formula = False if i is None else ("s", i)
        elif p == DOES:
            k = dbit.get(atom)
            lit = False if k is None else ("d", k)
        else:
            n = view_of.get(atom)
            lit = False if n is None else ("v", n)
        return lit if positive else negate(lit)

    raw = [make_or(make_and(leaf(pos, a) for pos, a in body) for body in bodies[a]) for a in atoms]
    edges = {n: set(_refs(f, [])) for n, f in enumerate(raw)}
    order = strongly_connected(range(len(atoms)), edges)
    cyclic = {n for comp in order if len(comp) > 1 for n in comp} | {
        n for n in range(len(atoms)) if n in edges[n]
    }

    # Fold constants, inline views that are literals or flat, and merge views with equal
    # formulas, dependencies first.
    views: list[Formula] = list(raw)
    known: dict[int, Formula] = {}
    first_with: dict[Formula, int] = {}
    for comp in order:
        meter.tick(len(comp))
        for n in comp:
            views[n] = _substitute(views[n], known.get)
        if len(comp) == 1 and comp[0] not in cyclic:
            n = comp[0]
            if _is_literal(views[n]) or _flat(views[n]):
                known[n] = views[n]
            elif views[n] in first_with:
                known[n] = ("v", first_with[views[n]])
            else:
                first_with[views[n]] = n

    referenced = {m for f in views for m in _refs(f, [])}

    def formula(atom: Term) -> Formula:
        """The formula of a query atom: static facts are True, unknown atoms False.

        A view that no other view uses is unwrapped, so that the code for the query
        tests its body directly.
        """
        if atom in g.static.get(pred_of(atom), ()):
            return True
        n = view_of.get(atom)
        if n is None:
            return False
        f = _substitute(("v", n), known.get)
        if isinstance(f, tuple) and f[0] == "v" and f[1] not in cyclic | referenced:
            return views[f[1]]
        return f

    roles = g.roles
    legal: list[list[tuple[int, Formula]]] = []
    for r, role_moves in enumerate(g.moves):
        legal.append([(i, formula(("legal", roles[r], m[2]))) for i, m in enumerate(role_moves)])
    goals: list[list[tuple[int, Formula]]] = [[] for _ in roles]
    role_index = {r: i for i, r in enumerate(roles)}
    candidates = set(g.static.get(GOAL, ())) | {a for a in atoms if pred_of(a) == GOAL}
    bad_goals: list[Term] = []
    for atom in sorted(candidates, key=natural_key):
        if atom[1] not in role_index:
            continue
        value = atom[2]
        if (  # the length first: int() of 5,000 digits is a ValueError
            isinstance(value, str) and len(value) <= 3 and value.isascii()
            and value.isdigit() and int(value) <= 100
        ):
            code = int(value)
        else:  # an error only where it holds: the rule may never be reached (ggp-base's way)
            bad_goals.append(value)
            code = -len(bad_goals)
        goals[role_index[atom[1]]].append((code, formula(atom)))
    nxt = [(i, formula(("next", f))) for i, f in enumerate(fluents)]
    net = Network(
        fluents=fluents,
        moves=g.moves,
        init=bitset(fbit[f] for f in g.init),
        atoms=atoms,
        views=views,
        order=order,
        cyclic=cyclic,
        terminal=formula(TERMINAL),
        legal=legal,
        goals=goals,
        next=nxt,
        bad_goals=tuple(bad_goals),
    )
    _check_no_does(net)
    return net


def _check_no_does(net: Network) -> None:
    """``legal``, ``goal`` and ``terminal`` must not depend on ``does`` (GDL's rule)."""
    memo: dict[int, bool] = {}

    def uses(f: Formula) -> bool:
        if not isinstance(f, tuple):
            return False
        tag = f[0]
        if tag in ("d", "!d"):
            return True
        if tag in ("and", "or"):
            return any(uses(p) for p in f[1])
        if tag in ("v", "!v"):
            n = f[1]
            if n not in memo:
                memo[n] = False  # cycles: assume not while looking
                memo[n] = uses(net.views[n])
            return memo[n]
        return False

    queries = [("terminal", net.terminal)]
    queries += [("legal", f) for role in net.legal for _, f in role]
    queries += [("goal", f) for role in net.goals for _, f in role]
    for name, f in queries:
        if uses(f):
            raise GroundingError(f"{name} must not depend on does")


# --- code generation ----------------------------------------------------------------------


def _mask(bits: Iterable[int]) -> int:
    return bitset(bits)


def bitset(bits: Iterable[int]) -> int:
    """The integer with exactly the given bits set, in time linear in its size (setting
    one bit at a time in an ``int`` copies it each time: quadratic for a big board)."""
    buf = bytearray()
    for b in bits:
        byte = b >> 3
        if byte >= len(buf):
            buf.extend(bytes(byte + 1 - len(buf)))
        buf[byte] |= 1 << (b & 7)
    return int.from_bytes(buf, "little")


class _Constants:
    """How masks appear in the generated code: narrow ones as decimal literals, wide ones
    (see :data:`_LITERAL_BITS`) as named constants ``M0``, ``M1``, ... of its namespace."""

    def __init__(self) -> None:
        self.names: dict[int, str] = {}

    def __call__(self, m: int) -> str:
        if m.bit_length() < _LITERAL_BITS:
            return str(m)
        name = self.names.get(m)
        if name is None:
            name = self.names[m] = f"M{len(self.names)}"
        return name

    def namespace(self) -> dict[str, Any]:
        return {name: m for m, name in self.names.items()}


class _Writer:
    """Writes the source of one function; decides which views become local variables."""

    def __init__(self, net: Network, outputs: Sequence[Formula], const: _Constants) -> None:
        self.net = net
        self.const = const
        self.meter = _meter()
        self.lines: list[str] = []
        self.order: list[str] = []  # the actions of guarded(), in the order written
        # The cone of the outputs: every view they (transitively) use.
        cone: set[int] = set()
        todo = [n for f in outputs for n in _refs(f, [])]
        while todo:
            n = todo.pop()
            if n not in cone:
                cone.add(n)
                todo.extend(_refs(net.views[n], []))
        self.cone = cone
        uses: Counter[int] = Counter()
        for f in outputs:
            uses.update(_refs(f, []))
        for n in cone:
            uses.update(_refs(net.views[n], []))
        # Views used more than once or recursive are locals; others are inlined, unless
        # inlining would nest too deeply.  A view that is one or two mask tests is always
        # inlined: a local would cost as much, and be computed even where not needed.
        self.local: set[int] = {
            n for n in cone if n in net.cyclic or (uses[n] > 1 and not _cheap(net.views[n]))
        }
        depth: dict[int, int] = {}
        for comp in net.order:
            for n in comp:
                if n in cone:
                    d = self._depth(net.views[n], depth)
                    if d > _INLINE_DEPTH:
                        self.local.add(n)
                    depth[n] = 0 if n in self.local else d

    def _depth(self, f: Formula, depth: dict[int, int]) -> int:
        if not isinstance(f, tuple):
            return 0
        if f[0] in ("and", "or"):
            self.meter.tick(len(f[1]))
            return 1 + max(self._depth(p, depth) for p in f[1])
        if f[0] in ("v", "!v"):
            return 1 + depth.get(f[1], 0)
        return 0

    # expressions

    def expr(self, f: Formula) -> str:
        """Python source for ``f`` (truthy when ``f`` holds)."""
        self.meter.tick()  # one line can hold a formula of millions of literals
        if f is True or f is False:
            return str(f)
        tag = f[0]
        if tag == "s":
            return f"s & {self.const(1 << f[1])}"
        if tag == "!s":
            return f"not s & {self.const(1 << f[1])}"
        if tag == "d":
            return f"d & {self.const(1 << f[1])}"
        if tag == "!d":
            return f"not d & {self.const(1 << f[1])}"
        if tag == "v":
            return f"v{f[1]}" if f[1] in self.local else f"({self.expr(self.net.views[f[1]])})"
        if tag == "!v":
            inner = f"v{f[1]}" if f[1] in self.local else f"({self.expr(self.net.views[f[1]])})"
            return f"not {inner}"
        if tag == "and":
            return self._and(f[1])
        return self._or(f[1])

    def _split(
        self, parts: Sequence[Formula], nested: str
    ) -> tuple[dict[str, list[int]], dict[str, list[int]], list[str]]:
        """Plain and negated state/move bits apart from other formulas (``nested`` ones
        in parentheses): what both ``and`` and ``or`` turn into mask tests."""
        self.meter.tick(len(parts))
        pos: dict[str, list[int]] = {"s": [], "d": []}
        neg: dict[str, list[int]] = {"s": [], "d": []}
        other: list[str] = []
        for p in parts:
            tag = p[0]
            if tag in ("s", "d"):
                pos[tag].append(p[1])
            elif tag in ("!s", "!d"):
                neg[tag[1]].append(p[1])
            else:
                text = self.expr(p)
                other.append(f"({text})" if tag == nested else text)
        return pos, neg, other

    def _and(self, parts: Sequence[Formula]) -> str:
        pos, neg, other = self._split(parts, "or")
        out: list[str] = []
        for var in ("s", "d"):
            if pos[var]:
                m = self.const(_mask(pos[var]))
                out.append(f"{var} & {m}" if len(pos[var]) == 1 else f"{var} & {m} == {m}")
            if neg[var]:
                out.append(f"not {var} & {self.const(_mask(neg[var]))}")
        return " and ".join(out + other)

    def _or(self, parts: Sequence[Formula]) -> str:
        pos, neg, other = self._split(parts, "and")
        out: list[str] = []
        for var in ("s", "d"):
            if pos[var]:
                out.append(f"{var} & {self.const(_mask(pos[var]))}")
            if neg[var]:
                m = self.const(_mask(neg[var]))
                out.append(f"not {var} & {m}" if len(neg[var]) == 1 else f"{var} & {m} != {m}")
        return " or ".join(out + other)

    # statements

    def emit(self, line: str, indent: int) -> None:
        self.meter.tick()
        self.lines.append("    " * indent + line)

    def prologue(self, indent: int = 1) -> None:
        """Compute the local views, dependencies first (fixpoint loops for cycles)."""
        for comp in self.net.order:
            members = [n for n in comp if n in self.local]
            if not members:
                continue
            if not any(n in self.net.cyclic for n in members):
                for n in members:
                    self.emit(f"v{n} = {self.expr(self.net.views[n])}", indent)
                continue
            self.emit(" = ".join(f"v{n}" for n in members) + " = False", indent)
            self.emit("while True:", indent)
            self.emit("c = False", indent + 1)
            for n in members:
                self.emit(f"if not v{n} and ({self.expr(self.net.views[n])}):", indent + 1)
                self.emit(f"v{n} = c = True", indent + 2)
            self.emit("if not c:", indent + 1)
            self.emit("break", indent + 2)

    def guarded(self, items: list[tuple[tuple[Formula, ...], str]], indent: int) -> None:
        """Emit ``if conds: action`` for each item, sharing tests under nested ifs.

        The conjunct that most items test is tested once, around all of them
        (recursively); what remains is tested item by item.
        """
        while items:
            self.meter.tick(len(items))
            counts: Counter[Formula] = Counter(chain.from_iterable(parts for parts, _ in items))
            best, count = counts.most_common(1)[0] if counts else (None, 0)
            if count < 2 or indent >= _FACTOR_DEPTH:
                for parts, action in items:
                    if parts:
                        self.emit(f"if {self.expr(make_and(parts))}:", indent)
                        self.emit(action, indent + 1)
                        self.order.append(action)
                    else:
                        self.emit(action, indent)
                        self.order.append(action)
                return
            chosen = [(parts, a) for parts, a in items if best in parts]
            items = [(parts, a) for parts, a in items if best not in parts]
            common = [p for p in chosen[0][0] if all(p in parts for parts, _ in chosen)]
            group = [(tuple(p for p in parts if p not in common), a) for parts, a in chosen]
            self.emit(f"if {self.expr(make_and(common))}:", indent)
            self.guarded(group, indent + 1)


def _cheap(f: Formula) -> bool:
    """Whether ``f`` compiles to at most two mask tests (literals on ``s`` and ``d`` only)."""
    if not isinstance(f, tuple):
        return True
    if f[0] in ("and", "or"):
        kinds = {p[0] for p in f[1]}
        return kinds <= {"s", "!s", "d", "!d"} and len(kinds) <= 2
    return f[0] in ("s", "!s", "d", "!d")


def _items(pairs: Iterable[tuple[Formula, str]]) -> list[tuple[tuple[Formula, ...], str]]:
    """(formula, action) pairs as guarded items; an ``or`` of several parts stays whole."""
    out: list[tuple[tuple[Formula, ...], str]] = []
    for f, action in pairs:
        if f is False:
            continue
        out.append((conjuncts(f), action))
    return out


def _pure_does(f: Formula) -> list[int] | None:
    """The move bits of ``f`` if ``f`` is one positive move literal or an ``or`` of them."""
    if isinstance(f, tuple) and f[0] == "d":
        return [f[1]]
    if isinstance(f, tuple) and f[0] == "or" and all(p[0] == "d" for p in f[1]):
        return [p[1] for p in f[1]]
    return None


def generate(net: Network) -> tuple[str, dict[str, Any]]:
    """The Python source of the four functions (see the module docstring), and the
    constants it names (wide masks and per-move tables) for its namespace."""
    roles = range(len(net.moves))
    out: list[str] = []
    const = _Constants()

    w = _Writer(net, [net.terminal], const)
    w.prologue()
    w.emit(f"return True if {w.expr(net.terminal)} else False", 1)
    out += ["def terminal(s):", *w.lines, ""]

    legal_outputs = [f for role in net.legal for _, f in role]
    w = _Writer(net, legal_outputs, const)
    for r in roles:
        w.emit(f"l{r} = []", 1)
    w.prologue()
    items = _items((f, f"l{r}.append({i})") for r in roles for i, f in net.legal[r])
    w.guarded(items, 1)
    for r in roles:
        written = [a for a in w.order if a.startswith(f"l{r}.")]
        if written != [f"l{r}.append({i})" for i, f in net.legal[r] if f is not False]:
            w.emit(f"l{r}.sort()", 1)
    w.emit("return (" + "".join(f"l{r}, " for r in roles) + ")", 1)
    out += ["def legal(s):", *w.lines, ""]

    w = _Writer(net, [f for role in net.goals for _, f in role], const)
    for r in roles:
        w.emit(f"g{r} = []", 1)
    w.prologue()
    w.guarded(_items((f, f"g{r}.append({v})") for r in roles for v, f in net.goals[r]), 1)
    w.emit("return (" + "".join(f"g{r}, " for r in roles) + ")", 1)
    out += ["def goals(s):", *w.lines, ""]

    tables: dict[str, Any] = {}
    out += _generate_next(net, const, tables)
    return "\n".join(out) + "\n", {**const.namespace(), **tables}


def _state_masks(parts: Iterable[Formula]) -> tuple[int, int] | None:
    """``(positive, negative)`` state masks if every part is a state literal, else None."""
    pos = neg = 0
    for p in parts:
        if p[0] == "s":
            pos |= 1 << p[1]
        elif p[0] == "!s":
            neg |= 1 << p[1]
        else:
            return None
    return pos, neg


def _generate_next(net: Network, const: _Constants, tables: dict[str, Any]) -> list[str]:
    """The source of ``next``: per-move tables where the rules allow, tests elsewhere.

    Each disjunct of a fluent's ``next`` formula is classified: ``True`` (always set),
    ``true(f)`` of the fluent itself (copied), a disjunction of moves (``ADD[k]``), the
    fluent itself and a disjunction of moves (``KEEP[k]``, the frame axiom), state
    literals and a disjunction of moves (``COND[k]``: set when the state masks match);
    anything else becomes a test.
    """
    always = copy = 0
    n_moves = sum(len(m) for m in net.moves)
    add = [0] * n_moves
    keep = [0] * n_moves
    cond: list[dict[tuple[int, int], int]] = [{} for _ in range(n_moves)]
    when: dict[Formula, int] = {}  # formula -> bits set when it holds
    when_kept: dict[Formula, int] = {}  # formula -> bits kept (if set in s) when it holds
    for j, f in net.next:
        bit = 1 << j
        if f is False:
            continue
        if f is True:
            always |= bit
            continue
        rest: list[Formula] = []
        for part in f[1] if f[0] == "or" else (f,):
            if part == ("s", j):
                copy |= bit
                continue
            ks = _pure_does(part)
            if ks is not None:
                for k in ks:
                    add[k] |= bit
                continue
            parts = conjuncts(part)
            moves = [p for p in parts if _pure_does(p) is not None]
            if len(moves) == 1:
                ks = _pure_does(moves[0])
                assert ks is not None
                others = [p for p in parts if p is not moves[0]]
                if others == [("s", j)]:
                    for k in ks:
                        keep[k] |= bit
                    continue
                masks = _state_masks(others)
                if masks is not None:
                    for k in ks:
                        cond[k][masks] = cond[k].get(masks, 0) | bit
                    continue
            rest.append(part)
        if not rest:
            continue
        g = make_or(rest)
        parts = conjuncts(g)
        if ("s", j) in parts:
            kept = make_and(p for p in parts if p != ("s", j))
            when_kept[kept] = when_kept.get(kept, 0) | bit
        else:
            when[g] = when.get(g, 0) | bit

    generic = list(when) + list(when_kept)
    w = _Writer(net, generic, const)
    w.prologue()
    if copy:
        kept = f"s & {const(copy)}"
        w.emit(f"n = {const(always)} | {kept}" if always else f"n = {kept}", 1)
    else:
        w.emit(f"n = {const(always)}", 1)
    conds = [tuple((p, q, b) for (p, q), b in c.items()) for c in cond]
    updates = []
    if any(add):
        updates.append("ADD[k]")
    if any(keep):
        updates.append("s & KEEP[k]")
    if updates or any(conds):
        w.emit("for k in ks:", 1)
        if updates:
            w.emit("n |= " + " | ".join(updates), 2)
        if any(conds):
            w.emit("for p, q, b in COND[k]:", 2)
            w.emit("if s & p == p and not s & q:", 3)
            w.emit("n |= b", 4)
    items = _items((f, f"n |= {const(bits)}") for f, bits in when.items())
    items += _items((f, f"n |= s & {const(bits)}") for f, bits in when_kept.items())
    w.guarded(items, 1)
    w.emit("return n", 1)
    widest = max([*add, *keep, *(b for c in conds for p, q, b in c), 0]).bit_length()
    if widest < _LITERAL_BITS:  # small tables are written out, for people to read
        head = [f"ADD = {tuple(add)!r}", f"KEEP = {tuple(keep)!r}", f"COND = {tuple(conds)!r}"]
    else:
        tables.update(ADD=tuple(add), KEEP=tuple(keep), COND=tuple(conds))
        head = [f"# ADD, KEEP, COND: per-move tables of {n_moves} masks, in the namespace"]
    return [*head, "", "def next(s, d, ks):", *w.lines, ""]


@dataclass(frozen=True)
class Compiled:
    """The compiled functions of a network (see the module docstring) and their source."""

    terminal: Callable[[int], bool]
    legal: Callable[[int], tuple[list[int], ...]]
    goals: Callable[[int], tuple[list[int], ...]]
    next: Callable[[int, int, Sequence[int]], int]
    source: str


def compile_network(net: Network, meter: Meter | None = None) -> Compiled:
    """Generate and compile the network's functions, counting the work on ``meter``
    (a step per line of code).

    Raises:
        plies.budget.BudgetExceeded: the meter's budget ran out.
    """
    with _metered(meter, "compiling the propositional network"):
        source, namespace = generate(net)
        # Python's compiler cannot be interrupted (the lines were paid for as they were
        # written): the top-level statements are compiled one by one, and a stop that
        # comes meanwhile is honoured between two of them.
        for statement in re.split(r"\n(?=\S)", source):
            _meter().look()
            exec(compile(statement, "<gdl propnet>", "exec"), namespace)
    return Compiled(
        terminal=namespace["terminal"],
        legal=namespace["legal"],
        goals=namespace["goals"],
        next=namespace["next"],
        source=source,
    )
