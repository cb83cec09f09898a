"""Alpha-beta: minimax that skips the children which cannot change the root's value.

Fail-soft alpha-beta over the paranoid model of :mod:`plies.search.minimax` (the searching
player maximises, every other player minimises its utility; a player with several moves in
a row gets stacked max or min layers).  At the same depth it returns exactly minimax's
value, and with the ``"first"`` tie rule the same action: the root's children are
searched in ``actions()`` order, and a child that can only tie the best so far is given a
window in which it returns a bound, never a value that displaces the first best action.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable
from typing import Any, Final

from plies._compat import deprecated_alias
from plies.errors import OptionError
from plies.game import Game, hook
from plies.search.common import (
    INF,
    Limit,
    Searcher,
    SearchResult,
    StopSignal,
    Trace,
    search_with,
)
from plies.search.craft import (
    HINT_DEPTH,
    PLAIN,
    Craft,
    Order,
    Ordering,
    TranspositionTable,
    move_order,
)
from plies.search.kernels import Kernel, alphabeta_kernel
from plies.search.mate import MateDistance

__all__ = ["AlphaBetaSearcher", "Craft", "CraftSearcher", "Order", "alphabeta"]


class AlphaBetaSearcher(Searcher):
    """Depth-first alpha-beta with a fail-soft window."""

    algorithm = "alphabeta"
    windowed = True
    kernel_rounds = True
    order: Order | None = None

    def node_value(
        self, state: Any, depth: int, last: int, ply: int, alpha: float, beta: float
    ) -> float:
        """Fail-soft alpha-beta value ``v`` of ``state`` for ``self.player``.

        If ``alpha < v < beta``, ``v`` is the minimax value; if ``v <= alpha`` the
        minimax value is at most ``v``; if ``v >= beta`` it is at least ``v``.
        """
        mover, depth, value = self.arrive(state, depth, last, ply, alpha, beta)
        if value is not None:
            return value
        trace = self.trace
        maximizing = mover == self.player
        child_depth = depth + self.ply_step
        last = self.next_last(mover, last)
        actions = self.legal(state)
        if self.order is not None:
            actions = self.order(state, actions)
        value = -INF if maximizing else INF
        for i, action in enumerate(actions):
            v = self.child_value(state, action, child_depth, last, ply, alpha, beta)
            if maximizing:
                if v <= value:
                    continue
                value = v
                alpha = max(alpha, v)
            else:
                if v >= value:
                    continue
                value = v
                beta = min(beta, v)
            self.pv[ply] = [action, *self.pv[ply + 1]]
            if alpha >= beta:
                if i + 1 < len(actions):
                    self.stats.cutoffs += 1
                    if trace is not None:
                        rest = actions[i + 1 :]
                        self.emit("prune", state, depth, mover, value, alpha, beta, rest)
                break
        if trace is not None:
            self.emit("backup", state, depth, mover, value, alpha, beta)
        return value

    def compile(self) -> Kernel:
        return alphabeta_kernel(
            self.ops, self.player, self.max_depth, order=self.order, rounds=self.rounds,
            deadline=self.deadline, budget=self.kernel_budget(), stop=self.stop,
        )


def alphabeta(
    game: Game[Any, Any],
    state: Any,
    limit: Limit | None = None,
    *,
    player: int | None = None,
    tie: str = "first",
    seed: int | None = None,
    trace: Trace | None = None,
    order: Order | None = None,
    tt: bool | int | TranspositionTable = False,
    ordering: bool = False,
    pvs: bool = False,
    aspiration: float | None = None,
    bisection: bool = False,
    weak: bool = False,
    mate: bool = False,
    quiescence: int | None = None,
    extensions: bool = False,
    singular: float | None = None,
    null_move: int | None = None,
    reductions: bool = False,
    craft: Craft | None = None,
    on_iteration: Callable[[SearchResult], None] | None = None,
    stop: StopSignal | None = None,
) -> SearchResult:
    """Alpha-beta search: :func:`plies.minimax`'s value with fewer nodes.

    ``value`` is from ``player``'s point of view (default: the player to move) under the
    paranoid model, exact when ``result.exact``; with ``limit.depth`` it is the minimax
    value of the depth-limited tree scored by ``game.evaluate`` (in plies or in rounds,
    with every switch).  ``action`` is what :func:`plies.minimax` picks under the same
    tie rule: the first best action in ``actions()`` order, or a seeded random one among
    every equally good action (the root then opens its window by one ulp so each tie is
    an exact value).  ``pv`` is the principal variation.  Chance nodes raise; use
    :func:`plies.expectiminimax`.

    Children are searched in ``actions()`` order unless ``order(state, actions)`` is
    given: it returns the same actions in the order to try them (best first prunes
    most).  Ordering never changes the value; the root keeps ``actions()`` order so that
    the tie rule still picks minimax's action.

    Engine craft (:mod:`plies.search.craft`), each switch value-preserving at the same
    depth: ``tt`` (True, or a number of slots) a transposition table keyed by
    ``game.key``; ``ordering`` the table move, killer moves, the history heuristic and
    the game's ``order_hint``; ``pvs`` principal variation search with null windows;
    ``aspiration`` (a half-width) searches each iteration's root in a window around the
    last iteration's value; ``bisection`` finds the root value by null-window tests
    (MTD-bi, the Connect Four solvers' method; see :class:`CraftSearcher`).  ``tt`` may
    also be a :class:`~plies.search.craft.TranspositionTable` kept from an earlier
    search of the same game, whose entries are then reused.  ``weak`` (exact searches
    only) settles just win, draw or loss against the middle of ``utility_range``: the
    value is exact for a draw, else a bound on the right side (``exact`` is False).
    ``mate`` prefers the fastest win and the slowest loss (:mod:`plies.search.mate`):
    among actions of equal value the shortest forced win (longest loss) is chosen, and
    ``value`` stays the exact utility.  It assumes that no utility other than the two
    ends of a finite ``utility_range`` lies within ``(hi - lo) / 65536`` of them.
    Selective search, for depth-limited searches (ignored in an exact one, which has no
    horizon): ``quiescence`` searches up to that many noisy plies past the depth limit
    (the game's ``noisy_actions``) inside the search's window, the same value as
    :class:`~plies.search.quiescence.Quiescent` as the evaluation; ``extensions`` searches
    a move one ply deeper when the game's ``extension(state, action, child)`` hook says so
    (checks in chess).  Forward pruning, which trades exactness for depth:
    ``singular`` (a margin in value units) extends a table move that is better than
    every other move by the margin in a shallower search; ``null_move`` (a reduction R)
    cuts a node off when passing (the game's ``null_move`` hook) still fails high in a
    search R plies shallower; ``reductions`` searches late quiet moves (``is_quiet``) one
    ply shallower first.  See :func:`~plies.search.kernels.alphabeta_kernel`.
    ``craft`` gives the same switches as one :class:`~plies.search.craft.Craft` (then
    the keywords must be left at their defaults).
    With ``tt`` or ``ordering`` a depth-limited search deepens iteratively (1, 2, ...,
    ``limit.depth``) to fill the table and the move ordering, trying each iteration's
    best move first at the root without changing which action the tie rule picks.
    ``on_iteration(result)`` is called after every completed iteration.  ``stop`` (a
    ``threading.Event`` or anything with ``is_set()``) ends the search from outside.

    A traced search shows plain alpha-beta: ``trace`` with an engine switch raises
    :class:`~plies.errors.OptionError` rather than trace another search than the one run.

    >>> from plies.games import load
    >>> ttt = load("tictactoe")
    >>> r = alphabeta(ttt, ttt.initial_state())
    >>> r.value, r.stats.nodes < 549_946
    (0.0, True)
    """
    given = Craft(
        order, tt, ordering, pvs, aspiration, bisection, weak, mate, quiescence, extensions,
        singular, null_move, reductions,
    )
    if craft is None:
        craft = given
    elif given != PLAIN:
        raise OptionError(
            f"give the engine switches either as craft= or as keywords, not both "
            f"({', '.join(given.as_kwargs())})"
        )
    check_trace(craft, trace)
    if craft.mate:
        wrapped = MateDistance(game)

        def unwrap(r: SearchResult) -> SearchResult:
            values = r.action_values
            if values is not None:
                values = {a: wrapped.exact_value(v) for a, v in values.items()}
            return dataclasses.replace(
                r, value=wrapped.exact_value(r.value), action_values=values
            )

        report = None if on_iteration is None else (lambda r: on_iteration(unwrap(r)))
        return unwrap(alphabeta(
            wrapped, wrapped.root(state), limit, player=player, tie=tie, seed=seed,
            craft=dataclasses.replace(craft, mate=False), on_iteration=report, stop=stop,
        ))
    cls, configure = setup(game, craft, stop=stop)
    deepen = craft.deepens and limit is not None and limit.depth is not None
    return search_with(
        cls, game, state, limit, player, tie, seed, trace, configure,
        deepen=deepen, on_iteration=on_iteration, stop=stop,
    )


def check_trace(craft: Craft, trace: Trace | None) -> None:
    """Refuse a traced search with engine switches: a trace shows plain alpha-beta."""
    if trace is not None and craft.engine:
        raise OptionError(
            "a traced search shows the plain algorithm; drop "
            f"{', '.join(craft.switches)} to trace it, or search untraced"
        )


def setup(
    game: Game[Any, Any], craft: Craft, *, stop: StopSignal | None = None
) -> tuple[type[AlphaBetaSearcher], Callable[[Any], None]]:
    """The searcher class for ``craft`` and a ``configure`` that sets it on one searcher.

    ``mate`` wraps the game, which only :func:`alphabeta` does: it is refused here.
    """
    if craft.mate:
        raise OptionError("mate-distance scores are a switch of plies.alphabeta only")
    check_selective(game, craft)
    table = craft.table()
    memory = Ordering() if craft.ordering else None
    hint = craft.order or (getattr(game, "order_hint", None) if craft.ordering else None)

    def configure(searcher: AlphaBetaSearcher) -> None:
        searcher.order = craft.order
        searcher.stop = stop
        if isinstance(searcher, CraftSearcher):
            searcher.craft, searcher.table, searcher.memory, searcher.hint = (
                craft, table, memory, hint
            )
            searcher.keeps_partial = bool(craft.selective)  # a playing engine

    return (CraftSearcher if craft.engine else AlphaBetaSearcher), configure


def engine_setup(
    game: Game[Any, Any], **switches: Any
) -> tuple[type[AlphaBetaSearcher], Callable[[Any], None]]:
    """:func:`setup` with the switches as keywords (``Craft.from_kwargs`` checks them)."""
    return setup(game, Craft.from_kwargs(**switches))


class CraftSearcher(AlphaBetaSearcher):
    """Alpha-beta with engine craft: the core kernel with its switches, and root drivers.

    Two ways to search the root with a narrow window, both only when untraced, with the
    ``"first"`` tie rule and without ``all_values``:

    - ``aspiration`` (a half-width ``d``): an iteration after the first searches the
      root in ``(v - d, v + d)`` around the last iteration's value ``v``, and again with
      the full window if the value falls outside.
    - ``bisection``: MTD-bi.  Null-window tests "is the value > m?" halve an interval
      known to hold the root value (the game's ``value_bounds`` in an exact search, else
      its ``utility_range``) until it closes on the value ``V``; the root's children are
      then searched in ``(V - ulp, V + ulp)`` to name the first action worth ``V``.  The
      tests reuse each other's table entries, which is why a table makes them cheap.
    """

    craft: Craft = PLAIN
    table: TranspositionTable | None = None
    memory: Ordering | None = None
    hint: Order | None = None
    known: float | None = None  # the root value, once bisection has found it
    solve_children: bool = False  # bisect every root child (analyze, random ties)

    def root(
        self,
        state: Any,
        *,
        tie: str = "first",
        rng: random.Random | None = None,
        all_values: bool = False,
    ) -> tuple[float, Any, list[Any], dict[Any, float] | None]:
        check_trace(self.craft, self.trace)  # never a silent switch-off
        return super().root(state, tie=tie, rng=rng, all_values=all_values)

    def search_root(
        self,
        state: Any,
        *,
        tie: str = "first",
        rng: random.Random | None = None,
        all_values: bool = False,
    ) -> tuple[float, Any, list[Any], dict[Any, float] | None]:
        def full() -> tuple[float, Any, list[Any], dict[Any, float] | None]:
            return super(CraftSearcher, self).search_root(
                state, tie=tie, rng=rng, all_values=all_values
            )

        ops = self.ops
        if self.kernel is None or ops.is_terminal(state) or ops.to_move(state) < 0:
            return full()
        if all_values or tie != "first":
            # Every value (or every tie) must be exact: bisect each child of an exact search.
            self.solve_children = self.craft.bisection and self.max_depth is None
            return full()
        window = None
        if self.craft.weak:
            interval = self.root_interval(state)
            if interval is None or self.max_depth is not None:
                raise OptionError("a weak solution needs an exact search of a game with a "
                                  "finite utility_range")
            low, high = self.ops.utility_range
            draw = (low + high) / 2
            lo, hi = self.bisect(state, *interval, draw=draw)
            self.root_first = None
            if lo == hi:
                self.known = lo
                window = (math.nextafter(lo, -INF), math.nextafter(lo, INF))
            else:  # a win (lo > draw) or a loss (hi < draw): the value is only a bound
                self.partial = True
                edge = draw if lo > draw else math.nextafter(draw, -INF)
                self.root_window = (edge, math.nextafter(edge, INF))
                return full()
        elif self.craft.bisection:
            interval = self.root_interval(state)
            if interval is not None:
                v, _ = self.bisect(state, *interval)
                window = (math.nextafter(v, -INF), math.nextafter(v, INF))
                self.root_first = None
                if self.max_depth is None:
                    # The interval was sound, so v is exact: in actions() order the first
                    # child worth v is the action, and the root stops there.  (Under a
                    # depth limit an evaluation outside utility_range could fool it.)
                    self.known = v
        elif self.craft.aspiration is not None and self.root_guess is not None:
            half = self.craft.aspiration
            window = (self.root_guess - half, self.root_guess + half)
        if window is not None:
            self.root_window = window
            out = full()
            if window[0] < out[0] < window[1]:
                return out
            self.root_window = (-INF, INF)  # outside: a bound only, so search again
        return full()

    def child_value(
        self, state: Any, action: Any, depth: int, last: int, ply: int,
        alpha: float = -INF, beta: float = INF,
    ) -> float:
        if self.solve_children:
            child = self.ops.result(state, action)
            interval = self.root_interval(child)
            if interval is not None and self.kernel is not None:
                depth = self.kernel.entry_depth(depth, last)
                return self.bisect(child, *interval, depth=depth, ply=ply + 1)[0]
        return super().child_value(state, action, depth, last, ply, alpha, beta)

    def root_stop(self, best: float, maximizing: bool) -> bool:
        return best == self.known

    def root_interval(self, state: Any) -> tuple[float, float] | None:
        """Finite bounds on the root value, or None when the game gives none."""
        bounds = getattr(self.game, "value_bounds", None) if self.max_depth is None else None
        if bounds is not None:
            lo, hi = bounds(state, self.player)
        else:
            lo, hi = self.ops.utility_range
        if math.isfinite(lo) and math.isfinite(hi) and lo <= hi:
            return float(lo), float(hi)
        return None

    def bisect(
        self, state: Any, lo: float, hi: float, depth: int = 0, ply: int = 0,
        draw: float | None = None,
    ) -> tuple[float, float]:
        """Narrow ``[lo, hi]``, known to hold the value of ``state``, by null-window tests.

        MTD-bi: each test "is the value > m?" is one kernel search with the window
        ``(m, m + ulp)``; it fails high (the value is at least what it returns) or low
        (at most).  Without ``draw`` the interval closes on the value; with it (weak
        solving) it only narrows until it says win (> draw), draw or loss (< draw).
        ``depth`` is the kernel's depth argument of ``state``, found at ``ply``.
        """
        assert self.kernel is not None
        worker, nextafter = self.kernel.worker, math.nextafter
        while lo < hi:
            if draw is not None:
                if not lo <= draw <= hi:
                    break
                m = nextafter(draw, -INF) if hi == draw else draw  # "> draw?" or ">= draw?"
            else:
                # Pons' choice of test: halfway to the nearer extreme, not to the middle.
                m = lo + (hi - lo) / 2
                if m <= 0 and lo / 2 < m:
                    m = lo / 2
                elif m >= 0 and hi / 2 > m:
                    m = hi / 2
                if m >= hi:
                    m = nextafter(hi, -INF)
            v = worker(state, depth, ply, m, nextafter(m, INF))
            if v > m:
                lo = v  # failed high: the value is at least v
            else:
                hi = v  # failed low: the value is at most v
        return lo, hi

    def compile(self) -> Kernel:
        if self.table is not None:
            self.table.new_search(self.player)
        # The game's bounds on the true value hold for exact searches only.
        exact = self.max_depth is None
        bounds = getattr(self.game, "value_bounds", None) if exact else None
        sufficient = getattr(self.game, "sufficient_actions", None) if exact else None
        ordering = None
        if self.hint is not None or self.memory is not None:
            ordering = move_order(self.hint, self.memory, exact)
        craft = self.craft
        if self.rounds and craft.selective:
            raise OptionError(
                f"{', '.join(craft.selective)} count plies: search with unit='ply'"
            )
        return alphabeta_kernel(
            self.ops, self.player, self.max_depth, table=self.table, ordering=ordering,
            memory=self.memory, pvs=craft.pvs, bounds=bounds, sufficient=sufficient,
            rounds=self.rounds, quiescence=craft.quiescence,
            noisy=hook(self.game, "noisy_actions"),
            extension=selective_hook(self.game, craft.extensions, "extension"),
            singular=craft.singular,
            null_move=selective_hook(self.game, craft.null_move is not None, "null_move"),
            null_reduction=craft.null_move or 0,
            quiet=selective_hook(self.game, craft.reductions, "is_quiet"),
            # A game whose captures matter (quiescence) orders by its hint at every node:
            # captures first pays in chess, where Connect Four's hint did not near the leaves.
            hint_depth=0 if craft.quiescence is not None else HINT_DEPTH,
            deadline=self.deadline, budget=self.kernel_budget(), stop=self.stop,
        )


def selective_hook(game: Game[Any, Any], on: bool, name: str) -> Callable[..., Any] | None:
    """The game's hook ``name`` when its switch is ``on`` (checked by :func:`setup`)."""
    return hook(game, name) if on else None


HOOK_OF: Final = {"extensions": "extension", "null_move": "null_move", "reductions": "is_quiet"}
"""The game hook each selective switch needs."""


def check_selective(game: Game[Any, Any], craft: Craft) -> None:
    """Refuse selective switches the game cannot serve, before anything runs.

    Raises:
        OptionError: a switch whose hook the game lacks, or ``singular`` without a table.
    """
    for switch, name in HOOK_OF.items():
        if getattr(craft, switch) not in (False, None) and hook(game, name) is None:
            raise OptionError(
                f"{switch} needs the game's {name} hook; "
                f"{getattr(game, 'name', 'this game')} has none"
            )
    if craft.singular is not None and (craft.tt is False or not craft.ordering):
        raise OptionError(
            "singular extensions test the table's move: they need tt and ordering"
        )


deprecated_alias(globals(), "EngineSearcher", "plies.search.alphabeta.CraftSearcher")
