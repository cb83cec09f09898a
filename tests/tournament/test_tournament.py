"""Tournaments: the schedule, consistent tables, records that replay, reproducibility."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

import pytest

from plies import games
from plies.errors import IllegalActionError, OptionError, UnsupportedGameError
from plies.game import play
from plies.parallel import LocalBackend
from plies.tournament import TournamentResult, tournament
from plies.tournament.tournament import game_seed, rank_scores, schedule

SERIAL = LocalBackend(workers=1)
TTT_AGENTS = ["alphabeta:depth=3", "minimax:depth=1", "random"]


@pytest.fixture(scope="module")
def ttt() -> TournamentResult:
    return tournament("tictactoe", TTT_AGENTS, rounds=2, seed=11, backend=SERIAL)


def replay(name: str, record_moves: tuple[str, ...], options: dict[str, Any] | None = None,
           opening: tuple[str, ...] = ()) -> tuple[Any, Any]:
    game = games.load(name, **(options or {}))
    state = game.initial_state()
    for move in (*opening, *record_moves):
        state = play(game, state, move)
    return game, state


def test_schedule_swaps_colours_and_rotates_seats() -> None:
    two = schedule(3, 2, rounds=2)
    assert len(two) == 12
    assert Counter(two) == {s: 2 for s in [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]}
    three = schedule(4, 3)
    assert len(three) == 4 * 3
    for group in combinations(range(4), 3):
        games_of_group = [s for s in three if sorted(s) == list(group)]
        for seat in range(3):  # every agent of the group takes every seat once
            assert sorted(s[seat] for s in games_of_group) == list(group)


def test_rank_scores_and_seeds() -> None:
    assert rank_scores([0.0, 0.0]) == (0.5, 0.5)
    assert rank_scores([3.0, 1.0, 2.0]) == (1.0, 0.0, 0.5)
    assert sum(rank_scores([5, 5, 1, 7])) == pytest.approx(4 / 2)
    assert len({game_seed(1, k) for k in range(1000)}) == 1000
    assert game_seed(1, 5) != game_seed(2, 5)


def test_every_game_counted_from_both_sides(ttt: TournamentResult) -> None:
    assert len(ttt.records) == 12
    standings = {s.agent: s for s in ttt.standings()}
    assert all(s.games == 8 for s in standings.values())
    pairs = ttt.pairs()
    assert len(pairs) == 3
    for p in pairs:
        assert p.games == 4 == p.a_wins + p.draws + p.b_wins
    for agent, s in standings.items():
        wins = sum(p.a_wins for p in pairs if p.a == agent) + sum(
            p.b_wins for p in pairs if p.b == agent
        )
        losses = sum(p.b_wins for p in pairs if p.a == agent) + sum(
            p.a_wins for p in pairs if p.b == agent
        )
        draws = sum(p.draws for p in pairs if agent in (p.a, p.b))
        assert (s.wins, s.draws, s.losses) == (wins, draws, losses)
        assert s.wins + s.draws + s.losses == s.games
        assert s.score == pytest.approx((s.wins + s.draws / 2) / s.games)
    total = [sum(getattr(s, k) for s in standings.values()) for k in ("wins", "losses")]
    assert total[0] == total[1]
    seats = ttt.seats()
    assert [s.seat for s in seats] == ["X", "O"]
    assert (seats[0].wins, seats[0].draws) == (seats[1].losses, seats[1].draws)


def test_records_replay_to_their_result(ttt: TournamentResult) -> None:
    played: Counter[tuple[int, ...]] = Counter()
    for record in ttt.records:
        game, state = replay("tictactoe", record.moves)
        assert game.is_terminal(state)
        assert record.utilities == (game.utility(state, 0), game.utility(state, 1))
        assert record.seed == game_seed(11, record.index)
        played[record.seats] += 1
        for p, agent in enumerate(record.seats):
            moved = (len(record.moves) + 1 - p) // 2
            assert record.decisions[p] == moved
            assert (record.nodes[p] == 0) == (TTT_AGENTS[agent] == "random")
    assert played == {s: 2 for s in [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]}


def test_same_seed_same_games_other_seed_other_games(ttt: TournamentResult) -> None:
    again = tournament("tictactoe", TTT_AGENTS, rounds=2, seed=11, backend=SERIAL)
    assert again.records == ttt.records and again.elo == ttt.elo
    other = tournament("tictactoe", TTT_AGENTS, rounds=2, seed=12, backend=SERIAL)
    assert [r.moves for r in other.records] != [r.moves for r in ttt.records]
    # tie="random": two games between the same agents in the same seats differ
    first_round, second_round = ttt.records[:6], ttt.records[6:]
    assert [r.moves for r in first_round] != [r.moves for r in second_round]


def test_perfect_play_never_loses_tictactoe() -> None:
    r = tournament("tictactoe", ["alphabeta", "random"], rounds=3, seed=5, backend=SERIAL)
    best = {s.agent: s for s in r.standings()}["alphabeta"]
    assert best.losses == 0 and best.wins >= 1
    assert r.standings()[0].agent == "alphabeta"
    assert r.elo.ratings[0] > r.elo.ratings[1]


def test_pool_of_two_workers_plays_the_same_games(ttt: TournamentResult) -> None:
    pooled = tournament("tictactoe", TTT_AGENTS, rounds=2, seed=11, backend=LocalBackend(2))
    assert pooled.records == ttt.records
    assert pooled.standings() == ttt.standings()
    assert pooled.backend == "2 workers (local processes)"


def test_chance_game_uses_the_seed_for_the_dice() -> None:
    agents = ["expectiminimax:depth=1", "random"]
    r = tournament("pig", agents, rounds=2, seed=3, options={"goal": 5, "max_turns": 2},
                   backend=SERIAL)
    again = tournament("pig", agents, rounds=2, seed=3, options={"goal": 5, "max_turns": 2},
                       backend=SERIAL)
    assert r.records == again.records
    faces = {m for rec in r.records for m in rec.moves if m.isdigit()}
    assert len(faces) > 2  # die rolls are in the record
    for record in r.records:
        game, state = replay("pig", record.moves, {"goal": 5, "max_turns": 2})
        assert record.utilities == tuple(game.utility(state, p) for p in range(2))


def test_three_players_rotate_seats_and_score_by_rank() -> None:
    agents = ["maxn:depth=2", "alphabeta:depth=1", "random"]
    r = tournament("civ", agents, rounds=1, seed=9, backend=SERIAL)
    assert sorted(rec.seats for rec in r.records) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    for rec in r.records:
        assert rec.scores == rank_scores(rec.utilities)
        assert sum(rec.scores) == pytest.approx(1.5)
    standings = r.standings()
    assert all(s.wins + s.draws + s.losses == 2 * s.games for s in standings)  # 2 pairs each
    assert sum(s.wins for s in standings) == sum(s.losses for s in standings)
    assert len(r.seats()) == 3


def test_simultaneous_moves_game() -> None:
    r = tournament("rps", ["simultaneous", "random"], rounds=3, seed=4, backend=SERIAL)
    assert len(r.records) == 6
    assert all("/" in rec.moves[0] for rec in r.records)  # joint actions, e.g. rock/paper


def test_opening_is_played_before_every_game() -> None:
    r = tournament("tictactoe", ["minimax:depth=1", "random"], rounds=1, seed=2,
                   opening="5 1", backend=SERIAL)
    assert r.opening == ("5", "1")
    for record in r.records:
        game, state = replay("tictactoe", record.moves, opening=r.opening)
        assert game.is_terminal(state)
    with pytest.raises(IllegalActionError, match=r"illegal move '5' .*of the opening"):
        tournament("tictactoe", ["random", "random"], opening="5 5", backend=SERIAL)


def test_refusals() -> None:
    with pytest.raises(OptionError, match="at least two agents"):
        tournament("tictactoe", ["random"], backend=SERIAL)
    with pytest.raises(OptionError, match="the game has 3 players: give at least 3 agents"):
        tournament("civ", ["random", "random"], backend=SERIAL)
    with pytest.raises(UnsupportedGameError, match="cannot play pig"):
        tournament("pig", ["alphabeta:depth=2", "random"], backend=SERIAL)
    with pytest.raises(OptionError, match="unknown key 'dept'"):
        tournament("nim", ["alphabeta:dept=2", "random"], backend=SERIAL)
    with pytest.raises(OptionError, match="--games must be at least 1"):
        tournament("nim", ["random", "random"], rounds=0, backend=SERIAL)


def test_json_data_is_complete(ttt: TournamentResult) -> None:
    data = ttt.as_dict()
    assert data["seed"] == 11 and data["games"] == 12 and data["reproducible"]
    assert [s["agent"] for s in data["standings"]] == [s.agent for s in ttt.standings()]
    assert data["records"][0]["agents"] == [TTT_AGENTS[a] for a in ttt.records[0].seats]
    assert data["elo_method"]["prior_virtual_draws_per_pair"] == 1.0
