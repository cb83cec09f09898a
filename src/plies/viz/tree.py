"""A captured search tree, and its JSON form: a stable, documented schema.

:class:`SearchTree` is what :func:`plies.viz.capture` returns: the tree of one search, which
draws itself as Graphviz DOT (:mod:`plies.viz.dot`) and SVG (:mod:`plies.viz.svg`).

``SearchTree.to_json()`` returns plain data that ``json.dumps`` accepts (strict JSON: an
infinite number is written as the string ``"+inf"`` or ``"-inf"``)::

    {
      "schema": 1,
      "game": "aima-fig-5-2",            # the game's name
      "algorithm": "alphabeta",          # a traceable algorithm (plies algorithms)
      "player": "MAX",                   # whose point of view every value is from
      "players": ["MAX", "MIN"],         # every player's name, in player order
      "value": 3.0,                      # the root's value for "player"
      "values": null,                    # max^n: the root's utility vector, else null
      "exact": true,                     # false when a depth cutoff was evaluated
      "pv": ["a1", "b1"],                # the chosen path, as the game writes actions
      "root": NODE,
      "stats": {"nodes": 11, "leaves": 7, "evals": 0, "cutoffs": 1, "tt_hits": 0,
                "depth": 2, "elapsed": 0.0003, "nps": 36000.0,
                "pruned": 2, "drawn": 13, "visits": 11}
    }

Every NODE has every one of these keys (null when it does not apply)::

    {
      "id": 0,              # preorder number in the order the search reached the node
      "parent": null,       # the parent's id (null at the root)
      "action": null,       # the action from the parent, as the game writes it
      "kind": "max",        # max, min, chance, simultaneous, terminal, cutoff; or, in
                            # a max^n tree (where every player maximises its own
                            # utility), the mover's name
      "mover": "MAX",       # the mover's name, "chance", "everyone" (simultaneous),
                            # or null at a terminal
      "value": 3.0,         # the backed-up value (leaf: utility or evaluation);
                            # null only for a pruned stub, which was never searched
      "values": null,       # max^n: the node's utility vector
      "alpha": "-inf",      # the alpha-beta window the node was entered with,
      "beta": "+inf",       #   null when the algorithm uses none
      "pv": true,           # on the chosen path
      "pruned": false,      # skipped by a prune: drawn greyed, never searched
      "pruned_by": null,    # why, e.g. "beta=2 <= alpha=3" (at a min node),
                            # "alpha=5 >= beta=4" (max), "v=1 = max utility" (bounded)
      "probability": null,  # below a chance node: the outcome's probability
      "label": "A",         # the node's label in an explicit tree file
      "depth": 0,           # search depth in the limit's unit (null for pruned stubs)
      "visits": 1,          # times the pictured search entered the node (the last drawn)
      "settled_by": null,   # "table" or "bounds": settled without a search
      "notes": [],          # what the engine craft did there, e.g. "table: 3",
                            # "moves tried: c3 c2 c1", "re-searched", "stand pat 0.2"
      "children": [NODE, ...]
    }

``visits``, ``settled_by`` and ``notes`` may be left out of a node (read as 1, null and
no notes).

:func:`tree_from_json` (or ``SearchTree.from_json``) reads this back into a
:class:`SearchTree` (without game states), so a saved tree can be drawn again.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from html import escape
from typing import Any, Final

from plies.errors import GameFormatError
from plies.game.text import number as value_text
from plies.viz.dot import tree_to_dot
from plies.viz.model import TreeNode
from plies.viz.svg import MARK, tree_to_svg

__all__ = [
    "NODE_KEYS",
    "SCHEMA_VERSION",
    "SearchTree",
    "node_to_json",
    "number",
    "tree_from_json",
    "tree_to_json",
    "unnumber",
]

SCHEMA_VERSION: Final = 1
NODE_KEYS: Final = (
    "id", "parent", "action", "kind", "mover", "value", "values", "alpha", "beta", "pv",
    "pruned", "pruned_by", "probability", "label", "depth", "visits", "settled_by", "notes",
    "children",
)
OPTIONAL_KEYS: Final = ("visits", "settled_by", "notes")
"""Node keys a reader may find left out (see the module doc)."""


@dataclass(eq=False)
class SearchTree:
    """The tree of one search (see :func:`plies.viz.capture`).

    ``value`` is the root's value for ``player`` (a name; ``player_index`` is its
    number), ``values`` the max^n utility vector, ``pv`` the chosen path as the game
    writes the actions.  ``stats`` holds the search's counters plus ``pruned`` (pruned
    stubs), ``drawn`` (all nodes of the tree) and ``visits`` (the node visits of the
    pictured search of the root; see :mod:`plies.viz.capture`).
    """

    game: str
    algorithm: str
    player: str
    player_index: int
    players: tuple[str, ...]
    value: float
    values: tuple[float, ...] | None
    exact: bool
    pv: tuple[str, ...]
    root: TreeNode
    stats: dict[str, float]

    def nodes(self) -> Iterator[TreeNode]:
        """Every node, in preorder."""
        return self.root.walk()

    def pruned_nodes(self) -> list[TreeNode]:
        """The pruned stubs, in preorder."""
        return [node for node in self.nodes() if node.pruned]

    def to_json(self) -> dict[str, Any]:
        """The tree as JSON-ready data, in the schema of :mod:`plies.viz.tree`."""
        return tree_to_json(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SearchTree:
        """The tree that :meth:`to_json` described (states and raw actions are not kept)."""
        return tree_from_json(data)

    def to_dot(self) -> str:
        """Graphviz DOT text with the same shapes and colours as the SVG."""
        return tree_to_dot(self)

    def to_svg(self) -> str:
        """A self-contained SVG picture, drawn like the figures of the lecture notes."""
        return tree_to_svg(self)

    def _repr_svg_(self) -> str:
        """A notebook shows the tree as its picture."""
        return self.to_svg()

    def _repr_html_(self) -> str:
        """The picture inline, with the value and principal variation as its caption."""
        svg = self.to_svg()
        if svg.startswith("<?xml"):  # a declaration is not allowed inside HTML
            svg = svg.split("?>", 1)[1].lstrip()
        svg = svg.removeprefix(MARK).lstrip()  # the mark is for files plies may replace
        value = value_text(self.value)  # as the picture and the command line write it
        caption = (
            f"{self.game}: {self.algorithm}, value {value} for {self.player}; "
            f"principal variation {' '.join(self.pv) or '(none)'}; "
            f"{int(self.stats.get('nodes', 0)):,} nodes searched, "
            f"{int(self.stats.get('pruned', 0)):,} pruned"
        )
        return f"<figure>{svg}<figcaption>{escape(caption)}</figcaption></figure>"


def number(value: float | None) -> float | str | None:
    """``value`` for strict JSON: infinities as ``"+inf"``/``"-inf"``."""
    if value is None or math.isfinite(value):
        return value
    return "+inf" if value > 0 else "-inf"


def unnumber(value: Any) -> float | None:
    """The inverse of :func:`number`."""
    if value is None:
        return None
    if value == "+inf":
        return math.inf
    if value == "-inf":
        return -math.inf
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise GameFormatError(f"expected a number, '+inf' or '-inf', got {value!r}")
    return float(value)


def _vector(values: tuple[float, ...] | None) -> list[float | str | None] | None:
    return None if values is None else [number(v) for v in values]


def node_to_json(node: TreeNode) -> dict[str, Any]:
    """One node and everything below it (iteratively: a tree may be deeper than the stack)."""
    out: dict[int, dict[str, Any]] = {}
    order = list(node.walk())
    for n in reversed(order):  # children before parents
        out[n.id] = {
            "id": n.id,
            "parent": n.parent,
            "action": n.action,
            "kind": n.kind,
            "mover": n.mover,
            "value": number(n.value),
            "values": _vector(n.values),
            "alpha": number(n.alpha),
            "beta": number(n.beta),
            "pv": n.pv,
            "pruned": n.pruned,
            "pruned_by": n.pruned_by,
            "probability": n.probability,
            "label": n.label,
            "depth": n.depth,
            "visits": n.visits,
            "settled_by": n.settled_by,
            "notes": list(n.notes),
            "children": [out.pop(c.id) for c in n.children],
        }
    return out[node.id]


def tree_to_json(tree: SearchTree) -> dict[str, Any]:
    """The schema above, for ``tree``."""
    return {
        "schema": SCHEMA_VERSION,
        "game": tree.game,
        "algorithm": tree.algorithm,
        "player": tree.player,
        "players": list(tree.players),
        "value": number(tree.value),
        "values": _vector(tree.values),
        "exact": tree.exact,
        "pv": list(tree.pv),
        "root": node_to_json(tree.root),
        "stats": {k: number(v) for k, v in tree.stats.items()},
    }


def tree_from_json(data: dict[str, Any]) -> SearchTree:
    """The :class:`SearchTree` that :func:`tree_to_json` wrote (states are not kept).

    Raises :class:`~plies.errors.GameFormatError` when ``data`` does not follow the schema.
    """
    try:
        if data.get("schema") != SCHEMA_VERSION:
            raise GameFormatError(
                f"unknown tree schema {data.get('schema')!r}; expected {SCHEMA_VERSION}"
            )
        players = tuple(str(p) for p in data["players"])
        player = str(data["player"])
        value = unnumber(data["value"])
        assert value is not None
        return SearchTree(
            game=str(data["game"]),
            algorithm=str(data["algorithm"]),
            player=player,
            player_index=players.index(player),
            players=players,
            value=value,
            values=_unvector(data["values"]),
            exact=bool(data["exact"]),
            pv=tuple(str(a) for a in data["pv"]),
            root=_node_from_json(data["root"]),
            stats={str(k): _stat(v) for k, v in data["stats"].items()},
        )
    except (KeyError, TypeError, ValueError, AttributeError, AssertionError) as exc:
        raise GameFormatError(f"not a captured search tree: {exc!r}") from None


def _stat(value: Any) -> float:
    if isinstance(value, int) and not isinstance(value, bool):
        return value  # counters stay integers, so a round trip gives the same JSON
    number = unnumber(value)
    if number is None:
        raise ValueError("a statistic is null")
    return number


def _unvector(values: Any) -> tuple[float, ...] | None:
    if values is None:
        return None
    out = tuple(unnumber(v) for v in values)
    if any(v is None for v in out):
        raise ValueError("a utility vector holds null")
    return tuple(v for v in out if v is not None)


def _node_from_json(data: dict[str, Any]) -> TreeNode:
    root = _one_node(data)
    stack = [(root, data)]
    while stack:
        node, raw = stack.pop()
        for child_raw in raw["children"]:
            child = _one_node(child_raw)
            node.children.append(child)
            stack.append((child, child_raw))
    return root


def _one_node(raw: dict[str, Any]) -> TreeNode:
    missing = [key for key in NODE_KEYS if key not in raw and key not in OPTIONAL_KEYS]
    if missing:
        raise KeyError(f"node {raw.get('id')!r} lacks {', '.join(missing)}")
    return TreeNode(
        id=int(raw["id"]),
        parent=None if raw["parent"] is None else int(raw["parent"]),
        action=raw["action"],
        kind=str(raw["kind"]),
        mover=raw["mover"],
        value=unnumber(raw["value"]),
        values=_unvector(raw["values"]),
        alpha=unnumber(raw["alpha"]),
        beta=unnumber(raw["beta"]),
        pv=bool(raw["pv"]),
        pruned=bool(raw["pruned"]),
        pruned_by=raw["pruned_by"],
        probability=None if raw["probability"] is None else float(raw["probability"]),
        label=raw["label"],
        depth=None if raw["depth"] is None else int(raw["depth"]),
        visits=int(raw.get("visits", 1)),
        settled_by=raw.get("settled_by"),
        notes=[str(n) for n in raw.get("notes", [])],
    )
