"""A GGP game manager: run a match over HTTP between any GGP players, and judge it.

It does what ggp-base's ``GameServer`` does (see ``docs/ggp-protocol.md``): it
sends ``(START id role (rules) startclock playclock)`` to every player at once, then
``(PLAY id nil)`` and ``(PLAY id (joint move just played))`` each step, and finally
``(STOP id (last joint move))``; every request is an HTTP/1.0 POST with ggp-base's
headers.  The rules (legal moves, next state, terminal test, goals) come from any
:class:`~plies.gdl.machine.StateMachine`.

Judgement.  A reply is *late* if it ends after the clock (measured from sending the
request), *illegal* if it names a move the role may not make, *unreadable* if it is no
GDL term, *http* if its status is not 200, *failed* if the connection fails (no reply
within the clock plus ``grace`` seconds is late too).  Each such reply is recorded as a
:class:`Fault` (phase, step, role, what happened) and its move is replaced by a
uniformly random legal move, so the match goes on, as ggp-base does.  (ggp-base accepts a reply up
to one second after the play clock; here a reply after the clock is already late.)

A seat is an HTTP player (:class:`HttpSeat`) or a random player that the manager plays
itself (:class:`RandomSeat`).  ``play_match``'s ``override``, ``rewrite`` and ``garble``
inject faults on the manager's side (illegal or misspelt joint moves), to test that a
player stays in step with what the manager says was played.

>>> seat = HttpSeat.from_url("http://127.0.0.1:9147/")
>>> seat.host, seat.port, seat.url
('127.0.0.1', 9147, 'http://127.0.0.1:9147/')
"""

from __future__ import annotations

import functools
import logging
import random
import socket
import statistics
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urlsplit

from plies.errors import GameFormatError, PliesError, quoted
from plies.gdl.machine import MachineChoice, StateMachine, build_machine
from plies.gdl.parser import parse, parse_term
from plies.gdl.terms import Description, Term, to_kif

log = logging.getLogger("plies.ggp")

DEFAULT_GRACE = 1.0
"""Seconds past a clock the manager still waits for a reply (to time a late one), as
ggp-base waits one second past the play clock."""

CONNECT_TIMEOUT = 5.0
"""Seconds to open a connection (ggp-base's)."""

ABORT_TIMEOUT = 2.0
"""Seconds the manager waits for the players' replies to the ABORT it sends when a match
is abandoned (Ctrl-C, an error): every player is told at once, so the wait is bounded by
this, whatever the number of players."""

SIGNATURE = b'"judge": "plies ggp match"'
"""What the head of every match record ``plies ggp match --json`` writes holds (the
first key of :meth:`MatchRecord.to_json`): a file holding it is replaced without
``--force`` (:func:`plies.outputs.check_target`)."""


class MatchSetupError(PliesError):
    """A match that cannot begin: a player's address, the number of players, or a player
    that cannot be reached.  The message names what was wrong and what is accepted."""


# --- HTTP, as ggp-base's HttpWriter/HttpReader speak it ------------------------------------


@dataclass(frozen=True)
class HttpReply:
    """One HTTP reply: status, headers (lower-case names), body, and ``latency``, the
    seconds from sending the request to the end of the reply."""

    status: int
    headers: dict[str, str]
    body: str
    latency: float


def raw_request(
    host: str, port: int, data: bytes, timeout: float = 10.0
) -> tuple[bytes, float]:
    """Send ``data`` as is and read until the server closes; returns (bytes, seconds).

    ``timeout`` bounds the whole exchange (a player that trickles its reply is cut off
    too); raises :class:`OSError` (``TimeoutError`` when out of time).
    """
    start = time.perf_counter()
    deadline = start + timeout
    with socket.create_connection((host, port), timeout=min(CONNECT_TIMEOUT, timeout)) as sock:
        sock.sendall(data)
        chunks = []
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError(f"no complete reply within {timeout:g}s")
            sock.settimeout(left)
            chunk = sock.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks), time.perf_counter() - start


def parse_response(raw: bytes, latency: float = 0.0) -> HttpReply:
    """Read an HTTP reply; raises :class:`ConnectionError` if it is not one."""
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split()
    if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
        raise ConnectionError(f"not an HTTP reply: {quoted(lines[0])}")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = headers.get("content-length", "")
    if length.isdigit():
        body = body[: int(length)]
    return HttpReply(int(parts[1]), headers, body.decode("utf-8", "replace"), latency)


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


