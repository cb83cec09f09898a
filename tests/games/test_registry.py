"""The registry: names, descriptions, options from Python and from the command line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from plies.errors import GameFormatError, UnknownGameError
from plies.games import (
    INT,
    GameInfo,
    Option,
    TreeGame,
    describe,
    info,
    load,
    names,
    options_help,
    parse_options,
    register,
)
from plies.games.nim import Nim
from plies.games.pig import Pig
from tests.conformance import check_game

ALL = [
    "aima-5-2", "aima-5-4", "chance-demo", "civ", "connect4", "goofspiel", "matching-pennies",
    "nim", "pig", "prisoners-dilemma", "rps", "sticks", "tictactoe",
]


def test_names_lists_every_builtin_game() -> None:
    assert names() == ALL


@pytest.mark.parametrize("name", ALL)
def test_every_game_loads_and_conforms(name: str) -> None:
    game = load(name)
    assert game.name == name
    assert describe(name) and "\n" not in describe(name)
    check_game(game, playouts=5)


def test_each_load_is_a_new_game() -> None:
    assert load("nim") is not load("nim")
    assert load("TicTacToe").name == "tictactoe"  # names are case-insensitive


def test_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(UnknownGameError) as caught:
        load("chess960")
    assert caught.value.known == ALL
    assert "unknown game 'chess960'; available games: aima-5-2, aima-5-4," in str(caught.value)
    with pytest.raises(UnknownGameError):
        describe("go")
    with pytest.raises(UnknownGameError):
        parse_options("go", [])


def test_options_from_python() -> None:
    nim = load("nim", piles=[1, 2], misere=True)
    assert isinstance(nim, Nim)
    assert (nim.piles, nim.max_take, nim.misere) == ((1, 2), None, True)
    pig = load("pig", goal=5, max_turns=None)
    assert isinstance(pig, Pig) and (pig.goal, pig.max_turns) == (5, None)
    assert load("sticks", sticks=10).initial_state().piles == (10,)
    assert load("civ", players=2).num_players == 2


def test_options_as_text() -> None:
    nim = load("nim", piles="4 5", max_take="2")
    assert isinstance(nim, Nim) and (nim.piles, nim.max_take) == ((4, 5), 2)


@pytest.mark.parametrize(
    ("name", "items", "expected"),
    [
        ("nim", ["piles=3,4,5"], {"piles": (3, 4, 5)}),
        ("nim", ["piles=7"], {"piles": (7,)}),
        ("nim", ["misere=true", "max_take=none"], {"misere": True, "max_take": None}),
        ("nim", ["misere=No", "max_take= 3"], {"misere": False, "max_take": 3}),
        ("pig", ["max_turns=", "goal=12"], {"max_turns": None, "goal": 12}),
        ("civ", [" rounds = 1"], {"rounds": 1}),
        ("tictactoe", [], {}),
    ],
)
def test_parse_options(name: str, items: list[str], expected: dict[str, Any]) -> None:
    assert parse_options(name, items) == expected
    load(name, **parse_options(name, items))


@pytest.mark.parametrize(
    ("name", "items", "message"),
    [
        ("nim", ["pile=3"], "unknown option 'pile' for nim; options: piles (comma-separated"),
        ("nim", ["misere=maybe"], "option misere='maybe' is not a valid bool; options: piles"),
        ("nim", ["piles=3;4"], "option piles='3;4' is not a valid comma-separated ints"),
        ("nim", ["max_take=lots"], "max_take='lots' is not a valid int or none"),
        ("nim", ["misere"], "option 'misere' is not key=value"),
        ("nim", ["=3"], "is not key=value"),
        ("nim", ["misere=1", "misere=0"], "option 'misere' given twice"),
        (
            "tictactoe",
            ["size=4"],
            "unknown option 'size' for tictactoe; tictactoe takes no options",
        ),
        ("pig", ["goal=1"], "option goal=1 is out of range: pig accepts goal 2..100"),
    ],
)
def test_bad_options_name_the_option(name: str, items: list[str], message: str) -> None:
    with pytest.raises(GameFormatError) as caught:
        load(name, **parse_options(name, items))
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    "options",
    [{"piles": 3}, {"piles": (3, "4")}, {"misere": 1}, {"max_take": 2.5}, {"max_take": True}],
)
def test_ill_typed_python_options(options: dict[str, Any]) -> None:
    with pytest.raises(GameFormatError, match=f"option {next(iter(options))}="):
        load("nim", **options)


def test_the_accepted_options_are_listed() -> None:
    assert info("pig").accepted() == (
        "options: goal (int 2..100, default 7), max_turns (int 1..50 or none, default 4)"
    )
    assert info("nim").accepted() == (
        "options: piles (comma-separated ints 0..64, 1..8 of them, default 3,4,5), "
        "max_take (int 1..64 or none, default none), misere (bool, default false)"
    )


def test_options_help_shows_the_defaults_as_typed() -> None:
    assert options_help("nim") == "piles=3,4,5 max_take=none misere=false"
    assert options_help("tictactoe") == ""
    assert parse_options("nim", options_help("nim").split()) == info("nim").defaults()


def test_tree_files_load_by_path(tmp_path: Path) -> None:
    text = tmp_path / "fig.tree"
    text.write_text("max(min(3 12 8) min(2 4 6))")
    game = load(str(text))
    assert isinstance(game, TreeGame) and game.name == "fig"
    as_json = tmp_path / "fig.json"
    as_json.write_text('{"players": 2, "root": {"type": "max", "children": [1, 2]}}')
    assert load(str(as_json)).actions(0) == ("1", "2")
    assert parse_options(str(text), []) == {}
    with pytest.raises(GameFormatError, match="a tree file takes no options"):
        parse_options(str(text), ["depth=3"])
    with pytest.raises(GameFormatError, match="a tree file takes no options"):
        load(str(text), depth=3)
    with pytest.raises(GameFormatError, match="cannot read the tree"):
        load(str(tmp_path / "missing.tree"))


def test_register() -> None:
    entry = GameInfo(
        "nim-7", "Nim with one pile of 7", lambda n=7: Nim((n,)), (Option("n", INT, 7),)
    )
    register(entry)
    try:
        assert "nim-7" in names() and load("nim-7", n=3).initial_state().piles == (3,)
        with pytest.raises(ValueError, match="duplicate"):
            register(entry)
    finally:
        from plies.games import registry

        del registry._REGISTRY["nim-7"]
    with pytest.raises(ValueError, match="bad or duplicate name"):
        register(GameInfo("Upper", "", Nim))
