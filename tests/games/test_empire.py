"""Empire: the rules of each action, upkeep, the victories, move counts, evaluation, search."""

from __future__ import annotations

import random

import pytest

import plies
from plies.errors import GameFormatError, OptionError
from plies.games import load
from plies.games.empire import (
    GROW,
    MAPS,
    MOVE,
    REST_ACTION,
    SETTLE,
    STUDY,
    TRAIN,
    Empire,
    EmpireState,
    EmpireWeights,
)
from plies.games.empire.evaluation import FEATURE_NAMES
from plies.wrappers import MultiMoveState
from tests.clirun import plain_pipe, run  # noqa: F401 (autouse fixture)
from tests.conformance import check_game

# The "small" map, 7x7: capitals of players 0, 1, 2 on b6 (8), f2 (40), f6 (12).
B6, F2, F6 = 8, 40, 12


def small(**options: object) -> Empire:
    return Empire(map="small", **options)  # type: ignore[arg-type]


def state(
    cities: list[tuple[int, int, int]],
    units: list[tuple[int, int, int]],
    *, turn: int = 0, shields: tuple[int, ...] = (0, 0, 0), science: tuple[int, ...] = (0, 0, 0),
) -> EmpireState:
    return EmpireState(turn, tuple(sorted(cities)), tuple(sorted(units)), shields, science)


def at(base: EmpireState, agent: int = 0, move_count: int = 0) -> MultiMoveState[EmpireState]:
    return MultiMoveState(base, agent, move_count, base.turn)


def test_the_start_is_a_capital_with_a_unit_for_each_empire() -> None:
    game = small()
    s = game.initial_state()
    assert s.base == EmpireState(
        0, ((B6, 0, 2), (F6, 2, 2), (F2, 1, 2)), ((B6, 0, 3), (F6, 2, 3), (F2, 1, 3)),
        (0, 0, 0), (0, 0, 0),
    )
    assert game.empire.square(B6) == "b6" and game.empire.square(F2) == "f2"
    assert [game.format_action(s, a) for a in game.actions(s)] == [
        "grow b6", "study b6", "b6-b7", "b6-a6", "b6-c6", "b6-b5",
    ]


def test_grow_study_and_train_act_on_a_city() -> None:
    rules = small().empire
    s = state([(B6, 0, 2)], [], shields=(5, 0, 0))
    assert rules.actions(s, 0) == [(GROW, B6, B6), (STUDY, B6, B6), (TRAIN, B6, B6)]
    assert rules.result(s, 0, (GROW, B6, B6)).cities == ((B6, 0, 3),)
    assert rules.result(s, 0, (STUDY, B6, B6)).science == (2, 0, 0)
    trained = rules.result(s, 0, (TRAIN, B6, B6))
    assert trained.units == ((B6, 0, 3),) and trained.shields == (2, 0, 0)
    # A full city cannot grow; a city with a unit in it or an empty stock cannot train.
    full = state([(B6, 0, 6)], [(B6, 0, 3)], shields=(5, 0, 0))
    assert rules.actions(full, 0)[:1] == [(STUDY, B6, B6)]
    assert (TRAIN, B6, B6) not in rules.actions(full, 0)
    assert (TRAIN, B6, B6) not in rules.actions(state([(B6, 0, 2)], [], shields=(2, 0, 0)), 0)


def test_units_step_but_not_onto_water_or_their_own_units() -> None:
    rules = small().empire
    d4, d5, c4 = 24, 17, 23  # d4 is the water square in the middle of the small map
    assert rules.terrain[d4] == "~"
    s = state([], [(c4 - 7, 0, 3), (c4, 0, 3)])  # c5 and c4: c5 cannot step onto c4
    moves = [a for a in rules.actions(s, 0) if a[0] == MOVE and a[1] == c4 - 7]
    assert (MOVE, c4 - 7, c4) not in moves and (MOVE, c4 - 7, c4 - 8) in moves
    assert all(a[2] != d4 for a in rules.actions(s, 0))  # d4 is water
    stepped = rules.result(s, 0, (MOVE, c4 - 7, d5 - 7))
    assert stepped.units == ((d5 - 7, 0, 3), (c4, 0, 3))


