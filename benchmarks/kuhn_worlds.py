"""Determinization in Kuhn poker, measured exactly: expected chips per hand, no sampling noise.

Each strategy maps an information set ``(own card, betting so far)`` to the probability of
``bet``; the expected payoff of a pairing is summed over the six deals and every betting
line, so the numbers are exact (no random games).  Strategies:

- ``determinize``: :func:`plies.search.determinize.determinize` with every world listed
  (``worlds=None``); ties go to the first action, ``pass``;
- ``determinize-5``: the same with 5 sampled worlds per decision (seed 0);
- ``random``: bet half the time everywhere;
- ``nash``: Kuhn's equilibrium with alpha = 0 (P0 never bluffs the jack, never bets the king
  first and calls with the queen 1/3 of the time after pass-bet; P1 bluffs the jack 1/3, calls
  with the queen 1/3, always bets or calls the king); its value is -1/18 for P0;
- ``best-response``: the best pure reply to the other seat's strategy (all 64 tried).

Run: ``PYTHONPATH=src python benchmarks/kuhn_worlds.py``.  Prints P0's expected chips per
hand for every pairing (row: P0's strategy, column: P1's).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from plies.games.kuhn import BET, DEALS, PASS, KuhnPoker, KuhnState
from plies.search.determinize import determinize

KUHN = KuhnPoker()
J, Q, K = 0, 1, 2
Strategy = dict[tuple[int, Any], float]  # (player, information set) -> probability of bet


def decisions() -> list[KuhnState]:
    found = []
    for deal in DEALS:
        todo = [KuhnState(deal, ())]
        while todo:
            state = todo.pop()
            if not KUHN.is_terminal(state):
                found.append(state)
                todo += [KUHN.result(state, a) for a in (PASS, BET)]
    return found


def key(state: KuhnState) -> tuple[int, Any]:
    mover = KUHN.to_move(state)
    return mover, KUHN.information_set(state, mover)


def pure(choose: Callable[[KuhnState], str]) -> Strategy:
    return {key(s): 1.0 if choose(s) == BET else 0.0 for s in decisions()}


def nash() -> Strategy:
    third = 1 / 3
    p0 = {(J, ()): 0.0, (Q, ()): 0.0, (K, ()): 0.0,
          (J, (PASS, BET)): 0.0, (Q, (PASS, BET)): third, (K, (PASS, BET)): 1.0}
    p1 = {(J, (PASS,)): third, (Q, (PASS,)): 0.0, (K, (PASS,)): 1.0,
          (J, (BET,)): 0.0, (Q, (BET,)): third, (K, (BET,)): 1.0}
    return {**{(0, k): v for k, v in p0.items()}, **{(1, k): v for k, v in p1.items()}}


def value(first: Strategy, second: Strategy) -> float:
    """P0's expected chips when P0 plays ``first`` and P1 plays ``second``."""

    def walk(state: KuhnState) -> float:
        if KUHN.is_terminal(state):
            return KUHN.utility(state, 0)
        mover, seen = key(state)
        bet = (first if mover == 0 else second)[(mover, seen)]
        return (1 - bet) * walk(KUHN.result(state, PASS)) + bet * walk(KUHN.result(state, BET))

    return sum(walk(KuhnState(deal, ())) for deal in DEALS) / len(DEALS)


def best_response(against: Strategy, seat: int) -> float:
    """P0's chips when ``seat`` plays its best pure reply to ``against`` in the other seat."""
    sets = sorted({k for k in against if k[0] == seat}, key=str)
    outcomes = []
    for choice in itertools.product((0.0, 1.0), repeat=len(sets)):
        mine = dict(zip(sets, choice, strict=True))
        outcomes.append(value(mine, against) if seat == 0 else value(against, mine))
    return max(outcomes) if seat == 0 else min(outcomes)


def main() -> None:
    strategies = {
        "determinize": pure(lambda s: determinize(KUHN, s, None).action),
        "determinize-5": pure(lambda s: determinize(KUHN, s, 5, seed=0).action),
        "random": dict.fromkeys((key(s) for s in decisions()), 0.5),
        "nash": nash(),
    }
    names = list(strategies)
    print("P0's expected chips per hand (row: P0, column: P1), exact")
    print(f"{'':>15}" + "".join(f"{n:>15}" for n in [*names, "best-response"]))
    for row in names:
        cells = [value(strategies[row], strategies[col]) for col in names]
        cells.append(best_response(strategies[row], 1))
        print(f"{row:>15}" + "".join(f"{c:>+15.4f}" for c in cells))
    cells = [best_response(strategies[col], 0) for col in names]
    print(f"{'best-response':>15}" + "".join(f"{c:>+15.4f}" for c in cells))


if __name__ == "__main__":
    main()
