"""The engine layer: the one place that decides what runs for a game and a request, and
how a result is named for people.

Every front end goes through it: the ``plies`` command, the web app, the GGP player,
tournaments, batch analysis and tree pictures.

- :mod:`plies.engine.games`: games by spec (built-in name, tree file, ``.kif``,
  ``module:attribute``), positions from move text, players by name.
- :mod:`plies.engine.policy`: :class:`SearchRequest` (everything a request may ask, in
  one dataclass), :func:`plan` (solver, engine craft or plain search) and
  :meth:`Plan.run` (with a stop signal, iteration and solver-test callbacks, and a
  transposition table kept between searches).
- :mod:`plies.engine.playing`: :func:`play_defaults` (what chess and Othello need when
  people play them: a time a move, quiescence, mate scores) and :class:`EngineSearch`
  (searches with them, values read as "35 cp" or "mate in 2").
- :mod:`plies.engine.text`: numbers, moves, players and the JSON report of a result.
- :mod:`plies.engine.args`: the command-line arguments every ``plies`` command shares.

The algorithms and their capabilities are one table, :data:`ALGORITHMS`
(:mod:`plies.search.registry`).

>>> from plies.engine import SearchRequest, load_game, plan, position
>>> game = load_game("tictactoe")
>>> state, _ = position(game, "5 1")
>>> p = plan(game, state, SearchRequest())
>>> result = p.run(game, state)
>>> p.name, result.value
('alphabeta', 0.0)
"""

from plies.engine.games import (
    GameSpec,
    PositionText,
    find_player,
    is_gdl_path,
    load_game,
    player_name,
    players_text,
    position,
    read_position,
    split_moves,
)
from plies.engine.playing import EngineSearch, PlayDefaults, Score, play_defaults
from plies.engine.policy import (
    NULL_REDUCTION,
    QUIESCENCE,
    Deadline,
    Kind,
    Plan,
    SearchRequest,
    SolverTest,
    plan,
    selective_craft,
)
from plies.engine.text import (
    clean,
    jsonable,
    mover_name,
    number,
    outcome,
    own_action_text,
    pv_text,
    report,
)
from plies.search.registry import ALGORITHMS, Algorithm, algorithm, auto_algorithm

__all__ = [
    "ALGORITHMS",
    "NULL_REDUCTION",
    "QUIESCENCE",
    "Algorithm",
    "Deadline",
    "EngineSearch",
    "GameSpec",
    "Kind",
    "Plan",
    "PlayDefaults",
    "PositionText",
    "Score",
    "SearchRequest",
    "SolverTest",
    "algorithm",
    "auto_algorithm",
    "clean",
    "find_player",
    "is_gdl_path",
    "jsonable",
    "load_game",
    "mover_name",
    "number",
    "outcome",
    "own_action_text",
    "plan",
    "play_defaults",
    "player_name",
    "players_text",
    "position",
    "pv_text",
    "read_position",
    "report",
    "selective_craft",
    "split_moves",
]
