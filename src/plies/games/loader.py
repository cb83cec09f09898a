"""The one loader: from a spec, the string a person writes, to a game.

A spec is one of:

- a registered game's name, in any case: a built-in one (``nim``), one a plug-in adds
  by entry point, or one :func:`~plies.games.register` added;
- a file a source reads, by its suffix: a game tree (``fig.tree``, ``fig.json``), a GDL
  description (``game.kif``, ``game.gdl``), and whatever suffix a plug-in source adds;
- a scheme: ``openspiel:NAME`` (``openspiel:pig(winscore=10)``; the extra
  ``plies[openspiel]``), and whatever scheme a plug-in source adds;
- your own game as ``module:attribute`` (``mypkg.games:Trio``) or
  ``path/to/file.py:Class`` (``./kalah.py:Kalah``).

Options are keywords of the game, given as typed values (``piles=(1, 2)``) or as text
(``["piles=1,2"]`` from a command line, ``{"piles": "1,2"}`` from a form); text is read
by the option's type and held to the bounds the game declares.  :class:`GameSpec` is a
spec with its options, small and picklable, so a worker process or a Ray task builds the
same game.

>>> from plies.games import load
>>> load("nim", ["piles=1,2"]).initial_state()
NimState(piles=(1, 2), mover=0)
>>> load("NIM", piles=(1, 2), misere=True).misere
True
>>> load("plies.games.nim:sticks", sticks=5).initial_state()
NimState(piles=(5,), mover=0)
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plies.budget import Budget, read_text
from plies.errors import GameFormatError, PliesError, UnknownGameError, quoted
from plies.game import Game
from plies.game.declaration import GameInfo, Source, option_texts
from plies.games import registry
from plies.sources import PYTHON, schemes, source, source_name, suffixes

Options = Mapping[str, Any] | Iterable[str]
"""Options as ``{"name": value}`` (typed values or text) or as ``["name=value", ...]``."""


def load(
    spec: str, /, options: Options = (), *, budget: Budget | None = None, **keywords: Any
) -> Game[Any, Any]:
    """A new game from ``spec`` (see the module's docstring) with ``options`` and
    ``keywords`` (typed values or text; an option named ``options`` or ``budget`` goes in
    the mapping).

    ``budget`` bounds the building of a game whose source builds slowly (grounding GDL);
    None is the source's default.  A file is read only up to
    :data:`plies.budget.MAX_INPUT_BYTES`.

    Raises:
        UnknownGameError: ``spec`` names no game; the message lists the registered ones
            and what else a spec may be.
        GameFormatError: an unknown, repeated or ill-typed option, text out of the game's
            bounds, options for a file that takes none, or a file that cannot be read.
        GameSpecError: a ``module:attribute`` that names no game; an OpenSpiel game
            while pyspiel is not installed.
        PluginError: a plug-in game or source that cannot be used.
        InputTooLarge, BudgetExceeded: a file over the cap; the budget ran out.
    """
    given = _given(options, keywords)
    name = registry.registered(spec)
    if name is not None:
        return registry.info(name).make(given)  # type: ignore[no-any-return]
    found = _source(spec)
    _refuse_options(found, given)
    return found.load(spec.strip(), given, budget)  # type: ignore[no-any-return]


def spec_info(spec: str) -> GameInfo:
    """What ``spec`` offers before it is built: its name, description and options (a
    file's game takes none, an OpenSpiel game's parameters are OpenSpiel's).

    Raises:
        UnknownGameError, GameSpecError, PluginError: as :func:`load`.
    """
    name = registry.registered(spec)
    if name is not None:
        return registry.info(name)
    found = _source(spec)
    text = spec.strip()
    if found.info is not None:
        return found.info(text)

    def build(**options: Any) -> Any:
        return found.load(text, options, None)

    return GameInfo(_stem(text), f"{found.noun} ({text})", build, open=found.takes_options)


def parse_options(spec: str, items: Iterable[str]) -> dict[str, Any]:
    """Options for :func:`load` from ``"key=value"`` texts: typed by the options the game
    declares and held to their bounds, or kept as text for a source that reads its own
    (OpenSpiel).

    Raises:
        GameFormatError: an item that is not ``key=value``, a repeated, unknown or
            ill-typed option, or options for a file that takes none.
        UnknownGameError, GameSpecError, PluginError: as :func:`load`.
    """
    items = list(items)
    name = registry.registered(spec)
    if name is not None:
        return registry.info(name).parse(items)
    found = _source(spec)
    texts = option_texts(items)
    _refuse_options(found, texts)
    return found.info(spec.strip()).parse(items) if found.info is not None else texts


def load_text(text: str, suffix: str, *, name: str = "", budget: Budget | None = None) -> Any:
    """The game a file's ``text`` describes, read by the source of ``suffix`` (``.tree``,
    ``.kif``): what the web app does with an uploaded file.  ``name`` is the file's name.

    Raises:
        GameFormatError: no source reads files of ``suffix`` from text; or as the source
            raises it (a text that is not of the format).
        GdlValidationError, BudgetExceeded: as the source raises them.
    """
    kind = source_name(f"file{suffix}")
    found = source(kind) if kind is not None and kind.startswith(".") else None
    if found is None or found.from_text is None:
        readable = [s for s in suffixes() if source(s).from_text is not None]
        raise GameFormatError(
            f"no source reads {quoted(suffix)} files from text; these do: {', '.join(readable)}"
        )
    return found.from_text(text, name or f"game{suffix}", budget)


# --- inside ------------------------------------------------------------------------------------


def _given(options: Options, keywords: Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(options, str):
        raise TypeError("options are a mapping or a list of 'key=value' texts, not one text")
    given = dict(options) if isinstance(options, Mapping) else option_texts(options)
    for key, value in keywords.items():
        if key in given:
            raise GameFormatError(f"option {key!r} given twice")
        given[key] = value
    return given


def _refuse_options(found: Source, given: Mapping[str, Any]) -> None:
    if given and not found.takes_options:
        raise GameFormatError(f"{found.noun} takes no options, got {next(iter(given))!r}")


def _source(spec: str) -> Source:
    kind = source_name(spec)
    if kind is None:
        raise unknown_game(spec)
    return source(kind)


def _stem(spec: str) -> str:
    return Path(spec).stem if "/" in spec or "." in spec else spec


def unknown_game(spec: str) -> UnknownGameError:
    """The error for a spec that names nothing: the registered games, what else a spec
    may be, and, when ``spec`` is (or with ``.py`` is) a Python file, "did you mean" the
    spec of the game classes in it (``kalah`` or ``kalah.py`` -> ``kalah:Kalah``,
    ``games/kalah.py`` -> ``games/kalah.py:Kalah``)."""
    word = spec.strip()
    hint = _file_hint(word)
    files = ", ".join(suffixes())
    named = "".join(f"{name}:NAME, " for name in schemes() if name != PYTHON)
    accepts = (
        f"a spec may also be a file ({files}), {named}or your own game as "
        "module:attribute or path/to/file.py:Class"
    )
    return UnknownGameError(word, registry.names(), hint=hint, accepts=accepts)


def _file_hint(word: str) -> str:
    """"did you mean ..." for a spec that names a Python file here, or ``""``."""
    if len(word) > 400 or ":" in word:
        return ""
    path = Path(word if word.endswith(".py") else f"{word}.py")
    if not _is_file(path):
        return ""
    # A module name beside the user loads as module:Class; any other path as path:Class.
    module = word.removesuffix(".py")
    stem = module if re.fullmatch(r"[A-Za-z_]\w*", module) else str(path)
    classes = _game_classes(path)
    specs = " or ".join(f"{stem}:{name}" for name in classes) or f"{stem}:YourGameClass"
    return f"did you mean {specs}? {path} is a Python file"


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a file here (False for a name the system refuses as too long)."""
    try:
        return path.is_file()
    except OSError:
        return False


def _game_classes(path: Path) -> list[str]:
    """The classes in the Python file ``path`` that look like games (they define
    ``initial_state``, or derive from a class whose name ends in ``Game``), else every
    class it defines; read without importing it."""
    try:
        tree = ast.parse(read_text(path))  # a hint only: a FIFO or a huge file gives none
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError, RecursionError, PliesError):
        return []
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    games = [node.name for node in classes if _looks_like_a_game(node)]
    return games or [node.name for node in classes]


