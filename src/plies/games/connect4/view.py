"""Connect Four's board for the front ends: the grid of stones, a click in a column plays
there (the ``board`` hook of :class:`~plies.games.connect4.Connect4`)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from plies.game.board import Board, Mark
from plies.games.connect4.bitboard import MARKS, UNDECIDED, Connect4State

LOOKS: Final = MappingProxyType({
    "X": Mark("disc", color="#e03131"), "O": Mark("disc", color="#fab005"),
})
"""The stones: red for X (the first player), yellow for O."""


def connect4_board(
    width: int, height: int, state: Connect4State, last: int | None = None
) -> Board:
    """The ``width`` x ``height`` grid of ``state``, the top row first; ``last`` (the
    column just played) marks the stone it dropped."""
    position, mask, moves, outcome = state
    h1 = height + 1
    xs = position if moves % 2 == 0 else position ^ mask  # position: the mover's stones
    cells: list[str] = []
    for row in reversed(range(height)):
        for col in range(width):
            bit = 1 << (col * h1 + row)
            cells.append("" if not mask & bit else MARKS[0] if xs & bit else MARKS[1])
    playing = outcome == UNDECIDED
    column_moves: list[str | None] = [
        str(col + 1) if playing and not mask >> (col * h1 + height - 1) & 1 else None
        for col in range(width)
    ]
    dropped: tuple[int, ...] = ()
    if last is not None:
        filled = (mask >> (last * h1)) & ((1 << height) - 1)
        if filled:
            top = filled.bit_length() - 1  # the row of the column's highest stone
            dropped = ((height - 1 - top) * width + last,)
    return Board(
        height, width, tuple(cells), kind="connect4", marks=LOOKS, background="#2d5fb8",
        files=tuple(str(col + 1) for col in range(width)), column_moves=tuple(column_moves),
        last=dropped, player_marks=tuple(MARKS),
    )


__all__ = ["LOOKS", "connect4_board"]
