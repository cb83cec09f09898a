"""Actions for people: how a move is written and read, for any game (duck-typed included).

Each function uses the game's own method when it has one (``format_action``,
``parse_action``, ...) and the documented default otherwise; :func:`match_action` is the
default of :meth:`~plies.game.model.Game.parse_action`.  :func:`~plies.game.model.play`,
the checked step, is built on them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from plies.errors import IllegalActionError


def format_action(game: Any, state: Any, action: Any) -> str:
    """``game.format_action`` if the game has it, else ``str(action)``."""
    fmt = getattr(game, "format_action", None)
    return str(action) if fmt is None else str(fmt(state, action))


def format_player_action(game: Any, state: Any, player: int, action: Any) -> str:
    """One player's own action at a SIMULTANEOUS node (``format_action`` shows joint ones).

    ``game.format_player_action(state, player, action)`` if the game has it, else
    ``str(action)``.
    """
    fmt = getattr(game, "format_player_action", None)
    return str(action) if fmt is None else str(fmt(state, player, action))


def legal_actions(game: Any, state: Any) -> Sequence[Any]:
    """The actions a person may choose at ``state`` (outcomes at CHANCE nodes)."""
    if game.is_terminal(state):
        return []
    return list(game.actions(state))


def parse_action(game: Any, state: Any, text: str) -> Any:
    """The legal action at ``state`` written as ``text``.

    ``game.parse_action(state, text)`` if the game has it (a duck-typed game may not),
    else :func:`match_action`.

    Raises:
        IllegalActionError: ``text`` names no legal action; the message lists them.
    """
    custom = getattr(game, "parse_action", None)
    if custom is not None:
        return custom(state, text)
    return match_action(game, state, text)


def match_action(game: Any, state: Any, text: str) -> Any:
    """The legal action whose formatted text is ``text`` (case and blanks ignored).

    The default of :meth:`Game.parse_action`.

    Raises:
        IllegalActionError: ``text`` names no legal action; the message lists them.
    """
    legal = legal_actions(game, state)
    wanted = text.strip().lower()
    for action in legal:
        if format_action(game, state, action).lower() == wanted:
            return action
    raise IllegalActionError(text, [format_action(game, state, a) for a in legal])
