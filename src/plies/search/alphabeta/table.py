"""The transposition table, the game's value bounds and the move order, at one node.

:func:`table_part` gives the core two calls around a node's children (and a third for
null-move cutoffs), when any of ``table``, ``ordering``, ``bounds`` or ``sufficient`` is
switched on; otherwise the core asks ``actions()`` itself.  Their contract:

``before(state, mover, depth, ply, alpha, beta)`` returns either a value, when the node
is settled without searching a child, or ``(moves, alpha, beta, entry)``:

- **The game's bounds** (``bounds``, the game's ``value_bounds``: exact searches only).
  The true value lies in ``[low, high]``: if that interval is outside the window, or one
  point, the node is worth ``low`` (a fail high) or ``high`` (a fail low, or the point);
  else the window shrinks to it.
- **The table.**  An entry of this position searched to the same remaining depth (or,
  without a depth limit, to the end) holds a value, exact or a bound: a bound narrows
  the window, an exact value closes it, and a closed window settles the node with the
  stored value (a *table hit*).  Values of other depths are never mixed in: only the
  stored move is used.  A fail-soft result at a narrowed edge is then that bound exactly,
  which is why the flag of the result is judged against the caller's window.
- **The order of the moves.**  ``sufficient`` (the game's ``sufficient_actions``: exact
  searches only) may drop moves that cannot matter; then the table's move comes first,
  and with ``ordering`` the killers, the history and the game's hint order the rest
  (:func:`plies.search.craft.move_order`), only if the table's move does not cut off.

``after(entry, best, cut, line)`` stores the node's result in the table (depth-preferred
replacement, see :class:`~plies.search.craft.TranspositionTable`): a lower bound when it
failed high against the caller's window, an upper bound when it failed low (with no move:
every move was refuted), else exact with its best move; after a cutoff the killers and
history learn the move.  ``store_null(entry, value, beta)`` stores a null-move cutoff as a
bound without a move.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from plies.search.alphabeta.context import Context, Switches
from plies.search.craft import (
    EXACT,
    LOWER,
    UNLIMITED,
    UPPER,
    Staged,
    stable_hash,
)
from plies.search.kernels import NEVER, Line

Entry = tuple[Any, int, int, float, float, int, int]  # what after() needs of before()
Before = Callable[[Any, int, int, int, float, float], Any]
After = Callable[[Entry, float, bool, Line], None]
StoreNull = Callable[[Entry, float, float], None]


def table_part(
    ctx: Context, sw: Switches
) -> tuple[Before | None, After | None, StoreNull | None]:
    """``(before, after, store_null)`` for the core, or Nones when the switches need none."""
    table, ordering, memory = sw.table, sw.ordering, sw.memory
    bounds, sufficient = sw.bounds, sw.sufficient
    if table is None and ordering is None and bounds is None and sufficient is None:
        return None, None, None
    player, lines, tally, emit, kernel = ctx.player, ctx.lines, ctx.tally, ctx.emit, ctx.kernel
    actions, key_of = ctx.ops.actions, ctx.ops.key
    horizon, rounds, hint_depth, strict = ctx.horizon, ctx.rounds, sw.hint_depth, sw.strict
    slots = table.slots if table is not None else None
    size = table.modulus if table is not None else 1
    age = table.age if table is not None else 0

    def before(
        state: Any, mover: int, depth: int, ply: int, alpha: float, beta: float
    ) -> float | tuple[Sequence[Any] | Staged, float, float, Entry]:
        """The work before the children (see the module doc)."""
        # The caller's window: a result at an edge narrowed below (by the game's bounds or
        # a stored bound) is that bound exactly, so the flag is judged against this one.
        alpha0, beta0 = alpha, beta
        if bounds is not None:  # exact searches only: bounds on the true value
            low, high = bounds(state, player)
            if low == high or (
                (low > beta or high < alpha) if strict else (low >= beta or high <= alpha)
            ):
                tally.leaves += 1
                if ply > tally.deepest:
                    tally.deepest = ply
                lines[ply] = None
                settled = low if low == high or (low > beta if strict else low >= beta) else high
                if emit is not None:
                    emit("bounds", state, ply, depth, mover, settled, alpha, beta)
                    emit("backup", state, ply, depth, mover, settled, alpha, beta)
                return settled
            if high < beta:
                beta = high
            if low > alpha:
                alpha = low
            if emit is not None and (alpha, beta) != (alpha0, beta0):
                emit("bounds", state, ply, depth, mover, None, alpha, beta)
        remaining = UNLIMITED if horizon == NEVER else horizon - depth
        first = key = None
        slot = 0
        if slots is not None:
            key = key_of(state)
            slot = (key if type(key) is int else stable_hash(key)) % size
            entry = slots.get(slot)
            if entry is not None and entry[0] == key:
                first = entry[4]
                if entry[1] == remaining:
                    # The value at this remaining depth is unique, so a stored bound also
                    # narrows the window: a fail-soft result at the narrowed edge is then
                    # that bound exactly.
                    flag, stored = entry[2], entry[3]
                    if remaining != UNLIMITED and entry[5] != age:
                        # A value an earlier pass stored under a depth limit may rest on
                        # evaluations this pass never made: a pass that reads it is no
                        # exact pass (iterative deepening goes on).  This pass's own
                        # entries rest on its own evaluations, which it counts already.
                        kernel.heuristic = True
                    if flag == LOWER:
                        if stored > alpha:
                            alpha = stored
                    elif flag == UPPER:
                        if stored < beta:
                            beta = stored
                    else:
                        alpha = beta = stored
                    if emit is not None:
                        emit("table", state, ply, depth, mover, stored, alpha, beta, action=first)
                    if alpha >= beta and (alpha > beta or not strict or flag == EXACT):
                        tally.tt_hits += 1
                        lines[ply] = (first, None) if first is not None else None
                        if emit is not None:
                            emit("backup", state, ply, depth, mover, stored, alpha, beta)
                        return stored
        plain = moves = actions(state)
        if sufficient is not None and moves:  # exact searches only: drop needless moves
            moves = sufficient(state, moves) or moves
        tried: Sequence[Any] | Staged = moves
        if ordering is not None:
            near = 0 <= remaining < hint_depth and not rounds  # near the depth limit
            tried = ordering(state, mover, moves, first, ply, near)
        elif first is not None and first in moves:
            tried = [first, *(a for a in moves if a != first)]
        if emit is not None:
            report_order(state, ply, depth, mover, plain, tried, first)
        return tried, alpha, beta, (key, slot, remaining, alpha0, beta0, mover, ply)

    def report_order(
        state: Any, ply: int, depth: int, mover: int, plain: Sequence[Any],
        tried: Sequence[Any] | Staged, first: Any,
    ) -> None:
        """Trace the order of the moves, when it is not ``actions()`` order."""
        assert emit is not None
        if isinstance(tried, Staged):
            emit("order", state, ply, depth, mover, action=first, moves=(first,))
        elif list(tried) != list(plain):
            table_first = first is not None and bool(tried) and tried[0] == first
            emit("order", state, ply, depth, mover, moves=tried,
                 action=first if table_first else None)

    def after(entry: Entry, best: float, cut: bool, line: Line) -> None:
        """The work after the children (see the module doc)."""
        key, slot, remaining, alpha0, beta0, mover, ply = entry
        assert line is not None
        if memory is not None and cut:
            memory.remember(mover, line[0], ply, remaining)
        if slots is not None:
            flag = LOWER if best >= beta0 else UPPER if best <= alpha0 else EXACT
            old = slots.get(slot)
            if old is None or old[5] != age or remaining == UNLIMITED or old[1] <= remaining:
                # After a fail low every move was refuted: none is worth trying first.
                slots[slot] = (key, remaining, flag, best, None if flag == UPPER else line[0], age)

    def store_null(entry: Entry, value: float, beta: float) -> None:
        """A null-move cutoff at ``value``: a bound (the side of ``beta``), no move."""
        assert slots is not None
        key, slot, remaining = entry[0], entry[1], entry[2]
        slots[slot] = (key, remaining, LOWER if value >= beta else UPPER, value, None, age)

    return before, after, (store_null if slots is not None else None)
