"""Interrupting ``plies`` from outside: Ctrl-C at any moment, an output whose reader went
away, a closed output.  Each case runs the real command as a process; what it must do is
end quietly (no traceback), with the exit code a shell expects."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
HANG = 60.0  # a command that has not ended this long after it should have hangs


def environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(SRC), *filter(None, [os.environ.get("PYTHONPATH")])]
    )}


def run_into_a_broken_pipe(argv: Sequence[str], stdin: str = "") -> tuple[int, str]:
    """``plies argv`` writing into a pipe whose reader has already gone; (code, stderr)."""
    read, write = os.pipe()
    os.close(read)  # no reader, ever: the first write fails with EPIPE
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "plies", *argv], stdout=write, stderr=subprocess.PIPE,
            input=stdin, text=True, env=environment(), timeout=HANG,
        )
    finally:
        os.close(write)
    return proc.returncode, proc.stderr


def test_a_broken_pipe_on_the_output_ends_the_command_quietly() -> None:
    """Regression: ``plies solve tictactoe --json | head -1`` printed a BrokenPipeError
    traceback when head had gone before plies wrote."""
    code, err = run_into_a_broken_pipe(["solve", "tictactoe", "--json"])
    assert (code, err) == (141, "")
    code, err = run_into_a_broken_pipe(["games"])
    assert (code, err) == (141, "")


def test_plies_uci_with_its_output_broken_or_closed_exits_quietly() -> None:
    """Regression: ``plies uci`` with its output closed died of a BrokenPipeError (or,
    with no stdout at all, an AttributeError) traceback."""
    code, err = run_into_a_broken_pipe(["uci"], "uci\nisready\ngo depth 2\n")
    assert code in (0, 141) and err == ""
    proc = subprocess.run(
        [sys.executable, "-c", "import os, runpy, sys; os.close(1); sys.stdout = None; "
         "sys.argv = ['plies', 'uci']; runpy.run_module('plies', run_name='__main__')"],
        input="uci\nisready\n", capture_output=True, text=True, env=environment(),
        timeout=HANG,
    )
    assert (proc.returncode, proc.stderr) == (0, "")
