"""UCT for the GGP player: the match's tree, kept across moves, and the metagaming choice.

**The choice** (:func:`choose_method`, once per match after metagaming): UCT/MCTS
(:class:`plies.search.mcts.MctsTree`) or iterative-deepening alpha-beta (the steps of
:mod:`plies.ggp.strategy`), from the :class:`~plies.ggp.thinker.Profile` and the play
clock.  Alpha-beta when its search sees the whole game (the estimated depth, with
pruning, :data:`PRUNING`, reaches the mean game length: its values are then exact),
or when it is on its own ground: two roles, zero-sum, taking turns, goals that say
something before the end (an evaluation for its cut-offs) and at least
:data:`AB_DEPTH` plies within the clock.
UCT otherwise: with three or more roles (alpha-beta's paranoid model has every other
role gang up on us; UCT lets each role maximise its own goal), in games that are not
zero-sum (the same), with simultaneous steps (alpha-beta sequentialises them, pessimistic
and pure; UCT is decoupled and plays a mixed strategy), with goals that say nothing
before the end (alpha-beta only sees wins within its horizon; UCT's playouts see the
end) and when alpha-beta would be too shallow.  This is how the field settled it
(CadiaPlayer and its successors use UCT by default; alpha-beta wins where a game is
small or has a good evaluation), measured in ``benchmarks/results/ggp_uct.md``.

**A move** (:func:`uct_move`): the match's :class:`MatchTree` is re-rooted at the state
the player is asked about (the node the joint moves actually played lead to, found
among the descendants of the last root, its statistics kept), then UCT iterates in
slices until the clock runs out, offering the best move after each slice.  At our
turn that is the root's most visited move (or a proven one, MCTS-Solver); at a
simultaneous step a move drawn from our own visit frequencies (decoupled UCT's mixed
strategy, after dropping the rarely visited moves that are only explored); at a step
where our move is forced, the forced move at once, and the search goes on until the
clock (pondering: the tree grows where the others choose).  Playouts follow MAST
(:class:`Mast`) one iteration at a time until the reasoner has its network compiled;
from then on :data:`BATCH` iterations share one compiled batch of MAST playouts
(tree parallelisation with a virtual loss,
:meth:`plies.search.mcts_tree.Tree.iterate_batch`), greedy ones in a game of one or two
roles once the compiled tree runs (:data:`GREEDY`).  Rewards are goals scaled to [0, 1];
each role maximises its own (max^n), and a two-role game whose playouts only met
constant-sum goals lets a proven win prove its parent.
"""

from __future__ import annotations

import logging
import math
import random
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Final

from plies.game import SIMULTANEOUS
from plies.gdl.factor import factor_of
from plies.gdl.game import GdlGame
from plies.gdl.gatenet import GateNet
from plies.gdl.gatenet import Mast as NativeMast
from plies.gdl.machine import StateMachine
from plies.gdl.reasoner import MoveDefinitionError, Reasoner
from plies.gdl.terms import Term
from plies.ggp.thinker import (
    MAX_PLAYOUT_STEPS,
    Choice,
    Clock,
    GoalEvaluated,
    Method,
    Profile,
    Thinker,
    safe_goal,
)
from plies.ggp.uctnative import MAX_BYTES, NativeTree, ready
from plies.search import Limit, SearchResult
from plies.search.mcts import MctsTree

log = logging.getLogger("plies.ggp")

AB_DEPTH: Final = 4.0
"""The estimated alpha-beta depth (plies in the play clock) below which UCT is chosen
even in a two-role zero-sum turn-taking game with informative goals."""

PRUNING: Final = 4 / 3
"""Alpha-beta's depth over a full-width search's in the same time: pruning leaves about
``b ** 0.75`` of ``b`` moves with random move ordering (Knuth and Moore), ``b ** 0.5``
with perfect ordering; the cautious end is taken."""

EXPLORATION: Final = 0.4
"""UCB1's constant for goals scaled to [0, 1]: CadiaPlayer's 40 on GDL's 0..100 scale
(Finnsson and Björnsson 2008), less than the textbook sqrt(2): a move gets a few
thousand iterations, too few to explore that widely."""