def test_an_attack_hurts_both_and_the_attacker_stays() -> None:
    rules = small().empire
    a1, b1 = 42, 43
    s = state([], [(a1, 0, 3), (b1, 1, 3)])
    after = rules.result(s, 0, (MOVE, a1, b1))
    assert after.units == ((a1, 0, 2), (b1, 1, 1))
    assert small().format_action(at(s), (MOVE, a1, b1)) == "a1xb1"
    # A second blow kills the defender; the attacker still does not advance.
    assert rules.result(after, 0, (MOVE, a1, b1)).units == ((a1, 0, 1),)
    # A unit with 1 hit point dies attacking.
    assert rules.result(state([], [(a1, 0, 1), (b1, 1, 3)]), 0, (MOVE, a1, b1)).units == (
        (b1, 1, 1),
    )


def test_hills_and_cities_halve_the_damage_to_a_defender() -> None:
    rules = small().empire
    d5, c5 = 17, 16  # d5 is hills
    assert rules.terrain[d5] == "^"
    s = state([], [(c5, 0, 3), (d5, 1, 3)])
    assert rules.result(s, 0, (MOVE, c5, d5)).units == ((c5, 0, 2), (d5, 1, 2))
    in_city = state([(B6, 1, 2)], [(B6, 1, 3), (B6 + 1, 0, 3)])
    assert rules.result(in_city, 0, (MOVE, B6 + 1, B6)).units == ((B6, 1, 2), (B6 + 1, 0, 2))


def test_an_undefended_city_shrinks_under_raids_then_falls() -> None:
    rules = small().empire
    s = state([(B6, 1, 2), (F2, 1, 2)], [(B6 + 1, 0, 2)])
    assert small().format_action(at(s), (MOVE, B6 + 1, B6)) == "c6xb6"
    raided = rules.result(s, 0, (MOVE, B6 + 1, B6))
    assert raided.cities == ((B6, 1, 1), (F2, 1, 2)) and raided.units == ((B6 + 1, 0, 2),)
    taken = rules.result(raided, 0, (MOVE, B6 + 1, B6))
    assert taken.cities == ((B6, 0, 1), (F2, 1, 2)) and taken.units == ((B6, 0, 2),)


def test_settling_needs_two_squares_between_cities() -> None:
    rules = small().empire
    near, far = B6 + 2, B6 + 3  # d6 is two squares from b6, e6 three
    s = state([(B6, 0, 2)], [(near, 0, 3), (far, 0, 3)])
    settles = [a for a in rules.actions(s, 0) if a[0] == SETTLE]
    assert settles == [(SETTLE, far, far)]
    after = rules.result(s, 0, (SETTLE, far, far))
    assert after.cities == ((B6, 0, 2), (far, 0, 1)) and after.units == ((near, 0, 3),)


def test_rest_is_the_only_move_when_nothing_else_is_legal() -> None:
    rules = small().empire
    a1 = 42  # a1's neighbours a2 and b1 hold own units; a3 holds a city, too near to settle
    walled = state([(a1 - 14, 1, 1)], [(a1, 0, 3)])
    walled = walled._replace(units=((a1 - 7, 0, 3), (a1, 0, 3), (a1 + 1, 0, 3)))
    acts = [a for a in rules.actions(walled, 0) if a[1] == a1]
    assert acts == []  # a1 has nothing to do, its neighbours step or settle instead
    assert rules.actions(state([(B6, 1, 2)], []), 0) == [REST_ACTION]
    s2 = state([(B6, 1, 2)], [])
    assert rules.result(s2, 0, REST_ACTION) == s2


def test_end_of_turn_brings_income_healing_and_the_turn_count() -> None:
    rules = small().empire
    s = state([(B6, 0, 5), (F2, 0, 1), (F6, 2, 2)], [(B6, 0, 1), (F6, 2, 1)], shields=(18, 0, 0))
    after = rules.end_turn(s, 0)
    assert after.shields == (20, 0, 0)  # 3 + 1 = 4 more, capped at 20
    assert after.units == ((B6, 0, 2), (F6, 2, 1))  # only the own unit in a city heals
    assert after.turn == 0 and rules.end_turn(s, 2).turn == 1  # the last empire ends a turn


def test_move_count_depends_on_the_cities() -> None:
    game = small(players=4)
    rules = game.empire
    cities = [(sq, 0, 1) for sq in (0, 3, 6, 21, 27, 45)]
    counts = [rules.move_count(state(cities[:k], [(48, 0, 3)]), 0) for k in range(7)]
    assert counts == [1, 1, 2, 2, 3, 3, 3]  # 1 + cities // 2, at most 3; units only: 1
    assert rules.move_count(state(cities[:2], []), 1) == 0  # no city, no unit: out


