"""Does the evaluation's pawn structure and rook-file terms pay? A self-play match.

plies with :data:`~plies.games.chess.evaluation.WEIGHTS` (every feature) against plies with
:data:`~plies.games.chess.evaluation.PLAIN` (material, piece-square tables, bishop pair), both
through the in-process ``plies uci`` engine with ``go nodes N`` (a node budget of the
main search: the same work for both sides whatever the machine's load), from ten
balanced openings with colours alternating; prints each game and the score with an Elo
difference and its 95% interval.

Run: ``PYTHONPATH=src python benchmarks/chess_features.py [nodes]`` (default 2000).
"""

from __future__ import annotations

import math
import sys

import chess

from plies.games.chess import Chess
from plies.games.chess.evaluation import PLAIN, WEIGHTS, Weights
from plies.uci.protocol import UciEngine

OPENINGS = [
    "e2e4 e7e5 g1f3 b8c6", "d2d4 d7d5 c2c4 e7e6", "e2e4 c7c5 g1f3 d7d6", "d2d4 g8f6 c2c4 g7g6",
    "e2e4 e7e6 d2d4 d7d5", "c2c4 e7e5 b1c3 g8f6", "e2e4 c7c6 d2d4 d7d5", "g1f3 d7d5 g2g3 g8f6",
    "d2d4 g8f6 c2c4 e7e6", "e2e4 e7e5 f1c4 g8f6",
]
MAX_PLIES = 200  # then adjudicated a draw


def engine(weights: Weights) -> tuple[UciEngine, list[str]]:
    lines: list[str] = []
    uci = UciEngine(lines.append)
    uci.game = Chess(weights=weights)
    uci.state = uci.game.initial_state()
    return uci, lines


def best_move(uci: UciEngine, lines: list[str], moves: list[str], nodes: int) -> str:
    lines.clear()
    uci.handle("position startpos moves " + " ".join(moves))
    uci.handle(f"go nodes {nodes}")
    uci.wait()
    return [line for line in lines if line.startswith("bestmove")][-1].split()[1]


def elo(score: float) -> float:
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


def main(nodes: int) -> None:
    points: list[float] = []
    for opening in OPENINGS:
        for features_white in (True, False):
            white = engine(WEIGHTS if features_white else PLAIN)
            black = engine(PLAIN if features_white else WEIGHTS)
            board = chess.Board()
            moves = opening.split()
            for move in moves:
                board.push_uci(move)
            while not board.is_game_over(claim_draw=True) and len(moves) < MAX_PLIES:
                uci, lines = white if board.turn else black
                move = best_move(uci, lines, moves, nodes)
                board.push_uci(move)
                moves.append(move)
            result = board.result(claim_draw=True)
            white_points = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
            points.append(white_points if features_white else 1 - white_points)
            side = "White" if features_white else "Black"
            print(f"{opening:<24} features {side:<5} {result:<7} {len(moves):>3} plies", flush=True)
    n = len(points)
    mean = sum(points) / n
    error = math.sqrt(sum((p - mean) ** 2 for p in points) / n / n)
    wins, draws = points.count(1.0), points.count(0.5)
    print(
        f"features: {wins} won, {draws} drawn, {n - wins - draws} lost of {n}: score {mean:.3f}, "
        f"Elo {elo(mean):+.0f} (95%: {elo(mean - 1.96 * error):+.0f} .. "
        f"{elo(mean + 1.96 * error):+.0f}) at {nodes} nodes a move"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
