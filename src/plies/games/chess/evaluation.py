"""The chess evaluation: a weighted sum of features, every weight in :class:`Weights`.

``w1 * f1 + w2 * f2 + ...`` as the lecture material writes it, in centipawns from
White's point of view.  The features, each tapered between a middlegame and an endgame
weight by the *game phase* (24 with every minor, rook and queen on the board, 0 with
none: a knight or bishop counts 1, a rook 2, a queen 4; PeSTO's scheme):

- **material**: the pieces of each side weighted by their value (``piece_mg``,
  ``piece_eg``); with ``f1 = white queens - black queens`` this is the textbook feature.
- **piece-square tables**: a bonus per piece and square (``pst_mg``, ``pst_eg``), scaled
  by ``pst``.  The tables and piece values are Ronald Friederich's PeSTO tables (the
  Rofchade engine), published on the Chess Programming Wiki, "PeSTO's Evaluation
  Function", tuned by Texel's method; they are written here rank 8 first, as a board is
  read from White's side.
- **bishop pair**: ``bishop_pair`` for a side with two or more bishops.
- **pawn structure**: ``doubled`` per pawn beyond the first on a file, ``isolated`` per
  pawn with no friendly pawn on a neighbouring file, and ``passed_mg`` / ``passed_eg``
  per passed pawn (no enemy pawn ahead of it on its own or a neighbouring file) by its
  rank counted from its own side (index 1 = second rank .. 6 = seventh).  These depend on
  the pawns alone, so each pawn structure is computed once and kept (a dict keyed by
  the two sides' pawn bitboards): a search meets few of them.
- **rooks on open files**: ``rook_open`` for a rook on a file without pawns,
  ``rook_half_open`` on a file without pawns of its own side.
- **mobility**: per knight, bishop, rook and queen, the squares it attacks that hold no
  piece of its own side and no enemy pawn guards, less a typical count
  (``mobility_centre``), times ``mobility_mg`` / ``mobility_eg``.
- **king safety**: the attack on a king (the pieces of a side with a queen that attack
  a square next to the enemy king, weighted by ``king_attack_unit`` and by
  ``king_attack_scale`` for their number) and the pawn shelter of a king on the wings
  (``shelter``, by how far the nearest own pawn stands in front of it on its file and
  the files beside it).  See :func:`activity`.

The pawn-structure and rook weights are set by hand, in the range simple engines use
(they are not tuned like PeSTO's tables, whose pawn tables already reward advanced pawns:
the passed-pawn bonus is kept small for that reason).  The score is ``(mg * phase + eg
* (24 - phase)) / 24``.  Mobility and king safety are features whose weights are zero
in :data:`WEIGHTS` (then they cost nothing); :data:`ACTIVE` sets them to Fabien
Letouzey's Fruit 2.1's values (its king attack as it is; its mobility weights on the
squares no enemy pawn guards, the typical counts lowered to match; its shelter
simplified to the king's own square), which did not make the compiled engine stronger
in self-play: they are there to be tuned (``plies tune chess``).  They need every
piece's attacks, which in pure Python multiply the cost of an evaluation more than
tenfold and in the compiled kernel (:func:`plies.games.chess.kernel.evaluate`) about
double it.

This module knows nothing of python-chess; it reads bitboards (ints, bit 0 = a1), so
:mod:`plies.games.chess.rules` can call it with a ``chess.Board``'s fields.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final

# Piece types as python-chess numbers them: 1 pawn .. 6 king (index 0 unused).
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
PHASE_MAX: Final = 24

# fmt: off
# PeSTO piece-square tables (Chess Programming Wiki, "PeSTO's Evaluation Function"),
# rank 8 first, files a..h: index i is square (7 - i // 8) * 8 + i % 8 for White.
_PAWN_MG = (
      0,   0,   0,   0,   0,   0,   0,   0,
     98, 134,  61,  95,  68, 126,  34, -11,
     -6,   7,  26,  31,  65,  56,  25, -20,
    -14,  13,   6,  21,  23,  12,  17, -23,
    -27,  -2,  -5,  12,  17,   6,  10, -25,
    -26,  -4,  -4, -10,   3,   3,  33, -12,
    -35,  -1, -20, -23, -15,  24,  38, -22,
      0,   0,   0,   0,   0,   0,   0,   0,
)
_PAWN_EG = (
      0,   0,   0,   0,   0,   0,   0,   0,
    178, 173, 158, 134, 147, 132, 165, 187,
     94, 100,  85,  67,  56,  53,  82,  84,
     32,  24,  13,   5,  -2,   4,  17,  17,
     13,   9,  -3,  -7,  -7,  -8,   3,  -1,
      4,   7,  -6,   1,   0,  -5,  -1,  -8,
     13,   8,   8,  10,  13,   0,   2,  -7,
      0,   0,   0,   0,   0,   0,   0,   0,
)
_KNIGHT_MG = (
   -167, -89, -34, -49,  61, -97, -15,-107,
    -73, -41,  72,  36,  23,  62,   7, -17,
    -47,  60,  37,  65,  84, 129,  73,  44,
     -9,  17,  19,  53,  37,  69,  18,  22,
    -13,   4,  16,  13,  28,  19,  21,  -8,
    -23,  -9,  12,  10,  19,  17,  25, -16,
    -29, -53, -12,  -3,  -1,  18, -14, -19,
   -105, -21, -58, -33, -17, -28, -19, -23,
)
_KNIGHT_EG = (
    -58, -38, -13, -28, -31, -27, -63, -99,
    -25,  -8, -25,  -2,  -9, -25, -24, -52,
    -24, -20,  10,   9,  -1,  -9, -19, -41,
    -17,   3,  22,  22,  22,  11,   8, -18,
    -18,  -6,  16,  25,  16,  17,   4, -18,
    -23,  -3,  -1,  15,  10,  -3, -20, -22,
    -42, -20, -10,  -5,  -2, -20, -23, -44,
    -29, -51, -23, -15, -22, -18, -50, -64,
)
_BISHOP_MG = (
    -29,   4, -82, -37, -25, -42,   7,  -8,
    -26,  16, -18, -13,  30,  59,  18, -47,
    -16,  37,  43,  40,  35,  50,  37,  -2,
     -4,   5,  19,  50,  37,  37,   7,  -2,
     -6,  13,  13,  26,  34,  12,  10,   4,
      0,  15,  15,  15,  14,  27,  18,  10,
      4,  15,  16,   0,   7,  21,  33,   1,
    -33,  -3, -14, -21, -13, -12, -39, -21,
)
_BISHOP_EG = (
    -14, -21, -11,  -8,  -7,  -9, -17, -24,
     -8,  -4,   7, -12,  -3, -13,  -4, -14,
      2,  -8,   0,  -1,  -2,   6,   0,   4,
     -3,   9,  12,   9,  14,  10,   3,   2,
     -6,   3,  13,  19,   7,  10,  -3,  -9,
    -12,  -3,   8,  10,  13,   3,  -7, -15,
    -14, -18,  -7,  -1,   4,  -9, -15, -27,
    -23,  -9, -23,  -5,  -9, -16,  -5, -17,
)
_ROOK_MG = (
     32,  42,  32,  51,  63,   9,  31,  43,
     27,  32,  58,  62,  80,  67,  26,  44,
     -5,  19,  26,  36,  17,  45,  61,  16,
    -24, -11,   7,  26,  24,  35,  -8, -20,
    -36, -26, -12,  -1,   9,  -7,   6, -23,
    -45, -25, -16, -17,   3,   0,  -5, -33,
    -44, -16, -20,  -9,  -1,  11,  -6, -71,
    -19, -13,   1,  17,  16,   7, -37, -26,
)
_ROOK_EG = (
     13,  10,  18,  15,  12,  12,   8,   5,
     11,  13,  13,  11,  -3,   3,   8,   3,
      7,   7,   7,   5,   4,  -3,  -5,  -3,
      4,   3,  13,   1,   2,   1,  -1,   2,
      3,   5,   8,   4,  -5,  -6,  -8, -11,
     -4,   0,  -5,  -1,  -7, -12,  -8, -16,
     -6,  -6,   0,   2,  -9,  -9, -11,  -3,
     -9,   2,   3,  -1,  -5, -13,   4, -20,
)
_QUEEN_MG = (
    -28,   0,  29,  12,  59,  44,  43,  45,
    -24, -39,  -5,   1, -16,  57,  28,  54,
    -13, -17,   7,   8,  29,  56,  47,  57,
    -27, -27, -16, -16,  -1,  17,  -2,   1,
     -9, -26,  -9, -10,  -2,  -4,   3,  -3,
    -14,   2, -11,  -2,  -5,   2,  14,   5,
    -35,  -8,  11,   2,   8,  15,  -3,   1,
     -1, -18,  -9,  10, -15, -25, -31, -50,
)
_QUEEN_EG = (
     -9,  22,  22,  27,  27,  19,  10,  20,
    -17,  20,  32,  41,  58,  25,  30,   0,
    -20,   6,   9,  49,  47,  35,  19,   9,
      3,  22,  24,  45,  57,  40,  57,  36,
    -18,  28,  19,  47,  31,  34,  39,  23,
    -16, -27,  15,   6,   9,  17,  10,   5,
    -22, -23, -30, -16, -16, -23, -36, -32,
    -33, -28, -22, -43,  -5, -32, -20, -41,
)
_KING_MG = (
    -65,  23,  16, -15, -56, -34,   2,  13,
     29,  -1, -20,  -7,  -8,  -4, -38, -29,
     -9,  24,   2, -16, -20,   6,  22, -22,
    -17, -20, -12, -27, -30, -25, -14, -36,
    -49,  -1, -27, -39, -46, -44, -33, -51,
    -14, -14, -22, -46, -44, -30, -15, -27,
      1,   7,  -8, -64, -43, -16,   9,   8,
    -15,  36,  12, -54,   8, -28,  24,  14,
)
_KING_EG = (
    -74, -35, -18, -18, -11,  15,   4, -17,
    -12,  17,  14,  17,  17,  38,  23,  11,
     10,  17,  23,  15,  20,  45,  44,  13,
     -8,  22,  24,  27,  26,  33,  26,   3,
    -18,  -4,  21,  24,  27,  23,   9, -11,
    -19,  -3,  11,  21,  23,  16,   7,  -9,
    -27, -11,   4,  13,  14,   4,  -5, -17,
    -53, -34, -21, -11, -28, -14, -24, -43,
)
# fmt: on

Table = tuple[int, ...]


@dataclass(frozen=True)
class Weights:
    """Every weight of the evaluation, in centipawns (see the module docstring).

    ``piece_mg`` / ``piece_eg``: value of a pawn, knight, bishop, rook, queen, king in the
    middlegame and the endgame (the king's 0: it is never traded).  ``pst_mg`` /
    ``pst_eg``: the piece-square tables per piece, rank 8 first.  ``pst``: a factor on
    the tables (0 turns them off).  ``bishop_pair``: (mg, eg) bonus for two bishops.
    ``phase``: what each piece adds to the game phase (capped at 24).  ``doubled``,
    ``isolated``, ``rook_open``, ``rook_half_open``: (mg, eg) per pawn or rook;
    ``passed_mg`` / ``passed_eg``: a passed pawn's bonus by rank from its own side (index
    0 = first rank .. 7 = eighth; the first and last never hold a pawn).
    ``mobility_mg``, ``mobility_eg``, ``mobility_centre``, ``king_attack_unit``: per
    knight, bishop, rook and queen; ``king_attack``: (mg, eg) per attack unit at full
    scale; ``king_attack_scale``: by the number of attackers (1 to 8 entries, the last
    for that many or more), in 256ths; ``shelter``: by the rank of the nearest own pawn
    in front of the king (index 0: no pawn).  See :func:`activity`.  Zero weights turn
    a feature off.
    """

    piece_mg: tuple[int, ...] = (82, 337, 365, 477, 1025, 0)
    piece_eg: tuple[int, ...] = (94, 281, 297, 512, 936, 0)
    pst_mg: tuple[Table, ...] = (_PAWN_MG, _KNIGHT_MG, _BISHOP_MG, _ROOK_MG, _QUEEN_MG, _KING_MG)
    pst_eg: tuple[Table, ...] = (_PAWN_EG, _KNIGHT_EG, _BISHOP_EG, _ROOK_EG, _QUEEN_EG, _KING_EG)
    pst: float = 1.0
    bishop_pair: tuple[int, int] = (30, 50)
    phase: tuple[int, ...] = (0, 1, 1, 2, 4, 0)
    doubled: tuple[int, int] = (-10, -20)
    isolated: tuple[int, int] = (-10, -10)
    passed_mg: tuple[int, ...] = (0, 0, 5, 10, 20, 35, 50, 0)
    passed_eg: tuple[int, ...] = (0, 5, 10, 20, 35, 55, 80, 0)
    rook_open: tuple[int, int] = (20, 10)
    rook_half_open: tuple[int, int] = (10, 5)
    mobility_mg: tuple[int, int, int, int] = (0, 0, 0, 0)
    mobility_eg: tuple[int, int, int, int] = (0, 0, 0, 0)
    mobility_centre: tuple[int, int, int, int] = (3, 5, 6, 11)
    king_attack_unit: tuple[int, int, int, int] = (1, 1, 2, 4)
    king_attack: tuple[int, int] = (0, 0)
    king_attack_scale: tuple[int, ...] = (0, 0, 128, 192, 224, 240, 248, 252)
    shelter: tuple[int, ...] = (0,) * 8

    def __post_init__(self) -> None:
        if not 1 <= len(self.king_attack_scale) <= 8 or len(self.shelter) != 8:
            raise ValueError(
                "king_attack_scale needs 1 to 8 entries and shelter 8, got "
                f"{len(self.king_attack_scale)} and {len(self.shelter)}"
            )


PLAIN: Final = Weights(
    doubled=(0, 0), isolated=(0, 0), passed_mg=(0,) * 8, passed_eg=(0,) * 8,
    rook_open=(0, 0), rook_half_open=(0, 0),
)
"""Material, piece-square tables and the bishop pair only (the evaluation before pawn
structure and rook files were added; for comparisons)."""

ACTIVE: Final = Weights(
    mobility_mg=(4, 5, 2, 1), mobility_eg=(4, 5, 4, 2), king_attack=(20, 0),
    shelter=(-36, 0, -11, -20, -27, -32, -35, 0),
)
""":data:`WEIGHTS` with mobility and king safety at Fruit 2.1's weights: not stronger
than :data:`WEIGHTS` in self-play so far (``benchmarks/results/chess_match.md``), a
starting point for tuning them."""

WEIGHTS: Final = Weights()
"""The weights plies plays with."""


FILES: Final = tuple(0x0101010101010101 << f for f in range(8))
"""The squares of each file a..h."""
_NEIGHBOURS: Final = tuple(
    (FILES[f - 1] if f > 0 else 0) | (FILES[f + 1] if f < 7 else 0) for f in range(8)
)


def steps(square: int, deltas: tuple[tuple[int, int], ...]) -> int:
    """The squares ``(rank, file)`` steps away from ``square`` that are on the board."""
    rank, file = divmod(square, 8)
    bb = 0
    for dr, df in deltas:
        r, f = rank + dr, file + df
        if 0 <= r < 8 and 0 <= f < 8:
            bb |= 1 << (r * 8 + f)
    return bb


def ray(square: int, dr: int, df: int) -> int:
    """The squares from ``square`` (excluded) to the board's edge in one direction."""
    rank, file = divmod(square, 8)
    bb = 0
    r, f = rank + dr, file + df
    while 0 <= r < 8 and 0 <= f < 8:
        bb |= 1 << (r * 8 + f)
        r, f = r + dr, f + df
    return bb


