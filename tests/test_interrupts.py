"""Interrupting ``plies`` from outside: Ctrl-C at any moment, an output whose reader went
away, a closed output.  Each case runs the real command as a process; what it must do is
end quietly (no traceback), with the exit code a shell expects."""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from plies.budget import BudgetExceeded
from plies.cli import args as cli_args
from plies.cli import main

SRC = Path(__file__).resolve().parents[1] / "src"
HANG = 60.0  # a command that has not ended this long after it should have hangs
DEFAULT_SIGINT = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)
"""Run the rest of the command line with SIGINT's default disposition (a background job
starts with SIGINT ignored; see tests/parallel/test_ctrl_c.py)."""


def run_script(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -c script args`` with plies importable; its output is captured."""
    return subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True,
        env=environment(), timeout=HANG,
    )


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


def time_args(**given: Any) -> argparse.Namespace:
    base = {"game": "tictactoe", "option": [], "depth": None, "nodes": None, "unit": "ply",
            "algorithm": "auto", "player": None, "tie": "first", "seed": None, "moves": ""}
    return argparse.Namespace(**{**base, **given})


def test_time_is_the_whole_commands_budget_loading_included() -> None:
    """Regression: ``--time`` started counting when the game began to build, so what the
    command spent before (reading its input, parsing) and after (a weights file) was not
    in it.  It counts from the command's start (``args.started``, set by main): the
    game's source gets what is left, and the search what is left after that."""
    args = time_args(time=5.0, started=time.monotonic() - 4.0)  # 4 s already gone
    budget = cli_args.build_budget(args)
    assert budget is not None and budget.seconds is not None and budget.seconds <= 1.0
    game = cli_args.game_of(args)
    request = cli_args.request_of(args, game, game.initial_state())
    assert request.limit is not None and request.limit.time is not None
    assert request.limit.time <= 1.0
    late = time_args(time=5.0, started=time.monotonic() - 6.0)
    with pytest.raises(BudgetExceeded, match=r"--time 5 s ran out before the game was loaded"):
        cli_args.game_of(late)


def test_time_covers_a_users_slow_factory(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "slowgame.py").write_text(
        "import time\nfrom plies.games.nim import Nim\n"
        "def make():\n    time.sleep(0.5)\n    return Nim((3, 4))\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert main(["solve", "slowgame:make", "--time", "0.3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("plies: error: building the game took ")
    assert err.endswith("all of --time 0.3 s; nothing is left for the search\n")


@pytest.mark.parametrize(("module", "text", "spec"), [
    ("loopsinfactory", "def make():\n    while True:\n        pass\n", "loopsinfactory:make"),
    ("loopsonimport", "while True:\n    pass\n", "loopsonimport:Game"),
])
def test_time_stops_a_users_code_that_never_returns_while_the_game_loads(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    module: str, text: str, spec: str,
) -> None:
    """Regression: ``--time`` did not cover loading the game: a factory (or a module)
    that never returned hung ``plies solve`` whatever ``--time`` said.  Code that does not
    count its steps is stopped by the backstop (twice what was left, plus 1 s)."""
    (tmp_path / f"{module}.py").write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(sys.modules, module, raising=False)
    assert main(["solve", spec, "--time", "0.2"]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"plies: error: loading the game {spec!r} did not end within --time 0.2 s (stopped "
        f"after 2 times what was left, plus 1 s)\n"
    )
    if spec.endswith(":Game"):  # stopped while importing: no half-imported module stays
        assert module not in sys.modules
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) == signal.SIG_DFL


def test_ctrl_c_while_the_command_makes_its_consoles_is_quiet(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """Regression: Rich reads the terminal when a console is made, before the command's
    own Ctrl-C handler is in place; a Ctrl-C at that moment was a traceback (seen once in
    tests/hostile/test_ctrl_c.py on a loaded machine)."""
    module = importlib.import_module("plies.cli.main")  # plies.cli.main is the function

    def interrupted(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(module, "_Output", interrupted)
    assert main(["solve", "tictactoe"]) == 130
    out, err = capfd.readouterr()
    assert (out, err) == ("", "plies: interrupted\n")


INTERRUPT_IN_A_WEAKREF_CALLBACK = """
import os, signal, weakref
from plies.cli.main import ctrl_c_twice_exits

class Thing:
    pass

def callback(ref):  # Python cannot raise out of a weakref callback
    os.kill(os.getpid(), signal.SIGINT)
    for _ in range(100_000):  # the handler runs here, inside the callback
        pass

with ctrl_c_twice_exits():
    thing = Thing()
    ref = weakref.ref(thing, callback)
    del thing
    print("not interrupted", flush=True)
"""


def test_ctrl_c_that_lands_in_a_weakref_callback_ends_the_command_quietly() -> None:
    """Regression (a CI run): Ctrl-C while the import machinery ran one of its weakref
    callbacks printed "Exception ignored ... Traceback ... KeyboardInterrupt", and the
    command went on as if not interrupted."""
    done = run_script(INTERRUPT_IN_A_WEAKREF_CALLBACK)
    assert "Traceback" not in done.stderr
    assert done.stderr == "plies: interrupted\n"
    assert "not interrupted" not in done.stdout
    assert done.returncode == 130


INTERRUPT_IN_AN_IMPORT = """
import os, signal, sys, time
from plies.cli.main import ctrl_c_twice_exits

sys.path.insert(0, sys.argv[1])
with ctrl_c_twice_exits():
    try:
        import slowly  # its body presses Ctrl-C
        ends = time.monotonic() + 30
        while time.monotonic() < ends:  # the interrupt lands here, after the import
            pass
        outcome = "not interrupted"
    except KeyboardInterrupt:
        outcome = "interrupted"
print(outcome, "after the import" if getattr(sys.modules.get("slowly"), "FINISHED", False)
      else "inside the import")
"""

SLOWLY = """
import os, signal, time
os.kill(os.getpid(), signal.SIGINT)
ends = time.monotonic() + 0.3
while time.monotonic() < ends:  # the handler runs here, inside the import
    pass
FINISHED = True
"""


def test_ctrl_c_that_lands_in_an_import_is_raised_once_the_import_is_over(
    tmp_path: Path,
) -> None:
    """Regression (a CI run, ``plies solve connect4`` interrupted at 0.73 s): Ctrl-C in
    an import that Numba's compiled extension made from C (NumPy's ``import_array``) was
    printed as a traceback and turned into an ``ImportError``; plies took Numba for
    missing and went on solving in Python."""
    (tmp_path / "slowly.py").write_text(SLOWLY)
    done = run_script(INTERRUPT_IN_AN_IMPORT, str(tmp_path))
    assert done.stdout == "interrupted after the import\n"
    assert done.stderr == ""
    assert done.returncode == 0


TWO_CTRL_C_IN_AN_IMPORT = """
import sys
from plies.cli.main import ctrl_c_twice_exits

sys.path.insert(0, sys.argv[1])
with ctrl_c_twice_exits():
    import twice
    print("imported", flush=True)
"""

TWICE = """
import os, signal, time
os.kill(os.getpid(), signal.SIGINT)
time.sleep(0.2)
os.kill(os.getpid(), signal.SIGINT)  # a second Ctrl-C while the first waits
ends = time.monotonic() + 30
while time.monotonic() < ends:
    pass
"""


def test_a_second_ctrl_c_while_the_first_waits_for_an_import_exits_at_once(
    tmp_path: Path,
) -> None:
    (tmp_path / "twice.py").write_text(TWICE)
    started = time.monotonic()
    done = run_script(TWO_CTRL_C_IN_AN_IMPORT, str(tmp_path))
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "plies: interrupted\n")
    assert time.monotonic() - started < 25  # not the end of the module's 30 s loop


FINALIZER_AFTER_CTRL_C = """
import os, signal
from plies.cli.main import ctrl_c_twice_exits

class HalfMade:  # as llvmlite's ObjectRef when an interrupt lands in its __init__
    def __init__(self):
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1_000_000):
            pass
        self.handle = 1

    def __del__(self):
        del self.handle  # AttributeError: __init__ never got that far

with ctrl_c_twice_exits():
    try:
        HalfMade()
    except KeyboardInterrupt:
        print("interrupted", flush=True)
"""


def test_finalizers_failing_after_ctrl_c_print_nothing() -> None:
    """Regression: a Ctrl-C while Numba compiled left an llvmlite object half-made, and
    its ``__del__`` printed "Exception ignored ... Traceback ... AttributeError"."""
    done = run_script(FINALIZER_AFTER_CTRL_C)
    assert (done.returncode, done.stdout, done.stderr) == (0, "interrupted\n", "")


CTRL_C_IN_THE_LAST_IMPORT = """
import sys, time
from plies.cli.main import ctrl_c_twice_exits

sys.path.insert(0, sys.argv[1])
with ctrl_c_twice_exits():
    import lastly  # its body presses Ctrl-C, and the block ends with the import
print("after the block", flush=True)
time.sleep(0.3)  # the waiting Ctrl-C's next look would have come by now
print("done", flush=True)
"""

LASTLY = """
import os, signal
os.kill(os.getpid(), signal.SIGINT)
for _ in range(1000):  # the handler runs here, inside the import
    pass
"""


def test_a_ctrl_c_still_waiting_for_an_import_when_the_command_ends_is_not_raised(
    tmp_path: Path,
) -> None:
    """The command's work was done: a traceback from Python's own handler after it (the
    waiting Ctrl-C's next look) would be the only thing the user sees."""
    (tmp_path / "lastly.py").write_text(LASTLY)
    done = run_script(CTRL_C_IN_THE_LAST_IMPORT, str(tmp_path))
    assert (done.returncode, done.stdout, done.stderr) == (0, "after the block\ndone\n", "")
