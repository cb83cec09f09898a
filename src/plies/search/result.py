"""What a search returns and what it reports on the way: results, statistics, trace events."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, Literal


@dataclass(slots=True)
class SearchStats:
    """Counters of one search.

    ``nodes``: states visited, root included.  ``leaves``: nodes scored without
    expanding them (terminal or cut off by depth).  ``evals``: calls of ``evaluate``.
    ``cutoffs``: times the rest of a node's children were pruned.  ``tt_hits``:
    transposition-table hits.  ``depth``: the deepest completed depth (in the limit's
    unit; the full height of the tree when no depth limit was given).
    """

    nodes: int = 0
    leaves: int = 0
    evals: int = 0
    cutoffs: int = 0
    tt_hits: int = 0
    depth: int = 0
    elapsed: float = 0.0

    @property
    def nps(self) -> float:
        """Nodes per second."""
        return self.nodes / self.elapsed if self.elapsed > 0 else 0.0

    def as_dict(self) -> dict[str, float]:
        return {**asdict(self), "nps": self.nps}


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search returns.

    ``value`` is from the searching player's point of view (``player``).  ``exact`` is
    True when no heuristic evaluation was used, so ``value`` is the game-theoretic
    value for that player (paranoid: every other player minimises it; max^n: every
    player maximises its own).  ``action`` is the mover's chosen action (None at a
    terminal or chance root); ``pv`` the principal variation from the root.
    ``action_values`` (``analyze``) maps every root action to its value, and ``values``
    (``maxn``) is the utility vector the search expects.  ``strategy``
    (``simultaneous``) is the mover's mixed strategy at the root: action -> probability.
    ``stopped`` is True when a stop signal, a time or a node budget ended the search
    before its depth limit (or the end of the game): the result is then the last
    iteration that completed, or, if none did, the first legal action with the root's
    evaluation (``exact`` False, ``stats.depth`` 0).
    """

    value: float
    action: Any
    pv: tuple[Any, ...]
    stats: SearchStats
    player: int = 0
    exact: bool = True
    action_values: dict[Any, float] | None = None
    values: tuple[float, ...] | None = None
    strategy: dict[Any, float] | None = None
    stopped: bool = False


@dataclass(frozen=True, slots=True)
class TraceEvent:
    """One step of a search, for narrators and tree pictures.

    ``kind`` is one of:
    ``"enter"`` (a node is entered), ``"terminal"`` (terminal test met; ``value`` is
    the utility), ``"cutoff"`` (cutoff test met; ``value`` is the evaluation),
    ``"expand"`` (both tests failed; children follow), ``"backup"`` (the node's value
    is final and goes up), ``"prune"`` (the remaining children ``pruned`` are skipped
    because ``alpha >= beta`` or a bound was reached).
    ``path`` is the actions from the root; ``depth`` counts in the limit's unit.
    """

    kind: Literal["enter", "terminal", "cutoff", "expand", "backup", "prune"]
    path: tuple[Any, ...]
    depth: int
    mover: int
    state: Any
    value: float | None = None
    alpha: float | None = None
    beta: float | None = None
    pruned: tuple[Any, ...] = ()
    values: tuple[float, ...] | None = None


Trace = Callable[[TraceEvent], None]
