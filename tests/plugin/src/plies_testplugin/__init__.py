"""plies' test plug-in: what another distribution adds to plies by entry point alone.

- :mod:`plies_testplugin.kalah`: the game ``kalah`` (group ``plies.games``).
"""
