"""Othello, a package of its own: the rules on bitboards, the endgame solver, the weights.

- :mod:`plies.games.othello.rules`: :class:`Othello` and :class:`OthelloState` (8x8
  bitboards, passes, the weighted-feature evaluation with :class:`OthelloWeights`);
- :mod:`plies.games.othello.solver`: :class:`~plies.games.othello.solver.OthelloSolver`,
  the exact endgame solver for the last 10 to 14 empty squares (imported on demand);
- ``weights/othello.json``: evaluation weights learned by ``plies learn othello``.
"""

from plies.games.othello.rules import (
    C_SQUARES,
    COLUMNS,
    CORNERS,
    DEFAULT_WEIGHTS,
    DIRECTIONS,
    EMPTY,
    FEATURES,
    FULL,
    MARKS,
    NOT_A,
    NOT_H,
    PASS,
    X_SQUARES,
    Othello,
    OthelloState,
    OthelloWeights,
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
