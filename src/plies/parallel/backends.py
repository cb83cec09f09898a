"""Where independent work runs: this process, a local process pool, or a Ray cluster.

Tournaments and batch analysis are many independent tasks (a game, a position).  A
:class:`Backend` maps a top-level function over them and returns the results in task
order, whatever order they finished in, so a result never depends on the backend or on
the number of workers.  Tasks travel in chunks (about four per worker) to keep the cost
of shipping them small against the work; a chunk takes every m-th task, so that the
long tasks of a schedule (the strong pairings of a tournament) spread over all chunks.

- :class:`LocalBackend` (the default): ``workers`` processes started with the *spawn*
  method (no fork of a process that runs threads, the same on every platform); with
  ``workers=1`` the tasks run in this process, one after another.  Spawned workers
  import the main module, so a script must make its calls under
  ``if __name__ == "__main__":``.
- :class:`RayBackend`: a Ray cluster at ``address``, or a local Ray instance started
  with ``ray.init(num_cpus=workers)``; Ray is imported only when used.

Work functions are top-level functions ``fn(shared, task)``: ``shared`` (the game, the
agents, ...) is sent once per chunk (once in all with Ray, through its object store).
A :class:`~plies.errors.PliesError` raised by a task reaches the caller as a
:class:`WorkerError` with the same message.

**Stopping.**  Ctrl-C belongs to the caller: local workers never see SIGINT (it is
blocked while they are spawned and ignored in them, so a Ctrl-C sent to the terminal's
whole process group does not print a traceback from each of them).  When :meth:`map`
is interrupted (:class:`KeyboardInterrupt`, or any other exception) it does not wait for
the work: the tasks not started are cancelled and the worker processes are terminated at
once, and on Ray every task is cancelled with ``ray.cancel(force=True)``.  Work that
was running is lost; :meth:`map` re-raises the exception.
"""

from __future__ import annotations

import importlib
import logging
import multiprocessing
import os
import signal
import socket
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from plies._pools import terminate_workers
from plies.errors import OptionError, PliesError
from plies.games import GameSpec

T = TypeVar("T")
R = TypeVar("R")
Work = Callable[[Any, Any], Any]
Progress = Callable[[int], None]
"""Called with the number of tasks that just finished."""

CHUNKS_PER_WORKER = 4
RAY_PORT = 6379


class BackendError(PliesError):
    """A backend that cannot run: Ray missing, a cluster out of reach, a bad worker count."""


class WorkerError(PliesError):
    """A user error met inside a task (the original :class:`PliesError`'s message)."""


# --- games by reference ------------------------------------------------------------------------


GameRef = GameSpec
"""A game by spec and options, built once per worker process: the policy layer's
:class:`~plies.games.GameSpec` (built-in names, tree files, ``.kif`` files and
``module:attribute`` specs alike)."""


def resolve(game: Any) -> Any:
    """``game`` itself, or the game a :class:`GameRef` names."""
    return game.load() if isinstance(game, GameSpec) else game


# --- running tasks --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Failure:
    message: str


def run_chunk(fn: Work, shared: Any, chunk: Sequence[Any]) -> list[Any] | _Failure:
    """``[fn(shared, task) for task in chunk]``, or the first user error as a value.

    A PliesError is returned rather than raised: exceptions with their own constructor
    arguments do not survive pickling between processes.
    """
    try:
        return [fn(shared, task) for task in chunk]
    except PliesError as err:
        return _Failure(str(err))


def chunks(n: int, workers: int) -> list[range]:
    """Strided index ranges that partition ``range(n)``, about four per worker.

    >>> chunks(10, 1)
    [range(0, 10, 4), range(1, 10, 4), range(2, 10, 4), range(3, 10, 4)]
    """
    count = min(n, max(1, workers) * CHUNKS_PER_WORKER)
    return [range(j, n, count) for j in range(count)]


def _take(tasks: Sequence[Any], span: range) -> list[Any]:
    return [tasks[i] for i in span]


def _collect(
    parts: Iterator[tuple[range, list[Any] | _Failure]], n: int, progress: Progress | None
) -> list[Any]:
    results: list[Any] = [None] * n
    for span, part in parts:
        if isinstance(part, _Failure):
            raise WorkerError(part.message)
        results[span.start : span.stop : span.step] = part
        if progress is not None:
            progress(len(span))
    return results


