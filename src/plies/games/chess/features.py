"""The chess evaluation as a linear function of its weights, for Texel tuning.

Given the game phase, :meth:`plies.games.chess.evaluation.Evaluator.score` is linear in
every weight but the king attack's: ``(mg * phase + eg * (24 - phase)) / 24`` rounded
towards zero, where ``mg`` and ``eg`` are sums of weights times counts (White's less
Black's).  :func:`counts` gives those counts for one position, :func:`vector` the
weights in the same order, so that ``mg = counts_mg . vector_mg`` exactly; and
:func:`weights_from` turns a fitted vector back into :class:`Weights`.  The king
attack (zero in :data:`~plies.games.chess.evaluation.WEIGHTS`) has no parameter here:
:func:`vector` refuses weights where it is set.

The parameters, each once for the middlegame and once for the endgame: the values of
pawn .. queen (``piece``), the six piece-square tables (``pst``, 64 entries each, rank 8
first as :mod:`~plies.games.chess.evaluation` writes them), ``bishop_pair``,
``doubled``, ``isolated``, ``rook_open``, ``rook_half_open``, ``passed`` (ranks 1 to 6
from a pawn's own side), ``mobility`` (knight .. queen); and ``shelter`` (8 entries by
rank, middlegame only: its endgame entries stay zero).
"""

from __future__ import annotations

from typing import Final

from plies.games.chess.evaluation import (
    FILES,
    PHASE_MAX,
    Weights,
    pawn_counts,
    piece_mobility,
    shelter_ranks,
)

BLOCKS: Final = (
    ("piece", 5), ("pst", 6 * 64), ("bishop_pair", 1), ("doubled", 1), ("isolated", 1),
    ("rook_open", 1), ("rook_half_open", 1), ("passed", 6), ("mobility", 4),
    ("shelter", 8),
)
"""Each parameter block and its length, in the order of a phase's half of a vector."""
OFFSET: Final = {
    name: sum(n for _, n in BLOCKS[:i]) for i, (name, _) in enumerate(BLOCKS)
}
HALF: Final = sum(n for _, n in BLOCKS)
"""The number of parameters per phase: a vector has ``2 * HALF`` entries, mg then eg."""

Counts = tuple[dict[int, int], dict[int, int], int]
"""Sparse middlegame counts, endgame counts (index into a half) and the game phase."""


def counts(
    pieces: tuple[int, int, int, int, int, int], white: int, black: int,
    weights: Weights,
) -> Counts:
    """The counts of every parameter in this position, White's less Black's.

    ``weights`` gives what is not a parameter: the phase increments, the mobility's
    typical counts (``mobility_centre``) become a constant count of -1 per piece."""
    mg: dict[int, int] = {}
    eg: dict[int, int] = {}

    def add(index: int, n: int, both: bool = True) -> None:
        mg[index] = mg.get(index, 0) + n
        if both:
            eg[index] = eg.get(index, 0) + n

    pawns, bishops, rooks = pieces[0], pieces[2], pieces[3]
    for color, own, enemy in ((1, white, black), (0, black, white)):
        sign = 1 if color else -1
        for p, board in enumerate(pieces):
            bb = board & own
            while bb:
                low = bb & -bb
                bb ^= low
                sq = low.bit_length() - 1
                rank, file = divmod(sq, 8)
                row = 7 - rank if color else rank
                if p < 5:
                    add(OFFSET["piece"] + p, sign)
                add(OFFSET["pst"] + p * 64 + row * 8 + file, sign)
        if (bishops & own).bit_count() >= 2:
            add(OFFSET["bishop_pair"], sign)
        own_pawns, enemy_pawns = pawns & own, pawns & enemy
        doubled, isolated, passed = pawn_counts(own_pawns, enemy_pawns, color == 1)
        add(OFFSET["doubled"], sign * doubled)
        add(OFFSET["isolated"], sign * isolated)
        for rank in passed:
            if 1 <= rank <= 6:  # the first and last ranks never hold a pawn
                add(OFFSET["passed"] + rank - 1, sign)
        bb = rooks & own
        while bb:
            low = bb & -bb
            bb ^= low
            file_bb = FILES[(low.bit_length() - 1) & 7]
            if not file_bb & own_pawns:
                add(OFFSET["rook_open" if not file_bb & enemy_pawns else "rook_half_open"], sign)
        for p, free, _ in piece_mobility(pieces, own, enemy, color == 1):
            add(OFFSET["mobility"] + p, sign * (free - weights.mobility_centre[p]))
        for rank in shelter_ranks(pieces, own, color == 1):  # middlegame only
            add(OFFSET["shelter"] + rank, sign, both=False)
    inc = weights.phase
    phase = min(PHASE_MAX, sum(inc[p] * pieces[p].bit_count() for p in range(5)))
    mg = {k: v for k, v in mg.items() if v}
    eg = {k: v for k, v in eg.items() if v}
    return mg, eg, phase


