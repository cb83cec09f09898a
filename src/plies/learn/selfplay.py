"""Self-play for learning: the engine plays a game against itself, with exploration, and
every visited position is kept with each player's features and the final outcome.

Exploration, so that the positions vary although the engine is deterministic up to ties:
the first ``opening`` moves of every game are uniformly random, and afterwards each move
is random with probability ``epsilon``; the engine's own ties are broken at random.
Everything is drawn from ``random.Random(seed)`` and the game's index, so a run is a pure
function of its seed (unless the search is limited by time: its depth then depends on
the machine).

The games are independent, so :func:`self_play` can spread them over a
:class:`~plies.parallel.backends.Backend` (a process pool or a Ray cluster, as
tournaments do): game ``k`` depends only on the game, the weights, the plan and ``k``,
so the trajectories, in game order, and the weights fitted on them are the same on one
process, a pool and Ray.  A worker receives the game by reference (a
:class:`~plies.games.GameSpec`, built once per process) and the weights to play with
(:class:`Shared`, sent once per chunk of games, once in all on Ray), and sends back one
:class:`Trajectory` per game.

The label of a position for player ``p`` is ``p``'s score by rank at the end of the game
(1 win, 1/2 draw, 0 loss with two players; in a game of N players, the share of the other
players ``p`` finished ahead of, ties counting half), the target of the logistic model
``P(p does well) = sigmoid(w·f(s, p))``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from plies.errors import OptionError, UnsupportedGameError
from plies.game import CHANCE, SIMULTANEOUS, game_ops
from plies.linear import is_linear
from plies.parallel.backends import Backend, resolve
from plies.tournament.agents import AgentSpec
from plies.tournament.tournament import rank_scores


@dataclass(frozen=True, slots=True)
class Trajectory:
    """One self-play game: per recorded position, every player's features (the
    positions in the order they were played, from the end of the random opening on, the
    final position excluded), every player's outcome (score by rank, 0..1) and utility."""

    features: tuple[tuple[tuple[float, ...], ...], ...]  # [position][player] -> features
    movers: tuple[int, ...]  # the player to move at each recorded position
    outcome: tuple[float, ...]  # per player, by rank (win 1, draw 1/2, loss 0)
    plies: int  # moves played, the random ones included
    utilities: tuple[float, ...] = ()  # per player, the game's own payoffs


@dataclass(frozen=True, slots=True)
class SelfPlay:
    """How to generate games: the engine agent, the exploration and the seed."""

    agent: AgentSpec
    games: int
    seed: int = 0
    opening: int = 4
    epsilon: float = 0.05
    max_plies: int = 2000

    def check(self, game: Any) -> None:
        """Refuse what cannot be learned from, before any game is played.

        Raises:
            OptionError: games < 1, a negative opening, epsilon outside [0, 1], or a game
                without a linear evaluation.
            UnsupportedGameError: the agent cannot play the game.
        """
        if self.games < 1:
            raise OptionError(f"--games must be at least 1, got {self.games}")
        if self.opening < 0:
            raise OptionError(f"--opening must be 0 or more random moves, got {self.opening}")
        if not 0.0 <= self.epsilon <= 1.0:
            raise OptionError(f"--epsilon must be a probability in [0, 1], got {self.epsilon}")
        if not is_linear(game):
            name = getattr(game, "name", "this game")
            raise OptionError(
                f"{name} has no linear evaluation to learn (plies.linear.LinearEvaluation); "
                f"games with one: othello, empire"
            )
        self.agent.check(game)


def play_one(game: Any, plan: SelfPlay, index: int) -> Trajectory:
    """Self-play game number ``index`` of ``plan`` (see the module docstring)."""
    ops = game_ops(game)
    rng = random.Random(f"plies-learn/{plan.seed}/{index}")
    n = game.num_players
    state = game.initial_state()
    rows: list[tuple[tuple[float, ...], ...]] = []
    movers: list[int] = []
    plies = 0
    while not game.is_terminal(state):
        if plies >= plan.max_plies:
            raise UnsupportedGameError(
                f"a self-play game of {getattr(game, 'name', 'this game')} lasted "
                f"{plan.max_plies:,} moves without ending"
            )
        mover = game.to_move(state)
        if mover == SIMULTANEOUS:
            raise UnsupportedGameError(
                "plies learn plays turn-taking games (no simultaneous moves)"
            )
        if mover == CHANCE:
            outcomes = list(ops.chance_outcomes(state))
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            if plies >= plan.opening:
                rows.append(tuple(tuple(game.features(state, p)) for p in range(n)))
                movers.append(mover)
            legal = list(game.actions(state))
            if plies < plan.opening or rng.random() < plan.epsilon:
                action = rng.choice(legal)
            else:
                action, _ = plan.agent.choose(game, state, mover, rng.getrandbits(63))
        state = game.result(state, action)
        plies += 1
    utilities = [float(game.utility(state, p)) for p in range(n)]
    return Trajectory(
        tuple(rows), tuple(movers), rank_scores(utilities), plies, tuple(utilities)
    )


