"""Memoised minimax: the exact value of a finite game whose states repeat, each state once.

Alpha-beta with a transposition table (:mod:`plies.search.craft`) is made for trees too
large to store: its table has a fixed number of slots, one bound per slot, and an entry
is replaced when another state lands in its slot.  A mid-size game (a few hundred
thousand to a few million reachable states, as in the General Game Playing course's
misère Nim) fits whole in memory, and is then solved best the way the course solves it:
a depth-first search that stores the exact value of every state it settles in a dict,
and never searches a state twice.  The work is then bounded by the reachable game graph
(every state expanded at most once, every move followed at most once), whatever the
order of the moves or the distribution of the keys.

The value is the paranoid minimax value for ``player`` (every other player minimises
it), as :func:`plies.minimax` and :func:`plies.alphabeta` define it without a limit.
Three things keep a node short without making any stored value less than exact:

- a node stops once it reaches the best value it can have: the top of the game's
  ``utility_range`` at the player's nodes, the bottom at the others' (bounded minimax),
  or the game's ``value_bounds`` when it has that hook;
- before a node searches any child it looks its children up in the table, one by one
  (enhanced transposition cutoff, Plaat et al. 1996): a child already known to reach
  that best value ends the node at once, before the next child is even generated (on
  misère Nim 12,12,20,20 this halves the states generated, to 1.6 million, against
  generating every child first);
- the rest are searched in ``actions()`` order.

The reported action and principal variation follow the ``"first"`` tie rule of the other
searches: at each step the first action in ``actions()`` order whose value equals the
node's (those children are solved as needed; they are in the table afterwards).

>>> import plies
>>> ttt = plies.games.load("tictactoe")
>>> result = memo_minimax(ttt, ttt.initial_state())
>>> result.value, result.stats.tt_hits > 0
(0.0, True)
>>> result.value == plies.alphabeta(ttt, ttt.initial_state()).value
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable
from typing import Any, Final, NamedTuple

from plies.errors import SearchLimitError, UnsupportedGameError
from plies.game import CHANCE, game_ops
from plies.search.common import SearchResult, SearchStats, StopSignal

MAX_STATES: Final = 20_000_000
"""The most states a :class:`MemoSolver` stores before it gives up (about 3 GiB of dict
entries with small int keys and float values); a game that needs more is not mid-size."""
REPORT_EVERY: Final = 0.25
"""Seconds between two progress reports."""
_CHECK: Final = 4096  # nodes between two looks at the clock


class MemoProgress(NamedTuple):
    """How far a solve has come: ``states`` solved (the table's size), ``nodes`` (states
    generated), ``tt_hits`` (answers from the table), and ``elapsed`` seconds."""

    states: int
    nodes: int
    tt_hits: int
    elapsed: float


Progress = Callable[[MemoProgress], None]


class MemoSolver:
    """Memoised minimax over one game (see the module docstring), keeping its table.

    The table maps ``game.key(state)`` to the exact value of ``state`` for one player;
    it is kept between calls for the same player (a second solve of a position already
    settled costs one lookup) and dropped when another player's value is asked.  It has
    the interface of the dedicated solvers of :mod:`plies.solvers` (``solve``,
    ``analyze``, ``nodes``, ``backend``), so the engine layer runs it as one.

    Only deterministic turn-taking games are searched: a CHANCE or SIMULTANEOUS node
    raises :class:`~plies.errors.UnsupportedGameError`; a state that repeats on the path
    (a game that need not end) raises :class:`~plies.errors.SearchLimitError`, as does a
    table that would grow beyond ``max_states``.
    """

    backend: Final = "memo"

    def __init__(self, game: Any, *, max_states: int = MAX_STATES) -> None:
        self.game = game
        self.max_states = max_states
        self.table: dict[Hashable, float] = {}
        self.player: int | None = None
        self.nodes = 0
        self.tt_hits = 0
        self.leaves = 0
        self.cutoffs = 0
        self.deepest = 0

    def __len__(self) -> int:
        return len(self.table)

    def solve(
        self, state: Any, *, player: int | None = None, weak: bool = False,
        on_test: Any = None, on_progress: Progress | None = None,
        stop: StopSignal | None = None,
    ) -> SearchResult:
        """The exact value of ``state`` for ``player`` (None: the mover), the first best
        action and the principal variation.

        ``weak`` is accepted for the dedicated solvers' interface; an exact value also
        says win, draw or loss.  ``on_test`` is unused (there are no null-window tests).
        ``on_progress`` sees a :class:`MemoProgress` about every :data:`REPORT_EVERY`
        seconds; ``stop`` (``is_set()``) ends the solve with
        :class:`~plies.errors.SearchLimitError` (a partial solve has no value).
        """
        start = time.perf_counter()
        nodes0, hits0, leaves0, cuts0 = self.nodes, self.tt_hits, self.leaves, self.cutoffs
        self.deepest = 0
        ops = game_ops(self.game)
        if player is None:
            player = ops.to_move(state) if not ops.is_terminal(state) else 0
        value_of = self._worker(player, on_progress, stop, start)
        self.nodes += 1
        value = value_of(state, 0)
        pv = self._line(state, value, value_of)
        stats = SearchStats(
            nodes=self.nodes - nodes0, leaves=self.leaves - leaves0,
            cutoffs=self.cutoffs - cuts0, tt_hits=self.tt_hits - hits0,
            depth=self.deepest, seldepth=self.deepest,
            elapsed=time.perf_counter() - start,
        )
        if on_progress is not None:
            on_progress(MemoProgress(len(self.table), stats.nodes, stats.tt_hits, stats.elapsed))
        result = SearchResult(value, pv[0] if pv else None, tuple(pv), stats, player)
        return result.about(self.game, state)

    def analyze(self, state: Any, *, player: int | None = None) -> dict[Any, float]:
        """The exact value of every legal action at ``state`` for ``player`` (None: the
        mover), in ``actions()`` order."""
        ops = game_ops(self.game)
        if player is None:
            player = ops.to_move(state)
        value_of = self._worker(player, None, None, time.perf_counter())
        moves = ops.actions(state)
        self.nodes += 1 + len(moves)
        return {a: value_of(ops.result(state, a), 1) for a in moves}

    def _line(
        self, state: Any, value: float, value_of: Callable[[Any, int], float]
    ) -> list[Any]:
        """The principal variation: from ``state`` (worth ``value``), the first action in
        ``actions()`` order whose child is worth the same, until the game ends."""
        ops = game_ops(self.game)
        line: list[Any] = []
        seen: set[Hashable] = set()
        while not ops.is_terminal(state):
            key = ops.key(state)
            if key in seen:
                break
            seen.add(key)
            for action in ops.actions(state):
                child = ops.result(state, action)
                self.nodes += 1
                if value_of(child, len(line) + 1) == value:
                    line.append(action)
                    state = child
                    break
            else:  # cannot happen for a value the worker computed
                break
        return line

    def _worker(
        self, player: int, on_progress: Progress | None, stop: StopSignal | None,
        start: float,
    ) -> Callable[[Any, int], float]:
        """The recursion ``value_of(state, ply)`` over this solver's table for ``player``."""
        game = self.game
        ops = game_ops(game)
        if self.player != player:
            self.table.clear()
            self.player = player
        table, limit = self.table, self.max_states
        get = table.get
        to_move, actions, result = ops.to_move, ops.actions, ops.result
        is_terminal, utility, key_of = ops.is_terminal, ops.utility, ops.key
        num_players = ops.num_players
        lo, hi = ops.utility_range
        bounds = getattr(game, "value_bounds", None)
        path: set[Hashable] = set()
        name = getattr(game, "name", "this game")
        last = [start]
        next_look = [self.nodes + _CHECK]

        def look() -> None:
            """Every few thousand nodes: the stop signal, the table's cap, progress."""
            if stop is not None and stop.is_set():
                raise SearchLimitError("the exact solve was stopped before it finished")
            if len(table) > limit:
                raise SearchLimitError(
                    f"{name} has more than {limit:,} states to solve; give a depth limit "
                    "or a time limit to search it instead"
                )
            next_look[0] = self.nodes + _CHECK
            now = time.perf_counter()
            if on_progress is not None and now - last[0] >= REPORT_EVERY:
                last[0] = now
                on_progress(MemoProgress(len(table), self.nodes, self.tt_hits, now - start))

        def value_of(state: Any, ply: int) -> float:
            k = key_of(state)
            v = get(k)
            if v is not None:
                self.tt_hits += 1
                return v
            return settle(state, k, ply)

        def settle(state: Any, k: Hashable, ply: int) -> float:
            """The value of ``state`` (key ``k``, not in the table), stored in the table."""
            if self.nodes >= next_look[0]:
                look()
            if ply > self.deepest:
                self.deepest = ply
            if is_terminal(state):
                self.leaves += 1
                v = table[k] = utility(state, player)
                return v
            mover = to_move(state)
            if mover < 0:
                what = "chance" if mover == CHANCE else "simultaneous-move"
                raise UnsupportedGameError(f"the memo solver cannot search {what} nodes")
            if mover >= num_players:
                raise UnsupportedGameError(f"to_move returned {mover}, not a player")
            if k in path:
                raise SearchLimitError(
                    f"{name} repeats a state on a line of play, so its value is not a "
                    "finite minimax value; give a depth limit to search it instead"
                )
            maximizing = mover == player
            if bounds is not None:
                low, high = bounds(state, player)
                if low == high:
                    v = table[k] = float(low)
                    return v
                target = float(high if maximizing else low)
            else:
                target = hi if maximizing else lo
            moves = actions(state)
            if not moves:
                raise UnsupportedGameError(f"{name}: a non-terminal state has no actions")
            # Enhanced transposition cutoff: every child is looked up before any is
            # searched, and one already solved at the target ends the node at once; the
            # unknown ones are then searched in actions() order.
            best = -math.inf if maximizing else math.inf
            unknown: list[tuple[Any, Hashable]] = []
            for action in moves:
                child = result(state, action)
                self.nodes += 1
                ck = key_of(child)
                known = get(ck)
                if known is None:
                    unknown.append((child, ck))
                    continue
                self.tt_hits += 1
                if (known > best) if maximizing else (known < best):
                    best = known
                    if best == target:
                        table[k] = best
                        return best
            path.add(k)
            for i, (child, ck) in enumerate(unknown):
                found = get(ck)  # a sibling's search may have solved it since
                if found is None:
                    w = settle(child, ck, ply + 1)
                else:
                    self.tt_hits += 1
                    w = found
                if (w > best) if maximizing else (w < best):
                    best = w
                    if best == target:
                        if i + 1 < len(unknown):
                            self.cutoffs += 1
                        break
            path.discard(k)
            table[k] = best
            return best

        return value_of


