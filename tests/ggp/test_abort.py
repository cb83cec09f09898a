"""ABORT and STOP end all work of a match, the building of its reasoner included.

Before, a grounding thread outlived ABORT: three aborted matches of a description whose
grounding never ends left three threads holding the interpreter, and the next real match
lost its first three moves to 503s.  (Now such a match plays on the top-down prover while
the propnet is grounded, and is given up only by the propnet.)
"""

from __future__ import annotations

import threading

import pytest

import plies.ggp.player as player_module
from plies.gdl.parser import parse_term
from plies.ggp.manager import post
from plies.ggp.player import GgpPlayer, Match
from plies.ggp.server import GgpServer
from tests.ggp.helpers import BOMB, serving
from tests.ggp.test_server import rules_list

ENDS_WITHIN = 30.0
"""A bound on how long a stopped thread may take to end (it takes milliseconds; the
bound only keeps a failing test from hanging)."""


def start_bomb(server: GgpServer, match_id: str, play_clock: int = 10) -> Match:
    """Start a bomb match (START is answered at its clock while grounding goes on; the
    top-down prover, which needs no grounding, is ready to play)."""
    # A 3 s start clock: time enough for the top-down prover on a loaded machine.
    reply = post(server.host, server.port, f"(start {match_id} robot {BOMB} 3 {play_clock})")
    assert (reply.status, reply.body) == (200, "ready")
    match = server.player.match
    assert match is not None and match.worker is not None
    assert match.worker.is_alive() and not match.settled.is_set()  # still grounding
    assert match.machine is not None and match.machine.kind == "topdown"
    return match


def assert_ends(thread: threading.Thread) -> None:
    thread.join(ENDS_WITHIN)
    assert not thread.is_alive(), f"{thread.name} outlived its match"


def preparing() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("ggp-prepare-")]


def test_abort_stops_the_grounding_thread() -> None:
    with serving(GgpPlayer(margin=0.7, seed=1)) as server:
        match = start_bomb(server, "bomb.1")
        assert post(server.host, server.port, "(abort bomb.1)").body == "aborted"
        assert match.worker is not None
        assert_ends(match.worker)
        assert match.fast_note == "the match ended before the propnet was built"
        assert match.fast is None


def test_stop_stops_the_grounding_thread() -> None:
    with serving(GgpPlayer(margin=0.7, seed=1)) as server:
        match = start_bomb(server, "bomb.2", play_clock=1)
        assert post(server.host, server.port, "(stop bomb.2 (go))").body == "done"
        assert match.worker is not None
        assert_ends(match.worker)
        assert post(server.host, server.port, "(info)").body.endswith("(status available))")


def test_closing_the_server_stops_the_grounding_thread() -> None:
    with serving(GgpPlayer(margin=0.7, seed=1)) as server:
        match = start_bomb(server, "bomb.3")
    assert match.worker is not None
    assert_ends(match.worker)


def test_three_aborted_bomb_matches_do_not_delay_the_next_match() -> None:
    with serving(GgpPlayer(margin=0.7, metagame_cap=0.2, seed=1)) as server:
        for k in range(3):
            match = start_bomb(server, f"bomb.{k}", play_clock=2)
            reply = post(server.host, server.port, f"(play bomb.{k} nil)")
            assert (reply.status, reply.body) == (200, "go")  # from the top-down prover
            assert post(server.host, server.port, f"(abort bomb.{k})").body == "aborted"
            assert match.worker is not None
            assert_ends(match.worker)
            assert match.fast_note == "the match ended before the propnet was built"
        assert preparing() == []
        game = rules_list("ticTacToe")
        assert post(server.host, server.port, f"(start ttt xplayer {game} 2 1)").body == "ready"
        for last in ("nil", "((mark 2 2) noop)"):
            reply = post(server.host, server.port, f"(play ttt {last})")
            assert reply.status == 200
            move = parse_term(reply.body)
            assert move == "noop" if last != "nil" else move[0] == "mark"
        assert post(server.host, server.port, "(abort ttt)").body == "aborted"


def test_a_propnet_that_cannot_be_built_within_its_budget_is_given_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Building may take the start clock plus ten play clocks (here 3.3 nominal seconds, no
    # floor, counted in steps); then the propnet is given up and the match plays on the
    # top-down prover.
    # Before, every PLAY of such a match was answered 400 "cannot be played".
    monkeypatch.setattr(player_module, "BUILD_FLOOR", 0.0)
    monkeypatch.setattr(player_module, "build_steps", lambda seconds: 330_000)
    player = GgpPlayer(margin=0.7, seed=1)
    with serving(player) as server:
        reply = post(server.host, server.port, f"(start bomb.4 robot {BOMB} 1 1)")
        assert (reply.status, reply.body) == (200, "ready")
        match = server.player.match
        assert match is not None
        assert match.worker is not None
        assert_ends(match.worker)
        # The step budget, or the grounding's size cap first.
        assert match.failure is None
        assert "budget" in match.fast_note or "2,000,000 atoms" in match.fast_note
        reply = post(server.host, server.port, "(play bomb.4 nil)")
        assert (reply.status, reply.body) == (200, "go")
        assert post(server.host, server.port, "(abort bomb.4)").body == "aborted"
