"""What a game knows beyond its rules, as plain data every front end reads.

A game declares this knowledge through optional hooks (see the table in
:class:`~plies.game.model.Game`); this module holds the types the hooks return:

- :class:`PlayDefaults`, what the game needs when people play or analyse it (a time a
  move, the engine craft, mate scores, the unit of its values, how a move is written),
  returned by ``play_defaults()``;
- :class:`PositionText`, a position as a line of text wrote it (chess FEN and EPD,
  Othello's board), returned by ``read_position(text)``;
- :class:`Solver`, the interface of the game's exact solver, returned by
  ``solver(backend)``, which the policy layer (:mod:`plies.policy.plan`) runs for an
  exact request.

A game's board, returned by ``board(state, last)``, is :class:`plies.game.board.Board`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

MOVE_TIME: Final = 2.0
"""Seconds a move when the user gives no depth, time or node limit."""
QUIESCENCE: Final = 4
"""Noisy plies searched past the depth limit: the usual ``quiescence`` switch of a
game's engine craft (``plies uci``'s ``Quiescence`` option)."""
NULL_REDUCTION: Final = 2
"""Null-move pruning's usual depth reduction R (the ``null_move`` switch)."""


@dataclass(frozen=True, slots=True)
class PlayDefaults:
    """What a game needs when people play or analyse it (``plies play``, ``plies
    analyze --file``, the web app's engine, tournaments with ``engine``).

    A game that cannot be searched to its end and plays badly with a bare depth-limited
    search (it stops in the middle of an exchange, sees every mate as equally good, has
    no idea how long to think) declares these; :class:`~plies.policy.SearchSession`
    runs its searches with them.  A game without them gets the plain request.

    ``time``: seconds a move when no limit is given.  ``craft``: engine switches of an
    alpha-beta search with engine craft, by :class:`~plies.search.craft.Craft` field name
    (``{"quiescence": 4, "extensions": True, "null_move": 2, "reductions": True,
    "singular": 50}``), for the hooks the game provides.  ``mate_scores``: prefer the
    fastest win and report a forced end as "mate in N" (needs a finite
    ``utility_range``).  ``unit``: what values count, shown after them (``"cp"``,
    ``"discs"``), or ``""``.  ``digits``: decimals a value is shown with (Othello's
    evaluation in tenths of a disc: 1), None: up to four.  ``moves_help``: how a person
    writes a move, for error messages and ``help``.  ``exact_when``: a test of a state at
    which a request without a limit is solved exactly instead (by the game's ``solver``),
    None: never.
    """

    time: float = MOVE_TIME
    craft: Mapping[str, Any] = field(default_factory=dict)
    mate_scores: bool = False
    unit: str = ""
    digits: int | None = None
    moves_help: str = ""
    exact_when: Callable[[Any], bool] | None = None


@dataclass(frozen=True, slots=True)
class PositionText:
    """A position as a line of text wrote it: the state, and how it was written.

    ``moves``: the move tokens played (from the start, or after ``setup``).  ``setup``:
    the text of the position the moves start from (a chess FEN, an Othello board), None
    for the game's initial state.  ``operations``: what the line says about the position
    besides (a chess EPD line's ``{"bm": "Nf3", "id": "WAC.001"}`` as pairs), empty
    otherwise.
    """

    state: Any
    moves: tuple[str, ...] = ()
    setup: str | None = None
    operations: tuple[tuple[str, str], ...] = ()


NullWindowTest = Callable[[int, int, int, int, float], None]
"""A solver's report of one null-window test: ``(m, answer, lo, hi, elapsed)``, "is the
score > m?" answered fail-soft (``answer > m`` means yes), the score now known to lie in
``[lo, hi]``, seconds since the solve started."""


