"""Every OpenSpiel game as a plies game: ``openspiel:NAME`` wherever a game is named.

:class:`OpenSpielGame` wraps a ``pyspiel.Game`` (OpenSpiel's Python API, the optional
extra ``plies[openspiel]``, imported only when such a game is loaded) in the game model:
turn-based, chance (``chance_outcomes`` are OpenSpiel's odds) and simultaneous-move games
(``result`` takes a joint action, a tuple of OpenSpiel action ids in player order), for
any number of players.

- States are immutable for plies: :class:`OpenSpielState` holds a pyspiel state that is
  never changed again; ``result`` clones it and applies the action to the clone.
- A state's identity is the sequence of plies actions that led to it from the initial
  state (OpenSpiel's history, with joint actions kept as tuples).  By default it keys the
  transposition table: exact for every game, though two move orders reaching one position
  are two entries.  Games whose OpenSpiel text is the whole state, whatever the moves
  that led there (:data:`POSITION_KEYED`: tic-tac-toe, Connect Four, Breakthrough), are
  keyed by that text and the player to move instead, so the table merges move orders;
  ``key="string"`` asks for it on any game, ``key="history"`` never (see
  :class:`OpenSpielGame`).
- Actions are OpenSpiel's integer ids; people read and type OpenSpiel's
  ``action_to_string`` text with its blanks removed (``x(1,1)``, ``pile:1,take:1;``,
  ``[P0]Bid:3``), joint actions as the players' texts joined by ``/``.  The bare integer
  id is accepted too.
- Imperfect-information games (Kuhn poker, ...) load as well; plies then searches the
  full state, as if every player saw everything (the perfect-information relaxation):
  ``perfect_information`` says which kind a game is.
"""

from __future__ import annotations

import difflib
import itertools
import math
import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from plies.errors import (
    GameFormatError,
    GameSpecError,
    IllegalActionError,
    UnsupportedGameError,
    quoted,
)
from plies.game import CHANCE, SIMULTANEOUS, Game
from plies.game.board import Board, Mark
from plies.game.declaration import Source

PREFIX: Final = "openspiel:"
"""Game specs that start with this name an OpenSpiel game (``openspiel:connect_four``)."""

INSTALL_HINT: Final = "pip install 'plies[openspiel]'"

POSITION_KEYED: Final = frozenset({"tic_tac_toe", "connect_four", "breakthrough"})
"""OpenSpiel games keyed by position (``key="auto"``): their ``str(state)`` is the whole
board, and the board alone decides the legal moves, the end and the payoff (the player to
move is part of the key anyway; each was checked in OpenSpiel's C++ ``ToString``,
``IsTerminal`` and ``Returns``).  Not in it, for example: pig (its horizon counts turns,
which the text does not show), chess (repetitions depend on the history), othello (not
checked), and every game with imperfect information or chance."""

BOARDS: Final = {"tic_tac_toe": "tictactoe", "connect_four": "connect4"}
"""OpenSpiel games drawn on a board (the look of each); every other OpenSpiel game has no
``board`` hook, so front ends show OpenSpiel's text and a list of moves."""
LOOKS: Final = {
    "tictactoe": {"X": Mark("text", color="#2457c5"), "O": Mark("text", color="#d9480f")},
    "connect4": {"X": Mark("disc", color="#e03131"), "O": Mark("disc", color="#fab005")},
}

KEYS: Final = ("auto", "history", "string")
"""The accepted values of the ``key`` option."""

_SPEC: Final = re.compile(r"\s*openspiel:\s*([A-Za-z0-9_]+)\s*(?:\((.*)\))?\s*", re.IGNORECASE)

Action = int | tuple[int, ...]


def is_openspiel_spec(spec: str) -> bool:
    """Whether ``spec`` names an OpenSpiel game (starts with ``openspiel:``, any case)."""
    return spec.strip().lower().startswith(PREFIX)


