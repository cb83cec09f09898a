"""The compiled kernel of the Othello endgame solver (Numba): the search over ``uint64``.

Imported only by :mod:`plies.games.othello.solver` for its ``numba`` backend (it imports
Numba and NumPy at once).  The search is the one the plain Python solver runs, with the
craft of endgame programs that pays once a node costs tens of nanoseconds instead of
microseconds:

- negamax over ``(mover, other)`` bitboards, fail-soft, principal variation search;
  scores are final disc differences for the side to move in ``-64..64`` (the empty squares
  to the winner), exact: no heuristic cut-off anywhere;
- above :data:`SHALLOW` empty squares: a transposition table of bounds and best moves in
  NumPy arrays (two slots a bucket: one kept for the deeper position, one always
  replaced), the enhanced transposition cut-off (ETC: a child whose stored bound already
  refutes the window ends the node before any search), and moves ordered fastest-first
  (fewest replies for the opponent, corners counted twice) with the opponent's potential
  mobility and the mover's corner discs to break ties, and below :data:`PARITY_MAX`
  empty squares a bonus for the squares of odd regions; from :data:`SORT_DEEP` empty
  squares moves are ordered by a shallow search of a quick evaluation instead
  (:func:`probe`, depth 0 to 3, deeper further from the end);
- the stability cut-off at every depth: the opponent keeps its stable discs, so the
  mover scores at most ``64 - 2 * stable``, tried when alpha is high enough for it to
  cut (:func:`stability_threshold`);
- at most :data:`SHALLOW` (six) empty squares: no table and no move generation, one
  unrolled function per number of empty squares (:func:`_solve6` .. :func:`_solve2`,
  passes as a turn of a loop, not a call), the squares of the regions (quadrants) with
  an odd number of empties first (parity), then by static square class (:func:`_order`;
  from four empty squares on the squares are listed once: :func:`_solve_few`);
- the last empty square is played out by counting its flips.

Every function is compiled with ``cache=True`` (Numba's on-disk cache, beside this file
when it is writable) and ``nogil=True``: the solver runs the kernel in a thread of its own
so that the caller can stop it (:func:`plies.compiled.run_stoppable`).
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
from numba import njit

from plies.games.othello.bitboard import _LINES, _SQUARE_CLASS

U = np.uint64
ZERO: Final = U(0)
ONE: Final = U(1)
S1: Final = U(1)
S7: Final = U(7)
S8: Final = U(8)
S9: Final = U(9)
ALL: Final = U(0xFFFFFFFFFFFFFFFF)
NOT_A: Final = U(0xFEFEFEFEFEFEFEFE)
NOT_H: Final = U(0x7F7F7F7F7F7F7F7F)
INNER_H: Final = U(0x7E7E7E7E7E7E7E7E)
"""Columns b-g: a run of the opponent's discs along a row lies there, never on an edge."""
INNER_D: Final = U(0x007E7E7E7E7E7E00)
"""The 36 inner squares: a diagonal run of the opponent's discs lies there."""
CORNERS: Final = U(0x8100000000000081)
EDGE_AH: Final = U(0x8181818181818181)
EDGE_18: Final = U(0xFF000000000000FF)
BORDER: Final = U(0xFF818181818181FF)
M1: Final = U(0x5555555555555555)
M2: Final = U(0x3333333333333333)
M4: Final = U(0x0F0F0F0F0F0F0F0F)
H01: Final = U(0x0101010101010101)
S2: Final = U(2)
S4: Final = U(4)
S56: Final = U(56)
S58: Final = U(58)
DEBRUIJN: Final = U(0x03F79D71B4CB0A89)
QUADRANTS: Final = (U(0x000000000F0F0F0F), U(0x00000000F0F0F0F0),
                    U(0x0F0F0F0F00000000), U(0xF0F0F0F000000000))
"""The four 4x4 regions of the board, whose parity orders the last moves."""

