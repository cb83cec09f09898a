"""The web app's JSON API, without the web: a decoded request body in, a dict out.

The API is stateless.  Every request carries the whole game and the moves from its
start; the server loads the game, replays the moves with :func:`plies.game.play` (which
checks each one) and answers.  The fields a request may carry:

========== ===================================================================
field      meaning
========== ===================================================================
game       a built-in game name (``"nim"``) ...
options    ... with its options, ``{"piles": "3,4,5", "misere": true}``
tree       or: the text of a tree file (the ``.tree`` text form or JSON)
gdl        or: the text of a GDL (KIF) game description
name       the file name of ``tree`` / ``gdl``, shown as the game's name
moves      the moves from the start, as the game writes them: ``["5", "1"]``
algorithm  ``auto`` (default) or a registered algorithm (``GET /api/games`` lists
           them with their capabilities: one without ``depth`` takes a time budget
           only, one that is not ``traceable`` draws no tree)
engine     true: engine craft (alpha-beta: table, ordering, PVS; the switches an
           algorithm's ``engine`` capability lists)
quiescence true: past the depth limit, search the noisy moves (captures and
           promotions in chess) before evaluating; with ``engine``, inside the
           search's window with the game's whole selective search (chess: check
           and singular extensions, null move, late-move reductions, as ``plies
           uci``); otherwise as :class:`plies.search.Quiescent`
depth      a depth limit, 0 to :data:`MAX_DEPTH` (in ``unit``: ``ply`` or ``round``)
time       a time budget in seconds, at most :data:`MAX_TIME`
player     whose value to report (a number or a name; default: the mover; a move
           is always searched for the mover)
seed       seeds chance moves and the ``random`` tie rule
tie        ``first`` (default) or ``random``
max_nodes  nodes to keep in a captured tree (:func:`search_tree`)
viewer     the player at the page (a number or a name): a game with hidden
           information is shown as it sees it (:func:`~plies.web.view.view`)
========== ===================================================================

What runs for a request is the policy layer's choice (:func:`plies.policy.plan`), the
same as the command line makes for the same depth, time and options; with neither
``depth`` nor ``time`` the request means ``time`` :data:`DEFAULT_TIME`.  Every search is
capped so that one request cannot hold the server: it is stopped after :data:`MAX_TIME`
seconds (and a time-limited one after :data:`MAX_NODES` nodes), whatever was asked, and
then returns its last completed iteration and says so (``"stopped_early"``).

Every mistake in a request is an :class:`ApiError` carrying an HTTP status (400 for a body
that is not a JSON object, 422 for a field the game cannot use) and a one-line message.
Games that every request would build again at a cost (GDL: grounding the rules) are kept
in a small cache keyed by their text (in the web app, one per worker process, which is
replaced when it holds too much memory: :mod:`plies.web.pool`).  Inside
:func:`budgeted`, loading a game and searching share the request's budget.

>>> view = state({"game": "tictactoe", "moves": ["5", "1"]})
>>> view["to_move_name"], view["legal"]
('X', ['2', '3', '4', '6', '7', '8', '9'])
>>> state({"game": "tictactoe", "moves": ["5", "5"]})
Traceback (most recent call last):
...
plies.web.api.ApiError: illegal move '5' (move 2 of moves); legal moves: 1, 2, 3, 4, 6, 7, 8, 9
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
import sys
import time as clock
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Final, cast

from plies import games
from plies._compat import deprecated_alias
from plies.budget import Budget, StopSignal
from plies.errors import IllegalActionError, PliesError, bounded
from plies.game import (
    CHANCE,
    SIMULTANEOUS,
    format_action,
    format_player_action,
    game_ops,
    parse_action,
    play,
)
from plies.game.declaration import GameInfo
from plies.game.options import BOOL, FLOAT, INT, INTS, LITERAL, OPTIONAL_INT, TEXT, Option
from plies.imperfect import is_imperfect
from plies.plugins import PluginError
from plies.policy import (
    ALGORITHMS,
    QUIESCENCE,
    Algorithm,
    Deadline,
    Plan,
    SearchRequest,
    SearchSession,
    algorithm_choices,
    auto_algorithm,
    find_player,
    jsonable,
    own_action_text,
    plan,
    play_defaults,
    player_name,
    players_text,
    report,
)
from plies.search import Limit, Quiescent, SearchResult, determinize
from plies.search.common import Unit
from plies.search.determinize import WORLDS
from plies.search.registry import available as available_algorithms
from plies.search.registry import names as algorithm_names
from plies.viz import capture
from plies.viz.capture import TreeTooLargeError
from plies.viz.tree import number as json_number
from plies.web.values import scored
from plies.web.view import mover_label, own_actions, page_search, view

MAX_BODY: Final = 256 * 1024
"""Largest request body in bytes (room for a tree or GDL file)."""
MAX_MOVES: Final = 1000
"""Most moves a request may replay."""
MAX_DEPTH: Final = 40
"""Deepest depth limit a request may ask for."""
MAX_TIME: Final = 5.0
"""Longest search a request may ask for, in seconds; also the cap of every search."""
DEFAULT_TIME: Final = 1.0
"""The budget of a search that asked for neither depth nor time."""
MAX_NODES: Final = 5_000_000
"""Node cap of every search."""
MAX_TREE_NODES: Final = 5000
"""Most nodes a captured tree (the tree view) may keep."""
DEFAULT_TREE_NODES: Final = 2000
REQUEST_TIME: Final = 15.0
"""The default budget of a whole request in seconds: loading its game (grounding GDL) and
its searches together (each search is also capped at :data:`MAX_TIME`)."""
MAX_TREE_TEXT: Final = MAX_BODY
"""Longest tree text (``tree``) in characters: the body cap, whatever the transport."""
MAX_MESSAGE: Final = 300
"""Longest error message an answer carries, in characters (:func:`plies.errors.bounded`)."""
MAX_NESTING: Final = 32
"""Deepest nesting of lists and objects in a request body (the API needs 3)."""
MAX_OPTIONS: Final = 64
"""Most options a request may set."""
MAX_TEXT: Final = 1000
"""Longest move, player or file name a request may send, in characters."""

_UNITS: Final = ("ply", "round")
_TIES: Final = ("first", "random")


class ApiError(PliesError):
    """A request the API cannot serve: an HTTP ``status`` and a one-line message (at most
    :data:`MAX_MESSAGE` characters and a note of the length, :func:`plies.errors.bounded`)."""

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(bounded(message, MAX_MESSAGE))
        self.status = status


def error_json(message: str) -> bytes:
    """The body of every error answer: ``{"error": message}``, message cut to one line."""
    return encode({"error": bounded(message, MAX_MESSAGE)})


# --- reading the request -------------------------------------------------------------------


def _kind(value: Any) -> str:
    """The JSON name of ``value``'s type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list" if isinstance(value, list) else "an object"