class OpenSpielState:
    """A state of an OpenSpiel game, immutable for plies.

    ``history``: the plies actions from the initial state (ints, and tuples at
    simultaneous nodes); equality, hashing and the transposition key use it alone.
    ``native``: the pyspiel state, which nothing may mutate (clone it first).
    """

    __slots__ = ("history", "native")

    def __init__(self, history: tuple[Action, ...], native: Any) -> None:
        self.history = history
        self.native = native

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OpenSpielState) and other.history == self.history

    def __hash__(self) -> int:
        return hash(self.history)

    def __deepcopy__(self, memo: dict[int, Any]) -> OpenSpielState:
        return OpenSpielState(self.history, self.native.clone())

    def __repr__(self) -> str:
        return f"OpenSpielState(history={self.history!r})"

    def __str__(self) -> str:
        return str(self.native)


class OpenSpielGame(Game[OpenSpielState, Action]):
    """The OpenSpiel game ``native`` (a ``pyspiel.Game``) in the plies game model.

    Facts come from OpenSpiel's game type: ``zero_sum`` for zero- and constant-sum games,
    ``has_chance`` unless the game is deterministic, ``has_simultaneous`` for
    simultaneous-move dynamics, ``utility_range`` from ``min_utility``/``max_utility``.
    ``utility`` is OpenSpiel's ``returns()`` of the player.

    ``key`` chooses the transposition key (``key_by`` says which one is in force):
    ``"history"``, the actions from the start (exact for every game); ``"string"``,
    OpenSpiel's text of the state with the player to move, which merges move orders that
    reach one position and is exact only when that text is the whole state and the history
    does not matter (the caller vouches for it); ``"auto"`` (default), ``"string"`` for
    the games in :data:`POSITION_KEYED` and ``"history"`` for the others.

    Raises:
        UnsupportedGameError: a mean-field game (its "players" are a population
            distribution, not players a search can model), or one with sampled chance
            (OpenSpiel draws the outcome inside ``apply_action`` and lists no odds, so a
            chance node would be one outcome of probability 1 and ``result`` not a
            function).
        GameFormatError: a ``key`` other than those in :data:`KEYS`.
    """

    def __init__(self, native: Any, key: str = "auto") -> None:
        import pyspiel  # type: ignore[import-untyped,import-not-found,unused-ignore]

        kind = native.get_type()
        shown = str(native).removesuffix("()")
        if kind.dynamics == pyspiel.GameType.Dynamics.MEAN_FIELD:
            raise UnsupportedGameError(
                f"OpenSpiel game {shown!r} is a mean-field game; plies searches games "
                "whose players are players (sequential or simultaneous dynamics)"
            )
        if kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
            raise UnsupportedGameError(
                f"OpenSpiel game {shown!r} samples its chance outcomes without "
                "listing their odds; plies searches games whose chance nodes list them "
                "(explicit chance) or that have none"
            )
        if key not in KEYS:
            raise GameFormatError(
                f"key {quoted(key)} is not a transposition key of an OpenSpiel game; "
                f"accepted: {', '.join(KEYS)}"
            )
        self.native = native
        self.key_option = key
        self.key_by = (
            key if key != "auto"
            else "string" if kind.short_name in POSITION_KEYED else "history"
        )
        self.num_players = int(native.num_players())
        self.name = f"{PREFIX}{shown}"
        self.description = f"OpenSpiel's {kind.long_name}"
        utility = kind.utility
        self.zero_sum = utility in (
            pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.Utility.CONSTANT_SUM
        )
        self.has_chance = kind.chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC
        self.has_simultaneous = kind.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
        self.perfect_information = (
            kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
        )
        try:
            lo, hi = float(native.min_utility()), float(native.max_utility())
        except pyspiel.SpielError:  # a game that does not declare its bounds
            lo, hi = -math.inf, math.inf
        self.utility_range = (lo, hi)
        if kind.short_name in BOARDS:  # the board hook, for the games that have a board
            self.board = self._board

    def __repr__(self) -> str:
        return f"OpenSpielGame({str(self.native)!r})"

    def _board(self, state: OpenSpielState, last: Action | None = None) -> Board:
        """Tic-tac-toe or Connect Four as a grid.  Both print the board as rows of ``.``,
        ``x`` (the first player) and ``o``, top row first; tic-tac-toe's action ids number
        the cells row by row, Connect Four's the columns."""
        look = BOARDS[self.native.get_type().short_name]
        rows = [line.strip() for line in str(state.native).splitlines() if line.strip()]
        width = len(rows[0])
        cells = tuple({"x": "X", "o": "O"}.get(ch.lower(), "") for line in rows for ch in line)
        legal = {a: self.format_action(state, a) for a in self.actions(state)}
        if look == "tictactoe":
            return Board(
                len(rows), width, cells, kind=look, marks=LOOKS[look],
                cell_moves=tuple(legal.get(i) for i in range(len(cells))),
                last=(last,) if isinstance(last, int) else (),
            )
        dropped: tuple[int, ...] = ()
        if isinstance(last, int):  # the stone just dropped: the column's top stone
            column = [r * width + last for r in range(len(rows))]
            dropped = tuple(i for i in column if cells[i])[:1]
        return Board(
            len(rows), width, cells, kind=look, marks=LOOKS[look], background="#2d5fb8",
            column_moves=tuple(legal.get(col) for col in range(width)), last=dropped,
        )

    def __reduce__(self) -> tuple[Any, ...]:
        # Worker processes rebuild the game from OpenSpiel's own game string.
        return (load_openspiel, (f"{PREFIX}{self.native}", {"key": self.key_option}))

    # --- the game model ---

    def initial_state(self) -> OpenSpielState:
        return OpenSpielState((), self.native.new_initial_state())

    def to_move(self, state: OpenSpielState) -> int:
        native = state.native
        if native.is_chance_node():
            return CHANCE
        if native.is_simultaneous_node():
            return SIMULTANEOUS
        return int(native.current_player())

    def actions(self, state: OpenSpielState) -> Sequence[Action]:
        native = state.native
        if native.is_simultaneous_node():
            own = [self.player_actions(state, p) for p in range(self.num_players)]
            return list(itertools.product(*own))
        return list(native.legal_actions())

    def player_actions(self, state: OpenSpielState, player: int) -> Sequence[int]:
        return list(state.native.legal_actions(player))

    def chance_outcomes(self, state: OpenSpielState) -> Sequence[tuple[Action, float]]:
        return [(int(a), float(p)) for a, p in state.native.chance_outcomes()]

    def result(self, state: OpenSpielState, action: Action) -> OpenSpielState:
        child = state.native.clone()
        if isinstance(action, tuple):
            child.apply_actions(list(action))
        else:
            child.apply_action(action)
        return OpenSpielState((*state.history, action), child)

    def is_terminal(self, state: OpenSpielState) -> bool:
        return bool(state.native.is_terminal())

    def utility(self, state: OpenSpielState, player: int) -> float:
        return float(state.native.returns()[player])

    def key(self, state: OpenSpielState) -> Hashable:
        if self.key_by == "string":
            native = state.native
            return (str(native), int(native.current_player()))
        return state.history

    # --- text ---

    def format_action(self, state: OpenSpielState, action: Action) -> str:
        native = state.native
        if isinstance(action, tuple):
            return "/".join(
                self.format_player_action(state, p, a) for p, a in enumerate(action)
            )
        return _compact(native.action_to_string(native.current_player(), action))

    def format_player_action(self, state: OpenSpielState, player: int, action: Any) -> str:
        return _compact(state.native.action_to_string(player, action))

    def parse_action(self, state: OpenSpielState, text: str) -> Action:
        """The legal action written as ``text``: its text (blanks and case ignored), or
        its OpenSpiel id (``4``; ``0/2`` for a joint action).

        Raises:
            IllegalActionError: ``text`` names no legal action; the message lists them.
        """
        legal = list(self.actions(state))
        wanted = _compact(text).lower()
        for action in legal:
            if self.format_action(state, action).lower() == wanted:
                return action
        ids = wanted.split("/")
        if all(part.isdigit() and len(part) <= 9 for part in ids):
            numbers = tuple(int(part) for part in ids)
            candidate: Action = numbers if len(numbers) > 1 else numbers[0]
            if candidate in legal:
                return candidate
        raise IllegalActionError(text, [self.format_action(state, a) for a in legal])

    def split_moves(self, text: str) -> list[str]:
        """Move tokens separated by blanks (never commas: OpenSpiel's texts hold them)."""
        return text.split()

    def render(self, state: OpenSpielState) -> str:
        return str(state.native)


