"""The conformance check every game's tests call: :func:`plies.check_game`, as an assertion.

:func:`check_game` runs the public check (:mod:`plies.check`) and fails the test with
every failed check's reason (each names the game, the playout, the step and the state).
"""

from __future__ import annotations

from typing import Any

from plies.check import CheckReport
from plies.check import check_game as run_checks


def check_game(
    game: Any, *, playouts: int = 50, seed: int = 0, max_steps: int = 500
) -> CheckReport:
    """Check ``game`` along ``playouts`` random games (seeded); raise AssertionError if broken."""
    report = run_checks(game, playouts=playouts, seed=seed, max_steps=max_steps)
    if not report.ok:
        raise AssertionError(
            "\n".join(f"{report.game}, {check.reason} ({check.name})" for check in report.failures)
        )
    return report
