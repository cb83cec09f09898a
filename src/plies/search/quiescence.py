"""Quiescence search: do not stop the search in the middle of a fight.

A depth cutoff in a "noisy" position (a capture pending, a four about to be completed)
scores it with a static evaluation that the very next move would contradict.  Quiescence
search keeps searching the noisy moves only (``game.noisy_actions(state)``), and lets
every player *stand pat*: take the static evaluation instead of a noisy move.  Here it is
packaged as a better evaluation function, :class:`Quiescent`, so that every member of
the family (minimax, alpha-beta with any engine switch, expectiminimax, max^n for its
searching player) searches the same game and the cross-checks stay exact.
"""

from __future__ import annotations

from typing import TypeVar

from plies.game import Game, GameWrapper
from plies.search.common import INF

S = TypeVar("S")
A = TypeVar("A")


class Quiescent(GameWrapper[S, A]):
    """``game`` with ``evaluate`` replaced by a stand-pat search over its noisy actions.

    ``evaluate(state, player)`` is the paranoid stand-pat value: at a node of ``player``
    the best of the static evaluation and every noisy move, at another player's node the
    worst of them, at most ``depth`` noisy moves deep.  Games without ``noisy_actions``
    keep their static evaluation.  Everything else is ``game``'s.
    """

    def __init__(self, game: Game[S, A], depth: int = 8) -> None:
        if depth < 0:
            raise ValueError(f"quiescence depth must be >= 0, got {depth}")
        super().__init__(game)
        self.depth = depth
        self._noisy = getattr(game, "noisy_actions", None)
        self.nodes = 0  # quiescence nodes searched so far (statistics)

    def evaluate(self, state: S, player: int) -> float:
        return self._stand_pat(state, player, self.depth, -INF, INF)

    def _stand_pat(self, state: S, player: int, depth: int, alpha: float, beta: float) -> float:
        """Fail-soft alpha-beta over the noisy moves; exact with the full window."""
        ops = self._ops
        self.nodes += 1
        if ops.is_terminal(state):
            return float(ops.utility(state, player))
        stand = float(ops.evaluate(state, player))
        mover = ops.to_move(state)
        if depth == 0 or self._noisy is None or mover < 0:
            return stand
        noisy = self._noisy(state)
        best = stand
        if mover == player:
            if best >= beta:
                return best
            alpha = max(alpha, best)
            for action in noisy:
                v = self._stand_pat(ops.result(state, action), player, depth - 1, alpha, beta)
                if v > best:
                    best = v
                    alpha = max(alpha, v)
                    if alpha >= beta:
                        break
        else:
            if best <= alpha:
                return best
            beta = min(beta, best)
            for action in noisy:
                v = self._stand_pat(ops.result(state, action), player, depth - 1, alpha, beta)
                if v < best:
                    best = v
                    beta = min(beta, v)
                    if alpha >= beta:
                        break
        return best
