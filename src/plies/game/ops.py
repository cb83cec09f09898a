"""Reading a game's optional members once, outside the hot loop: :class:`GameOps`.

Searches call :func:`game_ops` once per search and then call plain functions, so the
inner loop never pays for ``getattr``; every optional member left out is resolved to the
default documented in :class:`~plies.game.model.Game`.  :func:`default_random_playout`
is the Monte Carlo playout a game's ``random_playout`` hook must reproduce.
"""

from __future__ import annotations

import math
import random
import reprlib
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from plies.errors import UnsupportedGameError
from plies.game.model import (
    CHANCE,
    SIMULTANEOUS,
    default_evaluate,
    default_player_actions,
    hook,
    uniform,
)


def no_actions(state: Any) -> UnsupportedGameError:
    """The error for a non-terminal state without legal actions, naming the usual cause.

    A ``result`` that changes the state it is given (appending to a list state, say) is
    the common cause: the search then sees a state change under it, so the message sends
    the reader to ``plies check``, which tests for exactly that.
    """
    shown = reprlib.repr(state)
    return UnsupportedGameError(
        f"non-terminal state without legal actions: {shown} (is_terminal is False there "
        "but actions() is empty; if result() changes the state it is given, searches see "
        "states change under them: run plies check on the game)"
    )


def _no_player(state: Any) -> int | None:
    """The default ``chance_player``: every chance node is a true chance event."""
    return None


@dataclass(frozen=True, slots=True)
class GameOps:
    """Bound methods of a game with every optional member resolved to its default.

    Searches build this once per call, so the hot loop never pays for ``getattr``.
    ``chance_player(state)`` names the player a CHANCE node stands for when the game
    models a player as chance (:class:`OpponentsAsChance`), so that its move counts for
    depth; None for a true chance event (default: always None).  ``random_playout`` is
    the game's hook of that name, or :func:`default_random_playout`'s loop over these
    members.  ``random_playouts`` is the game's batch hook of that name, None without
    one (MCTS then plays one playout per iteration).
    """

    to_move: Callable[[Any], int]
    actions: Callable[[Any], Sequence[Any]]
    result: Callable[[Any, Any], Any]
    is_terminal: Callable[[Any], bool]
    utility: Callable[[Any, int], float]
    evaluate: Callable[[Any, int], float]
    chance_outcomes: Callable[[Any], Sequence[tuple[Any, float]]]
    key: Callable[[Any], Hashable]
    utility_range: tuple[float, float]
    num_players: int
    chance_player: Callable[[Any], int | None] = _no_player
    random_playout: Callable[[Any, random.Random, int], Any] | None = None
    random_playouts: Callable[
        [Sequence[Any], random.Random, int], Sequence[Sequence[float] | None]
    ] | None = None


def game_ops(game: Any) -> GameOps:
    """Resolve ``game``'s optional members (see :class:`Game` for the defaults)."""
    actions = game.actions

    def _evaluate(state: Any, player: int) -> float:
        return default_evaluate(game, state, player)

    def _chance(state: Any) -> Sequence[tuple[Any, float]]:
        return uniform(actions(state))

    def _key(state: Any) -> Hashable:
        return state  # type: ignore[no-any-return]

    lo, hi = getattr(game, "utility_range", None) or (-math.inf, math.inf)
    to_move, result, is_terminal = game.to_move, game.result, game.is_terminal
    chance_outcomes = getattr(game, "chance_outcomes", None) or _chance
    players = int(game.num_players)

    def _playout(state: Any, rng: random.Random, limit: int) -> Any:
        return _random_moves(
            game, players, to_move, actions, result, is_terminal, chance_outcomes,
            state, rng, limit,
        )

    return GameOps(
        to_move=to_move,
        actions=actions,
        result=result,
        is_terminal=is_terminal,
        utility=game.utility,
        evaluate=getattr(game, "evaluate", None) or _evaluate,
        chance_outcomes=chance_outcomes,
        key=getattr(game, "key", None) or _key,
        utility_range=(float(lo), float(hi)),
        num_players=players,
        chance_player=getattr(game, "chance_player", None) or _no_player,
        random_playout=hook(game, "random_playout") or _playout,
        random_playouts=hook(game, "random_playouts"),
    )


def default_random_playout(game: Any, state: Any, rng: random.Random, limit: int) -> Any:
    """The state after random moves from ``state``: what ``random_playout`` must match.

    Until the game ends or ``limit`` plies were played: at a CHANCE node the outcome
    ``rng.choices(outcomes, probabilities)[0]``, at a player's node the action
    ``actions[int(rng.random() * len(actions))]`` (uniform, in ``actions()`` order; one
    ``random()`` call is several times cheaper than ``randrange``), at a SIMULTANEOUS
    node the joint action of each player's own action drawn that way from
    ``player_actions(state, p)``, one draw per player in player order.  A game's
    ``random_playout`` hook must consume ``rng`` in this same way (only faster), so that
    both return the same state from the same generator state.

    Raises:
        UnsupportedGameError: a ``to_move`` that is no player, or a non-terminal state
            without legal actions (or a player without one at a SIMULTANEOUS node).

    >>> from plies.games import load
    >>> nim = load("nim")
    >>> end = default_random_playout(nim, nim.initial_state(), random.Random(1), 100)
    >>> nim.is_terminal(end)
    True
    """
    ops = game_ops(game)
    return _random_moves(
        game, ops.num_players, ops.to_move, ops.actions, ops.result, ops.is_terminal,
        ops.chance_outcomes, state, rng, limit,
    )


def _random_moves(
    game: Any,
    players: int,
    to_move: Callable[[Any], int],
    actions: Callable[[Any], Sequence[Any]],
    result: Callable[[Any, Any], Any],
    is_terminal: Callable[[Any], bool],
    chance_outcomes: Callable[[Any], Sequence[tuple[Any, float]]],
    state: Any,
    rng: random.Random,
    limit: int,
) -> Any:
    draw, choices = rng.random, rng.choices
    for _ in range(limit):
        if is_terminal(state):
            return state
        mover = to_move(state)
        if mover == CHANCE:
            outcomes = chance_outcomes(state)
            action = choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        elif mover == SIMULTANEOUS:
            own = getattr(game, "player_actions", None)
            joint = []
            for p in range(players):
                legal = own(state, p) if own else default_player_actions(game, state, p)
                if not legal:
                    raise UnsupportedGameError(
                        f"player {p} has no legal action in the non-terminal state {state!r}"
                    )
                joint.append(legal[int(draw() * len(legal))])
            action = tuple(joint)
        else:
            if not 0 <= mover < players:
                name = getattr(game, "name", None) or type(game).__name__
                raise UnsupportedGameError(
                    f"{name}: a random playout met to_move {mover!r}, which is not a "
                    f"player (0..{players - 1})"
                )
            legal = actions(state)
            if not legal:
                raise no_actions(state)
            action = legal[int(draw() * len(legal))]
        state = result(state, action)
    return state
