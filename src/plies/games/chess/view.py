"""Chess's board for the front ends: the pieces, moves made by clicking a piece and its
target, the last move and a king in check marked (the ``board`` hook of
:class:`~plies.games.chess.Chess`).

The board works on the state's python-chess board and moves, so it imports neither
python-chess nor the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Any, Final

from plies.game.board import Board, FromTo, Mark

GLYPHS: Final = dict(zip("KQRBNPkqrbnp", "♚♛♜♝♞♟" * 2, strict=True))
"""The Unicode chess pieces by their FEN letter (upper case White): the solid shapes for
both sides, drawn in the side's colour (an outlined White piece would show the square
through it)."""
LOOKS: Final = MappingProxyType({
    letter: Mark("text", glyph, "#ffffff" if letter.isupper() else "#1b1b1b")
    for letter, glyph in GLYPHS.items()
})
"""How each piece is drawn: its glyph in its side's colour (its FEN letter as plain text)."""
NAMES: Final = ("White", "Black")
"""The players' names (player 0 is White)."""


def cell(square: int) -> int:
    """The board cell of a python-chess square (a1 = 0): White at the bottom, a8 is cell 0."""
    return (7 - square // 8) * 8 + square % 8


def chess_board(board: Any, legal: Sequence[tuple[Any, str]], last: Any = None) -> Board:
    """The board of a position: ``board`` its python-chess board, ``legal`` the legal
    moves with their SAN (none once the game is over), ``last`` the move that led here (a
    ``chess.Move``) or None."""
    cells = [""] * 64
    for square, piece in board.piece_map().items():
        cells[cell(square)] = piece.symbol()
    moves = tuple(
        FromTo(cell(m.from_square), cell(m.to_square), text,
               None if m.promotion is None else "pnbrqk"[m.promotion - 1])
        for m, text in legal
    )
    alert: tuple[int, ...] = ()
    caption = ""
    if board.is_check():
        alert = (cell(board.king(board.turn)),)
        mover = NAMES[0 if board.turn else 1]
        caption = "checkmate" if board.is_checkmate() else f"{mover} is in check"
    return Board(
        8, 8, tuple(cells), kind="chess", marks=LOOKS, files=tuple("abcdefgh"),
        ranks=tuple(str(r) for r in range(8, 0, -1)), from_to=moves,
        last=() if last is None else (cell(last.from_square), cell(last.to_square)),
        alert=alert, caption=caption, checkered=True, rotatable=True,
    )


__all__ = ["GLYPHS", "LOOKS", "NAMES", "cell", "chess_board"]