class Backend(Protocol):
    """Something that maps a work function over tasks (see the module docstring).

    ``with backend:`` holds its resources (a Ray connection, a local pool) over several maps.
    """

    @property
    def description(self) -> str: ...

    def __enter__(self) -> Backend: ...

    def __exit__(self, *exc: object) -> None: ...

    def map(
        self, fn: Work, shared: Any, tasks: Sequence[Any], progress: Progress | None = None
    ) -> list[Any]:
        """``[fn(shared, t) for t in tasks]``, in task order; ``progress`` as tasks finish."""
        ...


WORKERS_PER_CPU = 8
"""At most this many workers per CPU (``os.cpu_count()``): more only share the same CPUs,
and each costs a process of its own (about 40 MB), so ``--workers 100000`` would exhaust
memory or the process table before any result."""


def max_workers() -> int:
    """The most workers a local pool or a local Ray instance may have."""
    return WORKERS_PER_CPU * (os.cpu_count() or 1)


def _check_workers(workers: int | None) -> int:
    if workers is None:
        return os.cpu_count() or 1
    if workers < 1:
        raise BackendError(f"--workers must be at least 1, got {workers}")
    if workers > max_workers():
        shown = f"{workers:,}" if workers < 10**9 else f"of {len(str(workers))} digits"
        raise BackendError(
            f"--workers {shown} is more than {max_workers()} ({WORKERS_PER_CPU} per CPU "
            f"of this machine's {os.cpu_count() or 1})"
        )
    return workers


class LocalBackend:
    """A pool of ``workers`` spawned processes (default ``os.cpu_count()``); 1: in-process.

    A :meth:`map` outside a ``with`` starts its own pool and shuts it down.  Inside
    ``with backend:`` the first map's pool is kept for the next ones (the workers start
    and import plies once, not once per map) and shut down when the block ends; a map
    that is interrupted or fails terminates it, and the next map starts a new one.
    """

    def __init__(self, workers: int | None = None) -> None:
        self.workers = _check_workers(workers)
        self._held = False
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> LocalBackend:
        self._held = True
        return self

    def __exit__(self, *exc: object) -> None:
        self._held = False
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown()

    @property
    def description(self) -> str:
        if self.workers == 1:
            return "1 worker (this process)"
        return f"{self.workers} workers (local processes)"

    def map(
        self, fn: Work, shared: Any, tasks: Sequence[Any], progress: Progress | None = None
    ) -> list[Any]:
        spans = chunks(len(tasks), self.workers)
        if self.workers == 1 or len(tasks) <= 1:
            serial = ((s, run_chunk(fn, shared, _take(tasks, s))) for s in spans)
            return _collect(serial, len(tasks), progress)
        pool = self._pool
        if pool is None:
            size = self.workers if self._held else min(self.workers, len(spans))
            context = multiprocessing.get_context("spawn")
            pool = ProcessPoolExecutor(size, mp_context=context, initializer=ignore_sigint)
            if self._held:
                self._pool = pool
        try:
            with sigint_blocked():  # the workers are spawned in submit and inherit the mask
                futures: dict[Future[Any], range] = {
                    pool.submit(run_chunk, fn, shared, _take(tasks, s)): s for s in spans
                }
            results = _collect(_as_completed(futures), len(tasks), progress)
        except BrokenProcessPool:
            self._pool = None
            terminate_workers(pool)
            raise BackendError(
                "a worker process died; a script that uses several workers must start them "
                "under 'if __name__ == \"__main__\":' (workers are spawned, and import it)"
            ) from None
        except BaseException:  # Ctrl-C or a user error: nobody waits for the other tasks
            self._pool = None
            terminate_workers(pool)
            raise
        if not self._held:
            pool.shutdown()
        return results


def ignore_sigint() -> None:
    """A worker's initializer: Ctrl-C is for the parent, which stops the workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def sigint_blocked() -> Iterator[None]:
    """Block SIGINT in this thread for the block: processes started in it inherit the
    mask, so a Ctrl-C that reaches them while they start up (before
    :func:`ignore_sigint` runs) is not a traceback.  A Ctrl-C in the block is delivered
    when it ends, not lost.  Does nothing where signal masks do not exist (Windows)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _as_completed(futures: dict[Future[Any], range]) -> Iterator[tuple[range, Any]]:
    pending = set(futures)
    while pending:
        done, pending = wait(pending, return_when=FIRST_COMPLETED)
        for future in done:
            yield futures[future], future.result()