def _get(body: Mapping[str, Any], key: str, want: type | tuple[type, ...], what: str) -> Any:
    """``body[key]`` (None when absent or null), which must be of type ``want``."""
    value = body.get(key)
    if value is None:
        return None
    is_bool = isinstance(value, bool)
    if not isinstance(value, want) or (is_bool and bool not in _as_tuple(want)):
        raise ApiError(f'"{key}" must be {what}, got {_kind(value)}')
    return value


def _as_tuple(want: type | tuple[type, ...]) -> tuple[type, ...]:
    return want if isinstance(want, tuple) else (want,)


def _word(body: Mapping[str, Any], key: str, choices: tuple[str, ...], default: str) -> str:
    value = _get(body, key, str, f"one of {', '.join(choices)}")
    if value is None:
        return default
    if value not in choices:
        raise ApiError(f'unknown {key} {value!r}; use one of: {", ".join(choices)}')
    return str(value)


def _option_text(key: str, value: Any) -> str:
    """An option value as the command line would write it (the registry parses text)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | float | str):
        return str(value)
    if isinstance(value, list) and all(isinstance(v, int | float | str) for v in value):
        return ",".join(map(str, value))
    raise ApiError(f'option "{key}" must be a string, a number, a boolean or a list, '
                   f"got {_kind(value)}")


def check_request(body: Mapping[str, Any]) -> None:
    """Check every field of ``body`` that needs no game, before any work: which game and
    its types, the number of options, the moves (at most :data:`MAX_MOVES`, texts of at
    most :data:`MAX_TEXT` characters), the depth, time and node caps, the words and the
    switches.  The web app runs it before a request takes a worker, and
    :func:`load_position` before it loads the game, so that a bad field never waits for
    a GDL grounding or a tree parse.

    Raises:
        ApiError: the first field that is wrong, with what is accepted.
    """
    _source(body)
    for key in ("name", "player"):
        value = _get(body, key, (int, str) if key == "player" else str, "a string")
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise ApiError(f'"{key}" is longer than {MAX_TEXT:,} characters')
    _moves(body)
    _depth(body)
    _time(body)
    _max_nodes(body)
    for key, choices in (("algorithm", tuple(algorithm_choices())), ("unit", _UNITS),
                         ("tie", _TIES)):
        _word(body, key, choices, choices[0])
    for key in ("engine", "quiescence", "analysis", "strict_cutoffs"):
        _get(body, key, bool, "true or false")
    _get(body, "seed", int, "a whole number")
    own = _get(body, "own", dict, "an object of players and their own moves") or {}
    if len(own) > MAX_OPTIONS:
        raise ApiError(f'"own" names {len(own):,} players; at most {MAX_OPTIONS}')


def _source(body: Mapping[str, Any]) -> str:
    """Which of ``game``, ``tree`` and ``gdl`` the request gives (exactly one), with its
    type, and ``options`` (only with a game, at most :data:`MAX_OPTIONS`)."""
    given = [key for key in ("game", "tree", "gdl") if body.get(key) is not None]
    if len(given) != 1:
        raise ApiError('give exactly one of "game" (a built-in name), "tree" (the text of a '
                       f'tree file) or "gdl" (the text of a GDL file); got {len(given)}')
    what = {"game": "a string (a built-in game name)", "tree": "a string (the text of a "
            "tree file)", "gdl": "a string (the text of a GDL file)"}[given[0]]
    _get(body, given[0], str, what)
    if given[0] != "game" and body.get("options"):
        raise ApiError(f'"options" go with a built-in "game", not with "{given[0]}"')
    options = _get(body, "options", dict, "an object of option names and values") or {}
    if len(options) > MAX_OPTIONS:
        raise ApiError(f"{len(options):,} options; a game takes at most {MAX_OPTIONS}")
    return str(given[0])


def _moves(body: Mapping[str, Any]) -> list[str]:
    moves = _get(body, "moves", list, "a list of strings") or []
    if len(moves) > MAX_MOVES:
        raise ApiError(f"{len(moves):,} moves; the web app replays at most {MAX_MOVES}")
    for i, move in enumerate(moves, start=1):
        if not isinstance(move, str):
            raise ApiError(f'"moves" must be a list of strings; move {i} is {_kind(move)}')
        if len(move) > MAX_TEXT:
            raise ApiError(f"move {i} is longer than {MAX_TEXT:,} characters")
    return moves


def _depth(body: Mapping[str, Any]) -> int | None:
    depth = _get(body, "depth", int, "a whole number")
    if depth is not None and not 0 <= depth <= MAX_DEPTH:
        raise ApiError(f"depth must be between 0 and {MAX_DEPTH}, got {_number(depth)}")
    return cast("int | None", depth)


def _time(body: Mapping[str, Any]) -> float | None:
    time = _get(body, "time", (int, float), "a number of seconds")
    if time is not None and not (0 < time <= MAX_TIME):
        raise ApiError(f"time must be more than 0 and at most {MAX_TIME:g} seconds, "
                       f"got {_number(time)}")
    return None if time is None else float(time)


def _max_nodes(body: Mapping[str, Any]) -> int:
    max_nodes = _get(body, "max_nodes", int, "a whole number")
    if max_nodes is None:
        return DEFAULT_TREE_NODES
    if not 1 <= max_nodes <= MAX_TREE_NODES:
        raise ApiError(f"max_nodes must be between 1 and {MAX_TREE_NODES}, "
                       f"got {_number(max_nodes)}")
    return int(max_nodes)


def _number(value: float) -> str:
    """A number for a message: a whole number of more than 20 digits by its size."""
    if isinstance(value, int) and abs(value) >= 10**20:
        return f"a number of {len(str(abs(value))):,} digits"
    return f"{value:g}" if isinstance(value, float) else str(value)


def load_game(body: Mapping[str, Any]) -> Any:
    """The game a request names: ``game`` (+ ``options``), ``tree`` or ``gdl``.

    ``game`` is a registered name or one the server added (:func:`serve_games`), never a
    spec or a path; ``options`` are held to the bounds the game itself declares.
    """
    source = _source(body)
    name = _get(body, "name", str, "a string (a file name)")
    if source == "tree":
        return _load_tree(body["tree"], name or "tree")
    if source == "gdl":
        return _load_gdl(body["gdl"], name)
    game_name = body["game"]
    options = body.get("options") or {}
    # registered names only: never a spec or a path on the server's disk
    info = SERVED.get(game_name) or games.info(game_name)
    items = [f"{key}={_option_text(key, value)}" for key, value in options.items()]
    typed = info.parse(items)
    try:
        return info.make(typed)
    except ValueError as err:  # a factory's own check, e.g. "moves per turn must be >= 1"
        raise ApiError(str(err)) from None


def _load_tree(text: str, name: str) -> Any:
    if len(text) > MAX_TREE_TEXT:
        raise ApiError(f"the tree text is longer than {MAX_TREE_TEXT // 1024} KiB", 413)
    with _parsing("the tree text"):
        return games.load_text(text, ".tree", name=name)


@contextmanager
def _parsing(what: str) -> Iterator[None]:
    """Where the web hands a user's text to a parser: what the parser lets through (a
    number past Python's limit of digits, nesting past the recursion limit) is a 422."""
    try:
        yield
    except PliesError:
        raise
    except RecursionError:
        raise ApiError(f"{what} is nested too deeply") from None
    except (ValueError, OverflowError) as err:
        raise ApiError(f"{what}: {_number_trouble(err)}") from None


