"""How a search result is named for people: numbers, moves, players, reports.

One set of rules for every front end, so the terminal, the JSON of ``--json``, the web
app and the logs of the GGP player say the same thing the same way.  The names of
players and moves and the cleaning of values are :mod:`plies.game.text`'s (a notebook
uses them too); this module adds the JSON report and win, draw or loss.

>>> number(2.0), number(0.48671), number(-0.0), number(1e-17), number(float("inf"))
('2', '0.4867', '0', '0', '+inf')
>>> outcome((-1.0, 1.0), 1e-17)
'draw'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from plies.game.text import (
    NOISE,
    clean,
    mover_name,
    number,
    own_action_text,
    player_name,
    pv_text,
)
from plies.search import SearchResult


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
