"""Chance nodes in the alpha-beta core: Ballard's Star1 and Star2.

:func:`chance_part` gives the core ``chance(state, depth, ply, alpha, beta)`` when
``star1`` (or ``star2``) is on, else None (a chance node is then refused).  Its contract
is the core's: a fail-soft bound on the node's expected value, which it returns exactly
when that lies inside ``(alpha, beta)``.  It needs a finite ``utility_range``
``[lo, hi]`` that every utility and evaluation respects.

**Star1.**  The outcomes are searched in ``chance_outcomes`` order.  After each one the
node's value is bracketed: the outcomes searched so far count with their values, the
rest with ``lo`` (from below) and ``hi`` (from above).  Each outcome is searched with the
window in which its value could still move the bracket across ``alpha`` or ``beta``, and
the node stops as soon as the bracket lies outside ``(alpha, beta)``.  Unpruned, the node
sums ``p * value`` in ``chance_outcomes`` order, exactly as plain expectiminimax does.

**Star2** first probes each outcome that is a decision node of the searching player by
searching its first move only, which bounds it from below (a max node is worth at least
any child).  If those lower bounds already lift the node to ``beta``, it fails high
without a full search; otherwise Star1 continues with them in place of ``lo``.

Windows are widened by a tiny ``slack`` so that a rounding error never prunes; a child
whose value then lands outside its window without deciding the node is searched again
with the full window.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import nextafter
from typing import Any

from plies.game import CHANCE
from plies.search.alphabeta.context import Context, Switches
from plies.search.kernels import INF, no_actions

Chance = Callable[[Any, int, int, float, float], float]


def chance_part(ctx: Context, sw: Switches) -> Chance | None:
    """The core's ``chance`` (see the module doc), or None without ``star1``/``star2``."""
    if not (sw.star1 or sw.star2):
        return None
    star2, order = sw.star2, sw.order
    player, tally, emit, value, count = ctx.player, ctx.tally, ctx.emit, ctx.value, ctx.count
    ops, rounds, horizon, node_depth = ctx.ops, ctx.rounds, ctx.horizon, ctx.node_depth
    to_move, actions, result, is_terminal = ops.to_move, ops.actions, ops.result, ops.is_terminal
    chance_outcomes, chance_player = ops.chance_outcomes, ops.chance_player
    lo, hi = ops.utility_range
    slack = 1e-9 * max(1.0, hi - lo)  # child windows are widened: rounding must not prune
    step = 0 if rounds else 1

    def probe(
        outcomes: Sequence[tuple[Any, float]], state: Any, depth: int, ply: int, beta: float
    ) -> tuple[list[float], float | None]:
        """Star2's lower bounds per outcome, or a fail-high value of the chance node.

        ``depth`` is the outcomes' depth (one more than the chance node's when it stands
        for a player, in plies).
        """
        floors = [lo] * len(outcomes)
        floor = lo  # sum of p * floor over every outcome
        for i, (outcome, p) in enumerate(outcomes):
            child = result(state, outcome)
            if is_terminal(child) or to_move(child) != player:
                continue
            own = node_depth(depth, child)
            if own >= horizon:
                continue
            count()
            moves = actions(child)
            if order is not None:
                moves = order(child, moves)
            if not moves:
                raise no_actions(child)
            need = (beta - (floor - p * lo)) / p  # this floor alone would fail high
            # A null window: the probe only asks "does the first move reach `need`?"
            b = need + slack
            if emit is not None:
                emit.step(ply, outcome)
                emit.arrive("probe", child, ply + 1, own, need, nextafter(b, -INF), b,
                            settled=True)
            if need > hi:
                if emit is not None:  # not even the best utility here would do: no probe
                    emit("backup", child, ply + 1, own, player, lo)
                continue
            if emit is not None:
                emit.step(ply + 1, moves[0])
            v = value(result(child, moves[0]), own + step, ply + 2, nextafter(b, -INF), b)
            if emit is not None:
                emit("backup", child, ply + 1, own, player, v, nextafter(b, -INF), b)
            if v >= b:  # a lower bound on the first move, so on this max node
                floors[i] = min(v, hi)
                floor += p * (floors[i] - lo)
                if floor - slack >= beta:  # slack: a rounding error must not cut
                    tally.cutoffs += 1
                    return floors, floor - slack
        return floors, None

    def chance(state: Any, depth: int, ply: int, alpha: float, beta: float) -> float:
        """Star1 (after Star2's probes) at a chance node (see the module doc)."""
        outcomes = chance_outcomes(state)
        node = depth
        if emit is not None:
            emit.arrive("expand", state, ply, node, None, alpha, beta, settled=True)
        if not rounds and chance_player(state) is not None:
            depth += 1  # a player modelled as chance: its move is a ply
        floors: list[float] | None = None
        if star2:
            floors, failed_high = probe(outcomes, state, depth, ply, beta)
            if failed_high is not None:
                if emit is not None:
                    skipped = [o for o, _ in outcomes]
                    emit("prune", state, ply, node, CHANCE, failed_high, alpha, beta,
                         pruned=skipped)
                    emit("backup", state, ply, node, CHANCE, failed_high, alpha, beta)
                return failed_high
        total = 0.0  # sum of p * value over the outcomes searched so far
        rest = 1.0  # probability of the outcomes not searched yet
        low_rest = sum(p * f for (_, p), f in zip(outcomes, floors, strict=True)) if floors else 0.0
        tried = outcomes if emit is None else emit.outcomes(outcomes, ply)
        for i, (outcome, p) in enumerate(tried):
            rest = max(rest - p, 0.0)
            if floors is not None:
                low_rest -= p * floors[i]
                low = max(low_rest, rest * lo)
            else:
                low = rest * lo  # a lower bound on the mean of the outcomes not searched
            a = max((alpha - total - rest * hi) / p, lo) - slack
            b = min((beta - total - low) / p, hi) + slack
            child = result(state, outcome)
            v = value(child, depth, ply + 1, a, b)
            if not a < v < b:  # a bound only
                upper, lower = total + p * v + rest * hi, total + p * v + low
                if (v <= a and upper <= alpha) or (v >= b and lower >= beta):
                    bound = upper if v <= a else lower
                    if i + 1 < len(outcomes):
                        tally.cutoffs += 1
                        if emit is not None:
                            skipped = [o for o, _ in outcomes[i + 1 :]]
                            emit("prune", state, ply, node, CHANCE, bound, alpha, beta,
                                 pruned=skipped)
                    if emit is not None:
                        emit("backup", state, ply, node, CHANCE, bound, alpha, beta)
                    return bound
                if emit is not None:
                    emit("research", state, ply, node, CHANCE, v, -INF, INF, action=outcome)
                v = value(child, depth, ply + 1, -INF, INF)  # rounding: search it exactly
            total += p * v
        if emit is not None:
            emit("backup", state, ply, node, CHANCE, total, alpha, beta)
        return total

    return chance
