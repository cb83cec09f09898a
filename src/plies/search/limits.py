"""Limits of a search and how it is stopped: depth, clock, node budget, stop signal.

:class:`Limit` says how far a search may go.  :class:`StopSignal` is how another thread
stops it.  :func:`budget_check` is the one cadence at which every search, a kernel or a
``node_value`` worker, looks at its clock, node budget and stop signal.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from plies.budget import StopSignal as StopSignal
from plies.errors import OptionError

Unit = Literal["ply", "round"]

NEVER = 1 << 62  # a node count no search reaches: "never check"
CHECK_FIRST = 16  # nodes before the first look at the clock and the stop signal
CHECK_MOST = 1024  # the longest interval between two looks, in nodes
CHECK_FAST = 0.0005  # looks closer than this (seconds) double the interval ...
CHECK_SLOW = 0.002  # ... looks further apart than this halve it: about one per ms


@dataclass(frozen=True, slots=True)
class Limit:
    """How far a search may go; ``None`` means no limit of that kind.

    ``depth`` counts in ``unit`` ("ply" or "round", see :mod:`plies.search.common`); ``time``
    is in seconds and ``nodes`` counts visited nodes.  With ``time`` or ``nodes`` the
    search deepens iteratively and returns the last iteration it completed.
    """

    depth: int | None = None
    unit: Unit = "ply"
    time: float | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.depth is not None and self.depth < 0:
            raise OptionError(f"depth must be >= 0, got {self.depth}")
        if self.unit not in ("ply", "round"):
            raise OptionError(f"unknown depth unit {self.unit!r}; use 'ply' or 'round'")
        if self.time is not None and not 0 < self.time < math.inf:  # also refuses NaN
            raise OptionError(
                f"time must be a finite number of seconds > 0, got {self.time} "
                "(for no time limit, give none)"
            )
        if self.nodes is not None and self.nodes < 1:
            raise OptionError(f"nodes must be >= 1, got {self.nodes}")

    @property
    def anytime(self) -> bool:
        """True when a clock or node budget can stop the search early."""
        return self.time is not None or self.nodes is not None


class OutOfBudget(Exception):
    """Raised inside a search when its time or node budget is spent, or it is stopped."""


@dataclass(frozen=True, slots=True)
class ProgressReport:
    """How far a running search has come: ``nodes`` visited (every pass of an iterative
    deepening counted), ``elapsed`` seconds since it started, ``nps`` nodes a second,
    ``passes`` the passes begun (1 for a single search; each deepening iteration and each
    re-search of the root starts one), ``deepest`` the deepest ply below the root reached
    so far (0 when the search does not say)."""

    nodes: int
    elapsed: float
    nps: float
    passes: int
    deepest: int = 0


class Progress:
    """A stop signal that reports progress: pass it as ``stop=`` to any search.

    Every search looks at its stop signal about once a millisecond
    (:func:`budget_check`); at most every ``every`` seconds this calls ``report`` with a
    :class:`ProgressReport`.  ``stop`` (optional) is the signal it stands in for: the
    search stops when that one is set.  ``report`` runs in the searching thread, so it
    should be quick (update a status line, store the report).

    >>> import plies
    >>> seen = []
    >>> game = plies.games.load("tictactoe")
    >>> r = plies.minimax(game, game.initial_state(), stop=Progress(seen.append, every=0))
    >>> seen[-1].nodes <= r.stats.nodes and seen[-1].passes == 1
    True
    """

    def __init__(
        self, report: Callable[[ProgressReport], None], every: float = 0.25,
        stop: StopSignal | None = None,
    ) -> None:
        self.report, self.every, self.stop = report, every, stop
        self.started = time.perf_counter()
        self.next_report = self.started + every
        self.done = 0  # nodes of the passes that have ended
        self.last = 0  # the current pass's count at the last look
        self.passes = 0
        self.deepest = 0

    def is_set(self) -> bool:
        return self.stop is not None and self.stop.is_set()

    @property
    def can_stop(self) -> bool:
        """Whether this signal can ever be set (only through the ``stop`` it wraps)."""
        return self.stop is not None

    def tick(self, nodes: int, deepest: int = 0) -> None:
        """A look of the search at ``nodes`` nodes into its current pass, ``deepest``
        plies deep at most so far."""
        if deepest > self.deepest:
            self.deepest = deepest
        if nodes < self.last or self.passes == 0:  # a new pass counts from the start again
            self.done += self.last
            self.passes += 1
        self.last = nodes
        now = time.perf_counter()
        if now >= self.next_report:
            self.next_report = now + self.every
            elapsed = now - self.started
            total = self.done + nodes
            self.report(ProgressReport(total, elapsed, total / elapsed if elapsed else 0.0,
                                       self.passes, self.deepest))


def can_stop(stop: StopSignal | None) -> bool:
    """Whether ``stop`` may end a search: a signal, but not a :class:`Progress` that
    wraps none (a search with no other budget then runs its default course)."""
    return stop is not None and bool(getattr(stop, "can_stop", True))


def budget_check(
    deadline: float | None,
    budget: int | None,
    stop: StopSignal | None = None,
    every: int = 0,
) -> tuple[int, Callable[..., int]]:
    """When to look at the budget next, and the look: ``(first, check)``.

    A search counts its nodes and calls ``check(nodes)`` (or ``check(nodes, deepest)``,
    the deepest ply reached, which a :class:`Progress` reports) once the count reaches the node
    count last returned (``first`` to begin with).  ``check`` raises
    :class:`OutOfBudget` when more than ``budget`` nodes were visited, the clock is past
    ``deadline`` or ``stop`` is set, and otherwise returns the node count of the next
    look.  The interval adapts so that the looks come about once a millisecond whatever
    a node costs (a GDL game does a few thousand nodes a second, Connect Four half a
    million): it starts at ``every`` nodes (default :data:`CHECK_FIRST`), doubles (up to
    :data:`CHECK_MOST`) while looks come faster than :data:`CHECK_FAST` and halves (down to
    1) while they come slower than :data:`CHECK_SLOW`.  A node budget is exact: a look
    always falls on node ``budget + 1``.
    """
    if deadline is None and budget is None and stop is None:
        return NEVER, lambda nodes: NEVER
    interval = every or CHECK_FIRST
    clock = time.perf_counter
    last = clock()
    tick = getattr(stop, "tick", None)  # a Progress: told the node count at every look

    def check(nodes: int, deepest: int = 0) -> int:
        nonlocal interval, last
        if budget is not None and nodes > budget:
            raise OutOfBudget
        if tick is not None:
            tick(nodes, deepest)
        if stop is not None and stop.is_set():
            raise OutOfBudget
        now = clock()
        if deadline is not None and now > deadline:
            raise OutOfBudget
        gap, last = now - last, now
        if gap < CHECK_FAST:
            interval = min(interval * 2, CHECK_MOST)
        elif gap > CHECK_SLOW:
            interval = max(interval // 2, 1)
        nxt = nodes + interval
        return nxt if budget is None else min(nxt, budget + 1)

    first = interval if budget is None else min(interval, budget + 1)
    return first, check
