"""plies' test plug-in: what another distribution adds to plies by entry point alone.

- :mod:`plies_testplugin.kalah`: the game ``kalah`` (group ``plies.games``).
- :mod:`plies_testplugin.negamax`: the algorithm ``negamax-plugin`` (group
  ``plies.algorithms``).
- :mod:`plies_testplugin.hello`: the command ``plies hello-plugin`` (group
  ``plies.commands``).
"""
