"""Chess positions as text: FEN, and EPD with its operations (the ``read_position`` and
``write_position`` hooks of :class:`~plies.games.chess.Chess`).

A FEN has six fields (the board, the side to move, castling, en passant, the two
clocks); an EPD line has the first four, then operations such as ``bm Nf3; id
"WAC.001";``.

>>> from plies.games import load
>>> chess = load("chess")
>>> written = read_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - "
...                         'bm Bb5; id "Ruy Lopez";', chess.state_from_fen)
>>> written.setup
'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1'
>>> written.operations
(('bm', 'Bb5'), ('id', 'Ruy Lopez'))
>>> write_fen(written.state.board) == written.setup
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from plies.errors import GameFormatError, quoted
from plies.game.knowledge import PositionText


def read_fen(text: str, state_from_fen: Callable[[str], Any]) -> PositionText | None:
    """The position the FEN or EPD line ``text`` writes, or None when ``text`` is no
    board (it has no ``/``: it is read as moves); ``state_from_fen`` makes the state.

    Raises:
        GameFormatError: a FEN or EPD that is malformed, or not a legal position.
    """
    if "/" not in text:
        return None
    fields = text.split()
    if len(fields) >= 6 and fields[4].isdigit() and fields[5].isdigit():
        fen = " ".join(fields[:6])
        rest = " ".join(fields[6:])
    elif len(fields) >= 4:  # EPD: four fields, then operations
        fen = " ".join(fields[:4]) + " 0 1"
        rest = " ".join(fields[4:])
    else:
        raise GameFormatError(
            f"{quoted(text)} is not a FEN or EPD: write the board, side to move, castling "
            f"and en passant fields (then the two clocks, or EPD operations such as bm Nf3;)"
        )
    operations: list[tuple[str, str]] = []
    for item in (part.strip() for part in rest.split(";")):
        if item:
            opcode, _, operand = item.partition(" ")
            operations.append((opcode, operand.strip().strip('"')))
    return PositionText(state_from_fen(fen), setup=fen, operations=tuple(operations))


def write_fen(board: Any) -> str:
    """The FEN of a python-chess ``board``, with the en passant square after every double
    pawn push (as the FEN standard writes it, and as the board and the position's key
    hold it), so that :func:`read_fen` reads back the same position."""
    return str(board.fen(en_passant="fen"))


__all__ = ["read_fen", "write_fen"]
