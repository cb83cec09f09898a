"""Your own games everywhere: a ``module:attribute`` spec names a game, as uvicorn and pytest do.

``plies solve mypkg.games:Trio`` imports ``mypkg.games`` and makes a game of ``Trio``: a
game class, a factory that returns a game, or a game instance.  A file works too:
``plies solve ./kalah.py:Kalah`` (or ``path/to/kalah.py:Kalah``) imports ``kalah.py`` as
the module ``kalah``.  The game is known by its declared ``name`` (else the class's or
factory's own name) and takes the options it declares, else those its signature reads as
(:mod:`plies.game.declaration`).  :func:`plies.games.load` reads specs through
:data:`SOURCE`.

>>> from plies.games import load
>>> load("plies.games.nim:Nim", piles=(1, 2)).initial_state()
NimState(piles=(1, 2), mover=0)
>>> spec_info("tests.usergames:Trio").accepted()
'options: target (int, default 6)'
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any, Final

from plies.budget import Budget
from plies.errors import GameFormatError, GameSpecError, PliesError, quoted
from plies.game import REQUIRED, Game, check_definition, missing_members
from plies.game.declaration import GameInfo, Source, declared_name, game_info, option_texts
from plies.game.options import LITERAL

_ATTRIBUTE: Final = r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*"
_SPEC: Final = re.compile(rf"{_ATTRIBUTE}:{_ATTRIBUTE}")
_FILE_SPEC: Final = re.compile(rf"(?P<path>.+\.py):(?P<attr>{_ATTRIBUTE})", re.IGNORECASE)
_SPEC_ACCEPTS: Final = (
    "a spec is module:attribute (or path/to/file.py:attribute), the attribute a plies.Game "
    "class, a factory that returns a game, or a game instance"
)
SCHEME: Final = "python:"
"""The optional scheme of these specs (``python:mypkg.games:Trio``)."""


def is_spec(name: str) -> bool:
    """Whether ``name`` reads as a ``module:attribute`` game spec (``mypkg.games:Trio``) or
    a ``path/to/file.py:attribute`` one."""
    text = _unprefixed(name)
    return _SPEC.fullmatch(text) is not None or _FILE_SPEC.fullmatch(text) is not None


def _unprefixed(spec: str) -> str:
    text = spec.strip()
    return text[len(SCHEME):].strip() if text.lower().startswith(SCHEME) else text


def load_spec(spec: str, **options: Any) -> Game[Any, Any]:
    """The game that ``spec`` (``"pkg.module:Attr"``, as uvicorn and pytest write it) names.

    ``Attr`` (a dotted path inside the module) may be a game class (a :class:`Game`
    subclass or a duck-typed class with the required members), called with ``options``;
    a factory, called with ``options``, that returns a game; or a game instance, returned
    as it is (it takes no options).  The module is imported with the current directory
    first on ``sys.path``, as uvicorn does, so ``mypkg`` may sit where the command runs.
    ``options`` are typed values or text, read by the options the game declares (see
    :func:`spec_info`).

    Raises:
        GameSpecError: the module cannot be imported, has no such attribute, or the
            attribute is not a game; the message says what a spec may name.
        GameFormatError: ``options`` that the class or factory does not accept.
        GameDefinitionError: a game class that lacks a required member.
    """
    return spec_info(spec).make(options)  # type: ignore[no-any-return]


def spec_info(spec: str) -> GameInfo:
    """What the game ``spec`` names declares: its name, description and options (read
    from its signature when it declares none).  Nothing is built.

    Raises:
        GameSpecError: as :func:`load_spec`.
    """
    target = _target(spec)
    text = _unprefixed(spec)
    if not isinstance(target, type) and _is_game(target):
        def instance(**options: Any) -> Any:
            return _instantiate(text, target, options)

        description = getattr(target, "description", "")
        return GameInfo(declared_name(target), description if isinstance(description, str)
                        else "", instance, (), open=True)
    if not callable(target):
        raise GameSpecError(
            f"cannot load game {text!r}: it is {type(target).__name__}, not a game; "
            f"{_SPEC_ACCEPTS}"
        )
    if isinstance(target, type) and not _is_game(target):
        raise GameSpecError(
            f"cannot load game {text!r}: class {target.__name__} is not a game (it lacks "
            f"{', '.join(_class_lacks(target))}); {_SPEC_ACCEPTS}"
        )
    try:
        info = game_info(declared_name(target), target)
    except TypeError as exc:
        raise GameSpecError(f"cannot load game {text!r}: {exc}") from None

    def build(**options: Any) -> Any:
        return _instantiate(text, target, options)

    return GameInfo(info.name, info.description, build, info.options, open=info.open)


def _target(spec: str) -> Any:
    """The object ``spec`` names, its module imported."""
    text = _unprefixed(spec)
    by_file = _FILE_SPEC.fullmatch(text)
    if by_file is not None:
        module = _import_file(text, by_file["path"])
        module_name, path = module.__name__, by_file["attr"]
    elif _SPEC.fullmatch(text) is not None:
        module_name, _, path = text.partition(":")
        module = _import(text, module_name)
    else:
        raise GameSpecError(f"{text!r} is not a game spec; {_SPEC_ACCEPTS}")
    target: Any = module
    for part in path.split("."):
        if not hasattr(target, part):
            found = _games_in(module)
            listed = f"; games there: {', '.join(found)}" if found else ""
            raise GameSpecError(
                f"cannot load game {text!r}: module {module_name!r} has no attribute "
                f"{path!r}{listed}"
            )
        target = getattr(target, part)
    return target


def _import(spec: str, module_name: str) -> ModuleType:
    here = os.getcwd()
    if here not in sys.path:
        sys.path.insert(0, here)
    try:
        return importlib.import_module(module_name)
    except ImportError as exc:
        missing = getattr(exc, "name", None)
        if missing is not None and (module_name + ".").startswith(missing + "."):
            raise GameSpecError(
                f"cannot load game {spec!r}: no module named {missing!r} (searched the "
                f"current directory and sys.path); {_SPEC_ACCEPTS}"
            ) from None
        raise GameSpecError(
            f"cannot load game {spec!r}: importing {module_name!r} failed: {_raised(exc)}"
        ) from exc
    except (PliesError, MemoryError):
        raise  # plies' own one-line error (the --time budget ran out while it imported)
    except USER_CODE_ERRORS as exc:  # a user's module that raises, or exits, as it loads
        raise GameSpecError(
            f"cannot load game {spec!r}: importing {module_name!r} failed: {_raised(exc)}"
        ) from exc


def _import_file(spec: str, where: str) -> ModuleType:
    """The module in the file ``where``, imported as its stem (``kalah.py``: ``kalah``),
    with its folder put on ``sys.path`` so that worker processes find it by that name."""
    path = Path(where).expanduser()
    try:
        is_file = path.is_file()
    except OSError as exc:  # a name the system refuses (too long, ...)
        raise GameSpecError(
            f"cannot load game {quoted(spec)}: {exc.strerror or exc}"
        ) from None
    if not is_file:
        raise GameSpecError(
            f"cannot load game {quoted(spec)}: there is no file {quoted(str(path))}"
        )
    path = path.resolve()
    name = path.stem
    loaded = sys.modules.get(name)
    if loaded is not None:
        if getattr(loaded, "__file__", None) and Path(str(loaded.__file__)).resolve() == path:
            return loaded
        raise GameSpecError(
            f"cannot load game {spec!r}: a module named {name!r} is already imported from "
            f"elsewhere; rename the file"
        )
    folder = str(path.parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    found = importlib.util.spec_from_file_location(name, path)
    if found is None or found.loader is None:
        raise GameSpecError(f"cannot load game {spec!r}: {str(path)!r} is not a Python module")
    module = importlib.util.module_from_spec(found)
    sys.modules[name] = module
    try:
        found.loader.exec_module(module)
    except (PliesError, MemoryError):
        sys.modules.pop(name, None)
        raise
    except USER_CODE_ERRORS as exc:
        del sys.modules[name]
        raise GameSpecError(
            f"cannot load game {spec!r}: importing {str(path)!r} failed: {_raised(exc)}"
        ) from exc
    except BaseException:  # Ctrl-C: no half-imported module stays behind
        sys.modules.pop(name, None)
        raise
    return module


USER_CODE_ERRORS: Final = (Exception, SystemExit)
"""What a user's module or factory may raise while a game loads, to be reported as one
line naming the spec (KeyboardInterrupt is Ctrl-C, and goes on; a MemoryError goes on
too, to the front end that bounds memory: the web app replaces its worker)."""


def _raised(exc: BaseException, width: int = 200) -> str:
    """``Type: message`` of ``exc``, its message cut to ``width`` characters."""
    text = " ".join(str(exc.code if isinstance(exc, SystemExit) else exc).split())
    if len(text) > width:
        text = f"{text[:width]}... ({len(text):,} characters)"
    return f"{type(exc).__name__}: {text}" if text and text != "None" else type(exc).__name__


def resolve(spec: str) -> str:
    """``spec`` as a process in another directory reads it: a file's path made absolute."""
    text = _unprefixed(spec)
    by_file = _FILE_SPEC.fullmatch(text)
    if by_file is None:
        return text
    return f"{Path(by_file['path']).expanduser().resolve()}:{by_file['attr']}"


