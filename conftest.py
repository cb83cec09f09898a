"""Collection rules for the whole repository (the tests' own fixtures live in ``tests/``)."""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parent / "src" / "plies"


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """Skip the deprecation shims of ``src/plies`` when collecting doctests.

    A shim (an old module path, :func:`plies._compat.moved_module`) has no doctest, and
    importing it warns, which ``filterwarnings = error`` would turn into a collection
    error; ``tests/test_compat.py`` imports each one on purpose.
    """
    if collection_path.suffix != ".py" or SRC not in collection_path.parents:
        return None
    text = collection_path.read_text(encoding="utf-8")
    return re.search(r"^moved_module\(__name__", text, re.MULTILINE) is not None or None
