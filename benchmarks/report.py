"""The report of a benchmark run: its rows, the machine it ran on, Markdown and Rich tables.

``run.py`` fills :class:`Row` objects, one per library and :class:`Task`; this module turns
them, with the machine description and W4/W5's results, into ``results/*.md`` and the
tables printed at the end of a run.
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from rich.table import Table

REPO = Path(__file__).resolve().parent.parent
BASELINE = "bare loop"
DISTRIBUTIONS = {"plies": "plies", "easyAI": "easyAI", "aima3": "aima3", "OpenSpiel": "open_spiel"}


@dataclass(frozen=True)
class Task:
    """One row group of the report: a game, an algorithm and a depth, run by every library."""

    workload: str
    title: str
    game: str
    algorithm: str
    depth: int | None
    known_nodes: int | None = None  # a published fact the counts are checked against


@dataclass
class Row:
    """One library's result on one task."""

    library: str
    status: str = "ok"  # "ok", "not available", "error"
    reason: str = ""
    note: str = ""
    times: list[float] = field(default_factory=list)
    nodes: int | None = None
    value: float | None = None
    action: Any = None
    ratio: float | None = None
    differs: list[str] | None = None  # what differs from the bare loop; [] when all agrees

    @property
    def median(self) -> float | None:
        return statistics.median(self.times) if self.times else None

    @property
    def nps(self) -> float | None:
        m = self.median
        return self.nodes / m if self.nodes and m else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "library": self.library,
            "status": self.status,
            "reason": self.reason,
            "note": self.note,
            "nodes": self.nodes,
            "times_s": self.times,
            "median_s": self.median,
            "nodes_per_s": self.nps,
            "ratio_to_bare": self.ratio,
            "value": self.value,
            "action": self.action,
            "differs_from_bare": self.differs,
        }


# --- the machine -----------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    cpu, memory = platform.processor() or "unknown", None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                memory = f"{int(line.split()[1]) / 2**20:.0f} GiB"
    except OSError:
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "memory": memory,
        "os": f"{platform.system()} {platform.release()}",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
    }


def plies_source() -> str:
    """The commit plies was run from, and whether ``src/`` had uncommitted changes."""
    repo = REPO
    try:
        commit = subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(repo), "status", "--porcelain", "--", "src"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):
        return "unknown (no git)"
    changed = [line[3:] for line in dirty if line.strip()]
    if changed:
        return f"commit {commit} + uncommitted changes in {', '.join(changed)}"
    return f"commit {commit}"


def versions() -> dict[str, str]:
    out = {}
    for name, dist in DISTRIBUTIONS.items():
        try:
            out[name] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


# --- reporting -------------------------------------------------------------------------------


def fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.1f} us"


def fmt_int(n: float | None) -> str:
    return "-" if n is None else f"{n:,.0f}"


def fmt_value(v: float | None) -> str:
    return "-" if v is None else f"{v:g}"


def row_cells(row: Row) -> list[str]:
    if row.status != "ok":
        return [row.library, row.status, "", "", "", "", "", row.reason]
    same = "" if row.differs is None else ("yes" if not row.differs else "**differs: ")
    if row.differs:
        same += ", ".join(row.differs) + "**"
    return [
        row.library,
        fmt_int(row.nodes),
        fmt_time(row.median),
        fmt_int(row.nps),
        "-" if row.ratio is None else f"{row.ratio:.2f}",
        fmt_value(row.value),
        str(row.action),
        same,
    ]


HEADER = [
    "library", "nodes", "median time", "nodes/s", "x bare loop", "value", "move", "same tree",
]  # fmt: skip

WORKLOADS = {
    "W1": "Tic-tac-toe from the empty board (plies' game object for every Python library; "
    "OpenSpiel's native tic_tac_toe).",
    "W2": "Connect Four 7x6 from the empty board, alpha-beta with the shared evaluation "
    "(cell weights, `workloads.connect4_score`), natural move order, no transposition table.",
    "W3": "Synthetic uniform tree, branching 8, depth 6, leaf values from a fixed integer hash "
    "of the path: the libraries' own overhead.",
}


