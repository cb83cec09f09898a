"""A chess GUI's part, scripted: two ``plies uci`` processes play a game through UCI."""

from __future__ import annotations

import chess
import chess.engine

from tests.uci.test_engine import COMMAND, environment

MAX_PLIES = 40


def test_two_engines_play_a_short_game_with_legal_moves_to_the_end_or_40_plies() -> None:
    """White thinks 50 ms a move, Black on a 1.5 s + 20 ms clock, as a GUI would run them."""
    board = chess.Board()
    with chess.engine.SimpleEngine.popen_uci(COMMAND, env=environment(), timeout=30) as white, \
            chess.engine.SimpleEngine.popen_uci(COMMAND, env=environment(), timeout=30) as black:
        while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
            if board.turn == chess.WHITE:
                limit = chess.engine.Limit(time=0.05)
                result = white.play(board, limit, info=chess.engine.INFO_ALL)
            else:
                limit = chess.engine.Limit(
                    white_clock=1.5, black_clock=1.5,  # the clock as the GUI shows it
                    white_inc=0.02, black_inc=0.02,
                )
                result = black.play(board, limit, info=chess.engine.INFO_ALL)
            assert result.move is not None and result.move in board.legal_moves, board.fen()
            board.push(result.move)
    assert board.ply() == MAX_PLIES or board.is_game_over(claim_draw=True)
    # The game is a real one: both sides moved, and the moves replay from the start.
    replay = chess.Board()
    for move in board.move_stack:
        replay.push(move)
    assert replay.fen() == board.fen()
