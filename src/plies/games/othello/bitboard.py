"""Othello's representation: bitboards, the state, and the bit tricks on them.

What the rules (:mod:`plies.games.othello.rules`), the board and positions
(:mod:`~.view`, :mod:`~.positions`) and the endgame solver (:mod:`~.solver`) share.
Bit ``8 * (row - 1) + column`` is a square (a1 = bit 0, h1 = bit 7, h8 = bit 63), rows
1-8 from the top; a state is an :class:`OthelloState` (see the rules' module docstring).
Move generation is the classic one: per direction, shift the mover's discs over the
opponent's six times, with edge masks against wrap-around.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from plies.bits import members

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
    return members(bits)


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


def moves(state: OthelloState) -> list[int]:
    """The legal squares, lowest bit first (a1, b1, ..., h8); ``[PASS]`` if there are none,
    ``[]`` once the game is over (:meth:`Othello.actions`)."""
    if state[4]:
        return []
    legal = state[3]
    return squares(legal) if legal else [PASS]


def play(state: OthelloState, action: int) -> OthelloState:
    """The position after ``action`` (a square or :data:`PASS`), which must be legal
    (:meth:`Othello.result`)."""
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


def disc_score(state: OthelloState) -> int:
    """The disc difference for the player to move, the empty squares to the winner: the
    final score when the game is over, the current count otherwise
    (:meth:`Othello.score`)."""
    a, b = state[0].bit_count(), state[1].bit_count()
    empties = 64 - a - b
    if a > b:
        return a - b + empties
    if a < b:
        return a - b - empties
    return 0


def square_name(square: int) -> str:
    """How people write a square: ``"a1"`` .. ``"h8"``, or ``"pass"`` for :data:`PASS`."""
    if square == PASS:
        return "pass"
    return f"{COLUMNS[square % 8]}{square // 8 + 1}"

