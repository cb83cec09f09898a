"""Search names that moved keep working for one release, with a DeprecationWarning."""

from __future__ import annotations

import importlib
import sys

import pytest


def test_the_engine_module_is_now_craft() -> None:
    sys.modules.pop("plies.search.engine", None)
    with pytest.warns(DeprecationWarning, match=r"plies\.search\.engine is deprecated: use "
                      r"plies\.search\.craft\b"):
        old = importlib.import_module("plies.search.engine")
    from plies.search import craft

    for name in ("Craft", "TranspositionTable", "Ordering", "stable_hash", "HINT_DEPTH"):
        with pytest.warns(DeprecationWarning):
            assert getattr(old, name) is getattr(craft, name)


def test_engine_searcher_is_now_craft_searcher() -> None:
    alphabeta = importlib.import_module("plies.search.alphabeta")  # the module, not the function
    with pytest.warns(DeprecationWarning, match=r"plies\.search\.alphabeta\.EngineSearcher is "
                      r"deprecated: use plies\.search\.alphabeta\.CraftSearcher"):
        from plies.search.alphabeta import EngineSearcher
    assert EngineSearcher is alphabeta.CraftSearcher
