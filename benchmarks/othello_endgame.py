"""Othello endgames: how long the exact solver takes with 10, 12 and 14 empty squares.

Positions come from seeded random games stopped at the given number of empty squares
(the side to move has a move or must pass; finished games are skipped).  For each the
dedicated solver (:class:`plies.solvers.othello.OthelloSolver`) reports the exact score,
nodes, seconds and nodes per second; with ``--generic`` plain :func:`plies.alphabeta`
and engine craft (``tt``, ``ordering``, ``pvs``) solve the same positions for comparison
(slow beyond 10 empties).  ``--perft N`` also times perft from the start position through
the game model.

    PYTHONPATH=src python benchmarks/othello_endgame.py --empties 10 12 14 --positions 3
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import plies
from plies.games.othello import Othello, OthelloState
from plies.solvers.othello import OthelloSolver


def endgame(game: Othello, empties: int, rng: random.Random) -> OthelloState:
    while True:
        state = game.initial_state()
        while not state.over and 64 - (state.mover | state.other).bit_count() > empties:
            state = game.result(state, rng.choice(game.actions(state)))
        if not state.over:
            return state


def perft(game: Othello, state: OthelloState, depth: int) -> int:
    if depth == 0 or state.over:
        return 1
    return sum(perft(game, game.result(state, a), depth - 1) for a in game.actions(state))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--empties", type=int, nargs="+", default=[10, 12, 14])
    parser.add_argument("--positions", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--generic", action="store_true", help="also time plies.alphabeta")
    parser.add_argument("--perft", type=int, default=0, help="time perft to this depth")
    args = parser.parse_args()
    game = Othello()
    if args.perft:
        for depth in range(1, args.perft + 1):
            start = time.perf_counter()
            leaves = perft(game, game.initial_state(), depth)
            elapsed = time.perf_counter() - start
            print(f"perft {depth}: {leaves:>10,} leaves  {elapsed:7.2f} s  "
                  f"{leaves / elapsed:>9,.0f} leaves/s")
    rng = random.Random(args.seed)
    print(f"{'empties':>7} {'#':>2} {'score':>5} {'nodes':>10} {'seconds':>8} {'nodes/s':>9}  "
          "search")
    for empties in args.empties:
        times = []
        for i in range(args.positions):
            state = endgame(game, empties, rng)
            solver = OthelloSolver(game)
            start = time.perf_counter()
            score = solver.score(state)
            elapsed = time.perf_counter() - start
            times.append(elapsed)
            print(f"{empties:>7} {i:>2} {score:>5} {solver.nodes:>10,} {elapsed:>8.2f} "
                  f"{solver.nodes / elapsed:>9,.0f}  solver")
            if args.generic:
                for name, craft in (("alphabeta", {}),
                                    ("alphabeta+craft", {"tt": True, "ordering": True,
                                                         "pvs": True})):
                    result = plies.alphabeta(game, state, **craft)  # type: ignore[arg-type]
                    assert result.value == score, (name, result.value, score)
                    st = result.stats
                    print(f"{empties:>7} {i:>2} {result.value:>5g} {st.nodes:>10,} "
                          f"{st.elapsed:>8.2f} {st.nps:>9,.0f}  {name}")
        print(f"{empties:>7} -- median {statistics.median(times):.2f} s, "
              f"max {max(times):.2f} s over {len(times)} positions")


if __name__ == "__main__":
    main()
