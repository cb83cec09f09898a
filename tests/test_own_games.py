"""A user's own game reaches every command: ``module:attribute`` specs and ``.kif`` files
in solve, analyze, trace, tree, tournament, batch analysis and the web app."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from plies.errors import PliesError
from plies.web import api
from tests.clirun import fail, run, run_json

SPEC = "tests.usergames:Trio"
KIF = str(Path(__file__).parent / "data" / "gdl" / "ticTacToe.kif")


def test_solve_and_analyze_a_game_given_as_module_attribute(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = run_json(capsys, "solve", SPEC, "-o", "target=4")
    assert data["game"] == "trio" and data["exact"] is True
    assert set(run_json(capsys, "analyze", SPEC)["action_values"]) == {"1", "2"}
    assert "Tracing alphabeta on trio" in run(capsys, "trace", SPEC, "--depth", "1")


def test_tournament_and_batch_analysis_of_your_own_game_and_of_a_kif_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Regression: ``plies tournament game.kif`` said "unknown game"."""
    out = run(capsys, "tournament", KIF, "--agent", "alphabeta:depth=2", "--agent", "random",
              "--games", "1", "--workers", "1", "--seed", "3")
    assert "alphabeta:depth=2" in out
    out = run(capsys, "tournament", SPEC, "--agent", "maxn:depth=2", "--agent", "random",
              "--agent", "random", "--games", "1", "--workers", "1", "--seed", "3")
    assert "maxn:depth=2" in out
    positions = tmp_path / "trio.txt"
    positions.write_text("-\n1 2\n")
    data = run_json(capsys, "analyze", SPEC, "--file", str(positions), "--workers", "1")
    assert [p["line"] for p in data["positions"]] == [1, 2]


def test_a_spec_that_names_no_game_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    message = fail(capsys, "solve", "tests.usergames:Quartet")
    assert "tests.usergames" in message and "Quartet" in message
    assert "\n" not in message.strip()


def test_plies_web_offers_games_given_with_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(api, "SERVED", {})
    assert api.serve_games([SPEC, KIF]) == ["trio", "ticTacToe"]
    names = [g["name"] for g in api.catalogue()["games"]]
    assert "trio" in names and "ticTacToe" in names
    view: dict[str, Any] = api.state({"game": "trio", "moves": ["2"]})
    assert view["to_move"] == 1
    answer = api.move({"game": "trio", "moves": ["2"], "depth": 3})
    assert answer["by"] == "engine"
    # the served class's options, read from its signature, work as a built-in game's
    [trio] = [g for g in api.catalogue()["games"] if g["name"] == "trio"]
    assert trio["options"] == [
        {"name": "target", "type": "int", "default": "6", "help": "", "input": "text"}
    ]
    assert api.state({"game": "trio", "options": {"target": 9}})["to_move"] == 0
    with pytest.raises(PliesError, match="option target='nine' is not a valid int"):
        api.state({"game": "trio", "options": {"target": "nine"}})
    with pytest.raises(PliesError, match="ticTacToe takes no options"):
        api.state({"game": "ticTacToe", "options": {"size": 4}})


def test_plies_web_refuses_a_bad_game_spec_before_listening(
    capsys: pytest.CaptureFixture[str],
) -> None:
    message = fail(capsys, "web", "--no-browser", "--port", "0", "--game", "nosuchmodule:X")
    assert "nosuchmodule" in message


RAISES_ON_IMPORT = "raise RuntimeError('the database is down')\n"
FACTORY_RAISES = "def make():\n    raise ValueError('no board today')\n"
EXITS_ON_IMPORT = "import sys\nsys.exit(3)\n"


@pytest.mark.parametrize("command", [
    ("solve",), ("analyze",), ("check",), ("trace",), ("tree",), ("play",),
    ("tournament", "--agent", "random", "--agent", "random", "--games", "1"),
    ("web", "--no-browser", "--port", "0", "--game"),
])
@pytest.mark.parametrize(("module", "text", "spec", "said"), [
    ("raisesonimport", RAISES_ON_IMPORT, "raisesonimport:Game",
     "importing 'raisesonimport' failed: RuntimeError: the database is down"),
    ("factoryraises", FACTORY_RAISES, "factoryraises:make",
     "calling it failed: ValueError: no board today"),
    ("exitsonimport", EXITS_ON_IMPORT, "exitsonimport:Game",
     "importing 'exitsonimport' failed: SystemExit: 3"),
])
def test_a_users_module_or_factory_that_raises_is_one_line_in_every_command(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    command: tuple[str, ...], module: str, text: str, spec: str, said: str,
) -> None:
    """Regression: a module that raised anything but ImportError on import, or a factory
    that raised, gave a traceback in solve, check and web --game."""
    (tmp_path / f"{module}.py").write_text(text)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(__import__("sys").modules, module, raising=False)
    args = [*command, spec] if command[0] != "tournament" else [command[0], spec, *command[1:]]
    message = fail(capsys, *args)
    assert message == f"cannot load game {spec!r}: {said}"


def test_plies_solve_sys_exit_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    """Regression: ``plies solve sys:exit`` exited 0 without a word (the factory's
    SystemExit went through)."""
    assert fail(capsys, "solve", "sys:exit") == (
        "cannot load game 'sys:exit': calling it failed: SystemExit"
    )


def test_a_users_file_that_exits_on_import_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "exitsonload.py"
    path.write_text(EXITS_ON_IMPORT)
    message = fail(capsys, "solve", f"{path}:Game")
    assert message.endswith(f"importing {str(path)!r} failed: SystemExit: 3")
    assert "exitsonload" not in __import__("sys").modules
