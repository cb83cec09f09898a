"""Any GDL game description as a plies :class:`~plies.game.Game`.

GDL has every role move at every step (turn-taking is written with ``noop``); plies
has a player to move.  :class:`GdlGame` maps one onto the other state by state:

- exactly one role has more than one legal move: that role is ``to_move``, its legal
  moves are the ``actions``, and ``result`` fills in every other role's only move;
- several roles have a choice: :data:`~plies.game.SIMULTANEOUS`; ``actions`` are the
  joint moves (tuples in role order), ``player_actions(state, p)`` one role's moves,
  and ``result`` takes a joint move;
- every role has exactly one move (a forced step, such as a clock tick): role 0 moves,
  with its one action.

Utilities are the GDL goal values, 0 to 100.  Actions are GDL terms; people read and type
them in KIF, with or without the outer parentheses (``(mark 1 1)`` or ``mark 1 1``).

>>> game = load_game('''
...     (role you) (init (at 0)) (succ 0 1) (succ 1 2)
...     (<= (legal you (step ?y)) (true (at ?x)) (succ ?x ?y))
...     (legal you stay)
...     (<= (next (at ?y)) (does you (step ?y)))
...     (<= (next (at ?x)) (does you stay) (true (at ?x)))
...     (<= terminal (true (at 2)))
...     (<= (goal you 100) (true (at 2))) (<= (goal you 0) (not (true (at 2))))''')
>>> s = game.initial_state()
>>> [game.format_action(s, a) for a in game.actions(s)]
['stay', '(step 1)']
>>> s = game.result(s, game.parse_action(s, "step 1"))
>>> print(game.render(s))
(at 1)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from itertools import product
from pathlib import Path
from typing import Any, Final, TypeAlias

from plies.budget import Budget
from plies.errors import GameFormatError, IllegalActionError
from plies.game import SIMULTANEOUS, Game
from plies.game.knowledge import Solver
from plies.gdl.ground import DEFAULT_BUDGET, natural_key
from plies.gdl.machine import MachineChoice, StateMachine, build_machine
from plies.gdl.parser import load as load_description
from plies.gdl.parser import parse, parse_terms
from plies.gdl.reasoner import MoveDefinitionError, Reasoner
from plies.gdl.terms import Description, Term, to_kif

State: TypeAlias = Any
"""A GdlGame state: whatever its state machine uses (``int`` for the propnet,
``frozenset`` of fluents for the top-down prover)."""

_CACHE_LIMIT: Final = 1 << 16  # states whose legal moves are remembered
_MIX: Final = 0x9E3779B97F4A7C15  # 2**64 / golden ratio: Fibonacci hashing's multiplier
_MASK64: Final = (1 << 64) - 1

# What GdlGame remembers of a state: every role's legal moves, the mover, and the joint
# move of every role's first legal move (the forced moves that result() fills in).
_Node = tuple[tuple[tuple[Term, ...], ...], int, tuple[Any, ...]]


class GdlGame(Game[State, Any]):
    """A GDL game (see the module docstring for how turns and moves are mapped).

    States are the state machine's (``int`` bit sets for the propnet).  Build one from
    a parsed :class:`~plies.gdl.terms.Description`, which picks the machine with
    :func:`~plies.gdl.machine.build_machine` (the propnet if grounding fits ``budget``
    and ``ground_limit``, else the top-down prover; :attr:`choice` says which and why),
    or from any :class:`~plies.gdl.machine.StateMachine`, such as a
    :class:`~plies.gdl.reasoner.Reasoner`; :func:`load_game` also parses and validates.
    """

    utility_range = (0.0, 100.0)

    def __init__(
        self, rules: Description | StateMachine[Any], *, name: str | None = None,
        budget: Budget = DEFAULT_BUDGET, ground_limit: int | None = None,
    ) -> None:
        #: How the machine was chosen (None when a machine was given).
        self.choice: MachineChoice | None = None
        if isinstance(rules, Description):
            self.choice = build_machine(rules, budget=budget, ground_limit=ground_limit)
            self.reasoner: StateMachine[Any] = self.choice.machine
        else:
            self.reasoner = rules
        self.description = self.reasoner.description
        self.roles = self.reasoner.roles
        self.num_players = len(self.roles)
        self.name = name if name is not None else _name_from_source(self.description.source)
        self._cache: dict[State, _Node] = {}

    # --- who moves -----------------------------------------------------------------------

    def _node(self, state: State) -> _Node:
        found = self._cache.get(state)
        if found is None:
            legal = self.reasoner.legal_all(state)
            choosers = [r for r, moves in enumerate(legal) if len(moves) > 1]
            if not all(legal) and not self.reasoner.is_terminal(state):
                r = next(r for r, moves in enumerate(legal) if not moves)
                raise MoveDefinitionError(
                    f"role {self.roles[r]} has no legal move in the non-terminal state "
                    f"{self.reasoner.format_state(state)}"
                )
            mover = SIMULTANEOUS if len(choosers) > 1 else choosers[0] if choosers else 0
            forced = tuple(moves[0] if moves else None for moves in legal)
            found = (legal, mover, forced)
            if len(self._cache) >= _CACHE_LIMIT:
                self._cache.clear()
            self._cache[state] = found
        return found

    def legal_moves(self, state: State) -> tuple[tuple[Term, ...], ...]:
        """Every role's legal moves in ``state`` (remembered for recent states).

        Raises:
            MoveDefinitionError: a role has no legal move in a non-terminal state.
        """
        return self._node(state)[0]

    def initial_state(self) -> State:
        return self.reasoner.initial_state()

    def to_move(self, state: State) -> int:
        """The only role with a choice, SIMULTANEOUS if several have one, else role 0."""
        return self._node(state)[1]

    def actions(self, state: State) -> Sequence[Any]:
        """The mover's legal moves, or every joint move (tuples) at SIMULTANEOUS nodes."""
        legal, mover, _ = self._node(state)
        if mover == SIMULTANEOUS:
            return list(product(*legal))
        return legal[mover]

    def player_actions(self, state: State, player: int) -> Sequence[Any]:
        """One role's legal moves (its part of a joint move at SIMULTANEOUS nodes)."""
        return self._node(state)[0][player]

    def solver(self, backend: str = "auto") -> Solver:
        """Memoised minimax (:mod:`plies.gdl.solver`), a new one per call: the game's
        exact solver for turn-taking play (it refuses a SIMULTANEOUS node)."""
        from plies.gdl.solver import memo_solver

        return memo_solver(self, backend)

    def result(self, state: State, action: Any) -> State:
        """The state after ``action``: the mover's move (others play their only move),
        or at SIMULTANEOUS nodes a joint move, one move per role in role order."""
        _, mover, forced = self._node(state)
        if mover == SIMULTANEOUS:
            return self.reasoner.next_state(state, action)
        joint = list(forced)
        joint[mover] = action
        return self.reasoner.next_state(state, joint)

    def next_state(self, state: State, joint: Sequence[Term]) -> State:
        """The state after a full joint move (one move per role, in role order)."""
        return self.reasoner.next_state(state, joint)

    def is_terminal(self, state: State) -> bool:
        return self.reasoner.is_terminal(state)

    def utility(self, state: State, player: int) -> float:
        """The role's goal value, 0 to 100.

        Raises:
            GoalDefinitionError: the role has no goal value or several in ``state``.
        """
        return float(self.reasoner.goal(state, player))

    def random_playout(self, state: State, rng: random.Random, limit: int) -> State:
        """The state after up to ``limit`` uniformly random moves (Monte Carlo playouts).

        For the propnet, its fast path (moves as indices, ``legal_indices`` and
        ``next_state_indices``); for any machine, bypassing the legal-move cache that
        playout states would only churn: the same moves as
        :func:`plies.game.default_random_playout` with the same generator (one
        ``rng.random()`` per step for the mover, role 0 at a forced step; the other roles
        play their first legal move, as :meth:`result` does; at a
        SIMULTANEOUS step one ``rng.random()`` per role, in role order).

        Raises:
            MoveDefinitionError: a role has no legal move in a non-terminal state.
        """
        machine = self.reasoner
        if isinstance(machine, Reasoner):
            return self._playout(
                state, rng, limit, machine.legal_indices, machine.next_state_indices
            )
        return self._playout(state, rng, limit, machine.legal_all, machine.next_state)

    def _playout(
        self, state: State, rng: random.Random, limit: int,
        legal_of: Callable[[State], Sequence[Sequence[Any]]],
        step: Callable[[State, list[Any]], State],
    ) -> State:
        """:meth:`random_playout` with the machine's legal moves and successor functions
        (move indices on the propnet's fast path, terms on any other machine)."""
        terminal, draw = self.reasoner.is_terminal, rng.random
        for _ in range(limit):
            if terminal(state):
                return state
            legal = legal_of(state)
            mover = -1
            joint = []
            for role, moves in enumerate(legal):
                if len(moves) > 1:
                    mover = role if mover == -1 else SIMULTANEOUS
                elif not moves:
                    self._node(state)  # raises MoveDefinitionError, naming the role
                joint.append(moves[0])
            if mover == SIMULTANEOUS:  # every role draws, as the generic joint move does
                joint = [moves[int(draw() * len(moves))] for moves in legal]
            else:
                mover = max(mover, 0)
                moves = legal[mover]
                joint[mover] = moves[int(draw() * len(moves))]
            state = step(state, joint)
        return state

    # --- for people ----------------------------------------------------------------------

    def key(self, state: State) -> Hashable:
        """The state's bit set shifted up, with a mixed 64-bit hash of it below.

        Equal keys mean equal states (the bit set is ``key >> 64``), but the key, unlike
        the bit set, spreads over a transposition table's slots: a bit set has one bit
        per true fluent, and its remainder modulo the table's prime (``2**20 - 3`` by
        default) folds the high bits onto the low ones, so that misère Nim's 149,042
        states fell into 67,276 slots of the default table (138,891 with this key, as
        many as random slots would give) and alpha-beta searched the evicted ones again
        and again (issue 14).  A state of another machine (the top-down prover's
        frozenset of fluents) is its own key: its hash already mixes every fluent.
        """
        if type(state) is not int:
            key: Hashable = state
            return key
        mixed = (hash(state) * _MIX) & _MASK64
        return (state << 64) | (mixed ^ (mixed >> 29))  # the xor brings high bits down

    def format_action(self, state: State, action: Any) -> str:
        """KIF: ``(mark 1 1)``, ``noop``; a joint move is its moves separated by spaces."""
        if self.to_move(state) == SIMULTANEOUS:
            return " ".join(to_kif(m) for m in action)
        return to_kif(action)

    def format_player_action(self, state: State, player: int, action: Any) -> str:
        """One role's own move in KIF, e.g. at a SIMULTANEOUS node."""
        return to_kif(action)

    def parse_action(self, state: State, text: str) -> Any:
        """The legal action written as ``text`` (KIF, outer parentheses optional).

        At SIMULTANEOUS nodes ``text`` is one move per role, in role order.  Symbols are
        matched exactly, or else ignoring case if that leaves exactly one legal action.

        Raises:
            IllegalActionError: ``text`` names no legal action; the message lists them.
        """
        legal = list(self.actions(state))
        shown = [self.format_action(state, a) for a in legal]
        try:
            terms = parse_terms(text)
        except GameFormatError:
            raise IllegalActionError(text, shown) from None
        joint = self.to_move(state) == SIMULTANEOUS
        wanted: Any = tuple(terms) if joint or len(terms) != 1 else terms[0]
        if wanted in legal:
            return wanted
        folded = (" ".join(to_kif(t) for t in terms) if joint else to_kif(wanted)).lower()
        matches = [a for a, s in zip(legal, shown, strict=True) if s.lower() == folded]
        if len(matches) == 1:
            return matches[0]
        raise IllegalActionError(text, shown)

    def render(self, state: State) -> str:
        """The fluents of ``state`` in KIF, one per line, in a stable order."""
        shown = sorted(self.reasoner.fluents(state), key=natural_key)
        return "\n".join(to_kif(f) for f in shown) if shown else "(no fluents)"

    def player_name(self, player: int) -> str:
        return self.roles[player]


