"""A GDL reasoner that needs no grounding: top-down resolution compiled to Python.

:class:`TopDown` answers the questions of :class:`~plies.gdl.machine.StateMachine` by
proving goals backwards from the query, as a Prolog system or ggp-base's prover does,
so it never enumerates the ground instances of the rules.  That is what lets it play
the games whose grounding is too large for :class:`~plies.gdl.reasoner.Reasoner`
(chess, amazons) or infinite (a Peano counter ``(<= (next (c (s ?x))) (does p go) (true
(c ?x)))``): it only ever looks at the atoms a query needs.

How it works (see :mod:`plies.gdl.tdcompile` for the compiler):

* Every rule is *specialised* to each way it is called: a call pattern says which
  arguments are known (ground) at the call, which are to be found, and which constants it
  fixes.  Each pattern becomes a Python function whose rule bodies are nested loops over
  the answers of the patterns they call (SLD resolution, left to right, with negation as
  failure on ground literals, ``distinct``, and ``or`` expanded into alternatives).
* Every call is **memoised** on its known arguments (tabling of sub-queries): for one
  state, and for one joint move for what depends on ``does``; static relations (those
  that depend on neither) are memoised for good.  Facts are hash-indexed per pattern, and
  so are the state's fluents for each way ``true`` is called.
* **Recursive** relations (transitive closure over a board, lines of sight) are tabled
  with a fixpoint over the calls that depend on each other (SCC completion), so left- and
  cyclic recursion terminate; negation of a call that is still being computed means the
  rules are not stratified even once ground, and raises :class:`GdlRulesError`.

States are ``frozenset`` s of ground fluents (hashable, and the fluents themselves).

>>> from plies.gdl.parser import parse
>>> td = TopDown(parse('''
...     (role p) (init (c 0))
...     (legal p go)
...     (<= (next (c (s ?x))) (does p go) (true (c ?x)))
...     (<= terminal (true (c (s (s 0)))))
...     (<= (goal p 100) (true (c (s (s 0))))) (<= (goal p 0) (not terminal))'''))
>>> s = td.next_state(td.next_state(td.initial_state(), ["go"]), ["go"])
>>> td.format_state(s), td.is_terminal(s), td.goal(s, 0)
('{(c (s (s 0)))}', True, 100)
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from typing import Any, Final

from plies.budget import Budget, Meter
from plies.errors import IllegalActionError
from plies.gdl.ground import natural_key
from plies.gdl.reasoner import GdlRulesError, is_goal_value, single_goal
from plies.gdl.tabling import no_step
from plies.gdl.tdcompile import Program, compile_program
from plies.gdl.terms import Description, Term, to_kif

TopDownState = frozenset[Term]
"""A state of :class:`TopDown`: the ground fluents that hold."""

_RECURSION: Final = 20_000
"""Python's recursion limit while a query runs: a recursive relation is a chain of calls
as long as its longest derivation (a line across a 19x19 board is 19; reachability over
a board of 400 cells may be 400 deep, three Python frames each)."""


class TopDown:
    """The rules of a GDL game answered by compiled top-down resolution (see the module).

    Roles are numbered by the order of their ``(role ...)`` facts; moves and fluents are
    GDL terms; ``legal`` lists moves in :func:`~plies.gdl.ground.natural_key` order.
    Building one is fast (it compiles the rules, nothing is grounded); the first queries
    of each kind fill the caches.

    ``budget`` bounds *each query*: its seconds, its steps (a step is a sub-query
    computed or an answer found) and its stop signal; a query that runs out raises
    :class:`~plies.budget.BudgetExceeded` and leaves the machine usable.  None: no bound.
    ``build`` bounds building the machine (compiling the rules, a step per call pattern
    and per line of code, then the ``init`` query); it is ``budget`` when None.  A
    build that runs out raises :class:`~plies.budget.BudgetExceeded`, or
    :class:`~plies.budget.Stopped` within milliseconds of its stop signal.

    Raises:
        plies.gdl.ground.GroundingError: an unsafe rule, ``true``/``does`` defined by a
            rule, or a ``role``/``init`` that depends on the state.
        plies.budget.BudgetExceeded: the build ran out of its budget, or was stopped.
    """

    kind = "topdown"
    """What :class:`~plies.gdl.machine.StateMachine` logs call this implementation."""

    def __init__(
        self, desc: Description, *, budget: Budget | None = None, build: Budget | None = None
    ) -> None:
        self.description = desc
        self.budget = budget
        self.roles: tuple[str, ...] = desc.roles
        building = budget if build is None else build
        meter = None if building is None else building.meter("compiling the top-down prover")
        self.program: Program = compile_program(desc, meter)
        p = self.program
        self._legal = p.query(("legal", "?b0", "?f0"))
        self._goal = p.query(("goal", "?b0", "?f0"))
        self._next = p.query(("next", "?f0"))
        self._terminal = p.query("terminal")
        self._state: TopDownState | None = None
        self._joint: tuple[Term, ...] | None = None
        init = self._run(p.query(("init", "?f0")), (), meter)
        self._init: TopDownState = frozenset(init)
        self.steps = 0 if meter is None else meter.count
        """The steps the build took (see ``build``)."""

    def __reduce__(self) -> tuple[type[TopDown], tuple[Description]]:
        # The compiled functions cannot be pickled; the rules can, and are compiled again.
        return (TopDown, (self.description,))

    # --- running queries -----------------------------------------------------------------

    def _load(self, state: TopDownState) -> None:
        """Make ``state`` the one the compiled code reads, clearing what depended on the last."""
        if state is self._state:
            return
        if self._state is not None and state == self._state:
            self._state = state
            return
        self.program.set_state(state)
        self._state = state
        self._joint = None

    def _run(self, query: Any, args: tuple[Any, ...], meter: Meter | None = None) -> Any:
        if meter is not None:
            meter.what = "the top-down prover's first query"
            self.program.set_step(meter.tick)
        elif self.budget is not None:
            self.program.set_step(self.budget.meter("a top-down query").tick)
        elif self.program.ns["TICK"] is not no_step:
            self.program.set_step(no_step)
        old = sys.getrecursionlimit()
        if old < _RECURSION:
            sys.setrecursionlimit(_RECURSION)
        try:
            return query(*args)
        except RecursionError:
            self._reset()
            raise GdlRulesError(
                f"the rules recurse without end (or deeper than {_RECURSION:,} calls) in "
                "a query: a relation calls itself with ever new arguments"
            ) from None
        except BaseException:
            self._reset()  # the tables may hold half-computed answers
            raise
        finally:
            if old < _RECURSION:
                sys.setrecursionlimit(old)

    def _reset(self) -> None:
        self.program.reset()
        self._state = None
        self._joint = None

    # --- the GDL questions ---------------------------------------------------------------

    def initial_state(self) -> TopDownState:
        """The state of the ``init`` fluents."""
        return self._init

    def is_terminal(self, state: TopDownState) -> bool:
        """Whether ``terminal`` holds in ``state``."""
        self._load(state)
        return bool(self._run(self._terminal, ()))

    def legal(self, state: TopDownState, role: int) -> tuple[Term, ...]:
        """The legal moves of role number ``role`` in ``state`` (in natural-key order)."""
        self._load(state)
        moves = self._run(self._legal, (self.roles[role],))
        return tuple(sorted(moves, key=natural_key))

    def legal_all(self, state: TopDownState) -> tuple[tuple[Term, ...], ...]:
        """The legal moves of every role in ``state``, in role order."""
        return tuple(self.legal(state, r) for r in range(len(self.roles)))

    def next_state(self, state: TopDownState, joint: Sequence[Term]) -> TopDownState:
        """The state after every role makes its move of ``joint`` (one per role, in order).

        The moves are not checked for legality (see :meth:`legal`).

        Raises:
            IllegalActionError: ``joint`` has the wrong length.
        """
        if len(joint) != len(self.roles):
            raise IllegalActionError(
                joint,
                [],
                context=f"(a joint move needs one move for each of {len(self.roles)} roles)",
            )
        self._load(state)
        joint = tuple(joint)
        if joint != self._joint:
            self.program.set_joint(tuple(zip(self.roles, joint, strict=True)))
            self._joint = joint
        return frozenset(self._run(self._next, ()))

    def goal_values(self, state: TopDownState, role: int) -> list[int]:
        """Every goal value of ``role`` that holds in ``state`` (GDL wants exactly one).

        Only integers from 0 to 100 are goal values: a rule that gives another value is
        left out here (a search asking what the goals are never stops on it), and
        :meth:`goal` reports it.
        """
        return sorted(int(str(v)) for v in self._goal_terms(state, role) if is_goal_value(v))

    def goal(self, state: TopDownState, role: int) -> int:
        """The goal value of ``role`` in ``state``.

        Raises:
            GoalDefinitionError: the role has no goal value or several in ``state``, or
                one that is not an integer from 0 to 100.
        """
        terms = self._goal_terms(state, role)
        return single_goal(self.roles[role], terms, lambda: self.format_state(state))

    def _goal_terms(self, state: TopDownState, role: int) -> list[Term]:
        self._load(state)
        return list(self._run(self._goal, (self.roles[role],)))

    def goals(self, state: TopDownState) -> tuple[int, ...]:
        """The goal value of every role in ``state`` (see :meth:`goal`)."""
        return tuple(self.goal(state, r) for r in range(len(self.roles)))

    # --- states as fluents ---------------------------------------------------------------

    def fluents(self, state: TopDownState) -> frozenset[Term]:
        """The ground fluents that hold in ``state`` (the state itself)."""
        return state

    def state_from_fluents(self, fluents: Iterable[Term]) -> TopDownState:
        """The state in which exactly ``fluents`` hold (any ground terms are accepted)."""
        return frozenset(fluents)

    def format_state(self, state: TopDownState) -> str:
        """``state`` as KIF fluents in a stable order: ``{(cell 1 1 b) (control x)}``."""
        shown = sorted(state, key=natural_key)
        return "{" + " ".join(to_kif(f) for f in shown) + "}"
