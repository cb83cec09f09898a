"""A fast GDL reasoner: ground once, compile a propositional network, evaluate bit sets.

:class:`Reasoner` answers the questions a game player asks of a GDL description: the
roles, the initial state, each role's legal moves, the successor state after a joint
move, the goal values, and whether a state is terminal.  States are Python ``int`` bit
sets over the game's possible fluents (hashable, immutable, cheap to compare), and
:meth:`Reasoner.fluents` turns one back into the set of ground fluents it stands for.

How it works (see :mod:`plies.gdl.ground` and :mod:`plies.gdl.propnet`): the rules are
instantiated once, bottom-up, over the exact model of the static relations and an
over-approximation of the dynamic ones; the ground rules form a propositional network
that is simplified and compiled into four Python functions whose literals are mask
tests on the state and move integers.  :mod:`plies.gdl.prover` is the slow, obviously
correct reference it is tested against.

>>> from plies.gdl.parser import parse
>>> r = Reasoner(parse('''
...     (role you) (init (at 0)) (succ 0 1) (succ 1 2)
...     (<= (legal you (step ?y)) (true (at ?x)) (succ ?x ?y))
...     (legal you stay)
...     (<= (next (at ?y)) (does you (step ?y)))
...     (<= (next (at ?x)) (does you stay) (true (at ?x)))
...     (<= terminal (true (at 2)))
...     (<= (goal you 100) (true (at 2))) (<= (goal you 0) (not (true (at 2))))'''))
>>> s = r.initial_state()
>>> r.legal(s, 0)
('stay', ('step', '1'))
>>> s = r.next_state(s, [("step", "1")])
>>> sorted(r.fluents(s)), r.is_terminal(s)
([('at', '1')], False)
>>> s = r.next_state(s, [("step", "2")])
>>> r.is_terminal(s), r.goal(s, 0)
(True, 100)
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from plies.budget import Budget
from plies.compiled import choose_backend
from plies.errors import GameFormatError, IllegalActionError, PliesError
from plies.gdl.factor import Factor, find_factors, subgame
from plies.gdl.gatenet import GateNet
from plies.gdl.ground import DEFAULT_BUDGET, MAX_ATOMS, ground, natural_key
from plies.gdl.propnet import Compiled, Network, bitset, build_network, compile_network
from plies.gdl.terms import Description, Term, to_kif

State = int
"""A GDL state: bit ``i`` set when fluent ``Reasoner.fluent_table[i]`` holds."""


class GdlRulesError(PliesError):
    """A game description whose rules break a promise of GDL during play."""


class GoalDefinitionError(GdlRulesError):
    """A role has no goal value, or several, in a state where one is asked for.

    GDL requires exactly one goal value per role in every terminal state (ggp-base's
    ``GoalDefinitionException``).
    """


class MoveDefinitionError(GdlRulesError):
    """A role has no legal move in a non-terminal state (GDL games must be playable;
    ggp-base's ``MoveDefinitionException``)."""


def is_goal_value(value: Term) -> bool:
    """Whether ``value`` is a GDL goal value, an integer from 0 to 100 (the length is
    checked first: ``int()`` of 5,000 digits is a ValueError)."""
    return (
        isinstance(value, str) and len(value) <= 3 and value.isascii() and value.isdigit()
        and int(value) <= 100
    )


def goal_value_error(role: str, value: Term, state: str) -> GoalDefinitionError:
    """The error every reasoner raises when a rule gives ``role`` a goal value that is not
    an integer from 0 to 100 in the state shown as ``state``."""
    shown = to_kif(value)
    shown = shown if len(shown) <= 40 else f"{shown[:20]}... ({len(shown):,} characters)"
    return GoalDefinitionError(
        f"role {role} has the goal value {shown} in state {state}; GDL goal values are "
        "integers from 0 to 100"
    )


def goal_count_error(role: str, values: Sequence[int], state: str) -> GoalDefinitionError:
    """The error every reasoner raises when ``role`` has no goal value or several."""
    shown = (
        "no goal value"
        if not values
        else f"{len(values)} goal values ({', '.join(map(str, sorted(values)))})"
    )
    return GoalDefinitionError(
        f"role {role} has {shown} in state {state}; GDL requires exactly one"
    )


def single_goal(role: str, terms: Sequence[Term], state: Callable[[], str]) -> int:
    """The goal value of ``role`` from the goal terms a reasoner derived for it; raises
    :func:`goal_value_error` or :func:`goal_count_error` (``state()`` shows the state)."""
    for value in terms:
        if not is_goal_value(value):
            raise goal_value_error(role, value, state())
    if len(terms) != 1:
        raise goal_count_error(role, [int(str(v)) for v in terms], state())
    return int(str(terms[0]))


@dataclass(frozen=True)
class ReasonerStats:
    """Sizes of the grounded game and the seconds each phase took."""

    fluents: int
    moves: tuple[int, ...]
    ground_rules: int
    views: int
    source_lines: int
    ground_seconds: float
    compile_seconds: float
    steps: int = 0


class Reasoner:
    """The rules of a GDL game as fast functions on ``int`` states.

    Roles are numbered by the order of their ``(role ...)`` facts.  Moves and fluents are
    GDL terms (``("mark", "1", "1")``, ``"noop"``).  Every method is pure.

    ``budget`` bounds the building (grounding and compiling, counted together): its
    seconds, its steps and its stop signal (see :mod:`plies.budget`);
    :data:`~plies.gdl.ground.DEFAULT_BUDGET` by default, which every game in the shared
    data fits in ten times over.  ``self.stats.steps`` tells how many steps a game took.
    ``max_atoms`` caps the grounding's atoms and rule instances
    (:data:`~plies.gdl.ground.MAX_ATOMS` by default).  ``backend`` (``auto``, ``numba``
    or ``python``, see :data:`plies.compiled.BACKENDS`) says whether :attr:`native`
    offers the network as Numba-compiled gates, for whole playouts in compiled code.

    Raises (on construction):
        plies.gdl.ground.GroundingError: the rules cannot be grounded (unsafe or
            unstratified rules, infinite grounding, or a ``legal``/``goal``/``terminal``
            that depends on ``does``).  A goal value that is not an integer from 0 to 100
            is an error only when asked for (:class:`GoalDefinitionError`).
        plies.budget.BudgetExceeded: the budget ran out first (:class:`~plies.budget.Stopped`
            when its stop signal was set).
        plies.errors.OptionError: an unknown ``backend``, or ``numba`` without Numba
            installed (``pip install 'plies[fast]'``).
    """

    kind = "propnet"
    """What :class:`~plies.gdl.machine.StateMachine` logs call this implementation."""

    def __init__(
        self, desc: Description, *, budget: Budget = DEFAULT_BUDGET, max_atoms: int = MAX_ATOMS,
        backend: str = "auto",
    ) -> None:
        # ``auto`` is resolved on first use: finding out imports Numba, which takes
        # longer than building a small game's reasoner.
        self._backend = None if backend == "auto" else choose_backend(backend, "reasoner")
        self._native: GateNet | None = None
        self._parts: tuple[tuple[Factor, GateNet], ...] | None = None
        started = time.perf_counter()
        # One meter for every phase: the budget bounds the whole build, not each part.
        meter = budget.meter("grounding the rules")
        g = ground(desc, meter, max_atoms=max_atoms)
        net = build_network(g, meter)
        grounded = time.perf_counter()
        compiled = compile_network(net, meter)
        self.description = desc
        self.roles: tuple[str, ...] = g.roles
        self.network: Network = net
        self.compiled: Compiled = compiled
        #: Every fluent that may ever hold, in bit order.
        self.fluent_table: tuple[Term, ...] = net.fluents
        #: Per role, every move it may ever make, in the order legal() lists them.
        self.move_table: tuple[tuple[Term, ...], ...] = tuple(
            tuple(atom[2] for atom in role_moves) for role_moves in net.moves
        )
        offsets = []
        total = 0
        for moves in self.move_table:
            offsets.append(total)
            total += len(moves)
        self._offsets = tuple(offsets)
        self._move_index: tuple[dict[Term, int], ...] = tuple(
            {m: i for i, m in enumerate(moves)} for moves in self.move_table
        )
        self._fluent_index = {f: i for i, f in enumerate(self.fluent_table)}
        self._init = net.init
        self._terminal = compiled.terminal
        self._legal = compiled.legal
        self._goals = compiled.goals
        self._bad_goals = net.bad_goals
        self._next = compiled.next
        self.stats = ReasonerStats(
            fluents=len(net.fluents),
            moves=tuple(len(m) for m in self.move_table),
            ground_rules=len(g.rules),
            views=len(net.views),
            source_lines=compiled.source.count("\n"),
            ground_seconds=grounded - started,
            compile_seconds=time.perf_counter() - grounded,
            steps=meter.count,
        )

    def __reduce__(self) -> tuple[Any, tuple[Description]]:
        # The compiled functions cannot be pickled; the rules can, and are compiled again.
        return (functools.partial(Reasoner, backend=self._backend or "auto"), (self.description,))

    @property
    def backend(self) -> str:
        """``"numba"`` or ``"python"``: whether :attr:`native` compiles the network."""
        if self._backend is None:
            self._backend = choose_backend("auto", "reasoner")
        return self._backend

    def native_built(self) -> GateNet | None:
        """:attr:`native` if it has been made, else None (without making it)."""
        return self._native

    @property
    def native(self) -> GateNet | None:
        """The network as Numba-compiled gates (:class:`~plies.gdl.gatenet.GateNet`:
        whole playouts in compiled code), made on first use; None with the ``python``
        backend."""
        if self._native is None and self.backend == "numba":
            self._native = GateNet(self.network)
        return self._native

    def build_native(self) -> GateNet | None:
        """Make :attr:`native` with every kernel compiled (:meth:`GateNet.warm`) before
        :meth:`native_built` returns it, so that a search reading ``native_built`` never
        waits for a compilation; None with the ``python`` backend."""
        if self._native is None and self.backend == "numba":
            net = GateNet(self.network)
            net.warm(self.initial_state())
            self._native = net
        return self._native

    def build_parts(self) -> tuple[tuple[Factor, GateNet], ...]:
        """The game's independent parts (:func:`plies.gdl.factor.find_factors`), each
        with the compiled network of its subgame (:func:`plies.gdl.factor.subgame`),
        made once; empty when the game does not come apart or with the ``python``
        backend.  Call it after :meth:`build_native` (its kernels serve the parts too)."""
        if self._parts is None:
            parts: tuple[tuple[Factor, GateNet], ...] = ()
            if self.backend == "numba":
                factors = find_factors(self.network)
                if len(factors) > 1:
                    parts = tuple((f, GateNet(subgame(self.network, factors, i)))
                                  for i, f in enumerate(factors))
            self._parts = parts
        return self._parts

    def parts_built(self) -> tuple[tuple[Factor, GateNet], ...]:
        """:meth:`build_parts` if it has been made, else empty (without making it)."""
        return self._parts or ()

    # --- the GDL questions ---------------------------------------------------------------

    def initial_state(self) -> State:
        """The state of the ``init`` fluents."""
        return self._init

    def is_terminal(self, state: State) -> bool:
        """Whether ``terminal`` holds in ``state``."""
        return self._terminal(state)

    def legal(self, state: State, role: int) -> tuple[Term, ...]:
        """The legal moves of role number ``role`` in ``state`` (in move-table order)."""
        table = self.move_table[role]
        return tuple([table[i] for i in self._legal(state)[role]])

    def legal_all(self, state: State) -> tuple[tuple[Term, ...], ...]:
        """The legal moves of every role in ``state``, in role order."""
        tables = self.move_table
        return tuple(
            tuple([table[i] for i in idx])
            for table, idx in zip(tables, self._legal(state), strict=True)
        )

    def legal_indices(self, state: State) -> tuple[list[int], ...]:
        """Per role, the indices into :attr:`move_table` of its legal moves (the fast path)."""
        return self._legal(state)

    def next_state(self, state: State, joint: Sequence[Term]) -> State:
        """The state after every role makes its move of ``joint`` (one per role, in order).

        The moves are not checked for legality (see :meth:`legal`), only for being moves
        the role could ever make.

        Raises:
            IllegalActionError: ``joint`` has the wrong length or a move the role can
                never make.
        """
        if len(joint) != len(self.roles):
            raise IllegalActionError(
                joint,
                [],
                context=f"(a joint move needs one move for each of {len(self.roles)} roles)",
            )
        ks = []
        for r, move in enumerate(joint):
            i = self._move_index[r].get(move)
            if i is None:
                legal = [to_kif(m) for m in self.legal(state, r)]
                raise IllegalActionError(to_kif(move), legal, context=f"for role {self.roles[r]}")
            ks.append(self._offsets[r] + i)
        d = 0
        for k in ks:
            d |= 1 << k
        return self._next(state, d, ks)

    def next_state_indices(self, state: State, joint: Sequence[int]) -> State:
        """:meth:`next_state` with each move given as its index in :attr:`move_table`."""
        ks = [off + i for off, i in zip(self._offsets, joint, strict=True)]
        d = 0
        for k in ks:
            d |= 1 << k
        return self._next(state, d, ks)

    def goal_values(self, state: State, role: int) -> list[int]:
        """Every goal value of ``role`` that holds in ``state`` (GDL wants exactly one).

        Only integers from 0 to 100 are goal values: a rule that gives another value is
        left out here (a search asking what the goals are never stops on it), and
        :meth:`goal` reports it.
        """
        values = self._goals(state)[role]
        if self._bad_goals:
            values = [v for v in values if v >= 0]
        return sorted(values)

    def goal(self, state: State, role: int) -> int:
        """The goal value of ``role`` in ``state``.

        Raises:
            GoalDefinitionError: the role has no goal value or several in ``state``, or
                one that is not an integer from 0 to 100.
        """
        values = self._goals(state)[role]
        if self._bad_goals and values and min(values) < 0:
            raise self._bad_goal_error(state, role, values)
        if len(values) != 1:
            raise self._goal_error(state, role, values)
        return values[0]

    def goals(self, state: State) -> tuple[int, ...]:
        """The goal value of every role in ``state`` (see :meth:`goal`)."""
        all_values = self._goals(state)
        for r, values in enumerate(all_values):
            if self._bad_goals and values and min(values) < 0:
                raise self._bad_goal_error(state, r, values)
            if len(values) != 1:
                raise self._goal_error(state, r, values)
        return tuple(values[0] for values in all_values)

    def _bad_goal_error(self, state: State, role: int, values: list[int]) -> GoalDefinitionError:
        # A rule with a goal value outside 0..100 holds here (see propnet.Network).
        value = self._bad_goals[-min(values) - 1]
        return goal_value_error(self.roles[role], value, self.format_state(state))

    def _goal_error(self, state: State, role: int, values: list[int]) -> GoalDefinitionError:
        return goal_count_error(self.roles[role], values, self.format_state(state))

    # --- states as fluents ---------------------------------------------------------------

    def fluents(self, state: State) -> frozenset[Term]:
        """The ground fluents that hold in ``state``."""
        table = self.fluent_table
        # The binary digits, least significant first: linear in the number of fluents,
        # where shifting a 40,000-bit state once per bit would be quadratic.
        bits = bin(state)[:1:-1]
        out = []
        i = bits.find("1")
        while i >= 0:
            out.append(table[i])
            i = bits.find("1", i + 1)
        return frozenset(out)

    def state_from_fluents(self, fluents: Iterable[Term]) -> State:
        """The state in which exactly ``fluents`` hold.

        Raises:
            GameFormatError: a fluent that no rule of the game can ever make true.
        """
        bits = []
        for f in fluents:
            i = self._fluent_index.get(f)
            if i is None:
                raise GameFormatError(f"{to_kif(f)} is not a fluent of this game")
            bits.append(i)
        return bitset(bits)

    def format_state(self, state: State) -> str:
        """``state`` as KIF fluents in a stable order: ``{(cell 1 1 b) (control x)}``."""
        shown = sorted(self.fluents(state), key=natural_key)
        return "{" + " ".join(to_kif(f) for f in shown) + "}"
