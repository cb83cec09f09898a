"""A dedicated Connect Four solver: Pascal Pons' final algorithm, compiled by Numba if present.

Why a dedicated path (measured; ``docs/explanation/performance.md`` has the table): the
generic engine (:func:`plies.alphabeta` with ``tt``, ``ordering``, ``pvs``, ``bisection``
and the game's hooks) visits 1.2x the nodes of this solver on the benchmark sets, but
each node goes through the ``Game`` protocol at about 30,000 nodes per second.  The
position ``4453`` needs 57 million nodes: about 40 minutes.  This module runs the same
search over plain ints: about 100,000 nodes per second as Python, about 4 million once
Numba compiles it (``pip install plies[fast]``), which solves ``4453`` in about 15 s.

The search (Pons, "Solving Connect 4", final version, without the opening book):

- negamax over bitboards (:class:`~plies.games.connect4.Connect4`'s layout), scores in
  the benchmark convention for the side to move (see :meth:`Connect4.score`);
- only the *non-losing* moves are searched (block an immediate threat; never play under
  one of the opponent's fours), sorted by the number of threats they create, centre
  first on ties;
- the window is narrowed to the scores still possible (no win before the mover's next
  stone but one, no loss before the opponent's);
- a transposition table of ``size`` slots (the largest prime up to it), one bound per
  position, always replaced;
- the root score by null-window tests that halve the interval it lies in (MTD-bi), each
  test halfway to the nearer end.

Node counts equal the published solver's: a mean of 3,295 / 449 / 51 nodes over all
1,000 positions of Test_L1_R1 / Test_L2_R1 / Test_L3_R1 (published: 3,298 / 450 / 51).

>>> from plies.games.connect4 import Connect4
>>> solver = Connect4Solver(Connect4(scoring="pons"), backend="python", size=100_003)
>>> solver.score(solver.game.moves_from_string("52753311433677442422121"))
8
"""

from __future__ import annotations

import time
import types
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

from plies.budget import StopSignal
from plies.compiled import numba_available, run_stoppable
from plies.errors import OptionError, SearchLimitError
from plies.game.knowledge import NullWindowTest
from plies.games.connect4.bitboard import Connect4State, four_completions
from plies.search.common import SearchResult, SearchStats
from plies.search.craft import largest_prime_at_most

BACKENDS: Final = ("auto", "numba", "python")
"""``auto``: Numba when it can be imported, else Python."""

DEFAULT_SIZE: Final = 1 << 23
"""Default table size (8,388,593 slots, Pons' table)."""

Test = NullWindowTest

POLL_EVERY: Final = 4096
"""Nodes between two looks at the stop flag (a power of two): well under a millisecond
compiled, about 40 ms as Python."""
"""``on_test(m, result, lo, hi, elapsed)``: a null-window test "score > m?", the interval after."""


# --- the kernel: plain Python over ints, also valid Numba source ---------------------------
#
# Both backends run these two functions and the game's four_completions.  Numba compiles
# copies of the three whose globals name the compiled versions (see _numba_kernel), so the
# source is written once.  Everything is an int (int64 under Numba; the board needs
# width * (height + 1) <= 63 bits there).
# ``board``: every real cell; ``bottom``: the bottom cell of every column; ``order``:
# columns centre first; ``columns``: each column's cells; ``keys``/``vals``: the table
# (vals 0 = empty, else a lower bound coded above ``lower_code`` or an upper bound);
# ``sorted_moves``/``sorted_scores``: scratch rows of ``width`` per stone count;
# ``counter[0]``: nodes; ``counter[1]``: 1 once the search is stopping; ``halt[0]``: true
# when it must stop (a flag array another thread sets under Numba, a view of the stop
# signal in Python), read every POLL_EVERY nodes.  A stopping search returns at once,
# up every level, and stores nothing on the way: the table keeps only true bounds.


def _winning(stones: int, mask: int, height: int, board: int) -> int:
    """Empty cells that would complete a four for ``stones`` (Pons' compute_winning_position)."""
    return four_completions(stones, height, board) & (board ^ mask)


