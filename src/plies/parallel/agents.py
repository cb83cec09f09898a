"""Deprecated: moved to :mod:`plies.tournament.agents`."""

from plies._compat import moved_module

moved_module(__name__, "plies.tournament.agents")
