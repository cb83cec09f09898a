"""What every search shares: the :class:`Searcher` base class and the root driver :func:`run`.

The searches in this package read a game only through :class:`plies.game.GameOps`; they
never import a concrete game.  Each algorithm is a small subclass of :class:`Searcher`
that searches below the root either with a compiled kernel (:meth:`Searcher.compile`:
minimax, expectiminimax, alpha-beta; see :mod:`plies.search.kernels`) or with its own
``node_value`` worker built from this class's helpers (bounded minimax, max^n, BRS,
simultaneous moves); the root (choosing the action, breaking ties, the principal
variation, iterative deepening under a clock) is written once, here.  Either way a
trace, when asked for, reports the nodes of the search that runs.

Depth units
-----------
``Limit(depth=d, unit="ply")``: every decision (one action of one player) counts one.
``unit="round"``: depth grows by one each time the turn comes back to the searching
player after it has moved and at least one other player has had its turn (the
"command center" / CS188 convention; a player's several moves in one turn are one
round).  In a one-player game a round is one move.

Chance events never count: a die roll is part of the move that caused it.  A *player
modelled as chance* (:class:`plies.OpponentsAsChance`, any game whose
``chance_player(state)`` names a player) is still a player for depth: its move counts
one ply and completes rounds exactly as if it chose, so expectimax with modelled
opponents cuts off where minimax with the same opponents does.

Stopping
--------
Every search takes ``stop=``, any object with ``is_set() -> bool``
(:class:`StopSignal`; a :class:`threading.Event` is one).  The clock, the node budget and
the stop signal are looked at with one adaptive cadence (:func:`budget_check`), about
once a millisecond whatever a node costs, and a stopped search returns the last
iteration it completed (``SearchResult.stopped``).
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, TypeVar

from plies.errors import OptionError, SearchLimitError, UnsupportedGameError
from plies.game import CHANCE, SIMULTANEOUS, GameOps, game_ops, no_actions
from plies.search.kernels import INF as INF
from plies.search.kernels import NOBODY as NOBODY
from plies.search.kernels import Kernel
from plies.search.kernels import not_a_player as not_a_player
from plies.search.limits import CHECK_MOST as CHECK_MOST
from plies.search.limits import NEVER as NEVER
from plies.search.limits import Limit as Limit
from plies.search.limits import OutOfBudget as OutOfBudget
from plies.search.limits import StopSignal as StopSignal
from plies.search.limits import Unit as Unit
from plies.search.limits import budget_check as budget_check
from plies.search.result import Origin
from plies.search.result import SearchResult as SearchResult
from plies.search.result import SearchStats as SearchStats
from plies.search.result import Trace as Trace
from plies.search.result import TraceEvent as TraceEvent

T = TypeVar("T")
Tie = Literal["first", "random"]
TIE_RULES = ("first", "random")


def check_tie(tie: str) -> None:
    if tie not in TIE_RULES:
        raise OptionError(f"unknown tie rule {tie!r}; use one of: {', '.join(TIE_RULES)}")


@dataclass
class Searcher:
    """Shared state and helpers of one search; algorithms subclass it.

    Subclasses implement :meth:`compile` (a kernel) or :meth:`node_value` (a worker
    built from the helpers here), and set ``windowed = True`` when the worker honours an
    ``(alpha, beta)`` window.
    """

    game: Any
    player: int
    max_depth: int | None = None
    unit: Unit = "ply"
    trace: Trace | None = None
    budget_nodes: int | None = None
    deadline: float | None = None
    stop: StopSignal | None = None
    ops: GameOps = field(init=False)
    stats: SearchStats = field(init=False, default_factory=SearchStats)
    pv: list[list[Any]] = field(init=False, default_factory=list)
    path: list[Any] = field(init=False, default_factory=list)
    heuristic: bool = field(init=False, default=False)  # an evaluation was used
    partial: bool = field(init=False, default=False)  # the value may be only a bound
    max_ply: int = field(init=False, default=0)
    ply_step: int = field(init=False, default=1)
    rounds: bool = field(init=False, default=False)
    kernel: Kernel | None = field(init=False, default=None)
    root_first: Any = field(init=False, default=None)  # an action to search first at the root
    root_guess: float | None = field(init=False, default=None)  # last iteration's value
    root_window: tuple[float, float] = field(init=False, default=(-INF, INF))
    # Playing engines keep what an interrupted pass proved: a root move better than the
    # last pass's best (set by search_root, read by search_with).
    keeps_partial: bool = field(init=False, default=False)
    provisional: tuple[float, Any, list[Any]] | None = field(init=False, default=None)
    next_check: int = field(init=False, default=1)  # the node count of the next budget look
    check_budget: Callable[..., int] = field(init=False)
    chance_ok: ClassVar[bool] = False
    simultaneous_ok: ClassVar[bool] = False
    max_players: ClassVar[int | None] = None
    windowed: ClassVar[bool] = False
    algorithm: ClassVar[str] = "search"

    def __post_init__(self) -> None:
        self.ops = game_ops(self.game)
        self.rounds = self.unit == "round" and self.ops.num_players > 1
        self.ply_step = 0 if self.rounds else 1
        self.pv = [[], []]
        self.check_budget = self.first_check

    # -- the game's declared facts --------------------------------------------------------

    def prepare(self) -> None:
        """Load what the search will need (a lazily imported solver, say) before the
        clock starts, so that a first search does not report an import as search time.
        The default needs nothing."""

    @classmethod
    def refuse(cls, game: Any) -> None:
        """Raise :class:`UnsupportedGameError` if ``game`` declares what this cannot search.

        Reads the declared facts ``has_chance``, ``has_simultaneous`` (False when absent)
        and ``num_players`` against :attr:`chance_ok`, :attr:`simultaneous_ok` and
        :attr:`max_players`, before any node is searched; the message names the
        algorithm to use instead.
        """
        name = getattr(game, "name", None) or type(game).__name__
        if getattr(game, "has_simultaneous", False) and not cls.simultaneous_ok:
            raise UnsupportedGameError(
                f"{cls.algorithm} cannot search simultaneous moves ({name} has simultaneous "
                "moves); use simultaneous, or wrap the game in plies.Sequentialized"
            )
        if getattr(game, "has_chance", False) and not cls.chance_ok:
            raise UnsupportedGameError(
                f"{cls.algorithm} cannot search chance nodes ({name} has chance); "
                "use expectiminimax"
            )
        players = int(game.num_players)
        if cls.max_players is not None and players > cls.max_players:
            raise UnsupportedGameError(
                f"{cls.algorithm} searches games of at most {cls.max_players} players "
                f"({name} has {players}); use minimax (paranoid) or maxn"
            )

    # -- bookkeeping --------------------------------------------------------------------

    def enter(self, ply: int) -> None:
        """Count a node and enforce the budget, the clock and the stop signal."""
        stats = self.stats
        stats.nodes += 1
        if ply > self.max_ply:
            self.max_ply = ply
            while len(self.pv) <= ply + 1:
                self.pv.append([])
        if stats.nodes >= self.next_check:
            self.next_check = self.check_budget(stats.nodes, self.max_ply)

    def first_check(self, nodes: int, deepest: int = 0) -> int:
        """Arm :func:`budget_check` at the first node (the limits are set after ``__init__``)."""
        first, self.check_budget = budget_check(self.deadline, self.budget_nodes, self.stop)
        return first if first > nodes else self.check_budget(nodes, deepest)

    def actor(self, state: Any, mover: int) -> int:
        """Who decides at this node, for depth: the mover, or the player modelled as chance.

        At a CHANCE node of a game whose ``chance_player(state)`` names a player (see
        :class:`plies.OpponentsAsChance`) that player; at a true chance event CHANCE.
        """
        if mover == CHANCE:
            who = self.ops.chance_player(state)
            return CHANCE if who is None else who
        return mover

    def step(self, actor: int) -> int:
        """How much deeper the children of a node of ``actor`` are (see :meth:`actor`)."""
        return 0 if actor == CHANCE else self.ply_step

    def depth_here(self, depth: int, mover: int, last: int) -> int:
        """This node's depth, given the parent's depth and the last decision-maker.

        ``mover`` is the node's :meth:`actor`.
        """
        if self.rounds and mover == self.player and last != self.player and last != NOBODY:
            return depth + 1
        return depth

    def next_last(self, mover: int, last: int) -> int:
        """The ``last`` argument for this node's children (see :meth:`depth_here`).

        ``mover`` is the node's :meth:`actor`: a true chance event is nobody's decision.
        """
        if mover == CHANCE or (last == NOBODY and mover != self.player):
            return last
        return mover

    def leaf(self, state: Any, depth: int, mover: int, ply: int) -> float | None:
        """The terminal and cutoff tests: the node's value if it is a leaf, else None."""
        ops = self.ops
        if ops.is_terminal(state):
            value = float(ops.utility(state, self.player))
            self.stats.leaves += 1
            if self.trace is not None:
                self.emit("terminal", state, depth, mover, value)
        elif self.max_depth is not None and depth >= self.max_depth:
            value = float(ops.evaluate(state, self.player))
            self.stats.leaves += 1
            self.stats.evals += 1
            self.heuristic = True
            if self.trace is not None:
                self.emit("cutoff", state, depth, mover, value)
        else:
            return None
        self.pv[ply] = []
        return value

    def arrive(
        self,
        state: Any,
        depth: int,
        last: int,
        ply: int,
        alpha: float | None = None,
        beta: float | None = None,
    ) -> tuple[int, int, float | None]:
        """Enter a node: count it, find its mover and depth, apply both tests.

        Returns ``(mover, depth, value)``: ``value`` is the node's value when it is a leaf
        (terminal or cut off), else None and the node is to be expanded.  ``alpha`` and
        ``beta`` only go into the trace.
        """
        self.enter(ply)
        mover = self.ops.to_move(state)
        depth = self.depth_here(depth, self.actor(state, mover), last)
        if self.trace is not None:
            self.emit("enter", state, depth, mover, alpha=alpha, beta=beta)
        value = self.leaf(state, depth, mover, ply)
        if value is None:
            self.check_mover(mover)
            if self.trace is not None:
                self.emit("expand", state, depth, mover, alpha=alpha, beta=beta)
        return mover, depth, value

    def check_mover(self, mover: int) -> None:
        """Refuse node types this algorithm cannot search, and movers that are no player."""
        if not 0 <= mover < self.ops.num_players and mover not in (CHANCE, SIMULTANEOUS):
            raise not_a_player(self.game, mover)
        if mover == CHANCE and not self.chance_ok:
            raise UnsupportedGameError(
                f"{self.algorithm} cannot search chance nodes; use expectiminimax"
            )
        if mover == SIMULTANEOUS and not self.simultaneous_ok:
            raise UnsupportedGameError(
                f"{self.algorithm} cannot search simultaneous-move nodes; use simultaneous"
            )

    def legal(self, state: Any) -> Sequence[Any]:
        """The actions at a non-leaf node; a non-terminal state without any is an error."""
        actions = self.ops.actions(state)
        if not actions:
            raise no_actions(state)
        return actions

    def emit(
        self,
        kind: Any,
        state: Any,
        depth: int,
        mover: int,
        value: float | None = None,
        alpha: float | None = None,
        beta: float | None = None,
        pruned: Sequence[Any] = (),
        values: tuple[float, ...] | None = None,
        *,
        path: Sequence[Any] | None = None,
    ) -> None:
        """Report an event about the node at :attr:`path` (or ``path``) to the trace."""
        assert self.trace is not None
        self.trace(
            TraceEvent(
                kind, tuple(self.path if path is None else path), depth, mover, state, value,
                alpha, beta, tuple(pruned), values,
            )
        )

    # -- the worker --------------------------------------------------------------------

    def node_value(
        self, state: Any, depth: int, last: int, ply: int, alpha: float, beta: float
    ) -> float:
        """The value of ``state`` for ``self.player``; subclasses define the contract."""
        raise NotImplementedError

    def root_stop(self, best: float, maximizing: bool) -> bool:
        """True when the root may stop at ``best`` without looking at more actions."""
        return False

    def kernel_budget(self) -> int | None:
        """The node budget left for a kernel below the root (the root counts one)."""
        return None if self.budget_nodes is None else self.budget_nodes - 1

    def compile(self) -> Kernel | None:
        """The algorithm's kernel for this search (with :attr:`trace`), or None when the
        algorithm searches with :meth:`node_value` (see :mod:`plies.search.kernels`)."""
        return None

    def child_value(
        self, state: Any, action: Any, depth: int, last: int, ply: int,
        alpha: float = -INF, beta: float = INF,
    ) -> float:
        """Search the child reached by ``action`` (``depth`` and ``last`` are the parent's)."""
        kernel = self.kernel
        if kernel is not None:
            child = self.ops.result(state, action)
            self.step_into(ply, action)
            return kernel.worker(child, kernel.entry_depth(depth, last), ply + 1, alpha, beta)
        return self.descend(state, action, self.node_value, depth, last, ply + 1, alpha, beta)

    def step_into(self, ply: int, action: Any) -> None:
        """Before the kernel searches a child of the node at ``ply`` (the root): the
        trace's path to it goes through ``action``."""
        if self.trace is not None and self.kernel is not None:
            path = self.kernel.path
            del path[ply:]
            path.append(action)

    def line(self, ply: int) -> list[Any]:
        """The principal variation found below the node last searched at ``ply``."""
        return self.kernel.line(ply) if self.kernel is not None else list(self.pv[ply])

    def descend(self, state: Any, action: Any, worker: Callable[..., T], *args: Any) -> T:
        """``worker(child, *args)`` for the child reached by ``action``, tracking the path."""
        child = self.ops.result(state, action)
        if self.trace is None:
            return worker(child, *args)
        self.path.append(action)
        try:
            return worker(child, *args)
        finally:
            self.path.pop()

    # -- the root --------------------------------------------------------------------------

    def root(
        self,
        state: Any,
        *,
        tie: str = "first",
        rng: random.Random | None = None,
        all_values: bool = False,
    ) -> tuple[float, Any, list[Any], dict[Any, float] | None]:
        """Search the root: ``(value, action, pv, action_values)`` (see :meth:`search_root`).

        Below the root the algorithm's kernel runs (:meth:`compile`), or its
        :meth:`node_value`.
        """
        self.kernel = self.compile()
        try:
            return self.search_root(state, tie=tie, rng=rng, all_values=all_values)
        finally:
            if self.kernel is not None:
                done = self.kernel.stats
                self.stats.nodes += done.nodes
                self.stats.leaves += done.leaves
                self.stats.evals += done.evals
                self.stats.cutoffs += done.cutoffs
                self.stats.tt_hits += done.tt_hits
                self.heuristic = self.heuristic or self.kernel.heuristic
                self.max_ply = max(self.max_ply, self.kernel.max_ply)

    def search_root(
        self,
        state: Any,
        *,
        tie: str = "first",
        rng: random.Random | None = None,
        all_values: bool = False,
    ) -> tuple[float, Any, list[Any], dict[Any, float] | None]:
        """Search the root: ``(value, action, pv, action_values)``.

        The root's children are searched one by one.  With the ``"first"`` tie rule a
        windowed search gives each child the window ``(best, +inf)`` at a max root
        (``(-inf, best)`` at a min root), so a child that only ties returns a bound that
        never displaces the first best action.  With ``"random"`` the window is opened
        by one ulp so every tie is an exact value, and the choice among them is seeded.
        With ``all_values`` every child gets the full window (``analyze``).

        ``root_window`` ``(a, b)`` narrows every child's window (aspiration and
        bisection, see :class:`~plies.search.alphabeta.CraftSearcher`): a root value
        ``<= a`` or ``>= b`` is then only a bound, and the root stops at the first
        child that reaches ``b`` (or ``a`` at a min root).
        """
        ops = self.ops
        mover = ops.to_move(state)
        if mover == CHANCE and self.chance_ok:
            if self.kernel is not None:
                value = self.kernel.worker(state, 0, 0, -INF, INF)
            else:
                value = self.node_value(state, 0, NOBODY, 0, -INF, INF)
            return value, None, self.line(0), None
        self.enter(0)
        depth = 0
        if self.trace is not None:
            self.emit("enter", state, depth, mover)
        leaf = self.leaf(state, depth, mover, 0)
        if leaf is not None:
            return leaf, None, [], {} if all_values else None
        self.check_mover(mover)
        if self.trace is not None:
            window = self.root_window if self.windowed else (None, None)
            self.emit("expand", state, depth, mover, alpha=window[0], beta=window[1])
        maximizing = mover == self.player
        sign = 1.0 if maximizing else -1.0
        child_depth = depth + self.ply_step
        last = self.next_last(mover, NOBODY)
        best = -INF * sign
        best_actions: list[tuple[int, Any]] = []
        pvs: dict[int, list[Any]] = {}
        values: dict[Any, float] = {}
        actions = self.legal(state)
        sequence = list(enumerate(actions))
        first = tie == "first" and not all_values
        if first and self.root_first is not None and self.root_first in actions:
            j = list(actions).index(self.root_first)  # try last iteration's best move first
            sequence.insert(0, sequence.pop(j))
        for i, action in sequence:
            alpha, beta = -INF, INF
            if self.windowed and not all_values and best_actions:
                # A tie counts only against an earlier action: see it exactly there.
                exact_ties = not first or i < best_actions[0][0]
                edge = math.nextafter(best, -INF * sign) if exact_ties else best
                if maximizing:
                    alpha = edge
                else:
                    beta = edge
            low, high = self.root_window
            alpha, beta = max(alpha, low), min(beta, high)
            value = self.child_value(state, action, child_depth, last, 0, alpha, beta)
            if all_values:
                values[action] = value
            earlier_tie = first and best_actions and value == best and i < best_actions[0][0]
            if not best_actions or value * sign > best * sign or earlier_tie:
                improved = bool(best_actions) and not earlier_tie
                best, best_actions = value, [(i, action)]
                pvs = {i: [action, *self.line(1)]}
                if improved and first and self.keeps_partial and self.root_window == (-INF, INF):
                    # Proved better than every move before it (the last pass's best first).
                    self.provisional = (best, action, pvs[i])
                if tie == "first" and not all_values and self.root_stop(best, maximizing):
                    self.stats.cutoffs += 1
                    if self.trace is not None:
                        rest = actions[i + 1 :]
                        self.emit("prune", state, depth, mover, best, pruned=rest)
                    break
            elif value == best and (tie == "random" or all_values):
                best_actions.append((i, action))
                pvs[i] = [action, *self.line(1)]
            if (high if maximizing else -low) <= best * sign:
                break  # failed high (low) against the root window: a bound, searched again
        if tie == "random" and len(best_actions) > 1:
            assert rng is not None
            i, action = rng.choice(best_actions)
        else:
            i, action = best_actions[0]
        self.pv[0] = pvs[i]
        if self.trace is not None:
            self.emit("backup", state, depth, mover, best)
        return best, action, pvs[i], values if all_values else None


