"""Registries that other packages extend: lazy tables of named entries read from entry points.

Every open table of plies (games, game sources, algorithms, commands) is a
:class:`Registry`: a group name such as ``"plies.games"``, the built-in entries written
exactly as entry points are (``name -> "module:attribute"``, or ``"module"`` for a module),
the entry points other installed distributions declare for the group, and entries added
at run time with :meth:`Registry.register`.  Nothing is imported before it is used:
:meth:`Registry.names` reads only the table and the distributions' metadata (once, on
first use), and :meth:`Registry.load` imports the one entry asked for.

A plug-in is a distribution installed beside plies that declares, in its
``pyproject.toml``::

    [project.entry-points."plies.games"]
    mygame = "mypkg.games:MyGame"

A plug-in must not break plies for everything else.  One that reuses a built-in name is
ignored (the built-in keeps the name), two that declare the same name are both refused,
and one that fails to import fails only when it is used; each is a :class:`PluginError`
with a one-line message naming the plug-in, its target and its distribution, and
:meth:`Registry.problems` lists them so a listing such as ``plies games`` can show them.

>>> sports = Registry("example.sports", {"nim": "plies.games.nim:Nim"}, kind="game")
>>> sports.names()
['nim']
>>> sports.load("nim").__name__
'Nim'
>>> sports.load("chess")
Traceback (most recent call last):
...
plies.plugins.UnknownEntryError: unknown game 'chess'; known: nim
"""

from __future__ import annotations

import importlib
import os
import re
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Final, Generic, TypeVar

from plies.errors import PliesError

T = TypeVar("T")

_TARGET: Final = re.compile(
    r"\s*(?P<module>[A-Za-z_][\w.]*)\s*(?::\s*(?P<attr>[A-Za-z_][\w.]*))?\s*(?:\[.*\])?\s*"
)
"""An entry point's value: ``module``, or ``module:attribute``, with optional ``[extras]``
(which plies ignores, as :class:`importlib.metadata.EntryPoint` does)."""


class PluginError(PliesError):
    """A plug-in that cannot be used: it failed to import or to check, or its name clashes
    with a built-in or another plug-in.  The message names the plug-in, its target and its
    distribution, on one line."""


class UnknownEntryError(PliesError, LookupError):
    """A name that no entry of a registry has; the message lists the known names."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One named entry of a registry, before it is imported.

    ``target`` is where the object lives (``"module:attribute"`` or ``"module"``), or
    None for an object registered as it is.  ``distribution`` is the name of the
    distribution that declared the entry point, None for a built-in or an entry
    registered at run time; ``builtin`` says which.
    """

    name: str
    target: str | None
    distribution: str | None = None
    builtin: bool = False

    def origin(self) -> str:
        """Where the entry comes from, for messages: ``mypkg:MyGame, from distribution
        plies-mygame``."""
        where = self.target or "an object"
        if self.builtin:
            return f"{where}, built in"
        if self.distribution is not None:
            return f"{where}, from distribution {self.distribution}"
        return f"{where}, registered at run time"


def import_target(target: str) -> Any:
    """The object at ``target``: ``"module:attr.sub"`` (an attribute path inside a module)
    or ``"module"`` (the module itself).

    >>> import_target("plies.games.nim:Nim.__name__")
    'Nim'

    Raises:
        ValueError: ``target`` is not of that form.
        ImportError, AttributeError: the module or the attribute is missing (or importing
            the module raised another exception, which propagates).
    """
    match = _TARGET.fullmatch(target)
    if match is None:
        raise ValueError(f"{target!r} is not module:attribute")
    obj: Any = importlib.import_module(match["module"])
    for part in (match["attr"] or "").split(".") if match["attr"] else ():
        obj = getattr(obj, part)
    return obj


DISABLE: Final = "PLIES_DISABLE_PLUGINS"
"""The environment variable that, set to a non-empty value other than ``0``, makes plies
ignore the entry points of every distribution but its own (to tell whether a problem
comes from a plug-in)."""


@cache
def _declared() -> Mapping[str, tuple[Entry, ...]]:
    """Every entry point of a ``plies.*`` group of the installed distributions, read once
    per process (scanning the distributions' metadata is the costly part); only plies'
    own when :data:`DISABLE` is set.

    A distribution seen twice on ``sys.path`` (an editable install beside a built one)
    declares each entry once.
    """
    from importlib.metadata import entry_points

    own_only = os.environ.get(DISABLE, "") not in ("", "0")
    every = entry_points()  # one scan of the distributions for every group
    groups: dict[str, tuple[Entry, ...]] = {}
    for group in sorted(every.groups):
        if group.startswith("plies."):
            entries = (
                Entry(point.name, point.value, point.dist.name if point.dist else None)
                for point in every.select(group=group)
            )
            groups[group] = tuple(
                entry for entry in dict.fromkeys(entries)
                if not own_only or entry.distribution == "plies"
            )
    return groups


