"""The faults of issue 11 that took the web app down, each named, on a real uvicorn server.

Every test starts its own server on 127.0.0.1 (:func:`conftest.serving`) with small
budgets, so that it runs in seconds; the server and its worker processes are stopped on
the way out, even when the test fails.  No test asserts a duration beyond a generous
bound: the order of events (a cheap answer arrives while searches still run) says it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from plies.web import api
from plies.web.app import LOOPBACK_HOSTS, create_app
from plies.web.pool import MB
from plies.web.server import connection_cap
from tests.procs import alive, descendants

from .conftest import serving

BOMB = (
    "(role a) (role b) (init s) " + " ".join(f"(n {i})" for i in range(30)) + "\n"
    "(<= (big ?a ?b ?c ?d ?e ?f ?g ?h) (n ?a) (n ?b) (n ?c) (n ?d) (n ?e) (n ?f) (n ?g) (n ?h))\n"
    "(<= terminal (big ?a ?b ?c ?d ?e ?f ?g ?h) (distinct ?a ?a))\n"
    "(<= (legal ?r x) (role ?r))\n(<= (goal ?r 50) (role ?r))\n"
)
"""30 facts and one rule over an 8-way join whose head keeps every variable: 30^8 join
steps to ground, and no shortcut (the issue's 0-arity head now loads at once); nor for the
top-down prover, which grounding falls back to: no binding passes the last check."""
SEARCH = {"game": "connect4", "depth": 40, "time": 3.0}
"""A search that runs its whole time budget (connect4 is far too deep to finish)."""
CHEAP = {"game": "tictactoe", "moves": ["5"]}
GENEROUS = 60.0
"""A bound no healthy run comes near, for the few waits that need one."""


@contextmanager
def app_server(**options: Any) -> Iterator[tuple[str, Any]]:
    """A server of ``create_app(**options)`` (loopback hosts); its URL and its pool."""
    server_options = {k: options.pop(k) for k in ("header_time", "keep_alive", "connections")
                      if k in options}
    app = create_app(allowed_hosts=LOOPBACK_HOSTS, **options)
    with serving(app, **server_options) as url:
        yield url, app.state.pool


def post(url: str, path: str, body: dict[str, Any]) -> httpx.Response:
    with httpx.Client(base_url=url, timeout=GENEROUS) as http:
        return http.post(path, json=body)


def in_threads(*calls: Callable[[], Any]) -> tuple[list[threading.Thread], list[Any]]:
    """Start ``calls`` in threads; their results land in the list, in finishing order."""
    done: list[Any] = []
    threads = [threading.Thread(target=lambda c=c: done.append(c())) for c in calls]
    for t in threads:
        t.start()
    return threads, done


def wait_for(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + GENEROUS
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.02)


def raw(url: str) -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=GENEROUS)
    return sock


def closed_by_server(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes ``sock`` (fails if it never does)."""
    data = b""
    with contextlib.suppress(ConnectionResetError):  # a reset also closes it
        while chunk := sock.recv(65536):
            data += chunk
    return data


# --- searches and the pool -------------------------------------------------------------------


def test_searches_do_not_block_cheap_requests() -> None:
    """Regression: all endpoints shared two threads, so two 5 s searches stalled every page
    load by 5 s.  Three searches (two workers busy, one waiting) and the state of a game
    is still answered at once: every cheap answer arrives before any search ends."""
    with app_server(workers=2) as (url, pool):
        threads, done = in_threads(*[lambda: post(url, "/api/move", SEARCH)] * 3)
        wait_for(lambda: pool.busy == 2 and pool.waiting == 1, "the searches to start")
        with httpx.Client(base_url=url, timeout=GENEROUS) as http:
            cheap = [http.post("/api/state", json=CHEAP) for _ in range(10)]
            catalogue = http.get("/api/games")
            page = http.get("/")
        assert not done, "a search ended before the cheap requests were answered"
        assert [r.status_code for r in cheap] == [200] * 10
        assert catalogue.status_code == 200 and page.status_code == 200
        for t in threads:
            t.join()
        assert [r.status_code for r in done] == [200] * 3


def test_a_full_queue_answers_503_with_retry_after() -> None:
    with app_server(workers=1, queue=1) as (url, pool):
        threads, done = in_threads(*[lambda: post(url, "/api/move", SEARCH)] * 2)
        wait_for(lambda: pool.busy == 1 and pool.waiting == 1, "one search and one waiting")
        turned_away = post(url, "/api/analyze", {"game": "nim"})
        assert turned_away.status_code == 503
        assert int(turned_away.headers["retry-after"]) >= 1
        assert "busy" in turned_away.json()["error"]
        assert post(url, "/api/state", CHEAP).status_code == 200  # cheap: not queued
        for t in threads:
            t.join()
        assert [r.status_code for r in done] == [200, 200]


def test_grounding_bomb_gets_an_error_within_the_budget() -> None:
    """Regression: two requests with this 366-byte description froze the app for every
    user, indefinitely.  Each now gets a one-line 422 at the end of its budget (1 s here),
    other users are served meanwhile, and the workers serve again afterwards."""
    with app_server(workers=2, request_time=1.0) as (url, pool):
        started = time.monotonic()
        threads, done = in_threads(*[lambda: post(url, "/api/state", {"gdl": BOMB})] * 2)
        wait_for(lambda: pool.busy == 2, "the bombs to reach the workers")
        cheap = post(url, "/api/state", CHEAP)
        assert not done and cheap.status_code == 200
        for t in threads:
            t.join()
        assert time.monotonic() - started < GENEROUS
        for response in done:
            assert response.status_code == 422
            assert "budget of" in response.json()["error"]
        again = post(url, "/api/move", {"game": "nim", "depth": 2})
        assert again.status_code == 200


def test_a_worker_that_does_not_stop_is_killed_and_replaced() -> None:
    """The hard guarantee behind the budget: a worker that does not answer within its
    budget plus the grace (here: frozen with SIGSTOP) is killed and a fresh one serves."""
    with app_server(workers=1, request_time=1.0) as (url, pool):
        (frozen,) = pool.pids()
        os.kill(frozen, signal.SIGSTOP)
        response = post(url, "/api/move", {"game": "nim", "depth": 2})
        assert response.status_code == 422
        assert "ran over its budget of 1 s" in response.json()["error"]
        assert pool.stats.killed == 1
        wait_for(lambda: len(pool.pids()) == 1, "a fresh worker")
        assert pool.pids() != [frozen]
        assert post(url, "/api/move", {"game": "nim", "depth": 2}).status_code == 200


def test_a_killed_workers_request_gets_503_with_retry_after_and_a_fresh_worker(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Regression: the request in progress when its worker was killed (by an operator,
    the out-of-memory killer) got a 500 with an id only; it is a 503 the client may
    retry after ``Retry-After`` seconds, and by then a fresh worker serves it."""
    with app_server(workers=1) as (url, pool):
        threads, done = in_threads(lambda: post(url, "/api/move", SEARCH))
        wait_for(lambda: pool.busy == 1, "the search to start")
        (killed,) = pool.pids()
        os.kill(killed, signal.SIGKILL)
        threads[0].join()
        (response,) = done
        assert response.status_code == 503, response.text
        assert int(response.headers["retry-after"]) >= 1
        assert "try again" in response.json()["error"]
        assert pool.stats.died == 1
        assert any(f"worker {killed} ended" in r.getMessage() for r in caplog.records)
        wait_for(lambda: len(pool.pids()) == 1 and pool.pids() != [killed], "a fresh worker")
        assert post(url, "/api/move", {"game": "nim", "depth": 2}).status_code == 200


def test_a_search_is_stopped_when_its_client_goes_away(caplog: pytest.LogCaptureFixture) -> None:
    """The one worker is free again soon after its client hangs up: with no queue, the
    next search would get 503 if the first one still ran."""
    caplog.set_level(logging.INFO, logger="plies.web")
    with app_server(workers=1, queue=0) as (url, pool):
        body = api.encode({**SEARCH, "time": 5.0})
        sock = raw(url)
        sock.sendall(b"POST /api/move HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                     % (len(body), body))
        wait_for(lambda: pool.busy == 1, "the search to start")
        sock.close()
        wait_for(lambda: any("went away during POST /api/move" in r.getMessage()
                             for r in caplog.records), "the server to notice")
        assert pool.stats.killed == 0  # stopped, not killed
        assert post(url, "/api/move", {"game": "nim", "depth": 2}).status_code == 200


def test_a_client_that_leaves_the_queue_frees_its_place(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """One worker, a queue of one: a waiting client hangs up, and the next client gets
    the place in the queue (not 503), then the worker."""
    caplog.set_level(logging.INFO, logger="plies.web")
    with app_server(workers=1, queue=1) as (url, pool):
        threads, done = in_threads(lambda: post(url, "/api/move", SEARCH))
        wait_for(lambda: pool.busy == 1, "the search to start")
        body = api.encode({"game": "nim", "depth": 2})
        sock = raw(url)
        sock.sendall(b"POST /api/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                     % (len(body), body))
        wait_for(lambda: pool.waiting == 1, "the second client to wait")
        sock.close()
        wait_for(lambda: pool.waiting == 0, "the queue to empty")
        assert post(url, "/api/analyze", {"game": "nim", "depth": 2}).status_code == 200
        threads[0].join()
        assert [r.status_code for r in done] == [200]
        assert any("went away during POST /api/analyze" in r.getMessage()
                   for r in caplog.records)


def test_a_worker_over_its_memory_cap_is_stopped_and_replaced() -> None:
    """A request that takes more than the worker's memory (20 MB here) gets a one-line
    422; a worker holding more than half of it after a request is replaced."""
    with app_server(workers=1, memory=20 * MB) as (url, pool):
        first = pool.pids()
        response = post(url, "/api/move", {**SEARCH, "time": 2.0})
        assert response.status_code == 422
        assert "more than 20 MB of memory" in response.json()["error"]
        wait_for(lambda: len(pool.pids()) == 1 and pool.pids() != first, "a fresh worker")
    with app_server(workers=1, memory=40 * MB) as (url, pool):
        first = pool.pids()
        assert post(url, "/api/move", {**SEARCH, "time": 1.0}).status_code == 200
        wait_for(lambda: len(pool.pids()) == 1 and pool.pids() != first, "a fresh worker")
        assert pool.stats.recycled == 1


def test_tree_text_over_the_body_cap_is_refused() -> None:
    text = "(" * 10 + " 1" * api.MAX_TREE_TEXT
    with pytest.raises(api.ApiError, match="longer than 256 KiB") as caught:
        api.state({"tree": text})
    assert caught.value.status == 413
    assert api.MAX_TREE_TEXT == api.MAX_BODY


# --- connections -----------------------------------------------------------------------------


def test_idle_connection_times_out() -> None:
    """Regression: a connection that sent nothing stayed open forever."""
    with app_server(header_time=0.5) as (url, _):
        sock = raw(url)
        try:
            assert closed_by_server(sock) == b""
        finally:
            sock.close()


def test_slow_headers_time_out() -> None:
    """A slowloris: a header line every 0.1 s never completes a request within 1 s."""
    with app_server(header_time=1.0) as (url, _):
        sock = raw(url)
        try:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            with pytest.raises(OSError):  # the server closes: a write fails at last
                for i in range(int(GENEROUS * 10)):
                    sock.sendall(b"X-Slow-%d: 1\r\n" % i)
                    time.sleep(0.1)
        finally:
            sock.close()


def test_a_slow_body_gets_408_and_the_connection_closes() -> None:
    with app_server(body_time=0.5) as (url, _):
        sock = raw(url)
        try:
            sock.sendall(b"POST /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
            answer = closed_by_server(sock)
        finally:
            sock.close()
        assert answer.startswith(b"HTTP/1.1 408 ")
        assert b"the body took more than 0.5 s to arrive" in answer


def test_client_disconnect_mid_body_is_one_log_line(caplog: pytest.LogCaptureFixture) -> None:
    """Regression: a client that went away mid-body was "internal error" plus 80 lines of
    traceback (1,100 slow clients wrote 434 MB of log in 45 s)."""
    caplog.set_level(logging.INFO)
    uvicorn_log = logging.getLogger("uvicorn.error")
    uvicorn_log.addHandler(caplog.handler)
    try:
        with app_server() as (url, _):
            sock = raw(url)
            sock.sendall(b"POST /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"g")
            time.sleep(0.2)
            sock.close()
            wait_for(lambda: any("went away" in r.getMessage() for r in caplog.records),
                     "the log line")
            assert post(url, "/api/state", CHEAP).status_code == 200
    finally:
        uvicorn_log.removeHandler(caplog.handler)
    lines = [r for r in caplog.records if r.name.startswith(("plies", "uvicorn"))]
    assert [r.getMessage().split(":")[0] for r in lines] == ["client 127.0.0.1"]
    assert "went away while sending POST /api/state" in lines[0].getMessage()
    assert lines[0].exc_info is None and "\n" not in lines[0].getMessage()


def test_open_connections_are_capped_below_the_file_descriptor_limit() -> None:
    assert connection_cap(1024) == 896 and connection_cap(20) == 8
    assert connection_cap(1_000_000) == 1024
    with app_server(connections=3, header_time=GENEROUS) as (url, _):
        held = [raw(url) for _ in range(3)]
        try:
            extra = raw(url)
            assert closed_by_server(extra) == b""  # closed at once, never served
            extra.close()
            held[0].sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert held[0].recv(12) == b"HTTP/1.1 200"
        finally:
            for sock in held:
                sock.close()


# --- the process tree ------------------------------------------------------------------------


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads the process tree from /proc")
@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL],
                         ids=["SIGINT", "SIGTERM", "SIGKILL"])
def test_worker_processes_die_with_the_server(how: signal.Signals) -> None:
    """Ctrl-C, SIGTERM and even SIGKILL of `plies web` while both workers search: the
    command ends (at once for a signal it handles) and leaves no process behind."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "plies", "web", "--port", "0", "--no-browser"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    family: set[int] = set()
    threads: list[threading.Thread] = []
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().split()[4].rstrip("/")
        assert post(url, "/api/state", CHEAP).status_code == 200

        def search() -> None:
            with contextlib.suppress(httpx.HTTPError):  # the server goes away: expected
                post(url, "/api/move", {**SEARCH, "time": 5.0})
        threads, _ = in_threads(search, search)
        wait_for(lambda: len(descendants(proc.pid)) >= 3, "the workers")
        time.sleep(0.5)
        family = descendants(proc.pid)
        proc.send_signal(how)
        proc.wait(timeout=GENEROUS)
        wait_for(lambda: not any(alive(p) for p in family), "every worker to end")
        if how != signal.SIGKILL:
            assert proc.stderr is not None
            assert "Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in family:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        for t in threads:
            t.join()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def test_games_the_server_added_are_searched_in_the_workers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`plies web --game buttons.kif`: the workers load the server's games too."""
    monkeypatch.setattr(api, "SERVED", {})
    spec = str(Path(__file__).parents[1] / "data" / "gdl" / "buttons.kif")
    (name,) = api.serve_games([spec])
    with app_server(workers=1, specs=[spec]) as (url, _):
        answer = post(url, "/api/move", {"game": name, "depth": 3})
        assert answer.status_code == 200, answer.text
        assert answer.json()["by"] == "engine"


def test_the_workers_read_the_plug_ins_the_server_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers fork from one forkserver per process, which keeps the environment it
    started with; a server started after ``PLIES_DISABLE_PLUGINS`` changed still searches
    with its own setting (the test plug-in's algorithm is known, or not, in both)."""
    from plies import plugins

    body = {"game": "tictactoe", "algorithm": "negamax-plugin", "depth": 2}
    try:
        for disabled in (True, False, True):  # the forkserver started under either one
            if disabled:
                monkeypatch.setenv(plugins.DISABLE, "1")
            else:
                monkeypatch.delenv(plugins.DISABLE, raising=False)
            plugins.refresh()
            with app_server(workers=1) as (url, _):
                listed = "negamax-plugin" in httpx.get(f"{url}/api/games").json()["algorithms"]
                answer = post(url, "/api/move", body)
            assert listed is not disabled
            if disabled:
                assert answer.status_code == 422
                assert "unknown algorithm 'negamax-plugin'" in answer.json()["error"]
            else:
                assert answer.status_code == 200, answer.text
    finally:
        monkeypatch.delenv(plugins.DISABLE, raising=False)
        plugins.refresh()
