"""The deprecation shims of :mod:`plies._compat`: an old name warns where it is used, and
gives the new one."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator

import pytest

from plies._compat import deprecated_alias, moved_module


@pytest.fixture
def old_module() -> Iterator[types.ModuleType]:
    module = types.ModuleType("plies_test_old")
    sys.modules[module.__name__] = module
    moved_module(module.__name__, "plies.errors")
    yield module
    del sys.modules[module.__name__]


def test_a_moved_module_forwards_with_a_warning_at_the_callers_line(
    old_module: types.ModuleType,
) -> None:
    from plies.errors import UsageError

    with pytest.warns(DeprecationWarning, match=r"use plies\.errors") as caught:
        from plies_test_old import UsageError as old  # type: ignore[import-not-found]
    assert old is UsageError
    assert caught[0].filename == __file__


def test_a_moved_module_does_not_warn_for_what_it_never_had(
    old_module: types.ModuleType,
) -> None:
    assert not hasattr(old_module, "no_such_name")
    assert not hasattr(old_module, "__test__")  # doctest probes it
    assert "UsageError" in dir(old_module)


def test_a_deprecated_alias_warns_and_forwards() -> None:
    from plies.errors import PliesError, UsageError

    get = deprecated_alias("plies.errors", Old="UsageError", Base="plies.errors:PliesError")
    with pytest.warns(DeprecationWarning, match=r"plies\.errors\.Old is deprecated"):
        assert get("Old") is UsageError
    with pytest.warns(DeprecationWarning, match=r"use plies\.errors\.PliesError"):
        assert get("Base") is PliesError
    with pytest.raises(AttributeError, match="Missing"):
        get("Missing")
