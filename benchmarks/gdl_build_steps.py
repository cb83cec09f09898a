#!/usr/bin/env python3
"""Reasoner builds in steps: steps per processor second, and the time from a stop to Stopped.

    PYTHONPATH=src python benchmarks/gdl_build_steps.py [--games ticTacToe,breakthrough,...]
        [--stop-games ruleDepthExponential,checkers] [--offsets 0.1,0.5,1]

For each ``--games`` game (``tests/data/gdl`` or ``tests/data/gdl/large``): the steps of
the propnet's build (:class:`plies.gdl.Reasoner`) and of the top-down prover's
(:class:`plies.gdl.TopDown`), the processor seconds each took, and the propnet's steps
per processor second: the rate behind :data:`plies.gdl.machine.STEPS_PER_SECOND`.

For each ``--stop-games`` game: each build is started in a thread, its stop signal is
set after each of ``--offsets`` seconds, and the milliseconds from the signal to
:class:`plies.budget.Stopped` are printed (or that it finished first).  Wall-clock
milliseconds, so they grow with the machine's load.  Not part of the test suite.
"""

from __future__ import annotations

import argparse
import threading
import time
from pathlib import Path
from typing import Any

from plies.budget import Budget, Stopped
from plies.gdl import Reasoner, TopDown, load
from plies.gdl.terms import Description

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "gdl"


def _description(name: str) -> Description:
    for path in (DATA / f"{name}.kif", DATA / "large" / f"{name}.kif"):
        if path.exists():
            return load(path)
    raise SystemExit(f"no game {name!r} in {DATA} or {DATA / 'large'}")


def _build(kind: str, desc: Description, budget: Budget) -> Any:
    if kind == "propnet":
        return Reasoner(desc, budget=budget)
    return TopDown(desc, build=budget)


def rates(names: list[str]) -> None:
    print("| game | propnet steps | propnet cpu s | M steps / cpu s | top-down steps | "
          "top-down cpu s |")
    print("|---|---|---|---|---|---|")
    for name in names:
        desc = _description(name)
        cells = [name]
        try:
            started = time.process_time()
            net = Reasoner(desc, budget=Budget(steps=10**12))
            cpu = time.process_time() - started
            cells += [f"{net.stats.steps:,}", f"{cpu:.2f}",
                      f"{net.stats.steps / max(cpu, 1e-9) / 1e6:.2f}"]
        except Exception as err:  # the grounding's caps: reported, not fatal
            cells += [f"({type(err).__name__})", "", ""]
        started = time.process_time()
        td = TopDown(desc, build=Budget(steps=10**12))
        cells += [f"{td.steps:,}", f"{time.process_time() - started:.2f}"]
        print("| " + " | ".join(cells) + " |", flush=True)


def stop_latency(names: list[str], offsets: list[float]) -> None:
    print("\n| game | build | stop after s | outcome |")
    print("|---|---|---|---|")
    for name in names:
        desc = _description(name)
        for kind in ("topdown", "propnet"):
            for offset in offsets:
                stop = threading.Event()
                out: dict[str, Any] = {}

                def run(kind: str = kind, desc: Description = desc,
                        stop: threading.Event = stop, out: dict[str, Any] = out) -> None:
                    try:
                        _build(kind, desc, Budget(stop=stop))
                        out["result"] = "finished"
                    except Stopped:
                        out["result"] = "Stopped"
                    except Exception as err:
                        out["result"] = type(err).__name__
                    out["ended"] = time.monotonic()

                worker = threading.Thread(target=run, daemon=True)
                worker.start()
                worker.join(offset)
                if not worker.is_alive():
                    outcome = f"{out['result']} before the stop"
                else:
                    signalled = time.monotonic()
                    stop.set()
                    worker.join(60)
                    if worker.is_alive():
                        outcome = "still running 60 s after the stop"
                    else:
                        ms = 1000 * (out["ended"] - signalled)
                        outcome = f"{out['result']} {ms:.0f} ms after the stop"
                print(f"| {name} | {kind} | {offset:g} | {outcome} |", flush=True)
                if worker.is_alive():
                    return  # a build that ignores its stop: the rest would wait behind it


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default="ticTacToe,connectFour,breakthrough,alquerque,"
                        "pentago,hunter,tictactoe_3player,checkers")
    parser.add_argument("--stop-games", default="ruleDepthExponential,checkers")
    parser.add_argument("--offsets", default="0.1,0.5,1")
    args = parser.parse_args()
    if args.games:
        rates(args.games.split(","))
    if args.stop_games:
        stop_latency(args.stop_games.split(","), [float(x) for x in args.offsets.split(",")])


if __name__ == "__main__":
    main()
