"""The game model: defaults, the multi-move wrapper and opponents as chance."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest

import plies
from plies.game import CHANCE, MultiMoveState, MultiMoveTurns, OpponentsAsChance, game_ops


class Counter:
    """Rules where any agent may add 1 or 2 to its own counter; ends at a move budget."""

    num_players = 3
    utility_range = (-20.0, 20.0)

    def __init__(self, total_moves: int = 9) -> None:
        self.total_moves = total_moves

    def initial_state(self) -> tuple[int, ...]:
        return (0, 0, 0, 0)  # three counters and the number of moves made

    def actions(self, state: tuple[int, ...], agent: int) -> Sequence[int]:
        return (1, 2)

    def result(self, state: tuple[int, ...], agent: int, action: int) -> tuple[int, ...]:
        out = list(state)
        out[agent] += action
        out[3] += 1
        return tuple(out)

    def is_terminal(self, state: tuple[int, ...]) -> bool:
        return state[3] >= self.total_moves

    def utility(self, state: tuple[int, ...], player: int) -> float:
        return float(state[player] - max(state[p] for p in range(3) if p != player))


def test_multimove_bookkeeping_follows_the_tutorial() -> None:
    game = MultiMoveTurns(Counter(), moves=3)
    s = game.initial_state()
    seen = []
    for _ in range(10):
        seen.append((s.agent, s.move_count, s.round))
        s = game.result(s, 1)
    assert seen == [
        (0, 0, 0), (0, 1, 0), (0, 2, 0),
        (1, 0, 0), (1, 1, 0), (1, 2, 0),
        (2, 0, 0), (2, 1, 0), (2, 2, 0),
        (0, 0, 1),
    ]
    assert game.turn_progress(MultiMoveState(s.base, 0, 1, 0)) == (1, 3)


def test_multimove_counts_come_from_get_move_count() -> None:
    game = MultiMoveTurns(Counter(total_moves=6), moves=lambda base, agent: agent + 1)
    s = game.initial_state()
    movers = []
    while not game.is_terminal(s):
        movers.append(game.to_move(s))
        s = game.result(s, 1)
    assert movers == [0, 1, 1, 2, 2, 2]


def test_multimove_rejects_zero_moves() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        MultiMoveTurns(Counter(), moves=0)


def test_rounds_count_whole_turns_of_every_player() -> None:
    game = MultiMoveTurns(Counter(total_moves=30), moves=3)
    r = plies.minimax(game, game.initial_state(), plies.Limit(depth=1, unit="round"))
    # one round is 9 binary decisions: 2**9 leaves, 2**10 - 1 nodes
    assert r.stats.leaves == 2**9
    assert r.stats.nodes == 2**10 - 1
    assert len(r.pv) == 9


def test_stacked_max_layers_take_the_best_of_each_own_move() -> None:
    game = MultiMoveTurns(Counter(total_moves=9), moves=3)
    r = plies.alphabeta(game, game.initial_state())
    # everyone adds 2 three times: 6 - 6 = 0 for player 0; the first move is 2.
    assert r.value == 0.0
    assert r.pv[:3] == (2, 2, 2)
    assert r.value == plies.minimax(game, game.initial_state()).value


def test_opponents_as_chance_average_uniformly() -> None:
    base = MultiMoveTurns(Counter(total_moves=2), moves=1)
    game = OpponentsAsChance(base, players=[1, 2])
    s = game.initial_state()
    assert game.to_move(game.result(s, 1)) == CHANCE
    r = plies.expectiminimax(game, s)
    # player 0 adds 2; player 1 adds 1 or 2 with odds 1/2: value (1 + 0) / 2
    assert r.value == pytest.approx(0.5)
    assert r.action == 2


def test_opponents_as_chance_follow_a_policy() -> None:
    base = MultiMoveTurns(Counter(total_moves=2), moves=1)
    game = OpponentsAsChance(base, players=1, policy=lambda state: {1: 0.25, 2: 0.75})
    r = plies.expectiminimax(game, game.initial_state())
    assert r.value == pytest.approx(0.25 * 1 + 0.75 * 0)


def test_opponents_as_chance_checks_its_arguments() -> None:
    base = MultiMoveTurns(Counter(), moves=1)
    with pytest.raises(ValueError, match="no such player"):
        OpponentsAsChance(base, players=5)
    bad = OpponentsAsChance(base, players=1, policy=lambda state: {1: 0.5})
    with pytest.raises(ValueError, match=r"sum to 0\.5"):
        bad.chance_outcomes(bad.result(bad.initial_state(), 1))


def test_duck_typed_games_get_the_documented_defaults() -> None:
    class Bare:
        num_players = 2

        def actions(self, state: int) -> list[int]:
            return [1, 2]

        def is_terminal(self, state: int) -> bool:
            return state > 3

        def utility(self, state: int, player: int) -> float:
            return 1.0

        def to_move(self, state: int) -> int:
            return 0

        def result(self, state: int, action: int) -> int:
            return state + action

    ops = game_ops(Bare())
    assert ops.utility_range == (-math.inf, math.inf)
    assert ops.evaluate(0, 0) == 0.0
    assert ops.evaluate(5, 0) == 1.0
    assert ops.chance_outcomes(0) == [(1, 0.5), (2, 0.5)]
    assert ops.key(7) == 7


def test_multimove_can_end_after_a_number_of_rounds() -> None:
    game = MultiMoveTurns(Counter(total_moves=100), moves=2, rounds=2)
    s = game.initial_state()
    plies_played = 0
    while not game.is_terminal(s):
        s = game.result(s, 1)
        plies_played += 1
    assert plies_played == 2 * 3 * 2
    assert "game over after 2 full round(s)" in game.render(s)
    with pytest.raises(ValueError, match="rounds must be at least 1"):
        MultiMoveTurns(Counter(), rounds=0)


def test_opponents_as_chance_name_the_player_a_chance_node_stands_for() -> None:
    game = OpponentsAsChance(MultiMoveTurns(Counter(), moves=1), players=[1, 2])
    s = game.initial_state()
    seen = []
    for _ in range(4):
        seen.append((game.to_move(s), game.chance_player(s)))
        s = game.result(s, 1)
    assert seen == [(0, None), (CHANCE, 1), (CHANCE, 2), (0, None)]
    assert game_ops(game).chance_player(game.result(game.initial_state(), 1)) == 1


def test_a_die_roll_stands_for_no_player() -> None:
    pig = plies.games.load("pig")
    game = OpponentsAsChance(pig, players=[1])
    rolling = game.result(game.initial_state(), "roll")
    assert game.to_move(rolling) == CHANCE and game.chance_player(rolling) is None
    assert game_ops(pig).chance_player(rolling) is None  # default: every chance is dice
