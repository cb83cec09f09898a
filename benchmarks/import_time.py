"""Wall time of ``import plies`` in fresh interpreters, and what it imports.

Usage: ``python benchmarks/import_time.py [--runs 10] [SRC ...]``.  Each run is a new
process that times ``import plies`` alone (interpreter start-up excluded) with ``SRC``
(default: this checkout's ``src/``) first on ``PYTHONPATH``; several ``SRC`` folders (two
checkouts, before and after a change) are measured in turns, so that the machine's load
falls on each alike.  Prints one JSON line per folder: the median and the fastest run in
milliseconds, how many ``plies`` modules were imported, and how many of them are games'
rules (``plies.games.<game>``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("src", nargs="*", default=[str(Path(__file__).parents[1] / "src")])
    args = parser.parse_args()
    times: dict[str, list[float]] = {src: [] for src in args.src}
    counts: dict[str, tuple[int, int]] = {}
    for _ in range(args.runs):
        for src in args.src:
            env = {**os.environ, "PYTHONPATH": src}
            out = subprocess.run(
                [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True,
                env=env,
            ).stdout.split()
            times[src].append(float(out[0]))
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
