"""What the GGP player thinks with: the match's :class:`Thinker`, its :class:`Clock` and
its :class:`Choice`.

Every way of choosing a move works on these pieces: the steps of
:mod:`plies.ggp.strategy` (alpha-beta, Monte Carlo), the stage games of simultaneous
steps (:mod:`plies.ggp.stage`) and UCT (:mod:`plies.ggp.uct`).

* **The clock** (:class:`Clock`): a deadline and a cancel flag.  The searches take it as
  their ``stop`` signal; the player's own loops call :meth:`Clock.check`, which raises
  :class:`TimeUp`.
* **The choice** (:class:`Choice`): thinking is anytime, so the best move found so far
  is always in it, and the caller answers with it whenever the clock runs out.
* **The match** (:class:`Thinker`): the game, its reasoner, our role, metagaming's
  :class:`Profile` of the game (from :func:`plies.ggp.strategy.profile_game`), the
  options, and what is kept from move to move (the transposition table, the UCT tree).
* **The game as a search scores it** (:class:`GoalEvaluated`): a depth cut-off gets the
  goal value the rules give the state when goals are informative, else :data:`NEUTRAL`.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from plies.gdl.game import GdlGame
from plies.gdl.machine import StateMachine
from plies.gdl.terms import Term
from plies.search.craft import TranspositionTable
from plies.wrappers import GameWrapper

MIN_SEARCH_DEPTH = 1.5
"""Below this estimated depth (steps, see :meth:`Profile.depth`) the player does not
search at all, only samples."""

MAX_PLAYOUT_STEPS = 10_000
"""A playout longer than this is abandoned (valid GDL games terminate much sooner)."""

NEUTRAL = 50.0
"""The evaluation of a non-terminal state when goals are not informative."""

WIN = 100.0
"""The highest goal value in GDL."""


class TimeUp(Exception):
    """Raised by :meth:`Clock.check` in the player's own loops (playouts) at the deadline."""


class Clock:
    """A deadline (``time.perf_counter`` seconds) plus a cancel flag.

    A clock is a stop signal (:meth:`is_set`): the searches take it as ``stop=`` and
    return their last completed iteration once it is set.  The player's own loops
    (random playouts) call :meth:`check`, which raises :class:`TimeUp`.
    """

    def __init__(self, deadline: float, cancel: threading.Event | None = None) -> None:
        self.deadline = deadline
        self.cancel = cancel if cancel is not None else threading.Event()
        self.soft: float | None = None  # an earlier deadline the caller may set

    def left(self) -> float:
        """Seconds until the deadline (negative once it has passed)."""
        return self.deadline - time.perf_counter()

    def expired(self) -> bool:
        now = time.perf_counter()
        return (
            self.cancel.is_set()
            or now > self.deadline
            or (self.soft is not None and now > self.soft)
        )

    def is_set(self) -> bool:
        """True once the deadline (or the soft one) has passed or the move was cancelled."""
        return self.expired()

    def check(self) -> None:
        if self.expired():
            raise TimeUp


# --- the game as a search scores it ------------------------------------------------------


def safe_goal(reasoner: StateMachine[Any], state: Any, role: int) -> float | None:
    """The goal value of ``role`` at ``state``, or None where the rules define none
    (or, wrongly, several)."""
    values = reasoner.goal_values(state, role)
    return float(values[0]) if len(values) == 1 else None


class GoalEvaluated(GameWrapper[Any, Any]):
    """A :class:`~plies.gdl.game.GdlGame` scored at a depth cut-off by its goal values.

    Everything is the game's own (players, ``to_move`` with SIMULTANEOUS where several
    roles have a choice, transitions, goals) except :meth:`evaluate`.  The clock is not
    the game's business: the searches take it as their ``stop`` signal.
    """

    def __init__(self, game: GdlGame, reasoner: StateMachine[Any], informative: bool) -> None:
        super().__init__(game)
        self.reasoner = reasoner
        self.informative = informative
        self.utility_range = (0.0, WIN)

    def player_actions(self, state: Any, player: int) -> Sequence[Any]:
        return self.game.player_actions(state, player)

    def evaluate(self, state: Any, player: int) -> float:
        """The utility at a terminal state; at a depth cut-off the goal value the rules
        give the state when goals are informative (:data:`NEUTRAL` where they give none),
        else :data:`NEUTRAL`: an uninformative goal such as connectFour's 0 for every
        unfinished board would make every cut-off look like a loss."""
        if self.game.is_terminal(state):
            return float(self.game.utility(state, player))
        if not self.informative:
            return NEUTRAL
        value = safe_goal(self.reasoner, state, player)
        return NEUTRAL if value is None else min(WIN, max(0.0, value))


