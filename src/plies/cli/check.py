"""``plies check``: the conformance check of a game, yours included, as a table.

    plies check tictactoe
    plies check nim -o piles=1,2,3 --playouts 200
    plies check mypkg.games:Trio -o target=9
    plies check rules.kif

Exit status: 0 when every check passes (warnings pass), 1 when a check fails, 2 for a
user error (an unknown game, a bad option).  See :func:`plies.check_game`.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Final

from rich.console import Console
from rich.table import Table
from rich.text import Text

from plies import games
from plies.errors import OptionError, bounded

STYLES = {"pass": "green", "warn": "yellow", "fail": "bold red", "skip": "dim"}


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``check`` sub-command to the ``plies`` argument parser."""
    p = sub.add_parser(
        "check", help="check that a game keeps the promises of the game model",
        description="Play seeded random games and check, at every state met, what searches "
        "rely on: legal movers and actions, a pure result(), hashing, utilities in range, "
        "chance odds, simultaneous moves, evaluate, declared facts.  Exit status 1 when a "
        "check fails.",
    )
    p.add_argument(
        "game",
        help="a built-in game name, a .tree/.json tree file, a .kif GDL file, or your own "
        "game as module:attribute (a Game class, a factory or an instance)",
    )
    p.add_argument(
        "-o", "--option", action="append", default=[], metavar="KEY=VALUE",
        help="a game option (repeatable); for module:attribute, values are Python literals",
    )
    p.add_argument("--playouts", type=int, default=50, help="random games to play (default 50)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random playouts")
    p.add_argument(
        "--max-steps", type=int, default=500,
        help="cut a playout off after this many actions (default 500)",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")


MAX_COUNT: Final = 100_000
"""The most playouts, and the most steps of one, that ``plies check`` plays (checked
before the game is loaded: 10^10 steps already take days)."""


def run(console: Console, args: argparse.Namespace) -> int:
    """Run ``plies check``; 0 when every check passes, 1 when one fails."""
    from plies.check import check_game

    for flag, value in (("--playouts", args.playouts), ("--max-steps", args.max_steps)):
        if not 1 <= value <= MAX_COUNT:
            raise OptionError(
                f"{flag} must be in 1..{MAX_COUNT:,}, got {bounded(str(value), 40)}"
            )
    game = games.load(args.game, args.option)
    report = check_game(game, playouts=args.playouts, seed=args.seed, max_steps=args.max_steps)
    if args.json:
        data = {
            "game": report.game,
            "ok": report.ok,
            "playouts": report.playouts,
            "seed": args.seed,
            "states": report.states,
            "terminals": report.terminals,
            "chance_nodes": report.chance_nodes,
            "simultaneous_nodes": report.simultaneous_nodes,
            "unfinished": report.unfinished,
            "abandoned": report.abandoned,
            "checks": [
                {"name": c.name, "status": c.status, "reason": c.reason} for c in report.checks
            ],
        }
        console.print_json(json.dumps(data))
        return 0 if report.ok else 1
    table = Table(title=f"{report.game}: {args.playouts} random playouts (seed {args.seed})")
    table.add_column("check", no_wrap=True)
    table.add_column("result", no_wrap=True)
    table.add_column("why", overflow="fold")
    for check in report.checks:
        shown = "not run" if check.status == "skip" else check.status
        reason = check.reason.removeprefix("not run: ") if check.status == "skip" else check.reason
        table.add_row(check.name, Text(shown, style=STYLES[check.status]), reason)
    console.print(table)
    failed = len(report.failures)
    warned = sum(check.status == "warn" for check in report.checks)
    skipped = sum(check.status == "skip" for check in report.checks)
    total = len(report.checks)
    if failed:
        summary = f"{failed} of {total} checks failed"
    elif skipped:  # a check that never ran did not pass
        summary = f"{total - skipped} of {total} checks passed"
    else:
        summary = f"all {total} checks passed"
    summary += f", {skipped} not run" if skipped else ""
    summary += f" ({warned} with a warning)" if warned and not failed else ""
    console.print(f"{summary}; {report.states:,} states met", soft_wrap=True)
    return 0 if report.ok else 1
