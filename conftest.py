"""Collection rules for the whole repository (the tests' own fixtures live in ``tests/``)."""

from __future__ import annotations

import re
import signal
from pathlib import Path

import pytest

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


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C as a terminal delivers it.  A suite started in the background (``nohup``,
    ``&`` in a script) begins with SIGINT ignored, and every process it starts would
    inherit that: the tests that press Ctrl-C need Python's handler in this process and
    the default disposition in the processes they start (a handler is reset by exec)."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
