"""A GGP player's match state machine: one message in, one reply out.

:class:`GgpPlayer` knows nothing about HTTP; :mod:`plies.ggp.server` feeds it the body of
each request with the time it was received.  It plays one match at a time (a
:class:`~plies.ggp.match.Match`; that module also holds the work of a turn):

* **START** parses and validates the rules, then prepares two reasoners (GGP's *state
  machines*, :class:`~plies.gdl.machine.StateMachine`) in the background: a *slow* one
  that is cheap to build (the top-down prover: no grounding) and the *fast* compiled
  propnet (:class:`~plies.gdl.reasoner.Reasoner`), whose grounding may take longer than
  the start clock, or forever (the grounding wall).  START answers ``ready`` once the
  propnet is built and the game profiled, or when the start clock (less the margin) runs
  out, whichever is first.  Rules that do not parse, break a GDL restriction, name no such
  role, or that no reasoner can build before the start clock runs out get an HTTP 400
  whose text names the problem, and the player stays free; a START while a match runs is
  answered ``busy``.
* **PLAY** is always answered with a move (status 200) by ``receipt + budget(clock)``
  (:meth:`GgpPlayer.budget`), whatever a reasoner is doing.  A worker thread applies the
  joint move the manager sent (the moves *actually played*; an illegal or garbled one is
  applied or guessed, with a warning: :mod:`plies.ggp.sync`), asks for our legal moves,
  which makes the first of them the answer at once, then thinks (alpha-beta or Monte
  Carlo, :mod:`plies.ggp.strategy`) and improves it.  The request thread waits for it
  until the deadline and answers the best move known: the worker's; else a move legal in
  every state (:func:`~plies.ggp.sync.always_legal`); else a guess from the legal moves of
  earlier states (:func:`~plies.ggp.sync.likely_legal`); else a move the rules name.
  Until the propnet is ready the worker plays from the slow machine; once it is built,
  the match state is carried over through its fluents and thinking goes on there, in the
  middle of a move if need be.  If it cannot be built (the grounding wall, its budget in steps:
  :meth:`GgpPlayer.build_budget`), the whole match plays on the slow machine.  The log
  says which machine chose each move, and why.
* **STOP** applies the final joint move and logs the goals; **ABORT** ends the match.
  Both free the player and end all work of the match: its thinking and the building of
  its reasoners (grounding stops within milliseconds of the ABORT).  PLAY, STOP and
  ABORT naming another match (or none) are answered ``busy``, as ggp-base does.
* **INFO** / **PING** are answered at any time, also while a move is being computed.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from plies.budget import Budget, Stopped
from plies.errors import OptionError, PliesError
from plies.gdl.game import GdlGame
from plies.gdl.machine import StateMachine, build_steps
from plies.gdl.parser import description_from_terms
from plies.gdl.reasoner import Reasoner
from plies.gdl.terms import Term, to_kif
from plies.gdl.validator import check
from plies.ggp.machines import (
    COLLECTOR,
    LockedMachine,
    MachineFactory,
    build_propnet,
    build_slow,
    drain,
)
from plies.ggp.match import Match, Turn
from plies.ggp.protocol import (
    ABORTED,
    BUSY,
    DONE,
    READY,
    Message,
    ProtocolError,
    format_reply,
    info_reply,
    parse_message,
    peek_keyword,
)
from plies.ggp.stage import preload
from plies.ggp.strategy import profile_game
from plies.ggp.sync import likely_legal
from plies.ggp.thinker import Clock, Mode, Profile, Simultaneous, Thinker
from plies.ggp.uct import choose_method
from plies.search.craft import TranspositionTable

__all__ = [  # Match and Turn live in plies.ggp.match
    "ABORT_WAIT",
    "BUILD_CAP",
    "BUILD_FLOOR",
    "BUILD_PLAY_CLOCKS",
    "DEFAULT_MARGIN",
    "METAGAME_CAP",
    "MIN_FRACTION",
    "GgpPlayer",
    "Match",
    "Reply",
    "Turn",
]

log = logging.getLogger("plies.ggp")

DEFAULT_MARGIN = 1.0
"""Seconds kept back from every clock for the network, the manager and a loaded machine
(default).  Measured (``benchmarks/ggp_deadline.py``, ``benchmarks/results/ggp_deadline.md``):
at a load of 10 to 15 on two cores, replies reached the manager up to 0.52 s after the
player's own deadline (*clock - margin*), so half a second was not enough; a second is."""

