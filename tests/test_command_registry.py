"""The command registry (plies.cli.registry): commands by entry point, imported lazily, and
a plug-in command that cannot be used breaks nothing else."""

from __future__ import annotations

import subprocess
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from plies.cli import COMMAND_MODULES, main
from plies.cli.registry import BUILTIN, COMMANDS
from tests.clirun import fail, plain_pipe, run  # noqa: F401 (autouse fixture)

SRC = Path(__file__).resolve().parents[1] / "src" / "plies"


def help_text(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "--help"])
    assert exit_.value.code == 0
    return " ".join(capsys.readouterr().out.split())  # argparse wraps the help lines


def hello_module() -> types.ModuleType:
    """A command module made at run time: ``hello NAME`` greets NAME."""
    module = types.ModuleType("hello_command")

    def register(sub: Any, common: Any) -> None:
        parser = sub.add_parser("hello", help="say hello to someone")
        parser.add_argument("who")

    def run(console: Any, args: Any) -> int:
        console.print(f"hello, {args.who}")
        return 0

    module.register = register  # type: ignore[attr-defined]
    module.run = run  # type: ignore[attr-defined]
    return module


@pytest.fixture
def registered() -> Iterator[list[str]]:
    """Names registered by a test, unregistered afterwards."""
    names: list[str] = []
    yield names
    for name in names:
        COMMANDS.unregister(name)


def test_help_lists_every_command_of_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    out = help_text(capsys)
    for name in COMMANDS.names():
        assert name in out
    assert list(BUILTIN) == COMMANDS.names()[: len(BUILTIN)]  # built-ins first, in order


def test_ggp_is_a_command_by_entry_point_and_the_cli_names_no_ggp_module() -> None:
    entry = COMMANDS.entry("ggp")
    assert entry is not None and not entry.builtin
    assert entry.target == "plies.ggp.cli" and entry.distribution == "plies"
    assert COMMAND_MODULES["ggp"] == "plies.ggp.cli"
    for path in (SRC / "cli").glob("*.py"):
        assert "plies.ggp" not in path.read_text(encoding="utf-8"), path


def test_a_command_line_imports_only_its_command() -> None:
    code = (
        "import sys\n"
        "from plies.cli import main\n"
        "main(['games'])\n"
        "loaded = sorted(n for n in sys.modules if n.startswith(('plies.cli.', 'plies.ggp')))\n"
        "print(loaded, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    loaded = eval(done.stderr.strip().splitlines()[-1])  # a printed list of names
    assert "plies.cli.games" in loaded
    assert not {"plies.cli.tournament", "plies.cli.web", "plies.cli.learn"} & set(loaded)
    assert not [name for name in loaded if name.startswith("plies.ggp")]


def test_a_command_registered_at_run_time_is_listed_and_runs(
    capsys: pytest.CaptureFixture[str], registered: list[str]
) -> None:
    COMMANDS.register("hello", hello_module())
    registered.append("hello")
    assert "say hello to someone" in help_text(capsys)
    assert run(capsys, "hello", "world") == "hello, world\n"


@pytest.mark.parametrize(
    ("target", "problem"),
    [
        ("plies_no_such_package.cli",
         "ModuleNotFoundError: No module named 'plies_no_such_package'"),
        ("plies.errors", "module plies.errors has no register(sub, common) function"),
        ("plies.errors:PliesError", "a command is a module with register() and run()"),
    ],
)
def test_a_broken_command_is_listed_with_its_problem_and_breaks_nothing_else(
    capsys: pytest.CaptureFixture[str], registered: list[str], target: str, problem: str
) -> None:
    COMMANDS.register("broken", target)
    registered.append("broken")
    listing = help_text(capsys)
    assert "broken" in listing and problem in listing
    message = fail(capsys, "broken", "--some", "arguments")
    assert message.startswith("plug-in command 'broken' (") and problem in message
    assert "cannot be used" in message
    assert "X" in run(capsys, "solve", "tictactoe", "--depth", "1")  # the others still work


def test_a_register_that_raises_is_reported(
    capsys: pytest.CaptureFixture[str], registered: list[str]
) -> None:
    module = hello_module()

    def register(sub: Any, common: Any) -> None:
        raise RuntimeError("no parser for you")

    module.register = register  # type: ignore[attr-defined]
    COMMANDS.register("hello", module)
    registered.append("hello")
    assert "register() raised RuntimeError: no parser for you" in help_text(capsys)
    assert "no parser for you" in fail(capsys, "hello", "world")
