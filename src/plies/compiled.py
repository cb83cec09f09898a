"""What the compiled (Numba) paths share: whether Numba is there, the backend choice, and
running a compiled kernel so that its caller can still stop it.

A compiled path is one more implementation behind a game's hook, next to the plain
Python one it is tested against: ``auto`` picks Numba when it imports, ``python``
otherwise; an explicit ``numba`` without Numba is an :class:`~plies.errors.OptionError`
naming the extra to install.  Nothing here imports Numba before it is asked for.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Final

from plies.budget import StopSignal
from plies.errors import OptionError

BACKENDS: Final = ("auto", "numba", "python")
"""``auto``: Numba when it can be imported, else Python."""

INSTALL: Final = "pip install 'plies[fast]'"


def numba_available() -> bool:
    """True when Numba can be imported (the ``fast`` extra)."""
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def choose_backend(backend: str, what: str, backends: Sequence[str] = BACKENDS) -> str:
    """``numba`` or ``python``: ``backend`` as asked, ``auto`` resolved.

    Raises:
        OptionError: a backend not in ``backends``, or ``numba`` without Numba.
    """
    if backend not in backends:
        raise OptionError(f"unknown {what} backend {backend!r}; use one of: "
                          f"{', '.join(backends)}")
    if backend == "auto":
        return "numba" if "numba" in backends and numba_available() else "python"
    if backend == "numba" and not numba_available():
        raise OptionError(f"the numba backend needs Numba: {INSTALL}")
    return backend


WAIT: Final = 0.02
"""Seconds between two looks at the stop signal while a compiled kernel runs."""

LAUNCH: Final = 1.0
"""Seconds a Ctrl-C that came while the kernel's thread was being started waits for it
to begin (so as to stop it); a thread that has not begun by then never will."""


def run_stoppable(
    kernel: Callable[..., int], args: tuple[Any, ...], halt: Any, stop: StopSignal | None,
    name: str = "plies-kernel",
) -> int:
    """``kernel(*args, halt)`` (compiled, without the GIL) in a thread of its own, while
    this thread looks at ``stop`` every :data:`WAIT` seconds and stays free for Ctrl-C:
    either sets ``halt[0]``, which the kernel reads every so many nodes.  On Ctrl-C the
    kernel is stopped and waited for (a fraction of a millisecond), then the
    KeyboardInterrupt goes on: no kernel is left running on the caller's table."""
    halt[0] = 0
    out: list[int] = []
    failed: list[BaseException] = []
    launched, done = threading.Event(), threading.Event()

    def work() -> None:
        launched.set()
        try:
            out.append(kernel(*args, halt))
        except BaseException as exc:  # handed to the caller's thread below
            failed.append(exc)
        finally:
            done.set()

    thread = threading.Thread(target=work, name=name, daemon=True)
    try:
        thread.start()  # Ctrl-C may land in here, once the thread is on its way
        while not done.wait(WAIT):
            if stop is not None and stop.is_set():
                halt[0] = 1
    except BaseException:  # KeyboardInterrupt: stop the kernel before passing it on
        halt[0] = 1
        if launched.wait(LAUNCH):  # else it never started: nothing to wait for
            done.wait()
        raise
    if failed:
        raise failed[0]
    return out[0]


__all__ = ["BACKENDS", "INSTALL", "choose_backend", "numba_available", "run_stoppable"]
