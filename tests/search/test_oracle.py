"""Every fast search, with every switch, held to its textbook oracle (:mod:`plies.textbook`).

The oracles are the lecture's recursions; the fast searches are plies' kernels.  On random
trees (2 or 3 players, chance nodes), on games with several moves per turn and on games
with transpositions, in plies and in rounds: the same value and the same first best
action, and where the search is the textbook's own (minimax, expectiminimax, plain
alpha-beta, max^n) the same number of nodes.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import plies
from plies import textbook
from plies.games import load
from tests.search.randomtree import (
    LIMITS,
    SWITCHES,
    RandomDag,
    RandomTree,
    RandomTurns,
    oracle,
    random_dags,
    random_trees,
    random_turn_games,
    switch_names,
)

SETTINGS = settings(
    max_examples=200, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
limits = LIMITS
players = st.integers(0, 2)
trees = st.integers(2, 3).flatmap(lambda k: random_trees(players=k))
chance_trees = st.integers(2, 3).flatmap(lambda k: random_trees(players=k, chance=True))

SWITCHES = [*SWITCHES, {"pvs": True, "aspiration": 1.0}]

@SETTINGS
@given(trees, limits, players)
def test_minimax_is_the_textbook_minimax(
    tree: RandomTree, limit: plies.Limit | None, p: int
) -> None:
    p %= tree.num_players
    got = plies.minimax(tree, 0, limit, player=p)
    expected = oracle(textbook.minimax, tree, 0, limit, p)
    assert (got.value, got.action, got.stats.nodes) == expected[:3]


@SETTINGS
@given(chance_trees, limits, players)
def test_expectiminimax_is_the_textbook_expectiminimax(
    tree: RandomTree, limit: plies.Limit | None, p: int
) -> None:
    p %= tree.num_players
    got = plies.expectiminimax(tree, 0, limit, player=p)
    expected = oracle(textbook.expectiminimax, tree, 0, limit, p)
    assert (got.value, got.action, got.stats.nodes) == expected[:3]


@SETTINGS
@given(trees, limits, players)
def test_plain_alphabeta_is_the_textbook_alphabeta_node_for_node(
    tree: RandomTree, limit: plies.Limit | None, p: int
) -> None:
    p %= tree.num_players
    got = plies.alphabeta(tree, 0, limit, player=p)
    expected = oracle(textbook.alphabeta, tree, 0, limit, p)
    assert (got.value, got.action, got.stats.nodes) == expected[:3]
    assert expected.value == oracle(textbook.minimax, tree, 0, limit, p).value


@SETTINGS
@given(trees, limits, players, st.sampled_from(SWITCHES))
def test_every_engine_switch_keeps_the_textbook_value_and_action(
    tree: RandomTree, limit: plies.Limit | None, p: int, switches: dict[str, Any]
) -> None:
    p %= tree.num_players
    got = plies.alphabeta(tree, 0, limit, player=p, **switches)
    expected = oracle(textbook.minimax, tree, 0, limit, p)
    assert (got.value, got.action) == expected[:2]


@SETTINGS
@given(random_turn_games(players=(2, 4), moves=(1, 3)), limits, players, st.sampled_from(SWITCHES))
def test_several_moves_a_turn_and_n_players_in_both_units(
    game: RandomTurns, limit: plies.Limit | None, p: int, switches: dict[str, Any]
) -> None:
    p %= game.num_players
    root = game.initial_state()
    expected = oracle(textbook.minimax, game, root, limit, p)
    plain = plies.minimax(game, root, limit, player=p)
    assert (plain.value, plain.action, plain.stats.nodes) == expected[:3]
    pruned = oracle(textbook.alphabeta, game, root, limit, p)
    ab = plies.alphabeta(game, root, limit, player=p)
    assert (ab.value, ab.action, ab.stats.nodes) == pruned[:3]
    craft = plies.alphabeta(game, root, limit, player=p, **switches)
    assert (craft.value, craft.action) == expected[:2]


@SETTINGS
@given(random_dags(), limits, players, st.sampled_from(SWITCHES))
def test_every_switch_on_games_with_transpositions(
    game: RandomDag, limit: plies.Limit | None, p: int, switches: dict[str, Any]
) -> None:
    p %= game.num_players
    root = game.initial_state()
    expected = oracle(textbook.minimax, game, root, limit, p)
    got = plies.alphabeta(game, root, limit, player=p, **switches)
    assert (got.value, got.action) == expected[:2]


@SETTINGS
@given(chance_trees, limits, players, st.sampled_from([True, "star2"]))
def test_star1_and_star2_keep_the_textbook_expectiminimax(
    tree: RandomTree, limit: plies.Limit | None, p: int, pruning: bool | str
) -> None:
    p %= tree.num_players
    got = plies.expectiminimax(tree, 0, limit, player=p, pruning=pruning)
    expected = oracle(textbook.expectiminimax, tree, 0, limit, p)
    assert got.value == pytest.approx(expected.value, abs=1e-9)
    assert got.action == expected.action


@SETTINGS
@given(st.integers(2, 3).flatmap(lambda k: random_trees(players=k, chance=True, zero_sum=False)),
       limits, players)
def test_maxn_is_the_textbook_maxn(tree: RandomTree, limit: plies.Limit | None, p: int) -> None:
    p %= tree.num_players
    got = plies.maxn(tree, 0, limit, player=p)
    expected = oracle(textbook.maxn, tree, 0, limit, p)
    assert (got.value, got.action, got.values, got.stats.nodes) == (
        expected.value, expected.action, expected.values, expected.nodes,
    )


@SETTINGS
@given(trees, limits, players)
def test_bounded_minimax_keeps_the_textbook_value(
    tree: RandomTree, limit: plies.Limit | None, p: int
) -> None:
    p %= tree.num_players
    got = plies.bounded_minimax(tree, 0, limit, player=p)
    assert (got.value, got.action) == oracle(textbook.minimax, tree, 0, limit, p)[:2]


@pytest.mark.parametrize("switches", [{}, *SWITCHES[1:]], ids=switch_names)
@pytest.mark.parametrize(
    ("name", "options", "limit"),
    [
        ("tictactoe", {}, None),
        ("tictactoe", {}, plies.Limit(depth=3)),
        ("connect4", {"width": 4, "height": 4}, plies.Limit(depth=6)),
        ("civ", {"players": 2, "moves": 2}, plies.Limit(depth=1, unit="round")),
        ("nim", {"piles": (1, 2, 3)}, None),
    ],
)
def test_real_games_against_the_textbook(
    name: str, options: dict[str, Any], limit: plies.Limit | None, switches: dict[str, Any]
) -> None:
    game = load(name, **options)
    root = game.initial_state()
    expected = oracle(textbook.minimax, game, root, limit)
    got = plies.alphabeta(game, root, limit, **switches)
    assert (got.value, got.action) == expected[:2]
    if not switches:
        assert got.stats.nodes == oracle(textbook.alphabeta, game, root, limit).nodes


def test_the_textbook_refuses_what_it_cannot_search() -> None:
    pig = load("pig", goal=4, max_turns=2)
    with pytest.raises(plies.UnsupportedGameError, match="chance"):
        textbook.minimax(pig, pig.initial_state(), depth=2)
    with pytest.raises(plies.UnsupportedGameError, match="chance"):
        textbook.alphabeta(pig, pig.initial_state(), depth=2)
    assert textbook.expectiminimax(pig, pig.initial_state(), depth=2).action is not None
