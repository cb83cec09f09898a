#!/usr/bin/env python3
"""The web app under load: does a cheap request stay cheap while others search?

    make bench                                     # runs this after the side-by-side run
    PYTHONPATH=src python benchmarks/web_load.py [--seconds 12] [--users 0,2,6,30] [--workers 2]
                                                   [--skip burst,bomb,memory] [--out FILE]

Starts the real command (``plies web --port 0 --no-browser --workers W``) in a subprocess
and, for each N of ``--users``, lets N users run 5 s searches (``/api/move`` on connect4,
each user again as soon as it has its answer, after ``Retry-After`` when turned away;
the N users are threads of another process, all starting at once) while one probe asks
for the state of tic-tac-toe every 50 ms.  Reported per N: the
probe's p50, p95, p99 and worst latency, the machine's load average (1 min) before and
after, the searches answered and turned away (503), and the resident memory of the server
with all its processes (workers, fork server) over the run.
Then three more cases:

- ``burst``: 200 state requests, 50 in flight at once (new connections), no searches;
- ``bomb``: two requests with a grounding bomb of issue 11 (30 facts, an 8-way join)
  while the probe runs; their status and time, the probe's latencies;
- ``memory``: six distinct GDL descriptions (connectFour.kif, a comment apart), each
  loaded and searched for 5 s; the memory before and after.

Results: a Markdown table on stdout and in ``--out`` (``benchmarks/results/web_load.md``).
Needs the web extra and httpx2 (``make test`` installs both).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import multiprocessing
import os
import platform
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2 as httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository: tests.procs
from tests.procs import family_rss

HERE = Path(__file__).resolve().parent
KIF = HERE.parent / "tests" / "data" / "gdl" / "connectFour.kif"
SEARCH = {"game": "connect4", "depth": 40, "time": 5.0}
CHEAP = {"game": "tictactoe", "moves": ["5"]}
BOMB = (
    "(role a) (role b) (init s) " + " ".join(f"(n {i})" for i in range(30)) + "\n"
    "(<= (big ?a ?b ?c ?d ?e ?f ?g ?h) (n ?a) (n ?b) (n ?c) (n ?d) (n ?e) (n ?f) (n ?g) (n ?h))\n"
    "(<= terminal (big 0 0 0 0 0 0 0 0))\n"
    "(<= (legal ?r x) (role ?r))\n(<= (goal ?r 50) (role ?r))\n"
)
"""A join bomb that no shortcut ends (its head keeps every variable; the issue's 0-arity
head now loads at once): only the request's budget or the grounding's atom cap ends it."""
MB = 1024 * 1024


# --- the server and its processes ------------------------------------------------------------


@contextmanager
def server(workers: int) -> Iterator[tuple[str, int]]:
    """``plies web`` on a free port: its URL and process id; stopped with Ctrl-C after."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    command = [sys.executable, "-m", "plies", "web", "--port", "0", "--no-browser",
               "--workers", str(workers)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, env=env)
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().split()[4].rstrip("/")
        with httpx.Client(base_url=url, timeout=60) as http:
            http.get("/api/games").raise_for_status()
        yield url, proc.pid
    finally:
        proc.send_signal(2)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


