"""Connect Four, a package of its own: the rules on bitboards and the dedicated solver.

- :mod:`plies.games.connect4.rules`: :class:`Connect4` and :class:`Connect4State` (any
  board size, two scorings, the benchmark position files);
- :mod:`plies.games.connect4.solver`:
  :class:`~plies.games.connect4.solver.Connect4Solver`, Pascal Pons' solver in Python or
  compiled by Numba (imported on demand).
"""

from plies.games.connect4.rules import (
    DATA_FILES,
    DRAW,
    EMPTY,
    MARKS,
    SCORINGS,
    UNDECIDED,
    Connect4,
    Connect4State,
    four_completions,
    load_positions,
    moves_from_string,
)

__all__ = [
    "DATA_FILES",
    "DRAW",
    "EMPTY",
    "MARKS",
    "SCORINGS",
    "UNDECIDED",
    "Connect4",
    "Connect4State",
    "four_completions",
    "load_positions",
    "moves_from_string",
]