def markdown(report: dict[str, Any], results: list[tuple[Task, list[Row]]]) -> str:
    m = report["machine"]
    lines = [
        "# plies side-by-side benchmark",
        "",
        f"- Machine: {m['cpu']}, {m['cores']} cores ({m['usable_cores']} usable), "
        f"{m['memory']} memory, {m['os']}",
        f"- Python: {m['python']}",
        f"- Load average (1, 5, 15 min) before the run: "
        f"{', '.join(f'{x:.2f}' for x in report['load_average']['before'])}; after: "
        f"{', '.join(f'{x:.2f}' for x in report['load_average']['after'])}; "
        f"wall time {report['wall_time_s'] / 60:.1f} min",
        f"- Date: {report['date']}",
        f"- Command: `{report['command']}`",
        f"- Each time is the median of {report['repeat']} timed runs after one warm-up; "
        "`x bare loop` is that median over the bare hand-written loop's median on the same "
        "task in this run; nodes include the root.",
        f"- plies source: {report['plies_source']}",
        "- Libraries: " + ", ".join(f"{k} {v}" for k, v in report["versions"].items()),
        "",
    ]
    current = None
    for task, rows in results:
        if task.workload != current:
            current = task.workload
            lines += [f"## {current}", "", WORKLOADS[current], ""]
        known = ""
        if task.known_nodes:
            base = next((r for r in rows if r.library == BASELINE), None)
            counted = base.nodes if base is not None else None
            check = "matched" if counted == task.known_nodes else f"**counted {counted}**"
            known = f" (known: {task.known_nodes:,} nodes; {check})"
        lines += [f"### {task.title}{known}", "", "| " + " | ".join(HEADER) + " |"]
        lines.append("|" + "|".join(["---"] + ["---:"] * 4 + ["---:", "---:", "---"]) + "|")
        lines += ["| " + " | ".join(row_cells(row)) + " |" for row in rows]
        notes = [f"{row.library}: {row.note}" for row in rows if row.note and row.status == "ok"]
        if notes:
            lines += ["", "Notes: " + "; ".join(notes) + "."]
        lines.append("")
    lines += engine_markdown(report)
    return "\n".join(lines).rstrip() + "\n"


