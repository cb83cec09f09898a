"""The game registry: every game by name, built in or added by a plug-in, imported when used.

The built-in games are one table of names and where each game lives
(:data:`BUILTIN_GAMES`, written as entry points are written), so listing the names
imports no rules.  Other installed distributions add games by entry point in the group
``plies.games`` (``mygame = "mypkg.games:MyGame"``), and :func:`register` adds one at run
time.  What a game offers (its description and options) is read from the game's own
declaration when it is first used (see :mod:`plies.game.declaration`).

Options arrive from the command line as text (``--option piles=3,4,5``), so every option
declares a type that knows how to read itself; :func:`parse_options` turns ``"k=v"``
strings into typed keyword arguments and :func:`plies.games.load` accepts either form.

>>> from plies.games import info, load, parse_options
>>> nim = load("nim", parse_options("nim", ["piles=1,2", "misere=yes"]))
>>> nim.piles, nim.misere
((1, 2), True)
>>> info("pig").accepted()
'options: goal (int 2..100, default 7), max_turns (int 1..50 or none, default 4)'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from plies._compat import deprecated_alias
from plies.errors import UnknownGameError
from plies.game.declaration import GameInfo, game_info
from plies.plugins import PluginError, Registry

BUILTIN_GAMES: Final = {
    "aima-5-2": "plies.games.trees:aima_5_2",
    "aima-5-4": "plies.games.trees:aima_5_4",
    "chance-demo": "plies.games.trees:chance_demo",
    "chess": "plies.games.chess:Chess",
    "civ": "plies.games.civ:civ",
    "connect4": "plies.games.connect4:Connect4",
    "empire": "plies.games.empire:empire",
    "goofspiel": "plies.games.matrix:Goofspiel",
    "kuhn": "plies.games.kuhn:KuhnPoker",
    "leduc": "plies.games.leduc:LeducPoker",
    "matching-pennies": "plies.games.matrix:matching_pennies",
    "nim": "plies.games.nim:Nim",
    "othello": "plies.games.othello:Othello",
    "pacman": "plies.games.pacman:pacman",
    "pig": "plies.games.pig:Pig",
    "prisoners-dilemma": "plies.games.matrix:prisoners_dilemma",
    "rps": "plies.games.matrix:rock_paper_scissors",
    "sticks": "plies.games.nim:sticks",
    "tictactoe": "plies.games.tictactoe:TicTacToe",
}
"""The built-in games: name -> ``"module:attribute"`` of the game class or factory, which
declares its description and options.  Adding a game is adding a line here."""


def _unknown(name: str, known: list[str]) -> UnknownGameError:
    return UnknownGameError(name, known)


GAMES: Final[Registry[GameInfo]] = Registry(
    "plies.games", BUILTIN_GAMES, kind="game", adapt=game_info, unknown=_unknown
)
"""The registry itself (:class:`plies.plugins.Registry`); values are :class:`GameInfo`."""


def registered(name: str) -> str | None:
    """The registry's name for ``name`` (as given, else in lower case), None if no game
    is registered under it."""
    key = name.strip()
    if key in GAMES:
        return key
    return key.lower() if key.lower() in GAMES else None


def names() -> list[str]:
    """The registered game names (built in, plug-ins, registered at run time), sorted.
    Nothing is imported."""
    return sorted(GAMES.names())


def info(name: str) -> GameInfo:
    """The registry entry of the game called ``name`` (any case).

    Raises:
        UnknownGameError: no game is registered under ``name``; the message lists them.
        PluginError: a plug-in game that cannot be used (the message says why).
    """
    key = registered(name)
    if key is None:
        raise UnknownGameError(name, names())
    return GAMES.load(key)


def describe(name: str) -> str:
    """The one-line description of the game called ``name``."""
    return info(name).description


def options_help(name: str) -> str:
    """The options of ``name`` with their defaults, as typed: ``"goal=7 max_turns=4"``."""
    return info(name).options_help()


def problems() -> list[PluginError]:
    """What is wrong with the plug-in games found so far (see
    :meth:`plies.plugins.Registry.problems`)."""
    return GAMES.problems()


def register(
    entry: GameInfo | str, target: str | Callable[..., Any] | None = None, *,
    replace: bool = False,
) -> None:
    """Add a game at run time: a :class:`GameInfo`, or a name and the game class or
    factory (or its ``"module:attribute"``, imported when first used).

    Raises:
        ValueError: a name that is not lower case, or taken (unless ``replace``).
    """
    name = entry.name if isinstance(entry, GameInfo) else entry
    if name != name.lower() or not name.strip() or (name in GAMES and not replace):
        raise ValueError(f"cannot register game {name!r}: bad or duplicate name")
    if isinstance(entry, GameInfo):
        GAMES.register(name, entry, replace=replace)
    elif target is None:
        raise ValueError(f"cannot register game {name!r}: give the game class or factory")
    else:
        GAMES.register(name, target, replace=replace)


def unregister(name: str) -> None:
    """Remove a game added with :func:`register`.

    Raises:
        KeyError: no game was registered at run time under ``name``.
    """
    GAMES.unregister(name)


def parse_registered(name: str, items: Iterable[str]) -> dict[str, Any]:
    """Typed options of the registered game ``name`` from ``"key=value"`` texts (see
    :meth:`GameInfo.parse`)."""
    return info(name).parse(items)


# Old names, for one release: the loader's functions moved to plies.games.loader, and each
# game's option types and bounds to the game's own module.
for _old, _new in {
    "load": "plies.games.loader.load",
    "parse_options": "plies.games.loader.parse_options",
    "is_tree_path": "plies.games.loader.is_tree_path",
    "load_tree": "plies.games.loader.load_tree",
    "C4_SIDES": "plies.games.connect4.rules.SIDES",
    "NIM_PILE": "plies.games.nim.NIM_PILE",
    "NIM_PILES": "plies.games.nim.NIM_PILES",
    "STICKS": "plies.games.nim.STICKS",
    "PIG_GOAL": "plies.games.pig.PIG_GOAL",
    "PIG_TURNS": "plies.games.pig.PIG_TURNS",
    "CIV_PLAYERS": "plies.games.civ.CIV_PLAYERS",
    "CIV_MOVES": "plies.games.civ.CIV_MOVES",
    "CIV_ROUNDS": "plies.games.civ.CIV_ROUNDS",
    "MATRIX_ROUNDS": "plies.games.matrix.MATRIX_ROUNDS",
    "GOOFSPIEL_CARDS": "plies.games.matrix.GOOFSPIEL_CARDS",
    "PACMAN_GHOSTS": "plies.games.pacman.rules.MAX_GHOSTS",
    "PACMAN_MOVES": "plies.games.pacman.rules.MAX_MOVES",
    "PACMAN_LAYOUT": "plies.games.pacman.rules.LAYOUT",
    "CHESS_PLIES": "plies.games.chess.rules.MAX_PLIES",
    "FEN": "plies.games.chess.rules.FEN",
    "EMPIRE_MAP": "plies.games.empire.game.MAP",
    "EMPIRE_PLAYERS": "plies.games.empire.game.PLAYERS",
    "EMPIRE_TURNS": "plies.games.empire.game.MAX_TURNS",
    "EMPIRE_SCIENCE": "plies.games.empire.game.MAX_SCIENCE",
}.items():
    deprecated_alias(globals(), _old, _new)
del _old, _new

__all__ = [
    "BUILTIN_GAMES", "GAMES", "GameInfo", "describe", "info", "names", "options_help",
    "parse_registered", "problems", "register", "registered", "unregister",
]