def call_all(
    calls: dict[int, Callable[[], HttpReply]], wait: float | None = None
) -> dict[int, HttpReply | OSError]:
    """Run every call at once, each in a daemon thread; their replies or errors by key.

    Daemon threads, not a pool: a Ctrl-C while the replies are awaited ends the wait at
    once (and the process may exit) instead of waiting out every request's timeout.
    ``wait`` bounds the whole wait; a call still running then is left out of the result.
    """
    out: dict[int, HttpReply | OSError] = {}

    def run(key: int, call: Callable[[], HttpReply]) -> None:
        try:
            out[key] = call()
        except OSError as err:
            out[key] = err

    threads = [threading.Thread(target=run, args=item, daemon=True, name=f"ggp-post-{item[0]}")
               for item in calls.items()]
    for thread in threads:
        thread.start()
    deadline = None if wait is None else time.monotonic() + wait
    for thread in threads:
        thread.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
    return {key: out[key] for key in calls if key in out}


# --- seats and records -----------------------------------------------------------------


@dataclass(frozen=True)
class HttpSeat:
    """A player reached over HTTP at ``host:port``."""

    host: str
    port: int

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    @classmethod
    def from_url(cls, url: str) -> HttpSeat:
        """``http://HOST:PORT/`` (or ``HOST:PORT``); raises :class:`MatchSetupError`."""
        try:  # urlsplit itself refuses some addresses ("http://[::1/": an open bracket)
            split = urlsplit(url if "://" in url else f"http://{url}")
            host, port = split.hostname, split.port
        except ValueError:
            split, host, port = None, None, None
        if split is None or split.scheme != "http" or not host or port is None:
            raise MatchSetupError(
                f"not a player address: {quoted(url)}; expected http://HOST:PORT/ or "
                "HOST:PORT (or 'random' for a random player the manager plays)"
            )
        return cls(host, port)


@dataclass
class RandomSeat:
    """A player the manager plays itself: a uniformly random legal move."""

    rng: random.Random = field(default_factory=lambda: random.Random(0))


Seat = HttpSeat | RandomSeat

Phase = Literal["start", "play", "stop"]
FaultKind = Literal["late", "illegal", "unreadable", "http", "failed", "reply"]


@dataclass(frozen=True)
class Fault:
    """A reply the manager did not accept as it came.

    ``phase`` is the message answered; ``step`` the 1-based PLAY step (0 for START, the
    number of steps + 1 for STOP); ``kind``: ``late`` (after the clock), ``illegal``,
    ``unreadable`` (no GDL term), ``http`` (status not 200), ``failed`` (the connection
    failed; no reply within the clock plus the grace is ``late``), ``reply`` (START not
    answered ``ready`` or STOP not ``done``).  A PLAY fault's move was replaced by a
    random legal one.
    """

    phase: Phase
    step: int
    role: str
    kind: FaultKind
    detail: str
    latency: float | None = None

    def __str__(self) -> str:
        where = {"start": "START", "stop": "STOP"}.get(self.phase, f"step {self.step}")
        return f"{where}: {self.role} {self.detail}"


@dataclass
class Step:
    """One PLAY round: the state the moves were chosen in, the joint move applied, the
    raw replies (by role number) and the faults of this step."""

    state: Any
    joint: tuple[Term, ...]
    replies: dict[int, HttpReply] = field(default_factory=dict)
    faults: list[Fault] = field(default_factory=list)


