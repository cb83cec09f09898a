"""Othello (Reversi) on bitboards, 8x8, with passes and the standard start.

Rules: Black (player 0) moves first.  A move places a disc of the mover's colour on an
empty square so that it brackets, in at least one of the eight directions, an unbroken
line of the opponent's discs with another disc of the mover's; every bracketed disc
flips.  A player without a legal move passes, and only then: the pass is the explicit
action :data:`PASS` (written ``"pass"``), the one legal action of such a state.  The game
ends when neither player can move (a full board is one such case).

Utility: the final disc difference, the empty squares going to the winner (the World
Othello Federation rule, the score endgame solvers report): ``utility_range == (-64, 64)``,
0 for a draw.  :meth:`Othello.evaluate` stays strictly inside that range.

Squares are written ``"a1"`` .. ``"h8"``: columns a-h from left to right, rows 1-8 from
top to bottom (the usual Othello diagram).  Bit ``8 * (row - 1) + column`` is a square
(a1 = bit 0, h1 = bit 7, h8 = bit 63); actions are those bit indices, and :data:`PASS`.

A state is an :class:`OthelloState`, an immutable named tuple ``(mover, other, player,
legal, over)``: the discs of the player to move and of the other player, the player to
move (0 = Black), the bitboard of the mover's legal squares and whether the game is over.
``legal`` and ``over`` follow from the first three and are computed once, by
:meth:`Othello.result`.  Move generation is the classic one: per direction, shift the
mover's discs over the opponent's six times, with edge masks against wrap-around.

>>> game = Othello()
>>> s = game.initial_state()
>>> [game.format_action(s, a) for a in game.actions(s)]
['d3', 'c4', 'f5', 'e6']
>>> print(game.render(game.result(s, game.parse_action(s, "d3"))))
  a b c d e f g h
1 . . . . . . . .
2 . . . . . . . .
3 . . . X . . . .
4 . . . X X . . .
5 . . . X O . . .
6 . . . . . . . .
7 . . . . . . . .
8 . . . . . . . .
O to move (X 4, O 1)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar, Final

from plies.errors import IllegalActionError
from plies.game import Game
from plies.game.board import Board
from plies.game.knowledge import PlayDefaults, PositionText, Solver
from plies.game.options import Option
from plies.games.othello.bitboard import (
    _BORDER,
    _SQUARE_CLASS,
    C_SQUARES,
    COLUMNS,
    CORNERS,
    EMPTY,
    FULL,
    MARKS,
    PASS,
    X_SQUARES,
    OthelloState,
    disc_score,
    flips,
    legal_moves,
    make_state,
    moves,
    neighbours,
    play,
    square_name,
    stable_discs,
)
from plies.games.othello.positions import read_position as read_board
from plies.games.othello.positions import write_position as write_board
from plies.games.othello.view import NAMES, othello_board
from plies.linear import check_names


@dataclass(frozen=True, slots=True)
class OthelloWeights:
    """Every weight of :meth:`Othello.evaluate`, in one place.

    Each feature is the mover-minus-opponent difference seen by the evaluated player:

    - ``mobility``: legal moves, as ``100 * (a - b) / (a + b + 2)``;
    - ``frontier``: discs next to an empty square (potential mobility for the opponent),
      as ``100 * (b - a) / (a + b + 2)`` so that fewer frontier discs score higher;
    - ``corners``: corner discs;
    - ``x_squares`` / ``c_squares``: discs on X and C squares next to an *empty* corner,
      a penalty (the weight is subtracted);
    - ``stability``: discs of :func:`stable_discs`;
    - ``discs``: the disc difference, weighted by ``discs * filled / 64`` so that it
      counts late and hardly at all in the opening (disc parity late).

    The weighted sum ``x`` becomes ``64 * x / (|x| + softness)``, inside ``(-64, 64)``.
    """

    mobility: float = 10.0
    frontier: float = 5.0
    corners: float = 60.0
    x_squares: float = 25.0
    c_squares: float = 10.0
    stability: float = 12.0
    discs: float = 2.0
    softness: float = 400.0


DEFAULT_WEIGHTS: Final = OthelloWeights()

EXACT_EMPTIES: Final = 10
"""At most this many empty squares, a request without a limit is solved exactly (the
endgame solver's median is about 0.02 s at 10 empties on the reference machine)."""
MOVES_HELP: Final = (
    "write a move as a square a1..h8 (column a-h, row 1-8 from the top), or pass when "
    "you have no move"
)
"""How a person writes an Othello move."""


def few_empties(state: OthelloState) -> bool:
    """True when at most :data:`EXACT_EMPTIES` squares are empty."""
    return 64 - (state[0] | state[1]).bit_count() <= EXACT_EMPTIES
FEATURES: Final = (
    "mobility", "frontier", "corners", "x_squares", "c_squares", "stability", "discs"
)
"""The features of :meth:`Othello.features`, named as the weights of :class:`OthelloWeights`."""


class Othello(Game[OthelloState, int]):
    """8x8 Othello (see the module docstring): player 0 is Black and moves first."""

    num_players = 2
    zero_sum = True
    name = "othello"
    description: ClassVar[str] = (
        "Othello (Reversi) 8x8 on bitboards: flip discs, passes; disc difference at the end"
    )
    options: ClassVar[tuple[Option, ...]] = ()
    utility_range = (-64.0, 64.0)

    def __init__(self, weights: OthelloWeights = DEFAULT_WEIGHTS) -> None:
        self.weights = weights

    # --- the game model ----------------------------------------------------------------

    def initial_state(self) -> OthelloState:
        """Black on d5 and e4, White on d4 and e5; Black to move."""
        return make_state((1 << 35) | (1 << 28), (1 << 27) | (1 << 36), 0)

    def to_move(self, state: OthelloState) -> int:
        return state[2]

    def actions(self, state: OthelloState) -> list[int]:
        """The legal squares, lowest bit first (a1, b1, ..., h8); ``[PASS]`` if there are none."""
        return moves(state)

    def result(self, state: OthelloState, action: int) -> OthelloState:
        return play(state, action)

    def is_terminal(self, state: OthelloState) -> bool:
        return state[4]

    def utility(self, state: OthelloState, player: int) -> float:
        """``player``'s disc difference at the end, the empty squares to the winner."""
        if not state[4]:
            raise ValueError("utility of an Othello position that is not over")
        return float(self.score(state) if player == state[2] else -self.score(state))

    def score(self, state: OthelloState) -> int:
        """The disc difference for the player to move, the empty squares to the winner.

        The final score when the game is over; the current count otherwise.
        """
        return disc_score(state)

    def key(self, state: OthelloState) -> int:
        """One int per position: the mover's discs, the other's above them, the player on top."""
        return state[0] | (state[1] << 64) | (state[2] << 128)

    def black_white(self, state: OthelloState) -> tuple[int, int]:
        """The bitboards ``(black, white)`` of ``state``."""
        return (state[0], state[1]) if state[2] == 0 else (state[1], state[0])

    def random_playout(
        self, state: OthelloState, rng: random.Random, limit: int
    ) -> OthelloState:
        """The position after up to ``limit`` uniformly random moves (Monte Carlo playouts).

        :meth:`actions` and :meth:`result` inlined on the bitboards: the same moves as
        :func:`plies.game.default_random_playout` with the same generator (one
        ``rng.random()`` per move, a pass included; the ``k``-th legal square, lowest
        first), without building action lists or intermediate states.
        """
        mover, other, player, legal, over = state
        if over:
            return state
        draw = rng.random
        for _ in range(limit):
            if legal:
                bits = legal
                for _ in range(int(draw() * legal.bit_count())):
                    bits &= bits - 1  # drop the lowest square: the k-th one is then lowest
                square = (bits & -bits).bit_length() - 1
                f = flips(mover, other, square)
                mover, other = other ^ f, mover | f | (1 << square)
            else:
                draw()  # the generic playout draws for its one action, the pass
                mover, other = other, mover
            player = 1 - player
            legal = legal_moves(mover, other)
            if not legal and not legal_moves(other, mover):
                return OthelloState(mover, other, player, 0, True)
        return OthelloState(mover, other, player, legal, False)

    # --- helpers for engines ------------------------------------------------------------

    def evaluate(self, state: OthelloState, player: int) -> float:
        """A heuristic inside ``(-64, 64)`` for ``player``; the utility once the game is over.

        The weighted features of :class:`OthelloWeights`: mobility, frontier (potential
        mobility), corners, X and C squares next to empty corners, stable discs, and the
        disc difference late in the game.  The sum ``x = w·f`` of :meth:`features` is
        squashed to ``64 * x / (|x| + softness)``, monotonically, so only the direction of
        the weights decides which of two positions is better.
        """
        if state[4]:
            return self.utility(state, player)
        f = self._mover_features(state)
        w = self.weights
        x = (
            w.mobility * f[0] + w.frontier * f[1] + w.corners * f[2] + w.x_squares * f[3]
            + w.c_squares * f[4] + w.stability * f[5] + w.discs * f[6]
        )
        value = 64.0 * x / (abs(x) + w.softness)
        return value if player == state[2] else -value

    # --- the linear evaluation (plies.linear.LinearEvaluation) ---------------------------

    feature_names: tuple[str, ...] = FEATURES

    def features(self, state: OthelloState, player: int) -> tuple[float, ...]:
        """The features of :class:`OthelloWeights` seen by ``player``, in the order of
        :data:`FEATURES`; the X and C square features are the opponent's count minus
        ``player``'s (so that their weights, like all others, are positive when good).
        At the end of the game every feature is still computed from the board."""
        f = self._mover_features(state)
        return f if player == state[2] else tuple(-v for v in f)

    def feature_weights(self) -> dict[str, float]:
        """The weights :meth:`evaluate` uses now, by feature name (``softness`` is not a
        feature weight: it is the squashing's scale)."""
        return {name: float(getattr(self.weights, name)) for name in FEATURES}

    def with_weights(self, weights: Mapping[str, float]) -> Othello:
        """An Othello evaluating with ``weights`` (missing names keep their weight).

        Raises:
            OptionError: a name that is not one of :data:`FEATURES`.
        """
        check_names(FEATURES, weights, "othello")
        return type(self)(replace(self.weights, **{k: float(v) for k, v in weights.items()}))

    def _mover_features(self, state: OthelloState) -> tuple[float, ...]:
        mover, other = state[0], state[1]
        occupied = mover | other
        empty = ~occupied & FULL
        m_mob, o_mob = state[3].bit_count(), legal_moves(other, mover).bit_count()
        near_empty = neighbours(empty)
        m_fr, o_fr = (mover & near_empty).bit_count(), (other & near_empty).bit_count()
        exposed = neighbours(CORNERS & empty)
        stability = 0
        if occupied & (CORNERS | _BORDER):  # no edge disc: nothing can be stable yet
            mine, theirs = stable_discs(mover, occupied), stable_discs(other, occupied)
            stability = mine.bit_count() - theirs.bit_count()
        return (
            100.0 * (m_mob - o_mob) / (m_mob + o_mob + 2),
            100.0 * (o_fr - m_fr) / (m_fr + o_fr + 2),
            float((mover & CORNERS).bit_count() - (other & CORNERS).bit_count()),
            float((other & X_SQUARES & exposed).bit_count()
                  - (mover & X_SQUARES & exposed).bit_count()),
            float((other & C_SQUARES & exposed).bit_count()
                  - (mover & C_SQUARES & exposed).bit_count()),
            float(stability),
            occupied.bit_count() / 64 * (mover.bit_count() - other.bit_count()),
        )

    def order_hint(self, state: OthelloState, actions: Sequence[int]) -> list[int]:
        """``actions``, corners first and X squares last, fewest replies first within a class.

        Square classes: corners, other edge squares, the central 16, the second ring, C
        squares, X squares (see ``_SQUARE_CLASS``); ties go to the move that leaves the
        opponent the fewest legal moves (fastest-first), then to the lower square.
        """
        mover, other = state[0], state[1]

        def rank(action: int) -> tuple[int, int, int]:
            if action == PASS:
                return (0, 0, 0)
            f = flips(mover, other, action) | (1 << action)
            replies = legal_moves(other & ~f, mover | f).bit_count()
            return (_SQUARE_CLASS[action], replies, action)

        return sorted(actions, key=rank)

    # --- text ---------------------------------------------------------------------------

    def format_action(self, state: OthelloState, action: int) -> str:
        return square_name(action)

    def parse_action(self, state: OthelloState, text: str) -> int:
        """The legal action written ``text``: a square ``"d3"`` (any case) or ``"pass"``.

        Raises:
            IllegalActionError: not a square or ``pass``, or not legal here; the message
                lists the legal moves.
        """
        word = text.strip().lower()
        legal = self.actions(state)
        action: int | None = None
        if word == "pass":
            action = PASS
        elif len(word) == 2 and word[0] in COLUMNS and word[1] in "12345678":
            action = COLUMNS.index(word[0]) + 8 * (int(word[1]) - 1)
        if action is None or action not in legal:
            raise IllegalActionError(text, [self.format_action(state, a) for a in legal])
        return action

    def player_name(self, player: int) -> str:
        return NAMES[player]

    # --- what front ends read --------------------------------------------------------------

    def board(self, state: OthelloState, last: int | None = None) -> Board:
        """The 8x8 board; a click on a legal square plays there, ``pass`` is a button."""
        return othello_board(state, last)

    def read_position(self, text: str) -> PositionText | None:
        """A board of 64 cells and the side to move (:mod:`plies.games.othello.positions`);
        None for other text."""
        return read_board(text)

    def write_position(self, state: OthelloState) -> str:
        """``state`` as 64 cells and the side to move."""
        return write_board(state)

    def play_defaults(self) -> PlayDefaults:
        """Engine craft and two seconds a move; a request without a limit is solved
        exactly (:meth:`solver`) once at most :data:`EXACT_EMPTIES` squares are empty.
        Values are discs (the evaluation's estimate of the final disc difference)."""
        return PlayDefaults(unit="discs", digits=1, moves_help=MOVES_HELP, exact_when=few_empties)

    def solver(self, backend: str = "auto") -> Solver:
        """The exact endgame solver (:class:`~plies.games.othello.solver.OthelloSolver`),
        one per game and backend, keeping its table: backend ``auto`` (compiled by Numba
        when it imports, practical for the last 26 or so empty squares), ``numba`` or
        ``python`` (the last 14 or so)."""
        from plies.games.othello.solver import solver_of

        return solver_of(self, backend)

    def render(self, state: OthelloState) -> str:
        """The board (X Black, O White), rows 1-8 from the top, and whose turn it is."""
        black, white = self.black_white(state)
        rows = ["  " + " ".join(COLUMNS)]
        for r in range(8):
            cells = []
            for c in range(8):
                bit = 1 << (8 * r + c)
                cells.append(MARKS[0] if black & bit else MARKS[1] if white & bit else EMPTY)
            rows.append(f"{r + 1} " + " ".join(cells))
        count = f"X {black.bit_count()}, O {white.bit_count()}"
        if state[4]:
            diff = self.utility(state, 0)
            status = "draw" if diff == 0 else f"{MARKS[0 if diff > 0 else 1]} wins by {abs(diff):g}"
            return "\n".join(rows) + f"\n{status} ({count})"
        status = f"{MARKS[state[2]]} to move" + (", must pass" if not state[3] else "")
        return "\n".join(rows) + f"\n{status} ({count})"
