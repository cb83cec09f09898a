"""The policy layer: the one place that decides what runs for a game and a request, and
how a result is named for people.

Every front end goes through it: the ``plies`` command, the web app, the GGP player,
tournaments, batch analysis and tree pictures.

- :mod:`plies.policy.games`: positions from move text, players by name (games
  themselves come from :func:`plies.games.load`, the one loader).
- :mod:`plies.policy.plan`: :class:`SearchRequest` (everything a request may ask, in
  one dataclass), :func:`plan` (solver, engine craft or plain search) and
  :meth:`Plan.run` (with a stop signal, iteration and solver-test callbacks, and a
  transposition table kept between searches).
- :mod:`plies.policy.session`: :func:`play_defaults` (what chess and Othello need when
  people play them: a time a move, quiescence, mate scores) and :class:`SearchSession`
  (searches with them, values read as "35 cp" or "mate in 2").
- :mod:`plies.policy.text`: numbers, moves, players and the JSON report of a result.

The algorithms and their capabilities are one table, :data:`ALGORITHMS`
(:mod:`plies.search.registry`); a request names one of :func:`algorithm_choices`.  The
command-line arguments every ``plies`` command shares are :mod:`plies.cli.args`.
(``plies.engine`` is the old name of this package; "engine" now means engine craft, the
table, ordering and PVS of :mod:`plies.search.craft`.)

>>> from plies.games import load
>>> from plies.policy import SearchRequest, plan, position
>>> game = load("tictactoe")
>>> state, _ = position(game, "5 1")
>>> p = plan(game, state, SearchRequest())
>>> result = p.run(game, state)
>>> p.name, result.value
('alphabeta', 0.0)
"""

from plies._compat import deprecated_alias
from plies.policy.games import (
    PositionText,
    find_player,
    player_name,
    players_text,
    position,
    read_position,
    split_moves,
)
from plies.policy.plan import (
    NULL_REDUCTION,
    QUIESCENCE,
    Deadline,
    Kind,
    Plan,
    SearchRequest,
    SolverTest,
    algorithm_choices,
    plan,
    selective_craft,
)
from plies.policy.session import PlayDefaults, Score, SearchSession, play_defaults
from plies.policy.text import (
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
    "Kind",
    "Plan",
    "PlayDefaults",
    "PositionText",
    "Score",
    "SearchRequest",
    "SearchSession",
    "SolverTest",
    "algorithm",
    "algorithm_choices",
    "auto_algorithm",
    "clean",
    "find_player",
    "jsonable",
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

# Old names, for one release: SearchSession's, and the loader's (now plies.games').
deprecated_alias(globals(), "EngineSearch", "plies.policy.session.SearchSession")
deprecated_alias(globals(), "load_game", "plies.games.load")
deprecated_alias(globals(), "GameSpec", "plies.games.GameSpec")
deprecated_alias(globals(), "is_gdl_path", "plies.gdl.source.is_gdl_path")
