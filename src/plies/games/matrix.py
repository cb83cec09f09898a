"""Simultaneous-move games: matrix games, played once or repeated, and Goofspiel.

Both players choose at once, so every decision node is ``SIMULTANEOUS``: ``actions``
lists the joint actions ``(row's action, column's action)``, ``player_actions`` each
player's own, and a joint action is written ``"rock/paper"``.  Search them with
:func:`plies.search.simultaneous.simultaneous` (mixed strategies), or with any turn-based
search after :class:`plies.wrappers.Sequentialized`.

:class:`MatrixGame` is a normal-form game: a payoff table, played ``rounds`` times with
the payoffs added up (each round's choice is made knowing the earlier rounds).  The
state is the number of rounds played, the totals and the last joint action; the
transposition key leaves the last action out, since the future does not depend on it.
Built in: rock-paper-scissors and matching pennies (zero-sum, value 0, no pure saddle
point) and the prisoner's dilemma (not zero-sum; defecting guarantees 1 a round).

:class:`Goofspiel` (Merrill Flood's "Game Of Pure Strategy") is the standard multi-stage
simultaneous game of the search literature: each player holds the cards 1..n; a prize
card is shown, both bid one of their cards face down, the higher bid wins the prize's
points (equal bids: nobody does) and the bid cards are gone.  After n rounds the player
with more points wins.  The prizes come in a fixed order or are drawn by chance.  The
game is symmetric, so its value is 0.

>>> rps = rock_paper_scissors()
>>> s = rps.initial_state()
>>> rps.player_actions(s, 0), rps.format_action(s, ("rock", "paper"))
(('rock', 'paper', 'scissors'), 'rock/paper')
>>> rps.utility(rps.result(s, ("rock", "paper")), 1)
1.0
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from itertools import product
from typing import Any, ClassVar, Final, NamedTuple

from plies.errors import GameFormatError
from plies.game import CHANCE, SIMULTANEOUS, Game, uniform
from plies.game.declaration import declare
from plies.game.options import INT, Option, choice

Joint = tuple[str, str]
Payoff = float | tuple[float, float]


class MatrixState(NamedTuple):
    """A position of a repeated matrix game."""

    round: int  # rounds played
    totals: tuple[float, float]  # each player's payoff so far
    last: Joint | None  # the joint action of the last round (for render)


class MatrixGame(Game[MatrixState, Joint]):
    """A two-player normal-form game, played ``rounds`` times (see the module docstring).

    ``payoffs[i][j]`` is the pair (row's payoff, column's payoff) when the row player
    plays ``row_actions[i]`` and the column player ``column_actions[j]``; a number
    instead of a pair is the row's payoff in a zero-sum game (the column gets its
    negation).  The game is ``zero_sum`` when every pair has the same sum.
    """

    num_players = 2
    has_chance = False
    has_simultaneous = True

    def __init__(
        self,
        row_actions: Sequence[str],
        column_actions: Sequence[str],
        payoffs: Sequence[Sequence[Payoff]],
        *,
        rounds: int = 1,
        name: str = "matrix",
        player_names: tuple[str, str] = ("Row", "Column"),
    ) -> None:
        self.row_actions = tuple(row_actions)
        self.column_actions = tuple(column_actions)
        for side, names in (("row", self.row_actions), ("column", self.column_actions)):
            if not names or len(set(names)) != len(names):
                raise GameFormatError(f"the {side} actions must be distinct and not empty")
        if rounds < 1:
            raise GameFormatError(f"rounds must be at least 1, got {rounds}")
        if len(payoffs) != len(self.row_actions) or any(
            len(row) != len(self.column_actions) for row in payoffs
        ):
            raise GameFormatError(
                f"payoffs must be a {len(self.row_actions)}x{len(self.column_actions)} table "
                "(one row per row action, one entry per column action)"
            )
        self.payoffs: dict[Joint, tuple[float, float]] = {}
        for a, row in zip(self.row_actions, payoffs, strict=True):
            for b, entry in zip(self.column_actions, row, strict=True):
                pair = (
                    (float(entry[0]), float(entry[1]))
                    if isinstance(entry, tuple)
                    else (float(entry), 0.0 - float(entry))
                )
                if not all(math.isfinite(u) for u in pair):
                    raise GameFormatError(f"payoff of {a}/{b} is not finite: {entry!r}")
                self.payoffs[(a, b)] = pair
        self.rounds = rounds
        self.name = name
        self.player_names = player_names
        every = [u for pair in self.payoffs.values() for u in pair]
        self.stage_range = (min(every), max(every))
        self.utility_range = (rounds * self.stage_range[0], rounds * self.stage_range[1])
        sums = {pair[0] + pair[1] for pair in self.payoffs.values()}
        self.zero_sum = max(sums) - min(sums) <= 1e-12
        self._joints: tuple[Joint, ...] = tuple(product(self.row_actions, self.column_actions))

    def initial_state(self) -> MatrixState:
        return MatrixState(0, (0.0, 0.0), None)

    def to_move(self, state: MatrixState) -> int:
        return SIMULTANEOUS

    def actions(self, state: MatrixState) -> Sequence[Joint]:
        return self._joints

    def player_actions(self, state: MatrixState, player: int) -> Sequence[Any]:  # own: str
        return self.row_actions if player == 0 else self.column_actions

    def result(self, state: MatrixState, action: Joint) -> MatrixState:
        u0, u1 = self.payoffs[action]
        totals = state.totals
        return MatrixState(state.round + 1, (totals[0] + u0, totals[1] + u1), action)

    def is_terminal(self, state: MatrixState) -> bool:
        return state.round >= self.rounds

    def utility(self, state: MatrixState, player: int) -> float:
        return state.totals[player]

    def evaluate(self, state: MatrixState, player: int) -> float:
        """The payoff so far, plus the middle of the payoff range for each round to come."""
        lo, hi = self.stage_range
        return state.totals[player] + (self.rounds - state.round) * (lo + hi) / 2

    def key(self, state: MatrixState) -> Hashable:
        return (state.round, state.totals)

    def format_action(self, state: MatrixState, action: Joint) -> str:
        return f"{action[0]}/{action[1]}"

    def render(self, state: MatrixState) -> str:
        names = self.player_names
        totals = ", ".join(f"{names[p]} {state.totals[p]:g}" for p in (0, 1))
        last = "" if state.last is None else f"; last round {self.format_action(state, state.last)}"
        return f"round {min(state.round + 1, self.rounds)} of {self.rounds}{last}; totals {totals}"

    def player_name(self, player: int) -> str:
        return self.player_names[player] if player in (0, 1) else f"P{player}"


MATRIX_ROUNDS: Final = 100
ROUNDS: Final = (
    Option(
        "rounds", INT, 1, "times the game is played (payoffs add up)", bounds=(1, MATRIX_ROUNDS)
    ),
)
"""The option of every matrix game: how many times it is played."""


@declare(
    description="Rock-paper-scissors: a simultaneous matrix game, value 0 in mixed strategies",
    options=ROUNDS,
)
def rock_paper_scissors(rounds: int = 1) -> MatrixGame:
    """Rock beats scissors beats paper beats rock: +1 to the winner, -1 to the loser."""
    return MatrixGame(
        ("rock", "paper", "scissors"),
        ("rock", "paper", "scissors"),
        [[0, -1, 1], [1, 0, -1], [-1, 1, 0]],
        rounds=rounds,
        name="rps",
    )


@declare(
    description="Matching pennies: Even wins on equal coins, Odd on different ones (value 0)",
    options=ROUNDS,
)
def matching_pennies(rounds: int = 1) -> MatrixGame:
    """Both show a coin: Even wins +1 when the faces match, Odd when they differ."""
    return MatrixGame(
        ("heads", "tails"),
        ("heads", "tails"),
        [[1, -1], [-1, 1]],
        rounds=rounds,
        name="matching-pennies",
        player_names=("Even", "Odd"),
    )


@declare(
    description="Prisoner's dilemma: cooperate or defect at once; not zero-sum", options=ROUNDS
)
def prisoners_dilemma(rounds: int = 1) -> MatrixGame:
    """Cooperate or defect; payoffs (3, 3), (0, 5), (5, 0), (1, 1) (Axelrod's numbers)."""
    return MatrixGame(
        ("cooperate", "defect"),
        ("cooperate", "defect"),
        [[(3, 3), (0, 5)], [(5, 0), (1, 1)]],
        rounds=rounds,
        name="prisoners-dilemma",
    )


# --- Goofspiel ---------------------------------------------------------------------------------

PRIZE_ORDERS: Final = ("descending", "ascending", "random")
GOOFSPIEL_SCORINGS: Final = ("winloss", "points")
GOOFSPIEL_CARDS: Final = 13
"""A suit of cards, as the game is played."""

Bids = tuple[int, int]


class GoofState(NamedTuple):
    """A Goofspiel position.  ``prize`` is None while the next prize is being drawn."""

    hands: tuple[tuple[int, ...], tuple[int, ...]]  # each player's cards left, ascending
    prizes: tuple[int, ...]  # prize cards not shown yet (in order, unless drawn by chance)
    prize: int | None  # the prize card on the table
    scores: tuple[int, int]


class Goofspiel(Game[GoofState, Bids | int]):
    """Goofspiel with ``cards`` cards a player (see the module docstring).

    ``order``: the prizes come ``"descending"`` (n first), ``"ascending"``, or
    ``"random"`` (a chance node draws each one, uniformly, before the bids).
    ``scoring``: ``"winloss"`` (+1 / -1 / 0 by who has more points) or ``"points"`` (the
    point difference).  Zero-sum; ``evaluate`` is the point difference so far, scaled
    into the utility range.
    """

    num_players = 2
    zero_sum = True
    has_simultaneous = True
    description: ClassVar[str] = (
        "Goofspiel: bid cards at once for prize cards; simultaneous stages (value 0)"
    )
    options: ClassVar[tuple[Option, ...]] = (
        Option("cards", INT, 4, "cards in each hand (and prizes)", bounds=(1, GOOFSPIEL_CARDS)),
        Option(
            "order", choice(*PRIZE_ORDERS), "descending",
            "order of the prize cards (random: chance draws them)",
        ),
        Option(
            "scoring", choice(*GOOFSPIEL_SCORINGS), "winloss",
            "winloss: +1/-1/0; points: the point difference",
        ),
    )

    def __init__(self, cards: int = 4, order: str = "descending", scoring: str = "winloss") -> None:
        if not 1 <= cards <= GOOFSPIEL_CARDS:
            raise GameFormatError(f"cards must be 1..{GOOFSPIEL_CARDS}, got {cards}")
        if order not in PRIZE_ORDERS:
            known = ", ".join(PRIZE_ORDERS)
            raise GameFormatError(f"unknown order {order!r}; use one of: {known}")
        if scoring not in GOOFSPIEL_SCORINGS:
            known = ", ".join(GOOFSPIEL_SCORINGS)
            raise GameFormatError(f"unknown scoring {scoring!r}; use one of: {known}")
        self.cards, self.order, self.scoring = cards, order, scoring
        self.name = "goofspiel"
        self.has_chance = order == "random"
        self.total = cards * (cards + 1) // 2
        self.utility_range = (-1.0, 1.0) if scoring == "winloss" else (-self.total, self.total)

    def initial_state(self) -> GoofState:
        hand = tuple(range(1, self.cards + 1))
        if self.order == "random":
            return GoofState((hand, hand), hand, None, (0, 0))
        deck = hand[::-1] if self.order == "descending" else hand
        return GoofState((hand, hand), deck[1:], deck[0], (0, 0))

    def to_move(self, state: GoofState) -> int:
        return CHANCE if state.prize is None else SIMULTANEOUS

    def actions(self, state: GoofState) -> Sequence[Bids | int]:
        if state.prize is None:
            return state.prizes
        return tuple(product(*state.hands))

    def player_actions(self, state: GoofState, player: int) -> Sequence[int]:
        return state.hands[player]

    def chance_outcomes(self, state: GoofState) -> Sequence[tuple[Bids | int, float]]:
        return uniform(state.prizes)

    def result(self, state: GoofState, action: Bids | int) -> GoofState:
        hands, prizes, prize, scores = state
        if prize is None:  # chance reveals a prize
            assert isinstance(action, int)
            return GoofState(hands, tuple(c for c in prizes if c != action), action, scores)
        assert isinstance(action, tuple)
        b0, b1 = action
        if b0 > b1:
            scores = (scores[0] + prize, scores[1])
        elif b1 > b0:
            scores = (scores[0], scores[1] + prize)
        hands = (tuple(c for c in hands[0] if c != b0), tuple(c for c in hands[1] if c != b1))
        if self.order == "random" or not prizes:
            return GoofState(hands, prizes, None, scores)
        return GoofState(hands, prizes[1:], prizes[0], scores)

    def is_terminal(self, state: GoofState) -> bool:
        return not state.hands[0]

    def utility(self, state: GoofState, player: int) -> float:
        diff = state.scores[player] - state.scores[1 - player]
        if self.scoring == "points":
            return float(diff)
        return float((diff > 0) - (diff < 0))

    def evaluate(self, state: GoofState, player: int) -> float:
        if self.is_terminal(state):
            return self.utility(state, player)
        diff = state.scores[player] - state.scores[1 - player]
        return diff / self.total if self.scoring == "winloss" else float(diff)

    def format_action(self, state: GoofState, action: Bids | int) -> str:
        return str(action) if isinstance(action, int) else f"{action[0]}/{action[1]}"

    def render(self, state: GoofState) -> str:
        lines = [
            f"{self.player_name(p)}: {state.scores[p]} points, cards "
            f"{' '.join(map(str, state.hands[p])) or '-'}"
            for p in (0, 1)
        ]
        if state.prize is not None:
            lines.append(f"prize on the table: {state.prize}")
        if state.prizes:
            shown = " ".join(map(str, state.prizes))
            lines.append(f"prizes {'left' if self.order == 'random' else 'to come'}: {shown}")
        return "\n".join(lines)