class Sampler:
    """The family's resident memory every 0.25 s, in a thread."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.samples: list[int] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.samples.append(family_rss(self.pid))
            self._stop.wait(0.25)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()
        self.samples.append(family_rss(self.pid))


# --- clients ---------------------------------------------------------------------------------


def probe(url: str, until: float, out: list[float], done: threading.Event | None = None
          ) -> None:
    """The state of tic-tac-toe every 50 ms until ``until`` (or ``done``); latencies into
    ``out``."""
    with httpx.Client(base_url=url, timeout=120) as http:
        while time.monotonic() < until and not (done is not None and done.is_set()):
            start = time.perf_counter()
            response = http.post("/api/state", json=CHEAP)
            out.append(time.perf_counter() - start)
            assert response.status_code == 200, response.text
            time.sleep(0.05)


def searchers(url: str, users: int, until: float, out: Any) -> None:
    """``users`` searching users, each a thread with its own connection, until ``until``
    (``time.time()``); the count of answers by status put on ``out``.  Run in a process
    of its own: the probe's latency is then the server's, not its wait for this
    process's GIL (30 client threads in the probe's process added up to 0.5 s)."""
    counts: dict[int, int] = {}
    lock = threading.Lock()
    clients = [httpx.Client(base_url=url, timeout=120) for _ in range(users)]
    go = threading.Barrier(users) if users else None

    def searcher(http: httpx.Client) -> None:
        assert go is not None
        go.wait()  # all at once
        while time.time() < until:
            response = http.post("/api/move", json=SEARCH)
            with lock:
                counts[response.status_code] = counts.get(response.status_code, 0) + 1
            if response.status_code == 503:
                wait = float(response.headers.get("retry-after", "1"))
                time.sleep(max(0.0, min(wait, until - time.time())))

    run_all([lambda http=http: searcher(http) for http in clients])
    for http in clients:
        http.close()
    out.put(counts)


def run_all(calls: list[Callable[[], Any]]) -> None:
    threads = [threading.Thread(target=c, daemon=True) for c in calls]  # Ctrl-C ends all
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def quantiles(xs: list[float]) -> tuple[float, float, float, float]:
    """p50, p95, p99 and the worst, in milliseconds."""
    ordered = sorted(xs)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] * 1e3

    return statistics.median(ordered) * 1e3, at(0.95), at(0.99), ordered[-1] * 1e3


def load() -> float:
    """The machine's load average over the last minute."""
    return os.getloadavg()[0]


# --- the cases -------------------------------------------------------------------------------


def users_case(url: str, pid: int, users: int, seconds: float) -> dict[str, Any]:
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    clients = context.Process(target=searchers, args=(url, users, time.time() + seconds, out))
    latencies: list[float] = []
    with Sampler(pid) as rss:
        clients.start()
        probe(url, time.monotonic() + seconds, latencies)
        counts: dict[int, int] = out.get()
        clients.join()
    p50, p95, p99, worst = quantiles(latencies)
    return {"case": f"{users} searching", "n": len(latencies), "p50": p50, "p95": p95,
            "p99": p99, "max": worst, "extra": f"searches: {counts.get(200, 0)} answered, "
            f"{counts.get(503, 0)} turned away (503)",
            "rss": (rss.samples[0], max(rss.samples), rss.samples[-1])}


def burst_case(url: str, pid: int) -> dict[str, Any]:
    latencies: list[float] = []
    lock = threading.Lock()

    host, port = url.removeprefix("http://").split(":")
    body = json.dumps(CHEAP).encode()
    request = (b"POST /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
               b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
               % (len(body), body))
    go = threading.Barrier(50)

    def client() -> None:
        go.wait()  # all 50 at once
        for _ in range(4):  # a new connection each time, a raw socket: a cheap client
            start = time.perf_counter()
            with socket.create_connection((host, int(port)), timeout=120) as sock:
                sock.sendall(request)
                answer = b""
                while chunk := sock.recv(65536):
                    answer += chunk
            with lock:
                latencies.append(time.perf_counter() - start)
            assert answer.startswith(b"HTTP/1.1 200"), answer[:200]

    with Sampler(pid) as rss:
        run_all([client] * 50)
    p50, p95, p99, worst = quantiles(latencies)
    return {"case": "burst: 200 states, 50 in flight", "n": len(latencies), "p50": p50,
            "p95": p95, "p99": p99, "max": worst, "extra": "no searches",
            "rss": (rss.samples[0], max(rss.samples), rss.samples[-1])}