SLICE: Final = 0.05
"""Seconds of UCT between two offers of the best move so far."""

REROOT_DEPTH: Final = 4
"""How many steps below the last root the next state is looked for (one joint move is
applied between two moves, several after the reasoner was late)."""

RARE: Final = 1 / 3
"""At a simultaneous step, own moves visited less than this fraction of the most
visited one are not played (they were explored, not preferred)."""


def choose_method(profile: Profile, seconds: float) -> tuple[Method, str]:
    """Metagaming's choice between UCT ("mcts") and alpha-beta, with the reason as text
    (see the module docstring); ``seconds`` is the thinking time of a move."""
    facts = describe(profile)
    if profile.playouts == 0:
        return "alphabeta", "nothing measured"
    depth = profile.depth(seconds) * PRUNING
    if depth >= profile.length:
        return "alphabeta", f"{facts}; depth {depth:.1f} covers the game"
    if profile.roles > 2:
        return "mcts", facts
    if profile.simultaneous > 0:
        return "mcts", facts
    if not profile.zero_sum:
        return "mcts", facts
    if not profile.informative:
        return "mcts", f"{facts}, uninformative goals"
    if depth < AB_DEPTH:
        return "mcts", f"{facts}; depth {depth:.1f} < {AB_DEPTH:g}"
    return "alphabeta", f"{facts}, informative goals; depth {depth:.1f}"


def describe(profile: Profile) -> str:
    """The profile's facts behind the choice: ``branching 31, length 60, 8k states/s,
    not zero-sum`` (plus the roles beyond two and the share of simultaneous steps)."""
    speed = profile.speed
    rate = f"{speed / 1000:.0f}k" if speed >= 10_000 else f"{speed:.0f}"
    parts = [f"branching {profile.branching:.0f}", f"length {profile.length:.0f}",
             f"{rate} states/s", "zero-sum" if profile.zero_sum else "not zero-sum"]
    if profile.roles > 2:
        parts.append(f"{profile.roles} roles")
    if profile.simultaneous > 0:
        parts.append(f"simultaneous {profile.simultaneous:.0%}")
    return ", ".join(parts)


BATCH: Final = 16
"""UCT iterations run with one compiled batch of playouts once the reasoner has its
network compiled (:meth:`UctView.random_playouts`; 1: one playout per iteration).
Fewer than the 64 lanes of a word (``BATCH_LANES``): each iteration of
a batch selects its path before any of the batch's playouts is backed up, under the
virtual losses of the others, and over 64 of them that costs more search quality than
the fuller words gain in speed (``benchmarks/results/ggp_uct.md``, Run 12; Chaslot et
al. measured tree parallelisation with a virtual loss up to 16 threads)."""

BATCH_MAST: Final = True
"""Whether the batches' playouts follow MAST too (with ``mast``), rather than uniform moves."""

NATIVE: Final = True
"""Whether the match's UCT moves to the compiled tree (:class:`~plies.ggp.uctnative.NativeTree`,
whole iterations in Numba) once the reasoner has its network compiled."""

PARTS: Final = True
"""Whether a game that comes apart into independent parts (two boards played at once,
:mod:`plies.gdl.factor`) is searched by part once the parts' networks are compiled: at a
step where all our legal moves are in one part, UCT runs on that part's subgame (the
other parts frozen, the other roles' moves there one pass), a tree kept per part (the
parts' trees share the memory cap of one, :data:`~plies.ggp.uctnative.MAX_BYTES`)."""

GREEDY: Final = 2
"""How greedy the compiled playouts are in a game of one or two roles
(:meth:`plies.gdl.gatenet.GateNet.batch`; Sancho's greedy rollouts): 0 not at all,
1 a role that alone has a choice plays a move that wins at once, 2 also steps back from
a move that hands the other role such a win; where they cost too much, not at all
(:data:`GREEDY_COST`)."""

