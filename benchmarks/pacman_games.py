"""Pacman agents against ghost models: win rate, mean score and time per move over seeded games.

Each game: Pacman searches with an algorithm (``minimax``, ``alphabeta``, or ``expectimax``
with the ghosts modelled as uniform chance) at a depth in rounds; the ghosts play a
policy (``random``: uniform; ``directional``: the project's DirectionalGhost, 0.8 towards
Pacman), drawn from one seeded generator per game, so a row is reproducible.

    PYTHONPATH=src python benchmarks/pacman_games.py --games 100 --depths 2,3 \\
        --layout smallClassic --ghosts 2 --max-moves 200

Prints one row per (algorithm, depth, ghost kind): games, wins, win rate, mean score,
mean seconds per Pacman move.  ``--json`` prints the rows as JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

import plies
from plies import Limit
from plies.game import OpponentsAsChance
from plies.games.pacman import WON, Pacman, directional_ghost, random_ghost

GHOSTS = {"random": random_ghost, "directional": directional_ghost}
ALGORITHMS = ("minimax", "alphabeta", "expectimax")


def pacman_move(game: Pacman, state: Any, algorithm: str, depth: int) -> str:
    limit = Limit(depth=depth, unit="round")
    if algorithm == "expectimax":
        model = OpponentsAsChance(game, range(1, game.num_players))
        result = plies.expectiminimax(model, state, limit)
    elif algorithm == "minimax":
        result = plies.minimax(game, state, limit)
    else:
        result = plies.alphabeta(game, state, limit)
    assert result.action is not None
    return str(result.action)


def play_one(game: Pacman, algorithm: str, depth: int, ghost: str, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    policy = GHOSTS[ghost](game)
    state = game.initial_state()
    seconds = 0.0
    moves = 0
    while not game.is_terminal(state):
        if game.to_move(state) == 0:
            start = time.perf_counter()
            action = pacman_move(game, state, algorithm, depth)
            seconds += time.perf_counter() - start
            moves += 1
        else:
            odds = policy(state)
            action = rng.choices([a for a, _ in odds], [p for _, p in odds])[0]
        state = game.result(state, action)
    return {"won": state.outcome == WON, "score": state.score, "seconds": seconds, "moves": moves}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--depths", default="2,3")
    parser.add_argument("--algorithms", default=",".join(ALGORITHMS))
    parser.add_argument("--ghost-kinds", default="random,directional")
    parser.add_argument("--layout", default="smallClassic")
    parser.add_argument("--ghosts", type=int, default=2)
    parser.add_argument("--max-moves", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    game = Pacman(args.layout, ghosts=args.ghosts, max_moves=args.max_moves)
    rows = []
    for algorithm in args.algorithms.split(","):
        for depth in map(int, args.depths.split(",")):
            for ghost in args.ghost_kinds.split(","):
                seeds = range(args.games)
                games = [play_one(game, algorithm, depth, ghost, seed) for seed in seeds]
                moves = sum(g["moves"] for g in games)
                row = {
                    "algorithm": algorithm, "depth": depth, "ghosts": ghost,
                    "games": len(games), "wins": sum(g["won"] for g in games),
                    "mean_score": statistics.fmean(g["score"] for g in games),
                    "seconds_per_move": sum(g["seconds"] for g in games) / max(moves, 1),
                }
                rows.append(row)
                if not args.json:
                    print(
                        f"{algorithm:10} d={depth} vs {ghost:11} games {row['games']:4} "
                        f"wins {row['wins']:4} ({row['wins'] / row['games']:.0%}) "
                        f"mean score {row['mean_score']:8.1f} "
                        f"{row['seconds_per_move'] * 1000:8.2f} ms/move",
                        flush=True,
                    )
    if args.json:
        json.dump(rows, sys.stdout, indent=2)


if __name__ == "__main__":
    main()
