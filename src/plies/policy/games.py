"""Games as the front ends name them, and positions as people write them.

A game spec is what a user types after ``plies solve`` or puts in a request: a built-in
name (``nim``), a tree file (``fig.tree``, ``fig.json``), a GDL file (``game.kif``) or a
``module:attribute`` of the user's own game (``mypkg.games:Trio``, as uvicorn and pytest
name things) or an OpenSpiel game (``openspiel:connect_four``, ``openspiel:pig(winscore=10)``;
pyspiel is the optional extra ``plies[openspiel]``).  :class:`GameSpec` is that spec with
its options, small and picklable, so a worker process or a Ray task builds the same game.

>>> game = load_game("nim", ["piles=1,2"])
>>> state, played = position(game, "2:1 1:1")
>>> played, find_player(game, "p1")
(['2:1', '1:1'], 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from plies import games
from plies.budget import Budget, read_text
from plies.errors import GameFormatError, IllegalActionError, OptionError, quoted
from plies.game import Game, hook, play
from plies.game.knowledge import PositionText
from plies.game.text import player_name, players_text
from plies.sources.openspiel import is_openspiel_spec, load_openspiel

GDL_SUFFIXES: Final = (".kif", ".gdl")
"""File suffixes read as General Game Playing descriptions."""


def is_gdl_path(spec: str) -> bool:
    """True when ``spec`` names a GDL file (by its suffix)."""
    return spec.lower().endswith(GDL_SUFFIXES)


def load_game(
    spec: str, options: Sequence[str] | Mapping[str, Any] = (), *, budget: Budget | None = None
) -> Game[Any, Any]:
    """The game ``spec`` names, with ``options`` (``["k=v", ...]`` or typed keywords).

    ``budget`` bounds the building of a GDL game's reasoner (see :mod:`plies.budget`);
    None is :data:`plies.gdl.DEFAULT_BUDGET`.  A tree or GDL file is read only up to
    :data:`plies.budget.MAX_INPUT_BYTES`.

    Raises:
        UnknownGameError: no such game; the message lists the built-in ones.
        OptionError: an unknown or malformed option, or options for a GDL file.
        GameFormatError: a tree or GDL file that cannot be read; an OpenSpiel parameter
            the game does not have.
        GameSpecError: an OpenSpiel game while pyspiel is not installed, or an unknown one.
        InputTooLarge: a tree or GDL file larger than the cap.
        BudgetExceeded: the budget ran out while the game was being built.
    """
    if is_gdl_path(spec):
        if options:
            raise OptionError("a GDL game takes no -o options; its rules are in the file")
        return _load_gdl(spec, budget)
    if is_openspiel_spec(spec):  # before module:attribute specs, which it looks like
        return load_openspiel(spec, options)
    typed = dict(options) if isinstance(options, Mapping) else games.parse_options(spec, options)
    return games.load(spec, **typed)


def _load_gdl(spec: str, budget: Budget | None) -> Game[Any, Any]:
    """The GDL game in the file ``spec``, read here under the size cap (the same steps
    as :func:`plies.gdl.load_game` of a path: parse, validate, build)."""
    from plies.gdl import DEFAULT_BUDGET, GdlGame, parse
    from plies.gdl.validator import check

    try:
        text = read_text(spec, encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise GameFormatError(f"cannot read GDL file: {reason}", source=spec) from None
    desc = parse(text, spec)
    check(desc)
    return GdlGame(desc, budget=DEFAULT_BUDGET if budget is None else budget)


@dataclass(frozen=True, slots=True)
class GameSpec:
    """A game by spec and typed options: cheap to ship to worker processes.

    A file path is made absolute, so workers need not share the current directory.
    """

    name: str
    options: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def parse(cls, name: str, options: Sequence[str] = ()) -> GameSpec:
        """The game ``name`` with command-line options ``["key=value", ...]``."""
        if is_gdl_path(name):
            if options:
                raise OptionError("a GDL game takes no -o options; its rules are in the file")
            return cls(str(Path(name).resolve()))
        if is_openspiel_spec(name):  # OpenSpiel reads its parameters' types itself
            return cls(name.strip(), tuple(_key_values(options)))
        typed = games.parse_options(name, options)
        if games.is_tree_path(name):
            name = str(Path(name).resolve())
        return cls(name, tuple(typed.items()))

    def load(self, *, budget: Budget | None = None) -> Game[Any, Any]:
        """The game, built once per process (GDL grounding is not cheap).

        ``budget`` bounds the building when this process has not built it yet (None: the
        default of :func:`load_game`).
        """
        game = _LOADED.get(self)
        if game is None:
            game = _LOADED[self] = load_game(self.name, dict(self.options), budget=budget)
        return game


_LOADED: dict[GameSpec, Game[Any, Any]] = {}


def _key_values(items: Sequence[str]) -> list[tuple[str, str]]:
    pairs = []
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"option {quoted(item)} is not key=value")
        pairs.append((key.strip(), value.strip()))
    return pairs


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
    "GDL_SUFFIXES", "GameSpec", "PositionText", "find_player", "is_gdl_path", "load_game",
    "player_name", "players_text", "position", "read_position", "split_moves",
]
