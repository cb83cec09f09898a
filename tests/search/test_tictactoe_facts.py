"""Known facts of tic-tac-toe, and every search against minimax on every reachable position."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

import plies
from tests.games.test_tictactoe import reachable

GAME = plies.games.load("tictactoe")


POSITIONS = sorted(reachable())  # sorted: sampling every k-th must not depend on hashing


@cache
def oracle(state: Any, player: int) -> float:
    """Minimax by its definition, memoised over positions."""
    if GAME.is_terminal(state):
        return GAME.utility(state, player)
    values = [oracle(GAME.result(state, a), player) for a in GAME.actions(state)]
    return max(values) if GAME.to_move(state) == player else min(values)


def oracle_action(state: Any) -> Any:
    mover = GAME.to_move(state)
    values = [oracle(GAME.result(state, a), mover) for a in GAME.actions(state)]
    return GAME.actions(state)[values.index(max(values))]


def test_full_minimax_visits_549946_nodes_and_draws() -> None:
    result = plies.minimax(GAME, GAME.initial_state())
    assert result.stats.nodes == 549_946
    assert result.value == 0.0 and result.exact
    assert result.stats.depth == 9


@pytest.mark.parametrize("search", [plies.alphabeta, plies.bounded_minimax])
def test_fast_searches_agree_with_minimax_everywhere(search: Any) -> None:
    for state in POSITIONS:
        if GAME.is_terminal(state):
            continue
        mover = GAME.to_move(state)
        result = search(GAME, state)
        assert result.value == oracle(state, mover), GAME.render(state)
        assert result.action == oracle_action(state), GAME.render(state)


def test_analyze_gives_every_move_its_value_everywhere() -> None:
    for state in POSITIONS[::7]:
        if GAME.is_terminal(state):
            continue
        mover = GAME.to_move(state)
        values = plies.analyze(GAME, state).action_values
        assert values == {a: oracle(GAME.result(state, a), mover) for a in GAME.actions(state)}


def test_values_from_the_other_side_are_negated() -> None:
    for state in POSITIONS[::11]:
        if GAME.is_terminal(state):
            continue
        other = 1 - GAME.to_move(state)
        assert plies.alphabeta(GAME, state, player=other).value == oracle(state, other)
