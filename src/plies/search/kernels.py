"""What the compiled searches share: the :class:`Kernel` record, the trace hook, node errors.

minimax, expectiminimax and alpha-beta (with every engine switch and Star1/Star2 at
chance nodes) each have one implementation: a *kernel*, a recursive worker built as a
closure over the game's bound methods and its counters, so that a node costs close to
what a hand-written loop costs (see ``benchmarks/``).  The kernels are in
:mod:`plies.search.minimax` (:func:`~plies.search.minimax.minimax_kernel`) and
:mod:`plies.search.alphabeta.core` (:func:`~plies.search.alphabeta.core.alphabeta_kernel`
and its parts).  A kernel searches below the root; the root itself (tie rule, windows,
iterative deepening) is :class:`plies.search.common.Searcher`'s.

A worker is ``worker(state, depth, ply, alpha, beta) -> value``: ``ply`` counts the
moves from the root, ``depth`` is the depth in the limit's unit (with ``unit="round"``
it also says where the round stands, see :meth:`Kernel.entry_depth`).  It keeps the
principal variation as a linked list of ``(action, rest)`` pairs per ply (an improvement
costs one tuple, not a list copy) and looks at the budget every so many nodes
(:func:`plies.search.limits.budget_check`).

Tracing is a callback of the same worker.  Built with a trace, a kernel holds an
:class:`Emitter`; every hook in a kernel is ``if emit is not None:`` and a call, so an
untraced search pays one test of a local variable per hook and nothing else, and a
traced search visits exactly the nodes the untraced one visits.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from plies._compat import deprecated_alias
from plies.errors import UnsupportedGameError
from plies.game import CHANCE, SIMULTANEOUS
from plies.game import no_actions as no_actions  # re-exported: the searches import it here
from plies.search.craft import Staged
from plies.search.limits import NEVER as NEVER
from plies.search.result import SearchStats, Trace, TraceEvent

INF = math.inf
NOBODY = -9  # "the searching player has not moved yet on this path" (round counting)
ROUND = 4  # with unit="round" a worker's depth is ROUND * rounds + phase (entry_depth)

Line = tuple[Any, Any] | None  # (action, rest of the line) or None
Worker = Callable[[Any, int, int, float, float], float]


@dataclass
class Kernel:
    """A compiled worker plus the cells it counts in; ``line(ply)`` reads a PV.

    ``path`` is the trace's path: ``path[:ply]`` are the actions from the root to the
    node being searched at ``ply`` (written only by a traced kernel; the root driver
    writes ``path[0]`` before it searches a root child).
    """

    worker: Worker = field(init=False)
    lines: list[Line] = field(default_factory=list)
    stats: SearchStats = field(default_factory=SearchStats)
    heuristic: bool = False
    max_ply: int = 0
    player: int = 0
    rounds: bool = False
    path: list[Any] = field(default_factory=list)

    def entry_depth(self, depth: int, last: int) -> int:
        """The worker's ``depth`` argument for a node below the root.

        ``depth`` and ``last`` are what the root driver has (the parent's depth in the
        limit's unit and the last decision-maker, see ``Searcher.depth_here``).  In
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


def rounds_depth(ops: Any, player: int) -> Callable[[int, Any], int]:
    """``node_depth(depth, state)``: a node's depth in rounds from its parent's, for
    ``player``'s search of the game of ``ops`` (both ``ROUND * rounds + phase``, see
    :meth:`Kernel.entry_depth`).

    The node's actor decides: its mover, the player a chance node stands for
    (``chance_player``), or nobody at a true chance event, which changes nothing.  A
    move of the searching player starts phase 1, and a new round if another player moved
    since it last did (phase 2); another player's move after it starts phase 2.
    """
    to_move, chance_player = ops.to_move, ops.chance_player

    def node_depth(depth: int, state: Any) -> int:
        phase = depth % ROUND
        actor = to_move(state)
        if actor == CHANCE:
            who = chance_player(state)
            if who is None:
                return depth
            actor = who
        if actor == player:  # phase 1; a new round if another player moved since we did
            return depth + ROUND - 1 if phase == 2 else depth - phase + 1
        if actor >= 0 and phase == 1:
            return depth + 1
        return depth  # a true chance event, or no change of phase

    return node_depth


def not_a_player(game: Any, mover: Any) -> UnsupportedGameError:
    """The error for a ``to_move`` that returned no player, nor CHANCE, nor SIMULTANEOUS."""
    name = getattr(game, "name", None) or type(game).__name__
    players = int(game.num_players)
    return UnsupportedGameError(
        f"{name}: to_move returned {mover!r}, which is not a player (players are "
        f"0..{players - 1}) nor CHANCE ({CHANCE}) nor SIMULTANEOUS ({SIMULTANEOUS})"
    )


def refuse_node(algorithm: str, game: Any, mover: int) -> UnsupportedGameError:
    """The error for a node a kernel cannot search: chance, simultaneous, or no player."""
    if mover == CHANCE:
        return UnsupportedGameError(f"{algorithm} cannot search chance nodes; use expectiminimax")
    if mover == SIMULTANEOUS:
        return UnsupportedGameError(
            f"{algorithm} cannot search simultaneous-move nodes; use simultaneous"
        )
    return not_a_player(game, mover)




class Emitter:
    """A kernel's trace hook: it makes the :class:`~plies.search.result.TraceEvent`\\ s.

    ``emit(kind, state, ply, depth, mover, value, alpha, beta, ...)`` reports an event
    about the node at ``ply`` (the kernel's depth, which this turns into the limit's
    unit).  :meth:`arrive` reports entering a node together with its first test;
    :meth:`follow` walks a node's moves and keeps :attr:`path` in step.  Only traced
    kernels have one, so none of this costs an untraced search anything.
    """

    __slots__ = ("depth_of", "path", "rounds", "to_move", "trace")

    def __init__(
        self, trace: Trace, path: list[Any], to_move: Callable[[Any], int],
        depth_of: Callable[[int, Any], int], rounds: bool,
    ) -> None:
        self.trace, self.path, self.to_move = trace, path, to_move
        self.depth_of, self.rounds = depth_of, rounds

    def __call__(
        self,
        kind: Any,
        state: Any,
        ply: int,
        depth: int,
        mover: int,
        value: float | None = None,
        alpha: float | None = None,
        beta: float | None = None,
        *,
        pruned: Iterable[Any] = (),
        action: Any = None,
        moves: Iterable[Any] = (),
    ) -> None:
        self.trace(TraceEvent(
            kind, tuple(self.path[:ply]), depth // ROUND if self.rounds else depth, mover,
            state, value, alpha, beta, tuple(pruned), None, action, tuple(moves),
        ))

    def arrive(
        self,
        kind: Any,
        state: Any,
        ply: int,
        depth: int,
        value: float | None = None,
        alpha: float | None = None,
        beta: float | None = None,
        *,
        window: bool = True,
        settled: bool = False,
    ) -> None:
        """``"enter"`` the node at ``ply`` with the window ``(alpha, beta)``, then ``kind``.

        ``kind`` is ``"terminal"`` or ``"cutoff"`` (a leaf worth ``value``; a terminal's
        ``depth`` is its parent's, this computes its own), or ``"expand"`` / ``"stand"``.
        ``window``: the algorithm has one (else both are reported as None).  ``settled``:
        the depth is already the node's own.
        """
        mover = self.to_move(state)
        if kind == "terminal" and not settled:
            depth = self.depth_of(depth, state)
        if not window:
            alpha = beta = None
        self("enter", state, ply, depth, mover, alpha=alpha, beta=beta)
        if kind in ("terminal", "cutoff"):
            self(kind, state, ply, depth, mover, value)
        else:
            self(kind, state, ply, depth, mover, value, alpha, beta)

    def follow(
        self, moves: Sequence[Any] | Staged, ply: int, state: Any, depth: int, mover: int
    ) -> Iterator[Any]:
        """The moves of the node at ``ply``, with ``path[ply]`` set to each in turn.

        Staged moves (the table's move first) are ordered when the second one is asked
        for, as in an untraced search, and that order is reported (``"order"``).
        """
        path = self.path
        while len(path) <= ply:
            path.append(None)
        if type(moves) is Staged:
            path[ply] = moves.first
            yield moves.first
            rest = moves.rest()
            self("order", state, ply, depth, mover, action=moves.first,
                 moves=(moves.first, *rest))
            for action in rest:
                path[ply] = action
                yield action
            return
        for action in moves:
            path[ply] = action
            yield action

    def outcomes(
        self, outcomes: Sequence[tuple[Any, float]], ply: int
    ) -> Iterator[tuple[Any, float]]:
        """A chance node's ``(outcome, probability)`` pairs, with ``path[ply]`` in step."""
        for pair in outcomes:
            self.step(ply, pair[0])
            yield pair

    def step(self, ply: int, action: Any) -> None:
        """Set ``path[ply]``: the next event at ``ply + 1`` is about the child ``action``."""
        path = self.path
        while len(path) <= ply:
            path.append(None)
        path[ply] = action


def remaining(moves: Sequence[Any] | Staged, i: int) -> list[Any]:
    """The moves after the ``i``-th (for a prune's report; staged moves are ordered)."""
    return list(moves)[i + 1 :]


def publish(kernel: Kernel, value: Worker, finish: Callable[[], None]) -> Kernel:
    """Make ``kernel.worker`` publish the counters after every call, even on an abort."""

    def worker(state: Any, depth: int, ply: int, alpha: float, beta: float) -> float:
        try:
            return value(state, depth, ply, alpha, beta)
        finally:
            finish()

    kernel.worker = worker
    return kernel


deprecated_alias(globals(), "alphabeta_kernel", "plies.search.alphabeta.core.alphabeta_kernel")
deprecated_alias(globals(), "minimax_kernel", "plies.search.minimax.minimax_kernel")
