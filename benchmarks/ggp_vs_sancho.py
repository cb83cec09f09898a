#!/usr/bin/env python3
"""plies against Sancho (2014 International GGP Competition winner), judged by ggp-base.

    PYTHONPATH=src python benchmarks/ggp_vs_sancho.py [--plan prove|table]
        [--games connectFour,pentago] [--clocks 20/3,10/2] [--roles first|all]
        [--out FILE.json] [--budget SECONDS] [--keep-logs DIR]
    python benchmarks/ggp_vs_sancho.py --report FILE.json

The match runner is ``benchmarks/ggp_vs_reference.py`` with ``--opponent sancho``: fresh
processes on 127.0.0.1 for every match, ``plies ggp serve --seed N`` in one role, Sancho in
the other, ggp-base's ``GameServer`` the judge (``RefMatch``: a reply after the play clock
plus one second, an illegal one, or a failed connection is logged and replaced by a random
legal move).  This file holds the plans (six games of the GGP repository, both roles,
clocks 20/3 and 10/2) and the report: wins, draws and losses, each side's faulty replies,
and each side's reasoner and speed as its own log gives them.

Sancho is not built here: its source (github SanchoGGP/ggp-base, a fork of ggp-base) is
compiled outside this repository into ``$SANCHO`` (default /work/tools/sancho), which must
hold ``classpath.txt`` (its classes and its jars); ggp-base itself comes from
``benchmarks/ggp_reference/build.sh`` (``$GGP_BASE``, for the judge and ``RefPlayer``).
How Sancho is configured for these matches: ``SANCHO_CONFIG`` in ggp_vs_reference.py.
Under start clocks of 10-20 s Sancho's own source plays blind when its metagaming runs no
sample game (``results/ggp_vs_sancho.md``, "Why Sancho's sampled goals were all equal");
the record's later tables use a build with the two-statement fix described there
(``SANCHO=/work/tools/sancho-fixed``).

Not part of the test suite: it needs Java and takes real minutes per match.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import ggp_vs_reference as ref

ROOT = Path(__file__).resolve().parent.parent

# Shortest first, so that a run cut short by --budget has played the most matches.
# (Not pentago: the repository's rules give a role two goal values when both complete a
# line at once, and ggp-base's server then stops without goals.)
GAMES = ["blocker", "connectFour", "connectFourSimultaneous", "knightThrough",
         "breakthrough", "checkers"]
CLOCKS = ["10/2", "20/3"]
PLANS: dict[str, list[tuple[str, str, str]]] = {
    "prove": [("connectFour", "10/2", "all"), ("pentago", "10/2", "all")],
    "prove-rest": [(game, "10/2", "first") for game in GAMES if game != "connectFour"],
    "table": [(game, clocks, "all") for clocks in CLOCKS for game in GAMES],
}


def faults(rows: Sequence[dict[str, Any]], mine: bool) -> list[int]:
    """late / illegal / error status / failed, in the start and play phases (a STOP
    answered late changes nothing: the goals are already known)."""
    out = [0, 0, 0, 0]
    for row in rows:
        for event in row.get("events", []):
            if event.get("phase") == "stop":
                continue
            if (event.get("role_index") == row.get("plies_role_index")) == mine:
                out[ref.kind_of(event)] += 1
    return out


def rate(value: float | None) -> str:
    return "?" if value is None else f"{value:,.0f}"


def speeds(rows: Sequence[dict[str, Any]], side: str, key: str) -> str:
    values = []
    for row in rows:
        found = row.get(side) or {}
        if isinstance(found, list):
            found = found[0] if found else {}
        values.append(found.get(key))
    known = [v for v in values if v is not None]
    return rate(ref.median(known)) if known else "?"


def sancho_ready(row: dict[str, Any]) -> bool:
    found = (row.get("opponent_speed") or [{}])[0]
    low, high = found.get("goal_range", [0, 0])
    return (found.get("build_s") is not None and low != high and not found.get("blind")
            and faults([row], False) == [0, 0, 0, 0])


def goal_ranges(rows: Sequence[dict[str, Any]]) -> str:
    out = []
    for row in rows:
        found = (row.get("opponent_speed") or [{}])[0]
        pair = found.get("goal_range")
        out.append("-" if pair is None else f"{pair[0]}-{pair[1]}")
    return ", ".join(out)


def built(rows: Sequence[dict[str, Any]]) -> str:
    times = []
    for row in rows:
        found = row.get("opponent_speed") or [{}]
        seconds = found[0].get("build_s")
        times.append("-" if seconds is None else f"{seconds:.1f}")
    return ", ".join(times)


def reparse(rows: list[dict[str, Any]], logs: Path) -> None:
    """Read each side's speed again from the logs kept with ``--keep-logs``."""
    for row in rows:
        work = logs / f"{row['game']}_{row['start']}_{row['play']}_{row['plies_role_index']}"
        if not (work / "plies.log").exists():
            continue
        row["plies_speed"] = ref.plies_speed((work / "plies.log").read_text(errors="replace"))
        row["opponent_speed"] = [ref.sancho_speed(work / f"sancho{r}")
                                 for r in range(len(row.get("roles", [])))
                                 if r != row["plies_role_index"]]


def strategies(rows: Sequence[dict[str, Any]]) -> str:
    """The strategies plies' moves name in its log (``mcts``, ``mixed``, ...), or ``-``."""
    found = [how for row in rows for how in (row.get("plies_speed") or {}).get("strategies", [])]
    return "/".join(dict.fromkeys(found)) or "-"


