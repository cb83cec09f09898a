"""An exact Othello endgame solver: the last 14 empty squares in Python, 20 to 26 compiled.

Why a dedicated path (measured by ``benchmarks/othello_endgame.py --generic``): plain
:func:`plies.alphabeta` visits about 100,000 positions a second through the ``Game``
protocol, as fast as this module, but needs 5 to 40 times the nodes at 10 to 12 empty
squares; with engine craft (``tt``, ``ordering`` with the game's ``order_hint``, ``pvs``)
it needs about twice the nodes at half the speed.  This module searches two plain ints
with the move ordering and table of Othello endgame solvers, 3 to 10 times faster than
the craft search; 14 empty squares take 0.4 to 2 seconds (a median of 0.7 to 1.6 s over
seeded sets of positions), 10 empty squares a few hundredths.  The search:

- negamax over ``(mover, other)`` bitboards with :func:`~plies.games.othello.legal_moves`
  and :func:`~plies.games.othello.flips`; a side without a move passes, and two passes in
  a row end the game, scored as :meth:`Othello.score` does (the empty squares go to the
  winner);
- principal variation search: the first move with the full window, the others with a
  null window first;
- move ordering: fastest-first (the move that leaves the opponent the fewest replies,
  corners first on ties) while more than :data:`FASTEST_FIRST` squares are empty, the
  static square classes below that;
- the stability cut-off: the opponent keeps its stable discs
  (:func:`~plies.games.othello.stable_discs`), so the mover scores at most
  ``64 - 2 * stable``; tried only when alpha is high (about 10% fewer seconds, measured);
- a transposition table of bounds and best moves (a dict) above :data:`TABLE_MIN`
  empty squares;
- the last empty square is played out directly (no move generation).

With Numba (``pip install 'plies[fast]'``) backend ``auto`` runs the same search compiled
from :data:`AUTO_COMPILED` empty squares on
(:mod:`plies.games.othello.kernel`: its table in NumPy arrays, the enhanced transposition
cut-off, unrolled parity-ordered code for the last six empty squares, moves far from the
end ordered by a shallow search), about a hundred times as many nodes a second: the FFO
endgame positions #40-#49 (20 to 26 empty squares) take one second to a minute and a half
each
(``benchmarks/othello_endgame.py --ffo``).  ``python`` is the plain search above, the
oracle the compiled one is tested against.

The value is exact: there is no heuristic cut-off anywhere.  Scores are disc differences
for the side to move, in ``-64..64``.

>>> from plies.games.othello import Othello, make_state
>>> game = Othello()
>>> s = make_state(FULL ^ 0b1111, 0b1100, 0)  # a1, b1 empty; White on c1, d1; Black to move
>>> OthelloSolver(game).score(s)  # b1 takes White's last discs: 63 to 0, a1 to Black
64
>>> [game.format_action(s, a) for a in OthelloSolver(game).solve(s).pv]
['b1']
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable
from typing import Any, Final

from plies.budget import StopSignal
from plies.compiled import BACKENDS, choose_backend, run_stoppable
from plies.errors import SearchLimitError
from plies.game.knowledge import NullWindowTest
from plies.games.othello.bitboard import (
    CORNERS,
    FULL,
    PASS,
    OthelloState,
    disc_score,
    flips,
    legal_moves,
    moves,
    play,
    square_order,
    squares,
    stable_discs,
)
from plies.search.common import SearchResult, SearchStats

Test = NullWindowTest
"""``on_test(m, result, lo, hi, elapsed)``, as for the Connect Four solver (compiled backend)."""

FASTEST_FIRST: Final = 4
"""Above this many empty squares moves are sorted by the opponent's replies after them."""

TABLE_MIN: Final = 4
"""Above this many empty squares positions keep their bounds in the transposition table."""

STABILITY_MIN: Final = 5
STABILITY_ALPHA: Final = 30
"""The stability cut-off is tried with at least STABILITY_MIN empty squares and only when
alpha is at least STABILITY_ALPHA (it costs more than most nodes and rarely cuts below)."""

TABLE_SIZE: Final = 1 << 21
"""The table is emptied before a search once it holds more positions than this."""

_STATIC: Final = square_order()


