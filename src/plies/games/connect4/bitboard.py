"""Connect Four's representation: Pons' bitboards, the state, and the fours they hold.

What the rules (:mod:`plies.games.connect4.rules`), the board (:mod:`~.view`) and the
dedicated solver (:mod:`~.solver`) share; the layout is described in the rules' module
docstring: bit ``col * (height + 1) + row`` is the cell of column ``col``, row ``row``
(row 0 at the bottom), with a spare sentinel bit on top of every column.
"""

from __future__ import annotations

from typing import Final, NamedTuple

UNDECIDED: Final = -1
"""``Connect4State.outcome`` while the game goes on."""
DRAW: Final = 2
"""``Connect4State.outcome`` of a full board without a four."""

MARKS: Final = "XO"
"""The players' stones as people read them: X (player 0, first) and O."""
EMPTY: Final = "."


class Connect4State(NamedTuple):
    """A Connect Four position (immutable, hashable; see the module docstring)."""

    position: int  # bitboard of the stones of the player to move
    mask: int  # bitboard of all stones
    moves: int  # stones on the board; the player to move is moves % 2
    outcome: int  # UNDECIDED, 0 (X won), 1 (O won) or DRAW


def four_completions(stones: int, height: int, board: int) -> int:
    """Cells of ``board`` (possibly occupied) that would give ``stones`` a four.

    ``height`` is the board's, ``board`` its real cells (:attr:`Connect4.board_mask`).
    Plain int operations only, so that a compiler (Numba, in the dedicated solver) can
    take it as it is.

    >>> from plies.games.connect4 import Connect4
    >>> c4 = Connect4()
    >>> s = c4.moves_from_string("445566")  # X: 4, 5, 6 in a row on the bottom
    >>> c4._columns(four_completions(s.position, c4.height, c4.board_mask) & ~s.mask)
    (2, 6)
    """
    r = (stones << 1) & (stones << 2) & (stones << 3)  # vertical: three below
    for s in (height + 1, height, height + 2):  # horizontal, then both diagonals
        p = (stones << s) & (stones << 2 * s)
        r |= p & (stones << 3 * s)
        r |= p & (stones >> s)
        p = (stones >> s) & (stones >> 2 * s)
        r |= p & (stones << s)
        r |= p & (stones >> 3 * s)
    return r & board