def test_an_empire_that_is_out_skips_its_turns() -> None:
    game = small()
    s = at(state([(B6, 0, 2), (F6, 2, 2), (F2, 0, 1)], [], shields=(0, 0, 0)))
    assert game.move_limit(s) == 2
    s = game.result(s, (STUDY, B6, B6))
    s = game.result(s, (STUDY, B6, B6))
    assert (s.agent, s.move_count) == (2, 0)  # empire 1 has nothing left: skipped
    assert s.base.shields == (3, 0, 0)  # empire 0's income came in at the end of its turn
    s = game.result(s, (STUDY, F6, F6))
    assert (s.agent, s.round, s.base.turn) == (0, 1, 1)


def test_conquest_wins_when_one_empire_holds_every_capital() -> None:
    game = small()
    rules = game.empire
    s = state([(B6, 0, 2), (F6, 0, 1), (F2, 1, 1)], [(F2 - 7, 0, 3)])
    assert not game.is_terminal(at(s))
    won = rules.result(s, 0, (MOVE, F2 - 7, F2))
    assert game.is_terminal(at(won))
    assert game.victory(at(won)) == ("conquest", (0,))
    assert [game.utility(at(won), p) for p in range(3)] == [1.0, 0.0, 0.0]
    assert game.outcome(at(won)) == "conquest victory: A Rome"
    assert game.outcome(at(s)) == "*"


def test_science_wins_at_the_goal() -> None:
    game = small(science=50)
    s = state([(B6, 0, 2), (F6, 2, 6), (F2, 1, 2)], [], science=(10, 5, 45))
    assert not game.is_terminal(at(s))
    done = game.empire.result(s, 2, (STUDY, F6, F6))
    assert done.science == (10, 5, 51) and game.is_terminal(at(done))
    assert game.victory(at(done)) == ("science", (2,))
    assert [game.utility(at(done), p) for p in range(3)] == [0.0, 0.0, 1.0]


def test_the_turn_limit_ends_the_game_and_the_best_score_wins_with_ties_sharing() -> None:
    game = small(turns=4)
    rng = random.Random(3)
    s = game.initial_state()
    while not game.is_terminal(s):
        s = game.result(s, rng.choice(game.actions(s)))
    assert s.base.turn == 4 and s.round == 4
    assert game.victory(s) is not None and game.victory(s)[0] == "score"  # type: ignore[index]
    rules = game.empire
    tie = state([(B6, 0, 2), (F6, 2, 2), (F2, 1, 1)], [], turn=4, science=(0, 0, 0))
    assert [rules.score(tie, p) for p in range(3)] == [5, 4, 5]
    assert rules.victory(tie) == ("score", (0, 2))
    assert [rules.utility(tie, p) for p in range(3)] == [0.5, 0.0, 0.5]