def engine_markdown(report: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    w4, w5 = report.get("w4"), report.get("w5")
    for key, title in (("w4", "W4: plies engine craft"), ("w5", "W5: Connect Four solving")):
        part = report.get(key)
        if part is not None and part.get("status") != "ok":
            lines += [f"## {title}", "", f"Not run: {part['reason']}", ""]
    if w4 is not None and w4.get("status") == "ok":
        lines += [
            "## W4: plies engine craft on its Connect Four",
            "",
            f"`plies.alphabeta(connect4, Limit(depth=d, time={w4['budget_s']:g}))` with engine "
            f"options {w4['options'] or '{} (none yet)'}; the plain searches at depth 8 are "
            "W2's, on the benchmark's own Connect Four. `x bare loop` is over W2's bare loop "
            "at depth 8.",
            "",
            "| search | depth | nodes | median time | nodes/s | x bare loop (W2 depth 8) |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for r in w4["runs"]:
            if r["reached"]:
                lines.append(
                    f"| plies engine | {r['depth']} | {fmt_int(r['nodes'])} | "
                    f"{fmt_time(r['median_s'])} | {fmt_int(r['nodes_per_s'])} | "
                    f"{'-' if r['ratio_to_bare'] is None else format(r['ratio_to_bare'], '.2f')} |"
                )
            else:
                lines.append(f"| plies engine | {r['depth']} | - | {r['reason']} | - | - |")
        for r in w4["plain_depth8"]:
            ratio = "-" if r["ratio_to_bare"] is None else f"{r['ratio_to_bare']:.2f}"
            lines.append(
                f"| {r['library']} (plain, W2) | 8 | {fmt_int(r['nodes'])} | "
                f"{fmt_time(r['median_s'])} | {fmt_int(r['nodes_per_s'])} | {ratio} |"
            )
        lines.append("")
    if w5 is not None and w5.get("status") == "ok":
        solution = (
            "weak (win/draw/loss, sign checked)"
            if w5["scoring"] == "winloss"
            else ("strong (Pons' scores, checked exactly)")
        )
        lines += [
            "## W5: Connect Four solving on the shared positions",
            "",
            f"First {w5['positions']} positions of each file, each solved {w5['repeat']} "
            f"time(s) (median per position); {solution} solution; plies with engine options "
            f"{w5['options'] or '{} (none)'}. The bare loop solves the same positions with "
            "plain alpha-beta on the benchmark's Connect Four. Each solver is stopped after "
            f"{w5['cap_s']:g} s on a position, which then counts as not solved by it: the "
            "means are over the positions a solver solved (the easier ones), `plies x bare` "
            "over the positions both solved.",
            "",
            "| file | tried | plies solved | plies mean time | plies mean nodes | bare solved | "
            "bare mean time | bare mean nodes | plies x bare | published solver | wrong |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for s in w5["sets"]:
            pub_t, pub_n = s["published"]
            ratio = "-" if s["ratio_to_bare"] is None else f"{s['ratio_to_bare']:.2f}"
            lines.append(
                f"| {s['name']} | {s['tried']}/{s['positions']} | {s['plies_solved']} | "
                f"{fmt_time(s['plies_mean_s'])} | {fmt_int(s['plies_mean_nodes'])} | "
                f"{s['bare_solved']} | {fmt_time(s['bare_mean_s'])} | "
                f"{fmt_int(s['bare_mean_nodes'])} | {ratio} | "
                f"{fmt_time(pub_t)}, {fmt_int(pub_n)} nodes | {len(s['wrong'])} |"
            )
        stops = [f"{s['name']}: {s['stopped']}" for s in w5["sets"] if s["stopped"]]
        if stops:
            lines += ["", "Stopped early: " + "; ".join(stops) + "."]
        wrong = [w for s in w5["sets"] for w in s["wrong"]]
        if wrong:
            lines += ["", f"Wrong plies values ({len(wrong)}): " + "; ".join(wrong[:10]) + "."]
        lines.append("")
        lines += dedicated_lines(w5)
    return lines


def dedicated_lines(w5: dict[str, Any]) -> list[str]:
    """The dedicated Connect Four solver's table (whole files) and the opening 4453."""
    dedicated = w5.get("dedicated")
    if not dedicated:
        return []
    generic = {s["name"]: s for s in w5["sets"]}
    lines = [
        "### The dedicated solver (`plies.games.connect4.solver`), same run",
        "",
        "Pons' final search (no opening book) over plain ints, strong scores checked "
        "exactly, a fresh table of 2**20 slots per position (not timed). Numba solves "
        "each file from its first line until all 1,000 are done or the file's budget is "
        "spent; the Python backend the same first positions as the generic engine above. "
        "`nodes vs published` is shown only where all 1,000 positions were solved.",
        "",
        "| file | backend | solved | mean time | mean nodes | nodes/s | published solver "
        "| nodes vs published | generic engine's mean nodes on its positions | wrong |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for d in dedicated:
        pub_t, pub_n = d["published"]
        versus = (
            f"{d['mean_nodes'] / pub_n:.2f}x" if pub_n and d["mean_nodes"] and d["solved"] == 1000
            else "-"
        )
        g = generic.get(d["name"])
        lines.append(
            f"| {d['name']} | {d['backend']} | {d['solved']} | {fmt_time(d['mean_s'])} | "
            f"{fmt_int(d['mean_nodes'])} | {fmt_int(d['nodes_per_s'])} | "
            f"{fmt_time(pub_t)}, {fmt_int(pub_n)} nodes | {versus} | "
            f"{fmt_int(g['plies_mean_nodes']) if g else '-'} | {len(d['wrong'])} |"
        )
    opening = w5.get("opening", {})
    if opening.get("status") == "ok":
        lines += [
            "",
            f"Opening `{opening['moves']}` (file score {opening['score']}): "
            f"{opening['value']} by the {opening['backend']} backend in "
            f"{opening['seconds']:.1f} s, {fmt_int(opening['nodes'])} nodes"
            f"{'' if opening['right'] else ' (WRONG)'}.",
        ]
    elif opening:
        lines += ["", f"Opening `{opening['moves']}`: not run ({opening.get('reason', '')})."]
    lines.append("")
    return lines


def console_table(task: Task, rows: list[Row]) -> Table:
    table = Table(title=f"{task.workload}: {task.title}", title_justify="left")
    for i, head in enumerate(HEADER):
        table.add_column(head, justify="left" if i in (0, 7) else "right")
    for row in rows:
        table.add_row(*[cell.replace("**", "") for cell in row_cells(row)])
    return table
