"""MCTS speed with and without a game's ``random_playout`` hook, as a Markdown table.

For each game, from its initial position: random playouts to the end per processor
second (the hook against :func:`plies.game.default_random_playout`, which plays the same
moves with the same generator), and :func:`plies.mcts` iterations per processor second
under a node budget (the game as loaded, then the same game with the hook switched off,
``game.random_playout = None``).  Each number is the best of ``--repeat`` runs with
different seeds, in processor time (the machine may be shared).

    PYTHONPATH=src python benchmarks/mcts_playouts.py
    PYTHONPATH=src python benchmarks/mcts_playouts.py --games connect4 --iterations 5000
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

import plies
from plies.game import default_random_playout, hook
from plies.games import load
from plies.gdl import load_game

GDL = Path(__file__).resolve().parents[1] / "tests" / "data" / "gdl"
GAMES = ("connect4", "othello", "gdl:connectFour", "gdl:breakthrough", "gdl:pentago")
clock = time.process_time


def make(name: str, hooked: bool) -> Any:
    game = load_game(GDL / f"{name[4:]}.kif") if name.startswith("gdl:") else load(name)
    if not hooked:
        game.random_playout = None  # hook() then answers None: the generic playout
    return game


def playouts_per_second(game: Any, fast: bool, seconds: float, seed: int) -> float:
    play = hook(game, "random_playout") if fast else None
    start, rng, count = game.initial_state(), random.Random(seed), 0
    began = clock()
    while clock() - began < seconds:
        if play is not None:
            play(start, rng, 10_000)
        else:
            default_random_playout(game, start, rng, 10_000)
        count += 1
    return count / (clock() - began)


def iterations_per_second(name: str, hooked: bool, iterations: int, seed: int) -> float:
    game = make(name, hooked)  # a fresh game: GDL's legal-move cache starts empty
    began = clock()
    plies.mcts(game, game.initial_state(), plies.Limit(nodes=iterations), seed=seed)
    return iterations / (clock() - began)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--iterations", type=int, default=2000, help="MCTS node budget")
    parser.add_argument("--seconds", type=float, default=1.0, help="per playout measurement")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print("| game | playouts/s generic | playouts/s hook | ratio | "
          "MCTS iterations/s generic | MCTS iterations/s hook | ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in args.games.split(","):
        game = make(name, True)
        rows = []
        for fast in (False, True):
            rows.append(max(playouts_per_second(game, fast, args.seconds, seed)
                            for seed in range(args.repeat)))
        for hooked in (False, True):
            rows.append(max(iterations_per_second(name, hooked, args.iterations, seed)
                            for seed in range(args.repeat)))
        p0, p1, i0, i1 = rows
        print(f"| {name} | {p0:,.0f} | {p1:,.0f} | {p1 / p0:.2f} | {i0:,.0f} | {i1:,.0f} | "
              f"{i1 / i0:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