def _number_trouble(err: ValueError | OverflowError) -> str:
    """A parser's ValueError or OverflowError, said for a user (not "use
    sys.set_int_max_str_digits()", which a client of the server cannot)."""
    if "integer string conversion" in str(err):
        return f"a number has more than {sys.get_int_max_str_digits():,} digits"
    if isinstance(err, OverflowError):
        return "a number is too large"
    return str(err)


def _load_gdl(text: str, name: str | None) -> Any:
    if "(" not in text:  # a name, not rules: never read a file from the server's disk
        raise ApiError('"gdl" must be the text of a GDL (KIF) description, not a file name')
    if len(text) > MAX_BODY:
        raise ApiError(f"the GDL text is longer than {MAX_BODY // 1024} KiB", 413)
    with _parsing("the GDL description"):
        return _gdl_game(text, name or "gdl")


@functools.lru_cache(maxsize=4)
def _gdl_game(text: str, source: str) -> Any:
    """The GDL game of ``text``, kept for the next requests: grounding a big game takes
    seconds (breakthrough: about 3 s), and the page sends the same text every move.
    Requests only read a game (its memo of legal moves is a dict, safe to share).

    Read by the ``.kif`` source (:func:`plies.games.load_text`), within the request's
    budget.
    """
    ends = _ENDS.get() or _NO_END
    left = ends.left()  # rounded: the message names "its budget of 15 s", not 14.9988 s
    seconds = None if left is None else max(round(left, 1), 0.1)
    return games.load_text(text, ".kif", name=source,
                           budget=Budget(seconds=seconds, stop=ends.stop))


