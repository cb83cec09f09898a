"""Engine craft never changes plain alpha-beta's value (nor the action under "first")."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import plies
from plies.games import load
from plies.search.engine import TranspositionTable
from tests.search.randomtree import RandomDag, RandomTree, random_dags, random_trees

SWITCHES = [
    dict(zip(("tt", "ordering", "pvs"), combo, strict=True))
    for combo in itertools.product([False, True], repeat=3)
    if any(combo)
]
SETTINGS = settings(
    max_examples=150, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
depths = st.one_of(st.none(), st.integers(0, 6))


@SETTINGS
@given(random_dags(), depths, st.sampled_from(SWITCHES), st.integers(0, 2))
def test_switches_keep_the_value_on_games_with_transpositions(
    game: RandomDag, depth: int | None, switches: dict[str, bool], p: int
) -> None:
    p %= game.num_players
    limit = plies.Limit(depth=depth)
    plain = plies.alphabeta(game, game.initial_state(), limit, player=p)
    craft = plies.alphabeta(game, game.initial_state(), limit, player=p, **switches)
    assert (craft.value, craft.action) == (plain.value, plain.action)
    assert craft.exact == plain.exact


@SETTINGS
@given(
    st.integers(2, 3).flatmap(lambda k: random_trees(players=k)), depths,
    st.sampled_from(SWITCHES), st.integers(0, 10**6),
)
def test_switches_keep_value_and_tie_choice_on_random_trees(
    tree: RandomTree, depth: int | None, switches: dict[str, bool], seed: int
) -> None:
    limit = plies.Limit(depth=depth)
    for tie in ("first", "random"):
        plain = plies.minimax(tree, 0, limit, tie=tie, seed=seed)
        craft = plies.alphabeta(tree, 0, limit, tie=tie, seed=seed, **switches)
        assert (craft.value, craft.action) == (plain.value, plain.action)


@pytest.mark.parametrize("switches", SWITCHES, ids=lambda s: "+".join(k for k in s if s[k]))
@pytest.mark.parametrize(
    ("name", "options", "depth"),
    [("tictactoe", {}, None), ("tictactoe", {}, 3), ("nim", {"piles": (2, 3, 4)}, None),
     ("civ", {"players": 2, "moves": 2}, 5), ("connect4", {}, 5)],
)
def test_switches_keep_the_value_on_real_games(
    name: str, options: dict[str, Any], depth: int | None, switches: dict[str, bool]
) -> None:
    game = load(name, **options)
    limit = plies.Limit(depth=depth)
    plain = plies.alphabeta(game, game.initial_state(), limit)
    craft = plies.alphabeta(game, game.initial_state(), limit, **switches)
    assert (craft.value, craft.action) == (plain.value, plain.action)
    if switches["tt"] and depth is None:
        assert craft.stats.tt_hits > 0


def test_the_table_and_ordering_cut_the_tree() -> None:
    game = load("tictactoe")
    plain = plies.alphabeta(game, game.initial_state())
    craft = plies.alphabeta(game, game.initial_state(), tt=True, ordering=True)
    assert craft.stats.nodes < plain.stats.nodes / 3


def test_iterations_are_reported() -> None:
    game = load("tictactoe")
    seen: list[plies.SearchResult] = []
    final = plies.alphabeta(
        game, game.initial_state(), plies.Limit(depth=4), tt=True, on_iteration=seen.append
    )
    assert [r.stats.depth for r in seen] == [1, 2, 3, 4]
    assert seen[-1].value == final.value
    assert [r.stats.nodes for r in seen] == sorted(r.stats.nodes for r in seen)


def test_a_table_needs_a_slot() -> None:
    with pytest.raises(ValueError, match="at least 1 slot"):
        TranspositionTable(0)


def test_a_tiny_table_still_gives_the_right_value() -> None:
    game = load("tictactoe")
    r = plies.alphabeta(game, game.initial_state(), tt=3, ordering=True, pvs=True)
    assert (r.value, r.action) == (0.0, 0)
