"""Wall time of ``import plies`` in fresh interpreters, and what it imports.

Usage: ``python benchmarks/import_time.py [--runs 10]``.  Each run is a new process that
times ``import plies`` alone (interpreter start-up excluded); the median is reported, with
the number of ``plies.*`` modules imported and whether any game's rules were.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

PROBE = """
import sys, time
t = time.perf_counter()
import plies
elapsed = time.perf_counter() - t
mods = [m for m in sys.modules if m.startswith("plies")]
rules = sorted(m for m in mods if m.startswith("plies.games.") and m != "plies.games.registry")
print(elapsed, len(mods), len(rules))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    times, modules, rules = [], 0, 0
    for _ in range(args.runs):
        out = subprocess.run(
            [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True
        ).stdout.split()
        times.append(float(out[0]))
        modules, rules = int(out[1]), int(out[2])
    print(json.dumps({
        "runs": args.runs,
        "median_ms": round(1000 * statistics.median(times), 1),
        "min_ms": round(1000 * min(times), 1),
        "plies_modules": modules,
        "game_modules": rules,
    }))


if __name__ == "__main__":
    main()
