"""What the page shows of a position: its picture, whose turn, the legal moves, the result.

``board`` is a grid the page draws and clicks, the same shape for every game that has one
(tic-tac-toe, Connect Four, Othello, chess), so the page needs no code per game:

============ ===================================================================
key          meaning
============ ===================================================================
kind         the game's look (a CSS class): ``tictactoe``, ``connect4``, ...
rows         rows, and ``columns``; cells are numbered row by row from the top left
cells        per cell what is on it: ``""`` (empty) or a mark (``"X"``, ``"K"``, ...)
glyphs       marks drawn as text (chess pieces: ``{"K": "♚", ...}``); other marks are
             drawn by the kind's style (discs)
cell_moves   per cell the move a click there plays, or None
column_moves per column the move a click in it plays (Connect Four)
from_to      moves made by clicking two cells: ``{"from", "to", "move", "promotion"}``
             (chess; ``promotion`` is the piece a pawn becomes, else None)
extra_moves  moves that are on no cell (Othello's ``"pass"``)
last         the cells of the last move (to highlight)
alert        cells to flag (a king in check)
files        labels of the columns, left to right, and ``ranks`` of the rows, top down
checkered    light and dark squares
rotatable    the page may turn the board round for the second player (chess)
caption      a line under the board (Othello's disc count, a check in chess)
============ ===================================================================

Only ``kind``, ``rows``, ``columns`` and ``cells`` are always present.

>>> from plies.games import load
>>> ttt = load("tictactoe")
>>> shown = view(ttt, ttt.result(ttt.initial_state(), 4), ["5"])
>>> shown["to_move_name"], shown["board"]["cells"][3:6], shown["board"]["cell_moves"][3:6]
('O', ['', 'X', ''], ['4', None, '6'])
"""

from __future__ import annotations

from typing import Any, Final

from plies.game import (
    CHANCE,
    SIMULTANEOUS,
    default_player_actions,
    format_action,
    format_player_action,
    game_ops,
    legal_actions,
)
from plies.games.chess import Chess
from plies.games.connect4 import Connect4
from plies.games.othello import PASS, Othello
from plies.games.pacman import STOP, Pacman, PacmanState
from plies.games.tictactoe import TicTacToe
from plies.policy import mover_name, player_name
from plies.sources.openspiel import OpenSpielGame

CHESS_GLYPHS: Final = dict(zip("KQRBNPkqrbnp", "♚♛♜♝♞♟" * 2, strict=True))
"""The Unicode chess pieces by their FEN letter (upper case White): the solid shapes for
both sides, which the page colours by the mark (an outlined White piece would show the
square through it)."""


def view(
    game: Any, state: Any, moves: list[str], before: Any = None
) -> dict[str, Any]:
    """What the page shows of a position: the picture, whose turn, the legal moves.

    ``board`` is a grid the page can draw and click (see the module docstring), else
    None; ``render`` is the game's own text picture, for every game.  ``before`` is the
    state before the last of ``moves`` (None: not known), so the board can mark the last
    move.  At a chance node ``chance`` lists the outcomes and their probabilities; at
    the end ``utilities`` and ``result`` say who won.
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
        "board": board(game, state, before, moves[-1] if moves else None),
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


def board(
    game: Any, state: Any, before: Any = None, last: str | None = None
) -> dict[str, Any] | None:
    """The clickable grid of ``state`` (see the module docstring), or None for a game
    without one.  ``last``, the text of the move that led from ``before`` to ``state``,
    is marked on the board when both are given."""
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
    if isinstance(game, Othello):
        return _othello_board(game, state, legal, before, last)
    if isinstance(game, Chess):
        return _chess_board(game, state, legal, before, last)
    pacman = game if isinstance(game, Pacman) else getattr(game, "game", None)
    if isinstance(pacman, Pacman):  # also with its ghosts as chance (OpponentsAsChance)
        return _pacman_board(pacman, state, legal)
    if isinstance(game, OpenSpielGame):
        return _openspiel_board(game, state, legal)
    return None


OPENSPIEL_BOARDS: Final = {"tic_tac_toe": "tictactoe", "connect_four": "connect4"}
"""OpenSpiel games drawn as plies' own boards (the page's look for each); every other
OpenSpiel game shows OpenSpiel's text (``render``) and move buttons."""


def _openspiel_board(
    game: OpenSpielGame, state: Any, legal: dict[Any, str]
) -> dict[str, Any] | None:
    """OpenSpiel's tic-tac-toe or Connect Four as plies' grids.  Both print the board as
    rows of ``.``, ``x`` (the first player) and ``o``, top row first; tic-tac-toe's action
    ids number the cells row by row, Connect Four's the columns."""
    kind = OPENSPIEL_BOARDS.get(game.native.get_type().short_name)
    if kind is None:
        return None
    rows = [line.strip() for line in str(state.native).splitlines() if line.strip()]
    marks = {"x": "X", "o": "O"}
    cells = [marks.get(ch.lower(), "") for line in rows for ch in line]
    shown: dict[str, Any] = {
        "kind": kind, "rows": len(rows), "columns": len(rows[0]), "cells": cells,
    }
    if kind == "tictactoe":
        shown["cell_moves"] = [legal.get(i) for i in range(len(cells))]
    else:
        shown["column_moves"] = [legal.get(col) for col in range(len(rows[0]))]
    return shown