def _negamax(
    position: int, mask: int, moves: int, alpha: int, beta: int,
    width: int, height: int, board: int, bottom: int, order: Any, columns: Any,
    keys: Any, vals: Any, size: int, min_score: int, max_score: int,
    sorted_moves: Any, sorted_scores: Any, counter: Any, halt: Any,
) -> int:
    """The score of a position whose mover cannot win at once, within ``(alpha, beta)``.

    Fail-soft above (a result ``>= beta`` is a lower bound), fail-hard below (a result
    ``<= alpha`` is an upper bound).
    """
    counter[0] += 1
    if (counter[0] & (POLL_EVERY - 1)) == 0 and halt[0]:
        counter[1] = 1
    if counter[1]:
        return 0
    cells = width * height
    possible = (mask + bottom) & board
    threats = _winning(position ^ mask, mask, height, board)
    forced = possible & threats
    if forced:
        if forced & (forced - 1):  # two threats: one cannot block both
            return -((cells - moves) // 2)
        possible = forced
    possible &= ~(threats >> 1)  # never fill the cell under an opponent's four
    if possible == 0:
        return -((cells - moves) // 2)
    if moves >= cells - 2:
        return 0
    low = -((cells - 2 - moves) // 2)  # the opponent cannot win with its next stone
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha
    high = (cells - 1 - moves) // 2  # nor can we with this one
    key = position + mask
    slot = key % size
    lower_code = max_score - min_score + 1
    if keys[slot] == key:
        code = vals[slot] + 0
        if code > lower_code:
            low = code + 2 * min_score - max_score - 2
            if alpha < low:
                alpha = low
                if alpha >= beta:
                    return alpha
        elif code > 0:
            high = code + min_score - 1
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta
    # Insertion sort by threats made; equal scores come out centre first.
    row = moves * width
    n = 0
    for i in range(width - 1, -1, -1):
        move = possible & columns[order[i]]
        if move:
            made = _winning(position | move, mask, height, board)
            score = 0
            while made:  # popcount (int.bit_count is not Numba's)
                made &= made - 1
                score += 1
            j = n
            n += 1
            while j > 0 and sorted_scores[row + j - 1] > score:
                sorted_scores[row + j] = sorted_scores[row + j - 1]
                sorted_moves[row + j] = sorted_moves[row + j - 1]
                j -= 1
            sorted_scores[row + j] = score
            sorted_moves[row + j] = move
    while n > 0:
        n -= 1
        move = sorted_moves[row + n]
        score = -_negamax(
            position ^ mask, mask | move, moves + 1, -beta, -alpha,
            width, height, board, bottom, order, columns,
            keys, vals, size, min_score, max_score, sorted_moves, sorted_scores, counter, halt,
        )
        if counter[1]:
            return 0
        if score >= beta:
            keys[slot] = key
            vals[slot] = score + max_score - 2 * min_score + 2
            return score
        if score > alpha:
            alpha = score
    keys[slot] = key
    vals[slot] = alpha - min_score + 1
    return alpha


_NUMBA: dict[str, Any] = {}


def _numba_kernel() -> Callable[..., int]:
    """``_negamax`` compiled by Numba (once per process; cached on disk by Numba).

    It runs without the GIL (``nogil``), in a thread of its own
    (:func:`plies.compiled.run_stoppable`), so that the caller's thread stays free to see
    Ctrl-C and the stop signal.
    """
    if "negamax" not in _NUMBA:
        from numba import njit

        namespace: dict[str, Any] = {
            "__builtins__": __builtins__, "__name__": __name__, "POLL_EVERY": POLL_EVERY,
        }
        for function in (four_completions, _winning, _negamax):
            copy = types.FunctionType(function.__code__, namespace, function.__name__)
            namespace[function.__name__] = njit(cache=True, nogil=True)(copy)
        _NUMBA["negamax"] = namespace["_negamax"]
    kernel: Callable[..., int] = _NUMBA["negamax"]
    return kernel


# --- the solver ------------------------------------------------------------------------------


class Connect4Rules(Protocol):
    """What the solver reads of its game, a :class:`~plies.games.connect4.Connect4` (the
    rules import this module on demand, so it names them only by what they have)."""

    width: int
    height: int
    cells: int
    scoring: str
    board_mask: int
    centre_order: tuple[int, ...]

    def to_move(self, state: Connect4State) -> int: ...
    def actions(self, state: Connect4State) -> Sequence[int]: ...
    def result(self, state: Connect4State, action: int) -> Connect4State: ...
    def is_terminal(self, state: Connect4State) -> bool: ...
    def score(self, state: Connect4State) -> int: ...
    def is_winning_move(self, state: Connect4State, col: int) -> bool: ...
    def winning_cells(self, state: Connect4State, player: int) -> int: ...
    def moves_from_string(self, text: str) -> Connect4State: ...


@dataclass
class _Table:
    keys: Any
    vals: Any


class _Slots(dict[int, int]):
    """The Python backend's table column: slots filled on demand, 0 when empty."""

    def __missing__(self, slot: int) -> int:
        return 0


class Connect4Solver:
    """Strong (or weak) solutions of Connect Four positions, by the search above.

    ``game`` is a :class:`~plies.games.connect4.Connect4` (of any size and scoring).
    ``backend`` is ``"auto"`` (Numba if importable and the board fits in 63 bits, else
    Python), ``"numba"`` or ``"python"``; ``size`` the number of table slots (the largest
    prime up to it is used).  The table is kept between calls: its scores belong to
    positions, not to a searching player, so they stay true; :meth:`reset` empties it.
    It is the game's exact solver (:class:`plies.game.Solver`, the ``solver`` hook).
    """

    def __init__(
        self, game: Connect4Rules, *, backend: str = "auto", size: int = DEFAULT_SIZE
    ) -> None:
        if backend not in BACKENDS:
            raise OptionError(f"unknown solver backend {backend!r}; use one of: "
                              f"{', '.join(BACKENDS)}")
        fits = game.width * (game.height + 1) <= 63  # one int64 holds the board
        if backend == "auto":
            backend = "numba" if fits and numba_available() else "python"
        elif backend == "numba" and not numba_available():
            raise OptionError("the numba backend needs Numba: pip install 'plies[fast]'")
        if backend == "numba" and not fits:
            raise OptionError(f"the numba backend needs width * (height + 1) <= 63, "
                              f"got {game.width}x{game.height}")
        if size < 2:
            raise OptionError(f"the solver's table needs at least 2 slots, got {size}")
        self.game = game
        self.backend = backend
        self.size = largest_prime_at_most(size)
        self.nodes = 0
        w, h = game.width, game.height
        self.max_score = (w * h + 1) // 2 - 3
        self.min_score = -((w * h) // 2) + 3
        order = game.centre_order
        columns = tuple(((1 << h) - 1) << (col * (h + 1)) for col in range(w))
        self._column_masks = columns
        scratch = w * (w * h + 1)
        if backend == "numba":
            import numpy as np

            self._kernel = _numba_kernel()
            self._order: Any = np.array(order, dtype=np.int64)
            self._columns: Any = np.array(columns, dtype=np.int64)
            self._moves: Any = np.zeros(scratch, dtype=np.int64)
            self._scores: Any = np.zeros(scratch, dtype=np.int64)
            self._counter: Any = np.zeros(2, dtype=np.int64)
            self._halt: Any = np.zeros(1, dtype=np.uint8)
            # Load (or compile) the machine code now, so that no search's time counts it:
            # a call that returns at once (a "full board", so a draw).
            self._kernel(0, 0, w * h, -1, 1, w, h, game.board_mask, 1, self._order,
                         self._columns, np.zeros(2, dtype=np.int64),
                         np.zeros(2, dtype=np.uint8), 2, 0, 0, self._moves, self._scores,
                         self._counter, self._halt)
        else:
            self._kernel = _negamax
            self._order, self._columns = order, columns
            self._moves, self._scores, self._counter = [0] * scratch, [0] * scratch, [0, 0]
            self._halt = _NEVER
        self._table: _Table | None = None
        self._bottom = sum(1 << (col * (h + 1)) for col in range(w))

    def reset(self) -> None:
        """Forget every stored bound (a new, empty table)."""
        self._table = None
        self._slots()

    def _slots(self) -> _Table:
        if self._table is None:
            if self.backend == "numba":
                import numpy as np

                self._table = _Table(np.zeros(self.size, dtype=np.int64),
                                     np.zeros(self.size, dtype=np.uint8))
            else:
                self._table = _Table(_Slots(), _Slots())
        return self._table

    def _test(
        self, position: int, mask: int, moves: int, alpha: int, beta: int,
        stop: StopSignal | None = None,
    ) -> int:
        """One negamax call from a position whose mover cannot win at once.

        ``stop`` is looked at every :data:`POLL_EVERY` nodes; once it is set (or Ctrl-C
        is pressed while the compiled kernel runs) the call ends with
        :class:`~plies.errors.SearchLimitError` (KeyboardInterrupt for Ctrl-C).
        """
        game, table, counter = self.game, self._slots(), self._counter
        counter[0] = counter[1] = 0
        args = (
            position, mask, moves, alpha, beta,
            game.width, game.height, game.board_mask, self._bottom,
            self._order, self._columns, table.keys, table.vals, self.size,
            self.min_score, self.max_score, self._moves, self._scores, counter,
        )
        try:
            if self.backend == "numba":
                value = run_stoppable(self._kernel, args, self._halt, stop,
                                      "plies-connect4-solver")
            else:
                value = self._kernel(*args, _NEVER if stop is None else _Halt(stop))
        finally:
            self.nodes += int(counter[0])
        if counter[1]:
            raise SearchLimitError(_STOPPED)
        return int(value)

    def score(
        self, state: Connect4State, *, weak: bool = False, on_test: Test | None = None,
        stop: Any = None,
    ) -> int:
        """The exact score of ``state`` for the side to move (the benchmark convention).

        With ``weak`` only its sign: 1 win, 0 draw, -1 loss.  ``on_test`` is told of
        every null-window test as it finishes.  ``stop`` (an object with ``is_set()``)
        ends the search before the next test with
        :class:`~plies.errors.SearchLimitError`.
        """
        game = self.game
        position, mask, moves, outcome = state
        if outcome != -1:
            s = game.score(state)
            return (s > 0) - (s < 0) if weak else s
        if (mask + self._bottom) & game.board_mask & _winning(
            position, mask, game.height, game.board_mask
        ):
            s = (game.cells + 1 - moves) // 2
            return 1 if weak else s
        lo, hi = -((game.cells - moves) // 2), (game.cells + 1 - moves) // 2
        if weak:
            lo, hi = -1, 1
        start = time.perf_counter()
        while lo < hi:
            _check(stop)
            m = lo + (hi - lo) // 2
            if m <= 0 and int(lo / 2) < m:
                m = int(lo / 2)
            elif m >= 0 and int(hi / 2) > m:
                m = int(hi / 2)
            r = self._test(position, mask, moves, m, m + 1, stop)
            if r <= m:
                hi = r
            else:
                lo = r
            if on_test is not None:
                on_test(m, r, lo, hi, time.perf_counter() - start)
        return (lo > 0) - (lo < 0) if weak else lo  # weak: a fail-soft bound, keep its sign

    def best_action(
        self, state: Connect4State, score: int, *, weak: bool = False,
        stop: StopSignal | None = None,
    ) -> int | None:
        """The first column (in ``actions()`` order) worth ``score`` for the side to move.

        ``score`` must be the state's :meth:`score` (its sign when ``weak``).  Each
        candidate costs one null-window test, cheap on the table the score left.
        ``stop`` ends it as it ends :meth:`score`.
        """
        game = self.game
        actions = game.actions(state)
        if not actions:
            return None
        position, mask, moves, _ = state
        for col in actions:
            if game.is_winning_move(state, col):
                return col  # only a win can be worth an immediate win's score
        threats = game.winning_cells(state, 1 - game.to_move(state))
        possible = (mask + self._bottom) & game.board_mask
        forced = possible & threats
        safe = (forced if forced and not forced & (forced - 1) else possible) & ~(threats >> 1)
        if not forced & (forced - 1) and safe:
            for col in actions:
                cell = possible & self._column_masks[col]
                if not cell & safe:
                    continue
                if weak and score < 0:
                    return col  # a lost position: any move that does not lose at once
                # Every child is worth at least -score to the opponent; the best ones no more.
                child = (position ^ mask, mask | cell, moves + 1)
                if self._test(*child, -score, -score + 1, stop) <= -score:
                    return col
        return actions[0]  # every move loses at once: they are all worth the score

    def solve(
        self,
        state: Connect4State,
        *,
        player: int | None = None,
        weak: bool = False,
        pv: bool = True,
        on_test: Test | None = None,
        on_progress: Callable[[Any], None] | None = None,
        stop: Any = None,
    ) -> SearchResult:
        """A :class:`~plies.SearchResult` like :func:`plies.alphabeta`'s exact one.

        ``value`` is the state's utility for ``player`` (default: the side to move) under
        the game's scoring, exact; with ``weak`` it is a bound on the right side of the
        draw, as ``alphabeta(..., weak=True)`` gives, and ``exact`` is False unless the
        position is a draw.  ``action`` is the first column worth the exact score, so
        under ``"winloss"`` scoring the fastest win (slowest loss) is chosen; ``pv``
        follows such columns to the end of the game (each step a few null-window tests).
        Every null-window test of the score is reported to ``on_test`` (``on_progress``
        is not called: the tests are the progress).  ``stop`` (an object with
        ``is_set()``) ends the solve within :data:`POLL_EVERY` nodes with
        :class:`~plies.errors.SearchLimitError`.
        """
        game = self.game
        mover = game.to_move(state)
        player = mover if player is None else player
        start, nodes0 = time.perf_counter(), self.nodes
        s = self.score(state, weak=weak, on_test=on_test, stop=stop)
        line: list[int] = []
        action = (
            None if game.is_terminal(state) else self.best_action(state, s, weak=weak, stop=stop)
        )
        if pv and action is not None:
            line.append(action)
            here, v = game.result(state, action), -s
            while not game.is_terminal(here):
                _check(stop)
                step = self.best_action(here, v, weak=weak, stop=stop)
                assert step is not None
                line.append(step)
                here, v = game.result(here, step), -v
        elif action is not None:
            line.append(action)
        value = self._utility(s, state, weak) * (1 if player == mover else -1)
        stats = SearchStats(
            nodes=self.nodes - nodes0, depth=len(line), elapsed=time.perf_counter() - start
        )
        exact = not weak or s == 0
        return SearchResult(value, action, tuple(line), stats, player, exact).about(game, state)

    def _utility(self, score: int, state: Connect4State, weak: bool) -> float:
        """The game's utility for the side to move of a position worth ``score``."""
        if self.game.scoring == "pons" and not weak:
            return float(score)
        return float((score > 0) - (score < 0))  # win/loss, or a bound on the right side

    def analyze(self, state: Connect4State, *, player: int | None = None) -> dict[int, float]:
        """The exact value of every playable column for ``player`` (default: the mover)."""
        game = self.game
        mover = game.to_move(state)
        player = mover if player is None else player
        out: dict[int, float] = {}
        for col in game.actions(state):
            child = game.result(state, col)
            s = -self.score(child)
            out[col] = self._utility(s, child, False) * (1 if player == mover else -1)
        return out


_STOPPED: Final = "the solver was stopped before it finished; a partial solve has no value"

_NEVER: Final = (0,)
"""The halt flag of a search nothing can stop (the Python backend without a signal)."""

class _Halt:
    """The stop signal read as the kernel's halt flag (the Python backend): ``halt[0]``."""

    __slots__ = ("stop",)

    def __init__(self, stop: StopSignal) -> None:
        self.stop = stop

    def __getitem__(self, index: int) -> bool:
        return self.stop.is_set()


def _check(stop: Any) -> None:
    if stop is not None and stop.is_set():
        raise SearchLimitError(_STOPPED)


_KEPT: weakref.WeakKeyDictionary[Any, dict[str, Connect4Solver]] = weakref.WeakKeyDictionary()


def solver_of(game: Connect4Rules, backend: str = "auto") -> Connect4Solver:
    """The solver of the Connect Four ``game`` with ``backend``, made once and kept with
    the game (its table too): what :meth:`Connect4.solver` returns."""
    kept = _KEPT.setdefault(game, {})
    if backend not in kept:
        kept[backend] = Connect4Solver(game, backend=backend)
    return kept[backend]


def solve_positions(
    solver: Connect4Solver, positions: Sequence[tuple[str, int]]
) -> list[tuple[str, int, int, int]]:
    """``(moves, expected, score, nodes)`` for each benchmark line, with a fresh table each."""
    out = []
    for moves, expected in positions:
        solver.reset()
        before = solver.nodes
        s = solver.score(solver.game.moves_from_string(moves))
        out.append((moves, expected, s, solver.nodes - before))
    return out
