"""Alpha-beta, with the engine craft: plies' one alpha-beta, in readable parts.

- :mod:`~plies.search.alphabeta.search`: the entry point :func:`alphabeta` and the
  searcher for a set of engine switches (:func:`setup`).
- :mod:`~plies.search.alphabeta.root`: the searchers, :class:`AlphaBetaSearcher` (plain)
  and :class:`CraftSearcher` (aspiration windows, MTD-bi and weak solving at the root).
- :mod:`~plies.search.alphabeta.core`: the kernel below the root, with the node
  prelude and the move loop, and the contract every part keeps.
- :mod:`~plies.search.alphabeta.table`: the transposition table, the game's value bounds
  and the move order at a node.
- :mod:`~plies.search.alphabeta.selective`: quiescence, extensions, singular extensions,
  null-move pruning and late-move reductions.
- :mod:`~plies.search.alphabeta.chance`: Star1 and Star2 at chance nodes.
- :mod:`~plies.search.alphabeta.context`: what the parts share.

The switches and the table themselves are :mod:`plies.search.craft`.
"""

from plies._compat import deprecated_alias
from plies.search.alphabeta.root import AlphaBetaSearcher, CraftSearcher, selective_hook
from plies.search.alphabeta.search import HOOK_OF, alphabeta, check_selective, engine_setup, setup
from plies.search.craft import Craft, Order

__all__ = [
    "HOOK_OF",
    "AlphaBetaSearcher",
    "Craft",
    "CraftSearcher",
    "Order",
    "alphabeta",
    "check_selective",
    "engine_setup",
    "selective_hook",
    "setup",
]

deprecated_alias(globals(), "EngineSearcher", "plies.search.alphabeta:CraftSearcher")
