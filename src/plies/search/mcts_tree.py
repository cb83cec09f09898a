"""The tree of :mod:`plies.search.mcts`: nodes, one UCT iteration, MCTS-Solver, decoupled UCT.

Kept apart from the entry points (:func:`plies.search.mcts.mcts`,
:class:`plies.search.mcts.MctsTree`) so that each module stays readable; the docstring
of :mod:`plies.search.mcts` describes the algorithm.

**Decoupled UCT** (Lanctot, Lisý and Winands 2013; Finnsson and Björnsson's CadiaPlayer):
at a SIMULTANEOUS node every player keeps statistics of its *own* actions (visits and
reward sums) and chooses one by UCB1 on them, as if it moved alone; the joint action is
the tuple of the choices, and the child is keyed by it.  After the playout each player's
chosen action is credited with that player's reward.  Decoupled UCT assumes every
combination of the players' own actions (``player_actions``) is a legal joint action,
as GDL and matrix games have it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from plies.errors import UnsupportedGameError
from plies.game import CHANCE, SIMULTANEOUS, GameOps, default_player_actions, no_actions
from plies.search.common import SearchStats, not_a_player

ANTI_DECISIVE: Final = 32
"""The most root moves for which the root is scanned for anti-decisive moves (the scan
costs about the square of the moves in ``result`` calls; see ``Tree.scan_root``)."""


@dataclass(eq=False, slots=True)
class Node:
    """One state in the tree: its mover, children and per-player reward sums.

    ``children`` maps an index into ``moves`` (the actions, or at a CHANCE node the
    outcomes) to the child; ``untried`` are the indices not expanded yet.  ``proof`` is
    set on terminal nodes and, with the solver, on nodes whose value is proven.

    At a SIMULTANEOUS node ``moves`` is empty and ``options[p]`` are player ``p``'s own
    actions; a child's key is the joint action's indices read as one number
    (:func:`joint_key`), and ``own_visits[p][i]`` / ``own_totals[p][i]`` are player
    ``p``'s statistics of its action ``i`` (decoupled UCT).  With regret matching
    (``selection="rm"``) each player also keeps its cumulative ``regrets``, the sum of
    its strategies over the visits (``policy``, whose normalisation is the mixed
    strategy the search recommends) and the strategy it sampled from last (``sampled``).

    ``pending`` counts the lanes of a batch (:meth:`Tree.iterate_batch`) that passed
    through the node and are not backed up yet: their visits are in ``visits`` without
    their rewards (the virtual loss); it is 0 between iterations.
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
    options: tuple[Sequence[Any], ...] = ()
    own_visits: list[list[int]] = field(default_factory=list)
    own_totals: list[list[float]] = field(default_factory=list)
    regrets: list[list[float]] = field(default_factory=list)  # selection "rm" only
    policy: list[list[float]] = field(default_factory=list)  # summed strategies ("rm")
    sampled: list[list[float]] = field(default_factory=list)  # this visit's strategy ("rm")
    scanned: bool = False  # the root scan (decisive moves) was done at this node
    pending: int = 0  # virtual losses: visits of batched lanes not backed up yet


def joint_key(node: Node, picks: Sequence[int]) -> int:
    """The key of the child after the players' own action indices ``picks``."""
    key = 0
    for options, i in zip(node.options, picks, strict=True):
        key = key * len(options) + i
    return key


def joint_picks(node: Node, key: int) -> list[int]:
    """The own action indices of the child keyed ``key`` (the inverse of joint_key)."""
    picks = []
    for options in reversed(node.options):
        key, i = divmod(key, len(options))
        picks.append(i)
    return picks[::-1]


def joint_action(node: Node, picks: Sequence[int]) -> tuple[Any, ...]:
    """The joint action (a tuple in player order) of the own action indices ``picks``."""
    return tuple(options[i] for options, i in zip(node.options, picks, strict=True))


def own_strategy(node: Node, player: int) -> list[float]:
    """``player``'s mixed strategy at a visited SIMULTANEOUS node: its average strategy
    under regret matching, else the frequencies of its own actions' visits."""
    weights: Sequence[float] = node.policy[player] if node.policy else node.own_visits[player]
    total = sum(weights)
    return [w / total for w in weights] if total else [1.0 / len(weights)] * len(weights)


def own_choice(node: Node, player: int) -> int:
    """``player``'s most played own action at a SIMULTANEOUS node: the most probable in
    :func:`own_strategy` (ties: the higher mean reward, then the first)."""
    visits, totals = node.own_visits[player], node.own_totals[player]
    weights = own_strategy(node, player)
    return max(
        range(len(visits)),
        key=lambda i: (weights[i], totals[i] / visits[i] if visits[i] else 0.0, -i),
    )


