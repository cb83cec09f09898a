"""``plies ggp match`` loses nothing and leaves no player busy: its ``--json`` record is
written atomically (a full disk or Ctrl-C leaves the old record, or none), and a match
abandoned by Ctrl-C or an error is ended with ABORT to every player."""

from __future__ import annotations

import errno
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

import pytest

from plies.cli import main
from plies.ggp.manager import GameManager, HttpSeat, MatchRecord, Step
from tests.data import GDL_DATA
from tests.ggp.helpers import rules
from tests.ggp.randomplayer import random_player

SRC = Path(__file__).resolve().parents[2] / "src"
TICTACTOE = str(GDL_DATA / "ticTacToe.kif")


@contextmanager
def recording(seed: int, faults: dict[int, str] | None = None, late_by: float = 0.3
              ) -> Iterator[tuple[str, list[str]]]:
    """A random player that records the kind of every message it is sent (``START``,
    ``PLAY``, ...); yields (url, kinds)."""
    with random_player(seed, faults, late_by) as (url, player):
        heard: list[str] = []
        answer = player.answer

        def record(text: str) -> tuple[int, str] | None:
            kind = re.match(r"\s*\(\s*(\w+)", text)
            heard.append(kind.group(1).upper() if kind else text[:20])
            return answer(text)

        player.answer = record  # type: ignore[method-assign]
        yield url, heard


def old_record(path: Path) -> bytes:
    assert main(["ggp", "match", TICTACTOE, "--player", "random", "--player", "random",
                 "--quiet", "--seed", "1", "--json", str(path)]) == 0
    data = path.read_bytes()
    assert json.loads(data)["completed"]
    return data


def test_full_disk_during_ggp_match_json_is_one_line_and_keeps_the_old_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "match.json"
    before = old_record(out)
    capsys.readouterr()

    def full(fd: int) -> NoReturn:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    assert main(["ggp", "match", TICTACTOE, "--player", "random", "--player", "random",
                 "--quiet", "--seed", "2", "--json", str(out)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1
    assert "cannot write --json" in err and "No space left on device" in err
    assert "the existing file is unchanged" in err
    assert out.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["match.json"]


def test_ggp_match_json_over_a_users_file_is_refused_before_the_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = tmp_path / "notes.json"
    mine.write_text('{"my": "data"}\n')
    with recording(1) as (url, heard):
        assert main(["ggp", "match", TICTACTOE, "--player", url, "--player", "random",
                     "--json", str(mine)]) == 2
    assert "exists and is not a match record plies wrote; give --force" in capsys.readouterr().err
    assert heard == [] and mine.read_text() == '{"my": "data"}\n'


def test_ggp_match_player_with_an_open_ipv6_bracket_is_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["ggp", "match", TICTACTOE, "--player", "random",
                 "--player", "http://[::1/"]) == 2
    err = capsys.readouterr().err
    assert "not a player address: 'http://[::1/'" in err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("trouble", [KeyboardInterrupt, RuntimeError])
def test_an_abandoned_match_sends_abort_to_every_player(trouble: type[BaseException]) -> None:
    manager = GameManager(rules("ticTacToe"))
    told: list[dict[str, str]] = []

    def on_step(record: MatchRecord, step: Step) -> None:
        if len(record.steps) == 2:
            raise trouble("stop here")

    with recording(1) as (x, x_heard), recording(2) as (o, o_heard), \
            pytest.raises(trouble):
        manager.play_match([HttpSeat.from_url(x), HttpSeat.from_url(o)], match_id="abandon",
                           start_clock=2, play_clock=2, on_step=on_step, on_abort=told.append)
    assert x_heard == o_heard == ["START", "PLAY", "PLAY", "ABORT"]
    assert told == [{"xplayer": "aborted", "oplayer": "aborted"}]


def test_ctrl_c_of_ggp_match_json_keeps_the_old_record_and_aborts_the_player(
    tmp_path: Path,
) -> None:
    out = tmp_path / "match.json"
    before = old_record(out)
    fresh = tmp_path / "fresh.json"
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    for path, kept in ((out, before), (fresh, None)):
        # The player holds its first PLAY for 60 s: Ctrl-C comes while the manager waits.
        with recording(3, {1: "late"}, late_by=30) as (url, heard):
            proc = subprocess.Popen(
                [sys.executable, "-m", "plies", "ggp", "match", TICTACTOE, "--player", url,
                 "--player", "random", "--start", "5", "--play", "30", "--json", str(path)],
                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
            )
            try:
                deadline = time.monotonic() + 60
                while "PLAY" not in heard:  # wait for the condition, not for a time
                    assert proc.poll() is None and time.monotonic() < deadline
                    time.sleep(0.05)
                proc.send_signal(signal.SIGINT)
                # Within 25 s instead of waiting out the player's 60 s.
                stdout, stderr = proc.communicate(timeout=25)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.communicate()
            assert heard == ["INFO", "START", "PLAY", "ABORT"]
        assert proc.returncode == 130, stderr
        assert stderr.strip() == "plies: interrupted"
        assert "match abandoned: ABORT sent to xplayer (aborted)" in stdout
        if kept is None:
            assert not path.exists()
        else:
            assert path.read_bytes() == kept
        assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]
