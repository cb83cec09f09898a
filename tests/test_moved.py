"""Names that moved still work from their old place for one release, with a
:class:`DeprecationWarning` that names the new place (:mod:`plies._compat`)."""

from __future__ import annotations

import importlib
import sys

import pytest

# (old module, new module, a name read through the old one)
MOVED_MODULES = [
    ("plies.demo", "plies.cli.demo", "run"),
    ("plies.playcli", "plies.cli.play", "cmd_play"),
    ("plies.checkcli", "plies.cli.check", "register"),
    ("plies.viz.cli", "plies.cli.tree", "output_format"),
    ("plies.web.cli", "plies.cli.web", "listen"),
    ("plies.parallel.cli", "plies.cli.tournament", "progress_bar"),
    ("plies.uci.cli", "plies.cli.uci", "run"),
    ("plies.learn.cli", "plies.cli.learn", "register"),
]


@pytest.mark.parametrize(("old", "new", "name"), MOVED_MODULES)
def test_an_old_module_path_warns_and_forwards(old: str, new: str, name: str) -> None:
    sys.modules.pop(old, None)
    module = importlib.import_module(old)
    with pytest.warns(DeprecationWarning, match=rf"{old} is deprecated: use {new}") as caught:
        value = getattr(module, name)
    assert value is getattr(importlib.import_module(new), name)
    assert caught[0].filename == __file__
