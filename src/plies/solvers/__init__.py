"""Deprecated: a game's exact solver is its ``solver`` hook (``game.solver(backend)``).

The dedicated solvers live with their games (:mod:`plies.games.connect4.solver`,
:mod:`plies.games.othello.solver`), and every game that has one returns it from its
``solver`` hook (:class:`plies.game.Solver`), which the policy layer reads.
:func:`solver_for` calls that hook, with a DeprecationWarning, for one release.
"""

from __future__ import annotations

import warnings
from typing import Any

from plies._compat import deprecated_alias
from plies.game import Solver, hook


def solver_for(game: Any, backend: str = "auto") -> Solver | None:
    """Deprecated: ``game.solver(backend)``, or None for a game without the ``solver``
    hook (read it with ``plies.game.hook(game, "solver")``)."""
    warnings.warn(
        "plies.solvers.solver_for is deprecated: use the game's solver hook, "
        "game.solver(backend) (plies.game.hook(game, 'solver') is None without one)",
        DeprecationWarning,
        stacklevel=2,
    )
    make = hook(game, "solver")
    return None if make is None else make(backend)


deprecated_alias(globals(), "Connect4Solver", "plies.games.connect4.solver.Connect4Solver")
deprecated_alias(globals(), "OthelloSolver", "plies.games.othello.solver.OthelloSolver")

__all__ = ["solver_for"]
