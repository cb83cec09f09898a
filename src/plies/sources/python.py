"""Your own games everywhere: a ``module:attribute`` spec names a game, as uvicorn and pytest do.

``plies solve mypkg.games:Trio`` imports ``mypkg.games`` and makes a game of ``Trio``: a
game class, a factory that returns a game, or a game instance.  :func:`plies.games.load`
reads specs through :func:`load_spec`.

>>> from plies.games import load
>>> load("plies.games.nim:Nim", piles=(1, 2)).initial_state()
NimState(piles=(1, 2), mover=0)
"""

from __future__ import annotations

import ast
import importlib
import inspect
import os
import re
import sys
from collections.abc import Iterable
from typing import Any, Final

from plies.errors import GameFormatError, GameSpecError
from plies.game import REQUIRED, Game, check_definition, missing_members

_SPEC: Final = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")
_SPEC_ACCEPTS: Final = (
    "a spec is module:attribute, the attribute a plies.Game class, a factory that "
    "returns a game, or a game instance"
)


def is_spec(name: str) -> bool:
    """Whether ``name`` reads as a ``module:attribute`` game spec (``mypkg.games:Trio``)."""
    return _SPEC.fullmatch(name.strip()) is not None


def load_spec(spec: str, **options: Any) -> Game[Any, Any]:
    """The game that ``spec`` (``"pkg.module:Attr"``, as uvicorn and pytest write it) names.

    ``Attr`` (a dotted path inside the module) may be a game class (a :class:`Game`
    subclass or a duck-typed class with the required members), called with ``options``;
    a factory, called with ``options``, that returns a game; or a game instance, returned
    as it is (it takes no options).  The module is imported with the current directory
    first on ``sys.path``, as uvicorn does, so ``mypkg`` may sit where the command runs.

    Raises:
        GameSpecError: the module cannot be imported, has no such attribute, or the
            attribute is not a game; the message says what a spec may name.
        GameFormatError: ``options`` that the class or factory does not accept.
        GameDefinitionError: a game class that lacks a required member.
    """
    module_name, _, path = spec.strip().partition(":")
    if not is_spec(spec):
        raise GameSpecError(f"{spec!r} is not a game spec; {_SPEC_ACCEPTS}")
    here = os.getcwd()
    if here not in sys.path:
        sys.path.insert(0, here)
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        missing = getattr(exc, "name", None)
        if missing is not None and (module_name + ".").startswith(missing + "."):
            raise GameSpecError(
                f"cannot load game {spec!r}: no module named {missing!r} (searched the "
                f"current directory and sys.path); {_SPEC_ACCEPTS}"
            ) from None
        raise GameSpecError(
            f"cannot load game {spec!r}: importing {module_name!r} failed: {exc}"
        ) from exc
    target: Any = module
    for part in path.split("."):
        if not hasattr(target, part):
            found = _games_in(module)
            listed = f"; games there: {', '.join(found)}" if found else ""
            raise GameSpecError(
                f"cannot load game {spec!r}: module {module_name!r} has no attribute "
                f"{path!r}{listed}"
            )
        target = getattr(target, part)
    return _instantiate(spec, target, options)


_METHODS: Final = tuple(member for member in REQUIRED if member != "num_players")


def _class_lacks(cls: type) -> list[str]:
    """The required methods a class lacks (``num_players`` may be set by ``__init__``)."""
    return [
        m for m in _METHODS
        if not callable(getattr(cls, m, None)) or getattr(cls, m) is vars(Game).get(m)
    ]


def _is_game(obj: Any) -> bool:
    """A game class (every required method), or an instance with every required member."""
    if isinstance(obj, type):
        return not _class_lacks(obj)
    return not missing_members(obj) and isinstance(getattr(obj, "num_players", None), int)


def _instantiate(spec: str, target: Any, options: dict[str, Any]) -> Game[Any, Any]:
    if not isinstance(target, type) and _is_game(target):
        if options:
            raise GameFormatError(
                f"{spec} is a game instance: it takes no options, got {next(iter(options))!r}"
            )
        return target  # type: ignore[no-any-return]
    if not callable(target):
        raise GameSpecError(
            f"cannot load game {spec!r}: it is {type(target).__name__}, not a game; {_SPEC_ACCEPTS}"
        )
    if isinstance(target, type) and not _is_game(target):
        raise GameSpecError(
            f"cannot load game {spec!r}: class {target.__name__} is not a game (it lacks "
            f"{', '.join(_class_lacks(target))}); {_SPEC_ACCEPTS}"
        )
    try:
        inspect.signature(target).bind(**options)
    except TypeError as exc:
        raise GameFormatError(f"{spec} does not take these options: {exc}") from None
    except ValueError:
        pass  # no signature to read (a builtin): let the call decide
    game = target(**options)
    if isinstance(game, type) or _class_lacks(type(game)):
        raise GameSpecError(
            f"cannot load game {spec!r}: calling it returned {type(game).__name__}, not a "
            f"game; {_SPEC_ACCEPTS}"
        )
    check_definition(game)
    return game  # type: ignore[no-any-return]


def _games_in(module: Any) -> list[str]:
    """The public names in ``module`` that are game classes or game instances."""
    found = []
    for name, value in sorted(vars(module).items()):
        if name.startswith("_") or value is Game:
            continue
        if isinstance(value, type) and getattr(value, "__module__", None) != module.__name__:
            continue  # imported, not defined here
        if _is_game(value):
            found.append(name)
    return found


def _literal(text: str) -> Any:
    """A Python literal if ``text`` is one (``5``, ``(3, 4)``, ``True``), else the text."""
    try:
        return ast.literal_eval(text.strip())
    except (ValueError, SyntaxError):
        return text


def spec_options(items: Iterable[str]) -> dict[str, Any]:
    """Keyword arguments for a spec's class or factory from ``"key=value"`` strings.

    The types are unknown: a value that is a Python literal (``5``, ``3,4``, ``True``,
    ``'x'``) is read as one; any other stays text.

    Raises:
        GameFormatError: an item that is not ``key=value`` or a key given twice.
    """
    options: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key.isidentifier():
            raise GameFormatError(f"option {item!r} is not key=value")
        if key in options:
            raise GameFormatError(f"option {key!r} given twice")
        options[key] = _literal(text)
    return options
