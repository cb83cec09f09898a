"""A search checks the game's declared facts (chance, simultaneous moves, players) up front."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

import plies
from plies.errors import UnsupportedGameError
from plies.games import load
from plies.search import ALGORITHMS
from plies.search.minimax import MinimaxSearcher
from plies.search.registry import BUILTIN


class Searched(Exception):
    """Raised by :class:`Declared` when a search looks at a state: the search had started."""


class Declared:
    """A game that declares facts and nothing else: any look at a state raises Searched."""

    def __init__(self, *, chance: bool = False, simultaneous: bool = False, players: int = 2):
        self.name = "declared"
        self.num_players = players
        self.has_chance = chance
        self.has_simultaneous = simultaneous

    def initial_state(self) -> int:
        return 0

    def _searched(self, *args: Any) -> Any:
        raise Searched

    to_move = actions = result = is_terminal = utility = _searched


CHANCE_OK = {"expectiminimax", "maxn", "simultaneous", "mcts"}
SIMULTANEOUS_OK = {"simultaneous", "mcts"}  # mcts: decoupled UCT


# plies' own algorithms (a plug-in's algorithm, such as the test plug-in's, has its own tests)
BUILT_IN = {name: ALGORITHMS[name] for name in BUILTIN}


def entry(name: str) -> Callable[..., plies.SearchResult]:
    return ALGORITHMS[name].search


def test_the_capabilities_are_declared_on_the_searchers() -> None:
    assert {n for n, a in BUILT_IN.items() if a.chance} == CHANCE_OK
    assert {n for n, a in BUILT_IN.items() if a.simultaneous} == SIMULTANEOUS_OK
    assert all(a.players is None for a in BUILT_IN.values())  # all are N-player


@pytest.mark.parametrize("name", list(BUILT_IN))
@pytest.mark.parametrize("how", ["entry point", "analyze"])
def test_chance_is_refused_up_front_unless_the_algorithm_averages(name: str, how: str) -> None:
    def search() -> Any:
        game = Declared(chance=True)
        if how == "analyze":
            return plies.analyze(game, 0, player=0, algorithm=name)
        return entry(name)(game, 0, player=0)

    if name in CHANCE_OK:
        with pytest.raises(Searched):
            search()
    else:
        searcher = BUILT_IN[name].searcher
        algorithm = name if searcher is None else searcher.algorithm
        message = rf"^{re.escape(algorithm)} cannot search chance nodes \(declared has chance\); "
        with pytest.raises(UnsupportedGameError, match=message + "use expectiminimax"):
            search()


@pytest.mark.parametrize("name", list(BUILT_IN))
@pytest.mark.parametrize("how", ["entry point", "analyze"])
def test_simultaneous_moves_are_refused_up_front_unless_solved_as_matrices(
    name: str, how: str
) -> None:
    def search() -> Any:
        game = Declared(simultaneous=True)
        if how == "analyze":
            return plies.analyze(game, 0, player=0, algorithm=name)
        return entry(name)(game, 0, player=0)

    if name in SIMULTANEOUS_OK:
        with pytest.raises(Searched):
            search()
    else:
        with pytest.raises(UnsupportedGameError, match=r"simultaneous moves .*use simultaneous"):
            search()


@pytest.mark.parametrize("name", list(BUILT_IN))
def test_every_algorithm_takes_three_players(name: str) -> None:
    game = Declared(players=3)
    if name == "brs":  # given the out-of-turn hook it needs (refused without: test_brs.py)
        game.pass_turn_to = lambda state, player: state  # type: ignore[attr-defined]
    most = BUILT_IN[name].players
    if most is not None and most < 3:  # an algorithm for fewer players: refused up front
        with pytest.raises(UnsupportedGameError, match=rf"at most {most} players"):
            entry(name)(game, 0, player=0)
        return
    with pytest.raises(Searched):
        entry(name)(game, 0, player=0)


def test_a_searcher_for_two_players_refuses_three_up_front() -> None:
    class TwoPlayerMinimax(MinimaxSearcher):
        algorithm = "twoplayer"
        max_players = 2

    TwoPlayerMinimax.refuse(Declared(players=2))
    with pytest.raises(
        UnsupportedGameError,
        match=r"^twoplayer searches games of at most 2 players \(declared has 3\); use ",
    ):
        TwoPlayerMinimax.refuse(Declared(players=3))


def test_the_refusal_names_a_real_game() -> None:
    pig = load("pig")
    with pytest.raises(
        UnsupportedGameError,
        match=r"^alphabeta cannot search chance nodes \(pig has chance\); use expectiminimax$",
    ):
        plies.alphabeta(pig, pig.initial_state(), plies.Limit(depth=2))
    rps = load("rps")
    with pytest.raises(UnsupportedGameError, match=r"^minimax cannot search simultaneous"):
        plies.minimax(rps, rps.initial_state(), player=0)
    assert plies.expectiminimax(pig, pig.initial_state(), plies.Limit(depth=2)).action


def test_a_game_without_declared_facts_is_searched() -> None:
    """``has_simultaneous`` (and ``has_chance``) default to False when a game lacks them."""

    class Bare(Declared):
        def __init__(self) -> None:
            self.num_players = 2

    with pytest.raises(Searched):
        plies.alphabeta(Bare(), 0, player=0)