def _final(mover: int, other: int) -> int:
    """The score for ``mover`` of a finished game (the empty squares to the winner)."""
    a, b = mover.bit_count(), other.bit_count()
    if a > b:
        return 64 - 2 * b
    if a < b:
        return 2 * a - 64
    return 0


def _last(mover: int, other: int, square: int) -> int:
    """The exact score for ``mover`` with one empty square left, ``square``."""
    f = flips(mover, other, square)
    if f:
        return _final(mover | f | (1 << square), other ^ f)
    f = flips(other, mover, square)
    if f:
        return _final(mover ^ f, other | f | (1 << square))
    return _final(mover, other)


def _negamax(
    mover: int, other: int, alpha: int, beta: int, table: dict[int, tuple[int, int, int]],
    counter: list[int],
) -> int:
    """The score for ``mover`` within ``(alpha, beta)``: exact inside, a bound outside.

    Fail-soft: a result ``<= alpha`` is an upper bound, ``>= beta`` a lower bound.
    """
    counter[0] += 1
    empty = ~(mover | other) & FULL
    n_empty = empty.bit_count()
    if n_empty == 1:
        return _last(mover, other, empty.bit_length() - 1)
    legal = legal_moves(mover, other)
    if not legal:
        if not legal_moves(other, mover):
            return _final(mover, other)
        return -_negamax(other, mover, -beta, -alpha, table, counter)
    if n_empty >= STABILITY_MIN and alpha >= STABILITY_ALPHA:
        # The opponent keeps its stable discs: we cannot score more than 64 - 2 * stable.
        hi = 64 - 2 * stable_discs(other, mover | other).bit_count()
        if hi <= alpha:
            return hi
    key = 0
    alpha0 = alpha
    hint = -1
    if n_empty > TABLE_MIN:
        key = mover | other << 64
        entry = table.get(key)
        if entry is not None:
            lo, hi, hint = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = alpha0 = lo
            if hi < beta:
                beta = hi
    if n_empty > FASTEST_FIRST:
        scored = []
        for sq in squares(legal):
            f = flips(mover, other, sq)
            placed = 1 << sq
            replies = legal_moves(other ^ f, mover | f | placed)
            scored.append((replies.bit_count() * 2 - (1 if placed & CORNERS else 0), sq, f))
        scored.sort()
        moves = [(sq, f) for _, sq, f in scored]
    else:
        moves = [(sq, flips(mover, other, sq)) for sq in _STATIC if legal >> sq & 1]
    if hint >= 0:  # the table's best move first
        for i, (sq, _) in enumerate(moves):
            if sq == hint:
                moves.insert(0, moves.pop(i))
                break
    best = -65
    best_sq = -1
    first = True
    for sq, f in moves:
        child_mover, child_other = other ^ f, mover | f | (1 << sq)
        if first:
            value = -_negamax(child_mover, child_other, -beta, -alpha, table, counter)
            first = False
        else:
            value = -_negamax(child_mover, child_other, -alpha - 1, -alpha, table, counter)
            if alpha < value < beta:  # the null window failed high: search it again
                value = -_negamax(child_mover, child_other, -beta, -value, table, counter)
        if value > best:
            best, best_sq = value, sq
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    if key:
        lo, hi, hint = table.get(key, (-64, 64, -1))
        if best <= alpha0:
            hi = best  # every move failed low: an upper bound, and no best move known
        elif best >= beta:
            lo, hint = best, best_sq
        else:
            lo = hi = best
            hint = best_sq
        table[key] = (lo, hi, hint)
    return best


SLOTS: Final = 1 << 21
"""Slots of the compiled backend's table (20 bytes each: 40 MB)."""

AUTO_COMPILED: Final = 14
"""Backend ``auto`` compiles positions with at least this many empty squares: below, the
Python search is done (1.6 s at 14, 0.1 s at 12) before Numba has loaded the kernel."""


