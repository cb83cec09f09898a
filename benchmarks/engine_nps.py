#!/usr/bin/env python3
"""NPS: nodes per second of plies' alpha-beta per engine switch, on its own Connect Four.

    benchmarks/.venv/bin/python benchmarks/engine_nps.py [--depths 8,10,12] [--repeat 3]
        [--budget 60] [--json out.json]
    make bench            # run.py runs it too (--only NPS for this part alone)

Each switch combination of :data:`COMBOS` (``none`` is plain alpha-beta, the engine core
with every switch off) searches the empty board to each depth of ``--depths``, with the
``"winloss"`` scoring of W4.  Every search runs once untimed (the warm-up: nodes, value,
move).  A search whose warm-up takes longer than ``--budget`` seconds is not timed, nor is
that combination at the deeper depths, and one whose warm-up is predicted to take longer
(its last warm-up times the growth from the one before, or :data:`GROWTH`) is not run.
Then ``--repeat`` rounds time every remaining search, the combinations taking turns (a
different one first in each round), so that a slow patch of the shared machine hits all
of them; the garbage collector is paused while a search is timed.  Reported: nodes, the
median wall time, nodes per second, and ``plain / this``: the plain search's nodes per
second over this one's, in this run (the cost of a node with these switches, relative to
a plain node).  At a depth where the plain search was over budget the ratio uses its nodes
per second at the deepest depth it ran (marked ``*``).  The value and the move must be
those of the plain search.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from timing import timed

import plies

COMBOS: dict[str, dict[str, Any]] = {
    "none": {},
    "tt": {"tt": True},
    "ordering": {"ordering": True},
    "pvs": {"pvs": True},
    "tt+ordering": {"tt": True, "ordering": True},
    "tt+ordering+pvs": {"tt": True, "ordering": True, "pvs": True},
}
"""The switch combinations measured, by name."""
DEPTHS = (8, 10, 12)
GROWTH = 15.0
"""Assumed time growth from one measured depth to the next when only one is known."""

Tick = Callable[[str], None]


@dataclass
class Run:
    """One combination at one depth."""

    combo: str
    depth: int
    status: str = "ok"  # or "over budget", "skipped"
    predicted_s: float | None = None  # the warm-up time predicted, when not run
    nodes: int = 0
    value: float | None = None
    action: Any = None
    warmup_s: float = 0.0
    times: list[float] = field(default_factory=list)
    ratio: float | None = None  # plain nodes/s over this one's
    ratio_from_depth: int | None = None  # the plain search's depth the ratio uses

    @property
    def median(self) -> float | None:
        return statistics.median(self.times) if self.times else None

    @property
    def nps(self) -> float | None:
        median = self.median
        return self.nodes / median if median else None

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "median_s": self.median, "nodes_per_s": self.nps}


def _search(game: Any, depth: int, options: dict[str, Any]) -> Callable[[], Any]:
    def run() -> Any:
        return plies.alphabeta(game, game.initial_state(), plies.Limit(depth=depth), **options)

    return run


def measure(
    depths: Sequence[int] = DEPTHS,
    repeat: int = 3,
    budget: float = 60.0,
    combos: Sequence[str] = tuple(COMBOS),
    tick: Tick = lambda what: None,
) -> list[Run]:
    """Every combination at every depth (see the module doc); ``tick`` after each search."""
    game = plies.games.load("connect4", scoring="winloss")
    runs: list[Run] = []
    over: set[str] = set()
    warmups: dict[str, list[float]] = {name: [] for name in combos}
    for depth in depths:
        here: list[Run] = []
        for name in combos:
            run = Run(name, depth)
            runs.append(run)
            seen = warmups[name]
            if seen and name not in over:
                growth = seen[-1] / seen[-2] if len(seen) > 1 and seen[-2] > 0 else GROWTH
                if seen[-1] * max(growth, 1.0) > budget:
                    run.predicted_s = seen[-1] * growth
                    over.add(name)
            if name in over:
                run.status = "skipped" if run.predicted_s is None else "over budget"
                tick(f"NPS depth {depth} {name}: {run.status}")
                continue
            elapsed, r = timed(_search(game, depth, COMBOS[name]))
            run.nodes, run.value, run.action, run.warmup_s = (
                r.stats.nodes, r.value, r.action, elapsed
            )
            seen.append(elapsed)
            if elapsed > budget:
                run.status = "over budget"
                over.add(name)
            else:
                here.append(run)
            tick(f"NPS depth {depth} {name} (warm-up)")
        for i in range(repeat):
            shift = i % len(here) if here else 0
            for run in here[shift:] + here[:shift]:
                elapsed, _ = timed(_search(game, depth, COMBOS[run.combo]))
                run.times.append(elapsed)
                tick(f"NPS depth {depth} {run.combo} ({i + 1}/{repeat})")
    _ratios(runs)
    return runs


def _ratios(runs: list[Run]) -> None:
    plain = {r.depth: r for r in runs if r.combo == "none" and r.nps}
    for run in runs:
        nps = run.nps
        if nps is None or not plain:
            continue
        base_depth = run.depth if run.depth in plain else max(
            (d for d in plain if d <= run.depth), default=max(plain)
        )
        base = plain[base_depth]
        run.ratio = (base.nps or 0.0) / nps
        run.ratio_from_depth = base_depth
        if base_depth == run.depth and (run.value, run.action) != (base.value, base.action):
            run.status = f"differs from plain: {run.value}, {run.action}"


def markdown(runs: Sequence[Run], repeat: int, budget: float) -> list[str]:
    """The NPS table as markdown lines."""
    lines = [
        "## NPS: plies alpha-beta nodes per second per engine switch (Connect Four)",
        "",
        "`plies.alphabeta(connect4, Limit(depth=d), **switches)` from the empty board "
        f"(scoring winloss); median of {repeat} timed runs, the combinations taking turns; "
        f"a search over {budget:g} s in its warm-up is not timed. `plain / this` is the "
        "plain search's nodes/s over this one's in this run (`*`: the plain search at the "
        "depth named, the deepest it ran).",
        "",
        "| switches | depth | nodes | median time | nodes/s | plain / this |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in runs:
        if r.status in ("over budget", "skipped"):
            what = r.status
            if r.predicted_s is not None:
                what += f" (predicted {r.predicted_s:.0f} s)"
            elif r.status == "over budget":
                what += f" ({r.warmup_s:.0f} s)"
            lines.append(f"| {r.combo} | {r.depth} | {r.nodes or '-'} | {what} | - | - |")
            continue
        ratio = "-" if r.ratio is None else f"{r.ratio:.2f}"
        if r.ratio is not None and r.ratio_from_depth != r.depth:
            ratio += f" (* depth {r.ratio_from_depth})"
        median = r.median or 0.0
        lines.append(
            f"| {r.combo} | {r.depth} | {r.nodes:,} | {median:.3f} s | "
            f"{(r.nps or 0):,.0f} | {ratio} |"
        )
        if r.status != "ok":
            lines.append(f"| ^ {r.status} | | | | | |")
    return [*lines, ""]


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--depths", default=",".join(map(str, DEPTHS)))
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--budget", type=float, default=60.0, help="seconds per warm-up search")
    p.add_argument("--combos", default=",".join(COMBOS), help="comma-separated names")
    p.add_argument("--json", default=None, help="also write the runs to this JSON file")
    args = p.parse_args(argv)
    depths = [int(d) for d in args.depths.split(",")]
    combos = [c.strip() for c in args.combos.split(",") if c.strip()]
    unknown = [c for c in combos if c not in COMBOS]
    if unknown:
        p.error(f"unknown combinations {unknown}; choose from {', '.join(COMBOS)}")

    def tick(what: str) -> None:
        print(what, file=sys.stderr, flush=True)

    runs = measure(depths, args.repeat, args.budget, combos, tick)
    print("\n".join(markdown(runs, args.repeat, args.budget)))
    if args.json:
        with open(args.json, "w") as out:
            json.dump([r.as_dict() for r in runs], out, indent=2, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())
