"""Agent specs: parsing, their errors, and what agents choose."""

from __future__ import annotations

import pytest

from plies import analyze, games
from plies.errors import OptionError, UnsupportedGameError
from plies.game import play
from plies.search import ALGORITHMS, Limit
from plies.tournament.agents import AgentSpec, parse_agent


@pytest.mark.parametrize(
    ("text", "algorithm", "limit", "engine", "label"),
    [
        ("alphabeta:depth=4", "alphabeta", Limit(depth=4), False, "alphabeta:depth=4"),
        ("expectiminimax:depth=3", "expectiminimax", Limit(depth=3), False,
         "expectiminimax:depth=3"),
        ("minimax:depth=2", "minimax", Limit(depth=2), False, "minimax:depth=2"),
        ("random", "random", None, False, "random"),
        ("alphabeta:time=0.1,engine=1", "alphabeta", Limit(time=0.1), True,
         "alphabeta:time=0.1,engine=1"),
        (" AlphaBeta : engine=yes , depth=2 ", "alphabeta", Limit(depth=2), True,
         "alphabeta:depth=2,engine=1"),
        ("maxn:depth=2,unit=round,nodes=500", "maxn", Limit(2, "round", None, 500), False,
         "maxn:depth=2,unit=round,nodes=500"),
        ("alphabeta", "alphabeta", None, False, "alphabeta"),
        ("brs:time=0.5", "brs", Limit(time=0.5), False, "brs:time=0.5"),
        ("BRS+:depth=2,unit=round", "brs+", Limit(2, "round"), False, "brs+:depth=2,unit=round"),
        ("paranoid:depth=3", "paranoid", Limit(depth=3), False, "paranoid:depth=3"),
        ("expectiminimax:engine=0", "expectiminimax", None, False, "expectiminimax"),
    ],
)
def test_parse_agent(
    text: str, algorithm: str, limit: Limit | None, engine: bool, label: str
) -> None:
    spec = parse_agent(text)
    assert spec == AgentSpec(algorithm, limit, engine)
    assert spec.label == label
    assert parse_agent(spec.label) == spec  # the label is itself a spec


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty agent spec ''; write ALGORITHM[:KEY=VALUE,...]"),
        ("alphabet:depth=4", "unknown algorithm 'alphabet' in agent 'alphabet:depth=4'; "
         f"use one of: {', '.join([*ALGORITHMS, 'determinize', 'policy', 'random'])}"),
        ("alphabeta:dept=4", "unknown key 'dept' in agent 'alphabeta:dept=4'; "
         "keys: depth, unit, time, nodes, engine, weights, worlds, name"),
        ("alphabeta:depth=x", "bad value 'x' for depth in agent 'alphabeta:depth=x': "
         "use an int >= 1"),
        ("alphabeta:depth=0", "bad value '0' for depth"),
        ("alphabeta:nodes=-5", "bad value '-5' for nodes"),
        ("alphabeta:depth", "'depth' is not key=value in agent 'alphabeta:depth'"),
        ("alphabeta:depth=2,depth=3", "key 'depth' given twice"),
        ("alphabeta:time=0", "bad value '0' for time in agent 'alphabeta:time=0': "
         "use seconds > 0"),
        ("alphabeta:time=nan", "bad value 'nan' for time"),
        ("alphabeta:time=inf", "bad value 'inf' for time"),
        ("alphabeta:unit=hour", "bad value 'hour' for unit"),
        ("alphabeta:engine=maybe", "bad value 'maybe' for engine"),
        ("minimax:engine=1", "engine=1 applies to alphabeta and expectiminimax only"),
        ("mcts:depth=3", "agent 'mcts:depth=3': mcts takes no depth (a time or node budget"),
        ("random:depth=2", "random takes no keys"),
    ],
)
def test_bad_agent_specs_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(OptionError) as info:
        parse_agent(text)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_agents_refuse_games_they_cannot_search() -> None:
    pig, rps = games.load("pig"), games.load("rps")
    with pytest.raises(UnsupportedGameError, match="pig: alphabeta cannot search chance"):
        parse_agent("alphabeta:depth=2").check(pig)
    with pytest.raises(UnsupportedGameError, match="rps: expectiminimax cannot search simul"):
        parse_agent("expectiminimax").check(rps)
    for ok in ("expectiminimax:depth=2,engine=1", "maxn:depth=1", "random"):
        parse_agent(ok).check(pig)
    for ok in ("simultaneous", "random"):
        parse_agent(ok).check(rps)


def test_exact_agent_breaks_ties_at_random_among_the_best_moves_only() -> None:
    game = games.load("tictactoe")
    state = play(game, game.initial_state(), "5")
    values = analyze(game, state).action_values
    assert values is not None
    best = {a for a, v in values.items() if v == max(values.values())}
    agent = parse_agent("alphabeta")
    chosen = [agent.choose(game, state, 1, seed)[0] for seed in range(8)]
    assert set(chosen) <= best  # never a losing move...
    assert len(set(chosen)) > 1  # ...but not always the same one
    assert chosen == [agent.choose(game, state, 1, seed)[0] for seed in range(8)]


def test_engine_agent_finds_the_same_values_as_the_plain_one() -> None:
    game = games.load("connect4")
    state = game.initial_state()
    plain, engine = parse_agent("alphabeta:depth=4"), parse_agent("alphabeta:depth=4,engine=1")
    for seed in range(3):
        a, _ = plain.choose(game, state, 0, seed)
        b, _ = engine.choose(game, state, 0, seed)
        values = analyze(game, state, Limit(depth=4)).action_values
        assert values is not None
        assert values[a] == values[b] == max(values.values())


def test_random_and_mixed_strategies_follow_the_seed() -> None:
    ttt, rps = games.load("tictactoe"), games.load("rps")
    rand = parse_agent("random")
    moves = [rand.choose(ttt, ttt.initial_state(), 0, seed) for seed in range(20)]
    assert all(nodes == 0 for _, nodes in moves)
    assert len({m for m, _ in moves}) > 4
    mixed = parse_agent("simultaneous")
    picks = {mixed.choose(rps, rps.initial_state(), 1, seed)[0] for seed in range(15)}
    assert picks == {"rock", "paper", "scissors"}  # the uniform equilibrium, sampled


def test_brs_agents_play_many_players_and_brs_names_brs_plus_where_it_cannot() -> None:
    from tests.data import GDL_DATA

    three = games.load(str(GDL_DATA / "tictactoe_3player.kif"))
    with pytest.raises(UnsupportedGameError) as info:
        parse_agent("brs:depth=2").check(three)
    assert "pass_turn_to" in str(info.value) and "use brs+" in str(info.value)
    civ = games.load("civ")
    state = civ.initial_state()
    for text in ("brs+:depth=3", "paranoid:depth=3", "maxn:depth=2"):
        agent = parse_agent(text)
        agent.check(three)
        action, nodes = agent.choose(civ, state, 0, seed=1)
        assert action in civ.actions(state) and nodes > 0
