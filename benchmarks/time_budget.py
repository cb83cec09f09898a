"""How far past its time budget does an anytime search return?  (Run it on its own.)

Runs each search under ``Limit(time=t)`` for several budgets, several times, on this
machine, and prints the worst and median overrun (elapsed minus budget) as a Markdown
table.  A budget is checked every 1,024 nodes, so the overrun is about the time of
1,024 nodes plus the return from the recursion.

    python benchmarks/time_budget.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
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
    print("| game | search | budgets | depth reached (1 s) | median overrun | worst overrun |")
    print("|---|---|---|---|---|---|")
    worst_all = 0.0
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
        label = f"{search.__name__} {'+'.join(switches) or ''}".strip()
        print(
            f"| {name} | {label} | {', '.join(f'{b:g}s' for b in BUDGETS)} | {depth} | "
            f"{statistics.median(overruns) * 1000:.1f} ms | {max(overruns) * 1000:.1f} ms |"
        )
    print(f"\nWorst overrun over every run: {worst_all * 1000:.1f} ms")


if __name__ == "__main__":
    main()
