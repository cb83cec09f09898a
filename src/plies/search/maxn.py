"""Max^n: every player maximises its own utility (Luckhardt and Irani, 1986).

Each node backs up a utility *vector*: at a node where player ``p`` moves, the child
vector with the largest ``p``-th component (the first such child in ``actions()`` order);
at a chance node, the probability-weighted mean vector.  With two zero-sum players max^n
and minimax choose the same values.  Max^n cannot prune in general (shallow pruning needs
bounds on the sum of utilities), so it visits every node of the depth-limited tree.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from plies.game import CHANCE, Game
from plies.search.common import (
    INF,
    NOBODY,
    Limit,
    Searcher,
    SearchResult,
    StopSignal,
    Trace,
    resolve_player,
    run,
)

Vector = tuple[float, ...]


class MaxnSearcher(Searcher):
    """Max^n over utility vectors; chance nodes average."""

    algorithm = "maxn"
    chance_ok = True
    vector: Vector = ()

    def leaf_vector(self, state: Any, depth: int, mover: int, ply: int) -> Vector | None:
        ops = self.ops
        players = range(ops.num_players)
        if ops.is_terminal(state):
            vec = tuple(float(ops.utility(state, p)) for p in players)
            kind = "terminal"
        elif self.max_depth is not None and depth >= self.max_depth:
            vec = tuple(float(ops.evaluate(state, p)) for p in players)
            self.stats.evals += len(vec)
            self.heuristic = True
            kind = "cutoff"
        else:
            return None
        self.stats.leaves += 1
        self.pv[ply] = []
        if self.trace is not None:
            self.emit(kind, state, depth, mover, vec[self.player], values=vec)
        return vec

    def vector_value(self, state: Any, depth: int, last: int, ply: int) -> Vector:
        """The max^n utility vector of ``state`` (component ``p``: player ``p``'s utility)."""
        self.enter(ply)
        ops = self.ops
        mover = ops.to_move(state)
        actor = self.actor(state, mover)
        depth = self.depth_here(depth, actor, last)
        trace = self.trace
        if trace is not None:
            self.emit("enter", state, depth, mover)
        leaf = self.leaf_vector(state, depth, mover, ply)
        if leaf is not None:
            return leaf
        self.check_mover(mover)
        if trace is not None:
            self.emit("expand", state, depth, mover)
        last = self.next_last(actor, last)
        vec: Vector = ()
        if mover == CHANCE:
            total = [0.0] * ops.num_players
            child_depth = depth + self.step(actor)  # dice do not count, a modelled player does
            for outcome, p in ops.chance_outcomes(state):
                child = self.descend(
                    state, outcome, self.vector_value, child_depth, last, ply + 1
                )
                for k, u in enumerate(child):
                    total[k] += p * u
            vec = tuple(total)
            self.pv[ply] = []
        else:
            child_depth = depth + self.ply_step
            best = -INF
            for action in self.legal(state):
                child = self.descend(state, action, self.vector_value, child_depth, last, ply + 1)
                if child[mover] > best:
                    best, vec = child[mover], child
                    self.pv[ply] = [action, *self.pv[ply + 1]]
        if trace is not None:
            self.emit("backup", state, depth, mover, vec[self.player], values=vec)
        return vec

    def node_value(
        self, state: Any, depth: int, last: int, ply: int, alpha: float, beta: float
    ) -> float:
        return self.vector_value(state, depth, last, ply)[self.player]

    def root(
        self,
        state: Any,
        *,
        tie: str = "first",
        rng: random.Random | None = None,
        all_values: bool = False,
    ) -> tuple[float, Any, list[Any], dict[Any, float] | None]:
        """The mover at the root picks the child that maximises its own component."""
        ops = self.ops
        mover = ops.to_move(state)
        cut = self.max_depth is not None and self.max_depth <= 0
        if mover == CHANCE or cut or ops.is_terminal(state):
            self.vector = self.vector_value(state, 0, NOBODY, 0)
            return self.vector[self.player], None, list(self.pv[0]), {} if all_values else None
        self.enter(0)
        self.check_mover(mover)
        if self.trace is not None:
            self.emit("enter", state, 0, mover)
            self.emit("expand", state, 0, mover)
        last = self.next_last(mover, NOBODY)
        scored: list[tuple[Any, Vector, list[Any]]] = []
        for action in self.legal(state):
            vec = self.descend(state, action, self.vector_value, self.ply_step, last, 1)
            scored.append((action, vec, [action, *self.pv[1]]))
        best = max(vec[mover] for _, vec, _ in scored)
        ties = [entry for entry in scored if entry[1][mover] == best]
        action, self.vector, pv = rng.choice(ties) if tie == "random" and rng else ties[0]
        self.pv[0] = pv
        if self.trace is not None:
            self.emit("backup", state, 0, mover, self.vector[self.player], values=self.vector)
        values = {a: vec[self.player] for a, vec, _ in scored} if all_values else None
        return self.vector[self.player], action, pv, values


def maxn(
    game: Game[Any, Any],
    state: Any,
    limit: Limit | None = None,
    *,
    player: int | None = None,
    tie: str = "first",
    seed: int | None = None,
    trace: Trace | None = None,
    stop: StopSignal | None = None,
    on_iteration: Callable[[SearchResult], None] | None = None,
) -> SearchResult:
    """Max^n search: each player maximises its own utility.

    ``values`` is the utility vector the search expects (one entry per player) and
    ``value`` its ``player`` component (default: the player to move).  ``action`` is the
    mover's choice: the first action whose vector maximises the mover's own utility, or
    a seeded random one among them (``tie="random"``).  Tie-breaking inside the tree is
    "first" and changes other players' values: max^n's known sensitivity to ties.
    Exact (for this model) when ``result.exact``; chance nodes are averaged.
    ``stop`` and ``on_iteration`` as in :func:`plies.minimax`.
    """
    who = resolve_player(game, state, player)
    unit = limit.unit if limit else "ply"

    def factory(depth: int | None) -> Searcher:
        return MaxnSearcher(game, who, depth, unit, trace)

    def vector(searcher: Searcher) -> Vector:
        assert isinstance(searcher, MaxnSearcher)
        return searcher.vector

    return run(
        factory, state, limit, tie=tie, seed=seed, vector=vector, stop=stop,
        on_iteration=on_iteration,
    )
