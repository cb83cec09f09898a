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
    unit; the full height of the tree when no depth limit was given).  ``seldepth``:
    the deepest ply any node of the last iteration was reached at (quiescence and
    extensions go past ``depth``).
    """

    nodes: int = 0
    leaves: int = 0
    evals: int = 0
    cutoffs: int = 0
    tt_hits: int = 0
    depth: int = 0
    seldepth: int = 0
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

    def _repr_html_(self) -> str:
        """How a notebook shows the result: value, action, PV, statistics; ``analyze``'s
        value of every move, ``maxn``'s vector and a mixed strategy as tables.  Actions
        are shown as ``str(action)`` (a result does not know the game's notation)."""
        from html import escape

        def num(x: float) -> str:
            return escape(format(x + 0.0, ".6g"))  # + 0.0: no "-0"

        kind = "exact" if self.exact else "heuristic"
        pv = " ".join(str(a) for a in self.pv) or "(none)"
        st = self.stats
        rows = [
            ("value", f"<b>{num(self.value)}</b> for player {self.player} ({kind})"),
            ("best action", f"<b>{escape(str(self.action))}</b>"),
            ("principal variation", escape(pv)),
            ("nodes", f"{st.nodes:,} ({num(st.nps)} nodes/s, {num(st.elapsed)} s)"),
            ("depth, cutoffs, table hits", f"{st.depth}, {st.cutoffs:,}, {st.tt_hits:,}"),
        ]
        if self.values is not None:
            rows.append(("utility vector", escape(", ".join(num(v) for v in self.values))))
        cells = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
        html = f"<table><caption>SearchResult</caption>{cells}</table>"
        for title, table in (("action", self.action_values), ("probability", self.strategy)):
            if table:
                head = f"<tr><th>action</th><th>{'value' if title == 'action' else title}</th></tr>"
                body = "".join(
                    f"<tr><td>{escape(str(a))}</td><td>{num(v)}</td></tr>" for a, v in table.items()
                )
                html += f"<table>{head}{body}</table>"
        return html


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