def _compact(text: str) -> str:
    return "".join(str(text).split())


# --- specs -------------------------------------------------------------------------------------


def load_openspiel(
    spec: str, options: Mapping[str, Any] | Sequence[str] = ()
) -> OpenSpielGame:
    """The OpenSpiel game that ``spec`` names, with ``options`` as its parameters.

    ``spec`` is ``openspiel:NAME`` or ``openspiel:NAME(key=value,...)`` (OpenSpiel's own
    game string after the prefix); ``options`` (``{"winscore": 10}`` or
    ``["winscore=10"]``) add parameters.  Values are read by OpenSpiel (``10`` an int,
    ``true`` a bool, ``0.5`` a float, else a string).  One option is plies' own, not
    OpenSpiel's: ``key`` (``auto``, ``history`` or ``string``), the transposition key of
    :class:`OpenSpielGame` (no OpenSpiel game has a parameter of that name).

    Raises:
        GameSpecError: pyspiel is not installed, or there is no OpenSpiel game of that name.
        GameFormatError: a malformed spec, or a parameter the game does not have.
        UnsupportedGameError: a mean-field game, or one with sampled chance.
    """
    match = _SPEC.fullmatch(spec)
    if match is None:
        raise GameFormatError(
            f"{quoted(spec)} is not an OpenSpiel game spec; write openspiel:NAME or "
            "openspiel:NAME(key=value,...), e.g. openspiel:pig(winscore=10)"
        )
    name, inner = match.group(1), match.group(2)
    try:
        import pyspiel  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        raise GameSpecError(
            f"game {quoted(spec.strip())} needs OpenSpiel (pyspiel), which is not installed: "
            f"{INSTALL_HINT}"
        ) from None
    known = {kind.short_name: kind for kind in pyspiel.registered_games()}
    if name not in known:
        close = difflib.get_close_matches(name, list(known), n=3)
        hint = f"did you mean {', '.join(close)}? " if close else ""
        raise GameSpecError(
            f"unknown OpenSpiel game {name!r}; {hint}OpenSpiel has {len(known)} games "
            "(pyspiel.registered_names() lists them)"
        )
    params = [item.strip() for item in (inner or "").split(",") if item.strip()]
    items = (
        [f"{k}={_param_text(v)}" for k, v in options.items()]
        if isinstance(options, Mapping) else list(options)
    )
    accepted = sorted(known[name].parameter_specification)
    transposition_key = "auto"
    for item in [*items]:
        if item.partition("=")[0].strip() == "key":
            items.remove(item)
            transposition_key = item.partition("=")[2].strip()
    for item in (*params, *items):
        key, sep, value = item.partition("=")
        if key.strip() == "key":  # only in the parentheses: OpenSpiel's own game string
            raise GameFormatError(
                f"key is plies' option, not a parameter of OpenSpiel's {name}: give it as "
                "-o key=VALUE (Python: options={'key': VALUE})"
            )
        if not sep or key.strip() not in accepted:
            raise GameFormatError(
                f"OpenSpiel game {name} has no parameter {quoted(key.strip())}; its "
                f"parameters: {', '.join(accepted) or '(none)'}"
                if sep else f"parameter {quoted(item)} is not key=value"
            )
        if not value.strip():
            raise GameFormatError(f"parameter {quoted(item)} of {name} has no value")
    every = [*params, *(i.replace(" ", "") for i in items)]
    text = f"{name}({','.join(every)})" if every else name
    try:
        native = pyspiel.load_game(text)
    except pyspiel.SpielError as err:
        first = str(err).strip().splitlines()[0] if str(err).strip() else "rejected"
        raise GameFormatError(f"OpenSpiel cannot load {quoted(text)}: {first}") from None
    return OpenSpielGame(native, key=transposition_key)


