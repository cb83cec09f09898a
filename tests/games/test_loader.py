"""The one loader: every kind of spec, options as typed values or text, declared and
inferred options, sources by suffix and scheme (plug-in sources included), and the old
names of the loader in plies.policy."""

from __future__ import annotations

import pickle
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest

from plies import games
from plies.errors import GameFormatError, GameSpecError, UnknownGameError
from plies.game.declaration import GameInfo, Source, declare, game_info
from plies.game.options import (
    BOOL,
    FLOAT,
    INT,
    INTS,
    LITERAL,
    OPTIONAL_INT,
    TEXT,
    Option,
)
from plies.games import GameSpec, load, load_text, parse_options, spec_info
from plies.sources import SOURCES, source_name

REPO = Path(__file__).resolve().parents[2]
KIF = REPO / "tests" / "data" / "gdl" / "ticTacToe.kif"
TREE = REPO / "src" / "plies" / "games" / "trees" / "aima-fig-5-2.tree"

MANCALA = '''
from tests.usergames import Trio


class Mancala(Trio):
    """A game class in a file of its own."""

    name = "mancala"

    def initial_state(self):
        return (0, 0)


class Helper:
    pass
'''


# --- options: typed values and text, in one signature --------------------------------------


def test_options_as_texts_a_mapping_or_keywords() -> None:
    assert load("nim", ["piles=1,2"]).piles == (1, 2)  # type: ignore[attr-defined]
    assert load("nim", {"piles": "1,2", "misere": True}).misere  # type: ignore[attr-defined]
    assert load("nim", ["piles=1,2"], misere=True).misere  # type: ignore[attr-defined]
    with pytest.raises(GameFormatError, match="option 'misere' given twice"):
        load("nim", ["misere=yes"], misere=True)
    with pytest.raises(GameFormatError, match="option 'piles' is not key=value"):
        load("nim", ["piles"])
    with pytest.raises(TypeError, match="not one text"):
        load("nim", "piles=1,2")  # type: ignore[arg-type]


def test_every_front_ends_spec_kind_loads_through_games_load() -> None:
    assert load(str(KIF)).name == "ticTacToe"  # GDL, through its source entry point
    assert load(str(TREE)).name == "aima-fig-5-2"
    assert load("tests.usergames:Trio", target=4).target == 4  # type: ignore[attr-defined]
    assert load("python:tests.usergames:Trio").name == "trio"
    with pytest.raises(GameFormatError, match="a GDL file takes no options, got 'x'"):
        load(str(KIF), ["x=1"])
    with pytest.raises(GameFormatError, match="a tree file takes no options, got 'depth'"):
        load(str(TREE), depth=2)


def test_a_python_file_spec_loads_its_class(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "mancala.py").write_text(MANCALA)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))  # the file's folder goes on it
    monkeypatch.delitem(sys.modules, "mancala", raising=False)
    for spec in ("./mancala.py:Mancala", "mancala.py:Mancala", f"{tmp_path}/mancala.py:Mancala"):
        game = load(spec, ["target=3"])
        assert game.name == "mancala" and game.target == 3  # type: ignore[attr-defined]
    info = spec_info("./mancala.py:Mancala")
    assert (info.name, info.description) == ("mancala", "A game class in a file of its own.")
    shipped = GameSpec.parse("./mancala.py:Mancala", ["target=5"])
    assert shipped == GameSpec(f"{tmp_path.resolve()}/mancala.py:Mancala", (("target", 5),))
    with pytest.raises(GameSpecError, match=r"there is no file 'nowhere\.py'"):
        load("nowhere.py:Game")
    with pytest.raises(GameSpecError, match="has no attribute 'Nothing'; games there: Mancala"):
        load("./mancala.py:Nothing")
    sys.modules.pop("mancala", None)