def declared_entries(group: str) -> tuple[Entry, ...]:
    """The entry points that installed distributions declare for ``group``."""
    return _declared().get(group, ())


def refresh() -> None:
    """Forget the entry points read so far: the next use of any registry reads them again
    (after a distribution was installed or removed in this process's life)."""
    _declared.cache_clear()
    for registry in list(_REGISTRIES):
        registry.forget()


_REGISTRIES: weakref.WeakSet[Registry[Any]] = weakref.WeakSet()


class Registry(Generic[T]):
    """A lazy table of named entries of one kind, open to plug-ins by entry point.

    Args:
        group: the entry-point group plug-ins declare (``"plies.games"``).
        builtins: the built-in entries, ``name -> "module:attribute"`` (or ``"module"``),
            in the order listings show them.
        kind: what an entry is, in messages (``"game"``, ``"algorithm"``).
        adapt: turns the imported object into the registry's value, or raises (any
            exception: for a plug-in it becomes a :class:`PluginError`).  Called once per
            entry, with the name and the object.  The default keeps the object.
        unknown: the error for a name that no entry has, from the name and the known
            names; the default is :class:`UnknownEntryError`.
        discover: the declared entry points of the group; the default reads the installed
            distributions (tests pass their own).

    Names are matched exactly (callers normalise case).  :meth:`names` lists built-ins in
    table order, then plug-ins sorted by name, then run-time entries in the order they
    were registered.  Loaded values are kept, and so are failures: loading a broken
    plug-in twice raises the same error without importing it again.  A registry is safe
    to use from several threads.
    """

    def __init__(
        self,
        group: str,
        builtins: Mapping[str, str] | None = None,
        *,
        kind: str = "entry",
        adapt: Callable[[str, Any], T] | None = None,
        unknown: Callable[[str, list[str]], Exception] | None = None,
        discover: Callable[[], Iterable[Entry]] | None = None,
    ) -> None:
        self.group = group
        self.kind = kind
        self._builtins = {
            name: Entry(name, target, builtin=True) for name, target in (builtins or {}).items()
        }
        self._adapt = adapt
        self._unknown = unknown
        self._discover = discover if discover is not None else (lambda: declared_entries(group))
        self._runtime: dict[str, Entry] = {}
        self._objects: dict[str, Any] = {}  # what register() was given as an object
        self._lock = threading.RLock()
        self._plugins: dict[str, Entry] | None = None
        self._clashes: dict[str, PluginError] = {}  # names that several plug-ins declare
        self._ignored: list[PluginError] = []  # plug-ins that reuse a built-in name
        self._values: dict[str, T] = {}
        self._failures: dict[str, PluginError] = {}
        _REGISTRIES.add(self)

    # --- what is known, without importing anything ------------------------------------

    def names(self) -> list[str]:
        """Every name the registry answers to (broken plug-ins included: :meth:`load`
        says what is wrong with one)."""
        with self._lock:
            plugins = self._read()
            found = sorted({*plugins, *self._clashes})
            return list(dict.fromkeys([*self._builtins, *found, *self._runtime]))

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        with self._lock:
            return self.entry(name) is not None or name in self._clashes

    def entry(self, name: str) -> Entry | None:
        """The entry called ``name`` (where it comes from), None if there is none."""
        with self._lock:
            plugins = self._read()
            return self._runtime.get(name) or self._builtins.get(name) or plugins.get(name)

    def problems(self) -> list[PluginError]:
        """What is wrong with the plug-ins found so far: name clashes (always known) and
        import or check failures (known once the entry was loaded, see :meth:`load_all`)."""
        with self._lock:
            self._read()
            return [*self._ignored, *self._clashes.values(), *self._failures.values()]

    def ignored(self) -> list[PluginError]:
        """The plug-ins left out because they reuse a built-in name (no name shows them:
        the built-in keeps it)."""
        with self._lock:
            self._read()
            return list(self._ignored)

    # --- using entries -----------------------------------------------------------------

    def load(self, name: str) -> T:
        """The value of the entry called ``name``, imported (and adapted) on first use.

        Raises:
            UnknownEntryError: no entry has ``name`` (the error the registry's
                ``unknown`` makes instead, where it was given one).
            PluginError: a plug-in that fails to import or to check, or whose name
                another plug-in also declares.
        An exception from a built-in entry propagates as it is (it is a bug of plies).
        """
        with self._lock:
            if name in self._values:
                return self._values[name]
            if name in self._failures:
                raise self._failures[name]
            entry = self.entry(name)
            if entry is None:
                clash = self._clashes.get(name)
                if clash is not None:
                    raise clash
                raise self._missing(name)
            try:
                obj = self._objects[name] if entry.target is None else import_target(entry.target)
                value = self._adapt(name, obj) if self._adapt is not None else obj
            except Exception as exc:
                if entry.builtin:
                    raise
                failure = PluginError(
                    f"plug-in {self.kind} {name!r} ({entry.origin()}) cannot be used: "
                    f"{one_line(exc)}"
                )
                self._failures[name] = failure
                raise failure from exc
            self._values[name] = value
            return value

    def load_all(self) -> tuple[dict[str, T], dict[str, PluginError]]:
        """Every entry loaded: the values by name, and the plug-ins that failed by name
        (a listing shows both; a built-in that fails raises)."""
        values: dict[str, T] = {}
        failed: dict[str, PluginError] = {}
        for name in self.names():
            try:
                values[name] = self.load(name)
            except PluginError as exc:
                failed[name] = exc
        return values, failed

    def register(self, name: str, target: str | object, *, replace: bool = False) -> None:
        """Add an entry at run time: ``target`` is ``"module:attribute"`` (imported when
        used) or the object itself.

        Raises:
            ValueError: ``name`` is already taken (by a built-in, a plug-in or an earlier
                :meth:`register`), unless ``replace``; or a target string that is not
                ``module:attribute``.
        """
        with self._lock:
            if not replace and name in self:
                raise ValueError(f"cannot register {self.kind} {name!r}: the name is taken")
            if isinstance(target, str):
                if _TARGET.fullmatch(target) is None:
                    raise ValueError(f"cannot register {self.kind} {name!r}: "
                                     f"{target!r} is not module:attribute")
                self._runtime[name] = Entry(name, target)
                self._objects.pop(name, None)
            else:
                self._runtime[name] = Entry(name, None)
                self._objects[name] = target
            self._values.pop(name, None)
            self._failures.pop(name, None)

    def unregister(self, name: str) -> None:
        """Remove an entry added with :meth:`register` (built-ins and plug-ins stay).

        Raises:
            KeyError: no run-time entry has ``name``.
        """
        with self._lock:
            del self._runtime[name]
            self._objects.pop(name, None)
            self._values.pop(name, None)
            self._failures.pop(name, None)

    def forget(self) -> None:
        """Drop the plug-ins read and loaded so far (built-ins and run-time entries stay
        loaded): the next use reads the entry points again."""
        with self._lock:
            self._plugins = None
            self._clashes = {}
            self._ignored = []
            kept = set(self._builtins) | set(self._runtime)
            self._values = {k: v for k, v in self._values.items() if k in kept}
            self._failures = {k: v for k, v in self._failures.items() if k in kept}

    def view(self) -> RegistryView[T]:
        """A read-only mapping of name -> value that loads each entry when it is read."""
        return RegistryView(self)

    # --- inside ------------------------------------------------------------------------

    def _read(self) -> dict[str, Entry]:
        """The usable plug-in entries by name, read on first use; clashes are noted."""
        with self._lock:
            if self._plugins is not None:
                return self._plugins
            by_name: dict[str, list[Entry]] = {}
            for entry in self._discover():
                by_name.setdefault(entry.name, []).append(entry)
            plugins: dict[str, Entry] = {}
            for name, entries in sorted(by_name.items()):
                if name in self._builtins:
                    self._ignored.extend(
                        PluginError(
                            f"plug-in {self.kind} {name!r} ({entry.origin()}) is ignored: "
                            f"{name!r} is a built-in {self.kind}"
                        )
                        for entry in entries
                    )
                elif len(entries) > 1:
                    shown = "; ".join(entry.origin() for entry in entries)
                    self._clashes[name] = PluginError(
                        f"plug-in {self.kind} {name!r} is declared {len(entries)} times "
                        f"({shown}); none is used: uninstall all but one"
                    )
                else:
                    plugins[name] = entries[0]
            self._plugins = plugins
            return plugins

    def _missing(self, name: str) -> Exception:
        known = self.names()
        if self._unknown is not None:
            return self._unknown(name, known)
        return UnknownEntryError(f"unknown {self.kind} {name!r}; known: {', '.join(known)}")

    def __repr__(self) -> str:
        return f"Registry({self.group!r}, kind={self.kind!r})"


class RegistryView(Mapping[str, T]):
    """A registry read as a mapping: iterating lists names, reading a key loads it."""

    def __init__(self, registry: Registry[T]) -> None:
        self._registry = registry

    def __getitem__(self, name: str) -> T:
        if name not in self._registry:
            raise KeyError(name)
        return self._registry.load(name)

    def __iter__(self) -> Iterator[str]:
        return iter(self._registry.names())

    def __len__(self) -> int:
        return len(self._registry.names())

    def __contains__(self, name: object) -> bool:
        return name in self._registry

    def __repr__(self) -> str:
        return f"RegistryView({self._registry.group!r}: {', '.join(self._registry.names())})"


def one_line(exc: BaseException) -> str:
    """``Type: message`` on one line (a multi-line message keeps its first line)."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


__all__ = [
    "Entry",
    "PluginError",
    "Registry",
    "RegistryView",
    "UnknownEntryError",
    "declared_entries",
    "import_target",
    "one_line",
    "refresh",
]
