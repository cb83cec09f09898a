"""The questions every GDL reasoner answers: the state machine of a game.

GGP calls the object that answers them a *state machine* (ggp-base's ``StateMachine``).
plies has more than one: the compiled propositional network of
:class:`~plies.gdl.reasoner.Reasoner` (fast, but it grounds every rule first), the
reference :class:`~plies.gdl.prover.Prover`, and whatever needs no full grounding.  Code
that plays or checks a game (``GdlGame``, the GGP player, ``plies check``) asks its
questions through this protocol only, so any of them can serve.

States are opaque and hashable; only the machine that made a state reads it.  To carry
a state from one machine to another, go through its fluents:
``other.state_from_fluents(machine.fluents(state))``.

Roles are numbered by the order of their ``(role ...)`` facts; moves and fluents are GDL
terms (``("mark", "1", "1")``, ``"noop"``); goal values are integers.

>>> from plies.gdl.parser import parse
>>> from plies.gdl.reasoner import Reasoner
>>> machine: StateMachine[int] = Reasoner(parse("(role a) (legal a go) (goal a 100) terminal"))
>>> machine.is_terminal(machine.initial_state()), machine.kind
(True, 'propnet')
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Protocol, TypeVar, runtime_checkable

from plies.gdl.terms import Description, Term

S = TypeVar("S", bound=Hashable)
"""A machine's state type (``int`` bit sets for the propnet, fluent sets for provers)."""


@runtime_checkable
class StateMachine(Protocol[S]):
    """A GDL reasoner: roles, initial state, legal moves, successors, goals, terminal.

    ``S`` is the machine's state type.  Every method is pure (a state is never changed
    in place).  ``kind`` names the
    implementation for logs (``"propnet"``, ``"prover"``, ...).
    """

    description: Description
    roles: tuple[str, ...]
    kind: str

    def initial_state(self) -> S:
        """The state of the ``init`` fluents."""
        ...

    def is_terminal(self, state: S) -> bool:
        """Whether ``terminal`` holds in ``state``."""
        ...

    def legal(self, state: S, role: int) -> tuple[Term, ...]:
        """The legal moves of role number ``role`` in ``state``, in a stable order."""
        ...

    def legal_all(self, state: S) -> tuple[tuple[Term, ...], ...]:
        """The legal moves of every role in ``state``, in role order."""
        ...

    def next_state(self, state: S, joint: Sequence[Term]) -> S:
        """The state after each role makes its move of ``joint`` (one per role, in role
        order); raises :class:`~plies.errors.IllegalActionError` for a joint move of the
        wrong length or a move the role can never make."""
        ...

    def goal_values(self, state: S, role: int) -> list[int]:
        """Every goal value of ``role`` that holds in ``state``, sorted (GDL wants one)."""
        ...

    def goal(self, state: S, role: int) -> int:
        """The goal value of ``role`` in ``state``; raises
        :class:`~plies.gdl.reasoner.GoalDefinitionError` unless there is exactly one."""
        ...

    def goals(self, state: S) -> tuple[int, ...]:
        """The goal value of every role in ``state`` (see :meth:`goal`)."""
        ...

    def fluents(self, state: S) -> frozenset[Term]:
        """The ground fluents that hold in ``state``."""
        ...

    def state_from_fluents(self, fluents: Iterable[Term]) -> S:
        """The state in which exactly ``fluents`` hold."""
        ...

    def format_state(self, state: S) -> str:
        """``state`` as KIF fluents in a stable order: ``{(cell 1 1 b) (control x)}``."""
        ...

