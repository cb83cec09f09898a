"""A GDL game's exact solver: memoised minimax (:class:`plies.search.memo.MemoSolver`).

A GDL game is finite by its specification and its states repeat, so each state is solved
once and stored: what the policy layer runs for an exact request of a turn-taking GDL game
(the ``solver`` hook of :class:`~plies.gdl.game.GdlGame`).  This module is the one way
from :mod:`plies.gdl` into the search, as a game package's ``solver.py`` is.
"""

from __future__ import annotations

from typing import Any, Final

from plies.errors import OptionError
from plies.search.memo import MemoSolver

BACKENDS: Final = ("auto", "memo")
"""The one implementation: ``auto`` is ``memo``."""


def memo_solver(game: Any, backend: str = "auto") -> MemoSolver:
    """A new memo solver of ``game`` (a new one per call: a table kept per game would hold
    every state solved for as long as the game lives, and a server loads many).

    Raises:
        OptionError: a backend other than ``auto`` or ``memo``.
    """
    if backend not in BACKENDS:
        raise OptionError(f"backend {backend!r}: a GDL game's solver accepts auto, memo")
    return MemoSolver(game)


__all__ = ["BACKENDS", "memo_solver"]
