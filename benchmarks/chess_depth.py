"""Time to depth of the compiled chess engine: nodes and CPU seconds to a fixed depth.

Iterative deepening of :class:`~plies.games.chess.engine.CompiledSearch` (all switches
on, a fresh table per position) to ``depth`` on :data:`POSITIONS`, one after the other;
per position the nodes (quiescence included), process CPU seconds and the best move,
then the sums.  Node counts do not depend on the machine's load; CPU time is the steadier
measure of time on a shared machine.  Compare two checkouts by running each with its own
``PYTHONPATH``.

Run: ``PYTHONPATH=src python benchmarks/chess_depth.py [depth]`` (default 8).
"""

from __future__ import annotations

import argparse
import time

from plies.games.chess import Chess

POSITIONS: tuple[tuple[str, str], ...] = (
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("1.e4 e5 2.Nf3 Nc6", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"),
    ("Kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("QGD, 8.w", "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8"),
    ("QGD, 9.w", "r2q1rk1/pb1nbppp/1p2pn2/2pp4/2PP4/2NBPN2/PP1B1PPP/R2QK2R w KQ - 0 9"),
    ("rook endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
)


def main(depth: int) -> None:
    from plies.games.chess.engine import CompiledSearch

    warm = Chess(backend="numba")
    CompiledSearch(warm).run(warm, warm.initial_state(), depth=2)  # compile first
    total_nodes, total_cpu = 0, 0.0
    print(f"| position | nodes to depth {depth} | CPU s | move |")
    print("|---|---|---|---|")
    for name, fen in POSITIONS:
        game = Chess(fen, backend="numba")
        search = CompiledSearch(game)
        cpu = time.process_time()
        result = search.run(game, game.initial_state(), depth=depth)
        cpu = time.process_time() - cpu
        total_nodes += result.stats.nodes
        total_cpu += cpu
        print(f"| {name} | {result.stats.nodes:,} | {cpu:.2f} | {result.action} |")
    print(f"| sum | {total_nodes:,} | {total_cpu:.2f} | {total_nodes / total_cpu / 1e6:.2f} M/s |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("depth", nargs="?", type=int, default=8)
    main(parser.parse_args().depth)