KNIGHT_DELTAS: Final = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
KING_DELTAS: Final = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
DIRECTIONS: Final = ((1, 0), (1, 1), (0, 1), (1, -1), (-1, 0), (-1, -1), (0, -1), (-1, 1))
"""Ray directions (rank, file): the first four go up the square numbers (N, NE, E, NW:
the first blocker is the lowest bit), the last four down (S, SW, W, SE: the highest)."""
_KNIGHT: Final = tuple(steps(sq, KNIGHT_DELTAS) for sq in range(64))
_KING: Final = tuple(steps(sq, KING_DELTAS) for sq in range(64))
_RAYS: Final = tuple(tuple(ray(sq, dr, df) for sq in range(64)) for dr, df in DIRECTIONS)


def _slide(square: int, occupied: int, directions: tuple[int, ...]) -> int:
    """The squares a slider on ``square`` attacks along ``directions`` (indices of
    :data:`DIRECTIONS`): each ray up to and including its first blocker."""
    attacks = 0
    for d in directions:
        line = _RAYS[d][square]
        blockers = line & occupied
        if blockers:
            first = (blockers & -blockers) if d < 4 else 1 << (blockers.bit_length() - 1)
            line ^= _RAYS[d][first.bit_length() - 1]
        attacks |= line
    return attacks


