"""A legal move on every clock (issue 14, part 2): a PLAY of a match the player accepted is
answered with a move, never 503 or 400, by the clock less the margin, whatever its
reasoners are doing.

Before, the player built the propnet in the background and answered 503 until it was
ready, and 400 "cannot be played" for every PLAY of a game past the grounding wall
(chess): a manager substituted random moves for the whole match.  Now it plays from the
top-down prover at once and switches to the propnet when that is built.

The matches run over real HTTP against :mod:`plies.ggp.manager`, which judges every
reply: legal in its own state, and received before the play clock ran out (``errors``
would name every late or illegal reply and every HTTP error).
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Sequence
from typing import Any

import pytest

from plies.budget import Budget, Stopped
from plies.gdl.machine import StateMachine
from plies.gdl.parser import parse
from plies.gdl.reasoner import Reasoner
from plies.gdl.terms import Description, Term
from plies.gdl.topdown import TopDown
from plies.ggp.manager import GameManager, HttpSeat, MatchRecord, RandomSeat
from plies.ggp.player import GgpPlayer, MachineFactory
from plies.ggp.server import GgpServer
from plies.ggp.sync import likely_legal, rule_moves
from tests.data import GDL_DATA
from tests.ggp.helpers import rules, serving

PLAY_CLOCK = 1
MARGIN = 0.5


def seat(server: GgpServer) -> HttpSeat:
    return HttpSeat(server.host, server.port)


def gated(gate: threading.Event) -> MachineFactory:
    """A propnet builder that only starts once ``gate`` is set (or gives up when the
    match ends): the fast reasoner is not ready until the test says so."""

    def build(desc: Description, budget: Budget) -> StateMachine[Any]:
        while not gate.wait(0.01):
            if budget.stop is not None and budget.stop.is_set():
                raise Stopped("the match ended while the test held the propnet back")
        return Reasoner(desc, budget=budget)

    return build


def assert_legal_and_timely(record: MatchRecord, role: int) -> None:
    """The manager found nothing wrong: every reply legal in its state, none late, no
    HTTP error; and the player replied to every PLAY."""
    assert record.errors == []
    latencies = record.latencies(role)
    assert len(latencies) == len(record.steps)
    assert max(latencies) < PLAY_CLOCK, latencies


def assert_in_step(record: MatchRecord, manager: GameManager, player: GgpPlayer) -> None:
    """The player's own final state (in whichever machine it ended on) is the manager's."""
    last = player.last
    assert last is not None and last.match_id == record.match_id and last.machine is not None
    joints = [step.joint for step in record.steps]
    if record.aborted:  # ABORT carries no moves: the last joint move never reached it
        assert last.moves == joints[:-1]
        truth = record.steps[-1].state
    else:
        assert last.moves == joints
        truth = record.final_state
        assert last.goals == record.goals
    assert last.machine.fluents(last.state) == manager.machine.fluents(truth)


def step_log(caplog: pytest.LogCaptureFixture, match_id: str) -> list[str]:
    return [
        r.getMessage() for r in caplog.records
        if r.getMessage().startswith(f"match {match_id} step") and " by " in r.getMessage()
    ]


def test_a_match_whose_propnet_is_not_ready_before_the_first_play_gets_only_legal_timely_replies(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The propnet is held back until the middle of step 3: the first replies come from
    # the top-down prover; then, while the worker of step 3 asks the prover for our legal
    # moves, the propnet is built, the match state is carried over through its fluents,
    # and thinking starts again on the propnet for the same step.
    caplog.set_level(logging.INFO, logger="plies.ggp")
    manager = GameManager(rules("ticTacToe"))
    gate, at_step_3 = threading.Event(), threading.Event()
    player = GgpPlayer(margin=MARGIN, metagame_cap=0.2, seed=1, fast=gated(gate))

    class SwitchInTheMiddle(TopDown):
        def legal(self, state: Any, role: int) -> tuple[Term, ...]:
            if at_step_3.is_set() and not gate.is_set():
                gate.set()  # the propnet is built while this call is under way
                match = player.match
                for _ in range(500):
                    if match is None or match.fast is not None:
                        break
                    threading.Event().wait(0.01)
            return super().legal(state, role)

    def slow_machine(desc: Description, budget: Budget) -> StateMachine[Any]:
        return SwitchInTheMiddle(desc)

    def mark_step_3(step: int, role: int, move: Term) -> Term:
        if step == 1:
            at_step_3.set()
        return move

    player.slow = slow_machine
    with serving(player) as plies:
        record = manager.play_match(
            [seat(plies), RandomSeat(random.Random(3))], match_id="gate.1",
            start_clock=2, play_clock=PLAY_CLOCK, override=mark_step_3,
        )
    assert_legal_and_timely(record, 0)
    assert_in_step(record, manager, player)
    last = player.last
    assert last is not None and last.machine is last.fast and last.machine.kind == "propnet"
    moves = step_log(caplog, "gate.1")
    assert all("on topdown" in line for line in moves[:2]), moves
    assert all("on propnet" in line for line in moves[2:]), moves
    assert any(
        "switched from topdown to propnet" in r.getMessage() and "at step 3" in r.getMessage()
        for r in caplog.records
    )


def test_a_match_that_never_gets_its_propnet_plays_on_the_top_down_prover_to_the_end() -> None:
    manager = GameManager(rules("connectFour"))
    player = GgpPlayer(margin=MARGIN, metagame_cap=0.2, seed=2, fast=gated(threading.Event()))
    with serving(player) as plies:
        record = manager.play_match(
            [RandomSeat(random.Random(5)), seat(plies)], match_id="gate.2",
            start_clock=2, play_clock=PLAY_CLOCK, max_steps=8,
        )
    assert_legal_and_timely(record, 1)
    assert_in_step(record, manager, player)
    last = player.last
    assert last is not None and last.machine is not None and last.machine.kind == "topdown"
    assert last.fast is None


def test_chess_past_the_grounding_wall_is_played_at_a_1s_clock(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Chess cannot be grounded (more than 2,000,000 rule instances): before, every PLAY
    # got 503 and then 400.  The manager itself judges with the top-down prover.
    caplog.set_level(logging.INFO, logger="plies.ggp")
    desc = parse((GDL_DATA / "large" / "chess.kif").read_text(encoding="utf-8"))
    manager = GameManager(desc, machine=TopDown(desc))
    player = GgpPlayer(margin=MARGIN, metagame_cap=0.3, seed=3)
    with serving(player) as plies:
        record = manager.play_match(
            [seat(plies), RandomSeat(random.Random(1))], match_id="chess.1",
            start_clock=3, play_clock=PLAY_CLOCK, max_steps=6,
        )
    assert_legal_and_timely(record, 0)
    assert_in_step(record, manager, player)
    last = player.last
    assert last is not None and last.machine is not None and last.machine.kind == "topdown"
    moves = step_log(caplog, "chess.1")
    assert len(moves) == 6 and all("on topdown" in line for line in moves), moves


class SlowLegal(TopDown):
    """The top-down prover, with a legal-move computation that takes 1.5 s (longer than
    the play clock) while ``slow`` is set: a single reasoner call that cannot finish in
    time, as the top-down legal moves of a large game under load."""

    slow = threading.Event()

    def legal(self, state: Any, role: int) -> tuple[Term, ...]:
        if self.slow.is_set():
            threading.Event().wait(1.5)
        return super().legal(state, role)


def test_a_reasoner_call_slower_than_the_clock_still_gets_a_timely_legal_reply(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # At step 3 our legal moves are not known by the deadline: the reply is a guess from
    # the legal moves of the state two steps back (the same side to move), without the
    # cells marked since; the manager finds it legal, and on time.
    caplog.set_level(logging.INFO, logger="plies.ggp")
    manager = GameManager(rules("ticTacToe"))

    def slow_at_step_3(step: int, role: int, move: Term) -> Term:
        if step == 1:
            SlowLegal.slow.set()
        if step == 2:
            SlowLegal.slow.clear()
        return move

    def slow_machine(desc: Description, budget: Budget) -> StateMachine[Any]:
        return SlowLegal(desc)

    player = GgpPlayer(margin=MARGIN, metagame_cap=0.2, seed=4, slow=slow_machine, fast=None)
    try:
        with serving(player) as plies:
            record = manager.play_match(
                [seat(plies), RandomSeat(random.Random(2))], match_id="slow.1",
                start_clock=2, play_clock=PLAY_CLOCK, override=slow_at_step_3,
            )
    finally:
        SlowLegal.slow.clear()
    assert_legal_and_timely(record, 0)
    assert_in_step(record, manager, player)
    moves = step_log(caplog, "slow.1")
    assert "by guess" in moves[2] and "legal in an earlier state" in moves[2], moves


def test_likely_legal_follows_the_turn_taking_rhythm_and_avoids_moves_played_since() -> None:
    marks: Sequence[Term] = (("mark", "1", "1"), ("mark", "1", "2"), ("mark", "2", "2"))
    history = {0: tuple(marks), 1: ("noop",)}
    # Our turn again: the moves of two steps back, less the cells marked since.
    joints = [(("mark", "1", "1"), "noop"), ("noop", ("mark", "1", "2"))]
    assert likely_legal(history, joints) == ("mark", "2", "2")
    # Their turn again: noop, from two steps back.
    history = {0: ("noop",), 1: tuple(marks)}
    assert likely_legal(history, joints) == "noop"
    # No rhythm (a simultaneous game): the last state's moves.
    assert likely_legal({0: ("rock", "paper"), 1: ("rock", "paper")}, [("a", "b")] * 2) == "rock"
    # Only older states known: the latest of them.
    assert likely_legal({0: ("noop",)}, [*joints, ("x", "y")]) == "noop"
    assert likely_legal({}, joints) is None


def test_rule_moves_names_the_ground_moves_of_legal_rules() -> None:
    desc = parse(rules("ticTacToe"))
    assert rule_moves(desc, "xplayer") == ("noop",)
    desc = parse(
        "(role a) (role b) (<= (legal ?r wait) (role ?r)) (<= (legal a go) (true on)) "
        "(<= (legal b (move ?x)) (true (at ?x)))"
    )
    assert rule_moves(desc, "a") == ("wait", "go")
    assert rule_moves(desc, "b") == ("wait",)
