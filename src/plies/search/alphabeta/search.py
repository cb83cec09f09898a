"""Alpha-beta's entry point: :func:`alphabeta`, and the searcher for a set of switches.

Fail-soft alpha-beta over the paranoid model of :mod:`plies.search.minimax` (the searching
player maximises, every other player minimises its utility; a player with several moves in
a row gets stacked max or min layers).  At the same depth it returns exactly minimax's
value, and with the ``"first"`` tie rule the same action: the root's children are
searched in ``actions()`` order, and a child that can only tie the best so far is given a
window in which it returns a bound, never a value that displaces the first best action.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Final

from plies.errors import OptionError
from plies.game import Game, hook
from plies.search.alphabeta.root import AlphaBetaSearcher, CraftSearcher
from plies.search.common import Limit, SearchResult, StopSignal, search_with
from plies.search.craft import PLAIN, Craft, Order, Ordering, TranspositionTable
from plies.search.mate import MateDistance
from plies.search.result import Trace, TraceEvent


def alphabeta(
    game: Game[Any, Any],
    state: Any,
    limit: Limit | None = None,
    *,
    player: int | None = None,
    tie: str = "first",
    seed: int | None = None,
    trace: Trace | None = None,
    order: Order | None = None,
    tt: bool | int | TranspositionTable = False,
    ordering: bool = False,
    pvs: bool = False,
    aspiration: float | None = None,
    bisection: bool = False,
    weak: bool = False,
    mate: bool = False,
    quiescence: int | None = None,
    extensions: bool = False,
    singular: float | None = None,
    null_move: int | None = None,
    reductions: bool = False,
    craft: Craft | None = None,
    on_iteration: Callable[[SearchResult], None] | None = None,
    stop: StopSignal | None = None,
    strict_cutoffs: bool = False,
) -> SearchResult:
    """Alpha-beta search: :func:`plies.minimax`'s value with fewer nodes.

    ``value`` is from ``player``'s point of view (default: the player to move) under the
    paranoid model, exact when ``result.exact``; with ``limit.depth`` it is the minimax
    value of the depth-limited tree scored by ``game.evaluate`` (in plies or in rounds,
    with every switch).  ``action`` is what :func:`plies.minimax` picks under the same
    tie rule: the first best action in ``actions()`` order, or a seeded random one among
    every equally good action (the root then opens its window by one ulp so each tie is
    an exact value).  ``pv`` is the principal variation.  Chance nodes raise; use
    :func:`plies.expectiminimax`.

    Every switch of the engine craft (:mod:`plies.search.craft`) preserves the value at
    the same depth, and the action under ``tie="first"``; the selective switches
    (quiescence, extensions) change what a depth-limited search sees, and forward
    pruning (``singular``, ``null_move``, ``reductions``) trades exactness for depth.
    With ``tt`` or ``ordering`` a depth-limited search deepens iteratively (1, 2, ...,
    ``limit.depth``) to fill the table and the move ordering, trying each iteration's
    best move first at the root without changing which action the tie rule picks.

    A traced search visits exactly the nodes the untraced one visits: the same value,
    action, principal variation and statistics, and one ``"enter"`` per counted node.

    Args:
        game: the game, read only through the :class:`~plies.game.Game` protocol.
        state: the root position.
        limit: a :class:`~plies.search.limits.Limit` (depth, time, nodes); None
            searches to the end of the game (an exact value).
        player: whose point of view ``value`` takes; default the player to move.
        tie: ``"first"`` (the first best action in ``actions()`` order) or
            ``"random"`` (a seeded random one among the equally good actions).
        seed: the seed of ``tie="random"``.
        trace: called with every :class:`~plies.search.result.TraceEvent` of the
            search that runs, with every switch: the plain algorithm's events and what
            the craft does (a table hit, the order the moves were tried in, a
            null-window test and its re-search, a null move, an extension, a reduction,
            a quiescence stand-pat).  With ``mate`` the events carry the game's own
            states (the values are the mate-distance scores the search compares).
        order: ``order(state, actions)`` returns the same actions in the order to try
            them (best first prunes most).  Children are otherwise searched in
            ``actions()`` order.  Ordering never changes the value; the root keeps
            ``actions()`` order so that the tie rule still picks minimax's action.
        tt: a transposition table keyed by ``game.key``: True, a number of slots, or a
            :class:`~plies.search.craft.TranspositionTable` kept from an earlier search
            of the same game, whose entries are then reused.
        ordering: move ordering by the table move, killer moves, the history heuristic
            and the game's ``order_hint`` hook.
        pvs: principal variation search (null windows after the first move).
        aspiration: a half-width: each iteration's root is searched in a window that
            wide around the last iteration's value.
        bisection: find the root value by null-window tests (MTD-bi, the Connect Four
            solvers' method; see :class:`~plies.search.alphabeta.CraftSearcher`).
        weak: exact searches only: settle just win, draw or loss against the middle of
            ``utility_range``; the value is exact for a draw, else a bound on the right
            side (``exact`` is False).
        mate: prefer the fastest win and the slowest loss (:mod:`plies.search.mate`):
            among actions of equal value the shortest forced win (longest loss) is
            chosen, and ``value`` stays the exact utility.  It assumes that no utility
            other than the two ends of a finite ``utility_range`` lies within
            ``(hi - lo) / 65536`` of them.
        quiescence: depth-limited searches: search up to that many noisy plies past the
            depth limit (the game's ``noisy_actions`` hook) inside the search's window,
            the same value as :class:`~plies.search.quiescence.Quiescent` as the
            evaluation.  Ignored in an exact search, which has no horizon.
        extensions: depth-limited searches: search a move one ply deeper when the
            game's ``extension(state, action, child)`` hook says so (checks in chess).
        singular: forward pruning, a margin in value units: extend a table move that is
            better than every other move by the margin in a shallower search (needs
            ``tt`` and ``ordering``).
        null_move: forward pruning, a reduction R: cut a node off when passing (the
            game's ``null_move`` hook) still fails high in a search R plies shallower.
        reductions: forward pruning: search late quiet moves (the game's ``is_quiet``
            hook) one ply shallower first (late-move reductions).  See
            :mod:`plies.search.alphabeta.selective` for the selective switches.
        craft: the same switches as one :class:`~plies.search.craft.Craft`; the
            keywords must then be left at their defaults.
        on_iteration: called with the result of every completed iteration.
        stop: a ``threading.Event`` (anything with ``is_set()``) that ends the search
            from outside; the result is then the last completed iteration.
        strict_cutoffs: the cut rule.  By default a node's remaining children are cut as
            soon as ``alpha >= beta``; with True only when a bound is strictly passed:
            ``v > beta`` at a MAX node, ``v < alpha`` at a MIN node (the rule of courses
            whose autograders count the states alpha-beta generates, such as the
            Berkeley Pacman projects).  Both give minimax's value and action; the strict
            rule searches more nodes (it also explores the children after a tie with a
            bound).  Every switch follows the chosen rule (the table's and the game's
            bounds settle a node only when its value strictly passes the window);
            chance nodes keep Star1's bounds.

    Returns:
        ``value``, ``action``, ``pv``, ``exact`` and the search's statistics, as a
        :class:`~plies.search.result.SearchResult`.

    Raises:
        OptionError: a switch the game cannot serve (a hook it lacks), ``singular``
            without ``tt`` and ``ordering``, or switches given both as ``craft`` and as
            keywords.
        UnsupportedGameError: the game has chance or simultaneous nodes.

    >>> from plies.games import load
    >>> ttt = load("tictactoe")
    >>> r = alphabeta(ttt, ttt.initial_state())
    >>> r.value, r.stats.nodes < 549_946
    (0.0, True)
    >>> alphabeta(ttt, ttt.initial_state(), tt=True, ordering=True).value
    0.0
    """
    given = Craft(
        order, tt, ordering, pvs, aspiration, bisection, weak, mate, quiescence, extensions,
        singular, null_move, reductions,
    )
    if craft is None:
        craft = given
    elif given != PLAIN:
        raise OptionError(
            f"give the engine switches either as craft= or as keywords, not both "
            f"({', '.join(given.as_kwargs())})"
        )
    if craft.mate:
        wrapped = MateDistance(game)

        def unwrap(r: SearchResult) -> SearchResult:
            values = r.action_values
            if values is not None:
                values = {a: wrapped.exact_value(v) for a, v in values.items()}
            return dataclasses.replace(
                r, value=wrapped.exact_value(r.value), action_values=values
            )

        report = None if on_iteration is None else (lambda r: on_iteration(unwrap(r)))
        inner = None if trace is None else _unwrapped_states(trace)
        return unwrap(alphabeta(
            wrapped, wrapped.root(state), limit, player=player, tie=tie, seed=seed,
            trace=inner, craft=dataclasses.replace(craft, mate=False), on_iteration=report,
            stop=stop, strict_cutoffs=strict_cutoffs,
        ))
    cls, configure = setup(game, craft, stop=stop, strict=strict_cutoffs)
    deepen = craft.deepens and limit is not None and limit.depth is not None
    return search_with(
        cls, game, state, limit, player, tie, seed, trace, configure,
        deepen=deepen, on_iteration=on_iteration, stop=stop,
    )


def _unwrapped_states(trace: Trace) -> Trace:
    """``trace`` for a search of :class:`MateDistance`: events with the game's states."""

    def report(event: TraceEvent) -> None:
        trace(dataclasses.replace(event, state=event.state[0]))

    return report


def setup(
    game: Game[Any, Any], craft: Craft, *, stop: StopSignal | None = None,
    strict: bool = False,
) -> tuple[type[AlphaBetaSearcher], Callable[[Any], None]]:
    """The searcher class for ``craft`` and a ``configure`` that sets it on one searcher
    (``strict``: the strict cut rule, see :func:`alphabeta`'s ``strict_cutoffs``).

    ``mate`` wraps the game, which only :func:`alphabeta` does: it is refused here.
    """
    if craft.mate:
        raise OptionError("mate-distance scores are a switch of plies.alphabeta only")
    check_selective(game, craft)
    table = craft.table()
    memory = Ordering() if craft.ordering else None
    hint = craft.order or (getattr(game, "order_hint", None) if craft.ordering else None)

    def configure(searcher: AlphaBetaSearcher) -> None:
        searcher.order = craft.order
        searcher.stop = stop
        searcher.strict = strict
        if isinstance(searcher, CraftSearcher):
            searcher.craft, searcher.table, searcher.memory, searcher.hint = (
                craft, table, memory, hint
            )
            searcher.keeps_partial = bool(craft.selective)  # a playing engine

    return (CraftSearcher if craft.engine else AlphaBetaSearcher), configure


def engine_setup(
    game: Game[Any, Any], **switches: Any
) -> tuple[type[AlphaBetaSearcher], Callable[[Any], None]]:
    """:func:`setup` with the switches as keywords (``Craft.from_kwargs`` checks them;
    ``strict_cutoffs`` is the cut rule, not a switch)."""
    strict = bool(switches.pop("strict_cutoffs", False))
    return setup(game, Craft.from_kwargs(**switches), strict=strict)


HOOK_OF: Final = {"extensions": "extension", "null_move": "null_move", "reductions": "is_quiet"}
"""The game hook each selective switch needs."""


def check_selective(game: Game[Any, Any], craft: Craft) -> None:
    """Refuse selective switches the game cannot serve, before anything runs.

    Raises:
        OptionError: a switch whose hook the game lacks, or ``singular`` without a table.
    """
    for switch, name in HOOK_OF.items():
        if getattr(craft, switch) not in (False, None) and hook(game, name) is None:
            raise OptionError(
                f"{switch} needs the game's {name} hook; "
                f"{getattr(game, 'name', 'this game')} has none"
            )
    if craft.singular is not None and (craft.tt is False or not craft.ordering):
        raise OptionError(
            "singular extensions test the table's move: they need tt and ordering"
        )

