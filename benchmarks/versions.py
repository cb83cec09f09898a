"""Two versions of plies compared in one sitting: the driver of ``search_core.py`` and
``gdl_modules.py``.

A comparison script gives :func:`compare` its ``measure(repeat)`` (time the workloads
with the plies on ``sys.path``, return a JSON-able dict with the key ``"plies"``: its
``__file__``), its ``opcodes()`` (bytecodes per smaller workload, usually through
:func:`count_opcodes`) and its ``report``.  :func:`compare` reads ``--before`` and
``--after`` (two ``src`` directories), then runs ``--rounds`` rounds, each starting one
process per tree in alternating order, so that a slow spell of a shared machine hits
both trees alike; with ``--opcodes`` it starts one counting process per tree instead.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

Runs = dict[str, list[dict[str, Any]]]
Report = Callable[[Runs, argparse.Namespace, list[tuple[float, float, float]], float], None]


def count_opcodes(runs: dict[str, Callable[[], Any]]) -> dict[str, int]:
    """Bytecode instructions each run executes, warm (``sys.settrace``, opcode events)."""
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


def compare(
    script: str, doc: str | None, measure: Callable[[int], dict[str, Any]],
    opcodes: Callable[[], dict[str, int]], report: Report, argv: list[str] | None = None,
    env: dict[str, str] | None = None,
) -> int:
    """The command line of a comparison script (see the module docstring).

    ``env`` is added to each child's environment (``PYTHONPATH`` is the tree's ``src``
    and this directory).
    """
    p = argparse.ArgumentParser(description=doc.split("\n\n")[0] if doc else None)
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

    def child(src: str, what: str) -> dict[str, Any]:
        done = subprocess.run(
            [sys.executable, script, what, "--repeat", str(args.repeat)],
            env={**os.environ, **(env or {}), "PYTHONPATH": f"{src}{os.pathsep}{HERE}"},
            capture_output=True, text=True, check=True,
        )
        return dict(json.loads(done.stdout))

    if args.opcodes:
        counts = {side: child(src, "--count") for side, src in sides.items()}
        print("| workload | bytecodes before | after | after / before |")
        print("|---|---:|---:|---:|")
        for name, before in counts["before"].items():
            after = counts["after"][name]
            print(f"| {name} | {before:,} | {after:,} | {after / before:.4f} |")
        return 0
    runs: Runs = {"before": [], "after": []}
    load = [os.getloadavg()]
    started = time.perf_counter()
    for r in range(args.rounds):
        for side in ("before", "after") if r % 2 == 0 else ("after", "before"):
            runs[side].append(child(sides[side], "--measure"))
            print(f"round {r + 1}/{args.rounds} {side} done", file=sys.stderr)
    load.append(os.getloadavg())
    report(runs, args, load, time.perf_counter() - started)
    if args.json:
        args.json.write_text(json.dumps({"runs": runs, "load": load}, indent=1))
    return 0
