"""Mixed strategies at simultaneous steps: the stage game, its linear program, a draw.

Where several roles choose at once, a pure move can be exploited: an opponent who learns
it beats it every time (in roshambo, "paper" in every round loses to "scissors" in every
round).  The player therefore plays the **stage game** of the step (von Neumann; the
"stacked matrix games" of simultaneous-move search):

* **Rows** are our legal moves, **columns** the other roles' joint replies (with more
  than two roles, the others together are one opponent: a coalition that may correlate
  its choices), and each entry is a value for *our* role of the state that joint move
  leads to.
* **The values** come from one of two sources, named in the log:

  - *backward induction*: :func:`plies.simultaneous` (through the policy layer) under
    iterative deepening within the clock, over the game as the player scores it at a
    depth cut-off (:class:`~plies.ggp.thinker.GoalEvaluated`): every deeper
    simultaneous step is itself a stage game solved for its mixed value, turn steps are
    paranoid minimax.  The root's matrix is exactly "the search's value of every
    successor", and the search solves it;
  - *Monte Carlo*: when the tree is too deep to search (as estimated by metagaming), or
    goals are uninformative and the search has not settled the step by half the clock,
    every cell gets random playouts in turn and holds their mean goal.

* **The strategy** is our **security strategy**: the mixed strategy that maximises the
  value we are sure of whatever the columns do (:func:`plies.solve_matrix_game`, an LP
  solved by SciPy's HiGHS; one code path with the rest of plies).  For two roles whose
  goals sum to a constant this is a Nash equilibrium strategy and its value the game's
  value at that step; otherwise it is what we can guarantee against opponents who
  minimise our goal, not a best reply to what they actually want.
* **The move** is drawn from the strategy by inverse transform sampling with one uniform
  number per step, taken from the match's seeded generator before thinking starts: the
  same seed and the same strategies give the same moves, however many search iterations
  the clock allowed.

It is anytime: a move drawn uniformly from our legal moves is ready at once, and each
finished search iteration (or each periodic solution of the Monte Carlo matrix) offers
its drawn move to the :class:`~plies.ggp.thinker.Choice`.  The option
``simultaneous="pessimistic"`` keeps the older behaviour instead
(:class:`plies.wrappers.Sequentialized`: we choose first and the others answer knowing our
move, a pure strategy).
"""

from __future__ import annotations

import contextlib
import logging
import math
import random
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

from plies.gdl.gatelayout import BATCH_LANES
from plies.gdl.gatenet import STATUS
from plies.gdl.machine import StateMachine
from plies.gdl.reasoner import MoveDefinitionError, Reasoner
from plies.gdl.terms import Term, to_kif
from plies.ggp.thinker import (
    MAX_PLAYOUT_STEPS,
    MIN_SEARCH_DEPTH,
    Choice,
    Clock,
    GoalEvaluated,
    Thinker,
    TimeUp,
)
from plies.policy import SearchRequest, plan
from plies.search import Limit, SearchResult, solve_matrix_game
from plies.search.simultaneous import MissingDependencyError

log = logging.getLogger("plies.ggp")

MAX_CELLS = 4096
"""A stage game with more joint moves than this is not solved: the step is played as
the pessimistic sequentialisation (the matrix would be too thin to fill in a play clock)."""

SOLVE_EVERY = 0.05
"""Seconds between two solutions of the Monte Carlo matrix while its playouts run."""

SHOWN = 8
"""At most this many moves are named when a strategy is described in the log."""


@dataclass(frozen=True, slots=True)
class StageGame:
    """The matrix of a simultaneous step: ``own`` moves of ``role`` (rows) against the
    other roles' joint ``replies`` (columns, each one move per other role in role
    order)."""

    role: int
    own: tuple[Term, ...]
    replies: tuple[tuple[Term, ...], ...]

    @property
    def cells(self) -> int:
        return len(self.own) * len(self.replies)

    def joint(self, row: int, column: int) -> tuple[Term, ...]:
        """The joint move (one move per role, in role order) of a cell."""
        reply = self.replies[column]
        return (*reply[: self.role], self.own[row], *reply[self.role :])


def stage_game(legal: Sequence[Sequence[Term]], role: int) -> StageGame:
    """The stage game of a step whose roles have the ``legal`` moves (in role order)."""
    others = [moves for r, moves in enumerate(legal) if r != role]
    return StageGame(role, tuple(legal[role]), tuple(product(*others)))


