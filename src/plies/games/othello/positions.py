"""Othello positions as text: a board of 64 cells and the side to move (Edax's OBF).

The ``read_position`` and ``write_position`` hooks of :class:`~plies.games.othello.Othello`:
64 cells row by row from a1 to h8 (``X`` Black, ``O`` White, ``-`` or ``.`` empty; blanks
between cells allowed), then the side to move, ``X`` or ``O``; anything after a ``;`` is
a comment.

>>> from plies.games import load
>>> othello = load("othello")
>>> text = write_position(othello.initial_state())
>>> text
'---------------------------OX------XO--------------------------- X'
>>> read_position(text).state == othello.initial_state()
True
"""

from __future__ import annotations

import re
from typing import Final

from plies.errors import GameFormatError, quoted
from plies.game.knowledge import PositionText
from plies.games.othello.bitboard import MARKS, OthelloState, make_state

BOARD: Final = re.compile(r"(?:[XxOo.\-] ?){64}[XxOo]")
"""A board as text: 64 cells and the side to move (blanks between cells allowed)."""
CENTRE: Final = (1 << 27) | (1 << 28) | (1 << 35) | (1 << 36)
"""d4, e4, d5, e5: occupied in every position."""


def read_position(text: str) -> PositionText | None:
    """The position ``text`` writes as a board (see the module docstring), or None when
    it is not a board (it is then read as moves).

    Raises:
        GameFormatError: a board whose centre squares are not all occupied.
    """
    written = text.split(";")[0].strip()
    if not BOARD.fullmatch(written):
        return None
    cells = "".join(written.split())
    black = white = 0
    for square, cell in enumerate(cells[:64]):
        if cell in "Xx":
            black |= 1 << square
        elif cell in "Oo":
            white |= 1 << square
    if (black | white) & CENTRE != CENTRE:
        raise GameFormatError(
            f"Othello board {quoted(text)} is not a position: the four centre squares "
            f"d4 e4 d5 e5 are always occupied"
        )
    return PositionText(make_state(black, white, 0 if cells[64] in "Xx" else 1), setup=written)


def write_position(state: OthelloState) -> str:
    """``state`` as a board: 64 cells from a1 to h8 (``X``, ``O``, ``-``), a blank and
    the side to move, which :func:`read_position` reads back."""
    black, white = (state[0], state[1]) if state[2] == 0 else (state[1], state[0])
    cells = "".join(MARKS[0] if black >> i & 1 else MARKS[1] if white >> i & 1 else "-"
                    for i in range(64))
    return f"{cells} {MARKS[state[2]]}"


__all__ = ["BOARD", "CENTRE", "read_position", "write_position"]
