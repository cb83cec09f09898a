"""Ctrl-C stops ``plies`` with workers at once, workers included, and a second one quietly.

Each test runs the real command in its own session, waits until its workers are busy
(CPU time spent, read from /proc: no blind sleep), sends SIGINT as a terminal does (to
the whole process group) or to the parent alone, and checks that the command exits with
130, says ``plies: interrupted`` and nothing else, and leaves no process behind.  The
bounds (60 s to get busy, 30 s to exit) catch a hang; they are not speed assertions.
Before the fix a batch ran on for minutes after "interrupted", and a second Ctrl-C
printed a traceback from the interpreter's exit.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import suppress
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from plies.parallel.backends import RayBackend, run_chunk, shutdown_local_ray
from tests.procs import alive, descendants, stat

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/task").is_dir() or not hasattr(os, "killpg"),
    reason="reads the process tree from Linux's /proc",
)

SRC = Path(__file__).resolve().parents[2] / "src"
GET_BUSY = 60.0  # seconds for the workers to start searching (spawn and import included)
HANG = 30.0  # a command that has not exited this long after Ctrl-C hangs
POSITIONS = "4\n3\n5\n4 4\n2\n6\n"
"""Connect Four openings; with ``--time 30`` each one keeps a worker busy for 30 s."""


def in_group(pgid: int) -> list[int]:
    """The live processes of process group ``pgid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = stat(int(entry.name))
            if fields is not None and int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
                found.append(int(entry.name))
    return found


def cpu_seconds(pid: int) -> float:
    fields = stat(pid)
    return 0.0 if fields is None else (int(fields[11]) + int(fields[12])) / os.sysconf(
        "SC_CLK_TCK"
    )


def is_worker(pid: int) -> bool:
    """A pool's worker process, or a Ray worker running one of plies' tasks (Ray names it
    after the task; its agents, ``ray::DashboardAgent`` and the like, are no workers,
    though they too spend CPU time while Ray starts)."""
    try:
        line = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return b"spawn_main" in line or line.startswith(f"ray::{run_chunk.__name__}".encode())


DEFAULT_SIGINT = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)
"""Run the rest of the command line with SIGINT's default disposition.  A shell without
job control starts background jobs (a CI step, ``pytest &``) with SIGINT ignored, and an
ignored signal stays ignored through ``exec``; this resets it without a ``preexec_fn``
(unsafe in a process with threads).  ``exec`` keeps the process id."""


@pytest.fixture
def launch() -> Iterator[Any]:
    """``launch(*argv)`` starts ``plies argv`` in its own session; killed at the end."""
    started: list[subprocess.Popen[str]] = []

    def start(*argv: str, program: Sequence[str] = ("-m", "plies")) -> subprocess.Popen[str]:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            [str(SRC), *filter(None, [os.environ.get("PYTHONPATH")])]
        ), "PYTHONUNBUFFERED": "1"}
        proc = subprocess.Popen(
            [sys.executable, "-c", DEFAULT_SIGINT, sys.executable, *program, *argv],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
            start_new_session=True,
        )
        started.append(proc)
        return proc

    yield start
    for proc in started:
        if proc.poll() is None or in_group(proc.pid):
            with suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=HANG)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def wait_until_busy(proc: subprocess.Popen[str], workers: int) -> list[int]:
    """Wait until ``workers`` worker processes have searched for a while; all descendants."""
    deadline = time.monotonic() + GET_BUSY
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"plies ended before it was interrupted: {proc.stderr}"
        below = descendants(proc.pid)
        if sum(1 for k in below if is_worker(k) and cpu_seconds(k) > 0.5) >= workers:
            return sorted(below)
        time.sleep(0.1)
    pytest.fail(f"the workers did not get busy within {GET_BUSY:.0f} s")


def ctrl_c(proc: subprocess.Popen[str], whom: str) -> None:
    """SIGINT as a terminal sends it (the whole group), or to the parent alone."""
    if whom == "terminal":
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGINT)


