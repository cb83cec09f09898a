"""Every GDL reasoner gives the same answers and the same errors (the StateMachine
protocol): the compiled propnet, the top-down prover and the reference prover."""

from __future__ import annotations

from typing import Any

import pytest

from plies.gdl import GoalDefinitionError, Prover, Reasoner, StateMachine, parse
from plies.gdl.topdown import TopDown

HUGE = "9" * 5_000
BAD_GOAL = (
    "(role p) (init s) (legal p go) (next s) (<= terminal (true s)) (goal p 50) "
    f"(<= (goal p {HUGE}) (true s))"
)


def machines(text: str) -> list[StateMachine[Any]]:
    desc = parse(text)
    return [Reasoner(desc), TopDown(desc), Prover(desc)]


@pytest.mark.parametrize("machine", machines(BAD_GOAL), ids=lambda m: m.kind)
def test_a_goal_value_outside_0_to_100_is_left_out_of_goal_values_and_an_error_of_goal(
    machine: StateMachine[Any],
) -> None:
    s = machine.initial_state()
    assert isinstance(machine, StateMachine)
    assert machine.goal_values(s, 0) == [50]
    with pytest.raises(GoalDefinitionError) as raised:
        machine.goal(s, 0)
    assert str(raised.value) == (
        "role p has the goal value 99999999999999999999... (5,000 characters) in state {s}; "
        "GDL goal values are integers from 0 to 100"
    )


@pytest.mark.parametrize(
    "machine", machines("(role p) (init s) (legal p go) (next s) (<= terminal (true s))"
                        " (goal p 50) (<= (goal p 0) (true s))"), ids=lambda m: m.kind,
)
def test_two_goal_values_are_the_same_error_on_every_machine(machine: StateMachine[Any]) -> None:
    with pytest.raises(GoalDefinitionError) as raised:
        machine.goals(machine.initial_state())
    assert str(raised.value) == (
        "role p has 2 goal values (0, 50) in state {s}; GDL requires exactly one"
    )
