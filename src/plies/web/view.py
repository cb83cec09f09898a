"""What the page shows of a position: its picture, whose turn, the legal moves, the result.

``board`` is the game's board (its ``board`` hook, a :class:`plies.game.Board`) as JSON
(:meth:`~plies.game.Board.as_dict`), the same model for every game that has one, so the
page needs no code per game:

============ ===================================================================
key          meaning
============ ===================================================================
kind         the game's look (a CSS class): ``tictactoe``, ``connect4``, ...; ``""``
             for a board drawn from its marks alone
rows         rows, and ``columns``; cells are numbered row by row from the top left
cells        per cell what is on it: ``""`` (empty) or a mark (``"X"``, ``"K"``, ...)
marks        how each mark is drawn: ``{"shape": "text" | "disc" | "dot" | "block",
             "text": the glyph or letters, "color": a CSS colour, "plain": its text}``
background   the board's colour (``""``: the page's)
labels       per cell a short text (a city's size), ``""`` for none; may be empty
cell_moves   per cell the move a click there plays, or None (empty: none)
column_moves per column the move a click in it plays (Connect Four)
from_to      moves made by clicking two cells: ``{"from", "to", "move", "promotion"}``
             (chess; ``promotion`` is the piece a pawn becomes, else None)
extra_moves  moves that are on no cell (Othello's ``"pass"``), shown as buttons
last         the cells of the last move (to highlight)
alert        cells to flag (a king in check)
files        labels of the columns, left to right, and ``ranks`` of the rows, top down
checkered    light and dark squares
rotatable    the page may turn the board round for the second player (chess)
blank        an empty cell as plain text (the terminal's; the page draws nothing)
caption      a line under the board (Othello's disc count, a check in chess)
============ ===================================================================

Every key is present; a board that names no move leaves playing to the list of legal
moves.  ``position`` is the position in the game's own notation (its
``write_position`` hook: a chess FEN), or None.

A game with hidden information (information sets, :mod:`plies.imperfect`: Kuhn and
Leduc poker) is shown as one player sees it, the ``viewer`` (the person at the page):
``render`` is :func:`plies.imperfect.render_for` (the viewer's own card, not the
others'), no board or position text gives the rest away, and ``shown_moves`` writes
each chance move as ``dealt`` (``moves`` keeps the moves themselves: the page sends them
back to replay).  When the hand is over every card is turned face up.

>>> from plies.games import load
>>> kuhn = load("kuhn")
>>> start = kuhn.initial_state()
>>> dealt = kuhn.result(start, kuhn.parse_action(start, "JQ"))
>>> seen = view(kuhn, dealt, ["JQ"], viewer=1)
>>> seen["render"], seen["shown_moves"], seen["hidden"]
('your card Q; betting: (none)', ['dealt'], True)

>>> from plies.games import load
>>> ttt = load("tictactoe")
>>> shown = view(ttt, ttt.result(ttt.initial_state(), 4), ["5"])
>>> shown["to_move_name"], shown["board"]["cells"][3:6], shown["board"]["cell_moves"][3:6]
('O', ['', 'X', ''], ['4', None, '6'])
"""

from __future__ import annotations

from typing import Any

from plies.errors import IllegalActionError
from plies.game import (
    CHANCE,
    SIMULTANEOUS,
    default_player_actions,
    format_action,
    format_player_action,
    game_ops,
    hook,
    legal_actions,
)
from plies.game.text import result_text
from plies.imperfect import is_imperfect, render_for
from plies.policy import mover_name, play_defaults, player_name


