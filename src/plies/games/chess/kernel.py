# mypy: disable-error-code="call-arg, no-any-return, return-value"
# (Numba's intrinsics and numpy scalars are not typed for mypy.)
"""Chess on 64-bit boards compiled by Numba: moves, perft, the evaluation, alpha-beta.

The compiled path of :mod:`plies.games.chess` (the ``fast`` extra, ``pip install
'plies[fast]'``).  It is imported only when a compiled search or perft is asked for,
never by ``import plies`` nor by ``import plies.games.chess``; the Python path
(python-chess's rules with :mod:`~plies.games.chess.moves` and
:mod:`~plies.games.chess.evaluation`) stays the oracle every function here is tested
against (``tests/games/test_chess_kernel.py``: perft counts and move sets against
python-chess, evaluations against :class:`~plies.games.chess.Evaluator`, searches against
plies' alpha-beta on the :class:`~plies.games.chess.Chess` game).

A position is one row of int64 (:data:`ROW`): the six piece bitboards (pawns .. kings,
both colours, bit 0 = a1, as python-chess numbers squares), the squares of White and of
Black, the side to move (1 White, 0 Black), the castling rights (the rooks' corner
squares, as python-chess keeps them), the en-passant square (-1: none; set after every
double step, as python-chess's ``ep_square``), the halfmove clock and a Zobrist hash of
what :func:`~plies.games.chess.position_key` holds.  A search keeps one row per ply in
a stack (``stack[ply]``) and makes a move by writing the child into the next row:
nothing is allocated per node.

A move is an int: ``from | to << 6 | promotion << 12 | flag << 16`` (promotion a
python-chess piece type, 0 for none; flag :data:`EN_PASSANT`, :data:`CASTLE`,
:data:`DOUBLE` or 0); castling is the king's move (``e1g1``), as python-chess writes it.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
from numba import njit, types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic

from plies.games.chess.evaluation import DIRECTIONS, KING_DELTAS, KNIGHT_DELTAS, ray, steps

# The row of a position.
PAWNS, KNIGHTS, BISHOPS, ROOKS, QUEENS, KINGS = 0, 1, 2, 3, 4, 5
BLACK_SIDE, WHITE_SIDE = 6, 7  # occupancy of a colour c is row[6 + c] (c = 1 White)
TURN, CASTLING, EP, HALFMOVE, HASH = 8, 9, 10, 11, 12
ROW: Final = 16

EN_PASSANT, CASTLE, DOUBLE = 1, 2, 3
MAX_MOVES: Final = 256
"""Room for the moves of one position (the most known in a legal position is 218)."""

WIN: Final = 100_000
EVAL_CAP: Final = 50_000
PHASE_MAX: Final = 24


def _signed(x: int) -> int:
    """A 64-bit pattern as a signed int64 value."""
    x &= 0xFFFFFFFFFFFFFFFF
    return x - (1 << 64) if x >> 63 else x


def _table(values: list[int]) -> np.ndarray[Any, Any]:
    return np.array([_signed(v) for v in values], dtype=np.int64)


# The step and ray sets are the Python evaluation's (bit 0 = a1, python-chess's numbering).
KNIGHT: Final = _table([steps(s, KNIGHT_DELTAS) for s in range(64)])
KING: Final = _table([steps(s, KING_DELTAS) for s in range(64)])
PAWN_ATTACKS: Final = np.stack(
    [_table([steps(s, ((-1, -1), (-1, 1))) for s in range(64)]),  # Black's (colour 0)
     _table([steps(s, ((1, -1), (1, 1))) for s in range(64)])]    # White's (colour 1)
)
RAYS: Final = np.stack([_table([ray(s, dr, df) for s in range(64)]) for dr, df in DIRECTIONS])
"""Per direction of :data:`~plies.games.chess.evaluation.DIRECTIONS` (N, NE, E, NW: the
first blocker is the lowest bit; S, SW, W, SE: the highest) and square."""
FILES: Final = _table([0x0101010101010101 << f for f in range(8)])
NEIGHBOURS: Final = _table(
    [(0x0101010101010101 << (f - 1) if f > 0 else 0)
     | (0x0101010101010101 << (f + 1) if f < 7 else 0) for f in range(8)]
)
LIGHT: Final = _signed(0x55AA55AA55AA55AA)
DARK: Final = _signed(0xAA55AA55AA55AA55)

_rng = np.random.default_rng(20261128)
ZOBRIST: Final = _rng.integers(-(1 << 63), (1 << 63) - 1, size=(2, 6, 64), dtype=np.int64)
Z_CASTLING: Final = _rng.integers(-(1 << 63), (1 << 63) - 1, size=64, dtype=np.int64)
Z_EP: Final = _rng.integers(-(1 << 63), (1 << 63) - 1, size=64, dtype=np.int64)
Z_WHITE: Final = int(_rng.integers(-(1 << 63), (1 << 63) - 1, dtype=np.int64))

CORNER_A1, CORNER_H1, CORNER_A8, CORNER_H8 = 1, 1 << 7, 1 << 56, _signed(1 << 63)
RANK_1: Final = 0xFF
RANK_8: Final = _signed(0xFF << 56)
RANK_3: Final = 0xFF << 16
RANK_6: Final = 0xFF << 40

_jit = njit(cache=True, nogil=True, inline="never")
# Recursive functions are not cached: loaded from Numba's cache, a recursive function
# crashes (numba 0.68; numba/numba#6061), so they are compiled in each process, their
# callees loaded from the cache.  The engine's two are compiled when this module is
# imported (for the one signature a search uses: a search's clock starts after it),
# perft and the plain search on first use (tests and benchmarks).
_jit_recursive = njit(cache=False, nogil=True)
_A1, _A2, _A3 = types.int64[::1], types.int64[:, ::1], types.int64[:, :, ::1]
_I, _B = types.int64, types.boolean
_EVAL = (_A3, _A3, _A1, _A2)  # mg, eg, w, span
_QUIESCE = _I(_A2, _A2, _A2, *_EVAL, _A1, _A1, _I, _I, _I)
_ENGINE = _I(
    _A2, _A2, _A2, _A1, _I, _A1, _A2, _A2, _A2, _A2, _A1, *_EVAL, _A1, _A1, _I, _I, _I, _I, _B
)


# --- bits --------------------------------------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def lsb(bb: int) -> int:
    """The lowest set square of a non-empty bitboard."""
    return trailing_zeros(bb)


@njit(cache=True, nogil=True, inline="always")
def msb(bb: int) -> int:
    """The highest set square of a non-empty bitboard."""
    return 63 - leading_zeros(bb)


@intrinsic
def _ctpop(typingctx: Any, x: Any) -> Any:
    """LLVM's population count (one instruction where the machine has it)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return x(x), codegen


