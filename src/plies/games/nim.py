"""Nim and its single-pile cousin, the sticks (subtraction) game.

Rules: there are some piles of sticks.  Two players alternately take sticks from one pile:
any number from 1 to the whole pile, or, with ``max_take=k``, from 1 to ``k``.  Under
**normal play** the player who takes the last stick wins; under **misère** play
(``misere=True``) that player loses.

Utility: +1 for the winner and -1 for the loser: zero-sum, ``utility_range == (-1, 1)``.

Representation: a state is a :class:`NimState` ``(piles, mover)``, both immutable.  An
action is ``(pile_index, count)`` with a 0-based pile index.  People read and type it as
``"count"`` when the game has a single pile, else as ``"pile:count"`` with a 1-based pile
(``"2:3"`` takes 3 sticks from the second pile).  The transposition ``key`` sorts the
piles and drops empty ones, since the order of the piles does not matter.

Known theory, which the tests check against brute force:

- Normal-play Nim (Bouton, 1901): the player to move loses exactly when the *nim-sum*,
  the bitwise XOR of the pile sizes, is 0; otherwise some move makes it 0.
- Subtraction game, take 1..k: a pile of ``n`` has Grundy value ``n mod (k + 1)``, and the
  mover loses exactly when the XOR of those values is 0.  With one pile the losing
  positions are the multiples of ``k + 1``: in 21 sticks, take 1-3, the first player wins
  by taking 1 and then always completing the opponent's move to 4.
- Misère Nim: the mover loses exactly when some pile has 2 or more sticks and the nim-sum
  is 0, or when every pile has at most 1 stick and the number of 1-piles is odd.
- Misère subtraction game with one pile: the mover loses exactly when
  ``n mod (k + 1) == 1``.  (Misère play with several piles and ``max_take`` has no such
  simple rule.)

The game has no ``evaluate``: the theory above would solve it outright, and a depth-limited
search should show what search alone finds.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import reduce
from operator import xor
from typing import ClassVar, Final, NamedTuple

from plies.errors import GameFormatError
from plies.game import Game
from plies.game.declaration import declare
from plies.game.options import BOOL, INT, INTS, OPTIONAL_INT, Option

Move = tuple[int, int]
"""``(pile_index, count)``: take ``count`` sticks from pile ``pile_index`` (0-based)."""

NIM_PILE: Final = 64
"""The most sticks in a pile an option may set."""
NIM_PILES: Final = 8
"""The most piles an option may set."""
STICKS: Final = 100
"""The most sticks of the single-pile game an option may set."""


class NimState(NamedTuple):
    """Pile sizes and the player to move."""

    piles: tuple[int, ...]
    mover: int


def nim_sum(piles: Sequence[int]) -> int:
    """The XOR of the pile sizes."""
    return reduce(xor, piles, 0)


class Nim(Game[NimState, Move]):
    """Nim with optional take limit and misère rule (see the module docstring).

    >>> nim = Nim((3, 4, 5))
    >>> s = nim.result(nim.initial_state(), (1, 3))
    >>> s
    NimState(piles=(3, 1, 5), mover=1)
    >>> nim.format_action(s, (2, 5))
    '3:5'
    >>> one = Nim((21,), max_take=3)
    >>> [one.format_action(one.initial_state(), a) for a in one.actions(one.initial_state())]
    ['1', '2', '3']
    """

    num_players = 2
    utility_range = (-1.0, 1.0)
    zero_sum = True
    description: ClassVar[str] = (
        "Nim: take sticks from one pile; the last stick wins (or loses: misere)"
    )
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "piles", INTS, (3, 4, 5), "sticks in each pile",
            bounds=(0, NIM_PILE), count=(1, NIM_PILES),
        ),
        Option(
            "max_take", OPTIONAL_INT, None, "most sticks per move (none: a whole pile)",
            bounds=(1, NIM_PILE),
        ),
        Option("misere", BOOL, False, "the player who takes the last stick loses"),
    )

    def __init__(
        self,
        piles: Sequence[int] = (3, 4, 5),
        *,
        max_take: int | None = None,
        misere: bool = False,
        name: str = "nim",
    ) -> None:
        self.piles = tuple(piles)
        if not self.piles or any(n < 0 for n in self.piles) or sum(self.piles) == 0:
            raise GameFormatError(
                f"piles must be non-negative with at least one stick, got {list(self.piles)}"
            )
        if max_take is not None and max_take < 1:
            raise GameFormatError(f"max_take must be at least 1 (or none), got {max_take}")
        self.max_take = max_take
        self.misere = misere
        self.name = name

    def initial_state(self) -> NimState:
        return NimState(self.piles, 0)

    def to_move(self, state: NimState) -> int:
        return state[1]

    def actions(self, state: NimState) -> list[Move]:
        cap = self.max_take
        return [
            (i, count)
            for i, n in enumerate(state[0])
            for count in range(1, (n if cap is None or cap > n else cap) + 1)
        ]

    def result(self, state: NimState, action: Move) -> NimState:
        piles, mover = state
        i, count = action
        return NimState((*piles[:i], piles[i] - count, *piles[i + 1 :]), 1 - mover)

    def is_terminal(self, state: NimState) -> bool:
        return not any(state[0])

    def utility(self, state: NimState, player: int) -> float:
        if any(state[0]):
            raise ValueError("utility of a non-terminal Nim position")
        # The mover of a terminal state faces empty piles: the opponent took the last stick.
        took_last = 1 - state[1]
        won = took_last != player if self.misere else took_last == player
        return 1.0 if won else -1.0

    def key(self, state: NimState) -> Hashable:
        return (tuple(sorted(n for n in state[0] if n)), state[1])

    def format_action(self, state: NimState, action: Move) -> str:
        pile, count = action
        return str(count) if len(state[0]) == 1 else f"{pile + 1}:{count}"

    def render(self, state: NimState) -> str:
        piles, mover = state
        width = len(str(max(self.piles)))
        if len(piles) == 1:
            lines = [f"sticks: {piles[0]:>{width}} {'|' * piles[0]}".rstrip()]
        else:
            lines = [f"pile {i + 1}: {n:>{width}} {'|' * n}".rstrip() for i, n in enumerate(piles)]
        rule = []
        if self.max_take is not None:
            rule.append(f"take 1-{self.max_take}")
        rule.append("last stick loses" if self.misere else "last stick wins")
        if any(piles):
            status = f"{self.player_name(mover)} to move ({', '.join(rule)})"
        else:
            winner = mover if self.misere else 1 - mover
            status = f"{self.player_name(winner)} wins"
        return "\n".join([*lines, status])


@declare(
    description="Sticks: one pile of 21, take 1-3 per move; the last stick wins",
    options=(
        Option("sticks", INT, 21, "sticks in the pile", bounds=(1, STICKS)),
        Option("max_take", INT, 3, "most sticks per move", bounds=(1, STICKS)),
        Option("misere", BOOL, False, "the player who takes the last stick loses"),
    ),
)
def sticks(sticks: int = 21, *, max_take: int = 3, misere: bool = False) -> Nim:
    """The single-pile sticks game: ``sticks`` sticks, take 1 to ``max_take`` per move."""
    return Nim((sticks,), max_take=max_take, misere=misere, name="sticks")