# --- the budget of a request ----------------------------------------------------------------


class _Ends:
    """The stop signal of a request: set once its time is spent or its own stop is set."""

    def __init__(self, seconds: float | None, stop: StopSignal | None) -> None:
        self.at = None if seconds is None else clock.monotonic() + seconds
        self.stop = stop

    def is_set(self) -> bool:
        if self.stop is not None and self.stop.is_set():
            return True
        return self.at is not None and clock.monotonic() > self.at

    def left(self) -> float | None:
        return None if self.at is None else max(self.at - clock.monotonic(), 1e-3)


_ENDS: ContextVar[_Ends | None] = ContextVar("plies.web.api ends", default=None)
_NO_END: Final = _Ends(None, None)


@contextmanager
def budgeted(budget: Budget) -> Iterator[None]:
    """Serve the requests made inside under ``budget``, a whole request's budget.

    Loading a game (grounding GDL) counts against ``budget.seconds`` and ``budget.stop``
    (:class:`plies.budget.BudgetExceeded` when it runs out); every search stops at the
    first of :data:`MAX_TIME` seconds, the end of ``budget.seconds`` and ``budget.stop``.
    Without it a request has no budget but the search cap.  ``budget.steps`` is not used.
    """
    token = _ENDS.set(_Ends(budget.seconds, budget.stop))
    try:
        yield
    finally:
        _ENDS.reset(token)


class _FirstOf:
    """Set when any of its signals is set."""

    def __init__(self, *signals: StopSignal) -> None:
        self.signals = signals

    def is_set(self) -> bool:
        return any(signal.is_set() for signal in self.signals)


@dataclass(frozen=True, slots=True)
class Position:
    """A loaded game, the state reached by ``moves``, those moves as texts, and the state
    before the last of them (None at the start)."""

    game: Any
    state: Any
    moves: list[str]
    before: Any = None


def load_position(body: Mapping[str, Any]) -> Position:
    """The game of ``body`` and the state after its ``moves``, each checked for legality
    (every field that needs no game first: :func:`check_request`)."""
    check_request(body)
    game = load_game(body)
    moves = _moves(body)
    state = game.initial_state()
    before = None
    played: list[str] = []
    for i, move in enumerate(moves, start=1):
        try:
            action = parse_action(game, state, move)
            after = play(game, state, action)
        except IllegalActionError as err:
            raise ApiError(
                str(IllegalActionError(move, err.legal, context=f"(move {i} of moves)"))
            ) from None
        played.append(format_action(game, state, action))
        before, state = state, after
    return Position(game, state, played, before)


# --- searches --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Settings:
    """A request's search, checked and capped: the policy layer's plan for it."""

    plan: Plan
    depth: int | None  # as asked
    quiescent: Quiescent[Any, Any] | None = None  # the game searched, when not the game
    quiescence: bool = False  # asked for: by the engine's craft, or by ``quiescent``
    session: SearchSession | None = None  # mate scores: the game searched is its own

    @property
    def limit(self) -> Limit:
        assert self.plan.limit is not None  # a request always has a depth or a time
        return self.plan.limit

    def run(self, game: Any, state: Any) -> SearchResult:
        """The plan's search, stopped by the server's cap of :data:`MAX_TIME` seconds and
        by the end of the request's budget (:func:`budgeted`); with quiescence, of the
        game whose evaluation is the quiescence search.

        Raises:
            ApiError: a depth-limited search stopped before it finished one pass.
        """
        searched, root = game, state
        if self.session is not None:  # mate scores (chess): values say how far a mate is
            searched, root = self.session.searched, self.session.root(state)
        if self.quiescent is not None:
            searched = self.quiescent
        stop = _FirstOf(Deadline(MAX_TIME), _ENDS.get() or _NO_END)
        result = self.plan.run(searched, root, stop=stop).about(game, state)
        if result.stopped and result.stats.depth == 0 and self.depth:
            # Not one pass finished: the search's fallback (the first legal move) would
            # be shown as the engine's choice.
            raise ApiError(f"the search to depth {self.depth} was stopped before it finished "
                           f"one pass (searches are capped at {MAX_TIME:g} s); ask for less "
                           "depth or a time")
        return result