MIN_FRACTION = 0.25
"""However large the margin, at least this fraction of a clock is used for thinking."""

METAGAME_CAP = 1.0
"""Metagaming playouts stop after this many seconds even if the start clock is longer."""

BUILD_PLAY_CLOCKS = 10
"""Building the propnet may take the start clock (less the margin) plus this many play
clocks (and at least :data:`BUILD_FLOOR`) while the slow machine plays; a description
that needs longer is given up, and its match plays on the slow machine to the end."""

BUILD_FLOOR = 30.0
"""However short the clocks, building the propnet may take this many seconds: a large
game (checkers takes about 14 CPU seconds) is worth the wait."""

BUILD_CAP = 600.0
"""However long the clocks, building a reasoner is never allowed more seconds than this."""

ABORT_WAIT = 0.5
"""Seconds an ABORT or STOP waits for the match's background work to end (it stops
within milliseconds of being told; this only bounds a reply if it did not)."""


@dataclass(frozen=True, slots=True)
class Reply:
    """What to send back: an HTTP status, the body, and a note for logs (not sent)."""

    status: int
    body: str
    note: str = ""



class _Plays:
    """The PLAYs of the current match as they came: to tell a PLAY sent again (a manager
    that did not get our reply retries) from the next one.

    A PLAY carries no step number, only the joint move just played.  A PLAY whose joint
    move is the same as the last PLAY's is the same PLAY again if the previous answer is
    not out yet, or if our move in it is not the move we answered last (the next PLAY
    would carry that move); otherwise it is a genuine repetition (every role played the
    same move twice running).  A second ``(play <id> nil)`` is always the first PLAY
    again.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.last: tuple[Term, ...] | None = None
        self.turns: dict[int, Turn] = {}

    def is_retry(self, match: Match, moves: tuple[Term, ...] | None) -> bool:
        step = match.steps
        if step not in self.turns:
            return False  # no PLAY answered or under way at this step yet
        if moves is None:
            return step == 0
        if moves != self.last:
            return False
        answered = match.replies.get(step)
        mine = moves[match.role_index] if match.role_index < len(moves) else None
        return answered is None or mine != answered

    def answer(self, match: Match, step: int, move: Term) -> Term:
        """Record ``move`` as the answer of ``step`` unless one is recorded already; the
        answer of the step either way (a step is answered with one move, however often
        it is asked)."""
        with self.lock:
            return match.replies.setdefault(step, move)


class GgpPlayer:
    """A General Game Playing player (see the module docstring for the message flow).

    ``margin`` seconds are kept back from every clock (at most ``1 - MIN_FRACTION`` of
    it); ``mode`` forces alpha-beta, flat Monte Carlo or UCT ("mcts") instead of the
    automatic choice (metagaming's, :func:`plies.ggp.uct.choose_method`);
    ``seed`` fixes the random playouts and the draws of mixed strategies;
    ``simultaneous`` plays a step where several roles choose as a ``"mixed"`` strategy of
    its stage game (default) or by the ``"pessimistic"`` sequentialisation (a pure move;
    see :mod:`plies.ggp.stage`).  ``slow`` and ``fast`` build the two reasoners
    (:func:`build_slow`, :func:`build_propnet`); ``fast=None`` plays every match on the
    slow machine, ``slow=None`` waits for the propnet.  :meth:`handle` is thread-safe.
    """

    def __init__(
        self,
        name: str = "plies",
        *,
        margin: float = DEFAULT_MARGIN,
        mode: Mode = "auto",
        seed: int | None = None,
        metagame_cap: float = METAGAME_CAP,
        slow: MachineFactory | None = build_slow,
        fast: MachineFactory | None = build_propnet,
        simultaneous: Simultaneous = "mixed",
    ) -> None:
        if not margin >= 0:
            raise ValueError(f"margin must be >= 0 seconds, got {margin}")
        if slow is None and fast is None:
            raise ValueError("a player needs a reasoner: slow and fast cannot both be None")
        if simultaneous not in ("mixed", "pessimistic"):
            raise OptionError(
                f"unknown simultaneous option {simultaneous!r}; use one of: mixed, pessimistic"
            )
        self.simultaneous: Simultaneous = simultaneous
        self.name = name
        self.margin = margin
        self.mode: Mode = mode
        self.metagame_cap = metagame_cap
        self.slow = slow
        self.fast = fast
        self.rng = random.Random(seed)
        self.match: Match | None = None
        self.last: Match | None = None  # the previous match, for inspection until the next START
        self._lock = threading.Lock()
        self._plays = _Plays()

    # -- the public surface ------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """True while a match is running or being started (once its rules are checked)."""
        return self.match is not None

    def budget(self, clock: float) -> float:
        """Seconds allowed for thinking on a ``clock``-second clock, counted from receipt:
        the clock less the margin, but never less than ``MIN_FRACTION`` of it."""
        return max(clock - self.margin, clock * MIN_FRACTION)

    def handle(self, text: str, received: float | None = None) -> Reply:
        """Answer one message; ``received`` is its ``time.perf_counter()`` receipt time.

        Malformed or impossible requests get status 400 with ``error: ...``; nothing
        raises.  A PLAY of the current match is always answered with a move.
        """
        received = time.perf_counter() if received is None else received
        if self.busy and peek_keyword(text) == "start":
            # Answered without parsing the rules: a busy player pays nothing for them.
            note = "start refused without reading it: already playing a match"
            log.warning(note)
            return Reply(200, BUSY, note)
        try:
            message = parse_message(text)
            return self._dispatch(message, received)
        except PliesError as err:
            return Reply(400, f"error: {err}", str(err))

    def close(self) -> None:
        """Stop all work of the current match and forget it."""
        match = self.match
        if match is not None:
            self._end(match)
        self.match = None

    def build_seconds(self, start_clock: float, play_clock: float) -> float:
        """The allowance for building a match's reasoners, in nominal seconds: the start
        clock's budget plus :data:`BUILD_PLAY_CLOCKS` play clocks (the slow machine plays
        meanwhile), at least :data:`BUILD_FLOOR` and at most :data:`BUILD_CAP`."""
        seconds = self.budget(start_clock) + BUILD_PLAY_CLOCKS * self.budget(play_clock)
        return min(BUILD_CAP, max(seconds, BUILD_FLOOR, 0.001))

    def build_budget(self, match: Match) -> Budget:
        """The budget of each build of ``match``'s reasoners: :meth:`build_seconds` in
        steps (:func:`plies.gdl.machine.build_steps`: counted in work, never in wall time,
        so a game gets the same reasoner at any load), and the match's end as its stop."""
        seconds = self.build_seconds(match.start_clock, match.play_clock)
        return Budget(steps=build_steps(seconds), stop=match.over)

    # -- messages ----------------------------------------------------------------------

    def _dispatch(self, message: Message, received: float) -> Reply:
        kind = message.kind
        if kind == "info":
            if message.keyword == "ping":
                return Reply(200, BUSY if self.busy else READY)
            return Reply(200, info_reply(self.name, self.busy))
        if kind == "preview":
            return Reply(200, READY)
        if kind == "start":
            return self._start(message, received)
        match = self.match
        last = self.last
        if (
            (match is None or match.match_id != message.match_id)
            and last is not None and last.match_id == message.match_id
            and kind in ("stop", "abort")
        ):  # the match is over already: a STOP or ABORT sent again gets the same answer
            return Reply(200, DONE if kind == "stop" else ABORTED)
        if match is None or match.match_id != message.match_id:
            current = "no match" if match is None else f"match {match.match_id}"
            note = f"{kind} for match {message.match_id}, but this player is in {current}"
            log.warning(note)
            return Reply(200, BUSY, note)
        if kind == "play":
            return self._play(match, message, received)
        if kind == "stop":
            return self._stop(match, message, received)
        return self._abort(match)

    def _start(self, message: Message, received: float) -> Reply:
        assert message.match_id is not None and message.role is not None
        assert message.start_clock is not None and message.play_clock is not None
        try:
            # Checked before the player is claimed: rules that cannot be played never
            # make it busy, however long reading them takes.
            desc = description_from_terms(message.rules, f"<rules of {message.match_id}>")
            for warning in check(desc):
                log.info("rules of %s: %s", message.match_id, warning)
            if message.role not in desc.roles:
                raise ProtocolError(
                    f"{message.role!r} is not a role of this game; its roles are "
                    + _names(desc.roles)
                )
        except PliesError as err:
            log.warning("start of %s refused: %s", message.match_id, err)
            return Reply(400, f"error: cannot play these rules: {err}", str(err))
        match = Match(
            message.match_id, message.role, desc.roles.index(message.role), desc,
            message.start_clock, message.play_clock, random.Random(self.rng.random()),
            started=received,
        )
        with self._lock:
            if self.busy:
                current = self.match.match_id if self.match else "another match"
                note = f"start of {message.match_id} refused: already playing {current}"
                log.warning(note)
                return Reply(200, BUSY, note)
            # The match is the player's from now on, so an ABORT or STOP of it is
            # honoured while it is still being prepared.
            self.match = match
            self._plays = _Plays()
        try:
            return self._prepare(match, received)
        except BaseException:
            self._finish(match)
            raise

    def _prepare(self, match: Match, received: float) -> Reply:
        """Metagaming of a START that claimed the player: build, profile, answer."""
        self.last = None  # the previous match's reasoners go, with what they froze
        COLLECTOR.release()
        # Mixed strategies: draws of their own (the playouts' count depends on the
        # clock), and the LP solver loaded during metagaming (within the start clock).
        match.sampler = random.Random(match.rng.getrandbits(64))
        mixed = self.simultaneous == "mixed" and len(match.description.roles) > 1
        loading = preload() if mixed else None
        deadline = received + self.budget(match.start_clock)
        self._launch(match, deadline)
        # Metagaming is done when the propnet is built and profiled; a game whose
        # propnet takes longer starts on the slow machine.  An ABORT or STOP sets both.
        match.settled.wait(max(0.0, deadline - time.perf_counter()))
        match.ready.wait(max(0.0, deadline - time.perf_counter()))
        if match.over.is_set():
            note = f"match {match.match_id} ended while it was being started"
            log.info(note)
            return Reply(200, ABORTED, note)
        if match.failure is not None:
            log.warning("start of %s refused: %s", match.match_id, match.failure)
            self._finish(match)
            return Reply(
                400, f"error: cannot play these rules: {match.failure}", match.failure
            )
        if match.machine is None:
            log.warning(
                "match %s: no reasoner is built yet; answering ready anyway",
                match.match_id,
            )
        elif match.machine is not match.fast:
            log.info(
                "match %s: %s; starting on %s", match.match_id, match.fast_note,
                match.machine.kind,
            )
        if loading is not None:
            loading.join(max(0.0, deadline - time.perf_counter()))
        return Reply(200, READY)

    def _play(self, match: Match, message: Message, received: float) -> Reply:
        deadline = received + self.budget(match.play_clock)
        moves = None if message.moves is None else tuple(message.moves)
        plays = self._plays
        with plays.lock:
            retry = plays.is_retry(match, moves)
            if not retry:
                previous = match.turn
                if previous is not None:
                    previous.end()  # a previous move's thinking, if still running, stops now
                if moves is not None:
                    match.receive(moves)
                    plays.last = moves
                step = match.steps
                turn = Turn(step, deadline)
                match.turn = turn
                plays.turns[step] = turn
        if retry:
            return self._replay(match, received, deadline)
        self._spawn(match, match.take_turn, (turn,), f"ggp-think-{match.match_id}-{step}")
        turn.done.wait(max(0.0, deadline - time.perf_counter()))
        turn.end()
        move, source, detail = self._answer(match, turn)
        move = plays.answer(match, step, move)
        why = "" if turn.machine == "propnet" or match.fast is not None else match.fast_note
        log.info(
            "match %s step %d: %s by %s%s (%.2fs)%s",
            match.match_id, step + 1, to_kif(move), source,
            f", {detail}" if detail else "", time.perf_counter() - received,
            f"; {why}" if why else "",
        )
        return Reply(200, format_reply(move))

    def _replay(self, match: Match, received: float, deadline: float) -> Reply:
        """A PLAY sent again (the same joint move as the last one): the same answer as
        the first time, and the joint move is not applied again.  If the first is still
        being answered, this one waits for it (until its own deadline)."""
        plays = self._plays
        step = match.steps
        turn = plays.turns.get(step)
        if turn is not None and step not in match.replies:
            turn.stop.wait(max(0.0, deadline - time.perf_counter()))
            with plays.lock:
                known = match.replies.get(step)
            if known is None:  # the first answer is not out yet: this one decides
                turn.end()
                known = plays.answer(match, step, self._answer(match, turn)[0])
        else:
            known = match.replies.get(step)
        if known is None:  # no turn at all: cannot happen after a first PLAY
            known = self._answer(match, Turn(step, deadline))[0]
        log.info(
            "match %s step %d: the same PLAY again; answered %s again (%.2fs)",
            match.match_id, step + 1, to_kif(known), time.perf_counter() - received,
        )
        return Reply(200, format_reply(known))

    def _answer(self, match: Match, turn: Turn) -> tuple[Term, str, str]:
        """The best move known for ``turn`` (see the module docstring's fallbacks)."""
        choice = turn.choice
        if choice is not None:
            move, source, detail = choice.read()
            return move, f"{source} on {turn.machine}", detail
        why = (
            "no reasoner yet" if match.machine is None
            else f"{match.machine.kind} did not find our legal moves in time"
        )
        if match.fallback:
            return match.fallback[0], "fallback", f"{why}; legal in every state"
        joints, legal = match.history()
        guess = likely_legal(legal, joints)
        if guess is not None:
            return guess, "guess", f"{why}; legal in an earlier state"
        if match.known:
            return match.known[0], "guess", f"{why}; a move the rules name"
        return "noop", "guess", f"{why}; the rules name no ground move"

    def _stop(self, match: Match, message: Message, received: float) -> Reply:
        deadline = received + self.budget(match.play_clock)
        if match.turn is not None:
            match.turn.end()
        if message.moves is not None:
            match.receive(tuple(message.moves))
        worker = self._spawn(
            match, match.settle, (deadline,), f"ggp-stop-{match.match_id}"
        )
        worker.join(max(0.0, deadline - time.perf_counter()))
        if worker.is_alive():
            log.warning("match %s stopped before its last joint move was applied", match.match_id)
        self._finish(match, deadline)
        return Reply(200, DONE)

    def _abort(self, match: Match) -> Reply:
        log.info("match %s aborted after %d joint move(s)", match.match_id, match.steps)
        self._finish(match)
        return Reply(200, ABORTED)

    def _end(self, match: Match) -> None:
        match.over.set()
        # A START still preparing the match waits on these: it answers at once.
        match.settled.set()
        match.ready.set()
        if match.turn is not None:
            match.turn.end()

    def _finish(self, match: Match, deadline: float | None = None) -> None:
        """Free the player and end every piece of work of ``match``, waiting for the
        building of the propnet to end for :data:`ABORT_WAIT` seconds at most (and not
        past ``deadline``, the reply's)."""
        self._end(match)
        with self._lock:
            if self.match is match:
                self.match = None
            self.last = match
        worker = match.worker
        if worker is not None and worker is not threading.current_thread():
            wait = ABORT_WAIT if deadline is None else deadline - time.perf_counter()
            worker.join(max(0.0, min(ABORT_WAIT, wait)))
            if worker.is_alive():
                log.warning(
                    "match %s: its reasoner is still being built %.1fs after the end",
                    match.match_id, ABORT_WAIT,
                )

    # -- background work -------------------------------------------------------------------

    def _spawn(
        self, match: Match, target: Callable[..., None], args: tuple[Any, ...], name: str
    ) -> threading.Thread:
        thread = threading.Thread(target=target, args=args, name=name, daemon=True)
        match.workers = [t for t in match.workers if t.is_alive()]
        match.workers.append(thread)
        thread.start()
        return thread

    def _launch(self, match: Match, deadline: float) -> None:
        """Start building the match's reasoners: the slow one and the propnet at once,
        each in a thread of its own."""
        match.building = (self.fast is not None) + (self.slow is not None)
        if self.fast is not None:
            match.worker = self._spawn(
                match, self._prepare_fast, (match, deadline), f"ggp-prepare-{match.match_id}"
            )
        else:
            match.fast_note = "the propnet is not used"
            match.settled.set()
        if self.slow is not None:
            self._spawn(
                match, self._prepare_slow, (match, deadline), f"ggp-prepare-slow-{match.match_id}"
            )

    def _profiled(
        self, match: Match, machine: StateMachine[Any], state: Any, seconds: float
    ) -> Thinker:
        """Metagaming on ``machine`` from ``state`` for at most ``seconds`` (nothing
        learnt if a playout meets broken rules: the search copes without)."""
        clock = Clock(time.perf_counter() + max(0.0, seconds), match.over)
        try:
            profile = profile_game(machine, state, clock, match.rng)
        except Exception as err:
            log.warning(
                "match %s: random playouts on %s failed (%s: %s); no profile",
                match.match_id, machine.kind, type(err).__name__, err,
            )
            profile = Profile()
        thinker = Thinker(
            GdlGame(machine), machine, match.role_index, profile, match.rng,
            mode=self.mode, table=TranspositionTable(),
            simultaneous=self.simultaneous, sampler=match.sampler,
        )
        if self.mode == "auto":  # metagaming chooses between UCT and alpha-beta
            thinker.method, why = choose_method(profile, self.budget(match.play_clock))
            log.info(
                "match %s: %s on %s (%s)", match.match_id,
                "UCT" if thinker.method == "mcts" else "alpha-beta", machine.kind, why,
            )
        return thinker

    def _built(self, match: Match) -> None:
        """One build ended: the match is ready if it has a machine, or failed if that
        was the last build and there is none."""
        with match.lock:
            match.building -= 1
            if match.machine is None and match.building == 0:
                notes = [n for n in (match.slow_note, match.fast_note) if n]
                match.failure = "no reasoner can play these rules: " + "; ".join(notes)
        if match.machine is not None or match.failure is not None:
            match.ready.set()

    def _playing(self, match: Match, thinker: Thinker) -> None:
        profile = thinker.profile
        log.info(
            "match %s: playing %s on %s; %d playouts, %.0f states/s, length %.1f, "
            "branching %.1f, %s goals",
            match.match_id, match.role, thinker.reasoner.kind, profile.playouts,
            profile.speed, profile.length, profile.branching,
            "informative" if profile.informative else "uninformative",
        )

    def _prepare_slow(self, match: Match, deadline: float) -> None:
        """Build the slow machine and play from it until the propnet is ready."""
        assert self.slow is not None
        try:
            machine: StateMachine[Any] = self.slow(match.description, self.build_budget(match))
            if not isinstance(machine, Reasoner):
                machine = LockedMachine(machine)
            state = machine.initial_state()
            # Short metagaming: the propnet, if it comes, is profiled again.
            seconds = min(self.metagame_cap / 2, deadline - time.perf_counter())
            thinker = self._profiled(match, machine, state, seconds)
            with match.lock:
                if match.machine is None:  # the propnet may have come first
                    match.machine, match.state, match.thinker = machine, state, thinker
                    self._playing(match, thinker)
        except Exception as err:  # the rules validate, yet this machine cannot play them
            match.slow_note = f"no slow reasoner ({type(err).__name__}: {err})"
            log.warning("match %s: %s", match.match_id, match.slow_note)
        finally:
            if self.fast is None:
                match.settled.set()
            self._built(match)

    def _prepare_fast(self, match: Match, deadline: float) -> None:
        """Build the propnet within its budget, profile the game on it, and switch the
        match over (:meth:`_switch`).  Ends at once when the match is over."""
        assert self.fast is not None
        compiled: Reasoner | None = None  # the propnet whose gates are compiled after
        try:
            try:
                with COLLECTOR.building():
                    fast = self.fast(match.description, self.build_budget(match))
            except BaseException as err:
                drain(err.__traceback__)
                raise
            built = time.perf_counter()
            seconds = min(self.metagame_cap, max(deadline - built, self.metagame_cap / 2))
            thinker = self._profiled(match, fast, fast.initial_state(), seconds)
            self._switch(match, fast, thinker, built)
            if isinstance(fast, Reasoner) and fast.backend == "numba":
                compiled = fast
        except Stopped:
            match.fast_note = "the match ended before the propnet was built"
            log.info("match %s: %s", match.match_id, match.fast_note)
        except Exception as err:  # the grounding wall, the budget, rules it cannot compile
            match.fast_note = f"no propnet ({type(err).__name__}: {err})"
            log.warning(
                "match %s: %s; the match plays on the slow reasoner",
                match.match_id, match.fast_note,
            )
        finally:
            match.settled.set()
            self._built(match)
        if compiled is not None and not match.over.is_set():
            # A thread of its own: a first compile (no cache on disk yet) takes a while,
            # and nothing waits for it; the playouts move over when it is done.
            threading.Thread(target=_compile_playouts, args=(match, compiled), daemon=True,
                             name=f"ggp-compile-{match.match_id}").start()

    def _switch(
        self, match: Match, fast: StateMachine[Any], thinker: Thinker, built: float
    ) -> None:
        """Make ``fast`` the match's machine: the state of the joint moves applied so far
        is carried over through its fluents; a turn under way thinks again on it."""
        with match.lock:
            if match.over.is_set():
                return
            self._playing(match, thinker)
            slow = match.machine
            if slow is None:
                match.state = fast.initial_state()
            else:
                match.state = fast.state_from_fluents(slow.fluents(match.state))
            match.machine, match.thinker, match.fast = fast, thinker, fast
        match.ready.set()
        if slow is not None:
            log.info(
                "match %s: switched from %s to %s after %.1f s (at step %d)",
                match.match_id, slow.kind, fast.kind, built - match.started,
                len(match.moves) + 1,
            )
        turn = match.turn
        if turn is not None and not turn.stop.is_set():
            self._spawn(
                match, match.take_turn, (turn,),
                f"ggp-think-{match.match_id}-{turn.step}-{fast.kind}",
            )


