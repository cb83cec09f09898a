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

:func:`build_machine` picks one for a game: the propnet where grounding fits the budget's
steps, else the top-down prover, which needs no grounding (a Peano counter grounds
forever).  The choice counts work, not time, so a game gets the same machine however
busy the computer is; :func:`build_steps` turns seconds of a clock into such a budget:

>>> choice = build_machine(parse('''(role p) (init (c 0)) (legal p go)
...     (<= (next (c (s ?x))) (does p go) (true (c ?x)))
...     (<= terminal (true (c (s (s 0))))) (goal p 100)'''))
>>> choice.kind, choice.reason[:49]
('topdown', 'topdown: no propnet (grounding does not terminate')
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Protocol, TypeVar, runtime_checkable

from plies.budget import Budget
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



STEPS_PER_SECOND: Final = 1_000_000
"""The steps of a reasoner's build that :func:`build_steps` counts as one second.  A
propnet build does about 1.5 to 1.9 million steps a second of processor time on a quiet
machine and 0.4 to 0.9 million on a loaded one (tic-tac-toe fewer: its build is mostly
fixed costs): ``benchmarks/results/gdl_build_steps.md``.  The same steps take longer on
a busy machine; the reasoner they choose is the same."""


def build_steps(seconds: float) -> int:
    """The budget of steps worth ``seconds`` of building a reasoner on an idle core.

    The GGP player gives a match's builds ``Budget(steps=build_steps(s), stop=...)``
    rather than ``Budget(seconds=s)``: which machine :func:`build_machine` picks (the
    propnet, or the top-down prover when grounding does not fit) then depends on the
    game and the clocks only, never on how busy the computer is.  At most the steps of
    :data:`~plies.gdl.ground.DEFAULT_BUDGET`.

    >>> build_steps(2.5)
    2500000

    Raises:
        ValueError: ``seconds`` is not a finite number > 0.
    """
    from plies.gdl.ground import DEFAULT_BUDGET

    if not (seconds > 0 and math.isfinite(seconds)):
        raise ValueError(f"seconds of building must be finite and > 0, got {seconds!r}")
    cap = DEFAULT_BUDGET.steps
    assert cap is not None
    return max(1, min(cap, int(seconds * STEPS_PER_SECOND)))


@dataclass(frozen=True)
class MachineChoice:
    """The state machine :func:`build_machine` built, and why that one.

    ``kind`` is the machine's (``"propnet"`` or ``"topdown"``); ``reason`` a short line
    for a log (``"propnet: grounded in 0.4 s"``, ``"topdown: grounding stopped: more
    than 2,000,000 atoms ..."``); ``seconds`` the wall-clock time of the whole choice.
    """

    machine: StateMachine[Any]
    kind: str
    reason: str
    seconds: float


def build_machine(
    desc: Description,
    *,
    budget: Budget | None = None,
    ground_limit: int | None = None,
    prefer: str = "auto",
) -> MachineChoice:
    """The fastest state machine for ``desc`` that can be built within ``budget``.

    The grounded propositional network (:class:`~plies.gdl.reasoner.Reasoner`) is tried
    first, within the steps of ``budget`` (those of
    :data:`~plies.gdl.ground.DEFAULT_BUDGET` when None or when it has none; see
    :func:`build_steps`) and with at most ``ground_limit`` atoms and rule instances
    (:data:`~plies.gdl.ground.MAX_ATOMS` when None).  If grounding cannot finish (too
    large, infinite, out of steps, or refused for a reason the grounder has and the
    game does not need, such as a goal value that is never reached), the top-down
    prover (:class:`~plies.gdl.topdown.TopDown`) is built instead, within the same
    budget counted afresh; it needs no grounding and is ready in well under a second.
    ``budget`` then bounds each of its queries too (without its stop signal, which ends
    the building only).  The choice depends on steps only: when the budget's seconds
    run out, or its stop signal is set, nothing is chosen and the budget's error is
    raised.  ``prefer`` ``"propnet"`` or ``"topdown"`` builds only that one (the
    grounding error, or the budget, is then raised).

    Raises:
        plies.budget.Stopped: the budget's stop signal was set.
        plies.gdl.ground.GroundingError: neither machine accepts the rules (an unsafe
            rule, ``true`` defined by a rule, ...); the message is the grounder's.
        plies.budget.BudgetExceeded: the budget's seconds ran out; or
            ``prefer="propnet"`` and its steps ran out; or the top-down prover's build
            ran out of them too.
        ValueError: ``prefer`` is not ``"auto"``, ``"propnet"`` or ``"topdown"``.
    """
    from plies.budget import BudgetExceeded, Stopped
    from plies.gdl.ground import DEFAULT_BUDGET, MAX_ATOMS, GroundingError
    from plies.gdl.reasoner import Reasoner
    from plies.gdl.topdown import TopDown

    if prefer not in ("auto", "propnet", "topdown"):
        raise ValueError(f"prefer must be 'auto', 'propnet' or 'topdown', not {prefer!r}")
    started = time.perf_counter()
    queries = None if budget is None else Budget(seconds=budget.seconds, steps=budget.steps)
    if budget is None:
        budget = DEFAULT_BUDGET
    elif budget.steps is None:
        budget = replace(budget, steps=DEFAULT_BUDGET.steps)
    if prefer == "topdown":
        machine: StateMachine[Any] = TopDown(desc, budget=queries, build=budget)
        return MachineChoice(machine, "topdown", "topdown: asked for",
                             time.perf_counter() - started)
    begun = time.monotonic()  # the clock of the budget's meter
    try:
        machine = Reasoner(
            desc,
            budget=budget,
            max_atoms=MAX_ATOMS if ground_limit is None else ground_limit,
        )
    except Stopped:
        raise
    except (GroundingError, BudgetExceeded, RecursionError) as err:
        # RecursionError: seen building snakeAssemblit's propnet.
        if prefer == "propnet":
            raise
        if (isinstance(err, BudgetExceeded) and budget.seconds is not None
                and time.monotonic() - begun >= budget.seconds):
            raise  # out of time, not of steps: a choice made now would depend on the load
        why = str(err) if not isinstance(err, RecursionError) else "building it recursed too deeply"
        try:
            machine = TopDown(desc, budget=queries, build=budget)
        except GroundingError:
            raise err from None
        elapsed = time.perf_counter() - started
        short = why if len(why) <= 120 else why[:117] + "..."
        return MachineChoice(machine, "topdown", f"topdown: no propnet ({short})", elapsed)
    elapsed = time.perf_counter() - started
    return MachineChoice(machine, "propnet", f"propnet: grounded in {elapsed:.1f} s", elapsed)