SHALLOW: Final = 6
"""At most this many empty squares: the unrolled search without table, ordered by parity
(:func:`_solve6`, :func:`_solve5`, :func:`_solve_few`).  Fixed by those functions: a
larger value needs a ``_solve7``, a smaller one was measured slower."""
FEW: Final = 4
"""At most this many empty squares: the squares listed once and searched by
:func:`_solve_few`'s unrolled functions."""
ETC_MIN: Final = 10
"""From this many empty squares the children's table entries are read before searching."""
PARITY_BONUS: Final = 32
PARITY_MAX: Final = 12
"""Below PARITY_MAX empty squares a move in an odd region is rated PARITY_BONUS better
(half a reply less for the opponent)."""
SORT_DEEP: Final = 12
SORT_STEP: Final = 3
"""From SORT_DEEP empty squares moves are ordered by a search of depth
``(empties - SORT_DEEP) // SORT_STEP`` on a quick evaluation instead of by mobility."""
POLL_EVERY: Final = 1 << 16
"""Nodes between two looks at the halt flag (about 10 ms)."""
SLOTS: Final = 1 << 21
"""Default number of table slots (a power of two; 20 bytes each)."""


def _tables() -> tuple[Any, ...]:
    index = np.zeros(64, dtype=np.int64)
    for sq in range(64):
        index[((1 << sq) * 0x03F79D71B4CB0A89 & ((1 << 64) - 1)) >> 58] = sq
    classes = np.zeros(6, dtype=np.uint64)  # bitboard.square_order()'s classes as masks
    for sq in range(64):
        classes[_SQUARE_CLASS[sq]] |= np.uint64(1 << sq)
    lines = [line for axis in _LINES for line in axis]  # rows, columns, diagonals
    return index, classes, np.array(lines, dtype=np.uint64)


INDEX, CLASSES, LINES = _tables()
"""The de Bruijn index of a single bit; the square classes; every row, column, diagonal."""


@njit(cache=True, nogil=True)
def popcount(x: Any) -> Any:
    x = x - ((x >> S1) & M1)
    x = (x & M2) + ((x >> S2) & M2)
    x = (x + (x >> S4)) & M4
    return np.int64((x * H01) >> S56)


@njit(cache=True, nogil=True)
def square_of(bit: Any) -> Any:
    """The index of the one set bit of ``bit``."""
    return INDEX[(bit * DEBRUIJN) >> S58]


@njit(cache=True, nogil=True)
def _spread(mover: Any, run: Any, s: Any) -> Any:
    """Squares just past a run of ``run`` discs next to ``mover``'s, both ways along ``s``."""
    t = run & (mover << s)
    t |= run & (t << s)
    t |= run & (t << s)
    t |= run & (t << s)
    t |= run & (t << s)
    t |= run & (t << s)
    out = t << s
    t = run & (mover >> s)
    t |= run & (t >> s)
    t |= run & (t >> s)
    t |= run & (t >> s)
    t |= run & (t >> s)
    t |= run & (t >> s)
    return out | (t >> s)


@njit(cache=True, nogil=True)
def legal(mover: Any, other: Any) -> Any:
    """The squares where ``mover`` flips at least one disc (bitboard.legal_moves)."""
    moves = _spread(mover, other & INNER_H, S1)
    moves |= _spread(mover, other, S8)
    moves |= _spread(mover, other & INNER_D, S7)
    moves |= _spread(mover, other & INNER_D, S9)
    return moves & ~(mover | other)


@njit(cache=True, nogil=True)
def _ray(mover: Any, run: Any, x: Any, s: Any) -> Any:
    line = ZERO
    t = x << s
    while t & run:
        line |= t
        t = t << s
    if not (t & mover):
        line = ZERO
    more = ZERO
    t = x >> s
    while t & run:
        more |= t
        t = t >> s
    if t & mover:
        line |= more
    return line


@njit(cache=True, nogil=True)
def flips(mover: Any, other: Any, x: Any) -> Any:
    """``other``'s discs that a ``mover`` disc on the square ``x`` (a bit) flips."""
    f = _ray(mover, other & INNER_H, x, S1)
    f |= _ray(mover, other, x, S8)
    f |= _ray(mover, other & INNER_D, x, S7)
    f |= _ray(mover, other & INNER_D, x, S9)
    return f


