"""The alpha-beta core: the node prelude and the move loop, and how the parts fit.

:func:`alphabeta_kernel` builds the one worker behind :func:`plies.alphabeta` (every
engine switch) and ``expectiminimax(pruning=...)``.  The worker's contract, in the manner
of sunfish's ``bound()``:

    ``value(state, depth, ply, alpha, beta)`` returns ``v``, the paranoid value of
    ``state`` for the searching player, fail-soft: if ``alpha < v < beta`` it is the
    value; if ``v <= alpha`` the value is at most ``v``; if ``v >= beta`` at least ``v``.
    The value is that of the tree cut off at the depth limit and scored by ``evaluate``
    (quiescence, extensions and the forward-pruning switches change which tree; see
    :mod:`plies.search.alphabeta.selective`).

A node goes through:

1. **the prelude** (here): count it and look at the budget; the terminal test; its depth
   (in rounds: where the round stands); the cutoff test, which scores it with
   ``evaluate`` or hands it to quiescence; who moves (a chance node goes to
   :mod:`~plies.search.alphabeta.chance`);
2. **the table and the game's bounds** (:mod:`~plies.search.alphabeta.table`), when
   switched on: they may settle the node or narrow the window, and they put the moves
   in the order to try them (table move, killers, history, the game's hint);
3. **null-move pruning** (:mod:`~plies.search.alphabeta.selective`), when switched on;
4. **the move loop**: here for plain alpha-beta and principal variation search; with
   extensions, singular extensions or late-move reductions, the selective loop of
   :mod:`~plies.search.alphabeta.selective`;
5. the table stores the result, the killers and history learn from a cutoff.

Each part is built by its own factory from a
:class:`~plies.search.alphabeta.context.Context` (what they share, read once into closure
cells) and the :class:`~plies.search.alphabeta.context.Switches`.  Why closures and one
long worker: CPython reads a closure cell faster than an attribute, and a call costs about
as much as a plain node's bookkeeping, so the prelude and the move loop share one frame
and the rarer parts are calls (what the core costs beside a bare loop:
``benchmarks/results/search_core.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import nextafter
from typing import Any

from plies.game import CHANCE, GameOps
from plies.search.alphabeta.chance import chance_part
from plies.search.alphabeta.context import PLAIN_CORE, Context, Switches, Tally
from plies.search.alphabeta.selective import selective_part
from plies.search.alphabeta.table import table_part
from plies.search.craft import NULL_DEPTH
from plies.search.kernels import (
    INF,
    NEVER,
    ROUND,
    Emitter,
    Kernel,
    Line,
    no_actions,
    publish,
    refuse_node,
    remaining,
    rounds_depth,
)
from plies.search.limits import StopSignal, budget_check
from plies.search.result import Trace


def alphabeta_kernel(
    ops: GameOps,
    player: int,
    max_depth: int | None,
    switches: Switches = PLAIN_CORE,
    *,
    rounds: bool = False,
    deadline: float | None = None,
    budget: int | None = None,
    stop: StopSignal | None = None,
    game: Any = None,
    trace: Trace | None = None,
) -> Kernel:
    """Fail-soft paranoid alpha-beta as a closure (the contract is the module's).

    ``switches`` says what it does besides plain alpha-beta
    (:class:`~plies.search.alphabeta.context.Switches`).
    ``rounds``: depth counts rounds (:meth:`~plies.search.kernels.Kernel.entry_depth`).
    ``deadline``, ``budget`` and ``stop`` end the search with
    :class:`~plies.search.limits.OutOfBudget` (:func:`~plies.search.limits.budget_check`).
    ``game`` names the game in errors.  ``trace`` gets every node's events, the craft's
    included (:class:`~plies.search.result.TraceEvent`); a traced kernel visits exactly
    the nodes an untraced one visits.
    """
    sw = switches
    kernel = Kernel(player=player, rounds=rounds)
    to_move, actions, result = ops.to_move, ops.actions, ops.result
    is_terminal, utility, evaluate = ops.is_terminal, ops.utility, ops.evaluate
    num_players = ops.num_players
    named = ops if game is None else game
    # The depth at which nodes are cut off, in the worker's unit.  With rounds a node's
    # depth grows on entry (node_depth), so every node takes the first cutoff test
    # (cutoff -1) and the second one, ``depth >= horizon``, decides.
    horizon = NEVER if max_depth is None else max_depth * (ROUND if rounds else 1)
    cutoff = -1 if rounds else horizon
    step = 0 if rounds else 1
    selective = horizon != NEVER and not rounds
    node_depth = rounds_depth(ops, player) if rounds else _same
    order, pvs, strict = sw.order, sw.pvs, sw.strict
    lines: list[Line] = [None] * 64
    tally = Tally()
    nodes = leaves = evals = cutoffs = deepest = 0
    # The adaptive cadence looks at the clock about once a millisecond, whatever a node costs.
    next_check, check = budget_check(deadline, budget, stop)
    emit = None if trace is None else Emitter(trace, kernel.path, to_move, node_depth, rounds)

    def value(state: Any, depth: int, ply: int, alpha: float, beta: float) -> float:
        """The worker: the node prelude, then the move loop.

        The one long function of the core, on purpose: the prelude and the move loop
        share one frame because a call per node would cost about as much as a plain
        node's bookkeeping (W1 to W3 in ``benchmarks/``); everything rarer is a call to
        a part named after what it does.
        """
        nonlocal nodes, leaves, evals, cutoffs, deepest, next_check
        # -- the node prelude: count, budget, terminal test, depth, cutoff test --------
        nodes += 1
        if nodes >= next_check:
            next_check = check(nodes, deepest)
        if is_terminal(state):
            leaves += 1
            if ply > deepest:
                deepest = ply
            lines[ply] = None
            if emit is None:
                return utility(state, player)
            u = utility(state, player)
            emit.arrive("terminal", state, ply, depth, u, alpha, beta)
            return u
        # (With rounds, every node passes the first test: its depth grows on entry.)
        if depth >= cutoff and (not rounds or (depth := node_depth(depth, state)) >= horizon):
            if quiesce is not None:
                return quiesce(state, 0, ply, depth, alpha, beta)
            leaves += 1
            evals += 1
            kernel.heuristic = True
            if ply > deepest:
                deepest = ply
            lines[ply] = None
            if emit is None:
                return evaluate(state, player)
            e = evaluate(state, player)
            emit.arrive("cutoff", state, ply, depth, e, alpha, beta, settled=True)
            return e
        if ply + 2 >= len(lines):
            lines.extend([None] * len(lines))
        mover = to_move(state)
        if mover < 0:
            if mover == CHANCE and chance is not None:
                lines[ply] = None
                return chance(state, depth, ply, alpha, beta)
            raise refuse_node("alphabeta", named, mover)
        if emit is not None:
            emit.arrive("expand", state, ply, depth, None, alpha, beta, settled=True)
        # -- the table and the game's bounds; the order of the moves ---------------------
        entry = None
        if before is not None:
            node = before(state, mover, depth, ply, alpha, beta)
            if type(node) is not tuple:
                return node  # type: ignore[no-any-return]  # the bounds or the table settled it
            moves, alpha, beta, entry = node
        else:
            moves = actions(state)
            if order is not None:
                if emit is None:
                    moves = order(state, moves)
                else:
                    moves = ordered(state, moves, ply, depth, mover)
        # -- null-move pruning ------------------------------------------------------------
        if null_test is not None and horizon - depth >= NULL_DEPTH:
            v = null_test(state, mover, moves, depth, ply, alpha, beta)
            if v is not None:
                if store_null is not None and entry is not None:
                    store_null(entry, v, beta)
                return v
        # -- the move loop ------------------------------------------------------------------
        if forward is not None:  # extensions, singular extensions, late-move reductions
            best, line, alpha, beta = forward(state, mover, moves, depth, ply, alpha, beta, entry)
        else:
            child_depth = depth + step
            child = ply + 1
            line = None
            tried = moves if emit is None else emit.follow(moves, ply, state, depth, mover)
            if mover == player:
                best = -INF
                for i, action in enumerate(tried):
                    if pvs and i:  # a null window first: "is it better than alpha?"
                        nxt = result(state, action)
                        v = value(nxt, child_depth, child, alpha, nextafter(alpha, INF))
                        if alpha < v < beta:
                            if emit is not None:
                                emit("research", state, ply, depth, mover, v, alpha, beta,
                                     action=action)
                            v = value(nxt, child_depth, child, alpha, beta)
                    else:
                        v = value(result(state, action), child_depth, child, alpha, beta)
                    if v > best:
                        best, line = v, (action, lines[child])
                        if v > alpha:
                            alpha = v
                            if alpha >= beta and (alpha > beta or not strict):
                                if i + 1 < len(moves):
                                    cutoffs += 1
                                    if emit is not None:
                                        emit("prune", state, ply, depth, mover, best, alpha,
                                             beta, pruned=remaining(moves, i))
                                break
            else:
                if mover >= num_players:
                    raise refuse_node("alphabeta", named, mover)
                best = INF
                for i, action in enumerate(tried):
                    if pvs and i:
                        nxt = result(state, action)
                        v = value(nxt, child_depth, child, nextafter(beta, -INF), beta)
                        if alpha < v < beta:
                            if emit is not None:
                                emit("research", state, ply, depth, mover, v, alpha, beta,
                                     action=action)
                            v = value(nxt, child_depth, child, alpha, beta)
                    else:
                        v = value(result(state, action), child_depth, child, alpha, beta)
                    if v < best:
                        best, line = v, (action, lines[child])
                        if v < beta:
                            beta = v
                            if alpha >= beta and (alpha > beta or not strict):
                                if i + 1 < len(moves):
                                    cutoffs += 1
                                    if emit is not None:
                                        emit("prune", state, ply, depth, mover, best, alpha,
                                             beta, pruned=remaining(moves, i))
                                break
        if line is None:
            raise no_actions(state)
        lines[ply] = line
        if entry is not None:
            after(entry, best, alpha > beta or (alpha == beta and not strict), line)  # type: ignore[misc]
        if emit is not None:
            emit("backup", state, ply, depth, mover, best, alpha, beta)
        return best

    def count() -> None:
        nonlocal nodes, next_check
        nodes += 1
        if nodes >= next_check:
            next_check = check(nodes)

    def ordered(state: Any, moves: Sequence[Any], ply: int, depth: int, mover: int) -> Any:
        """A traced node's moves in the caller's ``order``, reported when it reorders."""
        assert emit is not None and order is not None
        out = order(state, moves)
        if list(out) != list(moves):
            emit("order", state, ply, depth, mover, moves=out)
        return out

    context = Context(
        ops, player, kernel, lines, tally, emit, horizon, rounds, selective, value, count,
        node_depth, named,
    )
    before, after, store_null = table_part(context, sw)
    quiesce, null_test, forward = selective_part(context, sw)
    chance = chance_part(context, sw)

    def finish() -> None:
        stats = kernel.stats
        stats.nodes = nodes
        stats.leaves = leaves + tally.leaves
        stats.evals = evals + tally.evals
        stats.cutoffs = cutoffs + tally.cutoffs
        stats.tt_hits = tally.tt_hits
        kernel.max_ply, kernel.lines = max(deepest, tally.deepest), lines

    return publish(kernel, value, finish)


def _same(depth: int, state: Any) -> int:
    return depth
