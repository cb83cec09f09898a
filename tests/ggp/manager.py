"""A small GGP game manager for the tests: it plays whole matches over real HTTP.

It behaves like ggp-base's GameServer as described in ``shared/docs/ggp_protocol.md``:
HTTP/1.0 POSTs with the same headers, START/PLAY/STOP sent to every player in parallel,
``(play <id> nil)`` first and then the joint move just played, STOP with the final joint
move, ABORT when a step limit is reached.  A reply that is late, unreadable or illegal is
recorded as an error and replaced by a random legal move, as ggp-base does.  Legal moves,
the next state and the final goals come from plies' own reasoner.

A seat is either an HTTP player (:class:`HttpSeat`) or a random player that the manager
plays itself (:class:`RandomSeat`).
"""

from __future__ import annotations

import random
import socket
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from plies.errors import GameFormatError
from plies.gdl.parser import parse, parse_term
from plies.gdl.reasoner import Reasoner
from plies.gdl.terms import Term, to_kif


@dataclass(frozen=True)
class HttpReply:
    status: int
    headers: dict[str, str]
    body: str
    latency: float  # seconds from sending the request to the end of the reply


def raw_request(host: str, port: int, data: bytes, timeout: float = 10.0) -> tuple[bytes, float]:
    """Send ``data`` as is, read until the server closes; returns (bytes, seconds)."""
    start = time.perf_counter()
    with socket.create_connection((host, port), timeout=5.0) as sock:
        sock.settimeout(timeout)
        sock.sendall(data)
        chunks = []
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks), time.perf_counter() - start


def parse_response(raw: bytes, latency: float = 0.0) -> HttpReply:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if "content-length" in headers:
        body = body[: int(headers["content-length"])]
    return HttpReply(status, headers, body.decode("utf-8"), latency)


def post(
    host: str, port: int, message: str, *, timeout: float = 10.0, receiver: str = "player"
) -> HttpReply:
    """POST ``message`` exactly as ggp-base's ``HttpWriter.writeAsClient`` does."""
    body = message.encode("utf-8")
    head = (
        "POST / HTTP/1.0\r\n"
        "Accept: text/delim\r\n"
        f"Host: {host}:{port}\r\n"
        "Sender: GAMESERVER\r\n"
        f"Receiver: {receiver}\r\n"
        "Content-Type: text/acl\r\n"
        f"Content-Length: {len(body)}\r\n"
        "\r\n"
    )
    raw, latency = raw_request(host, port, head.encode("ascii") + body, timeout)
    return parse_response(raw, latency)


@dataclass(frozen=True)
class HttpSeat:
    """A player reached over HTTP."""

    host: str
    port: int


@dataclass
class RandomSeat:
    """A player the manager plays itself: a uniformly random legal move."""

    rng: random.Random = field(default_factory=lambda: random.Random(0))


Seat = HttpSeat | RandomSeat


@dataclass
class Step:
    state: Any  # the state the moves were chosen in
    joint: tuple[Term, ...]  # the joint move applied
    replies: dict[int, HttpReply] = field(default_factory=dict)  # role -> raw reply


@dataclass
class MatchRecord:
    match_id: str
    roles: tuple[str, ...]
    steps: list[Step] = field(default_factory=list)
    start_replies: dict[int, HttpReply] = field(default_factory=dict)
    stop_replies: dict[int, HttpReply] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    final_state: Any = None
    goals: tuple[int, ...] | None = None  # None when the match was aborted
    aborted: bool = False

    def latencies(self, role: int) -> list[float]:
        return [s.replies[role].latency for s in self.steps if role in s.replies]


