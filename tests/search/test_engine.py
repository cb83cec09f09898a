"""Engine craft never changes plain alpha-beta's value (nor the action under "first")."""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import plies
from plies.games import load
from plies.search.craft import (
    MAX_TABLE_SLOTS,
    TranspositionTable,
    is_prime,
    largest_prime_at_most,
)
from tests.search.randomtree import RandomDag, RandomTree, random_dags, random_trees

WINDOWS: list[dict[str, Any]] = [{}, {"aspiration": 0.5}, {"bisection": True}]
SWITCHES: list[dict[str, Any]] = [
    {**dict(zip(("tt", "ordering", "pvs"), combo, strict=True)), **window}
    for combo in itertools.product([False, True], repeat=3)
    for window in WINDOWS
    if any(combo) or window
]
REAL_SWITCHES = [s for s in SWITCHES if "aspiration" not in s and "bisection" not in s] + [
    {"tt": True, "ordering": True, "pvs": True, **window} for window in WINDOWS[1:]
] + [{"tt": False, "ordering": False, "pvs": False, **window} for window in WINDOWS[1:]]
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
    for r in (craft, plain):  # "exact" means no evaluation was used: then it is the game value
        if r.exact:
            assert r.value == plies.minimax(game, game.initial_state(), player=p).value


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


@pytest.mark.parametrize(
    "switches", REAL_SWITCHES, ids=lambda s: "+".join(k for k in s if s[k]) or "none"
)
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


@pytest.mark.parametrize(
    "switches", [{"tt": True, "ordering": True, "bisection": True}, {"bisection": True}, {}],
    ids=["craft", "bisection", "plain"],
)
@pytest.mark.parametrize("moves", ["", "4 0", "0 4 8"])
def test_analyze_with_engine_craft_keeps_every_value(moves: str, switches: dict[str, Any]) -> None:
    game = load("tictactoe")
    state = game.initial_state()
    for move in moves.split():
        state = game.result(state, int(move))
    plain = plies.analyze(game, state)
    craft = plies.analyze(game, state, **switches)
    assert craft.action_values == plain.action_values
    assert (craft.value, craft.action) == (plain.value, plain.action)


def test_bisection_with_random_ties_picks_among_the_exact_ties() -> None:
    game = load("tictactoe")
    plain = plies.alphabeta(game, game.initial_state(), tie="random", seed=5)
    craft = plies.alphabeta(
        game, game.initial_state(), tt=True, bisection=True, tie="random", seed=5
    )
    assert (craft.value, craft.action) == (plain.value, plain.action)


def test_a_table_kept_between_searches_is_reused() -> None:
    game = load("tictactoe")
    table = TranspositionTable()
    first = plies.alphabeta(game, game.initial_state(), tt=table, bisection=True)
    again = plies.alphabeta(game, game.initial_state(), tt=table, bisection=True)
    assert again.value == first.value == 0.0
    assert again.stats.nodes < first.stats.nodes / 10
    other = plies.alphabeta(game, game.initial_state(), player=1, tt=table)
    assert other.value == 0.0 and table.player == 1  # the other side's values are not reused


def test_aspiration_must_be_positive() -> None:
    game = load("tictactoe")
    with pytest.raises(plies.OptionError, match="positive half-width"):
        plies.alphabeta(game, game.initial_state(), aspiration=0)


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


def test_table_slots_spread_connect_four_keys() -> None:
    # Connect Four keys are ints that hash to themselves; their low 20 bits hold only the
    # first three columns, so a power-of-two modulus would pile most positions into a
    # few slots (it cost the solver 3x the nodes).  The prime modulus spreads them.
    game = load("connect4")
    rng = random.Random(7)
    keys = set()
    for _ in range(300):
        state = game.initial_state()
        while not game.is_terminal(state):
            keys.add(game.key(state))
            state = game.result(state, rng.choice(game.actions(state)))
    table = TranspositionTable(1 << 20)
    assert table.modulus == 1048573
    slots = {table.slot(key) for key in keys}
    assert len(slots) > 0.97 * len(keys)
    assert len({key % (1 << 20) for key in keys}) < 0.5 * len(keys)  # what a power of two did


def test_a_tiny_table_still_gives_the_right_value() -> None:
    game = load("tictactoe")
    r = plies.alphabeta(game, game.initial_state(), tt=3, ordering=True, pvs=True)
    assert (r.value, r.action) == (0.0, 0)


def _plies_to_end(game: Any, state: Any, pv: tuple[Any, ...]) -> int:
    for action in pv:
        state = game.result(state, action)
    assert game.is_terminal(state)
    return len(pv)


def test_mate_distance_prefers_the_fastest_win() -> None:
    game = load("tictactoe")
    # X: 0 1 . / O: 3 4 . -- X wins at once with 2, or later with other moves.
    state = game.initial_state()
    for move in (0, 3, 1, 4):
        state = game.result(state, move)
    quick = plies.alphabeta(game, state, mate=True, tt=True, ordering=True)
    assert quick.value == 1.0 and quick.action == 2
    assert _plies_to_end(game, state, quick.pv) == 1


@SETTINGS
@given(st.integers(2, 3).flatmap(lambda k: random_trees(players=k)), st.sampled_from(SWITCHES))
def test_mate_distance_keeps_the_value_and_finds_the_shortest_win(
    tree: RandomTree, switches: dict[str, Any]
) -> None:
    plain = plies.minimax(tree, 0)
    mate = plies.alphabeta(tree, 0, mate=True, **switches)
    assert mate.value == plain.value
    lo, hi = tree.utility_range
    me = plain.player
    if plain.value == hi and lo < hi:  # a forced win: no shorter one exists

        def shortest_win(state: int) -> float:
            if tree.is_terminal(state):
                return 0 if tree.utility(state, me) == hi else math.inf
            lengths = [shortest_win(tree.result(state, a)) for a in tree.actions(state)]
            best = min(lengths) if tree.to_move(state) == me else max(lengths)
            return 1 + best

        assert len(mate.pv) == shortest_win(0)


def test_absurd_transposition_table_is_refused() -> None:
    # tt=10**18 hung in the search for the largest prime below it (trial division).
    ttt = load("tictactoe")
    with pytest.raises(plies.OptionError, match=r"cap of 268,435,456 slots"):
        plies.alphabeta(ttt, ttt.initial_state(), tt=10**18)
    with pytest.raises(plies.OptionError, match=r"cap of 268,435,456 slots"):
        TranspositionTable(MAX_TABLE_SLOTS + 1)
    assert TranspositionTable(MAX_TABLE_SLOTS).modulus == 268_435_399


def test_largest_prime_below_a_huge_number_is_found_at_once() -> None:
    primes = [p for p in range(2, 2000) if all(p % d for d in range(2, int(p**0.5) + 1))]
    assert [p for p in range(2000) if is_prime(p)] == primes
    assert largest_prime_at_most(10**18) == 10**18 - 11
    assert largest_prime_at_most(2**61 - 1) == 2**61 - 1  # a Mersenne prime
    assert not is_prime(3_215_031_751)  # a strong pseudoprime to bases 2, 3, 5 and 7
