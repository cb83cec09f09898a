"""Pig, the dice game: the chance-node example (expectiminimax).

Rules: two players race to ``goal`` points.  On your turn you roll a die as often as you
like, adding each face to your *turn total*; after each roll you choose to ``roll`` again
or ``hold``.  Holding banks the turn total and passes the turn.  Rolling a 1 loses the
turn total and passes the turn.  Two conventions keep the tree small without changing
play: the first roll of a turn is compulsory (holding 0 points would only pass), and a
turn ends by itself as soon as banking it would reach the goal (holding is then the only
sensible move), so the first player to reach ``goal`` wins.

Plain Pig is not finite: two 1s in a row bring back the same position.  ``max_turns``
caps the number of turns (both players' turns count; the default gives each player two):
when it is reached the higher score wins, equal scores draw.  With a cap every move or
outcome makes progress, so the game is a finite tree that expectiminimax solves exactly.
``max_turns=None`` is the real, cyclic game: search it with a depth limit.

Utility: +1 win, -1 loss, 0 draw: zero-sum, ``utility_range == (-1, 1)``.  ``evaluate``
is the score difference (the mover's turn total counted as if banked) over ``goal``.

Representation: a :class:`PigState` ``(scores, turn_total, mover, rolling, turns)``.
When ``rolling`` is true the state is a CHANCE node whose outcomes are the faces 1..6
(ints, written ``"1"``..``"6"``), each with probability 1/6; otherwise the mover chooses
``"roll"`` or ``"hold"``.  With the default ``goal=7, max_turns=4`` the full tree has
about 565,000 nodes, the size of tic-tac-toe's, so a plain recursive expectiminimax
solves it in seconds; it has only 642 distinct positions.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import ClassVar, Final, NamedTuple

from plies.errors import GameFormatError
from plies.game import CHANCE, Game
from plies.game.options import INT, OPTIONAL_INT, Option

ROLL: Final = "roll"
HOLD: Final = "hold"
FACES: Final = (1, 2, 3, 4, 5, 6)
_OUTCOMES: Final = tuple((face, 1 / 6) for face in FACES)
_FIRST_ROLL: Final = (ROLL,)
_CHOICES: Final = (ROLL, HOLD)

PigAction = int | str
"""``"roll"`` or ``"hold"`` for a player, a die face 1..6 at a chance node."""

PIG_GOAL: Final = 100
"""The highest goal an option may set."""
PIG_TURNS: Final = 50
"""The most turns an option may set."""


class PigState(NamedTuple):
    """A Pig position.  ``turns`` counts completed turns (both players')."""

    scores: tuple[int, int]
    turn_total: int
    mover: int  # whose turn it is, also while the die is rolling
    rolling: bool  # True: a CHANCE node, the die is in the air
    turns: int


class Pig(Game[PigState, PigAction]):
    """Two-player Pig with a turn cap (see the module docstring)."""

    num_players = 2
    utility_range = (-1.0, 1.0)
    zero_sum = True
    has_chance = True
    name = "pig"
    description: ClassVar[str] = "Pig: a dice race to 7 points over 4 turns (chance nodes)"
    options: ClassVar[tuple[Option, ...]] = (
        Option("goal", INT, 7, "points needed to win", bounds=(2, PIG_GOAL)),
        Option(
            "max_turns", OPTIONAL_INT, 4, "turns before the higher score wins (none: no cap)",
            bounds=(1, PIG_TURNS),
        ),
    )

    def __init__(self, goal: int = 7, max_turns: int | None = 4) -> None:
        if goal < 2:
            raise GameFormatError(f"goal must be at least 2, got {goal}")
        if max_turns is not None and max_turns < 1:
            raise GameFormatError(f"max_turns must be at least 1 (or none), got {max_turns}")
        self.goal = goal
        self.max_turns = max_turns

    def initial_state(self) -> PigState:
        return PigState((0, 0), 0, 0, False, 0)

    def to_move(self, state: PigState) -> int:
        return CHANCE if state[3] else state[2]

    def actions(self, state: PigState) -> tuple[PigAction, ...]:
        if state[3]:
            return FACES
        return _CHOICES if state[1] else _FIRST_ROLL

    def chance_outcomes(self, state: PigState) -> tuple[tuple[PigAction, float], ...]:
        return _OUTCOMES

    def result(self, state: PigState, action: PigAction) -> PigState:
        scores, total, mover, rolling, turns = state
        if not rolling:
            if action == ROLL:
                return PigState(scores, total, mover, True, turns)
            return self._pass_turn(scores, mover, total, turns)
        if action == 1:
            return self._pass_turn(scores, mover, 0, turns)
        assert isinstance(action, int)
        total += action
        if scores[mover] + total >= self.goal:
            return self._pass_turn(scores, mover, total, turns)
        return PigState(scores, total, mover, False, turns)

    @staticmethod
    def _pass_turn(scores: tuple[int, int], mover: int, banked: int, turns: int) -> PigState:
        if banked:
            scores = (
                (scores[0] + banked, scores[1]) if mover == 0 else (scores[0], scores[1] + banked)
            )
        return PigState(scores, 0, 1 - mover, False, turns + 1)

    def is_terminal(self, state: PigState) -> bool:
        scores = state[0]
        goal = self.goal
        return (
            scores[0] >= goal
            or scores[1] >= goal
            or (self.max_turns is not None and state[4] >= self.max_turns)
        )

    def utility(self, state: PigState, player: int) -> float:
        if not self.is_terminal(state):
            raise ValueError("utility of a non-terminal Pig position")
        mine, theirs = state[0][player], state[0][1 - player]
        return 1.0 if mine > theirs else -1.0 if mine < theirs else 0.0

    def evaluate(self, state: PigState, player: int) -> float:
        """Score difference over ``goal``, the mover's turn total counted as banked.

        At a non-terminal state both totals stay below ``goal``, so the value lies strictly
        inside (-1, 1).  Terminal states return their utility.
        """
        if self.is_terminal(state):
            return self.utility(state, player)
        scores, total, mover = state[0], state[1], state[2]
        mine = scores[player] + (total if mover == player else 0)
        theirs = scores[1 - player] + (total if mover != player else 0)
        return (mine - theirs) / self.goal

    def key(self, state: PigState) -> Hashable:
        # Without a cap the turn counter does not change the future, so leaving it out lets
        # a transposition table see that two 1s in a row return to the same position.
        return state if self.max_turns is not None else state[:4]

    def format_action(self, state: PigState, action: PigAction) -> str:
        return str(action)

    def render(self, state: PigState) -> str:
        scores, total, mover, rolling, turns = state
        names = [self.player_name(p) for p in (0, 1)]
        board = f"{names[0]}: {scores[0]}   {names[1]}: {scores[1]}   (goal {self.goal})"
        cap = "" if self.max_turns is None else f" of {self.max_turns}"
        if self.is_terminal(state):
            u = self.utility(state, 0)
            status = "draw" if u == 0 else f"{names[0] if u > 0 else names[1]} wins"
            return f"{board}\nafter {turns} turns{cap}: {status}"
        doing = "rolls the die..." if rolling else "to move"
        return f"{board}\nturn {turns + 1}{cap}: {names[mover]} {doing} (turn total {total})"
