"""The architecture, enforced (``docs/design.md`` draws it).

- No private cross-package imports.
- Imports point inward: ``errors, _compat, plugins, game, budget, linear, outputs,
  compiled, bits <- wrappers, imperfect, search, textbook, games, sources, gdl, check <-
  solvers <- policy <- ggp, uci, viz, parallel, tournament, learn <- web, cli``, with the
  pairs of one layer that stay apart (``FORBIDDEN``).
- Inside the package, ``from plies import X`` names a submodule: importing the root
  package (which re-exports the public API of every layer) from a module of a layer is an
  upward dependency in disguise.
- No import cycle inside a package.
- Every document the sources and tests cite is in the repository.

Every ``import`` in ``src/plies`` counts, also the ones inside functions and under
``TYPE_CHECKING`` (a lazy import of an outer layer is still an upward dependency, and a
lazy import that closes a cycle still ties the modules together); docstrings are not
imports.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "plies"

# The layer of each package (a folder) or top-level module; a module may import its own
# package and any lower layer, never a higher one.
LAYERS: dict[str, int] = {
    "errors": 0, "_compat": 0, "_startup": 0, "_pools": 0, "plugins": 0, "version": 0, "game": 0,
    "budget": 0, "linear": 0, "outputs": 0, "compiled": 0, "bits": 0,
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
# (plies.games.<game>.solver) or compiled engine (plies.games.<game>.engine, its
# compiled_search hook) may use the search's result types and engine craft, and a
# GDL game's solver (plies.gdl.solver) is the memo solver.
SOLVER_MAY_IMPORT: frozenset[str] = frozenset({
    "plies.search.common", "plies.search.result", "plies.search.engine", "plies.search.craft",
    "plies.search.memo",
})


def unit(module: str) -> str:
    """``plies.search.craft`` -> ``search``; ``plies.cli`` -> ``cli``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def module_name(path: Path, src: Path = SRC) -> str:
    parts = path.relative_to(src.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, src: Path = SRC) -> Iterator[tuple[int, str, str]]:
    """``(line, module, name)`` for every ``from plies... import name`` and
    ``import plies...`` in ``path`` (``name`` is ``""`` for a plain import).

    A relative import is made absolute.  ``from plies import games`` gives
    ``(line, "plies.games", "")``: the submodule is what is imported.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                here = module_name(path, src)
                package = here if path.name == "__init__.py" else here.rpartition(".")[0]
                parts = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join([*parts, module] if module else parts)
            if module != "plies" and not module.startswith("plies."):
                continue
            for alias in node.names:
                if submodule(f"{module}.{alias.name}", src):
                    yield node.lineno, f"{module}.{alias.name}", ""
                else:
                    yield node.lineno, module, alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "plies" or alias.name.startswith("plies."):
                    yield node.lineno, alias.name, ""


def submodule(module: str, src: Path = SRC) -> bool:
    """Whether ``module`` (``plies.x.y``) is a module or package under ``src``."""
    path = src.parent.joinpath(*module.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


SOURCES = sorted(SRC.rglob("*.py"))

# Private modules meant for every package: the deprecation shims' helper; the quiet
# Ctrl-C of the command's start (the root package imports it, the CLI reads its handler);
# stopping a process pool (the parallel search and the execution backends).
SHARED_PRIVATE = {"_compat", "_startup", "_pools"}


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
            dunder = name.startswith("__") and name.endswith("__")
            private = (name.startswith("_") and not dunder) or any(
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
        solver = re.fullmatch(
            r"plies\.(games\.\w+|gdl)\.(solver|engine)", module_name(path)
        ) is not None
        for line, module, _ in imports(path):
            there = unit(module)
            if there in (here, "__init__") or (solver and module in SOLVER_MAY_IMPORT):
                continue
            if LAYERS[there] > LAYERS[here] or (here, there) in FORBIDDEN:
                found.append(f"{path.relative_to(SRC.parent)}:{line}: {here} imports {module}")
    assert not found, "imports that point outward:\n" + "\n".join(found)


def test_no_module_imports_the_root_package() -> None:
    """``from plies import alphabeta`` inside the package imports every layer (the root
    re-exports the public API); import the name from the module that defines it."""
    found = []
    for path in SOURCES:
        if path == SRC / "__init__.py" or path == SRC / "__main__.py":
            continue
        for line, module, name in imports(path):
            if module == "plies":
                what = f"from plies import {name}" if name else "import plies"
                found.append(f"{path.relative_to(SRC.parent)}:{line}: {what}")
    assert not found, "modules that import the root package:\n" + "\n".join(found)


def import_graph(src: Path = SRC) -> dict[str, set[str]]:
    """Module -> the modules of ``src`` it imports (every import, lazy ones included)."""
    modules = {module_name(p, src): p for p in src.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for here, path in modules.items():
        for _, target, _ in imports(path, src):
            while target not in modules and "." in target:
                target = target.rpartition(".")[0]
            if target in modules and target != here:
                graph[here].add(target)
    return graph


def package_of(module: str, src: Path = SRC) -> str:
    return module if submodule(module, src) and (
        src.parent.joinpath(*module.split("."), "__init__.py").is_file()
    ) else module.rpartition(".")[0]


def cycles_inside_packages(src: Path = SRC) -> list[list[str]]:
    """The strongly connected components (of two or more modules) of the import graph
    restricted to edges between modules of one package, its ``__init__`` left out (it
    re-exports what its modules define, so every module's import of the package would
    otherwise look like a cycle)."""
    graph = import_graph(src)
    inits = {m for m in graph if package_of(m, src) == m}
    inner = {
        m: {t for t in targets if t not in inits and package_of(t, src) == package_of(m, src)}
        for m, targets in graph.items() if m not in inits
    }
    return strongly_connected(inner)


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative; components of one node are left out."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for nxt in successors:
                if nxt not in graph:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_no_import_cycle_inside_a_package() -> None:
    found = cycles_inside_packages()
    assert not found, "import cycles inside packages:\n" + "\n".join(
        " <-> ".join(c) for c in found
    )


def test_the_cycle_check_sees_lazy_and_type_checking_imports(tmp_path: Path) -> None:
    """A cycle closed by an import inside a function or under ``TYPE_CHECKING`` counts
    (so the test above can fail); a package's ``__init__`` re-exporting its modules does
    not make a cycle."""
    package = tmp_path / "plies" / "pkg"
    package.mkdir(parents=True)
    (tmp_path / "plies" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("from plies.pkg.a import A\nfrom plies.pkg.c import C\n")
    (package / "a.py").write_text("from plies.pkg import b\nA = 1\n")
    (package / "b.py").write_text("def f():\n    from plies.pkg.a import A\n    return A\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .d import D\nC = 1\n"
    )
    (package / "d.py").write_text("from . import c\nD = 1\n")
    assert cycles_inside_packages(tmp_path / "plies") == [
        ["plies.pkg.a", "plies.pkg.b"], ["plies.pkg.c", "plies.pkg.d"]
    ]


# A path of the repository as sources and tests cite it: ``docs/design.md``,
# ``benchmarks/results/search_core.md``, ``CONTRIBUTING.md``.
CITED = re.compile(
    r"\b(?:(?:docs|benchmarks|examples)/[\w./-]+\.(?:md|svg|png|dot|py|ipynb|json)"
    r"|CONTRIBUTING\.md|README\.md|CHANGELOG\.md)\b"
)


def cited(paths: Iterable[Path]) -> Iterator[tuple[Path, str]]:
    for path in paths:
        for match in CITED.finditer(path.read_text(encoding="utf-8")):
            yield path, match.group()


def test_every_document_cited_is_in_the_repository() -> None:
    """The design page this guard enforces, and every page, script or result that a
    module or a test names, ships with the repository (a clone has nothing else)."""
    here = Path(__file__)
    assert ("docs/design.md" in {c for _, c in cited([here])})
    sources = [*SOURCES, *sorted((ROOT / "tests").rglob("*.py"))]
    missing = sorted({
        f"{path.relative_to(ROOT)}: {name}"
        for path, name in cited(sources) if not (ROOT / name).exists()
    })
    assert not missing, "cited but not in the repository:\n" + "\n".join(missing)


# GDL and GGP could ship as a distribution of their own: the rest of plies reaches them
# only through the registries, by the entry points pyproject.toml declares.
OPTIONAL_PARTS = {"gdl": ("plies.sources", "plies.gdl."), "ggp": ("plies.commands", "plies.ggp.")}


def test_gdl_and_ggp_reach_the_core_only_through_registries() -> None:
    """No module outside ``gdl`` and ``ggp`` imports them (``ggp`` plays GDL, so it may
    import ``gdl``); the core finds them as a game source (``.kif``) and a command
    (``plies ggp``), declared as entry points like any plug-in's."""
    found = []
    for path in SOURCES:
        here = unit(module_name(path))
        for line, module, _ in imports(path):
            there = unit(module)
            if there in OPTIONAL_PARTS and here != there and (here, there) != ("ggp", "gdl"):
                found.append(f"{path.relative_to(SRC.parent)}:{line}: {here} imports {module}")
    assert not found, "imports of gdl or ggp from the core:\n" + "\n".join(found)
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for group, target in OPTIONAL_PARTS.values():
        assert f'[project.entry-points."{group}"]' in pyproject and f'"{target}' in pyproject


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
