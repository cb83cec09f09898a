"""plies on OpenSpiel's own Connect Four (``openspiel:connect_four``) beside OpenSpiel's
alpha-beta (``open_spiel.python.algorithms.minimax.alpha_beta_search``), same game, same
position, same depth, same leaf evaluation at a cutoff (:func:`workloads.connect4_score` of
the pyspiel state's history, the benchmarks' shared W2 evaluation, |value| < 0.14).

Both search the same C++ pyspiel states; plies goes through the adapter
(:mod:`plies.games.openspiel`), which clones each state once per child as OpenSpiel's
search does.  Every row checks that the values agree.  Rows: OpenSpiel's alpha-beta; plies'
plain alpha-beta (children in OpenSpiel's order); plies' alpha-beta with engine craft
(transposition table on the history key, history/killer move ordering, PVS).

    python benchmarks/openspiel_native.py [--depths 4,5,6] [--moves "x3 o3"] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from workloads import connect4_score

import plies
from plies.engine.games import load_game, position
from plies.game import GameWrapper


class Scored(GameWrapper[Any, Any]):
    """OpenSpiel's Connect Four with the shared evaluation at cutoffs."""

    def evaluate(self, state: Any, player: int) -> float:
        if state.native.is_terminal():
            return self.game.utility(state, player)
        return connect4_score(state.native.history(), player)


def best_of(repeat: int, search: Callable[[], Any]) -> tuple[float, Any]:
    """The shortest wall time of ``repeat`` runs of ``search`` and its last answer."""
    times, answer = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        answer = search()
        times.append(time.perf_counter() - start)
    return min(times), answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", default="4,5,6")
    parser.add_argument("--moves", default="", help="moves from the start (plies text)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from open_spiel.python.algorithms.minimax import alpha_beta_search

    game = Scored(load_game("openspiel:connect_four"))
    state = position(game, args.moves)[0]
    print(f"position: {args.moves or 'start'}; best of {args.repeat} runs")
    print("| depth | OpenSpiel alpha_beta_search | plies alphabeta | plies alphabeta + craft "
          "| value | plies nodes (plain / craft) |")
    print("|---:|---:|---:|---:|---:|---:|")
    ratios = []
    for depth in (int(d) for d in args.depths.split(",")):
        theirs_t, (theirs, _) = best_of(args.repeat, lambda d=depth: alpha_beta_search(
            game.native, state.native, maximum_depth=d, maximizing_player_id=0,
            value_function=lambda s: connect4_score(s.history(), 0)))
        plain_t, plain = best_of(
            args.repeat, lambda d=depth: plies.alphabeta(game, state, plies.Limit(depth=d)))
        craft_t, craft = best_of(args.repeat, lambda d=depth: plies.alphabeta(
            game, state, plies.Limit(depth=d), tt=True, ordering=True, pvs=True))
        mover = game.to_move(state)  # plies reports the mover's value, OpenSpiel player 0's
        theirs = theirs if mover == 0 else -theirs
        assert plain.value == craft.value == theirs, (plain.value, craft.value, theirs)
        ratios.append(plain_t / theirs_t)
        print(f"| {depth} | {theirs_t:.3f} s | {plain_t:.3f} s | {craft_t:.3f} s | "
              f"{theirs:.4f} | {plain.stats.nodes:,} / {craft.stats.nodes:,} |")
    print(f"\nplies plain / OpenSpiel time, geometric mean: "
          f"{statistics.geometric_mean(ratios):.2f}")


if __name__ == "__main__":
    main()