@dataclass
class MatchRecord:
    """Everything that happened in one match."""

    match_id: str
    roles: tuple[str, ...]
    players: tuple[str, ...] = ()  # a URL per role, or "random"
    start_clock: float = 0
    play_clock: float = 0
    steps: list[Step] = field(default_factory=list)
    start_replies: dict[int, HttpReply] = field(default_factory=dict)
    stop_replies: dict[int, HttpReply] = field(default_factory=dict)
    faults: list[Fault] = field(default_factory=list)
    final_state: Any = None
    goals: tuple[int, ...] | None = None  # None when the match was aborted
    aborted: bool = False
    elapsed: float = 0.0

    @property
    def errors(self) -> list[str]:
        """Every fault as one line (``"step 3: xplayer illegal move '(mark 9 9)'"``)."""
        return [str(f) for f in self.faults]

    def latencies(self, role: int) -> list[float]:
        """The reply time of every PLAY that role number ``role`` answered."""
        return [s.replies[role].latency for s in self.steps if role in s.replies]

    def to_json(self, game: str = "", machine: str = "") -> dict[str, Any]:
        """The record as JSON data: moves and replies per step, faults, goals, times."""

        def reply(r: HttpReply | None) -> dict[str, Any] | None:
            if r is None:
                return None
            return {"status": r.status, "body": r.body, "latency": round(r.latency, 4)}

        n = len(self.roles)
        times = {}
        for i, role in enumerate(self.roles):
            lat = self.latencies(i)
            times[role] = {
                "replies": len(lat),
                "mean": round(statistics.fmean(lat), 4) if lat else None,
                "max": round(max(lat), 4) if lat else None,
            }
        return {
            "judge": "plies ggp match", "game": game, "machine": machine,
            "match_id": self.match_id, "roles": list(self.roles), "players": list(self.players),
            "start_clock": self.start_clock, "play_clock": self.play_clock,
            "completed": self.goals is not None, "aborted": self.aborted,
            "goals": list(self.goals) if self.goals is not None else None,
            "steps": len(self.steps), "elapsed": round(self.elapsed, 3),
            "moves": [[to_kif(m) for m in s.joint] for s in self.steps],
            "replies": [[reply(s.replies.get(i)) for i in range(n)] for s in self.steps],
            "start": [reply(self.start_replies.get(i)) for i in range(n)],
            "stop": [reply(self.stop_replies.get(i)) for i in range(n)],
            "faults": [
                {"phase": f.phase, "step": f.step, "role": f.role, "kind": f.kind,
                 "detail": f.detail, "latency": f.latency}
                for f in self.faults
            ],
            "reply_times": times,
        }


# --- the manager -----------------------------------------------------------------------


def default_machine(description: Description, prefer: str = "auto") -> MachineChoice:
    """The reasoner plies would choose to play ``description``
    (:func:`~plies.gdl.machine.build_machine`: the propnet where it can be grounded, else
    the top-down prover); ``prefer`` ``"propnet"`` or ``"topdown"`` forces one."""
    return build_machine(description, prefer=prefer)


