"""Positions as people write them, and players by name.

Games themselves come from :func:`plies.games.load`, the one loader (a built-in name, a
tree or GDL file, ``openspiel:NAME``, ``module:attribute``); ``load_game``, ``GameSpec``
and ``is_gdl_path`` here are its deprecated old names.

>>> from plies.games import load
>>> game = load("nim", ["piles=1,2"])
>>> state, played = position(game, "2:1 1:1")
>>> played, find_player(game, "p1")
(['2:1', '1:1'], 1)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

from plies._compat import deprecated_alias
from plies.errors import GameFormatError, IllegalActionError, OptionError, quoted
from plies.game import play

# Moved beside the one loader, for one release under their old names here.
deprecated_alias(globals(), "load_game", "plies.games.load")
deprecated_alias(globals(), "GameSpec", "plies.games.GameSpec")
deprecated_alias(globals(), "is_gdl_path", "plies.gdl.source.is_gdl_path")
deprecated_alias(globals(), "GDL_SUFFIXES", "plies.gdl.source.SUFFIXES")


def split_moves(game: Any, text: str) -> list[str]:
    """The move tokens of ``text``: the game's ``split_moves`` (connect4's ``4453``), else
    blanks and commas."""
    split = getattr(game, "split_moves", None)
    return list(split(text)) if split is not None else text.replace(",", " ").split()


def position(game: Any, moves: str, where: str = "") -> tuple[Any, list[str]]:
    """The state after ``moves`` from the start, each checked, and the move tokens.

    Raises:
        IllegalActionError: a move is not legal; the message says which one (and
            ``where``, e.g. ``"of --moves"`` or ``"at positions.txt:3"``).
    """
    state = game.initial_state()
    played: list[str] = []
    for i, token in enumerate(split_moves(game, moves), start=1):
        try:
            state = play(game, state, token)
        except IllegalActionError as err:
            context = f"(move {i}{' ' + where if where else ''})"
            raise IllegalActionError(token, err.legal, context=context) from None
        played.append(token)
    return state, played


@dataclass(frozen=True, slots=True)
class PositionText:
    """A position as a line of text wrote it: the state, and how it was written.

    ``moves``: the move tokens played (from the start, or after ``setup``).  ``setup``:
    the FEN (chess) or board (Othello) the position starts from, None for the game's
    initial state.  ``operations``: a chess EPD line's operations (``{"bm": "Nf3",
    "id": "WAC.001"}``), empty otherwise.
    """

    state: Any
    moves: tuple[str, ...] = ()
    setup: str | None = None
    operations: tuple[tuple[str, str], ...] = ()


def read_position(game: Any, text: str, where: str = "") -> PositionText:
    """The position a line of text writes, for a game that can start from one:

    - **chess** (a game with ``state_from_fen``): a FEN (``rnbqkbnr/pppppppp/8/8/4P3/8/
      PPPP1PPP/RNBQKBNR b KQkq - 0 1``), or an EPD line (the FEN's first four fields,
      then operations such as ``bm Nf3; id "WAC.001";``);
    - **othello**: a board of 64 cells row by row from a1 to h8 (``X`` Black, ``O`` White,
      ``-`` or ``.`` empty; blanks between cells allowed), then the side to move, ``X``
      or ``O`` (Edax's OBF; anything after a ``;`` is ignored);

    either may be followed by ``moves m1 m2 ...`` played from it.  Any other text is moves
    from the start (:func:`position`).

    Raises:
        GameFormatError: a FEN, EPD or board that is malformed; the message says what
            is accepted (and ``where``).
        IllegalActionError: a move is not legal (the message says which, and ``where``).
    """
    body, _, after = f" {text.strip()} ".partition(" moves ")
    body = body.strip()
    if hasattr(game, "state_from_fen") and "/" in body:
        state, setup, operations = _from_fen(game, body, where)
    elif _is_othello(game) and _OTHELLO_BOARD.fullmatch(body.split(";")[0].strip()):
        state, setup, operations = _from_board(body, where), body.split(";")[0].strip(), ()
    else:
        state, played = position(game, text, where)
        return PositionText(state, tuple(played))
    played_after: list[str] = []
    for i, token in enumerate(split_moves(game, after), start=1):
        try:
            state = play(game, state, token)
        except IllegalActionError as err:
            context = f"(move {i} after the position{' ' + where if where else ''})"
            raise IllegalActionError(token, err.legal, context=context) from None
        played_after.append(token)
    return PositionText(state, tuple(played_after), setup, operations)


def _from_fen(game: Any, text: str, where: str) -> tuple[Any, str, tuple[tuple[str, str], ...]]:
    fields = text.split()
    operations: list[tuple[str, str]] = []
    if len(fields) >= 6 and fields[4].isdigit() and fields[5].isdigit():
        fen = " ".join(fields[:6])
        rest = " ".join(fields[6:])
    elif len(fields) >= 4:  # EPD: four fields, then operations
        fen = " ".join(fields[:4]) + " 0 1"
        rest = " ".join(fields[4:])
    else:
        raise GameFormatError(
            f"{quoted(text)} {where + ' ' if where else ''}is not a FEN or EPD: write the "
            f"board, side to move, castling and en passant fields (then the two clocks, "
            f"or EPD operations such as bm Nf3;)"
        )
    for item in (part.strip() for part in rest.split(";")):
        if not item:
            continue
        opcode, _, operand = item.partition(" ")
        operations.append((opcode, operand.strip().strip('"')))
    try:
        state = game.state_from_fen(fen)
    except GameFormatError as err:
        raise GameFormatError(f"{err}{' ' + where if where else ''}") from None
    return state, fen, tuple(operations)


_OTHELLO_BOARD: Final = re.compile(r"(?:[XxOo.\-] ?){64}[XxOo]")


def _is_othello(game: Any) -> bool:
    from plies.games.othello import Othello

    return isinstance(game, Othello)


def _from_board(text: str, where: str) -> Any:
    from plies.games.othello import make_state

    cells = "".join(text.split(";")[0].split())
    black = white = 0
    for square, cell in enumerate(cells[:64]):
        if cell in "Xx":
            black |= 1 << square
        elif cell in "Oo":
            white |= 1 << square
    player = 0 if cells[64] in "Xx" else 1
    if (black | white).bit_count() < 4 or not (black | white) & _CENTRE == _CENTRE:
        raise GameFormatError(
            f"Othello board {quoted(text)} {where + ' ' if where else ''}is not a position: "
            f"the four centre squares d4 e4 d5 e5 are always occupied"
        )
    return make_state(black, white, player)


_CENTRE: Final = (1 << 27) | (1 << 28) | (1 << 35) | (1 << 36)


def player_name(game: Any, player: int) -> str:
    """``game.player_name(player)`` if the game has it, else ``P<player>``."""
    namer = getattr(game, "player_name", None)
    return f"P{player}" if namer is None else str(namer(player))


def players_text(game: Any) -> str:
    """Every player as ``0 (X), 1 (O)``: what messages offer to choose from."""
    return ", ".join(f"{p} ({player_name(game, p)})" for p in range(game.num_players))


def find_player(game: Any, text: int | str | None) -> int | None:
    """The player named by ``text`` (a number or a name, any case); None stays None.

    Raises:
        OptionError: no such player; the message lists the players.
    """
    if text is None:
        return None
    token = str(text).strip()
    # A player number has a few digits: int() of thousands of them raises ValueError
    # (Python's limit on integer string conversion) and is slow well before.
    if token.isdigit() and len(token) <= 6 and int(token) < game.num_players:
        return int(token)
    for p in range(game.num_players):
        if player_name(game, p).lower() == token.lower():
            return p
    raise OptionError(f"unknown player {quoted(token)}; players are {players_text(game)}")


__all__ = [
    "PositionText", "find_player", "player_name", "players_text", "position", "read_position",
    "split_moves",
]
