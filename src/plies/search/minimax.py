"""Minimax and expectiminimax: every node of the (depth-limited) tree, searched in one kernel.

N-player **paranoid** minimax: the searching player maximises its own utility and every
other player is assumed to minimise it.  With two zero-sum players this is ordinary
minimax.  A player may move several times in a row (several moves per turn): its nodes
are stacked max layers, never a sign flip.  The same worker averages chance nodes by
probability, which makes it AIMA's EXPECTIMINIMAX (:func:`plies.expectiminimax`).

One implementation, :func:`minimax_kernel`, runs every search, traced or not; the
textbook recursion it is tested against is :func:`plies.textbook.minimax`.
``expectiminimax(pruning=...)`` runs the alpha-beta core with Star1/Star2 instead
(:mod:`plies.search.alphabeta.chance`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, ClassVar

from plies.errors import OptionError
from plies.game import CHANCE, Game, GameOps, game_ops
from plies.search.alphabeta.context import Switches
from plies.search.alphabeta.core import alphabeta_kernel
from plies.search.common import (
    Limit,
    Searcher,
    SearchResult,
    StopSignal,
    Trace,
    search_with,
)
from plies.search.kernels import (
    INF,
    NEVER,
    ROUND,
    Emitter,
    Kernel,
    Line,
    no_actions,
    publish,
    refuse_node,
    rounds_depth,
)
from plies.search.limits import budget_check


def minimax_kernel(
    ops: GameOps,
    player: int,
    max_depth: int | None,
    *,
    chance: bool,
    algorithm: str,
    rounds: bool = False,
    deadline: float | None = None,
    budget: int | None = None,
    stop: StopSignal | None = None,
    game: Any = None,
    trace: Trace | None = None,
) -> Kernel:
    """Paranoid minimax (expectiminimax when ``chance``) as a closure; window ignored.

    The worker's value is the paranoid minimax value of the node for ``player``: the
    utility at a terminal, ``evaluate`` at the depth limit, the largest child value at
    ``player``'s nodes, the smallest at every other player's, the probability-weighted
    mean at chance nodes.  A chance node that stands for a player (``ops.chance_player``)
    is one ply deeper for its children, a true chance event is not; with ``rounds`` the
    depth counts rounds (:meth:`Kernel.entry_depth`).  A mover that is no player, and a
    node this algorithm cannot search, raise :class:`UnsupportedGameError` (``game``
    names the game in the message).  ``trace`` gets the plain algorithm's events.
    """
    kernel = Kernel(player=player, rounds=rounds)
    to_move, actions, result = ops.to_move, ops.actions, ops.result
    is_terminal, utility, evaluate = ops.is_terminal, ops.utility, ops.evaluate
    chance_outcomes, chance_player = ops.chance_outcomes, ops.chance_player
    players = ops.num_players
    named = ops if game is None else game
    horizon = NEVER if max_depth is None else max_depth * (ROUND if rounds else 1)
    cutoff = -1 if rounds else horizon  # with rounds every node takes the second test
    step = 0 if rounds else 1
    lines: list[Line] = [None] * 64
    nodes = leaves = evals = deepest = 0
    next_check, check = budget_check(deadline, budget, stop)

    node_depth = rounds_depth(ops, player) if rounds else _same
    emit = None if trace is None else Emitter(
        trace, kernel.path, to_move, node_depth, rounds
    )

    def value(state: Any, depth: int, ply: int, alpha: float, beta: float) -> float:
        nonlocal nodes, leaves, evals, deepest, next_check, lines
        nodes += 1
        if nodes >= next_check:
            next_check = check(nodes, deepest)
        if is_terminal(state):
            leaves += 1
            if ply > deepest:
                deepest = ply
            lines[ply] = None
            if emit is None:
                return utility(state, player)
            u = utility(state, player)
            emit.arrive("terminal", state, ply, depth, u, window=False)
            return u
        if depth >= cutoff and (not rounds or (depth := node_depth(depth, state)) >= horizon):
            leaves += 1
            evals += 1
            kernel.heuristic = True
            if ply > deepest:
                deepest = ply
            lines[ply] = None
            if emit is None:
                return evaluate(state, player)
            e = evaluate(state, player)
            emit.arrive("cutoff", state, ply, depth, e, window=False)
            return e
        if ply + 2 >= len(lines):
            lines.extend([None] * len(lines))
        mover = to_move(state)
        child = ply + 1
        line: Line = None
        if mover == player:
            best = -INF
            for action in actions(state) if emit is None else expand(state, ply, depth, mover):
                v = value(result(state, action), depth + step, child, alpha, beta)
                if v > best:
                    best, line = v, (action, lines[child])
            if line is None:
                raise no_actions(state)
        elif 0 <= mover < players:
            best = INF
            for action in actions(state) if emit is None else expand(state, ply, depth, mover):
                v = value(result(state, action), depth + step, child, alpha, beta)
                if v < best:
                    best, line = v, (action, lines[child])
            if line is None:
                raise no_actions(state)
        elif mover == CHANCE and chance:
            best = 0.0
            # A die roll is part of the move that caused it; a player modelled as chance
            # moves (in rounds its node's depth already counted it).
            below = depth if rounds or chance_player(state) is None else depth + 1
            outcomes = chance_outcomes(state)
            if emit is not None:
                emit.arrive("expand", state, ply, depth, window=False, settled=True)
                outcomes = emit.outcomes(outcomes, ply)  # type: ignore[assignment]
            for outcome, p in outcomes:
                best += p * value(result(state, outcome), below, child, alpha, beta)
        else:
            raise refuse_node(algorithm, named, mover)
        lines[ply] = line
        if emit is not None:
            emit("backup", state, ply, depth, mover, best)
        return best

    def expand(state: Any, ply: int, depth: int, mover: int) -> Any:
        """A traced node's moves: report the expansion, follow the path."""
        assert emit is not None
        emit.arrive("expand", state, ply, depth, window=False, settled=True)
        return emit.follow(actions(state), ply, state, depth, mover)

    def finish() -> None:
        kernel.stats.nodes, kernel.stats.leaves, kernel.stats.evals = nodes, leaves, evals
        kernel.max_ply, kernel.lines = deepest, lines

    return publish(kernel, value, finish)


def _same(depth: int, state: Any) -> int:
    return depth


class MinimaxSearcher(Searcher):
    """Plain depth-first minimax; visits every node of the (depth-limited) tree."""

    algorithm = "minimax"

    def compile(self) -> Kernel:
        return minimax_kernel(
            self.ops, self.player, self.max_depth, chance=self.chance_ok,
            algorithm=self.algorithm, rounds=self.rounds, deadline=self.deadline,
            budget=self.kernel_budget(), stop=self.stop, game=self.game, trace=self.trace,
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
            self.ops, self.player, self.max_depth, Switches(star1=True, star2=self.star2),
            rounds=self.rounds, deadline=self.deadline, budget=self.kernel_budget(),
            stop=self.stop, game=self.game, trace=self.trace,
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
    :func:`plies.search.alphabeta.core.alphabeta_kernel`).  A traced search shows the
    pruning it does.
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
