"""Pacman agents against ghost models: win rate, mean score and time per move over seeded games.

Each game: Pacman searches with an algorithm at a depth in rounds (depth 2 = Pacman, every
ghost, Pacman, every ghost): ``minimax`` and ``alphabeta`` search the ghosts as adversaries
(paranoid), ``expectimax`` (plies.expectiminimax) models them as chance with the policy
they really play (``random``: uniform; ``directional``: the project's DirectionalGhost,
0.8 on the moves towards Pacman), as the game option ``ghost=random|directional`` does.
The ghosts' moves are drawn from one generator seeded by the game's number, so a row is
reproducible; minimax and alpha-beta choose the same moves, so they play the same games
and their rows differ only in time (``--games-for minimax=20`` runs minimax on fewer).

    PYTHONPATH=src python benchmarks/pacman_games.py --games 100 --depths 2,3,4 \\
        --layout smallClassic --ghosts 1 --games-for minimax=20 \\
        --out benchmarks/results/pacman.md

Prints one row per (algorithm, depth, ghost kind) as it finishes: games, wins, win rate,
mean score, mean milliseconds per Pacman move, mean nodes per Pacman move; ``--out``
writes the Markdown table (with the command, the date and the load) to a file.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import sys
import time
from typing import Any

import plies
from plies import Limit
from plies.games.pacman import GHOST_KINDS, WON, Pacman, ghost_model, ghost_policy

ALGORITHMS = ("minimax", "alphabeta", "expectimax")
NAMES = {"minimax": "minimax", "alphabeta": "alpha-beta", "expectimax": "expectimax"}


def pacman_move(
    game: Pacman, model: Any, state: Any, algorithm: str, depth: int, unit: str = "ply"
) -> Any:
    """Pacman's search result at ``state``, ``depth`` rounds deep.

    ``unit="ply"`` passes the depth as ``depth * num_players`` plies: the same tree, since
    every player moves once a round in Pacman (tested), searched by plies' compiled workers,
    which only minimax with ``unit="round"`` lacks.
    """
    if unit == "ply":
        limit = Limit(depth=depth * game.num_players, unit="ply")
    else:
        limit = Limit(depth=depth, unit="round")
    if algorithm == "expectimax":
        return plies.expectiminimax(model, state, limit)
    if algorithm == "minimax":
        return plies.minimax(game, state, limit)
    return plies.alphabeta(game, state, limit)


def play_one(
    game: Pacman, algorithm: str, depth: int, ghost: str, seed: int, unit: str = "ply"
) -> dict[str, Any]:
    """One seeded game; the ghosts play ``ghost``'s policy."""
    rng = random.Random(seed)
    policy = ghost_policy(game, ghost)
    model = ghost_model(game, ghost)
    state = game.initial_state()
    seconds = 0.0
    moves = nodes = 0
    while not game.is_terminal(state):
        if game.to_move(state) == 0:
            start = time.perf_counter()
            result = pacman_move(game, model, state, algorithm, depth, unit)
            seconds += time.perf_counter() - start
            nodes += result.stats.nodes
            moves += 1
            action = result.action
        else:
            odds = policy(state)
            action = rng.choices([a for a, _ in odds], [p for _, p in odds])[0]
        state = game.result(state, action)
    return {
        "won": state.outcome == WON, "score": state.score, "seconds": seconds, "moves": moves,
        "nodes": nodes,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--games-for", default="", help="fewer games for some, e.g. minimax=20")
    parser.add_argument("--depths", default="2,3,4")
    parser.add_argument("--algorithms", default=",".join(ALGORITHMS))
    parser.add_argument("--ghost-kinds", default="random,directional")
    parser.add_argument("--layout", default="smallClassic")
    parser.add_argument("--ghosts", type=int, default=1)
    parser.add_argument("--max-moves", type=int, default=200)
    parser.add_argument("--unit", choices=("ply", "round"), default="ply",
                        help="how the depth in rounds is given to the search (same tree)")
    parser.add_argument("--out", default=None, help="write the Markdown table here")
    args = parser.parse_args(argv)
    fewer = {k: int(v) for k, v in (p.split("=") for p in args.games_for.split(",") if p)}
    game = Pacman(args.layout, ghosts=args.ghosts, max_moves=args.max_moves)
    started = datetime.datetime.now(datetime.UTC)
    load_before = os.getloadavg()
    lines = [
        "| Pacman agent | depth (rounds) | ghosts | games | wins | win rate | mean score "
        "| ms per move | nodes per move |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for algorithm in args.algorithms.split(","):
        for depth in map(int, args.depths.split(",")):
            for ghost in args.ghost_kinds.split(","):
                if ghost not in GHOST_KINDS or ghost == "minimax":
                    parser.error(f"ghost kinds are random, directional; got {ghost!r}")
                seeds = range(fewer.get(algorithm, args.games))
                games = []
                for seed in seeds:
                    games.append(play_one(game, algorithm, depth, ghost, seed, args.unit))
                    print(f"  {algorithm} d={depth} {ghost} game {seed}: {games[-1]}",
                          file=sys.stderr, flush=True)
                moves = max(sum(g["moves"] for g in games), 1)
                wins = sum(g["won"] for g in games)
                mean = statistics.fmean(g["score"] for g in games)
                ms = sum(g["seconds"] for g in games) / moves * 1000
                nodes = sum(g["nodes"] for g in games) / moves
                line = (
                    f"| {NAMES[algorithm]} | {depth} | {ghost} | {len(games)} | {wins} "
                    f"| {wins / len(games):.0%} | {mean:.1f} | {ms:.1f} | {nodes:,.0f} |"
                )
                lines.append(line)
                print(line, flush=True)
    if args.out:
        load_after = os.getloadavg()
        finished = datetime.datetime.now(datetime.UTC)
        command = "PYTHONPATH=src python benchmarks/pacman_games.py " + " ".join(
            argv if argv is not None else sys.argv[1:]
        )
        with open(args.out, "w", encoding="utf-8") as out:
            out.write(
                f"# Pacman agents against ghosts\n\n"
                f"`{command}`\n\n"
                f"Layout {args.layout}, {args.ghosts} ghost(s), at most {args.max_moves} Pacman "
                f"moves, seeds 0..n-1 per row; run {started:%Y-%m-%d %H:%M}-{finished:%H:%M} UTC "
                f"in one process on 2 shared cores, load average {load_before[0]:.1f} before and "
                f"{load_after[0]:.1f} after (times are indicative; nodes are exact).\n\n"
                + "\n".join(lines) + "\n"
            )


if __name__ == "__main__":
    main()