@njit(cache=True, nogil=True)
def stable(mine: Any, occupied: Any) -> Any:
    """A sound subset of ``mine`` that can never flip (bitboard.stable_discs)."""
    fh = ZERO
    fv = ZERO
    f9 = ZERO
    f7 = ZERO
    for i in range(8):
        if occupied & LINES[i] == LINES[i]:
            fh |= LINES[i]
        if occupied & LINES[8 + i] == LINES[8 + i]:
            fv |= LINES[8 + i]
    for i in range(15):
        if occupied & LINES[16 + i] == LINES[16 + i]:
            f9 |= LINES[16 + i]
        if occupied & LINES[31 + i] == LINES[31 + i]:
            f7 |= LINES[31 + i]
    fh |= EDGE_AH
    fv |= EDGE_18
    f9 |= BORDER
    f7 |= BORDER
    s = ZERO
    while True:
        grow = mine & (fh | ((s << S1) & NOT_A) | ((s >> S1) & NOT_H))
        grow &= fv | (s << S8) | (s >> S8)
        grow &= f9 | ((s << S9) & NOT_A) | ((s >> S9) & NOT_H)
        grow &= f7 | ((s << S7) & NOT_H) | ((s >> S7) & NOT_A)
        grow |= s
        if grow == s:
            return s
        s = grow


@njit(cache=True, nogil=True)
def stability_threshold(n_empty: int) -> Any:
    """The alpha from which the stability cut-off is tried: below it, it almost never cuts."""
    t = 2 * n_empty - 4
    return 6 if t < 6 else t


@njit(cache=True, nogil=True)
def final(mover: Any, other: Any) -> Any:
    """The score for ``mover`` of a finished game (the empty squares to the winner)."""
    a = popcount(mover)
    b = popcount(other)
    if a > b:
        return 64 - 2 * b
    if a < b:
        return 2 * a - 64
    return 0


@njit(cache=True, nogil=True)
def _last(mover: Any, other: Any, x: Any) -> Any:
    """The exact score for ``mover`` with one empty square left, ``x``: once it is played
    the board is full, and the score is twice the mover's discs less 64."""
    n = popcount(mover)
    f = _flips_near(mover, other, x)
    if f:
        return 2 * (n + popcount(f)) - 62
    f = _flips_near(other, mover, x)
    if f:
        return 2 * (n - popcount(f)) - 64
    return final(mover, other)


@njit(cache=True, nogil=True)
def _flips_near(mover: Any, other: Any, x: Any) -> Any:
    """:func:`flips`, skipped when no ``other`` disc touches ``x`` (then nothing flips)."""
    if _neighbours(x) & other:
        return flips(mover, other, x)
    return ZERO


@njit(cache=True, nogil=True)
def _solve2(mover: Any, other: Any, alpha: int, beta: int, x1: Any, x2: Any,
            counter: Any) -> Any:
    """The score for ``mover`` with the two empty squares ``x1`` and ``x2`` (bits), within
    ``(alpha, beta)`` (fail-soft, exact inside); a pass is a turn of the loop with the
    sides swapped, not a call (no recursion: see :func:`probe`)."""
    sign = 1
    for _ in range(2):
        best = -65
        f = _flips_near(mover, other, x1)
        if f:
            counter[0] += 1
            best = -_last(other ^ f, mover | f | x1, x2)
            if best >= beta:
                return sign * best
        f = _flips_near(mover, other, x2)
        if f:
            counter[0] += 1
            value = -_last(other ^ f, mover | f | x2, x1)
            if value > best:
                best = value
        if best != -65:
            return sign * best
        mover, other, alpha, beta, sign = other, mover, -beta, -alpha, -sign
    return final(mover, other)


@njit(cache=True, nogil=True)
def _solve3(mover: Any, other: Any, alpha: int, beta: int, x1: Any, x2: Any, x3: Any,
            counter: Any) -> Any:
    """:func:`_solve2` with three empty squares, tried in the order given."""
    sign = 1
    for _ in range(2):
        best = -65
        for i in range(3):
            x, y, z = (x1, x2, x3) if i == 0 else (x2, x1, x3) if i == 1 else (x3, x1, x2)
            f = _flips_near(mover, other, x)
            if not f:
                continue
            counter[0] += 1
            value = -_solve2(other ^ f, mover | f | x, -beta, -alpha, y, z, counter)
            if value > best:
                best = value
                if value > alpha:
                    if value >= beta:
                        return sign * best
                    alpha = value
        if best != -65:
            return sign * best
        mover, other, alpha, beta, sign = other, mover, -beta, -alpha, -sign
    return final(mover, other)


