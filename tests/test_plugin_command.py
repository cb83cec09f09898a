"""The test plug-in's command (tests/plugin: ``plies hello-plugin``, added by entry point)
is listed by ``plies --help`` and runs like a built-in one, with the shared arguments."""

from __future__ import annotations

import pytest

from plies.cli import main
from plies.cli.registry import COMMANDS
from tests.clirun import fail, plain_pipe, run  # noqa: F401 (autouse fixture)


def test_it_is_registered_by_its_distribution() -> None:
    entry = COMMANDS.entry("hello-plugin")
    assert entry is not None and entry.distribution == "plies-testplugin"
    assert entry.target == "plies_testplugin.hello"


def test_help_lists_it(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "hello-plugin say what a game looks like from its start (a plug-in command)" in out


def test_it_runs_with_the_shared_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "hello-plugin", "nim", "-o", "piles=1,2")
    assert out == ("hello from plies-testplugin: nim, 2 players; P0 to move; "
                   "legal moves: 1:1 2:1 2:2\n")
    out = run(capsys, "hello-plugin", "tictactoe", "--moves", "5 1 9")
    assert out == ("hello from plies-testplugin: tictactoe, 2 players; O to move; "
                   "legal moves: 2 3 4 6 7 8\n")
    assert fail(capsys, "hello-plugin", "tictactoe", "--moves", "5 5").startswith("illegal move")
    out = run(capsys, "hello-plugin", "kalah", "-o", "pits=3")  # the plug-in's own game
    assert out == ("hello from plies-testplugin: kalah, 2 players; South to move; "
                   "legal moves: 1 2 3\n")
