"""Every search against plain minimax (or a direct computation) on random trees."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import plies
from plies.game import CHANCE
from tests.search.randomtree import RandomTree, random_trees

SETTINGS = settings(
    max_examples=300, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
limits = st.one_of(
    st.none(),
    st.builds(plies.Limit, depth=st.integers(0, 4), unit=st.sampled_from(["ply", "round"])),
)
players = st.integers(0, 2)


def direct_value(tree: RandomTree, node: int, player: int) -> float:
    """Expectiminimax written out from its definition (paranoid, no depth limit)."""
    n = tree.nodes[node]
    if not n.children:
        return n.utilities[player]
    values = [direct_value(tree, c, player) for c in n.children]
    if n.mover == CHANCE:
        return sum(p * v for p, v in zip(n.probs, values, strict=True))
    return max(values) if n.mover == player else min(values)


def direct_maxn(tree: RandomTree, node: int) -> tuple[float, ...]:
    n = tree.nodes[node]
    if not n.children:
        return n.utilities
    vectors = [direct_maxn(tree, c) for c in n.children]
    return max(vectors, key=lambda v: v[n.mover])  # max() keeps the first of equals


@SETTINGS
@given(st.integers(2, 3).flatmap(lambda k: random_trees(players=k)), limits, players)
def test_alphabeta_equals_minimax(tree: RandomTree, limit: plies.Limit | None, p: int) -> None:
    p %= tree.num_players
    expected = plies.minimax(tree, 0, limit, player=p)
    got = plies.alphabeta(tree, 0, limit, player=p)
    assert got.value == expected.value
    assert got.action == expected.action
    assert got.stats.nodes <= expected.stats.nodes


@SETTINGS
@given(st.integers(2, 3).flatmap(lambda k: random_trees(players=k)), st.integers(0, 10**6))
def test_random_tie_rule_agrees(tree: RandomTree, seed: int) -> None:
    expected = plies.minimax(tree, 0, tie="random", seed=seed)
    got = plies.alphabeta(tree, 0, tie="random", seed=seed)
    assert (got.value, got.action) == (expected.value, expected.action)
    best = plies.analyze(tree, 0, algorithm="minimax").action_values
    assert best is not None and best[got.action] == expected.value


@SETTINGS
@given(st.integers(2, 3).flatmap(lambda k: random_trees(players=k)), limits, players)
def test_bounded_equals_minimax(tree: RandomTree, limit: plies.Limit | None, p: int) -> None:
    p %= tree.num_players
    expected = plies.minimax(tree, 0, limit, player=p)
    got = plies.bounded_minimax(tree, 0, limit, player=p)
    assert (got.value, got.action) == (expected.value, expected.action)


@SETTINGS
@given(st.integers(2, 3).flatmap(lambda k: random_trees(players=k)), st.integers(-5, 5))
def test_threshold_decides_the_question(tree: RandomTree, threshold: int) -> None:
    expected = plies.minimax(tree, 0).value
    got = plies.bounded_minimax(tree, 0, threshold=threshold)
    assert (got.value >= threshold) == (expected >= threshold)
    if got.value >= threshold:
        assert expected >= got.value
    else:
        assert expected <= got.value


@SETTINGS
@given(random_trees(players=2, zero_sum=True), limits)
def test_maxn_equals_paranoid_on_two_player_zero_sum(
    tree: RandomTree, limit: plies.Limit | None
) -> None:
    expected = plies.minimax(tree, 0, limit)
    got = plies.maxn(tree, 0, limit)
    assert (got.value, got.action) == (expected.value, expected.action)


@SETTINGS
@given(st.integers(2, 3).flatmap(lambda k: random_trees(players=k, zero_sum=False)))
def test_maxn_equals_direct_definition(tree: RandomTree) -> None:
    got = plies.maxn(tree, 0)
    assert got.values == direct_maxn(tree, 0)


@SETTINGS
@given(st.integers(2, 3).flatmap(lambda k: random_trees(players=k, chance=True)), players)
def test_expectiminimax_equals_direct_computation(tree: RandomTree, p: int) -> None:
    p %= tree.num_players
    got = plies.expectiminimax(tree, 0, player=p)
    assert abs(got.value - direct_value(tree, 0, p)) < 1e-9


@SETTINGS
@given(st.integers(2, 3).flatmap(lambda k: random_trees(players=k)), limits)
def test_analyze_gives_each_action_its_minimax_value(
    tree: RandomTree, limit: plies.Limit | None
) -> None:
    result = plies.analyze(tree, 0, limit)
    plain = plies.analyze(tree, 0, limit, algorithm="minimax")
    assert result.action_values == plain.action_values
    assert result.value == plies.minimax(tree, 0, limit).value
    if limit is None or limit.unit == "ply":  # a round's depth depends on the path above
        assert result.action_values is not None
        child_limit = _deeper(limit)
        for action, value in result.action_values.items():
            child = tree.result(0, action)
            assert value == plies.minimax(tree, child, child_limit, player=tree.to_move(0)).value


def _deeper(limit: plies.Limit | None) -> plies.Limit | None:
    """The limit that a child of a ply-limited root searches with."""
    if limit is None or limit.depth is None:
        return limit
    return plies.Limit(depth=max(limit.depth - 1, 0))


@SETTINGS
@given(st.integers(2, 3).flatmap(lambda k: random_trees(players=k)), limits, st.randoms())
def test_move_ordering_never_changes_the_result(
    tree: RandomTree, limit: plies.Limit | None, rnd: Any
) -> None:
    def shuffled(state: int, actions: Sequence[int]) -> list[int]:
        out = list(actions)
        rnd.shuffle(out)
        return out

    expected = plies.minimax(tree, 0, limit)
    got = plies.alphabeta(tree, 0, limit, order=shuffled)
    assert (got.value, got.action) == (expected.value, expected.action)


@SETTINGS
@given(
    st.integers(2, 3).flatmap(lambda k: random_trees(players=k, chance=True)),
    limits,
    players,
    st.integers(0, 10**6),
)
def test_star1_and_star2_pruning_keep_expectiminimax_value_and_action(
    tree: RandomTree, limit: plies.Limit | None, p: int, seed: int
) -> None:
    p %= tree.num_players
    for tie in ("first", "random"):
        plain = plies.expectiminimax(tree, 0, limit, player=p, tie=tie, seed=seed)
        for pruning in (True, "star2"):
            pruned = plies.expectiminimax(
                tree, 0, limit, player=p, tie=tie, seed=seed, pruning=pruning
            )
            assert (pruned.value, pruned.action) == (plain.value, plain.action)
            if pruning is True:  # Star2's probes may revisit a subtree Star1 searches again
                assert pruned.stats.nodes <= plain.stats.nodes
