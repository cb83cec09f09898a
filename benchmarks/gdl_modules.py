#!/usr/bin/env python3
"""The GDL reasoners before and after a change, interleaved, in CPU time.

    PYTHONPATH=benchmarks python benchmarks/gdl_modules.py --before OLD/src --after NEW/src
        [--rounds 5] [--repeat 3] [--json out.json]

``gdl_playouts.py`` and ``gdl_topdown.py`` time one version of plies per run, for a fixed
number of processor seconds.  This script compares two source trees of plies
(``--before`` and ``--after``, each a ``src`` directory) on the same fixed workloads in
one sitting, as ``search_core.py`` does for the search core: each round starts one
process per tree (in alternating order, with the same ``PYTHONHASHSEED``), and each
process times every workload ``--repeat`` times in CPU time (``time.process_time``)
with the garbage collector off (``timing.cpu_timed``).  Reported per workload: the best
and the median time of each tree over all rounds, and after / before of the bests.

Workloads, on the games of ``tests/data/gdl`` (``large/`` for the top-down prover's):

- *propnet build*: :class:`plies.gdl.Reasoner` (grounding, the network, its compiled
  Python), the work of ``ground``, ``propnet`` and the modules they were split into;
- *propnet playouts*: uniformly random playouts on the compiled network's fast path
  (``legal_indices`` / ``next_state_indices``, :func:`gdl_playouts.run_indices`'s loop
  with a fixed number of playouts instead of a deadline);
- *topdown build*: :class:`plies.gdl.TopDown` (``tdcompile``, ``tdunify``, ``tabling``);
- *topdown playouts*: random playouts with the top-down prover (``legal_all`` /
  ``next_state``), a fixed number of states (computed: the playouts that ended);
- *validate*: :func:`plies.gdl.validator.check` on every game of the list.

``--opcodes`` counts instead the Python bytecode instructions each tree executes on
smaller versions of the workloads (``sys.settrace`` with opcode events, as in
``search_core.py``): the interpreter's work, which no other process can disturb.

Each workload also reports what it computed (ground rules, states visited, playouts
ended, diagnostics):
the two trees must agree on it, or the comparison is of different work.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from timing import cpu_timed  # noqa: E402
from versions import compare, count_opcodes  # noqa: E402

DATA = HERE.parent / "tests" / "data" / "gdl"

# (game, calls per timed run): each timed run takes a few tenths of a second here.
PROPNET_BUILD = (("ticTacToe", 10), ("connectFour", 5), ("pentago", 2), ("breakthrough", 1),
                 ("alquerque", 1))
PROPNET_PLAYOUTS = (("ticTacToe", 2000), ("connectFour", 500), ("pentago", 200),
                    ("breakthrough", 100))
TOPDOWN_BUILD = (("connectFour", 20), ("pentago", 10), ("large/chess", 1))
TOPDOWN_STATES = (("ticTacToe", 6000), ("connectFour", 3000), ("breakthrough", 1500),
                  ("large/chess", 150), ("large/amazons", 20))
VALIDATE = ("ticTacToe", "connectFour", "breakthrough", "pentago", "alquerque", "hunter",
            "large/chess", "large/amazons", "large/checkers")
VALIDATE_TIMES = 10


def propnet_playouts(reasoner: Any, playouts: int) -> int:
    """States visited by ``playouts`` random playouts from seed 0 (indices API)."""
    rng = random.Random(0)
    choice = rng.choice
    legal, step = reasoner.legal_indices, reasoner.next_state_indices
    terminal = reasoner.is_terminal
    states = 0
    for _ in range(playouts):
        s = reasoner.initial_state()
        while True:
            states += 1
            if terminal(s):
                break
            s = step(s, [choice(moves) for moves in legal(s)])
    return states


def topdown_states(machine: Any, limit: int) -> int:
    """Random playouts from seed 0 with GDL terms until ``limit`` states are visited.

    Returns the number of playouts that reached a terminal state (which the random moves
    decide, and so the rules' answers).
    """
    rng = random.Random(0)
    states = ended = 0
    while states < limit:
        s = machine.initial_state()
        while states < limit:
            states += 1
            if machine.is_terminal(s):
                ended += 1
                break
            s = machine.next_state(s, [rng.choice(moves) for moves in machine.legal_all(s)])
    return ended


def build_and_play(desc: Any, limit: int) -> int:
    """:func:`topdown_states` on a top-down prover built for the purpose."""
    from plies.gdl import TopDown

    return topdown_states(TopDown(desc), limit)


def measure(repeat: int) -> dict[str, Any]:
    """Time every workload with the plies on ``sys.path`` (the child's side)."""
    import plies
    from plies.gdl import Reasoner, TopDown, load
    from plies.gdl.validator import check

    desc = {name: load(DATA / f"{name}.kif") for name in VALIDATE}
    out: dict[str, Any] = {"plies": plies.__file__, "workloads": {}}

    def time_it(name: str, run: Callable[[], Any], calls: int) -> None:
        result = run()  # warm-up, and what the workload computes
        seconds = [cpu_timed(run)[0] / calls for _ in range(repeat)]
        out["workloads"][name] = {"seconds": seconds, "result": result}

    def build(make: Any, d: Any, calls: int) -> Callable[[], Any]:
        def run() -> Any:
            for _ in range(calls):
                machine = make(d)
            return getattr(getattr(machine, "stats", None), "ground_rules", None)
        return run

    for name, calls in PROPNET_BUILD:
        time_it(f"propnet build {name}", build(Reasoner, desc[name], calls), calls)
    for name, playouts in PROPNET_PLAYOUTS:
        time_it(f"propnet {playouts} playouts {name}",
                partial(propnet_playouts, Reasoner(desc[name]), playouts), 1)
    for name, calls in TOPDOWN_BUILD:
        time_it(f"topdown build {name}", build(TopDown, desc[name], calls), calls)
    for name, limit in TOPDOWN_STATES:
        time_it(f"topdown {limit} states {name}",
                partial(topdown_states, TopDown(desc[name]), limit), 1)

    def validate_all() -> int:
        found = 0
        for _ in range(VALIDATE_TIMES):
            found = sum(len(check(d)) for d in desc.values())
        return found

    time_it(f"validate {len(VALIDATE)} games", validate_all, VALIDATE_TIMES)
    return out


def opcodes() -> dict[str, int]:
    """Bytecode instructions executed by each (smaller) workload, warm."""
    from plies.gdl import Reasoner, TopDown, load
    from plies.gdl.validator import check

    desc = {name: load(DATA / f"{name}.kif") for name in VALIDATE}
    ttt = Reasoner(desc["ticTacToe"])
    runs: dict[str, Callable[[], Any]] = {}
    for name in ("ticTacToe", "connectFour", "pentago"):
        runs[f"propnet build {name}"] = partial(Reasoner, desc[name])
    runs["propnet 200 playouts ticTacToe"] = partial(propnet_playouts, ttt, 200)
    for name in ("connectFour", "pentago"):
        runs[f"topdown build {name}"] = partial(TopDown, desc[name])
    for name in ("ticTacToe", "connectFour", "breakthrough"):
        runs[f"topdown build + 300 states {name}"] = partial(build_and_play, desc[name], 300)
    for name, limit in (("large/chess", 50), ("large/amazons", 5)):
        runs[f"topdown {limit} states {name}"] = partial(
            topdown_states, TopDown(desc[name]), limit
        )

    def validate() -> int:
        return sum(len(check(d)) for d in desc.values())

    runs[f"validate {len(VALIDATE)} games"] = validate
    return count_opcodes(runs)


def main(argv: list[str] | None = None) -> int:
    return compare(__file__, __doc__, measure, opcodes, report, argv,
                   env={"PYTHONHASHSEED": "0"})


def report(
    runs: dict[str, list[dict[str, Any]]], args: argparse.Namespace,
    load: list[tuple[float, float, float]], wall: float,
) -> None:
    print(f"plies before: {runs['before'][0]['plies']}; after: {runs['after'][0]['plies']}")
    print(f"{args.rounds} rounds x {args.repeat} timed runs per process, CPU time per call; "
          f"load average {load[0][0]:.2f} at the start, {load[1][0]:.2f} at the end; "
          f"{wall:.0f} s")
    print()
    print("| workload | computed | before ms: best (median) | after ms: best (median) "
          "| after / before (best) |")
    print("|---|---:|---:|---:|---:|")
    for name in runs["before"][0]["workloads"]:
        cells, best = [], {}
        results = {run["workloads"][name]["result"] for side in runs for run in runs[side]}
        for side in ("before", "after"):
            times = [t for run in runs[side] for t in run["workloads"][name]["seconds"]]
            best[side] = min(times)
            cells.append(f"{best[side] * 1000:.2f} ({statistics.median(times) * 1000:.2f})")
        if len(results) > 1:
            computed = f"DIFFER: {sorted(results, key=str)}"
        else:
            value = results.pop()
            computed = "" if value is None else f"{value:,}"
        print(f"| {name} | {computed} | {cells[0]} | {cells[1]} "
              f"| {best['after'] / best['before']:.3f} |")


if __name__ == "__main__":
    raise SystemExit(main())