_DIAGONAL: Final = (1, 3, 5, 7)
_STRAIGHT: Final = (0, 2, 4, 6)
_ALL: Final = (0, 1, 2, 3, 4, 5, 6, 7)
_LINES: Final = ((), _DIAGONAL, _STRAIGHT, _ALL)  # by mobility index: knight .. queen


def _ahead(square: int, white: bool) -> int:
    """The squares in front of ``square`` (toward the far side) on its file and the two
    beside it: where an enemy pawn stops a pawn on ``square`` from being passed."""
    rank, file = divmod(square, 8)
    lines = FILES[file] | _NEIGHBOURS[file]
    if white:
        return lines & ~((1 << (8 * (rank + 1))) - 1) & 0xFFFFFFFFFFFFFFFF
    return lines & ((1 << (8 * rank)) - 1)


_PASSED_SPAN: Final = (
    tuple(_ahead(sq, False) for sq in range(64)),
    tuple(_ahead(sq, True) for sq in range(64)),
)

PACK: Final = 1 << 32
"""A middlegame and an endgame value travel as one int, ``mg * PACK + eg``: sums of
packed values are packed sums (while ``|eg| < PACK / 2``), so a position costs one
table lookup and one addition per piece."""
_HALF: Final = PACK >> 1


def unpack(packed: int) -> tuple[int, int]:
    """``(mg, eg)`` of a packed sum ``mg * PACK + eg``.

    >>> unpack(-3 * PACK + 5), unpack(7 * PACK - 9)
    ((-3, 5), (7, -9))
    """
    eg = ((packed + _HALF) & (PACK - 1)) - _HALF
    return (packed - eg) >> 32, eg