def test_an_unknown_name_says_what_a_spec_may_be_and_finds_a_file_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(UnknownGameError) as caught:
        load("shogi")
    message = str(caught.value)
    assert message.startswith("unknown game 'shogi'; available games: aima-5-2, ")
    assert message.endswith(
        "; a spec may also be a file (.tree, .json, .gdl, .kif), openspiel:NAME, or your own "
        "game as module:attribute or path/to/file.py:Class"
    )
    (tmp_path / "mancala.py").write_text(MANCALA)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UnknownGameError) as caught:
        load("mancala")
    assert str(caught.value).startswith(
        "unknown game 'mancala' (did you mean mancala:Mancala? mancala.py is a Python file); "
        "available games:"
    )
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "kalah.py").write_text(
        "from plies.games.nim import Nim\n\nclass Helper:\n    pass\n\n"
        "class Kalah(Nim):\n    name = 'kalah2'\n"
    )
    hints = {
        "mancala.py": "did you mean mancala:Mancala? mancala.py is a Python file",
        "./mancala.py": "did you mean mancala.py:Mancala? mancala.py is a Python file",
        "games/kalah": "did you mean games/kalah.py:Helper or games/kalah.py:Kalah?",
        "games/kalah.py": "did you mean games/kalah.py:Helper or games/kalah.py:Kalah?",
    }
    for spec, hint in hints.items():
        with pytest.raises(UnknownGameError) as caught:
            load(spec)
        assert f"unknown game {spec!r} ({hint}" in str(caught.value)
    assert type(load("games/kalah.py:Kalah")).__name__ == "Kalah"
    assert type(load("mancala.py:Mancala")).__name__ == "Mancala"
    assert load("./games/kalah.py:Kalah", piles=(1, 2)).initial_state().piles == (1, 2)


def test_spec_info_and_parse_options_for_every_kind_of_spec() -> None:
    assert spec_info("nim") is games.info("nim")
    tree = spec_info(str(TREE))
    assert (tree.name, tree.options, tree.open) == ("aima-fig-5-2", (), False)
    assert tree.make().name == "aima-fig-5-2"
    assert parse_options(str(KIF), []) == {}
    assert parse_options("openspiel:pig", ["winscore=10"]) == {"winscore": "10"}  # its own
    with pytest.raises(GameFormatError, match="a GDL file takes no options"):
        parse_options(str(KIF), ["x=1"])


def test_load_text_reads_an_uploaded_file_by_its_suffix() -> None:
    tree = load_text(TREE.read_text(), ".tree", name="games/fig.tree")
    assert tree.name == "fig"
    gdl = load_text(KIF.read_text(), ".kif", name="uploads/ticTacToe.kif")
    assert gdl.name == "ticTacToe"
    with pytest.raises(GameFormatError, match=re.escape(
        "no source reads '.zip' files from text; these do: .tree, .json, .gdl, .kif")):
        load_text("x", ".zip")


def test_a_game_spec_ships_to_workers_as_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    spec = GameSpec.parse("tests/data/gdl/ticTacToe.kif")
    assert spec.name == str(KIF.resolve())
    assert pickle.loads(pickle.dumps(spec)).load().name == "ticTacToe"
    assert GameSpec.parse("nim", ["piles=1,2"]) == GameSpec("nim", (("piles", (1, 2)),))
    with pytest.raises(GameFormatError, match="out of range"):
        GameSpec.parse("nim", ["piles=99"])


# --- declarations: read, else inferred from the signature -----------------------------------


class Inferred:
    def __init__(
        self, size: int = 3, fast: bool = False, ratio: float = 0.5, label: str = "x",
        piles: tuple[int, ...] = (1, 2), cap: int | None = None,
        mode: Literal["easy", "hard"] = "easy", loose=7, anything: object = None,
        *, required: int,
    ) -> None:
        pass


def test_options_are_inferred_from_a_signature_with_their_types() -> None:
    info = game_info("inferred", Inferred)
    kinds = {option.name: option.type for option in info.options}
    assert list(kinds) == [
        "size", "fast", "ratio", "label", "piles", "cap", "mode", "loose", "anything"
    ]  # `required` has no default: the caller's to give, not an option
    assert [kinds[n] for n in ("size", "fast", "ratio", "label", "piles", "cap")] == [
        INT, BOOL, FLOAT, TEXT, INTS, OPTIONAL_INT
    ]
    assert kinds["mode"].name == "easy or hard" and kinds["loose"] is INT
    assert kinds["anything"] is LITERAL and info.open
    assert info.parse(["size=4", "cap=none", "mode=HARD", "piles=3,4", "extra=(1, 'a')"]) == {
        "size": 4, "cap": None, "mode": "hard", "piles": (3, 4), "extra": (1, "a")
    }
    with pytest.raises(GameFormatError, match="option ratio='fast' is not a valid number"):
        info.parse(["ratio=fast"])


