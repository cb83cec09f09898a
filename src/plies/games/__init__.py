"""Built-in games and the registry that finds them by name.

>>> from plies.games import load, names
>>> "tictactoe" in names()
True
>>> load("nim", piles=(1, 2)).initial_state()
NimState(piles=(1, 2), mover=0)
"""

from plies.games.registry import (
    BOOL,
    INT,
    INTS,
    OPTIONAL_INT,
    GameInfo,
    Option,
    OptionType,
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
from plies.games.tree import TreeGame

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
    "is_tree_path",
    "load",
    "load_tree",
    "names",
    "options_help",
    "parse_options",
    "register",
]
