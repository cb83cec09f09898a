"""Batch analysis: the value of every move in many positions, on any backend.

A positions file holds one position per line, written as the moves from the start in
the game's ``--moves`` syntax (space- or comma-separated, or the game's own compact form
such as Connect Four's ``4453``), or for chess as a FEN or an EPD line (with operations
such as ``bm Nf3; id "WAC.001";``), for Othello as a board of 64 cells and the side to
move (see :func:`plies.policy.read_position`).  Blank lines and lines starting with
``#`` are skipped; an empty position is written ``-``.  Every position is checked in
this process before any work starts, so a bad line fails at once with its line number
(nothing is skipped).

Each position is one task, with the same options for all.  For most games it is
:func:`plies.analyze` (the value of every move).  Chess and Othello cannot be searched
to the end, so they get the engine's search of :class:`plies.policy.SearchSession`
(quiescence and mate scores for chess, a time a position when no limit is given): the
best move, its value ("35 cp", "mate in 2"), the depth reached and the principal
variation, without the value of every move.  The reports come back in file order,
whatever the backend.

>>> from plies.games import load
>>> game = load("nim", piles=(1, 2))
>>> [r.action_values for r in analyze_positions(game, [Position(1, "1:1")])]
[{'2:1': -1.0, '2:2': 1.0}]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from plies.budget import read_text
from plies.errors import OptionError
from plies.game import CHANCE, format_action
from plies.parallel.backends import Backend, LocalBackend, Progress, resolve
from plies.policy import (
    PositionText,
    SearchRequest,
    SearchSession,
    find_player,
    plan,
    player_name,
    pv_text,
    read_position,
)
from plies.policy import position as policy_position
from plies.search import Limit

EMPTY = "-"
"""How a positions file writes the initial position (no moves)."""


@dataclass(frozen=True, slots=True)
class Position:
    """A position of a positions file: its line number and its moves as written."""

    line: int
    moves: str


@dataclass(frozen=True, slots=True)
class PositionReport:
    """The analysis of one position, with actions written as people type them.

    ``value`` is from ``player``'s point of view; ``action_values`` maps every legal
    move to its value (in ``actions()`` order; empty for chess and Othello, which get
    the engine's search); ``exact`` as in :class:`plies.SearchResult`.  ``to_move`` is
    None at a terminal position.  ``setup``: the FEN or board the line gave (None: moves
    from the start).  ``score``: the value as people read it (``"35 cp"``, ``"mate in
    2"``) and ``mate`` its moves to mate (negative: mated), for the engine's search only.
    ``operations``: an EPD line's operations (``bm``, ``id``, ...).
    """

    line: int
    moves: tuple[str, ...]
    to_move: str | None
    player: str
    algorithm: str
    value: float
    exact: bool
    action: str | None
    pv: tuple[str, ...]
    action_values: dict[str, float]
    stats: dict[str, float] = field(default_factory=dict)
    setup: str | None = None
    score: str | None = None
    mate: int | None = None
    operations: dict[str, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["moves"], data["pv"] = list(self.moves), list(self.pv)
        data["best_move_found"] = self.best_move_found
        return data

    @property
    def best_move_found(self) -> bool | None:
        """Whether ``action`` is one of an EPD line's ``bm`` moves (None: no ``bm``);
        check and annotation marks (``+ # ! ?``) are not compared."""
        bm = self.operations.get("bm")
        if bm is None:
            return None
        return self.action is not None and _bare(self.action) in {_bare(m) for m in bm.split()}


def _bare(san: str) -> str:
    return san.rstrip("+#!?")


def read_positions(path: str | Path) -> list[Position]:
    """The positions in the file at ``path`` (see the module docstring).

    Raises:
        OptionError: the file cannot be read, or holds no position.
        InputTooLarge: the file is larger than :data:`plies.budget.MAX_INPUT_BYTES`.
    """
    try:
        # A regular file of at most MAX_INPUT_BYTES, or stdin as "-" under the same cap.
        text = read_text(path, stdin=True)
    except (OSError, UnicodeDecodeError) as err:
        reason = getattr(err, "strerror", None) or str(err)
        raise OptionError(f"cannot read positions file {str(path)!r}: {reason}") from None
    positions = parse_positions(text)
    if not positions:
        raise OptionError(f"positions file {str(path)!r} holds no position")
    return positions


def parse_positions(text: str) -> list[Position]:
    """The positions in ``text``, one a line; blank lines and ``#`` comments skipped.

    >>> parse_positions("# openings\\n5\\n\\n5 1\\n-\\n")
    [Position(line=2, moves='5'), Position(line=4, moves='5 1'), Position(line=5, moves='')]
    """
    positions: list[Position] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        positions.append(Position(number, "" if line == EMPTY else line))
    return positions


def position(game: Any, text: str, where: str = "") -> Any:
    """The state after the moves ``text`` from the start, each checked for legality.

    Raises:
        IllegalActionError: a move is not legal; the message says which (and ``where``).
    """
    return policy_position(game, text, where)[0]


@dataclass(frozen=True, slots=True)
class _Settings:
    game: Any  # a GameRef or a picklable game
    limit: Limit | None
    algorithm: str
    player: int | None
    tie: str
    seed: int | None


def analyze_positions(
    game: Any,
    positions: Sequence[Position],
    *,
    limit: Limit | None = None,
    algorithm: str = "auto",
    player: int | str | None = None,
    tie: str = "first",
    seed: int | None = None,
    backend: Backend | None = None,
    progress: Progress | None = None,
    source: str | None = None,
) -> list[PositionReport]:
    """:func:`plies.analyze` of every position, on ``backend``, in input order.

    ``game`` is a :class:`~plies.games.GameSpec` or a picklable game; what runs for
    ``algorithm`` (``"auto"`` by default) is :func:`plies.policy.plan`'s choice, as for
    ``plies analyze`` (Connect Four's dedicated solver, engine craft or plain search).
    ``player`` (a number or a name) is whose value to report; default: the mover of
    each position.  ``source`` (a file name) is how error messages name a line:
    ``positions.txt:3`` rather than ``line 3``.

    Raises:
        IllegalActionError: a position with an illegal move (before any search).
        OptionError: an unknown player, or a chance position without ``player``.
    """
    loaded = resolve(game)
    who = find_player(loaded, player)
    name = algorithm
    tasks: list[tuple[int, PositionText]] = []
    for p in positions:
        where = f"at {source}:{p.line}" if source else f"on line {p.line}"
        written = read_position(loaded, p.moves, where)
        state = written.state
        if who is None and not loaded.is_terminal(state) and loaded.to_move(state) < 0:
            kind = "chance" if loaded.to_move(state) == CHANCE else "simultaneous moves"
            raise OptionError(
                f"nobody is to move in the position {where} ({kind}); say whose value to "
                f"report with --player"
            )
        tasks.append((p.line, written))
    settings = _Settings(game, limit, name, who, tie, seed)
    return (backend or LocalBackend()).map(analyze_task, settings, tasks, progress)


def analyze_task(settings: _Settings, task: tuple[int, PositionText]) -> PositionReport:
    """The work of one position (a top-level function, so any process can run it)."""
    line, written = task
    state = written.state
    game = resolve(settings.game)
    session = SearchSession(game)
    score: str | None = None
    mate: int | None = None
    if session.tuned:
        given = settings.limit
        limit = session.limit(state=state) if given is None else session.limit(
            given.depth, given.time, given.nodes, given.unit
        )
        r = session.run(
            state, limit, algorithm=settings.algorithm, player=settings.player,
            tie=settings.tie, seed=settings.seed,
        )
        name = session.plan.name if session.plan is not None else settings.algorithm
        read = session.score(r)
        score, mate, value = str(read), read.mate, read.value
    else:
        request = SearchRequest(
            settings.algorithm, settings.limit, player=settings.player, tie=settings.tie,
            seed=settings.seed, all_values=True,
        )
        chosen = plan(game, state, request)
        r = chosen.run(game, state)
        name, value = chosen.name, r.value
    pv = pv_text(game, state, r.pv)
    mover = None if game.is_terminal(state) else game.to_move(state)
    to_move = None if mover is None else "chance" if mover == CHANCE else player_name(game, mover)
    return PositionReport(
        line=line,
        moves=written.moves,
        to_move=to_move,
        player=player_name(game, r.player),
        algorithm=name,
        value=value,
        exact=r.exact,
        action=None if r.action is None else format_action(game, state, r.action),
        pv=tuple(pv),
        action_values={
            format_action(game, state, a): v for a, v in (r.action_values or {}).items()
        },
        stats=r.stats.as_dict(),
        setup=written.setup,
        score=score,
        mate=mate,
        operations=dict(written.operations),
    )