# --- the catalogue ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OpenSpielGameInfo:
    """One OpenSpiel game as OpenSpiel's game type declares it (nothing is loaded).

    ``moves``: ``"sequential"``, ``"simultaneous"`` or ``"mean-field"`` (which plies
    refuses); ``chance``: ``"none"``, ``"explicit"`` (OpenSpiel lists the odds: searched
    as chance nodes) or ``"sampled"`` (chance outcomes drawn, their odds not listed);
    ``information``: ``"perfect"``, ``"imperfect"`` or ``"one-shot"`` (imperfect
    information is searched on the full state); ``utility``: ``"zero-sum"``,
    ``"constant-sum"``, ``"general-sum"`` or ``"identical"``; ``players``: the default
    number, or ``"2-10"`` when the ``players`` parameter ranges and has no default;
    ``needs_parameters``: a wrapper (``misere``, ``repeated_game``, ...) that loads only
    with parameters naming the game it wraps.
    """

    name: str
    long_name: str
    players: str
    moves: str
    chance: str
    information: str
    utility: str
    needs_parameters: bool


def openspiel_games() -> list[OpenSpielGameInfo]:
    """Every game OpenSpiel registers, by name, as its game type declares it.

    Raises:
        GameSpecError: pyspiel is not installed (the message says how to install it).
    """
    try:
        import pyspiel  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        raise GameSpecError(
            f"OpenSpiel (pyspiel) is not installed: {INSTALL_HINT}"
        ) from None
    kinds = pyspiel.GameType
    moves = {
        kinds.Dynamics.SEQUENTIAL: "sequential",
        kinds.Dynamics.SIMULTANEOUS: "simultaneous",
        kinds.Dynamics.MEAN_FIELD: "mean-field",
    }
    chance = {
        kinds.ChanceMode.DETERMINISTIC: "none",
        kinds.ChanceMode.EXPLICIT_STOCHASTIC: "explicit",
        kinds.ChanceMode.SAMPLED_STOCHASTIC: "sampled",
    }
    information = {
        kinds.Information.PERFECT_INFORMATION: "perfect",
        kinds.Information.IMPERFECT_INFORMATION: "imperfect",
        kinds.Information.ONE_SHOT: "one-shot",
    }
    utility = {
        kinds.Utility.ZERO_SUM: "zero-sum",
        kinds.Utility.CONSTANT_SUM: "constant-sum",
        kinds.Utility.GENERAL_SUM: "general-sum",
        kinds.Utility.IDENTICAL: "identical",
    }
    games = []
    for kind in pyspiel.registered_games():
        default = kind.parameter_specification.get("players")
        low, high = int(kind.min_num_players), int(kind.max_num_players)
        players = (
            str(default) if default is not None
            else str(low) if low == high else f"{low}-{high}"
        )
        games.append(OpenSpielGameInfo(
            name=kind.short_name, long_name=kind.long_name, players=players,
            moves=moves.get(kind.dynamics, str(kind.dynamics)),
            chance=chance.get(kind.chance_mode, str(kind.chance_mode)),
            information=information.get(kind.information, str(kind.information)),
            utility=utility.get(kind.utility, str(kind.utility)),
            needs_parameters=not kind.default_loadable,
        ))
    return sorted(games, key=lambda info: info.name)


def _param_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


SOURCE: Final = Source(
    "an OpenSpiel game", lambda spec, options, budget: load_openspiel(spec, options)
)
"""``openspiel:NAME`` specs (:mod:`plies.sources`); the options are OpenSpiel's parameters."""

__all__ = [
    "INSTALL_HINT", "KEYS", "POSITION_KEYED", "PREFIX", "SOURCE", "OpenSpielGame",
    "OpenSpielGameInfo", "OpenSpielState", "is_openspiel_spec", "load_openspiel",
    "openspiel_games",
]
