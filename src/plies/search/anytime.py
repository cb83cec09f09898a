"""Anytime search: every finished iteration of a search, as it finishes.

:func:`iterations` runs a search of the family in a worker thread that deepens
iteratively (depth 1, 2, ...) and hands out each completed iteration through a queue, so
the caller watches the search while it goes on, and decides when it has seen enough::

    for result in iterations(game, state, stop=cancel):
        show(result)                       # depth, value, pv, stats of this iteration
        if result.stats.elapsed > 2.0:
            break                          # closing the generator stops the search

Why a thread and not a generator of passes (as sunfish's search is): the front ends want
the search to go on while they show a result or wait for a clock (a UCI engine prints
``info`` lines and answers ``stop``; a GGP player sleeps until its deadline); and each
entry point (``alphabeta`` with its engine switches and mate scores, ``simultaneous``
with its strategies, ...) keeps its own options and its own shaping of results, which a
generator would have to copy.  The thread calls the entry point itself with
``on_iteration`` and ``stop``; only one thread runs the search at a time, and it is
always joined before the generator ends.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

from plies.errors import OptionError
from plies.search.common import DEEPEN_ALWAYS, Limit, SearchResult, StopSignal


class _Either:
    """Set when the caller's stop signal or the generator's own is set."""

    def __init__(self, own: threading.Event, theirs: StopSignal | None) -> None:
        self.own, self.theirs = own, theirs

    def is_set(self) -> bool:
        return self.own.is_set() or (self.theirs is not None and self.theirs.is_set())


def iterations(
    game: Any,
    state: Any,
    limit: Limit | None = None,
    *,
    algorithm: str = "alphabeta",
    stop: StopSignal | None = None,
    **options: Any,
) -> Iterator[SearchResult]:
    """Yield every completed iteration of a search of ``state``, as it completes.

    ``algorithm`` is a name in :data:`plies.search.ALGORITHMS` ("alphabeta", "minimax",
    "expectiminimax", "maxn", ...) and ``options`` its keywords (``player``, ``tt``,
    ``pruning``, ...).  The search deepens 1, 2, ... up to ``limit.depth`` (without a
    depth limit: until an iteration is exact), under ``limit``'s time and node budgets;
    each yielded result is that iteration's :class:`SearchResult` with a snapshot of the
    statistics so far (``stats.depth`` is the iteration's depth).  The last one is what
    the plain call ``ALGORITHMS[algorithm].search(game, state, limit, **options)`` returns when
    nothing stops it, up to the statistics (the plain call deepens only when asked to).

    The search runs on in a worker thread while the caller looks at a result.  It ends
    when ``stop`` is set (any object with ``is_set()``, see
    :class:`~plies.search.common.StopSignal`), when a budget is spent, or when the
    generator is closed (``break`` out of a ``for`` loop, ``close()``, or the generator
    being dropped): the worker is then stopped within about a millisecond and joined.
    If the search ends before its first iteration completes, the one result yielded is
    the search's fallback (the first legal action, ``stopped=True``, ``stats.depth`` 0).
    An error of the search is raised from the generator.

    Errors in the arguments (an unknown algorithm, ``on_iteration`` given) are raised by
    this call itself, not at the first ``next()``.

    >>> from plies.games import load
    >>> ttt = load("tictactoe")
    >>> [r.stats.depth for r in iterations(ttt, ttt.initial_state(), Limit(depth=3))]
    [1, 2, 3]
    """
    from plies.search.registry import algorithm as entry  # it imports every search: late

    search = entry(algorithm).search
    if "on_iteration" in options:
        raise OptionError("iterations() hands out every iteration itself; drop on_iteration")
    return _iterate(search, game, state, limit, stop, options)


def _iterate(
    search: Callable[..., SearchResult],
    game: Any,
    state: Any,
    limit: Limit | None,
    stop: StopSignal | None,
    options: dict[str, Any],
) -> Iterator[SearchResult]:
    done = threading.Event()  # set when the generator is closed
    box: queue.SimpleQueue[tuple[str, Any]] = queue.SimpleQueue()

    def work() -> None:
        DEEPEN_ALWAYS.set(True)  # this thread's own context: every search here deepens
        try:
            final = search(
                game, state, limit, stop=_Either(done, stop),
                on_iteration=lambda r: box.put(("iteration", r)), **options,
            )
            box.put(("done", final))
        except BaseException as exc:  # handed to the caller's thread, raised there
            box.put(("error", exc))

    worker = threading.Thread(target=work, name="plies-iterations", daemon=True)
    worker.start()
    yielded = False
    try:
        while True:
            kind, item = box.get()
            if kind == "iteration":
                yielded = True
                yield item
            elif kind == "done":
                if not yielded:  # stopped before the first iteration: the fallback
                    yield item
                return
            else:
                raise item
    finally:
        done.set()
        worker.join()
