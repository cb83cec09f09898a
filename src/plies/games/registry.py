"""The registry of built-in games: name -> factory, with typed options.

Options arrive from the command line as text (``--option piles=3,4,5``), so every option
declares a type that knows how to read itself; :func:`parse_options` turns ``"k=v"``
strings into typed keyword arguments and :func:`load` accepts either form.  A name that is
the path of an existing ``.json`` or ``.tree`` file loads that tree, so
``plies solve mytree.tree`` works.

>>> from plies.games import load, parse_options
>>> nim = load("nim", **parse_options("nim", ["piles=1,2", "misere=yes"]))
>>> nim.piles, nim.misere
((1, 2), True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Final

from plies.errors import GameFormatError, UnknownGameError, quoted
from plies.game import Game
from plies.game.options import (
    BOOL,
    INT,
    INTS,
    OPTIONAL_INT,
    Option,
    OptionType,
    TooLong,
    choice,
)
from plies.games.chess import STARTING_FEN, Chess
from plies.games.civ import civ
from plies.games.connect4 import SCORINGS, Connect4
from plies.games.empire import DEFAULT_MAP as EMPIRE_DEFAULT_MAP
from plies.games.empire import MAPS as EMPIRE_MAPS
from plies.games.empire import SCIENCE_GOAL as EMPIRE_SCIENCE_GOAL
from plies.games.empire import TURNS as EMPIRE_TURNS_DEFAULT
from plies.games.empire import empire
from plies.games.kuhn import KuhnPoker
from plies.games.leduc import LeducPoker
from plies.games.matrix import (
    GOOFSPIEL_SCORINGS,
    PRIZE_ORDERS,
    Goofspiel,
    matching_pennies,
    prisoners_dilemma,
    rock_paper_scissors,
)
from plies.games.nim import Nim, sticks
from plies.games.othello import Othello
from plies.games.pacman import DEFAULT_LAYOUT, EVALUATIONS, GHOST_KINDS, LAYOUTS, pacman
from plies.games.pig import Pig
from plies.games.tictactoe import TicTacToe
from plies.sources.python import is_spec, load_spec, spec_options
from plies.sources.tree import TreeGame

TREE_SUFFIXES: Final = (".tree", ".json")


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A registry entry: a name, a one-line description, a factory and its options."""

    name: str
    description: str
    factory: Callable[..., Game[Any, Any]]
    options: tuple[Option, ...] = ()

    def option(self, name: str) -> Option:
        """The option called ``name``; :class:`GameFormatError` if there is none."""
        for option in self.options:
            if option.name == name:
                return option
        raise GameFormatError(f"unknown option {name!r} for {self.name}; {self.accepted()}")

    def accepted(self) -> str:
        """One line listing the accepted options."""
        if not self.options:
            return f"{self.name} takes no options"
        return "options: " + ", ".join(option.describe() for option in self.options)

    def defaults(self) -> dict[str, Any]:
        return {option.name: option.default for option in self.options}


# --- the registry ----------------------------------------------------------------------------

_REGISTRY: dict[str, GameInfo] = {}


def register(info: GameInfo) -> None:
    """Add ``info`` to the registry (names are lower case and unique)."""
    if info.name != info.name.lower() or info.name in _REGISTRY:
        raise ValueError(f"cannot register game {info.name!r}: bad or duplicate name")
    _REGISTRY[info.name] = info


def names() -> list[str]:
    """The registered game names, sorted."""
    return sorted(_REGISTRY)


def info(name: str) -> GameInfo:
    """The registry entry of ``name``; :class:`UnknownGameError` if there is none."""
    entry = _REGISTRY.get(name.strip().lower())
    if entry is None:
        raise UnknownGameError(name, names())
    return entry


def describe(name: str) -> str:
    """The one-line description of the game called ``name``."""
    return info(name).description


def options_help(name: str) -> str:
    """The options of ``name`` with their defaults, as typed: ``"goal=7 max_turns=4"``."""
    return " ".join(f"{o.name}={o.type.show(o.default)}" for o in info(name).options)


def is_tree_path(name: str) -> bool:
    """Whether ``name`` is the path of an existing tree file (``.json`` or ``.tree``)."""
    return name.lower().endswith(TREE_SUFFIXES) and Path(name).is_file()


def load_tree(path: str | Path) -> TreeGame:
    """The explicit game tree in the file at ``path`` (see :mod:`plies.sources.tree`)."""
    return TreeGame.from_file(path)


