"""Wall time of plies.search.parallel.parallel_alphabeta against serial plies.alphabeta.

Connect Four positions (the empty board and positions from Pons' benchmark sets,
``tests/data/connect4``), each searched to a fixed depth by plain alpha-beta and by
alpha-beta with the engine craft (transposition table, move ordering, PVS); serial and
with ``--workers`` processes, alternating which goes first, the median of ``--repeat``
timed runs after one untimed run that checks that both return the same value and action.
``--designs`` adds a table that compares parallel designs on the empty board: plain root splitting
(every root move in its own process, full window), YBWC at the root only
(``split_plies=0``) and PV splitting (the default).

Run from the repository root (it needs only plies itself)::

    .venv/bin/python benchmarks/parallel_speedup.py            # about 10 min here
    .venv/bin/python benchmarks/parallel_speedup.py --quick    # smaller depths, 1 run
    .venv/bin/python benchmarks/parallel_speedup.py --designs --repeat 3

"CPU" is the processor time of this process and its worker processes together, so on a
machine shared with other work it shows the work done while the wall time shows the
wait.  Not part of ``make test``: a timed assertion is a flaky test.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from report import machine, plies_source

import plies
from plies import Limit, SearchResult
from plies.games.connect4 import Connect4
from plies.search.parallel import parallel_alphabeta

# The full benchmark sets are part of the repository (tests/data/README.md).
DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "connect4"
CRAFT = {"tt": True, "ordering": True, "pvs": True}
ENGINES: dict[str, dict[str, Any]] = {"plain": {}, "craft": CRAFT}


@dataclass
class Case:
    """One position, engine and depth, run serially and in parallel."""

    label: str
    moves: str
    engine: str
    depth: int
    runs: dict[str, list[tuple[float, float]]] = field(default_factory=dict)  # wall, CPU
    nodes: dict[str, int] = field(default_factory=dict)
    same: bool = True


def positions(count: int) -> list[tuple[str, str]]:
    """The empty board, then the first ``count`` positions of Test_L2_R1 and Test_L1_R2."""
    chosen = [("empty board", "")]
    for name in ("Test_L2_R1", "Test_L1_R2"):
        with open(DATA / name) as f:
            for _ in range(count):
                moves = next(f).split()[0]
                chosen.append((f"{name} {moves}", moves))
    return chosen


def cpu_seconds() -> float:
    """Processor time of this process and of its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(search: Callable[[], SearchResult]) -> tuple[SearchResult, float, float]:
    """Run ``search`` with the garbage collector paused: (result, wall s, CPU s)."""
    gc.collect()
    gc.disable()
    cpu, wall = cpu_seconds(), time.perf_counter()
    try:
        result = search()
    finally:
        wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
        gc.enable()
    return result, wall, cpu


def root_split(
    game: Connect4, state: Any, limit: Limit, workers: int, options: dict[str, Any]
) -> SearchResult:
    """Plain root splitting: every root move searched with a full window in its own task.

    The best move is the first best in ``actions()`` order, as alpha-beta picks it.
    """
    player = game.to_move(state)
    child_limit = Limit(depth=limit.depth - 1 if limit.depth else None)
    actions = game.actions(state)
    start = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        futures = [
            pool.submit(
                plies.alphabeta, game, game.result(state, a), child_limit, player=player,
                **options,
            )
            for a in actions
        ]
        results = [f.result() for f in futures]
    best = max(r.value for r in results)
    i = next(i for i, r in enumerate(results) if r.value == best)
    stats = plies.SearchStats(nodes=1 + sum(r.stats.nodes for r in results))
    stats.elapsed = time.perf_counter() - start
    return SearchResult(best, actions[i], (actions[i], *results[i].pv), stats, player)


def run_cases(
    cases: list[Case], searches: dict[str, Callable[[Case], SearchResult]], repeat: int,
    log: Callable[[str], None],
) -> None:
    """One untimed run of every search per case (compared with the first), then timed ones."""
    for case in cases:
        expected: SearchResult | None = None
        for name, search in searches.items():
            result, wall, _ = timed(lambda s=search, c=case: s(c))  # type: ignore[misc]
            case.nodes[name] = result.stats.nodes
            if expected is None:
                expected = result
            elif (result.value, result.action) != (expected.value, expected.action):
                case.same = False
            log(f"  warm-up {case.label} {case.engine} d{case.depth} {name}: {wall:.2f} s")
        names = list(searches)
        for round_ in range(repeat):
            order = names if round_ % 2 == 0 else names[::-1]  # a slow moment hits both
            for name in order:
                _, wall, cpu = timed(lambda n=name, c=case: searches[n](c))  # type: ignore[misc]
                case.runs.setdefault(name, []).append((wall, cpu))
        medians = ", ".join(f"{n} {median(case, n):.2f} s" for n in names)
        log(f"  {case.label} {case.engine} d{case.depth}: {medians}")


