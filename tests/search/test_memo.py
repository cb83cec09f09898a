"""Memoised minimax (plies.search.memo) against plain minimax, and what it refuses."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import plies
from plies.errors import SearchLimitError, UnsupportedGameError
from plies.game import Game
from plies.search.memo import MemoProgress, MemoSolver, memo_minimax
from tests.search.randomtree import RandomTree, random_trees


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 3).flatmap(lambda k: random_trees(players=k)), st.integers(0, 2))
def test_memo_minimax_equals_minimax(tree: RandomTree, p: int) -> None:
    player = p % tree.num_players
    root = tree.initial_state()
    if tree.is_terminal(root):
        return
    memo = memo_minimax(tree, root, player=player)
    plain = plies.minimax(tree, root, player=player)
    assert (memo.value, memo.action) == (plain.value, plain.action)
    # The line ends at a terminal state worth the value.
    state = root
    for action in memo.pv:
        state = tree.result(state, action)
    assert tree.is_terminal(state) and tree.utility(state, player) == memo.value


def test_memo_solver_analyzes_tictactoe_like_analyze() -> None:
    ttt = plies.games.load("tictactoe")
    state = ttt.result(ttt.initial_state(), ttt.actions(ttt.initial_state())[0])
    solver = MemoSolver(ttt)
    values = solver.analyze(state)
    assert values == plies.analyze(ttt, state).action_values
    # The table is kept: solving again answers from it.
    first = solver.solve(ttt.initial_state())
    again = solver.solve(ttt.initial_state())
    assert first.value == again.value == 0.0 and again.stats.nodes < first.stats.nodes


class Loop(Game[int, int]):
    """Two players pass a token round a ring of three states for ever."""

    num_players = 2
    utility_range = (0.0, 1.0)

    def initial_state(self) -> int:
        return 0

    def to_move(self, state: int) -> int:
        return state % 2

    def actions(self, state: int) -> Sequence[int]:
        return [0]

    def result(self, state: int, action: int) -> int:
        return (state + 1) % 3

    def is_terminal(self, state: int) -> bool:
        return False

    def utility(self, state: int, player: int) -> float:
        return 0.0


def test_memo_minimax_refuses_a_game_that_repeats_a_state() -> None:
    with pytest.raises(SearchLimitError, match="repeats a state"):
        memo_minimax(Loop(), 0)


def test_memo_minimax_refuses_chance_nodes() -> None:
    pig = plies.games.load("pig")
    with pytest.raises(UnsupportedGameError, match="chance"):
        memo_minimax(pig, pig.result(pig.initial_state(), "roll"))


def test_memo_minimax_stops_at_its_cap_and_reports_progress() -> None:
    ttt = plies.games.load("tictactoe")
    seen: list[MemoProgress] = []
    with pytest.raises(SearchLimitError, match="more than 100 states"):
        memo_minimax(ttt, ttt.initial_state(), max_states=100)
    result = memo_minimax(ttt, ttt.initial_state(), on_progress=seen.append)
    assert seen and seen[-1].states > 0 and seen[-1].nodes == result.stats.nodes