def _last_action(game: Any, before: Any, last: str | None) -> Any:
    """The action ``last`` names at ``before``, or None when either is not known."""
    if before is None or last is None:
        return None
    return game.parse_action(before, last)


def _othello_board(
    game: Othello, state: Any, legal: dict[Any, str], before: Any, last: str | None
) -> dict[str, Any]:
    # Bit 8 * row + column is a square, a1 (bit 0) at the top left as the game draws it.
    black, white = game.black_white(state)
    cells = ["X" if black >> i & 1 else "O" if white >> i & 1 else "" for i in range(64)]
    placed = _last_action(game, before, last)
    return {
        "kind": "othello",
        "rows": 8,
        "columns": 8,
        "cells": cells,
        "cell_moves": [legal.get(i) for i in range(64)],
        "extra_moves": [legal[PASS]] if PASS in legal else [],
        "last": [] if placed in (None, PASS) else [placed],
        "files": list("abcdefgh"),
        "ranks": [str(r) for r in range(1, 9)],
        "caption": f"discs: Black {black.bit_count()}, White {white.bit_count()}"
        + (f"; {game.player_name(state.player)} must pass" if PASS in legal else ""),
    }


def _chess_board(
    game: Chess, state: Any, legal: dict[Any, str], before: Any, last: str | None
) -> dict[str, Any]:
    # White at the bottom: cell (7 - rank) * 8 + file shows python-chess square 8 * rank + file.
    def cell(square: int) -> int:
        return (7 - square // 8) * 8 + square % 8

    position = state.board
    cells = [""] * 64
    for square, piece in position.piece_map().items():
        cells[cell(square)] = piece.symbol()
    moves = [
        {"from": cell(m.from_square), "to": cell(m.to_square), "move": text,
         "promotion": None if m.promotion is None else "pnbrqk"[m.promotion - 1]}
        for m, text in legal.items()
    ]
    played = _last_action(game, before, last)
    alert = []
    if position.is_check():
        alert.append(cell(position.king(position.turn)))
    return {
        "kind": "chess",
        "rows": 8,
        "columns": 8,
        "cells": cells,
        "glyphs": CHESS_GLYPHS,
        "from_to": moves,
        "last": [] if played is None else [cell(played.from_square), cell(played.to_square)],
        "alert": alert,
        "files": list("abcdefgh"),
        "ranks": [str(r) for r in range(8, 0, -1)],
        "checkered": True,
        "rotatable": True,
        "caption": "" if not alert else "checkmate" if not legal
        else f"{game.player_name(game.to_move(state))} is in check",
    }


def _pacman_board(game: Pacman, state: PacmanState, legal: dict[Any, str]) -> dict[str, Any]:
    # Marks: W wall, F pellet, C capsule, P Pacman, G1..G4 a ghost, S1..S4 a scared one
    # (a ghost is drawn over a pellet it stands on; Pacman under a ghost that caught him).
    maze = game.maze
    cells = ["W" if i in maze.walls else "" for i in range(maze.width * maze.height)]
    for i in range(len(cells)):
        if state.food >> i & 1:
            cells[i] = "F"
        elif state.capsules >> i & 1:
            cells[i] = "C"
    cells[state.pacman] = "P"
    for g, (cell, timer) in enumerate(zip(state.ghosts, state.scared, strict=True), start=1):
        cells[cell] = f"{'S' if timer else 'G'}{g}"
    # Pacman's moves are clicks on the cell he would step to (his own cell: Stop).
    cell_moves: list[str | None] = [None] * len(cells)
    if state.mover == 0 and not game.is_terminal(state):
        for action, text in legal.items():
            cell_moves[state.pacman if action == STOP else game.step(state.pacman, action)] = text
    scared = [t for t in state.scared if t]
    return {
        "kind": "pacman",
        "rows": maze.height,
        "columns": maze.width,
        "cells": cells,
        "cell_moves": cell_moves,
        "caption": game.render(state).rsplit("\n", 1)[1]
        + (f"; ghosts scared for {max(scared)} more moves" if scared else ""),
    }


def own_actions(game: Any, state: Any, player: int) -> list[Any]:
    """``player``'s own actions at a simultaneous node."""
    custom = getattr(game, "player_actions", None)
    if custom is not None:
        return list(custom(state, player))
    return default_player_actions(game, state, player)