@njit(cache=True, nogil=True, inline="always")
def popcount(x: int) -> int:
    """The number of set squares.  (A multiply-based count was miscompiled: a signed
    overflow, which LLVM may assume never happens.)"""
    return _ctpop(x)


@njit(cache=True, nogil=True, inline="always")
def bit(square: int) -> int:
    return np.int64(1) << square


# --- attacks -----------------------------------------------------------------------------------


@_jit
def rook_attacks(square: int, occupied: int) -> int:
    """The squares a rook on ``square`` attacks (classical rays: up to the first blocker)."""
    attacks = 0
    for d in (0, 2):  # N, E: the first blocker is the lowest bit
        ray = RAYS[d, square]
        blockers = ray & occupied
        if blockers:
            ray ^= RAYS[d, lsb(blockers)]
        attacks |= ray
    for d in (4, 6):  # S, W: the highest bit
        ray = RAYS[d, square]
        blockers = ray & occupied
        if blockers:
            ray ^= RAYS[d, msb(blockers)]
        attacks |= ray
    return attacks


@_jit
def bishop_attacks(square: int, occupied: int) -> int:
    """The squares a bishop on ``square`` attacks."""
    attacks = 0
    for d in (1, 3):  # NE, NW
        ray = RAYS[d, square]
        blockers = ray & occupied
        if blockers:
            ray ^= RAYS[d, lsb(blockers)]
        attacks |= ray
    for d in (5, 7):  # SW, SE
        ray = RAYS[d, square]
        blockers = ray & occupied
        if blockers:
            ray ^= RAYS[d, msb(blockers)]
        attacks |= ray
    return attacks


@_jit
def attacked(row: Any, square: int, by: int) -> bool:
    """Whether colour ``by`` (1 White, 0 Black) attacks ``square``."""
    their = row[BLACK_SIDE + by]
    if PAWN_ATTACKS[1 - by, square] & row[PAWNS] & their:
        return True
    if KNIGHT[square] & row[KNIGHTS] & their:
        return True
    if KING[square] & row[KINGS] & their:
        return True
    occupied = row[BLACK_SIDE] | row[WHITE_SIDE]
    queens = row[QUEENS]
    if bishop_attacks(square, occupied) & (row[BISHOPS] | queens) & their:
        return True
    return bool(rook_attacks(square, occupied) & (row[ROOKS] | queens) & their)


@_jit
def in_check(row: Any) -> bool:
    """Whether the side to move is in check."""
    us = row[TURN]
    king = row[KINGS] & row[BLACK_SIDE + us]
    return attacked(row, lsb(king), 1 - us)


# --- positions ---------------------------------------------------------------------------------


@_jit
def piece_at(row: Any, square: int) -> int:
    """The piece type on ``square`` (1 pawn .. 6 king), 0 when empty."""
    b = bit(square)
    for p in range(6):
        if row[p] & b:
            return p + 1
    return 0


@_jit
def zobrist(row: Any) -> int:
    """The hash of the position (pieces, side to move, castling rights, en passant)."""
    h = 0
    for c in range(2):
        side = row[BLACK_SIDE + c]
        for p in range(6):
            bb = row[p] & side
            while bb:
                h ^= ZOBRIST[c, p, lsb(bb)]
                bb &= bb - 1
    rights = row[CASTLING]
    while rights:
        h ^= Z_CASTLING[lsb(rights)]
        rights &= rights - 1
    if row[EP] >= 0:
        h ^= Z_EP[row[EP]]
    if row[TURN]:
        h ^= Z_WHITE
    return h


@_jit
def make(stack: Any, ply: int, move: int) -> None:
    """Write into ``stack[ply + 1]`` the position ``stack[ply]`` after ``move`` (pseudo-legal:
    the mover's king may be left in check, see :func:`legal_after`)."""
    src = stack[ply]
    row = stack[ply + 1]
    for i in range(ROW):
        row[i] = src[i]
    us = src[TURN]
    frm = move & 63
    to = (move >> 6) & 63
    promotion = (move >> 12) & 7
    flag = move >> 16
    fb, tb = bit(frm), bit(to)
    mover = piece_at(src, frm) - 1
    h = src[HASH]
    them = 1 - us
    if flag == EN_PASSANT:
        cap = to - 8 if us else to + 8
        cb = bit(cap)
        row[PAWNS] ^= cb
        row[BLACK_SIDE + them] ^= cb
        h ^= ZOBRIST[them, PAWNS, cap]
        row[HALFMOVE] = 0
    elif row[BLACK_SIDE + them] & tb:
        victim = piece_at(src, to) - 1
        row[victim] ^= tb
        row[BLACK_SIDE + them] ^= tb
        h ^= ZOBRIST[them, victim, to]
        row[HALFMOVE] = 0
    elif mover == PAWNS:
        row[HALFMOVE] = 0
    else:
        row[HALFMOVE] = src[HALFMOVE] + 1
    row[mover] ^= fb
    row[BLACK_SIDE + us] ^= fb | tb
    h ^= ZOBRIST[us, mover, frm]
    if promotion:
        row[promotion - 1] |= tb
        h ^= ZOBRIST[us, promotion - 1, to]
    else:
        row[mover] |= tb
        h ^= ZOBRIST[us, mover, to]
    if flag == CASTLE:
        if to == 6:
            rf, rt = 7, 5
        elif to == 2:
            rf, rt = 0, 3
        elif to == 62:
            rf, rt = 63, 61
        else:
            rf, rt = 56, 59
        rb = bit(rf) | bit(rt)
        row[ROOKS] ^= rb
        row[BLACK_SIDE + us] ^= rb
        h ^= ZOBRIST[us, ROOKS, rf] ^ ZOBRIST[us, ROOKS, rt]
    rights = src[CASTLING]
    new_rights = rights & ~(fb | tb)
    if mover == KINGS:
        new_rights &= ~(RANK_1 if us else RANK_8)
    if new_rights != rights:
        gone = rights ^ new_rights
        while gone:
            h ^= Z_CASTLING[lsb(gone)]
            gone &= gone - 1
        row[CASTLING] = new_rights
    if src[EP] >= 0:
        h ^= Z_EP[src[EP]]
    if flag == DOUBLE:
        ep = frm + 8 if us else frm - 8
        row[EP] = ep
        h ^= Z_EP[ep]
    else:
        row[EP] = -1
    row[TURN] = them
    row[HASH] = h ^ Z_WHITE


