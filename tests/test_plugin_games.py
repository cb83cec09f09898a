"""A game from another distribution: ``plies-testplugin`` (``tests/plugin``, installed
beside plies by ``make``) declares ``kalah`` by entry point, and every front end offers it
by name with the options it declares; a broken or clashing plug-in is reported and breaks
nothing else."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap
from importlib import metadata
from pathlib import Path

import pytest

from plies import games, plugins
from plies.errors import GameFormatError
from plies.games.registry import GAMES
from plies.web import api
from tests.clirun import fail, plain_pipe, run, run_json  # noqa: F401  (plain_pipe: autouse)

try:
    metadata.distribution("plies-testplugin")
except metadata.PackageNotFoundError:  # pragma: no cover - the test environment has it
    pytest.fail(
        "plies-testplugin is not installed: `pip install -e tests/plugin` (make does it)",
        pytrace=False,
    )

SMALL = ["-o", "pits=3", "-o", "seeds=2"]


def test_plies_games_lists_the_plugin_game_with_its_distribution(
    capsys: pytest.CaptureFixture[str],
) -> None:
    entry = GAMES.entry("kalah")
    assert entry is not None and entry.distribution == "plies-testplugin" and not entry.builtin
    out = run(capsys, "games")
    row = next(line for line in out.splitlines() if "kalah" in line)
    assert "Kalah (Mancala)" in row and "pits=6 seeds=4" in row
    assert "(plies-testplugin)" in out


def test_its_options_come_from_its_declaration_with_its_bounds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert games.info("kalah").accepted() == (
        "options: pits (int 1..8, default 6), seeds (int 1..6, default 4)"
    )
    assert fail(capsys, "solve", "kalah", "-o", "pits=9") == (
        "option pits=9 is out of range: kalah accepts pits 1..8"
    )
    with pytest.raises(GameFormatError, match=r"kalah accepts seeds 1\.\.6"):
        api.state({"game": "kalah", "options": {"seeds": 7}})


def test_it_loads_by_name_in_solve_analyze_and_play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    solved = run_json(capsys, "solve", "kalah", *SMALL)
    assert solved["game"] == "kalah" and solved["exact"] is True and solved["value"] == 1
    analysis = run_json(capsys, "analyze", "kalah", *SMALL)
    assert set(analysis["action_values"]) == {"1", "2", "3"}
    monkeypatch.setattr("sys.stdin", io.StringIO("2\nq\n"))
    out = run(capsys, "play", "kalah", *SMALL, "--human", "South", "--depth", "2")
    assert "South to move" in out


def test_it_plays_in_a_tournament_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "tournament", "kalah", *SMALL, "--agent", "alphabeta:depth=2",
              "--agent", "random", "--games", "1", "--workers", "1", "--seed", "1")
    assert "alphabeta:depth=2" in out and "random" in out


def test_the_web_app_lists_it_with_its_options_and_plays_it() -> None:
    [kalah] = [g for g in api.catalogue()["games"] if g["name"] == "kalah"]
    assert kalah["players"] == 2 and kalah["description"].startswith("Kalah (Mancala)")
    assert [o["name"] for o in kalah["options"]] == ["pits", "seeds"]
    view = api.state({"game": "kalah", "options": {"pits": 3, "seeds": 2}, "moves": ["2"]})
    assert view["to_move_name"] == "South"  # the last seed in the store: South again
    answer = api.move({"game": "kalah", "options": {"pits": 3, "seeds": 2}, "depth": 4})
    assert answer["by"] == "engine"


def test_plies_disable_plugins_hides_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(plugins.DISABLE, "1")
    plugins.refresh()
    try:
        assert "kalah" not in games.names()
        assert games.load("tests/data/gdl/ticTacToe.kif").name == "ticTacToe"  # plies' own
    finally:
        monkeypatch.delenv(plugins.DISABLE)
        plugins.refresh()
    assert "kalah" in games.names()


# --- a broken plug-in, as a user would install one ------------------------------------------------


BROKEN = """\
[plies.games]
broken = plies_brokenplugin:Game
nim = plies_brokenplugin:Nim
"""


def plies_with(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """``plies argv`` in a fresh process that also sees ``plies-brokenplugin``: a
    distribution whose module fails to import, declaring a game and reusing a built-in
    name."""
    dist = tmp_path / "plies_brokenplugin-1.0.dist-info"
    dist.mkdir(exist_ok=True)
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: plies-brokenplugin\nVersion: 1.0\n", encoding="utf-8"
    )
    (dist / "entry_points.txt").write_text(BROKEN, encoding="utf-8")
    (tmp_path / "plies_brokenplugin.py").write_text(
        textwrap.dedent("""\
            import plies_dependency_that_is_not_installed
        """),
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path]),
           "COLUMNS": "1000"}
    return subprocess.run(
        [sys.executable, "-m", "plies", *argv], capture_output=True, text=True, env=env,
        cwd=tmp_path, check=False,
    )


def test_a_broken_plugin_is_listed_with_its_error_and_breaks_nothing_else(
    tmp_path: Path,
) -> None:
    listing = plies_with(tmp_path, "games")
    assert listing.returncode == 0, listing.stderr
    out = " ".join(listing.stdout.split())
    assert (
        "plug-in game 'broken' (plies_brokenplugin:Game, from distribution "
        "plies-brokenplugin) cannot be used: ModuleNotFoundError: No module named "
        "'plies_dependency_that_is_not_installed'"
    ) in out
    assert (
        "plug-in game 'nim' (plies_brokenplugin:Nim, from distribution plies-brokenplugin) "
        "is ignored: 'nim' is a built-in game"
    ) in out
    assert "kalah" in out and "tictactoe" in out
    used = plies_with(tmp_path, "solve", "broken")
    assert used.returncode == 2 and "Traceback" not in used.stderr
    assert used.stderr.startswith("plies: error: plug-in game 'broken' (plies_brokenplugin:Game")
    assert used.stderr.count("\n") == 1
    solved = plies_with(tmp_path, "solve", "nim", "-o", "piles=1,2", "--json")
    assert solved.returncode == 0 and '"value": 1' in solved.stdout
