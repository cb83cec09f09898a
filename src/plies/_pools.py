"""Stopping a :class:`~concurrent.futures.ProcessPoolExecutor` now, for every package that
runs one (the parallel search, the execution backends).

``shutdown(wait=False)`` alone lets running (and already queued) tasks run on for
minutes, and the interpreter waits for them at exit.  :func:`terminate_workers` cancels
what has not started, terminates the processes and waits for the pool's manager thread
to end.  That last wait matters at exit: before Python 3.12.1 the interpreter's exit hook
for process pools (``concurrent.futures.process._python_exit``) wakes every manager
thread still registered without a lock, and a thread that closes its wake-up pipe at
that moment makes the hook print an ``OSError: [Errno 9] Bad file descriptor``
traceback, after a Ctrl-C that was otherwise handled quietly.
"""

from __future__ import annotations

from concurrent.futures import Executor
from typing import Any

JOIN_TIMEOUT = 5.0
"""Seconds to wait for each terminated process, and for the pool's manager thread."""


def terminate_workers(executor: Executor) -> None:
    """Stop a process pool now: cancel the tasks not started, terminate its processes,
    wait for them and for the pool's manager thread.  Any other executor is only shut
    down without waiting."""
    # Before 3.14 the processes and the manager thread are only reachable through these
    # attributes, which shutdown() clears: take them first.
    manager: Any = getattr(executor, "_executor_manager_thread", None)
    terminate = getattr(executor, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        terminate()  # before shutdown(), which forgets the processes
        executor.shutdown(wait=False, cancel_futures=True)
    else:
        processes = list((getattr(executor, "_processes", None) or {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(timeout=JOIN_TIMEOUT)
    if manager is not None:
        manager.join(timeout=JOIN_TIMEOUT)
