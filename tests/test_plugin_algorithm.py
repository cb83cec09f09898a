"""The test plug-in's algorithm (tests/plugin: ``negamax-plugin``, added by entry point) is
an algorithm like the built-in ones: it gives minimax's value, and it appears in the CLI,
the web app and tournaments, or is refused there with the reason from its capabilities."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from plies_testplugin.negamax import NEGAMAX, negamax

import plies
from plies.errors import OptionError, UnsupportedGameError
from plies.games import load
from plies.parallel import LocalBackend
from plies.policy import algorithm_choices
from plies.search import Limit, alphabeta, minimax
from plies.search.registry import REGISTRY, algorithm, names
from plies.tournament import parse_agent, tournament
from plies.web import api
from tests.clirun import fail, plain_pipe, run, run_json  # noqa: F401 (autouse fixture)
from tests.search.randomtree import random_trees

NAME = "negamax-plugin"


def test_it_is_registered_by_its_distribution() -> None:
    entry = REGISTRY.entry(NAME)
    assert entry is not None and not entry.builtin
    assert entry.distribution == "plies-testplugin"
    assert entry.target == "plies_testplugin.negamax:NEGAMAX"
    assert algorithm(NAME) is NEGAMAX
    assert (NEGAMAX.players, NEGAMAX.chance, NEGAMAX.traceable) == (2, False, False)


@settings(max_examples=150, deadline=None)
@given(
    tree=st.one_of(random_trees(players=2), random_trees(players=2, zero_sum=False)),
    depth=st.one_of(st.none(), st.integers(0, 5)),
    seat=st.sampled_from([None, 0, 1]),
)
def test_it_gives_minimax_value_and_move_on_random_trees(
    tree: Any, depth: int | None, seat: int | None
) -> None:
    limit = None if depth is None else Limit(depth=depth)
    root = tree.initial_state()
    want = minimax(tree, root, limit, player=seat)
    got = negamax(tree, root, limit, player=seat)
    assert (got.value, got.action, got.player) == (want.value, want.action, want.player)
    # Exact means no horizon was evaluated. Pruning may skip every horizon node minimax
    # evaluates, so the plug-in is exact wherever minimax is, and exactly where plies'
    # own alpha-beta (the same tree walked in the same order) is.
    assert got.exact == alphabeta(tree, root, limit, player=seat).exact
    assert got.exact or not want.exact
    if not tree.is_terminal(root) and depth != 0:
        every = negamax(tree, root, limit, player=seat, all_values=True)
        assert every.action_values == plies.analyze(
            tree, root, limit, player=seat, algorithm="minimax"
        ).action_values


@settings(max_examples=50, deadline=None)
@given(tree=random_trees(players=2), seed=st.integers(0, 1000))
def test_random_ties_pick_one_of_the_best(tree: Any, seed: int) -> None:
    root = tree.initial_state()
    result = negamax(tree, root, tie="random", seed=seed)
    if result.action is None:
        return
    values = plies.analyze(tree, root, algorithm="minimax").action_values
    assert values is not None and values[result.action] == max(values.values())
    again = negamax(tree, root, tie="random", seed=seed)  # reproducible
    assert (again.action, again.value, again.pv) == (result.action, result.value, result.pv)


def test_real_games_and_budgets() -> None:
    ttt = load("tictactoe")
    assert negamax(ttt, ttt.initial_state()).value == 0  # a draw, exactly
    c4 = load("connect4")
    state = c4.initial_state()
    for depth in (1, 3, 5):
        want = plies.alphabeta(c4, state, Limit(depth=depth))
        got = negamax(c4, state, Limit(depth=depth))
        assert (got.value, got.action) == (want.value, want.action)
    counted = negamax(c4, state, Limit(nodes=2000))
    assert counted.stopped and counted.stats.depth >= 1
    again = negamax(c4, state, Limit(nodes=2000))  # a node budget is exact
    assert (again.action, again.value, again.stats.nodes, again.stats.depth) == (
        counted.action, counted.value, counted.stats.nodes, counted.stats.depth
    )
    assert negamax(c4, state, Limit(time=0.05)).action in c4.actions(state)


def test_it_searches_the_plug_in_game_where_a_mover_may_move_twice() -> None:
    small = load("kalah", pits=3, seeds=2)  # the test plug-in's game: a last seed in the
    state = small.initial_state()          # own store moves again
    want, got = plies.alphabeta(small, state), negamax(small, state)
    assert (got.value, got.action, got.exact) == (want.value, want.action, True)
    kalah = load("kalah")
    for depth in (2, 4):
        limit = Limit(depth=depth)
        want = plies.alphabeta(kalah, kalah.initial_state(), limit)
        got = negamax(kalah, kalah.initial_state(), limit)
        assert (got.value, got.action) == (want.value, want.action)


def test_the_cli_searches_with_it_and_lists_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert NAME in algorithm_choices()
    data = run_json(capsys, "solve", "tictactoe", "--moves", "5", "-a", NAME)
    plain = run_json(capsys, "solve", "tictactoe", "--moves", "5", "-a", "alphabeta")
    assert data["value"] == plain["value"] and data["exact"] is True
    assert data["algorithm"] == NAME
    listing = run(capsys, "algorithms")
    assert f"{NAME}: negamax with alpha-beta" in listing
    analysis = run_json(capsys, "analyze", "tictactoe", "--moves", "5", "-a", NAME)
    plain = run_json(capsys, "analyze", "tictactoe", "--moves", "5")
    assert analysis["action_values"] == plain["action_values"]


def test_where_it_cannot_go_it_is_refused_with_the_reason(
    capsys: pytest.CaptureFixture[str],
) -> None:
    traced = fail(capsys, "trace", "tictactoe", "-a", NAME)
    assert traced.startswith(f"{NAME} cannot be traced: it reports no trace events; trace ")
    assert f"{NAME} cannot be traced" in fail(capsys, "tree", "aima-5-2", "-a", NAME)
    chance = fail(capsys, "solve", "pig", "-a", NAME, "--depth", "2")
    assert chance == f"{NAME} cannot search chance nodes (pig has chance); use " + " or ".join(
        names(lambda a: a.chance)
    )
    assert f"{NAME} searches games of at most 2 players (civ has 3)" in fail(
        capsys, "solve", "civ", "-a", NAME, "--depth", "1"
    )
    assert f"not {NAME}" in fail(capsys, "solve", "tictactoe", "-a", NAME, "--engine")
    with pytest.raises(OptionError, match="counts its depth in plies"):
        negamax(load("tictactoe"), load("tictactoe").initial_state(), Limit(1, "round"))
    with pytest.raises(UnsupportedGameError, match="two-player games"):
        negamax(load("civ"), load("civ").initial_state(), Limit(1))


def test_the_web_app_offers_it_with_its_capabilities() -> None:
    data = api.catalogue()
    assert NAME in data["algorithms"]
    caps = data["capabilities"][NAME]
    assert caps["traceable"] is False and caps["players"] == 2 and caps["engine"] == []
    body = {"game": "tictactoe", "moves": ["5"], "algorithm": NAME, "depth": 9}
    moved = api.move(body)
    assert moved["search"]["algorithm"] == NAME
    with pytest.raises(api.ApiError, match=f"{NAME} reports no trace"):
        api.search_tree(body)


def test_tournaments_play_it_in_worker_processes() -> None:
    spec = parse_agent(f"{NAME}:depth=9")  # to the end of tic-tac-toe
    assert spec.algorithm == NAME
    with pytest.raises(OptionError, match="engine=1 applies to alphabeta and expectiminimax"):
        parse_agent(f"{NAME}:engine=1")
    result = tournament(
        "tictactoe", [spec, "random"], rounds=2, seed=3, backend=LocalBackend(workers=2)
    )
    standing = {s.agent: s for s in result.standings()}
    assert standing[spec.label].losses == 0  # a perfect player never loses
    with pytest.raises(UnsupportedGameError, match=f"agent '{NAME}:depth=9' cannot play pig"):
        tournament("pig", [spec, "random"], rounds=1, seed=1, backend=LocalBackend(workers=1))
