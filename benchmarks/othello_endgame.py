"""Othello endgames: how long the exact solver takes with 10, 12 and 14 empty squares.

Positions come from seeded random games stopped at the given number of empty squares
(the side to move has a move or must pass; finished games are skipped).  For each the
dedicated solver (:class:`plies.games.othello.solver.OthelloSolver`) reports the exact score,
nodes, seconds and nodes per second; with ``--generic`` plain :func:`plies.alphabeta`
and engine craft (``tt``, ``ordering``, ``pvs``) solve the same positions for comparison
(slow beyond 12 empties); ``--selfplay`` takes the positions from games that the
evaluation plays against itself instead of random games.  ``--perft N`` also times
perft from the start position through the game model.  ``--match N`` plays N games of
depth-limited alpha-beta with the game's evaluation against the same search counting discs
only and against random moves (colours alternating, seeded random 4-move openings), with
and without the solver for the last 12 empty squares: a check that the evaluation's
weights (:class:`plies.games.othello.OthelloWeights`) pay for themselves.  ``--backend``
picks the solver's backend (``auto``: compiled when Numba imports).

``--ffo`` solves the FFO endgame test positions #40-#49 (20-26 empty squares,
``tests/data/othello/fforum-40-49.obf``) with the compiled solver, one fresh table each,
and checks every value against the published one: processor seconds, wall seconds and
nodes per position (``--ffo 40 41`` for some of them; ``--limit`` seconds per position,
120 by default, after which a position is stopped and reported unsolved).

    PYTHONPATH=src python benchmarks/othello_endgame.py --empties 10 12 14 --positions 3
    PYTHONPATH=src python benchmarks/othello_endgame.py --empties --match 40 --depth 3
    PYTHONPATH=src python benchmarks/othello_endgame.py --empties --ffo
"""

from __future__ import annotations

import argparse
import random
import statistics
import threading
import time
from pathlib import Path

import plies
from plies.errors import SearchLimitError
from plies.games.othello import Othello, OthelloState, OthelloWeights
from plies.games.othello.positions import read_position
from plies.games.othello.solver import OthelloSolver

FFO = Path(__file__).resolve().parent.parent / "tests" / "data" / "othello" / "fforum-40-49.obf"


def endgame(
    game: Othello, empties: int, rng: random.Random, selfplay: bool = False
) -> OthelloState:
    """A position with ``empties`` empty squares from a random game, or with ``selfplay``
    from a game of depth-2 alpha-beta with the evaluation after 6 random moves (closer to
    real play: random games drift into lopsided positions that solve faster)."""
    while True:
        state = game.initial_state()
        moves = 0
        while not state.over and 64 - (state.mover | state.other).bit_count() > empties:
            if selfplay and moves >= 6:
                action = plies.alphabeta(game, state, plies.Limit(depth=2), tt=True,
                                         ordering=True).action
            else:
                action = rng.choice(game.actions(state))
            state = game.result(state, action)
            moves += 1
        if not state.over:
            return state


def perft(game: Othello, state: OthelloState, depth: int) -> int:
    if depth == 0 or state.over:
        return 1
    return sum(perft(game, game.result(state, a), depth - 1) for a in game.actions(state))


def play(
    game: Othello, black: object, white: object, opening: int, depth: int, exact: int = 0
) -> float:
    """Black's final disc difference; a player is an evaluation game or None (random).

    A player that is ``game`` itself solves the last ``exact`` empty squares exactly.
    """
    rng = random.Random(opening)
    state = game.initial_state()
    solver = OthelloSolver(game, backend="python")
    for _ in range(4):
        state = game.result(state, rng.choice(game.actions(state)))
    while not state.over:
        side = black if state.player == 0 else white
        if side is None:
            action = rng.choice(game.actions(state))
        elif side is game and 64 - (state.mover | state.other).bit_count() <= exact:
            action = solver.solve(state, pv=False).action
        else:
            assert isinstance(side, Othello)
            action = plies.alphabeta(side, state, plies.Limit(depth=depth), tt=True,
                                     ordering=True, pvs=True).action
        state = game.result(state, action)
    return game.utility(state, 0)


