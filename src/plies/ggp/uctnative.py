"""The compiled UCT tree: the GGP player's UCT (the same algorithm as
:class:`plies.search.mcts.MctsTree` with batched iterations) run whole in Numba on the
reasoner's compiled network.

:class:`NativeTree` keeps the tree in numpy arrays (see :mod:`plies.ggp.uctjit` for the
layout) that grow by doubling up to a memory cap (:data:`MAX_BYTES`); once full, the
tree stops expanding and its iterations play out from where they would have added a
node.  An iteration is :meth:`plies.search.mcts_tree.Tree.iterate_batch`'s: UCB1 with
the player's exploration constant at a decision node (a solved child scored by its
proof), decoupled UCB1 at a simultaneous one (with the same 5% of uniform choices),
one random untried move expanded, a virtual loss per lane, one compiled batch of
playouts (MAST's, :meth:`plies.gdl.gatenet.GateNet.batch`'s kernel) for every lane,
max^n rewards in [0, 1] backed up, and MCTS-Solver's proofs, with the root's scan for
decisive and anti-decisive moves.  The final move is :func:`plies.search.mcts_tree.final_choice`'s
and, at a simultaneous root, the visit frequencies of our own moves.

Two differences from the Python tree: a playout that reaches the step cap scores 0.5
for every role (the Python tree plays it again and scores the state with the goals),
and a terminal state where a role has no goal, or several, scores 0 for it (the Python
tree raises).  The contract tests (``tests/ggp/test_uctnative.py``) grow both trees
with the same deterministic playouts and compare them node by node.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Sequence
from typing import Any, Final

from plies.gdl.gatenet import GateNet
from plies.gdl.gatenet import Mast as NativeMast
from plies.gdl.reasoner import MoveDefinitionError, Reasoner
from plies.search import Limit, SearchResult
from plies.search.common import SearchStats, StopSignal

MAX_BYTES: Final = 256 * 2**20
"""The most memory the tree's arrays take (nodes and edges together); a full tree stops
expanding."""

CACHE_BYTES: Final = 16 * 2**20
"""The most memory the children cache takes (:func:`plies.ggp.uctjit._expand`: the
children of a node computed 64 at a time, kept until they are expanded)."""

START_NODES: Final = 4096
"""The nodes the arrays hold at first (they double as the tree grows)."""

BATCHES: Final = 64
"""The most batches of iterations one compiled call runs (fewer near a deadline)."""

NEUTRAL: Final = 0.5


class NativeTree:
    """A UCT tree over ``reasoner``'s compiled network ``net``, kept across searches
    (:meth:`search`, :meth:`reroot`), as :class:`plies.search.mcts.MctsTree` is.

    ``zero_sum`` lets a proven win prove its parent in a two-role game (MCTS-Solver's
    shortcut), ``mast`` are the compiled MAST statistics the playouts draw with and
    learn (None: uniformly random playouts), ``greedy`` makes the playouts greedy
    (:meth:`plies.gdl.gatenet.GateNet.batch`: 1 decisive moves, 2 anti-decisive too),
    ``batch`` the iterations that share one batch of playouts.  ``deterministic``
    takes the first candidate wherever the search would draw, and ``fixed`` replaces
    the playouts by :func:`plies.ggp.uctjit.fixed_goal` of the leaf: both only for the
    contract tests.
    ``cache_bytes`` caps the children cache (:data:`CACHE_BYTES`; 0: none, every child
    computed alone): it changes the speed only, never the tree.
    ``frozen`` are fluents that ``net`` never changes (the other parts of a factored
    game, :func:`plies.gdl.factor.subgame`): :meth:`reroot` finds a state by the other
    fluents and gives the kept nodes the new values of these.
    """

    def __init__(
        self, reasoner: Reasoner, net: GateNet, state: int, *, seed: int, exploration: float,
        playout: int, zero_sum: bool, mast: NativeMast | None = None, batch: int = 64,
        deterministic: bool = False, fixed: bool = False, max_bytes: int = MAX_BYTES,
        cache_bytes: int = CACHE_BYTES, frozen: Sequence[int] = (), greedy: int = 0,
    ) -> None:
        import numpy as np

        from plies.ggp import uctjit

        self._np = np
        self.jit = uctjit
        self.reasoner = reasoner
        self.net = net
        self.rng = random.Random(seed)
        self.exploration = exploration
        self.playout = playout
        self.roles = net.roles
        self.shortcut = self.roles == 1 or (self.roles == 2 and zero_sum)
        self.mast = mast
        self.greedy = greedy
        self.batch = batch
        self.deterministic = deterministic
        self.fixed = fixed
        self.pace = 0.0
        self.root = 0
        self.frozen = np.array(sorted(frozen), dtype=np.int64)
        nr = self.roles
        self._row = net.fluents + 8 * (uctjit.RFIRST + nr + 1) + 8 * 2 * nr
        self._edge = 8 * 3 + 8
        self.max_nodes = max(16, max_bytes // 2 // self._row)
        self.max_edges = max(16 + net.moves, max_bytes // 2 // self._edge)
        self.meta = np.zeros(8, dtype=np.int64)
        width = int(uctjit.block_width(net.k))
        rows = 1
        while 2 * rows * width * 8 <= cache_bytes:
            rows *= 2
        rows = rows if rows * width * 8 <= cache_bytes else 0
        self.cache = np.zeros((rows, width), dtype=np.uint64)
        self.tags = np.full(rows, -1, dtype=np.int64)
        self._alloc(min(START_NODES, self.max_nodes),
                    min(START_NODES * 4 + net.moves, self.max_edges))
        self._fresh(state)

    # --- the arrays -------------------------------------------------------------------

    def _alloc(self, nodes: int, edges: int) -> None:
        np, nr = self._np, self.roles
        self.ns = np.zeros((nodes, self.net.fluents), dtype=np.uint8)
        self.ni = np.zeros((nodes, self.jit.RFIRST + nr + 1), dtype=np.int64)
        self.nf = np.zeros((nodes, 2 * nr), dtype=np.float64)
        self.ei = np.zeros((edges, 3), dtype=np.int64)
        self.ef = np.zeros(edges, dtype=np.float64)

    def _grow(self, nodes: int, edges: int) -> None:
        """Make room for ``nodes`` more nodes and ``edges`` more edges, as far as the cap
        allows (the kernels check the room left before each expansion)."""
        np, meta, jit = self._np, self.meta, self.jit
        want_n = min(self.max_nodes, int(meta[jit.NODES]) + nodes)
        want_e = min(self.max_edges, int(meta[jit.EDGES]) + edges)
        have_n, have_e = self.ns.shape[0], self.ei.shape[0]
        if want_n > have_n:
            size = min(self.max_nodes, max(want_n, 2 * have_n))
            self.ns = _resized(np, self.ns, size)
            self.ni = _resized(np, self.ni, size)
            self.nf = _resized(np, self.nf, size)
        if want_e > have_e:
            size = min(self.max_edges, max(want_e, 2 * have_e))
            self.ei = _resized(np, self.ei, size)
            self.ef = _resized(np, self.ef, size)

    def _fresh(self, state: int) -> None:
        """A tree of one node, ``state``."""
        jit, net, meta = self.jit, self.net, self.meta
        meta[:] = 0
        self.tags[:] = -1  # the node numbers start again
        self._grow(1, net.moves)
        self.ns[0, :] = net.to_array(state)
        meta[jit.NODES] = 1
        np = self._np
        ok = jit.make_node(
            net.k, *net._machine(), self.ns, self.ni, self.nf, self.ei, self.meta, 0,
            np.zeros(net.moves, np.uint8), np.zeros(len(net._goal_role), np.uint8),
            self.ns[0], np.zeros(self.roles, np.int64),
        )
        self.root = 0
        self._check(ok)

    def _check(self, ok: bool) -> None:
        error = int(self.meta[self.jit.ERROR])
        if not ok or error:
            self.meta[self.jit.ERROR] = 0
            role = self.reasoner.roles[max(error - 1, 0)]
            raise MoveDefinitionError(f"role {role} has no legal move in a non-terminal state")

    @property
    def nodes(self) -> int:
        """Nodes in the arrays (the tree's, and until the next re-rooting, dropped ones)."""
        return int(self.meta[self.jit.NODES])

    @property
    def full(self) -> bool:
        """Whether the last iterations found the arrays full (at the memory cap: the
        tree stopped expanding)."""
        return bool(self.meta[self.jit.FULL])

    @property
    def visits(self) -> int:
        """Iterations through the root so far (kept ones included)."""
        return int(self.ni[self.root, self.jit.VISITS])

    # --- moving the root ------------------------------------------------------------------

    def reroot(self, state: int, *, depth: int = 2) -> bool:
        """Move the root to ``state``: the shallowest node at most ``depth`` moves below
        the root with that state, its subtree kept (and copied to the front of the
        arrays, the rest dropped), else a fresh tree.  True when it was found."""
        jit, frozen = self.jit, self.frozen
        real = self.net.to_array(state)
        target = real.copy()
        target[frozen] = self.ns[self.root, frozen]  # the tree's own, the same in every node
        found = int(jit.find(self.ns, self.ni, self.ei, self.root, self.roles, target, depth))
        if found < 0:
            self._fresh(state)
            return False
        old = (self.ns, self.ni, self.nf, self.ei, self.ef)
        self._alloc(self.ns.shape[0], self.ei.shape[0])
        jit.compact(*old[:4], old[4], self.meta, found, self.roles,
                    self.ns, self.ni, self.nf, self.ei, self.ef)
        self.meta[jit.FULL] = 0
        self.tags[:] = -1  # the nodes are numbered anew
        self.root = 0
        if frozen.size:
            self.ns[: self.nodes, frozen] = real[frozen]
        return True

    # --- searching ------------------------------------------------------------------------

    def search(self, limit: Limit | None = None, *, player: int,
               stop: StopSignal | None = None) -> SearchResult:
        """Iterate from the root under ``limit`` (a time or a number of iterations) and
        ``stop``; the result as :meth:`plies.search.mcts.MctsTree.search` gives it
        (``action``, ``value`` on the 0..100 scale, ``strategy`` at a simultaneous root,
        ``exact`` when the root is solved; ``pv`` is the action alone)."""
        limit = limit or Limit()
        jit, net = self.jit, self.net
        start = time.perf_counter()
        stats = SearchStats()
        root = self.root
        ni = self.ni
        if ni[root, jit.TERM]:
            stats.elapsed = time.perf_counter() - start
            value = 100.0 * float(self.nf[root, self.roles + player])
            return SearchResult(value, None, (), stats, player, exact=True)
        anti = self.roles == 2 and int(ni[root, jit.MOVER]) >= 0
        self._grow(net.moves + 1, 0)
        ok = jit.scan_root(net.k, *net._machine(), self.ns, self.ni, self.nf, self.ei,
                           self.meta, root, anti, self.shortcut)
        self._check(ok)
        budget = limit.nodes
        deadline = None if limit.time is None else start + limit.time
        done = 0
        stopped = False
        mast = self.mast
        if mast is None:
            empty = self._np.empty(0, dtype=self._np.float64)
            learn: tuple[Any, ...] = (False, empty, empty, empty, 1.0)
        else:
            learn = (True, mast.weights, mast.sums, mast.counts, mast.tau)
        words = net.words()
        cones = net.lookahead() if self.greedy else self._np.empty(0, dtype=self._np.int64)
        while not self.ni[root, jit.SOLVED]:
            if budget is not None and done >= budget:
                break
            if stop is not None and stop.is_set():
                stopped = True
                break
            lanes, batches = self.batch, BATCHES
            now = time.perf_counter()
            if deadline is not None:
                if now >= deadline:
                    stopped = True
                    break
                if done:
                    self.pace = (now - start) / done
                if self.pace > 0.0:
                    fit = int((deadline - now) / self.pace)
                    lanes = max(1, min(lanes, fit))
                    batches = max(1, min(batches, fit // lanes // 4 or 1))
                else:
                    batches = 1
            if budget is not None:
                lanes = min(lanes, budget - done)
                batches = max(1, min(batches, (budget - done) // lanes))
            if stop is not None and budget is None:
                batches = min(batches, 8)
            nodes = lanes * batches + 1
            used = max(1, int(self.meta[jit.NODES]))
            per_node = int(self.meta[jit.EDGES]) // used + 1
            self._grow(nodes, nodes * 2 * per_node + net.moves)
            self.meta[jit.FULL] = 0
            done += int(jit.iterate(
                net.k, *net._machine(), *words, self.cache, self.tags, self.ns, self.ni,
                self.nf, self.ei, self.ef, self.meta, root, lanes, batches,
                self.rng.getrandbits(31), self.exploration, self.shortcut, self.deterministic,
                self.fixed, self.playout, *learn, self.greedy, net.ends, cones,
            ))
            self._check(True)
        stats.nodes = done
        stats.leaves = int(self.meta[jit.LEAVES])
        stats.elapsed = time.perf_counter() - start
        return self._result(player, stats, stopped)

    def _term(self, edge: int) -> Any:
        """The move term of an edge."""
        m = int(self.ei[edge, self.jit.MOVE])
        first = self.net.role_first
        role = max(r for r in range(self.roles) if first[r] <= m)
        return self.reasoner.move_table[role][m - first[role]]

    def _mean(self, node: int, who: int) -> float:
        jit, nr = self.jit, self.roles
        if self.ni[node, jit.SOLVED]:
            return float(self.nf[node, nr + who])
        visits = int(self.ni[node, jit.VISITS])
        return float(self.nf[node, who]) / visits if visits else NEUTRAL

    def choice(self) -> int | None:
        """The root's edge to play at a decision root (the proving one once solved), by
        :func:`plies.search.mcts_tree.final_choice`'s rules; None without children."""
        jit, ni, ei, nf, nr = self.jit, self.ni, self.ei, self.nf, self.roles
        root = self.root
        if ni[root, jit.SOLVED]:
            return int(ni[root, jit.BEST])
        mover = int(ni[root, jit.MOVER])
        lo, hi = int(ni[root, jit.RFIRST + mover]), int(ni[root, jit.RFIRST + mover + 1])
        kids = [(e, int(ei[e, jit.CHILD])) for e in range(lo, hi) if ei[e, jit.CHILD] >= 0]
        if not kids:
            return None
        best_proven, best_proof = None, -math.inf
        for e, c in kids:
            if ni[c, jit.SOLVED] and nf[c, nr + mover] > best_proof:
                best_proven, best_proof = e, float(nf[c, nr + mover])
        unknown = [(e, c) for e, c in kids if not ni[c, jit.SOLVED] and ni[c, jit.VISITS]]
        if unknown:
            def rank(ec: tuple[int, int]) -> tuple[int, float]:
                c = ec[1]
                return int(ni[c, jit.VISITS]), float(nf[c, mover]) / int(ni[c, jit.VISITS])
            top = max(rank(ec) for ec in unknown)
            pick = next(ec for ec in unknown if rank(ec) == top)
            if best_proven is None or best_proof < top[1]:
                return pick[0]
        return best_proven

    def strategy(self, who: int) -> tuple[list[int], list[float]]:
        """At a simultaneous root, ``who``'s own move edges and their visit frequencies."""
        jit, ni, ei = self.jit, self.ni, self.ei
        lo, hi = int(ni[self.root, jit.RFIRST + who]), int(ni[self.root, jit.RFIRST + who + 1])
        edges = list(range(lo, hi))
        visits = [int(ei[e, jit.EVISITS]) for e in edges]
        total = sum(visits)
        shares = [v / total for v in visits] if total else [1.0 / len(edges)] * len(edges)
        return edges, shares

    def _result(self, who: int, stats: SearchStats, stopped: bool) -> SearchResult:
        jit, ni, ei, ef = self.jit, self.ni, self.ei, self.ef
        root = self.root
        if int(ni[root, jit.MOVER]) == jit.SIM:
            edges, shares = self.strategy(who)
            def rank(i: int) -> tuple[float, float, int]:
                v = int(ei[edges[i], jit.EVISITS])
                return shares[i], float(ef[edges[i]]) / v if v else 0.0, -i
            mine = max(range(len(edges)), key=rank)
            v = int(ei[edges[mine], jit.EVISITS])
            value = 100.0 * (float(ef[edges[mine]]) / v if v else NEUTRAL)
            visited = ni[root, jit.VISITS] > 0
            action = self._term(edges[mine]) if visited else None
            strategy = ({self._term(e): p for e, p in zip(edges, shares, strict=True)}
                        if any(ei[e, jit.EVISITS] for e in edges) else None)
            return SearchResult(value, action, (action,) if visited else (), stats, who,
                                exact=False, strategy=strategy, stopped=stopped)
        edge = self.choice()
        if edge is None:  # no iteration has reached a child yet: an estimate, no move
            return SearchResult(100.0 * self._mean(root, who), None, (), stats, who,
                                exact=False, stopped=stopped)
        child = int(ei[edge, jit.CHILD])
        action = self._term(edge)
        exact = bool(ni[root, jit.SOLVED])
        return SearchResult(100.0 * self._mean(child, who), action, (action,), stats, who,
                            exact=exact, stopped=stopped and not exact)


_READY: dict[int, threading.Event] = {}
_READY_LOCK = threading.Lock()


def ready(reasoner: Reasoner, net: GateNet) -> bool:
    """Whether the compiled tree's kernels are compiled (or loaded from Numba's cache)
    for ``net``; the first call starts compiling them in a background thread, so that a
    player's search never stalls on a compilation mid-match (it keeps the Python tree
    until then)."""
    with _READY_LOCK:
        event = _READY.get(id(net))
        if event is None:
            event = _READY[id(net)] = threading.Event()
            threading.Thread(target=_warm, args=(reasoner, net, event), daemon=True,
                             name="plies-uct-warm").start()
    return event.is_set()


def _warm(reasoner: Reasoner, net: GateNet, event: threading.Event) -> None:
    """Run every kernel of the compiled tree once: a search, with MAST's statistics
    and without, and a re-rooting; then measure what a greedy playout costs
    (:meth:`plies.gdl.gatenet.GateNet.measure_greedy`)."""
    try:
        start = reasoner.initial_state()
        for mast in (None, NativeMast(net, 10.0)):
            tree = NativeTree(reasoner, net, start, seed=0, exploration=0.4, playout=4,
                              zero_sum=False, mast=mast, batch=2)
            tree.search(Limit(nodes=4), player=0)
            tree.reroot(start)
        if net.roles <= 2:
            net.measure_greedy(start)
    except Exception:  # the search reports the error itself, later
        pass
    event.set()


def _resized(np: Any, array: Any, rows: int) -> Any:
    out = np.zeros((rows, *array.shape[1:]), dtype=array.dtype)
    out[: array.shape[0]] = array
    return out
