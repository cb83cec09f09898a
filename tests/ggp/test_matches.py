"""Whole matches over real HTTP between plies players and random players.

The manager (:mod:`plies.ggp.manager`, the one ``plies ggp match`` runs) checks every
reply: legal for the state it computes with its own reasoner, and received before the
play clock ran out.  To keep the tests
short the players think 0.3 s of each 1 s play clock (``FAST``), except in the test of a
game too large to search, which keeps the default margin of 0.5 s.  After STOP,
each plies player's own idea of the final state and goals must be the manager's: the
player followed the joint moves it was sent.
"""

from __future__ import annotations

import functools
import random

from plies.gdl.terms import Term
from plies.ggp.manager import GameManager, HttpSeat, MatchRecord, RandomSeat
from plies.ggp.player import DEFAULT_MARGIN, GgpPlayer
from plies.ggp.server import GgpServer
from tests.ggp.helpers import FAST, rules, serving

PLAY_CLOCK = 1


@functools.cache
def manager_of(game: str) -> GameManager:
    return GameManager(rules(game))


def seat(server: GgpServer) -> HttpSeat:
    return HttpSeat(server.host, server.port)


def check(
    record: MatchRecord, manager: GameManager, players: dict[int, GgpPlayer]
) -> None:
    """Every reply legal and on time; the players tracked the match exactly."""
    assert record.errors == []
    for role, player in players.items():
        latencies = record.latencies(role)
        assert len(latencies) == len(record.steps)  # a reply to every PLAY
        assert max(latencies) < PLAY_CLOCK, latencies
        assert player.match is None  # STOP or ABORT freed it
        last = player.last
        assert last is not None and last.match_id == record.match_id
        assert last.reasoner is not None
        theirs = last.reasoner.fluents(last.state)
        joints = [step.joint for step in record.steps]
        if record.aborted:  # ABORT carries no moves: the last joint move never reached them
            assert last.moves == joints[:-1]
            assert theirs == manager.reasoner.fluents(record.steps[-1].state)
        else:
            assert last.moves == joints
            assert theirs == manager.reasoner.fluents(record.final_state)
            assert last.goals == record.goals


def test_tictactoe_plies_never_loses_to_random_as_xplayer() -> None:
    manager = manager_of("ticTacToe")
    with serving(seed=1, **FAST) as plies:
        for k in range(2):
            record = manager.play_match(
                [seat(plies), RandomSeat(random.Random(k))],
                match_id=f"ttt.{k}", start_clock=2, play_clock=PLAY_CLOCK,
            )
            check(record, manager, {0: plies.player})
            assert record.goals is not None and record.goals[0] >= 50, record.goals


def test_the_player_follows_the_joint_move_it_is_sent_not_its_reply() -> None:
    # As a server does when a reply is late or illegal, the manager replaces plies'
    # first move; the player must then track the move actually played.
    manager = manager_of("ticTacToe")
    replaced: list[tuple[Term, Term]] = []

    def override(step: int, role: int, move: Term) -> Term:
        if step == 0 and role == 0:
            other = next(m for m in (("mark", "2", "2"), ("mark", "3", "3")) if m != move)
            replaced.append((move, other))
            return other
        return move

    with serving(seed=2, **FAST) as plies:
        record = manager.play_match(
            [seat(plies), RandomSeat(random.Random(7))],
            match_id="ttt.override", start_clock=2, play_clock=PLAY_CLOCK, override=override,
        )
        check(record, manager, {0: plies.player})
        assert record.steps[0].joint[0] == replaced[0][1]
        assert record.goals is not None and record.goals[0] >= 50  # every opening draws


def test_buttons_one_player_reaches_100() -> None:
    manager = manager_of("buttons")
    with serving(seed=1, **FAST) as plies:
        record = manager.play_match(
            [seat(plies)], match_id="buttons.1", start_clock=2, play_clock=PLAY_CLOCK
        )
        check(record, manager, {0: plies.player})
    assert record.goals == (100,)
    assert len(record.steps) == 6  # the shortest way to light all three


def test_three_player_tictactoe_against_two_random_players() -> None:
    manager = manager_of("tictactoe_3player")
    with serving(seed=1, **FAST) as plies:
        record = manager.play_match(
            [RandomSeat(random.Random(1)), seat(plies), RandomSeat(random.Random(2))],
            match_id="ttt3.1", start_clock=2, play_clock=PLAY_CLOCK,
        )
        check(record, manager, {1: plies.player})
    assert record.goals is not None and len(record.goals) == 3


def test_roshambo_simultaneous_moves_two_plies_players() -> None:
    # Two players in one process share its interpreter lock while both build, load SciPy
    # and compile: the start keeps a player's default margin (a reply 0.75 s after its
    # own deadline was seen on a loaded CI machine with FAST's 0.7 s).
    manager = manager_of("roshambo2")
    fast = {**FAST, "margin": DEFAULT_MARGIN}
    with serving(seed=1, **fast) as white, serving(seed=2, **fast) as black:
        record = manager.play_match(
            [seat(white), seat(black)], match_id="rps.1", start_clock=3, play_clock=PLAY_CLOCK
        )
        check(record, manager, {0: white.player, 1: black.player})
    assert record.goals is not None and sum(record.goals) == 100


def test_game_too_large_to_search_still_answers_on_time() -> None:
    # Connect Four on 8x6 (48 plies, 8 moves a ply) cannot be searched to its end in half
    # a second: the player cuts the search off (Monte Carlo when it is too shallow) and
    # still answers in time.
    manager = manager_of("connectFour")
    with serving(seed=1, metagame_cap=0.3) as red, serving(seed=2, metagame_cap=0.3) as black:
        record = manager.play_match(
            [seat(red), seat(black)], match_id="c4.1", start_clock=2,
            play_clock=PLAY_CLOCK, max_steps=4,
        )
        check(record, manager, {0: red.player, 1: black.player})
        assert record.aborted
        for server in (red, black):
            assert not server.player.busy
