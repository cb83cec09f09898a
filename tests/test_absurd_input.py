"""Absurd but accepted command-line input fails fast, as one line and exit code 2.

Each test is named after an input that once hung, ate memory or printed a traceback.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

from plies import games
from plies.budget import MAX_INPUT_BYTES, Budget, BudgetExceeded, InputTooLarge, read_text
from plies.cli import args as cli_args
from plies.cli import main
from plies.parallel.backends import max_workers
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


def test_dev_zero_input_file_is_refused_at_the_size_cap(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # /dev/zero was read until memory ran out.
    assert fail(capsys, "analyze", "nim", "--file", "/dev/zero", "--workers", "1") == (
        "/dev/zero is larger than the cap of 16 MiB that plies reads of an input file"
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
    # Grounding stops at 0.3 s; the top-down prover that would play instead has no time
    # left for its search.
    message = fail(capsys, "solve", str(path), "--time", "0.3")
    assert message.startswith("building the game took ")
    assert message.endswith("all of --time 0.3 s; nothing is left for the search")
    positions = tmp_path / "positions.txt"
    positions.write_text("-\n")
    # A file of positions is analysed in a pool that builds the game again, with the
    # default budget: there the top-down prover sees at once that the game is over.
    assert main(["analyze", str(path), "--file", str(positions), "--time", "0.3",
                 "--workers", "1"]) == 0
    assert "game over" in capsys.readouterr().out


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
