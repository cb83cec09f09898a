"""Deprecated: moved to :mod:`plies.cli.tree` (every command lives in :mod:`plies.cli`)."""

from plies._compat import moved_module

moved_module(__name__, "plies.cli.tree")
