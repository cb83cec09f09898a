"""The minimax family.  Every search reads a game only through the ``Game`` protocol."""

from plies.search.alphabeta import alphabeta
from plies.search.analyze import SEARCHERS, analyze, searcher_class
from plies.search.bounded import bounded_minimax
from plies.search.common import Limit, SearchResult, SearchStats, TraceEvent
from plies.search.maxn import maxn
from plies.search.minimax import expectiminimax, minimax
from plies.search.narrate import Narrator
from plies.search.quiescence import Quiescent
from plies.search.simultaneous import MatrixSolution, simultaneous, solve_matrix_game

__all__ = [
    "SEARCHERS",
    "Limit",
    "MatrixSolution",
    "Narrator",
    "Quiescent",
    "SearchResult",
    "SearchStats",
    "TraceEvent",
    "alphabeta",
    "analyze",
    "bounded_minimax",
    "expectiminimax",
    "maxn",
    "minimax",
    "searcher_class",
    "simultaneous",
    "solve_matrix_game",
]
