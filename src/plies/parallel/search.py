"""Deprecated: moved to :mod:`plies.search.parallel`."""

from plies._compat import moved_module

moved_module(__name__, "plies.search.parallel")
