"""plies: adversarial search for Python (minimax and its whole family).

>>> import plies
>>> game = plies.games.load("tictactoe")
>>> plies.alphabeta(game, game.initial_state()).value
0.0
"""

import plies._startup  # noqa: F401  (first: Ctrl-C while the plies command starts is quiet)
from plies import games
from plies.budget import Budget, BudgetExceeded, Stopped
from plies.check import Check, CheckReport, check_game
from plies.errors import (
    GameDefinitionError,
    GameFormatError,
    IllegalActionError,
    OptionError,
    PliesError,
    SearchLimitError,
    UnknownGameError,
    UnsupportedGameError,
)
from plies.game import CHANCE, SIMULTANEOUS, Game, play
from plies.imperfect import ImperfectInformation, Observable
from plies.search import (
    ALGORITHMS,
    Limit,
    MctsTree,
    Narrator,
    Quiescent,
    SearchResult,
    SearchStats,
    StopSignal,
    TraceEvent,
    alphabeta,
    analyze,
    bounded_minimax,
    brs,
    brs_plus,
    determinize,
    expectiminimax,
    iterations,
    maxn,
    mcts,
    minimax,
    simultaneous,
    solve_matrix_game,
)
from plies.search.craft import TranspositionTable
from plies.version import __version__ as __version__
from plies.wrappers import (
    EvaluatedTerminals,
    GameWrapper,
    MultiMoveRules,
    MultiMoveState,
    MultiMoveTurns,
    OpponentsAsChance,
    PartialJoint,
    Sequentialized,
)

__all__ = [
    "ALGORITHMS",
    "CHANCE",
    "SIMULTANEOUS",
    "Budget",
    "BudgetExceeded",
    "Check",
    "CheckReport",
    "EvaluatedTerminals",
    "Game",
    "GameDefinitionError",
    "GameFormatError",
    "GameWrapper",
    "IllegalActionError",
    "ImperfectInformation",
    "Limit",
    "MctsTree",
    "MultiMoveRules",
    "MultiMoveState",
    "MultiMoveTurns",
    "Narrator",
    "Observable",
    "OpponentsAsChance",
    "OptionError",
    "PartialJoint",
    "PliesError",
    "Quiescent",
    "SearchLimitError",
    "SearchResult",
    "SearchStats",
    "Sequentialized",
    "StopSignal",
    "Stopped",
    "TraceEvent",
    "TranspositionTable",
    "UnknownGameError",
    "UnsupportedGameError",
    "alphabeta",
    "analyze",
    "bounded_minimax",
    "brs",
    "brs_plus",
    "check_game",
    "determinize",
    "expectiminimax",
    "games",
    "iterations",
    "maxn",
    "mcts",
    "minimax",
    "play",
    "simultaneous",
    "solve_matrix_game",
]
