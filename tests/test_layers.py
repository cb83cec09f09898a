"""The architecture, enforced: no private cross-package imports, imports point inward.

The layers: ``errors, _compat, game, budget, linear <- wrappers, imperfect, search,
games, sources, gdl, check <- solvers <- policy <- ggp, uci, viz, parallel, tournament,
learn <- web, cli``.  Every ``import`` in ``src/plies`` counts, also the ones inside
functions (a lazy import of an outer layer is still an upward dependency); docstrings are
not imports.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "plies"

# The layer of each package (a folder) or top-level module; a module may import its own
# package and any lower layer, never a higher one.
LAYERS: dict[str, int] = {
    "errors": 0, "_compat": 0, "plugins": 0, "game": 0, "budget": 0, "linear": 0,
    "wrappers": 1, "imperfect": 1, "search": 1, "textbook": 1, "games": 1, "sources": 1,
    "gdl": 1, "check": 1,
    "solvers": 2,
    "policy": 3,
    "engine": 3,  # the deprecated shim of plies.policy
    "ggp": 4, "uci": 4, "viz": 4, "parallel": 4, "tournament": 4, "learn": 4,
    "web": 5, "cli": 5, "__main__": 5,
    # Deprecated shims of modules that moved into plies.cli.
    "demo": 5, "checkcli": 5, "playcli": 5,
}
# Within a layer: which package may use which.  The wrappers know only the game model;
# games never import search (but see SOLVER_MAY_IMPORT); search never imports games,
# sources or gdl; sources (file formats, adapters, user code) import no rule set, search
# or gdl; gdl and games stay apart.
FORBIDDEN: set[tuple[str, str]] = {
    ("wrappers", "search"), ("wrappers", "games"), ("wrappers", "sources"),
    ("wrappers", "gdl"), ("wrappers", "imperfect"), ("wrappers", "check"),
    ("imperfect", "search"), ("imperfect", "games"), ("imperfect", "sources"),
    ("imperfect", "gdl"),
    ("games", "search"), ("games", "gdl"),
    ("search", "games"), ("search", "sources"), ("search", "gdl"),
    ("sources", "search"), ("sources", "games"), ("sources", "gdl"),
    ("gdl", "search"), ("gdl", "games"), ("gdl", "sources"),
    # The textbook oracles stand apart from the searches they check.
    ("textbook", "search"), ("textbook", "games"), ("textbook", "sources"), ("textbook", "gdl"),
    # The execution backends know nothing of tournaments (which run on them), and the web
    # app nothing of the command line (whose `plies web` serves it).
    ("parallel", "tournament"), ("web", "cli"),
    # GDL reaches the front ends only as a game source (plies.gdl.source, an entry point).
    ("web", "gdl"), ("cli", "gdl"),
}

# The one way from games/ (and gdl/) into search/: a game package's dedicated solver
# (plies.games.<game>.solver) may use the search's result types and engine craft, and a
# GDL game's solver (plies.gdl.solver) is the memo solver.
SOLVER_MAY_IMPORT: frozenset[str] = frozenset({
    "plies.search.common", "plies.search.result", "plies.search.engine", "plies.search.craft",
    "plies.search.memo",
})


def unit(module: str) -> str:
    """``plies.search.craft`` -> ``search``; ``plies.cli`` -> ``cli``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> Iterator[tuple[int, str, str]]:
    """``(line, module, name)`` for every ``from plies... import name`` and
    ``import plies...`` in ``path`` (``name`` is ``""`` for a plain import)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "plies" or node.module.startswith("plies."):
                for alias in node.names:
                    yield node.lineno, node.module, alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("plies."):
                    yield node.lineno, alias.name, ""


SOURCES = sorted(SRC.rglob("*.py"))

# Private modules meant for every package: the deprecation shims' helper.
SHARED_PRIVATE = {"_compat"}


def test_every_package_and_module_has_a_layer() -> None:
    units = {unit(module_name(p)) for p in SOURCES} - {"__init__"}
    assert units <= set(LAYERS), f"give these a layer: {sorted(units - set(LAYERS))}"


def test_no_module_imports_a_private_name_of_another_package() -> None:
    found = []
    for path in SOURCES:
        here = unit(module_name(path))
        for line, module, name in imports(path):
            there = unit(module)
            if there == here or there in SHARED_PRIVATE:
                continue
            private = name.startswith("_") or any(
                part.startswith("_") and part != "__init__" for part in module.split(".")
            )
            if private:
                found.append(f"{path.relative_to(SRC.parent)}:{line}: from {module} import {name}")
    assert not found, "private names imported across packages:\n" + "\n".join(found)


def test_imports_point_inward() -> None:
    found = []
    for path in SOURCES:
        here = unit(module_name(path))
        if here == "__init__":  # plies/__init__.py re-exports the public API
            continue
        solver = re.fullmatch(r"plies\.(games\.\w+|gdl)\.solver", module_name(path)) is not None
        for line, module, _ in imports(path):
            there = unit(module)
            if there in (here, "__init__") or (solver and module in SOLVER_MAY_IMPORT):
                continue
            if LAYERS[there] > LAYERS[here] or (here, there) in FORBIDDEN:
                found.append(f"{path.relative_to(SRC.parent)}:{line}: {here} imports {module}")
    assert not found, "imports that point outward:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "source",
    [
        "from plies.cli import _num\n",
        "def f():\n    from plies.search.kernels import _budget_check\n",
    ],
)
def test_the_checks_catch_a_private_import(tmp_path: Path, source: str) -> None:
    """The scan sees top-level and lazy imports alike (so the tests above can fail)."""
    path = tmp_path / "x.py"
    path.write_text(source)
    names = [name for _, _, name in imports(path)]
    assert names and names[0].startswith("_")