GREEDY_COST: Final = 10.0
"""The most states a uniform playout may visit per state of a greedy one in the same
time (:meth:`plies.gdl.gatenet.GateNet.measure_greedy` from the start state, once the
compiled tree's kernels are ready) for the playouts to be greedy: it measures about 4
on connectFour, 1.6 on breakthrough and 18 on checkers.  Sancho too gives up its greedy
rollouts where they cost too much."""


def greedy_level(net: GateNet) -> int:
    """How greedy the compiled playouts over ``net`` are (:data:`GREEDY`): 0 with three
    roles or more, or where a greedy playout costs more than :data:`GREEDY_COST` (or
    was not measured)."""
    cost = net.greedy_cost
    if net.roles > 2 or cost is None or cost > GREEDY_COST:
        return 0
    return GREEDY

MAST: Final = True
"""Whether the match's playouts follow MAST (:class:`Mast`) rather than uniform moves."""

MAST_TAU: Final = 10.0
"""The temperature of MAST's Gibbs sampling, on GDL's 0..100 goal scale (CadiaPlayer's)."""


class Mast:
    """The Move-Average Sampling Technique (Finnsson and Björnsson 2008), CadiaPlayer's
    playout policy: each role keeps the mean goal it reached in the playouts where it
    played a move (whatever the state), and plays its moves with probabilities
    ``exp(Q(move) / tau)`` (Gibbs sampling; a move never seen counts as the best, 100).
    Good moves of a game (a capture, the centre column) are found this way in every
    position at once.  On the reasoner's fast path (move indices): whole playouts in
    compiled code once the reasoner has its network compiled (``reasoner.native``, the
    ``numba`` backend), else its Python functions, one step at a time."""

    def __init__(self, reasoner: Reasoner, tau: float = MAST_TAU) -> None:
        self.reasoner = reasoner
        self.tau = tau
        roles = len(reasoner.roles)
        # The compiled network once the reasoner has it (the player builds it after the
        # propnet, in the background): the playouts move over to it then.
        self.native: GateNet | None = None
        self._arrays: NativeMast | None = None
        self._stats: list[dict[int, list[float]]] = [{} for _ in range(roles)]
        self._weights: list[dict[int, float]] = [{} for _ in range(roles)]
        self.unseen = math.exp(100.0 / tau)

    @property
    def stats(self) -> list[dict[int, list[float]]]:
        """Per role, ``{move index: [sum of goals, playouts]}`` of the moves it chose."""
        if self._arrays is None or self.native is None:
            return self._stats
        return [
            {m - lo: [float(self._arrays.sums[m]), float(self._arrays.counts[m])]
             for m in range(lo, hi) if self._arrays.counts[m] > 0}
            for lo, hi in zip(self.native.role_first, self.native.role_first[1:], strict=False)
        ]

    @property
    def weights(self) -> list[dict[int, float]]:
        """Per role, ``{move index: Gibbs weight}`` of the moves it chose."""
        if self._arrays is None or self.native is None:
            return self._weights
        return [
            {m - lo: float(self._arrays.weights[m])
             for m in range(lo, hi) if self._arrays.counts[m] > 0}
            for lo, hi in zip(self.native.role_first, self.native.role_first[1:], strict=False)
        ]

    def compiled(self) -> NativeMast | None:
        """The statistics as the compiled network reads them, once the reasoner has it
        (the statistics learnt before then start afresh), else None."""
        if self.native is None and self.reasoner.native_built() is not None:
            self.native = self.reasoner.native_built()
            assert self.native is not None
            self._arrays = NativeMast(self.native, self.tau)
        return self._arrays

    def playout(self, state: Any, rng: random.Random, limit: int) -> Any:
        """The state after up to ``limit`` steps of MAST's moves; learns from the goals
        at the end when the game ended."""
        reasoner = self.reasoner
        self.compiled()
        if self.native is not None:
            # The compiled playout draws from its own generator, seeded from ``rng``.
            end, status, _ = self.native.playout(state, seed=rng.getrandbits(32), limit=limit,
                                                 mast=self._arrays)
            if status == "no legal move":
                role = int(self.native.last_goals[0])
                raise MoveDefinitionError(
                    f"role {reasoner.roles[role]} has no legal move in the non-terminal "
                    f"state {reasoner.format_state(end)}"
                )
            return end
        terminal, legal_of = reasoner.is_terminal, reasoner.legal_indices
        step, draw = reasoner.next_state_indices, rng.random
        weights, unseen = self._weights, self.unseen
        played: list[tuple[int, int]] = []
        for _ in range(limit):
            if terminal(state):
                break
            joint = []
            for role, moves in enumerate(legal_of(state)):
                if len(moves) == 1:
                    joint.append(moves[0])
                    continue
                if not moves:
                    raise MoveDefinitionError(
                        f"role {reasoner.roles[role]} has no legal move in the non-terminal "
                        f"state {reasoner.format_state(state)}"
                    )
                known = weights[role]
                ws = [known.get(m, unseen) for m in moves]
                x = draw() * sum(ws)
                pick = moves[-1]
                for m, w in zip(moves, ws, strict=True):
                    x -= w
                    if x < 0.0:
                        pick = m
                        break
                joint.append(pick)
                played.append((role, pick))
            state = step(state, joint)
        if terminal(state):
            goals = [safe_goal(reasoner, state, r) for r in range(len(weights))]
            for role, move in played:
                entry = self._stats[role].setdefault(move, [0.0, 0])
                entry[0] += goals[role] or 0.0
                entry[1] += 1
                weights[role][move] = math.exp(entry[0] / entry[1] / self.tau)
        return state