@njit(cache=True, nogil=True)
def _solve4(mover: Any, other: Any, alpha: int, beta: int, x1: Any, x2: Any, x3: Any,
            x4: Any, counter: Any) -> Any:
    """:func:`_solve2` with four empty squares, tried in the order given."""
    sign = 1
    for _ in range(2):
        best = -65
        for i in range(4):
            if i == 0:
                x, y, z, w = x1, x2, x3, x4
            elif i == 1:
                x, y, z, w = x2, x1, x3, x4
            elif i == 2:
                x, y, z, w = x3, x1, x2, x4
            else:
                x, y, z, w = x4, x1, x2, x3
            f = _flips_near(mover, other, x)
            if not f:
                continue
            counter[0] += 1
            value = -_solve3(other ^ f, mover | f | x, -beta, -alpha, y, z, w, counter)
            if value > best:
                best = value
                if value > alpha:
                    if value >= beta:
                        return sign * best
                    alpha = value
        if best != -65:
            return sign * best
        mover, other, alpha, beta, sign = other, mover, -beta, -alpha, -sign
    return final(mover, other)


@njit(cache=True, nogil=True)
def _odd_first(empty: Any) -> Any:
    """The squares of ``empty`` in the regions with an odd number of them (parity)."""
    odd = ZERO
    for q in QUADRANTS:
        if popcount(empty & q) & 1:
            odd |= q
    return empty & odd


@njit(cache=True, nogil=True)
def _take(a: Any, b: Any) -> Any:
    """The lowest square of ``a`` (of ``b`` once ``a`` is empty), and both without it."""
    if a:
        x = a & (~a + ONE)
        return x, a ^ x, b
    x = b & (~b + ONE)
    return x, a, b ^ x


@njit(cache=True, nogil=True)
def _solve_few(mover: Any, other: Any, alpha: int, beta: int, n_empty: int,
               counter: Any) -> Any:
    """The exact search with at most four empty squares: the squares listed once, those
    of odd regions first, and searched by :func:`_solve4` .. :func:`_solve2`."""
    empty = ~(mover | other)
    if n_empty == 1:
        return _last(mover, other, empty)
    a = _odd_first(empty)
    b = empty & ~a
    x1, a, b = _take(a, b)
    x2, a, b = _take(a, b)
    if n_empty == 2:
        return _solve2(mover, other, alpha, beta, x1, x2, counter)
    x3, a, b = _take(a, b)
    if n_empty == 3:
        return _solve3(mover, other, alpha, beta, x1, x2, x3, counter)
    x4, a, b = _take(a, b)
    return _solve4(mover, other, alpha, beta, x1, x2, x3, x4, counter)


@njit(cache=True, nogil=True)
def _order(empty: Any) -> Any:
    """The squares of ``empty`` in the order they are tried near the end: those of the
    regions with an odd number of empty squares first, each part by square class.  Packed
    seven bits a square (square + 1) into one integer, the first in the lowest bits."""
    odd = _odd_first(empty)
    packed = ZERO
    shift = ZERO
    for half in range(2):
        region = odd if half == 0 else empty & ~odd
        for c in range(6):
            squares = region & CLASSES[c]
            while squares:
                x = squares & (~squares + ONE)
                squares ^= x
                packed |= U(square_of(x) + 1) << shift
                shift += U(7)
    return packed


@njit(cache=True, nogil=True)
def _solve5(mover: Any, other: Any, alpha: int, beta: int, counter: Any) -> Any:
    """:func:`_solve2` with five empty squares, tried in :func:`_order`, each reply by
    :func:`_solve_few`; first the stability cut-off."""
    sign = 1
    for _ in range(2):
        if alpha >= stability_threshold(5):
            hi = 64 - 2 * popcount(stable(other, mover | other))
            if hi <= alpha:
                return sign * hi
        order = _order(~(mover | other))
        best = -65
        while order:
            x = ONE << ((order & U(127)) - ONE)
            order >>= U(7)
            f = _flips_near(mover, other, x)
            if not f:
                continue
            counter[0] += 1
            value = -_solve_few(other ^ f, mover | f | x, -beta, -alpha, 4, counter)
            if value > best:
                best = value
                if value > alpha:
                    if value >= beta:
                        return sign * best
                    alpha = value
        if best != -65:
            return sign * best
        mover, other, alpha, beta, sign = other, mover, -beta, -alpha, -sign
    return final(mover, other)


