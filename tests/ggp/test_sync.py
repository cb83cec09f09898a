"""The player stays in step with the manager whatever joint moves it is sent.

The manager is authoritative: a joint move illegal in the player's view is applied as
sent, one that cannot be applied is guessed, and either way every later reply must be
legal in the manager's (true) state.  Before this, such a joint move got HTTP 400, was
dropped, and the player played one step behind for the rest of the match (12 of 20
replies illegal).
"""

from __future__ import annotations

import functools
import random
from typing import Any

from plies.gdl.parser import parse, parse_term
from plies.gdl.reasoner import Reasoner
from plies.gdl.terms import Term, to_kif
from plies.ggp.manager import GameManager, HttpSeat, MatchRecord, RandomSeat
from plies.ggp.player import GgpPlayer
from plies.ggp.sync import always_legal, apply_joint
from tests.ggp.helpers import FAST, rules, serving

PLAY_CLOCK = 1
NOOP = "noop"


@functools.cache
def tictactoe() -> GameManager:
    return GameManager(rules("ticTacToe"))


def cells(reasoner: Reasoner, state: Any, content: str) -> list[Term]:
    """The ``(mark x y)`` moves onto the cells holding ``content`` (``b`` is blank)."""
    return sorted(
        ("mark", f[1], f[2]) for f in reasoner.fluents(state)
        if isinstance(f, tuple) and f[0] == "cell" and f[3] == content
    )


def assert_in_step(record: MatchRecord, manager: GameManager, player: GgpPlayer) -> None:
    """Every reply answered 200 with a move legal in the manager's state, and the player
    ends with the manager's joint moves and state."""
    assert record.errors == []
    replies = [step.replies for step in record.steps]
    assert all(r.status == 200 for step in replies for r in step.values())
    last = player.last
    assert last is not None and last.reasoner is not None
    joints = [step.joint for step in record.steps]
    if record.aborted:  # ABORT carries no moves: the last joint move never reached it
        assert last.moves == joints[:-1]
        truth = record.steps[-1].state
    else:
        assert last.moves == joints
        truth = record.final_state
    assert last.reasoner.fluents(last.state) == manager.reasoner.fluents(truth)