# --- metagaming's estimates --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Profile:
    """What metagaming learnt about a game from random playouts.

    ``speed``: reasoner states per second (one state = every role's legal moves plus one
    transition).  ``length``: mean number of steps of a playout.  ``branching``: mean
    number of joint moves at a step where somebody has a choice.  ``informative``: some
    role's goal value changed between non-terminal states, so the cut-off evaluation
    carries information.  ``roles``: the number of roles.  ``simultaneous``: the share
    of those steps where several roles had a choice.  ``zero_sum``: every terminal state
    the playouts reached gave goals with the same sum (constant-sum, as GDL's 0..100
    zero-sum games are; False when none was reached).
    """

    playouts: int = 0
    steps: int = 0
    speed: float = 0.0
    length: float = 0.0
    branching: float = 1.0
    informative: bool = False
    seconds: float = 0.0
    roles: int = 0
    simultaneous: float = 0.0
    zero_sum: bool = False

    def depth(self, seconds: float) -> float:
        """The depth a full-width search is estimated to complete in ``seconds``, in
        steps (plies in a turn-taking game; a simultaneous step counts once with all its
        joint moves): ``log(speed * seconds) / log(branching)``."""
        nodes = self.speed * max(seconds, 0.0)
        if nodes <= 1.0:
            return 0.0
        if self.branching <= 1.0:
            return math.inf
        return math.log(nodes) / math.log(self.branching)


# --- one match ---------------------------------------------------------------------------

Source = Literal["forced", "fallback", "alphabeta", "montecarlo", "mixed", "mcts"]
Mode = Literal["auto", "alphabeta", "montecarlo", "mcts"]
Method = Literal["", "alphabeta", "mcts"]
Simultaneous = Literal["mixed", "pessimistic"]
"""How a step where several roles choose at once is played: a mixed strategy of its
stage game (:mod:`plies.ggp.stage`), or the pessimistic sequentialisation (pure)."""


@dataclass
class Choice:
    """The best move found so far, updated while the player thinks
    (:func:`plies.ggp.strategy.choose_move`).

    ``done`` is set when thinking ends (solved, out of time, or cancelled).
    """

    move: Term
    source: Source = "fallback"
    detail: str = ""
    done: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def offer(self, move: Term, source: Source, detail: str = "") -> None:
        with self.lock:
            self.move, self.source, self.detail = move, source, detail

    def read(self) -> tuple[Term, Source, str]:
        with self.lock:
            return self.move, self.source, self.detail


@dataclass
class Thinker:
    """Everything thinking about a move needs about one match
    (:func:`plies.ggp.strategy.choose_move`).

    ``table`` is the match's transposition table (values are from ``role``'s point of
    view, so it stays valid from move to move); ``mode`` forces one method instead of
    the automatic choice (:mod:`plies.ggp.strategy`); ``max_playouts`` bounds the Monte
    Carlo stage (for reproducible results).  ``simultaneous`` says how steps where several
    roles choose are played (:data:`Simultaneous`); ``sampler`` draws the mixed
    strategies' moves (default ``rng``; a generator of its own keeps the draws
    reproducible when the playouts' count depends on the clock).  ``method`` is
    metagaming's choice for ``mode`` "auto" (:func:`plies.ggp.uct.choose_method`; ""
    keeps the steps of :mod:`plies.ggp.strategy`); "mcts" (or ``mode="mcts"``) thinks with UCT
    (:mod:`plies.ggp.uct`) in the match's tree, ``tree``, kept from move to move.  With
    ``simultaneous="mixed"`` a step where several roles choose is played as a stage game
    in every mode but ``mode="mcts"``, where decoupled UCT draws from its visit counts.
    """

    game: GdlGame
    reasoner: StateMachine[Any]
    role: int
    profile: Profile
    rng: random.Random
    mode: Mode = "auto"
    table: TranspositionTable | None = None
    max_playouts: int | None = None
    simultaneous: Simultaneous = "mixed"
    sampler: random.Random | None = None
    method: Method = ""
    tree: Any = None