def _looks_like_a_game(node: ast.ClassDef) -> bool:
    defines = any(
        isinstance(item, ast.FunctionDef) and item.name == "initial_state" for item in node.body
    )
    return defines or any(ast.unparse(base).split("[")[0].endswith("Game") for base in node.bases)


def is_tree_path(name: str) -> bool:
    """Whether ``name`` is the path of an existing tree file (``.json`` or ``.tree``)."""
    return source_name(name) in (".tree", ".json") and _is_file(Path(name.strip()))


def load_tree(path: str | Path) -> Any:
    """The explicit game tree in the file at ``path`` (see :mod:`plies.sources.tree`)."""
    from plies.sources.tree import TreeGame

    return TreeGame.from_file(path)


# --- a spec shipped to other processes ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameSpec:
    """A game by spec and options: cheap to ship to worker processes.

    A file's path is made absolute, so workers need not share the current directory.
    """

    name: str
    options: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def parse(cls, name: str, options: Iterable[str] = ()) -> GameSpec:
        """The game ``name`` with command-line options ``["key=value", ...]``, checked
        now (an unknown game or a bad option is refused here, not in a worker).

        Raises:
            UnknownGameError, GameFormatError, GameSpecError: as :func:`parse_options`.
        """
        typed = parse_options(name, options)
        kind = None if registry.registered(name) is not None else source_name(name)
        resolve = None if kind is None else source(kind).resolve
        spec = resolve(name.strip()) if resolve is not None else name.strip()
        return cls(spec, tuple(typed.items()))

    def load(self, *, budget: Budget | None = None) -> Game[Any, Any]:
        """The game, built once per process (GDL grounding is not cheap).

        ``budget`` bounds the building when this process has not built it yet (None: the
        source's default).
        """
        game = _LOADED.get(self)
        if game is None:
            game = _LOADED[self] = load(self.name, dict(self.options), budget=budget)
        return game


_LOADED: dict[GameSpec, Game[Any, Any]] = {}


__all__ = ["GameSpec", "Options", "is_tree_path", "load", "load_text", "load_tree",
           "parse_options", "spec_info", "unknown_game"]
