"""Empire as a plies game: :class:`EmpireRules` under multi-move turns, evaluated.

:class:`Empire` gives the rules (:mod:`plies.games.empire.rules`) their turns with
:class:`~plies.wrappers.MultiMoveTurns` (Get-Move-Count: the rules' ``move_count``), the
weighted-feature evaluation of :mod:`plies.games.empire.evaluation` (the
linear-evaluation protocol by duck typing), a move-ordering hint for engine craft, and
the move text people type.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, replace
from typing import Final

from plies.errors import IllegalActionError, OptionError
from plies.game import match_action
from plies.game.board import Board
from plies.game.declaration import declare
from plies.game.options import INT, Option, OptionType
from plies.games.empire.evaluation import FEATURE_NAMES, EmpireWeights, features
from plies.games.empire.maps import DEFAULT_MAP, MAPS
from plies.games.empire.rules import (
    MOVE,
    SCIENCE_GOAL,
    SETTLE,
    TRAIN,
    TURNS,
    Action,
    EmpireRules,
    EmpireState,
)
from plies.games.empire.view import LEGEND, empire_board
from plies.wrappers import MultiMoveState, MultiMoveTurns

_WORDS: Final = frozenset({"grow", "study", "train", "settle"})


class Empire(MultiMoveTurns[EmpireState, Action]):
    """Empire as a :class:`~plies.game.Game`: :class:`EmpireRules` under multi-move turns.

    ``players`` 3..6, ``map`` a built-in name (:data:`MAPS`) or rows split at ``/``,
    ``turns`` the turn limit, ``science`` the research that wins, ``weights`` the
    evaluation's (default: the hand-set :class:`EmpireWeights`).
    """

    feature_names: tuple[str, ...] = FEATURE_NAMES

    def __init__(
        self, players: int = 3, map: str | Sequence[str] = DEFAULT_MAP,
        turns: int = TURNS, science: int = SCIENCE_GOAL, weights: EmpireWeights | None = None,
    ) -> None:
        rules = EmpireRules(players, map, turns, science)
        super().__init__(rules, moves=rules.move_count)
        self.empire = rules
        self.weights = EmpireWeights() if weights is None else weights
        self._weights = tuple(getattr(self.weights, n) for n in FEATURE_NAMES)

    # The linear-evaluation protocol (plies.linear, by duck typing).

    def features(self, state: MultiMoveState[EmpireState], player: int) -> tuple[float, ...]:
        """:data:`FEATURE_NAMES` of ``state`` from ``player``'s point of view."""
        return features(self.empire, state.base, player)

    def feature_weights(self) -> dict[str, float]:
        return asdict(self.weights)

    def with_weights(self, weights: Mapping[str, float]) -> Empire:
        """The same game evaluated with ``weights`` (names not given keep theirs).

        Raises:
            OptionError: a name that is not a feature (the message lists them).
        """
        unknown = sorted(set(weights) - set(FEATURE_NAMES))
        if unknown:
            raise OptionError(
                f"unknown empire feature(s) {', '.join(unknown)}; "
                f"features are {', '.join(FEATURE_NAMES)}"
            )
        new = replace(self.weights, **{k: float(v) for k, v in weights.items()})
        r = self.empire
        return Empire(r.num_players, r.rows, r.turns, r.science_goal, new)

    def evaluate(self, state: MultiMoveState[EmpireState], player: int) -> float:
        """The utility at the end; else the weighted feature sum, clipped to [0, 1]."""
        base = state.base
        if self.empire.is_terminal(base):
            return self.empire.utility(base, player)
        total = 0.0
        for w, f in zip(self._weights, features(self.empire, base, player), strict=True):
            total += w * f
        return 0.0 if total < 0.0 else 1.0 if total > 1.0 else total

    def parse_action(self, state: MultiMoveState[EmpireState], text: str) -> Action:
        """The legal action written as ``text``; a move may use ``-`` or ``x`` either way."""
        try:
            action: Action = match_action(self, state, text)
            return action
        except IllegalActionError:
            swapped = text.replace("x", "-") if "x" in text else text.replace("-", "x")
            action = match_action(self, state, swapped)
            return action

    def order_hint(
        self, state: MultiMoveState[EmpireState], actions: Sequence[Action]
    ) -> list[Action]:
        """Move ordering for engine craft: attacks and captures first, then settling and
        training, then the rest in their order (a stable sort)."""
        base = state.base
        hostile = {u[0] for u in base.units if u[1] != state.agent}
        hostile.update(c[0] for c in base.cities if c[1] != state.agent)

        def rank(action: Action) -> int:
            kind = action[0]
            if kind == MOVE:
                return 0 if action[2] in hostile else 3
            return 1 if kind in (SETTLE, TRAIN) else 2

        return sorted(actions, key=rank)

    def split_moves(self, text: str) -> list[str]:
        """The moves of a typed list: ``grow b6, b6-c6`` or ``grow b6 b6-c6``.

        Split at commas and blanks, a word (``grow``, ``study``, ``train``, ``settle``)
        staying with the square after it.
        """
        moves: list[str] = []
        for token in text.replace(",", " ").split():
            if moves and moves[-1].lower() in _WORDS:
                moves[-1] = f"{moves[-1]} {token}"
            else:
                moves.append(token)
        return moves

    def victory(self, state: MultiMoveState[EmpireState]) -> tuple[str, tuple[int, ...]] | None:
        """``(victory, winners)`` once the game is over (victory: ``"conquest"``,
        ``"science"`` or ``"score"``), else None."""
        return self.empire.victory(state.base)

    def outcome(self, state: MultiMoveState[EmpireState]) -> str:
        """``"conquest victory: A Rome"`` and the like, or ``"*"`` while the game goes on."""
        end = self.empire.victory(state.base)
        if end is None:
            return "*"
        return f"{end[0]} victory: {', '.join(self.player_name(p) for p in end[1])}"

    def board(
        self, state: MultiMoveState[EmpireState], last: Action | None = None
    ) -> Board:
        """The map as a grid; unit moves are a click on the unit and one on its target,
        the cities' actions (and ``rest``) buttons.  The caption is the legend, each
        empire's numbers and whose move it is (or who won), as the text picture writes
        them."""
        over = self.is_terminal(state)
        actions = [] if over else [(a, self.format_action(state, a)) for a in self.actions(state)]
        picture = self.render(state).splitlines()
        legend = next(i for i, line in enumerate(picture) if line.startswith("A3 = city"))
        caption = "\n".join([LEGEND, *picture[legend + 1:]])
        return empire_board(self.empire, state.base, actions, caption, last)

    def render(self, state: MultiMoveState[EmpireState]) -> str:
        """The map, a legend, each empire's numbers and whose move it is."""
        board = self.empire.render(state.base)
        if self.is_terminal(state):
            return board
        made, limit = self.turn_progress(state)
        return f"{board}: {self.player_name(state.agent)} to move (move {made + 1} of {limit})"


