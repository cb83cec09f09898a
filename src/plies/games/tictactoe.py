"""Tic-tac-toe: the speed benchmark and the first game of every lecture on minimax.

Rules: two players mark the cells of a 3x3 board in turn, X (player 0) first and O
(player 1) second; whoever completes a row, column or diagonal of their own marks wins;
a full board without a line is a draw.

Utility: +1 for a win, -1 for a loss, 0 for a draw, so the game is zero-sum with
``utility_range == (-1, 1)``.  Its minimax value is a draw; the full game tree has
549,946 nodes (root included) and 5,478 distinct reachable states.

Representation: a state is a :class:`Board`, an immutable named tuple
``(cells, mover, outcome)``: ``cells`` is a 9-character string (``"X"``, ``"O"`` or
``"."``, row by row), ``mover`` the player to move, and ``outcome`` the result decided by
the last move (:data:`UNDECIDED`, 0 = X won, 1 = O won, :data:`DRAW`).  An action is a
cell index 0..8; people read and type it as the 1-based cell number ``"1"``..``"9"``::

     1 | 2 | 3
    ---+---+---
     4 | 5 | 6
    ---+---+---
     7 | 8 | 9

>>> ttt = TicTacToe()
>>> s = ttt.result(ttt.initial_state(), 4)
>>> print(ttt.render(s))
 1 | 2 | 3
---+---+---
 4 | X | 6
---+---+---
 7 | 8 | 9
O to move
"""

from __future__ import annotations

from functools import cache
from typing import ClassVar, Final, NamedTuple

from plies.errors import GameFormatError
from plies.game import Game
from plies.game import board as boards
from plies.game.options import Option

UNDECIDED: Final = -1
"""``Board.outcome`` while the game goes on."""
DRAW: Final = 2
"""``Board.outcome`` of a full board without a line."""

MARKS: Final = "XO"
EMPTY: Final = "."
LOOKS: Final = {
    "X": boards.Mark("text", color="#2457c5"), "O": boards.Mark("text", color="#d9480f"),
}
"""How the board draws the marks: letters in the players' colours."""

LINES: Final[tuple[tuple[int, int, int], ...]] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),  # diagonals
)  # fmt: skip


def _partners(cell: int) -> tuple[tuple[int, int], ...]:
    """The other two cells of each line through ``cell``."""
    pairs = []
    for line in LINES:
        if cell in line:
            a, b = (c for c in line if c != cell)
            pairs.append((a, b))
    return tuple(pairs)


# Only a line through the cell just marked can have been completed by that move, so
# result() looks at the other two cells of those 2-4 lines instead of at all 8 lines.
_PARTNERS: Final = tuple(_partners(cell) for cell in range(9))

# Board is a NamedTuple; building it through tuple.__new__ skips the generated Python-level
# __new__, which matters on a benchmark that builds half a million boards.
_new_board = tuple.__new__

# evaluate(): a line holding k of one player's marks and none of the other's is worth
# _LINE_WEIGHT[k] to that player.  The total is at most 8 * 3 = 24 in absolute value, so
# dividing by 25 keeps every heuristic value strictly inside the utility range.
_LINE_WEIGHT: Final = (0, 1, 3)
_EVAL_SCALE: Final = 25.0


class Board(NamedTuple):
    """A tic-tac-toe position (immutable, hashable, usable as its own key)."""

    cells: str  # 9 characters "X", "O" or ".", row by row
    mover: int  # 0 = X, 1 = O
    outcome: int  # UNDECIDED, 0 (X won), 1 (O won) or DRAW


def _outcome(cells: str) -> int:
    """The outcome of a whole board (used when a board is built from text)."""
    winners = {cells[a] for a, b, c in LINES if cells[a] == cells[b] == cells[c] != EMPTY}
    if len(winners) > 1:
        raise GameFormatError(f"both players have a line in {cells!r}")
    if winners:
        return MARKS.index(winners.pop())
    return DRAW if EMPTY not in cells else UNDECIDED


@cache
def _empty_cells(cells: str) -> tuple[int, ...]:
    # Memoised: there are at most 3**9 boards, and the search asks each one many times.
    return tuple(i for i, ch in enumerate(cells) if ch == EMPTY)


