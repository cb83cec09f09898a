"""A bounded pool of worker processes for the web app's expensive requests.

Searches and GDL loading run here, never in the server's own process, so that

- cheap requests (the page, the catalogue, the state of a built-in game) never wait
  behind them: the event loop's threads serve those;
- a runaway request can be stopped for real: each request has a budget in seconds; the
  worker stops its work cooperatively at the end of it (:func:`plies.web.api.budgeted`),
  and a worker that has not answered ``grace`` seconds later is killed and replaced;
- memory stays bounded: a worker whose resident memory passes ``memory`` bytes while it
  works answers 422 and exits; an allocation past twice ``memory`` of address space
  (:func:`address_space`) fails at once, also a 422, even in C code that the watch cannot
  interrupt; one that holds more than half of it after a request (its cache of ground GDL
  games) is replaced by a fresh process;
- at most ``size`` requests run and at most ``queue`` wait; the next one gets
  :class:`PoolFull` (the app answers 503 with ``Retry-After``);
- a worker that ends under a request (killed from outside, a crash) answers it 503 with
  ``Retry-After`` (:data:`RETRY_AFTER`), and a fresh process takes its place.

Workers start with the ``forkserver`` method (``spawn`` where there is none): never a
plain ``fork`` of a server that runs threads.  They ignore Ctrl-C (the server stops
them), and each watches a pipe from the server so that it exits at once when the
server's process ends, however it ends (no orphans).
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import threading
import time
import traceback
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any, Final

import anyio
import anyio.to_thread

from plies import plugins
from plies.errors import PliesError

log = logging.getLogger("plies.web")

POLL: Final = 0.2
"""Seconds between two looks at a waiting client (gone?) and at a worker's memory."""
MB: Final = 1024 * 1024


class PoolFull(PliesError):
    """Every worker is busy and the queue is full: try again in ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


RETRY_AFTER: Final = 2
"""Seconds after which a client may retry a request whose worker ended under it (a
fresh worker takes its place within about a second)."""


@dataclass(frozen=True, slots=True)
class Reply:
    """A worker's answer: an HTTP status and the JSON body; ``retry_after`` (seconds) for
    a 503 the client may retry."""

    status: int
    body: bytes
    retry_after: int | None = None


def internal_error_id() -> str:
    """A fresh id (8 hex digits) that ties a 500 answer to its entry in the server log."""
    return os.urandom(4).hex()


def internal_error(error_id: str) -> bytes:
    """The JSON body of a 500: the id only, never the exception's text."""
    return (b'{"error":"internal error (id %s); see the server log"}'
            % error_id.encode())


def error_body(message: str) -> bytes:
    """``{"error": message}``, the message on one bounded line (:func:`~.api.error_json`)."""
    from plies.web.api import error_json

    return error_json(message)


# --- the worker process ----------------------------------------------------------------------


def rss() -> int:
    """This process's resident memory in bytes (Linux ``/proc``; else the peak so far)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


class _Current:
    """The worker's request in progress, shared by its main thread and its watcher."""

    def __init__(self) -> None:
        self.seq = -1  # the request being served (-1: none)
        self.stopped = -2  # the last request the server asked to stop
        self.send = threading.Lock()

    def is_set(self) -> bool:  # the request's stop signal
        return self.stopped == self.seq


