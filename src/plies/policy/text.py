"""How a search result is named for people: numbers, moves, players, reports.

One set of rules for every front end, so the terminal, the JSON of ``--json``, the web
app and the logs of the GGP player say the same thing the same way.

>>> number(2.0), number(0.48671), number(-0.0), number(1e-17), number(float("inf"))
('2', '0.4867', '0', '0', '+inf')
>>> outcome((-1.0, 1.0), 1e-17)
'draw'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Final

from plies.game import CHANCE, SIMULTANEOUS, format_action, format_player_action
from plies.policy.games import player_name
from plies.search import SearchResult

NOISE: Final = 1e-9
"""Values closer than this (relative to 1) to a round number are shown as that number:
the LP and chance averages leave float noise (``2.0000000000000004``, ``-1e-17``) that
must not read as a win or a loss."""


def clean(value: float) -> float:
    """``value`` with float noise removed: ``-0`` and ``1e-17`` become 0, ``2.0000000001``
    becomes 2 (see :data:`NOISE`); infinities and NaN are returned as they are."""
    if not math.isfinite(value):
        return value
    rounded = round(value)
    if abs(value - rounded) <= NOISE * max(1.0, abs(value)):
        return float(rounded) + 0.0  # + 0.0 turns -0.0 into 0.0
    return value


def number(value: float) -> str:
    """3, 0.4867, 2.1, +inf: integers without a point, others to 4 decimals at most."""
    value = clean(value)
    if not math.isfinite(value):
        return "nan" if math.isnan(value) else ("+inf" if value > 0 else "-inf")
    if value == int(value):
        return str(int(value))
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def jsonable(value: Any) -> Any:
    """``value`` with infinities as "+inf"/"-inf" strings (strict JSON has no Infinity)
    and float noise removed."""
    if isinstance(value, float):
        return number(value) if not math.isfinite(value) else clean(value)
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value


def outcome(utility_range: tuple[float, float], value: float) -> str:
    """Win, draw or loss: ``value`` against the middle of the utility range."""
    low, high = utility_range
    middle = (low + high) / 2
    value = clean(value)
    return "win" if value > middle else "loss" if value < middle else "draw"


def mover_name(game: Any, state: Any) -> str:
    """Who is to move: a player's name, ``"chance"`` or ``"everyone (simultaneous)"``."""
    mover = game.to_move(state)
    if mover == SIMULTANEOUS:
        return "everyone (simultaneous)"
    return "chance" if mover == CHANCE else player_name(game, mover)


def pv_text(game: Any, state: Any, pv: Sequence[Any]) -> list[str]:
    """The moves of a principal variation as the game writes them."""
    out: list[str] = []
    for action in pv:
        out.append(format_action(game, state, action))
        state = game.result(state, action)
    return out


def own_action_text(game: Any, state: Any, player: int, action: Any) -> str:
    """``player``'s own action: at a simultaneous node one component, else a move."""
    if not game.is_terminal(state) and game.to_move(state) == SIMULTANEOUS:
        return format_player_action(game, state, player, action)
    return format_action(game, state, action)


def report(
    game: Any, state: Any, moves: Sequence[str], name: str, r: SearchResult
) -> dict[str, Any]:
    """A search result as plain data (the ``--json`` output and the web app's report).

    ``value`` is from ``player``'s point of view; ``action_values`` (analysis) and
    ``strategy`` (mixed strategies) name the searching player's own actions.
    """
    def own(action: Any) -> str:
        return own_action_text(game, state, r.player, action)

    data: dict[str, Any] = {
        "game": getattr(game, "name", "game"),
        "moves": list(moves),
        "to_move": None if game.is_terminal(state) else mover_name(game, state),
        "player": player_name(game, r.player),
        "algorithm": name,
        "value": clean(r.value),
        "exact": r.exact,
        "action": None if r.action is None else own(r.action),
        "pv": pv_text(game, state, r.pv),
        "stats": r.stats.as_dict(),
    }
    if r.stopped:
        data["stopped"] = True
    if r.values is not None:
        data["values"] = {player_name(game, p): clean(v) for p, v in enumerate(r.values)}
    if r.action_values is not None:
        data["action_values"] = {own(a): clean(v) for a, v in r.action_values.items()}
    if r.strategy is not None:
        data["strategy"] = {own(a): clean(q) for a, q in r.strategy.items()}
    return data


__all__ = [
    "NOISE", "clean", "jsonable", "mover_name", "number", "outcome", "own_action_text",
    "pv_text", "report",
]
