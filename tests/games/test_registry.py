"""The registry: names, descriptions, options from Python and from the command line; the
loader of specs (files, module:attribute)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from plies.errors import GameFormatError, GameSpecError, PliesError, UnknownGameError
from plies.games import (
    INT,
    GameInfo,
    Option,
    TreeGame,
    describe,
    info,
    is_spec,
    load,
    names,
    options_help,
    parse_options,
    register,
    spec_options,
    unregister,
)
from plies.games.nim import Nim
from plies.games.pig import Pig
from plies.games.registry import BUILTIN_GAMES
from tests.conformance import check_game

BUILTIN = sorted(BUILTIN_GAMES)


def test_names_lists_every_registered_game_sorted() -> None:
    assert set(BUILTIN) <= set(names()) and names() == sorted(names())
    assert all(name == name.lower() and " " not in name for name in BUILTIN)


@pytest.mark.parametrize("name", BUILTIN)
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
    assert caught.value.known == names()
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
        unregister("nim-7")
    assert "nim-7" not in names()
    with pytest.raises(ValueError, match="bad or duplicate name"):
        register(GameInfo("Upper", "", Nim))
    with pytest.raises(ValueError, match="bad or duplicate name"):
        register("nim", Nim)


def test_register_a_class_or_a_target_reads_its_declaration() -> None:
    register("trio-by-name", "tests.usergames:Trio")
    register("short-trio", "tests.usergames:short_trio")
    try:
        assert describe("trio-by-name").startswith("Three players in turn add 1 or 2")
        assert options_help("trio-by-name") == "target=6"
        assert load("trio-by-name", ["target=4"]).target == 4  # type: ignore[attr-defined]
        assert info("short-trio").accepted() == "options: target (int, default 3)"
    finally:
        unregister("trio-by-name")
        unregister("short-trio")


# --- your own game by spec: module:attribute -------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "options", "target"),
    [
        ("tests.usergames:Trio", {}, 6),
        ("tests.usergames:Trio", {"target": 5}, 5),
        ("tests.usergames:short_trio", {}, 3),
        ("tests.usergames:short_trio", {"target": 2}, 2),
        ("tests.usergames:TRIO", {}, 4),
        ("tests.usergames:DuckTrio", {}, 6),
        (" tests.usergames:Trio ", {}, 6),
    ],
)
def test_a_spec_loads_a_class_a_factory_or_an_instance(
    spec: str, options: dict[str, Any], target: int
) -> None:
    assert is_spec(spec)
    game = load(spec, **options)
    assert game.target == target  # type: ignore[attr-defined]
    check_game(game, playouts=5)


def test_a_spec_instance_is_the_object_itself() -> None:
    from tests import usergames

    assert load("tests.usergames:TRIO") is usergames.TRIO
    assert load("tests.usergames:Trio") is not load("tests.usergames:Trio")


def test_spec_options_from_the_command_line() -> None:
    options = parse_options("tests.usergames:Trio", ["target=4"])
    assert options == {"target": 4}
    assert load("tests.usergames:Trio", **options).target == 4  # type: ignore[attr-defined]
    with pytest.raises(GameFormatError, match="option target='four' is not a valid int"):
        parse_options("tests.usergames:Trio", ["target=four"])
    # an option the signature does not type is read as a Python literal, else as text
    assert spec_options(["a=3,4", "b=True", "c=red", "d='5'"]) == {
        "a": (3, 4), "b": True, "c": "red", "d": "5",
    }
    with pytest.raises(GameFormatError, match="option 'a' given twice"):
        parse_options("tests.usergames:Trio", ["a=1", "a=2"])
    with pytest.raises(GameFormatError, match="option 'target' is not key=value"):
        parse_options("tests.usergames:Trio", ["target"])


def test_a_spec_works_through_a_search() -> None:
    import plies

    game = load("tests.usergames:Trio", target=4)
    assert plies.maxn(game, game.initial_state()).values is not None


@pytest.mark.parametrize(
    ("spec", "error", "message"),
    [
        (
            "tests.nosuchmodule:Trio", GameSpecError,
            "cannot load game 'tests.nosuchmodule:Trio': no module named 'tests.nosuchmodule' "
            "(searched the current directory and sys.path); a spec is module:attribute (or "
            "path/to/file.py:attribute), the attribute a plies.Game class, a factory that "
            "returns a game, or a game instance",
        ),
        (
            "nosuchpackage.games:Trio", GameSpecError,
            "cannot load game 'nosuchpackage.games:Trio': no module named 'nosuchpackage'",
        ),
        (
            "tests.usergames:Quartet", GameSpecError,
            "cannot load game 'tests.usergames:Quartet': module 'tests.usergames' has no "
            "attribute 'Quartet'; games there: DuckTrio, TRIO, Trio",
        ),
        (
            "tests.usergames:Trio.nested", GameSpecError,
            "has no attribute 'Trio.nested'; games there: DuckTrio, TRIO, Trio",
        ),
        (
            "tests.usergames:NOT_A_GAME", GameSpecError,
            "cannot load game 'tests.usergames:NOT_A_GAME': it is int, not a game; a spec is",
        ),
        (
            "tests.usergames:not_a_factory", GameSpecError,
            "cannot load game 'tests.usergames:not_a_factory': calling it returned dict, not a "
            "game",
        ),
        (
            "tests.usergames:Rules", GameSpecError,
            "class Rules is not a game (it lacks to_move, actions, result, is_terminal, "
            "utility)",
        ),
    ],
)
def test_a_bad_spec_says_what_a_spec_may_name(spec: str, error: type, message: str) -> None:
    with pytest.raises(error) as caught:
        load(spec)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)
    assert isinstance(caught.value, PliesError)


def test_bad_spec_options_name_the_option() -> None:
    with pytest.raises(GameFormatError) as caught:
        load("tests.usergames:Trio", size=3)
    assert str(caught.value) == (
        "tests.usergames:Trio does not take these options: got an unexpected keyword "
        "argument 'size'"
    )
    with pytest.raises(GameFormatError, match="is a game instance: it takes no options"):
        load("tests.usergames:TRIO", target=3)
    with pytest.raises(GameFormatError, match="target must be at least 1"):
        load("tests.usergames:Trio", target=0)


def test_a_module_that_fails_to_import_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "brokengames.py").write_text("import nosuchdependency\n")
    monkeypatch.chdir(tmp_path)  # the current directory is searched, as uvicorn does
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(GameSpecError, match="importing 'brokengames' failed: "
                       "ModuleNotFoundError: No module named 'nosuchdependency'"):
        load("brokengames:Game")


def test_a_module_in_the_current_directory_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "mygames_here.py").write_text(
        "from tests.usergames import Trio\n\nclass Quick(Trio):\n    pass\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.path", [p for p in sys.path if p not in ("", str(tmp_path))])
    assert load("mygames_here:Quick").num_players == 3


def test_what_is_a_spec() -> None:
    assert is_spec("mypkg.games:Trio") and is_spec("m:f.g")
    for name in ("tictactoe", "fig.tree", "mypkg.games", ":Trio", "m:", "a b:C", "m:1x"):
        assert not is_spec(name), name
    with pytest.raises(UnknownGameError):
        load("mypkg.games")  # no colon: a game name, and an unknown one