class UctView(GoalEvaluated):
    """The GDL game as UCT sees it: the goals (0..100), the reasoner's fast random
    playouts (a wrapper would otherwise hide them) and ``zero_sum`` as metagaming saw
    it, which lets MCTS-Solver prove a parent from a won child in a two-role game.
    With ``mast`` the playouts are MAST's (:class:`Mast`), not uniformly random.

    Batched iterations (the ``random_playouts`` hook, :meth:`_playouts`): one compiled
    call plays the playouts of up to 64 leaves at once, MAST's with ``mast``, once the
    reasoner has its network compiled (:meth:`GateNet.batch`); before that, one playout
    per state."""

    def __init__(
        self, game: GdlGame, reasoner: StateMachine[Any], profile: Profile,
        mast: Mast | None = None,
    ) -> None:
        super().__init__(game, reasoner, profile.informative)
        self.zero_sum = profile.zero_sum
        self.has_simultaneous = profile.simultaneous > 0
        # The moves and states are the game's own, so its fast playout applies.
        playout = game.random_playout if mast is None else mast.playout
        self._playout: Callable[[Any, random.Random, int], Any] = playout
        self.mast = mast
        self.random_playout = playout  # type: ignore[assignment]
        self.random_playouts = self._playouts  # type: ignore[assignment]

    def _playouts(
        self, states: Sequence[Any], rng: random.Random, limit: int
    ) -> list[tuple[float, ...] | None]:
        """The ``random_playouts`` hook: per state, every role's goal (0..100) at the end
        of a playout from it, or None where it did not end within ``limit`` steps.

        With the compiled network, one :meth:`GateNet.batch` of playouts (seeded from
        ``rng``; MAST's moves with ``mast`` and :data:`BATCH_MAST`, which then learns
        from them, else uniformly random; a role without a goal, or with several, at
        the end scores 0); without it, :attr:`random_playout` (MAST's, with ``mast``)
        from each state in turn.

        Raises:
            MoveDefinitionError: a role had no legal move in a non-terminal state.
        """
        reasoner = self.reasoner
        native = reasoner.native_built() if isinstance(reasoner, Reasoner) else None
        roles = range(self.num_players)
        if native is None:
            ends: list[tuple[float, ...] | None] = []
            game, playout = self.game, self._playout
            for state in states:
                end = playout(state, rng, limit)
                ends.append(tuple(float(game.utility(end, r)) for r in roles)
                            if game.is_terminal(end) else None)
            return ends
        learn = self.mast.compiled() if self.mast is not None and BATCH_MAST else None
        batch = native.batch(list(states), 1, seed=rng.getrandbits(32), limit=limit,
                             mast=learn)
        status, goals = batch.status.tolist(), batch.goals.tolist()
        out: list[tuple[float, ...] | None] = []
        for p, state in enumerate(states):
            if status[p] == 0:  # terminal
                out.append(tuple(float(max(0, g)) for g in goals[p]))
            elif status[p] == 1:  # the step limit
                out.append(None)
            else:
                assert isinstance(reasoner, Reasoner)
                raise MoveDefinitionError(
                    f"role {reasoner.roles[goals[p][0]]} has no legal move in a non-terminal "
                    f"state reached by random moves from {reasoner.format_state(state)}"
                )
        return out