def settings(
    body: Mapping[str, Any], game: Any, state: Any, *, all_values: bool = False,
    player: int | None = None,
) -> Settings:
    """The search ``body`` asks for at ``state``, within the server's caps.

    What runs is decided by :func:`plies.policy.plan`, as on the command line: a request
    with neither ``depth`` nor ``time`` has the budget :data:`DEFAULT_TIME` (the command
    line's ``--time``), so a game with value bounds gets engine craft.  ``player``
    overrides the ``player`` field (a move is always searched for the mover).
    """
    algorithm = _word(body, "algorithm", tuple(algorithm_choices()), "auto")
    engine = _get(body, "engine", bool, "true or false") or False
    depth = _depth(body)
    time = _time(body)
    unit = cast(Unit, _word(body, "unit", _UNITS, "ply"))
    tie = _word(body, "tie", _TIES, "first")
    seed = _get(body, "seed", int, "a whole number")
    quiescence = _get(body, "quiescence", bool, "true or false") or False
    strict = _get(body, "strict_cutoffs", bool, "true or false") or False
    if depth is not None and time is None:
        limit = Limit(depth=depth, unit=unit)  # as asked; the cap only stops it
    else:
        budget = DEFAULT_TIME if time is None else time
        limit = Limit(depth=depth, unit=unit, time=budget, nodes=MAX_NODES)
    who = player if player is not None else _who(body, game, state)
    if player is not None:
        _get(body, "player", (int, str), "a player number or name")
        if body.get("player") is not None:
            find_player(game, str(body["player"]))  # a bad field is an error all the same
    craft: dict[str, Any] = {}
    chosen = auto_algorithm(game, state).name if algorithm == "auto" else algorithm
    if depth is not None and not ALGORITHMS[chosen].depth:
        raise ApiError(f'{chosen} takes a time budget, not a depth: send "time" (seconds, '
                       f"at most {MAX_TIME:g}) instead of \"depth\"")
    if quiescence and engine and "quiescence" in ALGORITHMS[chosen].switches:
        # The engine's own selective search (chess: plies uci's), quiescence in the window.
        defaults = play_defaults(game)
        craft = dict(defaults.craft) if defaults is not None and defaults.craft else {
            "quiescence": QUIESCENCE
        }
    request = SearchRequest(
        algorithm=algorithm, limit=limit, player=who, tie=tie, seed=seed, engine=engine,
        all_values=all_values, craft=craft, strict_cutoffs=strict,
    )
    tuned = SearchSession(game)
    session = tuned if tuned.mated is not None else None
    base, root = (game, state) if session is None else (session.searched, session.root(state))
    if quiescence and not craft:  # games without noisy moves keep their static evaluation
        searched = Quiescent(base)
        return Settings(plan(searched, root, request), depth, searched, True, session)
    return Settings(plan(base, root, request), depth, None, quiescence, session)


def _who(body: Mapping[str, Any], game: Any, state: Any) -> int | None:
    """The ``player`` field: a number or a name; None, the mover (the first player where
    everyone moves at once; refused at chance, where nobody does)."""
    field = _get(body, "player", (int, str), "a player number or name")
    if field is None and not game.is_terminal(state) and game.to_move(state) == SIMULTANEOUS:
        return 0
    if field is None and not game.is_terminal(state) and game.to_move(state) < 0:
        raise ApiError(f'nobody is to move here ({mover_label(game, state)}); say whose value '
                       f'to report with "player" ({players_text(game)})')
    return find_player(game, None if field is None else str(field))


def _search_report(
    position: Position, settings: Settings, result: SearchResult
) -> dict[str, Any]:
    """The CLI's ``--json`` report of a search, plus the limit and the move values."""
    game, state = position.game, position.state
    data = report(game, state, position.moves, settings.plan.name, result)
    limit = settings.limit
    data["limit"] = {"depth": limit.depth, "unit": limit.unit, "time": limit.time,
                     "nodes": limit.nodes}
    data["stopped_early"] = bool(result.stopped) and settings.depth is not None
    data["engine"] = settings.plan.kind == "engine"
    data["quiescence"] = settings.quiescence
    if settings.quiescent is not None:  # not in the main search's nodes
        data["stats"]["quiescence_nodes"] = settings.quiescent.nodes
    data.pop("action_values", None)
    data.update(scored(game, state, result, settings.session))
    return data


# --- endpoints -------------------------------------------------------------------------------


SERVED: dict[str, GameInfo] = {}
"""Games the operator added when starting the server (``plies web --game SPEC``), by name.
A request names them like built-in games; a request can never load a spec itself."""


def serve_games(specs: Sequence[str]) -> list[str]:
    """Offer the games ``specs`` name (``module:attribute``, ``path/to/file.py:Class``, a
    tree or a ``.kif`` file) beside the built-in games, each under the name it declares
    (a class's ``name``, else the class's own name; a file's stem) and with the options it
    declares; returns their names.  Each game is built once now, so a spec that names no
    game fails before the server listens; a game that takes no options is that one game
    for every request (a GDL game is grounded once).

    Raises:
        PliesError: a spec that names no game (the message says why).
    """
    names = []
    for spec in specs:
        info = games.spec_info(spec)
        game = info.make()
        if not info.options and not info.open:
            info = dataclasses.replace(info, factory=functools.partial(_same, game))
        name = info.name or spec
        if name in games.names() or name in SERVED:
            name = spec
        own = getattr(game, "description", None)  # what the game says of itself, if text
        described = own if isinstance(own, str) and own else info.description
        if described and not (isinstance(own, str) and own):  # say who plays a file's game
            roles = ", ".join(player_name(game, p) for p in range(game.num_players))
            described = bounded(f"{described}; players: {roles}", 300)
        SERVED[name] = dataclasses.replace(
            info, name=name, description=described or f"added by the server ({spec})"
        )
        names.append(name)
    return names


def withdraw_games(names: Sequence[str]) -> None:
    """No longer offer the games :func:`serve_games` added under ``names`` (the server
    stopped: a later server in the same process starts with the built-in games only)."""
    for name in names:
        SERVED.pop(name, None)


def _same(game: Any) -> Any:
    return game


