"""Where games come from besides the built-in rule sets: file formats and adapters.

- :mod:`plies.sources.tree`: :class:`~plies.sources.tree.TreeGame`, explicit game trees
  read from a ``.tree`` or ``.json`` file (parsed by :mod:`plies.sources.treeparse`);
- :mod:`plies.sources.openspiel`: every OpenSpiel game, ``openspiel:NAME``;
- :mod:`plies.sources.python`: your own code, a ``module:attribute`` spec.

:func:`plies.games.load` reads all of them; each module is imported where it is used.
"""
