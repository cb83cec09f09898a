#!/usr/bin/env python3
"""The search core before and after a change, interleaved, in CPU time.

    benchmarks/.venv/bin/python benchmarks/search_core.py --before OLD/src --after NEW/src
        [--rounds 5] [--repeat 3] [--json out.json]

``run.py`` and ``engine_nps.py`` time one version of plies per run, in wall-clock time;
on a machine that other processes share, their medians move by more than a change to
the search core does.  This script compares two source trees of plies (``--before`` and
``--after``, each a ``src`` directory) on the same workloads in one sitting: each round
starts one process per tree (in alternating order), and each process times, in CPU time
(``time.process_time``, which a process waiting for a core does not accumulate) and with
the garbage collector off, every workload ``--repeat`` times beside its bare hand-written
loop (``adapters.make_bare``).  Reported per workload: the best time of each tree over all
rounds, its ratio to the bare loop in the same process, and after / before.

Workloads: W1 to W3 of ``run.py`` (plies and the bare loop), W4 (Connect Four with the
transposition table, move ordering and PVS, to depth 10: nodes per second), and traced
searches of W1's alpha-beta and W4 at depth 8 (what a trace costs, reported as traced /
untraced).

``--opcodes`` counts instead the Python bytecode instructions each tree executes on
smaller versions of the workloads (``sys.settrace`` with opcode events): a measure of the
interpreter's work that no other process can disturb, the same on every run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from timing import cpu_timed  # noqa: E402

PAIRS = (  # name, game, algorithm, depth (W1 to W3 of run.py)
    ("W1 tic-tac-toe minimax", "tictactoe", "minimax", None),
    ("W1 tic-tac-toe alpha-beta", "tictactoe", "alphabeta", None),
    ("W2 Connect Four alpha-beta d6", "connect4", "alphabeta", 6),
    ("W2 Connect Four alpha-beta d8", "connect4", "alphabeta", 8),
    ("W3 tree minimax", "tree", "minimax", None),
    ("W3 tree alpha-beta", "tree", "alphabeta", None),
)
ENGINE = {"tt": True, "ordering": True, "pvs": True}


def measure(repeat: int) -> dict[str, Any]:
    """Time every workload with the plies on ``sys.path`` (the child's side)."""
    from adapters import make_bare, make_plies

    import plies

    out: dict[str, Any] = {"plies": plies.__file__, "workloads": {}}

    def best(run: Callable[[], Any]) -> float:
        run()  # warm-up
        return min(cpu_timed(run)[0] for _ in range(repeat))

    for name, game, algorithm, depth in PAIRS:
        mine, bare = make_plies(game, algorithm, depth).run, make_bare(game, algorithm, depth).run
        times = {"plies": [], "bare": []}  # type: dict[str, list[float]]
        mine(), bare()
        for _ in range(repeat):  # interleaved: a slow spell hits both
            times["plies"].append(cpu_timed(mine)[0])
            times["bare"].append(cpu_timed(bare)[0])
        out["workloads"][name] = {k: min(v) for k, v in times.items()}
    c4 = plies.games.load("connect4", scoring="winloss")
    root = c4.initial_state()
    for depth in (10,):
        limit = plies.Limit(depth=depth)
        nodes = plies.alphabeta(c4, root, limit, **ENGINE).stats.nodes
        seconds = best(lambda limit=limit: plies.alphabeta(c4, root, limit, **ENGINE))
        out["workloads"][f"W4 Connect Four engine d{depth}"] = {
            "plies": seconds, "nodes": nodes, "nodes_per_s": nodes / seconds,
        }
    ttt = plies.games.load("tictactoe")
    events: list[Any] = []
    traced = {
        "W1 tic-tac-toe alpha-beta": lambda: plies.alphabeta(
            ttt, ttt.initial_state(), trace=events.append
        ),
        "W4 Connect Four engine d8": lambda: plies.alphabeta(
            c4, root, plies.Limit(depth=8), trace=events.append, **ENGINE
        ),
    }
    plain = {
        "W1 tic-tac-toe alpha-beta": lambda: plies.alphabeta(ttt, ttt.initial_state()),
        "W4 Connect Four engine d8": lambda: plies.alphabeta(
            c4, root, plies.Limit(depth=8), **ENGINE
        ),
    }
    out["traced"] = {}
    for name, run in traced.items():
        try:
            run()
        except Exception as err:  # the old version refuses a trace with engine switches
            out["traced"][name] = {"error": str(err)}
            continue
        events.clear()
        t = best(lambda run=run: (events.clear(), run()))
        out["traced"][name] = {"traced": t, "untraced": best(plain[name])}
    return out


def opcodes() -> dict[str, int]:
    """Bytecode instructions executed by each (smaller) workload, warm."""
    from adapters import make_plies

    import plies

    c4 = plies.games.load("connect4", scoring="winloss")
    root = c4.initial_state()
    runs: dict[str, Callable[[], Any]] = {
        "W1 tic-tac-toe minimax, depth 5": make_plies("tictactoe", "minimax", 5).run,
        "W1 tic-tac-toe alpha-beta": make_plies("tictactoe", "alphabeta", None).run,
        "W2 Connect Four alpha-beta d6": make_plies("connect4", "alphabeta", 6).run,
        "W3 tree alpha-beta": make_plies("tree", "alphabeta", None).run,
        "W4 Connect Four engine d8": lambda: plies.alphabeta(
            c4, root, plies.Limit(depth=8), **ENGINE
        ),
    }
    out = {}
    for name, run in runs.items():
        run()
        count = 0

        def step(frame: Any, event: str, arg: Any) -> Any:
            nonlocal count
            count += event == "opcode"
            return step

        def enter(frame: Any, event: str, arg: Any) -> Any:
            frame.f_trace_opcodes = True
            return step

        sys.settrace(enter)
        try:
            run()
        finally:
            sys.settrace(None)
        out[name] = count
    return out


def child(src: str, repeat: int, what: str = "--measure") -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": src}
    done = subprocess.run(
        [sys.executable, __file__, what, "--repeat", str(repeat)],
        env=env, capture_output=True, text=True, check=True,
    )
    return dict(json.loads(done.stdout))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--before", help="the src directory of the version before")
    p.add_argument("--after", help="the src directory of the version after")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--repeat", type=int, default=3, help="timed runs per workload per process")
    p.add_argument("--json", type=Path, help="write every measurement here")
    p.add_argument("--opcodes", action="store_true", help="count bytecodes instead of timing")
    p.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--count", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.measure or args.count:
        print(json.dumps(measure(args.repeat) if args.measure else opcodes()))
        return 0
    if not (args.before and args.after):
        p.error("give --before and --after (two src directories of plies)")
    sides = {"before": args.before, "after": args.after}
    if args.opcodes:
        counts = {side: child(src, 0, "--count") for side, src in sides.items()}
        print("| workload | bytecodes before | after | after / before |")
        print("|---|---:|---:|---:|")
        for name, before in counts["before"].items():
            after = counts["after"][name]
            print(f"| {name} | {before:,} | {after:,} | {after / before:.3f} |")
        return 0
    runs: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
    load = [os.getloadavg()]
    started = time.perf_counter()
    for r in range(args.rounds):
        for side in ("before", "after") if r % 2 == 0 else ("after", "before"):
            runs[side].append(child(sides[side], args.repeat))
            print(f"round {r + 1}/{args.rounds} {side} done", file=sys.stderr)
    load.append(os.getloadavg())
    report(runs, args, load, time.perf_counter() - started)
    if args.json:
        args.json.write_text(json.dumps({"runs": runs, "load": load}, indent=1))
    return 0


def report(
    runs: dict[str, list[dict[str, Any]]], args: argparse.Namespace,
    load: list[tuple[float, float, float]], wall: float,
) -> None:
    print(f"plies before: {runs['before'][0]['plies']}; after: {runs['after'][0]['plies']}")
    print(f"{args.rounds} rounds x {args.repeat} timed runs, CPU time, best of all; "
          f"load average {load[0][0]:.2f} before, {load[1][0]:.2f} after; {wall:.0f} s")
    print("| workload | before: plies ms (x bare) | after: plies ms (x bare) | after / before |")
    print("|---|---:|---:|---:|")
    names = list(runs["before"][0]["workloads"])
    for name in names:
        cells = []
        best: dict[str, float] = {}
        for side in ("before", "after"):
            rows = [run["workloads"][name] for run in runs[side]]
            best[side] = min(row["plies"] for row in rows)
            if "bare" in rows[0]:
                ratio = statistics.median(row["plies"] / row["bare"] for row in rows)
                cells.append(f"{best[side] * 1000:.1f} ({ratio:.2f}x)")
            else:
                nps = max(row["nodes_per_s"] for row in rows)
                cells.append(f"{best[side] * 1000:.1f} ({nps:,.0f} nodes/s)")
        print(f"| {name} | {cells[0]} | {cells[1]} | {best['after'] / best['before']:.3f} |")
    for name in runs["after"][0]["traced"]:
        cells = [_trace_cost(runs[side], name) for side in ("before", "after")]
        print(f"| {name}: traced / untraced | {cells[0]} | {cells[1]} | |")


def _trace_cost(runs: list[dict[str, Any]], name: str) -> str:
    """Traced over untraced time (best of all runs), or why there is none."""
    rows = [run["traced"][name] for run in runs]
    if "error" in rows[0]:
        return "refused"
    return f"{min(r['traced'] for r in rows) / min(r['untraced'] for r in rows):.2f}x"


if __name__ == "__main__":
    raise SystemExit(main())