def match(game: Othello, games: int, depth: int) -> None:
    discs_only = Othello(OthelloWeights(mobility=0, frontier=0, corners=0, x_squares=0,
                                        c_squares=0, stability=0, discs=64.0))
    for name, rival, exact in (("discs only", discs_only, 0), ("random", None, 0),
                               ("discs only", discs_only, 12), ("random", None, 12)):
        wins = draws = 0
        margin = 0.0
        for i in range(games):
            if i % 2 == 0:
                diff = play(game, game, rival, i // 2, depth, exact)
            else:
                diff = -play(game, rival, game, i // 2, depth, exact)
            wins += diff > 0
            draws += diff == 0
            margin += diff
        solved = f", solver at <= {exact} empties" if exact else ""
        print(f"evaluation{solved} vs {name} at depth {depth}: {wins} wins, {draws} draws, "
              f"{games - wins - draws} losses in {games} games, "
              f"mean disc difference {margin / games:+.1f}")


def ffo(game: Othello, numbers: list[int], backend: str, limit: float) -> None:
    """Solve FFO positions and compare each value with the published one."""
    lines = FFO.read_text().splitlines()
    numbers = numbers or list(range(40, 40 + len(lines)))
    warm = time.perf_counter()
    solver = OthelloSolver(game, backend=backend)
    first = read_position(lines[0].split(";", 1)[0])
    assert first is not None
    here = first.state  # a solve at 14 empty squares compiles what the kernel lacks
    while 64 - (here.mover | here.other).bit_count() > 14 and not game.is_terminal(here):
        here = game.result(here, game.actions(here)[0])
    solver.score(here)
    print(f"backend {solver.backend}; the solver loaded (or compiled) and warmed up in "
          f"{time.perf_counter() - warm:.1f} s")
    print(f"{'#':>3} {'empties':>7} {'move':>4} {'value':>5} {'published':>9} "
          f"{'cpu s':>7} {'wall s':>7} {'nodes':>13} {'nodes/s':>11}")
    solved = 0
    for number in numbers:
        board, published = lines[number - 40].split(";", 1)
        parsed = read_position(board)
        assert parsed is not None
        state = parsed.state
        first = published.split(";")[0].strip()
        best_move, best_value = first.split(":")[0].lower(), int(first.split(":")[1])
        empties = 64 - (state.mover | state.other).bit_count()
        solver.reset()
        stop = threading.Event()
        timer = threading.Timer(limit, stop.set)
        timer.start()
        nodes, cpu, wall = solver.nodes, time.process_time(), time.perf_counter()
        try:
            value = solver.score(state, stop=stop)
            action = solver.best_action(state, value, stop=stop)
        except SearchLimitError:
            value, action = None, None
        finally:
            timer.cancel()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        nodes = solver.nodes - nodes
        if value is None:
            print(f"{number:>3} {empties:>7} {'-':>4} {'-':>5} {best_value:>+9} {cpu:>7.1f} "
                  f"{wall:>7.1f} {nodes:>13,} {nodes / max(cpu, 1e-9):>11,.0f}  "
                  f"stopped after {limit:g} s")
            continue
        move = game.format_action(state, action) if action is not None else "-"
        ok = value == best_value
        solved += ok
        note = "" if ok else "  WRONG"
        if ok and move != best_move:
            note = f"  (published best move {best_move}; first move worth it here)"
        print(f"{number:>3} {empties:>7} {move:>4} {value:>+5} {best_value:>+9} {cpu:>7.1f} "
              f"{wall:>7.1f} {nodes:>13,} {nodes / max(cpu, 1e-9):>11,.0f}{note}")
    print(f"{solved} of {len(numbers)} solved to the published value within {limit:g} s each")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--empties", type=int, nargs="*", default=[10, 12, 14])
    parser.add_argument("--positions", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--selfplay", action="store_true",
                        help="positions from games of the evaluation, not random games")
    parser.add_argument("--generic", action="store_true", help="also time plies.alphabeta")
    parser.add_argument("--perft", type=int, default=0, help="time perft to this depth")
    parser.add_argument("--match", type=int, default=0, help="games against simpler players")
    parser.add_argument("--depth", type=int, default=3, help="search depth of --match")
    parser.add_argument("--backend", default="auto", help="the solver's backend")
    parser.add_argument("--ffo", type=int, nargs="*", default=None,
                        help="solve FFO positions #40-#49 (all, or these numbers)")
    parser.add_argument("--limit", type=float, default=120.0,
                        help="seconds per FFO position before it is stopped")
    args = parser.parse_args()
    game = Othello()
    if args.ffo is not None:
        ffo(game, args.ffo, args.backend, args.limit)
    if args.match:
        match(game, args.match, args.depth)
    if args.perft:
        for depth in range(1, args.perft + 1):
            start = time.perf_counter()
            leaves = perft(game, game.initial_state(), depth)
            elapsed = time.perf_counter() - start
            print(f"perft {depth}: {leaves:>10,} leaves  {elapsed:7.2f} s  "
                  f"{leaves / elapsed:>9,.0f} leaves/s")
    if not args.empties:
        return
    rng = random.Random(args.seed)
    print(f"{'empties':>7} {'#':>2} {'score':>5} {'nodes':>10} {'seconds':>8} {'nodes/s':>9}  "
          "search")
    for empties in args.empties:
        times = []
        for i in range(args.positions):
            state = endgame(game, empties, rng, args.selfplay)
            solver = OthelloSolver(game, backend=args.backend)
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