# --- Ray ----------------------------------------------------------------------------------------


def import_ray() -> Any:
    """The ``ray`` module, or a one-line :class:`BackendError` saying how to install it."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise BackendError(
            "Ray is not installed; install plies[ray] (pip install 'plies[ray]') "
            "or run without --ray"
        ) from None


def ray_endpoint(address: str) -> tuple[str, int] | None:
    """The ``(host, port)`` a Ray address points at; None for ``auto`` and ``local``.

    >>> ray_endpoint("ray://10.0.0.5:10001"), ray_endpoint("head-node"), ray_endpoint("auto")
    (('10.0.0.5', 10001), ('head-node', 6379), None)
    """
    text = address.strip()
    if text.lower() in ("auto", "local"):
        return None
    text = text.removeprefix("ray://")
    host, sep, port = text.rpartition(":")
    if not sep:
        return text, RAY_PORT
    if not port.isdigit():
        raise BackendError(f"bad Ray address {address!r}; use HOST:PORT or ray://HOST:PORT")
    return host.strip("[]"), int(port)


class RayBackend:
    """Tasks as Ray tasks: on the cluster at ``address``, or on a local Ray instance.

    No ``address``: start a local instance with ``num_cpus=workers`` (default
    ``os.cpu_count()``).  If Ray is already initialised in this process, that
    connection is used and left open.  ``with backend:`` connects once for several
    :meth:`map` calls and shuts down on leaving what it started; a :meth:`map` outside
    a ``with`` connects and shuts down by itself.  The machines of a cluster need plies
    installed.
    """

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        self.address = address or None
        self.workers = _check_workers(workers)
        self._started = False
        self._entered = False
        import_ray()  # fail early, before any work is prepared
        if self.address is not None:
            ray_endpoint(self.address)  # a malformed address fails early too

    def __enter__(self) -> RayBackend:
        self._started = self._connect(import_ray())
        self._entered = True
        return self

    def __exit__(self, *exc: object) -> None:
        self._entered = False
        if self._started:
            self._started = False
            shutdown_local_ray(import_ray())

    @property
    def description(self) -> str:
        if self.address is None:
            return f"Ray (local instance, {self.workers} CPUs)"
        return f"Ray at {self.address}"

    def _connect(self, ray: Any) -> bool:
        """Initialise Ray unless it already is; True when this call started it."""
        if ray.is_initialized():
            return False
        options: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
        if self.address is None:
            try:
                ray.init(num_cpus=self.workers, include_dashboard=False, **options)
            except BaseException:  # Ctrl-C while Ray starts: stop what has started
                shutdown_local_ray(ray)
                raise
            return True
        endpoint = ray_endpoint(self.address)
        if endpoint is not None:
            # ray.init retries an unreachable address for minutes: ask the socket first.
            try:
                socket.create_connection(endpoint, timeout=5).close()
            except OSError as err:
                reason = err.strerror or str(err) or type(err).__name__
                raise BackendError(
                    f"cannot reach a Ray cluster at {self.address}: {reason}"
                ) from None
        try:
            ray.init(address=self.address, **options)
        except Exception as err:  # Ray raises ConnectionError, RuntimeError, ValueError, ...
            first = (str(err).strip().splitlines() or [type(err).__name__])[0]
            raise BackendError(f"cannot connect to Ray at {self.address}: {first}") from None
        return True

    def map(
        self, fn: Work, shared: Any, tasks: Sequence[Any], progress: Progress | None = None
    ) -> list[Any]:
        ray = import_ray()
        started = False if self._entered else self._connect(ray)
        try:
            cpus = int(ray.cluster_resources().get("CPU", 1)) or 1
            remote = ray.remote(run_chunk)
            shared_ref = ray.put(shared)
            refs = {
                remote.remote(fn, shared_ref, _take(tasks, s)): s
                for s in chunks(len(tasks), cpus)
            }

            pending = list(refs)

            def finished() -> Iterator[tuple[range, Any]]:
                nonlocal pending
                while pending:
                    ready, pending = ray.wait(pending, num_returns=1)
                    for ref in ready:
                        yield refs[ref], ray.get(ref)

            try:
                return _collect(finished(), len(tasks), progress)
            except BaseException:  # Ctrl-C or a user error: the other tasks are not wanted
                _cancel(ray, pending)
                raise
        finally:
            if started:
                shutdown_local_ray(ray)


RAY_EXIT = 5.0
"""Seconds the local Ray instance's helper processes get to end after ``ray.shutdown()``
before they are killed."""


def shutdown_local_ray(ray: Any) -> None:
    """``ray.shutdown()`` of a local instance this process started, and nothing left behind.

    ``ray.shutdown()`` stops the instance's head processes, but the agents its raylet
    started (``ray::DashboardAgent``, ``ray::RuntimeEnvAgent``) notice only later, by
    polling, that their raylet is gone: seen here up to 35 s later, after the command had
    exited.  Those of this process's descendants that are Ray's processes (by their
    command line: ``ray::...`` or a program in Ray's package) are asked to end
    (SIGTERM) and killed after :data:`RAY_EXIT` seconds.  No other process is touched.
    Workers the raylet started while the instance was stopping (it replaces the workers
    of cancelled tasks) are found after the shutdown by ``RAY_RAYLET_PID`` in their
    environment.  Where there is no
    ``/proc`` (not Linux) this is ``ray.shutdown()`` alone.
    """
    own = [pid for pid in _descendants(os.getpid()) if _is_ray_process(pid)]
    raylets = [pid for pid in own if _is_raylet(pid)]
    ray.shutdown()
    # Workers the raylet started after the list was made (to replace the workers of
    # cancelled tasks) were orphaned by the shutdown: they are found by the raylet they
    # name in their environment.
    own += [pid for pid in _workers_of(raylets) if pid not in own]
    left = [pid for pid in own if _alive(pid)]
    for pid in left:
        with suppress(OSError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + RAY_EXIT
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = [pid for pid in left if _alive(pid)]
    for pid in left:
        with suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def _proc_stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (state first), or None."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as file:
            return file.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _alive(pid: int) -> bool:
    fields = _proc_stat(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def _descendants(root: int) -> list[int]:
    """Every process below ``root`` (empty where ``/proc`` cannot be read)."""
    try:
        pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return []
    children: dict[int, list[int]] = {}
    for pid in pids:
        fields = _proc_stat(pid)
        if fields is not None:
            children.setdefault(int(fields[1]), []).append(pid)
    found: list[int] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _is_raylet(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            program = file.read().split(b"\0", 1)[0]
    except OSError:
        return False
    return program.endswith(f"{os.sep}raylet".encode())


def _workers_of(raylets: Sequence[int]) -> list[int]:
    """The processes, anywhere, whose environment names one of ``raylets`` as their
    raylet (``RAY_RAYLET_PID``): the workers those raylets started."""
    if not raylets:
        return []
    marks = {f"RAY_RAYLET_PID={pid}".encode() for pid in raylets}
    try:
        pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return []
    found = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/environ", "rb") as file:
                names = file.read().split(b"\0")
        except OSError:  # gone, or another user's
            continue
        if marks.intersection(names):
            found.append(pid)
    return found


def _is_ray_process(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            line = file.read()
    except OSError:
        return False
    return line.startswith(b"ray::") or f"{os.sep}ray{os.sep}".encode() in line


def _cancel(ray: Any, refs: Sequence[Any]) -> None:
    """Cancel Ray tasks, running ones included (``force=True`` kills their workers)."""
    for ref in refs:
        with suppress(Exception):  # a task that finished meanwhile cannot be cancelled
            ray.cancel(ref, force=True)


def backend(workers: int | None = None, ray: str | None = None) -> Backend:
    """The backend for ``--workers N`` and ``--ray [ADDRESS]`` (``ray=""``: local Ray)."""
    if ray is None:
        return LocalBackend(workers)
    if workers is not None and ray:
        raise OptionError("--workers applies to a local pool or a local Ray instance, not to "
                          "a Ray cluster at an address (its size is the cluster's)")
    return RayBackend(ray or None, workers)
