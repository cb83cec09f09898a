"""The linear form of the chess evaluation (plies.games.chess.features) is the evaluation:
rebuilt from counts and weights it equals Evaluator.score on every position tried."""

from __future__ import annotations

import random
from dataclasses import replace

import chess
import pytest

from plies.games.chess.evaluation import ACTIVE, PLAIN, WEIGHTS, Evaluator, Weights
from plies.games.chess.features import counts, linear_score, vector, weights_from
from plies.games.chess.tuned import TUNED


def _positions(n: int, seed: int) -> list[chess.Board]:
    """Positions from random games (every 3rd ply of each), of every phase."""
    rng = random.Random(seed)
    out: list[chess.Board] = []
    while len(out) < n:
        board = chess.Board()
        while not board.is_game_over() and board.ply() < 160 and len(out) < n:
            moves = list(board.legal_moves)
            # Prefer captures now and then, to reach endgames.
            captures = [m for m in moves if board.is_capture(m)]
            board.push(rng.choice(captures if captures and rng.random() < 0.4 else moves))
            if board.ply() % 3 == 0:
                out.append(board.copy(stack=False))
    return out


def _fields(board: chess.Board) -> tuple[tuple[int, int, int, int, int, int], int, int]:
    pieces = (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings)
    return pieces, board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK]


_SHUFFLED = replace(
    ACTIVE, king_attack=(0, 0), doubled=(-13, -27), isolated=(-4, -19),
    rook_open=(31, 7), bishop_pair=(22, 61), shelter=(-30, 0, -9, -17, -25, -31, -3, 0),
    mobility_mg=(3, 6, 1, 2), mobility_eg=(5, 4, 3, 1), piece_mg=(90, 320, 330, 500, 990, 0),
)


@pytest.mark.parametrize(
    "weights", [WEIGHTS, PLAIN, replace(ACTIVE, king_attack=(0, 0)), _SHUFFLED, TUNED],
    ids=["WEIGHTS", "PLAIN", "ACTIVE-no-king-attack", "shuffled", "TUNED"],
)
def test_counts_times_weights_is_the_evaluation(weights: Weights) -> None:
    evaluator = Evaluator(weights)
    values = vector(weights)
    for board in _positions(3000, seed=7):
        fields = _fields(board)
        assert linear_score(counts(*fields, weights), values) == evaluator.score(*fields), (
            board.fen()
        )


def test_weights_from_inverts_vector() -> None:
    for weights in (WEIGHTS, _SHUFFLED):
        rebuilt = weights_from(vector(weights), weights)
        assert vector(rebuilt) == vector(weights)
        board = _positions(50, seed=3)[-1]
        assert Evaluator(rebuilt).score(*_fields(board)) == Evaluator(weights).score(
            *_fields(board)
        )


def test_king_attack_is_refused() -> None:
    with pytest.raises(ValueError, match="king attack"):
        vector(ACTIVE)