def test_declared_options_win_and_their_bounds_hold_for_text() -> None:
    @declare(name="counted", description="Counts", options=(Option("n", INT, 2, bounds=(1, 5)),))
    def counted(n: int = 1) -> Any:
        return n

    info = game_info("counted", counted)
    assert (info.description, info.open, info.defaults()) == ("Counts", False, {"n": 2})
    assert info.make() == 2 and info.make({"n": "4"}) == 4 and info.make({"n": 9}) == 9
    with pytest.raises(GameFormatError, match=r"counted accepts n 1\.\.5"):
        info.make({"n": "9"})
    with pytest.raises(GameFormatError, match="unknown option 'm' for counted; options: n"):
        info.make({"m": 1})
    with pytest.raises(TypeError, match=r"options must be a tuple of plies\.game\.options\.Option"):
        game_info("bad", declare(options=["n"])(lambda: None))  # type: ignore[list-item]


def test_every_builtin_game_declares_what_the_registry_shows() -> None:
    for name in games.names():
        entry = games.registry.GAMES.entry(name)
        if entry is None or not entry.builtin:
            continue
        info = games.info(name)
        assert info.description and not info.open, name  # declared, not inferred


# --- sources: a plug-in adds a suffix or a scheme ------------------------------------------------


@pytest.fixture
def demo_sources() -> Iterator[None]:
    def by_count(spec: str, options: Any, budget: Any) -> Any:
        return games.load("nim", piles=(int(spec.partition(":")[2]),), **options)

    SOURCES.register(".sticks", Source(
        "a sticks file", lambda spec, options, budget: games.load("sticks", sticks=3),
        takes_options=False,
    ))
    SOURCES.register("heap", Source("a heap of N", by_count))
    yield
    SOURCES.unregister(".sticks")
    SOURCES.unregister("heap")


@pytest.mark.usefixtures("demo_sources")
def test_a_registered_source_reads_its_suffix_or_scheme() -> None:
    assert source_name("pile.STICKS") == ".sticks" and source_name("heap:4") == "heap"
    assert load("pile.sticks").initial_state().piles == (3,)  # type: ignore[attr-defined]
    assert load("heap:4", misere=True).misere  # type: ignore[attr-defined]
    with pytest.raises(GameFormatError, match="a sticks file takes no options"):
        load("pile.sticks", depth=1)
    with pytest.raises(UnknownGameError, match="heap:NAME"):
        load("nothing")


def test_a_source_entry_that_is_not_a_source_is_a_plugin_error() -> None:
    from plies.plugins import PluginError

    SOURCES.register(".odd", "plies.games.nim:Nim")
    try:
        with pytest.raises(PluginError, match=r"game source '.odd' \(plies.games.nim:Nim, "
                           r"registered at run time\) cannot be used: TypeError: .* is not a "
                           r"plies.game.declaration.Source"):
            load("x.odd")
    finally:
        SOURCES.unregister(".odd")


# --- the old names ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("module", "old", "new"),
    [
        ("plies.policy", "load_game", "plies.games.load"),
        ("plies.policy", "GameSpec", "plies.games.GameSpec"),
        ("plies.policy", "is_gdl_path", "plies.gdl.source.is_gdl_path"),
        ("plies.policy.games", "load_game", "plies.games.load"),
        ("plies.policy.games", "GameSpec", "plies.games.GameSpec"),
        ("plies.policy.games", "GDL_SUFFIXES", "plies.gdl.source.SUFFIXES"),
        ("plies.games.registry", "load", "plies.games.loader.load"),
        ("plies.games.registry", "parse_options", "plies.games.loader.parse_options"),
        ("plies.games.registry", "C4_SIDES", "plies.games.connect4.rules.SIDES"),
        ("plies.games.registry", "FEN", "plies.games.chess.rules.FEN"),
        ("plies.games.registry", "EMPIRE_MAP", "plies.games.empire.game.MAP"),
    ],
)
def test_the_old_names_of_the_loader_warn_and_forward(module: str, old: str, new: str) -> None:
    import importlib

    where, _, name = new.rpartition(".")
    with pytest.warns(DeprecationWarning, match=rf"{module}.{old} is deprecated: use {new}\b"):
        value = getattr(importlib.import_module(module), old)
    assert value is getattr(importlib.import_module(where), name)


def test_the_old_load_game_still_takes_its_arguments() -> None:
    with pytest.warns(DeprecationWarning):
        from plies.policy import load_game
    assert load_game("nim", ["piles=2"], budget=None).piles == (2,)


def test_info_is_a_dataclass_a_front_end_can_show() -> None:
    info = games.info("pig")
    assert isinstance(info, GameInfo) and info.options_help() == "goal=7 max_turns=4"
    assert info.description == "Pig: a dice race to 7 points over 4 turns (chance nodes)"
