"""Interrupting ``plies`` from outside: Ctrl-C at any moment, an output whose reader went
away, a closed output.  Each case runs the real command as a process; what it must do is
end quietly (no traceback), with the exit code a shell expects."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
HANG = 60.0  # a command that has not ended this long after it should have hangs
DEFAULT_SIGINT = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)
"""Run the rest of the command line with SIGINT's default disposition (a background job
starts with SIGINT ignored; see tests/parallel/test_ctrl_c.py)."""


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


@pytest.mark.parametrize("imports", [0, 20, 80, 170, 400, 700])
def test_ctrl_c_while_plies_starts_is_quiet(imports: int) -> None:
    """Regression: Ctrl-C in the first second (while plies imports, before ``main`` runs)
    printed a KeyboardInterrupt traceback.  The moment is chosen by condition: Python's
    ``-X importtime`` reports each import as it ends; SIGINT goes once ``imports`` more
    modules have been imported after :mod:`plies._startup` (the first module of plies;
    what comes before it is Python's own start).  A Connect Four solve imports some 800
    modules after it: 0 lands in plies' own imports, 170 around the command's parser, 700
    in Numba's."""
    proc = subprocess.Popen(
        [sys.executable, "-c", DEFAULT_SIGINT, sys.executable, "-X", "importtime", "-m",
         "plies", "solve", "connect4", "--moves", "4 4 5 3"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=environment(),
    )
    assert proc.stderr is not None
    try:
        seen = None
        for line in proc.stderr:
            if seen is None and line.rstrip().endswith("plies._startup"):
                seen = 0
            elif seen is not None and line.startswith("import time:"):
                seen += 1
            if seen is not None and seen >= imports:
                break
        assert seen is not None and seen >= imports, "plies ended before it was interrupted"
        proc.send_signal(signal.SIGINT)
        rest = proc.stderr.read()
        code = proc.wait(timeout=HANG)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
    said = [line for line in rest.splitlines() if not line.startswith("import time:")]
    assert "Traceback" not in rest
    assert said == ["plies: interrupted"]
    # Interrupted inside some of Numba's imports, Python ends the process by SIGINT
    # after main has returned 130: quiet too, and 130 to a shell.
    assert code in (130, -signal.SIGINT)
