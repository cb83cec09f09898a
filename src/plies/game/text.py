"""A game as people read it: players and movers by name, lines of moves, values.

One set of rules for every front end (the terminal, the JSON of ``--json``, the web app,
a notebook, the GGP player's logs), so they say the same thing the same way.  Each
function uses the game's own method when it has one (``player_name``, ``format_action``)
and the documented default otherwise, so duck-typed games work too.

>>> number(2.0), number(0.48671), number(-0.0), number(1e-17), number(float("inf"))
('2', '0.4867', '0', '0', '+inf')
>>> from plies.games import load
>>> ttt = load("tictactoe")
>>> pv_text(ttt, ttt.initial_state(), (4, 0)), player_name(ttt, 1)
(['5', '1'], 'O')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise
from typing import Any, Final

from plies.game.actions import format_action, format_player_action
from plies.game.model import CHANCE, SIMULTANEOUS

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


def player_name(game: Any, player: int) -> str:
    """``game.player_name(player)`` if the game has it, else ``P<player>``."""
    namer = getattr(game, "player_name", None)
    return f"P{player}" if namer is None else str(namer(player))


def players_text(game: Any) -> str:
    """Every player as ``0 (X), 1 (O)``: what messages offer to choose from."""
    return ", ".join(f"{p} ({player_name(game, p)})" for p in range(game.num_players))


def mover_name(game: Any, state: Any) -> str:
    """Who is to move: a player's name, ``"chance"`` or ``"everyone (simultaneous)"``."""
    mover = game.to_move(state)
    if mover == SIMULTANEOUS:
        return "everyone (simultaneous)"
    return "chance" if mover == CHANCE else player_name(game, mover)


def pv_text(game: Any, state: Any, pv: Sequence[Any]) -> list[str]:
    """The moves of a principal variation as the game writes them.

    Where it is not plain who makes each move (a player moves several times in a row,
    or more than two players take turns), each mover's first move of a turn is written
    with the mover's name: ``["A Rome: farm", "build", "B Egypt: raid"]``.
    """
    out: list[str] = []
    movers: list[int | None] = []
    for action in pv:
        out.append(format_action(game, state, action))
        movers.append(None if game.is_terminal(state) else game.to_move(state))
        state = game.result(state, action)
    repeated = any(a == b and a is not None and a >= 0 for a, b in pairwise(movers))
    if not (repeated or game.num_players > 2):
        return out
    named: list[str] = []
    last: int | None = None
    for text, mover in zip(out, movers, strict=True):
        if mover is not None and mover != last:
            who = "chance" if mover == CHANCE else player_name(game, mover) if mover >= 0 \
                else "everyone"
            text = f"{who}: {text}"
        named.append(text)
        last = mover
    return named


def result_text(game: Any, utilities: Sequence[float]) -> str:
    """Who won, from the utilities at the end: ``"draw"`` when everyone has the same,
    else ``"X wins"`` (``"A and B win"``); alone, ``"X scores 100"``."""
    if len(utilities) == 1:
        return f"{player_name(game, 0)} scores {number(utilities[0])}"
    best = max(utilities)
    winners = [player_name(game, p) for p, u in enumerate(utilities) if u == best]
    if len(winners) == len(utilities):
        return "draw"
    return f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''}"


def own_action_text(game: Any, state: Any, player: int, action: Any) -> str:
    """``player``'s own action: at a simultaneous node one component, else a move."""
    if not game.is_terminal(state) and game.to_move(state) == SIMULTANEOUS:
        return format_player_action(game, state, player, action)
    return format_action(game, state, action)


__all__ = [
    "NOISE", "clean", "mover_name", "number", "own_action_text", "player_name",
    "players_text", "pv_text", "result_text",
]
