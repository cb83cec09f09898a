#!/usr/bin/env python3
"""plies beside easyAI, aima3, OpenSpiel and a bare hand-written loop, in one run.

    make bench                                   # sets up benchmarks/.venv, then this
    benchmarks/.venv/bin/python benchmarks/run.py [--repeat N] [--quick] [--only W1,W3,NPS]

Every search runs once untimed (warm-up, node count, value check), then ``--repeat`` timed
times, the libraries taking turns (a different one first in each round) so that a slow
patch of the shared machine hits all of them.  Reported: the median time, nodes (root
included), nodes per second and the median time divided by the bare loop's median on the
same task in the same run.  The garbage collector is paused while a search is timed, as
``timeit`` does.  Results go to ``benchmarks/results/latest.{json,md}`` (``quick.*`` with
``--quick``).  See ``benchmarks/README.md`` for what each workload measures; NPS (nodes per
second of plies' alpha-beta per engine switch) is ``engine_nps.py``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shlex
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # the sibling modules, also when imported from elsewhere
    sys.path.insert(0, str(HERE))

import engine  # noqa: E402
import engine_nps  # noqa: E402
from adapter_openspiel import make_openspiel  # noqa: E402
from adapters import MAKERS, Search, Unavailable  # noqa: E402
from report import (  # noqa: E402
    BASELINE,
    Row,
    Task,
    console_table,
    machine,
    markdown,
    plies_source,
    versions,
)
from rich.console import Console  # noqa: E402
from rich.progress import (  # noqa: E402
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from timing import timed  # noqa: E402
from workloads import TREE_NODES  # noqa: E402

import plies  # noqa: E402

LIBRARIES: dict[str, Callable[[str, str, int | None], Search]] = {
    **MAKERS,
    "OpenSpiel": make_openspiel,
}
DATA = HERE.parent / "tests" / "data" / "connect4"


TASKS = (
    Task("W1", "Tic-tac-toe, full minimax", "tictactoe", "minimax", None, 549_946),
    Task("W1", "Tic-tac-toe, alpha-beta", "tictactoe", "alphabeta", None),
    Task("W2", "Connect Four, alpha-beta to depth 6", "connect4", "alphabeta", 6),
    Task("W2", "Connect Four, alpha-beta to depth 8", "connect4", "alphabeta", 8),
    Task("W3", "Synthetic tree b=8 d=6, full minimax", "tree", "minimax", None, TREE_NODES),
    Task("W3", "Synthetic tree b=8 d=6, alpha-beta", "tree", "alphabeta", None),
)


# --- running ---------------------------------------------------------------------------------


def prepare(task: Task, libraries: Sequence[str]) -> tuple[list[Row], dict[str, Search]]:
    rows, searches = [], {}
    for name in libraries:
        row = Row(name)
        rows.append(row)
        try:
            searches[name] = LIBRARIES[name](task.game, task.algorithm, task.depth)
            row.note = searches[name].note
        except Unavailable as exc:
            row.status, row.reason = "not available", str(exc)
    return rows, searches


def run_task(
    task: Task,
    rows: list[Row],
    searches: dict[str, Search],
    repeat: int,
    tick: Callable[[str], None],
) -> None:
    by_name = {row.library: row for row in rows}
    for name, search in searches.items():
        row = by_name[name]
        try:
            _, out = timed(search.run)
            row.value, row.action = out.value, out.action
            row.nodes = search.count() if search.count is not None else out.nodes
        except Exception as exc:  # a library failing must not stop the others
            row.status, row.reason = "error", f"{type(exc).__name__}: {exc}"
        tick(f"{task.workload} {task.title}: {name} (warm-up)")
    live = [name for name in searches if by_name[name].status == "ok"]
    for i in range(repeat):
        shift = i % len(live) if live else 0
        for name in live[shift:] + live[:shift]:
            elapsed, _ = timed(searches[name].run)
            by_name[name].times.append(elapsed)
            tick(f"{task.workload} {task.title}: {name} ({i + 1}/{repeat})")
    base = by_name.get(BASELINE)
    for row in rows:
        if base is not None and base.median and row.median:
            row.ratio = row.median / base.median
        if base is not None and base.status == "ok" and row.status == "ok":
            row.differs = [
                what
                for what, mine, theirs in (
                    ("nodes", row.nodes, base.nodes),
                    ("value", row.value, base.value),
                    ("move", row.action, base.action),
                )
                if mine is not None and mine != theirs
            ]


# --- W4 and W5 -------------------------------------------------------------------------------


def run_engine(
    args: argparse.Namespace,
    results: list[tuple[Task, list[Row]]],
    progress: Progress,
    console: Console,
) -> tuple[dict[str, Any], dict[str, Any]]:
    wanted = {w.strip().upper() for w in args.only.split(",") if w.strip()} or {"W4", "W5"}
    if not wanted & {"W4", "W5"}:
        off = {"status": "not run", "reason": "not selected with --only"}
        return off, off
    missing = (
        "plies has no built-in 'connect4' game yet "
        f"(plies.games.names(): {', '.join(plies.games.names())})"
    )
    if not engine.connect4_available():
        console.print(f"W4 and W5 not run: {missing}.")
        off = {"status": "not run", "reason": missing}
        return off, off
    depth8 = next(
        (rows for task, rows in results if task.game == "connect4" and task.depth == 8), []
    )
    base = next((r for r in depth8 if r.library == BASELINE and r.median), None)
    w4: dict[str, Any] = {"status": "not run", "reason": "not selected with --only"}
    if "W4" in wanted:
        task_id = progress.add_task("W4", total=len(engine.W4_DEPTHS) * (1 + args.repeat))
        runs = engine.w4(args.repeat, args.w4_budget, _ticker(progress, task_id))
        progress.update(task_id, completed=len(engine.W4_DEPTHS) * (1 + args.repeat))
        w4 = {
            "status": "ok",
            "options": engine.engine_options(),
            "budget_s": args.w4_budget,
            "runs": [
                {
                    "depth": r.depth,
                    "reached": r.reached,
                    "reason": r.reason,
                    "nodes": r.nodes,
                    "times_s": r.times,
                    "median_s": r.median,
                    "nodes_per_s": r.nodes / r.median if r.median else None,
                    "ratio_to_bare": r.median / base.median
                    if r.median and base and base.median
                    else None,
                    "value": r.value,
                    "action": r.action,
                }
                for r in runs
            ],
            "plain_depth8": [
                {
                    k: row.as_dict()[k]
                    for k in ("library", "nodes", "median_s", "nodes_per_s", "ratio_to_bare")
                }
                for row in depth8
                if row.status == "ok"
            ],
        }
    w5: dict[str, Any] = {"status": "not run", "reason": "not selected with --only"}
    if "W5" in wanted:
        if not DATA.is_dir():
            w5 = {"status": "not run", "reason": f"no positions at {DATA}"}
        else:
            total = len(engine.W5_FILES) * args.w5_positions
            task_id = progress.add_task("W5", total=total)
            sets = engine.w5(
                DATA,
                args.w5_positions,
                args.repeat,
                args.w5_budget,
                args.w5_cap,
                args.w5_scoring,
                _ticker(progress, task_id),
            )
            progress.update(task_id, completed=total)
            dedicated_id = progress.add_task("W5 dedicated solver", total=None)
            dedicated, opening = engine.w5_dedicated(
                DATA, args.w5_budget, args.w5_positions, _ticker(progress, dedicated_id)
            )
            w5 = {
                "status": "ok",
                "options": engine.engine_options(engine.SOLVE_OPTIONS),
                "scoring": args.w5_scoring,
                "positions": args.w5_positions,
                "repeat": args.repeat,
                "budget_s": args.w5_budget,
                "cap_s": args.w5_cap,
                "sets": [_solve_set(s) for s in sets],
                "dedicated": [_dedicated_set(d) for d in dedicated],
                "opening": opening,
            }
    return w4, w5


def run_nps(
    args: argparse.Namespace, wanted: set[str], progress: Progress
) -> tuple[dict[str, Any], list[engine_nps.Run]]:
    """NPS (``engine_nps.py``), when no ``--only`` is given or it names NPS."""
    if wanted and "NPS" not in wanted:
        return {"status": "not run", "reason": "not selected with --only"}, []
    depths = [int(d) for d in args.nps_depths.split(",")]
    combos = len(engine_nps.COMBOS)
    task_id = progress.add_task("NPS", total=len(depths) * combos * (1 + args.repeat))
    tick = _ticker(progress, task_id)
    runs = engine_nps.measure(depths, args.repeat, args.nps_budget, tick=tick)
    summary = {
        "status": "ok",
        "depths": depths,
        "budget_s": args.nps_budget,
        "runs": [r.as_dict() for r in runs],
    }
    return summary, runs


def _mean(xs: Sequence[float]) -> float | None:
    return statistics.fmean(xs) if xs else None


def _solve_set(s: engine.SolveSet) -> dict[str, Any]:
    plies_ok = [p for p in s.tried if p.plies_time is not None]
    bare_ok = [p for p in s.tried if p.bare_time is not None]
    both = [p for p in plies_ok if p.bare_time is not None]
    ratio = None
    if both:
        # over the positions both solved: either solver's failures would flatter the other
        ratio = statistics.fmean(p.plies_time or 0.0 for p in both) / statistics.fmean(
            p.bare_time or 0.0 for p in both
        )
    return {
        "name": s.name,
        "positions": s.positions,
        "tried": len(s.tried),
        "plies_solved": len(plies_ok),
        "bare_solved": len(bare_ok),
        "both_solved": len(both),
        "plies_mean_s": _mean([p.plies_time or 0.0 for p in plies_ok]),
        "plies_mean_nodes": _mean([p.plies_nodes or 0 for p in plies_ok]),
        "bare_mean_s": _mean([p.bare_time or 0.0 for p in bare_ok]),
        "bare_mean_nodes": _mean([p.bare_nodes or 0 for p in bare_ok]),
        "ratio_to_bare": ratio,
        "published": engine.PUBLISHED[s.name],
        "wrong": s.wrong,
        "stopped": s.stopped,
        "per_position": [
            {
                "moves": p.moves,
                "score": p.score,
                "plies_value": p.plies_value,
                "plies_s": p.plies_time,
                "plies_nodes": p.plies_nodes,
                "bare_s": p.bare_time,
                "bare_nodes": p.bare_nodes,
            }
            for p in s.tried
        ],
    }


def _dedicated_set(d: engine.DedicatedSet) -> dict[str, Any]:
    published = engine.PUBLISHED_ALL.get(d.name, (None, None))
    return {
        "name": d.name,
        "backend": d.backend,
        "solved": d.solved,
        "mean_s": _mean(d.times),
        "mean_nodes": _mean(d.nodes),
        "nodes_per_s": sum(d.nodes) / sum(d.times) if d.times else None,
        "published": published,
        "wrong": d.wrong,
        "stopped": d.stopped,
    }


def _ticker(progress: Progress, task_id: Any) -> Callable[[str], None]:
    def tick(what: str) -> None:
        progress.update(task_id, advance=1, description=what)

    return tick


def command(argv: Sequence[str] | None) -> str:
    """The command line of this run, paths relative to the repository."""
    repo = HERE.parent

    def rel(path: str) -> str:
        p = Path(path).absolute()
        return str(p.relative_to(repo)) if p.is_relative_to(repo) else path

    args = sys.argv[1:] if argv is None else list(argv)
    words = [rel(sys.executable), rel(str(HERE / "run.py")), *args]
    return " ".join(shlex.quote(w) for w in words)


# --- main ------------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--repeat", type=int, default=5, help="timed runs per search (default 5)")
    p.add_argument(
        "--quick",
        action="store_true",
        help="smoke run: 1 timed run, few W5 positions, results/quick.*",
    )
    p.add_argument("--only", default="", help="comma-separated workloads, e.g. W1,W3")
    p.add_argument(
        "--libraries", default="", help=f"comma-separated subset of: {', '.join(LIBRARIES)}"
    )
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        help="output path without suffix (default results/latest or results/quick)",
    )
    p.add_argument(
        "--w4-budget",
        type=float,
        default=120.0,
        help="seconds plies may take to reach one W4 depth (default 120)",
    )
    p.add_argument(
        "--nps-depths", default="8,10,12", help="NPS: Connect Four depths (default 8,10,12)"
    )
    p.add_argument(
        "--nps-budget",
        type=float,
        default=60.0,
        help="NPS: seconds a search may take in its warm-up to be timed (default 60)",
    )
    p.add_argument(
        "--w5-positions", type=int, default=50, help="positions per W5 file (default 50)"
    )
    p.add_argument(
        "--w5-budget",
        type=float,
        default=90.0,
        help="seconds spent on one W5 file before it stops (default 90)",
    )
    p.add_argument(
        "--w5-cap",
        type=float,
        default=5.0,
        help="seconds after which a solver gives a W5 position up (default 5)",
    )
    p.add_argument(
        "--w5-scoring",
        choices=("winloss", "pons"),
        default="winloss",
        help="W5: weak solution (sign checked) or Pons' exact scores (default winloss)",
    )
    args = p.parse_args(argv)
    if args.quick:
        args.repeat = 1
        args.w5_positions = min(args.w5_positions, 5)
        args.w4_budget = min(args.w4_budget, 20.0)
        args.w5_budget = min(args.w5_budget, 20.0)
        args.w5_cap = min(args.w5_cap, 2.0)
        args.nps_depths = "8,10"
        args.nps_budget = min(args.nps_budget, 20.0)
    if args.repeat < 1:
        p.error("--repeat must be at least 1")
    args.out = args.out or HERE / "results" / ("quick" if args.quick else "latest")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    console = Console()
    if not console.is_terminal:
        console = Console(width=120)  # a log file gets whole tables
    if Path(sys.prefix).resolve() != (HERE / ".venv").resolve():
        console.print(
            f"note: running with {sys.executable}, not benchmarks/.venv; libraries missing "
            "here are reported as not available (make bench sets the environment up)"
        )
    libraries = [name.strip() for name in args.libraries.split(",") if name.strip()]
    libraries = libraries or list(LIBRARIES)
    unknown = [name for name in libraries if name not in LIBRARIES]
    if unknown:
        known = ", ".join(LIBRARIES)
        console.print(f"unknown libraries: {', '.join(unknown)}; choose from {known}")
        return 2
    if BASELINE not in libraries:
        libraries.insert(0, BASELINE)
    wanted = {w.strip().upper() for w in args.only.split(",") if w.strip()}
    tasks = [t for t in TASKS if not wanted or t.workload in wanted]

    prepared = [(task, *prepare(task, libraries)) for task in tasks]
    total = sum(len(searches) * (1 + args.repeat) for _, _, searches in prepared)
    results: list[tuple[Task, list[Row]]] = []
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    load_before = os.getloadavg()
    source = plies_source()  # before the run: others may commit while it goes on
    started = time.perf_counter()
    with Progress(*columns, console=console, transient=False) as progress:
        main_task = progress.add_task("W1-W3", total=total)
        tick = _ticker(progress, main_task)
        for task, rows, searches in prepared:
            run_task(task, rows, searches, args.repeat, tick)
            results.append((task, rows))
        progress.update(main_task, description="W1-W3 done", completed=total)
        w4, w5 = run_engine(args, results, progress, console)
        nps, nps_runs = run_nps(args, wanted, progress)

    report: dict[str, Any] = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "command": command(argv),
        "repeat": args.repeat,
        "quick": args.quick,
        "machine": machine(),
        "plies_source": source,
        "versions": versions(),
        "wall_time_s": time.perf_counter() - started,
        "load_average": {"before": load_before, "after": os.getloadavg()},
        "tasks": [
            {
                "workload": task.workload,
                "title": task.title,
                "game": task.game,
                "algorithm": task.algorithm,
                "depth": task.depth,
                "known_nodes": task.known_nodes,
                "baseline": BASELINE,
                "rows": [row.as_dict() for row in rows],
            }
            for task, rows in results
        ],
        "w4": w4,
        "w5": w5,
        "nps": nps,
    }
    for task, rows in results:
        console.print(console_table(task, rows))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    json_path, md_path = args.out.with_suffix(".json"), args.out.with_suffix(".md")
    text = markdown(report, results)
    if nps_runs:
        table = "\n".join(engine_nps.markdown(nps_runs, args.repeat, args.nps_budget))
        text += "\n" + table
        console.print(table)
    json_path.write_text(json.dumps(report, indent=2, default=str) + "\n")
    md_path.write_text(text)
    console.print(f"wrote {json_path} and {md_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
