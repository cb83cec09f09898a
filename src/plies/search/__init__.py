"""The minimax family.  Every search reads a game only through the ``Game`` protocol.

:data:`ALGORITHMS` (:mod:`plies.search.registry`) is the registry of the searches by
name, with what each can do (the built-in ones and those plug-ins add); each entry's
``search`` takes ``(game, state, limit=None, *, player=None, tie="first", seed=None,
trace=None, stop=None, on_iteration=None, ...)``, and :func:`iterations` runs any of them
as an anytime search.
"""

from plies.search.alphabeta import alphabeta
from plies.search.analyze import analyze, searcher_class
from plies.search.anytime import iterations
from plies.search.bounded import bounded_minimax
from plies.search.brs import brs, brs_plus
from plies.search.common import Limit, SearchResult, SearchStats, StopSignal, TraceEvent
from plies.search.determinize import determinize
from plies.search.limits import Progress, ProgressReport
from plies.search.maxn import maxn
from plies.search.mcts import MctsTree, mcts
from plies.search.minimax import expectiminimax, minimax
from plies.search.narrate import Narrator
from plies.search.quiescence import Quiescent
from plies.search.registry import ALGORITHMS, Algorithm, algorithm
from plies.search.simultaneous import MatrixSolution, simultaneous, solve_matrix_game

__all__ = [
    "ALGORITHMS",
    "Algorithm",
    "Limit",
    "MatrixSolution",
    "MctsTree",
    "Narrator",
    "Progress",
    "ProgressReport",
    "Quiescent",
    "SearchResult",
    "SearchStats",
    "StopSignal",
    "TraceEvent",
    "algorithm",
    "alphabeta",
    "analyze",
    "bounded_minimax",
    "brs",
    "brs_plus",
    "determinize",
    "expectiminimax",
    "iterations",
    "maxn",
    "mcts",
    "minimax",
    "searcher_class",
    "simultaneous",
    "solve_matrix_game",
]
