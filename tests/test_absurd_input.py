"""Absurd but accepted command-line input fails fast, as one line and exit code 2.

Each test is named after an input that once hung, ate memory or printed a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from plies import games
from plies.budget import (
    MAX_INPUT_BYTES,
    Budget,
    BudgetExceeded,
    InputTooLarge,
    NotAFile,
    Stopped,
    read_bytes,
    read_text,
)
from plies.cli import args as cli_args
from plies.cli import main
from plies.errors import GameFormatError, OptionError, WeightsFileError
from plies.games.connect4 import load_positions
from plies.learn.fit import _td_epochs
from plies.linear import load_weights
from plies.parallel.backends import max_workers
from plies.sources import treeparse
from plies.sources.tree import TreeGame
from tests.clirun import fail, plain_pipe  # noqa: F401  (plain_pipe: an autouse fixture)
from tests.gdl.hostile import join_bomb

FIVE_THOUSAND_DIGITS = "7" * 5000

BIG_JOIN = join_bomb("(big ?a ?b ?c ?d ?e ?f ?g ?h)")
"""30 facts and a rule over a 30^8 join whose head keeps every variable, so no shortcut
applies: it grounds for days without a budget."""


def sparse(path: Path, size: int) -> Path:
    """A file of ``size`` bytes that takes no disk space (a hole)."""
    with path.open("wb") as file:
        file.truncate(size)
    return path


def test_huge_pile_option_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert fail(capsys, "solve", "nim", "-o", "piles=99999999999999999999") == (
        "option piles=99999999999999999999 is out of range: "
        "nim accepts piles as 1..8 numbers of 0..64 each"
    )


def test_huge_board_width_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert fail(capsys, "solve", "connect4", "-o", "width=100000") == (
        "option width=100000 is out of range: connect4 accepts width 4..16"
    )


def test_5000_digit_option_is_out_of_range_not_a_conversion_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # int() of 4,301+ digits raises its own ValueError; the message echoed all 5,000.
    message = fail(capsys, "solve", "nim", "-o", "piles=1," + FIVE_THOUSAND_DIGITS)
    assert message.endswith("(5,002 characters) is out of range: nim accepts piles as 1..8 "
                            "numbers of 0..64 each")
    assert len(message) < 200
    message = fail(capsys, "solve", "connect4", "-o", "width=" + FIVE_THOUSAND_DIGITS)
    assert "out of range: connect4 accepts width 4..16" in message and len(message) < 200


def test_5000_digit_player_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    # ValueError: Exceeds the limit (4300 digits) for integer string conversion
    message = fail(capsys, "solve", "tictactoe", "--player", FIVE_THOUSAND_DIGITS)
    assert message == (
        "unknown player '7777777777777777777777777777777777777777...' (5,000 characters); "
        "players are 0 (X), 1 (O)"
    )
    message = fail(capsys, "play", "tictactoe", "--human", FIVE_THOUSAND_DIGITS)
    assert message.startswith("unknown player '777") and len(message) < 200


def test_endless_pig_is_a_prompt_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    message = fail(capsys, "solve", "pig", "-o", "max_turns=none")
    assert "deeper than Python's recursion allows" in message


def test_dev_zero_input_file_is_refused_as_a_device(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # /dev/zero was read until memory ran out; it is refused before a byte is read.
    assert fail(capsys, "analyze", "nim", "--file", "/dev/zero", "--workers", "1") == (
        "cannot read positions file '/dev/zero': it is a character device, not a regular "
        "file; plies reads regular files only"
    )


@pytest.mark.parametrize("name", ["big.tree", "big.json", "big.kif"])
def test_gigabyte_game_file_is_refused_at_the_size_cap(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    path = sparse(tmp_path / name, 2**30)
    assert fail(capsys, "solve", str(path)) == (
        f"{path} is larger than the cap of 16 MiB that plies reads of an input file"
    )


def test_gigabyte_positions_file_is_refused_at_the_size_cap(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = sparse(tmp_path / "positions.txt", 2**30)
    message = fail(capsys, "analyze", "nim", "--file", str(path), "--workers", "1")
    assert message.endswith("is larger than the cap of 16 MiB that plies reads of an input file")


def test_read_text_reads_up_to_the_cap_and_no_further(tmp_path: Path) -> None:
    path = tmp_path / "edge.txt"
    path.write_bytes(b"x" * 100)
    assert read_text(path, limit=100) == "x" * 100
    with pytest.raises(InputTooLarge, match="cap of 99 bytes"):
        read_text(path, limit=99)
    assert MAX_INPUT_BYTES == 16 * 2**20
    with pytest.raises(FileNotFoundError):
        read_text(tmp_path / "missing.txt")


def test_time_bounds_building_a_gdl_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Without a budget the join of this description runs for days; --time bounds it.
    path = tmp_path / "bigjoin.kif"
    path.write_text(BIG_JOIN)
    # Grounding stops when the command's 0.3 s are spent (its budget is what the command
    # left of them): no reasoner is chosen (a choice made when the clock runs out would
    # depend on the machine's load).
    message = fail(capsys, "solve", str(path), "--time", "0.3")
    assert message.startswith("--time 0.3 s ran out while loading ")
    assert "grounding the rules ran out of its budget of 0." in message
    positions = tmp_path / "positions.txt"
    positions.write_text("-\n")
    # A file of positions is analysed in a pool; the game is built first, under --time too.
    assert main(["analyze", str(path), "--file", str(positions), "--time", "0.3",
                 "--workers", "1"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_time_spent_building_is_taken_off_the_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    given: list[Budget] = []
    real = games.load

    def load(spec: str, options: Any, *, budget: Budget) -> Any:
        given.append(budget)
        return real(spec, options, budget=budget)

    monkeypatch.setattr(games, "load", load)
    args = argparse.Namespace(game="tictactoe", option=[], time=2.0, depth=None, nodes=None,
                              unit="ply")
    cli_args.game_of(args)
    assert given == [Budget(seconds=2.0)]
    assert 0 <= args.build_seconds < 2.0
    limit = cli_args.limit_of(args, spent=0.5)  # as if building had taken 0.5 s
    assert limit is not None and limit.time == 1.5
    with pytest.raises(BudgetExceeded, match="nothing is left for the search"):
        cli_args.limit_of(args, spent=2.5)


def test_absurd_worker_count_is_refused_before_any_process_starts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # --workers 100000 started a process per task: thousands of them.
    cap = max_workers()
    message = fail(capsys, "tournament", "tictactoe", "--agent", "random", "--agent", "random",
                   "--workers", "100000")
    assert message.startswith(f"--workers 100,000 is more than {cap} (8 per CPU")
    positions = tmp_path / "positions.txt"
    positions.write_text("5\n")
    message = fail(capsys, "analyze", "tictactoe", "--file", str(positions), "--workers",
                   str(cap + 1))
    assert message.startswith(f"--workers {cap + 1:,} is more than {cap}")


def test_billion_game_tournament_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    # The schedule of 2 * 10**9 games was built in memory before the first game.
    assert fail(capsys, "tournament", "tictactoe", "--agent", "random", "--agent", "random",
                "--games", "1000000000", "--workers", "1") == (
        "a tournament of 2,000,000,000 games is more than the cap of 1,000,000; lower --games "
        "or the number of agents"
    )


# --- the one input layer: regular files only, under the cap (issue 22) --------------------


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    """A FIFO nobody writes to.  Opening it to read would block forever; should a test
    regress, a writer comes after 30 s so the test fails instead of hanging."""
    path = tmp_path / "fifo.json"
    os.mkfifo(path)

    def unblock() -> None:
        with contextlib.suppress(OSError):  # ENXIO: nobody is reading, nothing to unblock
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))

    timer = threading.Timer(30, unblock)
    timer.start()
    yield path
    timer.cancel()


def test_fifo_as_weights_file_is_refused_without_blocking(
    capsys: pytest.CaptureFixture[str], fifo: Path
) -> None:
    # A FIFO given to --weights blocked forever.
    assert fail(capsys, "solve", "othello", "--weights", str(fifo), "--depth", "1") == (
        f"cannot read weights file {str(fifo)!r}: it is a FIFO (named pipe), not a regular "
        "file; plies reads regular files only"
    )


@pytest.mark.parametrize("suffix", [".tree", ".json", ".kif"])
def test_fifo_as_game_file_is_refused_without_blocking(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, suffix: str
) -> None:
    path = tmp_path / f"game{suffix}"
    os.mkfifo(path)
    message = fail(capsys, "solve", str(path))
    assert message.endswith("it is a FIFO (named pipe), not a regular file; plies reads regular "
                            "files only")


def test_fifo_as_ggp_match_game_file_is_refused_without_blocking(fifo: Path) -> None:
    from plies.gdl.parser import load as load_kif

    with pytest.raises(GameFormatError, match="cannot read GDL file: it is a FIFO"):
        load_kif(fifo)


def test_dev_zero_as_weights_file_is_refused_as_a_device(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # /dev/zero as --weights reached 6 GB in 20-30 s.
    message = fail(capsys, "solve", "othello", "--weights", "/dev/zero", "--depth", "1")
    assert message == ("cannot read weights file '/dev/zero': it is a character device, not a "
                       "regular file; plies reads regular files only")


def test_directory_as_input_file_is_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(NotAFile, match="is a directory, not a regular file"):
        read_text(tmp_path)
    with pytest.raises(NotAFile, match="is a directory"):
        load_positions(tmp_path)
    with pytest.raises(WeightsFileError, match="it is a directory"):
        load_weights(tmp_path)


def test_stdin_is_read_as_dash_under_the_same_cap(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"-\n")))
    assert main(["analyze", "nim", "-o", "piles=1,2", "--file", "-", "--workers", "1"]) == 0
    assert "1 position" in capsys.readouterr().out
    weights = b'{"format": "plies-weights", "game": "othello", "weights": {"mobility": 3}}'
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(weights)))
    assert main(["solve", "othello", "--weights", "-", "--depth", "1"]) == 0
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"x" * 101)))
    with pytest.raises(InputTooLarge, match="standard input is larger than the cap of 100 bytes"):
        read_text("-", limit=100, stdin=True)
    # Without stdin=True, "-" is a file name like any other.
    with pytest.raises(FileNotFoundError):
        read_text("-")


def test_sparse_file_past_the_cap_is_refused_without_reading(tmp_path: Path) -> None:
    path = sparse(tmp_path / "huge.json", 2**40)  # a terabyte of nothing
    with pytest.raises(InputTooLarge, match="cap of 16 MiB"):
        read_bytes(path)


def test_weights_file_with_a_5000_digit_number_is_one_line(tmp_path: Path) -> None:
    # ValueError: Exceeds the limit (4300 digits) for integer string conversion
    path = tmp_path / "w.json"
    path.write_text('{"format": "plies-weights", "game": "othello", "weights": '
                    f'{{"mobility": {FIVE_THOUSAND_DIGITS}}}}}')
    with pytest.raises(WeightsFileError, match="holds a number of more than 4,300 digits"):
        load_weights(path)


def test_weight_of_4000_digits_is_not_a_finite_number(tmp_path: Path) -> None:
    # math.isfinite() of an int past a float's range raises OverflowError.
    path = tmp_path / "w.json"
    path.write_text('{"format": "plies-weights", "game": "othello", "weights": '
                    f'{{"mobility": {"9" * 4000}}}}}')
    with pytest.raises(WeightsFileError) as info:
        load_weights(path)
    message = str(info.value)
    assert message.endswith("(4,000 characters), not a finite number") and len(message) < 300


def test_deeply_nested_weights_json_is_one_line(tmp_path: Path) -> None:
    # RecursionError from the JSON decoder.
    path = tmp_path / "w.json"
    path.write_text('{"format": "plies-weights", "game": "othello", "weights": '
                    + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(WeightsFileError, match="nested too deeply"):
        load_weights(path)


def test_tree_file_with_a_billion_players_is_refused_before_work(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # 60 bytes ran 85 s, took 13.7 GB and printed a 2 GB "one-line" error.
    path = tmp_path / "billion.json"
    path.write_text('{"players":1000000000,"root":{"type":"max","children":[1,2]}}')
    assert fail(capsys, "solve", str(path)) == (
        f"{path}: players: 1,000,000,000 is too many: a tree file has at most 100 players"
    )


def test_tree_file_with_more_players_than_two_and_scalar_leaves_is_a_short_message() -> None:
    with pytest.raises(GameFormatError) as info:
        TreeGame.from_json({"players": 100, "root": {"type": "max", "children": [1, 2]}})
    assert str(info.value).endswith("like [0 0 ... 0]") and len(str(info.value)) < 200


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f"p{FIVE_THOUSAND_DIGITS}(1 2)", "no player '77777777777777777777...' (5,000 "
         "characters): a tree file has at most 100 players (p0..p99)"),
        ("p100([1 2] [3 4])", "no player '100': a tree file has at most 100 players"),
        ("max([" + "0 " * 101 + "])", "a leaf of more than 100 values (one per player)"),
        (f"max(1 {FIVE_THOUSAND_DIGITS})", "number '77777777777777777777...' (5,000 "
         "characters) is out of range"),
        (f"chance({FIVE_THOUSAND_DIGITS}/{FIVE_THOUSAND_DIGITS}: 1  1/2: 2)",
         "is out of range for a probability"),
        (f"chance(1/{FIVE_THOUSAND_DIGITS}: 1  1/2: 2)", "is out of range for a probability"),
    ],
)
def test_tree_text_number_of_5000_digits_is_one_short_line(text: str, message: str) -> None:
    # int() of a 5,000-digit player or probability raised ValueError; a leaf's number
    # was echoed whole.
    with pytest.raises(GameFormatError) as info:
        TreeGame.from_text(text)
    assert message in str(info.value) and len(str(info.value)) < 250


def test_tree_probability_1e_minus_99999999_does_not_hang() -> None:
    # Fraction("1e-99999999") computes a 100-million-digit integer.
    with pytest.raises(GameFormatError, match="out of range for a probability"):
        TreeGame.from_text("chance(1e-99999999: 1  1: 2)")


@pytest.mark.parametrize(
    "text",
    [
        f'{{"type": "max", "children": [1, {FIVE_THOUSAND_DIGITS}]}}',
        f'{{"players": {FIVE_THOUSAND_DIGITS}, "root": 1}}',
    ],
)
def test_tree_json_number_of_5000_digits_is_one_line(text: str) -> None:
    with pytest.raises(GameFormatError, match="a number of more than 4,300 digits"):
        TreeGame.from_json(text)


def test_tree_json_int_past_a_float_is_not_finite() -> None:
    # OverflowError: int too large to convert to float
    with pytest.raises(GameFormatError, match=r"root\.children\[1\]: expected a finite number"):
        TreeGame.from_json(f'{{"type": "max", "children": [1, {"9" * 4000}]}}')
    with pytest.raises(GameFormatError, match=r"\.player: no player 1,000,000,000"):
        TreeGame.from_json({"type": "player", "player": 10**9, "children": [[1]]})


def test_tree_file_past_the_node_cap_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # A 15 MiB tree file took 6-7 GB and 133-212 s, under --time 3.  (The cap is
    # lowered here so the test reads a small tree.)
    monkeypatch.setattr(treeparse, "MAX_NODES", 10)
    assert len(TreeGame.from_text("max(" + "1 " * 9 + ")")) == 10
    with pytest.raises(GameFormatError, match="more than 10 nodes"):
        TreeGame.from_text("max(" + "1 " * 10 + ")")
    assert len(TreeGame.from_json({"type": "max", "children": [1] * 9})) == 10
    with pytest.raises(GameFormatError, match="more than 10 nodes"):
        TreeGame.from_json({"type": "max", "children": [1] * 10})
    chance = {"type": "chance", "children": [{"p": 0.5, "node": [1, 2]}] * 2}
    with pytest.raises(GameFormatError, match="more than 10 nodes"):
        TreeGame.from_json({"type": "max", "children": [chance] * 4})


def test_15_mib_json_tree_is_refused_before_its_nodes_are_read(tmp_path: Path) -> None:
    path = tmp_path / "flat.json"
    path.write_text('{"type":"max","children":[' + "1," * (7 * 2**20) + "1]}")
    with pytest.raises(GameFormatError, match="more than 1,000,000 nodes"):
        TreeGame.from_file(path)


def test_tree_deeper_than_256_levels_is_refused() -> None:
    def text(depth: int) -> str:
        return "max(" * depth + "1 2" + ")" * depth

    def obj(depth: int) -> Any:
        node: Any = 1
        for _ in range(depth):
            node = {"type": "max", "children": [node, 2]}
        return node

    assert TreeGame.from_text(text(256)) and TreeGame.from_json(obj(256))
    with pytest.raises(GameFormatError, match="nested too deeply: more than 256 levels"):
        TreeGame.from_text(text(257))
    with pytest.raises(GameFormatError) as info:
        TreeGame.from_json(obj(257))
    message = str(info.value)
    assert "nested too deeply: more than 256 levels" in message and len(message) < 250


def test_time_stops_reading_a_large_tree(tmp_path: Path) -> None:
    # --time did not cover reading a tree file.
    stop = threading.Event()
    stop.set()
    text = "max(" + "1 " * 10_000 + ")"
    with pytest.raises(Stopped, match="reading the tree was stopped"):
        TreeGame.from_text(text, budget=Budget(stop=stop))
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"type": "max", "children": [1] * 10_000}))
    with pytest.raises(BudgetExceeded, match="reading the tree ran out of its budget of 100 steps"):
        games.load(str(path), budget=Budget(steps=100))


def test_td_alpha_1e308_is_refused_before_self_play(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # OverflowError: math range error, after all the self-play.
    out = str(tmp_path / "w.json")
    assert fail(capsys, "learn", "othello", "--method", "td", "--alpha", "1e308",
                "--out", out) == "--alpha must be a step size in (0, 100], got 1e+308"
    assert fail(capsys, "learn", "othello", "--method", "td", "--epochs", "1000000000",
                "--out", out) == "--epochs must be in 1..10,000, got 1,000,000,000"
    assert fail(capsys, "learn", "othello", "--l2", "1e308", "--out", out) == (
        "--l2 must be in [0, 1e+12], got 1e+308")
    assert not Path(out).exists()


def test_diverging_td_fit_is_one_line_not_an_overflow() -> None:
    np = pytest.importorskip("numpy")
    z = np.array([[1e6, 2e6], [3e6, -1e6], [2e6, 2e6]])  # 1e308 x 1e6 overflows
    with pytest.raises(OptionError, match="TD\\(lambda\\) diverged at epoch 1"):
        _td_epochs(np, [(z, 1.0)], np.zeros(2), lam=0.7, alpha=1e308, epochs=5)
