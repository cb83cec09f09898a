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

import os
import stat
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Final, Protocol

from plies.errors import PliesError, quoted

MAX_INPUT_BYTES: Final = 16 * 2**20
"""The most bytes plies reads from one input file (a tree, a GDL description, a
positions file): 16 MiB, over 400 times the largest GDL game of the shared collection
(``chess.kif``, 38 KB).  A
larger file, or standard input without an end (``< /dev/zero``), is refused with
:class:`InputTooLarge` after reading at most this much."""

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


class NotAFile(PliesError, OSError):
    """An input path that names no regular file: a directory, a FIFO, a device, a socket.

    plies reads regular files only (and standard input where a command reads one input,
    as ``-``): a FIFO can block forever and a device such as ``/dev/zero`` never ends.
    ``strerror`` says what the path is, so a caller's ``cannot read ...: {strerror}``
    reads as one line.
    """

    def __init__(self, path: str, kind: str) -> None:
        reason = f"{kind}, not a regular file; plies reads regular files only"
        super().__init__(f"{quoted(path, 80)} is {reason}")
        self.strerror = f"it is {reason}"
        self.filename = path

    def __str__(self) -> str:  # OSError's would show "[Errno None] ..." once strerror is set
        return str(self.args[0])


def _kind(mode: int) -> str | None:
    """What a non-regular file is, for a message; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    for test, kind in (
        (stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return kind
    return "not a file"


def read_bytes(path: str | Path, *, limit: int = MAX_INPUT_BYTES, stdin: bool = False) -> bytes:
    """The bytes of the regular file at ``path``, read only if it holds at most ``limit``.

    This is the one way plies reads an input file.  A directory, a FIFO, a device or a
    socket is refused before anything is read (a FIFO without a writer would block
    forever, ``/dev/zero`` never ends), and at most ``limit + 1`` bytes are read of a
    file that grows while it is read.  With ``stdin``, the path ``-`` is standard input,
    read under the same cap (whatever it is: a pipe, a terminal, ``/dev/zero``).

    Raises:
        InputTooLarge: the input holds more than ``limit`` bytes; the message names the cap.
        NotAFile: ``path`` is not a regular file (an ``OSError`` and a ``PliesError``).
        OSError: the file cannot be opened or read (as :func:`open`).
    """
    name = str(path)
    if stdin and name == "-":
        return _capped(sys.stdin.buffer, limit, "standard input")
    # stat first: opening a FIFO blocks until someone writes to it.
    kind = _kind(os.stat(path).st_mode)
    if kind is not None:
        raise NotAFile(name, kind)
    # O_NONBLOCK: a FIFO swapped in after the stat does not block the open either.
    nonblock = getattr(os, "O_NONBLOCK", 0)  # POSIX; Windows has no FIFOs to open
    fd = os.open(path, os.O_RDONLY | nonblock | getattr(os, "O_CLOEXEC", 0))
    with open(fd, "rb", closefd=True) as file:
        info = os.fstat(fd)
        kind = _kind(info.st_mode)
        if kind is not None:
            raise NotAFile(name, kind)
        if info.st_size > limit:  # a sparse terabyte is refused without reading it
            raise _too_large(name, limit)
        if nonblock:
            os.set_blocking(fd, True)
        return _capped(file, limit, name)


def _capped(file: BinaryIO, limit: int, name: str) -> bytes:
    data = file.read(limit + 1)
    if len(data) > limit:
        raise _too_large(name, limit)
    return data


def _too_large(name: str, limit: int) -> InputTooLarge:
    return InputTooLarge(
        f"{quoted(name, 80) if len(name) > 80 else name} is larger than the cap of "
        f"{_size_text(limit)} that plies reads of an input file"
    )


def read_text(
    path: str | Path,
    *,
    limit: int = MAX_INPUT_BYTES,
    encoding: str = "utf-8",
    stdin: bool = False,
) -> str:
    """The text of the regular file at ``path`` (:func:`read_bytes`), decoded.

    Raises:
        InputTooLarge: the file holds more than ``limit`` bytes; the message names the cap.
        NotAFile: ``path`` is a directory, a FIFO, a device or a socket.
        OSError: the file cannot be opened or read (as :meth:`pathlib.Path.read_text`).
        UnicodeDecodeError: the bytes are not text in ``encoding``.
    """
    return read_bytes(path, limit=limit, stdin=stdin).decode(encoding)


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
                f"{self.what} ran out of its budget of {budget.seconds:.3g} s "
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
    "Meter", "NotAFile", "StopSignal", "Stopped", "read_bytes", "read_text",
]
