"""Analysis of a position: the value of every legal action ("is this a good move?")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from plies.errors import OptionError
from plies.game import Game
from plies.search.alphabeta import engine_setup
from plies.search.common import (
    Limit,
    Searcher,
    SearchResult,
    StopSignal,
    Trace,
    search_with,
)


def searcher_class(name: str) -> type[Searcher]:
    """The searcher of the algorithm called ``name`` in the one registry
    (:data:`plies.search.registry.ALGORITHMS`); an unknown name lists the known ones."""
    from plies.search.registry import algorithm  # the registry imports this module's peers

    cls = algorithm(name).searcher
    if cls is None:
        raise OptionError(f"{name} is not built on plies' depth-first searcher")
    return cls


def analyze(
    game: Game[Any, Any],
    state: Any,
    limit: Limit | None = None,
    *,
    player: int | None = None,
    algorithm: str = "alphabeta",
    tie: str = "first",
    seed: int | None = None,
    trace: Trace | None = None,
    on_iteration: Callable[[SearchResult], None] | None = None,
    stop: StopSignal | None = None,
    **craft: Any,
) -> SearchResult:
    """The value of every legal action at ``state``, each searched with a full window.

    ``action_values`` maps each action (in ``actions()`` order) to the value ``player``
    (default: the player to move) gets after it, by ``algorithm``, any ``analyzable``
    one of the registry ("alphabeta" by default; "mcts": each visited action's mean
    playout value, and ``craft`` takes its ``exploration`` and ``playout``).
    Each value is exact when ``result.exact``, not merely a bound as inside an alpha-beta
    search.  ``value``, ``action`` and ``pv`` are those of the best action, chosen as the
    algorithm would.
    With ``on_iteration`` the search deepens 1, 2, ... and reports every iteration.
    ``craft`` switches on :func:`plies.alphabeta`'s engine craft (``tt``, ``ordering``,
    ``pvs``, ``bisection``: each child of an exact search is then solved by bisection);
    only for ``algorithm="alphabeta"``.  ``stop`` as in :func:`plies.minimax`.
    """
    from plies.search.registry import algorithm as entry_of  # it imports this module's peers

    entry = entry_of(algorithm)
    if not entry.analyzable:
        raise OptionError(f"{algorithm} cannot give the value of every move")
    if entry.takes("all_values"):
        # Not a depth-first searcher (mcts: the values are its root statistics), or one
        # that analyses itself: the registry's contract for all_values=True.
        return entry.search(
            game, state, limit, player=player, tie=tie, seed=seed, trace=trace, stop=stop,
            on_iteration=on_iteration, all_values=True, **craft,
        )
    cls = searcher_class(algorithm)
    configure: Callable[[Any], None] | None = None
    if craft:
        if algorithm != "alphabeta" and not set(craft) <= set(entry.options):
            raise OptionError(f"engine options are for alphabeta, not {algorithm}")
        cls, configure = engine_setup(game, **craft)
    return search_with(
        cls, game, state, limit, player, tie, seed, trace, configure, stop=stop,
        all_values=True, on_iteration=on_iteration,
    )