@njit(cache=True, nogil=True)
def _solve6(mover: Any, other: Any, alpha: int, beta: int, counter: Any) -> Any:
    """:func:`_solve5` with six empty squares, each reply by :func:`_solve5`."""
    sign = 1
    for _ in range(2):
        if alpha >= stability_threshold(6):
            hi = 64 - 2 * popcount(stable(other, mover | other))
            if hi <= alpha:
                return sign * hi
        order = _order(~(mover | other))
        best = -65
        while order:
            x = ONE << ((order & U(127)) - ONE)
            order >>= U(7)
            f = _flips_near(mover, other, x)
            if not f:
                continue
            counter[0] += 1
            value = -_solve5(other ^ f, mover | f | x, -beta, -alpha, counter)
            if value > best:
                best = value
                if value > alpha:
                    if value >= beta:
                        return sign * best
                    alpha = value
        if best != -65:
            return sign * best
        mover, other, alpha, beta, sign = other, mover, -beta, -alpha, -sign
    return final(mover, other)


@njit(cache=True, nogil=True)
def slot_of(mover: Any, other: Any, mask: Any) -> Any:
    h = mover * U(0x9E3779B97F4A7C15) + other * U(0xC2B2AE3D27D4EB4F)
    h ^= h >> U(29)
    return np.int64(h & mask)


@njit(cache=True, nogil=True)
def _store(
    keys: Any, bounds: Any, slot: int, mover: Any, other: Any, n_empty: int,
    lo: int, hi: int, move: int,
) -> None:
    """Keep ``lo <= score <= hi`` and the best move: slot ``slot`` keeps the deeper of
    two positions, ``slot + 1`` the latest."""
    for i in range(2):
        s = slot + i
        if keys[s, 0] == mover and keys[s, 1] == other:
            bounds[s, 0] = lo
            bounds[s, 1] = hi
            bounds[s, 2] = move
            return
    s = slot if n_empty >= bounds[slot, 3] else slot + 1
    if s == slot:  # the deeper position moves down to the always-replaced slot
        keys[slot + 1, 0] = keys[slot, 0]
        keys[slot + 1, 1] = keys[slot, 1]
        for j in range(4):
            bounds[slot + 1, j] = bounds[slot, j]
    keys[s, 0] = mover
    keys[s, 1] = other
    bounds[s, 0] = lo
    bounds[s, 1] = hi
    bounds[s, 2] = move
    bounds[s, 3] = n_empty


@njit(cache=True, nogil=True)
def _find(keys: Any, slot: int, mover: Any, other: Any) -> Any:
    """The slot holding the position, or -1."""
    if keys[slot, 0] == mover and keys[slot, 1] == other:
        return slot
    if keys[slot + 1, 0] == mover and keys[slot + 1, 1] == other:
        return slot + 1
    return -1


@njit(cache=True, nogil=True)
def evaluate(mover: Any, other: Any) -> Any:
    """A quick estimate for ``mover``, to order moves only: mobility (corners twice), the
    opponent's potential mobility, corners held."""
    mine = legal(mover, other)
    theirs = legal(other, mover)
    empty = ~(mover | other)
    v = 16 * (popcount(mine) + popcount(mine & CORNERS) - popcount(theirs)
              - popcount(theirs & CORNERS))
    v += 4 * (popcount(_neighbours(other) & empty) - popcount(_neighbours(mover) & empty))
    v += 64 * (popcount(mover & CORNERS) - popcount(other & CORNERS))
    return v


@njit(cache=True, nogil=True)
def _reply(mover: Any, other: Any) -> Any:
    """The best :func:`evaluate` of ``mover``'s moves, one move ahead (a pass: now)."""
    moves = legal(mover, other)
    if moves == ZERO:
        return evaluate(mover, other)
    best = -(1 << 15)
    while moves:
        x = moves & (~moves + ONE)
        moves ^= x
        f = flips(mover, other, x)
        v = -evaluate(other ^ f, mover | f | x)
        if v > best:
            best = v
    return best


