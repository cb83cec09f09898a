"""Monte Carlo tree search: UCT (Kocsis and Szepesvári, 2006) on plies' game model.

One iteration walks down the tree from the root (*selection*: at a node of player ``p``
the child maximising ``p``'s mean reward plus ``c * sqrt(ln N / n)``, UCB1), adds one
child (*expansion*: an untried action, drawn with the search's seeded generator), plays
random moves from it (*playout*) and adds the reward vector at the end to every node on
the path (*backpropagation*).

- **N players.**  Every node keeps one reward sum per player and its mover maximises its
  own (the max^n view, as in :func:`plies.maxn`); two zero-sum players get plain UCT.
- **Chance.**  At a CHANCE node selection *samples* an outcome by its probability
  (``chance_outcomes``); in a playout too.
- **Simultaneous moves: decoupled UCT** (Lanctot, Lisý and Winands, 2013; CadiaPlayer).
  At a SIMULTANEOUS node each player chooses its own action by UCB1 on its own
  statistics (its visits and reward sums of that action, whatever the others chose),
  or uniformly at random in 5% of its choices (``UCB_MIX``: in a symmetric game both
  players' statistics are equal, and pure UCB1 would have them choose in lockstep);
  the joint action is the tuple.  The final move there is the searching player's most
  visited own action, and ``strategy`` its visit frequencies: in a zero-sum matrix
  game such as rock-paper-scissors they approach a mixed equilibrium (approximately:
  decoupled UCB1 is not guaranteed to converge to one, Lanctot et al. show; it does
  closely on the games tested; ``selection="rm"``, regret matching, does better).
  Every combination of the players' ``player_actions``
  must be a legal joint action.  Playouts draw every player's action at random.
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
  (see :meth:`plies.search.mcts_tree.Tree.prove`); solved nodes need no playout,
  selection scores them by their exact reward, and a solved root ends the search with
  ``exact=True`` and max^n's value.  A SIMULTANEOUS node is never solved: its exact
  value is the equilibrium of a stage game (a linear program, see
  :func:`plies.search.simultaneous.simultaneous`), which no single child proves; so a
  proof stops rising there.
- **Batched iterations** (``batch`` > 1, on a game with the ``random_playouts`` hook):
  tree parallelisation with a virtual loss (Chaslot, Winands and van den Herik, 2008):
  up to ``batch`` lanes select and expand one after another, each counting a visit
  without reward on its path, then one batch of playouts scores them all, and their
  rewards are backed up (see :meth:`plies.search.mcts_tree.Tree.iterate_batch`).
- **Tree reuse.**  :class:`MctsTree` keeps the tree between searches: search, play a
  move, :meth:`MctsTree.advance` (or :meth:`MctsTree.reroot` to a state) to the child
  that was reached, and search again from that subtree with its statistics kept, as a
  game-playing program does between its moves.  :func:`mcts` is one search of a fresh
  tree.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable
from typing import Any, Final

from plies.errors import OptionError
from plies.game import CHANCE, SIMULTANEOUS, Game, game_ops
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
    resolve_player,
)
from plies.search.limits import can_stop
from plies.search.mcts_tree import (
    ANTI_DECISIVE,
    Node,
    Tree,
    final_choice,
    joint_action,
    joint_key,
    mean_reward,
    own_choice,
    own_strategy,
)

EXPLORATION: Final = math.sqrt(2)
"""UCB1's exploration constant for rewards in [0, 1]."""
PLAYOUT: Final = 200
"""Plies a playout plays at most before ``evaluate`` scores where it stopped."""
ITERATIONS: Final = 10_000
"""Iterations of a search given neither time, nodes nor stop."""
SELECTIONS: Final = ("ucb", "rm")
"""How players choose at SIMULTANEOUS nodes: decoupled UCB1, or regret matching."""