class OthelloSolver:
    """Exact scores, best moves and principal variations of Othello endgames.

    ``backend`` is ``"auto"``, ``"numba"`` or ``"python"``: ``auto`` runs the compiled
    search (when Numba imports) on positions with at least :data:`AUTO_COMPILED` empty
    squares and the Python one below, where it finishes before Numba would have loaded
    the kernel; ``backend`` is then ``"numba"`` (the fastest it can run).  ``slots`` is
    the size of the compiled backend's table (a power of two).  ``nodes`` counts every
    position visited over the solver's life.  Positions with many empty squares take
    exponentially long: about 14 empty squares is the practical limit in Python, about
    26 compiled (see the module docstring and the benchmark).  The tables are kept
    between calls (their bounds belong to positions, so they stay true); :meth:`reset`
    empties them.
    """

    def __init__(self, game: Any = None, *, backend: str = "auto", slots: int = SLOTS) -> None:
        self.game = game  # the Othello game; the solver itself reads only the bitboards
        self.backend = choose_backend(backend, "Othello solver")
        self.nodes = 0
        self._table: dict[int, tuple[int, int, int]] = {}
        self._slots = slots
        # positions with fewer empty squares go to the Python search
        self._smallest = AUTO_COMPILED if backend == "auto" else 0
        self._counter: Any = [0, 0]
        self._kernel: Any = None
        if self.backend == "numba" and backend == "numba":
            self._load()

    def _load(self) -> Any:
        """The compiled kernel, its table and scratch rows (loaded, or compiled, once)."""
        if self._kernel is None:
            import numpy as np

            from plies.games.othello import kernel

            self._np = np
            self._arrays = kernel.new_table(self._slots)
            self._scratch = kernel.new_scratch()
            self._kernel_counter: Any = np.zeros(3, dtype=np.int64)
            self._halt: Any = np.zeros(1, dtype=np.uint8)
            self._kernel = kernel
        return self._kernel

    def _compiled(self, mover: int, other: int) -> bool:
        """True when the compiled search takes this position."""
        return self.backend == "numba" and 64 - (mover | other).bit_count() >= self._smallest

    def reset(self) -> None:
        """Forget every stored bound (new, empty tables)."""
        self._table = {}
        if self._kernel is not None:
            self._arrays = self._kernel.new_table(self._slots)

    def _search(
        self, mover: int, other: int, alpha: int, beta: int, stop: StopSignal | None = None
    ) -> int:
        """The score for ``mover`` within ``(alpha, beta)`` (fail-soft, as ``_negamax``)."""
        if not self._compiled(mover, other):
            counter = self._counter
            counter[0] = 0
            if len(self._table) > TABLE_SIZE:
                self._table = {}
            try:
                return _negamax(mover, other, alpha, beta, self._table, counter)
            finally:
                self.nodes += counter[0]
        kernel = self._load()
        np, counter = self._np, self._kernel_counter
        counter[0] = counter[1] = counter[2] = 0
        n_empty = 64 - (mover | other).bit_count()
        args = (np.uint64(mover), np.uint64(other), alpha, beta, n_empty, *self._arrays,
                *self._scratch, counter)
        try:
            value = run_stoppable(kernel.search, args, self._halt, stop, "plies-othello-solver")
        finally:
            self.nodes += int(counter[0])
        if counter[1]:
            raise SearchLimitError(_STOPPED)
        return int(value)

    def score(
        self, state: OthelloState, *, weak: bool = False, on_test: Test | None = None,
        stop: StopSignal | None = None,
    ) -> int:
        """The exact final disc difference for the side to move, with perfect play.

        With ``weak`` only which side of a draw: a bound of the right sign (0 for a
        draw), found with the window ``(-1, 1)``.  The Python search takes the whole
        window at once; the compiled one runs null-window tests "score > m?" (MTD(f) from
        a guess of 0, ``m`` odd since every final score is even), each reported to
        ``on_test(m, result, lo, hi, elapsed)`` as it finishes.  ``stop`` (an object
        with ``is_set()``) ends a compiled search within a few milliseconds with
        :class:`~plies.errors.SearchLimitError` (the Python one looks at it before it
        starts).
        """
        if state.over:
            s = disc_score(state)
            return (s > 0) - (s < 0) if weak else s
        _check(stop)
        if weak:
            return self._search(state.mover, state.other, -1, 1, stop)
        if not self._compiled(state.mover, state.other):
            return self._search(state.mover, state.other, -65, 65, stop)
        lo, hi, guess = -64, 64, 0
        start = time.perf_counter()
        while lo < hi:
            m = guess + 1 if guess == lo else guess - 1
            guess = self._search(state.mover, state.other, m, m + 1, stop)
            if guess > m:
                lo = guess
            else:
                hi = guess
            if on_test is not None:
                on_test(m, guess, lo, hi, time.perf_counter() - start)
        return lo

    def best_action(
        self, state: OthelloState, score: int, *, weak: bool = False,
        stop: StopSignal | None = None,
    ) -> int | None:
        """The first action (in ``actions()`` order) worth ``score``, the state's :meth:`score`.

        With ``weak``, the first action whose child lies on the same side of a draw.
        ``stop`` ends it as it ends :meth:`score`.
        """
        actions = moves(state)
        for action in actions:
            child = play(state, action)
            if weak:
                v = -self.score(child, weak=True, stop=stop)
                if (v > 0) - (v < 0) == (score > 0) - (score < 0):
                    return action
            elif child.over:
                if -disc_score(child) == score:
                    return action
            elif -self._search(child.mover, child.other, -score - 1, -score + 1, stop) == score:
                return action
        return actions[0] if actions else None

    def solve(
        self,
        state: OthelloState,
        *,
        player: int | None = None,
        weak: bool = False,
        pv: bool = True,
        on_test: Test | None = None,
        on_progress: Callable[[Any], None] | None = None,
        stop: Any = None,
    ) -> SearchResult:
        """A :class:`~plies.SearchResult` like :func:`plies.alphabeta`'s exact one.

        ``value`` is the final disc difference for ``player`` (default: the side to move)
        with perfect play from both sides; ``action`` is the first legal action (in
        ``actions()`` order) that reaches it, :data:`~plies.games.othello.PASS` when the
        mover must pass; ``pv`` follows such actions to the end of the game.  With
        ``weak`` the value is only a bound on the right side of a draw (as
        ``alphabeta(..., weak=True)`` gives) and ``exact`` is False unless it is a draw.
        ``on_test`` is told of every null-window test of the score (compiled backend;
        see :meth:`score`); ``on_progress`` is never called; ``stop`` (an object with
        ``is_set()``) ends the solve with :class:`~plies.errors.SearchLimitError`:
        within a few milliseconds compiled, before the search and between the steps of
        the principal variation in Python.
        """
        mover = state.player
        player = mover if player is None else player
        start, nodes0 = time.perf_counter(), self.nodes
        s = self.score(state, weak=weak, on_test=on_test, stop=stop)
        line: list[int] = []
        here, v = state, s
        while not here.over:
            _check(stop)
            step = self.best_action(here, v, weak=weak, stop=stop)
            assert step is not None
            line.append(step)
            here = play(here, step)
            v = -v if not weak else -self.score(here, weak=True, stop=stop)
            if not pv:
                break
        value = float(s if player == mover else -s)
        stats = SearchStats(
            nodes=self.nodes - nodes0, depth=len(line), elapsed=time.perf_counter() - start
        )
        exact = not weak or s == 0
        found = SearchResult(value, line[0] if line else None, tuple(line), stats, player, exact)
        return found if self.game is None else found.about(self.game, state)

    def analyze(self, state: OthelloState, *, player: int | None = None) -> dict[int, float]:
        """The exact value of every legal action for ``player`` (default: the side to move)."""
        mover = state.player
        player = mover if player is None else player
        sign = 1 if player == mover else -1
        out: dict[int, float] = {}
        for action in moves(state):
            child = play(state, action)
            out[action] = float(sign * -self.score(child))
        return out


_STOPPED: Final = "the solver was stopped before it finished; a partial solve has no value"


def _check(stop: Any) -> None:
    if stop is not None and stop.is_set():
        raise SearchLimitError(_STOPPED)


_KEPT: weakref.WeakKeyDictionary[Any, dict[str, OthelloSolver]] = weakref.WeakKeyDictionary()


def solver_of(game: Any, backend: str = "auto") -> OthelloSolver:
    """The endgame solver of the Othello ``game`` with ``backend``, made once and kept
    with the game (its table too): what :meth:`Othello.solver` returns.

    Raises:
        OptionError: a backend other than ``auto``, ``numba`` and ``python``, or
            ``numba`` without Numba installed.
    """
    kept = _KEPT.setdefault(game, {})
    chosen = choose_backend(backend, "Othello solver")
    if chosen not in kept:
        kept[chosen] = OthelloSolver(game, backend=chosen)
    return kept[chosen]


__all__ = [
    "AUTO_COMPILED", "BACKENDS", "FASTEST_FIRST", "PASS", "SLOTS", "OthelloSolver", "solver_of",
]
