"""Deprecation shims: a public name that moved keeps working for one release, with a warning.

Two cases, one helper each:

- a whole module moved: the old path becomes a two-line module that calls
  :func:`moved_module`; importing it warns, and every attribute (``from old import X``
  included) is the new module's;
- a name inside a module moved or was renamed: the module calls :func:`deprecated_alias`
  once per name; reading ``module.old`` (``from module import old`` included) warns and
  returns the new object, imported only then.

The warning is a :class:`DeprecationWarning` that names the new place and points at the
line that used the old one (the importer, not this module), so ``filterwarnings =
error`` in the tests finds every caller.  The same message repeats at each use of an old
name, so Python's default filter shows it once per line that uses it.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Callable, MutableMapping
from typing import Any


def _warn(old: str, new: str, stacklevel: int) -> None:
    warnings.warn(
        f"{old} is deprecated: use {new} (the old path goes in the next release)",
        DeprecationWarning,
        stacklevel=stacklevel + 1,
    )


def moved_module(old_name: str, new_module: str) -> None:
    """Make the module ``old_name`` (the caller, being imported) a shim of ``new_module``.

    Call it from the old module's body as ``moved_module(__name__, "plies.new.place")``.
    It warns once for the import (pointing at the importing line; the import machinery's
    own frames are skipped) and installs a module ``__getattr__`` that forwards every
    attribute to ``new_module``, warning at each use.  ``from old import *`` gives the
    new module's ``__all__``.
    """
    new = importlib.import_module(new_module)
    shim = vars(sys.modules[old_name])

    def __getattr__(name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):  # probes by tools, not users
            raise AttributeError(f"module {old_name!r} has no attribute {name!r}")
        value = getattr(new, name)  # AttributeError names the new module, which is right
        _warn(old_name, new_module, stacklevel=2)
        return value

    def __dir__() -> list[str]:
        return sorted(set(dir(new)) | set(shim))

    shim["__getattr__"] = __getattr__
    shim["__dir__"] = __dir__
    if hasattr(new, "__all__"):
        shim["__all__"] = list(new.__all__)
    # frames: this function, the shim's body, then (import machinery skipped) the importer
    _warn(old_name, new_module, stacklevel=3)


def deprecated_alias(
    module_globals_or_name: MutableMapping[str, Any] | str, old: str, new_obj_path: str
) -> None:
    """Make ``old`` in a module a deprecated alias of the object at ``new_obj_path``.

    ``module_globals_or_name`` is the module's ``globals()`` or its ``__name__``;
    ``new_obj_path`` is ``"package.module.Name"`` (or ``"package.module:Name"``), imported
    at first use, so the new home may import the old module.  Reading ``old`` warns
    (pointing at the reader's line) and returns the object.  Several aliases in one module
    share one PEP 562 ``__getattr__``; a ``__getattr__`` the module had already keeps
    answering for every other name.
    """
    if isinstance(module_globals_or_name, str):
        namespace: MutableMapping[str, Any] = vars(sys.modules[module_globals_or_name])
    else:
        namespace = module_globals_or_name
    aliases: dict[str, str] | None = namespace.get("__deprecated_aliases__")
    if aliases is None:
        aliases = {}
        namespace["__deprecated_aliases__"] = aliases
        namespace["__getattr__"] = _alias_getattr(
            str(namespace["__name__"]), aliases, namespace.get("__getattr__")
        )
    aliases[old] = new_obj_path


def _alias_getattr(
    module: str, aliases: dict[str, str], fallback: Callable[[str], Any] | None
) -> Callable[[str], Any]:
    def __getattr__(name: str) -> Any:
        path = aliases.get(name)
        if path is None:
            if fallback is not None:
                return fallback(name)
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        where, _, attribute = path.rpartition(":") if ":" in path else path.rpartition(".")
        value = getattr(importlib.import_module(where), attribute)
        _warn(f"{module}.{name}", f"{where}.{attribute}", stacklevel=2)
        return value

    return __getattr__