def _load(spec: str, options: Mapping[str, Any], budget: Budget | None) -> Any:
    return spec_info(spec).make(options)


SOURCE: Final = Source(
    "your own game (module:attribute or path/to/file.py:Class)", _load, info=spec_info,
    resolve=resolve,
)
"""``module:attribute`` and ``path/to/file.py:attribute`` specs (:mod:`plies.sources`)."""


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
    """The game instance ``target`` (no options), or what calling the game class or
    factory ``target`` (checked by :func:`spec_info`) with ``options`` returns, checked."""
    if not isinstance(target, type) and _is_game(target):
        if options:
            raise GameFormatError(
                f"{spec} is a game instance: it takes no options, got {next(iter(options))!r}"
            )
        return target  # type: ignore[no-any-return]
    try:
        inspect.signature(target).bind(**options)
    except TypeError as exc:
        raise GameFormatError(f"{spec} does not take these options: {exc}") from None
    except ValueError:
        pass  # no signature to read (a builtin): let the call decide
    try:
        game = target(**options)
    except (PliesError, MemoryError):
        raise  # the game's own one-line refusal; memory is the caller's to handle
    except USER_CODE_ERRORS as exc:
        raise GameSpecError(
            f"cannot load game {spec!r}: calling it failed: {_raised(exc)}"
        ) from exc
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


def spec_options(items: Iterable[str]) -> dict[str, Any]:
    """Keyword arguments for a spec's class or factory from ``"key=value"`` strings,
    without reading the game: a value that is a Python literal (``5``, ``3,4``, ``True``,
    ``'x'``) is read as one; any other stays text.  :func:`spec_info` reads the types
    the game declares.

    Raises:
        GameFormatError: an item that is not ``key=value`` or a key given twice.
    """
    return {key: LITERAL.parse(text) for key, text in option_texts(items).items()}