@dataclass(frozen=True)
class Evaluator:
    """The evaluation for one :class:`Weights`, with its tables folded per colour.

    ``mg[color][piece][square]`` is the middlegame value of a piece on a square (material
    plus table), negated for Black, so that a position's score is a plain sum; ``eg`` the
    same for the endgame and ``packed`` both in one int (``mg * PACK + eg``), which is
    what :meth:`material` sums and what a move changes incrementally (see
    :meth:`plies.games.chess.Chess.result`).  ``color`` is 1 for White, 0 for Black
    (python-chess's ``True``/``False``).
    """

    weights: Weights = WEIGHTS
    mg: tuple[tuple[Table, ...], ...] = field(init=False)
    eg: tuple[tuple[Table, ...], ...] = field(init=False)
    packed: tuple[tuple[Table, ...], ...] = field(init=False)
    extras: tuple[int, int, int] = field(init=False, repr=False)
    """``bishop_pair``, ``rook_open`` and ``rook_half_open`` packed (``mg * PACK + eg``)."""
    pesto_phase: bool = field(init=False, repr=False)
    """Whether ``weights.phase`` is PeSTO's (0, 1, 1, 2, 4, 0), counted the short way."""
    attacks: bool = field(init=False, repr=False)
    """Whether any weight of mobility or the king attack is not zero."""
    shelters: bool = field(init=False, repr=False)
    """Whether any weight of the pawn shelter is not zero."""
    pawn_table: dict[tuple[int, int], tuple[int, int, int, int]] = field(
        init=False, default_factory=dict, compare=False, repr=False
    )
    """:meth:`pawn_structure` by (white pawns, black pawns), filled as met."""

    def __post_init__(self) -> None:
        w = self.weights
        mg: list[tuple[Table, ...]] = []
        eg: list[tuple[Table, ...]] = []
        packed: list[tuple[Table, ...]] = []
        for color in (0, 1):
            sign = 1 if color else -1
            mg_c: list[Table] = [()]
            eg_c: list[Table] = [()]
            for p in range(6):
                mg_c.append(_fold(w.piece_mg[p], w.pst_mg[p], w.pst, sign))
                eg_c.append(_fold(w.piece_eg[p], w.pst_eg[p], w.pst, sign))
            mg.append(tuple(mg_c))
            eg.append(tuple(eg_c))
            packed.append(
                (
                    (),
                    *(
                        tuple(m * PACK + e for m, e in zip(mg_c[p], eg_c[p], strict=True))
                        for p in range(1, 7)
                    ),
                )
            )
        object.__setattr__(self, "mg", tuple(mg))
        object.__setattr__(self, "eg", tuple(eg))
        object.__setattr__(self, "packed", tuple(packed))
        extras = tuple(m * PACK + e for m, e in (w.bishop_pair, w.rook_open, w.rook_half_open))
        object.__setattr__(self, "extras", extras)
        object.__setattr__(self, "pesto_phase", tuple(w.phase) == (0, 1, 1, 2, 4, 0))
        object.__setattr__(self, "attacks", any((*w.mobility_mg, *w.mobility_eg, *w.king_attack)))
        object.__setattr__(self, "shelters", any(w.shelter))

    def pawn_structure(self, white_pawns: int, black_pawns: int) -> tuple[int, int, int, int]:
        """What the pawns decide: the packed (``mg * PACK + eg``) pawn-structure terms for
        White, and the squares of the open files, of the files half open for White (no
        white pawn, a black one) and for Black.  Computed once per structure and kept in
        :attr:`pawn_table` (emptied past a million entries)."""
        w = self.weights
        white_mg, white_eg = _pawn_terms(w, white_pawns, black_pawns, True)
        black_mg, black_eg = _pawn_terms(w, black_pawns, white_pawns, False)
        packed = (white_mg - black_mg) * PACK + white_eg - black_eg
        open_files = white_half = black_half = 0
        for file in FILES:
            if not file & white_pawns:
                if file & black_pawns:
                    white_half |= file
                else:
                    open_files |= file
            elif not file & black_pawns:
                black_half |= file
        entry = (packed, open_files, white_half, black_half)
        table = self.pawn_table
        if len(table) >= 1_000_000:
            table.clear()
        table[white_pawns, black_pawns] = entry
        return entry

    def score(
        self, pieces: tuple[int, int, int, int, int, int], white: int, black: int
    ) -> int:
        """Centipawns for White of the position with these bitboards.

        ``pieces`` are the bitboards of pawns, knights, bishops, rooks, queens and kings
        (both colours), ``white`` and ``black`` the squares of each side (bit 0 = a1).

        >>> e = Evaluator()
        >>> e.score((0, 0, 0, 0, 1 << 3, (1 << 4) | (1 << 60)), 1 << 3 | 1 << 4, 1 << 60) > 900
        True
        """
        return self.finish(self.material(pieces, white, black), pieces, white, black)

    def material(
        self, pieces: tuple[int, int, int, int, int, int], white: int, black: int
    ) -> int:
        """The packed sum (``mg * PACK + eg``) of material and piece-square tables."""
        total = 0
        table = self.packed
        for piece, board in enumerate(pieces, start=1):
            for color, side in ((1, white), (0, black)):
                bb = board & side
                if not bb:
                    continue
                t = table[color][piece]
                while bb:
                    low = bb & -bb
                    total += t[low.bit_length() - 1]
                    bb ^= low
        return total

    def finish(
        self, material: int, pieces: tuple[int, int, int, int, int, int], white: int, black: int
    ) -> int:
        """Centipawns for White: ``material`` (the packed sum of :meth:`material` for
        this position) plus the other features, tapered by the game phase."""
        pawns, bishops, rooks = pieces[0], pieces[2], pieces[3]
        white_pawns, black_pawns = pawns & white, pawns & black
        entry = self.pawn_table.get((white_pawns, black_pawns))
        if entry is None:
            entry = self.pawn_structure(white_pawns, black_pawns)
        structure, open_files, white_half, black_half = entry
        # Packed sums all the way (mg * PACK + eg), unpacked once.
        packed = material + structure
        pair, rook_open, rook_half_open = self.extras
        if (bishops & white).bit_count() >= 2:
            packed += pair
        if (bishops & black).bit_count() >= 2:
            packed -= pair
        if rooks:
            white_rooks, black_rooks = rooks & white, rooks & black
            packed += rook_open * (
                (white_rooks & open_files).bit_count() - (black_rooks & open_files).bit_count()
            ) + rook_half_open * (
                (white_rooks & white_half).bit_count() - (black_rooks & black_half).bit_count()
            )
        eg = ((packed + _HALF) & (PACK - 1)) - _HALF  # unpack(), inline
        mg = (packed - eg) >> 32
        if self.attacks or self.shelters:
            active_mg, active_eg = activity(
                self.weights, pieces, white, black, self.attacks, self.shelters
            )
            mg += active_mg
            eg += active_eg
        if self.pesto_phase:  # knight and bishop 1, rook 2, queen 4
            phase = (
                (pieces[1] | bishops).bit_count() + 2 * rooks.bit_count()
                + 4 * pieces[4].bit_count()
            )
        else:
            inc = self.weights.phase
            phase = (
                inc[1] * pieces[1].bit_count() + inc[2] * bishops.bit_count()
                + inc[3] * rooks.bit_count() + inc[4] * pieces[4].bit_count()
                + inc[0] * pawns.bit_count()
            )
        if phase > PHASE_MAX:
            phase = PHASE_MAX
        total = mg * phase + eg * (PHASE_MAX - phase)
        # Rounded towards zero, so that a position and its colour mirror score opposite.
        return total // PHASE_MAX if total >= 0 else -(-total // PHASE_MAX)


