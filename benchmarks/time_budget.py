"""How far past its deadline, or past a stop, does a search return?  (Run it on its own.)

For each search, several budgets ``t``, several times, on this machine:

- **deadline**: the search runs under ``Limit(time=t)``; the overrun is the elapsed time
  minus ``t``.
- **stop**: the search runs without a clock (deepening towards a depth it cannot reach)
  and a :class:`threading.Timer` sets a :class:`threading.Event` passed as ``stop=``
  after ``t``; the overrun is the time from ``Event.set()`` to the search's return.  (The
  timer thread itself may start late by up to the interpreter's switch interval, 5 ms by
  default, while the search holds the GIL: that delay is before ``set()`` and is not
  counted, because no search can shorten it.)

Both are read with the adaptive cadence of ``plies.search.limits.budget_check`` (about one
look a millisecond whatever a node costs), so an overrun is about a millisecond plus the
return from the recursion.  Prints a Markdown table with the median and worst overruns.

    python benchmarks/time_budget.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from collections.abc import Callable
from typing import Any

import plies

CASES: list[tuple[str, dict[str, Any], Callable[..., plies.SearchResult], dict[str, Any]]] = [
    ("tictactoe", {}, plies.minimax, {}),
    ("connect4", {}, plies.alphabeta, {}),
    ("connect4", {}, plies.alphabeta, {"tt": True, "ordering": True, "pvs": True}),
    ("civ", {}, plies.alphabeta, {}),
    ("civ", {}, plies.maxn, {}),
    ("pig", {"goal": 20, "max_turns": 10}, plies.expectiminimax, {}),
    ("pig", {"goal": 20, "max_turns": 10}, plies.expectiminimax, {"pruning": True}),
]
BUDGETS = (0.01, 0.05, 0.2, 1.0)
DEEP = plies.Limit(depth=200)  # deeper than any of these searches gets in a second


def deadline_overrun(
    search: Callable[..., Any], game: Any, budget: float, **kw: Any
) -> tuple[float, int]:
    """The overrun past ``Limit(time=budget)`` and the depth the search reached."""
    start = time.perf_counter()
    result = search(game, game.initial_state(), plies.Limit(time=budget), **kw)
    return time.perf_counter() - start - budget, result.stats.depth


def stop_overrun(search: Callable[..., Any], game: Any, budget: float, **kw: Any) -> float:
    stop = threading.Event()
    fired: list[float] = []

    def fire() -> None:
        fired.append(time.perf_counter())
        stop.set()

    timer = threading.Timer(budget, fire)
    timer.start()
    result = search(game, game.initial_state(), DEEP, stop=stop, on_iteration=lambda r: None, **kw)
    end = time.perf_counter()
    timer.join()
    if not result.stopped:  # finished before the stop: nothing to measure
        return 0.0
    return end - fired[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(
        "| game | search | budgets | depth reached (1 s) | deadline: median | worst "
        "| stop: median | worst |"
    )
    print("|---|---|---|---|---|---|---|---|")
    worst_deadline = worst_stop = 0.0
    for name, options, search, switches in CASES:
        game = plies.games.load(name, **options)
        late: list[float] = []
        stopped: list[float] = []
        depth = 0
        for budget in BUDGETS:
            for _ in range(args.repeat):
                overrun, depth = deadline_overrun(search, game, budget, **switches)
                late.append(overrun)
                stopped.append(stop_overrun(search, game, budget, **switches))
        worst_deadline = max(worst_deadline, max(late))
        worst_stop = max(worst_stop, max(stopped))
        label = f"{search.__name__} {'+'.join(switches) or ''}".strip()
        print(
            f"| {name} | {label} | {', '.join(f'{b:g}s' for b in BUDGETS)} | {depth} | "
            f"{statistics.median(late) * 1000:.1f} ms | {max(late) * 1000:.1f} ms | "
            f"{statistics.median(stopped) * 1000:.1f} ms | {max(stopped) * 1000:.1f} ms |"
        )
    print(f"\nWorst overrun after a deadline: {worst_deadline * 1000:.1f} ms")
    print(f"Worst overrun after a stop:     {worst_stop * 1000:.1f} ms")


if __name__ == "__main__":
    main()
