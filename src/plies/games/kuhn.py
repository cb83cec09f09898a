"""Kuhn poker: the smallest poker with hidden hands (Kuhn 1950), for searching over worlds.

Rules: three cards J < Q < K.  Each player antes 1 and chance deals each player one card
face down (the third stays hidden).  Player 0 (P0) acts first: ``pass`` (check) or ``bet``
(1 more).  After a pass P1 may pass (showdown for the antes) or bet, and then P0 calls
(``bet``) or folds (``pass``); after a bet P1 calls or folds.  At a showdown the higher
card takes the pot.  Terminal histories and P0's payoff (c = +1 if P0's card is higher,
else -1): ``pass pass`` c, ``bet bet`` 2c, ``bet pass`` +1 (P1 folded), ``pass bet pass``
-1 (P0 folded), ``pass bet bet`` 2c.

Utility: chips won, zero-sum, ``utility_range == (-2, 2)``.  As a :class:`~plies.game.Game`
the state is the referee's full view, so expectiminimax searches it as if both hands were
face up (its root value is 0: the higher card always takes the antes, nobody pays more).
The hidden-information view is the :mod:`plies.imperfect` interface: a player's
information set is its own card and the public betting; its worlds deal the other player
each card it does not hold, equally likely (the deal's odds; the betting is not read as
evidence).  The game's value with hidden hands (the Nash equilibrium, -1/18 for P0) is
not what a perfect-information search computes; that gap is what determinization misses.

Representation: a :class:`KuhnState` ``(cards, history)``; ``cards`` is None before the
deal (the CHANCE root, whose outcomes are the six ordered pairs of distinct cards, each
1/6) and then ``(P0's card, P1's card)`` with 0 = J, 1 = Q, 2 = K; ``history`` is the
tuple of betting actions so far.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from itertools import permutations
from typing import ClassVar, Final, NamedTuple

from plies.game import CHANCE, Game
from plies.game.options import Option
from plies.imperfect import sample_from

PASS: Final = "pass"
BET: Final = "bet"
CARD_NAMES: Final = ("J", "Q", "K")
DEALS: Final = tuple(permutations(range(3), 2))
_DEAL_ODDS: Final = tuple((deal, 1 / len(DEALS)) for deal in DEALS)
_CHOICES: Final = (PASS, BET)
_TERMINAL: Final = frozenset(
    {(PASS, PASS), (BET, BET), (BET, PASS), (PASS, BET, PASS), (PASS, BET, BET)}
)

KuhnAction = str | tuple[int, int]
"""``"pass"`` or ``"bet"`` for a player; a deal ``(P0's card, P1's card)`` at the root."""


class KuhnState(NamedTuple):
    """A Kuhn poker position: the deal (None before it) and the betting so far."""

    cards: tuple[int, int] | None
    history: tuple[str, ...]


class KuhnPoker(Game[KuhnState, KuhnAction]):
    """Two-player Kuhn poker (see the module docstring), with information sets."""

    num_players = 2
    utility_range = (-2.0, 2.0)
    zero_sum = True
    has_chance = True
    name = "kuhn"
    description: ClassVar[str] = (
        "Kuhn poker: 3 cards, hidden hands, bet or pass (information sets, chance deal)"
    )
    options: ClassVar[tuple[Option, ...]] = ()

    def initial_state(self) -> KuhnState:
        return KuhnState(None, ())

    def to_move(self, state: KuhnState) -> int:
        return CHANCE if state.cards is None else len(state.history) % 2

    def actions(self, state: KuhnState) -> tuple[KuhnAction, ...]:
        return DEALS if state.cards is None else _CHOICES

    def chance_outcomes(self, state: KuhnState) -> tuple[tuple[KuhnAction, float], ...]:
        return _DEAL_ODDS

    def result(self, state: KuhnState, action: KuhnAction) -> KuhnState:
        if state.cards is None:
            assert isinstance(action, tuple)
            return KuhnState(action, ())
        assert isinstance(action, str)
        return KuhnState(state.cards, (*state.history, action))

    def is_terminal(self, state: KuhnState) -> bool:
        return state.history in _TERMINAL

    def utility(self, state: KuhnState, player: int) -> float:
        if state.cards is None or not self.is_terminal(state):
            raise ValueError("utility of a non-terminal Kuhn poker position")
        history = state.history
        if history == (BET, PASS):
            won = 1.0  # P1 folded
        elif history == (PASS, BET, PASS):
            won = -1.0  # P0 folded
        else:
            stake = 2.0 if BET in history else 1.0
            won = stake if state.cards[0] > state.cards[1] else -stake
        return won if player == 0 else -won

    # --- what a player knows (plies.imperfect) ---------------------------------------------

    def information_set(self, state: KuhnState, player: int) -> Hashable:
        """``(own card or None before the deal, betting history)``."""
        own = None if state.cards is None else state.cards[player]
        return own, state.history

    def worlds(self, state: KuhnState, player: int) -> list[tuple[KuhnState, float]]:
        """The full states ``player`` cannot tell from ``state``, equally likely."""
        if state.cards is None:
            return [(state, 1.0)]
        own = state.cards[player]
        others = [card for card in range(3) if card != own]
        deals = [(own, other) if player == 0 else (other, own) for other in others]
        return [(KuhnState(deal, state.history), 1 / len(deals)) for deal in deals]

    def sample_worlds(
        self, state: KuhnState, player: int, n: int, rng: random.Random
    ) -> list[KuhnState]:
        return sample_from(self.worlds(state, player), n, rng)

    def observation(self, state: KuhnState, player: int) -> str:
        """What ``player`` sees, in words: ``"your card Q; betting: pass bet"``."""
        own = "not dealt" if state.cards is None else CARD_NAMES[state.cards[player]]
        return f"your card {own}; betting: {' '.join(state.history) or '(none)'}"

    # --- notation ------------------------------------------------------------------------

    def format_action(self, state: KuhnState, action: KuhnAction) -> str:
        if isinstance(action, tuple):
            return CARD_NAMES[action[0]] + CARD_NAMES[action[1]]
        return action

    def render(self, state: KuhnState) -> str:
        if state.cards is None:
            return "Kuhn poker: the cards are being dealt"
        hands = f"P0: {CARD_NAMES[state.cards[0]]}   P1: {CARD_NAMES[state.cards[1]]}"
        betting = " ".join(state.history) or "(none)"
        if self.is_terminal(state):
            won = self.utility(state, 0)
            return f"{hands}\nbetting: {betting}; P{0 if won > 0 else 1} wins {abs(won):g}"
        return f"{hands}\nbetting: {betting}; P{self.to_move(state)} to act"
