"""General Game Playing: the Game Description Language (GDL) in plies.

A KIF parser, a validator of GDL's restrictions, two reasoners (the grounded propnet
:class:`Reasoner` and the top-down prover :class:`TopDown`, picked by
:func:`build_machine`), and :class:`GdlGame`, which makes any GDL description a plies
:class:`~plies.game.Game`.

>>> from plies.gdl import load_game
>>> game = load_game("(role p) (legal p wait) (next done) (<= terminal (true done)) (goal p 100)")
>>> s = game.result(game.initial_state(), "wait")
>>> game.is_terminal(s), game.utility(s, 0)
(True, 100.0)
"""

from plies.gdl.game import GdlGame, load_game
from plies.gdl.ground import DEFAULT_BUDGET, GroundingError
from plies.gdl.machine import MachineChoice, StateMachine, build_machine
from plies.gdl.parser import load, parse, parse_term, parse_terms
from plies.gdl.prover import Prover
from plies.gdl.reasoner import (
    GdlRulesError,
    GoalDefinitionError,
    MoveDefinitionError,
    Reasoner,
    State,
)
from plies.gdl.terms import Description, Rule, Term, to_kif
from plies.gdl.topdown import TopDown

__all__ = [
    "DEFAULT_BUDGET",
    "Description",
    "GdlGame",
    "GdlRulesError",
    "GoalDefinitionError",
    "GroundingError",
    "MachineChoice",
    "MoveDefinitionError",
    "Prover",
    "Reasoner",
    "Rule",
    "State",
    "StateMachine",
    "Term",
    "TopDown",
    "build_machine",
    "load",
    "load_game",
    "parse",
    "parse_term",
    "parse_terms",
    "to_kif",
]
