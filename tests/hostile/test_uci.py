"""Garbage lines to ``plies uci`` (a process): random bytes, mutated commands, absurd
numbers, a 1 MiB line, go/stop out of order.

The promise: after every batch of lines the engine still answers ``isready`` with
``readyok``; at the end ``quit`` ends it with exit 0 and nothing but at most one line on
stderr, no traceback.
"""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hostile.conftest import environment
from tests.hostile.corpus import chunks, uci_lines

BATCH = 25
BATCHES = list(chunks(uci_lines(300), BATCH))
PATIENCE = 60.0
"""Seconds to wait for an answer: generous, so a loaded machine is not a failure."""


class Engine:
    """``plies uci`` with its stdout read line by line in a thread."""

    def __init__(self, cwd: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "plies", "uci"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment(cwd), cwd=cwd,
            start_new_session=True)
        self.lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(b"")

    def send(self, *lines: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"".join(line + b"\n" for line in lines))
        self.proc.stdin.flush()

    def ready(self) -> bool:
        """Send ``isready``; True when ``readyok`` comes back (other answers skipped)."""
        self.send(b"isready")
        while True:
            try:
                line = self.lines.get(timeout=PATIENCE)
            except queue.Empty:
                return False
            if line.strip() == b"readyok":
                return True
            if line == b"":  # the engine ended
                return False


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    engine = Engine(tmp_path_factory.mktemp("uci"))
    yield engine
    if engine.proc.poll() is None:
        os.killpg(engine.proc.pid, 9)
        engine.proc.wait()
    for pipe in (engine.proc.stdin, engine.proc.stdout, engine.proc.stderr):
        if pipe is not None:
            with contextlib.suppress(BrokenPipeError):  # a write buffered for a dead engine
                pipe.close()


@pytest.mark.parametrize("batch", BATCHES, ids=[f"lines-{i * BATCH}-{(i + 1) * BATCH - 1}"
                                                for i in range(len(BATCHES))])
def test_garbage_lines_leave_the_engine_answering_isready(
    engine: Engine, batch: list[bytes]
) -> None:
    engine.send(*batch)
    assert engine.ready(), f"no readyok after {[line[:60] for line in batch]}"


def test_quit_after_the_garbage_ends_the_engine_quietly(engine: Engine) -> None:
    engine.send(b"stop", b"quit")
    assert engine.proc.wait(timeout=PATIENCE) == 0
    assert engine.proc.stderr is not None
    err = engine.proc.stderr.read().decode("utf-8", "replace")
    assert "Traceback" not in err and len(err.strip().splitlines()) <= 1, err[-2000:]


def test_uci_with_its_output_closed_exits_quietly(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "plies", "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env=environment(tmp_path), cwd=tmp_path)
    assert proc.stdout is not None
    proc.stdout.close()  # the GUI went away
    _, err = proc.communicate(b"uci\nisready\ngo depth 2\nquit\n", timeout=PATIENCE)
    text = err.decode("utf-8", "replace")
    assert "Traceback" not in text and len(text.strip().splitlines()) <= 1, text[-2000:]
