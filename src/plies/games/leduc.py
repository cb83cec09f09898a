"""Leduc poker: two betting rounds and a public card (Southey et al. 2005), for worlds.

Rules (those of OpenSpiel's ``leduc_poker``, checked against it history by history in the
tests): six cards, J Q K in two suits (``Js Jh Qs Qh Ks Kh``).  Each player antes 1 and
chance deals each one private card face down.  Then a betting round, a public card face
up, and a second betting round.  In each round P0 acts first; a player may ``call``
(a check when nobody has bet), ``raise`` (at most two raises a round, by 2 in the first
round and 4 in the second) or, facing a raise, ``fold``.  A round ends when a player
calls after the other has acted (check-check, or a call of a raise).  At the showdown a
private card that pairs the public card wins, else the higher rank; equal ranks split.

Utility: chips won, zero-sum, ``utility_range == (-13, 13)`` (1 ante + 2 raises of 2 + 2
raises of 4).  As a :class:`~plies.game.Game` a state is the referee's full view; the
hidden-information view is :mod:`plies.imperfect`: a player's information set is its own
card, the public card and the betting; its worlds deal the other player each card it
cannot see (4 or 5 of them), equally likely.  Kuhn poker has at most 2 worlds per
information set; here sampling fewer worlds than there are is a real approximation.

Representation: a :class:`LeducState` ``(cards, public, first, second)``; ``cards`` is
None before the deal (the CHANCE root: the 30 ordered pairs of distinct cards, 1/30
each), then ``(P0's card, P1's card)`` with card ``c`` of rank ``c // 2`` (0 = J, 1 = Q,
2 = K); ``public`` is None until the CHANCE node after the first round deals it (each
unseen card 1/4); ``first`` and ``second`` are the two rounds' actions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping
from itertools import permutations
from typing import ClassVar, Final, NamedTuple

from plies.game import CHANCE, Game
from plies.game.options import Option
from plies.imperfect import sample_from

FOLD: Final = "fold"
CALL: Final = "call"
RAISE: Final = "raise"
CARD_NAMES: Final = ("Js", "Jh", "Qs", "Qh", "Ks", "Kh")
DEALS: Final = tuple(permutations(range(6), 2))
ANTE: Final = 1
RAISES: Final = (2, 4)
"""The raise size of the first and the second round."""
MAX_RAISES: Final = 2
_DEAL_ODDS: Final = tuple((deal, 1 / len(DEALS)) for deal in DEALS)

LeducAction = str | int | tuple[int, int]
"""``"fold"``, ``"call"`` or ``"raise"``; a deal ``(P0's card, P1's card)`` at the root;
the public card (an int) after the first round."""


class LeducState(NamedTuple):
    """A Leduc poker position (see the module docstring)."""

    cards: tuple[int, int] | None
    public: int | None
    first: tuple[str, ...]
    second: tuple[str, ...]


def round_over(actions: tuple[str, ...]) -> bool:
    """Whether a round with these actions has ended (a fold, or a closing call)."""
    return bool(actions) and (actions[-1] == FOLD or (actions[-1] == CALL and len(actions) > 1))


def stakes(state: LeducState) -> tuple[int, int]:
    """The chips each player has put in the pot so far (antes included)."""
    put = [ANTE, ANTE]
    for size, actions in zip(RAISES, (state.first, state.second), strict=True):
        for i, action in enumerate(actions):
            if action == CALL:
                put[i % 2] = max(put)
            elif action == RAISE:
                put[i % 2] = max(put) + size
    return put[0], put[1]


def hand_rank(card: int, public: int) -> int:
    """The strength of ``card`` with the public card: a pair beats every rank."""
    return card // 2 + (3 if card // 2 == public // 2 else 0)


def honest(state: LeducState, player: int) -> LeducAction:
    """A fixed policy that plays its cards and never bluffs: raise a king or a pair (call
    when no raise is left), call with a queen, check a jack and fold it to a raise.  It
    reads only ``player``'s own card and the public card."""
    assert state.cards is not None
    card = state.cards[player]
    choices = LeducPoker().actions(state)
    paired = state.public is not None and card // 2 == state.public // 2
    if card // 2 == 2 or paired:
        return RAISE if RAISE in choices else CALL
    if card // 2 == 0 and FOLD in choices:
        return FOLD
    return CALL