@dataclass
class Tree:
    """The search tree and one iteration of UCT over it (see :mod:`plies.search.mcts`)."""

    game: Any
    ops: GameOps
    rng: random.Random
    exploration: float
    playout: int
    stats: SearchStats
    solver: bool = True
    selection: str = "ucb"  # at SIMULTANEOUS nodes: "ucb" (decoupled UCB1) or "rm"
    lo: float = 0.0
    span: float = 1.0  # rewards are (u - lo) / span; (0, 1) when utilities are unbounded
    bounded: bool = False
    shortcut: bool = False  # a top-reward child proves its parent (see prove)
    root: Node = field(init=False)
    own_actions: Callable[[Any, int], Sequence[Any]] = field(init=False)

    def __post_init__(self) -> None:
        lo, hi = self.ops.utility_range
        if math.isfinite(lo) and math.isfinite(hi) and hi > lo:
            self.lo, self.span, self.bounded = lo, hi - lo, True
            players = self.ops.num_players
            zero_sum = bool(getattr(self.game, "zero_sum", False))
            self.shortcut = players == 1 or (players == 2 and zero_sum)
        game = self.game
        own = getattr(game, "player_actions", None)
        self.own_actions = own if own is not None else (
            lambda state, p: default_player_actions(game, state, p)
        )

    def reward(self, u: float) -> float:
        r = (float(u) - self.lo) / self.span
        return min(1.0, max(0.0, r)) if self.bounded else r

    def utility(self, r: float) -> float:
        """A mean reward back on the utility scale."""
        return self.lo + r * self.span

    def node(self, state: Any) -> Node:
        ops = self.ops
        players = ops.num_players
        if ops.is_terminal(state):
            proof = [self.reward(ops.utility(state, p)) for p in range(players)]
            return Node(state, -1, True, totals=[0.0] * players, proof=proof)
        mover = ops.to_move(state)
        probs: Sequence[float] = ()
        if mover == SIMULTANEOUS:
            options = tuple(tuple(self.own_actions(state, p)) for p in range(players))
            if not all(options):
                raise UnsupportedGameError(
                    f"a player has no legal action in the non-terminal state {state!r}"
                )
            node = Node(
                state, mover, False, totals=[0.0] * players, options=options,
                own_visits=[[0] * len(o) for o in options],
                own_totals=[[0.0] * len(o) for o in options],
            )
            if self.selection == "rm":
                node.regrets = [[0.0] * len(o) for o in options]
                node.policy = [[0.0] * len(o) for o in options]
                node.sampled = [[1.0 / len(o)] * len(o) for o in options]
            return node
        if mover == CHANCE:
            outcomes = ops.chance_outcomes(state)
            moves: Sequence[Any] = [o for o, _ in outcomes]
            probs = [p for _, p in outcomes]
        else:
            if not 0 <= mover < players:
                raise not_a_player(self.game, mover)
            moves = ops.actions(state)
            if not moves:
                raise no_actions(state)
        return Node(state, mover, False, moves, probs, list(range(len(moves))),
                    totals=[0.0] * players)

    def scan_root(self) -> None:
        """Decisive and anti-decisive moves at the root, once per root node.

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

        Chance and simultaneous roots are not scanned (no single mover decides there).
        """
        root, ops = self.root, self.ops
        if root.scanned or root.mover in (CHANCE, SIMULTANEOUS):
            return
        root.scanned = True
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
        path, joints = self.descend()
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
        for n, picks in joints:
            for p, i in enumerate(picks):
                n.own_visits[p][i] += 1
                n.own_totals[p][i] += rewards[p]
            if n.regrets:
                regret_update(n, picks, rewards)
        if self.solver and leaf.proof is not None:
            self.prove_up(path)

    def descend(self) -> tuple[list[Node], list[tuple[Node, list[int]]]]:
        """Selection and expansion: the path from the root to the leaf reached (a node
        just added, or a solved one), and the SIMULTANEOUS nodes on it with each
        player's own action index there."""
        node = self.root
        path = [node]
        joints: list[tuple[Node, list[int]]] = []  # simultaneous nodes and their picks
        rng = self.rng
        while node.proof is None:  # a solved node's value is known: no playout below it
            if node.mover == SIMULTANEOUS:
                picks = self.select_joint(node)
                joints.append((node, picks))
                k = joint_key(node, picks)
                child = node.children.get(k)
                if child is None:
                    after = self.ops.result(node.state, joint_action(node, picks))
                    child = node.children[k] = self.node(after)
                    path.append(child)
                    break
            elif node.mover == CHANCE:
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
        return path, joints

    def prove_up(self, path: Sequence[Node]) -> None:
        """MCTS-Solver's backup from a solved leaf: :meth:`prove` its ancestors, from
        the leaf's parent up, until one is not solved."""
        for n in reversed(path[:-1]):
            if not self.prove(n):
                break

    def iterate_batch(self, lanes: int) -> int:
        """Up to ``lanes`` iterations with one batch of playouts (the game's
        ``random_playouts`` hook); the number of iterations done.

        Tree parallelisation with a *virtual loss* (Chaslot, Winands and van den Herik,
        2008, "Parallel Monte-Carlo Tree Search"): the lanes descend one after another
        (:meth:`descend`, the same selection and expansion as :meth:`iterate`), each
        adding a visit without reward to every node on its path (and to the own
        actions it chose at SIMULTANEOUS nodes), so that the next lane's UCB1 sees the
        path as a loss and spreads to other moves.  A lane that reaches a solved node
        needs no playout: its proof is its reward, and MCTS-Solver proves the ancestors
        at once, so the next lanes see the proof.  Then one batch of playouts runs from
        the other lanes' leaves, and every lane's rewards are added to its path (the
        virtual visits become real ones: ``pending`` goes back to 0).  A lane whose
        playout did not end within ``playout`` plies gets a playout of its own
        (:meth:`rollout`, scored by ``evaluate`` at the cap).  Stops early when the
        root is solved; with one lane, the iteration differs from :meth:`iterate` only
        in where its playout comes from.
        """
        batch = self.ops.random_playouts
        assert batch is not None
        root = self.root
        paths: list[list[Node]] = []
        joints_of: list[list[tuple[Node, list[int]]]] = []
        sampled_of: list[list[list[list[float]]]] = []
        for _ in range(lanes):
            if root.proof is not None:
                break
            path, joints = self.descend()
            for n in path:
                n.visits += 1
                n.pending += 1
            sampled = []
            for n, picks in joints:
                for p, i in enumerate(picks):
                    n.own_visits[p][i] += 1
                if n.regrets:  # this lane's strategies, for its regret update
                    sampled.append([list(x) for x in n.sampled])
            paths.append(path)
            joints_of.append(joints)
            sampled_of.append(sampled)
            if self.solver and path[-1].proof is not None:
                self.prove_up(path)
        rewards_of: list[Sequence[float] | None] = [path[-1].proof for path in paths]
        waiting = [i for i, r in enumerate(rewards_of) if r is None]
        self.stats.leaves += len(paths) - len(waiting)  # the lanes at solved nodes
        if waiting:
            ends = batch([paths[i][-1].state for i in waiting], self.rng, self.playout)
            if len(ends) != len(waiting):
                raise UnsupportedGameError(
                    f"random_playouts returned {len(ends)} results for {len(waiting)} states"
                )
            for i, end in zip(waiting, ends, strict=True):
                if end is None:
                    rewards_of[i] = self.rollout(paths[i][-1].state)
                else:
                    self.stats.leaves += 1
                    rewards_of[i] = [self.reward(u) for u in end]
        for path, joints, sampled, rewards in zip(
            paths, joints_of, sampled_of, rewards_of, strict=True
        ):
            assert rewards is not None
            for n in path:
                n.pending -= 1
                totals = n.totals
                for p, r in enumerate(rewards):
                    totals[p] += r
            held = iter(sampled)
            for n, picks in joints:
                for p, i in enumerate(picks):
                    n.own_totals[p][i] += rewards[p]
                if n.regrets:
                    regret_update(n, picks, rewards, next(held))
        return len(paths)

    def prove(self, node: Node) -> bool:
        """MCTS-Solver's backup: set ``node.proof`` if its children prove its value.

        A decision node is solved once every child is solved (by the first child, in
        action order, that is best for the mover: max^n's rule, so a proven value is
        max^n's); a chance node once every outcome was sampled and solved (their
        probability-weighted mean).  In a one-player or two-player zero-sum game with a
        finite ``utility_range`` a solved child that gives the mover the top reward
        solves its parent at once (MCTS-Solver's proven win: every such child has the
        same vector there, so this is still max^n's value).  With more players (or any
        sums) it does so when every child before it in action order is solved: no later
        child can beat it for the mover, and max^n takes the first of equals, so its
        vector is the parent's.  Without that, a top-reward child that UCB keeps choosing
        left its siblings visited ln N times and the parent unproven.

        A SIMULTANEOUS node is never solved: its exact value is the equilibrium of the
        stage game of its children's values (a linear program, see
        :func:`plies.search.simultaneous.simultaneous`), which no child's value alone
        proves.  Its solved children still score their exact rewards without playouts.
        """
        children = node.children
        if node.mover == SIMULTANEOUS:
            return False
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
        settled = False  # a top-reward child decides max^n's choice before the rest
        prefix = True  # every child so far is solved
        for k in range(len(node.moves)):
            child = children.get(k)
            proof = None if child is None else child.proof
            if proof is None:
                complete = prefix = False
                continue
            if proof[mover] > top:
                best, top = k, proof[mover]
            if top >= 1.0 and (self.shortcut or (self.bounded and prefix)):
                settled = True
                break
        if best < 0 or not (complete or settled):
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

    def select_joint(self, node: Node) -> list[int]:
        """Each player's own action at a SIMULTANEOUS node: by UCB1 (``selection="ucb"``,
        :meth:`select_ucb`) or regret matching (``"rm"``, :func:`regret_matching`)."""
        if node.regrets:
            return regret_matching(node, self.rng)
        return self.select_ucb(node)

    def select_ucb(self, node: Node) -> list[int]:
        """Decoupled UCT at a SIMULTANEOUS node: each player's own action by UCB1 on its
        own statistics (an action it never tried first, drawn at random among those, and
        equal scores too: in a symmetric game the players' statistics are often equal,
        and a fixed tie rule would make them choose in lockstep, e.g. only the draws of
        rock-paper-scissors).  A player with one action draws nothing."""
        c, rng = self.exploration, self.rng
        log_n = math.log(node.visits) if node.visits else 0.0
        picks = []
        for visits, totals in zip(node.own_visits, node.own_totals, strict=True):
            if len(visits) == 1:
                picks.append(0)
                continue
            if rng.random() < UCB_MIX:
                picks.append(rng.randrange(len(visits)))
                continue
            fresh = [i for i, v in enumerate(visits) if v == 0]
            if fresh:
                picks.append(fresh[rng.randrange(len(fresh))] if len(fresh) > 1 else fresh[0])
                continue
            best: list[int] = []
            best_score = -math.inf
            for i, v in enumerate(visits):
                score = totals[i] / v + c * math.sqrt(log_n / v)
                if score > best_score:
                    best, best_score = [i], score
                elif score == best_score:
                    best.append(i)
            picks.append(best[0] if len(best) == 1 else best[rng.randrange(len(best))])
        return picks

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


