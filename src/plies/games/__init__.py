"""Built-in games and the registry that finds them by name (or your own, by spec).

>>> from plies.games import load, names
>>> "tictactoe" in names()
True
>>> load("nim", piles=(1, 2)).initial_state()
NimState(piles=(1, 2), mover=0)
"""

from plies.game.options import BOOL, INT, INTS, OPTIONAL_INT, Option, OptionType
from plies.games.registry import (
    GameInfo,
    describe,
    info,
    is_tree_path,
    load,
    load_tree,
    names,
    options_help,
    parse_options,
    register,
)
from plies.sources.python import is_spec, load_spec, spec_options
from plies.sources.tree import TreeGame

__all__ = [
    "BOOL",
    "INT",
    "INTS",
    "OPTIONAL_INT",
    "GameInfo",
    "Option",
    "OptionType",
    "TreeGame",
    "describe",
    "info",
    "is_spec",
    "is_tree_path",
    "load",
    "load_spec",
    "load_tree",
    "names",
    "options_help",
    "parse_options",
    "register",
    "spec_options",
]
