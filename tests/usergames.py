"""A user's own games, for the ``module:attribute`` specs (``tests.usergames:Trio``).

Nothing here is registered: the tests load these only by spec, as a user would load
``mypkg.games:Trio``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import plies


class Trio(plies.Game[tuple[int, int], int]):
    """Three players in turn add 1 or 2 to a running total; who reaches ``target`` wins."""

    num_players = 3
    utility_range = (0.0, 1.0)
    name = "trio"

    def __init__(self, target: int = 6) -> None:
        if target < 1:
            raise plies.GameFormatError(f"target must be at least 1, got {target}")
        self.target = target

    def initial_state(self) -> tuple[int, int]:
        return (0, 0)  # (total, player to move)

    def to_move(self, state: tuple[int, int]) -> int:
        return state[1]

    def actions(self, state: tuple[int, int]) -> Sequence[int]:
        return [1, 2]

    def result(self, state: tuple[int, int], action: int) -> tuple[int, int]:
        return (state[0] + action, (state[1] + 1) % 3)

    def is_terminal(self, state: tuple[int, int]) -> bool:
        return state[0] >= self.target

    def utility(self, state: tuple[int, int], player: int) -> float:
        winner = (state[1] - 1) % 3  # the last mover
        return 1.0 if player == winner else 0.0


class DuckTrio:
    """Trio without ``plies.Game`` among its bases: duck typing works for specs too."""

    num_players = 3
    initial_state = Trio.initial_state
    to_move = Trio.to_move
    actions = Trio.actions
    result = Trio.result
    is_terminal = Trio.is_terminal
    utility = Trio.utility
    target = 6


def short_trio(target: int = 3) -> Trio:
    """A factory."""
    return Trio(target=target)


TRIO = Trio(target=4)  # an instance

NOT_A_GAME = 42


def not_a_factory() -> dict[str, Any]:
    return {"num_players": 3}


class Rules:
    """A class that is not a game."""

    def initial_state(self) -> int:
        return 0
