"""Opponents as chance: chosen players' moves drawn at random (expectimax's model).

:class:`OpponentsAsChance` turns chosen players into CHANCE nodes, uniformly random or
following a given :data:`Policy`, as the ghosts of expectimax Pacman.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from plies.errors import UnsupportedGameError
from plies.game import CHANCE, SIMULTANEOUS, Game, uniform
from plies.wrappers.base import GameWrapper

S = TypeVar("S")
A = TypeVar("A")

Policy = Callable[[Any], Sequence[tuple[Any, float]] | Mapping[Any, float]]


class OpponentsAsChance(GameWrapper[S, A]):
    """Model ``players`` as chance: their moves are drawn uniformly, or from ``policy``.

    ``policy(state)`` returns ``(action, probability)`` pairs or a mapping; the
    probabilities must sum to 1.  This is expectimax's model of a random opponent
    (the ghosts of expectimax Pacman).  Everything else is the wrapped game's.

    A modelled player is still a player for depth (:meth:`chance_player`): its move
    counts one ply and completes rounds, so a depth-limited expectimax search cuts off
    exactly where minimax over the unwrapped game does.
    """

    def __init__(
        self, game: Game[S, A], players: int | Sequence[int] = 1, policy: Policy | None = None
    ) -> None:
        super().__init__(game)
        self.players = frozenset([players] if isinstance(players, int) else players)
        bad = [p for p in self.players if not 0 <= p < game.num_players]
        if bad:
            raise ValueError(f"no such player(s) {bad}; players are 0..{game.num_players - 1}")
        self.policy = policy
        self.has_chance = True

    def to_move(self, state: S) -> int:
        mover = self.game.to_move(state)
        return CHANCE if mover in self.players else mover

    def chance_player(self, state: S) -> int | None:
        """The modelled player who moves at ``state``; None at a true chance event."""
        mover = self.game.to_move(state)
        return mover if mover in self.players else None

    def chance_outcomes(self, state: S) -> Sequence[tuple[A, float]]:
        mover = self.game.to_move(state)
        if mover == CHANCE:
            return self._ops.chance_outcomes(state)
        if mover == SIMULTANEOUS:
            raise UnsupportedGameError("OpponentsAsChance cannot wrap a simultaneous node")
        if self.policy is None:
            return uniform(self.game.actions(state))
        odds = self.policy(state)
        pairs = list(odds.items()) if isinstance(odds, Mapping) else list(odds)
        total = sum(p for _, p in pairs)
        if not math.isclose(total, 1.0, abs_tol=1e-9):
            raise ValueError(f"policy probabilities sum to {total}, not 1")
        return pairs
