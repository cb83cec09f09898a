"""Terminal states scored by the evaluation function, as some courses' agents do.

In the Berkeley CS188 Pacman project, an agent scores a won or lost state with its
evaluation function (``self.evaluationFunction(gameState)``), not with the game's final
score; an autograder that checks values expects that.  :class:`EvaluatedTerminals` is the
same game with ``utility`` replaced by ``evaluate``, so every search of plies follows that
convention unchanged.
"""

from __future__ import annotations

import math
from typing import TypeVar

from plies.game import Game
from plies.wrappers.base import GameWrapper

S = TypeVar("S")
A = TypeVar("A")


class EvaluatedTerminals(GameWrapper[S, A]):
    """``game`` whose terminal states are worth ``game.evaluate(state, player)``.

    The rules, the movers and the states are ``game``'s; only the value of a terminal
    state changes.  ``utility_range`` becomes unbounded (an evaluation may leave the
    game's range), so searches that stop at the top of the range do not assume it.

    >>> from plies.games import load
    >>> from plies.wrappers import EvaluatedTerminals
    >>> nim = EvaluatedTerminals(load("nim"))
    >>> end = nim.initial_state()
    >>> while not nim.is_terminal(end):
    ...     end = nim.result(end, nim.actions(end)[0])
    >>> nim.utility(end, 0) == nim.game.evaluate(end, 0)
    True
    """

    def __init__(self, game: Game[S, A]) -> None:
        super().__init__(game)
        self.utility_range = (-math.inf, math.inf)

    def utility(self, state: S, player: int) -> float:
        return float(self._ops.evaluate(state, player))

    def __repr__(self) -> str:
        return f"EvaluatedTerminals({self.game!r})"


__all__ = ["EvaluatedTerminals"]
