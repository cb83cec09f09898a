"""Pig: chance outcomes, the rules of a turn, finiteness with a turn cap, the exact value."""

from __future__ import annotations

from functools import cache

import pytest

from plies.errors import GameFormatError
from plies.game import CHANCE, parse_action
from plies.games.pig import HOLD, ROLL, Pig, PigState
from tests.conformance import check_game

PIG = Pig()


def test_conformance() -> None:
    report = check_game(PIG, playouts=100)
    assert report.terminals == 100 and report.chance_nodes > 100
    check_game(Pig(goal=20, max_turns=None), playouts=20, max_steps=300)


def test_chance_outcomes_are_the_six_faces() -> None:
    rolling = PIG.result(PIG.initial_state(), ROLL)
    assert PIG.to_move(rolling) == CHANCE
    assert PIG.chance_outcomes(rolling) == tuple((face, 1 / 6) for face in range(1, 7))
    assert [PIG.format_action(rolling, a) for a in PIG.actions(rolling)] == list("123456")
    assert parse_action(PIG, rolling, "4") == 4


def test_a_turn() -> None:
    s = PIG.initial_state()
    assert PIG.actions(s) == (ROLL,)  # the first roll of a turn is compulsory
    s = PIG.result(PIG.result(s, ROLL), 3)
    assert s == PigState((0, 0), 3, 0, False, 0)
    assert PIG.actions(s) == (ROLL, HOLD)
    s = PIG.result(PIG.result(s, ROLL), 2)
    assert s.turn_total == 5
    held = PIG.result(s, HOLD)
    assert held == PigState((5, 0), 0, 1, False, 1)


def test_rolling_a_one_loses_the_turn_total() -> None:
    s = PigState((4, 0), 5, 1, True, 2)
    assert PIG.result(s, 1) == PigState((4, 0), 0, 0, False, 3)
    assert PIG.result(PigState((4, 0), 3, 1, True, 2), 2) == PigState((4, 0), 5, 1, False, 2)


def test_reaching_the_goal_banks_and_ends_the_game() -> None:
    s = PIG.result(PigState((4, 2), 3, 1, True, 2), 2)
    assert s == PigState((4, 7), 0, 0, False, 3)
    assert PIG.is_terminal(s)
    assert (PIG.utility(s, 0), PIG.utility(s, 1)) == (-1.0, 1.0)


def test_the_turn_cap_decides_by_score() -> None:
    assert PIG.is_terminal(PigState((3, 3), 0, 0, False, 4))
    assert PIG.utility(PigState((3, 3), 0, 0, False, 4), 1) == 0.0
    assert PIG.utility(PigState((5, 3), 0, 0, False, 4), 0) == 1.0
    assert not PIG.is_terminal(PigState((5, 3), 0, 0, False, 3))
    with pytest.raises(ValueError, match="non-terminal"):
        PIG.utility(PIG.initial_state(), 0)


def test_with_a_turn_cap_the_game_has_no_cycles() -> None:
    # Depth-first search with three colours: meeting a state that is still on the
    # stack (grey) would be a cycle.
    colour: dict[PigState, str] = {}

    def visit(state: PigState) -> None:
        colour[state] = "grey"
        if not PIG.is_terminal(state):
            for action in PIG.actions(state):
                child = PIG.result(state, action)
                assert colour.get(child) != "grey", f"cycle through {child}"
                if child not in colour:
                    visit(child)
        colour[state] = "black"

    visit(PIG.initial_state())
    assert len(colour) == 642  # distinct positions of the default game


def test_without_a_cap_two_ones_return_to_the_same_position() -> None:
    game = Pig(max_turns=None)
    s = game.initial_state()
    for action in (ROLL, 1, ROLL, 1):
        s = game.result(s, action)
    assert s != game.initial_state() and s.turns == 2
    assert game.key(s) == game.key(game.initial_state())
    assert not game.is_terminal(PigState((6, 6), 0, 0, False, 10**6))


def test_exact_value_of_the_default_game() -> None:
    @cache
    def value(state: PigState) -> float:  # expectiminimax for player 0
        if PIG.is_terminal(state):
            return PIG.utility(state, 0)
        if PIG.to_move(state) == CHANCE:
            return sum(p * value(PIG.result(state, a)) for a, p in PIG.chance_outcomes(state))
        values = [value(PIG.result(state, a)) for a in PIG.actions(state)]
        return max(values) if state.mover == 0 else min(values)

    # The number comes from an independent solver with its own state encoding.
    assert value(PIG.initial_state()) == pytest.approx(0.4866684797311156, abs=1e-12)


def test_evaluate_is_the_score_difference_over_the_goal() -> None:
    s = PigState((3, 1), 2, 0, False, 1)
    assert PIG.evaluate(s, 0) == pytest.approx((5 - 1) / 7)
    assert PIG.evaluate(s, 1) == pytest.approx(-(5 - 1) / 7)
    assert PIG.evaluate(PigState((7, 1), 0, 1, False, 2), 0) == 1.0


def test_render() -> None:
    assert PIG.render(PigState((3, 1), 2, 1, True, 1)) == (
        "P0: 3   P1: 1   (goal 7)\nturn 2 of 4: P1 rolls the die... (turn total 2)"
    )
    assert PIG.render(PigState((3, 1), 0, 0, False, 4)) == (
        "P0: 3   P1: 1   (goal 7)\nafter 4 turns of 4: P0 wins"
    )
    assert (
        Pig(max_turns=None)
        .render(PigState((0, 0), 0, 0, False, 0))
        .endswith("turn 1: P0 to move (turn total 0)")
    )


@pytest.mark.parametrize(
    ("kwargs", "message"), [({"goal": 1}, "goal"), ({"max_turns": 0}, "max_turns")]
)
def test_bad_options(kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(GameFormatError, match=message):
        Pig(**kwargs)
