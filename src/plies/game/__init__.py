"""The game model: the tuple the literature uses, for N players, chance and simultaneous moves.

A game is an object with ``num_players``, ``initial_state``, ``to_move``, ``actions``,
``result``, ``is_terminal`` and ``utility`` (AIMA's formulation, for any number of
players).  Everything else is optional and has a documented default, which a class gets
by subclassing :class:`Game`; a duck-typed object works too, because the searches read the
optional members through :func:`game_ops`.

- :mod:`plies.game.model`: the :class:`Game` protocol, :data:`CHANCE`,
  :data:`SIMULTANEOUS`, the tables of members (``REQUIRED``, ``FACTS``, ``METHODS``,
  ``HOOKS``), :func:`hook`, :func:`check_definition`, the documented defaults, and
  :func:`play`, the checked step for people;
- :mod:`plies.game.ops`: :class:`GameOps` and :func:`game_ops`, the optional members
  resolved once for a search, and :func:`default_random_playout`;
- :mod:`plies.game.actions`: how a person writes and reads a move
  (:func:`format_action`, :func:`parse_action`, :func:`legal_actions`, ...);
- :mod:`plies.game.text`: a game as people read it (players and movers by name, lines
  of moves, values without float noise);
- :mod:`plies.game.board`: :class:`Board`, what a game's ``board`` hook returns and
  every front end draws (and draws it as SVG and for Rich);
- :mod:`plies.game.knowledge`: :class:`PlayDefaults`, :class:`PositionText` and the
  :class:`Solver` interface, what the ``play_defaults``, ``read_position`` and
  ``solver`` hooks return;
- :mod:`plies.game.options` and :mod:`plies.game.declaration`: how a game declares its
  ``name``, ``description`` and typed ``options`` (read by every front end), and the
  :class:`~plies.game.declaration.Source` of games that are not rule sets.

The wrappers that change *who moves* (:class:`~plies.wrappers.MultiMoveTurns`,
:class:`~plies.wrappers.OpponentsAsChance`, :class:`~plies.wrappers.Sequentialized`) are
in :mod:`plies.wrappers`; their old names here still work, with a DeprecationWarning.
"""

from plies._compat import deprecated_alias
from plies.game.actions import (
    format_action,
    format_player_action,
    legal_actions,
    match_action,
    parse_action,
)
from plies.game.board import Board, FromTo, Mark
from plies.game.knowledge import CompiledEngine, PlayDefaults, PositionText, Solver
from plies.game.model import (
    CHANCE,
    FACTS,
    HOOKS,
    METHODS,
    REQUIRED,
    SIMULTANEOUS,
    Game,
    GameMeta,
    check_definition,
    default_evaluate,
    default_player_actions,
    hook,
    missing_members,
    play,
    uniform,
)
from plies.game.ops import GameOps, default_random_playout, game_ops, no_actions

__all__ = [
    "CHANCE",
    "FACTS",
    "HOOKS",
    "METHODS",
    "REQUIRED",
    "SIMULTANEOUS",
    "Board",
    "CompiledEngine",
    "FromTo",
    "Game",
    "GameMeta",
    "GameOps",
    "Mark",
    "PlayDefaults",
    "PositionText",
    "Solver",
    "check_definition",
    "default_evaluate",
    "default_player_actions",
    "default_random_playout",
    "format_action",
    "format_player_action",
    "game_ops",
    "hook",
    "legal_actions",
    "match_action",
    "missing_members",
    "no_actions",
    "parse_action",
    "play",
    "uniform",
]

for _name in (
    "GameWrapper", "MultiMoveRules", "MultiMoveState", "MultiMoveTurns", "OpponentsAsChance",
    "PartialJoint", "Policy", "Sequentialized",
):
    deprecated_alias(globals(), _name, f"plies.wrappers.{_name}")
del _name
