"""Mixed vs pessimistic play at simultaneous steps: roshambo2 against exploiters.

plies (``GgpPlayer``, served over HTTP on 127.0.0.1) plays roshambo2 (rock, paper,
scissors and "well", best of 9 rounds, first to 5 wins) as ``white`` through the test
suite's game manager, once with ``simultaneous="mixed"`` (the stage game's mixed
strategy, drawn at random) and once with ``"pessimistic"`` (the sequentialisation: a
pure move).  The opponent, played by the manager itself, is one of:

* ``beats-last``: plays a move that beats plies' previous move (random in round 1);
* ``beats-frequent``: plays a move that beats plies' most frequent move so far (of
  equals the most recent; random in round 1);
* ``random``: a uniformly random legal move.

Reported per variant and opponent: matches won/drawn/lost by plies, rounds won/drawn/
lost, how often plies played each move, and late or illegal replies (the manager's
errors).  Not part of the test suite: it takes minutes.

    PYTHONPATH=src python benchmarks/ggp_mixed.py --matches 10 --play 1 --margin 0.7
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):
    path = Path(__file__).resolve().parent.parent
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from plies.gdl.terms import Term
from plies.ggp.player import GgpPlayer
from plies.ggp.server import GgpServer
from tests.ggp.helpers import rules
from tests.ggp.manager import GameManager, HttpSeat, RandomSeat

MOVES = ("paper", "rock", "scissors", "well")
BEATS = {
    ("rock", "scissors"), ("paper", "rock"), ("paper", "well"),
    ("scissors", "paper"), ("well", "scissors"), ("well", "rock"),
}


def beating(move: Term) -> Term:
    """A move that beats ``move``: of two, well, which also beats rock and scissors."""
    return next(m for m in ("well", "paper", "scissors", "rock") if (m, move) in BEATS)


Exploit = Callable[[list[Term], random.Random], Term]


def beats_last(history: list[Term], rng: random.Random) -> Term:
    return beating(history[-1]) if history else rng.choice(MOVES)


def beats_frequent(history: list[Term], rng: random.Random) -> Term:
    if not history:
        return rng.choice(MOVES)
    counts = Counter(history)
    top = max(counts.values())
    frequent = next(m for m in reversed(history) if counts[m] == top)
    return beating(frequent)


OPPONENTS: dict[str, Exploit | None] = {
    "beats-last": beats_last, "beats-frequent": beats_frequent, "random": None,
}


def play(
    manager: GameManager, server: GgpServer, opponent: str, seed: int, play_clock: int,
    match_id: str,
) -> tuple[tuple[int, ...] | None, list[tuple[Term, Term]], list[str]]:
    """One match; returns the goals, the rounds (plies' move, the opponent's) and errors."""
    rng = random.Random(seed)
    exploit = OPPONENTS[opponent]
    history: list[Term] = []
    ours: list[Term] = []

    def override(step: int, role: int, move: Term) -> Term:
        if role == 0:
            ours.append(move)
            return move
        reply = move if exploit is None else exploit(history, rng)
        history.append(ours[-1])
        return reply

    record = manager.play_match(
        [HttpSeat(server.host, server.port), RandomSeat(random.Random(seed + 1))],
        match_id=match_id, start_clock=2, play_clock=play_clock, override=override,
        rng=random.Random(seed + 2),
    )
    rounds = [(step.joint[0], step.joint[1]) for step in record.steps]
    return record.goals, rounds, record.errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10, help="matches per cell")
    parser.add_argument("--play", type=int, default=1, help="play clock (s)")
    parser.add_argument("--margin", type=float, default=0.7, help="player's margin (s)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    manager = GameManager(rules("roshambo2"))
    print(f"load before: {os.getloadavg()[0]:.2f}", flush=True)
    start = time.perf_counter()
    rows = []
    for variant in ("mixed", "pessimistic"):
        for index, opponent in enumerate(OPPONENTS):
            player = GgpPlayer(  # a seed per opponent: independent draws in each row
                margin=args.margin, seed=args.seed + 100 * index,
                simultaneous=variant,  # type: ignore[arg-type]
                metagame_cap=0.3,
            )
            server = GgpServer(player, "127.0.0.1", 0).start()
            matches = Counter[str]()
            rounds = Counter[str]()
            played = Counter[Term]()
            errors: list[str] = []
            try:
                for k in range(args.matches):
                    goals, steps, errs = play(
                        manager, server, opponent, args.seed * 1000 + k, args.play,
                        f"{variant}.{opponent}.{k}",
                    )
                    errors += errs
                    if goals is not None:
                        matches["won" if goals[0] > goals[1] else
                                "lost" if goals[0] < goals[1] else "drawn"] += 1
                    for mine, theirs in steps:
                        played[mine] += 1
                        rounds["won" if (mine, theirs) in BEATS else
                               "lost" if (theirs, mine) in BEATS else "drawn"] += 1
            finally:
                server.stop()
            total = sum(played.values())
            shares = ", ".join(f"{m} {played[m] / total:.2f}" for m in MOVES)
            row = (
                f"| {variant} | {opponent} | {matches['won']}/{matches['drawn']}/"
                f"{matches['lost']} | {rounds['won']}/{rounds['drawn']}/{rounds['lost']} "
                f"| {shares} | {len(errors)} |"
            )
            rows.append(row)
            print(row, flush=True)
            for error in errors:
                print("   ", error, flush=True)
    print()
    print("| plies plays | opponent | matches won/drawn/lost | rounds won/drawn/lost "
          "| plies' moves | late or illegal |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        print(row)
    print(f"\n{time.perf_counter() - start:.0f} s; load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
