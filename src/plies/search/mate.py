"""Mate-distance-aware scores: prefer the fastest win and the slowest loss.

A plain search sees every win as equal, so it may play a long win when a short one is
there, or resign to a quick loss when it could hold out.  :class:`MateDistance` wraps a
game so that a terminal utility at an end of ``utility_range`` is shifted by the number
of plies ``p`` it took from the root: a win (the top) is worth ``hi - p * step``, a loss
(the bottom) ``lo + p * step``, everything else is unchanged.  ``step`` is
``(hi - lo) * 2**-32``, so a shift stays below ``(hi - lo) * 2**-16`` for games of up to
65,536 plies; :func:`exact_value` maps a shifted value back to the exact utility.  The
one assumption, written in :func:`plies.alphabeta`'s docstring: no other utility of the
game lies that close to an end of its range.

States are ``(state, ply)`` pairs and the table key is ``(key, ply)``: the same position
reached at two depths is two entries, which is what keeps stored shifted values right.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any

from plies.errors import OptionError
from plies.game import Game, hook
from plies.wrappers import GameWrapper

UNWRAPPED = ("extension", "null_move", "is_quiet", "unclaimed")
"""Hooks set on the wrapper only when the wrapped game has them (never forwarded raw)."""
SHIFT_BITS = 32
MAX_PLY = 1 << 16


class MateDistance(GameWrapper[tuple[Any, int], Any]):
    """``game`` with wins and losses scored by their distance from the root (see module)."""

    def __init__(self, game: Game[Any, Any]) -> None:
        super().__init__(game)
        lo, hi = self.utility_range
        if not (math.isfinite(lo) and math.isfinite(hi) and lo <= hi):
            raise OptionError("mate-distance scores need a game with a finite utility_range")
        self.lo, self.hi = float(lo), float(hi)
        self.step = (self.hi - self.lo) * 2.0**-SHIFT_BITS
        self.band = self.step * MAX_PLY
        # The selective hooks speak of the wrapped game's states: unwrap them.
        extension, null_move, is_quiet, unclaimed = (
            hook(game, "extension"), hook(game, "null_move"), hook(game, "is_quiet"),
            hook(game, "unclaimed"),
        )
        if extension is not None:
            self.extension = lambda state, action, child: extension(state[0], action, child[0])
        if null_move is not None:

            def passed(state: tuple[Any, int]) -> tuple[Any, int] | None:
                after = null_move(state[0])
                return None if after is None else (after, state[1] + 1)

            self.null_move = passed
        if is_quiet is not None:
            self.is_quiet = lambda state, action: is_quiet(state[0], action)
        if unclaimed is not None:
            self.unclaimed = lambda state: (unclaimed(state[0]), state[1])

    def compiled_search(self, backend: str | None = None) -> Any:
        """The wrapped game's compiled engine (its ``compiled_search`` hook; ``backend``
        None: the game's own choice), which searches these ``(state, ply)`` states and
        reports mates as this wrapper's utilities; None when the game has none."""
        make = hook(self.game, "compiled_search")
        if make is None:
            return None
        return make() if backend is None else make(backend)

    def root(self, state: Any) -> tuple[Any, int]:
        return (state, 0)

    def initial_state(self) -> tuple[Any, int]:
        return (self.game.initial_state(), 0)

    def to_move(self, state: tuple[Any, int]) -> int:
        return self.game.to_move(state[0])

    def actions(self, state: tuple[Any, int]) -> Sequence[Any]:
        return self.game.actions(state[0])

    def chance_outcomes(self, state: tuple[Any, int]) -> Sequence[tuple[Any, float]]:
        return self._ops.chance_outcomes(state[0])

    def result(self, state: tuple[Any, int], action: Any) -> tuple[Any, int]:
        return (self.game.result(state[0], action), state[1] + 1)

    def is_terminal(self, state: tuple[Any, int]) -> bool:
        return self.game.is_terminal(state[0])

    def utility(self, state: tuple[Any, int], player: int) -> float:
        u = float(self.game.utility(state[0], player))
        ply = min(state[1], MAX_PLY)
        if u >= self.hi:
            return self.hi - ply * self.step
        if u <= self.lo:
            return self.lo + ply * self.step
        return u

    def evaluate(self, state: tuple[Any, int], player: int) -> float:
        if self.is_terminal(state):
            return self.utility(state, player)
        return float(self._ops.evaluate(state[0], player))

    def key(self, state: tuple[Any, int]) -> Hashable:
        return (self._ops.key(state[0]), state[1])

    def order_hint(self, state: tuple[Any, int], actions: Sequence[Any]) -> Sequence[Any]:
        hint = getattr(self.game, "order_hint", None)
        return actions if hint is None else hint(state[0], actions)

    def noisy_actions(self, state: tuple[Any, int]) -> Sequence[Any]:
        noisy = getattr(self.game, "noisy_actions", None)
        return () if noisy is None else noisy(state[0])

    def __getattr__(self, name: str) -> Any:
        # Hooks that speak about exact values of the wrapped game do not apply here.
        if name in ("value_bounds", "sufficient_actions", *UNWRAPPED):
            raise AttributeError(name)
        return super().__getattr__(name)

    def exact_value(self, value: float) -> float:
        """The wrapped game's value for a value searched on this wrapper."""
        if self.hi - self.band < value <= self.hi or self.lo == self.hi:
            return self.hi
        if self.lo <= value < self.lo + self.band:
            return self.lo
        return value

    def distance(self, value: float) -> int | None:
        """Plies to the end of a forced win or loss, or None for any other value."""
        if self.step == 0:
            return None
        if self.hi - self.band < value <= self.hi:
            return round((self.hi - value) / self.step)
        if self.lo <= value < self.lo + self.band:
            return round((value - self.lo) / self.step)
        return None