@_jit
def legal_after(row: Any) -> bool:
    """Whether the position ``row``, just made by a move, left the mover's king safe."""
    mover = 1 - row[TURN]
    king = row[KINGS] & row[BLACK_SIDE + mover]
    return not attacked(row, lsb(king), row[TURN])


# --- move generation ---------------------------------------------------------------------------


@_jit
def _add_pawn_moves(moves: Any, n: int, frm: int, to: int, flag: int) -> int:
    if to >= 56 or to < 8:  # promotion: queen first
        for p in (5, 4, 3, 2):
            moves[n] = frm | to << 6 | p << 12
            n += 1
        return n
    moves[n] = frm | to << 6 | flag << 16
    return n + 1


@_jit
def pseudo_moves(row: Any, moves: Any, noisy_only: bool) -> int:
    """Write the pseudo-legal moves of ``row`` into ``moves``; return how many.

    With ``noisy_only``: only captures (en passant included) and promotions.
    """
    us = row[TURN]
    them = 1 - us
    own = row[BLACK_SIDE + us]
    enemy = row[BLACK_SIDE + them]
    occupied = own | enemy
    targets = enemy if noisy_only else ~own
    n = 0
    # Pieces.
    for p in (KNIGHTS, BISHOPS, ROOKS, QUEENS, KINGS):
        bb = row[p] & own
        while bb:
            frm = lsb(bb)
            bb &= bb - 1
            if p == KNIGHTS:
                att = KNIGHT[frm]
            elif p == BISHOPS:
                att = bishop_attacks(frm, occupied)
            elif p == ROOKS:
                att = rook_attacks(frm, occupied)
            elif p == QUEENS:
                att = bishop_attacks(frm, occupied) | rook_attacks(frm, occupied)
            else:
                att = KING[frm]
            att &= targets
            while att:
                to = lsb(att)
                att &= att - 1
                moves[n] = frm | to << 6
                n += 1
    # Pawns.
    pawns = row[PAWNS] & own
    bb = pawns
    while bb:
        frm = lsb(bb)
        bb &= bb - 1
        att = PAWN_ATTACKS[us, frm] & enemy
        while att:
            to = lsb(att)
            att &= att - 1
            n = _add_pawn_moves(moves, n, frm, to, 0)
        step = frm + 8 if us else frm - 8
        if not occupied & bit(step):
            last = step >= 56 or step < 8
            if last or not noisy_only:
                n = _add_pawn_moves(moves, n, frm, step, 0)
            if not noisy_only:
                start = (frm >> 3) == (1 if us else 6)
                if start:
                    two = step + 8 if us else step - 8
                    if not occupied & bit(two):
                        moves[n] = frm | two << 6 | DOUBLE << 16
                        n += 1
    ep = row[EP]
    if ep >= 0:
        att = PAWN_ATTACKS[them, ep] & pawns
        while att:
            frm = lsb(att)
            att &= att - 1
            moves[n] = frm | ep << 6 | EN_PASSANT << 16
            n += 1
    if noisy_only:
        return n
    # Castling (standard chess: king on e1/e8, the rook on its corner, rights kept).
    rights = row[CASTLING]
    if rights:
        king = row[KINGS] & own
        home = 4 if us else 60
        rooks = row[ROOKS] & own
        if king == bit(home) and not attacked(row, home, them):
            short = bit(home + 3)
            if (
                rights & short and rooks & short
                and not occupied & (bit(home + 1) | bit(home + 2))
                and not attacked(row, home + 1, them) and not attacked(row, home + 2, them)
            ):
                moves[n] = home | (home + 2) << 6 | CASTLE << 16
                n += 1
            long = bit(home - 4)
            if (
                rights & long and rooks & long
                and not occupied & (bit(home - 1) | bit(home - 2) | bit(home - 3))
                and not attacked(row, home - 1, them) and not attacked(row, home - 2, them)
            ):
                moves[n] = home | (home - 2) << 6 | CASTLE << 16
                n += 1
    return n


@_jit
def legal_moves(stack: Any, ply: int, moves: Any) -> int:
    """Write the legal moves of ``stack[ply]`` into ``moves`` (uses ``stack[ply + 1]``)."""
    n = pseudo_moves(stack[ply], moves, False)
    k = 0
    for i in range(n):
        make(stack, ply, moves[i])
        if legal_after(stack[ply + 1]):
            moves[k] = moves[i]
            k += 1
    return k


@_jit
def has_legal_move(stack: Any, ply: int, moves: Any) -> bool:
    n = pseudo_moves(stack[ply], moves, False)
    for i in range(n):
        make(stack, ply, moves[i])
        if legal_after(stack[ply + 1]):
            return True
    return False


@_jit_recursive
def perft(stack: Any, ply: int, depth: int, moves: Any) -> int:
    """The number of leaves of the legal-move tree of ``stack[ply]`` to ``depth``."""
    buffer = moves[ply]
    n = legal_moves(stack, ply, buffer)
    if depth == 1:
        return n
    total = 0
    for i in range(n):
        make(stack, ply, buffer[i])
        total += perft(stack, ply + 1, depth - 1, moves)
    return total


@_jit
def insufficient_material(row: Any) -> bool:
    """python-chess's ``is_insufficient_material``: neither side can ever mate."""
    if row[PAWNS] | row[ROOKS] | row[QUEENS]:
        return False
    for c in range(2):
        own = row[BLACK_SIDE + c]
        other = row[BLACK_SIDE + 1 - c]
        if own & row[KNIGHTS]:
            if popcount(own) > 2 or other & ~row[KINGS] & ~row[QUEENS]:
                return False
        elif own & row[BISHOPS]:
            bishops = row[BISHOPS]
            same = not bishops & DARK or not bishops & LIGHT
            if not same or row[KNIGHTS]:
                return False
    return True


# --- the evaluation ----------------------------------------------------------------------------


@_jit
def _pawn_terms(own: int, enemy: int, white: int, w: Any, span: Any) -> tuple[int, int]:
    mg = 0
    eg = 0
    for f in range(8):
        count = popcount(own & FILES[f])
        if count:
            if count > 1:
                mg += w[0] * (count - 1)
                eg += w[1] * (count - 1)
            if not own & NEIGHBOURS[f]:
                mg += w[2] * count
                eg += w[3] * count
    bb = own
    while bb:
        sq = lsb(bb)
        bb &= bb - 1
        if not span[white, sq] & enemy:
            rank = sq >> 3 if white else 7 - (sq >> 3)
            mg += w[12 + rank]
            eg += w[20 + rank]
    return mg, eg


