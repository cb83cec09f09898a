"""Deprecated: the engine craft lives in :mod:`plies.search.craft` now."""

from plies._compat import moved_module

moved_module(__name__, "plies.search.craft")
