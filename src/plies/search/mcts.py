"""Monte Carlo tree search: UCT (Kocsis and Szepesvári, 2006) on plies' game model.

One iteration walks down the tree from the root (*selection*: at a node of player ``p``
the child maximising ``p``'s mean reward plus ``c * sqrt(ln N / n)``, UCB1), adds one
child (*expansion*: an untried action, drawn with the search's seeded generator), plays
random moves from it (*playout*) and adds the reward vector at the end to every node on
the path (*backpropagation*).

- **N players.**  Every node keeps one reward sum per player and its mover maximises its
  own (the max^n view, as in :func:`plies.maxn`); two zero-sum players get plain UCT.
- **Chance.**  At a CHANCE node selection *samples* an outcome by its probability
  (``chance_outcomes``); in a playout too.  Simultaneous moves are refused.
- **Rewards.**  With a finite ``utility_range`` ``(lo, hi)`` a utility ``u`` is the reward
  ``(u - lo) / (hi - lo)`` in [0, 1] and the default exploration constant ``sqrt(2)`` is
  the textbook one.  Without known bounds rewards are raw utilities: pass an
  ``exploration`` of the order of the utilities' spread.
- **Playouts** pick uniformly random legal actions until the game ends or ``playout``
  plies were played; the state reached there is scored with ``evaluate`` (clipped into
  ``utility_range`` when that is finite).  A game with a ``random_playout`` hook
  (Connect Four, Othello, GDL games) plays them on its own fast path, with the same draws.
- **MCTS-Solver** (Winands, Björnsson and Saito, 2008; ``solver=True``, the default):
  terminal nodes are solved, and a node whose children prove its value is solved too
  (see ``_Tree.prove``); solved nodes need no playout, selection scores them by their
  exact reward, and a solved root ends the search with ``exact=True`` and max^n's value.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from plies.errors import OptionError, UnsupportedGameError
from plies.game import CHANCE, SIMULTANEOUS, Game, GameOps, game_ops
from plies.search.common import (
    Limit,
    OutOfBudget,
    Searcher,
    SearchResult,
    SearchStats,
    StopSignal,
    Trace,
    budget_check,
    check_tie,
    not_a_player,
    resolve_player,
)

EXPLORATION: Final = math.sqrt(2)
"""UCB1's exploration constant for rewards in [0, 1]."""
PLAYOUT: Final = 200
"""Plies a playout plays at most before ``evaluate`` scores where it stopped."""
ITERATIONS: Final = 10_000
"""Iterations of a search given neither time, nodes nor stop."""
ANTI_DECISIVE: Final = 32
"""The most root moves for which the root is scanned for anti-decisive moves (the scan
costs about the square of the moves in ``result`` calls; see ``_Tree.scan_root``)."""


class MctsSearcher(Searcher):
    """MCTS's declared capabilities for the registry (chance: yes, simultaneous: no).

    MCTS is not a depth-first recursion: :func:`mcts` runs the tree itself, and this
    class only carries the facts :meth:`Searcher.refuse` checks.
    """

    algorithm = "mcts"
    chance_ok = True


@dataclass(eq=False, slots=True)
class Node:
    """One state in the tree: its mover, children and per-player reward sums.

    ``children`` maps an index into ``moves`` (the actions, or at a CHANCE node the
    outcomes) to the child; ``untried`` are the indices not expanded yet.  ``proof`` is
    set on terminal nodes and, with the solver, on nodes whose value is proven.
    """

    state: Any
    mover: int
    terminal: bool
    moves: Sequence[Any] = ()
    probs: Sequence[float] = ()
    untried: list[int] = field(default_factory=list)
    children: dict[int, Node] = field(default_factory=dict)
    visits: int = 0
    totals: list[float] = field(default_factory=list)
    proof: list[float] | None = None  # the exact reward vector, once the node is solved
    best: int = -1  # the child that proves a decision node's value


