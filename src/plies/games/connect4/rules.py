"""Connect Four on bitboards: the benchmark game, in the style of Pascal Pons' solver.

Rules: two players, X (player 0, first) and O (player 1), drop stones in turn into one
of ``width`` columns (default 7) of ``height`` cells (default 6); a stone falls to the
lowest empty cell.  Whoever gets four of their stones in a row, horizontally, vertically
or diagonally, wins; a full board without a four is a draw.

Actions are the playable columns as 0-based ints, in the natural order ``0..width-1``;
people read and type them 1-based, ``"1"``..``"7"``.  Positions are written as the
benchmark data writes them, a string of 1-based columns from the empty board
(``"4453"``): see :meth:`Connect4.moves_from_string` and :meth:`Connect4.split_moves`.

Utility: with ``scoring="winloss"`` (the default) +1 for a win, -1 for a loss, 0 for a
draw, ``utility_range == (-1, 1)``.  With ``scoring="pons"`` a terminal position is worth
the solver score of Pons' benchmark sets (see :meth:`Connect4.score`): the winner scores
one more than the number of stones it still had in hand, i.e. ``(W*H + 2 - m) // 2``
where ``m`` is the number of stones on the board *after* the winning stone (for 7x6:
``22 - k`` with ``k`` the winner's stones, ``(43 - n) // 2`` with ``n`` stones on the
board *before* the winning move); the loser scores the negation, a draw 0.  The earliest
possible win is the first player's fourth stone (``m = 7``), so every score lies in
``[-(W*H - 5) // 2, (W*H - 5) // 2]``: ``-18..18`` on the 7x6 board (both ends reached,
by the first player at move 7 and by the second at move 8).  Because the score rewards
quick wins and slow losses, the plain minimax value of a position under ``"pons"``
scoring *is* its benchmark score.

Representation (Pons' bitboards): bit ``col * (height + 1) + row`` is the cell of column
``col``, row ``row`` (row 0 at the bottom); every column has one spare *sentinel* bit on
top, so that shifting a line past the top of a column or past the last column never
lands on a real cell (no wrap-around).  A state is a :class:`Connect4State`, an immutable
named tuple ``(position, mask, moves, outcome)``: ``position`` holds the stones of the
player to move, ``mask`` all stones, ``moves`` the number of stones played, and
``outcome`` the result decided by the last move (:data:`UNDECIDED`, 0 = X won, 1 = O
won, :data:`DRAW`), computed once by :meth:`Connect4.result`.  ``position + mask`` is a
unique int key of the position (:meth:`Connect4.key`).

>>> c4 = Connect4()
>>> s = c4.moves_from_string("4453")
>>> print(c4.render(s))
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . O . . .
. . O X X . .
1 2 3 4 5 6 7
X to move
>>> c4.winning_moves(c4.moves_from_string("445566"))
(2, 6)
>>> c4.order_hint(s, c4.actions(s))  # columns 6 and 7 make new threats; then centre-first
[5, 6, 3, 2, 4, 1, 0]
>>> c4.centre_order
(3, 2, 4, 1, 5, 0, 6)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import ClassVar, Final

from plies.budget import read_text
from plies.errors import GameFormatError, IllegalActionError
from plies.game import Game
from plies.game.board import Board
from plies.game.knowledge import Solver
from plies.game.options import INT, Option, choice
from plies.games.connect4.bitboard import (
    DRAW,
    EMPTY,
    MARKS,
    UNDECIDED,
    Connect4State,
    four_completions,
)
from plies.games.connect4.view import connect4_board

SCORINGS: Final = ("winloss", "pons")
"""The accepted values of the ``scoring`` option."""
SIDES: Final = (4, 16)
"""The columns and rows an option may set: four in a row needs 4; a terminal draws 16
columns.  Solving from the start still grows with the size (7x6 is far beyond plain
search): a bound keeps a request within what a command can show, not within a quick
solve."""

DATA_FILES: Final = (
    "Test_L3_R1",
    "Test_L2_R1",
    "Test_L2_R2",
    "Test_L1_R1",
    "Test_L1_R2",
    "Test_L1_R3",
)
"""Pons' benchmark sets, easiest first (the shared ``data/connect4`` directory)."""

