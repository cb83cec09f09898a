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

and ``kernel``: the compiled move generator (:func:`plies.games.chess.kernel.perft`,
Numba; its compilation is not timed).

Then, with ``--search SECONDS``, what a real search makes of it: the ``plies uci`` engine
(in process: ``position`` + ``go movetime``) on :data:`SEARCH_POSITIONS` with each
backend of the chess game (``python``: the generic engine on python-chess's rules;
``numba``: the compiled engine of the ``compiled_search`` hook, which ``auto`` also runs
once compiled), the backends taking turns position by position, reporting the last
finished depth, the nodes (quiescence included), nodes per second of wall time and of
process CPU time (the machine may be shared: CPU time is the steadier measure), then per
backend the mean depth and the median nodes per CPU second, and their ratio.

Run: ``PYTHONPATH=src python benchmarks/chess_nodes.py [depth] [--search 0.5]`` (default
depth 3, no search).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import chess

from plies.games.chess import Chess, ChessState

MIDDLEGAME = "r1bq1rk1/pp1nbppp/2p1pn2/3p2B1/2PP4/2N1PN2/PPQ2PPP/R3KB1R w KQ - 0 8"
SEARCH_POSITIONS = {
    "start": "startpos",
    "middlegame": MIDDLEGAME,
    "kiwipete": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "sicilian": "r1bqkb1r/pp2pppp/2np1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 2 6",
    "endgame": "3r4/pp3k2/2p2pp1/3p4/3P1P2/2P1K1P1/PP5R/8 w - - 0 35",
    "tactics": "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 0 7",
}
"""Where ``--search`` runs the engine: openings, middlegames, a rook endgame."""
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

    from plies.games.chess import kernel  # compiled on import (the engine) or first use

    stack = kernel.np.zeros((kernel.MAX_PLY + 2, kernel.ROW), dtype=kernel.np.int64)
    moves = kernel.np.zeros((kernel.MAX_PLY + 2, kernel.MAX_MOVES), dtype=kernel.np.int64)
    stack[0] = kernel.row_of(chess.Board(fen))
    kernel.perft(stack, 0, 1, moves)  # compiled before the clock starts
    start = time.perf_counter()
    leaves = kernel.perft(stack, 0, depth, moves)
    seconds = time.perf_counter() - start
    print(f"{name:<10} {'kernel':<8} {leaves:>9,} {seconds:>8.3f} {leaves / seconds:>9,.0f} "
          f"{leaves / seconds / base:>6.0f}x  (leaves only)")
    collect(game.initial_state(), depth - 1)  # outcomes decided: evaluate alone is timed
    count, seconds = timed(lambda: sum(1 for s in states if game.evaluate(s, 0) < 1e9))
    print(f"{name:<10} {'evaluate':<8} {count:>9,} {seconds:>8.2f} {count / seconds:>9,.0f}")


def search(name: str, fen: str, seconds: float, backend: str) -> tuple[int, float]:
    """One ``go movetime`` of the UCI engine, in process, with the chess game's
    ``backend``; its last info line, summed up; (depth, nodes per CPU second)."""
    from plies.uci.protocol import UciEngine

    lines: list[str] = []
    engine = UciEngine(lines.append)
    engine.game.backend = backend  # what the engine's game hands the policy layer
    engine.handle("position startpos" if fen == "startpos" else f"position fen {fen}")
    if backend != "python":
        engine.game.compiled_search()  # made (and its kernel compiled) before the clock
    wall, cpu = time.perf_counter(), time.process_time()
    engine.handle(f"go movetime {int(seconds * 1000)}")
    engine.wait()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    info = [line.split() for line in lines if line.startswith("info depth")][-1]
    depth, nodes = int(info[info.index("depth") + 1]), int(info[info.index("nodes") + 1])
    spent = max(int(info[info.index("time") + 1]) / 1000, 1e-3)  # to the last iteration
    share = cpu / wall  # the part of a core the process had
    per_cpu = nodes / (spent * share)
    print(
        f"{name:<10} {backend:<7} {depth:>5} {nodes:>9,} {spent:>7.2f} {nodes / spent:>9,.0f} "
        f"{per_cpu:>11,.0f} {share:>5.2f}  {lines[-1]}"
    )
    return depth, per_cpu


def main(depth: int, seconds: float, backends: list[str]) -> None:
    print(f"perft to depth {depth}: positions made per second (every node counted)")
    print(f"{'position':<10} {'way':<8} {'nodes':>9} {'seconds':>8} {'nodes/s':>9} {'vs raw':>7}")
    for name, fen in POSITIONS.items():
        measure(name, fen, depth)
    if seconds:
        print(f"\nplies uci, go movetime {int(seconds * 1000)}: the last finished iteration")
        print(
            f"{'position':<10} {'backend':<7} {'depth':>5} {'nodes':>9} {'seconds':>7} "
            f"{'nodes/s':>9} {'nodes/cpu-s':>11} {'share':>5}  bestmove"
        )
        runs: dict[str, list[tuple[int, float]]] = {b: [] for b in backends}
        for i, (name, fen) in enumerate(SEARCH_POSITIONS.items()):
            order = backends if i % 2 == 0 else backends[::-1]  # taking turns
            for backend in order:
                runs[backend].append(search(name, fen, seconds, backend))
        print(f"\n{'backend':<7} {'mean depth':>10} {'median nodes/cpu-s':>19}")
        medians = {}
        for backend, results in runs.items():
            medians[backend] = statistics.median(r[1] for r in results)
            mean_depth = statistics.mean(r[0] for r in results)
            print(f"{backend:<7} {mean_depth:>10.2f} {medians[backend]:>19,.0f}")
        if len(backends) == 2:
            a, b = backends
            print(f"ratio {b}/{a} of the medians: {medians[b] / medians[a]:.1f}x")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("depth", nargs="?", type=int, default=3)
    parser.add_argument("--search", type=float, default=0.0, metavar="SECONDS")
    parser.add_argument("--backends", default="python,numba",
                        help="the chess game's backends to search with, comma-separated")
    args = parser.parse_args()
    main(args.depth, args.search, [b.strip() for b in args.backends.split(",") if b.strip()])
