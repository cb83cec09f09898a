"""Nothing lost: every file plies writes is checked before the work and written atomically
(:mod:`plies.outputs`), in ``learn --out``, ``tree -o`` and ``tournament --plot``
(``ggp match --json`` is in ``tests/ggp/test_match_outputs.py``)."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import resource
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import pytest

from plies.errors import OutputFileError, WeightsFileError
from plies.linear import save_weights
from plies.outputs import check_target, replacing, write_text
from tests.clirun import fail, plain_pipe, run

__all__ = ["plain_pipe"]

SRC = Path(__file__).resolve().parents[1] / "src"
FIG = str(SRC / "plies" / "games" / "trees" / "aima-fig-5-2.tree")
LEARN = ("learn", "othello", "--games", "2", "--depth", "1", "--seed", "1")
USERS = "my notes, which plies did not write\n" * 150  # about 5 KB


def no_space(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every fsync fails as on a full disk (a file system that allocates late reports
    ENOSPC at the latest when the data is synced)."""

    def full(fd: int) -> NoReturn:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith((".part", ".probe")))


# --- the faults of issue 22 ----------------------------------------------------------------


def test_full_disk_during_learn_out_existing_json_leaves_the_file_whole(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "existing.json"
    run(capsys, *LEARN, "--out", str(out))
    before = out.read_bytes()
    no_space(monkeypatch)
    message = fail(capsys, *LEARN[:-1], "2", "--out", str(out))
    assert "No space left on device" in message and "the existing file is unchanged" in message
    assert out.read_bytes() == before
    assert json.loads(before)["format"] == "plies-weights"
    assert leftovers(tmp_path) == []


def _limited(limit: int) -> Callable[[], None]:
    def preexec() -> None:  # a real partial write: the kernel cuts the file at the limit
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return preexec


@pytest.mark.parametrize("argv", [
    [*LEARN, "--out", "{out}.json"],
    ["tree", "tictactoe", "--depth", "2", "--out", "{out}.svg"],
])
def test_a_write_cut_at_200_bytes_leaves_the_existing_output_whole(
    tmp_path: Path, argv: list[str]
) -> None:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    args = [a.replace("{out}", str(tmp_path / "out")) for a in argv]
    first = subprocess.run([sys.executable, "-m", "plies", *args], env=env,
                           capture_output=True, text=True, timeout=120, check=False)
    assert first.returncode == 0, first.stderr
    out = Path(args[-1])
    before = out.read_bytes()
    assert len(before) > 1000
    cut = subprocess.run([sys.executable, "-m", "plies", *args], env=env,
                         capture_output=True, text=True, timeout=120, check=False,
                         preexec_fn=_limited(200))
    assert cut.returncode == 2 and "Traceback" not in cut.stderr
    assert "File too large; the existing file is unchanged" in cut.stderr
    assert cut.stderr.count("\n") == 1
    assert out.read_bytes() == before
    assert leftovers(tmp_path) == []


def test_full_disk_during_tree_output_leaves_the_picture_whole(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "fig.svg"
    run(capsys, "tree", FIG, "--out", str(out))
    before = out.read_bytes()
    no_space(monkeypatch)
    message = fail(capsys, "tree", "tictactoe", "--depth", "1", "--out", str(out))
    assert message.startswith("cannot write --out") and "No space left on device" in message
    assert out.read_bytes() == before and leftovers(tmp_path) == []


def test_learn_out_directory_is_refused_before_the_self_play(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_work(*args: Any, **kwargs: Any) -> NoReturn:
        raise AssertionError("the self-play ran")

    monkeypatch.setattr("plies.cli.learn.learn", no_work)
    message = fail(capsys, "learn", "othello", "--games", "100", "--out", str(tmp_path))
    assert message.endswith("is a directory; give the name of a file to write")


@pytest.mark.parametrize("argv", [
    ["learn", "othello", "--games", "100", "--out"],
    ["tree", "tictactoe", "--depth", "9", "--max-nodes", "10000000", "--out"],
])
def test_every_output_was_overwritten_without_asking_now_a_users_file_needs_force(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
) -> None:
    mine = tmp_path / "notes.json"
    mine.write_text(USERS)
    monkeypatch.setattr("plies.cli.learn.learn", lambda *a, **k: pytest.fail("work ran"))
    monkeypatch.setattr("plies.cli.tree.capture", lambda *a, **k: pytest.fail("work ran"))
    message = fail(capsys, *argv, str(mine))
    assert "exists and is not a" in message and "give --force to replace it" in message
    assert mine.read_text() == USERS


def test_every_output_was_overwritten_through_a_symlink_now_a_link_needs_force(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    mine = tmp_path / "notes.txt"
    mine.write_text(USERS)
    link = tmp_path / "fig.svg"
    link.symlink_to(mine)
    message = fail(capsys, "tree", FIG, "--out", str(link))
    assert "is a symbolic link (to " in message and "--force" in message
    assert mine.read_text() == USERS
    # With --force the file the link points to is replaced, and the link kept.
    run(capsys, "tree", FIG, "--out", str(link), "--force")
    assert link.is_symlink() and mine.read_text().startswith("<?xml")
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("argv", [
    ["learn", "othello", "--games", "2", "--depth", "1", "--out"],
    ["tree", "tictactoe", "--depth", "1", "--format", "svg", "--out"],
    ["ggp", "match", str(Path(__file__).parent / "data" / "gdl" / "ticTacToe.kif"),
     "--player", "random", "--player", "random", "--quiet", "--json"],
])
def test_an_output_to_a_fifo_hung_forever_now_it_is_one_line_before_the_work(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]
) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    message = fail(capsys, *argv, str(fifo))
    assert message.endswith("is a FIFO, not a regular file; give the name of a file to write")


def test_plies_replaces_its_own_output_without_force(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    weights = tmp_path / "w.json"
    run(capsys, *LEARN, "--out", str(weights))
    run(capsys, *LEARN, "--out", str(weights))
    for name in ("fig.svg", "fig.dot", "fig.json"):
        out = tmp_path / name
        run(capsys, "tree", FIG, "--out", str(out))
        run(capsys, "tree", FIG, "--out", str(out))
    # ... but one command's output is not another's.
    message = fail(capsys, "tree", FIG, "--out", str(weights), "--format", "json")
    assert "is not a tree plies drew" in message


def test_tournament_plot_over_a_users_file_is_refused_before_the_games(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib")
    picture = tmp_path / "holiday.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n" + b"my photo" * 100)
    argv = ["tournament", "tictactoe", "--agent", "random", "--agent", "random",
            "--games", "1", "--seed", "1", "--workers", "1", "--plot", str(picture)]
    assert "give --force to replace it" in fail(capsys, *argv)
    plot = tmp_path / "elo.png"
    run(capsys, *argv[:-1], str(plot))
    run(capsys, *argv[:-1], str(plot))  # its own plot: replaced without asking
    assert plot.read_bytes().startswith(b"\x89PNG") and leftovers(tmp_path) == []


def test_tournament_plot_without_matplotlib_is_refused_before_the_games(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # import -> ImportError
    monkeypatch.setattr("plies.cli.tournament.tournament",
                        lambda *a, **k: pytest.fail("the games ran"))
    message = fail(capsys, "tournament", "tictactoe", "--agent", "random", "--agent", "random",
                   "--games", "100", "--workers", "1", "--plot", str(tmp_path / "elo.png"))
    assert message.startswith("matplotlib is not installed; install plies[plot]")


# --- the module ----------------------------------------------------------------------------


def check(path: Path, **kwargs: Any) -> Path:
    options: dict[str, Any] = {"option": "-o", "kind": "a test file",
                               "signatures": (b"made by the test",), **kwargs}
    return check_target(path, **options)


def test_a_fifo_a_device_and_a_directory_are_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(OutputFileError, match="is a FIFO, not a regular file"):
        check(fifo, force=True)
    with pytest.raises(OutputFileError, match="is a character device, not a regular file"):
        check(Path("/dev/null"), force=True)
    with pytest.raises(OutputFileError, match="is a directory"):
        check(tmp_path, force=True)
    with pytest.raises(OutputFileError, match="no directory"):
        check(tmp_path / "no" / "such.txt")
    with pytest.raises(OutputFileError, match="is not a directory"):
        check(tmp_path / "pipe" / "x.txt")


def test_a_directory_plies_cannot_write_in_is_refused() -> None:
    # /proc refuses new files even to root, whom permission bits do not stop.
    with pytest.raises(OutputFileError, match="cannot create a file in '/proc'"):
        check(Path("/proc/plies-test.txt"))


def test_own_output_an_empty_file_and_a_new_file_need_no_question(tmp_path: Path) -> None:
    asked: list[str] = []

    def ask(question: str) -> bool:
        asked.append(question)
        return False

    ours = tmp_path / "ours.txt"
    ours.write_bytes(b"header\nmade by the test\n")
    empty = tmp_path / "empty.txt"
    empty.touch()
    for path in (ours, empty, tmp_path / "new.txt"):
        assert check(path, ask=ask) == path
    assert asked == []
    assert leftovers(tmp_path) == []


def test_a_users_file_and_a_write_protected_one_are_replaced_on_yes_only(
    tmp_path: Path
) -> None:
    mine = tmp_path / "mine.txt"
    mine.write_text("mine")
    protected = tmp_path / "protected.txt"
    protected.write_bytes(b"made by the test")
    protected.chmod(0o444)
    for path, why in ((mine, "exists and is not a test file"), (protected, "is write-protected")):
        asked: list[str] = []

        def yes(question: str, asked: list[str] = asked) -> bool:
            asked.append(question)
            return True

        assert check(path, ask=yes) == path
        assert asked == [f"{path} {why}; replace it?"]
        with pytest.raises(OutputFileError, match=f"{why}; give --force to replace it"):
            check(path, ask=lambda q: False)
        assert check(path, force=True, ask=lambda q: pytest.fail("asked")) == path


def test_without_a_terminal_nothing_is_asked_and_the_answer_is_no(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = tmp_path / "mine.txt"
    mine.write_text("mine")
    with open(os.devnull) as null:
        monkeypatch.setattr(sys, "stdin", null)
        with pytest.raises(OutputFileError, match="give --force"):
            check(mine)


def test_an_interrupted_write_leaves_the_old_file_and_no_temporary_file(
    tmp_path: Path
) -> None:
    out = tmp_path / "out.txt"
    out.write_text("old\n")
    with pytest.raises(KeyboardInterrupt), replacing(out) as file:
        file.write(b"half of the new")
        raise KeyboardInterrupt
    assert out.read_text() == "old\n" and leftovers(tmp_path) == []
    with pytest.raises(KeyboardInterrupt), replacing(tmp_path / "new.txt") as file:
        raise KeyboardInterrupt
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_the_replacement_keeps_the_mode_and_a_new_file_gets_the_umasks(
    tmp_path: Path
) -> None:
    out = tmp_path / "out.txt"
    out.write_text("old")
    out.chmod(0o640)
    write_text(out, "new")
    assert out.read_text() == "new" and stat.S_IMODE(out.stat().st_mode) == 0o640
    umask = os.umask(0o027)
    try:
        write_text(tmp_path / "fresh.txt", "x")
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "fresh.txt").stat().st_mode) == 0o640


def test_save_weights_writes_atomically(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    path = tmp_path / "w.json"
    save_weights(path, "othello", {"corners": 1.0})
    before = path.read_bytes()
    no_space(monkeypatch)
    with pytest.raises(WeightsFileError, match="No space left on device"):
        save_weights(path, "othello", {"corners": 2.0})
    assert path.read_bytes() == before and leftovers(tmp_path) == []


def test_every_file_plies_writes_goes_through_plies_outputs() -> None:
    """One place writes files: a ``Path.write_text``, an ``open(..., "w")`` or a
    ``savefig(path)`` elsewhere would bring back the half-written file."""
    import ast

    found = []
    for source in sorted((SRC / "plies").rglob("*.py")):
        if source.name == "outputs.py" and source.parent.name == "plies":
            continue
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            where = f"{source.relative_to(SRC)}:{node.lineno}"
            if isinstance(func, ast.Attribute) and name in ("write_text", "write_bytes"):
                found.append(where)
            modes = [a.value for a in [*node.args[1:2], *(k.value for k in node.keywords
                                                         if k.arg == "mode")]
                     if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if name == "open" and any(set(m) & set("wax+") for m in modes):
                found.append(where)
            if name == "savefig" and node.args and not (
                isinstance(node.args[0], ast.Name) and node.args[0].id == "file"
            ):
                found.append(where)
    assert found == []


@pytest.mark.parametrize(("answer", "replaced"), [("y", True), ("n", False), ("", False)])
def test_on_a_terminal_plies_asks_before_replacing_a_users_file(
    tmp_path: Path, answer: str, replaced: bool
) -> None:
    import pty
    import select

    mine = tmp_path / "notes.txt"
    mine.write_text(USERS)
    leader, follower = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "plies", "tree", "tictactoe", "--depth", "1", "--format",
         "dot", "--out", str(mine)],
        stdin=follower, stdout=subprocess.PIPE, stderr=follower, env=env,
    )
    os.close(follower)
    seen = b""
    try:
        while b"[y/N]" not in seen:  # wait for the question, not for a time
            ready, _, _ = select.select([leader], [], [], 60)
            assert ready, seen
            seen += os.read(leader, 1024)
        os.write(leader, answer.encode() + b"\n")
        proc.wait(timeout=60)
        with contextlib.suppress(OSError):  # the rest of stderr (the error line, if any)
            while select.select([leader], [], [], 0.5)[0]:
                seen += os.read(leader, 1024)
    finally:
        if proc.poll() is None:
            proc.kill()
        assert proc.stdout is not None
        proc.stdout.close()
        proc.wait()
        os.close(leader)
    assert f"plies: {mine} exists and is not a tree plies drew; replace it? [y/N]".encode() in seen
    if replaced:
        assert proc.returncode == 0 and mine.read_text().startswith("digraph search_tree {")
    else:
        assert proc.returncode == 2 and mine.read_text() == USERS
        assert b"give --force to replace it" in seen
