"""Wrappers: a game made from another by changing *who moves*, the rules left alone.

- :class:`GameWrapper`: the base, a game that is the wrapped one in every respect a
  subclass does not override;
- :class:`MultiMoveTurns` gives every player several moves per turn, exactly as the
  "Civilization" formulation does it (agent index, move count, round counter), over
  :class:`MultiMoveRules`, in :class:`MultiMoveState` states;
- :class:`OpponentsAsChance` turns chosen players into chance nodes (uniformly random or
  a given policy), as in expectimax Pacman;
- :class:`EvaluatedTerminals` scores terminal states with the evaluation function (a
  course convention);
- :class:`Sequentialized` makes every simultaneous node a turn per player (states in
  between: :class:`PartialJoint`), so the turn-based searches bound its value.
"""

from plies.wrappers.base import GameWrapper
from plies.wrappers.multimove import MultiMoveRules, MultiMoveState, MultiMoveTurns
from plies.wrappers.opponents import OpponentsAsChance, Policy
from plies.wrappers.sequentialized import PartialJoint, Sequentialized
from plies.wrappers.terminals import EvaluatedTerminals

__all__ = [
    "EvaluatedTerminals",
    "GameWrapper",
    "MultiMoveRules",
    "MultiMoveState",
    "MultiMoveTurns",
    "OpponentsAsChance",
    "PartialJoint",
    "Policy",
    "Sequentialized",
]