def _name_from_source(source: str) -> str:
    if source.startswith("<"):
        return "gdl"
    return Path(source).stem or "gdl"


def load_game(
    path_or_text: str | Path, *, name: str | None = None, budget: Budget = DEFAULT_BUDGET,
    ground_limit: int | None = None,
) -> GdlGame:
    """Parse, validate and build a GDL game from a ``.kif`` file or from KIF text.

    A :class:`~pathlib.Path`, or a string without ``(``, is read as a file; any other
    string is the description itself.  The game's name is the file's stem (``ticTacToe``)
    unless ``name`` is given.  ``budget`` bounds grounding the rules for the propnet
    reasoner; a game whose grounding does not fit it, or ``ground_limit`` atoms, is
    played by the top-down prover (see :func:`~plies.gdl.machine.build_machine`).

    Raises:
        GameFormatError: the file cannot be read or the text is not KIF.
        GdlValidationError: the description breaks a GDL restriction.
        plies.gdl.ground.GroundingError: the rules are refused by both reasoners (an
            unsafe rule, ...).
        plies.budget.Stopped: the budget's stop signal was set.
    """
    from plies.gdl.validator import check

    if isinstance(path_or_text, Path) or "(" not in path_or_text:
        desc = load_description(path_or_text)
    else:
        desc = parse(path_or_text)
    check(desc)
    return GdlGame(desc, name=name, budget=budget, ground_limit=ground_limit)
