"""A GGP player's match: the state its message handler and its threads share, and a turn.

:class:`Match` is one match as :class:`~plies.ggp.player.GgpPlayer` plays it: the
rules and clocks, the machine it plays on and the state there, the joint moves received
and applied, our replies, and the events that say when a machine is ready and when the
match is over.  :class:`Turn` is one PLAY being answered: its deadline and the best
move known for it.  The work of a turn is here too, as the threads run it:
:meth:`Match.take_turn` brings the state up to date (:meth:`Match.catch_up`), makes
the first legal move the answer and thinks until the turn ends; :meth:`Match.settle`
applies the last joint move at STOP and logs the goals.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from plies.gdl.machine import StateMachine
from plies.gdl.terms import Description, Term
from plies.ggp.strategy import choose_move
from plies.ggp.sync import always_legal, apply_joint, rule_moves
from plies.ggp.thinker import Choice, Clock, Thinker

log = logging.getLogger("plies.ggp")


@dataclass
class Turn:
    """One PLAY being answered: its deadline, and the best move known for it.

    ``choice`` is None until our legal moves in the turn's state are known; ``done`` is
    set when thinking ends early (solved, forced); ``stop`` ends it (the deadline, the
    next message).  ``run`` is the thinking now under way: a switch of machines in the
    middle of the turn stops it and starts another on the new machine.
    """

    step: int
    deadline: float
    choice: Choice | None = None
    machine: str = ""
    done: threading.Event = field(default_factory=threading.Event)
    stop: threading.Event = field(default_factory=threading.Event)
    run: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def next_run(self) -> threading.Event:
        """A stop signal for new thinking; the previous thinking is stopped."""
        with self.lock:
            self.run.set()
            self.run = threading.Event()
            if self.stop.is_set():
                self.run.set()
            return self.run

    def install(self, choice: Choice, machine: str, run: threading.Event) -> bool:
        """Make ``choice`` (found on ``machine`` by the thinking ``run``) the turn's,
        unless a later thinking has taken over; True if it did."""
        with self.lock:
            if run is not self.run and self.choice is not None:
                return False
            self.choice, self.machine = choice, machine
            return True

    def end(self) -> None:
        """Stop every thinking of this turn."""
        with self.lock:
            self.stop.set()
            self.run.set()


@dataclass
class Match:
    """The state of one match.

    ``machine`` is the reasoner the match plays on (the slow one until the propnet is
    ready), ``state`` the state of the joint moves applied so far in that machine's terms
    and ``thinker`` the move selection over it (all three change together, under
    ``lock``); ``fast`` is the propnet once built, and ``fast_note`` says why the match is
    not (yet) on it.  ``ready`` is set when a machine is there (or none can be:
    ``failure`` says why); ``settled`` when the building of the preferred machine (the
    propnet, if used) ended; ``building`` counts the builds under way.  ``received``
    counts the joint moves received; ``pending`` holds those not yet applied;
    ``moves`` the joint moves applied (as the rules spell them, guesses included),
    ``legal`` our legal moves per step where they were computed, ``replies`` our answer
    per step.  ``turn`` is the PLAY being answered.  ``over`` is set when the match ends
    (STOP, ABORT, the player closing) and stops all of its work.  ``worker`` is the
    thread that builds the propnet, ``workers`` every background thread of the match.
    ``sampler`` draws the moves of mixed strategies.
    """

    match_id: str
    role: str
    role_index: int
    description: Description
    start_clock: float
    play_clock: float
    rng: random.Random
    machine: StateMachine[Any] | None = None
    state: Any = None
    thinker: Thinker | None = None
    fast: StateMachine[Any] | None = None
    fast_note: str = "the propnet is being built"
    slow_note: str = ""
    building: int = 0
    received: int = 0
    ready: threading.Event = field(default_factory=threading.Event)
    settled: threading.Event = field(default_factory=threading.Event)
    failure: str | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    queue: threading.Lock = field(default_factory=threading.Lock)
    pending: list[tuple[Term, ...]] = field(default_factory=list)
    moves: list[tuple[Term, ...]] = field(default_factory=list)
    legal: dict[int, tuple[Term, ...]] = field(default_factory=dict)
    replies: dict[int, Term] = field(default_factory=dict)
    goals: tuple[int, ...] | None = None
    over: threading.Event = field(default_factory=threading.Event)
    worker: threading.Thread | None = None
    workers: list[threading.Thread] = field(default_factory=list)
    turn: Turn | None = None
    fallback: tuple[Term, ...] = ()
    known: tuple[Term, ...] = ()
    sampler: random.Random = field(default_factory=random.Random)
    started: float = field(default_factory=time.perf_counter)

    def __post_init__(self) -> None:
        # Read off the rules alone, so a PLAY has an answer before any reasoner does.
        self.fallback = self.fallback or always_legal(self.description, self.role)
        self.known = self.known or rule_moves(self.description, self.role)

    @property
    def steps(self) -> int:
        """Joint moves received so far."""
        return self.received

    @property
    def reasoner(self) -> StateMachine[Any] | None:
        """The machine the match plays on (``machine``; the name of older callers)."""
        return self.machine

    def receive(self, moves: tuple[Term, ...]) -> None:
        """Queue a joint move the manager says was played (it is authoritative)."""
        with self.queue:
            self.pending.append(moves)
            self.received += 1

    def history(self) -> tuple[list[tuple[Term, ...]], dict[int, tuple[Term, ...]]]:
        """Every joint move received (applied ones as applied, then the queued ones as
        sent) and our legal moves per step where known: a consistent snapshot."""
        with self.queue:
            return [*self.moves, *self.pending], dict(self.legal)

    def catch_up(self) -> StateMachine[Any] | None:
        """Apply every queued joint move to the match state (the caller holds
        ``self.lock``); the machine, or None if there is none yet."""
        machine = self.machine
        if machine is None:
            return None
        while self.pending:
            sent = self.pending[0]
            # Our own reply of this step is only known for the step just answered.
            replied = self.replies.get(len(self.moves))
            applied = apply_joint(
                machine, self.state, sent, mine=self.role_index, replied=replied
            )
            for problem in applied.problems:
                log.warning("match %s step %d: %s", self.match_id, len(self.moves) + 1, problem)
            self.state = applied.state
            with self.queue:
                self.pending.pop(0)
                self.moves.append(applied.joint)
        return machine

    def take_turn(self, turn: Turn) -> None:
        """The worker of a PLAY: bring the state up to date, find our legal moves (the
        first one is the answer from then on), then think until the turn ends."""
        run = turn.next_run()
        try:
            if not self.ready.wait(max(0.0, turn.deadline - time.perf_counter())):
                return
            if not self.lock.acquire(timeout=max(0.0, turn.deadline - time.perf_counter())):
                return  # a slow application of earlier moves still runs; answer without
            try:
                machine = self.catch_up()
                state, thinker, index = self.state, self.thinker, len(self.moves)
            finally:
                self.lock.release()
            if machine is None or thinker is None or run.is_set():
                return
            legal = machine.legal(state, self.role_index)
            self.legal[index] = legal
            if index != turn.step:
                return  # a later PLAY came meanwhile: this turn is answered already
            previous = turn.choice
            if previous is not None and previous.read()[0] in legal:
                move, source, detail = previous.read()
                choice = Choice(move, source, detail)
            else:
                first = legal[0] if legal else self.known[0] if self.known else "noop"
                choice = Choice(first, "fallback", "the first legal move")
            if not turn.install(choice, machine.kind, run):
                return
            if not legal or machine.is_terminal(state):
                # The manager plays on where our view says it cannot: answer something
                # the rules know rather than an error; the manager decides what counts.
                log.warning(
                    "match %s step %d: %s in our view, yet the manager plays on",
                    self.match_id, turn.step + 1,
                    "a terminal state" if legal else f"no legal move for {self.role}",
                )
                return
            choose_move(thinker, state, Clock(turn.deadline, run), choice)
        except Exception:  # a reasoner failure must not cost the move
            log.exception("match %s step %d: thinking failed", self.match_id, turn.step + 1)
        finally:
            if turn.run is run:
                turn.done.set()

    def settle(self, deadline: float) -> None:
        """STOP's worker: apply the last joint moves and log the goals."""
        if not self.ready.wait(max(0.0, deadline - time.perf_counter())):
            return
        if not self.lock.acquire(timeout=max(0.0, deadline - time.perf_counter())):
            return
        try:
            machine = self.catch_up()
            if machine is None:
                return
            state = self.state
            if machine.is_terminal(state):
                self.goals = tuple(_goal(machine, state, r) for r in range(len(machine.roles)))
                log.info(
                    "match %s over after %d steps; goals %s", self.match_id,
                    self.steps, " ".join(
                        f"{r}={g}" for r, g in zip(machine.roles, self.goals, strict=True)
                    ),
                )
            else:
                log.warning("match %s stopped in a non-terminal state", self.match_id)
        except Exception:
            log.exception("match %s: the final joint move could not be applied", self.match_id)
        finally:
            self.lock.release()


def _goal(machine: StateMachine[Any], state: Any, role: int) -> int:
    values = machine.goal_values(state, role)
    return values[0] if len(values) == 1 else 0
