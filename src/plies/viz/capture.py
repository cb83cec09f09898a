"""Capture the tree a search explores, from its trace events.

:func:`capture` runs one traced search and records every node the search visits, in the
order it visits them, with the value each node backs up, the alpha-beta window it was
entered with, and the children that a prune skipped (kept as greyed stubs together with
the bound that pruned them).  The nodes on the chosen path (the principal variation) are
marked.  The resulting :class:`~plies.viz.tree.SearchTree` (made of
:class:`~plies.viz.model.TreeNode` objects) exports to JSON (:mod:`plies.viz.tree`),
Graphviz DOT (:mod:`plies.viz.dot`) and a self-contained SVG (:mod:`plies.viz.svg`).

With engine craft (``capture(..., tt=True, ordering=True, pvs=True)``) the picture shows
what the craft did: a node the transposition table (or the game's bounds) settled without
a search, a child searched again after a null-window test, a reduced or an extended move,
a null move (the child ``(pass)``), quiescence's stand-pat, a Star2 probe, the order the
moves were tried in (each node's :attr:`~plies.viz.model.TreeNode.notes`).

What the picture shows of a search that visits a node more than once: the **last search
of the root** (the last iteration of iterative deepening, the last window of an aspiration
search, the final search of MTD-bi that names the move), and in it **each node's last
visit**, where the value the parent used was computed.  ``TreeNode.visits`` counts the
visits (a principal variation search's null-window test and its re-search are two), and
the children appear in the order of their last visits.  ``stats["nodes"]`` is the whole
search's count (every pass, every visit), ``stats["visits"]`` the visits of the pictured
pass, ``stats["drawn"]`` the nodes drawn (pruned stubs included).

>>> from plies.games import load
>>> game = load("aima-5-2")
>>> tree = capture(game, game.initial_state(), "alphabeta")
>>> tree.value, [c.value for c in tree.root.children]
(3.0, [3.0, 2.0, 2.0])
>>> [(s.action, s.pruned_by) for s in tree.pruned_nodes()]
[('c2', 'beta=2 <= alpha=3'), ('c3', 'beta=2 <= alpha=3')]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

from plies.errors import OptionError, SearchLimitError
from plies.game import CHANCE, SIMULTANEOUS, format_action, game_ops
from plies.search import Limit, SearchResult, TraceEvent, analyze
from plies.search.common import resolve_player
from plies.search.narrate import Narrator, cut_reason, format_number, window_text
from plies.search.registry import algorithm as registered
from plies.search.registry import names as algorithm_names
from plies.search.result import NULL_MOVE, step_state, step_text
from plies.viz.model import KINDS, TreeNode
from plies.viz.tree import SearchTree

__all__ = [
    "ALGORITHMS",
    "DEFAULT_MAX_NODES",
    "KINDS",
    "SearchTree",
    "TreeNode",
    "TreeTooLargeError",
    "capture",
    "player_name",
]

Search = Callable[..., Any]


class _Traceable(Mapping[str, Search]):
    """The registry's traceable algorithms' searches by name, read when used (an
    algorithm registered later appears)."""

    def __getitem__(self, name: str) -> Search:
        if name not in algorithm_names(lambda a: a.traceable):
            raise KeyError(name)
        return registered(name).search

    def __iter__(self) -> Iterator[str]:
        return iter(algorithm_names(lambda a: a.traceable))

    def __len__(self) -> int:
        return len(algorithm_names(lambda a: a.traceable))


ALGORITHMS: Final[Mapping[str, Search]] = _Traceable()
"""The searches a tree can be captured from (each traces its nodes), as the CLI names them:
the registry's traceable algorithms."""

DEFAULT_MAX_NODES: Final = 2000


class TreeTooLargeError(SearchLimitError):
    """The search visited more nodes than a picture was allowed (``max_nodes``)."""

    def __init__(self, max_nodes: int) -> None:
        self.max_nodes = max_nodes
        super().__init__(
            f"the search visited more than {max_nodes:,} nodes; "
            "search less deep or allow more nodes (max_nodes)"
        )


