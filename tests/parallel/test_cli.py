"""``plies tournament`` and ``plies analyze --file``, run in-process with ``main([...])``."""

from __future__ import annotations

import io
import json
import socket
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from rich.console import Console

from plies.cli.tournament import progress_bar
from tests.clirun import fail, plain_pipe, run  # noqa: F401 (autouse fixture)

TOURNAMENT = ["tournament", "tictactoe", "--agent", "alphabeta:depth=2", "--agent",
              "random", "--games", "2", "--seed", "3", "--workers", "1"]


def test_tournament_tables(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, *TOURNAMENT)
    assert out.startswith("tictactoe: 2 agents, 4 games (2 per pairing and seat order), seed 3,"
                          " 1 worker (this process)")
    for text in ("standings", "alphabeta:depth=2", "random", "pairs (each pair in every seat "
                 "order)", "seats (whoever sat there)", "Elo: Bradley-Terry maximum a "
                 "posteriori fit"):
        assert text in out
    assert "not reproducible" not in out


def test_tournament_json_is_the_library_result(capsys: pytest.CaptureFixture[str]) -> None:
    from plies.parallel import LocalBackend
    from plies.tournament import tournament

    data = json.loads(run(capsys, *TOURNAMENT, "--json"))
    direct = tournament("tictactoe", ["alphabeta:depth=2", "random"], rounds=2, seed=3,
                        backend=LocalBackend(1)).as_dict()
    for key in ("standings", "pairs", "seats", "records", "agents", "seed"):
        assert data[key] == direct[key]
    assert data["plot"] is None
    games = [s["games"] for s in data["standings"]]
    assert games == [4, 4]


def test_time_budgets_are_flagged(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "tournament", "nim", "-o", "piles=1,2", "--agent",
              "alphabeta:time=0.05", "--agent", "random", "--games", "1", "--workers", "1")
    assert "note: agents limited by time= depend on the machine's speed" in out


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_plot_files(capsys: pytest.CaptureFixture[str], tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"elo{suffix}"
    out = run(capsys, *TOURNAMENT, "--plot", str(path))
    assert f"plot: {path}" in out
    data = path.read_bytes()
    if suffix == ".png":
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 5000
    else:
        root = ET.fromstring(data)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert b"alphabeta:depth=2" in data  # labels are text, not paths
        assert b"<dc:date>" not in data  # reproducible: no timestamp


def test_analyze_file_matches_analyze_moves(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "positions.txt"
    path.write_text("# three positions\n-\n5\n5 1 9\n")
    data = json.loads(run(capsys, "analyze", "tictactoe", "--file", str(path), "--workers",
                          "1", "--json"))
    assert [p["line"] for p in data["positions"]] == [2, 3, 4]
    for position, moves in zip(data["positions"], ["", "5", "5 1 9"], strict=True):
        one = json.loads(run(capsys, "analyze", "tictactoe", "--moves", moves, "--json"))
        for key in ("action_values", "value", "action", "pv", "player", "exact"):
            assert position[key] == one[key]
    table = run(capsys, "analyze", "tictactoe", "--file", str(path), "--workers", "1")
    assert "tictactoe: the value of every move (alphabeta, for the player to move)" in table
    assert "1:0  2:-1  3:0  4:-1  6:-1  7:0  8:-1  9:0" in table
    assert "3 positions, " in table


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--agent", "alphabeta:dept=2", "--agent", "random"], "unknown key 'dept'"),
        (["--agent", "nosuch", "--agent", "random"], "unknown algorithm 'nosuch'"),
        (["--agent", "alphabeta:depth=two", "--agent", "random"], "bad value 'two' for depth"),
        (["--agent", "random"], "a tournament needs at least two agents"),
        (["--agent", "random", "--agent", "random", "--workers", "0"],
         "--workers must be at least 1"),
        (["--agent", "random", "--agent", "random", "--plot", "elo.pdf"],
         "the file name must end in .png or .svg"),
        (["--agent", "random", "--agent", "random", "--ray", "nohost:port"],
         "bad Ray address 'nohost:port'"),
        (["--agent", "random", "--agent", "random", "-o", "size=4"],
         "unknown option 'size' for tictactoe; tictactoe takes no options"),
    ],
)
def test_tournament_errors(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert message in fail(capsys, "tournament", "tictactoe", *argv)


def test_errors_for_chance_games_and_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert "cannot play pig: alphabeta cannot search chance nodes" in fail(
        capsys, "tournament", "pig", "--agent", "alphabeta:depth=2", "--agent", "random"
    )
    path = tmp_path / "bad.txt"
    path.write_text("5\n5 5\n")
    message = fail(capsys, "analyze", "tictactoe", "--file", str(path))
    assert message.startswith(f"illegal move '5' (move 2 at {path}:2); legal moves: 1, 2")
    assert "do not mix" in fail(capsys, "analyze", "tictactoe", "--file", str(path),
                                "--moves", "5")


def test_missing_ray_and_matplotlib(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    assert "Ray is not installed; install plies[ray]" in fail(capsys, *TOURNAMENT, "--ray")
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    message = fail(capsys, *TOURNAMENT, "--plot", str(tmp_path / "x.png"))
    assert message.startswith("matplotlib is not installed; install plies[plot]")


def test_unreachable_ray_address(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as s:  # a port on this machine that nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    message = fail(capsys, *TOURNAMENT[:-2], "--ray", f"127.0.0.1:{port}")
    assert message.startswith(f"cannot reach a Ray cluster at 127.0.0.1:{port}: ")


def test_progress_bar_in_a_terminal() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=80)
    with progress_bar(3, "games", console) as advance:
        for _ in range(3):
            advance(1)
    text = out.getvalue()
    assert "games" in text and "3/3" in text
    quiet = Console(file=io.StringIO(), force_terminal=False)
    with progress_bar(3, "games", quiet) as advance:
        advance(3)
    assert quiet.file.getvalue() == ""  # type: ignore[attr-defined]
