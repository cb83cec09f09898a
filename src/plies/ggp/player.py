"""A GGP player's match state machine: one message in, one reply out.

:class:`GgpPlayer` knows nothing about HTTP; :mod:`plies.ggp.server` feeds it the body of
each request with the time it was received.  It plays one match at a time:

* **START** parses and validates the rules, then builds the reasoner and profiles the
  game with random playouts (metagaming) in the background, and answers ``ready`` when
  that is done or when the start clock (less the margin) runs out, whichever is first:
  a large game may take longer to compile than the start clock allows, and the first
  PLAY then waits for it.  A START while a match runs is answered ``busy``; rules that do
  not parse, break a GDL restriction or name no such role get an HTTP 400 whose text
  names the problem, and the player stays free.
* **PLAY** first applies the joint move the manager sent (the moves *actually played*,
  which may differ from what this player answered if it was late), then thinks under
  the play clock and answers its move.  The reply leaves at ``receipt + budget(clock)``
  at the latest, however far the search got (:meth:`GgpPlayer.budget`).  A joint move
  that is illegal in the player's view is applied as sent, and one that cannot be
  applied at all is guessed, with a warning (:mod:`plies.ggp.sync`): the player never
  falls a step behind the manager.  While the reasoner is still being built, the joint
  moves are queued and applied once it is; a PLAY then gets a move that is legal in
  every state if the rules have one (:func:`plies.ggp.sync.always_legal`), else HTTP 503.
* **STOP** applies the final joint move and logs the goals; **ABORT** ends the match.
  Both free the player and end all work of the match: its search, its playouts and the
  building of its reasoner (grounding stops within milliseconds of the ABORT).  PLAY,
  STOP and ABORT naming another match (or none) are answered ``busy``, as ggp-base does.
* **INFO** / **PING** are answered at any time, also while a move is being computed.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from plies.budget import Budget, Stopped
from plies.errors import PliesError
from plies.gdl.game import GdlGame
from plies.gdl.parser import description_from_terms
from plies.gdl.reasoner import Reasoner
from plies.gdl.terms import Description, Term, to_kif
from plies.gdl.validator import check
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
from plies.ggp.strategy import Choice, Clock, Mode, Thinker, choose_move, profile_game
from plies.ggp.sync import always_legal, apply_joint
from plies.search.engine import TranspositionTable

log = logging.getLogger("plies.ggp")

DEFAULT_MARGIN = 0.5
"""Seconds kept back from every clock for the network and the manager (default)."""

MIN_FRACTION = 0.25
"""However large the margin, at least this fraction of a clock is used for thinking."""

METAGAME_CAP = 1.0
"""Metagaming playouts stop after this many seconds even if the start clock is longer."""

BUILD_PLAY_CLOCKS = 3
"""Building the reasoner may take the start clock (less the margin) plus this many play
clocks (and at least :data:`BUILD_FLOOR`); a description that needs longer is given up
(its match cannot be played)."""

BUILD_FLOOR = 20.0
"""However short the clocks, building a reasoner may take this many seconds: a large
game (breakthrough compiles in 3 to 6 s) stays playable after a few answers without it."""

BUILD_CAP = 600.0
"""However long the clocks, building a reasoner never takes more seconds than this."""

ABORT_WAIT = 0.5
"""Seconds an ABORT or STOP waits for the match's background work to end (it stops
within milliseconds of being told; this only bounds a reply if it did not)."""

@dataclass(frozen=True, slots=True)
class Reply:
    """What to send back: an HTTP status, the body, and a note for logs (not sent)."""

    status: int
    body: str
    note: str = ""


@dataclass
class Match:
    """The state of one match.

    ``reasoner``, ``state`` and ``thinker`` are filled in by the background preparation,
    which sets ``ready`` when it ends (``failure`` says why if it failed).
    ``pending`` holds joint moves received but not yet applied (while preparing);
    ``moves`` the joint moves applied (as the rules spell them, guesses included),
    ``state`` the state they lead to.  ``cancel`` stops the current move's thinking;
    ``over`` is set when the match ends (STOP, ABORT, the player closing) and stops all
    of its work, the building of the reasoner included.  ``worker`` is the thread that
    builds the reasoner; ``replied`` the move last answered (used to guess our own move
    if the manager's cannot be read).
    """

    match_id: str
    role: str
    role_index: int
    description: Description
    start_clock: float
    play_clock: float
    rng: random.Random
    reasoner: Reasoner | None = None
    state: Any = None
    thinker: Thinker | None = None
    ready: threading.Event = field(default_factory=threading.Event)
    failure: str | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    cancel: threading.Event = field(default_factory=threading.Event)
    pending: list[tuple[Term, ...]] = field(default_factory=list)
    moves: list[tuple[Term, ...]] = field(default_factory=list)
    goals: tuple[int, ...] | None = None
    over: threading.Event = field(default_factory=threading.Event)
    worker: threading.Thread | None = None
    replied: Term | None = None
    fallback: tuple[Term, ...] = ()

    @property
    def steps(self) -> int:
        """Joint moves received so far."""
        return len(self.moves) + len(self.pending)


class GgpPlayer:
    """A General Game Playing player (see the module docstring for the message flow).

    ``margin`` seconds are kept back from every clock (at most ``1 - MIN_FRACTION`` of
    it); ``mode`` forces alpha-beta, flat Monte Carlo or UCT ("mcts") instead of the
    automatic choice (metagaming's, :func:`plies.ggp.uct.choose_method`);
    ``seed`` fixes the random playouts.  :meth:`handle` is thread-safe.
    """

    def __init__(
        self,
        name: str = "plies",
        *,
        margin: float = DEFAULT_MARGIN,
        mode: Mode = "auto",
        seed: int | None = None,
        metagame_cap: float = METAGAME_CAP,
    ) -> None:
        if not margin >= 0:
            raise ValueError(f"margin must be >= 0 seconds, got {margin}")
        self.name = name
        self.margin = margin
        self.mode: Mode = mode
        self.metagame_cap = metagame_cap
        self.rng = random.Random(seed)
        self.match: Match | None = None
        self.last: Match | None = None  # the previous match, for inspection after STOP
        self._lock = threading.Lock()
        self._starting = False

    # -- the public surface ------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """True while a match is running or being started."""
        return self._starting or self.match is not None

    def budget(self, clock: float) -> float:
        """Seconds allowed for thinking on a ``clock``-second clock, counted from receipt:
        the clock less the margin, but never less than ``MIN_FRACTION`` of it."""
        return max(clock - self.margin, clock * MIN_FRACTION)

    def handle(self, text: str, received: float | None = None) -> Reply:
        """Answer one message; ``received`` is its ``time.perf_counter()`` receipt time.

        Malformed or impossible requests get status 400 with ``error: ...``; nothing
        raises.
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
            match.cancel.set()
            match.over.set()
        self.match = None

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
        with self._lock:
            if self.busy:
                current = self.match.match_id if self.match else "another match"
                note = f"start of {message.match_id} refused: already playing {current}"
                log.warning(note)
                return Reply(200, BUSY, note)
            self._starting = True
        try:
            assert message.match_id is not None and message.role is not None
            assert message.start_clock is not None and message.play_clock is not None
            desc = description_from_terms(message.rules, f"<rules of {message.match_id}>")
            for warning in check(desc):
                log.info("rules of %s: %s", message.match_id, warning)
            if message.role not in desc.roles:
                raise ProtocolError(
                    f"{message.role!r} is not a role of this game; its roles are "
                    + ", ".join(desc.roles)
                )
            match = Match(
                message.match_id, message.role, desc.roles.index(message.role), desc,
                message.start_clock, message.play_clock, random.Random(self.rng.random()),
            )
            match.fallback = always_legal(desc, match.role)
            deadline = received + self.budget(message.start_clock)
            worker = threading.Thread(
                target=self._prepare, args=(match, deadline),
                name=f"ggp-prepare-{match.match_id}", daemon=True,
            )
            match.worker = worker
            worker.start()
            if match.ready.wait(max(0.0, deadline - time.perf_counter())) and match.failure:
                match.over.set()
                raise ProtocolError(match.failure)
            if not match.ready.is_set():
                log.warning(
                    "match %s: the reasoner is still being built; answering ready anyway",
                    match.match_id,
                )
            self.match = match
            return Reply(200, READY)
        except PliesError as err:
            log.warning("start of %s refused: %s", message.match_id, err)
            return Reply(400, f"error: cannot play these rules: {err}", str(err))
        finally:
            self._starting = False

    def build_seconds(self, start_clock: float, play_clock: float) -> float:
        """Seconds allowed for building a match's reasoner: the start clock's budget plus
        :data:`BUILD_PLAY_CLOCKS` play clocks (the first PLAYs wait for it), at least
        :data:`BUILD_FLOOR` and at most :data:`BUILD_CAP`."""
        seconds = self.budget(start_clock) + BUILD_PLAY_CLOCKS * self.budget(play_clock)
        return min(BUILD_CAP, max(seconds, BUILD_FLOOR, 0.001))

    def _prepare(self, match: Match, deadline: float) -> None:
        """Metagaming, in the background: build the reasoner, then profile the game.

        The building has a budget (:meth:`build_seconds`) and stops as soon as the match
        is over (``match.over``), so no grounding outlives its match.
        """
        try:
            budget = Budget(
                seconds=self.build_seconds(match.start_clock, match.play_clock),
                stop=match.over,
            )
            reasoner = Reasoner(match.description, budget=budget)
            match.state = reasoner.initial_state()
            clock = Clock(min(deadline, time.perf_counter() + self.metagame_cap), match.cancel)
            profile = profile_game(reasoner, match.state, clock, match.rng)
            match.thinker = Thinker(
                GdlGame(reasoner), reasoner, match.role_index, profile, match.rng,
                mode=self.mode, table=TranspositionTable(),
            )
            if self.mode == "auto":  # metagaming chooses between UCT and alpha-beta
                from plies.ggp.uct import choose_method

                method, why = choose_method(profile, self.budget(match.play_clock))
                match.thinker.method = method
                log.info("match %s: %s (%s)", match.match_id,
                         "UCT" if method == "mcts" else "alpha-beta", why)
            match.reasoner = reasoner
            log.info(
                "match %s: playing %s; %d playouts, %.0f states/s, length %.1f, "
                "branching %.1f, %s goals",
                match.match_id, match.role, profile.playouts, profile.speed,
                profile.length, profile.branching,
                "informative" if profile.informative else "uninformative",
            )
        except Stopped:
            match.failure = "the match ended before its reasoner was built"
            log.info("match %s: %s", match.match_id, match.failure)
        except Exception as err:  # the rules parse and validate, yet cannot be played
            match.failure = f"{type(err).__name__}: {err}"
            log.warning("match %s cannot be played: %s", match.match_id, match.failure)
        finally:
            match.ready.set()

    def _play(self, match: Match, message: Message, received: float) -> Reply:
        deadline = received + self.budget(match.play_clock)
        match.cancel.set()  # a previous move's search, if still running, stops now
        with match.lock:
            match.cancel = threading.Event()
            self._receive(match, message.moves)
            reasoner = self._ready(match, deadline)
            if reasoner is None:
                return self._unready(match, received)
            assert match.thinker is not None
            state = match.state
            legal = reasoner.legal(state, match.role_index)
            if reasoner.is_terminal(state) or not legal:
                # The manager plays on where our view says it cannot: answer something
                # the rules know rather than an error; the manager decides what counts.
                move = legal[0] if legal else reasoner.move_table[match.role_index][0]
                log.warning(
                    "match %s step %d: %s in our view, yet the manager plays on; answering %s",
                    match.match_id, match.steps + 1,
                    "a terminal state" if legal else f"no legal move for {match.role}",
                    to_kif(move),
                )
                match.replied = move
                return Reply(200, format_reply(move))
            clock = Clock(deadline, match.cancel)
            choice = Choice(legal[0])
            worker = threading.Thread(
                target=choose_move, args=(match.thinker, state, clock, choice),
                name=f"ggp-think-{match.match_id}-{match.steps}", daemon=True,
            )
            worker.start()
            choice.done.wait(max(0.0, deadline - time.perf_counter()))
            match.cancel.set()
            move, source, detail = choice.read()
            match.replied = move
            log.info(
                "match %s step %d: %s by %s%s (%.2fs)",
                match.match_id, match.steps + 1, to_kif(move), source,
                f", {detail}" if detail else "", time.perf_counter() - received,
            )
            return Reply(200, format_reply(move))

    def _unready(self, match: Match, received: float) -> Reply:
        """The answer to a PLAY when there is no reasoner (not built yet, or it cannot be):
        a move legal in every state if the rules have one, else 503 (or 400 if the match
        cannot be played at all).  The joint moves stay queued either way."""
        if match.fallback:
            move = match.fallback[0]
            match.replied = move
            log.warning(
                "match %s step %d: no reasoner yet; answering %s, legal in every state "
                "(%.2fs)", match.match_id, match.steps + 1, to_kif(move),
                time.perf_counter() - received,
            )
            return Reply(200, format_reply(move))
        match.replied = None  # no move of ours this step
        if match.failure is not None:
            return Reply(400, f"error: match {match.match_id} cannot be played: {match.failure}")
        return Reply(503, f"error: still building the reasoner for {match.match_id}")

    def _stop(self, match: Match, message: Message, received: float) -> Reply:
        match.cancel.set()
        with match.lock:
            try:
                self._receive(match, message.moves)
                reasoner = self._ready(match, received + self.budget(match.play_clock))
                if reasoner is not None and reasoner.is_terminal(match.state):
                    match.goals = tuple(
                        _goal(reasoner, match.state, r) for r in range(len(reasoner.roles))
                    )
                    log.info(
                        "match %s over after %d steps; goals %s", match.match_id,
                        match.steps, " ".join(
                            f"{r}={g}" for r, g in zip(reasoner.roles, match.goals, strict=True)
                        ),
                    )
                else:
                    log.warning("match %s stopped in a non-terminal state", match.match_id)
            finally:
                self._finish(match)
        return Reply(200, DONE)

    def _abort(self, match: Match) -> Reply:
        match.cancel.set()
        match.over.set()
        with match.lock:
            log.info("match %s aborted after %d joint move(s)", match.match_id, match.steps)
            self._finish(match)
        return Reply(200, ABORTED)

    def _finish(self, match: Match) -> None:
        """Free the player and end every piece of work of ``match``."""
        match.cancel.set()
        match.over.set()
        with self._lock:
            if self.match is match:
                self.match = None
            self.last = match
        worker = match.worker
        if worker is not None and worker is not threading.current_thread():
            worker.join(ABORT_WAIT)
            if worker.is_alive():
                log.warning(
                    "match %s: its reasoner is still being built %.1fs after the end",
                    match.match_id, ABORT_WAIT,
                )

    # -- the state of the match ----------------------------------------------------------

    def _receive(self, match: Match, moves: Sequence[Term] | None) -> None:
        """Queue the joint move the manager says was played (it is authoritative; it is
        applied, or guessed where it cannot be, once the reasoner is ready)."""
        if moves is not None:
            match.pending.append(tuple(moves))

    def _ready(self, match: Match, deadline: float) -> Reasoner | None:
        """The reasoner, once built (waiting until ``deadline``), with every queued joint
        move applied to ``match.state``; None if it is not built by then or cannot be."""
        if not match.ready.wait(max(0.0, deadline - time.perf_counter())):
            log.warning("match %s: no reasoner yet", match.match_id)
            return None
        if match.failure is not None:
            log.warning("match %s cannot be played: %s", match.match_id, match.failure)
            return None
        reasoner = match.reasoner
        assert reasoner is not None
        while match.pending:
            sent = match.pending.pop(0)
            if reasoner.is_terminal(match.state):
                log.warning(
                    "match %s: a joint move after a terminal state in our view; applied",
                    match.match_id,
                )
            # Our own reply of this step is only known for the step just answered.
            replied = match.replied if not match.pending else None
            applied = apply_joint(
                reasoner, match.state, sent, mine=match.role_index, replied=replied
            )
            for problem in applied.problems:
                log.warning("match %s step %d: %s", match.match_id, len(match.moves) + 1, problem)
            match.state = applied.state
            match.moves.append(applied.joint)
        return reasoner


def _goal(reasoner: Reasoner, state: Any, role: int) -> int:
    values = reasoner.goal_values(state, role)
    return values[0] if len(values) == 1 else 0
