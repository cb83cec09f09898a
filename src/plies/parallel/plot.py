"""Deprecated: moved to :mod:`plies.tournament.plot`."""

from plies._compat import moved_module

moved_module(__name__, "plies.tournament.plot")