def catalogue(_: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The games by name (built in, from plug-ins, and those the server added) with their
    options and the search the page starts them with
    (:func:`~plies.web.view.page_search`, from the game's play defaults), the algorithms
    with their capabilities, and the server's caps.  A plug-in game or algorithm that
    cannot be used is left out."""
    usable = available_algorithms()
    infos: list[GameInfo] = []
    for name in games.names():
        try:
            infos.append(games.info(name))
        except PluginError:
            continue
    entries = []
    for info in [*infos, *SERVED.values()]:
        try:
            game = info.make()
        except PluginError:
            continue
        entries.append({
            "name": info.name,
            "description": info.description,
            "players": game.num_players,
            "has_chance": bool(getattr(game, "has_chance", False)),
            "options": [_option_info(o) for o in info.options],
            "search": page_search(game),
        })
    return {
        "games": entries,
        "algorithms": ["auto", *usable],
        "searches": list(usable),
        "capabilities": {name: _capabilities(a) for name, a in usable.items()},
        "limits": {
            "max_depth": MAX_DEPTH, "max_time": MAX_TIME, "default_time": DEFAULT_TIME,
            "max_nodes": MAX_NODES, "max_tree_nodes": MAX_TREE_NODES,
            "max_moves": MAX_MOVES, "max_body": MAX_BODY,
        },
    }


def _capabilities(a: Algorithm) -> dict[str, Any]:
    """What the page needs to know of an algorithm: what it is, what it searches, whether
    it takes a depth, engine craft (``engine``: the switches it turns on) or draws a tree."""
    return {
        "summary": a.summary, "value": a.value, "exact": a.exact, "heuristic": a.heuristic,
        "chance": a.chance, "simultaneous": a.simultaneous, "players": a.players,
        "depth": a.depth, "traceable": a.traceable, "analyzable": a.analyzable,
        "rule": a.rule, "switches": list(a.switches), "engine": list(a.engine),
        "options": list(a.options),
    }


def _option_info(option: Option) -> dict[str, Any]:
    kind = option.type
    info: dict[str, Any] = {
        "name": option.name, "type": kind.name, "default": kind.show(option.default),
        "help": option.help,
    }
    if kind is BOOL:
        info["input"] = "bool"
    elif kind in (INT, INTS, OPTIONAL_INT, FLOAT, TEXT, LITERAL):
        info["input"] = "text"
    else:  # a choice of words: its type is named "a or b or c"
        words = kind.name.split(" or ")
        ok = True
        for word in words:
            try:
                ok = ok and kind.parse(word) == word
            except ValueError:
                ok = False
        info["input"] = "choice" if ok else "text"
        if ok:
            info["choices"] = words
    return info


def state(body: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/state``: the position after ``moves`` (see :func:`view`)."""
    position = load_position(body)
    return view(position.game, position.state, position.moves, position.before,
                _viewer(body, position.game))


def move(body: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/move``: the engine's move (or a chance outcome) and the position after it.

    At a chance node the outcome is drawn with the given odds (seeded by ``seed``), and
    ``search`` is null.  Where every player moves at once, ``own`` maps players (numbers
    or names) to the own actions that people chose; the engine plays every other player
    with a seeded sample from its optimal mixed strategy (:func:`plies.simultaneous`),
    ``search`` reports the first such search and ``strategies`` each engine player's mix.
    Elsewhere ``search`` is the report of the engine's search, which plays for the player
    to move (``player`` is not used).
    """
    position = load_position(body)
    game, before = position.game, position.state
    if game.is_terminal(before):
        raise ApiError("the game is over: there is no move to make")
    mover = mover_label(game, before)
    search: dict[str, Any] | None = None
    extra: dict[str, Any] = {}
    seed = _get(body, "seed", int, "a whole number")
    if game.to_move(before) == SIMULTANEOUS:
        action, search, extra["strategies"] = _joint_move(body, position, seed)
    elif game.to_move(before) >= 0 and hidden_cards(body, game):
        # Cards the mover cannot see: the engine plays by determinization, never reading them.
        chosen = settings(body, game, before, player=game.to_move(before))
        action, search = _determinized(position, chosen, seed)
    elif game.to_move(before) == CHANCE:
        outcomes = list(game_ops(game).chance_outcomes(before))
        rng = random.Random(seed)
        action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
    else:
        # The engine plays for the mover, whatever "player" says about whose value to show.
        chosen = settings(body, game, before, player=game.to_move(before))
        result = chosen.run(game, before)
        if result.action is None:  # e.g. depth 0: a value, but no move was compared
            raise ApiError("the engine chose no move within the limit; give it depth 1 or "
                           "more, or a time")
        action = result.action
        search = _search_report(position, chosen, result)
    text = format_action(game, before, action)
    after = game.result(before, action)
    return {
        "move": text,
        "by": "chance" if search is None else "engine",
        "mover": mover,
        "search": search,
        **extra,
        "state": view(game, after, [*position.moves, text], before, _viewer(body, game)),
    }


def _joint_move(
    body: Mapping[str, Any], position: Position, seed: int | None
) -> tuple[Any, dict[str, Any] | None, dict[str, dict[str, float]]]:
    """The joint action at a simultaneous node: people's ``own`` choices, the engine's
    seeded samples from its mixed strategies for everyone else."""
    game, state = position.game, position.state
    own_field = _get(body, "own", dict, "an object of players and their own moves") or {}
    chosen: dict[int, Any] = {}
    for who, text in own_field.items():
        p = find_player(game, who)
        assert p is not None
        if not isinstance(text, str):
            raise ApiError(f'"own" moves must be strings; {who!r} has {_kind(text)}')
        choices = list(own_actions(game, state, p))
        shown = [format_player_action(game, state, p, a) for a in choices]
        matches = [a for a, t in zip(choices, shown, strict=True)
                   if t.lower() == text.strip().lower()]
        if not matches:
            raise ApiError(str(IllegalActionError(text, shown, context=f"(own move of {who})")))
        chosen[p] = matches[0]
    rng = random.Random(seed)
    search: dict[str, Any] | None = None
    strategies: dict[str, dict[str, float]] = {}
    joint: list[Any] = []
    for p in range(game.num_players):
        if p in chosen:
            joint.append(chosen[p])
            continue
        choices = list(own_actions(game, state, p))
        if len(choices) == 1:
            joint.append(choices[0])
            continue
        picked = settings(body, game, state, player=p)  # auto: the simultaneous search
        result = picked.run(game, state)
        strategy = result.strategy or {result.action: 1.0}
        moves = list(strategy)
        action = rng.choices(moves, [strategy[a] for a in moves])[0]
        joint.append(action)
        name = player_name(game, p)
        strategies[name] = {own_action_text(game, state, p, a): q for a, q in strategy.items()}
        if search is None:
            search = _search_report(position, picked, result)
    return tuple(joint), search, strategies


def _viewer(body: Mapping[str, Any], game: Any) -> int | None:
    """The ``viewer`` field: the player at the page (None: show everything)."""
    field = _get(body, "viewer", (int, str), "a player number or name")
    return find_player(game, None if field is None else str(field))


def keep_hidden(body: Mapping[str, Any], position: Position, what: str) -> None:
    """Refuse ``what`` (a search tree, a quiz) for a viewer of a game with hidden cards
    before its end: its search reads every hand, so it would show the others' cards.

    Raises:
        ApiError: the viewer would see what it cannot know.
    """
    game, state = position.game, position.state
    viewer = _viewer(body, game)
    if viewer is not None and is_imperfect(game) and not game.is_terminal(state):
        raise ApiError(f"{getattr(game, 'name', 'this game')} hides cards: {what} would show "
                       f"{player_name(game, viewer)} the other hands; it is shown when no "
                       "human plays (engine against engine) or once the hand is over")


def hidden_cards(body: Mapping[str, Any], game: Any) -> bool:
    """Whether the engine must not read the state: a game with hidden information
    searched with ``auto`` (another algorithm reads every card, as ``plies play``'s)."""
    return is_imperfect(game) and _word(
        body, "algorithm", tuple(algorithm_choices()), "auto") == "auto"


def _determinized(
    position: Position, chosen: Settings, seed: int | None
) -> tuple[Any, dict[str, Any]]:
    """The mover's move by determinization (:func:`plies.determinize`, its default
    number of sampled worlds, each searched within the request's limit) and its report."""
    game, state = position.game, position.state
    if game.to_move(state) < 0:
        raise ApiError(f"nobody chooses a move here ({mover_label(game, state)})")
    result = determinize(game, state, limit=chosen.limit, player=game.to_move(state),
                         seed=seed)
    data = _search_report(position, chosen, result)
    data["algorithm"] = f"determinize ({WORLDS} worlds, expectiminimax in each)"
    data["engine"] = False
    return result.action, data


def analyze_moves(body: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/analyze``: the value of every legal move (``search.move_values``).

    Also the best move, its principal variation and the statistics.  At the end of the
    game ``search`` is null.
    """
    position = load_position(body)
    game, here = position.game, position.state
    viewer = _viewer(body, game)
    shown = view(game, here, position.moves, position.before, viewer)
    if game.is_terminal(here):
        return {"state": shown, "search": None}
    chosen = settings(body, game, here, all_values=True)
    if hidden_cards(body, game):
        mover = game.to_move(here)
        if viewer is not None and mover != viewer:
            raise ApiError(f"{player_name(game, mover)}'s cards are hidden from "
                           f"{player_name(game, viewer)}: analyze when you are to move")
        data = _determinized(position, chosen, _get(body, "seed", int, "a whole number"))[1]
    else:
        data = _search_report(position, chosen, chosen.run(game, here))
    data.setdefault("move_values", [])
    answer: dict[str, Any] = {"state": shown, "search": data}
    if game.to_move(here) == SIMULTANEOUS:
        answer["strategies"] = _strategies(body, game, here)
    return answer


def _strategies(body: Mapping[str, Any], game: Any, state: Any) -> list[dict[str, Any]]:
    """Every player's optimal mixed strategy where everyone moves at once, and the value
    it secures (:func:`plies.simultaneous` from each player's side): ``[{"player",
    "value", "exact", "strategy": [{"move", "probability"}, ...]}, ...]``."""
    out: list[dict[str, Any]] = []
    for p in range(game.num_players):
        picked = settings(body, game, state, player=p)
        result = picked.run(game, state)
        strategy = result.strategy or {result.action: 1.0}
        out.append({
            "player": player_name(game, p), "value": json_number(result.value),
            "exact": result.exact,
            "strategy": [{"move": own_action_text(game, state, p, a), "probability": q}
                         for a, q in strategy.items()],
        })
    return out


def search_tree(body: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/tree``: the tree of a search from the position (:func:`plies.viz.capture`).

    The search goes to ``depth`` (or to the end of the game) and ``time`` is not used: a
    picture shows one complete search.  With ``"analysis": true`` it is the search of
    ``/api/analyze`` (every move searched with a full window), else the search of a move;
    to draw the search a time budget ran, send the depth it reached.  With the engine
    the tree is that of the engine's search (the table, ordering and PVS in the picture's
    notes; see :mod:`plies.viz.capture`).  A search that
    visits more than ``max_nodes`` nodes (default :data:`DEFAULT_TREE_NODES`, at most
    :data:`MAX_TREE_NODES`) is refused with a message asking for less depth.
    """
    position = load_position(body)
    game, here = position.game, position.state
    if game.is_terminal(here):
        raise ApiError("the game is over: there is no search to show")
    keep_hidden(body, position, "its search tree")
    max_nodes = _max_nodes(body)
    analysis = _get(body, "analysis", bool, "true or false") or False
    name = _word(body, "algorithm", tuple(algorithm_choices()), "auto")
    if name != "auto" and not ALGORITHMS[name].traceable:
        drawn = ", ".join(algorithm_names(lambda a: a.traceable))
        raise ApiError(f"{name} reports no trace, so its tree cannot be drawn; draw the "
                       f"tree of {drawn}")
    chosen = settings(body, game, here, all_values=analysis)
    request = chosen.plan.request
    # A picture is one complete search: a depth limit or none, never a clock; the node
    # cap bounds its work (capture stops with TreeTooLargeError past max_nodes).
    limit = None if chosen.depth is None else Limit(depth=chosen.depth, unit=chosen.limit.unit)
    craft = {k: v for k, v in chosen.plan.options.items() if k != "threshold"}
    steps: list[dict[str, Any]] = []
    with _node_cap(max_nodes):
        tree = capture(
            game, here, algorithm=chosen.plan.algorithm.name, limit=limit,
            max_nodes=max_nodes, player=request.player, tie=request.tie, seed=request.seed,
            all_values=analysis, steps=steps, **craft,
        )
    return {"state": view(game, here, position.moves, position.before), "tree": tree.to_json(),
            "svg": tree.to_svg(), "steps": steps}


@contextmanager
def _node_cap(max_nodes: int) -> Iterator[None]:
    """A tree over the cap is refused in the page's words: the "node cap"."""
    try:
        yield
    except TreeTooLargeError:
        raise ApiError(f"the search visited more than {max_nodes:,} nodes, the node cap: "
                       "give it less depth, or raise the node cap (at most "
                       f"{MAX_TREE_NODES:,})") from None


ENDPOINTS: Final[dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]]] = {
    "state": state,
    "move": move,
    "analyze": analyze_moves,
    "tree": search_tree,
}
"""The POST endpoints under ``/api/``, by name (:mod:`plies.web.trees` adds ``ordering``:
the app and its workers import it)."""


def encode(data: Any) -> bytes:
    """``data`` as strict JSON (infinities as ``"+inf"``/``"-inf"``)."""
    return json.dumps(jsonable(data), allow_nan=False, separators=(",", ":")).encode()


def decode(raw: bytes) -> dict[str, Any]:
    """A request body: a JSON object, else :class:`ApiError` 400."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ApiError("the body is not UTF-8 text", 400) from None
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as err:
        raise ApiError(f"malformed JSON: {err.msg} (line {err.lineno}, column {err.colno})",
                       400) from None
    except RecursionError:
        raise ApiError(_TOO_DEEP, 400) from None
    except ValueError as err:  # e.g. an integer of more than 4300 digits
        raise ApiError(f"malformed JSON: {_number_trouble(err)}", 400) from None
    if not isinstance(data, dict):
        raise ApiError(f"the body must be a JSON object, got {_kind(data)}", 400)
    if _nesting(data) > MAX_NESTING:
        raise ApiError(_TOO_DEEP, 400)
    return data


_TOO_DEEP: Final = f"malformed JSON: nested too deeply (at most {MAX_NESTING} levels)"


def _nesting(data: Any) -> int:
    """How deep lists and objects nest in ``data`` (a scalar: 0), counted without
    recursion, and only as far as one level past :data:`MAX_NESTING`."""
    deepest = 0
    level: list[Any] = [data]
    while level and deepest <= MAX_NESTING:
        inner = [v for x in level for v in (x.values() if isinstance(x, dict) else x)
                 if isinstance(v, dict | list)]
        deepest += 1
        level = inner
    return deepest


def _no_constant(name: str) -> Any:
    raise ApiError(f"malformed JSON: {name} is not a number in JSON", 400)


__all__ = [
    "ENDPOINTS", "MAX_BODY", "MAX_DEPTH", "MAX_MESSAGE", "MAX_NESTING", "MAX_NODES",
    "MAX_OPTIONS", "MAX_TEXT", "MAX_TIME", "MAX_TREE_TEXT", "REQUEST_TIME", "ApiError",
    "Position", "analyze_moves", "budgeted", "catalogue", "check_request",
    "decode", "encode", "error_json", "load_game", "load_position", "move", "search_tree",
    "state", "view",
]

# The page's table of searches by game name gave way to the games' play defaults.
deprecated_alias(globals(), "PAGE_SEARCH", "plies.web.view.page_search")