def view(
    game: Any, state: Any, moves: list[str], before: Any = None, viewer: int | None = None
) -> dict[str, Any]:
    """What the page shows of a position: the picture, whose turn, the legal moves.

    ``board`` is a grid the page can draw and click (see the module docstring), else
    None; ``render`` is the game's own text picture, for every game.  ``before`` is the
    state before the last of ``moves`` (None: not known), so the board can mark the last
    move.  At a chance node ``chance`` lists the outcomes and their probabilities; at
    the end ``utilities`` and ``result`` say who won.  ``viewer``: the player whose
    view of a game with hidden information is shown (see the module docstring); None
    shows everything.
    """
    terminal = bool(game.is_terminal(state))
    hidden = viewer is not None and not terminal and is_imperfect(game)
    mover = None if terminal else int(game.to_move(state))
    render = getattr(game, "render", None)
    data: dict[str, Any] = {
        "game": getattr(game, "name", "game"),
        "players": [player_name(game, p) for p in range(game.num_players)],
        "moves": moves,
        "render": (render_for(game, state, viewer) if hidden and viewer is not None
                   else str(state) if render is None else str(render(state))),
        "terminal": terminal,
        "to_move": mover,
        "to_move_name": None if terminal else mover_label(game, state),
        "legal": [format_action(game, state, a) for a in legal_actions(game, state)],
        "board": None if hidden else board(game, state, before, moves[-1] if moves else None),
        "position": None if hidden else position_text(game, state),
        "hidden": hidden,
        "shown_moves": _dealt(game, moves) if hidden else list(moves),
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
        data["result"] = result_text(game, utilities)
    return data


def _dealt(game: Any, moves: list[str]) -> list[str]:
    """``moves`` with every chance move written ``dealt`` (it may hold a hidden card)."""
    state, shown = game.initial_state(), []
    for text in moves:
        shown.append("dealt" if game.to_move(state) == CHANCE else text)
        state = game.result(state, game.parse_action(state, text))
    return shown


def mover_label(game: Any, state: Any) -> str:
    """Who is to move: a player's name, ``"chance"`` or ``"simultaneous"``."""
    if game.to_move(state) == SIMULTANEOUS:
        return "simultaneous"
    return mover_name(game, state)


def board(
    game: Any, state: Any, before: Any = None, last: str | None = None
) -> dict[str, Any] | None:
    """The game's board of ``state`` as JSON (see the module docstring), or None for a
    game without a ``board`` hook.  ``last``, the text of the move that led from
    ``before`` to ``state``, is marked on the board when both are given."""
    draw = hook(game, "board")
    if draw is None:
        return None
    return dict(draw(state, _last_action(game, before, last)).as_dict())


def page_search(game: Any) -> dict[str, Any]:
    """The search the page starts ``game`` with (the catalogue's ``search``): for a game
    with play defaults (its ``play_defaults`` hook: chess, Othello) their time a move,
    since a depth that suits tic-tac-toe overruns the server's cap here, engine craft,
    and quiescence when its craft has it (chess: the engine's whole selective search);
    nothing for other games (the page's own defaults).

    >>> from plies.games import load
    >>> page_search(load("chess")), page_search(load("nim"))
    ({'time': 2.0, 'engine': True, 'quiescence': True}, {})
    """
    defaults = play_defaults(game)
    if defaults is None:
        return {}
    return {"time": defaults.time, "engine": True, "quiescence": "quiescence" in defaults.craft}


def position_text(game: Any, state: Any) -> str | None:
    """``state`` in the game's own notation (its ``write_position`` hook), or None."""
    write = hook(game, "write_position")
    return None if write is None else str(write(state))


def _last_action(game: Any, before: Any, last: str | None) -> Any:
    """The action ``last`` names at ``before``, or None when either is not known."""
    if before is None or last is None:
        return None
    try:
        return game.parse_action(before, last)
    except IllegalActionError:  # not a move at ``before`` after all: nothing to mark
        return None


def own_actions(game: Any, state: Any, player: int) -> list[Any]:
    """``player``'s own actions at a simultaneous node."""
    custom = getattr(game, "player_actions", None)
    if custom is not None:
        return list(custom(state, player))
    return default_player_actions(game, state, player)
