"""Ctrl-C at seeded moments of long commands: imports, loading, searching, writing.

A terminal's Ctrl-C (SIGINT to the process group) must end the command quietly (exit 130,
or 0 if it had finished; at most one line on stderr; no traceback, in the first second
neither) within a generous bound instead of running on.
"""

from __future__ import annotations

import random
from concurrent.futures import Future

import pytest

from tests.hostile.corpus import CTRL_C_COMMANDS, SEED, Case, Run, ctrl_c_cases, explain, verdict

_rng = random.Random(SEED)
OFFSETS = (0.05, round(_rng.uniform(0.1, 0.6), 2), round(_rng.uniform(0.6, 1.5), 2))
"""During the imports, while loading, while working (on an idle machine)."""
CASES = ctrl_c_cases(OFFSETS, CTRL_C_COMMANDS[:5])


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_ctrl_c_is_quiet_at_any_moment(
    case: Case, runs: dict[str, Future[Run]], files: dict[str, str]
) -> None:
    run = runs[case.name].result()
    # A Ctrl-C in Python's own start-up, before plies' first line runs, is Python's: the
    # one moment no package can make quiet (it is counted apart by benchmarks/hostile.py).
    assert verdict(case, run) in ("ok", "python start-up"), explain(case, run, files)
