#!/usr/bin/env python3
"""Every game of the GGP repository through plies' automatic choice of GDL reasoner.

    PYTHONPATH=src python benchmarks/gdl_sweep.py [--budget 10] [--seconds 2]
        [--repo /work/.mirror/ggp-org+ggp-repository/repo] [--only chess,amazons]
        [--out benchmarks/results/gdl_sweep.md]

For each ``.kif`` file of the repository (a bare git mirror: read with ``git show``),
in a fresh process of its own (so that one game's memory or a hang cannot touch the
next): parse, validate (:func:`plies.gdl.validator.check`), then
:func:`plies.gdl.machine.build_machine` with a budget of ``--budget`` seconds (what a
start clock would allow), and random playouts (every role a uniformly random legal
move, to the end, at most 200 steps) for ``--seconds`` seconds of wall-clock time.
Reported per game: the machine chosen, the seconds the choice took, states per second
of the playouts (each state: the terminal test, and if not terminal every role's legal
moves and the successor), playouts finished, and the error if any step failed.  A game
whose process runs over ``--budget + --seconds + 60`` seconds is reported as a timeout.

Not part of the test suite (timings depend on the machine and its load).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REPO = Path("/work/.mirror/ggp-org+ggp-repository/repo")

CHILD = r"""
import json, random, sys, time
from plies.budget import Budget
from plies.gdl import parse
from plies.gdl.machine import build_machine
from plies.gdl.validator import check

budget, seconds, name = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
out = {"game": name}
try:
    desc = parse(sys.stdin.read(), name)
    check(desc)
except Exception as exc:
    out["error"] = f"refused: {type(exc).__name__}: {exc}"[:160]
    print(json.dumps(out)); sys.exit(0)
started = time.perf_counter()
try:
    choice = build_machine(desc, budget=Budget(seconds=budget))
except Exception as exc:
    out["build"] = time.perf_counter() - started
    out["error"] = f"no machine: {type(exc).__name__}: {exc}"[:160]
    print(json.dumps(out)); sys.exit(0)
out.update(kind=choice.kind, build=choice.seconds, reason=choice.reason[:120])
m = choice.machine
rng = random.Random(1)
states = playouts = 0
started = time.perf_counter()
try:
    while time.perf_counter() - started < seconds:
        s = m.initial_state()
        for _ in range(200):
            states += 1
            if m.is_terminal(s):
                m.goals(s)
                playouts += 1
                break
            s = m.next_state(s, [rng.choice(moves) for moves in m.legal_all(s)])
            if time.perf_counter() - started > seconds:
                break
        else:
            playouts += 1
except Exception as exc:
    out["error"] = f"playing: {type(exc).__name__}: {exc}"[:160]
elapsed = time.perf_counter() - started
out.update(states=states, playouts=playouts, rate=states / elapsed)
print(json.dumps(out))
"""


def games(repo: Path) -> list[str]:
    listing = subprocess.run(
        ["git", "-C", str(repo), "ls-tree", "-r", "HEAD", "--name-only"],
        check=True, capture_output=True, text=True,
    ).stdout.split()
    return sorted((p for p in listing if p.endswith(".kif")), key=lambda p: Path(p).stem.lower())


def run_one(repo: Path, path: str, budget: float, seconds: float) -> dict[str, object]:
    text = subprocess.run(
        ["git", "-C", str(repo), "show", f"HEAD:{path}"], check=True, capture_output=True
    ).stdout
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    name = Path(path).stem + ("" if "/games/" in path else " (disabled)")
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(budget), str(seconds), name],
            input=text, capture_output=True, env=env, timeout=budget + seconds + 60,
        )
    except subprocess.TimeoutExpired:
        return {"game": name, "error": f"timeout after {budget + seconds + 60:.0f} s"}
    lines = done.stdout.decode().strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = done.stderr.decode().strip().splitlines()[-1:] or [f"exit {done.returncode}"]
        return {"game": name, "error": f"crashed: {tail[0]}"[:160]}
    result: dict[str, object] = json.loads(lines[-1])
    return result


def table(results: list[dict[str, object]]) -> str:
    rows = ["| game | machine | choice (s) | states/s | playouts | error or reason |",
            "|---|---|---:|---:|---:|---|"]
    for r in results:
        build = f"{r['build']:.1f}" if "build" in r else ""
        rate = f"{r['rate']:,.0f}" if "rate" in r else ""
        note = str(r.get("error") or (r.get("reason") if r.get("kind") == "topdown" else ""))
        note = note.replace("|", "/")
        rows.append(f"| {r['game']} | {r.get('kind', '-')} | {build} | {rate} | "
                    f"{r.get('playouts', '')} | {note} |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repo", type=Path, default=REPO)
    parser.add_argument("--budget", type=float, default=10.0)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--only", default="", help="comma-separated game names")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    wanted = {g for g in args.only.split(",") if g}
    paths = [p for p in games(args.repo) if not wanted or Path(p).stem in wanted]
    results = []
    started = time.time()
    for i, path in enumerate(paths, 1):
        result = run_one(args.repo, path, args.budget, args.seconds)
        results.append(result)
        print(f"[{i}/{len(paths)}] {json.dumps(result)}", file=sys.stderr, flush=True)
    kinds: dict[str, int] = {}
    for r in results:
        key = str(r.get("kind", "error"))
        kinds[key] = kinds.get(key, 0) + 1
    summary = ", ".join(f"{k}: {v}" for k, v in sorted(kinds.items()))
    text = (f"{len(results)} games in {time.time() - started:.0f} s ({summary}); "
            f"budget {args.budget:g} s, playouts {args.seconds:g} s per game.\n\n"
            + table(results) + "\n")
    if args.out:
        args.out.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