@dataclass
class _Tree:
    game: Any
    ops: GameOps
    rng: random.Random
    exploration: float
    playout: int
    stats: SearchStats
    solver: bool = True
    lo: float = 0.0
    span: float = 1.0  # rewards are (u - lo) / span; (0, 1) when utilities are unbounded
    bounded: bool = False
    shortcut: bool = False  # a top-reward child proves its parent (see prove)
    root: Node = field(init=False)

    def __post_init__(self) -> None:
        lo, hi = self.ops.utility_range
        if math.isfinite(lo) and math.isfinite(hi) and hi > lo:
            self.lo, self.span, self.bounded = lo, hi - lo, True
            players = self.ops.num_players
            zero_sum = bool(getattr(self.game, "zero_sum", False))
            self.shortcut = players == 1 or (players == 2 and zero_sum)

    def reward(self, u: float) -> float:
        r = (float(u) - self.lo) / self.span
        return min(1.0, max(0.0, r)) if self.bounded else r

    def utility(self, r: float) -> float:
        """A mean reward back on the utility scale."""
        return self.lo + r * self.span

    def node(self, state: Any) -> Node:
        ops = self.ops
        if ops.is_terminal(state):
            players = range(ops.num_players)
            proof = [self.reward(ops.utility(state, p)) for p in players]
            return Node(state, -1, True, totals=[0.0] * ops.num_players, proof=proof)
        mover = ops.to_move(state)
        probs: Sequence[float] = ()
        if mover == CHANCE:
            outcomes = ops.chance_outcomes(state)
            moves: Sequence[Any] = [o for o, _ in outcomes]
            probs = [p for _, p in outcomes]
        else:
            check_mover(self.game, mover)
            moves = ops.actions(state)
            if not moves:
                raise UnsupportedGameError(f"non-terminal state without legal actions: {state!r}")
        return Node(state, mover, False, moves, probs, list(range(len(moves))),
                    totals=[0.0] * ops.num_players)

    def scan_root(self) -> None:
        """Decisive and anti-decisive moves at the root, before the first iteration.

        *Decisive* (MCTS-Solver): every root action that ends the game is expanded as a
        solved child with one visit of its reward: one ``result`` per root action, once a
        search, so a move that wins at once is never missed, even when the budget is
        smaller than the number of moves (a depth-1 alpha-beta search never misses one
        either), and a root whose moves all end the game is solved at once.

        *Anti-decisive* (Teytaud and Teytaud, 2010), in two-player games with a finite
        ``utility_range`` and at most :data:`ANTI_DECISIVE` root moves (it costs about
        the square of that in ``result`` calls): a root action after which the opponent
        can end the game with the root mover's lowest utility is not searched, unless no
        other action is left.  In a zero-sum game that move is a proven loss (the solver
        would find it); otherwise it is the paranoid assumption that the opponent takes
        such a win.  Such actions have no entry in ``action_values``, and the root is
        then never proven by all its children.
        """
        root, ops = self.root, self.ops
        if root.mover == CHANCE:
            return
        anti = ops.num_players == 2 and self.bounded and len(root.moves) <= ANTI_DECISIVE
        losing = []
        for k in list(root.untried):
            state = ops.result(root.state, root.moves[k])
            if not ops.is_terminal(state):
                if anti and self.loses_at_once(state, root.mover):
                    losing.append(k)
                continue
            child = root.children[k] = self.node(state)
            root.untried.remove(k)
            assert child.proof is not None
            child.visits, child.totals = 1, list(child.proof)
            root.visits += 1
            for p, r in enumerate(child.proof):
                root.totals[p] += r
            self.stats.leaves += 1
        if losing and len(root.children) + len(root.untried) > len(losing):
            for k in losing:
                root.untried.remove(k)
        self.prove(root)

    def loses_at_once(self, state: Any, me: int) -> bool:
        """Whether the opponent, to move at ``state``, can end the game with ``me``'s
        lowest reward."""
        ops = self.ops
        if ops.to_move(state) != 1 - me:
            return False
        for action in ops.actions(state):
            after = ops.result(state, action)
            if ops.is_terminal(after) and self.reward(ops.utility(after, me)) <= 0.0:
                return True
        return False

    def iterate(self) -> None:
        """One selection, expansion, playout and backpropagation from the root."""
        node = self.root
        path = [node]
        rng = self.rng
        while node.proof is None:  # a solved node's value is known: no playout below it
            if node.mover == CHANCE:
                k = rng.choices(range(len(node.moves)), node.probs)[0]
                child = node.children.get(k)
                if child is None:
                    child = node.children[k] = self.node(self.ops.result(node.state, node.moves[k]))
                    path.append(child)
                    break
            elif node.untried:
                k = node.untried.pop(rng.randrange(len(node.untried)))
                child = node.children[k] = self.node(self.ops.result(node.state, node.moves[k]))
                path.append(child)
                break
            else:
                child = self.select(node)
            node = child
            path.append(node)
        if len(path) - 1 > self.stats.seldepth:
            self.stats.seldepth = len(path) - 1
        leaf = path[-1]
        if leaf.proof is not None:
            rewards = leaf.proof
            self.stats.leaves += 1
        else:
            rewards = self.rollout(leaf.state)
        for n in path:
            n.visits += 1
            totals = n.totals
            for p, r in enumerate(rewards):
                totals[p] += r
        if self.solver and leaf.proof is not None:
            for n in reversed(path[:-1]):
                if not self.prove(n):
                    break

    def prove(self, node: Node) -> bool:
        """MCTS-Solver's backup: set ``node.proof`` if its children prove its value.

        A decision node is solved once every child is solved (by the first child, in
        action order, that is best for the mover: max^n's rule, so a proven value is
        max^n's); a chance node once every outcome was sampled and solved (their
        probability-weighted mean).  In a one-player or two-player zero-sum game with a
        finite ``utility_range`` a solved child that gives the mover the top reward
        solves its parent at once (MCTS-Solver's proven win: every such child has the
        same vector there, so this is still max^n's value).
        """
        children = node.children
        if node.mover == CHANCE:
            if len(children) < len(node.moves):
                return False
            proofs = [children[k].proof for k in range(len(node.moves))]
            if any(v is None for v in proofs):
                return False
            weights = node.probs
            node.proof = [
                sum(w * v[p] for w, v in zip(weights, proofs, strict=True) if v is not None)
                for p in range(len(node.totals))
            ]
            return True
        mover = node.mover
        best, top = -1, -math.inf
        complete = not node.untried
        for k in range(len(node.moves)):
            child = children.get(k)
            proof = None if child is None else child.proof
            if proof is None:
                complete = False
                continue
            if proof[mover] > top:
                best, top = k, proof[mover]
            if self.shortcut and top >= 1.0:
                break
        if best < 0 or not (complete or (self.shortcut and top >= 1.0)):
            return False
        node.best, node.proof = best, children[best].proof
        return True

    def select(self, node: Node) -> Node:
        """UCB1 for the node's mover; the first child in action order among equals.

        With the solver a solved child scores its exact reward without the exploration
        bonus: there is nothing left to learn below it, so iterations go where values are
        unknown (without it, plain UCT).
        """
        mover, c, solver = node.mover, self.exploration, self.solver
        log_n = math.log(node.visits)
        best, best_score = None, -math.inf
        children = node.children
        for k in range(len(node.moves)):
            child = children.get(k)
            if child is None:  # an action the root's anti-decisive scan left out
                continue
            if solver and child.proof is not None:
                score = child.proof[mover]
            else:
                score = child.totals[mover] / child.visits + c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        assert best is not None
        return best

    def rollout(self, state: Any) -> list[float]:
        """Random moves from ``state``: the reward of every player where the playout ends.

        The moves are the game's ``random_playout`` hook's (a fast path) or, without
        one, :func:`plies.game.default_random_playout`'s: the same draws either way.
        """
        ops = self.ops
        assert ops.random_playout is not None  # game_ops always resolves it
        state = ops.random_playout(state, self.rng, self.playout)
        players = range(ops.num_players)
        if ops.is_terminal(state):
            self.stats.leaves += 1
            return [self.reward(ops.utility(state, p)) for p in players]
        self.stats.evals += ops.num_players
        return [self.reward(ops.evaluate(state, p)) for p in players]


