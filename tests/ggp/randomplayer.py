"""A tiny GGP player for the tests: random legal moves, and faults on request.

It shares nothing with plies' player but the GDL parser and reasoner: its own HTTP server
(``http.server``), its own message handling.  It answers START with ``ready``, PLAY with
a uniformly random legal move of its role (tracking the state from the joint moves it is
sent), STOP with ``done``.  ``faults`` maps a 1-based PLAY step to a misbehaviour:

* ``"late"``: the legal move, after sleeping ``late_by`` seconds past the play clock;
* ``"illegal"``: a move the rules know but its role may not make now (else ``(bogus)``);
* ``"garbage"``: ``((( not a move``;
* ``"503"``: HTTP 503 with an error body;
* ``"hangup"``: closes the connection without a reply.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from plies.gdl.parser import description_from_terms
from plies.gdl.reasoner import Reasoner
from plies.gdl.terms import to_kif
from plies.ggp.protocol import parse_message


class RandomPlayer:
    """The match state of the tiny player (one match at a time)."""

    def __init__(self, seed: int = 0, faults: dict[int, str] | None = None,
                 late_by: float = 0.3) -> None:
        self.rng = random.Random(seed)
        self.faults = dict(faults or {})
        self.late_by = late_by
        self.reasoner: Reasoner | None = None
        self.role = 0
        self.state: Any = None
        self.play_clock = 1.0
        self.steps = 0
        self.lock = threading.Lock()

    def answer(self, text: str) -> tuple[int, str] | None:
        """(status, body) for a message, or None to hang up."""
        message = parse_message(text)
        with self.lock:
            if message.kind == "info":
                return 200, "((name random) (status available))"
            if message.kind == "start":
                self.reasoner = Reasoner(description_from_terms(message.rules))
                self.role = self.reasoner.roles.index(str(message.role))
                self.state = self.reasoner.initial_state()
                self.play_clock = float(message.play_clock or 1.0)
                self.steps = 0
                return 200, "ready"
            if message.kind in ("stop", "abort"):
                return 200, "done" if message.kind == "stop" else "aborted"
            assert message.kind == "play" and self.reasoner is not None
            if message.moves is not None:
                self.state = self.reasoner.next_state(self.state, message.moves)
            self.steps += 1
            legal = self.reasoner.legal(self.state, self.role)
            move = to_kif(self.rng.choice(legal))
            fault = self.faults.get(self.steps)
        if fault == "late":
            time.sleep(self.play_clock + self.late_by)
            return 200, move
        if fault == "illegal":
            known = [m for m in self.reasoner.legal_all(self.state)[1 - self.role]
                     if m not in legal] if len(self.reasoner.roles) == 2 else []
            return 200, to_kif(known[0]) if known else "(bogus)"
        if fault == "garbage":
            return 200, "((( not a move"
        if fault == "503":
            return 503, "error: not now"
        if fault == "hangup":
            return None
        return 200, move


class _Handler(BaseHTTPRequestHandler):
    player: RandomPlayer

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        text = self.rfile.read(length).decode("utf-8")
        answer = self.player.answer(text)
        if answer is None:
            self.close_connection = True
            return
        status, body = answer
        data = body.encode("utf-8")
        with suppress(ConnectionError):  # the manager gave up on a late reply and hung up
            self.send_response(status)
            self.send_header("Content-Type", "text/acl")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        """Silent: the manager's record is the test's log, not the HTTP server's."""


@contextmanager
def random_player(seed: int = 0, faults: dict[int, str] | None = None,
                  late_by: float = 0.3) -> Iterator[tuple[str, RandomPlayer]]:
    """Serve a :class:`RandomPlayer` on a free port of 127.0.0.1; yields (url, player)."""
    player = RandomPlayer(seed, faults, late_by)
    handler = type("Handler", (_Handler,), {"player": player})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", player
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