# evaluate(): the positional part weighs each stone by the number of lines of four through
# its cell; every empty cell that would complete a four ("threat") adds _THREAT_WEIGHT.  The
# difference x between the two players is squashed by x / (|x| + _EVAL_SOFTNESS) into
# (-1, 1).
_THREAT_WEIGHT: Final = 8
_EVAL_SOFTNESS: Final = 100.0

# Connect4State is a NamedTuple; building it through tuple.__new__ skips the generated
# Python-level __new__, which matters in the benchmark game's hottest function.
_new_state = tuple.__new__


def load_positions(path: str | Path) -> list[tuple[str, int]]:
    """The ``(moves, score)`` pairs of a benchmark file, one ``"MOVES SCORE"`` per line.

    Blank lines are skipped.  The moves stay text (1-based columns, as in the file); read
    them with :meth:`Connect4.moves_from_string`.

    Raises:
        GameFormatError: a line that is not a digit string and an integer score; the
            message names the file and the line.
        OSError: the file cannot be read, or is not a regular file
            (:class:`plies.budget.NotAFile`).
        InputTooLarge: the file is larger than :data:`plies.budget.MAX_INPUT_BYTES`.
    """
    path = Path(path)
    positions: list[tuple[str, int]] = []
    # The capped reader: a regular file of at most MAX_INPUT_BYTES.
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split()
        try:
            if len(parts) != 2 or not parts[0].isdigit():
                raise ValueError(line)
            positions.append((parts[0], int(parts[1])))
        except ValueError:
            raise GameFormatError(
                f"expected 'MOVES SCORE' (digits and an integer), got {line.strip()!r}",
                source=str(path),
                line=number,
            ) from None
    return positions


@cache
def _game(width: int, height: int) -> Connect4:
    return Connect4(width, height)


def moves_from_string(text: str, *, width: int = 7, height: int = 6) -> Connect4State:
    """The position after the 1-based columns in ``text`` (``"4453"``) on a new board.

    Shorthand for ``Connect4(width, height).moves_from_string(text)``.

    >>> moves_from_string("44").moves
    2
    """
    return _game(width, height).moves_from_string(text)


