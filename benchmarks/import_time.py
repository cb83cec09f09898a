"""Wall time of ``import plies`` in fresh interpreters, and what it imports.

Usage: ``python benchmarks/import_time.py [--runs 10] [SRC ...]``.  Each run is a new
process that times ``import plies`` alone (interpreter start-up excluded) with ``SRC``
(default: this checkout's ``src/``) first on ``PYTHONPATH``; several ``SRC`` folders (two
checkouts, before and after a change) are measured in turns, so that the machine's load
falls on each alike.  Prints one JSON line per folder: the median and the fastest run in
milliseconds, how many ``plies`` modules were imported, and how many of them are games'
rules (``plies.games.<game>``).

With ``--cli "ARGS"`` each run is instead a whole ``plies ARGS`` process (``--cli
--help``: ``plies --help``), timed from outside, interpreter start-up included, as a user
waits for it; the counts are of the modules imported by the time the command returns.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

PROBE = """
import sys, time
t = time.perf_counter()
import plies
elapsed = time.perf_counter() - t
mods = [m for m in sys.modules if m.startswith("plies")]
frame = {"plies.games", "plies.games.registry", "plies.games.loader"}
rules = [m for m in mods if m.startswith("plies.games.") and m not in frame]
print(elapsed, len(mods), len(rules))
"""

CLI = """
import contextlib, io, sys
from plies.cli import main
sys.argv = ["plies", *sys.argv[1:]]
with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
    main()
mods = [m for m in sys.modules if m.startswith("plies")]
frame = {"plies.games", "plies.games.registry", "plies.games.loader"}
rules = [m for m in mods if m.startswith("plies.games.") and m not in frame]
print(0, len(mods), len(rules), file=sys.stderr)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--cli", metavar="ARGS", help="time a whole `plies ARGS` process")
    parser.add_argument("src", nargs="*", default=[str(Path(__file__).parents[1] / "src")])
    args = parser.parse_args()
    times: dict[str, list[float]] = {src: [] for src in args.src}
    counts: dict[str, tuple[int, int]] = {}
    for _ in range(args.runs):
        for src in args.src:
            env = {**os.environ, "PYTHONPATH": src}
            if args.cli is None:
                out = subprocess.run(
                    [sys.executable, "-c", PROBE], capture_output=True, text=True,
                    check=True, env=env,
                ).stdout.split()
                times[src].append(float(out[0]))
            else:
                start = time.perf_counter()
                out = subprocess.run(
                    [sys.executable, "-c", CLI, *shlex.split(args.cli)], capture_output=True,
                    text=True, check=True, env=env,
                ).stderr.split()
                times[src].append(time.perf_counter() - start)
            counts[src] = (int(out[1]), int(out[2]))
    for src in args.src:
        print(json.dumps({
            "src": src,
            "runs": args.runs,
            "median_ms": round(1000 * statistics.median(times[src]), 1),
            "min_ms": round(1000 * min(times[src]), 1),
            "plies_modules": counts[src][0],
            "game_rule_modules": counts[src][1],
        }))


if __name__ == "__main__":
    main()
