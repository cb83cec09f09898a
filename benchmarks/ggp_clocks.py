#!/usr/bin/env python3
"""A legal move on every clock: reply times of the GGP player on games whose propnet is
slow to build or cannot be built at all.

    PYTHONPATH=src python benchmarks/ggp_clocks.py [--games chess,checkers,breakthrough]
        [--clocks 1,2] [--max-steps 20] [--start 3] [--margin 0.5]

The player runs in a process of its own (``GgpServer`` on 127.0.0.1, default options but
the margin), as a game manager would hire it; this process plays matches against it with
:mod:`plies.ggp.manager` and a random opponent, two per game and play clock (plies in
each role), ``--max-steps`` steps each (then ABORT), with a short start clock so that the
propnet is not ready at the first PLAY:

* chess (``tests/data/gdl/large/chess.kif``): past the grounding wall (more than 2,000,000
  rule instances), so the whole match is played on the top-down prover;
* checkers: its propnet takes about 14 CPU seconds to build (longer under load), so the
  match starts on the top-down prover and switches in the middle;
* breakthrough: its propnet is built in one or two seconds, about the start clock.

The manager judges with the propnet where it can be built, else with the top-down prover.
Reported per game and play clock: the PLAY replies, the maximum and the 99th percentile
of *reply time / play clock* (measured by the manager, from sending the request to the
end of the reply), the replies after the clock, the replies that were not a legal move in
the manager's state, how many moves each reasoner chose (read from the player's log), and
when the player switched to the propnet.

Not part of the test suite (timings depend on the machine).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "src"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from plies.gdl.ground import GroundingError  # noqa: E402
from plies.gdl.machine import StateMachine  # noqa: E402
from plies.gdl.parser import load  # noqa: E402
from plies.gdl.reasoner import Reasoner  # noqa: E402
from plies.gdl.topdown import TopDown  # noqa: E402
from plies.ggp.manager import GameManager, HttpSeat, RandomSeat  # noqa: E402

LOCAL = ROOT / "tests" / "data" / "gdl"

SERVE = """
import logging, sys
logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
from plies.ggp.player import GgpPlayer
from plies.ggp.server import GgpServer
server = GgpServer(GgpPlayer(margin={margin}, seed=1), "127.0.0.1", 0).start()
print(server.port, flush=True)
sys.stdin.read()  # until the benchmark closes our stdin
server.stop()
"""


@contextmanager
def player_process(margin: float, log: Path) -> Iterator[int]:
    """A GGP player in a process of its own, logging to ``log``; yields its port."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT)]))
    with open(log, "w", encoding="utf-8") as err:
        proc = subprocess.Popen(
            [sys.executable, "-c", SERVE.format(margin=margin)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True, env=env,
        )
        try:
            assert proc.stdout is not None
            yield int(proc.stdout.readline())
        finally:
            if proc.stdin is not None:
                proc.stdin.close()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def game_file(name: str) -> Path:
    for folder in (LOCAL, LOCAL / "large"):
        if (folder / f"{name}.kif").exists():
            return folder / f"{name}.kif"
    raise SystemExit(f"no game {name}.kif in {LOCAL} or {LOCAL / 'large'}")


def judge(name: str) -> tuple[GameManager, str]:
    """The manager of a game, judging with the propnet if it can be built, else top-down."""
    desc = load(game_file(name))
    machine: StateMachine[Any]
    try:
        machine = Reasoner(desc)
    except GroundingError:
        machine = TopDown(desc)
    return GameManager(desc, machine=machine), machine.kind


@dataclass
class Row:
    game: str
    clock: int
    ratios: list[float] = field(default_factory=list)
    late: int = 0
    illegal: int = 0
    other: int = 0  # START/STOP replies late or wrong
    chosen: Counter[str] = field(default_factory=Counter)
    switches: list[str] = field(default_factory=list)


STEP = re.compile(r"^match (\S+) step \d+: .* by (\w+)(?: on (\w+))?")
SWITCH = re.compile(r"^match (\S+): switched from \w+ to \w+ after ([\d.]+) s \(at step (\d+)\)")


def read_log(log: Path, match_id: str, row: Row) -> None:
    for line in log.read_text(encoding="utf-8").splitlines():
        found = STEP.match(line)
        if found and found.group(1) == match_id:
            row.chosen[found.group(3) or found.group(2)] += 1
        found = SWITCH.match(line)
        if found and found.group(1) == match_id:
            row.switches.append(f"{found.group(2)} s (step {found.group(3)})")


def p99(values: list[float]) -> float:
    if len(values) < 2:
        return max(values, default=0.0)
    return statistics.quantiles(values, n=100, method="inclusive")[98]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="chess,checkers,breakthrough")
    parser.add_argument("--clocks", default="1,2")
    parser.add_argument("--max-steps", type=int, default=20)
    parser.add_argument("--start", type=int, default=3)
    parser.add_argument("--margin", type=float, default=0.5)
    parser.add_argument("--log", type=Path, default=None, help="keep the player's log here")
    args = parser.parse_args(argv)
    games = args.games.split(",")
    clocks = [int(c) for c in args.clocks.split(",")]
    print(f"uptime before: {os.popen('uptime').read().strip()}", flush=True)
    rows: list[Row] = []
    judges: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        log = args.log or Path(tmp) / "player.log"
        with player_process(args.margin, log) as port:
            k = 0
            for game in games:
                manager, judges[game] = judge(game)
                for clock in clocks:
                    row = Row(game, clock)
                    for role in (0, 1):
                        seats: list[HttpSeat | RandomSeat] = [RandomSeat(random.Random(k))] * 2
                        seats[role] = HttpSeat("127.0.0.1", port)
                        match_id = f"clocks.{k}"
                        record = manager.play_match(
                            seats, match_id=match_id, start_clock=args.start,
                            play_clock=clock, max_steps=args.max_steps, rng=random.Random(k),
                        )
                        k += 1
                        for step in record.steps:
                            reply = step.replies.get(role)
                            if reply is not None:
                                row.ratios.append(reply.latency / clock)
                                row.late += reply.latency >= clock
                        row.illegal += sum(f.kind in ("illegal", "http", "unreadable", "failed")
                                           for f in record.faults if f.phase == "play")
                        row.other += sum(f.phase != "play" for f in record.faults)
                        for fault in record.faults:
                            print(f"  {match_id}: {fault}", flush=True)
                        if not record.aborted:
                            print(f"  {match_id}: ended after {len(record.steps)} steps, "
                                  f"goals {record.goals}", flush=True)
                        time.sleep(0.5)  # let the log of the match reach the file
                        read_log(log, match_id, row)
                    rows.append(row)
                    print(f"{game} at {clock} s: done", flush=True)
    print(f"uptime after: {os.popen('uptime').read().strip()}\n")
    print("| game (judged by) | play clock | PLAY replies | max reply/clock | p99 reply/clock "
          "| after the clock | not legal | START/STOP faults | moves chosen on "
          "| switched to the propnet after |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        chosen = ", ".join(f"{kind} {n}" for kind, n in sorted(row.chosen.items()))
        print(
            f"| {row.game} ({judges[row.game]}) | {row.clock} s | {len(row.ratios)} | "
            f"{max(row.ratios, default=0):.3f} | {p99(row.ratios):.3f} | {row.late} | "
            f"{row.illegal} | {row.other} | {chosen} | {'; '.join(row.switches) or 'never'} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