@njit(cache=True, nogil=True)
def probe(mover: Any, other: Any, depth: int) -> Any:
    """A search of depth 0 to 3 (deeper counts as 3) on :func:`evaluate`, for ``mover``:
    the order of moves far from the end.  Loops, not recursion: Numba's on-disk cache
    cannot load a cached function that calls a second recursive one."""
    if depth <= 0:
        return evaluate(mover, other)
    if depth == 1:
        return _reply(mover, other)
    if depth == 2:
        return _reply2(mover, other)
    moves = legal(mover, other)
    if moves == ZERO:
        return -_reply2(other, mover)
    best = -(1 << 15)
    while moves:
        x = moves & (~moves + ONE)
        moves ^= x
        f = flips(mover, other, x)
        v = -_reply2(other ^ f, mover | f | x)
        if v > best:
            best = v
    return best


@njit(cache=True, nogil=True)
def _reply2(mover: Any, other: Any) -> Any:
    """The best of ``mover``'s moves by :func:`_reply` of each (a pass: the reply now)."""
    moves = legal(mover, other)
    if moves == ZERO:
        return -_reply(other, mover)
    best = -(1 << 15)
    while moves:
        x = moves & (~moves + ONE)
        moves ^= x
        f = flips(mover, other, x)
        v = -_reply(other ^ f, mover | f | x)
        if v > best:
            best = v
    return best


@njit(cache=True, nogil=True)
def _neighbours(bits: Any) -> Any:
    n = ((bits << S1) & NOT_A) | ((bits >> S1) & NOT_H)
    n |= (bits << S8) | (bits >> S8)
    n |= ((bits << S9) & NOT_A) | ((bits >> S9) & NOT_H)
    n |= ((bits << S7) & NOT_H) | ((bits >> S7) & NOT_A)
    return n


