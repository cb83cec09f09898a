"""Budgets for work that is not a search: building a game, grounding GDL, reading input.

A search has its :class:`~plies.search.limits.Limit`; the work before it (grounding a GDL
description, compiling its reasoner, building a big board) needs a bound too, or one small
request can keep a server busy for days.  A :class:`Budget` says how much that work may
take: ``seconds`` of wall-clock time, ``steps`` of work (what a step is belongs to the
work: a join step of grounding, a gate of the network, ...) and a ``stop`` signal that
another thread sets (an ABORT, a client that went away, Ctrl-C).

Work asks a :class:`Meter` for permission as it goes: ``meter.tick()`` once per step is
cheap (an add and a compare); every so often it looks at the clock and the signal, and
raises :class:`BudgetExceeded` (a :class:`~plies.errors.PliesError`, one line, naming what
ran out) or :class:`Stopped` when the signal is set.

>>> meter = Budget(steps=1000).meter("counting")
>>> try:
...     for _ in range(2000):
...         meter.tick()
... except BudgetExceeded as err:
...     print(err)
counting ran out of its budget of 1,000 steps
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol

from plies.errors import PliesError

MAX_INPUT_BYTES: Final = 16 * 2**20
"""The most bytes plies reads from one input file (a tree, a GDL description, a
positions file): 16 MiB, over 400 times the largest GDL game of the shared collection
(``chess.kif``, 38 KB).  A
larger file, or one without an end (``/dev/zero``), is refused with :class:`InputTooLarge`
after reading at most this much."""

LOOK_EVERY: Final = 4096
"""Steps between two looks at the clock and the stop signal."""


class StopSignal(Protocol):
    """Anything work can ask "should I stop now?": :class:`threading.Event` is one.

    Set it from another thread (a UCI ``stop``, a GGP clock or ABORT, a cancel button,
    Ctrl-C) and the search or the build returns or raises within about a millisecond.
    """

    def is_set(self) -> bool: ...


class BudgetExceeded(PliesError):
    """Work ran out of its budget of time or steps.  The message names the work and the budget."""


class Stopped(BudgetExceeded):
    """Work was stopped from outside (its :class:`StopSignal` was set)."""


class InputTooLarge(BudgetExceeded):
    """An input file larger than the cap on what plies reads (:data:`MAX_INPUT_BYTES`)."""


def read_text(
    path: str | Path, *, limit: int = MAX_INPUT_BYTES, encoding: str = "utf-8"
) -> str:
    """The text of the file at ``path``, read only if it holds at most ``limit`` bytes.

    At most ``limit + 1`` bytes are read, whatever the file is (a device such as
    ``/dev/zero``, a pipe, a sparse file of a terabyte), so memory and time stay bounded.

    Raises:
        InputTooLarge: the file holds more than ``limit`` bytes; the message names the cap.
        OSError: the file cannot be opened or read (as :meth:`pathlib.Path.read_text`).
        UnicodeDecodeError: the bytes are not text in ``encoding``.
    """
    with open(path, "rb") as file:
        data = file.read(limit + 1)
    if len(data) > limit:
        raise InputTooLarge(
            f"{path} is larger than the cap of {_size_text(limit)} that plies reads of an "
            f"input file"
        )
    return data.decode(encoding)


def _size_text(n: int) -> str:
    """``16 MiB`` for a whole number of MiB, else a count of bytes."""
    return f"{n // 2**20} MiB" if n % 2**20 == 0 and n else f"{n:,} bytes"


@dataclass(frozen=True)
class Budget:
    """How much a piece of work may take; ``None`` means no bound of that kind.

    ``seconds`` is wall-clock time from :meth:`meter`; ``steps`` counts the work's own
    steps; ``stop`` ends the work when set.
    """

    seconds: float | None = None
    steps: int | None = None
    stop: StopSignal | None = None

    def __post_init__(self) -> None:
        if self.seconds is not None and not self.seconds > 0:  # also refuses NaN
            raise ValueError(f"a budget's seconds must be > 0, got {self.seconds}")
        if self.steps is not None and self.steps < 1:
            raise ValueError(f"a budget's steps must be >= 1, got {self.steps}")

    def meter(self, what: str) -> Meter:
        """Start counting ``what`` (a phrase such as "grounding the rules") against this budget."""
        return Meter(self, what)


UNLIMITED: Final = Budget()
"""No bound at all (a stop signal can still be given with :func:`dataclasses.replace`)."""


class Meter:
    """The running count of one piece of work against its :class:`Budget`.

    Call :meth:`tick` once per step (or ``tick(n)`` for ``n`` steps at once); it raises
    :class:`BudgetExceeded` once the steps or the seconds are spent and :class:`Stopped`
    once the stop signal is set.  :meth:`look` checks at once, whatever the count.
    """

    __slots__ = ("_deadline", "_every", "budget", "count", "due", "started", "what")

    def __init__(self, budget: Budget, what: str) -> None:
        self.budget = budget
        self.what = what
        self.count = 0
        self.started = time.monotonic()
        self._deadline = None if budget.seconds is None else self.started + budget.seconds
        self._every = LOOK_EVERY
        if budget.steps is None and budget.seconds is None and budget.stop is None:
            self.due = 1 << 62  # nothing to look at, ever
        else:
            self.due = self._every if budget.steps is None else min(self._every, budget.steps + 1)

    def tick(self, n: int = 1) -> None:
        """Count ``n`` steps; look at the budget when a look is due."""
        self.count += n
        if self.count >= self.due:
            self.look()

    def look(self) -> None:
        """Raise :class:`BudgetExceeded` or :class:`Stopped` if the work must end now."""
        budget = self.budget
        if budget.stop is not None and budget.stop.is_set():
            raise Stopped(f"{self.what} was stopped")
        if budget.steps is not None and self.count > budget.steps:
            raise BudgetExceeded(f"{self.what} ran out of its budget of {budget.steps:,} steps")
        if self._deadline is not None and time.monotonic() > self._deadline:
            raise BudgetExceeded(
                f"{self.what} ran out of its budget of {budget.seconds:g} s "
                f"({self.count:,} steps done)"
            )
        if budget.steps is None and budget.seconds is None and budget.stop is None:
            self.due = 1 << 62
            return
        nxt = self.count + self._every
        self.due = nxt if budget.steps is None else min(nxt, budget.steps + 1)

    @property
    def seconds(self) -> float:
        """Seconds since the meter started."""
        return time.monotonic() - self.started


__all__ = [
    "LOOK_EVERY", "MAX_INPUT_BYTES", "UNLIMITED", "Budget", "BudgetExceeded", "InputTooLarge",
    "Meter", "StopSignal", "Stopped", "read_text",
]
