"""``plies completion bash|zsh``: the scripts are run by the real shells and asked what
they complete."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from plies.cli.completion import script
from plies.games.registry import names as game_names
from tests.clirun import fail, plain_pipe, run  # noqa: F401 (autouse fixture)

CASES = {
    "plies so": "solve",
    "plies solve tic": "tictactoe",
    "plies solve tictactoe --ti": "--time --tie",
    "plies solve tictactoe --tie ": "first random",
    "plies solve tictactoe -a alpha": "alphabeta",
    "plies ggp s": "serve",
    "plies ggp serve --po": "--port",
    "plies tree nim --fo": "--format --force",
    "plies tree nim --format ": "dot json svg",
    "plies completion ": "bash zsh",
}


def complete(shell: str, source: Path, line: str) -> str:
    """What ``shell`` completes at the end of ``line``, with the script ``source``."""
    words = line.split(" ")  # a trailing space leaves an empty word: the one completed
    quoted = " ".join(f"'{word}'" for word in words)
    body = (
        f"COMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}; COMPREPLY=(); _plies; "
        'echo "${COMPREPLY[*]}"'
    )
    if shell == "bash":
        argv = ["bash", "--norc", "-c", f"source {source}; {body}"]
    else:  # zsh runs the bash function through bashcompinit, with 0-based arrays
        argv = ["zsh", "-f", "-c", "autoload -U compinit && compinit -u -D; "
                f"source {source}; setopt ksharrays; {body}"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=True,
                          cwd=source.parent)
    assert done.stderr == ""
    return done.stdout.strip()


def test_bash_completes_commands_options_choices_algorithms_and_games(tmp_path: Path) -> None:
    source = tmp_path / "plies.bash"
    source.write_text(script("bash"))
    for line, expected in CASES.items():
        assert complete("bash", source, line) == expected, line
    # a game by name, or a file (a tree, a .kif, your .py)
    assert complete("bash", source, "plies solve ").split() == [*game_names(), "plies.bash"]
    assert complete("bash", source, "plies learn othello --out pl") == "plies.bash"


def test_zsh_offers_the_same_words(tmp_path: Path) -> None:
    if shutil.which("zsh") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("zsh is not installed (.ci/run installs it)")
        pytest.skip("zsh is not installed")
    source = tmp_path / "_plies"
    source.write_text(script("zsh"))
    assert source.read_text().startswith("#compdef plies\n")
    # zsh's own matching filters by the typed prefix; the words offered are the same.
    assert complete("zsh", source, "plies solve tictactoe --tie ") == "first random"
    assert complete("zsh", source, "plies ggp ") == "match serve"
    assert "--port" in complete("zsh", source, "plies ggp serve --po").split()


def test_the_command_prints_the_script(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "completion", "bash") == script("bash")
    assert "invalid choice: 'fish'" in fail(capsys, "completion", "fish")