def parse_options(name: str, items: Iterable[str]) -> dict[str, Any]:
    """Typed keyword arguments for ``load(name, ...)`` from ``"key=value"`` strings.

    For a ``module:attribute`` spec the types are unknown: a value that is a Python
    literal (``5``, ``3,4``, ``True``, ``'x'``) is read as one, any other stays text.

    Raises:
        UnknownGameError: ``name`` is neither a registered game nor a tree file.
        GameFormatError: an item without ``=``, an unknown or repeated option, or a
            value that does not read as the option's type.  The message names the
            option and lists the accepted ones.
    """
    items = list(items)
    if name not in _REGISTRY and name.lower().endswith(TREE_SUFFIXES):
        if items:
            raise GameFormatError(f"a tree file takes no options, got {items[0]!r}")
        return {}
    if name not in _REGISTRY and is_spec(name):
        return spec_options(items)
    entry = info(name)
    options: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise GameFormatError(f"option {item!r} is not key=value; {entry.accepted()}")
        option = entry.option(key)
        if key in options:
            raise GameFormatError(f"option {key!r} given twice")
        options[key] = _convert(entry, option, text)
        option.check(options[key], entry.name)
    return options


def load(name: str, **options: Any) -> Game[Any, Any]:
    """A new instance of the game called ``name``, with ``options`` (typed or as text).

    ``name`` may also be the path of a ``.json`` or ``.tree`` file: the tree it holds;
    or a ``module:attribute`` spec naming your own game (see :func:`load_spec`).

    Raises:
        UnknownGameError: no such game; the message lists the available ones.
        GameSpecError: a spec that names no game.
        GameFormatError: an unknown or ill-typed option, or a malformed tree file.
    """
    if name not in _REGISTRY and name.lower().endswith(TREE_SUFFIXES):
        if options:
            raise GameFormatError(f"a tree file takes no options, got {next(iter(options))!r}")
        return load_tree(name)
    if name not in _REGISTRY and is_spec(name):
        return load_spec(name, **options)
    entry = info(name)
    kwargs = entry.defaults()
    for key, value in options.items():
        option = entry.option(key)
        kwargs[key] = _convert(entry, option, value)
        if isinstance(value, str):  # text comes from people: hold it to the bounds
            option.check(kwargs[key], entry.name)
    return entry.factory(**kwargs)


def _convert(entry: GameInfo, option: Option, value: Any) -> Any:
    if isinstance(value, str):
        try:
            return option.type.parse(value)
        except TooLong:
            raise GameFormatError(
                f"option {option.name}={quoted(value)} is out of range: {entry.name} accepts "
                f"{option.accepted_range()}"
            ) from None
        except ValueError:
            pass
    elif option.type.accepts(value):
        return tuple(value) if option.type is INTS else value
    shown = quoted(value) if isinstance(value, str) else repr(value)
    raise GameFormatError(
        f"option {option.name}={shown} is not a valid {option.type.name}; {entry.accepted()}"
    )


# --- the built-in games ----------------------------------------------------------------------

# The bounds of the built-in games' options.  A bound keeps a request within what the game
# is for and what a command can show: a board a terminal can draw, a game tree whose
# depth-limited search answers in seconds.  It does not promise an exact solve: solving
# from the start still grows with the size (Connect Four 7x6 is far beyond plain search).
C4_SIDES: Final = (4, 16)
"""Connect Four columns and rows: four in a row needs 4; a terminal draws 16 columns."""
NIM_PILE: Final = 64
NIM_PILES: Final = 8
STICKS: Final = 100
PIG_GOAL: Final = 100
PIG_TURNS: Final = 50
CIV_PLAYERS: Final = 6
"""As many civilisations as have names (Rome ... Zulu)."""
CIV_MOVES: Final = 5
CIV_ROUNDS: Final = 10
MATRIX_ROUNDS: Final = 100
GOOFSPIEL_CARDS: Final = 13
"""A suit of cards, as the game is played."""
PACMAN_GHOSTS: Final = 4
"""The project's largest ghost crew (trickyClassic has four ghost starts)."""
PACMAN_MOVES: Final = 5_000
CHESS_PLIES: Final = 10_000
"""Far beyond any real game (the fifty-move rule ends one within about 6,000 plies)."""


def _parse_fen(text: str) -> str:
    word = text.strip()
    return STARTING_FEN if word.lower() == "startpos" else word


FEN: Final = OptionType(
    "FEN or startpos",
    _parse_fen,
    lambda v: isinstance(v, str),
    lambda v: "startpos" if v == STARTING_FEN else str(v),
)
"""A chess position in Forsyth-Edwards Notation, or ``startpos`` (as UCI writes it)."""


