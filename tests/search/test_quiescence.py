"""Quiescence search: a stand-pat search over noisy moves, the same for every algorithm."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import plies
from plies.games import load
from tests.search.randomtree import RandomTree, random_trees


class NoisyTree(RandomTree):
    """A random tree whose first child of every node counts as a noisy move."""

    def noisy_actions(self, state: int) -> Sequence[int]:
        return range(min(1, len(self.nodes[state].children)))


def stand_pat(tree: RandomTree, node: int, player: int, depth: int) -> float:
    """Quiescence by its definition: the best/worst of standing pat and each noisy move."""
    n = tree.nodes[node]
    if not n.children:
        return n.utilities[player]
    options = [n.heuristic[player]]
    if depth > 0:
        options.append(stand_pat(tree, n.children[0], player, depth - 1))
    return max(options) if n.mover == player else min(options)


@settings(max_examples=200, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 3).flatmap(lambda k: random_trees(players=k)), st.integers(0, 3),
       st.integers(0, 3))
def test_every_algorithm_searches_the_same_quiescent_game(
    tree: RandomTree, depth: int, qdepth: int
) -> None:
    noisy = NoisyTree(tree.nodes, tree.num_players, tree.zero_sum)
    game = plies.Quiescent(noisy, depth=qdepth)
    limit = plies.Limit(depth=depth)
    for state in range(len(tree.nodes)):
        if tree.nodes[state].children:
            assert game.evaluate(state, 0) == stand_pat(noisy, state, 0, qdepth)
    expected = plies.minimax(game, 0, limit)
    for switches in ({}, {"tt": True, "ordering": True, "pvs": True}):
        got = plies.alphabeta(game, 0, limit, **switches)
        assert (got.value, got.action) == (expected.value, expected.action)


def test_quiescence_sees_the_four_that_the_horizon_hides() -> None:
    game = load("connect4", scoring="winloss")
    # X holds columns 1-3 of the bottom row; O, to move, must block at column 4.
    state = game.moves_from_string("1122335")
    assert game.to_move(state) == 1
    limit = plies.Limit(depth=1)
    flat = plies.analyze(game, state, limit, player=0).action_values
    quiet = plies.analyze(plies.Quiescent(game), state, limit, player=0).action_values
    assert flat is not None and quiet is not None
    for column, value in quiet.items():
        if column != 3:  # X completes the four in the noisy search: a proven win
            assert value == 1.0 > flat[column]
    assert quiet[3] < 1.0


def test_quiescence_depth_must_be_natural() -> None:
    with pytest.raises(ValueError, match=">= 0"):
        plies.Quiescent(load("connect4"), depth=-1)
