"""Deprecated: moved to :mod:`plies.cli.args`."""

from plies._compat import moved_module

moved_module(__name__, "plies.cli.args")
