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

from typing import Any

from plies._compat import deprecated_alias
from plies.errors import GameFormatError, IllegalActionError, OptionError, quoted
from plies.game import hook, play
from plies.game.knowledge import PositionText
from plies.game.text import player_name, players_text

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


def read_position(game: Any, text: str, where: str = "") -> PositionText:
    """The position a line of text writes: a position in the game's own notation (its
    ``read_position`` hook), optionally followed by ``moves m1 m2 ...`` played from it;
    any other text is moves from the start (:func:`position`).

    The built-in notations: **chess** a FEN (``rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR
    b KQkq - 0 1``) or an EPD line (the FEN's first four fields, then operations such as
    ``bm Nf3; id "WAC.001";``); **othello** a board of 64 cells row by row from a1 to h8
    (``X`` Black, ``O`` White, ``-`` or ``.`` empty; blanks between cells allowed), then
    the side to move, ``X`` or ``O`` (Edax's OBF; anything after a ``;`` is ignored).

    Raises:
        GameFormatError: a position that is malformed; the message says what is
            accepted (and ``where``).
        IllegalActionError: a move is not legal (the message says which, and ``where``).
    """
    body, _, after = f" {text.strip()} ".partition(" moves ")
    reader = hook(game, "read_position")
    try:
        written = None if reader is None else reader(body.strip())
    except GameFormatError as err:
        raise GameFormatError(f"{err}{' ' + where if where else ''}") from None
    if written is None:
        state, played = position(game, text, where)
        return PositionText(state, tuple(played))
    state = written.state
    played_after: list[str] = []
    for i, token in enumerate(split_moves(game, after), start=1):
        try:
            state = play(game, state, token)
        except IllegalActionError as err:
            context = f"(move {i} after the position{' ' + where if where else ''})"
            raise IllegalActionError(token, err.legal, context=context) from None
        played_after.append(token)
    return PositionText(state, tuple(played_after), written.setup, written.operations)


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
