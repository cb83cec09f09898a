"""Deprecated: moved to :mod:`plies.tournament.elo`."""

from plies._compat import moved_module

moved_module(__name__, "plies.tournament.elo")
