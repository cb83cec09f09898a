"""Negamax with alpha-beta pruning, added to plies as a plug-in algorithm (``negamax-plugin``).

Negamax (Knuth and Moore 1975) is alpha-beta written with one rule for every node: the
mover maximises its own view of the value, and the view flips sign when the mover
changes.  Here the view is the searching player ``p``'s paranoid value ``W``: a node
whose mover is ``p`` sees ``+W``, any other node ``-W``, so the search is minimax's for
any game of two players (zero-sum or not) and a mover may move several times in a row.

The search meets plies' search contract (:mod:`plies.search.registry`): a depth limit in
plies scored with the game's ``evaluate``, a time or node budget (iterative deepening,
returning the last completed iteration), a stop signal, the ``first`` and ``random``
tie rules, and ``all_values=True`` for the value of every root action.  It reports no
trace events, and it searches neither chance nor simultaneous moves nor more than two
players; its registry entry, :data:`NEGAMAX`, says all that, so that plies refuses it
with the reason wherever it cannot be used.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from plies.errors import OptionError, UnsupportedGameError
from plies.game import CHANCE, SIMULTANEOUS, game_ops
from plies.search import Limit, SearchResult, SearchStats
from plies.search.registry import Algorithm

INF = math.inf
CHECK_EVERY = 256  # nodes between two looks at the clock, the node budget and the stop signal
END = 1 << 30  # the depth of a search to the end of the game (no game is that long)


class _OutOfTime(Exception):
    """The budget is spent or the stop signal is set: abandon the iteration."""


class _Negamax:
    """One search: the game's operations, the searching player and the counters."""

    def __init__(self, game: Any, player: int, deadline: float | None, budget: int | None,
                 stop: Any) -> None:
        self.ops = game_ops(game)
        self.player = player
        self.deadline = deadline
        self.budget = budget
        self.stop = stop
        self.stats = SearchStats()
        self.cut = False  # an evaluation was used in this iteration: the value is not exact
        self.top = 0  # the iteration's depth
        self.height = 0  # the deepest ply reached

    def count(self) -> None:
        stats = self.stats
        stats.nodes += 1
        if self.budget is not None and stats.nodes > self.budget:
            raise _OutOfTime
        if stats.nodes % CHECK_EVERY == 0:
            if self.stop is not None and self.stop.is_set():
                raise _OutOfTime
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise _OutOfTime

    def sign(self, state: Any) -> int:
        """+1 where the searching player moves, -1 where its opponent does."""
        mover = self.ops.to_move(state)
        if mover in (CHANCE, SIMULTANEOUS) or not 0 <= mover < 2:
            raise UnsupportedGameError(
                "negamax-plugin searches two players' turns only; this position has "
                + ("chance" if mover == CHANCE else "simultaneous moves"
                   if mover == SIMULTANEOUS else f"the mover {mover}")
            )
        return 1 if mover == self.player else -1

    def value(self, state: Any, depth: int, alpha: float, beta: float,
              color: int) -> tuple[float, tuple[Any, ...]]:
        """``color * W(state)`` within the window ``(alpha, beta)`` (fail-soft: outside
        the window the result is a bound on the right side), and the line below it."""
        self.count()
        self.height = max(self.height, self.top - depth)
        ops = self.ops
        if ops.is_terminal(state):
            self.stats.leaves += 1
            return color * ops.utility(state, self.player), ()
        if depth == 0:
            self.stats.leaves += 1
            self.stats.evals += 1
            self.cut = True
            return color * ops.evaluate(state, self.player), ()
        own = self.sign(state)
        if own == color:
            return self.node(state, depth, alpha, beta, own)
        v, line = self.node(state, depth, -beta, -alpha, own)
        return -v, line

    def node(self, state: Any, depth: int, alpha: float, beta: float,
             own: int) -> tuple[float, tuple[Any, ...]]:
        """The mover's view ``own * W`` of a node that is not a leaf, and its PV."""
        best, line = -INF, ()
        for action in self.ops.actions(state):
            v, below = self.value(self.ops.result(state, action), depth - 1, alpha, beta, own)
            if v > best:
                best, line = v, (action, *below)
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        self.stats.cutoffs += 1
                        break
        return best, line

    def root(self, state: Any, depth: int, tie: str, rng: random.Random | None,
             every: bool) -> SearchResult:
        """One iteration to ``depth`` plies (a depth no game reaches: to the end)."""
        self.cut = False
        self.top = depth
        if depth == 0:
            self.count()
            self.stats.evals += 1
            self.cut = True
            value = self.ops.evaluate(state, self.player)
            return SearchResult(value, None, (), self.stats, self.player, exact=False)
        own = self.sign(state)
        full = every or tie == "random"  # every root action's exact value is needed
        alpha = -INF
        seen: dict[Any, tuple[float, tuple[Any, ...]]] = {}  # action -> own's view, line
        for action in self.ops.actions(state):
            child = self.ops.result(state, action)
            seen[action] = self.value(child, depth - 1, -INF if full else alpha, INF, own)
            alpha = max(alpha, seen[action][0])
        best = max(v for v, _ in seen.values())
        tied = [a for a, (v, _) in seen.items() if v == best]  # exact: the first is
        action = rng.choice(tied) if tie == "random" and rng is not None else tied[0]
        return SearchResult(
            value=own * best, action=action, pv=(action, *seen[action][1]), stats=self.stats,
            player=self.player, exact=not self.cut,
            action_values={a: own * v for a, (v, _) in seen.items()} if every else None,
        )