UCB_MIX: Final = 0.05
"""At a SIMULTANEOUS node with ``selection="ucb"``, the chance that a player picks a
uniformly random own action instead of UCB1's (see :meth:`Tree.select_ucb`)."""

RM_EXPLORATION: Final = 0.1
"""The share of uniform exploration mixed into a regret-matching strategy (gamma)."""


def regret_matching(node: Node, rng: random.Random) -> list[int]:
    """Each player's own action drawn from its regret-matching strategy (Hart and
    Mas-Colell 2000, in simultaneous-move MCTS as Lanctot, Lisý and Winands 2013 do):
    the positive part of its cumulative regrets, normalised (uniform when none is
    positive), mixed with :data:`RM_EXPLORATION` of the uniform strategy.  The strategy
    is added to ``policy``, whose average converges towards an equilibrium of a
    two-player zero-sum stage game, and kept in ``sampled`` for the update."""
    picks = []
    for p, regrets in enumerate(node.regrets):
        k = len(regrets)
        if k == 1:
            picks.append(0)
            continue
        positive = [r if r > 0.0 else 0.0 for r in regrets]
        total = sum(positive)
        gamma = RM_EXPLORATION
        if total > 0.0:
            sigma = [(1.0 - gamma) * r / total + gamma / k for r in positive]
        else:
            sigma = [1.0 / k] * k
        node.sampled[p] = sigma
        summed = node.policy[p]
        for i, x in enumerate(sigma):
            summed[i] += x
        draw, i, acc = rng.random(), 0, sigma[0]
        while draw >= acc and i < k - 1:
            i += 1
            acc += sigma[i]
        picks.append(i)
    return picks


def regret_update(
    node: Node, picks: Sequence[int], rewards: Sequence[float],
    sampled: Sequence[Sequence[float]] | None = None,
) -> None:
    """Outcome-sampling regrets: player ``p`` got ``x`` for its sampled action ``a``;
    the unbiased estimate of an action's value is ``x / sigma(a)`` for ``a`` and 0 for
    the others, and each action's regret grows by its estimate minus ``x``.  ``sigma``
    is ``sampled`` (the strategies the picks were drawn from), by default the node's
    last ones."""
    strategies = node.sampled if sampled is None else sampled
    for p, a in enumerate(picks):
        regrets = node.regrets[p]
        if len(regrets) == 1:
            continue
        x = rewards[p]
        for i in range(len(regrets)):
            regrets[i] -= x
        regrets[a] += x / strategies[p][a]


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


def mean_reward(node: Node, who: int) -> float:
    """``who``'s reward at ``node``: proven, or the mean of its playouts (0.5 unvisited)."""
    if node.proof is not None:
        return node.proof[who]
    return node.totals[who] / node.visits if node.visits else 0.5
