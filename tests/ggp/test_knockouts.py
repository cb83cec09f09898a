"""The GGP player cannot be knocked out of a match (issue 22): absurd clocks, an ABORT
while START builds, a PLAY sent twice, an attacker's invalid START or large body, an
earlier match whose build does not stop at once.

Each test is named after the fault it guards against.  Servers run on ephemeral ports;
waits are for conditions (events, replies), never fixed sleeps.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest

from plies.budget import Budget
from plies.gdl.terms import Description
from plies.ggp.manager import HttpReply, post
from plies.ggp.player import GgpPlayer
from plies.ggp.protocol import MAX_CLOCK
from plies.ggp.server import PER_CLIENT, SMALL_BODY, GgpServer
from tests.ggp.helpers import BOMB, read_reply, serving
from tests.ggp.test_server import rules_list

WITHIN = 30.0
"""A bound on waits that end in milliseconds when the player works (it only keeps a
failing test from hanging)."""

ATTACKER = "127.0.0.2"
"""The attacker's address: another address than the manager's (127.0.0.1), on loopback."""


class Builds:
    """A reasoner factory that records its calls and builds nothing until its budget's
    stop signal is set (then it raises :class:`plies.budget.Stopped`, as a real build
    does), or until :attr:`release` is set if ``heed_stop`` is False."""

    def __init__(self, *, heed_stop: bool = True) -> None:
        self.calls: list[Budget] = []
        self.started = threading.Event()
        self.ended = threading.Event()
        self.release = threading.Event()
        self.heed_stop = heed_stop

    def __call__(self, desc: Description, budget: Budget) -> Any:
        self.calls.append(budget)
        self.started.set()
        meter = budget.meter("building a test reasoner")
        try:
            while not self.release.wait(0.01):
                if self.heed_stop:
                    meter.look()  # raises Stopped once the match is over
            raise RuntimeError("released without being stopped")
        finally:
            self.ended.set()


def preparing() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("ggp-prepare")]


def send_later(server: GgpServer, message: str) -> tuple[threading.Thread, list[HttpReply]]:
    replies: list[HttpReply] = []
    thread = threading.Thread(
        target=lambda: replies.append(post(server.host, server.port, message, timeout=60)),
        daemon=True,
    )
    thread.start()
    return thread, replies


@pytest.mark.parametrize(
    "clocks", ["1e300 1", "1 1e300", "NaN 1", "1 nan", "-1 1", "1 -5", "0 1", "1 0",
               "inf 1", "1e309 1", f"{MAX_CLOCK + 1:g} 1"]
)
def test_start_with_absurd_clocks_is_refused_before_any_build(clocks: str) -> None:
    fast, slow = Builds(), Builds()
    before = set(preparing())
    with serving(GgpPlayer(seed=1, fast=fast, slow=slow)) as server:
        reply = post(server.host, server.port, f"(start clk.1 robot {BOMB} {clocks})")
        assert reply.status == 400
        assert "must be a number of seconds above 0 and at most 3600" in reply.body
        assert len(reply.body) < 300
        assert not fast.calls and not slow.calls
        assert set(preparing()) <= before
        assert not server.player.busy
        assert post(server.host, server.port, "(info)").body.endswith("(status available))")


@pytest.mark.parametrize("ending", ["(abort ab.1)", "(stop ab.1 nil)"])
def test_abort_sent_while_start_is_still_building_is_honoured(ending: str) -> None:
    fast = Builds()
    # No slow machine: START waits for the propnet, up to its 60 s clock.
    with serving(GgpPlayer(seed=1, fast=fast, slow=None)) as server:
        start, replies = send_later(server, f"(start ab.1 robot {BOMB} 60 10)")
        assert fast.started.wait(WITHIN)
        reply = post(server.host, server.port, ending)
        assert (reply.status, reply.body) == (200, "aborted" if "abort" in ending else "done")
        assert fast.ended.wait(WITHIN), "the build was not stopped"
        start.join(WITHIN)
        assert not start.is_alive(), "START was not answered once its match ended"
        # No late `ready`: START says the match ended, and the player is free.
        assert replies[0].status == 200 and replies[0].body == "aborted"
        assert not server.player.busy
        assert post(server.host, server.port, "(info)").body.endswith("(status available))")
        budget = fast.calls[0]
        assert budget.stop is not None and budget.stop.is_set()


def test_every_build_gets_a_step_budget_and_the_match_end_as_its_stop() -> None:
    fast, slow = Builds(), Builds()
    player = GgpPlayer(seed=1, fast=fast, slow=slow)
    with serving(player) as server:
        start, _ = send_later(server, f"(start bud.1 robot {BOMB} 60 10)")
        assert fast.started.wait(WITHIN) and slow.started.wait(WITHIN)
        for budget in (fast.calls[0], slow.calls[0]):
            # Steps, not seconds: the same reasoner at any load.
            assert budget.seconds is None and budget.steps is not None
            assert budget.stop is not None and not budget.stop.is_set()
        assert post(server.host, server.port, "(abort bud.1)").body == "aborted"
        start.join(WITHIN)
        assert fast.calls[0].stop is not None and fast.calls[0].stop.is_set()
        assert fast.ended.wait(WITHIN) and slow.ended.wait(WITHIN)


def test_start_whose_rules_cannot_be_played_stops_its_builds() -> None:
    fast, slow = Builds(), Builds()
    with serving(GgpPlayer(seed=1, fast=fast, slow=slow, margin=0.2)) as server:
        # A valid description that every reasoner fails to build.  The start clock is
        # long: the reply comes as soon as both builds have failed, and a loaded machine
        # (another thread holding the GIL to compile) must not turn it into a "ready"
        # sent at the deadline while nothing is known yet.
        def failing(desc: Description, budget: Budget) -> Any:
            raise RuntimeError("cannot build this")

        server.player.fast = failing
        server.player.slow = failing
        reply = post(server.host, server.port, f"(start no.1 robot {BOMB} 60 1)", timeout=60)
        assert reply.status == 400 and "no reasoner can play these rules" in reply.body
        assert reply.latency < 30  # not the clock: the failures ended the wait
        assert not server.player.busy
        last = server.player.last
        assert last is not None and last.over.is_set()


def test_next_start_is_answered_within_its_clock_after_an_aborted_match() -> None:
    stubborn = Builds(heed_stop=False)  # a build that does not stop when told
    player = GgpPlayer(seed=1, fast=stubborn, margin=0.5)
    with serving(player) as server:
        assert post(server.host, server.port, f"(start old.1 robot {BOMB} 1 1)").body == "ready"
        assert stubborn.started.wait(WITHIN)
        assert post(server.host, server.port, "(abort old.1)").body == "aborted"
        assert not stubborn.ended.is_set()  # the old build still runs
        player.fast = None  # the next match plays on the top-down prover
        buttons = rules_list("buttons")
        try:
            reply = post(server.host, server.port, f"(start new.1 robot {buttons} 3 1)")
            assert (reply.status, reply.body) == (200, "ready")
            assert reply.latency < 3.0  # within its start clock
            move = post(server.host, server.port, "(play new.1 nil)")
            assert move.status == 200 and move.body in ("a", "b", "c")
        finally:
            stubborn.release.set()


def test_a_manager_that_resends_one_play_does_not_put_the_player_out_of_step() -> None:
    ttt = rules_list("ticTacToe")
    with serving(GgpPlayer(seed=3, margin=0.5, metagame_cap=0.2)) as server:
        def send(message: str) -> str:
            reply = post(server.host, server.port, message)
            assert reply.status == 200
            return reply.body

        assert send(f"(start rs.1 xplayer {ttt} 3 1)") == "ready"
        first = send("(play rs.1 nil)")
        assert send("(play rs.1 nil)") == first  # the first PLAY, sent again
        joint = f"({first} noop)"
        answer = send(f"(play rs.1 {joint})")
        assert answer == "noop"  # oplayer's turn
        for _ in range(2):  # the same PLAY again: the same answer, not our turn twice
            assert send(f"(play rs.1 {joint})") == answer
        match = server.player.match
        assert match is not None and match.steps == 1
        # The match goes on in step with the manager: oplayer marks, then it is ours.
        cell = "(mark 1 1)" if first != "(mark 1 1)" else "(mark 3 3)"
        mine = send(f"(play rs.1 (noop {cell}))")
        assert mine.startswith("(mark") and mine not in (first, cell)
        assert match.steps == 2
        assert len(match.moves) <= 2


def test_play_sent_again_while_the_first_is_being_answered_gets_the_same_move() -> None:
    buttons = rules_list("buttons")
    with serving(GgpPlayer(seed=5, margin=0.5, metagame_cap=0.2)) as server:
        assert post(server.host, server.port, f"(start rs.2 robot {buttons} 3 2)").body == "ready"
        first, replies = send_later(server, "(play rs.2 nil)")
        again = post(server.host, server.port, "(play rs.2 nil)")
        first.join(WITHIN)
        assert replies[0].body == again.body
        match = server.player.match
        assert match is not None and match.steps == 0


def test_invalid_start_never_makes_the_player_busy() -> None:
    checking = threading.Event()
    release = threading.Event()
    import plies.ggp.player as player_module

    real_check = player_module.check

    def slow_check(desc: Description) -> Any:
        if desc.roles == ("robot",) and "bad" in str(desc.source):
            checking.set()
            release.wait(WITHIN)
            raise player_module.ProtocolError("invalid GDL (test)")
        return real_check(desc)

    buttons = rules_list("buttons")
    with pytest.MonkeyPatch.context() as mp, serving(GgpPlayer(seed=1)) as server:
        mp.setattr(player_module, "check", slow_check)
        bad, replies = send_later(server, f"(start bad.1 robot {buttons} 5 1)")
        try:
            assert checking.wait(WITHIN)
            # While the attacker's START is being checked, the manager's is played.
            assert not server.player.busy
            good = post(server.host, server.port, f"(start good.1 robot {buttons} 5 1)")
            assert (good.status, good.body) == (200, "ready")
        finally:
            release.set()
        bad.join(WITHIN)
        assert replies[0].status == 400
        match = server.player.match
        assert match is not None and match.match_id == "good.1"


def raw_from(address: str, server: GgpServer) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(WITHIN)
    sock.bind((address, 0))
    sock.connect((server.host, server.port))
    return sock


@contextmanager
def attacking(server: GgpServer, n: int, first: bytes) -> Iterator[list[socket.socket]]:
    """``n`` connections from the attacker's address that sent ``first`` and then
    nothing (a slow body); closed afterwards."""
    with ExitStack() as stack:
        socks = []
        for _ in range(n):
            sock = stack.enter_context(raw_from(ATTACKER, server))
            sock.sendall(first)
            socks.append(sock)
        yield socks


def until(condition: Any, what: str) -> None:
    deadline = time.monotonic() + WITHIN
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.02)
    raise AssertionError(f"never happened: {what}")


def test_large_start_is_not_refused_while_an_attacker_holds_a_large_body_slot() -> None:
    chess_size = SMALL_BODY * 3  # a START as large as chess's (38 KB)
    head = b"POST / HTTP/1.0\r\nContent-Length: 1048000\r\n\r\n(info "
    buttons = rules_list("buttons")
    padding = " ".join(f"(pad{k} a)" for k in range(chess_size // 10))
    start = f"(start big.1 robot ({buttons[1:-1]} {padding}) 5 1)"
    assert len(start) > SMALL_BODY
    with serving(GgpPlayer(seed=1)) as server, attacking(server, 1, head) as held:
        until(lambda: ATTACKER in server.large_clients, "the attacker's body being read")
        # A second large body from the attacker is refused; the manager's is read.
        sock = raw_from(ATTACKER, server)
        sock.sendall(head)
        assert read_reply(sock).status == 503
        sock.close()
        reply = post(server.host, server.port, start)
        assert (reply.status, reply.body) == (200, "ready")
        assert held  # still holding its slot all along


def test_an_attacker_cannot_take_every_connection_slot() -> None:
    with serving(GgpPlayer(seed=1)) as server, attacking(
        server, PER_CLIENT, b"POST / HTTP/1.0\r\n"
    ):
        until(lambda: server.clients.get(ATTACKER, 0) == PER_CLIENT, "the attacker's slots")
        sock = raw_from(ATTACKER, server)  # one more from the same address: refused
        sock.sendall(b"POST / HTTP/1.0\r\nContent-Length: 6\r\n\r\n(info)")
        assert read_reply(sock).status == 503
        sock.close()
        assert post(server.host, server.port, "(info)").status == 200  # the manager's
