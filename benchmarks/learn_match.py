#!/usr/bin/env python3
"""Learned against hand-set weights: the same search, the same game, two evaluations.

    PYTHONPATH=src .venv/bin/python benchmarks/learn_match.py othello \\
        --weights src/plies/games/othello/weights/othello.json --depth 2 --openings 100 --seed 1

Why not one ``plies tournament``: an engine with a fixed depth is deterministic up to
exact ties, so the games of a tournament from one opening repeat each other and an Elo
interval over them would be a fiction.  Here every game starts from its own random
opening (``--opening-plies`` uniformly random moves, drawn from ``--seed``, openings that
end the game or repeat an earlier one are drawn again), and each opening is played with
every seating of the two agents (colours swapped in a two-player game; in a game of N
players every assignment of the two agents to the N seats that has both), so neither
side profits from a lucky opening.  The agents are tournament agents
(:func:`plies.tournament.agents.parse_agent`: ``alphabeta:depth=D,engine=1`` and the same
with ``weights=FILE``) and :func:`plies.tournament.tournament.play_game` plays the games;
every game is a pure function of the seed (a depth limit, not a clock) unless ``--time``
is given.

The report: games, the learned side's wins, draws and losses against the hand-set side
(pairwise, as ``plies tournament`` counts N-player games), its score, and the Elo
difference learned minus hand with its 95% interval from
:func:`plies.tournament.fit_elo` (the Bradley-Terry fit of ``plies tournament``, one
virtual draw as its prior, 1.96 standard errors), nodes per move of each side, the load.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from plies.cli.tournament import progress_bar
from plies.game import format_action
from plies.games import load as load_game
from plies.tournament import fit_elo
from plies.tournament.agents import parse_agent
from plies.tournament.tournament import play_game


def openings(game: Any, count: int, plies: int, seed: int) -> list[tuple[Any, list[str]]]:
    """``count`` distinct positions after ``plies`` random moves, with the moves as typed."""
    rng = random.Random(f"learn-match/{seed}")
    seen: set[Any] = set()
    out: list[tuple[Any, list[str]]] = []
    key = getattr(game, "key", lambda s: s)
    tries = 0
    while len(out) < count:
        tries += 1
        if tries > 100 * count:
            raise SystemExit(f"only {len(out)} distinct openings of {plies} plies found")
        state, moves = game.initial_state(), []
        for _ in range(plies):
            if game.is_terminal(state):
                break
            action = rng.choice(list(game.actions(state)))
            moves.append(format_action(game, state, action))
            state = game.result(state, action)
        if game.is_terminal(state) or key(state) in seen:
            continue
        seen.add(key(state))
        out.append((state, moves))
    return out


def seatings(players: int) -> list[tuple[int, ...]]:
    """Every assignment of agents 0 (learned) and 1 (hand-set) to the seats with both."""
    return [s for s in itertools.product((0, 1), repeat=players) if len(set(s)) == 2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("-o", "--option", action="append", default=[])
    parser.add_argument("--weights", required=True, help="the learned weights file")
    parser.add_argument("--hand", default=None, help="a weights file for the other side "
                        "(default: the game's own hand-set weights)")
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--time", type=float, default=None, help="seconds a move instead")
    parser.add_argument("--algorithm", default="alphabeta")
    parser.add_argument("--openings", type=int, default=50)
    parser.add_argument("--opening-plies", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    game = load_game(args.game, args.option)
    limit = f"time={args.time:g}" if args.time is not None else f"depth={args.depth}"
    base = f"{args.algorithm}:{limit}" + (",engine=1" if args.algorithm == "alphabeta" else "")
    learned = parse_agent(f"{base},weights={args.weights}")
    hand = parse_agent(f"{base},weights={args.hand}" if args.hand else base)
    agents = (learned, hand)
    for agent in agents:
        agent.check(game)
    starts = openings(game, args.openings, args.opening_plies, args.seed)
    seats_list = seatings(game.num_players)
    load_before = os.getloadavg()[0]
    rng = random.Random(f"learn-match-games/{args.seed}")
    results: list[tuple[int, int, float]] = []
    wdl = [0, 0, 0]
    nodes, decisions = [0, 0], [0, 0]
    began = time.perf_counter()
    with progress_bar(len(starts) * len(seats_list), "games") as advance:
        for state, _moves in starts:
            for seats in seats_list:
                final, _, searched, chosen = play_game(
                    game, agents, seats, rng.getrandbits(63), state
                )
                u = [float(game.utility(final, p)) for p in range(game.num_players)]
                for p, q in itertools.combinations(range(game.num_players), 2):
                    if seats[p] == seats[q]:
                        continue
                    score = 1.0 if u[p] > u[q] else 0.5 if u[p] == u[q] else 0.0
                    if seats[p] == 1:  # from the learned side's view
                        score = 1.0 - score
                    results.append((0, 1, score))
                    wdl[0 if score == 1.0 else 1 if score == 0.5 else 2] += 1
                for p, agent in enumerate(seats):
                    nodes[agent] += searched[p]
                    decisions[agent] += chosen[p]
                advance(1)
    elapsed = time.perf_counter() - began
    fit = fit_elo(2, results, prior=1.0)
    diff = fit.ratings[0] - fit.ratings[1]
    low, high = fit.interval(0)
    half = (high - low)  # both ratings move together: the difference's half-width is 2x
    games = len(starts) * len(seats_list)
    score = (wdl[0] + wdl[1] / 2) / len(results)
    row = {
        "game": args.game, "options": args.option, "learned": learned.label,
        "hand": hand.label, "openings": len(starts), "opening_plies": args.opening_plies,
        "games": games, "pairs": len(results), "wins": wdl[0], "draws": wdl[1],
        "losses": wdl[2], "score": score, "elo": diff, "elo_low": diff - half,
        "elo_high": diff + half,
        "nodes_per_move": [nodes[i] / max(1, decisions[i]) for i in range(2)],
        "seconds": elapsed, "load_before": load_before, "load_after": os.getloadavg()[0],
        "seed": args.seed,
    }
    if args.json:
        print(json.dumps(row, indent=2))
        return 0
    print("| game | search | openings x seatings | W-D-L (learned) | score | "
          "Elo learned - hand, 95% | nodes/move learned/hand | time | load |")
    print("|---|---|---|---|---|---|---|---|---|")
    print(
        f"| {args.game} | {base} | {len(starts)} x {len(seats_list)} = {games} | "
        f"{wdl[0]}-{wdl[1]}-{wdl[2]} | {100 * score:.1f}% | "
        f"{diff:+.0f} [{diff - half:+.0f}, {diff + half:+.0f}] | "
        f"{row['nodes_per_move'][0]:,.0f}/{row['nodes_per_move'][1]:,.0f} | "
        f"{elapsed:.0f}s | {load_before:.1f}-{row['load_after']:.1f} |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