@_jit
def _activity(row: Any, w: Any) -> tuple[int, int]:
    """(mg, eg) for White of mobility and king safety: :func:`evaluation.activity
    <plies.games.chess.evaluation.activity>` (the weights at ``w[40:]``, see :func:`tables`)."""
    white, black = row[WHITE_SIDE], row[BLACK_SIDE]
    occupied = white | black
    kings = row[KINGS]
    mg = 0
    eg = 0
    for color in range(2):
        own = white if color else black
        enemy = black if color else white
        sign = 1 if color else -1
        zone = KING[lsb(kings & enemy)]
        attackers = 0
        units = 0
        enemy_pawns = row[PAWNS] & enemy
        if color:  # squares attacked by Black's pawns (never on the last rank: >> is safe)
            guarded = (enemy_pawns >> 7) & ~FILES[0] | (enemy_pawns >> 9) & ~FILES[7]
        else:
            guarded = (enemy_pawns << 7) & ~FILES[7] | (enemy_pawns << 9) & ~FILES[0]
        free = ~own & ~guarded
        for p in range(4 if w[76] else 0):
            bb = row[KNIGHTS + p] & own
            while bb:
                sq = lsb(bb)
                bb &= bb - 1
                if p == 0:
                    att = KNIGHT[sq]
                elif p == 1:
                    att = bishop_attacks(sq, occupied)
                elif p == 2:
                    att = rook_attacks(sq, occupied)
                else:
                    att = bishop_attacks(sq, occupied) | rook_attacks(sq, occupied)
                n = popcount(att & free) - w[48 + p]
                mg += sign * w[40 + p] * n
                eg += sign * w[44 + p] * n
                if att & zone:
                    attackers += 1
                    units += w[52 + p]
        if attackers and row[QUEENS] & own:
            cap = w[66]
            factor = units * w[58 + (attackers if attackers < cap else cap)]
            mg += sign * ((factor * w[56]) // 256)
            eg += sign * ((factor * w[57]) // 256)
        sq = lsb(kings & own)
        file = sq & 7
        if w[77] and (file <= 2 or file >= 5):
            own_pawns = row[PAWNS] & own
            rank = sq >> 3
            if color:
                front = ~((np.int64(1) << (8 * (rank + 1))) - 1) if rank < 7 else 0
            else:
                front = (np.int64(1) << (8 * rank)) - 1
            shelter = 0
            for i in range(4):
                f = file - 1 + (i + 1) // 2  # file - 1, file, file, file + 1
                if 0 <= f < 8:
                    ahead = own_pawns & FILES[f] & front
                    if not ahead:
                        shelter += w[68]
                    elif color:
                        shelter += w[68 + (lsb(ahead) >> 3)]
                    else:
                        shelter += w[68 + 7 - (msb(ahead) >> 3)]
            mg += sign * shelter
    return mg, eg


@_jit
def evaluate(row: Any, mg_table: Any, eg_table: Any, w: Any, span: Any) -> int:
    """Centipawns for White: what :meth:`Evaluator.score` gives for this position.

    ``mg_table[colour, piece, square]`` / ``eg_table`` are the evaluator's folded tables
    (negated for Black), ``w`` the other weights (laid out by :func:`tables`), ``span``
    the passed-pawn spans per colour and square.
    """
    white, black = row[WHITE_SIDE], row[BLACK_SIDE]
    mg = 0
    eg = 0
    for c in range(2):
        side = row[BLACK_SIDE + c]
        for p in range(6):
            bb = row[p] & side
            while bb:
                sq = lsb(bb)
                bb &= bb - 1
                mg += mg_table[c, p, sq]
                eg += eg_table[c, p, sq]
    pawns = row[PAWNS]
    wp, bp = pawns & white, pawns & black
    wmg, weg = _pawn_terms(wp, bp, 1, w, span)
    bmg, beg = _pawn_terms(bp, wp, 0, w, span)
    mg += wmg - bmg
    eg += weg - beg
    bishops, rooks = row[BISHOPS], row[ROOKS]
    if popcount(bishops & white) >= 2:
        mg += w[4]
        eg += w[5]
    if popcount(bishops & black) >= 2:
        mg -= w[4]
        eg -= w[5]
    if rooks:
        open_files = 0
        white_half = 0
        black_half = 0
        for f in range(8):
            file = FILES[f]
            if not file & wp:
                if file & bp:
                    white_half |= file
                else:
                    open_files |= file
            elif not file & bp:
                black_half |= file
        wr, br = rooks & white, rooks & black
        n_open = popcount(wr & open_files) - popcount(br & open_files)
        n_half = popcount(wr & white_half) - popcount(br & black_half)
        mg += w[6] * n_open + w[8] * n_half
        eg += w[7] * n_open + w[9] * n_half
    if w[76] or w[77]:
        active_mg, active_eg = _activity(row, w)
        mg += active_mg
        eg += active_eg
    phase = (
        w[28] * popcount(pawns) + w[29] * popcount(row[KNIGHTS]) + w[30] * popcount(bishops)
        + w[31] * popcount(rooks) + w[32] * popcount(row[QUEENS])
    )
    if phase > PHASE_MAX:
        phase = PHASE_MAX
    total = mg * phase + eg * (PHASE_MAX - phase)
    if total >= 0:
        return total // PHASE_MAX
    return -((-total) // PHASE_MAX)


# --- from and to python-chess --------------------------------------------------------------


def row_of(board: Any) -> np.ndarray[Any, Any]:
    """The row of a python-chess board (standard chess)."""
    row = np.zeros(ROW, dtype=np.int64)
    for i, bb in enumerate(
        (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
         board.occupied_co[0], board.occupied_co[1])
    ):
        row[i] = _signed(bb)
    row[TURN] = int(board.turn)
    row[CASTLING] = _signed(board.castling_rights)
    row[EP] = -1 if board.ep_square is None else board.ep_square
    row[HALFMOVE] = board.halfmove_clock
    row[HASH] = zobrist(row)
    return row


def row_of_key(key: int) -> np.ndarray[Any, Any]:
    """The row of a position key (:func:`~plies.games.chess.position_key`; no clock)."""
    mask = (1 << 64) - 1
    row = np.zeros(ROW, dtype=np.int64)
    boards = [key >> (64 * i) & mask for i in range(7)]
    occupied = 0
    for i in range(6):
        row[i] = _signed(boards[i])
        occupied |= boards[i]
    row[WHITE_SIDE] = _signed(boards[6])
    row[BLACK_SIDE] = _signed(occupied & ~boards[6])
    row[CASTLING] = _signed(key >> 448 & mask)
    ep = key >> 512 & 0xFF
    row[EP] = ep - 1
    row[TURN] = key >> 520 & 1
    row[HASH] = zobrist(row)
    return row


def encode(board: Any, move: Any) -> int:
    """The kernel's int for a legal python-chess ``move`` on ``board``."""
    frm, to = move.from_square, move.to_square
    flag = 0
    if board.pawns >> frm & 1:
        if abs(to - frm) == 16:
            flag = DOUBLE
        elif to == board.ep_square and (to - frm) % 8 != 0:
            flag = EN_PASSANT
    elif board.kings >> frm & 1 and abs(to - frm) == 2:
        flag = CASTLE
    return int(frm | to << 6 | (move.promotion or 0) << 12 | flag << 16)


def decode(move: int, chess: Any) -> Any:
    """The python-chess ``Move`` of a kernel move."""
    promotion = (move >> 12) & 7
    return chess.Move(move & 63, (move >> 6) & 63, promotion or None)


def tables(evaluator: Any) -> tuple[Any, Any, Any, Any]:
    """``(mg_table, eg_table, w, span)`` of :func:`evaluate` for an
    :class:`~plies.games.chess.Evaluator`: its folded tables and weights as arrays.

    ``w``: doubled, isolated, bishop pair, rook open, rook half open ((mg, eg) at 0-9),
    passed mg and eg (12-19, 20-27), phase (28-32), mobility mg, eg and centre (40-43,
    44-47, 48-51), king attack units (52-55), king attack (56-57), its scale (58-65, the
    last index used at 66), shelter (68-75), and whether the attack terms (76) and the
    shelter (77) have a weight that is not zero."""
    from plies.games.chess.evaluation import _PASSED_SPAN

    mg = np.array([[evaluator.mg[c][p] for p in range(1, 7)] for c in (0, 1)], dtype=np.int64)
    eg = np.array([[evaluator.eg[c][p] for p in range(1, 7)] for c in (0, 1)], dtype=np.int64)
    weights = evaluator.weights
    w = np.zeros(80, dtype=np.int64)
    w[0:2] = weights.doubled
    w[2:4] = weights.isolated
    w[4:6] = weights.bishop_pair
    w[6:8] = weights.rook_open
    w[8:10] = weights.rook_half_open
    w[12:20] = weights.passed_mg
    w[20:28] = weights.passed_eg
    w[28:33] = weights.phase[:5]
    w[40:44] = weights.mobility_mg
    w[44:48] = weights.mobility_eg
    w[48:52] = weights.mobility_centre
    w[52:56] = weights.king_attack_unit
    w[56:58] = weights.king_attack
    scale = weights.king_attack_scale
    w[58:58 + len(scale)] = scale
    w[66] = len(scale) - 1
    w[68:76] = weights.shelter
    w[76] = evaluator.attacks
    w[77] = evaluator.shelters
    span = np.array([[_signed(x) for x in _PASSED_SPAN[c]] for c in (0, 1)], dtype=np.int64)
    return mg, eg, w, span


# --- search ------------------------------------------------------------------------------------
#
# ``ctx`` holds a search's counters and settings: the nodes, 1 once stopping, the deepest
# ply reached, the node budget (0: none), the ply at which the game's ``max_plies`` ends
# it (a draw), and the switches (:data:`TT`, ...; 0 is plain alpha-beta; :data:`REPETITION`
# scores a repetition of the search's path as a draw).  ``halt[0]`` is
# set by another thread to stop (read every :data:`POLL_EVERY` nodes).  ``hist`` holds
# the hashes of the positions before the root since the last capture or pawn move, then
# one per ply (``hist[base + ply]``); ``hist_len[ply]`` says how many of the entries
# before a node's belong to its history (the repetition test's window).

NODES, STOPPED, SELDEPTH, NODE_LIMIT, PLY_LIMIT, SWITCHES = 0, 1, 2, 3, 4, 5
CTX: Final = 8
TT, QUIESCENCE, NULL_MOVE, EXTENSIONS, REDUCTIONS, PRUNING, REPETITION = 1, 2, 4, 8, 16, 32, 64
ENGINE: Final = TT | QUIESCENCE | NULL_MOVE | EXTENSIONS | REDUCTIONS | PRUNING | REPETITION
MAX_PLY: Final = 96
POLL_EVERY: Final = 1024
INFINITY: Final = 1_000_000
MATE_BAND: Final = WIN - 1000
"""Scores beyond this are mates: ``WIN - plies to the mate``."""
EXACT, LOWER, UPPER = 0, 1, 2
ORDER: Final = np.array([0, 1, 3, 3, 5, 9, 20], dtype=np.int64)
RFP_DEPTH: Final = 5
RFP_MARGIN: Final = 90
"""Reverse futility: at depth <= :data:`RFP_DEPTH` a node whose evaluation beats beta by
``RFP_MARGIN * depth`` centipawns is cut."""
FUTILITY: Final = np.array([0, 150, 300, 450], dtype=np.int64)
"""Futility margins at depth 1..3: quiet moves are skipped when the evaluation plus the
margin does not reach alpha."""
SEE_VALUE: Final = np.array([0, 100, 320, 330, 500, 900, 20_000], dtype=np.int64)
"""The piece values of the static exchange evaluation (by piece type, 0 none)."""
DELTA_MARGIN: Final = 200
"""Quiescence's delta pruning: a capture is skipped when the stand-pat score plus its
victim's value plus this margin cannot reach alpha."""
LMR: Final = np.array(
    [[0] + [int(0.5 + np.log(d) * np.log(m) / 3.0) if d else 0 for m in range(1, 64)]
     for d in range(64)], dtype=np.int64)
"""Late-move reductions by depth and move number (before the history's and the PV's
corrections; at least one ply): ``0.5 + ln d ln m / 3``."""
HISTORY_MAX: Final = 16384
"""The bound of a quiet move's history score (beneath the keys of captures and killers,
``1 << 29``)."""
SKIPPED: Final = -(1 << 40)
"""The ordering key left on a move not searched (illegal or pruned)."""
LMP: Final = np.array([0, 5, 8, 13], dtype=np.int64)
"""Late-move pruning at depth 1..3: quiet moves after this many are skipped."""


@_jit
def score_for_mover(row: Any, mg: Any, eg: Any, w: Any, span: Any) -> int:
    """The evaluation for the side to move, capped at :data:`EVAL_CAP`."""
    cp = evaluate(row, mg, eg, w, span)
    if cp > EVAL_CAP:
        cp = EVAL_CAP
    elif cp < -EVAL_CAP:
        cp = -EVAL_CAP
    return cp if row[TURN] else -cp


@_jit
def drawn_by_rule(
    stack: Any, ply: int, hist: Any, base: int, hist_len: Any, ctx: Any, twofold: bool
) -> bool:
    """The fifty-move rule, ``max_plies``, threefold repetition, insufficient material
    (what :meth:`Chess.is_terminal` tests after "is there a legal move").  With
    ``twofold`` a position that repeats one of the search's path (from the root on) is
    drawn too: the side that could avoid the repetition there can avoid it now."""
    row = stack[ply]
    if row[HALFMOVE] >= 100 or ply >= ctx[PLY_LIMIT]:
        return True
    n = hist_len[ply]
    if n >= 4:  # the same side to move, every second entry back
        h = row[HASH]
        here = base + ply
        count = 1
        for i in range(here - 4, here - n - 1, -2):
            if hist[i] == h:
                count += 1
                if twofold and i >= base:
                    return True
        if count >= 3:
            return True
    return insufficient_material(row)


@_jit
def _enter(stack: Any, ply: int, hist: Any, base: int, hist_len: Any) -> None:
    """Book the child ``stack[ply + 1]`` just made: its hash and history window."""
    child = stack[ply + 1]
    hist[base + ply + 1] = child[HASH]
    hist_len[ply + 1] = 0 if child[HALFMOVE] == 0 else hist_len[ply] + 1


@_jit
def _poll(ctx: Any, halt: Any) -> bool:
    ctx[NODES] += 1
    if (ctx[NODES] & (POLL_EVERY - 1)) == 0 and (
        halt[0] or (ctx[NODE_LIMIT] and ctx[NODES] >= ctx[NODE_LIMIT])
    ):
        ctx[STOPPED] = 1
    return ctx[STOPPED] != 0


@_jit_recursive
def plain(
    stack: Any, moves: Any, hist: Any, base: int, hist_len: Any,
    mg: Any, eg: Any, w: Any, span: Any, ctx: Any, halt: Any,
    ply: int, depth: int, alpha: int, beta: int,
) -> int:
    """Plain alpha-beta (negamax, fail-soft) of ``stack[ply]`` to ``depth`` for the side
    to move: every legal move in generation order, the evaluation at the depth limit,
    the rules' terminal values (mate ``-WIN``, draws 0).  Within ``(alpha, beta)`` the
    value is exact; at or below ``alpha`` an upper bound, at or above ``beta`` a lower one."""
    if _poll(ctx, halt):
        return 0
    if ply > ctx[SELDEPTH]:
        ctx[SELDEPTH] = ply
    row = stack[ply]
    buffer = moves[ply]
    n = legal_moves(stack, ply, buffer)
    if n == 0:
        return -WIN if in_check(row) else 0
    if drawn_by_rule(stack, ply, hist, base, hist_len, ctx, False):
        return 0
    if depth <= 0:
        return score_for_mover(row, mg, eg, w, span)
    best = -INFINITY
    for i in range(n):
        make(stack, ply, buffer[i])
        _enter(stack, ply, hist, base, hist_len)
        v = -plain(stack, moves, hist, base, hist_len, mg, eg, w, span, ctx, halt,
                   ply + 1, depth - 1, -beta, -alpha)
        if ctx[STOPPED]:
            return 0
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


@_jit
def attackers_to(row: Any, square: int, occupied: int) -> int:
    """The pieces of both colours that attack ``square`` on the board ``occupied``."""
    diagonal = row[BISHOPS] | row[QUEENS]
    straight = row[ROOKS] | row[QUEENS]
    return (
        (PAWN_ATTACKS[0, square] & row[PAWNS] & row[WHITE_SIDE])
        | (PAWN_ATTACKS[1, square] & row[PAWNS] & row[BLACK_SIDE])
        | (KNIGHT[square] & row[KNIGHTS]) | (KING[square] & row[KINGS])
        | (bishop_attacks(square, occupied) & diagonal)
        | (rook_attacks(square, occupied) & straight)
    ) & occupied


@_jit
def see_ge(row: Any, move: int, threshold: int) -> bool:
    """Whether the static exchange on the move's target square wins at least
    ``threshold`` centipawns for the mover (:data:`SEE_VALUE`; each side takes back with
    its least valuable attacker or stops; x-rays through the pieces taken count, pins do
    not).  En passant, castling and promotions count as winning 0."""
    if move >> 16 == EN_PASSANT or move >> 16 == CASTLE or (move >> 12) & 7:
        return threshold <= 0
    frm = move & 63
    to = (move >> 6) & 63
    swap = SEE_VALUE[piece_at(row, to)] - threshold
    if swap < 0:
        return False
    swap = SEE_VALUE[piece_at(row, frm)] - swap
    if swap <= 0:
        return True
    occupied = (row[BLACK_SIDE] | row[WHITE_SIDE]) ^ bit(frm) ^ bit(to)
    attackers = attackers_to(row, to, occupied)
    diagonal = row[BISHOPS] | row[QUEENS]
    straight = row[ROOKS] | row[QUEENS]
    side = row[TURN]
    result = 1
    while True:
        side = 1 - side
        attackers &= occupied
        mine = attackers & row[BLACK_SIDE + side]
        if not mine:
            break
        result ^= 1
        piece = PAWNS  # the least valuable attacker
        while piece < KINGS and not mine & row[piece]:
            piece += 1
        if piece == KINGS:  # the king takes only if nothing takes it back
            if attackers & ~row[BLACK_SIDE + side] & occupied:
                return result == 0
            return result == 1
        swap = SEE_VALUE[piece + 1] - swap
        if swap < result:
            break
        occupied ^= bit(lsb(mine & row[piece]))
        if piece in (PAWNS, BISHOPS, QUEENS):  # x-rays behind it
            attackers |= bishop_attacks(to, occupied) & diagonal
        if piece in (ROOKS, QUEENS):
            attackers |= rook_attacks(to, occupied) & straight
    return result == 1


@_jit
def _victim(row: Any, move: int) -> int:
    to = (move >> 6) & 63
    if (move >> 16) == EN_PASSANT:
        return 1
    return piece_at(row, to)


@njit(_QUIESCE, cache=False, nogil=True)
def quiesce(
    stack: Any, moves: Any, scores: Any, mg: Any, eg: Any, w: Any, span: Any,
    ctx: Any, halt: Any, ply: int, alpha: int, beta: int,
) -> int:
    """The quiescence search: stand pat on the evaluation, then captures that do not
    lose material in the static exchange (:func:`see_ge`) and could raise alpha (delta
    pruning, :data:`DELTA_MARGIN`) and queen promotions, best victim first (out of
    check); every evasion in check."""
    if _poll(ctx, halt):
        return 0
    if ply > ctx[SELDEPTH]:
        ctx[SELDEPTH] = ply
    row = stack[ply]
    if ply >= MAX_PLY - 1:
        return score_for_mover(row, mg, eg, w, span)
    buffer = moves[ply]
    keys = scores[ply]
    check = in_check(row)
    if check:
        n = legal_moves(stack, ply, buffer)
        if n == 0:
            return -(WIN - ply)
        best = -INFINITY
    else:
        best = score_for_mover(row, mg, eg, w, span)
        if best >= beta:
            return best
        if best > alpha:
            alpha = best
        n = pseudo_moves(row, buffer, True)
    k = 0
    for i in range(n):
        move = buffer[i]
        promotion = (move >> 12) & 7
        if promotion and promotion != 5:
            continue
        victim = _victim(row, move)
        if not check and not promotion and best + SEE_VALUE[victim] + DELTA_MARGIN <= alpha:
            continue  # delta pruning: even winning the victim cannot raise alpha
        attacker = piece_at(row, move & 63)
        if not check and SEE_VALUE[victim] < SEE_VALUE[attacker] and not see_ge(row, move, 0):
            continue  # a capture that loses material in the exchange
        buffer[k] = move
        keys[k] = promotion * 100 + ORDER[victim] * 8 - ORDER[attacker]
        k += 1
    for i in range(k):
        top = i
        for j in range(i + 1, k):
            if keys[j] > keys[top]:
                top = j
        move = buffer[top]
        buffer[top] = buffer[i]
        keys[top] = keys[i]
        buffer[i] = move
        make(stack, ply, move)
        if not check and not legal_after(stack[ply + 1]):
            continue
        v = -quiesce(stack, moves, scores, mg, eg, w, span, ctx, halt, ply + 1, -beta, -alpha)
        if ctx[STOPPED]:
            return 0
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


@_jit
def _reward(history: Any, side: int, move: int, bonus: int) -> None:
    """Move ``move``'s history score by ``bonus`` towards :data:`HISTORY_MAX` (or its
    negative): the gravity formula keeps scores within it and lets new results outweigh
    old ones."""
    h = history[side, move & 4095]
    history[side, move & 4095] = h + bonus - h * abs(bonus) // HISTORY_MAX


@_jit
def _null(stack: Any, ply: int) -> None:
    """``stack[ply + 1]``: ``stack[ply]`` after a pass."""
    src = stack[ply]
    row = stack[ply + 1]
    for i in range(ROW):
        row[i] = src[i]
    h = src[HASH] ^ Z_WHITE
    if src[EP] >= 0:
        h ^= Z_EP[src[EP]]
        row[EP] = -1
    row[TURN] = 1 - src[TURN]
    row[HALFMOVE] = src[HALFMOVE] + 1
    row[HASH] = h


@njit(_ENGINE, cache=False, nogil=True)
def engine(
    stack: Any, moves: Any, scores: Any, hist: Any, base: int, hist_len: Any,
    tt: Any, killers: Any, history: Any, pv: Any, pv_len: Any,
    mg: Any, eg: Any, w: Any, span: Any, ctx: Any, halt: Any,
    ply: int, depth: int, alpha: int, beta: int, can_null: bool,
) -> int:
    """Alpha-beta with engine craft (negamax, fail-soft; the switches of ``ctx``): a
    transposition table, the table's move, then captures that do not lose material in
    the static exchange (:func:`see_ge`; MVV-LVA among them), the killers, those that lose,
    and the quiet moves by their history (a bonus for the move that cuts off, a malus for
    the quiet moves searched before it, bounded by :data:`HISTORY_MAX`), principal
    variation search, check extensions, null-move pruning (R = 2), late-move reductions
    (:data:`LMR`, by depth and move number, less at PV nodes and for a quiet move with a
    good history; every quiet move that cuts off feeds the killers and the history),
    at null-window nodes out of check (the ``PRUNING`` switch) reverse futility, futility
    and late-move pruning of quiet moves (:data:`RFP_MARGIN`, :data:`FUTILITY`,
    :data:`LMP`), and the quiescence search at the depth limit.  Beneath the root a
    position drawn by the rules scores 0, and (the ``REPETITION`` switch) so does one
    that repeats a position of the path from the root (no repetition across a null
    move).  Moves are generated
    pseudo-legal and tested for legality when made.  Mates score ``WIN - plies from the
    root``.  The value is exact within ``(alpha, beta)`` for the searched (selective)
    tree, a bound outside it;
    ``pv[ply, :pv_len[ply]]`` is the principal variation found."""
    pv_len[ply] = 0
    if _poll(ctx, halt):
        return 0
    if ply > ctx[SELDEPTH]:
        ctx[SELDEPTH] = ply
    row = stack[ply]
    buffer = moves[ply]
    switches = ctx[SWITCHES]
    if ply > 0 and drawn_by_rule(stack, ply, hist, base, hist_len, ctx,
                                 switches & REPETITION != 0):
        if has_legal_move(stack, ply, buffer):
            return 0
        return -(WIN - ply) if in_check(row) else 0
    if ply >= MAX_PLY - 2:
        return score_for_mover(row, mg, eg, w, span)
    check = in_check(row)
    if check and switches & EXTENSIONS:
        depth += 1
    if depth <= 0:
        if switches & QUIESCENCE:
            return quiesce(stack, moves, scores, mg, eg, w, span, ctx, halt, ply, alpha, beta)
        if not has_legal_move(stack, ply, buffer):
            return -(WIN - ply) if check else 0
        return score_for_mover(row, mg, eg, w, span)
    key = row[HASH]
    slot = key & (tt.shape[0] - 1)
    tt_move = 0
    if switches & TT and tt[slot, 0] == key:
        tt_move = tt[slot, 1]
        stored = tt[slot, 3]
        if ply > 0 and stored >> 2 >= depth:
            v = tt[slot, 2]
            if v > MATE_BAND:
                v -= ply
            elif v < -MATE_BAND:
                v += ply
            flag = stored & 3
            if flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha):
                return v
    prune = (
        switches & PRUNING != 0 and not check and beta - alpha == 1 and ply > 0
        and alpha > -MATE_BAND and beta < MATE_BAND and depth <= RFP_DEPTH
    )
    null = (
        can_null and switches & NULL_MOVE and not check and depth >= 3 and beta < MATE_BAND
        and row[BLACK_SIDE + row[TURN]] & (row[KNIGHTS] | row[BISHOPS] | row[ROOKS] | row[QUEENS])
    )
    static = 0
    if prune or null:  # the evaluation, only where it is used
        static = score_for_mover(row, mg, eg, w, span)
    if prune and static - RFP_MARGIN * depth >= beta:
        return static  # reverse futility (static null move)
    if null and static >= beta:
        _null(stack, ply)
        _enter(stack, ply, hist, base, hist_len)
        hist_len[ply + 1] = 0  # no repetition across the pass
        v = -engine(stack, moves, scores, hist, base, hist_len, tt, killers, history, pv,
                    pv_len, mg, eg, w, span, ctx, halt, ply + 1, depth - 3, -beta, -beta + 1,
                    False)
        if ctx[STOPPED]:
            return 0
        if v >= beta:
            return beta if v >= MATE_BAND else v
    # Pseudo-legal moves, each tested for legality only when it is made: a cut-off
    # on an early move spares the test (a make) of the rest.
    n = pseudo_moves(row, buffer, False)
    keys = scores[ply]
    for i in range(n):
        move = buffer[i]
        if move == tt_move:
            keys[i] = 1 << 40
            continue
        victim = _victim(row, move)
        promotion = (move >> 12) & 7
        if victim or promotion:
            attacker = piece_at(row, move & 63)
            keys[i] = promotion * 1000 + ORDER[victim] * 8 - ORDER[attacker]
            # Captures that win or hold material first; those that lose it after the
            # killers (above the quiet moves all the same).
            good = SEE_VALUE[victim] >= SEE_VALUE[attacker] or see_ge(row, move, 0)
            keys[i] += (1 << 31) if good else (1 << 29)
        elif move == killers[ply, 0]:
            keys[i] = (1 << 30) + 1
        elif move == killers[ply, 1]:
            keys[i] = 1 << 30
        else:
            keys[i] = history[row[TURN], move & 4095]
    best = -INFINITY
    best_move = 0
    start_alpha = alpha
    prune = prune and depth <= 3
    futile = prune and static + FUTILITY[depth] <= alpha
    quiets = 0
    legal = 0  # the legal moves made so far
    for i in range(n):
        top = i
        for j in range(i + 1, n):
            if keys[j] > keys[top]:
                top = j
        move = buffer[top]
        key_i = keys[top]
        buffer[top] = buffer[i]
        keys[top] = keys[i]
        buffer[i] = move
        keys[i] = key_i
        make(stack, ply, move)
        if not legal_after(stack[ply + 1]):
            keys[i] = SKIPPED
            continue
        index = legal
        legal += 1
        if key_i < (1 << 29):  # a quiet move (not the table's, a capture, a promotion, a killer)
            quiets += 1
            if (
                prune and best > -MATE_BAND and (futile or quiets > LMP[depth])
                and not in_check(stack[ply + 1])
            ):
                keys[i] = SKIPPED
                continue  # futility and late-move pruning
        _enter(stack, ply, hist, base, hist_len)
        pv_len[ply + 1] = 0
        if index == 0:
            v = -engine(stack, moves, scores, hist, base, hist_len, tt, killers, history, pv,
                        pv_len, mg, eg, w, span, ctx, halt, ply + 1, depth - 1, -beta, -alpha,
                        True)
        else:
            reduce = 0
            if (
                switches & REDUCTIONS and depth >= 3 and index >= 3 and not check
                and key_i < (1 << 29) and not in_check(stack[ply + 1])
            ):
                # More for later moves at greater depth, less at PV nodes and for a
                # quiet move with a good history (more for one with a bad history).
                half = HISTORY_MAX // 2
                reduce = LMR[min(depth, 63), min(index, 63)] - (
                    key_i // half if key_i >= 0 else -(-key_i // half)
                )
                if beta - alpha > 1:
                    reduce -= 1
                if reduce < 1:
                    reduce = 1
                elif reduce > depth - 2:
                    reduce = depth - 2
            v = -engine(stack, moves, scores, hist, base, hist_len, tt, killers, history, pv,
                        pv_len, mg, eg, w, span, ctx, halt, ply + 1, depth - 1 - reduce,
                        -alpha - 1, -alpha, True)
            if v > alpha and (reduce or v < beta) and not ctx[STOPPED]:
                v = -engine(stack, moves, scores, hist, base, hist_len, tt, killers, history,
                            pv, pv_len, mg, eg, w, span, ctx, halt, ply + 1, depth - 1, -beta,
                            -alpha, True)
        if ctx[STOPPED]:
            return 0
        if v > best:
            best = v
            best_move = move
            if v > alpha:
                alpha = v
                pv[ply, 0] = move
                m = pv_len[ply + 1]
                for j in range(m):
                    pv[ply, j + 1] = pv[ply + 1, j]
                pv_len[ply] = m + 1
                if alpha >= beta:
                    if _victim(row, move) == 0 and (move >> 12) & 7 == 0:
                        # A quiet move (the table's and the killers' too): killer, history.
                        if killers[ply, 0] != move:
                            killers[ply, 1] = killers[ply, 0]
                            killers[ply, 0] = move
                        bonus = depth * depth if depth < 20 else 400
                        _reward(history, row[TURN], move, bonus)
                        for j in range(i):  # the quiet moves searched before it: a malus
                            if SKIPPED < keys[j] < (1 << 29):
                                _reward(history, row[TURN], buffer[j], -bonus)
                    break
    if legal == 0:
        return -(WIN - ply) if check else 0
    if switches & TT:
        flag = LOWER if best >= beta else EXACT if best > start_alpha else UPPER
        stored_value = best
        if stored_value > MATE_BAND:
            stored_value += ply
        elif stored_value < -MATE_BAND:
            stored_value -= ply
        if best <= start_alpha:  # a fail low: no best move, keep the table's
            best_move = tt_move
        tt[slot, 0] = key
        tt[slot, 1] = best_move
        tt[slot, 2] = stored_value
        tt[slot, 3] = depth << 2 | flag
    return best


@_jit_recursive
def plain_root(
    stack: Any, moves: Any, hist: Any, base: int, hist_len: Any,
    mg: Any, eg: Any, w: Any, span: Any, ctx: Any, halt: Any,
    root_moves: Any, depth: int,
) -> tuple[int, int]:
    """``(value, index)``: :func:`plain` at the root over ``root_moves`` in their order,
    the first best move kept (the tie rule "first" of :func:`plies.alphabeta`)."""
    best = -INFINITY
    index = -1
    for i in range(root_moves.shape[0]):
        make(stack, 0, root_moves[i])
        _enter(stack, 0, hist, base, hist_len)
        v = -plain(stack, moves, hist, base, hist_len, mg, eg, w, span, ctx, halt,
                   1, depth - 1, -INFINITY, -best)
        if ctx[STOPPED]:
            break
        if v > best:
            best = v
            index = i
    return best, index
READY: Final = True
"""Set last: the module (and the engine it compiles on import) is complete."""