class GameManager:
    """Plays matches of one game (GDL text) between seats."""

    def __init__(self, rules: str, source: str = "<rules>") -> None:
        self.description = parse(rules, source)
        self.reasoner = Reasoner(self.description)
        self.roles: tuple[str, ...] = tuple(self.reasoner.roles)
        self.rules_message = "(" + " ".join(to_kif(rule) for rule in self.description.rules) + ")"

    def play_match(
        self,
        seats: Sequence[Seat],
        *,
        match_id: str,
        start_clock: int = 2,
        play_clock: int = 1,
        max_steps: int | None = None,
        rng: random.Random | None = None,
        override: Callable[[int, int, Term], Term] | None = None,
        rewrite: Callable[[Any, tuple[Term, ...]], tuple[Term, ...]] | None = None,
        garble: Callable[[Any, tuple[Term, ...]], str] | None = None,
    ) -> MatchRecord:
        """Play one match; ``seats[i]`` plays role ``i``.

        ``override(step, role, move)`` may replace a role's move before it is applied
        (as a server does with a late reply): players must follow the joint move they are
        sent, not what they answered.  ``rewrite(state, joint)`` may replace the whole
        joint move applied in ``state`` (by moves that are not legal there, for
        instance).  ``garble(state, joint)`` gives the text sent for the joint move
        applied in ``state`` instead of its KIF (misspelt, unknown or missing moves).
        """
        assert len(seats) == len(self.roles)
        rng = rng or random.Random(0)
        reasoner = self.reasoner
        record = MatchRecord(match_id, self.roles)
        http = {i: s for i, s in enumerate(seats) if isinstance(s, HttpSeat)}
        with ThreadPoolExecutor(max_workers=max(1, len(http))) as pool:

            def broadcast(messages: dict[int, str], timeout: float) -> dict[int, HttpReply]:
                futures = {
                    i: pool.submit(
                        post, http[i].host, http[i].port, text, timeout=timeout,
                        receiver=self.roles[i],
                    )
                    for i, text in messages.items()
                }
                out: dict[int, HttpReply] = {}
                for i, future in futures.items():
                    try:
                        out[i] = future.result()
                    except OSError as err:
                        record.errors.append(f"{self.roles[i]}: connection error {err!r}")
                return out

            starts = {
                i: f"(START {match_id} {self.roles[i]} {self.rules_message} "
                f"{start_clock} {play_clock})"
                for i in http
            }
            record.start_replies = broadcast(starts, start_clock + 1.0)
            for i, reply in record.start_replies.items():
                if reply.status != 200 or reply.body.strip().lower() != "ready":
                    record.errors.append(
                        f"{self.roles[i]}: START reply {reply.status} {reply.body!r}"
                    )
            state = reasoner.initial_state()
            last = "NIL"
            while not reasoner.is_terminal(state):
                if max_steps is not None and len(record.steps) >= max_steps:
                    broadcast({i: f"(ABORT {match_id})" for i in http}, 2.0)
                    record.aborted = True
                    record.final_state = state
                    return record
                legal = [reasoner.legal(state, r) for r in range(len(self.roles))]
                replies = broadcast(
                    {i: f"(PLAY {match_id} {last})" for i in http}, play_clock + 1.0
                )
                joint: list[Term] = []
                for r, seat in enumerate(seats):
                    if isinstance(seat, RandomSeat):
                        joint.append(seat.rng.choice(legal[r]))
                        continue
                    move = self._read_move(record, r, replies.get(r), legal[r], play_clock)
                    joint.append(rng.choice(legal[r]) if move is None else move)
                if override is not None:
                    joint = [override(len(record.steps), r, m) for r, m in enumerate(joint)]
                if rewrite is not None:
                    joint = list(rewrite(state, tuple(joint)))
                record.steps.append(Step(state, tuple(joint), replies))
                last = "(" + " ".join(to_kif(m) for m in joint) + ")"
                if garble is not None:
                    last = garble(state, tuple(joint))
                state = reasoner.next_state(state, tuple(joint))
            record.final_state = state
            record.goals = tuple(reasoner.goal(state, r) for r in range(len(self.roles)))
            record.stop_replies = broadcast(
                {i: f"(STOP {match_id} {last})" for i in http}, play_clock + 1.0
            )
            for i, reply in record.stop_replies.items():
                if reply.status != 200 or reply.body.strip().lower() != "done":
                    record.errors.append(
                        f"{self.roles[i]}: STOP reply {reply.status} {reply.body!r}"
                    )
        return record

    def _read_move(
        self,
        record: MatchRecord,
        role: int,
        reply: HttpReply | None,
        legal: Sequence[Term],
        play_clock: float,
    ) -> Term | None:
        """The legal move a reply names, or None (and an error) as ggp-base would see it."""
        name = self.roles[role]
        step = len(record.steps) + 1
        if reply is None:
            return None
        if reply.latency >= play_clock:
            record.errors.append(f"step {step}: {name} late ({reply.latency:.3f}s)")
        if reply.status != 200:
            record.errors.append(f"step {step}: {name} HTTP {reply.status} {reply.body!r}")
            return None
        try:
            move = parse_term(reply.body)
        except GameFormatError as err:
            record.errors.append(f"step {step}: {name} unreadable move {reply.body!r}: {err}")
            return None
        if move not in legal:
            record.errors.append(f"step {step}: {name} illegal move {reply.body!r}")
            return None
        return move
