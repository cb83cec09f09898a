"""How the GGP player thinks: metagaming estimates, then anytime move selection.

**Metagaming** (during the start clock, :func:`profile_game`): random playouts from the
initial state measure the reasoner's speed (states per second), the mean game length,
the mean branching factor of decision points (the number of joint moves where somebody
has a choice) and whether the goal values the rules give *non-terminal* states vary
("informative" goals, as in games that keep a score) or not (most games give every
unfinished state the same goal, or none).

**Move selection** (during the play clock, :func:`choose_move`) is written into a
:class:`~plies.ggp.thinker.Choice`, so that the caller can answer with the best move found
so far whenever the clock runs out:

1. A single legal move is played at once.
2. If the profile says not even a move and its reply can be searched in the time
   (estimated depth below :data:`~plies.ggp.thinker.MIN_SEARCH_DEPTH`), Monte Carlo only (step 5).
3. **Search.** Iterative-deepening alpha-beta (a transposition table kept for the whole
   match, move ordering, principal variation search) from our role's point of view:
   minimax with two roles, the paranoid model with more (every other role minimises our
   goal).  Where several roles choose at once, the search sees the pessimistic
   sequentialisation: we choose first and the others answer knowing our move
   (:class:`plies.wrappers.Sequentialized`).  That is the ``"pessimistic"`` option; by
   default (``"mixed"``) a step where several roles choose is played as a stage game
   instead: a mixed strategy from its linear program, drawn at random
   (:mod:`plies.ggp.stage`).  Where the match plays UCT (``--mode mcts``, or
   metagaming's choice), UCT plays every step, simultaneous ones by decoupled UCT
   (:mod:`plies.ggp.uct`).  A depth cut-off is scored by the goal value
   the rules give the state when goals are informative, else by 50, the middle of
   0..100 (:meth:`~plies.ggp.thinker.GoalEvaluated.evaluate`); terminal states by their real goals.
4. **Is the search good enough?**  With informative goals, the search's move is played
   if it completes :func:`useful_depth` plies (two: our move and the reply) by half
   the budget; it then runs to the deadline.  With uninformative goals, a depth-limited
   search only knows about outcomes forced within its horizon, so it runs as
   :func:`plies.analyze` (a value for every move) until half the budget: a solved
   position or a forced win is played; otherwise the moves with the best value (those
   not refuted within the horizon) go on to step 5.
5. **Monte Carlo** (:func:`montecarlo`): the candidate moves take turns; each gets a
   playout in which every role moves uniformly at random to the end of the game, and the
   move with the best mean goal is chosen.

Every call of the reasoner made by a search checks the clock
(:class:`~plies.ggp.thinker.Clock`), so the search stops within one reasoner call of the
deadline or of a cancellation.  The clock, the choice, the match's
:class:`~plies.ggp.thinker.Thinker` and metagaming's :class:`~plies.ggp.thinker.Profile`
live in :mod:`plies.ggp.thinker`, which the stage games and UCT share.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from plies.game import SIMULTANEOUS
from plies.gdl.gatelayout import BATCH_LANES
from plies.gdl.gatenet import STATUS
from plies.gdl.machine import StateMachine
from plies.gdl.reasoner import MoveDefinitionError, Reasoner
from plies.gdl.terms import Term
from plies.ggp.stage import play_stage
from plies.ggp.thinker import (
    MAX_PLAYOUT_STEPS,
    MIN_SEARCH_DEPTH,
    NEUTRAL,
    WIN,
    Choice,
    Clock,
    GoalEvaluated,
    Method,
    Mode,
    Profile,
    Simultaneous,
    Source,
    Thinker,
    TimeUp,
    safe_goal,
)
from plies.ggp.uct import uct_move
from plies.policy import SearchRequest, plan
from plies.search import Limit, SearchResult
from plies.wrappers import Sequentialized

__all__ = [  # the pieces of plies.ggp.thinker are still importable from here
    "MAX_PLAYOUT_STEPS",
    "MIN_SEARCH_DEPTH",
    "NEUTRAL",
    "WIN",
    "Choice",
    "Clock",
    "GoalEvaluated",
    "Method",
    "Mode",
    "Profile",
    "Simultaneous",
    "Source",
    "Thinker",
    "TimeUp",
    "choose_move",
    "montecarlo",
    "playout_ops",
    "profile_game",
    "safe_goal",
    "useful_depth",
]

log = logging.getLogger("plies.ggp")

# --- metagaming ---------------------------------------------------------------------------


def useful_depth(profile: Profile) -> int:
    """Plies of look-ahead that make a search's move worth playing: our move and the
    reply when goals are informative, else four (short tactics; this case only arises
    when metagaming measured nothing), never more than the game's mean length."""
    target = 2 if profile.informative else 4
    if profile.playouts == 0:  # nothing measured: assume a long game
        return target
    return max(1, min(target, math.ceil(profile.length)))


