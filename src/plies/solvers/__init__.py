"""Dedicated solvers: one game's exact search written for that game alone.

The generic searches of :mod:`plies.search` read a game only through the ``Game``
protocol.  A dedicated solver may know one game's representation; it exists only where
measurements show the generic engine cannot do the job (see each module).  Each lives in
its game's package (:mod:`plies.games.connect4.solver`, :mod:`plies.games.othello.solver`),
imported by none of the game's rule modules; :func:`solver_for` finds the one a game has.

>>> from plies.games import load
>>> solver_for(load("tictactoe")) is None
True
"""

from __future__ import annotations

import weakref
from typing import Any, overload

from plies.errors import OptionError
from plies.games.connect4 import Connect4
from plies.games.connect4.solver import Connect4Solver
from plies.games.othello import Othello
from plies.games.othello.solver import OthelloSolver

_SOLVERS: weakref.WeakKeyDictionary[Any, dict[str, Connect4Solver | OthelloSolver]] = (
    weakref.WeakKeyDictionary()
)


@overload
def solver_for(game: Connect4, backend: str = "auto") -> Connect4Solver: ...
@overload
def solver_for(game: Othello, backend: str = "auto") -> OthelloSolver: ...
@overload
def solver_for(game: Any, backend: str = "auto") -> Connect4Solver | OthelloSolver | None: ...


def solver_for(game: Any, backend: str = "auto") -> Connect4Solver | OthelloSolver | None:
    """The dedicated exact solver of ``game``, kept per game and backend; None if it has none.

    Connect Four has :class:`~plies.games.connect4.solver.Connect4Solver`; Othello has the
    endgame solver :class:`~plies.games.othello.solver.OthelloSolver` (pure Python: backend
    ``auto`` or ``python``), practical for the last 14 or so empty squares.
    """
    if isinstance(game, Othello):
        if backend not in ("auto", "python"):
            raise OptionError(f"backend {backend!r}: the Othello solver accepts auto, python")
        kept = _SOLVERS.setdefault(game, {})
        if "python" not in kept:
            kept["python"] = OthelloSolver(game)
        return kept["python"]
    if not isinstance(game, Connect4):
        return None
    kept = _SOLVERS.setdefault(game, {})
    if backend not in kept:
        kept[backend] = Connect4Solver(game, backend=backend)
    return kept[backend]


__all__ = ["Connect4Solver", "OthelloSolver", "solver_for"]
