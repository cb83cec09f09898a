"""What a search returns and what it reports on the way: results, statistics, trace events."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Final, Literal, NamedTuple

from plies.game import format_action


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


class Origin(NamedTuple):
    """The game and the root state a result was searched from, so that it can name its
    moves and players as the game does (in a notebook)."""

    game: Any
    state: Any


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

    ``origin`` is the game and root the search ran on (None for a result made by hand):
    not part of a result's value (equality ignores it) and not pickled, so results stay
    cheap to send to worker processes.  A notebook shows a result with it: moves, players
    and values as the game and the command line write them, and the game's board.
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
    origin: Origin | None = field(default=None, compare=False, repr=False)

    def __getstate__(self) -> tuple[Any, ...]:
        # Everything but the origin: a game (and its state) can be big or unpicklable.
        return tuple(getattr(self, f.name) for f in fields(self) if f.name != "origin")

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        names = [f.name for f in fields(self) if f.name != "origin"]
        for name, value in zip(names, state, strict=True):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "origin", None)

    def _repr_html_(self) -> str:
        """How a notebook shows the result: value, best move, PV, statistics; an
        analysis's value of every move, max^n's vector and a mixed strategy as tables;
        the root's board when the game has one (an analysis's values on it).  With an
        :attr:`origin`, moves and players are named as the game writes them; without
        one, as ``str(action)`` and player numbers."""
        from html import escape

        from plies.game import hook
        from plies.game.text import number, own_action_text, player_name, pv_text

        game, root = self.origin if self.origin is not None else (None, None)

        def move(action: Any) -> str:
            if game is None:
                return str(action)
            return own_action_text(game, root, self.player, action)

        def who(player: int) -> str:
            return f"player {player}" if game is None else player_name(game, player)

        kind = "exact" if self.exact else "heuristic"
        line = [str(a) for a in self.pv] if game is None else pv_text(game, root, self.pv)
        st = self.stats
        rows = [
            ("value", f"<b>{number(self.value)}</b> for {escape(who(self.player))} ({kind})"),
            ("best move", f"<b>{escape('none' if self.action is None else move(self.action))}</b>"),
            ("principal variation", escape(" ".join(line) or "(none)")),
            ("nodes", f"{st.nodes:,} ({st.nps:,.0f} nodes/s, {st.elapsed:.3f}s)"),
            ("depth, cutoffs, table hits", f"{st.depth}, {st.cutoffs:,}, {st.tt_hits:,}"),
        ]
        if self.values is not None:
            rows.append(("values", escape(", ".join(
                f"{who(p)} {number(v)}" for p, v in enumerate(self.values)))))
        cells = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
        html = f"<table><caption>SearchResult</caption>{cells}</table>"
        for title, table in (("value", self.action_values), ("probability", self.strategy)):
            if table:
                head = f"<tr><th>move</th><th>{title}</th></tr>"
                body = "".join(
                    f"<tr><td>{escape(move(a))}</td><td>{number(v)}</td></tr>"
                    for a, v in table.items()
                )
                html += f"<table>{head}{body}</table>"
        draw = None if game is None or game.is_terminal(root) else hook(game, "board")
        if draw is not None:
            shown = {move(a): number(v) for a, v in (self.action_values or {}).items()}
            if not shown and self.action is not None:
                shown = {move(self.action): "best"}
            html += draw(root).with_labels(shown)._repr_html_()
        return html

    def about(self, game: Any, state: Any) -> SearchResult:
        """This result with its :attr:`origin`: searched on ``game`` from ``state``."""
        return replace(self, origin=Origin(game, state))


EVENT_KINDS: Final = (
    "enter", "terminal", "cutoff", "expand", "backup", "prune",
    "order", "table", "bounds", "research", "reduce", "extend", "singular", "null", "stand",
    "probe", "window",
)
"""Every kind of :class:`TraceEvent`, the plain algorithm's first, then the engine craft's."""

EventKind = Literal[
    "enter", "terminal", "cutoff", "expand", "backup", "prune",
    "order", "table", "bounds", "research", "reduce", "extend", "singular", "null", "stand",
    "probe", "window",
]


class NullMove:
    """The action of a null move in a trace's ``path``: the mover passes (see ``null``).

    Only traces carry it; a game never sees it as an action (the search reaches the
    position through the game's ``null_move`` hook).
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return "NULL_MOVE"

    def __reduce__(self) -> str:
        return "NULL_MOVE"  # one object, also after a copy or a pickle


NULL_MOVE: Final = NullMove()
"""The one :class:`NullMove`."""


def step_text(game: Any, state: Any, action: Any) -> str:
    """An action of a trace's path as the game writes it (a null move: ``"(pass)"``)."""
    if action is NULL_MOVE:
        return "(pass)"
    return format_action(game, state, action)


def step_state(game: Any, state: Any, action: Any) -> Any:
    """The state an action of a trace's path leads to (a null move: the game's
    ``null_move`` hook)."""
    if action is NULL_MOVE:
        return game.null_move(state)
    return game.result(state, action)


@dataclass(frozen=True, slots=True)
class TraceEvent:
    """One step of a search, for narrators and tree pictures.

    ``path`` is the actions from the root to the node the event is about (a null move
    is :data:`NULL_MOVE`); ``depth`` counts in the limit's unit; ``mover`` is the node's
    mover; ``state`` its state; ``alpha``/``beta`` the window (None when the algorithm
    has none); ``values`` a max^n node's utility vector.

    The plain algorithm's kinds, which every traced search reports:
    ``"enter"`` (a node is entered), ``"terminal"`` (terminal test met; ``value`` is
    the utility), ``"cutoff"`` (cutoff test met; ``value`` is the evaluation),
    ``"expand"`` (both tests failed; children follow), ``"backup"`` (the node's value
    is final and goes up), ``"prune"`` (the remaining children ``pruned`` are skipped
    because ``alpha >= beta`` or a bound was reached; ``action`` is :data:`NULL_MOVE`
    when a null move's search caused it).  Every ``enter`` is closed by one
    ``terminal``, ``cutoff`` or ``backup`` of the same node, with the events of its
    children in between, and a search reports one ``enter`` per node it counts (one
    fewer when a budget or a stop signal ended it: the node at which it stopped is
    counted, not entered).

    What the engine craft of :func:`plies.alphabeta` does, and pruning at chance nodes,
    at the node of ``path`` (between its ``enter`` and the event that closes it):

    - ``"order"``: the moves will be tried in the order ``moves`` (``action``: the
      transposition table's move, when it comes first; the others are then ordered only
      if it does not cut off, and a second ``"order"`` gives them all).
    - ``"table"``: the transposition table holds ``value`` for this position at this
      depth; the window becomes ``(alpha, beta)``.  When ``alpha >= beta`` the node is
      settled without a search and its ``"backup"`` follows at once.
    - ``"bounds"``: the game's ``value_bounds`` narrow the window to ``(alpha, beta)``,
      or settle the node at ``value`` (its ``"backup"`` follows).
    - ``"research"``: the child ``action`` is searched again with ``(alpha, beta)``: its
      null-window (or reduced) search returned ``value``, which may beat the best so far
      (principal variation search, late-move reductions, a chance node's rounding).
      At the root, ``action`` None: the root is searched again with the full window
      after an aspiration window failed with ``value``.
    - ``"reduce"``: the late quiet move ``action`` is first searched ``value`` plies
      shallower with the null window ``(alpha, beta)`` (late-move reductions).
    - ``"extend"``: the child ``action`` is searched one ply deeper (the game's
      ``extension`` hook, or a singular move).
    - ``"singular"``: the singular-extension test: every move but the table's move
      ``action`` is searched at reduced depth against ``value`` (the table's value
      minus the margin for the searching player); if none reaches it, an ``"extend"``
      of ``action`` follows.
    - ``"null"``: null-move pruning: the static evaluation ``value`` already reaches the
      window, so the mover passes and the position is searched shallower with the null
      window ``(alpha, beta)`` (the child at ``path + (NULL_MOVE,)``).  If that still
      fails high (low), a ``"prune"`` of every move (``action`` :data:`NULL_MOVE`) follows.
    - ``"stand"``: quiescence search past the depth limit: standing pat is worth the
      static evaluation ``value``; noisy moves may follow.
    - ``"probe"``: Star2 probes this node below a chance node: only its first move is
      searched, for a lower bound (its ``"backup"`` gives it); the full search of the
      node, if it comes, visits it again.
    - ``"window"``: before a search of the root (``path`` empty) with a narrowed window
      ``(alpha, beta)``: an aspiration window around ``value`` (the last iteration's
      value), or an MTD-bi test "is the value above ``value``?".

    A node can be visited more than once in one search: a principal variation search
    re-searches a child, Star2 probes a node before searching it, the singular test
    searches moves the move loop searches again, and each MTD-bi test or iteration of
    iterative deepening searches the root again.
    """

    kind: EventKind
    path: tuple[Any, ...]
    depth: int
    mover: int
    state: Any
    value: float | None = None
    alpha: float | None = None
    beta: float | None = None
    pruned: tuple[Any, ...] = ()
    values: tuple[float, ...] | None = None
    action: Any = None
    moves: tuple[Any, ...] = ()


Trace = Callable[[TraceEvent], None]
