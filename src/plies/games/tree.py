"""Deprecated: moved to :mod:`plies.sources.tree` (this path warns and forwards)."""

from plies._compat import moved_module

moved_module(__name__, "plies.sources.tree")
