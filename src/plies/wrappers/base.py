"""A game that is another game in every respect a subclass does not override.

:class:`GameWrapper` is the base of every wrapper in :mod:`plies.wrappers` (and of a
user's own): it copies the declared facts, resolves the optional members once
(:func:`~plies.game.game_ops`) and forwards everything else to the wrapped game.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, TypeVar

from plies.game import (
    Game,
    format_action,
    format_player_action,
    game_ops,
    hook,
    match_action,
)

S = TypeVar("S")
A = TypeVar("A")


class GameWrapper(Game[S, A]):
    """A game that is ``game`` in every respect a subclass does not override.

    The declared facts (players, utility range, zero-sum, chance, simultaneous moves,
    name) are copied, the optional members are resolved once (:func:`game_ops`), and the
    hooks (``order_hint``, ``noisy_actions``, ...) and any other attribute the wrapper
    lacks are looked up on ``game``, except ``random_playout``, ``random_playouts``,
    ``solver`` and ``compiled_search``:
    subclasses change moves, movers or states (opponents as chance, partial joint moves,
    mate-distance states), which the wrapped game's fast playout and exact solver know
    nothing of, so a wrapper's playouts take the generic path and its exact searches the
    generic search unless it defines its own.  The front ends' hooks (``board``,
    ``read_position``, ``write_position``, ``play_defaults``) are forwarded: a subclass
    whose states are not the wrapped game's sets the state ones to None.
    """

    random_playout = None
    random_playouts = None
    solver = None
    compiled_search: Any = None

    def __init__(self, game: Game[S, A]) -> None:
        self.game = game
        self._ops = game_ops(game)
        self.num_players = game.num_players
        self.utility_range = self._ops.utility_range
        self.zero_sum = getattr(game, "zero_sum", False)
        self.has_chance = getattr(game, "has_chance", False)
        self.has_simultaneous = getattr(game, "has_simultaneous", False)
        self.name = getattr(game, "name", "game")

    def __getattr__(self, name: str) -> Any:  # only called for what the wrapper lacks
        if name == "game":  # not set yet: do not recurse
            raise AttributeError(name)
        return getattr(self.game, name)

    def initial_state(self) -> S:
        return self.game.initial_state()

    def to_move(self, state: S) -> int:
        return self.game.to_move(state)

    def actions(self, state: S) -> Sequence[A]:
        return self.game.actions(state)

    def chance_outcomes(self, state: S) -> Sequence[tuple[A, float]]:
        return self._ops.chance_outcomes(state)

    def result(self, state: S, action: A) -> S:
        return self.game.result(state, action)

    def is_terminal(self, state: S) -> bool:
        return self.game.is_terminal(state)

    def utility(self, state: S, player: int) -> float:
        return self.game.utility(state, player)

    def evaluate(self, state: S, player: int) -> float:
        return self._ops.evaluate(state, player)

    def key(self, state: S) -> Hashable:
        return self._ops.key(state)

    def format_action(self, state: S, action: A) -> str:
        return format_action(self.game, state, action)

    def format_player_action(self, state: S, player: int, action: Any) -> str:
        return format_player_action(self.game, state, player, action)

    def parse_action(self, state: S, text: str) -> A:
        custom = hook(self.game, "parse_action")
        action: A = match_action(self, state, text) if custom is None else custom(state, text)
        return action

    def split_moves(self, text: str) -> list[str]:
        custom = hook(self.game, "split_moves")
        return super().split_moves(text) if custom is None else list(custom(text))

    def render(self, state: S) -> str:
        render = getattr(self.game, "render", None)
        return str(state) if render is None else str(render(state))

    def player_name(self, player: int) -> str:
        name = getattr(self.game, "player_name", None)
        return f"P{player}" if name is None else str(name(player))
