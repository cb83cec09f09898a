"""One table of the search algorithms, each with what it can do.

Every front end (the CLI, the web catalogue, tournaments, batch analysis, tree pictures,
:func:`plies.analyze`) reads this table, so an algorithm registered here once is
available everywhere, or refused with a message that says what it cannot do and what to
use instead.

>>> from plies.search.registry import ALGORITHMS, algorithm
>>> list(ALGORITHMS)  # doctest: +NORMALIZE_WHITESPACE
['alphabeta', 'minimax', 'bounded', 'expectiminimax', 'maxn', 'simultaneous', 'mcts',
 'paranoid', 'brs', 'brs+']
>>> algorithm("maxn").chance, algorithm("alphabeta").chance
(True, False)
>>> algorithm("negamax")
Traceback (most recent call last):
...
plies.errors.OptionError: unknown algorithm 'negamax'; use one of: alphabeta, minimax, ...
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from plies.errors import OptionError, UnsupportedGameError
from plies.game import CHANCE, SIMULTANEOUS
from plies.search.alphabeta import AlphaBetaSearcher, alphabeta
from plies.search.bounded import BoundedSearcher, bounded_minimax
from plies.search.brs import BrsPlusSearcher, BrsSearcher, brs, brs_plus
from plies.search.common import Searcher, SearchResult
from plies.search.maxn import MaxnSearcher, maxn
from plies.search.mcts import MctsSearcher, mcts
from plies.search.minimax import (
    ExpectiminimaxSearcher,
    MinimaxSearcher,
    expectiminimax,
    minimax,
)
from plies.search.simultaneous import SimultaneousSearcher, simultaneous

Search = Callable[..., SearchResult]

ENGINE_SWITCHES: Final = ("tt", "ordering", "pvs", "aspiration", "bisection", "weak", "mate")
"""The engine-craft switches of :func:`plies.alphabeta` (see its docstring)."""


@dataclass(frozen=True, slots=True)
class Algorithm:
    """A search algorithm and its capabilities.

    ``value`` says what the result's ``value`` means.  ``exact``: without a limit it
    returns the game-theoretic value of its model (paranoid, expected, max^n, mixed);
    ``heuristic``: it takes a depth limit and scores the cutoff with ``evaluate``.
    ``depth``: it takes a depth limit at all (False for ``mcts``, which has only a time or
    iteration budget; front ends then offer no depth).  :attr:`chance` /
    :attr:`simultaneous`: it searches CHANCE / SIMULTANEOUS nodes, and
    :attr:`players` is the largest number of players it accepts (None: any); these come
    from the searcher class, which checks them before every search.  ``traceable``: it
    reports trace events (narration, tree pictures).  ``analyzable``: :func:`plies.analyze`
    can give every root action's value with it.  ``switches``: the
    engine-craft keywords it takes.  ``options``: its other keywords.
    """

    name: str
    search: Search
    searcher: type[Searcher]
    summary: str
    value: str
    exact: bool = True
    heuristic: bool = True
    depth: bool = True
    traceable: bool = True
    analyzable: bool = True
    switches: tuple[str, ...] = ()
    options: tuple[str, ...] = ()

    @property
    def chance(self) -> bool:
        return self.searcher.chance_ok

    @property
    def simultaneous(self) -> bool:
        return self.searcher.simultaneous_ok

    @property
    def players(self) -> int | None:
        return self.searcher.max_players

    def refusal(self, game: Any, state: Any = None) -> str | None:
        """Why this algorithm cannot search ``game`` (from ``state``), or None.

        Reads the game's declared facts (``has_chance``, ``has_simultaneous``,
        ``num_players``: the searcher's own up-front check) and, when given, the mover
        at ``state``.
        """
        try:
            self.searcher.refuse(game)
        except UnsupportedGameError as err:
            return str(err)
        mover = None
        if state is not None and not game.is_terminal(state):
            mover = game.to_move(state)
        name = getattr(game, "name", "this game")
        if mover == CHANCE and not self.chance:
            return (f"{self.name} cannot search chance nodes (the position in {name} is "
                    f"one); use {_alternatives(lambda a: a.chance)}")
        if mover == SIMULTANEOUS and not self.simultaneous:
            return (f"{self.name} cannot search simultaneous moves (the position in {name} "
                    f"has them); use {_alternatives(lambda a: a.simultaneous)}")
        return None

    def check(self, game: Any, state: Any = None) -> None:
        """Raise :class:`UnsupportedGameError` if :meth:`refusal` has a reason."""
        reason = self.refusal(game, state)
        if reason is not None:
            raise UnsupportedGameError(reason)


def _alternatives(fits: Callable[[Algorithm], bool]) -> str:
    names = [a.name for a in ALGORITHMS.values() if fits(a)]
    return " or ".join(names) if names else "another algorithm"


_TABLE: Final = (
    Algorithm(
        "alphabeta", alphabeta, AlphaBetaSearcher,
        "alpha-beta: minimax's value with fewer nodes; the engine craft lives here",
        "paranoid minimax value for the searching player",
        switches=ENGINE_SWITCHES, options=("order",),
    ),
    Algorithm(
        "minimax", minimax, MinimaxSearcher,
        "the textbook recursion over the whole (depth-limited) tree",
        "paranoid minimax value for the searching player",
    ),
    Algorithm(
        "bounded", bounded_minimax, BoundedSearcher,
        "minimax that stops at the top of utility_range, or at a satisficing threshold",
        "minimax value; with a threshold a bound on the right side of it",
        options=("threshold",),
    ),
    Algorithm(
        "expectiminimax", expectiminimax, ExpectiminimaxSearcher,
        "chance nodes averaged by probability (expectimax with modelled opponents)",
        "expected utility of the searching player",
        switches=("pruning",),
    ),
    Algorithm(
        "maxn", maxn, MaxnSearcher,
        "every player maximises its own utility (utility vectors)",
        "the searching player's entry of the max^n utility vector",
    ),
    Algorithm(
        "simultaneous", simultaneous, SimultaneousSearcher,
        "backward induction with a matrix game solved by linear programming at "
        "every simultaneous stage",
        "mixed-strategy value of the searching player",
        options=("memo",),
    ),
    Algorithm(
        "mcts", mcts, MctsSearcher,
        "Monte Carlo tree search (UCT): random playouts under a time or iteration budget",
        "the searching player's mean playout utility after the most visited action",
        exact=False, depth=False, traceable=False,
        options=("exploration", "playout", "solver", "selection"),
    ),
    Algorithm(
        "paranoid", alphabeta, AlphaBetaSearcher,
        "alpha-beta under its multi-player name: every opponent minimises the searcher's "
        "utility (Sturtevant and Korf 2000)",
        "paranoid minimax value for the searching player",
        options=("order",),
    ),
    Algorithm(
        "brs", brs, BrsSearcher,
        "Best-Reply Search: only the strongest opponent replies, the others pass "
        "(needs the game hook pass_turn_to with 3+ players)",
        "the searching player's value when only the best reply is played",
        options=("pruning",),
    ),
    Algorithm(
        "brs+", brs_plus, BrsPlusSearcher,
        "BRS+: only the strongest opponent searches its reply, the others play their "
        "first ordered move",
        "the searching player's value when only the best reply is searched",
        options=("pruning",),
    ),
)

ALGORITHMS: Final[Mapping[str, Algorithm]] = MappingProxyType({a.name: a for a in _TABLE})
"""Every search algorithm by the name the CLI, the web app and agent specs use."""


def algorithm(name: str) -> Algorithm:
    """The algorithm called ``name``; an unknown name lists the known ones."""
    try:
        return ALGORITHMS[name]
    except KeyError:
        known = ", ".join(ALGORITHMS)
        raise OptionError(f"unknown algorithm {name!r}; use one of: {known}") from None


def auto_algorithm(game: Any, state: Any = None) -> Algorithm:
    """The algorithm ``auto`` picks: simultaneous for simultaneous moves, expectiminimax
    for chance, else alpha-beta."""
    mover = None if state is None or game.is_terminal(state) else game.to_move(state)
    if getattr(game, "has_simultaneous", False) or mover == SIMULTANEOUS:
        return ALGORITHMS["simultaneous"]
    if getattr(game, "has_chance", False) or mover == CHANCE:
        return ALGORITHMS["expectiminimax"]
    return ALGORITHMS["alphabeta"]


__all__ = ["ALGORITHMS", "ENGINE_SWITCHES", "Algorithm", "algorithm", "auto_algorithm"]
