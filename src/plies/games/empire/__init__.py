"""Empire, a package of its own: a small Civilization-like strategy game for 3 to 6 players.

- :mod:`plies.games.empire.maps`: the built-in maps (:data:`MAPS`) and their parser;
- :mod:`plies.games.empire.rules`: the rules (:class:`EmpireRules`, :class:`EmpireState`),
  described in full there;
- :mod:`plies.games.empire.evaluation`: the features and their hand-set weights
  (:class:`EmpireWeights`);
- :mod:`plies.games.empire.view`: the map as a board (the ``board`` hook);
- :mod:`plies.games.empire.game`: :class:`Empire`, the rules under multi-move turns with
  that evaluation, and the registry's factory :func:`empire`.

Each module imports only the ones listed before it.
"""

from plies.games.empire.evaluation import FEATURE_NAMES, EmpireWeights, features
from plies.games.empire.game import Empire, empire
from plies.games.empire.maps import DEFAULT_MAP, HILLS, MAPS, PLAIN, WATER, parse_map
from plies.games.empire.rules import (
    CITY_POINTS,
    GROW,
    LETTERS,
    MAX_HP,
    MAX_MOVES,
    MAX_SHIELDS,
    MAX_SIZE,
    MOVE,
    NAMES,
    REST,
    REST_ACTION,
    SCIENCE_GOAL,
    SCIENCE_POINTS,
    SETTLE,
    SETTLE_DISTANCE,
    START_SIZE,
    STUDY,
    TRAIN,
    TURNS,
    UNIT_COST,
    Action,
    EmpireRules,
    EmpireState,
)

__all__ = [
    "CITY_POINTS",
    "DEFAULT_MAP",
    "FEATURE_NAMES",
    "GROW",
    "HILLS",
    "LETTERS",
    "MAPS",
    "MAX_HP",
    "MAX_MOVES",
    "MAX_SHIELDS",
    "MAX_SIZE",
    "MOVE",
    "NAMES",
    "PLAIN",
    "REST",
    "REST_ACTION",
    "SCIENCE_GOAL",
    "SCIENCE_POINTS",
    "SETTLE",
    "SETTLE_DISTANCE",
    "START_SIZE",
    "STUDY",
    "TRAIN",
    "TURNS",
    "UNIT_COST",
    "WATER",
    "Action",
    "Empire",
    "EmpireRules",
    "EmpireState",
    "EmpireWeights",
    "empire",
    "features",
    "parse_map",
]