def check_mover(game: Any, mover: int) -> None:
    """Refuse simultaneous-move nodes and movers that are no player."""
    if mover == SIMULTANEOUS:
        raise UnsupportedGameError(
            "mcts cannot search simultaneous-move nodes; use simultaneous"
        )
    if not 0 <= mover < game.num_players:
        raise not_a_player(game, mover)


def final_choice(node: Node, tie: str = "first", rng: random.Random | None = None) -> int | None:
    """The child of a decision node to play: the most visited, unless a proof says better.

    Among the children whose value is not known, the most visited (then more reward for
    the mover; then the first in action order, or a seeded random one with
    ``tie="random"``).  A solved child (a terminal one, or one the solver proved) counts
    with its exact reward instead of its visits: the best of them (the first in action
    order among equals) is played when nothing unknown is better on average, so a move
    proven to lose is never played for its visits while another may draw or win, and a
    move that gives the mover the top reward is always played (MCTS-Solver's "secure"
    final move, which matters in N-player and non-zero-sum games, where such a child
    does not prove its parent).  None for a node without children.
    """
    children = node.children
    if not children:
        return None
    mover = node.mover

    def mean(k: int) -> float:
        child = children[k]
        return child.totals[mover] / child.visits if child.visits else 0.0

    proven = [k for k in sorted(children) if children[k].proof is not None]
    best_proven = None
    if proven:
        best_proven = max(proven, key=lambda k: (children[k].proof or ())[mover])
    unknown = [k for k in children if children[k].proof is None and children[k].visits]
    if unknown:
        top = max((children[k].visits, mean(k)) for k in unknown)
        ties = sorted(k for k in unknown if (children[k].visits, mean(k)) == top)
        pick = rng.choice(ties) if tie == "random" and rng is not None else ties[0]
        proof = None if best_proven is None else children[best_proven].proof
        if proof is None or proof[mover] < mean(pick):
            return pick
    return best_proven


