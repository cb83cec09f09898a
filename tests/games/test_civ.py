"""The toy Civilization: multi-move turn bookkeeping, rules, and the size of one round."""

from __future__ import annotations

import pytest

from plies.errors import GameFormatError
from plies.games.civ import BUILD, FARM, RAID, CivRules, CivState, civ
from plies.wrappers import MultiMoveState, MultiMoveTurns
from tests.conformance import check_game


def test_conformance() -> None:
    report = check_game(civ(), playouts=30)
    assert report.terminals == 30
    check_game(civ(players=2, moves=1, rounds=3, food=0), playouts=20)


def test_turns_pass_after_three_moves_and_rounds_after_three_agents() -> None:
    game = civ()
    s = game.initial_state()
    seen = []
    for _ in range(19):
        seen.append((s.agent, s.move_count, s.round, s.base.moves_made))
        s = game.result(s, FARM)
    assert seen[:10] == [
        (0, 0, 0, 0), (0, 1, 0, 1), (0, 2, 0, 2),
        (1, 0, 0, 3), (1, 1, 0, 4), (1, 2, 0, 5),
        (2, 0, 0, 6), (2, 1, 0, 7), (2, 2, 0, 8),
        (0, 0, 1, 9),
    ]  # fmt: skip
    assert seen[18] == (0, 0, 2, 18)
    assert game.is_terminal(s) and s.round == 2  # the game ends after rounds=2 rounds
    assert [game.to_move(MultiMoveState(s.base, a, 0, 0)) for a in range(3)] == [0, 1, 2]
    assert game.turn_progress(MultiMoveState(s.base, 1, 2, 0)) == (2, 3)


def test_one_round_from_the_start_has_786_leaves() -> None:
    game = civ()

    def leaves(state: MultiMoveState[CivState], plies: int) -> int:
        if plies == 0 or game.is_terminal(state):
            return 1
        return sum(leaves(game.result(state, a), plies - 1) for a in game.actions(state))

    assert leaves(game.initial_state(), 9) == 786
    # ...and the ninth ply hands the turn back to agent 0 in round 1.
    s = game.initial_state()
    for _ in range(9):
        s = game.result(s, game.actions(s)[-1])
    assert (s.agent, s.move_count, s.round) == (0, 0, 1)


def test_rules() -> None:
    rules = CivRules()
    s = rules.initial_state()
    assert s == CivState((1, 1, 1), (0, 0, 0), 0)
    assert rules.actions(s, 0) == [FARM, RAID]  # a city costs 2 food
    s = rules.result(s, 0, FARM)
    assert rules.actions(s, 0) == [FARM, BUILD, RAID]
    s = rules.result(s, 0, BUILD)
    assert s == CivState((0, 1, 1), (1, 0, 0), 2)
    # Agent 2 would raid the next agent, agent 0, but agent 0 has no food left to take.
    assert rules.actions(s, 2) == [FARM]
    s = rules.result(s, 1, RAID)
    assert s == CivState((0, 2, 0), (1, 0, 0), 3)
    s = rules.result(s, 2, FARM)
    assert s == CivState((0, 2, 1), (1, 0, 0), 4)
    with pytest.raises(ValueError, match="unknown civ action"):
        rules.result(s, 0, "trade")


def test_utility_is_score_minus_the_best_other_score() -> None:
    rules = CivRules()
    s = CivState((4, 0, 2), (1, 2, 0), 18)
    assert [rules.score(s, p) for p in range(3)] == [7, 6, 2]
    assert [rules.utility(s, p) for p in range(3)] == [1.0, -1.0, -5.0]
    assert rules.evaluate(s, 2) == rules.utility(s, 2)
    game = civ()
    assert game.utility_range == (-7.0, 7.0) and not game.zero_sum
    assert game.evaluate(MultiMoveState(s, 0, 0, 2), 0) == 1.0


def test_utility_range_bounds_every_greedy_game() -> None:
    # Farming every move is the fastest way up: the leader ends exactly at the bound.
    game = civ(players=2, moves=2, rounds=2, food=0)
    s = game.initial_state()
    while not game.is_terminal(s):
        s = game.result(s, RAID if RAID in game.actions(s) else FARM)
    lo, hi = game.utility_range
    assert all(lo <= game.utility(s, p) <= hi for p in range(2))


def test_names_and_render() -> None:
    game = civ()
    assert [game.player_name(p) for p in range(3)] == ["Rome", "Egypt", "China"]
    assert CivRules(players=8).player_name(7) == "P7"
    assert game.render(game.initial_state()) == (
        "       food  cities  score\n"
        "Rome      1       0      1\n"
        "Egypt     1       0      1\n"
        "China     1       0      1\n"
        "0 of 18 moves made\n"
        "round 1: Rome to move (move 1 of 3)"
    )
    assert game.format_action(game.initial_state(), RAID) == "raid"
    assert isinstance(game, MultiMoveTurns) and game.name == "civ"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 1}, "players"),
        ({"moves": 0}, "moves"),
        ({"rounds": 0}, "rounds"),
        ({"food": -1}, "food"),
    ],
)
def test_bad_options(kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(GameFormatError, match=message):
        civ(**kwargs)
