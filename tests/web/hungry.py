"""A one-move game whose option ``size`` is bytes it holds: a game that asks for memory."""

from __future__ import annotations


class Hungry:
    """Player 0 takes the one move and wins; the game holds ``size`` bytes meanwhile."""

    name = "hungry"
    num_players = 2

    def __init__(self, size: int = 1) -> None:
        self.food = bytearray(size)

    def initial_state(self) -> int:
        return 0

    def to_move(self, state: int) -> int:
        return 0

    def actions(self, state: int) -> list[str]:
        return [] if state else ["eat"]

    def result(self, state: int, action: str) -> int:
        return 1

    def is_terminal(self, state: int) -> bool:
        return state == 1

    def utility(self, state: int, player: int) -> float:
        return 1.0 if player == 0 else -1.0
