"""Othello's board for the front ends: the discs, a click on a square plays there, a pass
is a button beside the board (the ``board`` hook of :class:`~plies.games.othello.Othello`)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from plies.game.board import Board, Mark
from plies.games.othello.bitboard import (
    COLUMNS,
    MARKS,
    PASS,
    OthelloState,
    moves,
    square_name,
)

LOOKS: Final = MappingProxyType({
    "X": Mark("disc", color="#111111"), "O": Mark("disc", color="#f4f4f4"),
})
"""Black's discs (X) and White's (O)."""
NAMES: Final = ("Black", "White")
"""The players' names (player 0 moves first)."""


def othello_board(state: OthelloState, last: int | None = None) -> Board:
    """The 8x8 board of ``state``, a1 at the top left; ``last`` (the square just played)
    is marked; the caption counts the discs and says when the mover must pass."""
    black, white = (state[0], state[1]) if state[2] == 0 else (state[1], state[0])
    cells = tuple(MARKS[0] if black >> i & 1 else MARKS[1] if white >> i & 1 else ""
                  for i in range(64))
    legal = moves(state)
    cell_moves: list[str | None] = [None] * 64
    for square in legal:
        if square != PASS:
            cell_moves[square] = square_name(square)
    must_pass = legal == [PASS]
    caption = f"discs: Black {black.bit_count()}, White {white.bit_count()}"
    if must_pass:
        caption += f"; {NAMES[state[2]]} must pass"
    return Board(
        8, 8, cells, kind="othello", marks=LOOKS, background="#1f5e3a",
        files=tuple(COLUMNS), ranks=tuple(str(r) for r in range(1, 9)),
        cell_moves=tuple(cell_moves), extra_moves=("pass",) if must_pass else (),
        last=() if last is None or last == PASS else (last,), caption=caption,
    )


__all__ = ["LOOKS", "NAMES", "othello_board"]
