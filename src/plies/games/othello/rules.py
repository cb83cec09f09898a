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
from typing import ClassVar, Final, NamedTuple

from plies.errors import IllegalActionError
from plies.game import Game
from plies.game.options import Option
from plies.linear import check_names

PASS: Final = -1
"""The pass action: the one legal action of a player who has no move."""

FULL: Final = (1 << 64) - 1
NOT_A: Final = 0xFEFEFEFEFEFEFEFE
"""Every square but column a (a shift to the east must not land there)."""
NOT_H: Final = 0x7F7F7F7F7F7F7F7F
"""Every square but column h."""
CORNERS: Final = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)
X_SQUARES: Final = (1 << 9) | (1 << 14) | (1 << 49) | (1 << 54)
"""b2, g2, b7, g7: diagonally next to a corner."""
C_SQUARES: Final = (
    (1 << 1) | (1 << 8) | (1 << 6) | (1 << 15) | (1 << 48) | (1 << 57) | (1 << 55) | (1 << 62)
)
"""b1, a2, g1, h2, a7, b8, h7, g8: on an edge next to a corner."""

#: ``(shift, mask)`` per direction: ``x << shift`` (``>>`` for a negative shift), then
#: ``& mask`` removes the bits that wrapped to the other side of the board.
DIRECTIONS: Final = (
    (1, NOT_A), (-1, NOT_H), (8, FULL), (-8, FULL),
    (9, NOT_A), (7, NOT_H), (-7, NOT_A), (-9, NOT_H),
)

MARKS: Final = "XO"
"""Black's and White's discs as the board shows them."""
EMPTY: Final = "."
COLUMNS: Final = "abcdefgh"

# order_hint(): the classic static square classes, best first.  0 corners, 1 the other
# edge squares but C squares, 2 the central 16 squares, 3 the second ring but X squares,
# 4 the C squares, 5 the X squares (next to a corner, they give it away while it is empty).
_SQUARE_CLASS: Final = tuple(
    0 if (1 << sq) & CORNERS else 5 if (1 << sq) & X_SQUARES else 4 if (1 << sq) & C_SQUARES
    else 1 if sq % 8 in (0, 7) or sq // 8 in (0, 7)
    else 3 if sq % 8 in (1, 6) or sq // 8 in (1, 6) else 2
    for sq in range(64)
)


def square_order() -> tuple[int, ...]:
    """All 64 squares by their static class (corners first, X squares last), then index."""
    return tuple(sorted(range(64), key=lambda sq: (_SQUARE_CLASS[sq], sq)))


def shift(x: int, s: int, mask: int) -> int:
    """``x`` shifted one step in the direction ``(s, mask)`` of :data:`DIRECTIONS`."""
    return ((x << s) if s > 0 else (x >> -s)) & mask


def legal_moves(mover: int, other: int) -> int:
    """Bitboard of the empty squares where ``mover`` flips at least one of ``other``'s discs.

    >>> bin(legal_moves(0x0000000810000000, 0x0000001008000000)).count("1")
    4
    """
    empty = ~(mover | other) & FULL
    moves = 0
    for s, mask in DIRECTIONS:
        if s > 0:
            x = (mover << s) & mask & other
            x |= (x << s) & mask & other
            x |= (x << s) & mask & other
            x |= (x << s) & mask & other
            x |= (x << s) & mask & other
            x |= (x << s) & mask & other
            moves |= (x << s) & mask & empty
        else:
            t = -s
            x = (mover >> t) & mask & other
            x |= (x >> t) & mask & other
            x |= (x >> t) & mask & other
            x |= (x >> t) & mask & other
            x |= (x >> t) & mask & other
            x |= (x >> t) & mask & other
            moves |= (x >> t) & mask & empty
    return moves


def flips(mover: int, other: int, square: int) -> int:
    """Bitboard of ``other``'s discs that a ``mover`` disc on ``square`` flips (0: illegal)."""
    placed = 1 << square
    flipped = 0
    for s, mask in DIRECTIONS:
        line = 0
        if s > 0:  # the shift written out: this is the hottest loop of the game
            x = (placed << s) & mask
            while x & other:
                line |= x
                x = (x << s) & mask
        else:
            t = -s
            x = (placed >> t) & mask
            while x & other:
                line |= x
                x = (x >> t) & mask
        if x & mover:
            flipped |= line
    return flipped


