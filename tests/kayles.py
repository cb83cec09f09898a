"""A user's own game that declares every front-end hook: Kayles (``tests.kayles:Kayles``).

Kayles (Dudeney, 1908; Guy and Smith's octal game 0.77): a row of pins; a move knocks
down one pin or two neighbouring pins; whoever knocks down the last pin wins (normal
play).  The game declares what plies' front ends read:

- ``board``: the row of pins, a click on a pin knocks it down, a click on a pin and then
  on its neighbour knocks both (a from-to move), the pins just knocked marked;
- ``read_position`` / ``write_position``: a position written as its row, ``I`` a pin and
  ``.`` a gap, then the player to move (``II.III B``);
- ``play_defaults``: half a second a move, how a move is written, and exact play once at
  most 14 pins stand;
- ``solver``: an exact solver by the Sprague-Grundy theorem (a position is lost for the
  mover exactly when the nim-sum of its runs' Grundy values is 0), which answers rows of
  any length at once, where alpha-beta must search.

Nothing here is registered: tests load it by spec, as a user would load ``mypkg:Kayles``.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, Final

import plies
from plies.game import Board, FromTo, Mark, PlayDefaults, PositionText
from plies.search import SearchResult, SearchStats

State = tuple[str, int]
"""``(row, mover)``: ``row`` a string of ``I`` (a pin) and ``.`` (a gap)."""
Action = tuple[int, int]
"""``(first, last)``: the pins knocked down, ``first == last`` for one pin."""

PLAYERS: Final = ("A", "B")
ROW: Final = re.compile(r"([I.]+)\s+([AB])")
MOVES_HELP: Final = "knock down one pin (3) or two neighbouring pins (3-4), pins counted from 1"


class Kayles(plies.Game[State, Action]):
    """Kayles on a row of ``pins`` pins (see the module docstring)."""

    num_players = 2
    zero_sum = True
    utility_range = (-1.0, 1.0)
    name = "kayles"

    def __init__(self, pins: int = 10) -> None:
        if not 1 <= pins <= 60:
            raise plies.GameFormatError(f"pins must be 1..60, got {pins}")
        self.pins = pins

    def initial_state(self) -> State:
        return ("I" * self.pins, 0)

    def to_move(self, state: State) -> int:
        return state[1]

    def actions(self, state: State) -> Sequence[Action]:
        row = state[0]
        singles = [(i, i) for i, pin in enumerate(row) if pin == "I"]
        pairs = [(i, i + 1) for i in range(len(row) - 1) if row[i] == row[i + 1] == "I"]
        return singles + pairs

    def result(self, state: State, action: Action) -> State:
        row, mover = state
        first, last = action
        return (row[:first] + "." * (last - first + 1) + row[last + 1:], 1 - mover)

    def is_terminal(self, state: State) -> bool:
        return "I" not in state[0]

    def utility(self, state: State, player: int) -> float:
        return -1.0 if player == state[1] else 1.0  # the mover has nothing left: it lost

    def format_action(self, state: State, action: Action) -> str:
        first, last = action
        return str(first + 1) if first == last else f"{first + 1}-{last + 1}"

    def player_name(self, player: int) -> str:
        return PLAYERS[player]

    def render(self, state: State) -> str:
        return f"{state[0]} ({PLAYERS[state[1]]} to move)"

    # --- what the front ends read ------------------------------------------------------------

    def board(self, state: State, last: Action | None = None) -> Board:
        row = state[0]
        legal = {a: self.format_action(state, a) for a in self.actions(state)}
        return Board(
            1, len(row), tuple("I" if pin == "I" else "" for pin in row),
            marks={"I": Mark("disc", color="#8d5524", plain="I")},
            files=tuple(str(i + 1) for i in range(len(row))),
            cell_moves=tuple(legal.get((i, i)) for i in range(len(row))),
            from_to=tuple(FromTo(a[0], a[1], text) for a, text in legal.items() if a[0] < a[1]),
            last=() if last is None else tuple(range(last[0], last[1] + 1)),
            caption=f"{row.count('I')} pins standing",
        )

    def read_position(self, text: str) -> PositionText | None:
        found = ROW.fullmatch(text.strip())
        if found is None:
            return None
        if len(found[1]) != self.pins:
            raise plies.GameFormatError(
                f"{text.strip()!r} has {len(found[1])} places; this game has {self.pins} pins"
            )
        return PositionText((found[1], PLAYERS.index(found[2])), setup=text.strip())

    def write_position(self, state: State) -> str:
        return f"{state[0]} {PLAYERS[state[1]]}"

    def play_defaults(self) -> PlayDefaults:
        return PlayDefaults(time=0.5, moves_help=MOVES_HELP, exact_when=_few_pins)

    def solver(self, backend: str = "auto") -> GrundySolver:
        if backend not in ("auto", "grundy"):
            raise plies.OptionError(f"backend {backend!r}: Kayles' solver accepts auto, grundy")
        return GrundySolver(self)


def _few_pins(state: State) -> bool:
    return state[0].count("I") <= 14


@cache
def grundy(run: int) -> int:
    """The Grundy value of a run of ``run`` pins: the least value no move reaches (a move
    leaves two runs, whose values combine by xor)."""
    reached = {grundy(left) ^ grundy(run - taken - left)
               for taken in (1, 2) for left in range(run - taken + 1)}
    return next(g for g in range(len(reached) + 1) if g not in reached)


class GrundySolver:
    """Kayles' exact solver (the ``solver`` hook): the mover wins exactly when the xor of
    the Grundy values of the runs of pins is not 0, and a winning move is one that makes
    it 0.  It answers what exact alpha-beta answers: the value, the first best action in
    ``actions()`` order, and the principal variation of first best actions."""

    backend = "grundy"

    def __init__(self, game: Kayles) -> None:
        self.game = game
        self.nodes = 0

    def winning(self, row: str) -> bool:
        """True when the player to move at ``row`` wins."""
        self.nodes += 1
        nim = 0
        for run in row.split("."):
            nim ^= grundy(len(run))
        return nim != 0

    def best(self, state: State) -> Action:
        """The first action that wins, else the first action (every one loses)."""
        actions = self.game.actions(state)
        for action in actions:
            if not self.winning(self.game.result(state, action)[0]):
                return action
        return actions[0]

    def solve(
        self, state: State, *, player: int | None = None, weak: bool = False,
        on_test: Any = None, on_progress: Callable[[Any], None] | None = None,
        stop: Any = None,
    ) -> SearchResult:
        start, nodes0 = time.perf_counter(), self.nodes
        game = self.game
        mover = state[1]
        player = mover if player is None else player
        line: list[Action] = []
        here = state
        while not game.is_terminal(here):
            if stop is not None and stop.is_set():
                raise plies.SearchLimitError("the solver was stopped before it finished")
            step = self.best(here)
            line.append(step)
            here = game.result(here, step)
        if game.is_terminal(state):
            value = game.utility(state, player)
        else:
            value = 1.0 if self.winning(state[0]) == (player == mover) else -1.0
        stats = SearchStats(nodes=self.nodes - nodes0, depth=len(line),
                            elapsed=time.perf_counter() - start)
        action = line[0] if line else None
        return SearchResult(value, action, tuple(line), stats, player).about(game, state)

    def analyze(self, state: State, *, player: int | None = None) -> dict[Any, float]:
        mover = state[1]
        sign = 1.0 if player in (None, mover) else -1.0
        return {
            a: sign * (-1.0 if self.winning(self.game.result(state, a)[0]) else 1.0)
            for a in self.game.actions(state)
        }