def assert_stopped_cleanly(
    proc: subprocess.Popen[str],
    below: list[int],
    stderr: str | None = "plies: interrupted\n",
    codes: tuple[int, ...] = (130,),
) -> None:
    """Exit with one of ``codes`` within :data:`HANG`, nothing but ``stderr`` said, nobody
    left behind."""
    try:
        out, err = proc.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        pytest.fail(f"plies did not exit within {HANG:.0f} s of Ctrl-C")
    assert proc.returncode in codes, err
    assert "Traceback" not in out + err
    if stderr is not None:
        assert err == stderr
    deadline = time.monotonic() + HANG
    left = [k for k in below if alive(k)] + in_group(proc.pid)
    while left and time.monotonic() < deadline:  # Ray's processes die a moment later
        time.sleep(0.2)
        left = [k for k in below if alive(k)] + in_group(proc.pid)
    assert not left, f"processes left behind: {left}"


@pytest.fixture
def positions(tmp_path: Path) -> str:
    path = tmp_path / "openings.txt"
    path.write_text(POSITIONS)
    return str(path)


@pytest.mark.parametrize("whom", ["terminal", "parent"])
def test_ctrl_c_stops_batch_analysis_and_its_workers(
    launch: Any, positions: str, whom: str
) -> None:
    proc = launch("analyze", "connect4", "--file", positions, "--workers", "2", "--time", "30")
    below = wait_until_busy(proc, 2)
    ctrl_c(proc, whom)
    assert_stopped_cleanly(proc, below)


def test_ctrl_c_stops_a_tournament_with_workers(launch: Any) -> None:
    proc = launch(
        "tournament", "connect4", "--agent", "alphabeta:time=30", "--agent", "alphabeta:depth=12",
        "--games", "2", "--workers", "2",
    )
    below = wait_until_busy(proc, 2)
    ctrl_c(proc, "terminal")
    assert_stopped_cleanly(proc, below)


def test_second_ctrl_c_exits_quietly(launch: Any) -> None:
    # The first Ctrl-C starts a slow clean-up; the second must end the process at once,
    # with 130 and not a word (before: a KeyboardInterrupt traceback from the exit).
    program = (
        "import time\n"
        "from plies.cli import ctrl_c_twice_exits\n"
        "with ctrl_c_twice_exits():\n"
        "    try:\n"
        "        print('working', flush=True)\n"
        "        time.sleep(60)\n"
        "    except KeyboardInterrupt:\n"
        "        print('cleaning up', flush=True)\n"
        "        time.sleep(60)\n"
    )
    proc = launch(program=("-c", program))
    assert proc.stdout is not None
    assert proc.stdout.readline() == "working\n"
    proc.send_signal(signal.SIGINT)
    assert proc.stdout.readline() == "cleaning up\n"
    proc.send_signal(signal.SIGINT)
    assert_stopped_cleanly(proc, [], stderr="")


def test_second_ctrl_c_while_batch_workers_stop_exits_quietly(
    launch: Any, positions: str
) -> None:
    proc = launch("analyze", "connect4", "--file", positions, "--workers", "2", "--time", "30")
    below = wait_until_busy(proc, 2)
    ctrl_c(proc, "terminal")
    time.sleep(0.01)  # wherever the second one lands, it must not print a traceback
    ctrl_c(proc, "terminal")
    # Landing in the interpreter's last milliseconds, after Python has put the default
    # handler back, it ends the process by SIGINT: quiet too, and 130 to a shell.
    assert_stopped_cleanly(proc, below, stderr=None, codes=(130, -signal.SIGINT))


def test_ctrl_c_stops_batch_analysis_on_ray(launch: Any, positions: str) -> None:
    try:
        import ray  # noqa: F401
    except ImportError:
        pytest.fail("Ray is missing: pip install 'plies[ray]' (the test extra has it)")
    proc = launch(
        "analyze", "connect4", "--file", positions, "--ray", "--workers", "2", "--time", "30"
    )
    below = wait_until_busy(proc, 2)
    ctrl_c(proc, "parent")
    assert_stopped_cleanly(proc, below)


