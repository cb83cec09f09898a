"""The strength benchmark's match runner (``benchmarks/chess_match.py``), end to end.

One short game against each opponent proves that the runner drives both engines, scores
the game, counts nodes per second on both sides and writes the PGN.  Nothing here
asserts a time or a strength: those are the benchmark's output, not facts to test.

sunfish (``pip install --no-deps sunfish``, which ``make`` does) and Stockfish
(``apt-get install stockfish``, which ``.ci/run`` does) are required: a missing one fails
with the line that installs it, never a skip.
"""

from __future__ import annotations

import importlib.util
import io
import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import chess
import chess.pgn
import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "chess_match.py"
SUNFISH = importlib.util.find_spec("sunfish") is not None
STOCKFISH = shutil.which("stockfish") or "/usr/games/stockfish"


def load() -> ModuleType:
    """The runner as a module (it lives outside the package), loaded once."""
    if "chess_match" not in sys.modules:
        spec = importlib.util.spec_from_file_location("chess_match", SCRIPT)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["chess_match"] = module  # its dataclasses look their module up there
        spec.loader.exec_module(module)
    return sys.modules["chess_match"]


def needs(present: bool, what: str) -> None:
    if not present:
        pytest.fail(f"{what} is missing: make (sunfish) and .ci/run (Stockfish) install it")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300,
    )


def short_game(tmp_path: Path, *opponent: str) -> tuple[dict[str, Any], chess.pgn.Game]:
    """One game from the first opening, 0.05 s a move, a draw at 20 plies."""
    pgn = tmp_path / "games.pgn"
    done = run(*opponent, "--games", "1", "--movetime", "0.05", "--max-plies", "20",
               "--json", "--pgn", str(pgn))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    game = chess.pgn.read_game(io.StringIO(pgn.read_text(encoding="utf-8")))
    assert game is not None
    return report, game


def check_one_game(report: dict[str, Any], game: chess.pgn.Game) -> None:
    (match,) = report["matches"]
    assert match["games"] == 1
    assert match["wins"] + match["draws"] + match["losses"] == 1
    (record,) = match["game_list"]
    assert record["plies_white"] is True  # game 1: plies has white
    assert game.headers["White"] == "plies"
    assert game.headers["Result"] == record["result"]
    assert game.headers["Opening"] == "Ruy Lopez, Morphy Defence"
    board = game.end().board()
    assert board.ply() == record["length"] <= 20
    assert record["score"] == {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[record["result"]]
    if board.ply() == 20:
        assert record["reason"] == "move cap (20 plies)"
    moved = board.ply() - 6  # the opening has 6 plies
    sides = match["sides"]
    assert sides["plies"]["moves"] + sides["opponent"]["moves"] == moved
    for side in sides.values():
        assert side["moves"] >= 1
        assert side["nodes"] > 0 and side["nps"] > 0


def test_the_openings_are_legal_distinct_lines_of_4_to_8_plies() -> None:
    module = load()
    seen = set()
    for name, line in module.OPENINGS:
        board = chess.Board()
        for uci in line.split():
            board.push_uci(uci)  # raises on an illegal move
        assert 4 <= board.ply() <= 8, name
        assert board.outcome() is None
        seen.add(board.epd())
    assert len(seen) == len(module.OPENINGS)


def test_the_elo_difference_is_400_log10_of_the_odds_of_the_score() -> None:
    module = load()
    games = [module.GameRecord(i, "x", i % 2 == 0, "", "", 40, s)
             for i, s in enumerate([1.0] * 5 + [0.5] * 2 + [0.0] * 3)]
    elo = module.elo(games)
    assert elo["elo"] == pytest.approx(-400 * math.log10(1 / 0.6 - 1))
    assert elo["low"] < elo["elo"] < elo["high"]
    assert elo["prior"] == 0.0
    swept = module.elo(games[:5])  # all won: no finite maximum likelihood, one virtual draw
    assert swept["prior"] == 1.0 and math.isfinite(swept["elo"]) and swept["elo"] > 0


def test_adjudication_needs_both_engines_to_agree_for_several_moves() -> None:
    adjudicate = load().adjudicate
    assert adjudicate([1200, 1500, 1100], 1000, 2) is None  # one move short
    assert adjudicate([1200, 1500, 1100, 1000], 1000, 2) == "1-0"
    assert adjudicate([-1200, -1500, 900, -1000], 1000, 2) is None
    assert adjudicate([0, -1200, -1500, -1100, -1000], 1000, 2) == "0-1"


def test_one_short_game_against_sunfish(tmp_path: Path) -> None:
    needs(SUNFISH, "sunfish (pip install --no-deps sunfish)")
    report, game = short_game(tmp_path, "--opponent", "sunfish")
    check_one_game(report, game)
    assert game.headers["Black"] == "sunfish"


def test_one_short_game_against_stockfish_at_its_lowest_elo(tmp_path: Path) -> None:
    needs(os.access(STOCKFISH, os.X_OK), "Stockfish (apt-get install stockfish)")
    report, game = short_game(tmp_path, "--opponent", "stockfish", "--elo", "1350",
                              "--stockfish", STOCKFISH)
    check_one_game(report, game)
    (match,) = report["matches"]
    assert match["options"] == {"Threads": 1, "Hash": 16, "UCI_LimitStrength": True,
                                "UCI_Elo": 1350}
    assert game.headers["Black"] == "Stockfish UCI_Elo 1350"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--opponent", "gnuchess"], "unknown opponent 'gnuchess'; the opponents are"),
        (["--opponent", "stockfish", "--elo", "1350", "--stockfish", "/nonexistent/sf"],
         "Stockfish not found at /nonexistent/sf"),
        (["--opponent", "stockfish"], "needs at least one --elo N or --skill N"),
        (["--opponent", "sunfish", "--elo", "1500"], "--elo and --skill are Stockfish options"),
        (["--opponent", "sunfish", "--plies-option", "Hash"], "--plies-option takes NAME=VALUE"),
        (["--opponent", "sunfish", "--games", "0"], "--games must be at least 1"),
    ],
)
def test_bad_input_is_one_line_and_exit_status_2(args: list[str], message: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr
    assert done.stderr.startswith("chess_match: ")


def test_an_option_plies_does_not_have_is_one_line_and_exit_status_2() -> None:
    needs(SUNFISH, "sunfish (pip install --no-deps sunfish)")
    done = run("--opponent", "sunfish", "--games", "1", "--plies-option", "Contempt=10")
    assert done.returncode == 2
    assert done.stderr.startswith("chess_match: plies has no option 'Contempt'; its options are: ")
    assert "Hash" in done.stderr and done.stderr.count("\n") == 1
