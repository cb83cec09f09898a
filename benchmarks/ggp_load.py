#!/usr/bin/env python3
"""The GGP player under hostile load: reply latency against the play clock, and memory.

    PYTHONPATH=src python benchmarks/ggp_load.py [--clocks 1,2,3] [--games ticTacToe,connectFour]
        [--max-steps 14] [--repeat 2] [--quick] [--memory-only] [--player-src OTHER/src]

The player runs in a process of its own (``GgpServer`` on 127.0.0.1, margin 0.5 s), as a
game manager would hire it.  This process plays whole matches against it with the test
suite's game manager (``tests/ggp/manager.py``: HTTP/1.0 as ggp-base sends it, a random
opponent), ``2 x --repeat`` matches per game and play clock (plies plays each role in
turn), while hostile clients keep at it:

* between matches: an aborted *bomb* match (a valid description whose grounding runs for
  days; START, one PLAY, ABORT), the fault that used to cost the next match its first
  moves;
* during matches, from two threads: 15 MiB bodies (headers only, then the body), garbage,
  a message nested 10,000 deep, and floods of 20 concurrent INFO requests;
* in every other match, joint moves that are illegal in the player's view or that it
  cannot read at all (misspelt, unknown moves).

Reported per play clock: the PLAY replies, the maximum and the 99th percentile of
*reply time / play clock* (the reply time is measured by the manager, from sending the
request to the end of the reply), the replies that came after the clock, the replies that
were not a legal move in the manager's state, and the hostile requests sent and refused.
Then the memory table: the player process's peak RSS (``VmHWM``) after one and after
three concurrent 15 MiB messages, measured in fresh processes.

Not part of the test suite (timings depend on the machine): ``make bench`` material.
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "src"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from plies.gdl.terms import Term, to_kif  # noqa: E402
from plies.ggp.manager import GameManager, HttpSeat, RandomSeat, post  # noqa: E402
from tests.ggp.helpers import BOMB, rules  # noqa: E402

MiB = 1024 * 1024

SERVE = """
import sys, threading
from plies.ggp.player import GgpPlayer
from plies.ggp.server import GgpServer
server = GgpServer(GgpPlayer(margin={margin}, seed=1), "127.0.0.1", 0).start()
print(server.port, flush=True)
sys.stdin.read()  # until the benchmark closes our stdin
server.stop()
"""


PLAYER_SRC = ROOT / "src"
"""Where the player process imports plies from (``--player-src``: to measure another
version, e.g. an older checkout, against the same load)."""


@contextmanager
def player_process(margin: float = 0.5) -> Iterator[tuple[int, int]]:
    """A GGP player in a process of its own; yields (port, pid)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(PLAYER_SRC), str(ROOT)]))
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVE.format(margin=margin)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True, env=env,
    )
    try:
        assert proc.stdout is not None
        port = int(proc.stdout.readline())
        yield port, proc.pid
    finally:
        if proc.stdin is not None:
            proc.stdin.close()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def peak_rss(pid: int) -> int:
    """The process's peak resident set size in bytes (Linux ``VmHWM``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0


# --- hostile clients ----------------------------------------------------------------------


@dataclass
class Hostility:
    """Counts of the hostile requests sent, by kind, and of the answers they got."""

    sent: dict[str, int] = field(default_factory=dict)
    answers: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def note(self, kind: str, status: int | str) -> None:
        with self.lock:
            self.sent[kind] = self.sent.get(kind, 0) + 1
            key = f"{kind}:{status}"
            self.answers[key] = self.answers.get(key, 0) + 1


def oversized(port: int, size: int = 15 * MiB) -> int | str:
    """A 15 MiB message, ``(info (a b) (a b) ...)``: the headers, then as much of the
    body as the player takes."""
    chunk = b"(a b) " * (MiB // 6)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
            sock.sendall(f"POST / HTTP/1.0\r\nContent-Length: {size}\r\n\r\n(info ".encode())
            sent = 6
            while sent < size - 1:
                piece = chunk[: size - 1 - sent]
                sock.sendall(piece)
                sent += len(piece)
            sock.sendall(b")")
            return _status(sock)
    except OSError as err:  # the player refused and closed: expected
        return type(err).__name__


def _status(sock: socket.socket) -> int | str:
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    parts = data.split(b" ", 2)
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else "no reply"


def raw(port: int, data: bytes) -> int | str:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(data)
            return _status(sock)
    except OSError as err:
        return type(err).__name__


def garbage(port: int, rng: random.Random) -> int | str:
    return raw(port, bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400))))


def deep(port: int) -> int | str:
    body = b"(info " + b"(" * 10_000 + b")" * 10_000 + b")"
    return raw(port, b"POST / HTTP/1.0\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))


INFO = b"POST / HTTP/1.0\r\nContent-Length: 6\r\n\r\n(info)"


def info_flood(port: int, n: int = 20) -> list[int | str]:
    out: list[int | str] = []
    threads = [
        threading.Thread(target=lambda: out.append(raw(port, INFO))) for _ in range(n)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def hostile_loop(port: int, stop: threading.Event, log: Hostility, seed: int) -> None:
    rng = random.Random(seed)
    while not stop.is_set():
        kind = rng.choice(["oversized", "garbage", "deep", "flood"])
        if kind == "oversized":
            log.note(kind, oversized(port))
        elif kind == "garbage":
            log.note(kind, garbage(port, rng))
        elif kind == "deep":
            log.note(kind, deep(port))
        else:
            for status in info_flood(port):
                log.note("info flood", status)
        stop.wait(0.05)


def bomb_match(port: int, k: int, log: Hostility) -> None:
    """START a bomb match, one PLAY, ABORT (the player is free again afterwards)."""
    for text in (f"(START bomb.{k} robot {BOMB} 1 1)", f"(PLAY bomb.{k} NIL)", f"(ABORT bomb.{k})"):
        log.note("bomb match", post("127.0.0.1", port, text).status)


# --- the matches ------------------------------------------------------------------------------


def garbler(manager: GameManager) -> Any:
    """Misspell the joint move sent: moves in capitals, and unknown moves for roles with
    one legal move (their noop), as a confused manager might."""
    reasoner = manager.reasoner

    def garble(state: Any, joint: tuple[Term, ...]) -> str:
        words = []
        for r, move in enumerate(joint):
            if len(reasoner.legal(state, r)) == 1:
                words.append("(unknown move)")
            else:
                words.append(to_kif(move).upper())
        return "(" + " ".join(words) + ")"

    return garble


@dataclass
class Row:
    clock: int
    ratios: list[float] = field(default_factory=list)
    late: int = 0
    illegal: int = 0
    errors: list[str] = field(default_factory=list)


def play(
    port: int, games: list[str], clocks: list[int], max_steps: int, repeat: int, log: Hostility
) -> list[Row]:
    rows = []
    k = 0
    for clock in clocks:
        row = Row(clock)
        for game in games:
            manager = GameManager(rules(game))
            for role in [0, 1] * repeat:
                bomb_match(port, k, log)
                seats: list[HttpSeat | RandomSeat] = [RandomSeat(random.Random(k))] * 2
                seats[role] = HttpSeat("127.0.0.1", port)
                record = manager.play_match(
                    seats, match_id=f"load.{k}", start_clock=max(2, clock), play_clock=clock,
                    max_steps=max_steps, rng=random.Random(k),
                    garble=garbler(manager) if k % 2 else None,
                )
                k += 1
                for step in record.steps:
                    reply = step.replies.get(role)
                    if reply is None:
                        continue
                    row.ratios.append(reply.latency / clock)
                    row.late += reply.latency >= clock
                row.illegal += sum("illegal" in e or "HTTP" in e for e in record.errors)
                row.errors += record.errors
        rows.append(row)
    return rows


def p99(values: list[float]) -> float:
    if len(values) < 2:
        return max(values, default=0.0)
    return statistics.quantiles(values, n=100, method="inclusive")[98]


def latency_table(rows: list[Row]) -> str:
    lines = [
        "| play clock | PLAY replies | max reply/clock | p99 reply/clock | after the clock "
        "| not legal |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows:
        lines.append(
            f"| {row.clock} s | {len(row.ratios)} | {max(row.ratios, default=0):.3f} | "
            f"{p99(row.ratios):.3f} | {row.late} | {row.illegal} |"
        )
    return "\n".join(lines)


# --- memory --------------------------------------------------------------------------------


def memory_table() -> str:
    lines = ["| case | player peak RSS |", "|---|---|"]
    cases = (
        ("idle", 0, 0),
        ("one 1 MiB message (the largest accepted)", 1, MiB),
        ("one 15 MiB message", 1, 15 * MiB),
        ("three 15 MiB messages at once", 3, 15 * MiB),
    )
    for label, n, size in cases:
        with player_process() as (port, pid):
            post("127.0.0.1", port, "(info)")
            threads = [threading.Thread(target=oversized, args=(port, size)) for _ in range(n)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            post("127.0.0.1", port, "(info)")
            lines.append(f"| {label} | {peak_rss(pid) / MiB:.0f} MiB |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clocks", default="1,2,3", help="play clocks in seconds")
    parser.add_argument("--games", default="ticTacToe,connectFour")
    parser.add_argument("--max-steps", type=int, default=14, help="steps per match (then ABORT)")
    parser.add_argument("--repeat", type=int, default=2, help="matches per role, game and clock")
    parser.add_argument("--quick", action="store_true", help="play clock 1 only, tic-tac-toe")
    parser.add_argument("--memory-only", action="store_true")
    parser.add_argument("--player-src", type=Path, help="plies sources the player runs from")
    args = parser.parse_args(argv)
    if args.player_src is not None:
        global PLAYER_SRC
        PLAYER_SRC = args.player_src.resolve()
    clocks = [1] if args.quick else [int(c) for c in args.clocks.split(",")]
    games = ["ticTacToe"] if args.quick else args.games.split(",")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores", flush=True)
    if not args.memory_only:
        log = Hostility()
        with player_process() as (port, pid):
            stop = threading.Event()
            threads = [
                threading.Thread(target=hostile_loop, args=(port, stop, log, seed), daemon=True)
                for seed in (1, 2)
            ]
            for t in threads:
                t.start()
            started = time.perf_counter()
            try:
                rows = play(port, games, clocks, args.max_steps, args.repeat, log)
            finally:
                stop.set()
                for t in threads:
                    t.join()
            rss = peak_rss(pid)
        print(latency_table(rows))
        print(f"\n{time.perf_counter() - started:.0f} s; player peak RSS {rss / MiB:.0f} MiB")
        print("hostile requests: " + ", ".join(f"{k} {v}" for k, v in sorted(log.sent.items())))
        print("their answers: " + ", ".join(f"{k} x{v}" for k, v in sorted(log.answers.items())))
        errors = [f"clock {row.clock}: {error}" for row in rows for error in row.errors]
        for error in errors[:10]:
            print(f"  {error}")
        if len(errors) > 10:
            print(f"  ... {len(errors) - 10} more errors")
    print()
    print(memory_table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
