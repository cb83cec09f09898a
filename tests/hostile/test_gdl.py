"""Seeded mutants of the repository's test games (tokens and parentheses dropped,
duplicated, swapped; numbers past 4,300 digits; terms nested 200 to 5,000 deep; recursive
and unsafe rules), each loaded and searched one ply by ``plies solve`` in a process.

The promise: success, or one line (a ``PliesError``) with exit 2; no traceback, no
MemoryError in a 2 GB address space, no run past its timeout.
"""

from __future__ import annotations

from concurrent.futures import Future

import pytest

from tests.hostile.corpus import Case, Run, explain, gdl_cases, verdict

CASES = gdl_cases(30)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_gdl_mutant_loads_or_is_one_line(
    case: Case, runs: dict[str, Future[Run]], files: dict[str, str]
) -> None:
    run = runs[case.name].result()
    assert verdict(case, run) == "ok", explain(case, run, files)
