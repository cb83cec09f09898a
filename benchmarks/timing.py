"""How the benchmarks time a call: wall clock (or CPU time), with the garbage collector off.

:func:`timed` is the one used to compare libraries.  :func:`cpu_timed` counts only the
CPU time of this process, which is what ``search_core.py`` compares two versions of plies
by on a shared machine (a process waiting for a core does not accumulate it).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def timed(run: Callable[[], T], clock: Callable[[], float] = time.perf_counter) -> tuple[float, T]:
    """``(seconds, result)`` of ``run()`` by ``clock``, collected before and not during it."""
    gc.collect()
    gc.disable()
    try:
        start = clock()
        out = run()
        return clock() - start, out
    finally:
        gc.enable()


def cpu_timed(run: Callable[[], T]) -> tuple[float, T]:
    """``(CPU seconds, result)`` of ``run()`` (:func:`timed` by ``time.process_time``)."""
    return timed(run, time.process_time)
