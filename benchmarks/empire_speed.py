"""Empire: nodes per second of paranoid and max^n search, and random playouts per second.

The positions are taken along one seeded game in which every empire plays depth-1
alpha-beta (after 6 random opening plies): at plies 30, 90 and 150 of it (early,
middle, late: more cities, more units, more moves per turn).  From each position
``minimax``, ``alphabeta`` and ``maxn`` search to depth 1, 2 and 3 plies; a row
gives the nodes, the seconds and the nodes per second summed over the positions.
``--playouts`` random games (seeded) give the raw speed of the rules in plies per second.

    PYTHONPATH=src python benchmarks/empire_speed.py --players 3 --map continent

``--json`` prints the rows as JSON.  Times are wall-clock on a shared machine: read them
with the load average printed next to them; the CPU-time columns (this process only) say
what the search costs when it has a core to itself.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from typing import Any

import plies
from plies import Limit
from plies.games.empire import Empire

CHECKPOINTS = (30, 90, 150)
ALGORITHMS = ("minimax", "alphabeta", "maxn")
LIMITS = (("1 ply", Limit(depth=1)), ("2 plies", Limit(depth=2)), ("3 plies", Limit(depth=3)))
"""A round is up to 3 moves for each of N players: 9 plies or more, far too deep for a
full-width search here (max^n has no pruning at all)."""


def positions(game: Empire, seed: int) -> list[Any]:
    """The states at :data:`CHECKPOINTS` plies of a seeded depth-1 self-play game."""
    rng = random.Random(seed)
    state = game.initial_state()
    found = []
    for ply in range(max(CHECKPOINTS) + 1):
        if game.is_terminal(state):
            break
        if ply in CHECKPOINTS:
            found.append(state)
        if ply < 6:
            action = rng.choice(game.actions(state))
        else:
            action = plies.alphabeta(game, state, Limit(depth=1)).action
        state = game.result(state, action)
    return found


def search_rows(game: Empire, states: list[Any]) -> list[dict[str, Any]]:
    rows = []
    for label, limit in LIMITS:
        for name in ALGORITHMS:
            search = getattr(plies, name)
            nodes = 0
            start, cpu = time.perf_counter(), time.process_time()
            for state in states:
                nodes += search(game, state, limit).stats.nodes
            elapsed = time.perf_counter() - start
            cpu = time.process_time() - cpu
            rows.append({
                "algorithm": name, "limit": label, "positions": len(states), "nodes": nodes,
                "seconds": round(elapsed, 3), "nodes_per_s": round(nodes / elapsed),
                "cpu_seconds": round(cpu, 3), "nodes_per_cpu_s": round(nodes / cpu),
            })
    return rows


def playout_row(game: Empire, playouts: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    moves = 0
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(playouts):
        state = game.initial_state()
        while not game.is_terminal(state):
            state = game.result(state, rng.choice(game.actions(state)))
            moves += 1
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu
    return {"playouts": playouts, "plies": moves, "seconds": round(elapsed, 3),
            "plies_per_s": round(moves / elapsed), "cpu_seconds": round(cpu, 3),
            "plies_per_cpu_s": round(moves / cpu)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--map", default="continent")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--playouts", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    game = Empire(args.players, args.map)
    states = positions(game, args.seed)
    info = [
        f"{len(game.actions(s))} actions, {game.move_limit(s)} moves per turn, "
        f"{len(s.base.cities)} cities, {len(s.base.units)} units" for s in states
    ]
    rows = search_rows(game, states)
    playouts = playout_row(game, args.playouts, args.seed)
    load = os.getloadavg()
    if args.json:
        print(json.dumps({"positions": info, "search": rows, "playouts": playouts,
                          "load": load}, indent=2))
        return
    print(f"positions (plies {', '.join(map(str, CHECKPOINTS))}): " + "; ".join(info))
    print("| algorithm | limit | nodes | wall s | nodes/s | CPU s | nodes per CPU s |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for row in rows:
        print(f"| {row['algorithm']} | {row['limit']} | {row['nodes']:,} | "
              f"{row['seconds']:.3f} | {row['nodes_per_s']:,} | {row['cpu_seconds']:.3f} | "
              f"{row['nodes_per_cpu_s']:,} |")
    print(f"random playouts: {playouts['playouts']} games, {playouts['plies']:,} plies in "
          f"{playouts['seconds']:.2f} s ({playouts['cpu_seconds']:.2f} s CPU): "
          f"{playouts['plies_per_s']:,} plies/s ({playouts['plies_per_cpu_s']:,} per CPU s)")
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
