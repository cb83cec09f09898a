"""Deprecated: moved to :mod:`plies.policy.session`."""

from plies._compat import moved_module

moved_module(__name__, "plies.policy.session")