@dataclass(frozen=True, slots=True)
class MixedStrategy:
    """A probability for each of our moves, and the value it secures (our goal scale).

    ``probabilities`` are in the order of ``moves`` and sum to one.
    """

    moves: tuple[Term, ...]
    probabilities: tuple[float, ...]
    value: float

    def sample(self, u: float) -> Term:
        """The move that ``u`` (uniform in [0, 1)) draws: the first move whose cumulative
        probability exceeds ``u``.  A move of probability zero is never drawn."""
        total = 0.0
        last = self.moves[0]
        for move, p in zip(self.moves, self.probabilities, strict=True):
            if p <= 0.0:
                continue
            total += p
            last = move
            if u < total:
                return move
        return last  # round-off: u at or beyond the sum

    def describe(self) -> str:
        """``mixed (paper 0.33, rock 0, scissors 0.33, well 0.33), value 50``."""
        ranked = sorted(
            range(len(self.moves)), key=lambda k: -self.probabilities[k]
        )[:SHOWN]
        shown = sorted(ranked)  # the rules' order reads best
        parts = [f"{to_kif(self.moves[k])} {self.probabilities[k]:.2g}" for k in shown]
        if len(self.moves) > len(shown):
            parts.append(f"{len(self.moves) - len(shown)} more")
        return f"mixed ({', '.join(parts)}), value {self.value:.4g}"


def security_strategy(stage: StageGame, matrix: Sequence[Sequence[float]]) -> MixedStrategy:
    """Our maximin mixed strategy in ``matrix`` (``matrix[i][j]``: our value when we play
    ``stage.own[i]`` and the others ``stage.replies[j]``), by the LP of
    :func:`plies.solve_matrix_game`.  A strictly dominated move gets probability zero.

    Raises:
        MissingDependencyError: the matrix has no saddle point and SciPy is missing.
    """
    solution = solve_matrix_game(matrix)
    return MixedStrategy(stage.own, solution.row, solution.value)


def _from_search(stage: StageGame, result: SearchResult) -> MixedStrategy | None:
    """The root strategy of a :func:`plies.simultaneous` result, in the stage's order."""
    strategy = result.strategy
    if not strategy or any(move not in strategy for move in stage.own):
        return None
    return MixedStrategy(stage.own, tuple(strategy[m] for m in stage.own), result.value)


def preload() -> threading.Thread:
    """Import SciPy's LP solver in a background thread (about half a second, once), so
    that the first simultaneous step does not spend its play clock on it."""

    def load() -> None:
        # Without SciPy the first stage that needs the LP says what to install.
        with contextlib.suppress(ImportError):
            import scipy.optimize  # type: ignore[import-untyped,import-not-found,unused-ignore]  # noqa: F401

    worker = threading.Thread(target=load, name="ggp-preload-lp", daemon=True)
    worker.start()
    return worker


# --- playing a step -------------------------------------------------------------------------


def play_stage(t: Thinker, state: Any, clock: Clock, choice: Choice) -> bool:
    """Think about a simultaneous step as a stage game until solved or out of time.

    The drawn move of the best strategy so far is kept in ``choice`` (source ``mixed``,
    detail: where the values came from, the strategy and its value).  Returns False,
    having done nothing, when the stage is too large (:data:`MAX_CELLS`) or the LP
    solver is missing: the caller then plays the pessimistic sequentialisation.
    """
    legal = t.reasoner.legal_all(state)
    cells = math.prod(len(moves) for moves in legal)  # before building the columns
    if cells > MAX_CELLS:
        log.info("stage game of %d joint moves: too large, played pessimistically", cells)
        return False
    stage = stage_game(legal, t.role)
    u = (t.sampler or t.rng).random()  # one draw per step, whatever the clock allows
    # Until a strategy is found: a uniform draw, never the same pure move every step.
    first = stage.own[min(int(u * len(stage.own)), len(stage.own) - 1)]
    choice.offer(first, "mixed", "uniform draw")
    profile = t.profile
    budget = clock.left()
    hopeless = profile.playouts > 0 and profile.depth(budget) < MIN_SEARCH_DEPTH
    try:
        if t.mode == "montecarlo" or (t.mode == "auto" and hopeless):
            _montecarlo(t, state, stage, clock, choice, u)
            return True
        settled = _backward_induction(t, state, stage, clock, choice, u, soft=t.mode == "auto")
        if not settled:
            _montecarlo(t, state, stage, clock, choice, u)
    except MissingDependencyError as err:
        log.warning("%s; playing the pessimistic sequentialisation", err)
        return False
    return True