def _parse_map(text: str) -> str:
    for name in MAPS:  # a built-in name, in any case
        if text.strip().lower() == name:
            return name
    if "/" not in text and "\n" not in text:
        raise ValueError(text)
    return text


MAP: Final = OptionType(
    "map name (" + ", ".join(MAPS) + ") or rows split at /", _parse_map,
    lambda v: isinstance(v, str),
)
"""A built-in Empire map by name, or a map as text: ``1..../...../..~../...2./3....``."""
PLAYERS: Final = (3, 6)
MAX_TURNS: Final = 1_500
"""The tutorial's game length."""
MAX_SCIENCE: Final = 100_000


@declare(
    description="Empire: a Civilization-like game for 3-6 players; conquest, science or score wins",
    options=(
        Option("players", INT, 3, "number of empires", bounds=PLAYERS),
        Option(
            "map", MAP, DEFAULT_MAP,
            "a built-in map or your own (. plain ^ hills ~ water 1-6 capitals)",
        ),
        Option(
            "turns", INT, TURNS, "turns after which the highest score wins",
            bounds=(1, MAX_TURNS),
        ),
        Option(
            "science", INT, SCIENCE_GOAL, "research that wins a science victory",
            bounds=(1, MAX_SCIENCE),
        ),
    ),
)
def empire(
    players: int = 3, map: str = DEFAULT_MAP, turns: int = TURNS, science: int = SCIENCE_GOAL,
) -> Empire:
    """The registry's factory: Empire with the given options and the hand-set weights."""
    return Empire(players, map, turns, science)
