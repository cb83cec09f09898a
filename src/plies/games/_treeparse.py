"""Deprecated: moved to :mod:`plies.sources.treeparse` (this path warns and forwards)."""

from plies._compat import moved_module

moved_module(__name__, "plies.sources.treeparse")