@njit(
    "int64(uint64, uint64, int64, int64, int64, uint64[:, ::1], int8[:, ::1], int64[:, ::1], "
    "uint64[:, ::1], int64[:, ::1], int64[::1], uint8[::1])",
    cache=True, nogil=True,
)
def search(
    mover: Any, other: Any, alpha: int, beta: int, n_empty: int,
    keys: Any, bounds: Any, moves_buf: Any, flips_buf: Any, order_buf: Any,
    counter: Any, halt: Any,
) -> Any:
    """The score for ``mover`` within ``(alpha, beta)``: exact inside, a bound outside.

    Fail-soft: a result ``<= alpha`` is an upper bound, ``>= beta`` a lower bound.
    ``counter[0]`` counts nodes; ``halt[0]`` is looked at once ``counter[0]`` reaches
    ``counter[2]`` (then moved on by POLL_EVERY); once it is seen set ``counter[1]``
    becomes 1 and the search returns at once, storing nothing on the way up.
    """
    counter[0] += 1
    if n_empty <= SHALLOW:  # no table, no poll: a few hundred nodes at most
        if n_empty == 6:
            return _solve6(mover, other, alpha, beta, counter)
        if n_empty == 5:
            return _solve5(mover, other, alpha, beta, counter)
        return _solve_few(mover, other, alpha, beta, n_empty, counter)
    if counter[0] >= counter[2]:
        counter[2] = counter[0] + POLL_EVERY
        if halt[0]:
            counter[1] = 1
    if counter[1]:
        return 0
    moves = legal(mover, other)
    if moves == ZERO:
        if legal(other, mover) == ZERO:
            return final(mover, other)
        return -search(other, mover, -beta, -alpha, n_empty, keys, bounds, moves_buf,
                       flips_buf, order_buf, counter, halt)
    if alpha >= stability_threshold(n_empty):
        hi = 64 - 2 * popcount(stable(other, mover | other))
        if hi <= alpha:
            return hi
    mask = U(keys.shape[0] - 2)
    slot = slot_of(mover, other, mask)
    hint = -1
    found = _find(keys, slot, mover, other)
    if found >= 0:
        lo = int(bounds[found, 0])
        hi = int(bounds[found, 1])
        hint = int(bounds[found, 2])
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
    alpha0 = alpha
    # Generate, look up (ETC) and rate the moves.
    row = n_empty
    n = 0
    etc = n_empty > ETC_MIN
    odd = _odd_first(~(mover | other)) if n_empty < PARITY_MAX else ZERO
    rest = moves
    while rest:
        x = rest & (~rest + ONE)
        rest ^= x
        f = flips(mover, other, x)
        child_mover = other ^ f
        child_other = mover | f | x
        if etc:
            c = _find(keys, slot_of(child_mover, child_other, mask), child_mover, child_other)
            if c >= 0 and -int(bounds[c, 1]) >= beta:  # the child's upper bound
                return -int(bounds[c, 1])
        sq = square_of(x)
        if n_empty >= SORT_DEEP:
            rating = probe(child_mover, child_other, (n_empty - SORT_DEEP) // SORT_STEP)
        else:
            replies = legal(child_mover, child_other)
            rating = popcount(replies) + popcount(replies & CORNERS)
            empty = ~(child_mover | child_other)
            potential = popcount(_neighbours(child_other) & empty)
            rating = rating * 64 + potential - 4 * popcount(child_other & CORNERS)
            if x & odd:
                rating -= PARITY_BONUS
        if sq == hint:
            rating = -(1 << 20)
        moves_buf[row, n] = sq
        flips_buf[row, n] = f
        order_buf[row, n] = rating
        n += 1
    best = -65
    best_sq = -1
    for i in range(n):
        # selection sort, one move at a time: most nodes cut on the first
        k = i
        for j in range(i + 1, n):
            if order_buf[row, j] < order_buf[row, k]:
                k = j
        if k != i:
            moves_buf[row, i], moves_buf[row, k] = moves_buf[row, k], moves_buf[row, i]
            flips_buf[row, i], flips_buf[row, k] = flips_buf[row, k], flips_buf[row, i]
            order_buf[row, i], order_buf[row, k] = order_buf[row, k], order_buf[row, i]
        sq = moves_buf[row, i]
        f = flips_buf[row, i]
        x = ONE << U(sq)
        child_mover = other ^ f
        child_other = mover | f | x
        if i == 0:
            value = -search(child_mover, child_other, -beta, -alpha, n_empty - 1, keys,
                            bounds, moves_buf, flips_buf, order_buf, counter, halt)
        else:
            value = -search(child_mover, child_other, -alpha - 1, -alpha, n_empty - 1, keys,
                            bounds, moves_buf, flips_buf, order_buf, counter, halt)
            if alpha < value < beta:  # the null window failed high: search it again
                value = -search(child_mover, child_other, -beta, -value, n_empty - 1, keys,
                                bounds, moves_buf, flips_buf, order_buf, counter, halt)
        if counter[1]:
            return 0
        if value > best:
            best = value
            best_sq = sq
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    found = _find(keys, slot, mover, other)
    lo, hi, move = -64, 64, -1
    if found >= 0:
        lo = int(bounds[found, 0])
        hi = int(bounds[found, 1])
        move = int(bounds[found, 2])
    if best <= alpha0:
        hi = best if best < hi else hi
    elif best >= beta:
        lo = best if best > lo else lo
        move = best_sq
    else:
        lo = best
        hi = best
        move = best_sq
    _store(keys, bounds, slot, mover, other, n_empty, lo, hi, move)
    return best


def new_table(slots: int = SLOTS) -> tuple[Any, Any]:
    """An empty table of ``slots`` slots (a power of two): keys and ``(lo, hi, move,
    empties)`` rows."""
    keys = np.zeros((slots, 2), dtype=np.uint64)
    bounds = np.zeros((slots, 4), dtype=np.int8)
    bounds[:, 0] = -64
    bounds[:, 1] = 64
    bounds[:, 2] = -1
    return keys, bounds


def new_scratch() -> tuple[Any, Any, Any]:
    """Per number of empty squares, a row for the moves of one node."""
    return (np.zeros((61, 40), dtype=np.int64), np.zeros((61, 40), dtype=np.uint64),
            np.zeros((61, 40), dtype=np.int64))
