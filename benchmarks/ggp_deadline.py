#!/usr/bin/env python3
"""How far past its own deadline the GGP player's replies leave under CPU load: the
measurement its safety margin is set from.

    PYTHONPATH=src python benchmarks/ggp_deadline.py [--busy 8] [--margin 0.5]
        [--clocks 3,10] [--games ticTacToe,connectFour,breakthrough] [--max-steps 10]
        [--repeat 1] [--player-src OTHER/src]

``--busy N`` starts N busy loops (``nice -n 0 python3 -c 'while 1: pass'``) for the
whole run, on top of whatever else the machine runs; ``--log FILE`` keeps the player's
log (its own reply times, from the accept of each connection).  The player runs in a process of
its own with ``--margin`` (``benchmarks/ggp_load.py``'s ``player_process``) and plays
whole matches, each role in turn, against a random player of the test suite's game
manager.  For every PLAY reply the manager measures the time from sending the request to
the end of the reply; the player's own deadline is *clock - margin* (its thinking budget,
:meth:`plies.ggp.player.GgpPlayer.budget`).  Reported per play clock: the replies, how
many left after the player's deadline and after the clock, and the largest and 99th
percentile *overshoot* (reply time - (clock - margin); negative: in time), plus the load
average before and after.  The margin a player needs is the largest overshoot seen plus
the margin it ran with.

Not part of the test suite (timings depend on the machine).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "src", ROOT / "benchmarks"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

import ggp_load  # noqa: E402

from plies.ggp.manager import GameManager, HttpSeat, RandomSeat  # noqa: E402
from tests.ggp.helpers import rules  # noqa: E402

SERVE = """
import logging, sys
logging.basicConfig(filename={log!r}, level=logging.INFO, format="%(relativeCreated)d %(message)s")
from plies.ggp.player import GgpPlayer
from plies.ggp.server import GgpServer
server = GgpServer(GgpPlayer(margin={margin}, seed=1), "127.0.0.1", 0).start()
print(server.port, flush=True)
sys.stdin.read()
server.stop()
"""


@contextmanager
def logged_player(margin: float, log: Path) -> Iterator[tuple[int, int]]:
    """Like ``ggp_load.player_process``, with the player's log written to ``log``."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ggp_load.PLAYER_SRC), str(ROOT)]))
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVE.format(margin=margin, log=str(log))],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
    )
    try:
        assert proc.stdout is not None
        yield int(proc.stdout.readline()), proc.pid
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(30)


def busy_loops(n: int) -> list[subprocess.Popen[bytes]]:
    return [
        subprocess.Popen(["nice", "-n", "0", sys.executable, "-c", "while 1: pass"])
        for _ in range(n)
    ]


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--busy", type=int, default=8, help="busy loops to start")
    parser.add_argument("--margin", type=float, default=0.5)
    parser.add_argument("--clocks", default="3,10")
    parser.add_argument("--games", default="ticTacToe,connectFour,breakthrough")
    parser.add_argument("--max-steps", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=1, help="matches per role")
    parser.add_argument("--player-src", type=Path, help="plies sources the player runs from")
    parser.add_argument("--log", type=Path, help="write the player's log (INFO) here")
    args = parser.parse_args(argv)
    if args.player_src is not None:
        ggp_load.PLAYER_SRC = args.player_src.resolve()
    loops = busy_loops(args.busy)
    try:
        time.sleep(5)  # let the load average see the loops (not a synchronisation)
        print(f"load before: {os.getloadavg()[0]:.1f}; busy loops {args.busy}; "
              f"margin {args.margin}", flush=True)
        print("| play clock | PLAY replies | after the deadline | after the clock "
              "| max overshoot | p99 overshoot | load |")
        print("|---|---|---|---|---|---|---|")
        serving = (
            ggp_load.player_process(args.margin) if args.log is None
            else logged_player(args.margin, args.log)
        )
        with serving as (port, _pid):
            k = 0
            for clock in (float(c) for c in args.clocks.split(",")):
                overs: list[float] = []
                late = after = 0
                for game in args.games.split(","):
                    manager = GameManager(rules(game))
                    for role in [0, 1] * args.repeat:
                        seats: list[HttpSeat | RandomSeat] = [RandomSeat(random.Random(k))] * 2
                        seats[role] = HttpSeat("127.0.0.1", port)
                        record = manager.play_match(
                            seats, match_id=f"deadline.{k}", start_clock=clock,
                            play_clock=clock, max_steps=args.max_steps,
                            rng=random.Random(k),
                        )
                        k += 1
                        for latency in record.latencies(role):
                            over = latency - (clock - args.margin)
                            overs.append(over)
                            late += over > 0
                            after += latency > clock
                print(
                    f"| {clock:g} s | {len(overs)} | {late} | {after} | "
                    f"{max(overs, default=float('nan')):+.3f} s | "
                    f"{quantile(overs, 0.99):+.3f} s | {os.getloadavg()[0]:.1f} |",
                    flush=True,
                )
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
