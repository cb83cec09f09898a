"""Where games come from besides the registered names: file formats, schemes, your own code.

Each kind of spec is a :class:`~plies.game.declaration.Source`, registered under a file
suffix (a spec ending with it) or a scheme (a spec ``scheme:rest``) in the registry
:data:`SOURCES`, group ``plies.sources``, which other distributions extend by entry point:

- ``.tree``, ``.json``: :mod:`plies.sources.tree`, explicit game trees;
- ``openspiel``: :mod:`plies.sources.openspiel`, every OpenSpiel game, ``openspiel:NAME``;
- ``python``: :mod:`plies.sources.python`, your own code, ``module:attribute`` or
  ``path/to/file.py:Class`` (``python:`` may be left out: a spec with a colon that no
  other scheme claims is read as Python);
- ``.kif``, ``.gdl``: General Game Playing descriptions, declared by plies'
  ``pyproject.toml`` as entry points of :mod:`plies.gdl.source`, like any plug-in's.

:func:`plies.games.load` finds the source of a spec by its name alone (:func:`source_name`),
so a spec imports only the source it needs.

>>> source_name("fig.TREE"), source_name("openspiel:pig"), source_name("mypkg:Game")
('.tree', 'openspiel', 'python')
>>> source_name("nim") is None
True
"""

from __future__ import annotations

from typing import Any, Final

from plies.game.declaration import Source
from plies.plugins import Registry

BUILTIN_SOURCES: Final = {
    ".tree": "plies.sources.tree:SOURCE",
    ".json": "plies.sources.tree:SOURCE",
    "openspiel": "plies.sources.openspiel:SOURCE",
    "python": "plies.sources.python:SOURCE",
}
"""The built-in sources: a suffix (``.tree``) or a scheme (``openspiel``) -> where its
:class:`~plies.game.declaration.Source` lives."""

PYTHON: Final = "python"
"""The scheme of a spec with a colon that no other scheme claims (``mypkg:Game``)."""


def _check(name: str, obj: Any) -> Source:
    if not isinstance(obj, Source):
        raise TypeError(f"{type(obj).__name__} is not a plies.game.declaration.Source")
    if not (name.startswith(".") or name.isidentifier()):
        raise TypeError(f"{name!r} is neither a file suffix (.ext) nor a scheme (a word)")
    return obj


SOURCES: Final[Registry[Source]] = Registry(
    "plies.sources", BUILTIN_SOURCES, kind="game source", adapt=_check
)


def suffixes() -> list[str]:
    """The file suffixes some source reads (``.tree``, ``.kif``, ...)."""
    return [name for name in SOURCES.names() if name.startswith(".")]


def schemes() -> list[str]:
    """The schemes (``openspiel``, ``python``, ...) some source reads."""
    return [name for name in SOURCES.names() if not name.startswith(".")]


def source_name(spec: str) -> str | None:
    """The name of the source that reads ``spec``: the longest suffix it ends with (any
    case), else its scheme (``openspiel:...``), else ``python`` for any other spec with a
    colon; None for a plain word (a game name)."""
    text = spec.strip()
    lower = text.lower()
    ends = [
        suffix for suffix in suffixes()
        if lower.endswith(suffix.lower()) and len(lower) > len(suffix)
    ]
    if ends:
        return max(ends, key=len)
    scheme, colon, _ = text.partition(":")
    if not colon:
        return None
    for name in schemes():
        if scheme.strip().lower() == name.lower():
            return name
    return PYTHON


def source(name: str) -> Source:
    """The source registered as ``name`` (a suffix or a scheme).

    Raises:
        UnknownEntryError: no source has that name.
        PluginError: a plug-in source that cannot be used (the message says why).
    """
    return SOURCES.load(name)


__all__ = ["BUILTIN_SOURCES", "PYTHON", "SOURCES", "Source", "schemes", "source", "source_name",
           "suffixes"]
