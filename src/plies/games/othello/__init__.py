"""Othello, a package of its own: the rules on bitboards, the endgame solver, the weights.

- :mod:`plies.games.othello.bitboard`: :class:`OthelloState` (8x8 bitboards) and the bit
  tricks the others share (legal moves, flips, stable discs);
- :mod:`plies.games.othello.view` and :mod:`plies.games.othello.positions`: its board
  and how a position is written (the ``board``, ``read_position`` and ``write_position``
  hooks);
- :mod:`plies.games.othello.rules`: :class:`Othello` (passes, the weighted-feature
  evaluation with :class:`OthelloWeights`, the play defaults);
- :mod:`plies.games.othello.kernel`: the endgame search compiled by Numba (imported
  only by the solver's ``numba`` backend);
- :mod:`plies.games.othello.solver`: :class:`~plies.games.othello.solver.OthelloSolver`,
  the exact endgame solver (the ``solver`` hook; imported on demand);
- ``weights/othello.json``: evaluation weights learned by ``plies learn othello``.

Each module imports only the ones listed before it.
"""

from plies.games.othello.bitboard import (
    C_SQUARES,
    COLUMNS,
    CORNERS,
    DIRECTIONS,
    EMPTY,
    FULL,
    MARKS,
    NOT_A,
    NOT_H,
    PASS,
    X_SQUARES,
    OthelloState,
    flips,
    full_lines,
    legal_moves,
    make_state,
    neighbours,
    shift,
    square_order,
    squares,
    stable_discs,
)
from plies.games.othello.rules import (
    DEFAULT_WEIGHTS,
    FEATURES,
    Othello,
    OthelloWeights,
)

__all__ = [
    "COLUMNS",
    "CORNERS",
    "C_SQUARES",
    "DEFAULT_WEIGHTS",
    "DIRECTIONS",
    "EMPTY",
    "FEATURES",
    "FULL",
    "MARKS",
    "NOT_A",
    "NOT_H",
    "PASS",
    "X_SQUARES",
    "Othello",
    "OthelloState",
    "OthelloWeights",
    "flips",
    "full_lines",
    "legal_moves",
    "make_state",
    "neighbours",
    "shift",
    "square_order",
    "squares",
    "stable_discs",
]
