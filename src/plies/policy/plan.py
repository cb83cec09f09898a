"""What runs for a game and a request: the dedicated solver, engine craft, or plain search.

Every front end (the CLI, the web app, the GGP player, tournaments, batch analysis and
tree pictures) describes what it wants as a :class:`SearchRequest`, asks :func:`plan`
what will run, and runs it with :meth:`Plan.run`.  The same request therefore gets the
same search everywhere.

The rules of :func:`plan`, in order:

1. A ``threshold`` asks bounded minimax ("can the player get this much?").
2. ``algorithm="auto"`` is simultaneous for games with simultaneous moves,
   expectiminimax for games with chance, else alpha-beta
   (:func:`plies.search.registry.auto_algorithm`).  The algorithm must be able to search
   the game's declared facts, or the request is refused before anything runs.
3. An exact request (no limit, no threshold, the ``first`` tie rule, ``auto``, no
   ``engine``, not traced) that ``auto`` answers with alpha-beta, of a game with an
   exact solver (its ``solver`` hook, :class:`plies.game.Solver`), uses it: Connect
   Four's and Othello's dedicated solvers, a GDL game's memoised minimax
   (:class:`~plies.search.memo.MemoSolver`, "solver (memo)": a GDL game is finite by its
   specification and its states repeat, so each is solved once and stored), a user's
   game's own.
4. Engine craft (``engine=True``, traced or not; with ``auto`` also any game with
   ``value_bounds``, when not traced):
   alpha-beta with the transposition table, move ordering and PVS (and bisection, MTD-bi,
   in an exact search); expectiminimax with Star1 pruning.  ``weak`` is an exact
   alpha-beta search that settles win, draw or loss only.  An engine request with a
   limit (alpha-beta, the ``first`` tie rule, untraced, one best move) of a game with a
   compiled engine (its ``compiled_search`` hook, :class:`plies.game.CompiledEngine`)
   runs that engine instead: chess's Numba engine, "alphabeta (numba)".
5. Otherwise the plain algorithm.

>>> from plies.games import load
>>> ttt = load("tictactoe")
>>> p = plan(ttt, ttt.initial_state(), SearchRequest())
>>> p.kind, p.name, p.options
('plain', 'alphabeta', {})
>>> c4 = load("connect4")
>>> p = plan(c4, c4.initial_state(), SearchRequest(limit=Limit(depth=4)))
>>> p.kind, sorted(p.options)
('engine', ['ordering', 'pvs', 'tt'])
>>> plan(load("pig"), load("pig").initial_state(), SearchRequest(algorithm="alphabeta"))
Traceback (most recent call last):
...
plies.errors.UnsupportedGameError: alphabeta cannot search chance nodes (pig has chance); use ...
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from plies.errors import OptionError, SearchLimitError, UnsupportedGameError
from plies.game import hook
from plies.game.knowledge import NULL_REDUCTION, QUIESCENCE, CompiledEngine, Solver
from plies.search import Limit, SearchResult, SearchStats, analyze
from plies.search.common import StopSignal, Trace
from plies.search.craft import Craft, TranspositionTable
from plies.search.memo import MemoProgress
from plies.search.registry import ALGORITHMS, Algorithm, algorithm, auto_algorithm, names

Kind = Literal["solver", "engine", "plain"]


class Deadline:
    """A stop signal that is set once ``seconds`` have passed.

    A server caps every search with one: the request keeps the limit it asked for (so
    it gets the same search as on the command line), and the cap only stops it.
    """

    def __init__(self, seconds: float) -> None:
        self.at = time.perf_counter() + seconds

    def is_set(self) -> bool:
        return time.perf_counter() > self.at


@dataclass(frozen=True, slots=True)
class SearchRequest:
    """What a front end asks for, before any policy is applied.

    ``algorithm``: a registry name or ``"auto"``.  ``limit``: depth / time / nodes, or None
    for an exact search.  ``player``: whose value to report (None: the mover).  ``tie``:
    ``"first"`` or ``"random"`` (seeded by ``seed``).  ``engine``: ask for engine craft.
    ``threshold``: bounded minimax's satisficing threshold.  ``weak``: win/draw/loss only.
    ``all_values``: the value of every root action (:func:`plies.analyze`).
    ``traced``: the search will report trace events (a trace shows the search that runs,
    with any engine craft asked for; ``auto`` switches none on by itself for a trace).
    ``craft``: more engine switches for an ``engine`` alpha-beta search, by
    :class:`~plies.search.craft.Craft` field name, such as the selective ones of
    :func:`selective_craft` (ignored by an exact search, which has no horizon).
    ``strict_cutoffs``: alpha-beta's strict cut rule (``v > beta`` at a MAX node, ``v <
    alpha`` at a MIN node; see :func:`plies.alphabeta`), for an algorithm that declares
    the option.
    """

    algorithm: str = "auto"
    limit: Limit | None = None
    player: int | None = None
    tie: str = "first"
    seed: int | None = None
    engine: bool = False
    threshold: float | None = None
    weak: bool = False
    all_values: bool = False
    traced: bool = False
    craft: Mapping[str, Any] = field(default_factory=dict)
    strict_cutoffs: bool = False


def algorithm_choices() -> list[str]:
    """What :attr:`SearchRequest.algorithm` may name: ``auto`` and every registered
    algorithm."""
    return ["auto", *ALGORITHMS]


class SolverTest(NamedTuple):
    """One null-window test of a dedicated solver: "is the score > ``m``?"."""

    m: int
    answer: int  # the fail-soft result: > m means yes
    lo: int  # the score is now known to lie in [lo, hi]
    hi: int
    nodes: int  # nodes since the search started
    elapsed: float


@dataclass(frozen=True, slots=True)
class Plan:
    """What will run: ``kind`` (``"solver"``, ``"engine"`` or ``"plain"``), the registry
    entry, the name to show, and the keyword arguments of the search call.

    ``request.player`` is not in ``options``; :meth:`run` passes it.
    """

    kind: Kind
    algorithm: Algorithm
    name: str
    request: SearchRequest
    options: dict[str, Any] = field(default_factory=dict)
    solver: Solver | None = None
    compiled: CompiledEngine | None = None

    @property
    def limit(self) -> Limit | None:
        return self.request.limit

    def run(
        self,
        game: Any,
        state: Any,
        *,
        stop: StopSignal | None = None,
        trace: Trace | None = None,
        on_iteration: Callable[[SearchResult], None] | None = None,
        on_test: Callable[[SolverTest], None] | None = None,
        table: TranspositionTable | None = None,
        on_progress: Callable[[MemoProgress], None] | None = None,
    ) -> SearchResult:
        """Run the plan at ``state``.

        ``stop`` (an object with ``is_set()``, such as :class:`threading.Event`) ends a
        generic search from another thread; it returns its last finished iteration (the
        memo solver, which has no iterations, raises
        :class:`~plies.errors.SearchLimitError`).
        ``on_iteration`` sees every finished iteration, ``on_test`` every null-window
        test of a solver that works by them (Connect Four's), ``on_progress`` the
        progress of one that keeps a table (the memo solver: states solved, nodes,
        elapsed, about four times a second); a solver stopped by ``stop`` raises
        :class:`~plies.errors.SearchLimitError`.  ``table`` is a transposition table
        kept between searches of one game, used when the plan has one.
        """
        try:
            return self._run(game, state, stop, trace, on_iteration, on_test, table,
                             on_progress)
        except RecursionError:
            raise SearchLimitError(
                "the search went deeper than Python's recursion allows (does the game ever "
                "end from here?); give it a depth or a time limit"
            ) from None

    def _run(
        self,
        game: Any,
        state: Any,
        stop: StopSignal | None,
        trace: Trace | None,
        on_iteration: Callable[[SearchResult], None] | None,
        on_test: Callable[[SolverTest], None] | None,
        table: TranspositionTable | None,
        on_progress: Callable[[MemoProgress], None] | None,
    ) -> SearchResult:
        if self.kind == "solver":
            return self._solve(game, state, on_test, on_progress, stop)
        request = self.request
        if self.compiled is not None:
            return self.compiled.search(  # type: ignore[no-any-return]
                game, state, request.limit, player=request.player, stop=stop,
                on_iteration=on_iteration, craft=self.options,
            )
        kwargs: dict[str, Any] = {
            "player": request.player, "tie": request.tie, "seed": request.seed, **self.options,
        }
        if table is not None and kwargs.get("tt"):
            kwargs["tt"] = table
        if trace is not None:
            kwargs["trace"] = trace
        if on_iteration is not None:
            kwargs["on_iteration"] = on_iteration
        if stop is not None:
            kwargs["stop"] = stop
        if request.all_values:
            return analyze(game, state, request.limit, algorithm=self.algorithm.name, **kwargs)
        return self.algorithm.search(game, state, request.limit, **kwargs)

    def _solve(
        self, game: Any, state: Any, on_test: Callable[[SolverTest], None] | None,
        on_progress: Callable[[MemoProgress], None] | None, stop: StopSignal | None,
    ) -> SearchResult:
        solver, request = self.solver, self.request
        assert solver is not None
        nodes0 = solver.nodes
        report = None
        if on_test is not None:
            def report(m: int, r: int, lo: int, hi: int, elapsed: float) -> None:
                assert solver is not None
                on_test(SolverTest(m, r, lo, hi, solver.nodes - nodes0, elapsed))

        if not request.all_values:
            result: SearchResult = solver.solve(
                state, player=request.player, weak=request.weak, on_test=report,
                on_progress=on_progress, stop=stop,
            )
            return result
        start = time.perf_counter()
        values: dict[Any, float] = solver.analyze(state, player=request.player)
        mover = game.to_move(state)
        pick = max if request.player in (None, mover) else min
        best = pick(values.values())
        action = next(a for a, v in values.items() if v == best)
        stats = SearchStats(nodes=solver.nodes - nodes0, elapsed=time.perf_counter() - start)
        return SearchResult(
            best, action, (action,), stats, mover if request.player is None else request.player,
            action_values=values,
        ).about(game, state)


def plan(game: Any, state: Any, request: SearchRequest) -> Plan:
    """What runs for ``request`` at ``state`` (the rules are in the module docstring).

    Raises:
        OptionError: options that do not go together (the message says which).
        UnsupportedGameError: the algorithm cannot search this game; the message names
            one that can.
    """
    if request.tie not in ("first", "random"):
        raise OptionError(f"unknown tie rule {request.tie!r}; use one of: first, random")
    if request.threshold is not None:
        if request.algorithm not in ("auto", "bounded"):
            raise OptionError("a threshold needs the bounded algorithm (or auto)")
        chosen = algorithm("bounded")
    elif request.algorithm == "auto":
        chosen = auto_algorithm(game, state)
    else:
        chosen = algorithm(request.algorithm)
    chosen.check(game, state)
    if request.all_values and not chosen.analyzable:
        able = ", ".join(names(lambda a: a.analyzable))
        raise OptionError(f"{chosen.name} cannot give the value of every move; use one "
                          f"of: {able}")
    if request.traced and not chosen.traceable:
        able = ", ".join(names(lambda a: a.traceable))
        raise OptionError(f"{chosen.name} cannot be traced: it reports no trace events; "
                          f"trace one of: {able}")
    solver = _solver(game, state, request, chosen)
    if solver is not None:
        return Plan("solver", chosen, f"solver ({solver.backend})", request, solver=solver)
    options: dict[str, Any] = {}
    if request.threshold is not None:
        options["threshold"] = request.threshold
    options.update(_craft(game, chosen, request))
    if request.strict_cutoffs:
        if "strict_cutoffs" not in chosen.options:
            able = ", ".join(names(lambda a: "strict_cutoffs" in a.options))
            raise OptionError(f"{chosen.name} makes no alpha-beta cuts, so strict cutoffs "
                              f"do not apply; use one of: {able}")
        options["strict_cutoffs"] = True
    if request.weak:
        if "weak" not in chosen.switches or request.limit is not None:
            raise OptionError("a weak solution needs an exact alpha-beta search (no depth, "
                              "time or node limit)")
        options.update(tt=True, ordering=True, weak=True)
        options.pop("bisection", None)
    if request.all_values:
        # Every action gets a full window: no null windows, no pruning at chance nodes.
        options.pop("pruning", None)
        options.pop("pvs", None)
    kind: Kind = "engine" if options.keys() - {"threshold", "strict_cutoffs"} else "plain"
    compiled = _compiled(game, state, request, chosen) if kind == "engine" else None
    if compiled is not None:
        name = f"{chosen.name} ({compiled.backend})"
        return Plan("engine", chosen, name, request, options, compiled=compiled)
    return Plan(kind, chosen, chosen.name, request, options)


def _solver(
    game: Any, state: Any, request: SearchRequest, chosen: Algorithm
) -> Solver | None:
    """The game's exact solver (its ``solver`` hook), when the request is one it answers
    (rule 3 of :func:`plan`): what exact alpha-beta would answer."""
    if (
        request.algorithm != "auto" or request.engine or request.limit is not None
        or request.threshold is not None or request.tie != "first" or request.traced
        or request.strict_cutoffs
        or chosen.name != "alphabeta" or game.is_terminal(state)
    ):
        return None
    make = hook(game, "solver")
    return None if make is None else make()


def _compiled(
    game: Any, state: Any, request: SearchRequest, chosen: Algorithm
) -> CompiledEngine | None:
    """The game's compiled engine (its ``compiled_search`` hook), when the request is one
    it answers: an engine request with a limit, searched by alpha-beta with the ``first``
    tie rule, untraced, one best move (not every move's value, nor a weak solution)."""
    if (
        not request.engine or request.limit is None or chosen.name != "alphabeta"
        or request.traced or request.all_values or request.weak or request.strict_cutoffs
        or request.threshold is not None or request.tie != "first"
        or request.limit.unit != "ply" or game.is_terminal(state)
    ):
        return None
    make = hook(game, "compiled_search")
    return None if make is None else make()


def _craft(game: Any, chosen: Algorithm, request: SearchRequest) -> dict[str, Any]:
    """The engine-craft keywords for ``request`` (see rule 4 of :func:`plan`)."""
    bounds = request.algorithm == "auto" and chosen.name == "alphabeta" and (
        hook(game, "value_bounds") is not None
    )
    Craft.from_kwargs(**request.craft)  # an unknown switch is named before anything runs
    if request.craft and not (request.engine and set(request.craft) <= set(chosen.switches)):
        raise OptionError(
            f"engine switches ({', '.join(request.craft)}) need the engine's alpha-beta"
        )
    if not request.engine and (request.traced or not bounds):
        return {}
    if not chosen.engine:
        able = " or ".join(names(lambda a: bool(a.engine)))
        raise OptionError(f"the engine is for {able} (or auto), not {chosen.name}")
    options: dict[str, Any] = dict.fromkeys(chosen.engine, True)
    if "pruning" in options:
        lo, hi = getattr(game, "utility_range", (-math.inf, math.inf))
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise UnsupportedGameError(
                f"the engine's pruning at chance nodes (Star1) needs a finite utility_range; "
                f"{getattr(game, 'name', 'this game')} has none: drop the engine"
            )
    if request.limit is None:
        if "bisection" in chosen.switches:  # an exact search: bisection (MTD-bi)
            options["bisection"] = True
    elif request.limit.depth is not None or request.limit.anytime:
        options.update(request.craft)  # selective switches shape a depth-limited tree
    if request.all_values:
        options.pop("pvs", None)
    return options


def selective_craft(game: Any, *, singular: float | None = None) -> dict[str, Any]:
    """The selective switches ``game`` has hooks for, for playing strength.

    Quiescence (:data:`QUIESCENCE` plies) with ``noisy_actions``, extensions with
    ``extension``, null-move pruning (R = :data:`NULL_REDUCTION`) with ``null_move``,
    late-move reductions with ``is_quiet``, and singular extensions when a margin is
    given (in the game's evaluation units).  Pass it as ``SearchRequest(engine=True,
    craft=...)``; an exact search ignores it.

    >>> from plies.games import load
    >>> sorted(selective_craft(load("chess"), singular=50))
    ['extensions', 'null_move', 'quiescence', 'reductions', 'singular']
    >>> selective_craft(load("tictactoe"))
    {}
    """
    craft: dict[str, Any] = {}
    if hook(game, "noisy_actions") is not None:
        craft["quiescence"] = QUIESCENCE
    if hook(game, "extension") is not None:
        craft["extensions"] = True
    if hook(game, "null_move") is not None:
        craft["null_move"] = NULL_REDUCTION
    if hook(game, "is_quiet") is not None:
        craft["reductions"] = True
    if singular is not None:
        craft["singular"] = singular
    return craft


__all__ = [
    "NULL_REDUCTION", "QUIESCENCE", "Deadline", "Kind", "Plan", "SearchRequest", "SolverTest",
    "algorithm_choices", "plan", "selective_craft",
]
