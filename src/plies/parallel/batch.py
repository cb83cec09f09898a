"""Batch analysis: the value of every move in many positions, on any backend.

A positions file holds one position per line, written as the moves from the start in
the game's ``--moves`` syntax (space- or comma-separated, or the game's own compact form
such as Connect Four's ``4453``).  Blank lines and lines starting with ``#`` are
skipped; an empty position is written ``-``.  Every position is checked in this process
before any work starts, so a bad line fails at once with its line number.

Each position is one task: :func:`plies.analyze` of that position, with the same
options for all.  The reports come back in file order, whatever the backend.

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
from plies.engine import SearchRequest, find_player, plan, player_name, split_moves
from plies.engine import position as engine_position
from plies.errors import OptionError
from plies.game import CHANCE, format_action
from plies.parallel.backends import Backend, LocalBackend, Progress, resolve
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
    move to its value (in ``actions()`` order); ``exact`` as in
    :class:`plies.SearchResult`.  ``to_move`` is None at a terminal position.
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

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["moves"], data["pv"] = list(self.moves), list(self.pv)
        return data


def read_positions(path: str | Path) -> list[Position]:
    """The positions in the file at ``path`` (see the module docstring).

    Raises:
        OptionError: the file cannot be read, or holds no position.
        InputTooLarge: the file is larger than :data:`plies.budget.MAX_INPUT_BYTES`.
    """
    try:
        text = read_text(path)  # at most MAX_INPUT_BYTES: /dev/zero is refused, not read
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
    return engine_position(game, text, where)[0]


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

    ``game`` is a :class:`~plies.engine.GameSpec` or a picklable game; what runs for
    ``algorithm`` (``"auto"`` by default) is :func:`plies.engine.plan`'s choice, as for
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
    tasks: list[tuple[int, tuple[str, ...], Any]] = []
    for p in positions:
        where = f"at {source}:{p.line}" if source else f"on line {p.line}"
        state = position(loaded, p.moves, where)
        if who is None and not loaded.is_terminal(state) and loaded.to_move(state) < 0:
            kind = "chance" if loaded.to_move(state) == CHANCE else "simultaneous moves"
            raise OptionError(
                f"nobody is to move in the position {where} ({kind}); say whose value to "
                f"report with --player"
            )
        tasks.append((p.line, tuple(split_moves(loaded, p.moves)), state))
    settings = _Settings(game, limit, name, who, tie, seed)
    return (backend or LocalBackend()).map(analyze_task, settings, tasks, progress)


def analyze_task(settings: _Settings, task: tuple[int, tuple[str, ...], Any]) -> PositionReport:
    """The work of one position (a top-level function, so any process can run it)."""
    line, moves, state = task
    game = resolve(settings.game)
    request = SearchRequest(
        settings.algorithm, settings.limit, player=settings.player, tie=settings.tie,
        seed=settings.seed, all_values=True,
    )
    chosen = plan(game, state, request)
    r = chosen.run(game, state)
    pv: list[str] = []
    s = state
    for action in r.pv:
        pv.append(format_action(game, s, action))
        s = game.result(s, action)
    mover = None if game.is_terminal(state) else game.to_move(state)
    to_move = None if mover is None else "chance" if mover == CHANCE else player_name(game, mover)
    return PositionReport(
        line=line,
        moves=moves,
        to_move=to_move,
        player=player_name(game, r.player),
        algorithm=chosen.name,
        value=r.value,
        exact=r.exact,
        action=None if r.action is None else format_action(game, state, r.action),
        pv=tuple(pv),
        action_values={
            format_action(game, state, a): v for a, v in (r.action_values or {}).items()
        },
        stats=r.stats.as_dict(),
    )
