"""Deprecated: the front-end policy layer is :mod:`plies.policy` ("engine" now means
engine craft: :mod:`plies.search.craft`).  Its modules moved too: ``policy`` to
:mod:`plies.policy.plan`, ``playing`` to :mod:`plies.policy.session` (``EngineSearch`` is
:class:`~plies.policy.SearchSession`), ``text`` and ``games`` to :mod:`plies.policy`,
``args`` to :mod:`plies.cli.args`."""

from plies._compat import moved_module

moved_module(__name__, "plies.policy")
