"""``plies web`` as a real server: uvicorn on 127.0.0.1, over real HTTP; and its command."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from typing import Any

import httpx2 as httpx
import pytest

from plies.cli import main
from plies.cli.web import is_loopback, listen


def test_the_server_keeps_serving_after_bad_requests(live_server: str) -> None:
    with httpx.Client(base_url=live_server, timeout=30) as http:
        bad = [
            http.post("/api/state", content=b"{", headers={"content-type": "application/json"}),
            http.post("/api/state", json={"game": "shogi"}),
            http.post("/api/move", json={"game": "tictactoe", "moves": ["5", "5"]}),
            http.post("/api/state", content=b"x" * 300_000,
                      headers={"content-type": "application/json"}),
            http.get("/api/move"),
        ]
        assert [r.status_code for r in bad] == [400, 422, 422, 413, 405]
        assert all("error" in r.json() for r in bad)
        good = http.post("/api/move", json={"game": "tictactoe", "moves": ["5"], "depth": 2})
        assert good.status_code == 200 and good.json()["by"] == "engine"
        assert http.get("/").status_code == 200


def test_a_host_name_other_than_loopback_is_refused(live_server: str) -> None:
    with httpx.Client(base_url=live_server, timeout=30) as http:
        response = http.get("/api/games", headers={"host": "attacker.example"})
        assert response.status_code == 400


def test_requests_are_served_while_searches_run(live_server: str) -> None:
    """Long searches run in worker threads: other requests are answered meanwhile."""
    results: list[Any] = []

    def search() -> None:
        with httpx.Client(base_url=live_server, timeout=30) as http:
            body = {"game": "connect4", "depth": 40, "time": 1.0}
            results.append(http.post("/api/move", json=body).json()["search"])

    threads = [threading.Thread(target=search) for _ in range(3)]
    for t in threads:
        t.start()
    with httpx.Client(base_url=live_server, timeout=30) as http:
        for _ in range(5):
            assert http.post("/api/state", json={"game": "nim"}).status_code == 200
    for t in threads:
        t.join()
    assert len(results) == 3
    assert all(r["stopped_early"] and r["limit"]["time"] == 1.0 for r in results)


# --- the command ---------------------------------------------------------------------------


def test_plies_web_serves_until_interrupted() -> None:
    """The real command on a free port: it prints its URL, serves, and stops on Ctrl+C."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "plies", "web", "--port", "0", "--no-browser"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("plies web: serving on http://127.0.0.1:"), line
        url = line.split()[4]
        with httpx.Client(base_url=url, timeout=30) as http:
            games = http.get("/api/games").json()["games"]
            assert "tictactoe" in [g["name"] for g in games]
        proc.send_signal(signal.SIGINT)  # Ctrl+C: a clean shutdown, then the usual 130
        assert proc.wait(timeout=30) == 130
        assert proc.stderr is not None and proc.stderr.read() == "plies: interrupted\n"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def test_plies_web_refuses_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["web", "--port", "70000", "--no-browser"]) == 2
    err = capsys.readouterr().err
    assert err == ("plies: error: argument --port: a port is 0..65535 (0: any free port), "
                   "got 70000 (see 'plies web --help')\n")


def test_plies_web_refuses_a_port_in_use(capsys: pytest.CaptureFixture[str]) -> None:
    sock = listen("127.0.0.1", 0)
    sock.listen()
    try:
        port = sock.getsockname()[1]
        assert main(["web", "--port", str(port), "--no-browser"]) == 2
    finally:
        sock.close()
    err = capsys.readouterr().err
    assert err.startswith(f"plies: error: cannot listen on 127.0.0.1:{port}: ")
    assert err.endswith("try another --port\n") and err.count("\n") == 1


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("127.1.2.3", True), ("::1", True), ("localhost", True),
     ("0.0.0.0", False), ("192.168.1.5", False), ("example.com", False)],
)
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_games_added_by_a_server_leave_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """``plies web --game SPEC`` run in-process (a notebook, a test) offers the game while
    it serves; a later server in the same process starts without it."""
    import plies.cli.web as web_cli
    from plies.web import api

    class Stop(Exception):
        pass

    seen = []

    def serve(console: object, args: object, added: list[str]) -> int:
        seen.append((list(added), "kayles" in api.SERVED))
        raise Stop

    monkeypatch.setattr(web_cli, "_serve", serve)
    with pytest.raises(Stop):
        main(["web", "--game", "tests.kayles:Kayles", "--no-browser", "--port", "0"])
    assert seen == [(["kayles"], True)]
    assert "kayles" not in api.SERVED