def _pawn_terms(w: Weights, own: int, enemy: int, white: bool) -> tuple[int, int]:
    """(mg, eg) of doubled, isolated and passed pawns of the side with pawns ``own``."""
    doubled, isolated, passed = pawn_counts(own, enemy, white)
    mg = w.doubled[0] * doubled + w.isolated[0] * isolated
    eg = w.doubled[1] * doubled + w.isolated[1] * isolated
    for rank in passed:
        mg += w.passed_mg[rank]
        eg += w.passed_eg[rank]
    return mg, eg


def pawn_counts(own: int, enemy: int, white: bool) -> tuple[int, int, list[int]]:
    """The pawn structure of the side with pawns ``own`` (White's if ``white``): its
    doubled pawns (each beyond the first on a file), its isolated pawns (no pawn of its
    own on a neighbouring file) and the rank, from its own side, of each passed pawn (no
    ``enemy`` pawn ahead of it on its own or a neighbouring file)."""
    doubled = isolated = 0
    for f in range(8):
        count = (own & FILES[f]).bit_count()
        if count:
            doubled += count - 1
            if not own & _NEIGHBOURS[f]:
                isolated += count
    span = _PASSED_SPAN[1 if white else 0]
    passed = []
    bb = own
    while bb:
        low = bb & -bb
        bb ^= low
        sq = low.bit_length() - 1
        if not span[sq] & enemy:
            passed.append(sq >> 3 if white else 7 - (sq >> 3))
    return doubled, isolated, passed