def mcts(
    game: Game[Any, Any],
    state: Any,
    limit: Limit | None = None,
    *,
    player: int | None = None,
    tie: str = "first",
    seed: int | None = None,
    exploration: float = EXPLORATION,
    playout: int = PLAYOUT,
    solver: bool = True,
    all_values: bool = False,
    trace: Trace | None = None,
    stop: StopSignal | None = None,
    on_iteration: Callable[[SearchResult], None] | None = None,
) -> SearchResult:
    """UCT from ``state`` under a time or iteration budget; see the module docstring.

    Budget: ``limit.nodes`` iterations (exact), ``limit.time`` seconds, or until
    ``stop.is_set()``; whichever comes first.  With none of them it runs :data:`ITERATIONS`
    iterations.  ``limit.depth`` is refused (MCTS has no depth). ``seed`` seeds every random
    choice (expansion order, playouts, chance samples; None is seed 0), so a search under a
    node budget is a pure function of its arguments.

    Before the first iteration (with the solver only, ``_Tree.scan_root``) every root
    action that ends the game is expanded (decisive moves), so a win at once is never
    missed however small the budget, and in two-player games with at most
    :data:`ANTI_DECISIVE` moves an action after which the opponent can end the game with
    the mover's lowest utility is left out unless every action is such (anti-decisive
    moves).  ``action`` is :func:`final_choice`'s: the
    root's most visited child (ties: more reward for the mover, then the first in
    ``actions()`` order, or seeded random with ``tie="random"``) unless a solved child is
    at least as good as its mean, ``pv`` the line of such choices (it stops at a chance
    node), ``value`` ``player``'s mean reward after
    ``action`` on the utility scale (``player`` defaults to the mover; at a chance root, the
    root's mean): an estimate, so ``exact`` is False, unless the root is terminal or the
    solver proved it (then ``action`` and ``pv`` follow the proof, the value is max^n's for
    ``player`` and the search stops early, ``stopped`` False). ``action_values``
    (``all_values=True``) maps every root action searched at least once to that mean for
    ``player``.  ``stats``: ``nodes`` iterations, ``leaves`` iterations that ended at the
    end of the game or at a solved node, ``evals`` ``evaluate`` calls at the playout cap,
    ``depth`` the PV's length, ``seldepth`` the deepest tree node.  ``stopped`` is True when
    the clock or ``stop`` ended the search.  ``exploration`` is UCB1's constant, ``playout``
    the plies a playout plays before ``evaluate`` scores it, ``solver`` switches MCTS-Solver
    off when False. ``on_iteration`` sees the result after 1024, 2048, 4096, ... iterations
    and at the end. ``trace`` is refused: MCTS reports no trace events.
    """
    check_tie(tie)
    MctsSearcher.refuse(game)
    if trace is not None:
        raise OptionError("mcts cannot be traced; trace minimax or alphabeta")
    limit = limit or Limit()
    if limit.depth is not None:
        raise OptionError("mcts takes a time or node (iteration) budget, not a depth")
    if not exploration >= 0:
        raise OptionError(f"exploration must be >= 0, got {exploration}")
    if playout < 0:
        raise OptionError(f"playout must be >= 0 plies, got {playout}")
    who = resolve_player(game, state, player)
    ops = game_ops(game)
    start = time.perf_counter()
    stats = SearchStats()
    rng = random.Random(0 if seed is None else seed)
    tree = _Tree(game, ops, rng, exploration, playout, stats, solver)
    tree.root = tree.node(state)
    if tree.root.terminal:
        stats.elapsed = time.perf_counter() - start
        return SearchResult(float(ops.utility(state, who)), None, (), stats, who)
    if solver:
        tree.scan_root()
    budget = limit.nodes
    if budget is None and limit.time is None and stop is None:
        budget = ITERATIONS
    deadline = None if limit.time is None else start + limit.time
    next_look, look = budget_check(deadline, None, stop)
    tie_rng = random.Random(0 if seed is None else seed) if tie == "random" else None

    def result(stopped: bool) -> SearchResult:
        stats.elapsed = time.perf_counter() - start
        return _result(tree, who, tie, tie_rng, all_values, stopped)

    report = 1024
    stopped = False
    while (budget is None or stats.nodes < budget) and tree.root.proof is None:
        if stats.nodes >= next_look:
            try:
                next_look = look(stats.nodes)
            except OutOfBudget:
                stopped = True
                break
        tree.iterate()
        stats.nodes += 1
        if on_iteration is not None and stats.nodes == report:
            report *= 2
            on_iteration(result(False))
    final = result(stopped)
    if on_iteration is not None and stats.nodes and stats.nodes != report // 2:
        on_iteration(final)  # every iteration is complete, so the last one is reported too
    return final


