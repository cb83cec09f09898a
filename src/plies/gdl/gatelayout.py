"""The names of the compiled gates' layout, shared by the code that builds it
(:mod:`plies.gdl.gatenet`, plain Python) and the kernels that read it
(:mod:`plies.gdl.gatejit`, which imports Numba); the layout itself is described there."""

from __future__ import annotations

from typing import Final

SIZES: Final = ("F", "M", "R", "BASE", "N0", "N1", "G", "TERMINAL", "NB", "NGOALS")
"""The header of the layout: fluents, moves, roles, the first gate's node, the ends of
the gate groups, the gates, the terminal's reference, recursive blocks, goal entries."""
HEADER: Final = len(SIZES)
SECTIONS: Final = (
    "KIND", "FIRST", "INPUTS", "LOOP_LO", "LOOP_HI", "LEGAL", "NEXT", "GOAL", "GOAL_ROLE",
    "GOAL_VALUE", "ROLE_FIRST", "NPOS", "NNEG", "TOUCH_FIRST", "TOUCH",
)
"""The arrays of the layout, in order; ``layout[HEADER + i]`` is where the ``i``-th
starts (see :mod:`plies.gdl.gatejit`)."""

BATCH_LANES: Final = 64
"""The playouts :meth:`plies.gdl.gatenet.GateNet.batch` plays at once, one per bit of a
word (:mod:`plies.gdl.gatebits`): a batch of fewer leaves lanes idle."""