def resolve_player(game: Any, state: Any, player: int | None) -> int:
    """The searching player: ``player``, or the mover at ``state`` when None."""
    if player is None:
        mover = int(game.to_move(state))
        if mover in (CHANCE, SIMULTANEOUS):
            raise UnsupportedGameError(
                "the root is a chance or simultaneous node: pass player= explicitly"
            )
        if not 0 <= mover < game.num_players:
            raise not_a_player(game, mover)
        return mover
    if not 0 <= player < game.num_players:
        raise OptionError(f"no player {player}; players are 0..{game.num_players - 1}")
    return player


DEEPEN_ALWAYS: ContextVar[bool] = ContextVar("plies_deepen_always", default=False)
"""Set by :func:`plies.search.iterations` in its worker: the search there deepens
iteratively (1, 2, ...), even without a depth limit or a budget, so that it has
iterations to hand out (a search run inside it, by an ``evaluate``, is not affected)."""


def run(
    searcher_factory: Callable[[int | None], Searcher],
    state: Any,
    limit: Limit | None,
    *,
    tie: str = "first",
    seed: int | None = None,
    all_values: bool = False,
    vector: Callable[[Searcher], tuple[float, ...] | None] | None = None,
    deepen: bool = False,
    on_iteration: Callable[[SearchResult], None] | None = None,
    stop: StopSignal | None = None,
) -> SearchResult:
    """Drive a search under ``limit``: one pass, or iterative deepening.

    ``searcher_factory(depth)`` makes a fresh searcher for one pass at ``depth``.  Before
    anything is searched, the searcher's class checks the game's declared facts
    (:meth:`Searcher.refuse`).  With a time or node budget, or with ``deepen`` or
    ``on_iteration`` and a depth limit, the passes deepen 1, 2, ... (up to
    ``limit.depth``), each trying the previous pass's best move first,
    and the result is the last completed pass; deepening stops early once a pass used no
    heuristic, because its value is then exact.  ``on_iteration`` gets the result of
    every completed pass (with a snapshot of the statistics so far).

    ``stop`` (see :class:`StopSignal`), the clock and the node budget end the search
    at the next look (:func:`budget_check`); the result is then the last completed
    pass, or, if not even one completed (always so for a single pass), the first legal
    action with the root's evaluation (``exact=False``); either way ``stopped=True``.
    A searcher that ``keeps_partial`` (a playing engine) returns instead the move the
    interrupted pass proved better than the last pass's best, searched first in it
    (``value`` a bound at the deeper depth, ``pv`` that pass's line).
    """
    check_tie(tie)
    limit = limit or Limit()
    probe = searcher_factory(limit.depth)
    probe.refuse(probe.game)
    probe.prepare()  # imports are not search time: the clock starts after them
    origin = Origin(probe.game, state)  # every result knows what it was searched on
    start = time.perf_counter()
    total = SearchStats()
    partial: list[SearchResult] = []  # what a pass proved before it was interrupted

    def one_pass(
        depth: int | None,
        deadline: float | None,
        nodes: int | None,
        last: SearchResult | None = None,
    ) -> SearchResult:
        s = searcher_factory(depth)
        s.deadline, s.budget_nodes, s.stop = deadline, nodes, stop
        if last is not None:
            s.root_first, s.root_guess = last.action, last.value
        rng = random.Random(seed) if tie == "random" else None
        try:
            value, action, pv, values = s.root(state, tie=tie, rng=rng, all_values=all_values)
        except OutOfBudget:
            if s.provisional is not None and last is not None and s.root_first == last.action:
                v, a, line = s.provisional
                partial.append(
                    SearchResult(v, a, tuple(line), total, s.player, False, origin=origin)
                )
            raise
        finally:
            _merge(total, s.stats)
        done = s.max_ply if depth is None else depth
        total.depth = done
        total.seldepth = s.max_ply
        return SearchResult(
            value, action, tuple(pv), total, s.player, not (s.heuristic or s.partial), values,
            vector(s) if vector else None, origin=origin,
        )

    def report(result: SearchResult) -> None:
        if on_iteration is not None:
            total.elapsed = time.perf_counter() - start
            on_iteration(dataclasses.replace(result, stats=dataclasses.replace(total)))

    def stopped() -> SearchResult:
        fallback = _fallback(searcher_factory, state, total)
        return dataclasses.replace(fallback, stopped=True, origin=origin)

    always = DEEPEN_ALWAYS.get()
    inner = DEEPEN_ALWAYS.set(False)  # a search inside this one (in an evaluate) is plain
    try:
        if not (limit.anytime or always) and (
            limit.depth is None or not (deepen or on_iteration)
        ):
            # No budget and no depth to deepen towards: one exact pass (reported once).
            try:
                result = one_pass(limit.depth, None, None)
            except OutOfBudget:  # only a stop signal ends a pass without a budget
                return stopped()
            report(result)
            return result
        deadline = None if limit.time is None else start + limit.time
        best: SearchResult | None = None
        depth = 0 if limit.depth == 0 else 1
        while limit.depth is None or depth <= limit.depth:
            left = None if limit.nodes is None else limit.nodes - total.nodes
            try:
                if (stop is not None and stop.is_set()) or (
                    deadline is not None and time.perf_counter() > deadline
                ):
                    raise OutOfBudget  # no need to start a pass that cannot finish
                best = one_pass(depth, deadline, left, best)
            except OutOfBudget:
                if partial and best is not None:
                    return dataclasses.replace(partial[-1], stopped=True)
                return dataclasses.replace(best, stopped=True) if best else stopped()
            report(best)
            if best.exact:
                break
            depth += 1
        return best if best is not None else stopped()
    finally:
        DEEPEN_ALWAYS.reset(inner)
        total.elapsed = time.perf_counter() - start