def _result(
    tree: _Tree, who: int, tie: str, rng: random.Random | None, all_values: bool,
    stopped: bool,
) -> SearchResult:
    root = tree.root
    line: list[int] = []
    node = root
    while not node.terminal and node.mover != CHANCE:
        if node.proof is not None:  # a solved node: its proving child
            k: int | None = node.best
        else:
            k = final_choice(node, tie if node is root else "first", rng)
        if k is None:
            break
        line.append(k)
        node = node.children[k]
    pv, node = [], root
    for k in line:
        pv.append(node.moves[k])
        node = node.children[k]
    stats = dataclasses.replace(tree.stats)  # a snapshot: the search may go on
    stats.depth = len(pv)
    if root.mover == CHANCE or not line:
        chosen, action = root, None
    else:
        chosen, action = root.children[line[0]], pv[0]
    values = None
    if all_values and root.mover != CHANCE:
        values = {
            root.moves[k]: tree.utility(_mean(root.children[k], who))
            for k in sorted(root.children)
            if root.children[k].visits
        }
    exact = root.proof is not None
    return SearchResult(
        tree.utility(_mean(chosen, who)), action, tuple(pv), stats, who, exact=exact,
        action_values=values, stopped=stopped and not exact,
    )


def _mean(node: Node, who: int) -> float:
    """``who``'s reward at ``node``: proven, or the mean of its playouts (0.5 unvisited)."""
    if node.proof is not None:
        return node.proof[who]
    return node.totals[who] / node.visits if node.visits else 0.5


__all__ = [
    "ANTI_DECISIVE", "EXPLORATION", "ITERATIONS", "PLAYOUT", "MctsSearcher", "final_choice", "mcts",
]
