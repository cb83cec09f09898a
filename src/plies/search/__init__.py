"""The minimax family.  Every search reads a game only through the ``Game`` protocol."""

from collections.abc import Callable

from plies.search.alphabeta import alphabeta
from plies.search.analyze import SEARCHERS, analyze, searcher_class
from plies.search.anytime import iterations
from plies.search.bounded import bounded_minimax
from plies.search.common import Limit, SearchResult, SearchStats, StopSignal, TraceEvent
from plies.search.maxn import maxn
from plies.search.minimax import expectiminimax, minimax
from plies.search.narrate import Narrator
from plies.search.quiescence import Quiescent
from plies.search.simultaneous import MatrixSolution, simultaneous, solve_matrix_game

SEARCHES: dict[str, Callable[..., SearchResult]] = {
    "alphabeta": alphabeta,
    "minimax": minimax,
    "bounded": bounded_minimax,
    "expectiminimax": expectiminimax,
    "maxn": maxn,
    "simultaneous": simultaneous,
}
"""Every search entry point by the name the CLI, the web app and agent specs use.

Each takes ``(game, state, limit=None, *, player=None, tie="first", seed=None, trace=None,
stop=None, on_iteration=None, ...)``; :func:`iterations` runs any of them as an anytime
search."""

__all__ = [
    "SEARCHERS",
    "SEARCHES",
    "Limit",
    "MatrixSolution",
    "Narrator",
    "Quiescent",
    "SearchResult",
    "SearchStats",
    "StopSignal",
    "TraceEvent",
    "alphabeta",
    "analyze",
    "bounded_minimax",
    "expectiminimax",
    "iterations",
    "maxn",
    "minimax",
    "searcher_class",
    "simultaneous",
    "solve_matrix_game",
]
