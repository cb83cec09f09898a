"""The one way the benchmarks time a call: wall clock, with the garbage collector off."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def timed(run: Callable[[], T]) -> tuple[float, T]:
    """``(seconds, result)`` of ``run()``, collected before and not during the call."""
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        out = run()
        return time.perf_counter() - start, out
    finally:
        gc.enable()