def squares(bits: int) -> list[int]:
    """The set bits of ``bits`` as square indices, lowest first."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def neighbours(bits: int) -> int:
    """Squares next to (in any of the eight directions) some square of ``bits``."""
    n = 0
    for s, mask in DIRECTIONS:
        n |= shift(bits, s, mask)
    return n


def _line_masks() -> tuple[tuple[int, ...], ...]:
    """Per axis (rows, columns, both diagonals) the squares of each line on it."""
    axes: list[list[int]] = [[], [], [], []]
    for i in range(8):
        axes[0].append(sum(1 << (8 * i + c) for c in range(8)))
        axes[1].append(sum(1 << (8 * r + i) for r in range(8)))
    for d in range(-7, 8):
        axes[2].append(sum(1 << (8 * r + r + d) for r in range(8) if 0 <= r + d < 8))
        axes[3].append(sum(1 << (8 * r + 7 - r - d) for r in range(8) if 0 <= 7 - r - d < 8))
    return tuple(tuple(axis) for axis in axes)


_LINES: Final = _line_masks()
# For each axis, the two directions along it and the squares where one of them leaves the
# board (an edge counts as a stable neighbour).
_BORDER: Final = 0xFF000000000000FF | 0x8181818181818181
_AXES: Final = (
    ((1, NOT_A), (-1, NOT_H), 0x8181818181818181),
    ((8, FULL), (-8, FULL), 0xFF000000000000FF),
    ((9, NOT_A), (-9, NOT_H), _BORDER),
    ((7, NOT_H), (-7, NOT_A), _BORDER),
)


def full_lines(occupied: int) -> tuple[int, int, int, int]:
    """Per axis, the squares on lines of that axis with no empty square."""
    out = []
    for axis in _LINES:
        full = 0
        for line in axis:
            if occupied & line == line:
                full |= line
        out.append(full)
    return out[0], out[1], out[2], out[3]


def stable_discs(mine: int, occupied: int) -> int:
    """A sound subset of ``mine`` that can never flip again.

    A disc is stable when on each of the four axes through it either the line is full
    (no disc can be placed on it, so nothing flips along it) or a neighbour along the axis
    is the edge or a stable disc of the same colour (a bracket would have to flip that
    one too).  Grown from the empty set to a fixed point, this finds the corners, the
    edge runs anchored at them, and the interior discs they protect.

    >>> bin(stable_discs(1 | 2 | 4, 0xFF)).count("1")  # a1 b1 c1 on a full row 1
    3
    """
    full = full_lines(occupied)
    stable = 0
    while True:
        grow = mine
        for ((s1, m1), (s2, m2), edge), line_full in zip(_AXES, full, strict=True):
            anchors = shift(stable, s1, m1) | shift(stable, s2, m2)
            grow &= line_full | edge | anchors
        grow |= stable
        if grow == stable:
            return stable
        stable = grow


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
FEATURES: Final = (
    "mobility", "frontier", "corners", "x_squares", "c_squares", "stability", "discs"
)
"""The features of :meth:`Othello.features`, named as the weights of :class:`OthelloWeights`."""


class OthelloState(NamedTuple):
    """An Othello position (immutable, hashable; see the module docstring)."""

    mover: int  # discs of the player to move
    other: int  # discs of the other player
    player: int  # the player to move: 0 = Black, 1 = White
    legal: int  # the mover's legal squares (0: the mover must pass, or the game is over)
    over: bool  # neither player can move


def make_state(black: int, white: int, player: int) -> OthelloState:
    """The position with these discs and ``player`` (0 = Black) to move.

    ``legal`` and ``over`` are computed here.  Raises ValueError if a square holds two discs.
    """
    if black & white or (black | white) > FULL or black < 0 or white < 0:
        raise ValueError("black and white discs must be disjoint 64-bit boards")
    mover, other = (black, white) if player == 0 else (white, black)
    legal = legal_moves(mover, other)
    over = not legal and not legal_moves(other, mover)
    return OthelloState(mover, other, player, legal, over)


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
        if state[4]:
            return []
        legal = state[3]
        return squares(legal) if legal else [PASS]

    def result(self, state: OthelloState, action: int) -> OthelloState:
        mover, other, player = state[0], state[1], state[2]
        if action == PASS:
            new_mover, new_other = other, mover
        else:
            placed = 1 << action
            f = flips(mover, other, action)
            new_mover, new_other = other ^ f, mover | f | placed
        new_legal = legal_moves(new_mover, new_other)
        over = not new_legal and not legal_moves(new_other, new_mover)
        return OthelloState(new_mover, new_other, 1 - player, new_legal, over)

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
        a, b = state[0].bit_count(), state[1].bit_count()
        empties = 64 - a - b
        if a > b:
            return a - b + empties
        if a < b:
            return a - b - empties
        return 0

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
        if action == PASS:
            return "pass"
        return f"{COLUMNS[action % 8]}{action // 8 + 1}"

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
        return ("Black", "White")[player]

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