def memo_minimax(
    game: Any, state: Any, *, player: int | None = None,
    max_states: int = MAX_STATES, on_progress: Progress | None = None,
    stop: StopSignal | None = None,
) -> SearchResult:
    """The exact paranoid minimax value of ``state`` for ``player`` (None: the mover),
    by memoised minimax (see the module docstring): ``value`` is exact, ``action`` the
    first action in ``actions()`` order that keeps it, ``pv`` the line of such actions
    to the end of the game.  ``stats.nodes`` counts the states generated (the root and
    every child ``result()`` made), ``stats.tt_hits`` the states answered by the table,
    ``stats.cutoffs`` the nodes that reached their best possible value before their
    last child was searched, ``stats.leaves`` the terminal states solved,
    ``stats.depth`` the deepest ply the search reached (states answered by the table do
    not count).

    Raises:
        UnsupportedGameError: a CHANCE or SIMULTANEOUS node.
        SearchLimitError: a state repeats on a line of play, the table grew beyond
            ``max_states``, or ``stop`` was set.
    """
    solver = MemoSolver(game, max_states=max_states)
    return solver.solve(state, player=player, on_progress=on_progress, stop=stop)


__all__ = ["MAX_STATES", "MemoProgress", "MemoSolver", "memo_minimax"]
