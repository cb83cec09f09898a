"""Hostile command lines: every command of ``plies`` with odd files, absurd numbers, broken
specs and seeded mutants of valid commands, each run as a process.

The promise: every run ends within its timeout with exit 0 or 2 and at most one line on
stderr, no traceback, within a 2 GB address space.  The cases are in
:mod:`tests.hostile.corpus`; a failure prints the command that reproduces it.
"""

from __future__ import annotations

from concurrent.futures import Future

import pytest

from tests.hostile.corpus import Case, Run, explain, fixed_cli_cases, mutated_cli_cases, verdict

BIG_TREE = Case("cli", "solve-15-mib-tree-under-time-3", ("solve", "{big.tree}", "--time", "3"),
                timeout=60)
CASES = [*fixed_cli_cases(), BIG_TREE, *mutated_cli_cases(3)]


def test_every_command_is_covered() -> None:
    commands = {case.argv[0] for case in CASES if case.argv}
    assert commands >= {"games", "algorithms", "demo", "solve", "analyze", "trace", "play",
                        "tree", "web", "tournament", "check", "uci", "learn", "ggp"}


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_hostile_command_line_is_one_line_or_success(
    case: Case, runs: dict[str, Future[Run]], files: dict[str, str]
) -> None:
    run = runs[case.name].result()
    assert verdict(case, run) == "ok", explain(case, run, files)
