"""What a chess node costs through the plies game model, beside raw python-chess.

Perft (the leaf count of the legal-move tree) of the start position and Kiwipete, three
ways, each counting every position it makes:

- ``raw``: python-chess alone, ``push``/``pop`` on one board (how python-chess's own perft
  runs; a search through the game model cannot do this, because ``result`` must not
  mutate its input);
- ``copy``: python-chess with ``board.copy(stack=False)`` + ``push`` per child, the floor
  of any non-mutating model on python-chess;
- ``plies``: ``Chess.actions`` + ``Chess.result`` + ``Chess.is_terminal`` (what every
  plies search calls per node), and, separately, ``Chess.evaluate`` per position.

Run: ``PYTHONPATH=src python benchmarks/chess_nodes.py [depth]`` (default depth 3).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import chess

from plies.games.chess import Chess, ChessState

POSITIONS = {
    "start": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "kiwipete": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
}


def raw(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    nodes = 1
    for move in list(board.legal_moves):
        board.push(move)
        nodes += raw(board, depth - 1)
        board.pop()
    return nodes


def copying(board: chess.Board, depth: int) -> int:
    if depth == 0:
        any(True for _ in board.generate_legal_moves())  # the terminal test's work
        return 1
    nodes = 1
    for move in list(board.generate_legal_moves()):
        child = board.copy(stack=False)
        child.push(move)
        nodes += copying(child, depth - 1)
    return nodes


def through_plies(game: Chess, state: ChessState, depth: int) -> int:
    if game.is_terminal(state) or depth == 0:
        return 1
    nodes = 1
    for action in game.actions(state):
        nodes += through_plies(game, game.result(state, action), depth - 1)
    return nodes


def timed(run: Callable[[], int]) -> tuple[int, float]:
    start = time.perf_counter()
    nodes = run()
    return nodes, time.perf_counter() - start


def measure(name: str, fen: str, depth: int) -> None:
    game = Chess(fen)
    runs = {
        "raw": lambda: raw(chess.Board(fen), depth),
        "copy": lambda: copying(chess.Board(fen), depth),
        "plies": lambda: through_plies(game, game.initial_state(), depth),
    }
    base = 0.0
    for way, run in runs.items():
        nodes, seconds = timed(run)
        nps = nodes / seconds
        base = base or nps
        ratio = nps / base
        print(f"{name:<10} {way:<8} {nodes:>9,} {seconds:>8.2f} {nps:>9,.0f} {ratio:>6.2f}x")
    states: list[ChessState] = []

    def collect(state: ChessState, d: int) -> None:
        states.append(state)
        if d and not game.is_terminal(state):
            for action in game.actions(state):
                collect(game.result(state, action), d - 1)

    collect(game.initial_state(), depth - 1)  # outcomes decided: evaluate alone is timed
    count, seconds = timed(lambda: sum(1 for s in states if game.evaluate(s, 0) < 1e9))
    print(f"{name:<10} {'evaluate':<8} {count:>9,} {seconds:>8.2f} {count / seconds:>9,.0f}")


def main(depth: int) -> None:
    print(f"perft to depth {depth}: positions made per second (every node counted)")
    print(f"{'position':<10} {'way':<8} {'nodes':>9} {'seconds':>8} {'nodes/s':>9} {'vs raw':>7}")
    for name, fen in POSITIONS.items():
        measure(name, fen, depth)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