def _parse_layout(text: str) -> str:
    for name in LAYOUTS:  # a built-in name, in any case
        if text.strip().lower() == name.lower():
            return name
    if "/" not in text and "\n" not in text:
        raise ValueError(text)
    return text


PACMAN_LAYOUT: Final = OptionType(
    "layout name (" + ", ".join(LAYOUTS) + ") or maze rows split at /",
    _parse_layout,
    lambda v: isinstance(v, str),
)
"""A built-in Pacman maze by name, or a maze as text: ``%%%%/%P.G%/%%%%``."""


def _parse_empire_map(text: str) -> str:
    for name in EMPIRE_MAPS:  # a built-in name, in any case
        if text.strip().lower() == name:
            return name
    if "/" not in text and "\n" not in text:
        raise ValueError(text)
    return text


EMPIRE_MAP: Final = OptionType(
    "map name (" + ", ".join(EMPIRE_MAPS) + ") or rows split at /",
    _parse_empire_map,
    lambda v: isinstance(v, str),
)
"""A built-in Empire map by name, or a map as text: ``1..../...../..~../...2./3....``."""
EMPIRE_PLAYERS: Final = (3, 6)
EMPIRE_TURNS: Final = 1_500
"""The tutorial's game length."""
EMPIRE_SCIENCE: Final = 100_000


def _builtin_tree(filename: str, name: str) -> Callable[[], TreeGame]:
    def factory() -> TreeGame:
        text = resources.files("plies.games").joinpath("trees", filename).read_text("utf-8")
        source = f"plies/games/trees/{filename}"
        if filename.endswith(".json"):
            return TreeGame.from_json(text, source=source, name=name)
        return TreeGame.from_text(text, source=source, name=name)

    return factory


_Entry = tuple[str, Callable[..., Game[Any, Any]], tuple[Option, ...]]


def _register_builtins(entries: Mapping[str, _Entry]) -> None:
    for name, (description, factory, options) in entries.items():
        register(GameInfo(name, description, factory, options))