class MatchTree:
    """The UCT tree of one match (:class:`~plies.search.mcts.MctsTree`), kept from move
    to move and re-rooted at each state the player is asked about.

    ``lock`` is held while a move is thought about: the previous move's search (told to
    stop when the next PLAY arrives) finishes its iteration before the tree moves.
    """

    def __init__(self, thinker: Thinker, state: Any) -> None:
        # MAST runs on the propnet's move indices; on another machine (the top-down
        # prover, until the propnet is built) playouts are uniformly random.
        reasoner = thinker.reasoner
        mast = Mast(reasoner) if MAST and isinstance(reasoner, Reasoner) else None
        view = UctView(thinker.game, thinker.reasoner, thinker.profile, mast)
        self.tree: MctsTree | NativeTree = MctsTree(
            view, state, seed=thinker.rng.randrange(2**32), exploration=EXPLORATION,
            playout=MAX_PLAYOUT_STEPS,
        )
        self.reasoner = reasoner
        self.mast = mast
        self.zero_sum = thinker.profile.zero_sum
        self.lock = threading.Lock()
        self.sampler = random.Random(thinker.rng.random())
        self.seed = thinker.rng.randrange(2**31)  # the compiled tree's
        self.moves = 0  # moves thought about
        self.kept = 0  # of them, those whose root was found in the tree
        self.parts: dict[int, NativeTree] = {}  # a factored game's trees, by part
        self.compiled(state)

    def lanes(self) -> int:
        """The iterations a batch runs: :data:`BATCH` once the reasoner has its network
        compiled, else 1."""
        reasoner = self.reasoner
        compiled = isinstance(reasoner, Reasoner) and reasoner.native_built() is not None
        return BATCH if compiled else 1

    def compiled(self, state: Any) -> bool:
        """Move to the compiled tree at ``state`` (:data:`NATIVE`) if the reasoner has
        its network compiled and the tree is still the Python one; whether it did (the
        Python tree's statistics are dropped then)."""
        reasoner = self.reasoner
        if not NATIVE or isinstance(self.tree, NativeTree) or not isinstance(reasoner, Reasoner):
            return False
        net = reasoner.native_built()
        if net is None or not ready(reasoner, net):
            return False
        learn = self.mast.compiled() if self.mast is not None and BATCH_MAST else None
        self.tree = NativeTree(
            reasoner, net, state, seed=self.seed, exploration=EXPLORATION,
            playout=MAX_PLAYOUT_STEPS, zero_sum=self.zero_sum, mast=learn, batch=BATCH,
            greedy=greedy_level(net),
        )
        return True

    def part(self, state: Any, role: int) -> tuple[NativeTree, int, str] | None:
        """In a game that comes apart (:meth:`plies.gdl.reasoner.Reasoner.build_parts`,
        :data:`PARTS`), where every legal move of ``role`` at ``state`` is in one part:
        that part's tree (its subgame, the other parts frozen), re-rooted at ``state``
        or made there, the iterations kept and a label (``part 1 of 2``); else None."""
        reasoner = self.reasoner
        if not PARTS or not isinstance(self.tree, NativeTree) or not isinstance(reasoner, Reasoner):
            return None
        parts = reasoner.parts_built()
        if not parts:
            return None
        first = self.tree.net.role_first[role]
        moves = [first + i for i in reasoner.legal_indices(state)[role]]
        index = factor_of(tuple(f for f, _ in parts), moves)
        if index is None:
            return None
        label = f"part {index + 1} of {len(parts)}"
        tree = self.parts.get(index)
        if tree is not None:
            if tree.reroot(state, depth=REROOT_DEPTH):
                self.kept += 1
                return tree, tree.visits, label
            return tree, 0, label
        frozen = [j for i, (f, _) in enumerate(parts) if i != index for j in f.fluents]
        learn = self.mast.compiled() if self.mast is not None and BATCH_MAST else None
        self.parts[index] = tree = NativeTree(
            reasoner, parts[index][1], state, seed=self.seed + 1 + index,
            exploration=EXPLORATION, playout=MAX_PLAYOUT_STEPS, zero_sum=self.zero_sum,
            mast=learn, batch=BATCH, frozen=frozen, max_bytes=MAX_BYTES // len(parts),
            greedy=greedy_level(self.tree.net),
        )
        return tree, 0, label

    def reroot(self, state: Any) -> int:
        """Move the root to ``state``; the iterations kept (0 for a fresh root)."""
        self.moves += 1
        if self.compiled(state):
            return 0
        if self.tree.reroot(state, depth=REROOT_DEPTH):
            self.kept += 1
            return self.tree.visits
        return 0


