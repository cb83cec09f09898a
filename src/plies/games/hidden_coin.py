"""Two tiny games with a hidden coin, where determinization goes wrong (Frank & Basin 1998).

A coin is tossed (heads ``"H"`` or tails ``"T"``, 1/2 each) that P0 never sees and P1
always sees; then the players move by a fixed table.  They are the textbook cases of the
two weaknesses of perfect-information Monte Carlo (:mod:`plies.search.determinize`):

- :func:`strategy_fusion`: P0 takes a sure 0.5 (``safe``) or gambles and must then call
  the coin (+1 if right, -1 if wrong).  In each world the search calls the coin knowing
  it, so ``gamble`` is worth +1 in both worlds and beats 0.5; the real P0 makes one call
  for both worlds (one information set), worth 0 on average: ``safe`` is right.
- :func:`non_locality`: P1 moves first: ``stop`` costs P0 1 on heads and pays it 1 on
  tails; after ``go`` P0 picks ``a`` (+2 on heads, -1 on tails) or ``b`` (-2 on heads,
  0.5 on tails).  A P1 who plays well stops on heads and goes on tails, so after ``go``
  the coin is tails and ``b`` is right; weighting the worlds by the toss alone, the
  search averages ``a`` to 0.5 and ``b`` to -0.75 and plays ``a``, which loses 1.

State: ``(coin or None before the toss, history of moves)``; utilities are P0's payoff
(zero-sum, within ``(-2, 2)``).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping

from plies.game import CHANCE, Game
from plies.imperfect import sample_from

CoinState = tuple[str | None, tuple[str, ...]]
COINS = ("H", "T")


class HiddenCoin(Game[CoinState, str]):
    """A coin P0 cannot see, then ``moves[history] = (mover, actions)`` until a history
    not in ``moves``, which pays P0 ``payoff[(coin, history)]``.  P1 sees the coin; P0's
    information set is the history alone."""

    num_players = 2
    zero_sum = True
    has_chance = True
    utility_range = (-2.0, 2.0)

    def __init__(
        self,
        name: str,
        moves: Mapping[tuple[str, ...], tuple[int, tuple[str, ...]]],
        payoff: Mapping[tuple[str, tuple[str, ...]], float],
    ) -> None:
        self.name = name
        self.moves = dict(moves)
        self.payoff = dict(payoff)

    def initial_state(self) -> CoinState:
        return None, ()

    def to_move(self, state: CoinState) -> int:
        return CHANCE if state[0] is None else self.moves[state[1]][0]

    def actions(self, state: CoinState) -> tuple[str, ...]:
        return COINS if state[0] is None else self.moves[state[1]][1]

    def result(self, state: CoinState, action: str) -> CoinState:
        return (action, ()) if state[0] is None else (state[0], (*state[1], action))

    def is_terminal(self, state: CoinState) -> bool:
        return state[0] is not None and state[1] not in self.moves

    def utility(self, state: CoinState, player: int) -> float:
        if state[0] is None or not self.is_terminal(state):
            raise ValueError(f"utility of a non-terminal {self.name} position")
        won = self.payoff[(state[0], state[1])]
        return won if player == 0 else -won

    def information_set(self, state: CoinState, player: int) -> Hashable:
        return state if player == 1 else (state[0] is not None, state[1])

    def worlds(self, state: CoinState, player: int) -> list[tuple[CoinState, float]]:
        """P0: heads and tails, 1/2 each (after the toss); P1: the state itself."""
        if player == 1 or state[0] is None:
            return [(state, 1.0)]
        return [((coin, state[1]), 0.5) for coin in COINS]

    def sample_worlds(
        self, state: CoinState, player: int, n: int, rng: random.Random
    ) -> list[CoinState]:
        return sample_from(self.worlds(state, player), n, rng)


def strategy_fusion() -> HiddenCoin:
    """``safe`` (0.5) or ``gamble`` then ``call-H`` / ``call-T`` (+1 right, -1 wrong)."""
    payoff: dict[tuple[str, tuple[str, ...]], float] = {(c, ("safe",)): 0.5 for c in COINS}
    for coin in COINS:
        for call in COINS:
            payoff[(coin, ("gamble", f"call-{call}"))] = 1.0 if call == coin else -1.0
    moves = {(): (0, ("safe", "gamble")), ("gamble",): (0, ("call-H", "call-T"))}
    return HiddenCoin("strategy-fusion", moves, payoff)


def non_locality() -> HiddenCoin:
    """P1 ``stop`` (-1 on heads, +1 on tails) or ``go``; then P0 ``a`` or ``b``."""
    moves = {(): (1, ("stop", "go")), ("go",): (0, ("a", "b"))}
    payoff: dict[tuple[str, tuple[str, ...]], float] = {
        ("H", ("stop",)): -1.0, ("T", ("stop",)): 1.0,
        ("H", ("go", "a")): 2.0, ("T", ("go", "a")): -1.0,
        ("H", ("go", "b")): -2.0, ("T", ("go", "b")): 0.5,
    }
    return HiddenCoin("non-locality", moves, payoff)