def playout_ops(
    machine: StateMachine[Any],
) -> tuple[Callable[[Any], Sequence[Sequence[Any]]], Callable[[Any, Any], Any]]:
    """``(legal, step)`` for random playouts on ``machine``: every role's legal moves as
    handles, and the successor for one handle per role.  The propnet's handles are move
    indices (its fast path); any other machine's are the moves themselves."""
    if isinstance(machine, Reasoner):
        return machine.legal_indices, machine.next_state_indices
    return machine.legal_all, machine.next_state


def profile_game(
    reasoner: StateMachine[Any], state: Any, clock: Clock, rng: random.Random, *,
    max_playouts: int = 400,
) -> Profile:
    """Random playouts from ``state`` until ``clock`` runs out (or ``max_playouts``)."""
    roles = range(len(reasoner.roles))
    legal_of, step = playout_ops(reasoner)
    start = time.perf_counter()
    playouts = steps = choice_steps = together = 0
    joint_total = 0.0
    goals_seen: list[set[float]] = [set() for _ in roles]
    sums: set[float] = set()  # of the goals of terminal states
    try:
        while playouts < max_playouts:
            s = state
            n = 0
            while not reasoner.is_terminal(s) and n < MAX_PLAYOUT_STEPS:
                clock.check()
                legal = legal_of(s)
                joint = math.prod(len(m) for m in legal)
                if joint > 1:
                    choice_steps += 1
                    joint_total += joint
                    together += sum(len(m) > 1 for m in legal) > 1
                if rng.random() < 0.25:  # goals before the end, sampled: a query each
                    for r in roles:
                        g = safe_goal(reasoner, s, r)
                        goals_seen[r].add(NEUTRAL if g is None else g)
                s = step(s, [rng.choice(m) for m in legal])
                n += 1
                steps += 1
            if n < MAX_PLAYOUT_STEPS and len(sums) < 2:
                goals = [safe_goal(reasoner, s, r) for r in roles]
                sums.add(math.nan if None in goals else sum(g or 0.0 for g in goals))
            playouts += 1
    except TimeUp:
        pass
    seconds = time.perf_counter() - start
    return Profile(
        playouts=playouts,
        steps=steps,
        speed=steps / seconds if seconds > 0 else 0.0,
        length=steps / playouts if playouts else float(steps),
        branching=joint_total / choice_steps if choice_steps else 1.0,
        informative=any(len(g) > 1 for g in goals_seen),
        seconds=seconds,
        roles=len(roles),
        simultaneous=together / choice_steps if choice_steps else 0.0,
        zero_sum=len(sums) == 1 and not any(math.isnan(x) for x in sums),
    )


# --- move selection -------------------------------------------------------------------------


def choose_move(thinker: Thinker, state: Any, clock: Clock, choice: Choice) -> None:
    """Think about the move at ``state`` until solved or ``clock`` runs out.

    The current best move is always in ``choice`` (start it with a legal move).  Sets
    ``choice.done`` at the end, also when the reasoner fails (the move in ``choice``
    then stays the best legal one found).
    """
    try:
        _think(thinker, state, clock, choice)
    except TimeUp:
        pass
    except Exception:  # a reasoner failure must not cost the move: keep the best so far
        log.exception("thinking failed; answering with the best move so far")
    finally:
        choice.done.set()


