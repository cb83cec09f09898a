"""Minimax, as the textbook writes it: the oracle every faster search is tested against.

N-player **paranoid** minimax: the searching player maximises its own utility and every
other player is assumed to minimise it.  With two zero-sum players this is ordinary
minimax.  A player may move several times in a row (several moves per turn): its nodes
are stacked max layers, never a sign flip.  The same worker averages chance nodes by
probability, which makes it AIMA's EXPECTIMINIMAX (:func:`plies.expectiminimax`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, ClassVar

from plies.errors import OptionError
from plies.game import CHANCE, Game, game_ops
from plies.search.common import (
    INF,
    Limit,
    Searcher,
    SearchResult,
    StopSignal,
    Trace,
    search_with,
)
from plies.search.kernels import Kernel, alphabeta_kernel, minimax_kernel


class MinimaxSearcher(Searcher):
    """Plain depth-first minimax; visits every node of the (depth-limited) tree."""

    algorithm = "minimax"

    def node_value(
        self, state: Any, depth: int, last: int, ply: int, alpha: float, beta: float
    ) -> float:
        """The paranoid minimax value of ``state`` for ``self.player`` (window ignored)."""
        mover, depth, value = self.arrive(state, depth, last, ply)
        if value is not None:
            return value
        actor = self.actor(state, mover)
        last = self.next_last(actor, last)
        if mover == CHANCE:
            value = 0.0
            child_depth = depth + self.step(actor)  # dice do not count, a modelled player does
            for outcome, p in self.ops.chance_outcomes(state):
                value += p * self.child_value(state, outcome, child_depth, last, ply)
            self.pv[ply] = []
        else:
            maximizing = mover == self.player
            value = -INF if maximizing else INF
            child_depth = depth + self.ply_step
            for action in self.legal(state):
                v = self.child_value(state, action, child_depth, last, ply)
                if v > value if maximizing else v < value:
                    value = v
                    self.pv[ply] = [action, *self.pv[ply + 1]]
        if self.trace is not None:
            self.emit("backup", state, depth, mover, value)
        return value

    def compile(self) -> Kernel:
        return minimax_kernel(
            self.ops, self.player, self.max_depth, chance=self.chance_ok,
            algorithm=self.algorithm, deadline=self.deadline, budget=self.kernel_budget(),
            stop=self.stop, game=self.game,
        )


class ExpectiminimaxSearcher(MinimaxSearcher):
    algorithm = "expectiminimax"
    chance_ok = True


class Star1Searcher(ExpectiminimaxSearcher):
    """Expectiminimax with alpha-beta at decision nodes and Star1 at chance nodes."""

    windowed = True
    star2: ClassVar[bool] = False

    def compile(self) -> Kernel:
        return alphabeta_kernel(
            self.ops, self.player, self.max_depth, star1=True, star2=self.star2,
            deadline=self.deadline, budget=self.kernel_budget(), stop=self.stop,
        )


class Star2Searcher(Star1Searcher):
    """Star1 plus Star2's probing of the searching player's nodes below a chance node."""

    star2 = True


def minimax(
    game: Game[Any, Any],
    state: Any,
    limit: Limit | None = None,
    *,
    player: int | None = None,
    tie: str = "first",
    seed: int | None = None,
    trace: Trace | None = None,
    stop: StopSignal | None = None,
    on_iteration: Callable[[SearchResult], None] | None = None,
) -> SearchResult:
    """Paranoid minimax value and best action at ``state``.

    ``value`` is from ``player``'s point of view (default: the player to move): the
    utility ``player`` can guarantee when every other player minimises it.  It is
    exact when ``result.exact`` (no depth cutoff was evaluated); with ``limit.depth``
    the leaves at the cutoff are scored by ``game.evaluate(state, player)`` and the
    value is the minimax value of that truncated tree.

    ``action`` is the mover's choice: the first best action in ``actions()`` order
    (``tie="first"``) or a seeded random one among all equally good actions
    (``tie="random"``).  A game that declares ``has_chance`` (or simultaneous moves) is
    refused before the search starts with :class:`UnsupportedGameError`; use
    :func:`expectiminimax`.

    ``stop`` (a :class:`~plies.search.common.StopSignal` such as
    :class:`threading.Event`) ends the search from another thread: the result is then
    the last completed iteration, or the first legal action with the root's evaluation
    when none completed, and ``result.stopped`` is True.  ``on_iteration(result)`` is
    called after each completed iteration; with it a depth-limited search deepens
    1, 2, ..., ``limit.depth``.

    >>> from plies.games import load
    >>> minimax(load("aima-5-2"), load("aima-5-2").initial_state()).value
    3.0
    """
    return search_with(
        MinimaxSearcher, game, state, limit, player, tie, seed, trace, stop=stop,
        on_iteration=on_iteration,
    )


def expectiminimax(
    game: Game[Any, Any],
    state: Any,
    limit: Limit | None = None,
    *,
    player: int | None = None,
    tie: str = "first",
    seed: int | None = None,
    trace: Trace | None = None,
    pruning: bool | str = False,
    stop: StopSignal | None = None,
    on_iteration: Callable[[SearchResult], None] | None = None,
) -> SearchResult:
    """Expectiminimax: paranoid minimax where chance nodes take the probability-weighted mean.

    ``value`` is ``player``'s expected utility (default: the player to move; give
    ``player`` explicitly when the root is a chance node) when ``player`` maximises,
    every other player minimises it and chance follows ``game.chance_outcomes``.
    Opponents modelled as random ("expectimax") come from wrapping the game in
    :class:`plies.OpponentsAsChance`.  True chance events (dice) do not count toward
    ``limit.depth``; a player modelled as chance does: its move is a ply and completes
    rounds, so the search cuts off where :func:`minimax` over the unwrapped game does.
    Exact when ``result.exact``.  ``stop`` and ``on_iteration`` as in :func:`minimax`.

    ``pruning=True`` (or ``"star1"``) searches the same tree with alpha-beta at decision
    nodes and Ballard's Star1 at chance nodes (it needs a finite ``game.utility_range``,
    which every utility and evaluation must respect): the same value and action, fewer
    nodes.  ``pruning="star2"`` adds Star2's probing (see
    :func:`plies.search.kernels.alphabeta_kernel`).  A traced search shows the unpruned
    tree.
    """
    cls: type[Searcher] = ExpectiminimaxSearcher
    if pruning not in (False, True, "star1", "star2"):
        raise OptionError(f"pruning must be True, False, 'star1' or 'star2', not {pruning!r}")
    if pruning:
        lo, hi = game_ops(game).utility_range
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise OptionError("pruning at chance nodes needs a finite game.utility_range")
        cls = Star2Searcher if pruning == "star2" else Star1Searcher
    return search_with(
        cls, game, state, limit, player, tie, seed, trace, stop=stop, on_iteration=on_iteration
    )
