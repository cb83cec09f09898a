"""``plies ggp match``: run and judge a match between GGP players over HTTP.

    plies ggp match GAME.kif --player URL [--player URL ...] [--start 10] [--play 5]
        [--role NAME=URL ...] [--match-id ID] [--max-steps N] [--seed N] [--json FILE]

One ``--player`` per role in the order of the game's ``(role ...)`` facts (or
``--role NAME=URL`` for each role); ``random`` instead of a URL seats a random player the
manager plays itself.  The match runs with :class:`~plies.ggp.manager.GameManager`: a log
line per step, then the goals, every late, illegal or failed reply, and the reply times.
Registered by :mod:`plies.ggp.cli`.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from plies.outputs import check_target, write_text

if TYPE_CHECKING:
    from rich.console import Console

    from plies.ggp.manager import GameManager, MatchRecord, Seat, Step


def _clock(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if math.isnan(value) or math.isinf(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"a clock must be > 0 seconds, got {text!r}")
    return value


def _grace(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if math.isnan(value) or math.isinf(value) or value < 0:
        raise argparse.ArgumentTypeError(f"the grace must be >= 0 seconds, got {text!r}")
    return value


def _steps(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of steps: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"--max-steps must be >= 1, got {value}")
    return value


def register_match(commands: Any) -> None:
    """Add ``match`` to the ``plies ggp`` sub-commands."""
    match = commands.add_parser(
        "match",
        help="run a match between GGP players over HTTP and judge it",
        description="Run a General Game Playing match as a game manager: START, PLAY and "
        "STOP to every player over HTTP; a late, illegal or failed reply is logged and "
        "replaced by a random legal move (as ggp-base's GameServer does).",
    )
    match.add_argument("game", metavar="GAME.kif", help="the rules, a GDL (KIF) file")
    match.add_argument(
        "--player", action="append", default=[], metavar="URL",
        help="a player's address (http://HOST:PORT/ or HOST:PORT; 'random' for a random "
        "player of the manager's), one per role in role order",
    )
    match.add_argument(
        "--role", action="append", default=[], metavar="NAME=URL",
        help="the player of role NAME (instead of --player; give every role)",
    )
    match.add_argument("--start", type=_clock, default=10.0,
                       help="start clock in seconds (default 10)")
    match.add_argument("--play", type=_clock, default=5.0,
                       help="play clock in seconds (default 5)")
    match.add_argument("--match-id", default=None,
                       help="the match id (default plies.GAME.MILLISECONDS)")
    match.add_argument(
        "--max-steps", type=_steps, default=None,
        help="abort the match after N steps if it is not over (default: play to the end)",
    )
    match.add_argument(
        "--grace", type=_grace, default=1.0,
        help="seconds past a clock to wait for a late reply, to time it (default 1)",
    )
    match.add_argument(
        "--reasoner", choices=["auto", "propnet", "topdown"], default="auto",
        help="the reasoner that judges the rules (default auto: the propnet where the rules "
        "can be grounded, else the top-down prover)",
    )
    match.add_argument("--seed", type=int, default=None,
                       help="seed of the replacement moves and the random players")
    match.add_argument("--json", metavar="FILE", default=None,
                       help="write the match record (moves, replies, faults, goals) as JSON")
    match.add_argument("--force", action="store_true",
                       help="replace --json even if it is not a match record plies wrote")
    match.add_argument("--quiet", action="store_true",
                       help="no line per step; only the final report")


def run_match(console: Console, args: argparse.Namespace) -> int:
    """Run the match ``args`` describe; returns the exit code (bad input raises a
    :class:`~plies.errors.PliesError`, which ``plies`` reports in one line, status 2)."""
    from plies.gdl.parser import load
    from plies.ggp.manager import SIGNATURE, GameManager

    json_path = None
    if args.json is not None:  # fail now, not after a match of many minutes
        json_path = check_target(args.json, option="--json", kind="a match record plies wrote",
                                 signatures=(SIGNATURE,), force=args.force)
    manager = GameManager(load(args.game), prefer=args.reasoner)
    seats = _seats(manager, args)
    manager.check_players(seats)
    game = Path(args.game).stem
    match_id = args.match_id or f"plies.{game}.{int(time.time() * 1000)}"
    rng = random.Random(args.seed)
    _header(console, manager, seats, match_id, args)
    record = manager.play_match(
        seats, match_id=match_id, start_clock=args.start, play_clock=args.play,
        max_steps=args.max_steps, grace=args.grace, rng=rng,
        on_start=None if args.quiet else (lambda r: _start_line(console, r)),
        on_step=None if args.quiet else (lambda r, s: _step_line(console, r, s)),
        on_abort=lambda sent: _abort_line(console, sent),
    )
    _report(console, manager, record, args)
    if json_path is not None:
        data = record.to_json(game=game, machine=manager.machine.kind)
        write_text(json_path, json.dumps(data, indent=1) + "\n", label="--json")
        console.print(f"record written to {args.json}", soft_wrap=True)
    return 0


def _abort_line(console: Console, sent: dict[str, str]) -> None:
    """Say which players were told that the match is abandoned (Ctrl-C, an error)."""
    told = ", ".join(f"{role} ({outcome})" for role, outcome in sent.items())
    _fault_line(console, f"match abandoned: ABORT sent to {told}" if told
                else "match abandoned (no HTTP player to tell)")


def _seats(manager: GameManager, args: argparse.Namespace) -> list[Seat]:
    from plies.ggp.manager import HttpSeat, MatchSetupError, RandomSeat

    roles = manager.roles
    if args.player and args.role:
        raise MatchSetupError("give the players either with --player (in role order) or "
                              "with --role NAME=URL, not both")
    if args.role:
        chosen: dict[str, str] = {}
        for item in args.role:
            name, sep, url = item.partition("=")
            if not sep or name not in roles:
                raise MatchSetupError(
                    f"--role {item!r}: expected NAME=URL with NAME one of {', '.join(roles)}"
                )
            if name in chosen:
                raise MatchSetupError(f"--role {name} is given twice")
            chosen[name] = url
        missing = [r for r in roles if r not in chosen]
        if missing:
            raise MatchSetupError(f"no player for role(s) {', '.join(missing)}: give "
                                  "--role NAME=URL for every role")
        urls = [chosen[r] for r in roles]
    else:
        urls = list(args.player)
    if len(urls) != len(roles):
        raise MatchSetupError(
            f"this game has {len(roles)} role(s) ({', '.join(roles)}), got {len(urls)} "
            "--player; give one per role, in role order (or 'random')"
        )
    base = random.Random(args.seed)
    return [RandomSeat(random.Random(base.random())) if url == "random"
            else HttpSeat.from_url(url) for url in urls]


def _header(console: Console, manager: GameManager, seats: list[Seat], match_id: str,
            args: argparse.Namespace) -> None:
    from plies.ggp.manager import HttpSeat

    why = f" ({manager.choice.reason})" if manager.choice is not None else ""
    console.print(
        f"match {match_id}: {Path(args.game).name}, start clock {args.start:g}s, play clock "
        f"{args.play:g}s, rules by the {manager.machine.kind} reasoner{why}", soft_wrap=True,
    )
    for role, seat in zip(manager.roles, seats, strict=True):
        where = seat.url if isinstance(seat, HttpSeat) else "random (played by the manager)"
        console.print(f"  {role}: {where}", soft_wrap=True)


def _start_line(console: Console, record: MatchRecord) -> None:
    parts = [f"{record.roles[i]} {r.body.strip()[:20]!s} {r.latency:.2f}s"
             for i, r in sorted(record.start_replies.items())]
    console.print("START: " + (", ".join(parts) or "no HTTP player"), soft_wrap=True)
    for fault in record.faults:
        _fault_line(console, str(fault))


def _step_line(console: Console, record: MatchRecord, step: Step) -> None:
    from plies.gdl.terms import to_kif

    number = len(record.steps)
    parts = []
    for i, move in enumerate(step.joint):
        reply = step.replies.get(i)
        took = f" {reply.latency:.2f}s" if reply is not None else ""
        parts.append(f"{record.roles[i]} {to_kif(move)}{took}")
    console.print(f"step {number}: " + ", ".join(parts), soft_wrap=True)
    for fault in step.faults:
        replaced = to_kif(step.joint[record.roles.index(fault.role)])
        _fault_line(console, f"{fault}; replaced by {replaced}")


def _fault_line(console: Console, text: str) -> None:
    from rich.text import Text

    console.print(Text("  ! " + text, style="bold red"), soft_wrap=True)


def _report(console: Console, manager: GameManager, record: MatchRecord,
            args: argparse.Namespace) -> None:
    from rich.table import Table

    if record.goals is None:
        console.print(
            f"aborted after {len(record.steps)} steps (--max-steps {args.max_steps}): the "
            "game was not over, so there are no goals", soft_wrap=True,
        )
    else:
        console.print(f"game over after {len(record.steps)} steps ({record.elapsed:.1f}s)",
                      soft_wrap=True)
    table = Table(title=f"match {record.match_id}")
    for column in ("role", "goal", "replies", "mean reply", "max reply", "late", "illegal",
                   "failed"):
        table.add_column(column, justify="left" if column == "role" else "right")
    for i, role in enumerate(record.roles):
        times = record.latencies(i)
        mine = [f for f in record.faults if f.role == role]
        late = sum(f.kind == "late" for f in mine)
        # As ggp-base counts them: an error status's body is read as an (illegal) move.
        illegal = sum(f.kind in ("illegal", "unreadable", "http") for f in mine)
        failed = sum(f.kind in ("failed", "reply") for f in mine)
        table.add_row(
            role,
            "-" if record.goals is None else str(record.goals[i]),
            str(len(times)),
            f"{statistics.fmean(times):.2f}s" if times else "-",
            f"{max(times):.2f}s" if times else "-",
            str(late), str(illegal), str(failed),
        )
    console.print(table)
    if record.faults:
        console.print(f"{len(record.faults)} late, illegal or failed replies:", soft_wrap=True)
        for fault in record.faults:
            _fault_line(console, str(fault))
    else:
        console.print("no late, illegal or failed replies", soft_wrap=True)