def _merge(total: SearchStats, part: SearchStats) -> None:
    total.nodes += part.nodes
    total.leaves += part.leaves
    total.evals += part.evals
    total.cutoffs += part.cutoffs
    total.tt_hits += part.tt_hits


def _fallback(
    searcher_factory: Callable[[int | None], Searcher], state: Any, total: SearchStats
) -> SearchResult:
    s = searcher_factory(0)
    ops = s.ops
    total.depth = 0
    if ops.is_terminal(state):  # stopped before even the root was looked at: score it now
        value = float(ops.utility(state, s.player))
        return SearchResult(value, None, (), total, s.player)
    actions = ops.actions(state)
    if not actions:
        raise SearchLimitError("no legal action at a non-terminal root")
    value = float(ops.evaluate(state, s.player))
    total.evals += 1
    return SearchResult(value, actions[0], (actions[0],), total, s.player, exact=False)


def search_with(
    cls: type[Searcher],
    game: Any,
    state: Any,
    limit: Limit | None,
    player: int | None,
    tie: str,
    seed: int | None,
    trace: Trace | None,
    configure: Callable[[Any], None] | None = None,
    *,
    stop: StopSignal | None = None,
    **run_options: Any,
) -> SearchResult:
    """Run the searcher class ``cls`` under ``limit``: what every entry point shares.

    ``configure`` sets algorithm options on each searcher; ``stop`` and ``run_options``
    go to :func:`run` (``deepen``, ``on_iteration``, ``all_values``).
    """
    who = resolve_player(game, state, player)
    unit = limit.unit if limit else "ply"

    def factory(depth: int | None) -> Searcher:
        searcher = cls(game, who, depth, unit, trace)
        if configure is not None:
            configure(searcher)
        return searcher

    return run(factory, state, limit, tie=tie, seed=seed, stop=stop, **run_options)
