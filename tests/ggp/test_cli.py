"""``plies ggp serve``: argument checking in-process, and one real server in a subprocess."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from plies.cli import main
from plies.ggp.manager import post


def test_port_in_use_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["ggp", "serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("plies: error: cannot listen on 127.0.0.1:") and err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["ggp", "serve", "--margin", "-1"], "the margin must be >= 0 seconds"),
        (["ggp", "serve", "--port", "70000"], "ports are 0..65535"),
        (["ggp", "serve", "--mode", "guess"], "invalid choice"),
        (["ggp"], "required"),
    ],
)
def test_bad_arguments(argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert expected in err and err.count("\n") == 1


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_serve_answers_info_and_stops_on_a_signal(stop: signal.Signals) -> None:
    port = _free_port()
    env = {**os.environ, "COLUMNS": "200"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "plies", "ggp", "serve", "--port", str(port), "--name", "tester"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    try:
        for _ in range(200):  # wait for the socket, at most ~10 s
            try:
                reply = post("127.0.0.1", port, "(info)")
                break
            except OSError:
                time.sleep(0.05)
        else:
            pytest.fail("the player never started listening")
        assert reply.body == "((name tester) (status available))"
        assert post("127.0.0.1", port, "(dance)").status == 400
    finally:
        proc.send_signal(stop)
        try:
            out, err = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:  # kill it, so that no pipe or process outlives the test
            proc.kill()
            out, err = proc.communicate()
            pytest.fail(f"the player did not stop on {stop.name}: {out}{err}")
    assert proc.returncode == 0, err
    assert f"listening on http://127.0.0.1:{port}/" in out
    assert "stopped" in out