def player_name(game: Any, player: int) -> str:
    """``game.player_name(player)``, else ``"P0"``, ``"P1"``, ..."""
    namer = getattr(game, "player_name", None)
    return f"P{player}" if namer is None else str(namer(player))


def capture(
    game: Any,
    state: Any,
    algorithm: str = "alphabeta",
    limit: Limit | None = None,
    *,
    player: int | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    tie: str = "first",
    seed: int | None = None,
    threshold: float | None = None,
    all_values: bool = False,
    steps: list[dict[str, Any]] | None = None,
    **craft: Any,
) -> SearchTree:
    """Run ``algorithm`` from ``state`` with a trace and return the tree it explored.

    ``algorithm`` is one of :data:`ALGORITHMS`; ``limit`` may set a depth (and unit) but
    no time or node budget, because a picture shows one complete, reproducible search.
    ``player``, ``tie`` and ``seed`` mean what they mean for the search (``player``
    defaults to the player to move); ``threshold`` is bounded minimax's satisficing
    threshold.  With ``all_values`` the tree is that of :func:`plies.analyze` (every root
    action searched with a full window), the search behind a table of move values.
    ``craft`` are the algorithm's engine switches (``tt``, ``ordering``, ``pvs``, ... of
    :func:`plies.alphabeta`; ``pruning`` of :func:`plies.expectiminimax`): the picture
    is then that of the engine's search (see the module doc).
    The tree's values are the search's own: the root's value is exactly
    the search result's value, and the path marked ``pv`` is its principal variation.

    ``steps``, a list, gets the search step by step, as ``plies trace`` tells it: one
    ``{"node": id, "kind": event kind, "text": sentence}`` per sentence, ``node`` the
    id of the tree node it is about (the node entered, tested, backed up; the parent of
    pruned children).  Only the last pass of a search that searches its root again
    (iterative deepening) is kept, since the tree is that pass's.

    Raises :class:`TreeTooLargeError` as soon as the search visits more than
    ``max_nodes`` nodes (pruned stubs are not counted: they are never visited), and
    :class:`~plies.errors.OptionError` for an unknown algorithm or a budget limit.
    """
    entry = registered(algorithm)
    if not entry.traceable:
        known = ", ".join(ALGORITHMS)
        raise OptionError(f"{algorithm} reports no trace events, so its tree cannot be "
                          f"drawn; draw the tree of {known}")
    if limit is not None and limit.anytime:
        raise OptionError(
            "a tree picture shows one fixed search: give a depth limit, not a time or "
            "node budget"
        )
    if max_nodes < 1:
        raise OptionError(f"max_nodes must be >= 1, got {max_nodes}")
    options: dict[str, Any] = {"player": player, "tie": tie, "seed": seed, **craft}
    if threshold is not None:
        if "threshold" not in entry.options:
            takes = algorithm_names(lambda a: "threshold" in a.options)
            able = " or ".join(f"'{name}'" for name in takes)
            raise OptionError(f"a threshold needs the {able} algorithm")
        options["threshold"] = threshold
    searcher_player = resolve_player(game, state, player)
    recorder = _Recorder(game, searcher_player, entry.rule, max_nodes, threshold)
    recorder.strict = bool(craft.get("strict_cutoffs"))
    trace: Callable[[TraceEvent], None] = recorder
    if steps is not None:
        trace = _stepper(game, state, searcher_player, entry.rule, recorder, steps)
    if all_values:
        result: SearchResult = analyze(
            game, state, limit, algorithm=algorithm, trace=trace, **options
        )
    else:
        result = entry.search(game, state, limit, trace=trace, **options)
    root = recorder.finish()
    _mark_pv(root, result.pv)
    names = tuple(player_name(game, p) for p in range(game.num_players))
    stats = dict(result.stats.as_dict())
    stats["pruned"] = sum(1 for node in root.walk() if node.pruned)
    stats["drawn"] = sum(1 for _ in root.walk())
    stats["visits"] = recorder.visited
    return SearchTree(
        game=str(getattr(game, "name", "game")),
        algorithm=algorithm,
        player=names[result.player],
        player_index=result.player,
        players=names,
        value=result.value,
        values=result.values,
        exact=result.exact,
        pv=tuple(_pv_text(game, state, result.pv)),
        root=root,
        stats=stats,
    )