class FakeRay:
    """Just enough of Ray for :meth:`RayBackend.map`: tasks that never finish but one."""

    def __init__(self) -> None:
        self.cancelled: list[tuple[int, bool]] = []
        self.submitted: list[int] = []

    def is_initialized(self) -> bool:
        return True  # an existing connection: map neither starts nor stops Ray

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": 2}

    def put(self, value: Any) -> Any:
        return value

    def remote(self, fn: Any) -> Any:
        def submit(*args: Any) -> int:
            self.submitted.append(len(self.submitted))
            return self.submitted[-1]

        return SimpleNamespace(remote=submit)

    def wait(self, refs: list[int], num_returns: int) -> tuple[list[int], list[int]]:
        return refs[:1], refs[1:]  # one finishes at a time

    def get(self, ref: int) -> list[int]:
        return [ref]

    def cancel(self, ref: int, *, force: bool) -> None:
        self.cancelled.append((ref, force))


def test_an_interrupted_ray_map_cancels_its_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)

    def progress(done: int) -> None:
        raise KeyboardInterrupt  # Ctrl-C as the first task comes back

    with pytest.raises(KeyboardInterrupt):
        RayBackend().map(lambda shared, task: task, None, list(range(8)), progress)
    assert len(fake.submitted) == 8
    assert fake.cancelled == [(ref, True) for ref in fake.submitted[1:]]


class RayInterruptedWhileStarting:
    """``ray.init`` that starts a helper process named as Ray names its agents, then is
    interrupted by Ctrl-C, as a real start-up is when Ctrl-C comes in its first seconds."""

    def __init__(self) -> None:
        self.agent: subprocess.Popen[bytes] | None = None
        self.shut_down = False

    def is_initialized(self) -> bool:
        return False

    def init(self, **options: Any) -> None:
        # argv[0] "ray::FakeAgent", the command line Ray gives its raylet's agents.
        self.agent = subprocess.Popen(["bash", "-c", 'exec -a "ray::FakeAgent" sleep 600'])
        deadline = time.monotonic() + HANG
        while not Path(f"/proc/{self.agent.pid}/cmdline").read_bytes().startswith(b"ray::"):
            assert time.monotonic() < deadline, "the fake agent did not start"
            time.sleep(0.01)
        raise KeyboardInterrupt

    def shutdown(self) -> None:
        self.shut_down = True  # the real one leaves the agents to notice it by polling


def test_ctrl_c_while_ray_starts_leaves_no_ray_process_behind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regression: Ctrl-C during ``ray.init`` left Ray's agents running for 30-40 s after
    ``plies analyze --ray`` had exited (the instance was not started yet, so nothing
    stopped it)."""
    fake = RayInterruptedWhileStarting()
    monkeypatch.setitem(sys.modules, "ray", fake)
    with pytest.raises(KeyboardInterrupt):
        RayBackend(workers=1).__enter__()
    assert fake.agent is not None and fake.shut_down
    assert fake.agent.wait(timeout=HANG) is not None  # ended (SIGTERM), and reaped here


class RayStartingWorkersWhileItStops:
    """A local Ray instance whose raylet (a process named ``.../raylet``, a child of this
    one) starts one more worker while ``ray.shutdown()`` runs, as a raylet does to
    replace the workers of cancelled tasks: a process in a session of its own, with
    ``RAY_RAYLET_PID`` in its environment, that no list made before the shutdown holds."""

    def __init__(self) -> None:
        self.raylet = subprocess.Popen(["bash", "-c", "exec -a /fake/ray/raylet sleep 600"])
        self.late: subprocess.Popen[bytes] | None = None

    def shutdown(self) -> None:
        self.late = subprocess.Popen(
            ["sleep", "600"], env={**os.environ, "RAY_RAYLET_PID": str(self.raylet.pid)},
            start_new_session=True,
        )
        self.raylet.terminate()
        self.raylet.wait(timeout=HANG)


def test_a_worker_ray_starts_while_it_stops_is_not_left_behind() -> None:
    """Regression (the Ray Ctrl-C test left two processes behind at load 8-10): workers
    the raylet started after the list of Ray's processes was made outlived the command."""
    fake = RayStartingWorkersWhileItStops()
    deadline = time.monotonic() + HANG
    while not Path(f"/proc/{fake.raylet.pid}/cmdline").read_bytes().startswith(b"/fake"):
        assert time.monotonic() < deadline, "the fake raylet did not start"
        time.sleep(0.01)
    try:
        shutdown_local_ray(fake)
        assert fake.late is not None
        assert fake.late.wait(timeout=HANG) is not None  # ended (SIGTERM), and reaped here
    finally:
        for proc in (fake.raylet, fake.late):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