class GameManager:
    """Runs matches of one game between seats.

    ``rules`` is KIF text or a parsed :class:`~plies.gdl.terms.Description`; it is
    validated (raises :class:`~plies.errors.GameFormatError` or
    :class:`~plies.errors.GdlValidationError`).  ``machine`` answers the rules' questions
    (default: :func:`default_machine` with ``prefer``; ``choice`` then says which one was
    built and why).
    """

    def __init__(
        self,
        rules: str | Description,
        source: str = "<rules>",
        *,
        machine: StateMachine[Any] | None = None,
        prefer: str = "auto",
    ) -> None:
        from plies.gdl.validator import check

        self.description = parse(rules, source) if isinstance(rules, str) else rules
        check(self.description)
        self.choice: MachineChoice | None = None
        if machine is None:
            self.choice = default_machine(self.description, prefer)
            machine = self.choice.machine
        self.machine: StateMachine[Any] = machine
        self.roles: tuple[str, ...] = tuple(self.machine.roles)
        self.rules_message = "(" + " ".join(to_kif(r) for r in self.description.rules) + ")"

    @property
    def reasoner(self) -> StateMachine[Any]:
        """The state machine (the name the test suite's manager had)."""
        return self.machine

    def check_players(self, seats: Sequence[Seat], timeout: float = CONNECT_TIMEOUT) -> None:
        """Raise :class:`MatchSetupError` unless there is a seat per role and every HTTP
        player answers an INFO request."""
        if len(seats) != len(self.roles):
            raise MatchSetupError(
                f"this game has {len(self.roles)} role(s) ({', '.join(self.roles)}), "
                f"got {len(seats)} player(s); give one per role, in role order"
            )
        http = {i: s for i, s in enumerate(seats) if isinstance(s, HttpSeat)}
        replies = call_all({
            i: functools.partial(post, s.host, s.port, "(info)", timeout=timeout)
            for i, s in http.items()
        })
        for i, reply in sorted(replies.items()):
            if isinstance(reply, OSError):
                raise MatchSetupError(
                    f"cannot reach the player of {self.roles[i]} at {http[i].url}: "
                    f"{getattr(reply, 'strerror', None) or reply}"
                )

    def play_match(
        self,
        seats: Sequence[Seat],
        *,
        match_id: str,
        start_clock: float = 10,
        play_clock: float = 5,
        max_steps: int | None = None,
        grace: float = DEFAULT_GRACE,
        rng: random.Random | None = None,
        on_start: Callable[[MatchRecord], None] | None = None,
        on_step: Callable[[MatchRecord, Step], None] | None = None,
        override: Callable[[int, int, Term], Term] | None = None,
        rewrite: Callable[[Any, tuple[Term, ...]], tuple[Term, ...]] | None = None,
        garble: Callable[[Any, tuple[Term, ...]], str] | None = None,
        on_abort: Callable[[dict[str, str]], None] | None = None,
    ) -> MatchRecord:
        """Play one match to a terminal state; ``seats[i]`` plays role ``i``.

        After ``max_steps`` PLAY rounds an unfinished match is ended with ABORT
        (``record.aborted``, no goals).  ``rng`` draws the replacement moves (and
        nothing else).  ``on_start(record)`` is called once the START replies are in,
        ``on_step(record, step)`` after each step is applied.

        Fault injection, to test players: ``override(step, role, move)`` may replace a
        role's move before it is applied (as a server does with a late reply);
        ``rewrite(state, joint)`` the whole joint move applied in ``state`` (by moves not
        legal there, for instance); ``garble(state, joint)`` gives the text sent for the
        joint move applied in ``state`` instead of its KIF.

        A match abandoned before its STOP (Ctrl-C, an error of the rules or of a
        callback: any exception) is ended with ``(ABORT id)`` to every HTTP player at
        once, waiting at most :data:`ABORT_TIMEOUT` seconds for their replies, so no
        player stays busy with it; ``on_abort`` is then given each told role's reply
        (``"aborted"``, or why there was none), and the exception goes on.
        """
        if len(seats) != len(self.roles):
            raise MatchSetupError(
                f"this game has {len(self.roles)} role(s), got {len(seats)} player(s)"
            )
        began = time.perf_counter()
        rng = rng or random.Random(0)
        machine = self.machine
        record = MatchRecord(
            match_id, self.roles,
            tuple(s.url if isinstance(s, HttpSeat) else "random" for s in seats),
            start_clock, play_clock,
        )
        http = {i: s for i, s in enumerate(seats) if isinstance(s, HttpSeat)}

        def fault(phase: Phase, step: int, role: int, kind: FaultKind, detail: str,
                  latency: float | None = None) -> Fault:
            found = Fault(phase, step, self.roles[role], kind, detail, latency)
            record.faults.append(found)
            return found

        ended = False  # STOP or ABORT sent: from then on the players know

        def broadcast(
            messages: dict[int, str], timeout: float, phase: Phase, step: int
        ) -> dict[int, HttpReply]:
            answers = call_all({
                i: functools.partial(post, http[i].host, http[i].port, text,
                                     timeout=timeout, receiver=self.roles[i])
                for i, text in messages.items()
            })
            out: dict[int, HttpReply] = {}
            for i in messages:
                answer = answers[i]
                if isinstance(answer, TimeoutError):
                    fault(phase, step, i, "late", f"no reply within {timeout:g}s")
                elif isinstance(answer, OSError):
                    fault(phase, step, i, "failed", f"no reply ({_reason(answer)})")
                else:
                    out[i] = answer
            return out

        try:
            record.start_replies = broadcast(
                {i: f"(START {match_id} {self.roles[i]} {self.rules_message} "
                    f"{_clock(start_clock)} {_clock(play_clock)})" for i in http},
                start_clock + grace, "start", 0,
            )
            for i, reply in record.start_replies.items():
                self._check_ack(fault, "start", 0, i, reply, "ready", start_clock)
            if on_start is not None:
                on_start(record)
            state = machine.initial_state()
            last = "NIL"
            while not machine.is_terminal(state):
                if max_steps is not None and len(record.steps) >= max_steps:
                    ended = True
                    broadcast({i: f"(ABORT {match_id})" for i in http}, ABORT_TIMEOUT, "stop",
                              len(record.steps) + 1)
                    record.aborted = True
                    record.final_state = state
                    record.elapsed = time.perf_counter() - began
                    return record
                number = len(record.steps) + 1
                legal = machine.legal_all(state)
                before = len(record.faults)
                replies = broadcast({i: f"(PLAY {match_id} {last})" for i in http},
                                    play_clock + grace, "play", number)
                joint: list[Term] = []
                for r, seat in enumerate(seats):
                    if isinstance(seat, RandomSeat):
                        joint.append(seat.rng.choice(legal[r]))
                        continue
                    move = self._judge(fault, number, r, replies.get(r), legal[r], play_clock)
                    joint.append(rng.choice(legal[r]) if move is None else move)
                if override is not None:
                    joint = [override(len(record.steps), r, m) for r, m in enumerate(joint)]
                if rewrite is not None:
                    joint = list(rewrite(state, tuple(joint)))
                step = Step(state, tuple(joint), replies, record.faults[before:])
                record.steps.append(step)
                last = "(" + " ".join(to_kif(m) for m in joint) + ")"
                if garble is not None:
                    last = garble(state, tuple(joint))
                state = machine.next_state(state, tuple(joint))
                if on_step is not None:
                    on_step(record, step)
            record.final_state = state
            record.goals = machine.goals(state)
            stop = len(record.steps) + 1
            ended = True
            record.stop_replies = broadcast({i: f"(STOP {match_id} {last})" for i in http},
                                            play_clock + grace, "stop", stop)
        except BaseException:
            if not ended:
                told = self.abort(match_id, http)
                if on_abort is not None:
                    on_abort(told)
            raise
        for i, reply in record.stop_replies.items():
            self._check_ack(fault, "stop", stop, i, reply, "done", play_clock)
        record.elapsed = time.perf_counter() - began
        return record

    def abort(self, match_id: str, players: dict[int, HttpSeat]) -> dict[str, str]:
        """Send ``(ABORT match_id)`` to every player of ``players`` (by role number) at
        once; each role's reply (``"aborted"``), or why there was none, after at most
        :data:`ABORT_TIMEOUT` seconds (a player still silent then is reported so)."""
        answers = call_all({
            i: functools.partial(post, seat.host, seat.port, f"(ABORT {match_id})",
                                 timeout=ABORT_TIMEOUT, receiver=self.roles[i])
            for i, seat in players.items()
        }, wait=ABORT_TIMEOUT + 0.5)
        told: dict[str, str] = {}
        for i in sorted(players):
            answer = answers.get(i)
            if answer is None or isinstance(answer, TimeoutError):
                told[self.roles[i]] = f"no reply within {ABORT_TIMEOUT:g}s"
            elif isinstance(answer, OSError):
                told[self.roles[i]] = f"no reply: {_reason(answer)}"
            elif answer.status != 200:
                told[self.roles[i]] = f"HTTP {answer.status}"
            else:
                told[self.roles[i]] = answer.body.strip()[:40] or "an empty reply"
            log.info("match %s abandoned: ABORT to %s: %s", match_id, self.roles[i],
                     told[self.roles[i]])
        return told

    @staticmethod
    def _check_ack(fault: Callable[..., Fault], phase: Phase, step: int, role: int,
                   reply: HttpReply, expected: str, clock: float) -> None:
        if reply.status != 200 or reply.body.strip().lower() != expected:
            fault(phase, step, role, "reply",
                  f"{phase.upper()} reply {reply.status} {quoted(reply.body, 80)}", reply.latency)
        elif reply.latency > clock:
            fault(phase, step, role, "late", f"late ({reply.latency:.3f}s)", reply.latency)

    def _judge(
        self,
        fault: Callable[..., Fault],
        step: int,
        role: int,
        reply: HttpReply | None,
        legal: Sequence[Term],
        play_clock: float,
    ) -> Term | None:
        """The legal move a reply names, or None (and a fault) as ggp-base would see it."""
        if reply is None:  # the connection failed: already a fault
            return None
        if reply.status != 200:
            fault("play", step, role, "http", f"HTTP {reply.status} {quoted(reply.body, 80)}",
                  reply.latency)
            return None
        try:
            move = parse_term(reply.body)
        except GameFormatError as err:
            fault("play", step, role, "unreadable",
                  f"unreadable move {quoted(reply.body, 80)}: {err}", reply.latency)
            return None
        if move not in legal:
            fault("play", step, role, "illegal", f"illegal move {quoted(reply.body, 80)}",
                  reply.latency)
            return None
        if reply.latency > play_clock:
            fault("play", step, role, "late", f"late ({reply.latency:.3f}s)", reply.latency)
            return None
        return move


def _clock(seconds: float) -> str:
    """A clock as the protocol writes it: whole seconds without a decimal point."""
    return str(int(seconds)) if float(seconds).is_integer() else f"{seconds:g}"


def _reason(err: OSError) -> str:
    return getattr(err, "strerror", None) or str(err) or type(err).__name__