def test_illegal_joint_move_is_applied_as_sent_and_sync_is_kept() -> None:
    manager = tictactoe()
    reasoner = manager.reasoner
    illegal = 0
    steps = 0

    def rewrite(state: Any, joint: tuple[Term, ...]) -> tuple[Term, ...]:
        # Most steps, the manager applies moves the rules do not allow here.
        # (Not noop for both: the rules then blank every cell, and the game ends.)
        nonlocal illegal, steps
        step, steps = steps, steps + 1
        mover = 0 if NOOP in reasoner.legal(state, 1) else 1
        blank, taken = cells(reasoner, state, "b"), cells(reasoner, state, "x")
        taken += cells(reasoner, state, "o")
        moves = list(joint)
        kind = "taken" if step % 3 else ("legal", "both", "wrong")[step // 3 % 3]
        if kind == "taken" and taken:  # the mover marks a taken cell
            moves[mover] = taken[0]
        elif kind == "both" and len(blank) >= 2:  # the waiting side marks too
            moves[1 - mover] = next(c for c in blank if c != moves[mover])
        elif kind == "wrong":  # the wrong side moves: the mover passes, the other marks
            moves = [NOOP, NOOP]
            moves[1 - mover] = blank[0]
        illegal += any(m not in reasoner.legal(state, r) for r, m in enumerate(moves))
        return tuple(moves)

    def shout(state: Any, joint: tuple[Term, ...]) -> str:
        # A manager that ignores case may spell an illegal move in capitals, too.
        return "(" + " ".join(to_kif(m).upper() for m in joint) + ")"

    replies = 0
    with serving(seed=5, **FAST) as plies:
        for role in (0, 1):  # plies as xplayer, then as oplayer
            seats: list[HttpSeat | RandomSeat] = [RandomSeat(random.Random(role))] * 2
            seats[role] = HttpSeat(plies.host, plies.port)
            steps = 0
            record = manager.play_match(
                seats, match_id=f"ttt.illegal.{role}", start_clock=2, play_clock=PLAY_CLOCK,
                max_steps=20,
                rewrite=rewrite, garble=shout if role else None,
            )
            assert_in_step(record, manager, plies.player)
            replies += len(record.steps)
    assert replies >= 20
    assert illegal >= replies // 2  # the test did send illegal joint moves


def test_moves_the_rules_do_not_know_are_guessed_and_sync_is_kept() -> None:
    # The manager misspells what was played: the forced noop of the waiting side as a
    # move the rules do not know, plies' own move in upper case, and once a joint move
    # with a move missing.  The player reads what it can and guesses the rest.
    manager = tictactoe()
    reasoner = manager.reasoner
    sent: list[str] = []

    def garble(state: Any, joint: tuple[Term, ...]) -> str:
        mover = 0 if NOOP in reasoner.legal(state, 1) else 1
        if len(sent) == 2 and mover == 1:
            text = f"({to_kif(joint[1])})"  # plies' (oplayer's) move only
        else:
            words = [to_kif(m) for m in joint]
            words[1 - mover] = "(mark 9 9)"  # the waiting side's noop, unknown
            if mover == 1:
                words[1] = words[1].upper()  # plies' move, in another case
            text = "(" + " ".join(words) + ")"
        sent.append(text)
        return text

    with serving(seed=6, **FAST) as plies:
        record = manager.play_match(
            [RandomSeat(random.Random(4)), HttpSeat(plies.host, plies.port)],
            match_id="ttt.garbled", start_clock=2, play_clock=PLAY_CLOCK, garble=garble,
        )
        assert_in_step(record, manager, plies.player)
    assert any("9 9" in text for text in sent) and any("MARK" in text for text in sent)


def test_joint_move_of_a_symbol_or_with_a_variable_is_answered_not_refused() -> None:
    player = GgpPlayer(margin=0.9, metagame_cap=0.05, seed=1)
    desc = parse(rules("buttons"))
    game = "(" + " ".join(to_kif(r) for r in desc.rules) + ")"
    assert player.handle(f"(start m1 robot {game} 2 1)").body == "ready"
    assert player.handle("(play m1 nil)").status == 200
    reply = player.handle("(play m1 b)")  # a bare symbol, not a list
    assert reply.status == 200 and reply.body in ("a", "b", "c")
    reply = player.handle("(play m1 ((press ?x)))")  # a variable: no move at all
    assert reply.status == 200 and reply.body in ("a", "b", "c")
    assert player.match is not None and len(player.match.moves) == 2
    assert player.match.moves[0] == ("b",)
    assert player.handle("(stop m1 ((press a)))").body == "done"


def test_apply_joint_applies_known_moves_and_guesses_unknown_ones() -> None:
    reasoner = tictactoe().reasoner
    s0 = reasoner.initial_state()
    # xplayer "plays" noop at its own turn: not legal, but a move of the rules: applied.
    applied = apply_joint(reasoner, s0, [NOOP, NOOP], mine=0)
    assert applied.joint == (NOOP, NOOP) and "not legal here" in applied.problems[0]
    assert applied.state == reasoner.next_state(s0, (NOOP, NOOP))
    # An unknown move of ours is taken to be our reply; the waiting side's, its noop.
    applied = apply_joint(
        reasoner, s0, [("mark", "9", "9"), "pass"], mine=0, replied=("mark", "2", "2")
    )
    assert applied.joint == (("mark", "2", "2"), NOOP) and len(applied.problems) == 2
    # Case is ignored when the rules have no exact match.
    applied = apply_joint(reasoner, s0, [("MARK", "1", "1"), "NOOP"], mine=1)
    assert applied.joint == (("mark", "1", "1"), NOOP) and applied.problems == ()
    # The wrong number of moves: every move guessed, the step still made.
    applied = apply_joint(reasoner, s0, [NOOP], mine=1)
    assert applied.joint == (reasoner.legal(s0, 0)[0], NOOP)
    assert "1 move(s) for 2 role(s)" in applied.problems[0]


def test_always_legal_reads_only_unconditional_legal_rules() -> None:
    assert always_legal(parse(rules("buttons")), "robot") == ("a", "b", "c")
    assert always_legal(parse(rules("ticTacToe")), "xplayer") == ()
    desc = parse(
        "(role a) (role b) (<= (legal ?r wait) (role ?r)) (legal a go) "
        "(<= (legal b jump) (role c)) (<= (legal ?r (move ?x)) (role ?r) (step ?x))"
    )
    assert always_legal(desc, "a") == ("wait", "go")
    assert always_legal(desc, "b") == ("wait",)


def test_play_before_the_reasoner_is_ready_answers_a_move_legal_in_every_state() -> None:
    import plies.ggp.player as player_module

    player = GgpPlayer(margin=0.9)
    desc = parse(rules("buttons"))
    match = player_module.Match("m1", "robot", 0, desc, 5, 1, random.Random(0))
    match.fallback = always_legal(desc, "robot")
    player.match = match  # never prepared: no reasoner will come
    reply = player.handle("(play m1 nil)")
    assert (reply.status, reply.body) == (200, "a")
    assert player.handle("(play m1 (c))").body == "a"
    assert match.pending == [("c",)]  # kept, to be applied once the reasoner is built
    assert player.handle("(abort m1)").body == "aborted"


def test_joint_moves_received_before_the_reasoner_is_built_are_applied_once_it_is() -> None:
    import time

    import plies.ggp.player as player_module

    player = GgpPlayer(margin=0.9, metagame_cap=0.05)
    desc = parse(rules("ticTacToe"))
    match = player_module.Match("m1", "oplayer", 1, desc, 5, 1, random.Random(0))
    player.match = match  # not prepared yet: answers come from the rules alone
    assert player.handle("(play m1 nil)").body == "noop"
    assert player.handle("(play m1 ((mark 1 1) noop))").body == "noop"  # a guess
    assert player.handle("(play m1 (noop (mark 2 2)))").body == "noop"
    player._launch(match, time.perf_counter() + 0.1)  # the reasoners are built now
    assert match.settled.wait(30) and match.ready.wait(30)
    reply = player.handle("(play m1 ((mark 3 3) noop))")
    assert reply.status == 200 and parse_term(reply.body)[0] == "mark"
    assert match.moves == [
        (("mark", "1", "1"), "noop"), ("noop", ("mark", "2", "2")), (("mark", "3", "3"), "noop")
    ]  # nothing lost while waiting
    assert match.machine is not None and match.machine.kind == "propnet"
    state = match.machine.initial_state()
    for joint in match.moves:
        state = match.machine.next_state(state, joint)
    assert match.state == state
    assert player.handle("(abort m1)").body == "aborted"