def negamax(
    game: Any,
    state: Any,
    limit: Limit | None = None,
    *,
    player: int | None = None,
    tie: str = "first",
    seed: int | None = None,
    trace: Any = None,
    stop: Any = None,
    on_iteration: Callable[[SearchResult], None] | None = None,
    all_values: bool = False,
) -> SearchResult:
    """Negamax with alpha-beta: minimax's (paranoid) value of ``state`` for ``player``.

    ``value`` is from ``player``'s point of view (default: the mover), exact when
    ``result.exact``; ``action`` is the first best action in ``actions()`` order (or a
    seeded random one among the best with ``tie="random"``).  ``limit.depth`` counts
    plies; with ``limit.time`` or ``limit.nodes`` (or a ``stop`` signal) it deepens 1,
    2, ... and returns the last iteration it completed (``stopped=True`` when cut short).
    """
    if trace is not None:
        raise OptionError("negamax-plugin reports no trace events; trace minimax instead")
    if tie not in ("first", "random"):
        raise OptionError(f"unknown tie rule {tie!r}; use one of: first, random")
    if int(game.num_players) != 2 or getattr(game, "has_chance", False) or getattr(
        game, "has_simultaneous", False
    ):
        raise UnsupportedGameError(
            "negamax-plugin searches two-player games without chance or simultaneous moves"
        )
    limit = limit or Limit()
    if limit.unit != "ply":
        raise OptionError("negamax-plugin counts its depth in plies, not rounds")
    start = time.perf_counter()
    mover = game.to_move(state) if not game.is_terminal(state) else 0
    me = mover if player is None else player
    search = _Negamax(
        game, me, None if limit.time is None else start + limit.time, limit.nodes, stop
    )
    if game.is_terminal(state):
        return SearchResult(game.utility(state, me), None, (), search.stats, me)
    rng = random.Random(seed) if tie == "random" else None
    anytime = limit.time is not None or limit.nodes is not None or stop is not None
    final = limit.depth if limit.depth is not None else END
    depths = range(1, final + 1) if anytime and final > 0 else [final]
    last: SearchResult | None = None
    stopped = False
    for depth in depths:
        try:
            result = search.root(state, depth, tie, rng, all_values)
        except _OutOfTime:
            stopped = True
            break
        search.stats.depth = search.height if depth == END else depth
        last = result
        if on_iteration is not None:
            on_iteration(last)
        if last.exact:  # nothing was cut off: deeper iterations find the same
            break
    search.stats.elapsed = time.perf_counter() - start
    if last is None:  # stopped before the first iteration completed: the first action
        first = next(iter(game.actions(state)))
        return SearchResult(
            game_ops(game).evaluate(state, me), first, (first,), search.stats, me,
            exact=False, stopped=True,
        )
    return SearchResult(
        last.value, last.action, last.pv, search.stats, me, exact=last.exact,
        action_values=last.action_values, stopped=stopped,
    )


NEGAMAX = Algorithm(
    name="negamax-plugin",
    search=negamax,
    searcher=None,
    summary="negamax with alpha-beta (a plug-in: plies_testplugin)",
    value="paranoid minimax value for the searching player",
    traceable=False,
    players=2,
)
"""The registry entry, declared in this distribution's ``pyproject.toml``."""