_register_builtins(
    {
        "tictactoe": (
            "Tic-tac-toe: X and O on a 3x3 board; a draw with perfect play",
            TicTacToe,
            (),
        ),
        "connect4": (
            "Connect Four on bitboards: drop stones, four in a row wins (the benchmark game)",
            Connect4,
            (
                Option("width", INT, 7, "number of columns", bounds=C4_SIDES),
                Option("height", INT, 6, "number of rows", bounds=C4_SIDES),
                Option(
                    "scoring",
                    choice(*SCORINGS),
                    "pons",
                    "pons: the solver score (quicker wins score more); winloss: +1/-1/0",
                ),
            ),
        ),
        "othello": (
            "Othello (Reversi) 8x8 on bitboards: flip discs, passes; disc difference at the end",
            Othello,
            (),
        ),
        "chess": (
            "Chess (python-chess rules): SAN or UCI moves, a PeSTO evaluation; needs plies[chess]",
            Chess,
            (
                Option("fen", FEN, STARTING_FEN, "the starting position"),
                Option(
                    "max_plies", OPTIONAL_INT, None,
                    "plies after which the game is a draw (none: the rules alone end it)",
                    bounds=(1, CHESS_PLIES),
                ),
            ),
        ),
        "nim": (
            "Nim: take sticks from one pile; the last stick wins (or loses: misere)",
            Nim,
            (
                Option(
                    "piles", INTS, (3, 4, 5), "sticks in each pile",
                    bounds=(0, NIM_PILE), count=(1, NIM_PILES),
                ),
                Option(
                    "max_take", OPTIONAL_INT, None, "most sticks per move (none: a whole pile)",
                    bounds=(1, NIM_PILE),
                ),
                Option("misere", BOOL, False, "the player who takes the last stick loses"),
            ),
        ),
        "sticks": (
            "Sticks: one pile of 21, take 1-3 per move; the last stick wins",
            sticks,
            (
                Option("sticks", INT, 21, "sticks in the pile", bounds=(1, STICKS)),
                Option("max_take", INT, 3, "most sticks per move", bounds=(1, STICKS)),
                Option("misere", BOOL, False, "the player who takes the last stick loses"),
            ),
        ),
        "civ": (
            "Toy Civilization: 3 players, 3 moves per turn (farm, build, raid); not zero-sum",
            civ,
            (
                Option("players", INT, 3, "number of civilisations", bounds=(2, CIV_PLAYERS)),
                Option("moves", INT, 3, "moves per turn", bounds=(1, CIV_MOVES)),
                Option("rounds", INT, 2, "rounds until the game ends", bounds=(1, CIV_ROUNDS)),
                Option("food", INT, 1, "food each civilisation starts with", bounds=(0, 20)),
            ),
        ),
        "empire": (
            "Empire: a Civilization-like game for 3-6 players; conquest, science or score wins",
            empire,
            (
                Option("players", INT, 3, "number of empires", bounds=EMPIRE_PLAYERS),
                Option(
                    "map", EMPIRE_MAP, EMPIRE_DEFAULT_MAP,
                    "a built-in map or your own (. plain ^ hills ~ water 1-6 capitals)",
                ),
                Option(
                    "turns", INT, EMPIRE_TURNS_DEFAULT, "turns after which the highest score wins",
                    bounds=(1, EMPIRE_TURNS),
                ),
                Option(
                    "science", INT, EMPIRE_SCIENCE_GOAL, "research that wins a science victory",
                    bounds=(1, EMPIRE_SCIENCE),
                ),
            ),
        ),
        "pig": (
            "Pig: a dice race to 7 points over 4 turns (chance nodes)",
            Pig,
            (
                Option("goal", INT, 7, "points needed to win", bounds=(2, PIG_GOAL)),
                Option(
                    "max_turns",
                    OPTIONAL_INT,
                    4,
                    "turns before the higher score wins (none: no cap)",
                    bounds=(1, PIG_TURNS),
                ),
            ),
        ),
        "pacman": (
            "Pacman against 1-4 ghosts (CS188 scoring): pellets, capsules, scared ghosts",
            pacman,
            (
                Option(
                    "layout", PACMAN_LAYOUT, DEFAULT_LAYOUT,
                    "a built-in maze or your own (% wall . pellet o capsule P Pacman G ghost)",
                ),
                Option("ghosts", INT, 2, "number of ghosts", bounds=(1, PACMAN_GHOSTS)),
                Option(
                    "max_moves", INT, 200, "Pacman moves after which the game ends",
                    bounds=(1, PACMAN_MOVES),
                ),
                Option(
                    "evaluation", choice(*EVALUATIONS), "features",
                    "features: the weighted features; score: the plain score (Pacman starves)",
                ),
                Option(
                    "ghost", choice(*GHOST_KINDS), "minimax",
                    "minimax: ghosts are searched players; random, directional: ghosts are "
                    "chance with that policy (expectimax; sampled in play)",
                ),
            ),
        ),
        "kuhn": (
            "Kuhn poker: 3 cards, hidden hands, bet or pass (information sets, chance deal)",
            KuhnPoker,
            (),
        ),
        "leduc": (
            "Leduc poker: 6 cards, two betting rounds, a public card (information sets)",
            LeducPoker,
            (),
        ),
        "aima-5-2": (
            "AIMA Figure 5.2: the two-ply minimax tree (value 3)",
            _builtin_tree("aima-fig-5-2.tree", "aima-5-2"),
            (),
        ),
        "aima-5-4": (
            "AIMA Figure 5.4: three players with utility vectors (value (1, 2, 6))",
            _builtin_tree("aima-fig-5-4.tree", "aima-5-4"),
            (),
        ),
        "chance-demo": (
            "Expectiminimax tree after AIMA's order-preserving figure (value 2.1)",
            _builtin_tree("chance-demo.tree", "chance-demo"),
            (),
        ),
    }
)

_ROUNDS: Final = (
    Option(
        "rounds", INT, 1, "times the game is played (payoffs add up)", bounds=(1, MATRIX_ROUNDS)
    ),
)

_register_builtins(
    {
        "rps": (
            "Rock-paper-scissors: a simultaneous matrix game, value 0 in mixed strategies",
            rock_paper_scissors,
            _ROUNDS,
        ),
        "matching-pennies": (
            "Matching pennies: Even wins on equal coins, Odd on different ones (value 0)",
            matching_pennies,
            _ROUNDS,
        ),
        "prisoners-dilemma": (
            "Prisoner's dilemma: cooperate or defect at once; not zero-sum",
            prisoners_dilemma,
            _ROUNDS,
        ),
        "goofspiel": (
            "Goofspiel: bid cards at once for prize cards; simultaneous stages (value 0)",
            Goofspiel,
            (
                Option(
                    "cards", INT, 4, "cards in each hand (and prizes)",
                    bounds=(1, GOOFSPIEL_CARDS),
                ),
                Option(
                    "order", choice(*PRIZE_ORDERS), "descending",
                    "order of the prize cards (random: chance draws them)",
                ),
                Option(
                    "scoring", choice(*GOOFSPIEL_SCORINGS), "winloss",
                    "winloss: +1/-1/0; points: the point difference",
                ),
            ),
        ),
    }
)