def median(case: Case, name: str, index: int = 0) -> float:
    return statistics.median(run[index] for run in case.runs[name])


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def speedup_table(cases: list[Case], workers: int) -> str:
    lines = [
        f"| position | engine | depth | serial | {workers} workers | speed-up | "
        f"serial nodes | parallel nodes | nodes ratio | CPU serial | CPU parallel | same |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for c in cases:
        serial, par = median(c, "serial"), median(c, "parallel")
        lines.append(
            f"| {c.label} | {c.engine} | {c.depth} | {serial:.2f} s | {par:.2f} s | "
            f"**{serial / par:.2f}** | {c.nodes['serial']:,} | {c.nodes['parallel']:,} | "
            f"{c.nodes['parallel'] / c.nodes['serial']:.2f} | {median(c, 'serial', 1):.2f} s | "
            f"{median(c, 'parallel', 1):.2f} s | {'yes' if c.same else '**NO**'} |"
        )
    return "\n".join(lines)


def designs_table(cases: list[Case]) -> str:
    names = [n for n in cases[0].runs if n != "serial"]
    lines = [
        "| engine | depth | design | wall | x serial | nodes | nodes / serial | CPU | same |",
        "|---|---:|---|---:|---:|---:|---:|---:|---|",
    ]
    for c in cases:
        serial = median(c, "serial")
        lines.append(
            f"| {c.engine} | {c.depth} | serial alpha-beta | {serial:.2f} s | 1.00 | "
            f"{c.nodes['serial']:,} | 1.00 | {median(c, 'serial', 1):.2f} s | |"
        )
        for n in names:
            wall = median(c, n)
            lines.append(
                f"| {c.engine} | {c.depth} | {n} | {wall:.2f} s | **{serial / wall:.2f}** | "
                f"{c.nodes[n]:,} | {c.nodes[n] / c.nodes['serial']:.2f} | "
                f"{median(c, n, 1):.2f} s | {'yes' if c.same else '**NO**'} |"
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per search")
    parser.add_argument("--plain-depth", type=int, default=9)
    parser.add_argument("--craft-depth", type=int, default=10)
    parser.add_argument("--positions", type=int, default=2, help="from each benchmark set")
    parser.add_argument("--designs", action="store_true", help="also compare designs")
    parser.add_argument("--quick", action="store_true", help="depths 7/8, 1 run, 1 position")
    parser.add_argument("--out", type=Path, help="also write the Markdown report here")
    args = parser.parse_args(argv)
    if args.quick:
        args.repeat, args.plain_depth, args.craft_depth, args.positions = 1, 7, 8, 1

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    def search(workers: int, **split: Any) -> Callable[[Case], SearchResult]:
        def run(case: Case) -> SearchResult:
            game = Connect4()
            state = game.moves_from_string(case.moves)
            limit, options = Limit(depth=case.depth), ENGINES[case.engine]
            if workers == 1:
                return plies.alphabeta(game, state, limit, **options)
            if split.get("root_split"):
                return root_split(game, state, limit, workers, options)
            return parallel_alphabeta(game, state, limit, workers=workers, **split, **options)

        return run

    depth = {"plain": args.plain_depth, "craft": args.craft_depth}
    before, started = load_average(), datetime.now(UTC)
    cases = [
        Case(label, moves, engine, depth[engine])
        for label, moves in positions(args.positions)
        for engine in ENGINES
    ]
    log(f"speed-up: {len(cases)} cases, {args.repeat} timed runs each")
    run_cases(
        cases, {"serial": search(1), "parallel": search(args.workers)}, args.repeat, log
    )
    design_cases: list[Case] = []
    if args.designs:
        design_cases = [Case("empty board", "", e, depth[e]) for e in ENGINES]
        log("designs: the empty board")
        run_cases(
            design_cases,
            {
                "serial": search(1),
                "root splitting, full window": search(args.workers, root_split=True),
                "YBWC at the root (split_plies=0)": search(args.workers, split_plies=0),
                "PV splitting (split_plies=4)": search(args.workers, split_plies=4),
            },
            args.repeat,
            log,
        )
    info = machine()
    report = [
        "# Parallel alpha-beta: speed-up on Connect Four",
        "",
        f"- machine: {info['cpu']}, {info['cores']} cores ({info['usable_cores']} usable), "
        f"{info['memory']}, {info['os']}, {info['python']}",
        f"- load average (1, 5, 15 min) before: {before}; after: {load_average()}",
        f"- date: {started:%Y-%m-%d %H:%M} UTC; plies {plies_source()}",
        f"- command: `{' '.join([Path(sys.executable).name, *sys.argv])}`",
        f"- median of {args.repeat} timed runs after an untimed one; serial and parallel "
        "alternate which runs first; `craft` = `tt=True, ordering=True, pvs=True`",
        "",
        speedup_table(cases, args.workers),
    ]
    if design_cases:
        report += ["", "## Designs, on the empty board", "", designs_table(design_cases)]
    text = "\n".join(report) + "\n"
    print(text)
    if args.out is not None:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
