"""Dedicated solvers: one game's exact search written for that game alone.

The generic searches of :mod:`plies.search` read a game only through the ``Game``
protocol.  A dedicated solver may know one game's representation; it exists only where
measurements show the generic engine cannot do the job (see each module).  Layering:
``games <- search <- solvers <- cli``; no game imports a solver.

>>> from plies.games import load
>>> solver_for(load("tictactoe")) is None
True
"""

from __future__ import annotations

import weakref
from typing import Any

from plies.games.connect4 import Connect4
from plies.solvers.connect4 import Connect4Solver

_SOLVERS: weakref.WeakKeyDictionary[Any, dict[str, Connect4Solver]] = (
    weakref.WeakKeyDictionary()
)


def solver_for(game: Any, backend: str = "auto") -> Connect4Solver | None:
    """The dedicated exact solver of ``game``, kept per game and backend; None if it has none.

    Only Connect Four has one: :class:`~plies.solvers.connect4.Connect4Solver`.
    """
    if not isinstance(game, Connect4):
        return None
    kept = _SOLVERS.setdefault(game, {})
    if backend not in kept:
        kept[backend] = Connect4Solver(game, backend=backend)
    return kept[backend]


__all__ = ["Connect4Solver", "solver_for"]
