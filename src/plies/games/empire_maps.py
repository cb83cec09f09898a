"""Deprecated: moved to :mod:`plies.games.empire.maps` (this path warns and forwards)."""

from plies._compat import moved_module

moved_module(__name__, "plies.games.empire.maps")