def piece_mobility(
    pieces: tuple[int, int, int, int, int, int], own: int, enemy: int, white: bool
) -> Iterator[tuple[int, int, int]]:
    """``(kind, free, attacks)`` for each knight, bishop, rook and queen of the side on
    ``own`` (White's if ``white``): its kind (0 knight .. 3 queen), how many of the
    squares it attacks hold no piece of its own side and no enemy pawn guards, and the
    squares it attacks."""
    occupied = own | enemy
    enemy_pawns = pieces[0] & enemy
    if white:  # squares attacked by Black's pawns
        guarded = (enemy_pawns >> 7) & ~FILES[0] | (enemy_pawns >> 9) & ~FILES[7]
    else:
        guarded = (enemy_pawns << 7) & ~FILES[7] | (enemy_pawns << 9) & ~FILES[0]
    free = ~own & ~guarded
    for p in range(4):
        bb = pieces[p + 1] & own
        while bb:
            low = bb & -bb
            bb ^= low
            sq = low.bit_length() - 1
            att = _KNIGHT[sq] if p == 0 else _slide(sq, occupied, _LINES[p])
            yield p, (att & free).bit_count(), att


def shelter_ranks(pieces: tuple[int, int, int, int, int, int], own: int, white: bool) -> list[int]:
    """The pawn shelter of the king of the side on ``own`` (White's if ``white``): for a
    king on the a-c or f-h files, for its own file (twice) and the files beside it, the
    rank from its own side of the nearest own pawn in front of it (0: none); for a king
    in the centre, nothing."""
    sq = (pieces[5] & own).bit_length() - 1
    file = sq & 7
    if 2 < file < 5:
        return []
    own_pawns = pieces[0] & own
    rank = sq >> 3
    front = ~((1 << (8 * (rank + 1))) - 1) if white else (1 << (8 * rank)) - 1
    ranks = []
    for f in (file - 1, file, file, file + 1):
        if 0 <= f < 8:
            ahead = own_pawns & FILES[f] & front
            if not ahead:
                ranks.append(0)
            elif white:
                ranks.append(((ahead & -ahead).bit_length() - 1) >> 3)
            else:
                ranks.append(7 - ((ahead.bit_length() - 1) >> 3))
    return ranks


