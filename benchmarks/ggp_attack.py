#!/usr/bin/env python3
"""Real GGP matches interleaved with an attacker's messages: late, illegal and refused
replies of the player, for one version of plies or another.

    PYTHONPATH=src python benchmarks/ggp_attack.py [--matches 6] [--clock 2]
        [--calm] [--margin 1] [--player-src OTHER/src]

The player runs in a process of its own (``--margin``, default 1 s, ``benchmarks/ggp_load.py``'s
``player_process``), on 127.0.0.1.  The manager (the test suite's game manager, from
127.0.0.1) plays ``--matches`` matches of tic-tac-toe and Connect Four against a random
player, each role in turn, on a ``--clock`` second play clock (start clock the same),
and in every other match re-sends each PLAY once after its reply (a manager that retries).
Before each START, and all along from a second thread, an attacker at 127.0.0.2 sends:

* STARTs with absurd clocks (``1e300``, ``NaN``, ``-1``, ``0``) of a description whose
  grounding never ends;
* an invalid START of 160 KB (many rules, then a missing keyword) just before the real
  START, so that both are read at once;
* a 1 MiB body sent slowly (its headers, then a trickle), holding a large-body slot;
* ten connections that send half a request line and stop.

Reported: the real matches' START replies refused (not ``ready``), PLAY replies late or
illegal (the manager's faults), re-sent PLAYs answered with another move than the first
time, and the attacker's requests by answer.  ``--calm``: no attacker, only the
re-sent PLAYs.  Not part of the test suite.
"""

from __future__ import annotations

import argparse
import random
import re
import socket
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "src", ROOT / "benchmarks"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

import ggp_load  # noqa: E402

from plies.gdl.terms import to_kif  # noqa: E402
from plies.ggp.manager import (  # noqa: E402
    GameManager,
    HttpSeat,
    MatchRecord,
    RandomSeat,
    Step,
    parse_response,
    post,
)
from tests.ggp.helpers import BOMB, rules  # noqa: E402

ATTACKER = "127.0.0.2"
MiB = 1 << 20


