"""Running ``plies`` in-process for the CLI tests: ``main([...])`` with captured output.

A test module imports ``plain_pipe`` (an autouse fixture) with the helpers it uses.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from plies.cli import main
from plies.cli.progress import HINT


@pytest.fixture(autouse=True)
def plain_pipe(monkeypatch: pytest.MonkeyPatch) -> None:
    """Output as in a pipe: no forced colour, and a fixed width for the tables."""
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COLUMNS", "100")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """``plies argv``, which must succeed quietly (nothing on stderr); its stdout."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    # No progress bar and no noise outside a terminal.  The one exception is the hint
    # an exact search gives after HINT_AFTER seconds of wall time, which a loaded
    # machine can reach in a test that is quick elsewhere.
    assert err.replace(HINT + "\n", "") == "", err
    return out


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    """``plies argv --json``, parsed."""
    data = json.loads(run(capsys, *argv, "--json"))
    assert isinstance(data, dict)
    return data


def fail(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """``plies argv``, which must fail as a user error; the message after ``plies: error:``."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 2
    assert "Traceback" not in out + err
    assert err.startswith("plies: error: ")
    assert err.endswith("\n") and err.count("\n") == 1, f"not one line: {err!r}"
    return err.removeprefix("plies: error: ").strip()