def _backward_induction(
    t: Thinker, state: Any, stage: StageGame, clock: Clock, choice: Choice, u: float,
    *, soft: bool,
) -> bool:
    """Iterative-deepening :func:`plies.simultaneous` into ``choice``; True when its
    strategy stands: exact, or goals informative (then it runs to the deadline).

    With uninformative goals (and ``soft``) a depth cut-off scores every unfinished
    state the same, so the search gets half the clock to settle the step and the rest
    goes to Monte Carlo values (False).
    """
    informative = t.profile.informative or t.profile.playouts == 0
    if soft and not informative:
        clock.soft = time.perf_counter() + clock.left() / 2
    reached: list[SearchResult] = []

    def report(result: SearchResult) -> None:
        strategy = _from_search(stage, result)
        if strategy is None:
            return
        reached.append(result)
        exact = " (exact)" if result.exact else ""
        detail = (
            f"backward induction depth {result.stats.depth}{exact}: {strategy.describe()}"
        )
        choice.offer(strategy.sample(u), "mixed", detail)

    left = clock.left()
    if left > 0:
        game = GoalEvaluated(t.game, t.reasoner, t.profile.informative)
        request = SearchRequest("simultaneous", Limit(time=left), player=t.role)
        plan(game, state, request).run(game, state, stop=clock, on_iteration=report)
    clock.soft = None
    if not soft or informative:
        return True
    return bool(reached) and reached[-1].exact


def _montecarlo(
    t: Thinker, state: Any, stage: StageGame, clock: Clock, choice: Choice, u: float
) -> int:
    """Fill the stage matrix with the mean goals of random playouts, cell by cell, and
    offer the drawn move of its security strategy every :data:`SOLVE_EVERY` seconds
    once every cell has a playout (and at the end with ``t.max_playouts``).  Returns
    the number of playouts."""
    rows, columns = len(stage.own), len(stage.replies)
    totals = [[0.0] * columns for _ in range(rows)]
    counts = [[0] * columns for _ in range(rows)]
    limit = t.max_playouts
    playouts = 0
    solved_at = -math.inf

    def solve() -> None:
        matrix = [
            [totals[i][j] / counts[i][j] for j in range(columns)] for i in range(rows)
        ]
        strategy = security_strategy(stage, matrix)
        detail = f"Monte Carlo, {playouts} playouts over {stage.cells} joint moves: "
        choice.offer(strategy.sample(u), "mixed", detail + strategy.describe())

    # Playouts in compiled batches (64 at once) once the propnet has its gates compiled.
    native = t.reasoner.native_built() if isinstance(t.reasoner, Reasoner) else None
    cells = [(i, j) for i in range(rows) for j in range(columns)]
    try:
        while limit is None or playouts < limit:
            if native is not None:
                per = max(1, BATCH_LANES // len(cells))
                if limit is not None:
                    per = max(1, min(per, (limit - playouts) // len(cells)))
                starts = [t.reasoner.next_state(state, stage.joint(i, j)) for i, j in cells]
                batch = native.batch(starts, per, seed=t.rng.getrandbits(32),
                                     limit=MAX_PLAYOUT_STEPS)
                for p in range(len(starts) * per):
                    status = STATUS[int(batch.status[p])]
                    if status == "no legal move":
                        who = t.reasoner.roles[int(batch.goals[p, 0])]
                        raise MoveDefinitionError(
                            f"role {who} has no legal move in a non-terminal state reached "
                            f"by random moves from {t.reasoner.format_state(starts[p // per])}"
                        )
                    if status == "terminal":
                        i, j = cells[p // per]
                        totals[i][j] += max(0.0, float(batch.goals[p, t.role]))
                        counts[i][j] += 1
                        playouts += 1
                clock.check()
            for i in range(rows if native is None else 0):
                for j in range(columns):
                    goal = _playout(t.reasoner, state, stage.joint(i, j), t.role, clock, t.rng)
                    if goal is not None:
                        totals[i][j] += goal
                        counts[i][j] += 1
                        playouts += 1
            now = time.perf_counter()
            if now - solved_at >= SOLVE_EVERY and all(all(row) for row in counts):
                solve()
                solved_at = now
    except TimeUp:
        return playouts
    if all(all(row) for row in counts):
        solve()
    return playouts


def _playout(
    machine: StateMachine[Any], state: Any, joint: Sequence[Term], role: int, clock: Clock,
    rng: random.Random,
) -> float | None:
    """``role``'s goal at the end of a uniformly random playout after ``joint`` (0 where
    the rules give none); None when the playout is abandoned as endless."""
    s = machine.next_state(state, joint)
    n = 0
    while not machine.is_terminal(s):
        if n >= MAX_PLAYOUT_STEPS:
            return None
        clock.check()
        s = machine.next_state(s, [rng.choice(moves) for moves in machine.legal_all(s)])
        n += 1
    clock.check()
    values = machine.goal_values(s, role)
    return float(values[0]) if len(values) == 1 else 0.0
