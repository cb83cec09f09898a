"""Stopping a process pool now (:func:`plies._pools.terminate_workers`).

A pool stopped in the middle of its tasks must leave nothing running: no worker, and no
manager thread that the interpreter's exit hook for process pools would wake as it closes
its pipe (before Python 3.12.1 that race printed an ``OSError: [Errno 9] Bad file
descriptor`` traceback after a quiet ``plies: interrupted``; ``tests/parallel/
test_ctrl_c.py`` saw it once in a few hundred runs).
"""

from __future__ import annotations

import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

from plies._pools import terminate_workers


def test_terminate_workers_ends_the_processes_and_the_manager_thread() -> None:
    pool = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn"))
    futures = [pool.submit(time.sleep, 60) for _ in range(4)]
    processes = list(pool._processes.values())
    manager = pool._executor_manager_thread
    assert processes and manager is not None
    terminate_workers(pool)
    assert not any(p.is_alive() for p in processes)
    assert not manager.is_alive()
    assert all(f.done() for f in futures)  # cancelled or failed, none left waiting


def test_terminate_workers_shuts_down_any_other_executor() -> None:
    pool = ThreadPoolExecutor(1)
    future = pool.submit(time.sleep, 0)
    terminate_workers(pool)
    future.result(timeout=30)
    try:
        pool.submit(time.sleep, 0)
    except RuntimeError as err:
        assert "shutdown" in str(err)
    else:
        raise AssertionError("the executor still takes tasks")