def attacker_socket(port: int, timeout: float = 15.0) -> socket.socket:
    sock = socket.socket()
    sock.settimeout(timeout)
    sock.bind((ATTACKER, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def send_raw(port: int, data: bytes, trickle: float = 0.0) -> str:
    """Send ``data`` from the attacker's address (``trickle`` seconds between 64 KiB
    pieces after the first); the reply's status, or what went wrong."""
    try:
        with attacker_socket(port) as sock:
            first, rest = data[:65536], data[65536:]
            sock.sendall(first)
            while rest:
                time.sleep(trickle)
                piece, rest = rest[:65536], rest[65536:]
                sock.sendall(piece)
            reply = b""
            while chunk := sock.recv(65536):
                reply += chunk
            return str(parse_response(reply).status)
    except (OSError, ConnectionError) as err:
        return type(err).__name__


def message(text: str) -> bytes:
    body = text.encode()
    return b"POST / HTTP/1.0\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)


INVALID = "(START bad.%d robot ((role robot) " + " ".join(
    f"(<= (p{k} ?x) (q{k} ?x) (r{k} ?x)) (q{k} a) (r{k} a)" for k in range(3000)
) + " (<= (legal robot ?m) (true s))) 10 1)"


class Attacker:
    def __init__(self, port: int) -> None:
        self.port = port
        self.answers: dict[str, int] = {}
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.held: list[socket.socket] = []

    def note(self, kind: str, answer: str) -> None:
        with self.lock:
            key = f"{kind} -> {answer}"
            self.answers[key] = self.answers.get(key, 0) + 1

    def absurd_starts(self, k: int) -> None:
        for clocks in ("1e300 1", "NaN 1", "-1 1", "0 1"):
            self.note("absurd clock", send_raw(self.port, message(
                f"(START clk.{k} robot {BOMB} {clocks})")))

    def invalid_start(self, k: int) -> threading.Thread:
        def run() -> None:
            self.note("invalid START", send_raw(self.port, message(INVALID % k)))
        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread

    def large_body(self) -> None:
        body = b"(info " + b"a " * (MiB // 2 - 8) + b")"
        self.note("slow 1 MiB body", send_raw(self.port, message(body.decode()), trickle=0.5))

    def hold(self) -> None:
        for _ in range(10):
            try:
                sock = attacker_socket(self.port)
                sock.sendall(b"POST / HT")
                self.held.append(sock)
            except OSError as err:
                self.note("held connection", type(err).__name__)

    def loop(self) -> None:
        while not self.stop.is_set():
            self.large_body()
            self.hold()
            self.stop.wait(0.5)
            for sock in self.held:
                sock.close()
            self.held = []


def resender(port: int, match_id: str, role: int, mismatches: list[str]) -> object:
    """An ``on_step`` hook that re-sends the PLAY just answered and compares the answer."""

    def again(record: MatchRecord, step: Step) -> None:
        steps = record.steps
        last = "NIL" if len(steps) == 1 else "(" + " ".join(
            to_kif(m) for m in steps[-2].joint) + ")"
        first = step.replies.get(role)
        reply = post("127.0.0.1", port, f"(PLAY {match_id} {last})")
        if first is None or reply.body != first.body:
            mismatches.append(f"{match_id} step {len(steps)}: {first and first.body!r} "
                              f"then {reply.body!r}")

    return again


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--clock", type=float, default=2.0)
    parser.add_argument("--max-steps", type=int, default=12)
    parser.add_argument("--calm", action="store_true",
                        help="no attacker: only the re-sent PLAYs")
    parser.add_argument("--margin", type=float, default=1.0, help="the player's margin")
    parser.add_argument("--player-src", type=Path, help="plies sources the player runs from")
    args = parser.parse_args(argv)
    if args.player_src is not None:
        ggp_load.PLAYER_SRC = args.player_src.resolve()
    games = ["ticTacToe", "connectFour"]
    refused: list[str] = []
    late = illegal = replies = 0
    mismatches: list[str] = []
    other: list[str] = []
    with ggp_load.player_process(args.margin) as (port, _pid):
        attacker = Attacker(port)
        background = threading.Thread(target=attacker.loop, daemon=True)
        if args.calm:
            attacker.stop.set()
        background.start()
        try:
            for k in range(args.matches):
                game = games[k % len(games)]
                manager = GameManager(re.sub(r";[^\n]*", "", rules(game)))
                role = (k // len(games)) % 2
                seats: list[HttpSeat | RandomSeat] = [RandomSeat(random.Random(k))] * 2
                seats[role] = HttpSeat("127.0.0.1", port)
                invalid = threading.Thread()
                if not args.calm:
                    attacker.absurd_starts(k)
                    invalid = attacker.invalid_start(k)
                    time.sleep(0.5)  # the real START comes while the invalid one is checked
                else:
                    invalid.start()
                match_id = f"attack.{k}"
                hook = resender(port, match_id, role, mismatches) if k % 2 else None
                record = manager.play_match(
                    seats, match_id=match_id, start_clock=args.clock,
                    play_clock=args.clock, max_steps=args.max_steps,
                    rng=random.Random(k), on_step=hook,  # type: ignore[arg-type]
                )
                invalid.join()
                replies += len(record.latencies(role))
                for fault in record.faults:
                    if fault.phase == "start" or fault.kind in ("http", "failed"):
                        refused.append(f"{match_id}: {fault}")
                    elif fault.kind == "late":
                        late += 1
                    elif fault.kind in ("illegal", "unreadable"):
                        illegal += 1
                    else:
                        other.append(f"{match_id}: {fault}")
                print(f"{match_id} ({game}, role {role}): {len(record.steps)} steps, "
                      f"faults {len(record.faults)}", flush=True)
        finally:
            attacker.stop.set()
            background.join()
    print(f"\nreal matches {args.matches}, PLAY replies {replies}: refused {len(refused)}, "
          f"late {late}, illegal {illegal}, re-sent PLAYs answered differently "
          f"{len(mismatches)}, other faults {len(other)}")
    for line in (refused + mismatches + other)[:12]:
        print(f"  {line}")
    print("attacker's requests: " + "; ".join(
        f"{k} x{v}" for k, v in sorted(attacker.answers.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
