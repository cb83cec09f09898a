"""plies on OpenSpiel's own Connect Four (``openspiel:connect_four``) beside OpenSpiel's
alpha-beta (``open_spiel.python.algorithms.minimax.alpha_beta_search``), same game, same
position, same depth, same leaf evaluation at a cutoff (:func:`workloads.connect4_score` of
the pyspiel state's history, the benchmarks' shared W2 evaluation, |value| < 0.14).

Both search the same C++ pyspiel states; plies goes through the adapter
(:mod:`plies.sources.openspiel`), which clones each state once per child as OpenSpiel's
search does.  Every row checks that the values agree.  Rows: OpenSpiel's alpha-beta; plies'
plain alpha-beta (children in OpenSpiel's order); plies' alpha-beta with engine craft
(transposition table keyed by position, history/killer move ordering, PVS).

``--keys`` measures instead what keying the transposition table by position (OpenSpiel's
text and the mover, ``key=string``, the default for tic-tac-toe and Connect Four) saves
over keying it by the action history (``key=history``): alpha-beta with the table, the
full tic-tac-toe tree and Connect Four to the given depths (scored at the cutoff as above).

    python benchmarks/openspiel_native.py [--depths 4,5,6] [--moves "x3 o3"] [--repeat 3]
    python benchmarks/openspiel_native.py --keys [--depths 6,8,10]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from workloads import connect4_score

import plies
from plies.games import load as load_game
from plies.policy.games import position
from plies.wrappers import GameWrapper


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
    parser.add_argument("--keys", action="store_true", help="position vs history keys")
    args = parser.parse_args()
    if args.keys:
        keys([int(d) for d in args.depths.split(",")], args.moves, args.repeat)
        return
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


def keys(depths: list[int], moves: str, repeat: int) -> None:
    """Alpha-beta with a transposition table under both keys: nodes, table hits, time."""
    print(f"Connect Four from: {moves or 'start'}; best of {repeat} runs")
    print("| game | depth | value | nodes, history key | nodes, position key | saved "
          "| table hits (position) | time, history / position |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    cases = [("openspiel:tic_tac_toe", None, "")]
    cases += [("openspiel:connect_four", depth, moves) for depth in depths]
    for spec, depth, line in cases:
        rows = []
        for key in ("history", "string"):
            game = load_game(spec, {"key": key})
            if "connect_four" in spec:
                game = Scored(game)  # the same cutoff evaluation as the table above
            state = position(game, line)[0]
            limit = plies.Limit(depth=depth)
            rows.append(best_of(repeat, lambda g=game, s=state, lim=limit: plies.alphabeta(
                g, s, lim, tt=True)))
        (history_t, history), (string_t, string) = rows
        assert history.value == string.value, (history.value, string.value)
        print(f"| {spec.removeprefix('openspiel:')} | {depth or 'all'} | {string.value:g} | "
              f"{history.stats.nodes:,} | {string.stats.nodes:,} | "
              f"{history.stats.nodes / string.stats.nodes:.1f}x | {string.stats.tt_hits:,} | "
              f"{history_t:.2f} s / {string_t:.2f} s |")


if __name__ == "__main__":
    main()