def _names(names: tuple[str, ...] | list[str], most: int = 8) -> str:
    """``a, b, c`` for a few names; the first ``most`` and a count for many."""
    shown = ", ".join(names[:most])
    return shown if len(names) <= most else f"{shown} and {len(names) - most} more"


def _compile_playouts(match: Match, reasoner: Reasoner) -> None:
    """Make the propnet's compiled gates with their kernels compiled, which UCT's playouts
    and batches move over to once they are there (:class:`plies.ggp.uct.Mast`,
    :meth:`plies.ggp.uct.UctView.random_playouts`); a failure leaves the playouts in
    Python."""
    started = time.perf_counter()
    try:
        reasoner.build_native()
    except Exception as err:
        log.warning("match %s: no compiled playouts (%s: %s)", match.match_id,
                    type(err).__name__, err)
        return
    log.info("match %s: compiled playouts ready in %.1f s", match.match_id,
             time.perf_counter() - started)
    started = time.perf_counter()
    try:
        parts = reasoner.build_parts()
    except Exception as err:
        log.warning("match %s: no search by parts (%s: %s)", match.match_id,
                    type(err).__name__, err)
        return
    if parts:
        sizes = ", ".join(str(len(f.moves)) for f, _ in parts)
        log.info("match %s: the game comes apart into %d independent parts (%s moves), "
                 "searched by part; found in %.1f s", match.match_id, len(parts), sizes,
                 time.perf_counter() - started)