def _think(t: Thinker, state: Any, clock: Clock, choice: Choice) -> None:
    if t.mode == "mcts" or (t.mode == "auto" and t.method == "mcts"):
        uct_move(t, state, clock, choice)  # decoupled UCT where several roles choose
        return
    staged = t.simultaneous == "mixed" and t.game.to_move(state) == SIMULTANEOUS
    legal = t.reasoner.legal(state, t.role)
    if len(legal) == 1:
        choice.offer(legal[0], "forced")
        return
    if staged and play_stage(t, state, clock, choice):
        return
    mode, profile = t.mode, t.profile
    budget = clock.left()
    hopeless = profile.playouts > 0 and profile.depth(budget) < MIN_SEARCH_DEPTH
    if mode == "montecarlo" or (mode == "auto" and hopeless):
        montecarlo(t.reasoner, state, t.role, clock, t.rng, choice, max_playouts=t.max_playouts)
        return
    if mode == "alphabeta":
        _deepen(t, state, clock, choice, target=None)
        return
    clock.soft = time.perf_counter() + budget / 2
    if profile.informative or profile.playouts == 0:
        if _deepen(t, state, clock, choice, target=useful_depth(profile)):
            return
        candidates: Sequence[Term] = legal
    else:
        screened = _screen(t, state, clock, choice)
        if screened is None:
            return
        candidates = screened
    clock.soft = None
    montecarlo(
        t.reasoner, state, t.role, clock, t.rng, choice,
        moves=candidates, max_playouts=t.max_playouts,
    )


def _view(t: Thinker, clock: Clock) -> Sequentialized:
    """The game as the searches see it: clocked, sequentialised, with our evaluation.

    Sequentialized leaves turn nodes alone; at a simultaneous root we choose first, so
    the root's action is our own move.
    """
    return Sequentialized(GoalEvaluated(t.game, t.reasoner, t.profile.informative), t.role)


def _deepen(t: Thinker, state: Any, clock: Clock, choice: Choice, target: int | None) -> bool:
    """Iterative-deepening alpha-beta into ``choice``.  With a ``target`` depth the
    search gives up at the clock's soft deadline unless it completed ``target`` plies.
    True when the search's move stands (solved, or deep enough)."""
    reached: list[SearchResult] = []

    def report(r: SearchResult) -> None:
        reached.append(r)
        choice.offer(r.action, "alphabeta", _describe(r))
        if target is not None and r.stats.depth >= target:
            clock.soft = None  # deep enough: the search may use the whole clock

    _run(t, state, clock, report, all_values=False)
    if not reached:
        return False
    best = reached[-1]
    return best.exact or target is None or best.stats.depth >= target


def _screen(t: Thinker, state: Any, clock: Clock, choice: Choice) -> list[Term] | None:
    """Iterative-deepening analysis until the soft deadline.  None when it settled the
    move (solved, or a forced win); else the moves not refuted within its horizon."""
    reached: list[SearchResult] = []

    def report(r: SearchResult) -> None:
        reached.append(r)
        choice.offer(r.action, "alphabeta", _describe(r))

    _run(t, state, clock, report, all_values=True)
    if not reached:
        return list(t.reasoner.legal(state, t.role))
    best = reached[-1]
    if best.exact or best.value >= WIN:
        return None
    values = best.action_values or {}
    kept = [move for move, value in values.items() if value == best.value]
    return kept or list(t.reasoner.legal(state, t.role))


