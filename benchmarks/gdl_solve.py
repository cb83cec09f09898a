"""Solving misère Nim in GDL exactly: what ``plies solve FILE.kif`` runs, timed.

The game is the GGP repository's ``nim4.kif`` (heaps 12, 12, 20, 20; the player who
takes the last object loses), and the same rules with smaller heaps (its ``init`` facts
changed).  For each instance two requests go through the policy layer, as the command
line sends them:

- ``solve``: ``plies solve FILE.kif`` (an exact request, ``algorithm=auto``);
- ``solve --engine``: alpha-beta with the transposition table, move ordering, PVS and
  bisection (MTD-bi).

Each run has a cap (``--cap`` seconds of wall time, a stop signal); a run that hits it is
reported as not finished, with the nodes it had searched.  Times are processor seconds of
this process (the machine is shared) and wall seconds.  ``table`` is the number of
entries in the transposition table, or of states in the memo solver's table.  Before the
table, each instance's reachable states are counted by enumeration (nim4: 149,042).

Run from the repository root (``--src`` measures another checkout's sources, e.g. the
code before the fix)::

    PYTHONPATH=src .venv/bin/python benchmarks/gdl_solve.py
    PYTHONPATH=/tmp/before/src .venv/bin/python benchmarks/gdl_solve.py --cap 300
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path
from typing import Any

import plies
from plies.gdl import load_game
from plies.policy import Deadline, SearchRequest, plan
from plies.search.craft import TranspositionTable

NIM4 = Path(__file__).resolve().parents[1] / "tests" / "data" / "gdl" / "nim" / "nim4.kif"
INSTANCES = ((6, 6, 10, 10), (8, 8, 12, 12), (12, 12, 20, 20))


def misere_nim(heaps: tuple[int, ...]) -> Any:
    """nim4.kif with its heaps a, b, c, d set to ``heaps``."""
    text = NIM4.read_text()
    for name, size in zip("abcd", heaps, strict=True):
        text = re.sub(rf"\(init \(heap {name} \d+\)\)", f"(init (heap {name} {size}))", text)
    return load_game(text, name="nim " + ",".join(map(str, heaps)))


def reachable(game: Any) -> int:
    """The number of states reachable from the start (heaps and whose turn it is)."""
    start = game.initial_state()
    seen, todo = {start}, [start]
    while todo:
        state = todo.pop()
        if not game.is_terminal(state):
            for action in game.actions(state):
                child = game.result(state, action)
                if child not in seen:
                    seen.add(child)
                    todo.append(child)
    return len(seen)


def run(heaps: tuple[int, ...], engine: bool, cap: float) -> dict[str, Any]:
    game = misere_nim(heaps)
    state = game.initial_state()
    chosen = plan(game, state, SearchRequest(engine=engine))
    table = TranspositionTable() if engine else None
    cpu, wall = time.process_time(), time.perf_counter()
    row: dict[str, Any] = {"heaps": ",".join(map(str, heaps)), "request": chosen.name}
    row["request"] = "solve --engine" if engine else "solve"
    row["runs"] = chosen.name
    try:
        result = chosen.run(game, state, stop=Deadline(cap), table=table)
        finished = not result.stopped
        row.update(value=result.value, action=game.format_action(state, result.action),
                   nodes=result.stats.nodes)
    except plies.errors.SearchLimitError:  # the memo solver stopped by the cap
        finished = False
        row.update(value=None, action=None, nodes=getattr(chosen.solver, "nodes", 0))
    row.update(cpu=time.process_time() - cpu, wall=time.perf_counter() - wall,
               finished=finished)
    solver = chosen.solver
    row["table"] = len(table) if table is not None else (
        len(solver) if solver is not None and hasattr(solver, "__len__") else 0
    )
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cap", type=float, default=300.0, help="seconds per run")
    parser.add_argument("--heaps", nargs="*", default=None,
                        help="instances such as 6,6,10,10 (default: three sizes)")
    parser.add_argument("--no-count", action="store_true",
                        help="do not enumerate the reachable states")
    args = parser.parse_args()
    instances = INSTANCES if not args.heaps else tuple(
        tuple(int(h) for h in text.split(",")) for text in args.heaps
    )
    if not args.no_count:
        counts = [f"{','.join(map(str, h))}: {reachable(misere_nim(h)):,}" for h in instances]
        print(f"Reachable states (enumerated): {'; '.join(counts)}.\n", flush=True)
    print("| heaps | request | runs | value | best move | nodes | table | CPU s | wall s |")
    print("|---|---|---|---:|---|---:|---:|---:|---:|")
    for heaps in instances:
        for engine in (False, True):
            r = run(heaps, engine, args.cap)
            value = f"{r['value']:g}" if r["finished"] else f"not solved in {args.cap:g} s"
            print(f"| {r['heaps']} | `{r['request']}` | {r['runs']} | {value} | "
                  f"{r['action'] if r['finished'] else '-'} | {r['nodes']:,} | {r['table']:,} | "
                  f"{r['cpu']:.1f} | {r['wall']:.1f} |", flush=True)


if __name__ == "__main__":
    main()