class Solver(Protocol):
    """A game's exact solver: what the game's ``solver()`` hook returns and the policy
    layer runs for an exact request (no limit, the ``first`` tie rule, ``auto``, a game
    that ``auto`` searches with alpha-beta).

    It answers what an exact :func:`plies.alphabeta` answers, usually much faster,
    because it knows the game's representation.
    """

    @property
    def backend(self) -> str:
        """The implementation that runs (``"numba"``, ``"python"``, ``"memo"``): front ends
        name the plan ``solver (<backend>)``."""
        ...

    @property
    def nodes(self) -> int:
        """Positions searched since the solver was made (a solve's own count is the
        difference)."""
        ...

    def solve(
        self,
        state: Any,
        *,
        player: int | None = None,
        weak: bool = False,
        on_test: NullWindowTest | None = None,
        on_progress: Callable[[Any], None] | None = None,
        stop: Any = None,
    ) -> Any:
        """The :class:`~plies.search.SearchResult` of an exact alpha-beta search of
        ``state``: the value for ``player`` (None: the mover), the first best action in
        ``actions()`` order, the principal variation, ``exact`` True.

        ``weak``: settle only win, draw or loss (a bound on the right side of a draw,
        ``exact`` False unless a draw).  A solver that works by null-window tests reports
        each to ``on_test``; one that keeps a table may report its progress to
        ``on_progress`` (with its own record, such as
        :class:`~plies.search.memo.MemoProgress`); each ignores the callback it has no
        events for.  ``stop`` (an object with ``is_set()``) ends the solve between two
        steps with :class:`~plies.errors.SearchLimitError`: a partial solve has no value.
        """
        ...

    def analyze(self, state: Any, *, player: int | None = None) -> dict[Any, float]:
        """The exact value of every legal action at ``state`` for ``player`` (None: the
        mover), in ``actions()`` order."""
        ...


class CompiledEngine(Protocol):
    """A game's compiled engine: what the game's ``compiled_search()`` hook returns and
    the policy layer runs, in place of the generic engine, for an engine request with a
    limit (alpha-beta, the ``first`` tie rule, untraced, not every move's value).

    Its search is its own (it need not visit the generic engine's nodes), tested by the
    game against plain alpha-beta at a fixed depth: same value, same best move.
    """

    @property
    def backend(self) -> str:
        """The implementation that runs (``"numba"``): front ends name the plan
        ``alphabeta (<backend>)``."""
        ...

    def clear(self) -> None:
        """Forget what earlier searches left (its transposition table, its move history):
        what a new game or a GUI's ``Clear Hash`` asks."""
        ...

    def resize(self, megabytes: int) -> None:
        """Make its transposition table as large as it can within ``megabytes`` (at
        least 1), empty: what a GUI's ``Hash`` option asks."""
        ...

    def hashfull(self) -> int:
        """How full its transposition table is, per mille (a sample may stand for the
        whole): the UCI ``hashfull``."""
        ...

    def search(
        self,
        game: Any,
        state: Any,
        limit: Any,
        *,
        player: int | None = None,
        stop: Any = None,
        on_iteration: Callable[[Any], None] | None = None,
        craft: dict[str, Any] | None = None,
    ) -> Any:
        """The :class:`~plies.search.SearchResult` of iterative deepening on ``state``
        within ``limit`` (a :class:`~plies.search.Limit`) or until ``stop`` (an object
        with ``is_set()``) is set: the last finished iteration, ``on_iteration`` told of
        each.  ``game`` is the game searched: the one whose hook made the engine, or a
        wrapper of it that made the engine through its own hook (its terminal values
        are the ones reported); ``value`` is from ``player``'s side (None: the mover),
        heuristic (``exact`` False).  ``craft`` holds the engine switches of the plan
        (``quiescence``, ``extensions``, ``null_move``, ``reductions``, ``tt``): a
        switch left out is off where the engine has it."""
        ...


__all__ = [
    "MOVE_TIME", "NULL_REDUCTION", "QUIESCENCE", "CompiledEngine", "NullWindowTest",
    "PlayDefaults", "PositionText", "Solver",
]
