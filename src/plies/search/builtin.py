"""The built-in search algorithms, each declared with its capabilities.

They are registered exactly as a plug-in registers an algorithm: the registry
(:mod:`plies.search.registry`) names each one ``"plies.search.builtin:NAME"``, the form of
an entry point, and imports this module when one is first used.
"""

from __future__ import annotations

from typing import Final

from plies.search.alphabeta import AlphaBetaSearcher, alphabeta
from plies.search.bounded import BoundedSearcher, bounded_minimax
from plies.search.brs import BrsPlusSearcher, BrsSearcher, brs, brs_plus
from plies.search.maxn import MaxnSearcher, maxn
from plies.search.mcts import MctsSearcher, mcts
from plies.search.minimax import (
    ExpectiminimaxSearcher,
    MinimaxSearcher,
    expectiminimax,
    minimax,
)
from plies.search.registry import ENGINE_SWITCHES, Algorithm
from plies.search.simultaneous import SimultaneousSearcher, simultaneous

ALPHABETA: Final = Algorithm(
    "alphabeta", alphabeta, AlphaBetaSearcher,
    "alpha-beta: minimax's value with fewer nodes; the engine craft lives here",
    "paranoid minimax value for the searching player",
    switches=ENGINE_SWITCHES, options=("order", "strict_cutoffs"),
    engine=("tt", "ordering", "pvs"),
)

MINIMAX: Final = Algorithm(
    "minimax", minimax, MinimaxSearcher,
    "the textbook recursion over the whole (depth-limited) tree",
    "paranoid minimax value for the searching player",
)

BOUNDED: Final = Algorithm(
    "bounded", bounded_minimax, BoundedSearcher,
    "minimax that stops at the top of utility_range, or at a satisficing threshold",
    "minimax value; with a threshold a bound on the right side of it",
    options=("threshold",),
)

EXPECTIMINIMAX: Final = Algorithm(
    "expectiminimax", expectiminimax, ExpectiminimaxSearcher,
    "chance nodes averaged by probability (expectimax with modelled opponents)",
    "expected utility of the searching player",
    switches=("pruning",), engine=("pruning",),
)

MAXN: Final = Algorithm(
    "maxn", maxn, MaxnSearcher,
    "every player maximises its own utility (utility vectors)",
    "the searching player's entry of the max^n utility vector",
    rule="maxn",
)

SIMULTANEOUS: Final = Algorithm(
    "simultaneous", simultaneous, SimultaneousSearcher,
    "backward induction with a matrix game solved by linear programming at "
    "every simultaneous stage",
    "mixed-strategy value of the searching player",
    options=("memo",),
)

MCTS: Final = Algorithm(
    "mcts", mcts, MctsSearcher,
    "Monte Carlo tree search (UCT): random playouts under a time or iteration budget",
    "the searching player's mean playout utility after the most visited action",
    exact=False, depth=False, traceable=False,
    options=("exploration", "playout", "solver", "selection"),
)

PARANOID: Final = Algorithm(
    "paranoid", alphabeta, AlphaBetaSearcher,
    "alpha-beta under its multi-player name: every opponent minimises the searcher's "
    "utility (Sturtevant and Korf 2000)",
    "paranoid minimax value for the searching player",
    options=("order", "strict_cutoffs"),
)

BRS: Final = Algorithm(
    "brs", brs, BrsSearcher,
    "Best-Reply Search: only the strongest opponent replies, the others pass "
    "(needs the game hook pass_turn_to with 3+ players)",
    "the searching player's value when only the best reply is played",
    options=("pruning",),
)

BRS_PLUS: Final = Algorithm(
    "brs+", brs_plus, BrsPlusSearcher,
    "BRS+: only the strongest opponent searches its reply, the others play their "
    "first ordered move",
    "the searching player's value when only the best reply is searched",
    options=("pruning",),
)

__all__ = [
    "ALPHABETA", "BOUNDED", "BRS", "BRS_PLUS", "EXPECTIMINIMAX", "MAXN", "MCTS", "MINIMAX",
    "PARANOID", "SIMULTANEOUS",
]
