"""Bounded minimax: minimax that stops a node once its value cannot get better.

When a game declares ``utility_range = (lo, hi)``, a max node that reaches ``hi`` cannot
do better, and a min node that reaches ``lo`` cannot do worse: the rest of its children
need not be searched, and the value stays exact.  A **satisficing threshold** goes
further: the searching player is content with any value ``>= threshold`` ("51 of 100 wins
a fixed-sum game"), so a max node stops as soon as it reaches the threshold and a min
node as soon as it falls below it.  The search then answers one question exactly (can
the player guarantee ``threshold``?) and the value is a bound on the minimax value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from plies.game import Game
from plies.search.common import (
    INF,
    Limit,
    Searcher,
    SearchResult,
    StopSignal,
    Trace,
    search_with,
)


class BoundedSearcher(Searcher):
    """Minimax with cuts at the utility bounds and at an optional threshold."""

    algorithm = "bounded minimax"
    threshold: float | None = None
    stop_max: float
    stop_min: float

    def __post_init__(self) -> None:
        super().__post_init__()
        lo, hi = self.ops.utility_range
        self.stop_max = hi
        self.stop_min = lo

    def set_threshold(self, threshold: float | None) -> None:
        self.threshold = threshold
        if threshold is not None:
            self.stop_max = min(self.stop_max, threshold)
            self.partial = True

    def root_stop(self, best: float, maximizing: bool) -> bool:
        return self.stops(best, maximizing)

    def stops(self, value: float, maximizing: bool) -> bool:
        if maximizing:
            return value >= self.stop_max
        threshold = self.threshold
        return value <= self.stop_min or (threshold is not None and value < threshold)

    def node_value(
        self, state: Any, depth: int, last: int, ply: int, alpha: float, beta: float
    ) -> float:
        """Minimax value of ``state`` for ``self.player``, exact without a threshold.

        With a threshold ``t`` the value ``v`` satisfies: ``v >= t`` implies the minimax
        value is at least ``v``; ``v < t`` implies it is at most ``v``.
        """
        mover, depth, value = self.arrive(state, depth, last, ply)
        if value is not None:
            return value
        maximizing = mover == self.player
        value = -INF if maximizing else INF
        child_depth = depth + self.ply_step
        last = self.next_last(mover, last)
        actions = self.legal(state)
        for i, action in enumerate(actions):
            v = self.child_value(state, action, child_depth, last, ply)
            if v > value if maximizing else v < value:
                value = v
                self.pv[ply] = [action, *self.pv[ply + 1]]
                if self.stops(value, maximizing):
                    if i + 1 < len(actions):
                        self.stats.cutoffs += 1
                        if self.trace is not None:
                            self.emit("prune", state, depth, mover, value, pruned=actions[i + 1 :])
                    break
        if self.trace is not None:
            self.emit("backup", state, depth, mover, value)
        return value


def bounded_minimax(
    game: Game[Any, Any],
    state: Any,
    limit: Limit | None = None,
    *,
    player: int | None = None,
    threshold: float | None = None,
    tie: str = "first",
    seed: int | None = None,
    trace: Trace | None = None,
    stop: StopSignal | None = None,
    on_iteration: Callable[[SearchResult], None] | None = None,
) -> SearchResult:
    """Minimax that stops a node at the bounds of ``game.utility_range`` or at ``threshold``.

    Without ``threshold`` the value is exactly :func:`plies.minimax`'s, from ``player``'s
    point of view (default: the player to move), found with fewer nodes when the game
    declares a finite ``utility_range``; with the ``"first"`` tie rule the action is the
    same as well.  Heuristic evaluations must lie inside ``utility_range``.

    With ``threshold`` the search only decides whether ``player`` can guarantee at least
    ``threshold``: ``value >= threshold`` exactly when the minimax value is, and then the
    minimax value is at least ``value`` and ``action`` achieves it; otherwise the minimax
    value is at most ``value``.  ``result.exact`` is False in that case.

    ``stop`` and ``on_iteration`` as in :func:`plies.minimax`.
    """

    def configure(searcher: BoundedSearcher) -> None:
        searcher.set_threshold(threshold)

    return search_with(
        BoundedSearcher, game, state, limit, player, tie, seed, trace, configure=configure,
        stop=stop, on_iteration=on_iteration,
    )
