"""The family cross-checked on the built-in games and on known values."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import pytest

import plies
from plies.game import game_ops
from plies.games import load


@pytest.mark.parametrize(
    ("piles", "misere"),
    [((1, 2, 3), False), ((2, 2, 3), False), ((1, 1, 1), True), ((3, 4), True), ((2, 3, 4), False)],
)
def test_nim_values_agree_and_follow_the_theory(piles: tuple[int, ...], misere: bool) -> None:
    game = load("nim", piles=piles, misere=misere)
    root = game.initial_state()
    results = [f(game, root) for f in (plies.minimax, plies.alphabeta, plies.bounded_minimax)]
    assert len({(r.value, r.action) for r in results}) == 1
    nim_sum = 0
    for pile in piles:
        nim_sum ^= pile
    # misère play differs from normal play only when every pile has at most one stick
    only_ones = misere and all(p <= 1 for p in piles)
    expected_win = sum(piles) % 2 == 0 if only_ones else nim_sum != 0
    assert results[0].value == (1.0 if expected_win else -1.0)


@pytest.mark.parametrize("unit", ["ply", "round"])
@pytest.mark.parametrize("depth", [1, 2])
def test_civ_alphabeta_equals_minimax(unit: str, depth: int) -> None:
    game = load("civ", players=2, moves=2)
    limit = plies.Limit(depth=depth if unit == "round" else depth * 4, unit=unit)  # type: ignore[arg-type]
    expected = plies.minimax(game, game.initial_state(), limit)
    got = plies.alphabeta(game, game.initial_state(), limit)
    assert (got.value, got.action, got.pv) == (expected.value, expected.action, expected.pv)
    assert got.stats.nodes < expected.stats.nodes


def test_civ_one_round_is_nine_plies_for_every_algorithm() -> None:
    game = load("civ")
    limit = plies.Limit(depth=1, unit="round")
    for search in (plies.minimax, plies.alphabeta, plies.maxn):
        result = search(game, game.initial_state(), limit)
        assert len(result.pv) == 9
        assert result.stats.depth == 1
    assert plies.maxn(game, game.initial_state(), limit).values is not None


def test_the_lecture_tree() -> None:
    game = load("aima-5-2")
    plain = plies.minimax(game, game.initial_state())
    pruned = plies.alphabeta(game, game.initial_state())
    assert (plain.value, plain.action) == (pruned.value, pruned.action) == (3.0, "a1")
    assert plain.stats.nodes == 13
    assert pruned.stats.nodes == 11  # c2 and c3 are never generated


def test_three_player_maxn_tree() -> None:
    game = load("aima-5-4")
    assert plies.maxn(game, game.initial_state()).values == (1.0, 2.0, 6.0)


def test_pig_with_a_turn_cap_is_solved_exactly() -> None:
    game = load("pig", goal=5, max_turns=3)
    exact = plies.expectiminimax(game, game.initial_state())
    assert exact.exact and -1 < exact.value < 1
    as_maxn = plies.maxn(game, game.initial_state())
    assert as_maxn.value == pytest.approx(exact.value)
    shallow = plies.expectiminimax(game, game.initial_state(), plies.Limit(depth=3))
    assert not shallow.exact and -1 <= shallow.value <= 1


def test_expectimax_against_a_random_tictactoe_opponent() -> None:
    base = load("tictactoe")
    game = plies.OpponentsAsChance(base, players=1)

    @cache
    def direct(state: Any) -> float:
        if base.is_terminal(state):
            return base.utility(state, 0)
        values = [direct(base.result(state, a)) for a in base.actions(state)]
        if base.to_move(state) == 0:
            return max(values)
        return sum(values) / len(values)

    result = plies.expectiminimax(game, game.initial_state())
    assert result.value == pytest.approx(direct(base.initial_state()))
    assert result.value > 0.9  # a random opponent almost always loses


def test_centre_first_ordering_prunes_more_on_tictactoe() -> None:
    game = load("tictactoe")
    rank = {4: 0, 0: 1, 2: 1, 6: 1, 8: 1}

    def centre_first(state: Any, actions: Any) -> list[int]:
        return sorted(actions, key=lambda a: rank.get(a, 2))

    natural = plies.alphabeta(game, game.initial_state())
    ordered = plies.alphabeta(game, game.initial_state(), order=centre_first)
    assert (ordered.value, ordered.action) == (natural.value, natural.action)
    assert ordered.stats.nodes < natural.stats.nodes


def test_star1_on_pig_prunes_and_keeps_the_value() -> None:
    game = load("pig", goal=6, max_turns=3)
    plain = plies.expectiminimax(game, game.initial_state())
    pruned = plies.expectiminimax(game, game.initial_state(), pruning=True)
    assert (pruned.value, pruned.action) == (plain.value, plain.action)
    assert pruned.stats.nodes < plain.stats.nodes
    unbounded = load("pig")
    unbounded.utility_range = (-math.inf, math.inf)
    with pytest.raises(plies.OptionError, match=r"finite game\.utility_range"):
        plies.expectiminimax(unbounded, unbounded.initial_state(), pruning=True)


@pytest.mark.parametrize(("goal", "turns"), [(6, 3), (7, 4)])
def test_star2_on_pig_keeps_the_value(goal: int, turns: int) -> None:
    game = load("pig", goal=goal, max_turns=turns)
    plain = plies.expectiminimax(game, game.initial_state(), pruning=True)
    probed = plies.expectiminimax(game, game.initial_state(), pruning="star2")
    assert (probed.value, probed.action) == (plain.value, plain.action)
    with pytest.raises(plies.OptionError, match="star2"):
        plies.expectiminimax(game, game.initial_state(), pruning="star3")


# --- players modelled as chance count for depth (issue 10, bug 7.1) ---------------------------


class Paths(plies.Game[tuple[Any, tuple[Any, ...]], Any]):
    """``game`` whose states remember the actions that reached them.

    ``scored`` lists, in order, the path of every state a search evaluated (a cutoff)
    or scored as terminal, so two searches can be compared cut point by cut point.
    """

    def __init__(self, game: Any) -> None:
        self.game = game
        self.ops = game_ops(game)
        self.num_players = game.num_players
        self.utility_range = self.ops.utility_range
        self.name = game.name
        self.scored: list[tuple[str, tuple[Any, ...]]] = []

    def initial_state(self) -> tuple[Any, tuple[Any, ...]]:
        return (self.game.initial_state(), ())

    def to_move(self, state: tuple[Any, tuple[Any, ...]]) -> int:
        return self.game.to_move(state[0])

    def actions(self, state: tuple[Any, tuple[Any, ...]]) -> Sequence[Any]:
        return self.game.actions(state[0])

    def result(self, state: tuple[Any, tuple[Any, ...]], action: Any) -> tuple[Any, Any]:
        return (self.game.result(state[0], action), (*state[1], action))

    def is_terminal(self, state: tuple[Any, tuple[Any, ...]]) -> bool:
        return self.game.is_terminal(state[0])

    def utility(self, state: tuple[Any, tuple[Any, ...]], player: int) -> float:
        self.scored.append(("terminal", state[1]))
        return self.game.utility(state[0], player)

    def evaluate(self, state: tuple[Any, tuple[Any, ...]], player: int) -> float:
        self.scored.append(("cutoff", state[1]))
        return self.ops.evaluate(state[0], player)


def cut_points(
    search: Callable[..., plies.SearchResult], game: Any, ghosts: list[int] | None,
    limit: plies.Limit, traced: bool,
) -> tuple[Counter[tuple[str, tuple[Any, ...]]], int, plies.SearchResult]:
    """Where ``search`` scored leaves (a multiset), its node count and its result."""
    paths = Paths(game)
    wrapped = paths if ghosts is None else plies.OpponentsAsChance(paths, players=ghosts)
    trace = (lambda event: None) if traced else None
    result = search(wrapped, wrapped.initial_state(), limit, player=0, trace=trace)
    return Counter(paths.scored), result.stats.nodes, result


MODELLED = [
    ("tictactoe", {}, [1], [("ply", 1), ("ply", 2), ("ply", 3), ("round", 1), ("round", 2)]),
    ("civ", {"players": 3, "moves": 2}, [1, 2], [("ply", 3), ("ply", 5), ("round", 1)]),
]


@pytest.mark.parametrize(("name", "options", "ghosts", "limits"), MODELLED)
@pytest.mark.parametrize("traced", [False, True])
def test_expectimax_with_modelled_opponents_cuts_where_minimax_does(
    name: str, options: dict[str, Any], ghosts: list[int], limits: list[tuple[str, int]],
    traced: bool,
) -> None:
    """Same leaves at the same paths, same node count: a modelled player's move is a ply."""
    game = load(name, **options)
    for unit, depth in limits:
        limit = plies.Limit(depth=depth, unit=unit)  # type: ignore[arg-type]
        plain, nodes, _ = cut_points(plies.minimax, game, None, limit, traced)
        assert ("cutoff", ()) not in plain and plain  # the limit cuts below the root
        ghost, ghost_nodes, result = cut_points(plies.expectiminimax, game, ghosts, limit, traced)
        assert (ghost, ghost_nodes) == (plain, nodes), (unit, depth)
        assert not result.exact
        maxn, maxn_nodes, _ = cut_points(plies.maxn, game, ghosts, limit, traced)
        assert (set(maxn), maxn_nodes) == (set(plain), nodes)  # maxn scores every player
        # Star1 and Star2 prune, so they score a subset of those leaves, to the same value.
        for pruning in ("star1", "star2"):
            pruned, _, got = cut_points(
                lambda *a, **k: plies.expectiminimax(*a, pruning=pruning, **k),  # noqa: B023
                game, ghosts, limit, traced,
            )
            assert not pruned - plain
            assert got.value == pytest.approx(result.value)


