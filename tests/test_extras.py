"""Every package plies imports is declared: by the core dependencies or by an extra.

The imports are read from the source (every ``import`` statement, lazy ones included) and
each is mapped to the distribution that provides it on this machine; that distribution
must be named in ``pyproject.toml`` (``dependencies`` or ``optional-dependencies``).
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def imported_modules() -> dict[str, set[str]]:
    """Top-level modules imported anywhere in ``src/plies``, with the files importing each."""
    found: dict[str, set[str]] = {}
    for path in (REPO / "src" / "plies").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top not in ("plies", "__future__"):
                    found.setdefault(top, set()).add(str(path.relative_to(REPO)))
    return found


def declared() -> dict[str, str]:
    """Each declared distribution (normalised name) -> where it is declared."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    where = {}
    for group, requirements in [("dependencies", project["dependencies"]),
                                *project["optional-dependencies"].items()]:
        for requirement in requirements:
            name = re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0]
            where[normalise(name)] = group
    return where


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_imported_package_is_declared_by_the_core_or_an_extra() -> None:
    providers = packages_distributions()
    known = declared()
    undeclared = []
    for module, files in sorted(imported_modules().items()):
        distributions = [normalise(d) for d in providers.get(module, [])]
        assert distributions, f"{module} (imported by {sorted(files)}) is not installed here"
        if not any(d in known for d in distributions):
            undeclared.append(f"{module} ({', '.join(distributions)}) in {sorted(files)[0]}")
    assert not undeclared, "imported but declared nowhere: " + "; ".join(undeclared)


def test_the_core_needs_only_rich() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert [normalise(re.split(r"[<>=]", r)[0]) for r in project["dependencies"]] == ["rich"]
