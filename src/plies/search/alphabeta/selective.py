"""Selective search: the switches that shape a depth-limited tree.

They apply to depth-limited searches in plies only (an exact search has no horizon to
extend or reduce; :data:`plies.search.craft.SELECTIVE`).  :func:`selective_part` gives the
core three calls, each None when its switch is off:

``quiesce(state, q, ply, depth, alpha, beta)`` (``quiescence`` with the game's
``noisy_actions``) scores a node at the depth limit instead of ``evaluate``: fail-soft
within ``(alpha, beta)``, the mover takes the better of its static evaluation ("stand
pat") and any noisy move, at most ``quiescence`` noisy plies deep.  Its value is exactly
that of :class:`~plies.search.quiescence.Quiescent` as the evaluation (the same tree,
searched with a window instead of one full-window search per leaf).

``null_test(state, mover, moves, depth, ply, alpha, beta)`` (``null_move``, the game's
hook) is null-move pruning: at a node with at least
:data:`~plies.search.craft.NULL_DEPTH` plies left whose static evaluation already
reaches ``beta`` (``alpha`` at an opponent's node), the mover passes and the position is
searched ``null_reduction`` plies shallower (one more with
:data:`~plies.search.craft.NULL_DEEP` plies left) with a null window; if it still fails
high (low), it returns ``beta`` (``alpha``), the node's cutoff value, else None.  Never
twice in a row.

``children(state, mover, moves, depth, ply, alpha, beta, entry)`` is the move loop with
extensions and reductions, returning ``(best, line, alpha, beta)`` as the core's loop
leaves them (the window narrowed by the children; ``alpha >= beta`` after a cutoff):

- ``extension(state, action, child)``: a child it gives a positive number for is searched
  one ply deeper (at most one ply per move, and no deeper than
  :data:`~plies.search.craft.EXTENSION_REACH` times the depth limit).
- ``singular`` (a margin; needs the table): at a node with at least
  :data:`~plies.search.craft.SINGULAR_DEPTH` plies left whose table move has a stored
  value ``v`` from nearly as deep (a lower bound or exact at the searching player's node,
  an upper bound or exact at the others), every other move is searched at half the depth
  with a null window at ``v - singular`` (``v + singular`` at an opponent's node); if
  none reaches it, the table move is singular and is searched one ply deeper.
- ``quiet(state, action)``: late-move reductions.  From the fourth move on, at nodes with
  at least :data:`~plies.search.craft.LMR_DEPTH` plies left, a quiet move that is not
  extended is first searched one ply shallower (two for late moves far from the horizon)
  with a null window, and again normally only if it beats the best so far.

Null moves, singular extensions and reductions are forward pruning: their values are no
longer minimax values of one fixed tree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import nextafter
from typing import Any

from plies.search.alphabeta.context import Context, Switches
from plies.search.craft import (
    EXTENSION_REACH,
    LMR_DEEP,
    LMR_DEPTH,
    LMR_LATE,
    LMR_MOVES,
    LOWER,
    NULL_DEEP,
    SINGULAR_DEPTH,
    UNLIMITED,
    UPPER,
    Staged,
)
from plies.search.kernels import INF, Line, remaining
from plies.search.result import NULL_MOVE

Quiesce = Callable[[Any, int, int, int, float, float], float]
NullTest = Callable[[Any, int, Any, int, int, float, float], float | None]
Children = Callable[..., tuple[float, Line, float, float]]


def selective_part(
    ctx: Context, sw: Switches
) -> tuple[Quiesce | None, NullTest | None, Children | None]:
    """``(quiesce, null_test, children)`` for the core (see the module doc)."""
    if not ctx.selective:
        return None, None, None
    quiesce = _quiescence(ctx, sw)
    null_test = _null_move(ctx, sw)
    slots = sw.table.slots if sw.table is not None else None
    singular = sw.singular if slots is not None else None
    if sw.extension is None and singular is None and sw.quiet is None:
        return quiesce, null_test, None
    return quiesce, null_test, _forward(ctx, sw, singular)


def _quiescence(ctx: Context, sw: Switches) -> Quiesce | None:
    if sw.quiescence is None or sw.noisy is None:
        return None
    qmax, noisy_actions, strict = sw.quiescence, sw.noisy, sw.strict
    player, kernel, lines, tally, emit, count = (
        ctx.player, ctx.kernel, ctx.lines, ctx.tally, ctx.emit, ctx.count
    )
    to_move, result, evaluate = ctx.ops.to_move, ctx.ops.result, ctx.ops.evaluate
    is_terminal, utility = ctx.ops.is_terminal, ctx.ops.utility

    def quiesce(state: Any, q: int, ply: int, depth: int, alpha: float, beta: float) -> float:
        """The stand-pat value of ``state`` (not terminal) within ``(alpha, beta)``,
        fail-soft: the static evaluation or a noisy move, ``q`` noisy plies searched."""
        kernel.heuristic = True
        tally.evals += 1
        stand = evaluate(state, player)
        if ply > tally.deepest:
            tally.deepest = ply
        lines[ply] = None
        mover = to_move(state)
        if emit is not None:
            emit.arrive("stand", state, ply, depth, stand, alpha, beta, settled=True)
        maximizing = mover == player
        moves: Sequence[Any] = ()
        if not (q >= qmax or mover < 0 or (
            (stand > beta if maximizing else stand < alpha) if strict
            else (stand >= beta if maximizing else stand <= alpha)
        )):
            moves = noisy_actions(state)
        if not moves:
            tally.leaves += 1
            if emit is not None:
                emit("backup", state, ply, depth, mover, stand, alpha, beta)
            return stand
        if ply + 2 >= len(lines):
            lines.extend([None] * len(lines))
        if maximizing:  # standing pat is the first "move": it narrows the window
            if stand > alpha:
                alpha = stand
        elif stand < beta:
            beta = stand
        best, line, child = stand, None, ply + 1
        tried = moves if emit is None else emit.follow(moves, ply, state, depth, mover)
        for i, action in enumerate(tried):
            nxt = result(state, action)
            count()
            if is_terminal(nxt):
                tally.leaves += 1
                if child > tally.deepest:
                    tally.deepest = child
                lines[child] = None
                v = utility(nxt, player)
                if emit is not None:
                    emit.arrive("terminal", nxt, child, depth + 1, v, alpha, beta, settled=True)
            else:
                v = quiesce(nxt, q + 1, child, depth + 1, alpha, beta)
            if maximizing:
                if v > best:
                    best, line = v, (action, lines[child])
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, line = v, (action, lines[child])
                if v < beta:
                    beta = v
            if alpha >= beta and (alpha > beta or not strict):
                if i + 1 < len(moves):
                    tally.cutoffs += 1
                    if emit is not None:
                        emit("prune", state, ply, depth, mover, best, alpha, beta,
                             pruned=remaining(moves, i))
                break
        lines[ply] = line
        if emit is not None:
            emit("backup", state, ply, depth, mover, best, alpha, beta)
        return best

    return quiesce


def _null_move(ctx: Context, sw: Switches) -> NullTest | None:
    null_move, reduction, strict = sw.null_move, sw.null_reduction, sw.strict
    if null_move is None:
        return None
    player, lines, tally, emit, value = ctx.player, ctx.lines, ctx.tally, ctx.emit, ctx.value
    evaluate, horizon = ctx.ops.evaluate, ctx.horizon
    after_null = -1  # the ply of a node reached by a null move (no second one in a row)

    def null_test(
        state: Any, mover: int, moves: Any, depth: int, ply: int, alpha: float, beta: float
    ) -> float | None:
        """Null-move pruning: the node's cutoff value if passing already fails high for
        the searching player (low for an opponent), else None."""
        nonlocal after_null
        if ply == after_null:
            return None
        maximizing = mover == player
        if beta == INF if maximizing else alpha == -INF:
            return None
        tally.evals += 1
        static = evaluate(state, player)
        if static < beta if maximizing else static > alpha:
            return None
        passed = null_move(state)
        if passed is None:
            return None
        # R, one more far from the horizon (adaptive null-move pruning, Heinz 1999).
        below = depth + 1 + reduction + (horizon - depth >= NULL_DEEP)
        if strict:  # "does passing pass the bound strictly?"
            low, high = (beta, nextafter(beta, INF)) if maximizing else (
                nextafter(alpha, -INF), alpha)
        else:
            low, high = (nextafter(beta, -INF), beta) if maximizing else (
                alpha, nextafter(alpha, INF))
        if emit is not None:
            emit("null", state, ply, depth, mover, static, low, high)
            emit.step(ply, NULL_MOVE)
        outer, after_null = after_null, ply + 1
        try:
            v = value(passed, below, ply + 1, low, high)
        finally:
            after_null = outer
        if not (v >= high if maximizing else v <= low):
            return None
        tally.cutoffs += 1
        lines[ply] = None
        cut = beta if maximizing else alpha  # not v: a pass proves no mate score
        if emit is not None:
            emit("prune", state, ply, depth, mover, cut, alpha, beta, pruned=moves,
                 action=NULL_MOVE)
            emit("backup", state, ply, depth, mover, cut, alpha, beta)
        return cut

    return null_test


def _forward(ctx: Context, sw: Switches, singular: float | None) -> Children:
    player, lines, tally, emit, value = ctx.player, ctx.lines, ctx.tally, ctx.emit, ctx.value
    result, horizon = ctx.ops.result, ctx.horizon
    extension, quiet, pvs, strict = sw.extension, sw.quiet, sw.pvs, sw.strict
    slots = sw.table.slots if sw.table is not None else None
    # Extensions stop this deep (a series of checks must not extend a line for ever).
    reach = EXTENSION_REACH * horizon
    is_quiet: Callable[[Any, Any], bool] = quiet if quiet is not None else _never

    def singular_move(
        state: Any, mover: int, moves: Sequence[Any] | Staged, depth: int, ply: int,
        entry: Any,
    ) -> Any:
        """The table's move if it is singular at this node (see the module doc), else None."""
        if type(moves) is not Staged or slots is None:
            return None
        remaining_depth = horizon - depth
        if remaining_depth < SINGULAR_DEPTH:
            return None
        stored = slots.get(entry[1])
        first = moves.first
        if stored is None or stored[0] != entry[0] or stored[4] != first:
            return None
        if stored[1] < remaining_depth - 3 or stored[1] == UNLIMITED:
            return None
        maximizing = mover == player
        flag, v = stored[2], stored[3]
        if flag == (UPPER if maximizing else LOWER):
            return None  # a bound on the wrong side says nothing about the best move
        below = horizon - (remaining_depth - 1) // 2
        if maximizing:
            edge = v - singular  # type: ignore[operator]
            window = (nextafter(edge, -INF), edge)
        else:
            edge = v + singular  # type: ignore[operator]
            window = (edge, nextafter(edge, INF))
        others: Any = moves.rest()
        if emit is not None:
            emit("singular", state, ply, depth, mover, edge, *window, action=first)
            others = emit.follow(others, ply, state, depth, mover)
        for action in others:
            w = value(result(state, action), below, ply + 1, *window)
            if w >= edge if maximizing else w <= edge:
                return None  # another move comes within the margin
        return first

    def children(
        state: Any, mover: int, moves: Sequence[Any] | Staged, depth: int, ply: int,
        alpha: float, beta: float, entry: Any,
    ) -> tuple[float, Line, float, float]:
        """The children of a node with extensions and reductions (see the module doc)."""
        maximizing = mover == player
        left = horizon - depth
        single = None
        if singular is not None and entry is not None:
            single = singular_move(state, mover, moves, depth, ply, entry)
        child_depth, child = depth + 1, ply + 1
        best = -INF if maximizing else INF
        line: Line = None
        reduce = quiet is not None and left >= LMR_DEPTH
        count = len(moves)
        tried = moves if emit is None else emit.follow(moves, ply, state, depth, mover)
        for i, action in enumerate(tried):
            nxt = result(state, action)
            d = child_depth
            if (i == 0 and single is not None) or (
                extension is not None and ply < reach and extension(state, action, nxt) > 0
            ):
                d -= 1
                if emit is not None:
                    emit("extend", state, ply, depth, mover, action=action)
            if maximizing:
                low, high = alpha, nextafter(alpha, INF)
            else:
                low, high = nextafter(beta, -INF), beta
            v = INF if maximizing else -INF  # "not settled by a reduced search"
            reduced = False
            if reduce and i >= LMR_MOVES and d == child_depth and is_quiet(state, action):
                # One ply less, two for the late moves of a node far from the horizon.
                r = 1 + (i >= LMR_LATE and left >= LMR_DEEP)
                if emit is not None:
                    emit("reduce", state, ply, depth, mover, r, low, high, action=action)
                v = value(nxt, d + r, child, low, high)
                reduced = True
            if v > alpha if maximizing else v < beta:
                if pvs and i:
                    if reduced and emit is not None:
                        emit("research", state, ply, depth, mover, v, low, high, action=action)
                    v = value(nxt, d, child, low, high)
                    if alpha < v < beta:
                        if emit is not None:
                            emit("research", state, ply, depth, mover, v, alpha, beta,
                                 action=action)
                        v = value(nxt, d, child, alpha, beta)
                else:
                    if reduced and emit is not None:
                        emit("research", state, ply, depth, mover, v, alpha, beta, action=action)
                    v = value(nxt, d, child, alpha, beta)
            if maximizing:
                if v > best:
                    best, line = v, (action, lines[child])
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, line = v, (action, lines[child])
                if v < beta:
                    beta = v
            if alpha >= beta and (alpha > beta or not strict):
                if i + 1 < count:
                    tally.cutoffs += 1
                    if emit is not None:
                        emit("prune", state, ply, depth, mover, best, alpha, beta,
                             pruned=remaining(moves, i))
                break
        return best, line, alpha, beta

    return children


def _never(state: Any, action: Any) -> bool:
    return False
