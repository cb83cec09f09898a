"""Engine craft for alpha-beta: transposition table, move ordering, principal variation search.

Everything here is an optional switch of :func:`plies.alphabeta` and never changes the
value plain alpha-beta returns at the same depth:

- **Transposition table** (``tt=True`` or a number of slots): slot ``hash(key) % p`` with
  ``p`` the largest prime up to the size (bounded memory; a prime, as in Pons' solver,
  because an int key hashes to itself and a power of two would keep only its low bits:
  on Connect Four, the first three columns), entries ``(key, remaining depth, flag,
  value, best action)`` with the flag EXACT, LOWER (the value is a lower bound: the node
  failed high) or UPPER.
  Replacement is depth-preferred: a slot keeps the entry searched deeper, unless it comes
  from an older search.  A stored value is reused only at the same remaining depth (or
  when both are unlimited), so a depth-limited value is never mixed with a deeper one;
  the stored action orders the moves at any depth.
- **Move ordering** (``ordering=True``): the table's move, then the two killer moves of
  the ply (moves that caused a cutoff in a sibling), then the history heuristic (moves
  that caused cutoffs anywhere, weighted by the depth left), after the game's own
  ``order_hint(state, actions)`` if it has one.  In an exact search (no depth limit) a
  game's hint orders alone after the table move: there killers and history cost Connect
  Four 7x more nodes, while under a depth limit they save up to 5x.
- **Principal variation search** (``pvs=True``): the first child gets the full window,
  the others a null window ``(alpha, alpha + 1 ulp)`` that only asks "is it better?", and
  are searched again with the full window when the answer is yes.  Chosen over MTD(f)
  because it needs no tuning of a first guess and its cost is measured per node here,
  not per pass (see the README's performance section).

The worker follows the readable :class:`~plies.search.alphabeta.AlphaBetaSearcher`
contract (fail-soft paranoid alpha-beta, depth counted in plies).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from plies.game import GameOps
from plies.search.common import INF, StopSignal
from plies.search.kernels import (
    NEVER,
    Kernel,
    Line,
    _budget_check,
    _no_actions,
    _refuse,
    _wrap,
)

EXACT, LOWER, UPPER = 0, 1, 2
UNLIMITED = -1  # the remaining depth of a search without a depth limit

Entry = tuple[Hashable, int, int, float, Any, int]  # key, remaining, flag, value, move, age


@dataclass
class TranspositionTable:
    """At most ``size`` slots, depth-preferred replacement; reused across iterations.

    The slots live in a dict filled on demand, so a small search pays nothing for a
    large table.
    """

    size: int = 1 << 20
    slots: dict[int, Entry] = field(init=False, default_factory=dict)
    age: int = 0
    player: int | None = None  # whose point of view the stored values take
    modulus: int = field(init=False)
    """The number of slots used: the largest prime up to ``size`` (1 for size 1)."""

    def __post_init__(self) -> None:
        if self.size < 1:
            raise ValueError(f"a transposition table needs at least 1 slot, got {self.size}")
        self.modulus = largest_prime_at_most(self.size)

    def slot(self, key: Hashable) -> int:
        """The slot of ``key``.

        >>> table = TranspositionTable(1 << 20)
        >>> table.modulus, table.slot(1 << 40) != table.slot(0)
        (1048573, True)
        """
        return hash(key) % self.modulus

    def new_search(self, player: int) -> None:
        """Start a search for ``player``: older entries may be replaced by shallower ones.

        A table passed from one search to the next (same game) keeps its entries; they
        are dropped when the searching player changes, because values are stored from
        the searching player's point of view.
        """
        if self.player != player:
            self.slots.clear()
            self.player = player
        self.age += 1



def largest_prime_at_most(n: int) -> int:
    """The largest prime ``p <= n`` (1 when ``n < 2``), by trial division.

    >>> [largest_prime_at_most(n) for n in (1, 2, 10, 1 << 20)]
    [1, 2, 7, 1048573]
    """
    for candidate in range(n, 1, -1):
        if candidate % 2 == 0 and candidate > 2:
            continue
        divisor = 3
        while divisor * divisor <= candidate:
            if candidate % divisor == 0:
                break
            divisor += 2
        else:
            return candidate
    return 1


@dataclass
class Ordering:
    """Killer moves per ply and history scores, kept across the iterations of a search."""

    killers: dict[int, list[Any]] = field(default_factory=dict)
    history: dict[tuple[int, Any], int] = field(default_factory=dict)


def engine_kernel(
    ops: GameOps,
    player: int,
    max_depth: int | None,
    *,
    table: TranspositionTable | None,
    ordering: Ordering | None,
    hint: Callable[[Any, Sequence[Any]], Sequence[Any]] | None,
    pvs: bool,
    bounds: Callable[[Any, int], tuple[float, float]] | None = None,
    sufficient: Callable[[Any, Sequence[Any]], Sequence[Any]] | None = None,
    deadline: float | None = None,
    budget: int | None = None,
    stop: StopSignal | None = None,
) -> Kernel:
    """Alpha-beta with the switched-on engine craft, as a closure (see the module doc)."""
    kernel = Kernel()
    to_move, actions, result = ops.to_move, ops.actions, ops.result
    is_terminal, utility, evaluate, key_of = ops.is_terminal, ops.utility, ops.evaluate, ops.key
    cutoff = NEVER if max_depth is None else max_depth
    slots = table.slots if table is not None else None
    size = table.modulus if table is not None else 1
    age = table.age if table is not None else 0
    # In an exact search the game's hint orders alone: there, on Connect Four, killer
    # moves and history on top of it cost 7x more nodes; under a depth limit they help.
    trust_hint = max_depth is None
    killers = ordering.killers if ordering is not None else None
    history = ordering.history if ordering is not None else None
    lines: list[Line] = [None] * 64
    nodes = leaves = evals = cutoffs = tt_hits = deepest = 0
    # The adaptive cadence looks at the clock about once a millisecond, whatever a node costs.
    next_check, check = _budget_check(deadline, budget, stop=stop)
    nextafter = math.nextafter

    def ordered(state: Any, mover: int, moves: Sequence[Any], first: Any, ply: int) -> list[Any]:
        if hint is not None and trust_hint:
            out = list(hint(state, moves))
        else:
            out = list(hint(state, moves)) if hint is not None else list(moves)
            if history is not None:
                out.sort(key=lambda a: -history.get((mover, a), 0))
        front: list[Any] = []
        if first is not None and first in out:
            front.append(first)
        if killers is not None and not (hint is not None and trust_hint):
            for killer in killers.get(ply, ()):
                if killer not in front and killer in out:
                    front.append(killer)
        if front:
            out = front + [a for a in out if a not in front]
        return out

    def value(state: Any, depth: int, ply: int, alpha: float, beta: float) -> float:
        nonlocal nodes, leaves, evals, cutoffs, tt_hits, deepest, next_check, lines
        nodes += 1
        if nodes >= next_check:
            next_check = check(nodes)
        if is_terminal(state):
            leaves += 1
            if ply > deepest:
                deepest = ply
            lines[ply] = None
            return utility(state, player)
        if depth >= cutoff:
            leaves += 1
            evals += 1
            kernel.heuristic = True
            if ply > deepest:
                deepest = ply
            lines[ply] = None
            return evaluate(state, player)
        if ply + 2 >= len(lines):
            lines.extend([None] * len(lines))
        # The caller's window: a result at an edge narrowed below (by the game's bounds or
        # a stored bound) is that bound exactly, so the flag is judged against this one.
        alpha0, beta0 = alpha, beta
        if bounds is not None:  # exact searches only: the game's bounds on the true value
            lo, hi = bounds(state, player)
            if lo >= beta or hi <= alpha or lo == hi:
                leaves += 1
                if ply > deepest:
                    deepest = ply
                lines[ply] = None
                return lo if lo >= beta else hi
            if hi < beta:
                beta = hi
            if lo > alpha:
                alpha = lo
        remaining = UNLIMITED if cutoff == NEVER else cutoff - depth
        first = None
        if slots is not None:
            key = key_of(state)
            slot = hash(key) % size
            entry = slots.get(slot)
            if entry is not None and entry[0] == key:
                first = entry[4]
                if entry[1] == remaining:
                    # The value at this remaining depth is unique, so a stored bound also
                    # narrows the window: a fail-soft result at the narrowed edge is then
                    # that bound exactly.
                    flag, stored = entry[2], entry[3]
                    if flag == LOWER:
                        if stored > alpha:
                            alpha = stored
                    elif flag == UPPER:
                        if stored < beta:
                            beta = stored
                    else:
                        alpha = beta = stored
                    if alpha >= beta:
                        tt_hits += 1
                        lines[ply] = (first, None) if first is not None else None
                        return stored
        mover = to_move(state)
        if mover < 0:
            raise _refuse("alphabeta", mover)
        moves = actions(state)
        if not moves:
            raise _no_actions(state)
        if sufficient is not None:  # exact searches only: drop provably needless moves
            moves = sufficient(state, moves) or moves
        if hint is not None or history is not None or killers is not None or first is not None:
            moves = ordered(state, mover, moves, first, ply)
        maximizing = mover == player
        best = -INF if maximizing else INF
        line: Line = None
        best_move = None
        child = ply + 1
        for i, action in enumerate(moves):
            nxt = result(state, action)
            if maximizing:
                if pvs and i > 0:
                    v = value(nxt, depth + 1, child, alpha, nextafter(alpha, INF))
                    if alpha < v < beta:
                        v = value(nxt, depth + 1, child, alpha, beta)
                else:
                    v = value(nxt, depth + 1, child, alpha, beta)
                if v > best:
                    best, line, best_move = v, (action, lines[child]), action
                    if v > alpha:
                        alpha = v
            else:
                if pvs and i > 0:
                    v = value(nxt, depth + 1, child, nextafter(beta, -INF), beta)
                    if alpha < v < beta:
                        v = value(nxt, depth + 1, child, alpha, beta)
                else:
                    v = value(nxt, depth + 1, child, alpha, beta)
                if v < best:
                    best, line, best_move = v, (action, lines[child]), action
                    if v < beta:
                        beta = v
            if alpha >= beta:
                if i + 1 < len(moves):
                    cutoffs += 1
                if killers is not None:
                    slot_killers = killers.setdefault(ply, [])
                    if action not in slot_killers:
                        slot_killers.insert(0, action)
                        del slot_killers[2:]
                if history is not None:
                    weight = 1 if remaining == UNLIMITED else remaining * remaining
                    history[(mover, action)] = history.get((mover, action), 0) + weight
                break
        lines[ply] = line
        if slots is not None:
            flag = LOWER if best >= beta0 else UPPER if best <= alpha0 else EXACT
            old = slots.get(slot)
            if old is None or old[5] != age or remaining == UNLIMITED or old[1] <= remaining:
                # After a fail low every move was refuted: none is worth trying first.
                move = None if flag == UPPER else best_move
                slots[slot] = (key, remaining, flag, best, move, age)
        return best

    def finish() -> None:
        stats = kernel.stats
        stats.nodes, stats.leaves, stats.evals = nodes, leaves, evals
        stats.cutoffs, stats.tt_hits = cutoffs, tt_hits
        kernel.max_ply, kernel.lines = deepest, lines

    return _wrap(kernel, value, finish)
