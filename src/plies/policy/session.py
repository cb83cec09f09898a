"""Searching to play a real game: an engine's defaults, and values as people read them.

Chess and Othello cannot be searched to the end, and a bare depth-limited search plays
them badly: it stops in the middle of an exchange, sees every mate as equally good and
has no idea how long to think.  A game says what it needs when people play it or ask for
an analysis (``plies play``, ``plies analyze --file``) with its ``play_defaults`` hook
(:class:`~plies.game.knowledge.PlayDefaults`: a time a move, engine craft, mate scores,
the unit of its values, how a move is written, when to solve exactly), which
:func:`play_defaults` reads and :class:`SearchSession` runs requests with:

- **chess** declares engine craft (transposition table kept between moves, move
  ordering, PVS, iterative deepening) with every selective switch: quiescence over
  captures and queen promotions, check and singular extensions, null-move pruning and
  late-move reductions; :class:`~plies.search.mate.MateDistance` (the shortest mate is
  preferred and reported as "mate in N"); centipawns.  This is what ``plies uci`` searches.
- **othello** declares engine craft, discs as its unit, and exact solving (its
  ``solver``) once few squares are empty and the user gives no limit.

Every other game has no defaults (None) unless it declares its own: its plain request is
what runs.

>>> from plies.games import load
>>> chess = load("chess", ["fen=6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"])
>>> session = SearchSession(chess)
>>> state = chess.initial_state()
>>> result = session.run(state, session.limit(depth=3))
>>> chess.format_action(state, result.action), str(session.score(result))
('Ra8#', 'mate in 1')
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal

from plies._compat import deprecated_alias
from plies.game import hook
from plies.game.knowledge import MOVE_TIME, PlayDefaults
from plies.policy.plan import Plan, SearchRequest, plan
from plies.policy.text import number
from plies.search import Limit, SearchResult
from plies.search.common import StopSignal
from plies.search.craft import TranspositionTable
from plies.search.mate import MateDistance

MAX_DEPTH: Final = 64
"""The deepest iteration of a search limited by time or nodes alone."""
TABLE_SLOTS: Final = 1 << 18
"""Slots of the transposition table an :class:`SearchSession` keeps per player."""


def play_defaults(game: Any) -> PlayDefaults | None:
    """What ``game`` declares it needs when people play it (its ``play_defaults`` hook),
    or None: no defaults, the plain request runs.

    >>> from plies.games import load
    >>> play_defaults(load("chess")).unit, play_defaults(load("tictactoe"))
    ('cp', None)
    """
    declared = hook(game, "play_defaults")
    return None if declared is None else declared()


@dataclass(frozen=True, slots=True)
class Score:
    """A value as people read it.

    ``value``: the game's value for the searching player (a mate is the utility of a
    win or loss, no distance left in it).  ``mate``: moves to a forced end found by the
    search, positive when the player wins, negative when it loses, 0 when the position
    is already won or lost; None otherwise.  ``unit``: the game's unit of values
    (``"cp"``, ``"discs"``) or ``""``.  ``digits``: decimals shown (None: up to four).

    >>> str(Score(35.0, None, "cp")), str(Score(1e5, 2, "cp")), str(Score(-1e5, -1, "cp"))
    ('35 cp', 'mate in 2', 'mated in 1')
    >>> str(Score(-1e5, 0, "cp")), str(Score(11.5071, None, "discs", 1))
    ('mated', '11.5 discs')
    >>> Score(35.0, None, "cp").signed, Score(-0.04, None, "", 1).signed
    ('+35 cp', '0')
    """

    value: float
    mate: int | None = None
    unit: str = ""
    digits: int | None = None

    def __str__(self) -> str:
        return self._text(signed=False)

    @property
    def signed(self) -> str:
        """The score with the sign of a gain: ``+35 cp``, ``-2``, ``0``, ``mate in 2``."""
        return self._text(signed=True)

    @property
    def number(self) -> str:
        """The value alone, rounded to :attr:`digits` (``"11.5"``, ``"35"``)."""
        if self.digits is None or not math.isfinite(self.value):
            return number(self.value)
        text = f"{self.value:.{self.digits}f}"
        return "0" if float(text) == 0 else text

    def _text(self, *, signed: bool) -> str:
        if self.mate == 0:  # the position is already over: mated (nobody mates on its move)
            return "mated" if self.value < 0 else "won"
        if self.mate is not None:
            return f"mate in {self.mate}" if self.mate > 0 else f"mated in {-self.mate}"
        text = self.number
        if signed and text != "0" and not text.startswith(("-", "+")):
            text = "+" + text
        return text + (f" {self.unit}" if self.unit else "")


class _Either:
    """A stop signal set when either of two is (the second may be None)."""

    def __init__(self, first: StopSignal, second: StopSignal | None) -> None:
        self.first, self.second = first, second

    def is_set(self) -> bool:
        return self.first.is_set() or (self.second is not None and self.second.is_set())


class SearchSession:
    """Searches of one game with its :class:`PlayDefaults` (see the module docstring).

    ``game`` is the game as people play it; the searches run on ``self.searched`` (the
    game wrapped for mate scores), from ``self.root(state)``.  Results come back with
    actions of ``game`` (nodes include the quiescence nodes); :meth:`score` and
    :meth:`action_scores` read their values.  A game without defaults
    runs its plain request.  One transposition table per searching player is kept between
    searches, so an engine that plays a whole game reuses what it learnt.

    (``EngineSearch``, its old name, is a deprecated alias.)
    """

    def __init__(self, game: Any, defaults: PlayDefaults | None = None) -> None:
        self.game = game
        self.defaults = defaults if defaults is not None else play_defaults(game)
        d = self.defaults
        self.mated: MateDistance | None = None
        searched = game
        if d is not None and d.mate_scores:
            lo, hi = getattr(game, "utility_range", (-math.inf, math.inf))
            if math.isfinite(lo) and math.isfinite(hi):
                searched = self.mated = MateDistance(game)
        self.searched: Any = searched
        self._tables: dict[int | None, TranspositionTable] = {}
        self.plan: Plan | None = None
        """What the last :meth:`run` ran (its name is what a front end shows)."""

    @property
    def tuned(self) -> bool:
        """True when the game has defaults (chess, Othello, any game that declares them)."""
        return self.defaults is not None

    def root(self, state: Any) -> Any:
        """``state`` as the searched game writes it."""
        return state if self.mated is None else self.mated.root(state)

    def limit(
        self,
        depth: int | None = None,
        time: float | None = None,
        nodes: int | None = None,
        unit: str = "ply",
        *,
        state: Any = None,
    ) -> Limit | None:
        """The limit of a search: the one given, else the defaults' time a move.

        None (an exact search) when nothing is given and either the game has no defaults
        or ``state`` is one its defaults solve exactly.
        """
        if depth is not None or time is not None or nodes is not None or unit != "ply":
            kind: Literal["ply", "round"] = "round" if unit == "round" else "ply"
            if depth is None and (time is not None or nodes is not None) and self.tuned:
                depth = MAX_DEPTH  # deepen until the clock or the budget says stop
            return Limit(depth=depth, unit=kind, time=time, nodes=nodes)
        d = self.defaults
        if d is None or (d.exact_when is not None and state is not None and d.exact_when(state)):
            return None
        return Limit(depth=MAX_DEPTH, time=d.time)

    def run(
        self,
        state: Any,
        limit: Limit | None,
        *,
        algorithm: str = "auto",
        player: int | None = None,
        tie: str = "first",
        seed: int | None = None,
        all_values: bool = False,
        stop: StopSignal | None = None,
        on_iteration: Callable[[SearchResult], None] | None = None,
    ) -> SearchResult:
        """Search ``state`` (a state of ``game``) within ``limit``.

        ``all_values``: the value of every legal action (:func:`plies.analyze`).
        ``on_iteration`` sees every finished iteration.  With defaults, ``auto`` gets
        engine craft (the table is kept; an exact request of a game with a solver, such
        as Othello near the end, is solved).  A search under a clock or a node budget
        that has seen a forced mate within its depth stops deepening.

        Raises:
            OptionError, UnsupportedGameError: as :func:`plies.policy.plan`.
        """
        engine = self.tuned and algorithm in ("auto", "alphabeta") and limit is not None
        d = self.defaults
        request = SearchRequest(
            algorithm=algorithm, limit=limit, player=player, tie=tie, seed=seed,
            engine=engine, all_values=all_values,
            craft=d.craft if engine and d is not None else {},
        )
        root = self.root(state)
        chosen = plan(self.searched, root, request)

        mated, mate_found = self.mated, threading.Event()
        # A forced mate seen within the searched depth is final: a search under a clock
        # or a node budget stops deepening (as plies uci does); a fixed depth is kept.
        watch = mated is not None and limit is not None and limit.anytime and not all_values
        report = None
        if on_iteration is not None or watch:
            def report(r: SearchResult) -> None:
                if on_iteration is not None:
                    on_iteration(r)
                if watch and mated is not None and r.action is not None:
                    plies = mated.distance(r.value)
                    if plies is not None and max(plies, len(r.pv)) <= r.stats.depth:
                        mate_found.set()

        if watch:
            stop = _Either(mate_found, stop)

        table = None
        if chosen.kind == "engine" and not all_values:
            who = self.searched.to_move(root) if player is None else player
            table = self._tables.get(who)
            if table is None:
                table = self._tables[who] = TranspositionTable(TABLE_SLOTS)
        self.plan = chosen
        result = chosen.run(self.searched, root, stop=stop, on_iteration=report, table=table)
        return result.about(self.game, state)  # the game as people play it

    def score(self, result: SearchResult) -> Score:
        """The value of ``result`` as people read it (a forced mate as "mate in N")."""
        return self._score(result.value, len(result.pv))

    def action_scores(self, result: SearchResult) -> dict[Any, Score]:
        """The value of every action of an ``all_values`` result, as people read it."""
        return {a: self._score(v, 1) for a, v in (result.action_values or {}).items()}

    def _score(self, value: float, pv_length: int) -> Score:
        d = self.defaults
        unit, digits = ("", None) if d is None else (d.unit, d.digits)
        mated = self.mated
        if mated is None:
            return Score(value, None, unit, digits)
        exact = mated.exact_value(value)
        if exact == 0:
            return Score(value, None, unit, digits)
        moves = mate_moves(mated, value, pv_length)
        return Score(value if moves is None else exact, moves, unit, digits)


def mate_moves(mated: MateDistance, value: float, pv_length: int) -> int | None:
    """Moves to the forced end a mate-distance ``value`` says (None: no forced end).

    Positive when the searching player mates, negative when it is mated, 0 when the
    root itself is over.  A mate met inside the quiescence search is at distance 0 from
    its leaf; the principal variation (``pv_length`` moves) then says how far it is.
    """
    plies = mated.distance(value)
    if plies is None:
        return None
    if plies == 0 and pv_length == 0:
        return 0  # the root itself is won or lost
    plies = max(plies, pv_length, 1)
    return (plies + 1) // 2 if value > 0 else -(plies // 2)


__all__ = [
    "MAX_DEPTH",
    "MOVE_TIME",
    "TABLE_SLOTS",
    "PlayDefaults",
    "Score",
    "SearchSession",
    "mate_moves",
    "play_defaults",
]

# The old name of SearchSession, and the game knowledge that lived here, for one release.
deprecated_alias(globals(), "EngineSearch", "plies.policy.session.SearchSession")
for _old, _new in (
    ("SINGULAR_MARGIN", "plies.games.chess.rules.SINGULAR_MARGIN"),
    ("CHESS_MOVES_HELP", "plies.games.chess.rules.MOVES_HELP"),
    ("OTHELLO_EXACT_EMPTIES", "plies.games.othello.rules.EXACT_EMPTIES"),
    ("OTHELLO_MOVES_HELP", "plies.games.othello.rules.MOVES_HELP"),
):
    deprecated_alias(globals(), _old, _new)
del _old, _new