class Connect4(Game[Connect4State, int]):
    """Connect Four on a ``width`` x ``height`` board (see the module docstring)."""

    num_players = 2
    zero_sum = True
    name = "connect4"
    description: ClassVar[str] = (
        "Connect Four on bitboards: drop stones, four in a row wins (the benchmark game)"
    )
    options: ClassVar[tuple[Option, ...]] = (
        Option("width", INT, 7, "number of columns", bounds=SIDES),
        Option("height", INT, 6, "number of rows", bounds=SIDES),
        Option(
            "scoring", choice(*SCORINGS), "pons",
            "pons: the solver score (quicker wins score more); winloss: +1/-1/0",
        ),
    )

    def __init__(self, width: int = 7, height: int = 6, scoring: str = "winloss") -> None:
        if width < 1 or height < 1:
            raise GameFormatError(f"the board needs width and height >= 1, got {width}x{height}")
        if scoring not in SCORINGS:
            raise GameFormatError(f"scoring must be one of {', '.join(SCORINGS)}, got {scoring!r}")
        self.width = width
        self.height = height
        self.scoring = scoring
        self.cells = width * height
        h1 = height + 1
        self._h1 = h1
        self._bottom = tuple(1 << (col * h1) for col in range(width))
        self._top = tuple(1 << (col * h1 + height - 1) for col in range(width))
        self._column = tuple(((1 << height) - 1) << (col * h1) for col in range(width))
        self._bottom_all = sum(self._bottom)
        self._top_all = sum(self._top)
        self.board_mask = sum(self._column)
        """Every real cell (no sentinel bits)."""
        # Pons' solver order: centre first, then alternately left and right of it.
        order = [width // 2 + (1 - 2 * (i % 2)) * ((i + 1) // 2) for i in range(width)]
        self.centre_order: tuple[int, ...] = tuple(order)
        self._rank = {col: i for i, col in enumerate(order)}
        # actions() by the set of full columns, i.e. by mask & top_all (filled lazily).
        self._actions: dict[int, tuple[int, ...]] = {}
        self.max_score = max(1, (self.cells - 5) // 2)
        """The largest Pons score (earliest possible win); 18 on the 7x6 board."""
        if scoring == "pons":
            self.utility_range = (-float(self.max_score), float(self.max_score))
            # _win[m]: the winner's utility when the m-th stone completed the four.
            self._win = tuple(float((self.cells + 2 - m) // 2) for m in range(self.cells + 1))
        else:
            self.utility_range = (-1.0, 1.0)
            self._win = (1.0,) * (self.cells + 1)
        self._cell_groups = self._line_count_groups()

    def _line_count_groups(self) -> tuple[tuple[int, int], ...]:
        """``(weight, cells)`` pairs: the cells through which ``weight`` lines of four run."""
        w, h = self.width, self.height
        count = [[0] * h for _ in range(w)]
        for col in range(w):
            for row in range(h):
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    end_c, end_r = col + 3 * dc, row + 3 * dr
                    if 0 <= end_c < w and 0 <= end_r < h:
                        for i in range(4):
                            count[col + i * dc][row + i * dr] += 1
        groups: dict[int, int] = {}
        for col in range(w):
            for row in range(h):
                if count[col][row]:
                    groups[count[col][row]] = groups.get(count[col][row], 0) | (
                        1 << (col * self._h1 + row)
                    )
        return tuple(sorted(groups.items()))

    # --- the game model ------------------------------------------------------------------

    def initial_state(self) -> Connect4State:
        return Connect4State(0, 0, 0, UNDECIDED)

    def to_move(self, state: Connect4State) -> int:
        return state[2] & 1

    def actions(self, state: Connect4State) -> tuple[int, ...]:
        """The playable columns, 0-based, in natural order (none once the game is over)."""
        if state[3] != UNDECIDED:
            return ()
        full = state[1] & self._top_all
        acts = self._actions.get(full)
        if acts is None:
            acts = tuple(col for col in range(self.width) if not full & self._top[col])
            self._actions[full] = acts
        return acts

    def result(self, state: Connect4State, action: int) -> Connect4State:
        position, mask, moves, _ = state
        new_mask = mask | (mask + self._bottom[action])
        opponent = position ^ mask  # the stones of the next player to move
        if moves >= 6:  # the mover now has at least four stones: look for a four
            mine = new_mask ^ opponent
            h = self.height
            for shift in (1, h + 1, h, h + 2):  # vertical, horizontal, both diagonals
                m = mine & (mine >> shift)
                if m & (m >> 2 * shift):
                    return _new_state(Connect4State, (opponent, new_mask, moves + 1, moves & 1))
        moves += 1
        outcome = DRAW if moves == self.cells else UNDECIDED
        return _new_state(Connect4State, (opponent, new_mask, moves, outcome))

    def is_terminal(self, state: Connect4State) -> bool:
        return state[3] != UNDECIDED

    def utility(self, state: Connect4State, player: int) -> float:
        """+1/-1/0 (``"winloss"``) or the Pons score (``"pons"``) of ``player``."""
        outcome = state[3]
        if outcome == DRAW:
            return 0.0
        if outcome == UNDECIDED:
            raise ValueError("utility of a non-terminal Connect Four position")
        win = self._win[state[2]]
        return win if outcome == player else -win

    def score(self, state: Connect4State) -> int:
        """The Pons score of a terminal ``state`` for the player who would move next.

        The player to move has just lost (or drawn), so this is ``-(W*H + 2 - m) // 2``
        after a four completed by the ``m``-th stone, and 0 after a draw, whatever the
        ``scoring`` option says.

        >>> c4 = Connect4()
        >>> c4.score(c4.moves_from_string("1212121"))  # X's fourth stone wins at once
        -18
        """
        outcome = state[3]
        if outcome == UNDECIDED:
            raise ValueError("score of a non-terminal Connect Four position")
        if outcome == DRAW:
            return 0
        return -((self.cells + 2 - state[2]) // 2)

    def key(self, state: Connect4State) -> int:
        """``position + mask``: one int per position (Pons' key).

        In each column with ``h`` stones the sum is ``2**h - 1`` plus the mover's stones,
        below ``2**(h+1)``: it never carries into the next column and tells both the
        height and the owners apart.
        """
        return state[0] + state[1]

    def evaluate(self, state: Connect4State, player: int) -> float:
        """A heuristic in the open interval (-1, 1), whatever the scoring; the utility at the end.

        Each player's stones score the number of lines of four through their cells (3 in
        a corner, 13 in the middle of the 7x6 board), and each empty cell that would
        complete a four for them ("threat") scores 8.  The difference ``x`` (``player``'s
        minus the opponent's) is squashed to ``x / (|x| + 100)``.  Every proven win
        (utility >= 1) thus beats every heuristic value and every proven loss is worse.
        """
        position, mask, moves, outcome = state
        if outcome != UNDECIDED:
            return self.utility(state, player)
        mine = position if moves & 1 == player else position ^ mask
        theirs = mine ^ mask
        empty = self.board_mask ^ mask
        x = _THREAT_WEIGHT * (
            (self._winning_cells(mine) & empty).bit_count()
            - (self._winning_cells(theirs) & empty).bit_count()
        )
        for weight, cells in self._cell_groups:
            x += weight * ((mine & cells).bit_count() - (theirs & cells).bit_count())
        return x / (abs(x) + _EVAL_SOFTNESS)

    def random_playout(
        self, state: Connect4State, rng: random.Random, limit: int
    ) -> Connect4State:
        """The position after up to ``limit`` uniformly random moves (Monte Carlo playouts).

        :meth:`actions` and :meth:`result` inlined on bare ints: the same moves as
        :func:`plies.game.default_random_playout` with the same generator (one
        ``int(rng.random() * len(actions))`` per move, in :meth:`actions` order), about
        twice as fast.  Stops at a four, a full board, or after ``limit`` moves.
        """
        position, mask, moves, outcome = state
        if outcome != UNDECIDED:
            return state
        draw = rng.random
        bottom, top, top_all, width = self._bottom, self._top, self._top_all, self.width
        cache, cells = self._actions, self.cells
        v, h, d1, d2 = 1, self._h1, self.height, self.height + 2  # the four line directions
        v2, h2, d12, d22 = 2 * v, 2 * h, 2 * d1, 2 * d2
        for _ in range(limit):
            full = mask & top_all
            acts = cache.get(full)
            if acts is None:
                acts = cache[full] = tuple(c for c in range(width) if not full & top[c])
            new_mask = mask | (mask + bottom[acts[int(draw() * len(acts))]])
            opponent = position ^ mask  # the next mover's stones
            if moves >= 6:  # the mover has four stones or more: did this one make a four?
                mine = new_mask ^ opponent
                if (
                    (m := mine & (mine >> v)) & (m >> v2)
                    or (m := mine & (mine >> h)) & (m >> h2)
                    or (m := mine & (mine >> d1)) & (m >> d12)
                    or (m := mine & (mine >> d2)) & (m >> d22)
                ):
                    return _new_state(Connect4State, (opponent, new_mask, moves + 1, moves & 1))
            moves += 1
            position, mask = opponent, new_mask
            if moves == cells:
                return _new_state(Connect4State, (position, mask, moves, DRAW))
        return _new_state(Connect4State, (position, mask, moves, UNDECIDED))

    # --- helpers for engines ----------------------------------------------------------------

    def order_hint(self, state: Connect4State, actions: Sequence[int]) -> list[int]:
        """``actions``, most new threats first, then centre-first (Pons' final order).

        A move's score is the number of empty cells that would complete a four for the
        mover after it; ties keep the centre-first order 3, 2, 4, 1, 5, 0, 6.
        """
        position, mask = state[0], state[1]
        rank, column, winning = self._rank, self._column, self._winning_cells

        def threats(col: int) -> int:
            cell = (mask + self._bottom[col]) & column[col]
            return (winning(position | cell) & ~(mask | cell)).bit_count()

        return sorted(actions, key=lambda col: (-threats(col), rank[col]))

    def value_bounds(self, state: Connect4State, player: int) -> tuple[float, float]:
        """Sound bounds ``(lo, hi)`` on the exact game value of ``state`` for ``player``.

        For the side to move with ``m`` stones on the board: a four it can complete now
        is worth exactly ``_win[m+1]``.  Otherwise, if every move either leaves an
        immediate threat of the opponent open or fills the cell under one of its fours
        (Pons' "non-losing moves" are none), it loses exactly ``-_win[m+2]``; if not, it
        cannot win before its stone ``m+3`` and, playing a non-losing move, cannot lose
        before stone ``m+4``.  Engines use these only in exact (unlimited-depth) searches.
        """
        position, mask, m, outcome = state
        if outcome != UNDECIDED:
            u = self.utility(state, player)
            return u, u
        win = self._win
        cells = self.cells
        possible = (mask + self._bottom_all) & self.board_mask
        if possible & self._winning_cells(position):
            lo = hi = win[m + 1]
        else:
            theirs = self._winning_cells(position ^ mask) & ~mask
            forced = possible & theirs
            # Two immediate threats cannot both be blocked; otherwise block the one there
            # is (if any), and never fill the cell under one of their fours.
            two = forced & (forced - 1)
            safe = 0 if two else (forced or possible) & ~(theirs >> 1)
            if not safe:
                lo = hi = -win[m + 2]
            else:
                hi = win[m + 3] if m + 3 <= cells else 0.0
                lo = -win[m + 4] if m + 4 <= cells else 0.0
                lo, hi = min(lo, 0.0), max(hi, 0.0)  # a draw stays possible
        if m & 1 == player:
            return lo, hi
        return -hi, -lo

    def sufficient_actions(self, state: Connect4State, actions: Sequence[int]) -> list[int]:
        """Pons' non-losing moves among ``actions``: a subset that keeps a best move.

        If the opponent threatens to win at once, only the block; never the cell under
        one of the opponent's fours.  Empty when every move loses (the value is then
        known: see :meth:`value_bounds`).  Engines use this in exact searches only.
        """
        position, mask = state[0], state[1]
        possible = (mask + self._bottom_all) & self.board_mask
        if possible & self._winning_cells(position):
            return [col for col in actions if self.is_winning_move(state, col)]
        theirs = self._winning_cells(position ^ mask) & ~mask
        forced = possible & theirs
        if forced & (forced - 1):
            return []
        safe = (forced or possible) & ~(theirs >> 1)
        column = self._column
        return [col for col in actions if safe & column[col]]

    def _winning_cells(self, stones: int) -> int:
        """Cells (possibly occupied) that would give ``stones`` a four."""
        return four_completions(stones, self.height, self.board_mask)

    def winning_cells(self, state: Connect4State, player: int) -> int:
        """Bitboard of the empty cells that would complete a four for ``player``."""
        position, mask, moves, _ = state
        stones = position if moves & 1 == player else position ^ mask
        return self._winning_cells(stones) & ~mask

    def playable_cells(self, state: Connect4State) -> int:
        """Bitboard of the cells a stone would land on now (one per non-full column)."""
        return (state[1] + self._bottom_all) & self.board_mask

    def _columns(self, cells: int) -> tuple[int, ...]:
        cols = []
        h1 = self._h1
        while cells:
            low = cells & -cells
            cols.append((low.bit_length() - 1) // h1)
            cells ^= low
        return tuple(cols)

    def winning_moves(self, state: Connect4State) -> tuple[int, ...]:
        """The columns where the player to move completes a four at once (natural order)."""
        position, mask, _, outcome = state
        if outcome != UNDECIDED:
            return ()
        possible = (mask + self._bottom_all) & self.board_mask
        return self._columns(possible & self._winning_cells(position))

    def is_winning_move(self, state: Connect4State, col: int) -> bool:
        """Whether dropping a stone in ``col`` (playable) wins for the player to move."""
        position, mask, _, outcome = state
        if outcome != UNDECIDED:
            return False
        possible = (mask + self._bottom_all) & self.board_mask
        return bool(possible & self._column[col] & self._winning_cells(position))

    def noisy_actions(self, state: Connect4State) -> tuple[int, ...]:
        """Columns that win at once or stop an immediate win of the opponent (quiescence).

        In natural order; empty at terminal states.
        """
        position, mask, _, outcome = state
        if outcome != UNDECIDED:
            return ()
        possible = (mask + self._bottom_all) & self.board_mask
        threats = self._winning_cells(position) | self._winning_cells(position ^ mask)
        return self._columns(possible & threats)

    # --- text ----------------------------------------------------------------------------

    def format_action(self, state: Connect4State, action: int) -> str:
        return str(action + 1)

    def split_moves(self, text: str) -> list[str]:
        """The move tokens of ``text``: ``"4453"`` -> ``["4", "4", "5", "3"]``.

        Blanks and commas separate tokens; on a board of at most 9 columns every column
        is one character, so each token is further split into its characters (compact
        strings as in the benchmark files).  Wider boards need separators.

        >>> Connect4().split_moves("44 5,3")
        ['4', '4', '5', '3']
        """
        tokens = text.replace(",", " ").split()
        if self.width <= 9:
            return [ch for token in tokens for ch in token]
        return tokens

    def moves_from_string(self, text: str) -> Connect4State:
        """The position after the 1-based columns in ``text`` (``"4453"``, or spaced).

        Raises:
            IllegalActionError: a token that is not a column number, a full column, or
                a move after the end of the game; the message gives the move's index
                and the legal columns.

        >>> Connect4().moves_from_string("1111111")
        Traceback (most recent call last):
        ...
        plies.errors.IllegalActionError: illegal move '1' (move 7 of '1111111'); legal moves: 2, ...
        """
        state = self.initial_state()
        for i, token in enumerate(self.split_moves(text), start=1):
            legal = self.actions(state)
            col = int(token) - 1 if token.isdecimal() and token.isascii() else -1
            if col not in legal:
                raise IllegalActionError(
                    token, [str(c + 1) for c in legal], context=f"(move {i} of {text!r})"
                )
            state = self.result(state, col)
        return state

    def player_name(self, player: int) -> str:
        return MARKS[player]

    def board(self, state: Connect4State, last: int | None = None) -> Board:
        """The grid of stones; a click in a column drops a stone there."""
        return connect4_board(self.width, self.height, state, last)

    def solver(self, backend: str = "auto") -> Solver:
        """Pascal Pons' solver (:class:`~plies.games.connect4.solver.Connect4Solver`), one
        per game and backend (``auto``, ``numba`` or ``python``), keeping its table."""
        from plies.games.connect4.solver import solver_of

        return solver_of(self, backend)

    def render(self, state: Connect4State) -> str:
        position, mask, moves, outcome = state
        xs = position if moves & 1 == 0 else position ^ mask
        wide = len(str(self.width))
        rows = []
        for row in reversed(range(self.height)):
            cells = []
            for col in range(self.width):
                bit = 1 << (col * self._h1 + row)
                mark = EMPTY if not mask & bit else MARKS[0] if xs & bit else MARKS[1]
                cells.append(mark.rjust(wide))
            rows.append(" ".join(cells))
        rows.append(" ".join(str(col + 1).rjust(wide) for col in range(self.width)))
        if outcome == UNDECIDED:
            status = f"{MARKS[moves & 1]} to move"
        elif outcome == DRAW:
            status = "draw"
        else:
            status = f"{MARKS[outcome]} wins"
        return "\n".join(rows) + "\n" + status
