"""Deprecated: moved to :mod:`plies.cli.uci` (every command lives in :mod:`plies.cli`)."""

from plies._compat import moved_module

moved_module(__name__, "plies.cli.uci")
