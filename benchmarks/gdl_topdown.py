#!/usr/bin/env python3
"""Random playouts per second: the top-down prover beside the propnet and the reference.

    PYTHONPATH=src python benchmarks/gdl_topdown.py [--seconds 3] [--runs 3]
        [--small ticTacToe,connectFour,breakthrough] [--large chess,amazons,...]

``--small`` games (``tests/data/gdl``) are played by all three reasoners: the grounded
propnet (:class:`plies.gdl.Reasoner`, public API with GDL terms), the top-down prover
(:class:`plies.gdl.topdown.TopDown`) and the bottom-up reference
(:class:`plies.gdl.Prover`).  ``--large`` games, whose grounding exceeds the limit, are
played by the top-down prover alone: ``tests/data/gdl/large`` if the file is there,
else the GGP repository mirror (``war/root/games/<name>/<name>.kif``).  Reported: the
median over ``--runs`` runs of states per processor second (a state: its terminal
test, and if not terminal every role's legal moves and the successor), and the
processor seconds to build each machine.  Not part of the test suite.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import time
from pathlib import Path

from gdl_playouts import run_prover, run_terms

from plies.gdl import Prover, Reasoner, load, parse
from plies.gdl.terms import Description
from plies.gdl.topdown import TopDown

clock = time.process_time
DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "gdl"
REPO = Path("/work/.mirror/ggp-org+ggp-repository/repo")
SMALL = "ticTacToe,connectFour,breakthrough"
LARGE = "chess,amazons,merrills,skirmish,racer,sudoku,slaughter,brawl,crisscross"


def description(name: str) -> Description:
    for path in (DATA / f"{name}.kif", DATA / "large" / f"{name}.kif"):
        if path.is_file():
            return load(path)
    text = subprocess.run(
        ["git", "-C", str(REPO), "show", f"HEAD:war/root/games/{name}/{name}.kif"],
        check=True, capture_output=True, text=True,
    ).stdout
    return parse(text, f"{name}.kif")


def rate(play: object, seconds: float, runs: int) -> float:
    found = []
    for run in range(runs):
        start = clock()
        states = play(random.Random(run), start + seconds)  # type: ignore[operator]
        found.append(states / (clock() - start))
    return statistics.median(found)


def built(make: object) -> tuple[object, float]:
    start = clock()
    machine = make()  # type: ignore[operator]
    return machine, clock() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--small", default=SMALL)
    parser.add_argument("--large", default=LARGE)
    args = parser.parse_args()
    print("| game | machine | build s | states/s |")
    print("|---|---|---:|---:|")
    for name in filter(None, args.small.split(",")):
        desc = description(name)
        for label, make, run in (
            ("propnet", lambda d=desc: Reasoner(d), run_terms),
            ("topdown", lambda d=desc: TopDown(d), run_terms),
            ("prover", lambda d=desc: Prover(d), run_prover),
        ):
            machine, seconds = built(make)
            r = rate(lambda rng, end, m=machine, f=run: f(m, rng, end), args.seconds, args.runs)
            print(f"| {name} | {label} | {seconds:.2f} | {r:,.0f} |", flush=True)
    for name in filter(None, args.large.split(",")):
        desc = description(name)
        machine, seconds = built(lambda d=desc: TopDown(d))
        r = rate(lambda rng, end, m=machine: run_prover_like(m, rng, end), args.seconds,
                 args.runs)
        print(f"| {name} | topdown | {seconds:.2f} | {r:,.0f} |", flush=True)


def run_prover_like(m: TopDown, rng: random.Random, deadline: float) -> int:
    """:func:`run_terms` that also stops inside a long playout at the deadline."""
    states = 0
    while clock() < deadline:
        s = m.initial_state()
        while clock() < deadline:
            states += 1
            if m.is_terminal(s):
                break
            s = m.next_state(s, [rng.choice(moves) for moves in m.legal_all(s)])
    return states


if __name__ == "__main__":
    main()
