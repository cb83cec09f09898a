"""Games as the front ends name them, and positions as people write them.

A game spec is what a user types after ``plies solve`` or puts in a request: a built-in
name (``nim``), a tree file (``fig.tree``, ``fig.json``), a GDL file (``game.kif``) or a
``module:attribute`` of the user's own game (``mypkg.games:Trio``, as uvicorn and pytest
name things).  :class:`GameSpec` is that spec with its options, small and picklable, so a
worker process or a Ray task builds the same game.

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
from plies.game import Game, play

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
        GameFormatError: a tree or GDL file that cannot be read.
        InputTooLarge: a tree or GDL file larger than the cap.
        BudgetExceeded: the budget ran out while the game was being built.
    """
    if is_gdl_path(spec):
        if options:
            raise OptionError("a GDL game takes no -o options; its rules are in the file")
        return _load_gdl(spec, budget)
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
    "GDL_SUFFIXES", "GameSpec", "find_player", "is_gdl_path", "load_game", "player_name",
    "players_text", "position", "split_moves",
]