def test_a_depth_two_round_with_ghosts_is_max_ghost_max_ghost_then_evaluate() -> None:
    game = load("tictactoe")
    scored, _, _ = cut_points(plies.expectiminimax, game, [1], plies.Limit(2, "round"), False)
    assert {len(path) for kind, path in scored if kind == "cutoff"} == {4}


@pytest.mark.parametrize(
    ("limit", "pruning", "nodes", "value"),
    [
        (plies.Limit(depth=3), False, 88, 0.5793650793650793),
        (plies.Limit(depth=5), False, 1529, 0.48644179894179884),
        (plies.Limit(depth=5), True, 1228, 0.48644179894179884),
        (plies.Limit(depth=5), "star2", 1426, 0.48644179894179884),
        (plies.Limit(depth=1, unit="round"), False, 2679, 0.44139068521784564),
        (plies.Limit(depth=1, unit="round"), True, 1979, 0.44139068521784564),  # Star1
    ],
)
def test_dice_still_do_not_count_for_depth(
    limit: plies.Limit, pruning: bool | str, nodes: int, value: float
) -> None:
    """Pig's die rolls are true chance: the counts from before modelled players counted."""
    pig = load("pig")
    r = plies.expectiminimax(pig, pig.initial_state(), limit, pruning=pruning)
    assert (r.stats.nodes, r.value, r.action) == (nodes, value, "roll")
    if not pruning:
        assert plies.maxn(pig, pig.initial_state(), limit).stats.nodes == nodes
