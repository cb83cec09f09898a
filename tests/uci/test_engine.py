"""``plies uci`` driven as a chess GUI drives it: python-chess over a pipe."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.engine
import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
COMMAND = [sys.executable, "-m", "plies", "uci"]
MATE_IN_1 = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4"  # Qxf7#


def environment() -> dict[str, str]:
    import os

    env = dict(os.environ)
    env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
    return env


@pytest.fixture(scope="module")
def engine() -> Iterator[chess.engine.SimpleEngine]:
    with chess.engine.SimpleEngine.popen_uci(COMMAND, env=environment(), timeout=30) as eng:
        yield eng


def test_the_engine_names_itself_and_offers_a_hash_option(
    engine: chess.engine.SimpleEngine,
) -> None:
    assert engine.id["name"] == "plies"
    assert "Hash" in engine.options
    engine.configure({"Hash": 8})
    engine.ping()


def test_analyse_to_a_depth_reports_depth_score_nodes_and_a_legal_pv(
    engine: chess.engine.SimpleEngine,
) -> None:
    board = chess.Board()
    board.push_uci("e2e4")
    info = engine.analyse(board, chess.engine.Limit(depth=3))
    assert info["depth"] == 3
    assert info["score"].relative.score() is not None
    assert info["nodes"] > 0 and "nps" in info and "time" in info
    assert 0 <= info["hashfull"] <= 1000  # per mille of the slots
    pv = info["pv"]
    assert pv
    probe = board.copy()
    for move in pv:
        assert probe.is_legal(move)
        probe.push(move)


def test_a_mate_in_one_is_played_and_scored_mate_1(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board(MATE_IN_1)
    info = engine.analyse(board, chess.engine.Limit(depth=2))
    assert info["score"].relative == chess.engine.Mate(1)
    assert info["pv"][0] == chess.Move.from_uci("f3f7")
    played = engine.play(board, chess.engine.Limit(time=0.2))
    assert played.move == chess.Move.from_uci("f3f7")


MORPHY = "4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 0 16"  # 16.Qb8+ Nxb8 17.Rd8#


def test_a_mate_in_two_is_scored_mate_2_and_the_mated_side_sees_mate_minus_1(
    engine: chess.engine.SimpleEngine,
) -> None:
    board = chess.Board(MORPHY)
    info = engine.analyse(board, chess.engine.Limit(depth=3))
    assert info["score"].relative == chess.engine.Mate(2)
    assert info["pv"][0] == chess.Move.from_uci("b3b8")
    board.push_uci("b3b8")
    info = engine.analyse(board, chess.engine.Limit(depth=2))
    assert info["score"].relative == chess.engine.Mate(-1)


def test_play_with_a_movetime_returns_a_legal_move(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    result = engine.play(board, chess.engine.Limit(time=0.05))
    assert result.move in board.legal_moves


def test_play_with_a_clock_returns_a_legal_move(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    limit = chess.engine.Limit(white_clock=1.0, black_clock=1.0, white_inc=0.01,
                               black_inc=0.01, remaining_moves=40)
    result = engine.play(board, limit)
    assert result.move in board.legal_moves


def test_play_with_a_node_budget_returns_a_legal_move(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    result = engine.play(board, chess.engine.Limit(nodes=200))
    assert result.move in board.legal_moves


def test_garbage_then_go_infinite_then_stop_sends_a_bestmove() -> None:
    proc = subprocess.Popen(
        COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=environment()
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write("\x07garbage \u00e9 in\nposition startpos\ngo infinite\n")
        proc.stdin.flush()
        line = proc.stdout.readline()
        assert line.startswith("info string unknown command")  # and it keeps going:
        line = proc.stdout.readline()  # the first finished iteration: it is thinking
        assert line.startswith("info depth 1")
        proc.stdin.write("stop\n")
        proc.stdin.flush()
        sent = time.monotonic()
        while not line.startswith("bestmove"):
            line = proc.stdout.readline()
            assert line, "the engine ended without a bestmove"
        # A hang check, not a speed claim: a stopped search answers long before this.
        assert time.monotonic() - sent < 20
        assert chess.Move.from_uci(line.split()[1]) in chess.Board().legal_moves
        proc.stdin.write("quit\n")
        proc.stdin.flush()
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
        proc.stdout.close()


def test_bytes_that_are_not_utf8_are_an_unknown_command_not_a_crash() -> None:
    env = environment()
    env["PYTHONIOENCODING"] = "utf-8:strict"
    done = subprocess.run(
        COMMAND, input=b"\xff\xfe bad\nisready\nquit\n", capture_output=True, env=env,
        timeout=60, check=False,
    )
    out = done.stdout.decode().splitlines()
    assert done.returncode == 0, done.stderr
    assert out[0].startswith("info string unknown command") and out[1] == "readyok"


BACK_RANK = "6k1/5ppp/8/8/8/8/8/R5K1 w - - {clock} {move}"  # Ra8# (a1a8)
SHUFFLE = "g1h1 g8h8 h1g1 h8g8 g1h1 g8h8 h1g1 h8g8"  # the start position a third time


@pytest.mark.parametrize("claim", ["fifty-move rule", "threefold repetition"])
def test_a_claimable_draw_at_the_root_is_searched_and_the_mate_played(
    engine: chess.engine.SimpleEngine, claim: str
) -> None:
    """Regression: a root that is a claimable draw got no search and played its first
    legal move (``g1h2``) where ``Ra8#`` mates: a claim is the player's, not the end."""
    if claim == "fifty-move rule":
        board = chess.Board(BACK_RANK.format(clock=100, move=80))
    else:
        board = chess.Board(BACK_RANK.format(clock=0, move=1))
        for move in SHUFFLE.split():
            board.push_uci(move)
    assert board.can_claim_draw() and not board.is_game_over()
    played = engine.play(board, chess.engine.Limit(time=0.5), info=chess.engine.INFO_ALL)
    assert played.move == chess.Move.from_uci("a1a8")
    assert played.info["score"].relative == chess.engine.Mate(1)
