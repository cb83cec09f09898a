"""The conformance check itself: it passes a good game and catches each kind of breakage."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import pytest

from plies.game import CHANCE, Game
from tests.conformance import check_game


class Race(Game[tuple[int, int], int]):
    """A correct little game: players alternately add 1 or 2; whoever reaches 5 wins.

    With ``dice=True`` a chance node (odds 1/4, 3/4 for +1/+2) follows every move.
    """

    num_players = 2
    utility_range = (-1.0, 1.0)
    zero_sum = True
    name = "race"

    def __init__(self, dice: bool = False) -> None:
        self.dice = dice

    # state: (total, turn); turn counts moves and chance steps, so it fixes the mover
    def initial_state(self) -> tuple[int, int]:
        return (0, 0)

    def to_move(self, state: tuple[int, int]) -> int:
        if self.dice:
            return CHANCE if state[1] % 2 else (state[1] // 2) % 2
        return state[1] % 2

    def actions(self, state: tuple[int, int]) -> Sequence[int]:
        return [1, 2]

    def chance_outcomes(self, state: tuple[int, int]) -> Sequence[tuple[int, float]]:
        return [(1, 0.25), (2, 0.75)]

    def result(self, state: tuple[int, int], action: int) -> tuple[int, int]:
        return (state[0] + action, state[1] + 1)

    def is_terminal(self, state: tuple[int, int]) -> bool:
        return state[0] >= 5

    def winner(self, state: tuple[int, int]) -> int:
        last = state[1] - 1
        return (last // 2) % 2 if self.dice else last % 2

    def utility(self, state: tuple[int, int], player: int) -> float:
        return 1.0 if self.winner(state) == player else -1.0


class Box:
    """A mutable state that hashes by value: the kind a mutating ``result`` gets away with."""

    def __init__(self, total: int) -> None:
        self.total = total

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Box) and other.total == self.total

    def __hash__(self) -> int:
        return hash(self.total)

    def __repr__(self) -> str:
        return f"Box({self.total})"


class Mutating(Race):
    def initial_state(self) -> Any:
        return Box(0)

    def to_move(self, state: Any) -> int:
        return 0

    def result(self, state: Any, action: int) -> Any:
        state.total += action  # the bug: the caller's state changes
        return Box(state.total)

    def is_terminal(self, state: Any) -> bool:
        return bool(state.total >= 5)

    def utility(self, state: Any, player: int) -> float:
        return 0.0


class Unstable(Race):
    calls = 0

    def actions(self, state: tuple[int, int]) -> Sequence[int]:
        self.calls += 1
        return [1, 2] if self.calls % 2 else [2, 1]


class BadOdds(Race):
    def chance_outcomes(self, state: tuple[int, int]) -> Sequence[tuple[int, float]]:
        return [(1, 0.5), (2, 0.4)]


class ZeroOdds(Race):
    def chance_outcomes(self, state: tuple[int, int]) -> Sequence[tuple[int, float]]:
        return [(1, 0.0), (2, 1.0)]


class OutOfRange(Race):
    def utility(self, state: tuple[int, int], player: int) -> float:
        return 2 * super().utility(state, player)


class NotZeroSum(Race):
    def utility(self, state: tuple[int, int], player: int) -> float:
        return 1.0 if self.winner(state) == player else 0.0 if state[0] == 5 else -0.5


class BadMover(Race):
    def to_move(self, state: tuple[int, int]) -> int:
        return 2


class NoActions(Race):
    def actions(self, state: tuple[int, int]) -> Sequence[int]:
        return [] if state[0] == 3 else [1, 2]


class SameText(Race):
    def format_action(self, state: tuple[int, int], action: int) -> str:
        return "add"


class NaNEvaluate(Race):
    def evaluate(self, state: tuple[int, int], player: int) -> float:
        return float("nan") if not self.is_terminal(state) else self.utility(state, player)


class ListState(Race):
    def initial_state(self) -> Any:
        return [0, 0]


class UnhashableKey(Race):
    def key(self, state: tuple[int, int]) -> Hashable:
        return [state]  # type: ignore[return-value]


class RandomResult(Race):
    seen = 0

    def result(self, state: tuple[int, int], action: int) -> tuple[int, int]:
        self.seen += 1
        return (state[0] + action, state[1] + 1 + 2 * (self.seen % 2))  # the bug: not a function


def test_a_correct_game_passes() -> None:
    report = check_game(Race())
    assert report.playouts == report.terminals == 50
    report = check_game(Race(dice=True))
    assert report.chance_nodes > 0


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (Mutating(), r"result\(state, \d\) mutated the state"),
        (Unstable(), r"actions\(\) changed between two calls"),
        (BadOdds(dice=True), "chance probabilities sum to 0.9, not 1"),
        (ZeroOdds(dice=True), "has probability 0.0, not > 0"),
        (OutOfRange(), r"lies outside utility_range \(-1.0, 1.0\)"),
        (NotZeroSum(), "the game says zero_sum but utilities"),
        (BadMover(), "to_move is 2, not a player 0..1"),
        (NoActions(), "a non-terminal state has no actions"),
        (SameText(), "format_action.* = 'add' parses back as"),
        (NaNEvaluate(), "evaluate for player 0 is nan"),
        (ListState(), "state is not hashable"),
        (UnhashableKey(), "is not hashable"),
        (RandomResult(), "differs between two calls"),
    ],
    ids=lambda v: type(v).__name__ if not isinstance(v, str) else "",
)
def test_broken_games_are_caught(game: Any, message: str) -> None:
    with pytest.raises(AssertionError, match=message) as caught:
        check_game(game)
    assert f"{game.name}, playout" in str(caught.value)
