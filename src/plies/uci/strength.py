"""A weaker plies on request: ``UCI_LimitStrength`` and ``UCI_Elo``.

A level is a :class:`Strength`: a node budget a move (so the level does not depend on
the machine's speed or load), the number of best lines searched (MultiPV) and a
*weakness* that decides how far from the best line the move played may stray.
:func:`strength` maps an Elo to a level by interpolating the calibrated anchors in
:data:`LEVELS` (nodes geometrically, weakness linearly); ``benchmarks/uci_elo.py``
measured them against Stockfish's own ``UCI_Elo`` levels
(``benchmarks/results/uci_elo.md``).

:func:`pick` is Stockfish's choice among the searched lines (``Skill::pick_best`` in
its ``search.cpp``): every line's score is pushed up by a deterministic share of its
distance from the best (larger for a weaker level) and a random share of the spread of
the lines (at most a pawn), and the line with the highest pushed score is played.

>>> s = strength(ELO_MIN)
>>> s.elo, s.nodes, s.weakness
(650, 40, 110)
>>> import random
>>> pick([(120.0, "a"), (80.0, "b"), (-300.0, "c")], 0, random.Random(1))
'a'
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

T = TypeVar("T")

LEVELS: Final = (
    # (Elo, nodes a move, weakness): each level's Elo as measured, rounded to 50
    (650, 40, 110),
    (900, 110, 85),
    (1150, 300, 60),
    (1250, 670, 30),
    (1500, 1050, 13),
    (1700, 1500, 0),
)
"""The calibrated anchors of the Elo scale, weakest first (Stockfish 15.1's scale:
measured against its ``UCI_Elo`` 1350, 1500 and 1600, the two weakest against the
third)."""
ELO_MIN: Final = LEVELS[0][0]
ELO_MAX: Final = LEVELS[-1][0]
ELO_DEFAULT: Final = 1200
LINES: Final = 4
"""The best lines a weakened search looks at (Stockfish's skill levels look at four)."""
SPREAD_CAP: Final = 100.0
"""The random push never exceeds a pawn's worth (centipawns), as in Stockfish."""


@dataclass(frozen=True)
class Strength:
    """One level: ``nodes`` a move, ``weakness`` 0 (none) .. 120, ``lines`` searched (one
    without weakness: the best line is then the move)."""

    elo: int
    nodes: int
    weakness: int
    lines: int = LINES


def strength(elo: int) -> Strength:
    """The level of ``elo``, clamped to :data:`ELO_MIN` .. :data:`ELO_MAX`."""
    elo = max(ELO_MIN, min(ELO_MAX, elo))
    for (e0, n0, w0), (e1, n1, w1) in itertools.pairwise(LEVELS):
        if elo <= e1:
            t = (elo - e0) / (e1 - e0)
            nodes = round(math.exp(math.log(n0) + t * (math.log(n1) - math.log(n0))))
            weakness = round(w0 + t * (w1 - w0))
            return Strength(elo, nodes, weakness, LINES if weakness else 1)
    raise AssertionError("unreachable: elo is clamped to the table")  # pragma: no cover


def pick(lines: Sequence[tuple[float, T]], weakness: int, rng: random.Random) -> T:
    """The move to play among ``lines`` (``(score, move)``, best first, scores from the
    mover's side): Stockfish's skill pick (see the module docstring).  With ``weakness``
    0 the best line's move."""
    top = lines[0][0]
    if weakness <= 0 or len(lines) == 1:
        return lines[0][1]
    spread = min(top - lines[-1][0], SPREAD_CAP)
    best, most = lines[0][1], -math.inf
    for score, move in lines:
        push = (weakness * (top - score) + spread * rng.randrange(weakness)) / 128
        if score + push >= most:
            most, best = score + push, move
    return best


__all__ = ["ELO_DEFAULT", "ELO_MAX", "ELO_MIN", "LEVELS", "LINES", "Strength", "pick", "strength"]
