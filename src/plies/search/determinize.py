"""Determinization (perfect-information Monte Carlo): average each action over worlds.

The player to move does not know the full state, only its information set
(:mod:`plies.imperfect`).  Determinization (Levy 1989; Ginsberg's GIB for bridge; Frank &
Basin 1998) samples full states ("worlds") consistent with what the player knows,
searches each world as a perfect-information game, and averages each action's value:

    value(a) = mean over sampled worlds w of  V_w(a)

where ``V_w(a)`` is the value the perfect-information search gives action ``a`` in world
``w`` (by :func:`plies.search.analyze`, expectiminimax by default).  The action with the
highest mean is played.

It is a heuristic, and it can be wrong even with every world listed exactly, for two known
reasons (Frank & Basin 1998; Russell & Norvig, AIMA 3rd ed. 5.6):

- **strategy fusion**: in each world the search lets the player choose its *later* moves
  knowing that world, so it assumes a different strategy per world where the real player
  must make one choice per information set; an action that needs a later guess looks as
  good as a sure thing.
- **non-locality**: the worlds are weighted by chance alone, while an opponent who plays
  well makes some worlds likelier (its actions are evidence), and in each world the search
  lets the opponents see every card too.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Final

from plies.errors import OptionError, UnsupportedGameError
from plies.game import Game
from plies.imperfect import check_imperfect
from plies.search.analyze import analyze
from plies.search.common import Limit, SearchResult, SearchStats

WORLDS: Final = 20
"""Worlds sampled a move unless told otherwise."""


def determinize(
    game: Game[Any, Any],
    state: Any,
    worlds: int | None = WORLDS,
    limit: Limit | None = None,
    *,
    player: int | None = None,
    seed: int | None = None,
    algorithm: str = "expectiminimax",
) -> SearchResult:
    """Perfect-information Monte Carlo at ``state`` for the player to move.

    ``game`` must offer the information-set interface (:mod:`plies.imperfect`).
    ``worlds`` full states are drawn with ``game.sample_worlds(state, player, worlds,
    random.Random(seed))``; ``worlds=None`` takes the exact distribution
    ``game.worlds(state, player)`` instead, each world weighted by its probability.  Each
    world is searched by :func:`plies.search.analyze` with ``algorithm`` and ``limit``:
    its ``depth`` and ``nodes`` apply to each world, its ``time`` is the whole move's
    budget, shared equally by the worlds.

    ``action_values[a]`` is the mean (probability-weighted for ``worlds=None``) over the
    worlds of ``a``'s value in that world, from ``player``'s point of view; ``value`` is
    the largest and ``action`` the first action in ``actions()`` order that reaches it;
    ``pv`` is ``(action,)``.  ``exact`` is always False: the value is a heuristic, not the
    value of the game with hidden information (see the module docstring for why it can
    be wrong).  ``stats`` adds up the searches of every world.  The same ``seed`` gives
    the same result.  ``player`` defaults to the player to move; searching for anyone
    else, or at a chance or terminal state, raises :class:`UnsupportedGameError`.
    """
    check_imperfect(game)
    mover = game.to_move(state)
    if game.is_terminal(state) or mover < 0:
        what = "a terminal" if game.is_terminal(state) else "a chance or simultaneous"
        raise UnsupportedGameError(f"determinization chooses a move; {what} state has none")
    if player is None:
        player = mover
    if player != mover:
        raise UnsupportedGameError(
            f"determinization searches for the player to move (P{mover}), not P{player}"
        )
    started = time.perf_counter()
    sample = _worlds(game, state, player, worlds, seed)
    if limit is not None and limit.time is not None:
        limit = replace(limit, time=limit.time / len(sample))
    actions = list(game.actions(state))
    totals = dict.fromkeys(actions, 0.0)
    stats = SearchStats()
    seen = game.information_set(state, player)  # type: ignore[attr-defined]
    for world, weight in sample:
        if game.information_set(world, player) != seen:  # type: ignore[attr-defined]
            raise UnsupportedGameError(
                f"{game.name}.sample_worlds gave a world the player can tell from the state"
            )
        found = analyze(game, world, limit, player=player, algorithm=algorithm)
        assert found.action_values is not None
        if list(found.action_values) != actions:
            raise UnsupportedGameError(
                f"{game.name}: the legal actions differ between worlds of one information set"
            )
        for action, value in found.action_values.items():
            totals[action] += weight * value
        _add(stats, found.stats)
    # Sums divided once at the end: adding 1/n n times drifts (0.9999...), a sum of
    # values over a count does not.
    weights = sum(weight for _, weight in sample)
    totals = {action: total / weights for action, total in totals.items()}
    best = max(totals.values())
    action = next(a for a in actions if totals[a] == best)
    stats.elapsed = time.perf_counter() - started
    return SearchResult(
        best, action, (action,), stats, player=player, exact=False, action_values=totals
    ).about(game, state)


def _worlds(
    game: Any, state: Any, player: int, worlds: int | None, seed: int | None
) -> Sequence[tuple[Any, float]]:
    """The worlds with their weights (probabilities, or 1 for each sampled world)."""
    if worlds is None:
        if not callable(getattr(game, "worlds", None)):
            raise OptionError(
                f"{game.name} cannot list its worlds; give a number of worlds to sample"
            )
        listed: Sequence[tuple[Any, float]] = game.worlds(state, player)
        return listed
    if worlds < 1:
        raise OptionError(f"worlds must be at least 1 (or None: all of them), got {worlds}")
    sampled = game.sample_worlds(state, player, worlds, random.Random(seed))
    if len(sampled) != worlds:
        raise UnsupportedGameError(
            f"{game.name}.sample_worlds gave {len(sampled)} worlds, {worlds} were asked for"
        )
    return [(w, 1.0) for w in sampled]


def _add(total: SearchStats, part: SearchStats) -> None:
    total.nodes += part.nodes
    total.leaves += part.leaves
    total.evals += part.evals
    total.cutoffs += part.cutoffs
    total.tt_hits += part.tt_hits
    total.depth = max(total.depth, part.depth)
    total.seldepth = max(total.seldepth, part.seldepth)