def _stepper(
    game: Any, state: Any, player: int, rule: str, recorder: _Recorder,
    steps: list[dict[str, Any]],
) -> Callable[[TraceEvent], None]:
    """A trace that feeds ``recorder`` and writes every narrated step into ``steps``."""
    narrator = Narrator(game, state, player, rule=rule, strict=recorder.strict)

    def trace(event: TraceEvent) -> None:
        if event.kind == "enter" and not event.path:
            steps.clear()  # the root searched again: the tree will be this pass's
        about = recorder.stack[-1].id if recorder.stack and event.kind != "enter" else None
        recorder(event)
        if event.kind == "enter" and recorder.stack:
            about = recorder.stack[-1].id
        said = len(narrator.lines)
        narrator(event)
        if len(narrator.lines) > said:
            steps.append({"node": about, "kind": event.kind, "text": narrator.lines[-1]})

    return trace


def _pv_text(game: Any, state: Any, pv: tuple[Any, ...]) -> list[str]:
    out: list[str] = []
    for action in pv:
        out.append(format_action(game, state, action))
        state = game.result(state, action)
    return out


def _mark_pv(root: TreeNode, pv: tuple[Any, ...]) -> None:
    node = root
    node.pv = True
    for action in pv:
        nxt = next((c for c in node.children if not c.pruned and c.move == action), None)
        if nxt is None:  # cannot happen for a search's own PV; stop rather than guess
            return
        nxt.pv = True
        node = nxt


