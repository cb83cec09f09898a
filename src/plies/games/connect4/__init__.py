"""Connect Four, a package of its own: the rules on bitboards and the dedicated solver.

- :mod:`plies.games.connect4.bitboard`: :class:`Connect4State` and the bit tricks the
  others share;
- :mod:`plies.games.connect4.rules`: :class:`Connect4` (any board size, two scorings, the
  benchmark position files);
- :mod:`plies.games.connect4.view`: its board (the ``board`` hook);
- :mod:`plies.games.connect4.solver`:
  :class:`~plies.games.connect4.solver.Connect4Solver`, Pascal Pons' solver in Python or
  compiled by Numba (the ``solver`` hook; imported on demand).

Each module imports only the ones listed before it.
"""

from plies.games.connect4.bitboard import (
    DRAW,
    EMPTY,
    MARKS,
    UNDECIDED,
    Connect4State,
    four_completions,
)
from plies.games.connect4.rules import (
    DATA_FILES,
    SCORINGS,
    Connect4,
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
