"""How far past its time budget, or past a stop signal, does a search return?

Runs each search under ``Limit(time=t)`` for several budgets, several times, on this
machine, and prints the worst and median overrun (elapsed minus budget) as a Markdown
table.  The budget is checked every so many nodes, so the overrun is about the time of
those nodes plus the return from the recursion.  The stop columns do the same with a
``threading.Event`` set by a timer after ``t`` (the search's ``stop=``, under a time
budget far away): the overrun is the time from ``set()`` to the return.  (Run it on its
own: another process on the machine lengthens every overrun.)

    python benchmarks/time_budget.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import inspect
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(
        "| game | search | budgets | depth reached (1 s) | median overrun | worst overrun | "
        "median after stop | worst after stop |"
    )
    print("|---|---|---|---|---|---|---|---|")
    worst_all = worst_stop = 0.0
    for name, options, search, switches in CASES:
        game = plies.games.load(name, **options)
        overruns: list[float] = []
        depth = 0
        for budget in BUDGETS:
            for _ in range(args.repeat):
                start = time.perf_counter()
                result = search(game, game.initial_state(), plies.Limit(time=budget), **switches)
                overruns.append(time.perf_counter() - start - budget)
                depth = result.stats.depth
        worst_all = max(worst_all, max(overruns))
        stops = _after_stop(search, game, switches, args.repeat)
        worst_stop = max([worst_stop, *stops])
        label = f"{search.__name__} {'+'.join(switches) or ''}".strip()
        after = (
            f"{statistics.median(stops) * 1000:.1f} ms | {max(stops) * 1000:.1f} ms"
            if stops else "no stop= | -"
        )
        print(
            f"| {name} | {label} | {', '.join(f'{b:g}s' for b in BUDGETS)} | {depth} | "
            f"{statistics.median(overruns) * 1000:.1f} ms | {max(overruns) * 1000:.1f} ms | "
            f"{after} |"
        )
    print(f"\nWorst overrun over every run: {worst_all * 1000:.1f} ms past a budget, "
          f"{worst_stop * 1000:.1f} ms past a stop")


def _after_stop(
    search: Callable[..., plies.SearchResult], game: Any, switches: dict[str, Any], repeat: int
) -> list[float]:
    """Seconds from ``stop.set()`` to the return, for every budget and repeat."""
    if "stop" not in inspect.signature(search).parameters:
        return []
    out: list[float] = []
    for budget in BUDGETS:
        for _ in range(repeat):
            stop = threading.Event()
            when: list[float] = []

            def fire(stop: threading.Event = stop, when: list[float] = when) -> None:
                when.append(time.perf_counter())
                stop.set()

            timer = threading.Timer(budget, fire)
            timer.start()
            search(game, game.initial_state(), plies.Limit(time=3600), stop=stop, **switches)
            done = time.perf_counter()
            timer.join()
            out.append(done - when[0])
    return out


if __name__ == "__main__":
    main()