def test_features_and_weights_make_the_evaluation() -> None:
    game = Empire()
    s = game.initial_state()
    for _ in range(40):
        s = game.result(s, game.actions(s)[len(game.actions(s)) // 2])
    assert game.feature_names == FEATURE_NAMES
    weights = game.feature_weights()
    assert list(weights) == list(FEATURE_NAMES)
    for p in range(3):
        f = game.features(s, p)
        assert len(f) == len(FEATURE_NAMES) and all(-1.0 <= x <= 1.0 for x in f)
        total = sum(weights[n] * x for n, x in zip(FEATURE_NAMES, f, strict=True))
        assert game.evaluate(s, p) == pytest.approx(min(1.0, max(0.0, total)))
    tuned = game.with_weights({"military": 1.0, "bias": 0.25})
    assert isinstance(tuned, Empire) and tuned is not game
    assert tuned.feature_weights() == {**weights, "military": 1.0, "bias": 0.25}
    assert game.feature_weights() == weights  # the original is untouched
    f = tuned.features(s, 0)
    tuned_weights = tuned.feature_weights()
    total = sum(tuned_weights[n] * x for n, x in zip(FEATURE_NAMES, f, strict=True))
    assert tuned.evaluate(s, 0) == pytest.approx(min(1.0, max(0.0, total)))
    with pytest.raises(OptionError, match=r"unknown empire feature.*wonders.*features are bias"):
        game.with_weights({"wonders": 1.0})


def test_features_see_a_threatened_and_a_lost_capital() -> None:
    game = small()
    index = FEATURE_NAMES.index("capital_threat")
    calm = at(state([(B6, 0, 2), (F6, 2, 2), (F2, 1, 2)], []))
    assert game.features(calm, 0)[index] == 0.0
    raid = at(state([(B6, 0, 2), (F6, 2, 2), (F2, 1, 2)], [(B6 + 1, 1, 3)]))
    assert game.features(raid, 0)[index] == 0.5
    lost = at(state([(B6, 1, 2), (F6, 2, 2), (F2, 1, 2)], [(B6 + 1, 0, 3)]))
    assert game.features(lost, 0)[index] == 1.0
    assert game.features(lost, 1)[FEATURE_NAMES.index("capitals")] == pytest.approx(2 / 3)


def test_the_evaluation_is_the_utility_at_the_end() -> None:
    game = small()
    won = at(state([(B6, 0, 2), (F6, 0, 1), (F2, 0, 2)], []))
    assert [game.evaluate(won, p) for p in range(3)] == [1.0, 0.0, 0.0]


def test_pass_turn_to_skips_the_empires_in_between() -> None:
    game = Empire()
    s = game.initial_state()
    assert game.pass_turn_to(s, 0) is s
    jumped = game.pass_turn_to(s, 2)
    assert (jumped.agent, jumped.move_count, jumped.round) == (2, 0, 0)
    assert jumped.base.shields == (2, 2, 0)  # the skipped turns still brought income
    back = game.pass_turn_to(jumped, 1)
    assert (back.agent, back.round, back.base.turn) == (1, 1, 1)
    out = at(state([(B6, 0, 2), (F6, 2, 2)], []), agent=0)
    with pytest.raises(ValueError, match="player 1 has no move"):
        small().pass_turn_to(out, 1)


def test_maps_and_options_are_checked() -> None:
    assert set(MAPS) == {"small", "continent", "large"}
    for name in MAPS:
        assert Empire(players=4, map=name).num_players == 4
    assert Empire(players=6, map="large").empire.capitals[5] == 71
    with pytest.raises(GameFormatError, match="4 capitals, too few for 5 players"):
        Empire(players=5, map="small")
    with pytest.raises(GameFormatError, match=r"players must be 3\.\.6"):
        Empire(players=2)
    with pytest.raises(GameFormatError, match="unknown map 'moon'"):
        Empire(map="moon")
    with pytest.raises(GameFormatError, match="numbered 1, 2"):
        Empire(map="1.../..../..../...3")
    own = Empire(map="1.../..^./.~../2..3")
    assert own.empire.capitals == (0, 12, 15)
    assert load("empire", players=3, map="small", turns=9).empire.turns == 9


def test_render_draws_the_map_with_a_legend() -> None:
    game = small()
    s = game.initial_state()
    picture = game.render(s)
    assert " 6   .  A2a3 .   .   .  C2c3 ." in picture
    assert "A3 = city of A, population 3" in picture
    assert "B Egypt: capital f2, 1 cities, pop 2, 1 units (3 hp), shields 0" in picture
    assert picture.endswith("turn 1 of 300: A Rome to move (move 1 of 1)")


def test_moves_read_back_with_either_sign() -> None:
    game = small()
    s = at(state([(B6, 1, 3), (F2, 1, 2), (F6, 2, 2)], [(B6 + 1, 0, 2)]))
    assert game.parse_action(s, "c6xb6") == (MOVE, B6 + 1, B6)
    assert game.parse_action(s, "c6-b6") == (MOVE, B6 + 1, B6)
    assert game.parse_action(s, "C6-D6") == (MOVE, B6 + 1, B6 + 2)


@pytest.mark.parametrize(
    ("players", "map_name"), [(3, "continent"), (4, "small"), (6, "large")]
)
def test_conformance(players: int, map_name: str) -> None:
    report = check_game(Empire(players, map_name, turns=12), playouts=8)
    assert report.terminals == 8


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_alphabeta_agrees_with_minimax_along_playouts(seed: int) -> None:
    game = Empire(turns=30)
    rng = random.Random(seed)
    s = game.initial_state()
    for step in range(60):
        if game.is_terminal(s):
            break
        if step % 15 == 14:
            limit = plies.Limit(depth=2)
            slow = plies.minimax(game, s, limit)
            fast = plies.alphabeta(game, s, limit)
            assert fast.value == pytest.approx(slow.value)
            assert fast.action == slow.action
        s = game.result(s, rng.choice(game.actions(s)))


def test_maxn_and_paranoid_search_play_it() -> None:
    game = Empire(turns=30)
    s = game.initial_state()
    for _ in range(9):
        s = game.result(s, game.actions(s)[-1])
    r = plies.maxn(game, s, plies.Limit(depth=3))
    assert r.action in game.actions(s) and len(r.pv) == 3
    rounds = plies.alphabeta(game, s, plies.Limit(depth=1, unit="round"))
    assert rounds.action in game.actions(s) and 0.0 <= rounds.value <= 1.0


def test_the_registry_builds_it_with_its_options() -> None:
    game = load("empire")
    assert isinstance(game, Empire) and game.name == "empire"
    assert game.utility_range == (0.0, 1.0) and not game.zero_sum
    assert game.weights == EmpireWeights()
    assert GROW == 0


# --- the command line, and regressions ----------------------------------------------------


def test_a_typed_move_list_keeps_each_word_with_its_square() -> None:
    # Bug: the default split_moves cut "grow b6" into "grow" and "b6", so --moves failed.
    game = small()
    assert game.split_moves("grow b6, study f2 f6-f5 settle c4") == [
        "grow b6", "study f2", "f6-f5", "settle c4",
    ]


def test_play_ends_with_the_victory_in_words_not_a_tuple(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Bug: `outcome` returned ("score", (1, 2)), and `plies play` printed that tuple.
    out = run(capsys, "play", "empire", "-o", "map=small", "-o", "turns=1", "--human", "none",
              "--depth", "1")
    assert out.rstrip().endswith(
        "game over: score victory: C China (A Rome 0, B Egypt 0, C China 1)"
    )


def test_analyze_and_maxn_run_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "analyze", "empire", "-o", "map=small", "--moves", "grow b6, study f2",
              "--depth", "2", "-a", "maxn")
    assert "value of every move for C China (maxn)" in out


def test_order_hint_puts_attacks_and_captures_first() -> None:
    game = small()
    s = at(state([(B6, 1, 3), (F2, 0, 2), (F6, 2, 2)], [(B6 + 1, 0, 2), (F2 - 7, 2, 3)],
                 shields=(3, 0, 0)))
    assert [game.format_action(s, a) for a in game.actions(s)] == [
        "grow f2", "study f2", "train f2", "c6-c7", "c6xb6", "c6-d6", "c6-c5",
    ]
    assert [game.format_action(s, a) for a in game.order_hint(s, game.actions(s))] == [
        "c6xb6", "train f2", "grow f2", "study f2", "c6-c7", "c6-d6", "c6-c5",
    ]


def test_pass_turn_to_stops_at_the_turn_limit() -> None:
    game = small(turns=1)
    s = game.initial_state()
    last = game.pass_turn_to(s, 2)
    ended = game.pass_turn_to(last, 1)  # the turn limit comes first, on the way
    assert game.is_terminal(ended) and ended.base.turn == 1
    with pytest.raises(ValueError, match="the game is over"):
        game.pass_turn_to(ended, 0)


def test_alphabeta_agrees_with_minimax_three_plies_deep_in_the_middle_game() -> None:
    game = Empire(turns=60)
    s = game.initial_state()
    for _ in range(45):  # depth-1 self-play into a position with several cities and units
        s = game.result(s, plies.alphabeta(game, s, plies.Limit(depth=1)).action)
    assert game.move_limit(s) >= 2 and len(s.base.units) > 3
    limit = plies.Limit(depth=3)
    slow, fast = plies.minimax(game, s, limit), plies.alphabeta(game, s, limit)
    assert (fast.value, fast.action) == (slow.value, slow.action)
    assert fast.stats.nodes < slow.stats.nodes


def test_score_lead_counts_more_as_the_turn_limit_nears() -> None:
    game = small(turns=10)
    index = FEATURE_NAMES.index("score_lead")
    cities = [(B6, 0, 4), (F6, 2, 2), (F2, 1, 2)]  # scores 7, 5, 5
    assert game.features(at(state(cities, [], turn=0)), 0)[index] == 0.0
    assert game.features(at(state(cities, [], turn=5)), 0)[index] == pytest.approx(
        (7 - 5) / (7 + 5 + 1) * 0.5
    )
    assert game.features(at(state(cities, [], turn=5)), 1)[index] == pytest.approx(
        (5 - 7) / (5 + 7 + 1) * 0.5
    )