def bomb_case(url: str, pid: int) -> dict[str, Any]:
    answers: list[tuple[int, float, str]] = []
    latencies: list[float] = []
    done = threading.Event()

    def bomb() -> None:
        start = time.perf_counter()
        with httpx.Client(base_url=url, timeout=300) as http:
            response = http.post("/api/state", json={"gdl": BOMB, "name": "bomb.kif"})
        answers.append((response.status_code, time.perf_counter() - start,
                        response.json().get("error", "")))

    bombs = [threading.Thread(target=bomb) for _ in range(2)]
    prober = threading.Thread(target=probe, args=(url, math.inf, latencies, done))
    with Sampler(pid) as rss:
        prober.start()
        for t in bombs:
            t.start()
        for t in bombs:
            t.join()
        done.set()
        prober.join()
    p50, p95, p99, worst = quantiles(latencies)
    shown = "; ".join(f"{status} in {took:.1f} s" for status, took, _ in answers)
    return {"case": "2 grounding bombs", "n": len(latencies), "p50": p50, "p95": p95,
            "p99": p99, "max": worst, "extra": f"bombs: {shown} ({answers[0][2][:60]}...)",
            "rss": (rss.samples[0], max(rss.samples), rss.samples[-1])}


def memory_case(url: str, pid: int) -> dict[str, Any]:
    text = KIF.read_text()
    latencies: list[float] = []
    statuses: list[int] = []

    def load(i: int) -> None:
        body = {**SEARCH, "game": None, "gdl": f"{text}\n; variant {i}\n", "name": f"c4-{i}"}
        with httpx.Client(base_url=url, timeout=300) as http:
            statuses.append(http.post("/api/move", json=body).status_code)

    done = threading.Event()
    prober = threading.Thread(target=probe, args=(url, math.inf, latencies, done))
    with Sampler(pid) as rss:
        prober.start()
        for pair in range(3):  # two at a time: one per worker
            run_all([lambda i=i: load(i) for i in (2 * pair, 2 * pair + 1)])
        done.set()
        prober.join()
    p50, p95, p99, worst = quantiles(latencies)
    return {"case": "6 distinct GDL games, 5 s search each", "n": len(latencies), "p50": p50,
            "p95": p95, "p99": p99, "max": worst, "extra": f"answers: {statuses}",
            "rss": (rss.samples[0], max(rss.samples), rss.samples[-1])}


def markdown(rows: list[dict[str, Any]], command: str, workers: int) -> str:
    lines = [
        f"`{command}` on {platform.node()} ({os.cpu_count()} cores, Python "
        f"{platform.python_version()}), {datetime.date.today()}, --workers {workers}.",
        "",
        "| case | probes | p50 ms | p95 ms | p99 ms | max ms | load (start / end) "
        "| server RSS MB (start / max / end) | notes |",
        "|---|---:|---:|---:|---:|---:|---|---|---|",
    ]
    for r in rows:
        start, top, end = (x / MB for x in r["rss"])
        lines.append(f"| {r['case']} | {r['n']} | {r['p50']:.1f} | {r['p95']:.1f} | "
                     f"{r['p99']:.1f} | {r['max']:.1f} | {r['load'][0]:.1f} / "
                     f"{r['load'][1]:.1f} | {start:.0f} / {top:.0f} / {end:.0f} "
                     f"| {r['extra']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=12.0, help="length of each N case")
    parser.add_argument("--users", default="0,2,6,30", help="numbers of searching users")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "web_load.md",
                        help="where to write the table (Markdown)")
    parser.add_argument("--workers", type=int, default=2, help="plies web --workers")
    parser.add_argument("--skip", default="", help="cases to leave out: burst,bomb,memory")
    args = parser.parse_args(argv)
    skip = set(filter(None, args.skip.split(",")))
    rows = []
    with server(args.workers) as (url, pid):
        for users in map(int, args.users.split(",")):
            before = load()
            rows.append({**users_case(url, pid, users, args.seconds), "load": (before, load())})
            print(rows[-1]["case"], "done", file=sys.stderr)
        for name, case in (("burst", burst_case), ("bomb", bomb_case),
                           ("memory", memory_case)):
            if name not in skip:
                before = load()
                rows.append({**case(url, pid), "load": (before, load())})
                print(name, "done", file=sys.stderr)
    command = "python benchmarks/web_load.py " + " ".join(argv or sys.argv[1:])
    table = markdown(rows, command.strip(), args.workers)
    print(table)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
