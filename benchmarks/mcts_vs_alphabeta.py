"""MCTS against alpha-beta at equal time per move: one two-agent tournament per row.

Each row is a game and an opponent: ``mcts:time=T`` against ``alphabeta:time=T`` (plain
iterative deepening) or ``alphabeta:time=T,engine=1`` (the engine craft: transposition
table, move ordering, PVS; for Othello the engine's own search), both with the same
seconds per move, ``--games`` games per seat order (so twice that per row), one process.

A row reports MCTS's wins, draws and losses, its score, the Elo difference
``MCTS - opponent`` with its 95% interval (:func:`plies.tournament.fit_elo` with its default
prior of one virtual draw: with two agents the ratings are ``+-d/2``, so the difference and
its interval are twice MCTS's rating and interval), MCTS's iterations per move and the
opponent's nodes per move, the minutes the row took and the load average (``os.getloadavg``)
at its end: the machine may be shared, and a clock budget buys less under load, on both
sides alike.

    PYTHONPATH=src python benchmarks/mcts_vs_alphabeta.py --time 0.25 --games 10 --seed 13
    PYTHONPATH=src python benchmarks/mcts_vs_alphabeta.py --rows connect4,gdl:pentago

``--rows`` picks games (``connect4``, ``othello``, ``gdl:NAME`` for ``tests/data/gdl/NAME.kif``);
``--json FILE`` appends every finished row as a JSON line (so an interrupted run keeps
its rows).  Time budgets make games depend on the machine and its load: rows are not
reproducible to the game, only in expectation.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from plies.parallel import LocalBackend
from plies.tournament import tournament

ROOT = Path(__file__).resolve().parents[1]
GDL = ROOT / "tests" / "data" / "gdl"
GAMES = ("connect4", "othello", "gdl:ticTacToe", "gdl:connectFour", "gdl:breakthrough",
         "gdl:pentago")
OPPONENTS = ("alphabeta:time={t}", "alphabeta:time={t},engine=1")


def game_spec(name: str) -> str:
    """A tournament's game argument for a row name."""
    if name.startswith("gdl:"):
        return str(GDL / f"{name[4:]}.kif")
    return name


def run_row(name: str, opponent: str, seconds: float, games: int, seed: int) -> dict[str, Any]:
    mcts = f"mcts:time={seconds:g}"
    other = opponent.format(t=f"{seconds:g}")
    began = time.perf_counter()
    result = tournament(
        game_spec(name), [mcts, other], rounds=games, seed=seed,
        backend=LocalBackend(workers=1),
    )
    minutes = (time.perf_counter() - began) / 60
    pair = result.pairs()[0]  # from MCTS's side: it is the first agent
    rows = {s.agent: s for s in result.standings()}
    low, high = result.elo.interval(0)
    return {
        "game": name,
        "opponent": other,
        "games": pair.games,
        "wins": pair.a_wins,
        "draws": pair.draws,
        "losses": pair.b_wins,
        "score": pair.a_score,
        "elo": 2 * result.elo.ratings[0],
        "elo_low": 2 * low,
        "elo_high": 2 * high,
        "iterations_per_move": rows[mcts].nodes_per_move,
        "nodes_per_move": rows[other].nodes_per_move,
        "minutes": minutes,
        "load": os.getloadavg()[0],
        "seed": result.seed,
    }


HEADER = (
    "| game | opponent (same time a move) | games | MCTS W-D-L | MCTS score | "
    "Elo MCTS - opponent (95%) | MCTS iterations/move | opponent nodes/move | min | load |\n"
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
)


def markdown(row: dict[str, Any]) -> str:
    return (
        f"| {row['game']} | `{row['opponent']}` | {row['games']} | "
        f"{row['wins']}-{row['draws']}-{row['losses']} | {row['score']:.0%} | "
        f"{row['elo']:+.0f} [{row['elo_low']:+.0f}, {row['elo_high']:+.0f}] | "
        f"{row['iterations_per_move']:,.0f} | {row['nodes_per_move']:,.0f} | "
        f"{row['minutes']:.1f} | {row['load']:.1f} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=0.25, help="seconds per move, both sides")
    parser.add_argument("--games", type=int, default=10, help="games per seat order and row")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--rows", default=",".join(GAMES), help="games, comma-separated")
    parser.add_argument("--opponents", default="plain,engine", help="plain, engine or both")
    parser.add_argument("--json", type=Path, help="append each finished row to this file")
    args = parser.parse_args(argv)
    wanted = {"plain": OPPONENTS[0], "engine": OPPONENTS[1]}
    opponents = [wanted[o] for o in args.opponents.split(",")]
    print(HEADER, flush=True)
    for name in args.rows.split(","):
        for opponent in opponents:
            row = run_row(name, opponent, args.time, args.games, args.seed)
            print(markdown(row), flush=True)
            if args.json is not None:
                with args.json.open("a") as out:
                    out.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