def self_play(
    game: Any,
    plan: SelfPlay,
    progress: Callable[[int], None] | None = None,
    first: int = 0,
    *,
    backend: Backend | None = None,
    weights: Mapping[str, float] | None = None,
) -> list[Trajectory]:
    """Self-play games ``first`` .. ``first + plan.games - 1`` of ``plan``, in that order.

    ``game``: a game, or a :class:`~plies.games.GameSpec` (what a worker builds; a game
    object must pickle to go to other processes).  ``weights``: the evaluation weights to
    play with (:meth:`~plies.linear.LinearEvaluation.with_weights`; None: the game's
    own).  ``backend``: where the games run (None: here, one after another; else
    :meth:`Backend.map`, ``progress`` called as chunks of games finish).  The result
    is the same on every backend.  The plan is checked first (:meth:`SelfPlay.check`).

    >>> from plies.games import GameSpec
    >>> from plies.parallel.backends import LocalBackend
    >>> from plies.tournament.agents import parse_agent
    >>> plan = SelfPlay(parse_agent("alphabeta:depth=1"), games=2, seed=1, opening=50)
    >>> here = self_play(GameSpec("othello"), plan)
    >>> here == self_play(GameSpec("othello"), plan, backend=LocalBackend(1))
    True
    """
    playing = resolve(game)
    if weights is not None:
        playing = playing.with_weights(weights)
    plan.check(playing)
    indices = range(first, first + plan.games)
    if backend is not None:
        shared = Shared(game, None if weights is None else tuple(weights.items()), plan)
        trajectories: list[Trajectory] = backend.map(play_task, shared, indices, progress)
        return trajectories
    out = []
    for index in indices:
        out.append(play_one(playing, plan, index))
        if progress is not None:
            progress(1)
    return out


@dataclass(frozen=True, slots=True)
class Shared:
    """What every worker receives once per chunk of games: the game (a
    :class:`~plies.games.GameSpec` or a picklable game), the weights to play with as
    ``(name, weight)`` pairs (None: the game's own), and the plan."""

    game: Any
    weights: tuple[tuple[str, float], ...] | None
    plan: SelfPlay


_BUILT: list[tuple[Shared, Any]] = []
"""This process's last :class:`Shared` and its weighted game: the games of a chunk share
one ``Shared`` object, so its game is weighted once per chunk, not once per game."""


def play_task(shared: Shared, index: int) -> Trajectory:
    """Self-play game ``index`` of ``shared.plan`` (top-level, so any process can run it)."""
    if _BUILT and _BUILT[0][0] is shared:
        game = _BUILT[0][1]
    else:
        game = resolve(shared.game)
        if shared.weights is not None:
            game = game.with_weights(dict(shared.weights))
        _BUILT[:] = [(shared, game)]
    return play_one(game, shared.plan, index)


def targets(
    trajectories: Sequence[Trajectory], utility_range: tuple[float, float] | None = None
) -> list[tuple[float, ...]]:
    """Each game's label per player: the outcome by rank, or with ``utility_range``
    ``(lo, hi)`` the utility mapped to ``[0, 1]`` (``(u - lo) / (hi - lo)``)."""
    if utility_range is None:
        return [t.outcome for t in trajectories]
    lo, hi = utility_range
    return [tuple((u - lo) / (hi - lo) for u in t.utilities) for t in trajectories]


def samples(
    trajectories: Sequence[Trajectory], labels: Sequence[tuple[float, ...]] | None = None
) -> tuple[list[tuple[float, ...]], list[float]]:
    """Every (features of ``p``, label of ``p``) pair of every recorded position;
    ``labels`` per game (default: the outcomes by rank)."""
    xs: list[tuple[float, ...]] = []
    ys: list[float] = []
    for index, t in enumerate(trajectories):
        label = t.outcome if labels is None else labels[index]
        for row in t.features:
            for p, f in enumerate(row):
                xs.append(f)
                ys.append(label[p])
    return xs, ys
