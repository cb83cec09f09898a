"""Fast workers for untraced searches in plies: closures over the game's bound methods.

The :class:`~plies.search.common.Searcher` subclasses are written to be read: every node
goes through ``arrive``, ``leaf`` and ``descend``, which is what tracing needs.  When no
trace is asked for, the same recursions run here instead, as closures that keep the
game's methods and the counters in local cells: the per-node cost is then close to a
hand-written loop (see ``benchmarks/``).  They compute exactly what the readable workers
compute (the property tests run both), with two differences that change no value:

- the principal variation is kept as a linked list of ``(action, rest)`` pairs per ply,
  so an improvement costs one tuple instead of a list copy;
- a time or node budget (or a stop signal) is checked every so many nodes, not at each.

:func:`alphabeta_kernel` is the one alpha-beta core of plies: plain alpha-beta, the
engine craft of :mod:`plies.search.craft` (table, ordering, PVS, a game's value bounds)
and Star1/Star2 at chance nodes are switches of one worker with one node prelude
(count, budget, terminal test, depth, cutoff test).  With ``rounds`` (``unit="round"``)
the depth argument carries the round count and where the round stands (see
:meth:`Kernel.entry_depth`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import nextafter
from typing import Any

from plies.errors import UnsupportedGameError
from plies.game import CHANCE, SIMULTANEOUS, GameOps
from plies.search.common import (
    CHECK_MOST,
    INF,
    NOBODY,
    SearchStats,
    StopSignal,
    budget_check,
    not_a_player,
)
from plies.search.common import NEVER as NEVER  # engine.py imports it from here
from plies.search.craft import (
    EXACT,
    EXTENSION_REACH,
    HINT_DEPTH,
    LMR_DEEP,
    LMR_DEPTH,
    LMR_LATE,
    LMR_MOVES,
    LOWER,
    NULL_DEEP,
    NULL_DEPTH,
    SINGULAR_DEPTH,
    UNLIMITED,
    UPPER,
    MoveOrder,
    Ordering,
    Staged,
    TranspositionTable,
    stable_hash,
)

Line = tuple[Any, Any] | None  # (action, rest of the line) or None
Entry = tuple[Any, int, int, float, float, int, int]  # what after() needs of before()
Worker = Callable[[Any, int, int, float, float], float]
CHECK_EVERY = CHECK_MOST  # the longest interval between two looks at the budget
ROUND = 4  # with unit="round" the worker's depth is ROUND * rounds + phase (entry_depth)


@dataclass
class Kernel:
    """A compiled worker plus the cells it counts in; ``line(ply)`` reads a PV."""

    worker: Worker = field(init=False)
    lines: list[Line] = field(default_factory=list)
    stats: SearchStats = field(default_factory=SearchStats)
    heuristic: bool = False
    max_ply: int = 0
    player: int = 0
    rounds: bool = False

    def entry_depth(self, depth: int, last: int) -> int:
        """The worker's ``depth`` argument for a node below the root.

        ``depth`` and ``last`` are what the readable workers pass (the parent's depth in
        the limit's unit and the last decision-maker, see ``Searcher.depth_here``).  In
        plies that is ``depth``; in rounds it is ``ROUND * depth + phase`` with phase 0
        while the searching player has not moved on the path, 1 right after it moved and
        2 once another player moved after it (the next move of the searching player
        then starts a round).  ``depth >= ROUND * max_depth`` is then the cutoff test.
        """
        if not self.rounds:
            return depth
        return ROUND * depth + (0 if last == NOBODY else 1 if last == self.player else 2)

    def line(self, ply: int) -> list[Any]:
        out: list[Any] = []
        node = self.lines[ply] if ply < len(self.lines) else None
        while node is not None:
            out.append(node[0])
            node = node[1]
        return out


def _budget_check(
    deadline: float | None, budget: int | None, every: int = 0, stop: StopSignal | None = None
) -> tuple[int, Callable[[int], int]]:
    """The first node count at which to look at the budget, and the look itself.

    :func:`plies.search.limits.budget_check`: ``check(nodes)`` raises
    :class:`~plies.search.common.OutOfBudget` past ``budget`` nodes, past ``deadline`` or
    once ``stop`` is set, and returns when to look next, about a millisecond later
    whatever a node costs (``every``: the first interval, in nodes).
    """
    return budget_check(deadline, budget, stop, every)


def _refuse(algorithm: str, mover: int) -> UnsupportedGameError:
    if mover == CHANCE:
        return UnsupportedGameError(f"{algorithm} cannot search chance nodes; use expectiminimax")
    return UnsupportedGameError(f"{algorithm} cannot search simultaneous-move nodes yet")


def _no_player(mover: int, num_players: int) -> UnsupportedGameError:
    return UnsupportedGameError(
        f"to_move returned player {mover}, but the players are 0..{num_players - 1}"
    )


def _no_actions(state: Any) -> UnsupportedGameError:
    return UnsupportedGameError(f"non-terminal state without legal actions: {state!r}")


def minimax_kernel(
    ops: GameOps,
    player: int,
    max_depth: int | None,
    *,
    chance: bool,
    algorithm: str,
    deadline: float | None = None,
    budget: int | None = None,
    stop: StopSignal | None = None,
    game: Any = None,
) -> Kernel:
    """Paranoid minimax (expectiminimax when ``chance``) as a closure; window ignored.

    A chance node that stands for a player (``ops.chance_player``) is one ply deeper for
    its children, a true chance event is not.  A mover that is no player raises
    :class:`UnsupportedGameError` (``game`` only names the game in the message).
    """
    kernel = Kernel()
    to_move, actions, result = ops.to_move, ops.actions, ops.result
    is_terminal, utility, evaluate = ops.is_terminal, ops.utility, ops.evaluate
    chance_outcomes, chance_player = ops.chance_outcomes, ops.chance_player
    players = ops.num_players
    cutoff = NEVER if max_depth is None else max_depth
    lines: list[Line] = [None] * 64
    nodes = leaves = evals = deepest = 0
    next_check, check = _budget_check(deadline, budget, stop=stop)

    def value(state: Any, depth: int, ply: int, alpha: float, beta: float) -> float:
        nonlocal nodes, leaves, evals, deepest, next_check, lines
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
        mover = to_move(state)
        child = ply + 1
        if mover == player:
            best = -INF
            line: Line = None
            for action in actions(state):
                v = value(result(state, action), depth + 1, child, alpha, beta)
                if v > best:
                    best, line = v, (action, lines[child])
            if line is None:
                raise _no_actions(state)
        elif 0 <= mover < players:
            best = INF
            line = None
            for action in actions(state):
                v = value(result(state, action), depth + 1, child, alpha, beta)
                if v < best:
                    best, line = v, (action, lines[child])
            if line is None:
                raise _no_actions(state)
        elif mover == CHANCE and chance:
            best = 0.0
            line = None
            below = depth if chance_player(state) is None else depth + 1
            for outcome, p in chance_outcomes(state):
                best += p * value(result(state, outcome), below, child, alpha, beta)
        elif mover in (CHANCE, SIMULTANEOUS):
            raise _refuse(algorithm, mover)
        else:
            raise not_a_player(ops if game is None else game, mover)
        lines[ply] = line
        return best

    def finish() -> None:
        kernel.stats.nodes, kernel.stats.leaves, kernel.stats.evals = nodes, leaves, evals
        kernel.max_ply, kernel.lines = deepest, lines

    return _wrap(kernel, value, finish)


def alphabeta_kernel(
    ops: GameOps,
    player: int,
    max_depth: int | None,
    *,
    order: Callable[[Any, Sequence[Any]], Sequence[Any]] | None = None,
    star1: bool = False,
    star2: bool = False,
    table: TranspositionTable | None = None,
    ordering: MoveOrder | None = None,
    memory: Ordering | None = None,
    pvs: bool = False,
    bounds: Callable[[Any, int], tuple[float, float]] | None = None,
    sufficient: Callable[[Any, Sequence[Any]], Sequence[Any]] | None = None,
    rounds: bool = False,
    quiescence: int | None = None,
    noisy: Callable[[Any], Sequence[Any]] | None = None,
    extension: Callable[[Any, Any, Any], int] | None = None,
    singular: float | None = None,
    null_move: Callable[[Any], Any] | None = None,
    null_reduction: int = 2,
    quiet: Callable[[Any, Any], bool] | None = None,
    hint_depth: int = HINT_DEPTH,
    deadline: float | None = None,
    budget: int | None = None,
    stop: StopSignal | None = None,
) -> Kernel:
    """Fail-soft paranoid alpha-beta as a closure (contract of ``AlphaBetaSearcher``).

    Every switch is off by default, which is plain alpha-beta with children in
    ``actions()`` order, or in ``order(state, actions)`` order.  The engine craft
    (:mod:`plies.search.craft`), each switch value-preserving:

    - ``table``: a transposition table; a stored bound narrows the window, a stored value
      of the same remaining depth ends the node, the stored move is searched first.
    - ``ordering``: the engine's move order (:func:`~plies.search.craft.move_order`,
      which replaces ``order``); ``memory`` its killers and history, updated at cutoffs;
      the game's hint is asked only ``hint_depth`` or more plies from the depth limit.
    - ``pvs``: principal variation search (null windows after the first child).
    - ``bounds`` and ``sufficient`` (exact searches only): the game's ``value_bounds``,
      which narrow the window or end the node, and ``sufficient_actions``.
    - ``rounds``: depth counts rounds (see :meth:`Kernel.entry_depth`).

    The selective switches (depth-limited searches in plies only, see
    :data:`plies.search.craft.SELECTIVE`):

    - ``quiescence`` with ``noisy`` (the game's ``noisy_actions``): a node at the depth
      limit is not scored by ``evaluate`` but by a stand-pat search inside the caller's
      window: the mover takes the static evaluation or any noisy move, at most
      ``quiescence`` noisy plies deep.  Its value is exactly that of
      :class:`~plies.search.quiescence.Quiescent` as the evaluation (the same tree, searched
      with a window instead of one full-window search per leaf).
    - ``extension(state, action, child)``: a child it gives a positive number for is
      searched one ply deeper (at most one ply per move, and no deeper than
      :data:`~plies.search.craft.EXTENSION_REACH` times the depth limit).
    - ``singular`` (a margin; needs ``table``): at a node with at least
      :data:`~plies.search.craft.SINGULAR_DEPTH` plies left whose stored move has a
      stored value ``v`` from nearly as deep (a lower bound or exact for the searching
      player's node, an upper bound or exact for the others), every other move is searched
      at half the depth with a null window at ``v - singular`` (``v + singular`` at an
      opponent's node); if none reaches it, the stored move is singular and is searched
      one ply deeper.
    - ``null_move`` (the game's hook): at a node with at least
      :data:`~plies.search.craft.NULL_DEPTH` plies left whose static evaluation already
      reaches ``beta`` (``alpha`` at an opponent's node), the mover passes and the
      position is searched ``null_reduction`` plies shallower with a null window; if
      it still fails high (low), the node is cut off with ``beta`` (``alpha``).  Never
      twice in a row.
    - ``quiet(state, action)``: late-move reductions.  From the fourth move on, at nodes
      with at least :data:`~plies.search.craft.LMR_DEPTH` plies left, a quiet move that
      is not extended is first searched one ply shallower with a null window, and again
      normally only if it beats the best so far.

    With ``star1`` chance nodes are searched too, with Ballard's Star1 pruning: after
    each outcome the chance node's value is bracketed by the outcomes searched so far
    and ``utility_range`` for the rest; the node stops as soon as the bracket lies
    outside ``(alpha, beta)``, and each outcome is searched with the window that could
    still matter.  Unpruned, a chance node sums ``p * value`` in ``chance_outcomes``
    order, exactly as plain expectiminimax does.

    With ``star2`` (Ballard's Star2) a probing phase comes first: each outcome that is a
    decision node of the searching player is probed by searching its first action only,
    which bounds it from below (a max node is worth at least any child).  If those lower
    bounds already lift the chance node to ``beta``, it fails high without a full search;
    otherwise Star1 continues with them in place of the bottom of ``utility_range``.
    """
    kernel = Kernel(player=player, rounds=rounds)
    to_move, actions, result = ops.to_move, ops.actions, ops.result
    is_terminal, utility, evaluate = ops.is_terminal, ops.utility, ops.evaluate
    chance_outcomes, key_of, num_players = ops.chance_outcomes, ops.key, ops.num_players
    chance_player = ops.chance_player
    lo, hi = ops.utility_range
    slack = 1e-9 * max(1.0, hi - lo)  # child windows are widened: rounding must not prune
    # The depth at which nodes are cut off, in the worker's unit.  With rounds a node's
    # depth grows on entry (round_depth), so every node takes the first cutoff test
    # (cutoff -1) and the second one, ``depth >= horizon``, decides.
    horizon = NEVER if max_depth is None else max_depth * (ROUND if rounds else 1)
    cutoff = -1 if rounds else horizon
    step = 0 if rounds else 1
    slots = table.slots if table is not None else None
    size = table.modulus if table is not None else 1
    age = table.age if table is not None else 0
    # One test per node for everything the engine adds before and after the children.
    craft = slots is not None or ordering is not None or bounds is not None or (
        sufficient is not None
    )
    lines: list[Line] = [None] * 64
    nodes = leaves = evals = cutoffs = tt_hits = deepest = 0
    # The adaptive cadence looks at the clock about once a millisecond, whatever a node costs.
    next_check, check = _budget_check(deadline, budget, stop=stop)
    selective = horizon != NEVER and not rounds
    # Quiescence: noisy plies past the horizon (-1: none, the static evaluation scores).
    qmax = quiescence if selective and noisy is not None and quiescence is not None else -1
    noisy_actions = noisy if noisy is not None else actions
    if not selective:
        extension = null_move = quiet = None
        singular = None
    if slots is None:
        singular = None
    # Extensions stop this deep (a series of checks must not extend a line for ever).
    reach = EXTENSION_REACH * horizon if selective else 0
    is_quiet: Callable[[Any, Any], bool] = quiet if quiet is not None else _never
    forward = extension is not None or singular is not None or quiet is not None
    after_null = -1  # the ply of a node reached by a null move (no second one in a row)

    def round_depth(depth: int, state: Any) -> int:
        """A node's depth in rounds from its parent's (both ``ROUND * rounds + phase``)."""
        phase = depth % ROUND
        mover = to_move(state)
        if mover == player:  # phase 1; a new round if another player moved since we did
            return depth + ROUND - 1 if phase == 2 else depth - phase + 1
        if mover >= 0 and phase == 1:
            return depth + 1
        return depth  # chance, or no change of phase

    def before(
        state: Any, mover: int, depth: int, ply: int, alpha: float, beta: float
    ) -> float | tuple[Sequence[Any] | Staged, float, float, Entry]:
        """The engine's work before the children: a value, or ``(moves, alpha, beta, entry)``.

        A value when the game's bounds or the table settle the node; else the moves in
        the order to search them, the window narrowed by the bounds and the table, and
        what :func:`after` needs to store the result.
        """
        nonlocal leaves, deepest, tt_hits
        # The caller's window: a result at an edge narrowed below (by the game's bounds or
        # a stored bound) is that bound exactly, so the flag is judged against this one.
        alpha0, beta0 = alpha, beta
        if bounds is not None:  # exact searches only: bounds on the true value
            low, high = bounds(state, player)
            if low >= beta or high <= alpha or low == high:
                leaves += 1
                if ply > deepest:
                    deepest = ply
                lines[ply] = None
                return low if low >= beta else high
            if high < beta:
                beta = high
            if low > alpha:
                alpha = low
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
        moves = actions(state)
        if sufficient is not None and moves:  # exact searches only: drop needless moves
            moves = sufficient(state, moves) or moves
        if ordering is not None:
            near = 0 <= remaining < hint_depth and not rounds  # near the depth limit
            return ordering(state, mover, moves, first, ply, near), alpha, beta, (
                key, slot, remaining, alpha0, beta0, mover, ply
            )
        if first is not None and first in moves:
            moves = [first, *(a for a in moves if a != first)]
        return moves, alpha, beta, (key, slot, remaining, alpha0, beta0, mover, ply)

    def after(entry: Entry, best: float, cut: bool, line: Line) -> None:
        """The engine's work after the children: killers, history and the table."""
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

    def value(state: Any, depth: int, ply: int, alpha: float, beta: float) -> float:
        nonlocal nodes, leaves, evals, cutoffs, deepest, next_check, lines
        # The node prelude: count, budget, terminal test, depth, cutoff test.
        nodes += 1
        if nodes >= next_check:
            next_check = check(nodes)
        if is_terminal(state):
            leaves += 1
            if ply > deepest:
                deepest = ply
            lines[ply] = None
            return utility(state, player)
        # (With rounds, every node passes the first test: its depth grows on entry.)
        if depth >= cutoff and (not rounds or (depth := round_depth(depth, state)) >= horizon):
            if qmax >= 0:
                return quiesce(state, 0, ply, alpha, beta)
            leaves += 1
            evals += 1
            kernel.heuristic = True
            if ply > deepest:
                deepest = ply
            lines[ply] = None
            return evaluate(state, player)
        if ply + 2 >= len(lines):
            lines.extend([None] * len(lines))
        mover = to_move(state)
        if mover < 0:
            if mover == CHANCE and (star1 or star2):
                lines[ply] = None
                return chance(state, depth, ply, alpha, beta)
            raise _refuse("alphabeta", mover)
        entry: Entry | None = None
        if craft:
            node = before(state, mover, depth, ply, alpha, beta)
            if not isinstance(node, tuple):
                return node  # the game's bounds or the table settled it
            moves, alpha, beta, entry = node
        else:
            moves = actions(state)
            if order is not None:
                moves = order(state, moves)
        if null_move is not None and ply != after_null and horizon - depth >= NULL_DEPTH:
            v = null_test(state, mover, depth, ply, alpha, beta)
            if v is not None:
                if slots is not None and entry is not None:
                    key, slot, remaining = entry[0], entry[1], entry[2]
                    slots[slot] = (key, remaining, LOWER if v >= beta else UPPER, v, None, age)
                return v
        if forward:
            best, found, cut = children(state, mover, moves, depth, ply, alpha, beta, entry)
            if found is None:
                raise _no_actions(state)
            lines[ply] = found
            if entry is not None:
                after(entry, best, cut, found)
            return best
        child_depth = depth + step
        child = ply + 1
        line: Line = None
        if mover == player:
            best = -INF
            for i, action in enumerate(moves):
                if pvs and i:  # a null window first: "is it better than alpha?"
                    nxt = result(state, action)
                    v = value(nxt, child_depth, child, alpha, nextafter(alpha, INF))
                    if alpha < v < beta:
                        v = value(nxt, child_depth, child, alpha, beta)
                else:
                    v = value(result(state, action), child_depth, child, alpha, beta)
                if v > best:
                    best, line = v, (action, lines[child])
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            if i + 1 < len(moves):
                                cutoffs += 1
                            break
        else:
            if mover >= num_players:
                raise _no_player(mover, num_players)
            best = INF
            for i, action in enumerate(moves):
                if pvs and i:
                    nxt = result(state, action)
                    v = value(nxt, child_depth, child, nextafter(beta, -INF), beta)
                    if alpha < v < beta:
                        v = value(nxt, child_depth, child, alpha, beta)
                else:
                    v = value(result(state, action), child_depth, child, alpha, beta)
                if v < best:
                    best, line = v, (action, lines[child])
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            if i + 1 < len(moves):
                                cutoffs += 1
                            break
        if line is None:
            raise _no_actions(state)
        lines[ply] = line
        if entry is not None:
            after(entry, best, alpha >= beta, line)
        return best

    def quiesce(state: Any, q: int, ply: int, alpha: float, beta: float) -> float:
        """The stand-pat value of ``state`` (not terminal) within ``(alpha, beta)``,
        fail-soft: the static evaluation or a noisy move, ``q`` noisy plies searched."""
        nonlocal nodes, leaves, evals, cutoffs, deepest, next_check
        kernel.heuristic = True
        evals += 1
        stand = evaluate(state, player)
        if ply > deepest:
            deepest = ply
        lines[ply] = None
        mover = to_move(state)
        maximizing = mover == player
        if q >= qmax or mover < 0 or (stand >= beta if maximizing else stand <= alpha):
            leaves += 1
            return stand
        moves = noisy_actions(state)
        if not moves:
            leaves += 1
            return stand
        if ply + 2 >= len(lines):
            lines.extend([None] * len(lines))
        if maximizing:  # standing pat is the first "move": it narrows the window
            if stand > alpha:
                alpha = stand
        elif stand < beta:
            beta = stand
        best, line, child = stand, None, ply + 1
        for i, action in enumerate(moves):
            nxt = result(state, action)
            nodes += 1
            if nodes >= next_check:
                next_check = check(nodes)
            if is_terminal(nxt):
                leaves += 1
                if child > deepest:
                    deepest = child
                lines[child] = None
                v = utility(nxt, player)
            else:
                v = quiesce(nxt, q + 1, child, alpha, beta)
            if maximizing:
                if v > best:
                    best, line = v, (action, lines[child])
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, line = v, (action, lines[child])
                if v < beta:
                    beta = v
            if alpha >= beta:
                if i + 1 < len(moves):
                    cutoffs += 1
                break
        lines[ply] = line
        return best

    def null_test(
        state: Any, mover: int, depth: int, ply: int, alpha: float, beta: float
    ) -> float | None:
        """Null-move pruning: the node's cutoff value if passing already fails high for
        the searching player (low for an opponent), else None."""
        nonlocal evals, after_null, cutoffs
        maximizing = mover == player
        if beta == INF if maximizing else alpha == -INF:
            return None
        evals += 1
        static = evaluate(state, player)
        if static < beta if maximizing else static > alpha:
            return None
        passed = null_move(state)  # type: ignore[misc]
        if passed is None:
            return None
        outer, after_null = after_null, ply + 1
        try:
            # R, one more far from the horizon (adaptive null-move pruning, Heinz 1999).
            below = depth + 1 + null_reduction + (horizon - depth >= NULL_DEEP)
            if maximizing:
                v = value(passed, below, ply + 1, nextafter(beta, -INF), beta)
            else:
                v = value(passed, below, ply + 1, alpha, nextafter(alpha, INF))
        finally:
            after_null = outer
        if v >= beta if maximizing else v <= alpha:
            cutoffs += 1
            lines[ply] = None
            return beta if maximizing else alpha  # not v: a pass proves no mate score
        return None

    def singular_move(
        state: Any, mover: int, moves: Sequence[Any] | Staged, depth: int, ply: int, entry: Entry
    ) -> Any:
        """The table's move if it is singular at this node (see the kernel doc), else None."""
        if type(moves) is not Staged or slots is None:
            return None
        remaining = horizon - depth
        if remaining < SINGULAR_DEPTH:
            return None
        stored = slots.get(entry[1])
        first = moves.first
        if stored is None or stored[0] != entry[0] or stored[4] != first:
            return None
        if stored[1] < remaining - 3 or stored[1] == UNLIMITED:
            return None
        maximizing = mover == player
        flag, v = stored[2], stored[3]
        if flag == (UPPER if maximizing else LOWER):
            return None  # a bound on the wrong side says nothing about the best move
        below = horizon - (remaining - 1) // 2
        if maximizing:
            edge = v - singular  # type: ignore[operator]
            window = (nextafter(edge, -INF), edge)
        else:
            edge = v + singular  # type: ignore[operator]
            window = (edge, nextafter(edge, INF))
        for action in moves.rest():
            w = value(result(state, action), below, ply + 1, *window)
            if w >= edge if maximizing else w <= edge:
                return None  # another move comes within the margin
        return first

    def children(
        state: Any, mover: int, moves: Sequence[Any] | Staged, depth: int, ply: int,
        alpha: float, beta: float, entry: Entry | None,
    ) -> tuple[float, Line, bool]:
        """The children of a node with extensions and reductions: ``(best, line, cut)``."""
        nonlocal cutoffs
        maximizing = mover == player
        remaining = horizon - depth
        single = None
        if singular is not None and entry is not None:
            single = singular_move(state, mover, moves, depth, ply, entry)
        child_depth, child = depth + 1, ply + 1
        best = -INF if maximizing else INF
        line: Line = None
        reduce = quiet is not None and remaining >= LMR_DEPTH
        count = len(moves)
        for i, action in enumerate(moves):
            nxt = result(state, action)
            d = child_depth
            if (i == 0 and single is not None) or (
                extension is not None and ply < reach and extension(state, action, nxt) > 0
            ):
                d -= 1
            if maximizing:
                low, high = alpha, nextafter(alpha, INF)
            else:
                low, high = nextafter(beta, -INF), beta
            v = INF if maximizing else -INF  # "not settled by a reduced search"
            if reduce and i >= LMR_MOVES and d == child_depth and is_quiet(state, action):
                # One ply less, two for the late moves of a node far from the horizon.
                v = value(nxt, d + 1 + (i >= LMR_LATE and remaining >= LMR_DEEP), child, low, high)
            if v > alpha if maximizing else v < beta:
                if pvs and i:
                    v = value(nxt, d, child, low, high)
                    if alpha < v < beta:
                        v = value(nxt, d, child, alpha, beta)
                else:
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
            if alpha >= beta:
                if i + 1 < count:
                    cutoffs += 1
                break
        return best, line, alpha >= beta

    def probe(
        outcomes: Sequence[tuple[Any, float]], state: Any, depth: int, ply: int, beta: float
    ) -> tuple[list[float], float | None]:
        """Star2's lower bounds per outcome, or a fail-high value of the chance node.

        ``depth`` is the outcomes' depth (one more than the chance node's when it stands
        for a player).
        """
        nonlocal nodes, next_check, cutoffs
        floors = [lo] * len(outcomes)
        floor = lo  # sum of p * floor over every outcome
        for i, (outcome, p) in enumerate(outcomes):
            child = result(state, outcome)
            if depth >= cutoff or is_terminal(child) or to_move(child) != player:
                continue
            nodes += 1
            if nodes >= next_check:
                next_check = check(nodes)
            moves = actions(child)
            if order is not None:
                moves = order(child, moves)
            if not moves:
                raise _no_actions(child)
            need = (beta - (floor - p * lo)) / p  # this floor alone would fail high
            if need > hi:
                continue  # not even the best utility here would do: no probe
            # A null window: the probe only asks "does the first move reach `need`?"
            b = need + slack
            v = value(result(child, moves[0]), depth + 1, ply + 2, nextafter(b, -INF), b)
            if v >= b:  # a lower bound on the first move, so on this max node
                floors[i] = min(v, hi)
                floor += p * (floors[i] - lo)
                if floor - slack >= beta:  # slack: a rounding error must not cut
                    cutoffs += 1
                    return floors, floor - slack
        return floors, None

    def chance(state: Any, depth: int, ply: int, alpha: float, beta: float) -> float:
        nonlocal cutoffs
        outcomes = chance_outcomes(state)
        if chance_player(state) is not None:
            depth += 1  # a player modelled as chance: its move is a ply
        floors: list[float] | None = None
        below = lo  # a lower bound on the mean of the outcomes not searched yet
        if star2:
            floors, failed_high = probe(outcomes, state, depth, ply, beta)
            if failed_high is not None:
                return failed_high
        total = 0.0  # sum of p * value over the outcomes searched so far
        rest = 1.0  # probability of the outcomes not searched yet
        low_rest = sum(p * f for (_, p), f in zip(outcomes, floors, strict=True)) if floors else 0.0
        for i, (outcome, p) in enumerate(outcomes):
            rest = max(rest - p, 0.0)
            if floors is not None:
                low_rest -= p * floors[i]
                low = max(low_rest, rest * lo)
            else:
                low = rest * below
            a = max((alpha - total - rest * hi) / p, lo) - slack
            b = min((beta - total - low) / p, hi) + slack
            child = result(state, outcome)
            v = value(child, depth, ply + 1, a, b)
            if not a < v < b:  # a bound only
                upper, lower = total + p * v + rest * hi, total + p * v + low
                if (v <= a and upper <= alpha) or (v >= b and lower >= beta):
                    if i + 1 < len(outcomes):
                        cutoffs += 1
                    return upper if v <= a else lower
                v = value(child, depth, ply + 1, -INF, INF)  # rounding: search it exactly
            total += p * v
        return total

    def finish() -> None:
        stats = kernel.stats
        stats.nodes, stats.leaves, stats.evals, stats.cutoffs = nodes, leaves, evals, cutoffs
        stats.tt_hits = tt_hits
        kernel.max_ply, kernel.lines = deepest, lines

    return _wrap(kernel, value, finish)


def _never(state: Any, action: Any) -> bool:
    return False


def _wrap(kernel: Kernel, value: Worker, finish: Callable[[], None]) -> Kernel:
    """Make ``kernel.worker`` publish the counters after every call, even on an abort."""

    def worker(state: Any, depth: int, ply: int, alpha: float, beta: float) -> float:
        try:
            return value(state, depth, ply, alpha, beta)
        finally:
            finish()

    kernel.worker = worker
    return kernel
