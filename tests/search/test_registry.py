"""The algorithm registry: entries checked against the search contract, registered once and
read by every front end (CLI, web catalogue, agents, trace, tree, analyze), or refused
there with the reason from their capabilities; a broken plug-in breaks nothing else."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import plies
from plies.errors import AlgorithmDefinitionError, OptionError, UnsupportedGameError
from plies.games import load
from plies.plugins import PluginError
from plies.policy import SearchRequest, algorithm_choices, plan
from plies.search import Limit, minimax
from plies.search.registry import (
    ALGORITHMS,
    BUILTIN,
    REGISTRY,
    Algorithm,
    algorithm,
    available,
    names,
    register,
)
from plies.tournament.agents import agent_algorithms, parse_agent
from plies.viz import capture
from plies.web import api
from tests.clirun import fail, plain_pipe, run  # noqa: F401 (autouse fixture)


def textbook(**changes: Any) -> Algorithm:
    """An entry without a searcher: plain minimax under another name."""
    fields: dict[str, Any] = {
        "name": "textbook", "search": minimax, "searcher": None,
        "summary": "minimax, registered at run time", "value": "minimax value",
        "analyzable": False, "players": 2,
    }
    return Algorithm(**{**fields, **changes})


@pytest.fixture
def registered() -> Iterator[list[str]]:
    """Names registered by a test, unregistered afterwards."""
    added: list[str] = []
    yield added
    for name in added:
        REGISTRY.unregister(name)


def test_the_builtins_come_first_in_their_order() -> None:
    assert list(ALGORITHMS)[: len(BUILTIN)] == list(BUILTIN)
    for name in BUILTIN:
        assert algorithm(name).name == name


def test_an_unknown_name_lists_every_known_one() -> None:
    with pytest.raises(OptionError) as info:
        algorithm("nosuch")
    assert str(info.value) == f"unknown algorithm 'nosuch'; use one of: {', '.join(ALGORITHMS)}"


def test_an_algorithm_registered_once_is_everywhere(
    capsys: pytest.CaptureFixture[str], registered: list[str]
) -> None:
    register(textbook())
    registered.append("textbook")
    assert "textbook" in ALGORITHMS and "textbook" in names(lambda a: a.traceable)
    # the CLI: --algorithm, plies algorithms, the value minimax gives
    assert "textbook" in algorithm_choices()
    solved = run(capsys, "solve", "nim", "-o", "piles=1,2", "-a", "textbook", "--json")
    nim = load("nim", piles=(1, 2))
    assert f'"value": {minimax(nim, nim.initial_state()).value:g}' in solved
    listing = run(capsys, "algorithms")
    assert "textbook: minimax, registered at run time" in listing
    # the web catalogue, with its capabilities
    catalogue = api.catalogue()
    assert "textbook" in catalogue["algorithms"]
    caps = catalogue["capabilities"]["textbook"]
    assert caps["players"] == 2 and caps["traceable"] is True and caps["engine"] == []
    # tournament agents
    assert "textbook" in agent_algorithms()
    assert parse_agent("textbook:depth=2").algorithm == "textbook"
    # trace and tree: it traces, with the paranoid rule
    narrated = run(capsys, "trace", "aima-5-2", "-a", "textbook")
    assert narrated.startswith("Tracing textbook on aima-5-2; MAX is")
    game = load("aima-5-2")
    assert capture(game, game.initial_state(), "textbook").value == 3.0


def test_what_it_cannot_do_is_refused_with_the_reason(
    capsys: pytest.CaptureFixture[str], registered: list[str]
) -> None:
    register(textbook(traceable=False))
    registered.append("textbook")
    message = fail(capsys, "analyze", "tictactoe", "-a", "textbook")
    assert message.startswith("textbook cannot give the value of every move; use one of: ")
    message = fail(capsys, "trace", "tictactoe", "-a", "textbook")
    assert message.startswith("textbook cannot be traced: it reports no trace events; ")
    assert "textbook" not in message.partition(";")[2]  # it does not offer itself
    message = fail(capsys, "tree", "aima-5-2", "-a", "textbook")
    assert "textbook cannot be traced" in message
    with pytest.raises(OptionError, match="textbook reports no trace events"):
        game = load("aima-5-2")
        capture(game, game.initial_state(), "textbook")
    with pytest.raises(api.ApiError, match="textbook reports no trace"):
        api.search_tree({"game": "tictactoe", "algorithm": "textbook", "depth": 1})
    message = fail(capsys, "solve", "pig", "-a", "textbook", "--depth", "2")
    assert message == (
        "textbook cannot search chance nodes (pig has chance); use "
        + " or ".join(names(lambda a: a.chance))
    )
    message = fail(capsys, "solve", "civ", "-a", "textbook", "--depth", "1")
    assert message.startswith("textbook searches games of at most 2 players (civ has 3); use ")
    message = fail(capsys, "solve", "tictactoe", "-a", "textbook", "--engine")
    assert message == "the engine is for alphabeta or expectiminimax (or auto), not textbook"
    with pytest.raises(OptionError, match="engine=1 applies to alphabeta and expectiminimax"):
        parse_agent("textbook:engine=1")


def test_an_entry_with_a_searcher_reads_its_facts_from_it() -> None:
    entry = algorithm("expectiminimax")
    assert entry.searcher is not None
    assert (entry.chance, entry.simultaneous, entry.players) == (
        entry.searcher.chance_ok, entry.searcher.simultaneous_ok, entry.searcher.max_players
    )


def _search_without_stop(game: Any, state: Any, limit: Limit | None = None, *,
                         player: int | None = None, tie: str = "first", seed: int | None = None,
                         trace: Any = None, on_iteration: Any = None) -> plies.SearchResult:
    return minimax(game, state, limit, player=player, tie=tie, seed=seed, trace=trace)


def _search_requiring(game: Any, state: Any, limit: Limit | None, *, depth: int,
                      **rest: Any) -> plies.SearchResult:
    return minimax(game, state, limit)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": "Textbook"}, "its name must be lower case"),
        ({"name": "text book"}, "a non-empty word without ':', ',', '=' or spaces"),
        ({"name": "auto"}, "the name is reserved (auto, determinize, policy, random)"),
        ({"name": "random"}, "the name is reserved"),
        ({"summary": ""}, "summary must say in words what the algorithm does"),
        ({"rule": "minimax"}, "unknown rule 'minimax'; use one of: paranoid, maxn"),
        ({"engine": ("tt",)}, "engine switches on tt, which are not among its switches"),
        ({"switches": "tt"}, "switches must be a tuple of keyword names"),
        ({"players": 0}, "players must be None (any) or an int >= 1"),
        ({"depth": "yes"}, "depth must be True or False"),
        ({"search": "minimax"}, "search must be callable"),
        ({"search": _search_without_stop}, "search does not take the keyword stop"),
        ({"search": _search_requiring}, "search requires limit; everything after game"),
        ({"options": ("memo",)}, "search does not take the keyword memo"),
        ({"analyzable": True}, "search does not take the keyword all_values (an analyzable "
                               "entry without a searcher gives every root action's value"),
        ({"searcher": int}, "searcher must be a plies.search.common.Searcher class or None"),
    ],
)
def test_an_entry_that_breaks_the_contract_says_how(
    changes: dict[str, Any], message: str
) -> None:
    with pytest.raises(AlgorithmDefinitionError) as info:
        textbook(**changes)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_register_refuses_a_taken_name_and_what_is_no_algorithm() -> None:
    with pytest.raises(AlgorithmDefinitionError, match="the name is taken"):
        register(textbook(name="minimax"))
    with pytest.raises(AlgorithmDefinitionError, match=r"takes a plies\.search\.registry\."):
        register(minimax)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "target", "message"),
    [
        ("mini", "plies.search.builtin:MINIMAX",
         "the entry point names the algorithm 'minimax'; the two names must agree"),
        ("mini", "plies.search:minimax", "names a plies.search.registry.Algorithm, not function"),
        ("mini", "plies_no_such_package:NEGAMAX",
         "ModuleNotFoundError: No module named 'plies_no_such_package'"),
    ],
)
def test_a_broken_plug_in_is_one_line_where_used_and_breaks_nothing_else(
    capsys: pytest.CaptureFixture[str], registered: list[str], name: str, target: str,
    message: str,
) -> None:
    REGISTRY.register(name, target)
    registered.append(name)
    assert name in algorithm_choices()  # listed: using it says what is wrong
    with pytest.raises(PluginError) as info:
        algorithm(name)
    assert message in str(info.value) and "\n" not in str(info.value)
    assert str(info.value).startswith(f"plug-in algorithm {name!r} ({target}, registered at run")
    assert message in fail(capsys, "solve", "tictactoe", "-a", name)
    assert name not in available() and name not in api.catalogue()["algorithms"]
    assert name not in names(lambda a: True)
    listing = run(capsys, "algorithms")
    assert message in listing and "alphabeta" in listing
    # everything else works as before
    assert "X" in run(capsys, "solve", "tictactoe", "--depth", "1")
    nim = load("nim")
    assert plan(nim, nim.initial_state(), SearchRequest("minimax")).run(nim, nim.initial_state())


def test_a_game_is_refused_up_front_by_an_entry_without_searcher(registered: list[str]) -> None:
    register(textbook())
    registered.append("textbook")
    pig = load("pig")
    with pytest.raises(UnsupportedGameError, match="textbook cannot search chance nodes"):
        plan(pig, pig.initial_state(), SearchRequest(algorithm="textbook"))
