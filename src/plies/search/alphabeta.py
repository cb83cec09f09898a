"""Alpha-beta: minimax that skips the children which cannot change the root's value.

Fail-soft alpha-beta over the paranoid model of :mod:`plies.search.minimax` (the searching
player maximises, every other player minimises its utility; a player with several moves in
a row gets stacked max or min layers).  At the same depth it returns exactly minimax's
value, and with the ``"first"`` tie rule the same action: the root's children are
searched in ``actions()`` order, and a child that can only tie the best so far is given a
window in which it returns a bound, never a value that displaces the first best action.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from plies.game import Game
from plies.search.common import INF, Limit, Searcher, SearchResult, Trace
from plies.search.engine import Ordering, TranspositionTable, engine_kernel
from plies.search.kernels import Kernel, alphabeta_kernel
from plies.search.minimax import _search

Order = Callable[[Any, Sequence[Any]], Sequence[Any]]
"""A move-ordering function: ``order(state, actions)`` returns the actions to try, best first."""


class AlphaBetaSearcher(Searcher):
    """Depth-first alpha-beta with a fail-soft window."""

    algorithm = "alphabeta"
    windowed = True
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
            self.ops, self.player, self.max_depth, order=self.order,
            deadline=self.deadline, budget=self.kernel_budget(),
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
    tt: bool | int = False,
    ordering: bool = False,
    pvs: bool = False,
    on_iteration: Callable[[SearchResult], None] | None = None,
) -> SearchResult:
    """Alpha-beta search: :func:`plies.minimax`'s value with fewer nodes.

    ``value`` is from ``player``'s point of view (default: the player to move) under the
    paranoid model, exact when ``result.exact``; with ``limit.depth`` it is the minimax
    value of the depth-limited tree scored by ``game.evaluate``.  ``action`` is what
    :func:`plies.minimax` picks under the same tie rule: the first best action in
    ``actions()`` order, or a seeded random one among every equally good action (the
    root then opens its window by one ulp so each tie is an exact value).  ``pv`` is
    the principal variation.  Chance nodes raise; use :func:`plies.expectiminimax`.

    Children are searched in ``actions()`` order unless ``order(state, actions)`` is
    given: it returns the same actions in the order to try them (best first prunes
    most).  Ordering never changes the value; the root keeps ``actions()`` order so that
    the tie rule still picks minimax's action.

    Engine craft (:mod:`plies.search.engine`), each switch value-preserving at the same
    depth: ``tt`` (True, or a number of slots) a transposition table keyed by
    ``game.key``; ``ordering`` the table move, killer moves, the history heuristic and
    the game's ``order_hint``; ``pvs`` principal variation search with null windows.
    With ``tt`` or ``ordering`` a depth-limited search deepens iteratively (1, 2, ...,
    ``limit.depth``) to fill the table and the move ordering, trying each iteration's
    best move first at the root without changing which action the tie rule picks.
    ``on_iteration(result)`` is called after every completed iteration.  A traced
    search shows plain alpha-beta.

    >>> from plies.games import load
    >>> ttt = load("tictactoe")
    >>> r = alphabeta(ttt, ttt.initial_state())
    >>> r.value, r.stats.nodes < 549_946
    (0.0, True)
    """

    craft = bool(tt) or ordering or pvs
    table = None
    if tt:
        table = TranspositionTable() if tt is True else TranspositionTable(int(tt))
    memory = Ordering() if ordering else None
    hint = order or (getattr(game, "order_hint", None) if ordering else None)

    def configure(searcher: AlphaBetaSearcher) -> None:
        searcher.order = order
        if isinstance(searcher, EngineSearcher):
            searcher.table, searcher.memory, searcher.hint, searcher.pvs = table, memory, hint, pvs

    cls = EngineSearcher if craft else AlphaBetaSearcher
    deepen = (bool(tt) or ordering) and limit is not None and limit.depth is not None
    return _search(
        cls, game, state, limit, player, tie, seed, trace, configure,
        deepen=deepen, on_iteration=on_iteration,
    )


class EngineSearcher(AlphaBetaSearcher):
    """Alpha-beta whose untraced worker is :func:`plies.search.engine.engine_kernel`."""

    table: TranspositionTable | None = None
    memory: Ordering | None = None
    hint: Order | None = None
    pvs: bool = False

    def compile(self) -> Kernel:
        if self.table is not None:
            self.table.new_search()
        # The game's bounds on the true value hold for exact searches only.
        bounds = getattr(self.game, "value_bounds", None) if self.max_depth is None else None
        return engine_kernel(
            self.ops, self.player, self.max_depth, table=self.table, ordering=self.memory,
            hint=self.hint, pvs=self.pvs, bounds=bounds, deadline=self.deadline,
            budget=self.kernel_budget(),
        )
