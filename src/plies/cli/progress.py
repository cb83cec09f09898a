"""A running search, shown while it runs: nodes, nodes per second, time, depth.

Every command that searches passes a :class:`Watch` as the search's stop signal (a
:class:`~plies.search.Progress`).  On a terminal it keeps a live status line up to date;
after :data:`HINT_AFTER` seconds of an exact search it says once how to get an answer
sooner.  Off a terminal (a pipe, a log, ``--json``) nothing is drawn and stdout stays
clean; the hint alone goes to stderr.
"""

from __future__ import annotations

import sys
from typing import Final

from rich.console import Console
from rich.status import Status

from plies.search import Progress, ProgressReport, SearchResult

HINT_AFTER: Final = 5.0
"""Seconds of an exact search before the hint."""

EVERY: Final = 0.25
"""Seconds between two updates of the line."""

HINT: Final = (
    "hint: an exact search goes to the end of the game and can take very long; "
    "--depth N searches N plies and evaluates, --time S answers within S seconds, "
    "--engine adds a transposition table and move ordering"
)


class Watch(Progress):
    """The progress of one search, drawn on ``status`` (None: not a terminal).

    ``what`` begins the line ("searching with alphabeta"); ``exact``: the search goes to
    the end of the game (no depth or time), so a long one earns the hint.  Give
    :meth:`iteration` the results of an iterative deepening to show the depth reached.
    """

    def __init__(self, console: Console, status: Status | None, what: str, *,
                 exact: bool) -> None:
        super().__init__(self.show, every=EVERY)
        self.next_report = self.started + EVERY
        self.console, self.status, self.what, self.exact = console, status, what, exact
        self.depth: int | None = None
        self.hinted = False

    def iteration(self, result: SearchResult) -> None:
        """An iteration of a deepening search finished at ``result.stats.depth``."""
        self.depth = result.stats.depth

    def show(self, report: ProgressReport) -> None:
        if self.exact and not self.hinted and report.elapsed >= HINT_AFTER:
            self.hinted = True
            if self.status is not None:
                self.console.print(HINT, style="yellow", soft_wrap=True)
            else:
                print(HINT, file=sys.stderr, flush=True)
        if self.status is not None:
            self.status.update(line(self.what, report, self.depth))


def line(what: str, report: ProgressReport, depth: int | None = None) -> str:
    """``searching with alphabeta: 1,234,567 nodes, 120,000 nodes/s, 10.3 s, depth 5
    done`` (a deepening search), or ``..., 31 plies deep`` (an exact one)."""
    reached = (f", depth {depth} done" if depth is not None
               else f", {report.deepest} plies deep" if report.deepest else "")
    return (f"{what}: {report.nodes:,} nodes, {report.nps:,.0f} nodes/s, "
            f"{report.elapsed:.1f} s{reached}")


def watch(console: Console, status: Status | None, what: str, *, exact: bool) -> Watch:
    """A :class:`Watch` that draws on ``status`` only when ``console`` is a terminal."""
    return Watch(console, status if console.is_terminal else None, what, exact=exact)


__all__ = ["HINT", "HINT_AFTER", "Watch", "line", "watch"]