class TicTacToe(Game[Board, int]):
    """Tic-tac-toe on a 3x3 board (see the module docstring for rules and encoding)."""

    num_players = 2
    utility_range = (-1.0, 1.0)
    zero_sum = True
    name = "tictactoe"
    description: ClassVar[str] = "Tic-tac-toe: X and O on a 3x3 board; a draw with perfect play"
    options: ClassVar[tuple[Option, ...]] = ()

    def initial_state(self) -> Board:
        return Board(EMPTY * 9, 0, UNDECIDED)

    def from_string(self, text: str) -> Board:
        """The position drawn in ``text``: 9 cells row by row, ``x``/``o``/``.``.

        Blanks, newlines and ``|`` are ignored, ``-`` and ``_`` also mean empty, case does
        not matter.  The mover follows from the counts (X moves when the counts are equal).

        >>> TicTacToe().from_string("x.o ...  ...")
        Board(cells='X.O......', mover=0, outcome=-1)

        Raises:
            GameFormatError: not 9 cells, an unknown character, or a position that no
                game reaches (impossible counts, both players with a line, a line for
                the player to move).
        """
        cells = "".join(ch for ch in text.upper() if not ch.isspace() and ch != "|")
        cells = cells.replace("-", EMPTY).replace("_", EMPTY)
        if len(cells) != 9 or any(ch not in "XO." for ch in cells):
            raise GameFormatError(f"a tic-tac-toe board is 9 cells of x, o or '.', got {text!r}")
        xs, os = cells.count("X"), cells.count("O")
        if xs not in (os, os + 1):
            raise GameFormatError(f"X moves first, so {xs} X's and {os} O's cannot happen")
        mover, outcome = (0 if xs == os else 1), _outcome(cells)
        if outcome in (0, 1) and outcome == mover:
            # The winner made the last move, so it cannot be the winner's turn.
            raise GameFormatError(f"{MARKS[outcome]} has a line but it is {MARKS[outcome]}'s turn")
        return Board(cells, mover, outcome)

    def to_move(self, state: Board) -> int:
        return state[1]

    def actions(self, state: Board) -> tuple[int, ...]:
        return _empty_cells(state[0])

    def result(self, state: Board, action: int) -> Board:
        cells, mover, _ = state
        mark = MARKS[mover]
        new = cells[:action] + mark + cells[action + 1 :]
        for a, b in _PARTNERS[action]:
            if cells[a] == mark and cells[b] == mark:
                return _new_board(Board, (new, 1 - mover, mover))
        outcome = UNDECIDED if EMPTY in new else DRAW
        return _new_board(Board, (new, 1 - mover, outcome))

    def is_terminal(self, state: Board) -> bool:
        return state[2] != UNDECIDED

    def utility(self, state: Board, player: int) -> float:
        outcome = state[2]
        if outcome == DRAW:
            return 0.0
        if outcome == UNDECIDED:
            raise ValueError("utility of a non-terminal tic-tac-toe position")
        return 1.0 if outcome == player else -1.0

    def evaluate(self, state: Board, player: int) -> float:
        """Open lines: each line still winnable by only one side counts for that side.

        A line with ``k`` marks of one player and none of the other's is worth 1 (k=1)
        or 3 (k=2) to that player; the difference is scaled into (-1, 1).  Terminal
        positions return their utility.
        """
        if state[2] != UNDECIDED:
            return self.utility(state, player)
        cells = state[0]
        mine, theirs = MARKS[player], MARKS[1 - player]
        score = 0
        for a, b, c in LINES:
            line = cells[a] + cells[b] + cells[c]
            if theirs not in line:
                score += _LINE_WEIGHT[line.count(mine)]
            elif mine not in line:
                score -= _LINE_WEIGHT[line.count(theirs)]
        return score / _EVAL_SCALE

    def format_action(self, state: Board, action: int) -> str:
        return str(action + 1)

    def render(self, state: Board) -> str:
        cells, mover, outcome = state
        shown = [ch if ch != EMPTY else str(i + 1) for i, ch in enumerate(cells)]
        rows = [" " + " | ".join(shown[r : r + 3]) for r in (0, 3, 6)]
        if outcome == UNDECIDED:
            status = f"{MARKS[mover]} to move"
        elif outcome == DRAW:
            status = "draw"
        else:
            status = f"{MARKS[outcome]} wins"
        return "\n---+---+---\n".join(rows) + "\n" + status

    def player_name(self, player: int) -> str:
        return MARKS[player]

    def board(self, state: Board, last: int | None = None) -> boards.Board:
        """The 3x3 grid; a click on an empty cell marks it."""
        cells, _, outcome = state
        over = outcome != UNDECIDED
        return boards.Board(
            3, 3, tuple(ch if ch != EMPTY else "" for ch in cells), kind="tictactoe",
            marks=LOOKS,
            cell_moves=tuple(None if over or ch != EMPTY else str(i + 1)
                             for i, ch in enumerate(cells)),
            last=() if last is None else (last,),
        )
