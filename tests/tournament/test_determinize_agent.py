"""Agents for hidden information: ``determinize`` (over worlds) and ``policy`` (fixed)."""

from __future__ import annotations

import pytest

import plies
from plies import games
from plies.errors import OptionError, UnsupportedGameError
from plies.games.leduc import CALL, FOLD, RAISE, LeducState, honest
from plies.parallel.backends import LocalBackend
from plies.search import Limit
from plies.tournament.agents import DEFAULT_WORLDS, AgentSpec, parse_agent
from plies.tournament.tournament import tournament

LEDUC = games.load("leduc")


@pytest.mark.parametrize(
    ("text", "spec", "label"),
    [
        ("determinize", AgentSpec("determinize", worlds=DEFAULT_WORLDS),
         "determinize:worlds=20"),
        ("determinize:worlds=all,depth=3", AgentSpec("determinize", Limit(depth=3)),
         "determinize:depth=3,worlds=all"),
        ("determinize:time=0.5,worlds=8", AgentSpec("determinize", Limit(time=0.5), worlds=8),
         "determinize:time=0.5,worlds=8"),
        ("policy:name=honest", AgentSpec("policy", policy="honest"), "policy:name=honest"),
    ],
)
def test_parse_hidden_information_agents(text: str, spec: AgentSpec, label: str) -> None:
    assert parse_agent(text) == spec
    assert spec.label == label
    assert parse_agent(label) == spec  # the label is itself a spec


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("determinize:worlds=0", "bad value '0' for worlds in agent 'determinize:worlds=0': "
         "use an int >= 1 or all"),
        ("determinize:worlds=many", "bad value 'many' for worlds"),
        ("alphabeta:worlds=3", "worlds= is for determinize agents only"),
        ("determinize:engine=1", "engine=1 applies to alphabeta and expectiminimax only"),
        ("policy", "policy takes one key, name=NAME"),
        ("policy:name=honest,depth=2", "policy takes one key, name=NAME"),
        ("alphabeta:name=honest", "name= is for policy agents only"),
    ],
)
def test_bad_hidden_information_agents_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(OptionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_agent(text)


def test_determinize_refuses_a_game_without_information_sets() -> None:
    with pytest.raises(UnsupportedGameError, match="tictactoe has no information sets"):
        parse_agent("determinize").check(games.load("tictactoe"))


def test_an_unknown_policy_lists_the_games_policies() -> None:
    with pytest.raises(OptionError, match="leduc has no policy 'bluff'; its policies: honest"):
        parse_agent("policy:name=bluff").check(LEDUC)
    with pytest.raises(OptionError, match="kuhn has no policy 'honest'; its policies: none"):
        parse_agent("policy:name=honest").check(games.load("kuhn"))


def test_the_determinize_agent_plays_what_plies_determinize_chooses() -> None:
    state = LEDUC.result(LEDUC.result(LEDUC.initial_state(), (4, 0)), RAISE)
    for text, worlds in (("determinize:worlds=3", 3), ("determinize:worlds=all", None)):
        action, nodes = parse_agent(text).choose(LEDUC, state, 1, seed=7)
        found = plies.determinize(LEDUC, state, worlds, player=1, seed=7)
        assert (action, nodes) == (found.action, found.stats.nodes)


def test_the_honest_policy_raises_kings_and_pairs_and_folds_jacks_to_a_raise() -> None:
    king, jack = LeducState((4, 2), None, (), ()), LeducState((0, 2), None, (RAISE,), ())
    assert honest(king, 0) == RAISE and honest(jack, 0) == FOLD
    assert honest(LeducState((0, 2), None, (), ()), 0) == CALL  # a jack checks
    paired = LeducState((3, 1), 2, (CALL, CALL), (RAISE,))
    assert honest(paired, 0) == RAISE and honest(paired, 1) == FOLD  # Qh pairs Qs; Jh not
    assert honest(paired._replace(second=(RAISE, RAISE)), 0) == CALL  # no raise left


def test_determinization_wins_chips_from_random_play_at_leduc() -> None:
    # Chips, not hands: a poker player that folds its bad hands loses more hands than
    # it wins and still comes out ahead (the tournament's scores count hands).  Its edge
    # is about 0.67 chips a hand (benchmarks/results/worlds.md), the standard error of
    # 200 hands about 0.2.  (At Kuhn poker the edge, 1/6 exactly, is
    # benchmarks/kuhn_worlds.py's, summed over every deal: too small for 200 hands.)
    result = tournament(
        "leduc", ["determinize:worlds=all", "random"], rounds=100, seed=3,
        backend=LocalBackend(workers=1),
    )
    chips = [
        rec.utilities[p] for rec in result.records for p, agent in enumerate(rec.seats)
        if agent == 0
    ]
    assert len(chips) == 200 and sum(chips) / len(chips) > 0.2
