"""The GGP player's reasoners: how they are built, shared between threads, and kept from
stopping the clock.

* :func:`build_slow` (the top-down prover, no grounding) and :func:`build_propnet` (the
  compiled propnet, within a budget) build a match's two state machines;
* :class:`LockedMachine` asks a machine's questions one at a time (the top-down prover
  keeps one state loaded);
* :class:`QuietCollector` and :func:`drain` keep Python's memory management from holding
  the interpreter lock for seconds while a large game is grounded.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from types import TracebackType
from typing import Any

from plies.budget import Budget
from plies.gdl.machine import StateMachine
from plies.gdl.reasoner import Reasoner
from plies.gdl.terms import Description, Term
from plies.gdl.topdown import TopDown

MachineFactory = Callable[[Description, Budget], StateMachine[Any]]
"""Builds a reasoner for a description within a budget (whose ``stop`` ends the match)."""


def build_propnet(desc: Description, budget: Budget) -> StateMachine[Any]:
    """The fast machine: the compiled propnet (grounds every rule first)."""
    return Reasoner(desc, budget=budget)


def build_slow(desc: Description, budget: Budget) -> StateMachine[Any]:
    """The slow machine, cheap to build: the top-down prover (no grounding), compiled
    within ``budget``; its stop signal (the match's end) ends the compile and every
    query (queries are not bounded in steps: the turn's clock bounds the thinking)."""
    return TopDown(desc, budget=Budget(stop=budget.stop), build=budget)


class LockedMachine:
    """A :class:`~plies.gdl.machine.StateMachine` whose questions are answered one at a
    time.

    The top-down prover loads one state into its compiled program and tables its
    answers for it: two threads asking at once (a turn's thinking that has not yet seen
    its stop, and the next turn's worker) would read each other's state.  The propnet is
    made of pure functions and needs no lock.  Turning states into fluents and back does
    not touch a machine's program (a top-down state *is* its fluents), so it takes no
    lock either: switching to the propnet never waits for a slow query.
    """

    def __init__(self, machine: StateMachine[Any]) -> None:
        self.machine = machine
        self.description = machine.description
        self.roles = machine.roles
        self.kind = machine.kind
        self._lock = threading.RLock()

    def initial_state(self) -> Any:
        with self._lock:
            return self.machine.initial_state()

    def is_terminal(self, state: Any) -> bool:
        with self._lock:
            return self.machine.is_terminal(state)

    def legal(self, state: Any, role: int) -> tuple[Term, ...]:
        with self._lock:
            return self.machine.legal(state, role)

    def legal_all(self, state: Any) -> tuple[tuple[Term, ...], ...]:
        with self._lock:
            return self.machine.legal_all(state)

    def next_state(self, state: Any, joint: Sequence[Term]) -> Any:
        with self._lock:
            return self.machine.next_state(state, joint)

    def goal_values(self, state: Any, role: int) -> list[int]:
        with self._lock:
            return self.machine.goal_values(state, role)

    def goal(self, state: Any, role: int) -> int:
        with self._lock:
            return self.machine.goal(state, role)

    def goals(self, state: Any) -> tuple[int, ...]:
        with self._lock:
            return self.machine.goals(state)

    def fluents(self, state: Any) -> frozenset[Term]:
        return self.machine.fluents(state)

    def state_from_fluents(self, fluents: Iterable[Term]) -> Any:
        return self.machine.state_from_fluents(fluents)

    def format_state(self, state: Any) -> str:
        with self._lock:
            return self.machine.format_state(state)


class QuietCollector:
    """Keeps Python's memory management from stopping the clock while a propnet is built.

    Grounding a large game allocates millions of objects.  Python's cyclic garbage
    collector then runs full collections over all of them from time to time, each holding
    the interpreter lock, and so every thread, for longer and longer: up to 1.3 s while
    chess is grounded (measured), enough to make a reply late.  So while any propnet is
    being built, automatic collection is off; when the last build ends, the objects that
    exist then (the propnet, if built) are frozen out of later collections
    (:func:`gc.freeze`).  At the START of the next match (:meth:`release`) they are handed
    back to the collector, which runs once, on START's clock: a collection at the end
    of a match, in the background, held the lock while the STOP reply was being sent
    and made it late (measured).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._builds = 0
        self._enabled = True

    @contextmanager
    def building(self) -> Iterator[None]:
        """Automatic collection off for the duration (nested and concurrent builds
        count)."""
        with self._lock:
            if self._builds == 0:
                self._enabled = gc.isenabled()
                gc.disable()
            self._builds += 1
        try:
            yield
        finally:
            with self._lock:
                self._builds -= 1
                if self._builds == 0:
                    gc.freeze()
                    if self._enabled:
                        gc.enable()

    def release(self) -> None:
        """Let the collector see every object again, and collect once, now (call it
        where the clock allows a pause: before a match starts)."""
        with self._lock:
            if self._builds:
                return  # another player's build is under way: it will freeze again
            gc.unfreeze()
            if gc.isenabled():
                gc.collect()


COLLECTOR = QuietCollector()
"""The process's one :class:`QuietCollector` (the garbage collector is process-wide)."""

_DRAINED = (  # the modules whose functions ground and compile (and own their classes)
    "plies.gdl.bottomup",
    "plies.gdl.formula",
    "plies.gdl.ground",
    "plies.gdl.matching",
    "plies.gdl.netcompile",
    "plies.gdl.normal",
    "plies.gdl.propnet",
    "plies.gdl.reasoner",
)


def drain(tb: TracebackType | None) -> None:
    """Free what a failed build left in its frames a little at a time.

    A grounding stopped at the wall holds millions of objects; freed at once (when the
    exception is dropped), their deallocation is one C call that holds the interpreter
    lock for 1.5 s (chess, measured).  Taken apart item by item in Python, the other
    threads run in between.  Only the build's own containers are touched: the dicts,
    lists and sets in the frames of the grounding and compiling modules, and the objects
    of those modules' classes (never the description, which the other reasoner uses).
    """
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_globals.get("__name__") in _DRAINED:
            for value in list(frame.f_locals.values()):
                _drain(value, 4)
        tb = tb.tb_next


def _drain(value: object, depth: int) -> None:
    if depth < 0:
        return
    if isinstance(value, dict):
        while value:
            _drain(value.popitem()[1], depth - 1)
    elif isinstance(value, list):
        while value:
            _drain(value.pop(), depth - 1)
    elif isinstance(value, set):
        while value:
            value.pop()
    elif type(value).__module__ in _DRAINED and hasattr(value, "__dict__"):
        for item in list(vars(value).values()):
            _drain(item, depth - 1)