def vector(weights: Weights) -> list[float]:
    """The parameters of ``weights`` in :data:`BLOCKS` order, middlegame half first."""
    if any(weights.king_attack):
        raise ValueError("the king attack is not linear in its weight: set it to (0, 0)")
    out: list[float] = []
    for half, (pieces, tables) in enumerate(
        ((weights.piece_mg, weights.pst_mg), (weights.piece_eg, weights.pst_eg))
    ):
        out += [float(v) for v in pieces[:5]]
        out += [float(round(weights.pst * v)) for table in tables for v in table]
        for name in ("bishop_pair", "doubled", "isolated", "rook_open", "rook_half_open"):
            out.append(float(getattr(weights, name)[half]))
        out += [float(v) for v in (weights.passed_mg, weights.passed_eg)[half][1:7]]
        out += [float(v) for v in (weights.mobility_mg, weights.mobility_eg)[half]]
        out += [float(v) for v in weights.shelter] if half == 0 else [0.0] * 8
    return out


def weights_from(values: list[float], base: Weights) -> Weights:
    """``base`` with every parameter of :func:`vector` replaced by ``values`` rounded
    to whole centipawns (tables at ``pst`` 1; the king stays worth 0)."""
    r = [round(v) for v in values]
    mg, eg = r[:HALF], r[HALF:]

    def block(half: list[int], name: str, n: int) -> list[int]:
        return half[OFFSET[name]:OFFSET[name] + n]

    def tables(half: list[int]) -> tuple[tuple[int, ...], ...]:
        flat = block(half, "pst", 6 * 64)
        return tuple(tuple(flat[p * 64:(p + 1) * 64]) for p in range(6))

    def pair(name: str) -> tuple[int, int]:
        return block(mg, name, 1)[0], block(eg, name, 1)[0]

    def four(half: list[int]) -> tuple[int, int, int, int]:
        a, b, c, d = block(half, "mobility", 4)
        return a, b, c, d

    return Weights(
        piece_mg=(*block(mg, "piece", 5), 0), piece_eg=(*block(eg, "piece", 5), 0),
        pst_mg=tables(mg), pst_eg=tables(eg), pst=1.0,
        bishop_pair=pair("bishop_pair"), phase=base.phase, doubled=pair("doubled"),
        isolated=pair("isolated"),
        passed_mg=(0, *block(mg, "passed", 6), 0), passed_eg=(0, *block(eg, "passed", 6), 0),
        rook_open=pair("rook_open"), rook_half_open=pair("rook_half_open"),
        mobility_mg=four(mg), mobility_eg=four(eg), mobility_centre=base.mobility_centre,
        king_attack_unit=base.king_attack_unit, king_attack=(0, 0),
        king_attack_scale=base.king_attack_scale, shelter=tuple(block(mg, "shelter", 8)),
    )


def linear_score(c: Counts, values: list[float]) -> int:
    """The evaluation rebuilt from counts and an integer-valued vector: what
    :meth:`~plies.games.chess.evaluation.Evaluator.score` returns."""
    mg_counts, eg_counts, phase = c
    mg = sum(n * values[i] for i, n in mg_counts.items())
    eg = sum(n * values[HALF + i] for i, n in eg_counts.items())
    total = int(mg) * phase + int(eg) * (PHASE_MAX - phase)
    return total // PHASE_MAX if total >= 0 else -(-total // PHASE_MAX)