def _serve(conn: Connection, lifeline: Connection, specs: Sequence[str], memory: int,
           no_plugins: str | None) -> None:
    """The worker's main loop: requests in, replies out, until the server goes away.

    ``no_plugins`` is the server's :data:`plies.plugins.DISABLE` setting, so that the
    worker reads the plug-ins the server reads: a forkserver keeps the environment it
    started with, which a server started later in the same process may have changed.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole process group
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if memory:
        _cap_address_space(memory)
    logging.basicConfig(format="plies web worker %(process)d: %(message)s")
    if os.environ.get(plugins.DISABLE) != no_plugins:
        if no_plugins is None:
            del os.environ[plugins.DISABLE]
        else:
            os.environ[plugins.DISABLE] = no_plugins
        plugins.refresh()
    current = _Current()
    threading.Thread(target=_watch, args=(conn, lifeline, current, memory), daemon=True).start()
    from plies.web import api, quiz, trees  # noqa: F401  (they register /api/quiz, /api/ordering)

    api.serve_games(specs)
    while True:
        try:
            seq, endpoint, body, seconds = conn.recv()
        except (EOFError, OSError):  # the server is gone
            os._exit(0)
        current.seq = seq
        reply = _answer(api, endpoint, body, seconds, current)
        with current.send:
            current.seq = -1
            # After a MemoryError, a fresh process: report the cap, and the pool replaces it.
            size = memory if reply.body == _NO_MEMORY and memory else rss()
            conn.send((seq, reply.status, reply.body, size))


def _cap_address_space(memory: int) -> None:
    """A hard ceiling under the watch on resident memory (:func:`_watch`): C code that
    holds the GIL (a list of a billion items, a string of 2 GB) can allocate far past
    ``memory`` between two looks of the watcher, which needs the GIL to look.  Past
    :func:`address_space` bytes of address space an allocation fails instead, with a
    MemoryError that :func:`_answer` turns into a 422."""
    import resource

    limit = address_space(memory)
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def address_space(memory: int) -> int:
    """The address space a worker with a cap of ``memory`` resident bytes may map: room
    for what an interpreter maps without using it (libraries, thread stacks, arenas)."""
    return max(2 * memory, memory + 1024 * MB)


_NO_MEMORY: Final = b'{"error":"the request needs more memory than the server gives one"}'


def _answer(api: Any, endpoint: str, body: Mapping[str, Any], seconds: float,
            current: _Current) -> Reply:
    from plies.budget import Budget

    try:
        with api.budgeted(Budget(seconds=seconds, stop=current)):
            data = api.ENDPOINTS[endpoint](body)
        return Reply(200, api.encode(data))
    except api.ApiError as err:
        return Reply(err.status, error_body(str(err)))
    except PliesError as err:  # an unknown game, a bad option, a budget that ran out, ...
        return Reply(422, error_body(str(err)))
    except RecursionError:
        return Reply(422, error_body("the game is too deep to search here"))
    except MemoryError:
        return Reply(422, _NO_MEMORY)
    except Exception:
        error_id = internal_error_id()
        log.error("internal error (id %s) on /api/%s\n%s", error_id, endpoint,
                  traceback.format_exc())
        return Reply(500, internal_error(error_id))


def _watch(conn: Connection, lifeline: Connection, current: _Current, memory: int) -> None:
    """Stop requests the server asks to stop; exit when the server is gone or when a
    request takes more than ``memory`` bytes (after answering it with 422)."""
    while True:
        try:
            if lifeline.poll(POLL):
                current.stopped = lifeline.recv()
        except (EOFError, OSError):
            os._exit(0)  # the server's process has ended: never outlive it
        if memory and current.seq >= 0 and rss() > memory:
            with current.send:
                if current.seq >= 0:
                    message = (f"the request took more than {memory // MB} MB of memory, "
                               "the most the server gives one; it was stopped")
                    conn.send((current.seq, 422, error_body(message), rss()))
                    os._exit(3)


# --- the server's side -----------------------------------------------------------------------


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    conn: Connection
    lifeline: Connection
    served: int = 0
    broken: bool = False  # killed, dead or too big: replace it
    killed: bool = False


@dataclass
class PoolStats:
    """What the pool did: requests served, workers killed (over their budget), workers
    that died under a request, workers replaced for their memory, and full answers."""

    served: int = 0
    killed: int = 0
    died: int = 0
    recycled: int = 0
    full: int = 0


class WorkerPool:
    """``size`` worker processes that serve :data:`plies.web.api.ENDPOINTS` requests.

    ``queue``: requests that may wait for a worker (default ``2 * size``); ``grace``:
    seconds a worker gets past a request's budget before it is killed; ``memory``: bytes
    of resident memory a worker may use (0: no cap); ``specs``: the server's own games
    (``plies web --game``), loaded in every worker.  :meth:`start` before use,
    :meth:`close` after (it kills the workers); both block, call them outside the event
    loop (or in a thread).  :meth:`run` is async and safe for many tasks of one loop.
    """

    def __init__(self, size: int = 2, *, queue: int | None = None, grace: float = 2.0,
                 memory: int = 1024 * MB, specs: Sequence[str] = ()) -> None:
        if size < 1:
            raise ValueError(f"a pool needs at least 1 worker, got {size}")
        self.size = size
        self.queue = 2 * size if queue is None else queue
        self.grace = grace
        self.memory = memory
        self.specs = tuple(specs)
        self.stats = PoolStats()
        self._context: BaseContext = _context()
        self._idle: list[_Worker] = []
        self._all: set[_Worker] = set()
        self._waiters: deque[tuple[anyio.Event, list[_Worker]]] = deque()
        self._seq = 0
        self._closed = False
        self._lock = threading.Lock()

    # -- life cycle --

    def start(self) -> None:
        """Start the workers (blocks until every process is running); again after
        :meth:`close` too (an app's lifespan may run more than once)."""
        self._closed = False
        for _ in range(self.size):
            self._idle.append(self._spawn())

    def stop(self) -> None:
        """Start a shutdown (from the event loop's thread; it does not block): requests
        waiting or running answer 503 within :data:`POLL` seconds, new ones at once."""
        self._closed = True

    def close(self) -> None:
        """Kill every worker and wait for it; the pool serves no more requests.  (A
        request still in progress sees its worker end and answers 503.)"""
        self._closed = True
        with self._lock:
            workers = list(self._all)
            self._all.clear()
        idle = set(self._idle)
        self._idle.clear()
        for worker in workers:  # the pipes of a busy one are its request's to close
            _kill(worker, pipes=worker in idle)

    @property
    def waiting(self) -> int:
        """Requests waiting for a worker now."""
        return len(self._waiters)

    @property
    def busy(self) -> int:
        """Workers serving a request now."""
        with self._lock:
            return len(self._all) - len(self._idle)

    def pids(self) -> list[int]:
        """The process ids of the live workers."""
        with self._lock:
            return [w.process.pid for w in self._all if w.process.pid is not None]

    def _spawn(self) -> _Worker:
        ours, theirs = self._context.Pipe()
        life_r, life_w = self._context.Pipe(duplex=False)
        process = self._context.Process(  # type: ignore[attr-defined]
            target=_serve,
            args=(theirs, life_r, self.specs, self.memory, os.environ.get(plugins.DISABLE)),
            name="plies-web-worker", daemon=True,
        )
        process.start()
        theirs.close()
        life_r.close()
        worker = _Worker(process, ours, life_w)
        with self._lock:
            if self._closed:
                _kill(worker)
                raise PoolFull("the server is stopping", 5)
            self._all.add(worker)
        return worker

    # -- serving --

    async def run(self, endpoint: str, body: Mapping[str, Any], *, seconds: float,
                  gone: Callable[[], Awaitable[bool]] | None = None) -> Reply | None:
        """Serve ``body`` at ``endpoint`` in a worker within ``seconds`` (plus the grace).

        Returns the worker's reply, or None when ``gone()`` said the client went away
        (the work is then stopped).  Raises :class:`PoolFull` when the queue is full.
        """
        worker = await self._acquire(gone)
        if worker is None:
            return None
        try:
            return await self._exchange(worker, endpoint, body, seconds, gone)
        finally:
            await self._release(worker)

    async def _acquire(self, gone: Callable[[], Awaitable[bool]] | None) -> _Worker | None:
        if self._closed:
            raise PoolFull("the server is stopping", 5)
        if self._idle and not self._waiters:
            return self._idle.pop()
        if len(self._waiters) >= self.queue:
            self.stats.full += 1
            raise PoolFull(
                f"the server is busy: {self.size} searches are running and "
                f"{len(self._waiters)} are waiting; try again in a few seconds",
                retry_after=5,
            )
        ready = anyio.Event()
        slot: list[_Worker] = []
        entry = (ready, slot)
        self._waiters.append(entry)
        got = False
        try:
            while not ready.is_set():
                with anyio.move_on_after(POLL):
                    await ready.wait()
                if ready.is_set():
                    break
                if self._closed:
                    raise PoolFull("the server is stopping", 5)
                if gone is not None and await gone():
                    return None
            got = True
        finally:
            if entry in self._waiters:
                self._waiters.remove(entry)
            if slot and not got:  # handed a worker, then cancelled: pass it on
                self._hand_over(slot[0])
        worker = slot[0]
        if gone is not None and await gone():
            await self._release(worker)
            return None
        return worker

    def _hand_over(self, worker: _Worker) -> None:
        """Give ``worker`` to the first waiting request, else make it idle."""
        if self._waiters:
            ready, slot = self._waiters.popleft()
            slot.append(worker)
            ready.set()
        else:
            self._idle.append(worker)

    async def _release(self, worker: _Worker) -> None:
        if worker.broken:
            with self._lock:
                self._all.discard(worker)
            with anyio.CancelScope(shield=True):  # it waits for the process: not here
                await anyio.to_thread.run_sync(_kill, worker)
            if self._closed:
                return
            try:
                worker = await anyio.to_thread.run_sync(self._spawn)
            except PoolFull:
                return
        if self._closed:
            _kill(worker)
            return
        self._hand_over(worker)

    async def _exchange(self, worker: _Worker, endpoint: str, body: Mapping[str, Any],
                        seconds: float, gone: Callable[[], Awaitable[bool]] | None
                        ) -> Reply | None:
        self._seq += 1
        seq = self._seq
        try:
            worker.conn.send((seq, endpoint, dict(body), seconds))
        except OSError:
            worker.broken = True
            return self._died(worker, endpoint)
        limit = time.monotonic() + seconds + self.grace
        left = False
        while not worker.conn.poll():
            now = time.monotonic()
            if self._closed:
                worker.broken = True
                return _stopping()
            if now > limit:
                worker.broken = True
                self.stats.killed += 1
                log.warning("killed worker %s: /api/%s ran %.1f s past its budget of %g s",
                            worker.process.pid, endpoint, self.grace, seconds)
                if left:
                    return None
                return Reply(422, error_body(
                    f"the request ran over its budget of {seconds:g} s and was stopped"))
            if not left and gone is not None and await gone():
                left = True  # stop the work; the worker gets the grace to finish
                with contextlib.suppress(OSError):
                    worker.lifeline.send(seq)
                limit = min(limit, now + self.grace)
            with anyio.move_on_after(min(POLL, max(limit - now, 0.01))):
                await anyio.wait_readable(worker.conn.fileno())
        try:
            got, status, payload, size = worker.conn.recv()
        except (EOFError, OSError):
            worker.broken = True
            return None if left else self._died(worker, endpoint)
        assert got == seq, (got, seq)
        worker.served += 1
        self.stats.served += 1
        if self.memory and size > self.memory // 2:
            worker.broken = True  # its caches hold too much: a fresh process instead
            self.stats.recycled += 1
        return None if left else Reply(status, payload)

    def _died(self, worker: _Worker, endpoint: str) -> Reply:
        """The answer to a request whose worker ended under it (killed from outside, by
        the system's out-of-memory killer, a crash): 503, to retry once a fresh worker
        (:meth:`_release` starts it) is there.  Never waits here: the event loop serves
        everyone."""
        if self._closed or worker.killed:
            return _stopping()
        self.stats.died += 1
        log.warning("worker %s ended during /api/%s (exit code %s); a fresh one replaces it",
                    worker.process.pid, endpoint, worker.process.exitcode)
        return Reply(503, error_body(
            "the worker serving this request ended before it answered; a fresh one is "
            f"starting: try again in {RETRY_AFTER} s"), RETRY_AFTER)


def _stopping() -> Reply:
    return Reply(503, error_body("the server is stopping"), 5)


def _kill(worker: _Worker, *, pipes: bool = True) -> None:
    """Kill ``worker``'s process and wait for it (once), and close its pipes."""
    if not worker.killed:
        worker.killed = True
        process = worker.process
        if process.is_alive():
            process.kill()
        process.join(5)
        if process.exitcode is not None:
            process.close()
    if pipes:
        for end in (worker.conn, worker.lifeline):
            end.close()


def _context() -> BaseContext:
    """``forkserver`` (workers fork from a clean, preloaded server), else ``spawn``."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["plies.web.api"])
        return context
    return multiprocessing.get_context("spawn")


__all__ = ["RETRY_AFTER", "PoolFull", "PoolStats", "Reply", "WorkerPool",
           "address_space", "internal_error", "internal_error_id", "rss"]
