"""Simultaneous moves as turns: :class:`Sequentialized`, for the turn-based searches.

Every SIMULTANEOUS node becomes one turn per player; between the choices of one stage the
state is a :class:`PartialJoint`.  Choosing first gives a lower bound of the
simultaneous game's value, choosing last an upper bound.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from plies.errors import IllegalActionError
from plies.game import SIMULTANEOUS, Game, default_player_actions, format_action, parse_action
from plies.wrappers.base import GameWrapper


@dataclass(frozen=True, slots=True)
class PartialJoint:
    """A SIMULTANEOUS state of the wrapped game in which some players have chosen.

    ``chosen`` holds their actions in the order :class:`Sequentialized` asks them.
    """

    base: Any
    chosen: tuple[Any, ...]


class Sequentialized(GameWrapper[Any, Any]):
    """Every SIMULTANEOUS node becomes a turn per player, so turn-based searches apply.

    Pessimistic (default): ``player`` chooses first, then every other player in turn
    (0, 1, ..., skipping ``player``) answers knowing the choices made so far; once all
    have chosen, the joint action (a tuple in player order) is played.  The opponents
    thus see ``player``'s move, so the paranoid minimax value of the sequentialised game
    (``plies.minimax``, ``plies.alphabeta``) is a **lower bound** for ``player`` of the
    simultaneous game's mixed-strategy value (:func:`plies.search.simultaneous.simultaneous`):
    at every stage it is the pure maximin ``max_a min_b``.  ``optimistic=True`` lets
    ``player`` choose last, knowing everyone's move, which gives the pure minimax
    ``min_b max_a``: an **upper bound**.  The two bounds meet where every stage has a
    saddle point.  ``plies.maxn`` also runs on it (each answer maximises its own utility).

    States are the wrapped game's own, except between the choices of one stage, where they
    are :class:`PartialJoint`.  Each player's actions at a stage are the game's
    ``player_actions`` (default: projected from the joint actions); the joint actions
    must be every combination of them.  Turn nodes, chance nodes, utilities and
    evaluation are the wrapped game's.

    >>> from plies.games import load
    >>> import plies
    >>> rps = load("rps")
    >>> plies.minimax(Sequentialized(rps, 0), rps.initial_state()).value
    -1.0
    >>> plies.minimax(Sequentialized(rps, 0, optimistic=True), rps.initial_state(), player=0).value
    1.0
    """

    # The wrapped game's board and position text know nothing of a PartialJoint.
    board = read_position = write_position = unclaimed = None

    def __init__(self, game: Game[Any, Any], player: int, *, optimistic: bool = False) -> None:
        super().__init__(game)
        if not 0 <= player < game.num_players:
            raise ValueError(f"no player {player}; players are 0..{game.num_players - 1}")
        self.player = player
        self.optimistic = optimistic
        self.has_simultaneous = False
        others = [q for q in range(game.num_players) if q != player]
        self.order: tuple[int, ...] = (*others, player) if optimistic else (player, *others)
        custom = getattr(game, "player_actions", None)
        self._player_actions: Callable[[Any, int], Sequence[Any]] = custom or (
            lambda state, p: default_player_actions(game, state, p)
        )

    def _stage(self, state: Any) -> tuple[Any, tuple[Any, ...]] | None:
        """``(base, chosen)`` inside a simultaneous stage, else None."""
        if isinstance(state, PartialJoint):
            return state.base, state.chosen
        if self.game.to_move(state) == SIMULTANEOUS:
            return state, ()
        return None

    def to_move(self, state: Any) -> int:
        if isinstance(state, PartialJoint):
            return self.order[len(state.chosen)]
        mover = self.game.to_move(state)
        return self.order[0] if mover == SIMULTANEOUS else mover

    def actions(self, state: Any) -> Sequence[Any]:
        stage = self._stage(state)
        if stage is None:
            return self.game.actions(state)
        base, chosen = stage
        return self._player_actions(base, self.order[len(chosen)])

    def result(self, state: Any, action: Any) -> Any:
        stage = self._stage(state)
        if stage is None:
            return self.game.result(state, action)
        base, chosen = stage
        chosen = (*chosen, action)
        if len(chosen) < len(self.order):
            return PartialJoint(base, chosen)
        joint: list[Any] = [None] * len(self.order)
        for who, choice in zip(self.order, chosen, strict=True):
            joint[who] = choice
        return self.game.result(base, tuple(joint))

    def is_terminal(self, state: Any) -> bool:
        return False if isinstance(state, PartialJoint) else self.game.is_terminal(state)

    def utility(self, state: Any, player: int) -> float:
        base = state.base if isinstance(state, PartialJoint) else state
        return self.game.utility(base, player)

    def evaluate(self, state: Any, player: int) -> float:
        base = state.base if isinstance(state, PartialJoint) else state
        return self._ops.evaluate(base, player)

    def key(self, state: Any) -> Hashable:
        if isinstance(state, PartialJoint):
            return PartialJoint(self._ops.key(state.base), state.chosen)
        return self._ops.key(state)

    def format_action(self, state: Any, action: Any) -> str:
        if self._stage(state) is not None:  # one player's own action
            return str(action)
        return format_action(self.game, state, action)

    def parse_action(self, state: Any, text: str) -> Any:
        if self._stage(state) is None:
            return parse_action(self.game, state, text)
        legal = list(self.actions(state))
        for action in legal:
            if str(action).lower() == text.strip().lower():
                return action
        raise IllegalActionError(text, [str(a) for a in legal])

    def render(self, state: Any) -> str:
        if not isinstance(state, PartialJoint):
            return super().render(state)
        chosen = ", ".join(
            f"{self.player_name(who)} chose {choice}"
            for who, choice in zip(self.order, state.chosen, strict=False)
        )
        return f"{super().render(state.base)}\n{chosen}"
