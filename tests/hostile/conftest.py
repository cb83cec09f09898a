"""Fixtures of the hostile suite: the odd files, and command runs started ahead in threads.

Each case is its own test (a failure names it), but the processes of a module's selected
cases run a few at a time from the first test on, so a case that hangs until its timeout
costs its timeout once, not once per case after it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

import plies
from tests.hostile.corpus import Case, Run, make_files, run_case

PARALLEL = 3
"""Cases run at once: most of the time a case waits for a process, a timeout or a FIFO."""


def environment(cwd: Path) -> dict[str, str]:
    """The environment of a ``python -m plies`` child: this checkout's plies first (the
    child runs in ``cwd``, where ``boom.py`` and ``factory.py`` are), plain output."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")}
    src = str(Path(plies.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
    env["COLUMNS"] = "100"
    return env


@pytest.fixture(scope="session")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The odd files of :func:`corpus.make_files` (``big.tree`` too), in one directory."""
    return make_files(tmp_path_factory.mktemp("hostile"), big=True)


@pytest.fixture(scope="module")
def runs(request: pytest.FixtureRequest, files: dict[str, str]) -> Iterator[dict[str, Future[Run]]]:
    """The run of every selected case of this module (parameter ``case``), by case name,
    started at once ``PARALLEL`` at a time."""
    cases: list[Case] = []
    for item in request.session.items:
        if getattr(item, "module", None) is request.module and hasattr(item, "callspec"):
            case = item.callspec.params.get("case")
            if isinstance(case, Case):
                cases.append(case)
    cwd = Path(files["boom.py"]).parent
    env = environment(cwd)
    with ThreadPoolExecutor(PARALLEL) as pool:
        futures = {case.name: pool.submit(run_case, case, files, python=sys.executable,
                                          env=env, cwd=str(cwd)) for case in cases}
        yield futures
        for future in futures.values():
            future.cancel()
