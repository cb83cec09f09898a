"""Empire self-play: how games end (conquest, science, score), who wins by seat, how long.

Every empire plays the same search (``alphabeta``: paranoid, or ``maxn``) at a depth in
plies; the first ``--random`` plies of each game are random (seeded by the game number),
so that the games differ.  Prints the victories by kind and by seat, and the mean number
of turns and of plies.

    PYTHONPATH=src python benchmarks/empire_games.py --games 12 --depth 2 --algorithm alphabeta
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import statistics
import time

import plies
from plies import Limit
from plies.games.empire import Empire


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--algorithm", choices=("alphabeta", "maxn"), default="alphabeta")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--map", default="continent")
    parser.add_argument("--random", type=int, default=6)
    parser.add_argument("--science", type=int, default=400)
    args = parser.parse_args(argv)
    game = Empire(args.players, args.map, science=args.science)
    search = getattr(plies, args.algorithm)
    kinds: collections.Counter[str] = collections.Counter()
    wins = [0.0] * game.num_players
    turns, lengths = [], []
    start = time.perf_counter()
    for number in range(args.games):
        rng = random.Random(number)
        state = game.initial_state()
        ply = 0
        while not game.is_terminal(state):
            if ply < args.random:
                action = rng.choice(game.actions(state))
            else:
                action = search(game, state, Limit(depth=args.depth)).action
            state = game.result(state, action)
            ply += 1
        end = game.victory(state)
        assert end is not None
        kinds[end[0]] += 1
        for p in range(game.num_players):
            wins[p] += game.utility(state, p)
        turns.append(state.base.turn)
        lengths.append(ply)
        print(f"game {number}: {game.outcome(state)} after {state.base.turn} turns, {ply} plies",
              flush=True)
    elapsed = time.perf_counter() - start
    print(f"{args.games} games, {args.algorithm} depth {args.depth}, {args.players} players, "
          f"map {args.map}: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    print("wins by seat: " + ", ".join(
        f"{game.player_name(p)} {w:g}" for p, w in enumerate(wins)))
    print(f"mean {statistics.mean(turns):.1f} turns, {statistics.mean(lengths):.0f} plies; "
          f"{elapsed:.0f} s; load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