def reasoners(rows: Sequence[dict[str, Any]], side: str) -> str:
    names = []
    for row in rows:
        found = row.get(side) or {}
        if isinstance(found, list):
            found = found[0] if found else {}
        names.append(found.get("reasoner", "?"))
    return ", ".join(dict.fromkeys(names))


def report(rows: list[dict[str, Any]]) -> str:
    """The Markdown table: one line per game and clocks (plies' roles together), then
    the totals.  Speeds are medians over the line's matches, from metagaming: plies'
    random-playout states per second on the reasoner it chose (a scalar probe), and
    Sancho's simulations per second times its sample games' mean length; and from the
    moves: the median iterations (UCT) or playouts (flat Monte Carlo) of plies' moves,
    with the strategies its log names, and Sancho's median MCTS iterations a turn."""
    groups: dict[tuple[str, int, int], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault((row["game"], row["start"], row["play"]), []).append(row)
    lines = [
        "| game | clocks | plies as | W | D | L | plies' goals | plies: late / illegal /"
        " error status / failed | Sancho: same | plies' max reply (s) | plies' reasoner |"
        " plies: playouts/s, states/s (metagaming probe) | plies: iterations a move"
        " (strategy) | Sancho's reasoner (built in s; - never) | Sancho's"
        " sampled goals | Sancho:"
        " playouts/s, states/s | Sancho: MCTS iterations a turn | steps | load |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    total = [0, 0, 0]
    for (game, start, play), group in groups.items():
        wdl = [sum(r.get("result") == k for r in group) for k in ("win", "draw", "loss")]
        total = [a + b for a, b in zip(total, wdl, strict=True)]
        goals = ", ".join(str(r["goals"][r["plies_role_index"]]) if r.get("goals")
                          else str(r.get("result", "?")) for r in group)
        roles = ", ".join(str(r.get("plies_role", r.get("plies_role_index"))) for r in group)
        replies = [r.get("plies_max_reply") for r in group]
        known = [t for t in replies if t is not None]
        longest = "?" if len(known) < len(replies) or not known else f"{max(known):.2f}"
        reasoner = ", ".join(dict.fromkeys(
            ref.reasoner_of(r.get("plies_log_head", "") + "\n" + r.get("plies_log_tail", ""))
            for r in group))
        lines.append(
            f"| {game} | {start}/{play} | {roles} | {' | '.join(map(str, wdl))} | {goals} | "
            f"{' / '.join(map(str, faults(group, True)))} | "
            f"{' / '.join(map(str, faults(group, False)))} | {longest} | {reasoner} | "
            f"{speeds(group, 'plies_speed', 'playouts_per_s')}, "
            f"{speeds(group, 'plies_speed', 'states_per_s')} | "
            f"{speeds(group, 'plies_speed', 'iterations_per_move')} ({strategies(group)}) | "
            f"{reasoners(group, 'opponent_speed')} ({built(group)}) | {goal_ranges(group)} | "
            f"{speeds(group, 'opponent_speed', 'playouts_per_s')}, "
            f"{speeds(group, 'opponent_speed', 'states_per_s')} | "
            f"{speeds(group, 'opponent_speed', 'iterations_per_turn')} | "
            f"{', '.join(str(r.get('steps')) for r in group)} | "
            f"{', '.join(ref.load_of(r.get('uptime', '')) for r in group)} |"
        )
    ready = [r for r in rows if sancho_ready(r)]
    names = [f"{r['game']} {r['start']}/{r['play']} as {r.get('plies_role')}" for r in ready]
    wdl_ready = [sum(r.get("result") == k for r in ready) for k in ("win", "draw", "loss")]
    errors = sum(r.get("result") in ("error", "unfinished") for r in rows)
    lines.append("")
    lines.append(f"Total: {total[0]} won, {total[1]} drawn, {total[2]} lost"
                 f"{f', {errors} not played to the end' if errors else ''} "
                 f"({len(rows)} matches).")
    lines.append(f"Where Sancho was ready (its propnet built, no late or failed reply in the "
                 f"start and play phases, its sample games' goals not all equal, its goals "
                 f"not replaced by its unvalidated emulated calculator): "
                 f"{wdl_ready[0]} won, {wdl_ready[1]} drawn, {wdl_ready[2]} lost "
                 f"({len(ready)} matches: {', '.join(names)}).")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plan", choices=sorted(PLANS), default="prove")
    parser.add_argument("--games", help="comma-separated games (overrides --plan)")
    parser.add_argument("--clocks", default="10/2", help="with --games: e.g. 20/3,10/2")
    parser.add_argument("--roles", choices=["first", "all"], default="all")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=None,
                        help="stop starting new matches after this many seconds")
    parser.add_argument("--out", default=str(ROOT / "benchmarks/results/ggp_vs_sancho.json"))
    parser.add_argument("--plies-src", default=str(ROOT / "src"))
    parser.add_argument("--keep-logs", default=None, help="copy every match's logs here")
    parser.add_argument("--report", metavar="JSON", help="print the table of a results file")
    parser.add_argument("--reparse-logs", metavar="DIR",
                        help="with --out: read both sides' speeds again from the logs kept "
                        "in DIR with --keep-logs")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.reparse_logs:
        out = Path(args.out)
        rows = json.loads(out.read_text())
        reparse(rows, Path(args.reparse_logs))
        out.write_text(json.dumps(rows, indent=1) + "\n")
        return
    if args.report:
        print(report(json.loads(Path(args.report).read_text())), end="")
        return
    args.judge, args.opponent = "ggp-base", "sancho"
    ref.run(args, PLANS)


if __name__ == "__main__":
    main()
