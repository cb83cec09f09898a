"""Deprecation shims: names that moved keep working for one release, with a warning.

Two helpers, both built on a module's ``__getattr__`` (PEP 562), so a shim warns only
when an old name is actually used, and says where the name lives now:

- :func:`moved_module`: a whole module moved.  The old module becomes two lines, and every
  attribute read through it (``from plies.old import name`` included) warns and forwards::

      from plies._compat import moved_module

      moved_module(__name__, "plies.new")

- :func:`deprecated_alias`: a name was renamed or moved out of a module that stays.  The
  module ends with ``__getattr__ = deprecated_alias(__name__, Old="New")`` (``New`` a
  name in the same module) or ``Old="plies.other:New"`` (a name elsewhere).

The warnings are :class:`DeprecationWarning` with ``stacklevel=2``: they point at the line
that used the old name.

>>> import sys, types, warnings
>>> old = types.ModuleType("plies_old_example")
>>> sys.modules["plies_old_example"] = old
>>> moved_module("plies_old_example", "plies.errors")
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     from plies_old_example import UsageError
>>> UsageError.__module__, str(caught[0].message)
('plies.errors', 'plies_old_example is deprecated: use plies.errors (plies.errors.UsageError)')
>>> del sys.modules["plies_old_example"]
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Callable
from typing import Any


def moved_module(old_name: str, new_module: str) -> None:
    """Make the module ``old_name`` (normally the caller, ``__name__``) a shim of
    ``new_module``: reading a name through it warns and returns the new module's."""
    old = sys.modules[old_name]

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):  # tools probe dunders (doctest's __test__): not a use
            raise AttributeError(f"module {old_name!r} has no attribute {name!r}")
        new = importlib.import_module(new_module)
        try:
            value = getattr(new, name)
        except AttributeError:
            # Not moved (a submodule of an old package is found by the import system).
            raise AttributeError(f"module {old_name!r} has no attribute {name!r}") from None
        warnings.warn(
            f"{old_name} is deprecated: use {new_module} ({new_module}.{name})",
            DeprecationWarning, stacklevel=2,
        )
        return value

    def __dir__() -> list[str]:
        return sorted(set(dir(importlib.import_module(new_module))))

    vars(old).update(__getattr__=__getattr__, __dir__=__dir__)


def deprecated_alias(module_name: str, **aliases: str) -> Callable[[str], Any]:
    """A module ``__getattr__`` that serves old names with a warning.

    Each keyword is an old name; its value is the new one: ``"New"`` (in the same module)
    or ``"plies.package.module:New"``.

    >>> import types, warnings
    >>> get = deprecated_alias("plies.errors", OldError="UsageError")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     get("OldError").__name__
    'UsageError'
    >>> str(caught[0].message)
    'plies.errors.OldError is deprecated: use plies.errors.UsageError'
    >>> get("Missing")
    Traceback (most recent call last):
    ...
    AttributeError: module 'plies.errors' has no attribute 'Missing'
    """

    def __getattr__(name: str) -> Any:
        target = aliases.get(name)
        if target is None:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        where, _, new_name = target.rpartition(":")
        where = where or module_name
        warnings.warn(
            f"{module_name}.{name} is deprecated: use {where}.{new_name}",
            DeprecationWarning, stacklevel=2,
        )
        return getattr(importlib.import_module(where), new_name)

    return __getattr__