def _run(
    t: Thinker, state: Any, clock: Clock, report: Callable[[SearchResult], None],
    *, all_values: bool,
) -> None:
    """Iterative deepening with engine craft (the policy layer's plan), stopped by
    ``clock``; every finished iteration goes to ``report``.  ``all_values``: analysis."""
    left = clock.left()
    if left <= 0:
        return
    game = _view(t, clock)
    request = SearchRequest(
        "alphabeta", Limit(time=left), player=t.role, engine=True, all_values=all_values
    )
    plan(game, state, request).run(
        game, state, stop=clock, on_iteration=report, table=t.table
    )


def _describe(r: SearchResult) -> str:
    return f"depth {r.stats.depth}, value {r.value:g}{' (exact)' if r.exact else ''}"


def montecarlo(
    reasoner: StateMachine[Any],
    state: Any,
    role: int,
    clock: Clock,
    rng: random.Random,
    choice: Choice,
    *,
    moves: Sequence[Term] | None = None,
    max_playouts: int | None = None,
) -> int:
    """Monte Carlo playouts until the clock runs out (or ``max_playouts``); returns how
    many were completed.

    The candidate ``moves`` (default: every legal move of ``role``) take turns; each
    gets a playout in which the other roles answer at random and then every role moves
    uniformly at random to the end of the game.  Once every candidate has a playout,
    ``choice`` holds the one with the best mean goal (the first of equals).
    """
    legal_of, step = playout_ops(reasoner)
    options = legal_of(state)
    # The propnet's handles are indices; any other machine's are the moves themselves.
    legal = reasoner.legal(state, role) if isinstance(reasoner, Reasoner) else options[role]
    wanted = legal if moves is None else moves
    pairs = [(m, k) for m, k in zip(legal, options[role], strict=True) if m in wanted]
    if not pairs:
        return 0
    totals = [0.0] * len(pairs)
    counts = [0] * len(pairs)
    playouts = 0
    # Playouts in compiled batches (64 at once) once the propnet has its gates compiled.
    native = reasoner.native_built() if isinstance(reasoner, Reasoner) else None
    while max_playouts is None or playouts < max_playouts:
        if native is not None:
            # Each candidate's share of one word's lanes, each start after its own random
            # replies of the other roles (within the budget when there is one).
            per = max(1, BATCH_LANES // len(pairs))
            if max_playouts is not None:
                per = max(1, min(per, (max_playouts - playouts) // len(pairs)))
            owners = [i for i in range(len(pairs)) for _ in range(per)]
            starts = [step(state, [pairs[i][1] if r == role else rng.choice(m)
                                   for r, m in enumerate(options)]) for i in owners]
            batch = native.batch(starts, 1, seed=rng.getrandbits(32), limit=MAX_PLAYOUT_STEPS)
            for p, i in enumerate(owners):
                status = STATUS[int(batch.status[p])]
                if status == "no legal move":
                    who = reasoner.roles[int(batch.goals[p, 0])]
                    raise MoveDefinitionError(
                        f"role {who} has no legal move in a non-terminal state reached by "
                        f"random moves from {reasoner.format_state(starts[p])}"
                    )
                if status == "terminal":
                    totals[i] += max(0.0, float(batch.goals[p, role]))
                    counts[i] += 1
                    playouts += 1
            clock.check()
        for i, (_, own) in enumerate(pairs if native is None else ()):
            joint = [own if r == role else rng.choice(m) for r, m in enumerate(options)]
            s = step(state, joint)
            n = 0
            while not reasoner.is_terminal(s) and n < MAX_PLAYOUT_STEPS:
                clock.check()
                s = step(s, [rng.choice(m) for m in legal_of(s)])
                n += 1
            if n < MAX_PLAYOUT_STEPS:
                goal = safe_goal(reasoner, s, role)
                totals[i] += 0.0 if goal is None else goal
                counts[i] += 1
                playouts += 1
            clock.check()
        if all(counts):
            means = [total / count for total, count in zip(totals, counts, strict=True)]
            best = max(range(len(pairs)), key=means.__getitem__)
            choice.offer(
                pairs[best][0], "montecarlo",
                f"{playouts} playouts over {len(pairs)} moves, mean goal {means[best]:.1f}",
            )
    return playouts