def uct_move(t: Thinker, state: Any, clock: Clock, choice: Choice) -> None:
    """Think about ``t.role``'s move at ``state`` with UCT until ``clock`` runs out (or
    the root is solved), offering the best move so far to ``choice`` after every slice
    (see the module docstring).  The tree is ``t.tree``, made at the first move."""
    if t.tree is None:
        t.tree = MatchTree(t, state)
    match_tree: MatchTree = t.tree
    if not match_tree.lock.acquire(timeout=max(0.0, clock.left())):
        return  # the last search did not let go in time: the move in choice stands
    try:
        kept = match_tree.reroot(state)
        tree: MctsTree | NativeTree = match_tree.tree
        where = ""
        part = match_tree.part(state, t.role)
        if part is not None:
            tree, kept, where = part
        tree.batch = match_tree.lanes()
        legal = t.reasoner.legal(state, t.role)
        forced = len(legal) == 1
        if forced:
            choice.offer(legal[0], "forced")
        simultaneous = t.game.to_move(state) == SIMULTANEOUS
        start = time.perf_counter()
        iterations = 0
        while not clock.expired():
            limit = Limit(time=min(SLICE, max(0.0, clock.left())))
            result = tree.search(limit, player=t.role, stop=clock)
            iterations += result.stats.nodes
            if not forced:
                move = _pick(result, simultaneous, match_tree.sampler)
                if move is not None:
                    choice.offer(move, "mcts", _detail(result, iterations, kept, start, where))
            if result.exact:
                break
        if forced:
            log.debug("pondered %d iterations at a forced step", iterations)
    finally:
        match_tree.lock.release()


def _pick(result: SearchResult, simultaneous: bool, rng: random.Random) -> Term | None:
    """The move to offer: the result's action, or at a simultaneous step one drawn from
    our visit frequencies without the rarely visited moves (:data:`RARE`)."""
    strategy = result.strategy
    if not simultaneous or not strategy:
        return result.action  # type: ignore[no-any-return]
    top = max(strategy.values())
    kept = {m: p for m, p in strategy.items() if p >= RARE * top}
    moves = list(kept)
    return rng.choices(moves, [kept[m] for m in moves])[0]  # type: ignore[no-any-return]


def _detail(result: SearchResult, iterations: int, kept: int, start: float,
            where: str = "") -> str:
    seconds = max(time.perf_counter() - start, 1e-9)
    text = (
        f"{where + ', ' if where else ''}"
        f"{iterations} iterations ({iterations / seconds:.0f}/s, {kept} kept), "
        f"value {result.value:.1f}{' (exact)' if result.exact else ''}"
    )
    if result.strategy:
        shares = sorted(result.strategy.values(), reverse=True)[:3]
        text += ", strategy " + "/".join(f"{p:.2f}" for p in shares)
    return text
