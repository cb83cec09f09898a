"""What the parts of the alpha-beta core share: the switches, the context, the counters.

The core (:mod:`plies.search.alphabeta.core`) builds one :class:`Context` per kernel and
hands it, with the :class:`Switches`, to each part's factory
(:mod:`~plies.search.alphabeta.table`, :mod:`~plies.search.alphabeta.selective`,
:mod:`~plies.search.alphabeta.chance`); a factory reads what it needs once, into the
closure cells of the functions it returns.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from plies.game import GameOps
from plies.search.craft import HINT_DEPTH, MoveOrder, Order, Ordering, TranspositionTable
from plies.search.kernels import Emitter, Kernel, Line, Worker


@dataclass(frozen=True)
class Switches:
    """What the core does besides plain alpha-beta; with every field off it is plain
    alpha-beta with children in ``actions()`` order (or ``order(state, actions)`` order).

    The engine craft (:mod:`plies.search.craft`), each value-preserving:
    ``table`` a transposition table; ``ordering`` the engine's move order
    (:func:`~plies.search.craft.move_order`, which replaces ``order``) with ``memory``
    its killers and history, the game's hint asked only ``hint_depth`` or more plies
    from the depth limit; ``pvs`` principal variation search; ``bounds`` and
    ``sufficient`` (exact searches only) the game's ``value_bounds`` and
    ``sufficient_actions``.  See :mod:`plies.search.alphabeta.table`.

    The selective switches (depth-limited searches in plies only):
    ``quiescence`` noisy plies past the depth limit with ``noisy`` (the game's
    ``noisy_actions``); ``extension(state, action, child)`` the game's extension hook;
    ``singular`` a margin (needs ``table``); ``null_move`` the game's hook, with
    ``null_reduction`` plies of reduction; ``quiet(state, action)`` late-move reductions.
    See :mod:`plies.search.alphabeta.selective`.

    ``star1`` and ``star2``: chance nodes are searched with Ballard's Star1 (and Star2's
    probing); see :mod:`plies.search.alphabeta.chance`.

    ``strict``: the cut rule.  Off (the default), a node's remaining children are cut
    when ``alpha >= beta``; on, only when a bound is strictly passed (``v > beta`` at a
    MAX node, ``v < alpha`` at a MIN node), the rule of courses whose autograders count
    the states an alpha-beta generates.  Every part (the move loops, the table's and the
    game's bounds, null moves, stand-pat, Star1) cuts by the same rule.
    """

    order: Order | None = None
    star1: bool = False
    star2: bool = False
    table: TranspositionTable | None = None
    ordering: MoveOrder | None = None
    memory: Ordering | None = None
    pvs: bool = False
    bounds: Callable[[Any, int], tuple[float, float]] | None = None
    sufficient: Callable[[Any, Sequence[Any]], Sequence[Any]] | None = None
    quiescence: int | None = None
    noisy: Callable[[Any], Sequence[Any]] | None = None
    extension: Callable[[Any, Any, Any], int] | None = None
    singular: float | None = None
    null_move: Callable[[Any], Any] | None = None
    null_reduction: int = 2
    quiet: Callable[[Any, Any], bool] | None = None
    hint_depth: int = HINT_DEPTH
    strict: bool = False


PLAIN_CORE = Switches()


@dataclass(slots=True)
class Tally:
    """The counters of the parts off the prelude's path (the prelude keeps its own in
    closure cells); the kernel's statistics are the sum of both."""

    leaves: int = 0
    evals: int = 0
    cutoffs: int = 0
    tt_hits: int = 0
    deepest: int = 0


@dataclass
class Context:
    """What the parts of one kernel share.

    ``horizon`` is the depth limit in the worker's unit (:data:`NEVER`: none);
    ``selective`` says that the selective switches apply (a depth limit, in plies).
    ``value`` is the worker itself (the recursion); ``count()`` counts one node the part
    visits without calling ``value`` and looks at the budget.  ``node_depth(depth,
    state)`` is a node's depth from its parent's (in rounds; else the identity).
    """

    ops: GameOps
    player: int
    kernel: Kernel
    lines: list[Line]
    tally: Tally
    emit: Emitter | None
    horizon: int
    rounds: bool
    selective: bool
    value: Worker
    count: Callable[[], None]
    node_depth: Callable[[int, Any], int]
    game: Any = None
