"""Deprecated: moved to :mod:`plies.games.connect4.solver` (this path warns and forwards)."""

from plies._compat import moved_module

moved_module(__name__, "plies.games.connect4.solver")
