#!/usr/bin/env python3
"""A traced engine search of Connect Four visits exactly the nodes the untraced one does.

    python benchmarks/traced_nodes.py

From the empty board, ``plies.alphabeta`` with the transposition table, move ordering and
PVS at depths 6, 8 and 10, once untraced and once with ``trace=``: prints a Markdown row
per depth with both node counts, the ``enter`` events (one per node), both values and
moves, the table, order and re-search events, and both wall times.  The tests check the
same on many positions (``tests/search/test_trace.py``); this shows it at a size where the
craft does real work.  Results: ``benchmarks/results/architecture.md``.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import plies
from plies.games import load


def main() -> None:
    game = load("connect4")
    state = game.initial_state()
    craft: dict[str, Any] = {"tt": True, "ordering": True, "pvs": True}
    print("| depth | untraced nodes | traced nodes | enter events | value (untraced / traced) "
          "| move | table / order / research events | seconds (untraced / traced) |")
    print("|---:|---:|---:|---:|---|---|---|---|")
    for depth in (6, 8, 10):
        start = time.perf_counter()
        plain = plies.alphabeta(game, state, plies.Limit(depth=depth), **craft)
        untraced = time.perf_counter() - start
        events: list[plies.TraceEvent] = []
        start = time.perf_counter()
        limit = plies.Limit(depth=depth)
        traced = plies.alphabeta(game, state, limit, trace=events.append, **craft)
        with_trace = time.perf_counter() - start
        kinds = Counter(e.kind for e in events)
        moves = " / ".join(game.format_action(state, r.action) for r in (plain, traced))
        print(f"| {depth} | {plain.stats.nodes:,} | {traced.stats.nodes:,} | {kinds['enter']:,} "
              f"| {plain.value:.4g} / {traced.value:.4g} | {moves} "
              f"| {kinds['table']:,} / {kinds['order']:,} / {kinds['research']:,} "
              f"| {untraced:.2f} / {with_trace:.2f} |")


if __name__ == "__main__":
    main()
