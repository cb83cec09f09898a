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

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from plies.game import Game, GameOps, game_ops
from plies.search.alphabeta.core import alphabeta_kernel
from plies.search.kernels import INF, Kernel
from plies.wrappers import GameWrapper

S = TypeVar("S")
A = TypeVar("A")


class Quiescent(GameWrapper[S, A]):
    """``game`` with ``evaluate`` replaced by a stand-pat search over its noisy actions.

    ``evaluate(state, player)`` is the paranoid stand-pat value: at a node of ``player``
    the best of the static evaluation and every noisy move, at another player's node the
    worst of them, at most ``depth`` noisy moves deep.  Games without ``noisy_actions``
    keep their static evaluation.  Everything else is ``game``'s.  ``nodes`` counts the
    quiescence nodes searched so far (statistics).

    The search is plies' one alpha-beta core (:func:`~plies.search.alphabeta.core.alphabeta_kernel`)
    run on :class:`StandPatGame`, where standing pat is a move like the noisy ones.
    """

    def __init__(self, game: Game[S, A], depth: int = 8) -> None:
        if depth < 0:
            raise ValueError(f"quiescence depth must be >= 0, got {depth}")
        super().__init__(game)
        self.depth = depth
        noisy = getattr(game, "noisy_actions", None)
        self._tree = None if noisy is None else StandPatGame(self._ops, noisy)
        self._kernels: dict[int, Kernel] = {}  # one per searching player, reused
        self._quiet = 0  # evaluations of a game without noisy actions

    @property
    def nodes(self) -> int:
        """Quiescence nodes searched so far (the stand-pat moves not counted); a game
        without noisy actions counts one node per evaluation, as a quiet position does."""
        if self._tree is None:
            return self._quiet
        return sum(k.stats.nodes for k in self._kernels.values()) - self._tree.stands

    def evaluate(self, state: S, player: int) -> float:
        if self._tree is None:
            self._quiet += 1
            return float(self._ops.evaluate(state, player))
        kernel = self._kernels.get(player)
        if kernel is None:
            kernel = alphabeta_kernel(game_ops(self._tree), player, self.depth)
            self._kernels[player] = kernel
        return float(kernel.worker(state, 0, 0, -INF, INF))


class StandPat:
    """The position after "stand pat" at ``state``: the end, worth its static evaluation."""

    __slots__ = ("state",)

    def __init__(self, state: Any) -> None:
        self.state = state


class StandPatGame:
    """The game a quiescence search plays: stand pat, or a noisy move.

    At each position the mover may *stand pat* (the first action, ``None``), which ends
    the game with the static evaluation of the position, or play one of the game's noisy
    actions.  A position without a noisy action, and a chance or simultaneous one, is
    scored by its static evaluation; a terminal position by its utility.  ``stands``
    counts the stand-pat positions searched.
    """

    def __init__(self, ops: GameOps, noisy: Callable[[Any], Sequence[Any]]) -> None:
        self.num_players = ops.num_players
        self.utility_range = ops.utility_range
        self.stands = 0
        self._ops, self._noisy = ops, noisy

    def to_move(self, state: Any) -> int:
        return self._ops.to_move(state)

    def actions(self, state: Any) -> Sequence[Any]:
        return [None, *self._noisy(state)]

    def result(self, state: Any, action: Any) -> Any:
        return StandPat(state) if action is None else self._ops.result(state, action)

    def is_terminal(self, state: Any) -> bool:
        if type(state) is StandPat:
            self.stands += 1
            return True
        ops = self._ops
        return ops.is_terminal(state) or ops.to_move(state) < 0

    def utility(self, state: Any, player: int) -> float:
        if type(state) is StandPat:
            return float(self._ops.evaluate(state.state, player))
        if self._ops.is_terminal(state):
            return float(self._ops.utility(state, player))
        return float(self._ops.evaluate(state, player))  # chance or simultaneous

    def evaluate(self, state: Any, player: int) -> float:
        return float(self._ops.evaluate(state, player))
