"""What the page shows of a position: its picture, whose turn, the legal moves, the result.

>>> from plies.games import load
>>> ttt = load("tictactoe")
>>> shown = view(ttt, ttt.result(ttt.initial_state(), 4), ["5"])
>>> shown["to_move_name"], shown["board"]["cells"][3:6], shown["board"]["cell_moves"][3:6]
('O', ['', 'X', ''], ['4', None, '6'])
"""

from __future__ import annotations

from typing import Any

from plies.engine import mover_name, player_name
from plies.game import (
    CHANCE,
    SIMULTANEOUS,
    default_player_actions,
    format_action,
    format_player_action,
    game_ops,
    legal_actions,
)
from plies.games.connect4 import Connect4
from plies.games.tictactoe import TicTacToe


def view(game: Any, state: Any, moves: list[str]) -> dict[str, Any]:
    """What the page shows of a position: the picture, whose turn, the legal moves.

    ``board`` is a grid the page can draw and click (tic-tac-toe and Connect Four, with
    the move each cell or column plays), else None; ``render`` is the game's own text
    picture, for every game.  At a chance node ``chance`` lists the outcomes and their
    probabilities; at the end ``utilities`` and ``result`` say who won.
    """
    terminal = bool(game.is_terminal(state))
    mover = None if terminal else int(game.to_move(state))
    render = getattr(game, "render", None)
    data: dict[str, Any] = {
        "game": getattr(game, "name", "game"),
        "players": [player_name(game, p) for p in range(game.num_players)],
        "moves": moves,
        "render": str(state) if render is None else str(render(state)),
        "terminal": terminal,
        "to_move": mover,
        "to_move_name": None if terminal else mover_label(game, state),
        "legal": [format_action(game, state, a) for a in legal_actions(game, state)],
        "board": _board(game, state),
    }
    if mover == SIMULTANEOUS:  # each player picks an own action; together they are a move
        data["own_moves"] = [
            [format_player_action(game, state, p, a) for a in own_actions(game, state, p)]
            for p in range(game.num_players)
        ]
    if mover == CHANCE:
        data["chance"] = [
            {"move": format_action(game, state, a), "p": p}
            for a, p in game_ops(game).chance_outcomes(state)
        ]
    if terminal:
        utilities = [float(game.utility(state, p)) for p in range(game.num_players)]
        data["utilities"] = utilities
        data["result"] = _result_text(game, utilities)
    return data


def mover_label(game: Any, state: Any) -> str:
    """Who is to move: a player's name, ``"chance"`` or ``"simultaneous"``."""
    if game.to_move(state) == SIMULTANEOUS:
        return "simultaneous"
    return mover_name(game, state)


def _result_text(game: Any, utilities: list[float]) -> str:
    best = max(utilities)
    winners = [player_name(game, p) for p, u in enumerate(utilities) if u == best]
    if len(winners) == len(utilities):
        return "draw"
    return f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''}"


def _board(game: Any, state: Any) -> dict[str, Any] | None:
    """A clickable grid for the games that have one; None for the others."""
    legal = {a: format_action(game, state, a) for a in legal_actions(game, state)}
    if isinstance(game, TicTacToe):
        return {
            "kind": "tictactoe",
            "rows": 3,
            "columns": 3,
            "cells": [ch if ch != "." else "" for ch in state.cells],
            "cell_moves": [legal.get(i) for i in range(9)],
        }
    if isinstance(game, Connect4):
        # The documented bitboard: bit col * (height + 1) + row, row 0 at the bottom;
        # ``position`` holds the stones of the player to move.
        h1 = game.height + 1
        xs = state.position if state.moves % 2 == 0 else state.position ^ state.mask
        cells = []
        for row in reversed(range(game.height)):
            for col in range(game.width):
                bit = 1 << (col * h1 + row)
                cells.append("" if not state.mask & bit else "X" if xs & bit else "O")
        return {
            "kind": "connect4",
            "rows": game.height,
            "columns": game.width,
            "cells": cells,
            "column_moves": [legal.get(col) for col in range(game.width)],
        }
    return None


def own_actions(game: Any, state: Any, player: int) -> list[Any]:
    """``player``'s own actions at a simultaneous node."""
    custom = getattr(game, "player_actions", None)
    if custom is not None:
        return list(custom(state, player))
    return default_player_actions(game, state, player)