class MctsSearcher(Searcher):
    """MCTS's declared capabilities for the registry (chance: yes, simultaneous: yes).

    MCTS is not a depth-first recursion: :func:`mcts` runs the tree itself, and this
    class only carries the facts :meth:`Searcher.refuse` checks.
    """

    algorithm = "mcts"
    chance_ok = True
    simultaneous_ok = True


class MctsTree:
    """A UCT tree that lives across searches: search, move, re-root, search again.

    Built at ``state`` with the search's settings (see :func:`mcts` for ``seed``,
    ``exploration``, ``playout``, ``solver``, ``selection`` and ``batch``).
    :meth:`search` adds iterations to the tree and returns what :func:`mcts` returns;
    :meth:`advance` and :meth:`reroot` move the root down to the state reached after a
    move, keeping that subtree with its visits, reward sums and proofs (the rest of the
    tree is dropped), so the next search
    starts from what the last one learnt about the position actually played.  One
    generator (seeded once) serves every search of the tree.

    >>> from plies.games import load
    >>> ttt = load("tictactoe")
    >>> tree = MctsTree(ttt, ttt.initial_state(), seed=1)
    >>> first = tree.search(Limit(nodes=500))
    >>> tree.advance(first.action), tree.visits > 0
    (True, True)
    """

    def __init__(
        self,
        game: Game[Any, Any],
        state: Any,
        *,
        seed: int | None = None,
        exploration: float = EXPLORATION,
        playout: int = PLAYOUT,
        solver: bool = True,
        selection: str = "ucb",
        batch: int = 1,
    ) -> None:
        if selection not in SELECTIONS:
            known = ", ".join(SELECTIONS)
            raise OptionError(f"selection must be one of {known}, got {selection!r}")
        if not exploration >= 0:
            raise OptionError(f"exploration must be >= 0, got {exploration}")
        if playout < 0:
            raise OptionError(f"playout must be >= 0 plies, got {playout}")
        MctsSearcher.refuse(game)
        self.game = game
        self.seed = 0 if seed is None else seed
        self.ops = game_ops(game)
        self.tree = Tree(
            game, self.ops, random.Random(self.seed), exploration, playout, SearchStats(), solver,
            selection,
        )
        self.tree.root = self.tree.node(state)
        self.batch = batch
        self.pace = 0.0  # seconds an iteration took in the last timed search (batches)

    @property
    def batch(self) -> int:
        """Iterations a step of :meth:`search` runs with one batch of playouts (the
        game's ``random_playouts`` hook; see :meth:`plies.search.mcts_tree.Tree.iterate_batch`);
        1, or a game without the hook: one playout per iteration.  Under a time limit a
        batch is cut to the iterations that fit before the deadline at the pace of the
        iterations so far (of this search, else of the last timed one).  May be changed
        between searches."""
        return self._batch

    @batch.setter
    def batch(self, lanes: int) -> None:
        if isinstance(lanes, bool) or not isinstance(lanes, int) or lanes < 1:
            raise OptionError(f"batch must be an integer >= 1 (iterations), got {lanes!r}")
        self._batch = lanes

    @property
    def root(self) -> Node:
        """The root node (its ``visits``, ``totals``, ``children``, ``proof``)."""
        return self.tree.root

    @property
    def state(self) -> Any:
        """The root's state."""
        return self.tree.root.state

    @property
    def visits(self) -> int:
        """Iterations through the root so far (kept ones included)."""
        return self.tree.root.visits

    def search(
        self,
        limit: Limit | None = None,
        *,
        player: int | None = None,
        tie: str = "first",
        all_values: bool = False,
        stop: StopSignal | None = None,
        on_iteration: Callable[[SearchResult], None] | None = None,
    ) -> SearchResult:
        """Iterate from the root under ``limit`` and ``stop``; the options and the result
        are :func:`mcts`'s (``stats`` count this search's iterations only)."""
        check_tie(tie)
        limit = limit or Limit()
        if limit.depth is not None:
            raise OptionError("mcts takes a time or node (iteration) budget, not a depth")
        tree, ops = self.tree, self.ops
        root = tree.root
        who = resolve_player(self.game, root.state, player)
        start = time.perf_counter()
        stats = tree.stats = SearchStats()
        if root.terminal:
            stats.elapsed = time.perf_counter() - start
            value = float(ops.utility(root.state, who))
            return SearchResult(value, None, (), stats, who).about(self.game, root.state)
        if tree.solver:
            tree.scan_root()
        budget = limit.nodes
        if budget is None and limit.time is None and not can_stop(stop):
            budget = ITERATIONS
        deadline = None if limit.time is None else start + limit.time
        next_look, look = budget_check(deadline, None, stop)
        tie_rng = random.Random(self.seed) if tie == "random" else None

        def result(stopped: bool) -> SearchResult:
            stats.elapsed = time.perf_counter() - start
            found = _result(tree, who, tie, tie_rng, all_values, stopped)
            return found.about(self.game, root.state)

        report, reported = 1024, 0
        stopped = False
        lanes = self._batch if ops.random_playouts is not None else 1
        while (budget is None or stats.nodes < budget) and root.proof is None:
            if stats.nodes >= next_look:
                try:
                    next_look = look(stats.nodes)
                except OutOfBudget:
                    stopped = True
                    break
            if lanes == 1:
                tree.iterate()
                stats.nodes += 1
            else:
                step = lanes if budget is None else min(lanes, budget - stats.nodes)
                if deadline is not None:  # a batch that would end after the deadline: fewer
                    now = time.perf_counter()
                    if stats.nodes:
                        self.pace = (now - start) / stats.nodes
                    if self.pace > 0.0:
                        step = max(1, min(step, int((deadline - now) / self.pace)))
                stats.nodes += tree.iterate_batch(step)
            if on_iteration is not None and stats.nodes >= report:
                while report <= stats.nodes:
                    report *= 2
                reported = stats.nodes
                on_iteration(result(False))
        final = result(stopped)
        if on_iteration is not None and stats.nodes and stats.nodes != reported:
            on_iteration(final)  # every iteration is complete, so the last one is reported too
        return final

    def advance(self, action: Any) -> bool:
        """Move the root to the state after ``action``: the mover's action, at a
        SIMULTANEOUS root the joint action (a tuple in player order), at a CHANCE root
        the outcome.  True when that child was in the tree (its subtree and statistics
        are kept), False when the root is a fresh node.  The action is not checked for
        legality beyond the game's own ``result``."""
        tree = self.tree
        root = tree.root
        key: int | None = None
        if root.mover == SIMULTANEOUS:
            try:
                picks = [list(o).index(a) for o, a in zip(root.options, action, strict=True)]
            except (ValueError, TypeError):
                picks = None
            if picks is not None:
                key = joint_key(root, picks)
        elif not root.terminal:
            key = next((k for k, m in enumerate(root.moves) if m == action), None)
        child = None if key is None else root.children.get(key)
        if child is not None:
            tree.root = child
            return True
        tree.root = tree.node(self.ops.result(root.state, action))
        return False

    def reroot(self, state: Any, *, depth: int = 2) -> bool:
        """Move the root to ``state``: a node of the tree at most ``depth`` moves below
        the root with the same ``game.key`` (the shallowest first), else a fresh node.
        True when a node was found (its subtree and statistics are kept)."""
        tree = self.tree
        key = self.ops.key
        wanted = key(state)
        level = [tree.root]
        for _ in range(depth + 1):
            for node in level:
                if key(node.state) == wanted:
                    tree.root = node
                    return True
            level = [child for node in level for child in node.children.values()]
        tree.root = tree.node(state)
        return False


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
    selection: str = "ucb",
    batch: int = 1,
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

    At a SIMULTANEOUS root (``player`` must then be given) ``action`` is ``player``'s own
    most visited action (decoupled UCT), ``strategy`` the visit frequencies of its own
    actions (to play a mixed strategy, draw from it), ``value`` its mean reward for that
    action, ``action_values`` its own actions' means, and ``pv`` starts with the joint
    action of every player's most visited action.  A SIMULTANEOUS root is never exact.
    ``selection`` is how players choose at SIMULTANEOUS nodes: ``"ucb"`` (decoupled UCB1
    with ``exploration``; the strategy is the visit frequencies) or ``"rm"`` (regret
    matching with outcome sampling; the strategy is the average of the sampled
    strategies, which approaches an equilibrium of a zero-sum stage game more reliably
    than UCB1's visits do).
    ``batch`` > 1 runs up to that many iterations at a time with one batch of playouts,
    on a game with the ``random_playouts`` hook (tree parallelisation with virtual loss,
    :meth:`plies.search.mcts_tree.Tree.iterate_batch`); without the hook, or with 1,
    one playout per iteration.  A node budget is still exact.
    To keep the tree between moves, use :class:`MctsTree`.
    """
    check_tie(tie)
    MctsSearcher.refuse(game)
    if trace is not None:
        raise OptionError("mcts cannot be traced; trace minimax or alphabeta")
    if limit is not None and limit.depth is not None:
        raise OptionError("mcts takes a time or node (iteration) budget, not a depth")
    resolve_player(game, state, player)
    tree = MctsTree(
        game, state, seed=seed, exploration=exploration, playout=playout, solver=solver,
        selection=selection, batch=batch,
    )
    return tree.search(
        limit, player=player, tie=tie, all_values=all_values, stop=stop,
        on_iteration=on_iteration,
    )


def _result(
    tree: Tree, who: int, tie: str, rng: random.Random | None, all_values: bool,
    stopped: bool,
) -> SearchResult:
    root = tree.root
    pv: list[Any] = []
    first: Node | None = None  # the root's chosen child
    node = root
    while not node.terminal and node.mover != CHANCE:
        if node.mover == SIMULTANEOUS:
            if not node.visits:
                break
            picks = [own_choice(node, p) for p in range(len(node.options))]
            pv.append(joint_action(node, picks))
            child = node.children.get(joint_key(node, picks))
        else:
            if node.proof is not None:  # a solved node: its proving child
                k: int | None = node.best
            else:
                k = final_choice(node, tie if node is root else "first", rng)
            if k is None:
                break
            pv.append(node.moves[k])
            child = node.children[k]
        if child is None:
            break
        if node is root:
            first = child
        node = child
    stats = dataclasses.replace(tree.stats)  # a snapshot: the search may go on
    stats.depth = len(pv)
    values = strategy = None
    if root.mover == SIMULTANEOUS:
        visits, totals = root.own_visits[who], root.own_totals[who]
        mine = own_choice(root, who)
        weights = own_strategy(root, who)
        action = root.options[who][mine] if pv else None
        value = tree.utility(totals[mine] / visits[mine] if visits[mine] else 0.5)
        if all_values:
            values = {
                a: tree.utility(totals[i] / visits[i])
                for i, a in enumerate(root.options[who]) if visits[i]
            }
        if sum(visits):
            strategy = dict(zip(root.options[who], weights, strict=True))
        return SearchResult(
            value, action, tuple(pv), stats, who, exact=False, action_values=values,
            strategy=strategy, stopped=stopped,
        )
    if root.mover == CHANCE or first is None:
        chosen, action = root, None
    else:
        chosen, action = first, pv[0]
    if all_values and root.mover != CHANCE:
        values = {
            root.moves[k]: tree.utility(mean_reward(root.children[k], who))
            for k in sorted(root.children)
            if root.children[k].visits
        }
    exact = root.proof is not None
    return SearchResult(
        tree.utility(mean_reward(chosen, who)), action, tuple(pv), stats, who, exact=exact,
        action_values=values, stopped=stopped and not exact,
    )


__all__ = [
    "ANTI_DECISIVE", "EXPLORATION", "ITERATIONS", "PLAYOUT", "SELECTIONS", "MctsSearcher",
    "MctsTree",
    "Node", "final_choice", "mcts",
]