def activity(
    w: Weights, pieces: tuple[int, int, int, int, int, int], white: int, black: int,
    attacks: bool = True, shelters: bool = True,
) -> tuple[int, int]:
    """(mg, eg) for White of mobility and king safety: the terms that need attacks.

    **Mobility**: per knight, bishop, rook and queen, ``mobility_mg`` / ``mobility_eg``
    times (the squares it attacks that hold no piece of its own side, minus
    ``mobility_centre``, a typical count).  **King attack** (Fruit's): the pieces of a
    side that has a queen and attack a square next to the enemy king (the king zone)
    add their ``king_attack_unit`` (knight, bishop, rook, queen); the enemy king pays
    ``units * king_attack * king_attack_scale[attackers] // 256`` (the scale grows with
    the number of attackers, capped at the last entry).  **Pawn shelter**: a king on
    the a-c or f-h files pays ``shelter[rank]`` for each of its file (counted twice) and
    the files beside it, by the rank (from its own side) of the nearest pawn of its own
    in front of it; ``shelter[0]`` when there is none.  The king terms are middlegame
    weights (``king_attack[1]`` is the endgame one; the shelter has none).  Without
    ``attacks`` mobility and the king attack are left out, without ``shelters`` the
    shelter (what :class:`Evaluator` does when their weights are all zero).
    """
    kings = pieces[5]
    mob_mg, mob_eg, centre = w.mobility_mg, w.mobility_eg, w.mobility_centre
    unit = w.king_attack_unit
    scale = w.king_attack_scale
    mg = eg = 0
    for color, own, enemy in ((1, white, black), (0, black, white)):
        sign = 1 if color else -1
        if attacks:
            zone = _KING[((kings & enemy).bit_length() - 1)]
            attackers = units = 0
            for p, free, att in piece_mobility(pieces, own, enemy, color == 1):
                n = free - centre[p]
                mg += sign * mob_mg[p] * n
                eg += sign * mob_eg[p] * n
                if att & zone:
                    attackers += 1
                    units += unit[p]
            if attackers and pieces[4] & own:
                factor = units * scale[min(attackers, len(scale) - 1)]
                mg += sign * (factor * w.king_attack[0] // 256)
                eg += sign * (factor * w.king_attack[1] // 256)
        if shelters:
            mg += sign * sum(w.shelter[r] for r in shelter_ranks(pieces, own, color == 1))
    return mg, eg


def _fold(value: int, table: Table, scale: float, sign: int) -> Table:
    """Per square a1..h8: ``sign * (value + scale * table[...])``, mirrored for Black."""
    out = []
    for sq in range(64):
        rank, file = divmod(sq, 8)
        # The table is read from White's side, rank 8 first; Black's pieces see it mirrored.
        row = 7 - rank if sign > 0 else rank
        out.append(sign * (value + round(scale * table[row * 8 + file])))
    return tuple(out)


def piece_value(piece: int, weights: Weights = WEIGHTS) -> int:
    """The middlegame value of a piece type (1 pawn .. 6 king), for move ordering."""
    return weights.piece_mg[piece - 1]