class _Recorder:
    """A trace callback that builds the tree from the search's events.

    Events nest like the recursion that emits them: ``enter`` pushes a node, a leaf test
    (``terminal``/``cutoff``) or ``backup`` pops it.  A second root ``enter`` (a search
    that deepens iteratively, or searches its root again) starts the tree afresh: the
    last pass is the result.  A child entered again replaces its earlier visit (see the
    module doc); the craft's events become notes on the node they are about.
    """

    strict = False  # the strict cut rule: prunes are worded by the passed bound

    def __init__(
        self, game: Any, player: int, rule: str, max_nodes: int, threshold: float | None
    ) -> None:
        self.game = game
        self.ops = game_ops(game)
        self.player = player
        self.max_nodes = max_nodes
        self.threshold = threshold
        # max^n has no MAX and MIN, even with two players: every mover maximises its own
        # component of the utility vector, so its nodes carry its name
        self.by_name = rule == "maxn"
        label = getattr(game, "label", None)
        self.label: Callable[[Any], Any] | None = label if callable(label) else None
        self.root: TreeNode | None = None
        self.stack: list[TreeNode] = []
        self.odds: dict[int, dict[Any, float]] = {}  # chance node id -> outcome odds
        self.ids = 0
        self.visited = 0
        self.ahead: dict[tuple[int | None, Any], list[str]] = {}  # notes for a coming child
        self.standing: set[int] = set()  # quiescence nodes (stand pat)

    def __call__(self, event: TraceEvent) -> None:
        kind = event.kind
        if kind == "enter":
            self.enter(event)
            return
        if not self.stack or kind == "window":
            self.before_search(event)
            return
        node = self.stack[-1]
        if kind in ("terminal", "cutoff"):
            node.kind = kind
            if kind == "terminal":
                node.mover = None
            self.close(node, event)
        elif kind == "expand":
            node.kind = self.kind(event.mover)
            if event.alpha is not None:  # the root's window is known only here
                node.alpha, node.beta = event.alpha, event.beta
            if event.mover == CHANCE:
                self.odds[node.id] = dict(self.ops.chance_outcomes(event.state))
        elif kind == "prune":
            self.prune(node, event)
        elif kind == "backup":
            if node.id in self.standing and not node.children:
                node.kind = "cutoff"  # quiescence stood pat at once: a leaf after all
            self.close(node, event)
        else:
            self.craft(node, event)

    def before_search(self, event: TraceEvent) -> None:
        """A ``window`` (or the root's ``research``) announces the next search of a node."""
        v, window = format_number(event.value), _window(event)
        if event.kind == "research":
            text = f"searched again with {window} after {v}"
        elif window.startswith("a null window"):
            text = f"last test: is it above {v}? ({window})"
        elif "ulp" in window:
            text = f"searched in {window}"
        else:
            text = f"window around {v}: {window}"
        parent = self.stack[-1].id if self.stack else None
        key = (parent, event.path[-1] if event.path else None)
        self.ahead.setdefault(key, []).append(text)

    def craft(self, node: TreeNode, event: TraceEvent) -> None:
        """A note on ``node`` (or on a child to come) for what the engine craft did."""
        kind, v, window = event.kind, format_number(event.value), _window(event)
        if kind == "order":
            moves = " ".join(step_text(self.game, event.state, a) for a in event.moves)
            node.notes = [n for n in node.notes if not n.startswith("moves tried")]
            node.notes.append(f"moves tried: {moves}" + (" ..." if len(event.moves) == 1
                                                         and event.action is not None else ""))
        elif kind == "table":
            settled = event.alpha is not None and event.beta is not None and (
                event.alpha >= event.beta
            )
            node.notes.append(f"table: {v}" + ("" if settled else f", now {window}"))
            if settled:
                node.settled_by = "table"
        elif kind == "bounds":
            node.notes.append(f"game's bounds: {v}" if event.value is not None
                              else f"game's bounds: {window}")
            if event.value is not None:
                node.settled_by = "bounds"
        elif kind == "stand":
            node.kind = self.kind(event.mover)
            node.alpha, node.beta = event.alpha, event.beta
            node.notes.append(f"stand pat {v}")
            self.standing.add(node.id)
        elif kind == "null":
            node.notes.append(f"null move: evaluation {v}, passes")
        elif kind == "singular":
            node.notes.append(f"singular test at {v}")
        elif kind == "probe":
            node.kind = self.kind(event.mover)
            node.notes.append(f"Star2 probe: first move only, for {v}")
        elif kind in ("research", "reduce", "extend"):
            text = {"research": "re-searched", "extend": "extended"}.get(
                kind, f"reduced {v} ply" + ("" if event.value == 1 else "s")
            )
            self.ahead.setdefault((node.id, event.action), []).append(text)

    def enter(self, event: TraceEvent) -> None:
        parent = self.stack[-1] if self.stack else None
        notes: list[str] = []
        visits = 1
        if not event.path:  # a (new) root
            notes = self.ahead.pop((None, None), [])
            self.root, self.stack, self.odds, self.ids, self.visited = None, [], {}, 0, 0
            self.ahead, self.standing = {}, set()
        self.visited += 1
        if self.visited > self.max_nodes:
            raise TreeTooLargeError(self.max_nodes)
        action = event.path[-1] if event.path else None
        if parent is not None:
            notes = self.ahead.pop((parent.id, action), [])
            earlier = next((c for c in parent.children if not c.pruned and c.move == action
                            and (c.move is not NULL_MOVE or action is NULL_MOVE)), None)
            if earlier is not None:  # visited again: the last visit is the one drawn
                parent.children.remove(earlier)
                visits += earlier.visits
                notes = [n for n in earlier.notes if n.startswith(_HOW_VISITED)] + notes
        node = self.new_node(parent, action, event.state)
        node.mover = self.mover(event.mover)
        node.depth = event.depth
        node.alpha, node.beta = event.alpha, event.beta
        node.visits, node.notes = visits, notes
        if parent is None:
            self.root = node
        self.stack.append(node)

    def new_node(self, parent: TreeNode | None, action: Any, state: Any) -> TreeNode:
        """A node below ``parent`` reached by ``action``; its kind is set by later events."""
        text = probability = None
        if parent is not None:
            text = step_text(self.game, parent.state, action)
            odds = self.odds.get(parent.id)
            probability = None if odds is None else odds.get(action)
        label = self.label(state) if self.label is not None else None
        node = TreeNode(
            id=self.ids, parent=None if parent is None else parent.id, action=text,
            kind="terminal", mover=None, probability=probability,
            label=None if label is None else str(label), move=action, state=state,
        )
        self.ids += 1
        if parent is not None:
            parent.children.append(node)
        return node

    def close(self, node: TreeNode, event: TraceEvent) -> None:
        node.value = event.value
        node.values = event.values
        self.stack.pop()

    def prune(self, node: TreeNode, event: TraceEvent) -> None:
        reason = self.reason(event)
        for action in event.pruned:
            child = step_state(self.game, event.state, action)
            stub = self.new_node(node, action, child)
            if not self.ops.is_terminal(child):
                to_move = self.ops.to_move(child)
                stub.kind, stub.mover = self.kind(to_move), self.mover(to_move)
            stub.pruned = True
            stub.pruned_by = reason

    def reason(self, event: TraceEvent) -> str:
        """Why the rest of a node's children were skipped, in the narrator's words
        ("alpha=3 >= beta=2" at a max node, "beta=2 <= alpha=3" at a min node; under the
        strict cut rule "v=5 > beta=4" and "v=2 < alpha=3"); pictures write it with Greek
        letters."""
        maximizing = event.mover == self.player
        if event.action is NULL_MOVE:
            return "null move: passing fails " + ("high" if maximizing else "low")
        if event.alpha is not None and event.beta is not None:  # alpha-beta
            if event.mover == CHANCE:
                a, b = format_number(event.alpha), format_number(event.beta)
                return f"Star1: {format_number(event.value)} outside alpha={a}, beta={b}"
            return cut_reason(maximizing, event.alpha, event.beta, event.value,
                              strict=self.strict)
        # No window: a utility bound or bounded minimax's satisficing threshold was
        # reached, or the root's value was known (bisection found it) and a move reached it.
        value = format_number(event.value)
        lo, hi = self.ops.utility_range
        t, v = self.threshold, event.value
        if maximizing and v is not None:
            if t is not None and t <= hi and v >= t:
                return f"v={value} >= threshold {format_number(t)}"
            if v >= hi:
                return f"v={value} = max utility"
        elif v is not None:
            if v <= lo:
                return f"v={value} = min utility"
            if t is not None and v < t:
                return f"v={value} < threshold {format_number(t)}"
        return f"v={value} cannot be improved on"

    def kind(self, mover: int) -> str:
        if mover == CHANCE:
            return "chance"
        if mover == SIMULTANEOUS:
            return "simultaneous"
        if self.by_name:
            return player_name(self.game, mover)
        return "max" if mover == self.player else "min"

    def mover(self, mover: int) -> str:
        if mover == SIMULTANEOUS:
            return "everyone"
        return "chance" if mover == CHANCE else player_name(self.game, mover)

    def finish(self) -> TreeNode:
        if self.root is None or self.stack:
            raise SearchLimitError("the search ended before its tree was complete")
        for number, node in enumerate(self.root.walk()):  # preorder, without the gaps
            node.id = number  # left by visits that a later one replaced
            for child in node.children:
                child.parent = number
        return self.root


_HOW_VISITED: Final = (
    "re-searched", "extended", "reduced", "window", "searched again", "last test", "Star2",
)
"""Notes about how a node was visited, kept when it is visited again (the others are
about what its search found, which the last visit says)."""


def _window(event: TraceEvent) -> str:
    """An event's window in words (as the narration writes it)."""
    return "" if event.alpha is None or event.beta is None else window_text(
        event.alpha, event.beta
    )
