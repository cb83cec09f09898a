"""The games: every game by name (built in or a plug-in's), and the one loader of specs.

:func:`load` makes a game from a spec: a registered name, a file (``.tree``, ``.json``,
``.kif``, ...), ``openspiel:NAME`` or your own ``module:attribute`` (see
:mod:`plies.games.loader`); :func:`names`, :func:`info` and :func:`register` read and
extend the registry (:mod:`plies.games.registry`).  Importing this package imports no
game's rules: each is imported when it is first loaded.

>>> from plies.games import load, names
>>> "tictactoe" in names()
True
>>> load("nim", piles=(1, 2)).initial_state()
NimState(piles=(1, 2), mover=0)
"""

from typing import TYPE_CHECKING, Any

from plies.game.declaration import GameInfo, declare, game_info
from plies.game.options import BOOL, FLOAT, INT, INTS, OPTIONAL_INT, TEXT, Option, OptionType
from plies.games.loader import (
    GameSpec,
    is_tree_path,
    load,
    load_text,
    load_tree,
    parse_options,
    spec_info,
)
from plies.games.registry import (
    describe,
    info,
    names,
    options_help,
    problems,
    register,
    unregister,
)

if TYPE_CHECKING:
    from plies.sources.python import is_spec, load_spec, spec_options
    from plies.sources.tree import TreeGame

_LAZY = {  # imported when first read: `import plies.games` stays light
    "TreeGame": "plies.sources.tree",
    "is_spec": "plies.sources.python",
    "load_spec": "plies.sources.python",
    "spec_options": "plies.sources.python",
}


def __getattr__(name: str) -> Any:
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module 'plies.games' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(where), name)


__all__ = [
    "BOOL",
    "FLOAT",
    "INT",
    "INTS",
    "OPTIONAL_INT",
    "TEXT",
    "GameInfo",
    "GameSpec",
    "Option",
    "OptionType",
    "TreeGame",
    "declare",
    "describe",
    "game_info",
    "info",
    "is_spec",
    "is_tree_path",
    "load",
    "load_spec",
    "load_text",
    "load_tree",
    "names",
    "options_help",
    "parse_options",
    "problems",
    "register",
    "spec_info",
    "spec_options",
    "unregister",
]