class LeducPoker(Game[LeducState, LeducAction]):
    """Two-player Leduc poker (see the module docstring), with information sets.

    ``policies``: fixed policies by name, ``(state, player) -> action`` (for tournament
    agents ``policy:name=honest``).
    """

    policies: Mapping[str, Callable[[LeducState, int], LeducAction]] = {"honest": honest}
    num_players = 2
    utility_range = (-13.0, 13.0)
    zero_sum = True
    has_chance = True
    name = "leduc"
    description: ClassVar[str] = (
        "Leduc poker: 6 cards, two betting rounds, a public card (information sets)"
    )
    options: ClassVar[tuple[Option, ...]] = ()

    def initial_state(self) -> LeducState:
        return LeducState(None, None, (), ())

    def _betting(self, state: LeducState) -> tuple[str, ...]:
        return state.first if state.public is None else state.second

    def to_move(self, state: LeducState) -> int:
        if state.cards is None or (state.public is None and round_over(state.first)):
            return CHANCE
        return len(self._betting(state)) % 2

    def actions(self, state: LeducState) -> tuple[LeducAction, ...]:
        if state.cards is None:
            return DEALS
        if state.public is None and round_over(state.first):
            return tuple(c for c in range(6) if c not in state.cards)
        betting = self._betting(state)
        choices: list[LeducAction] = []
        if RAISE in betting:
            choices.append(FOLD)
        choices.append(CALL)
        if betting.count(RAISE) < MAX_RAISES:
            choices.append(RAISE)
        return tuple(choices)

    def chance_outcomes(self, state: LeducState) -> tuple[tuple[LeducAction, float], ...]:
        if state.cards is None:
            return _DEAL_ODDS
        unseen = self.actions(state)
        return tuple((card, 1 / len(unseen)) for card in unseen)

    def result(self, state: LeducState, action: LeducAction) -> LeducState:
        if state.cards is None:
            assert isinstance(action, tuple)
            return LeducState(action, None, (), ())
        if isinstance(action, int):
            return state._replace(public=action)
        assert isinstance(action, str)
        if state.public is None:
            return state._replace(first=(*state.first, action))
        return state._replace(second=(*state.second, action))

    def is_terminal(self, state: LeducState) -> bool:
        if FOLD in state.first or FOLD in state.second:
            return True
        return state.public is not None and round_over(state.second)

    def utility(self, state: LeducState, player: int) -> float:
        if state.cards is None or not self.is_terminal(state):
            raise ValueError("utility of a non-terminal Leduc poker position")
        put = stakes(state)
        betting = state.second if state.public is not None else state.first
        if betting[-1] == FOLD:
            folder = (len(betting) - 1) % 2
            won = float(put[folder]) if folder == 1 else -float(put[folder])
        else:
            assert state.public is not None
            mine, theirs = (hand_rank(c, state.public) for c in state.cards)
            won = float(put[0]) * ((mine > theirs) - (mine < theirs))
        return won if player == 0 else -won

    # --- what a player knows (plies.imperfect) ---------------------------------------------

    def information_set(self, state: LeducState, player: int) -> Hashable:
        """``(own card or None, public card or None, first round, second round)``."""
        own = None if state.cards is None else state.cards[player]
        return own, state.public, state.first, state.second

    def worlds(self, state: LeducState, player: int) -> list[tuple[LeducState, float]]:
        """The full states ``player`` cannot tell from ``state``: the other player holds
        any card that ``player`` does not see, equally likely."""
        if state.cards is None:
            return [(state, 1.0)]
        own = state.cards[player]
        others = [c for c in range(6) if c not in (own, state.public)]
        deals = [(own, other) if player == 0 else (other, own) for other in others]
        return [(state._replace(cards=deal), 1 / len(deals)) for deal in deals]

    def sample_worlds(
        self, state: LeducState, player: int, n: int, rng: random.Random
    ) -> list[LeducState]:
        return sample_from(self.worlds(state, player), n, rng)

    def observation(self, state: LeducState, player: int) -> str:
        """What ``player`` sees, for people: own card, public card, pot and betting."""
        if state.cards is None:
            return "Leduc poker: the cards are being dealt"
        own = CARD_NAMES[state.cards[player]]
        return f"your card {own}; {self._table(state)}"

    # --- notation ------------------------------------------------------------------------

    def format_action(self, state: LeducState, action: LeducAction) -> str:
        if isinstance(action, tuple):
            return CARD_NAMES[action[0]] + CARD_NAMES[action[1]]
        if isinstance(action, int):
            return CARD_NAMES[action]
        return action

    def _table(self, state: LeducState) -> str:
        public = "not dealt" if state.public is None else CARD_NAMES[state.public]
        put = stakes(state)
        rounds = f"round 1: {' '.join(state.first) or '(none)'}"
        if state.public is not None:
            rounds += f"; round 2: {' '.join(state.second) or '(none)'}"
        return f"public card {public}; pot {put[0] + put[1]} (P0 {put[0]}, P1 {put[1]}); {rounds}"

    def render(self, state: LeducState) -> str:
        if state.cards is None:
            return "Leduc poker: the cards are being dealt"
        hands = f"P0: {CARD_NAMES[state.cards[0]]}   P1: {CARD_NAMES[state.cards[1]]}"
        text = f"{hands}\n{self._table(state)}"
        if self.is_terminal(state):
            won = self.utility(state, 0)
            if won == 0:
                return f"{text}; a split pot"
            return f"{text}; P{0 if won > 0 else 1} wins {abs(won):g}"
        if self.to_move(state) == CHANCE:
            return f"{text}; the public card is dealt"
        return f"{text}; P{self.to_move(state)} to act"
