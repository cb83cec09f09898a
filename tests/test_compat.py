"""Deprecation shims: an old path keeps working, warns once per use, and names the new place."""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

# (old module, new module) for every module that moved; the old one is a shim.
MOVED_MODULES: list[tuple[str, str]] = [
    ("plies.games.chess_eval", "plies.games.chess.evaluation"),
    ("plies.games.chess_moves", "plies.games.chess.moves"),
    ("plies.games.empire_eval", "plies.games.empire.evaluation"),
    ("plies.games.empire_maps", "plies.games.empire.maps"),
    ("plies.games.pacman_maze", "plies.games.pacman.maze"),
    ("plies.solvers.connect4", "plies.games.connect4.solver"),
    ("plies.solvers.othello", "plies.games.othello.solver"),
    ("plies.games.tree", "plies.sources.tree"),
    ("plies.games._treeparse", "plies.sources.treeparse"),
    ("plies.games.openspiel", "plies.sources.openspiel"),
    ("plies.games.spec", "plies.sources.python"),
    ("plies.search.engine", "plies.search.craft"),
]

# (module, old name, new home) for every name that moved out of a module that stays.
MOVED_NAMES: list[tuple[str, str, str]] = [
    ("plies.game", name, f"plies.wrappers.{name}")
    for name in (
        "GameWrapper", "MultiMoveRules", "MultiMoveState", "MultiMoveTurns",
        "OpponentsAsChance", "PartialJoint", "Policy", "Sequentialized",
    )
] + [
    ("plies.search.alphabeta", "EngineSearcher", "plies.search.alphabeta.CraftSearcher"),
    ("plies.search.kernels", "alphabeta_kernel", "plies.search.alphabeta.core.alphabeta_kernel"),
    ("plies.search.kernels", "minimax_kernel", "plies.search.minimax.minimax_kernel"),
]


@pytest.fixture
def demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A package ``compatdemo`` with a module ``new``, a shim ``old`` and aliases in ``kept``."""
    package = tmp_path / "compatdemo"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "new.py").write_text("__all__ = ['X']\nX = 1\nY = 2\n")
    (package / "old.py").write_text(
        "from plies._compat import moved_module\n\n"
        "moved_module(__name__, 'compatdemo.new')\n"
    )
    (package / "kept.py").write_text(
        "from plies._compat import deprecated_alias\n\n"
        "Z = 3\n"
        "def __getattr__(name):\n"
        "    if name == 'LAZY':\n"
        "        return 4\n"
        "    raise AttributeError(name)\n\n"
        "deprecated_alias(globals(), 'X', 'compatdemo.new.X')\n"
        "deprecated_alias(__name__, 'W', 'compatdemo.new:Y')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "compatdemo"
    for name in [m for m in sys.modules if m.split(".")[0] == "compatdemo"]:
        del sys.modules[name]


def test_a_moved_module_warns_at_the_importing_line(demo: str) -> None:
    with pytest.warns(DeprecationWarning, match=r"compatdemo\.old .*use compatdemo\.new") as w:
        import compatdemo.old  # type: ignore[import-not-found]  # noqa: F401
    assert {Path(r.filename) for r in w} == {Path(__file__)}


def test_a_moved_module_forwards_every_attribute(demo: str) -> None:
    with pytest.warns(DeprecationWarning) as w:
        from compatdemo.old import X, Y  # type: ignore[import-not-found]
    assert (X, Y) == (1, 2)
    assert {Path(r.filename) for r in w} == {Path(__file__)}
    old = sys.modules["compatdemo.old"]
    with pytest.warns(DeprecationWarning):
        assert old.Y == 2
    assert "Y" in dir(old) and old.__all__ == ["X"]
    with pytest.raises(AttributeError, match="Q"):
        old.Q  # noqa: B018


def test_the_default_filter_shows_it_once_per_line(demo: str) -> None:
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("default")
        from compatdemo.old import X  # type: ignore[import-not-found]
    assert X == 1 and len(w) == 1


def test_a_deprecated_alias_warns_and_returns_the_new_object(demo: str) -> None:
    from compatdemo import kept  # type: ignore[import-not-found]

    assert kept.Z == 3 and kept.LAZY == 4  # the module's own names and __getattr__
    with pytest.warns(DeprecationWarning, match=r"compatdemo\.kept\.X .*compatdemo\.new\.X") as w:
        from compatdemo.kept import X
    assert X == 1 and {Path(r.filename) for r in w} == {Path(__file__)}
    with pytest.warns(DeprecationWarning, match=r"compatdemo\.kept\.W .*compatdemo\.new\.Y"):
        assert kept.W == 2
    with pytest.raises(AttributeError):
        kept.NOTHING  # noqa: B018


@pytest.mark.parametrize(("old", "new"), MOVED_MODULES)
def test_every_old_module_path_works_and_warns(old: str, new: str) -> None:
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=rf"{old} is deprecated: use {new}\b"):
        shim = importlib.import_module(old)
    moved = importlib.import_module(new)
    names = getattr(moved, "__all__", None) or [n for n in vars(moved) if not n.startswith("_")]
    for name in names:
        with pytest.warns(DeprecationWarning):
            assert getattr(shim, name) is getattr(moved, name)


@pytest.mark.parametrize(("module", "name", "new"), MOVED_NAMES)
def test_every_moved_name_works_and_warns(module: str, name: str, new: str) -> None:
    where, _, attribute = new.rpartition(".")
    with pytest.warns(DeprecationWarning, match=rf"{module}\.{name} is deprecated: use {new}\b"):
        value = getattr(importlib.import_module(module), name)
    assert value is getattr(importlib.import_module(where), attribute)


def test_the_new_homes_and_the_top_level_names_do_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        import plies
        from plies.game import CHANCE, Game, play  # noqa: F401
        from plies.wrappers import MultiMoveTurns

        assert plies.MultiMoveTurns is MultiMoveTurns
