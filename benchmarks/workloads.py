"""The benchmark's own games, written once and shared by every library's adapter.

Two games live here, both as :class:`plies.Game` subclasses so that plies and the bare
loops search them directly; the easyAI and aima3 adapters wrap the same objects, so every
Python library calls the very same ``actions``/``result``/``utility``/``evaluate`` code and
the measured differences are the libraries' own search overhead.  OpenSpiel runs its native
C++ ``connect_four`` and a Python-registered copy of :class:`SyntheticTree` instead (see
``lib_openspiel.py``): it has no way to search a foreign game object.

* :class:`ConnectFour` (W2): 7 columns x 6 rows, a minimal bitboard implementation.  An
  action is a column 0..6 and ``actions()`` lists the open columns left to right ("natural
  move order").  Utility: +1 win, -1 loss, 0 draw (OpenSpiel's returns, so every library
  scores terminal states alike).  The shared evaluation is :func:`connect4_score`.
* :class:`SyntheticTree` (W3): a uniform tree, branching 8, depth 6, whose leaf values come
  from a fixed integer hash of the path (:func:`leaf_value`), so the tree costs almost
  nothing to generate and what is timed is the search itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from plies import Game

# --- Connect Four -------------------------------------------------------------------------

WIDTH: Final = 7
HEIGHT: Final = 6
DRAW: Final = 2
UNDECIDED: Final = -1

# Bitboard layout (John Tromp's, as in Pascal Pons' solver): bit ``col * 7 + row``, row 0
# at the bottom; the seventh bit of each column stays empty so that shifts never wrap.
_COLUMN: Final = tuple(((1 << HEIGHT) - 1) << (7 * c) for c in range(WIDTH))
_BOTTOM: Final = tuple(1 << (7 * c) for c in range(WIDTH))
_TOP: Final = tuple(1 << (7 * c + HEIGHT - 1) for c in range(WIDTH))
_TOP_ROW: Final = sum(_TOP)
# The open columns for every pattern of full columns, computed once.
_OPEN: Final[dict[int, tuple[int, ...]]] = {}
for _full in range(1 << WIDTH):
    _key = sum(_TOP[c] for c in range(WIDTH) if _full >> c & 1)
    _OPEN[_key] = tuple(c for c in range(WIDTH) if not _full >> c & 1)


def _windows() -> list[tuple[tuple[int, int], ...]]:
    """The 69 lines of four cells, as (row, col) tuples."""
    out = []
    for r in range(HEIGHT):
        for c in range(WIDTH):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (-1, 1)):
                cells = tuple((r + i * dr, c + i * dc) for i in range(4))
                if all(0 <= rr < HEIGHT and 0 <= cc < WIDTH for rr, cc in cells):
                    out.append(cells)
    return out


WINDOWS: Final = _windows()
# CELL_WEIGHT[row][col]: how many lines of four pass through the cell (3..13, the classic
# "evaluation table": 3 4 5 7 5 4 3 on the bottom row).
CELL_WEIGHT: Final = tuple(
    tuple(sum((r, c) in w for w in WINDOWS) for c in range(WIDTH)) for r in range(HEIGHT)
)
EVAL_SCALE: Final = 1000.0
"""The table score is divided by this so that every evaluation lies strictly inside (-1, 1)."""


def connect4_score(moves: Sequence[int], player: int) -> float:
    """The shared evaluation of W2, from ``player``'s point of view.

    Replays ``moves`` (columns 0..6 from the empty board, first player first) and adds
    ``CELL_WEIGHT`` of every cell holding one of ``player``'s stones, minus the same for
    the opponent's, divided by :data:`EVAL_SCALE` (so ``|value| < 0.14 < 1``: a win always
    beats any evaluation).  Computed from the move list so that every library, OpenSpiel
    included (``state.history()``), evaluates with the very same code.
    """
    heights = [0] * WIDTH
    score = 0
    sign = 1
    for c in moves:
        score += sign * CELL_WEIGHT[heights[c]][c]
        heights[c] += 1
        sign = -sign
    return score / EVAL_SCALE if player == 0 else -score / EVAL_SCALE


def _has_four(b: int) -> bool:
    """Whether bitboard ``b`` holds four in a line (vertical, horizontal, both diagonals)."""
    for shift in (1, 7, 6, 8):
        m = b & (b >> shift)
        if m & (m >> (2 * shift)):
            return True
    return False


C4State = tuple[int, int, int, int, tuple[int, ...]]
"""``(stones of player 0, stones of player 1, mover, outcome, moves)``; outcome is
:data:`UNDECIDED`, the winner (0 or 1) or :data:`DRAW`."""


class ConnectFour(Game[C4State, int]):
    """Connect Four for the W2 comparison (see the module docstring)."""

    num_players = 2
    utility_range = (-1.0, 1.0)
    zero_sum = True
    name = "connect4-bench"

    def initial_state(self) -> C4State:
        return (0, 0, 0, UNDECIDED, ())

    def state_after(self, moves: Sequence[int]) -> C4State:
        """The position after ``moves`` (columns 0..6) from the empty board."""
        state = self.initial_state()
        for c in moves:
            state = self.result(state, c)
        return state

    def to_move(self, state: C4State) -> int:
        return state[2]

    def actions(self, state: C4State) -> tuple[int, ...]:
        if state[3] != UNDECIDED:
            return ()
        return _OPEN[(state[0] | state[1]) & _TOP_ROW]

    def result(self, state: C4State, action: int) -> C4State:
        b0, b1, mover, _, moves = state
        # Adding the column's bottom bit carries through its stones to the lowest empty cell.
        bit = ((b0 | b1) + _BOTTOM[action]) & _COLUMN[action]
        moves = (*moves, action)
        if mover == 0:
            b0 |= bit
            won = _has_four(b0)
        else:
            b1 |= bit
            won = _has_four(b1)
        full = len(moves) == WIDTH * HEIGHT
        outcome = mover if won else DRAW if full else UNDECIDED
        return (b0, b1, 1 - mover, outcome, moves)

    def is_terminal(self, state: C4State) -> bool:
        return state[3] != UNDECIDED

    def utility(self, state: C4State, player: int) -> float:
        outcome = state[3]
        if outcome == DRAW:
            return 0.0
        return 1.0 if outcome == player else -1.0

    def evaluate(self, state: C4State, player: int) -> float:
        if state[3] != UNDECIDED:
            return self.utility(state, player)
        return connect4_score(state[4], player)


# --- the synthetic uniform tree -----------------------------------------------------------

BRANCHING: Final = 8
DEPTH: Final = 6
_LEAF_MIN: Final = BRANCHING**DEPTH  # the smallest code of a leaf: 1 followed by 6 digits
TREE_NODES: Final = (BRANCHING ** (DEPTH + 1) - 1) // (BRANCHING - 1)  # 299,593


def leaf_value(code: int) -> int:
    """The value of a leaf for player 0: an integer in -1000..1000.

    ``code`` is the path written in base 8 behind a leading 1 (the root is 1, its third
    child 1*8+2 = 10, ...).  The hash is Knuth's multiplicative hash with a 16-bit fold,
    all in 32-bit unsigned arithmetic, so any language reproduces it (Python's own
    ``hash`` is not used: it is salted per process for strings).
    """
    x = (code * 2654435761) & 0xFFFFFFFF
    x ^= x >> 16
    return x % 2001 - 1000


def tree_depth(code: int) -> int:
    """How many moves lead from the root to ``code``."""
    return (code.bit_length() - 1) // 3


class SyntheticTree(Game[int, int]):
    """W3: branching 8, depth 6, leaf values from :func:`leaf_value`; a state is its code."""

    num_players = 2
    utility_range = (-1000.0, 1000.0)
    zero_sum = True
    name = "synthetic-tree"
    _ACTIONS: Final = tuple(range(BRANCHING))

    def initial_state(self) -> int:
        return 1

    def to_move(self, state: int) -> int:
        return ((state.bit_length() - 1) // 3) & 1

    def actions(self, state: int) -> tuple[int, ...]:
        return () if state >= _LEAF_MIN else self._ACTIONS

    def result(self, state: int, action: int) -> int:
        return (state << 3) | action

    def is_terminal(self, state: int) -> bool:
        return state >= _LEAF_MIN

    def utility(self, state: int, player: int) -> float:
        v = float(leaf_value(state))
        return v if player == 0 else -v
