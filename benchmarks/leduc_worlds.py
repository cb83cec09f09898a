"""Determinization at Leduc poker, in chips: the games of a ``plies tournament``, replayed.

``plies tournament`` scores a game as a win, a draw or a loss, which is the wrong measure
for poker (folding a bad hand loses the hand and saves chips).  This script runs the same
round robin as the command (same agents, games, seed, so the very same hands) through
:func:`plies.tournament.tournament.tournament` and prints, besides the tournament's
standings, each agent's mean chips per hand with a 95% interval (1.96 standard errors)
and the chips per hand of every pairing.

``--agreement 1,3,10`` instead counts, over every decision of every deal (3,780 of them),
how often determinization with that many sampled worlds (seed 0) chooses the action it
chooses with all the worlds listed exactly: what sampling costs, without games.

Run (the agents of benchmarks/results/worlds.md)::

    PYTHONPATH=src python benchmarks/leduc_worlds.py --games 200 --seed 1 \\
        determinize determinize:worlds=3 policy:name=honest random expectiminimax
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from plies.parallel.backends import LocalBackend
from plies.tournament.tournament import tournament


def agreement(counts: list[int]) -> None:
    """Print, per number of worlds, the decisions where sampling changes the choice."""
    from plies.games import load
    from plies.games.leduc import DEALS
    from plies.search import determinize

    game = load("leduc")
    decisions = []
    for deal in DEALS:
        todo = [game.result(game.initial_state(), deal)]
        while todo:
            state = todo.pop()
            if game.is_terminal(state):
                continue
            if game.to_move(state) >= 0:
                decisions.append(state)
            todo += [game.result(state, a) for a in game.actions(state)]
    exact = [determinize(game, s, None).action for s in decisions]
    print(f"leduc: {len(decisions)} decisions (every deal, public card and betting line)")
    for n in counts:
        started = time.perf_counter()
        other = sum(
            determinize(game, s, n, seed=0).action != a
            for s, a in zip(decisions, exact, strict=True)
        )
        print(f"{n:>3} sampled worlds: {other:>4} choose otherwise than all worlds "
              f"({other / len(decisions):.1%}), {time.perf_counter() - started:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agents", nargs="*")
    parser.add_argument("--agreement", help="comma-separated numbers of worlds")
    parser.add_argument("--game", default="leduc")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.agreement:
        agreement([int(n) for n in args.agreement.split(",")])
        return
    started = time.perf_counter()
    result = tournament(
        args.game, args.agents, rounds=args.games, seed=args.seed, backend=LocalBackend(1)
    )
    elapsed = time.perf_counter() - started
    labels = list(result.agents)
    chips: dict[int, list[float]] = {i: [] for i in range(len(labels))}
    pairs: dict[tuple[int, int], list[float]] = {}
    for record in result.records:
        for seat, agent in enumerate(record.seats):
            chips[agent].append(record.utilities[seat])
        a, b = record.seats
        pairs.setdefault((a, b), []).append(record.utilities[0])
    print(f"{args.game}: {len(result.records)} hands, seed {args.seed}, {elapsed:.1f} s")
    print("\nthe tournament's standings (hands won, lost, split; Elo with 95% interval)")
    print(f"{'agent':>24} {'hands':>6} {'W':>5} {'D':>5} {'L':>5} {'score':>6} "
          f"{'Elo, 95%':>10} {'nodes/move':>10}")
    for s in result.standings():
        half = (s.elo_high - s.elo_low) / 2
        print(f"{s.agent:>24} {s.games:>6} {s.wins:>5} {s.draws:>5} {s.losses:>5} "
              f"{s.score:>6.1%} {s.elo:>+5.0f} ± {half:<2.0f} {s.nodes_per_move:>10,.0f}")
    print("\nchips per hand (both seats), with a 95% interval")
    print(f"{'agent':>24} {'hands':>6} {'chips/hand':>11} {'95% interval':>17}")
    for i, label in sorted(enumerate(labels), key=lambda x: -statistics.mean(chips[x[0]])):
        c = chips[i]
        mean, half = statistics.mean(c), 1.96 * statistics.stdev(c) / math.sqrt(len(c))
        print(f"{label:>24} {len(c):>6} {mean:>+11.3f} {mean - half:>+8.3f} {mean + half:>+8.3f}")
    print("\nchips per hand of the row agent, both seats (row vs column)")
    width = max(len(label) for label in labels) + 2
    print(" " * width + "".join(f"{label:>{width}}" for label in labels))
    for i, row in enumerate(labels):
        cells = []
        for j in range(len(labels)):
            if i == j:
                cells.append(f"{'-':>{width}}")
                continue
            mine = pairs.get((i, j), []) + [-u for u in pairs.get((j, i), [])]
            cells.append(f"{statistics.mean(mine):>+{width}.3f}")
        print(f"{row:>{width}}" + "".join(cells))


if __name__ == "__main__":
    main()
