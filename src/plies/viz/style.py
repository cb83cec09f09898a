"""How each kind of node looks, shared by the SVG and DOT pictures.

The conventions of the lecture figures (AIMA figures 5.2 and 5.5): MAX nodes are upward
triangles, MIN nodes downward triangles, chance nodes circles and terminal leaves
squares; a stage where everyone moves at once (a matrix game) is a diamond. A leaf cut
off by the depth limit (scored by the evaluation) is a square with a dashed border. In a
max^n tree there is no MIN: every player maximises its own component of the utility
vector, so every player's nodes are upward triangles, one colour per player, labelled
with the player's name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from plies.search.narrate import format_number
from plies.viz.model import Tree, TreeNode

PV_COLOUR: Final = "#1b9e4b"
EDGE_COLOUR: Final = "#555555"
PRUNED_FILL: Final = "#f4f4f4"
PRUNED_STROKE: Final = "#b0b0b0"
PRUNED_TEXT: Final = "#8c8c8c"
TEXT: Final = "#1a1a1a"
PLAYER_COLOURS: Final = (
    ("#d6e6f5", "#1f4e79"),  # blue
    ("#fbe0d0", "#a1401a"),  # orange
    ("#e6dcf3", "#5b2c83"),  # purple
    ("#d3efec", "#17665e"),  # teal
    ("#f1e4d3", "#7a4f1d"),  # brown
    ("#f7d9e8", "#8e2a5e"),  # pink
)


@dataclass(frozen=True, slots=True)
class Look:
    """A node's shape (``"up"``, ``"down"``, ``"circle"``, ``"diamond"``, ``"square"``),
    colours and legend."""

    shape: str
    fill: str
    stroke: str
    dashed: bool
    legend: str


def look(kind: str, tree: Tree) -> Look:
    """How a node of ``kind`` is drawn in ``tree`` (before greying pruned nodes)."""
    if kind == "max":
        who = "" if tree.player == "MAX" else f" ({tree.player})"
        return Look("up", *PLAYER_COLOURS[0], False, f"MAX{who}: maximises")
    if kind == "min":
        others = [p for p in tree.players if p != tree.player]
        who = ", ".join(others) if len(others) <= 3 else f"{len(others)} players"
        who = "" if who == "MIN" else f" ({who})"
        return Look("down", *PLAYER_COLOURS[1], False, f"MIN{who}: minimises MAX's value")
    if kind == "chance":
        return Look("circle", "#fff4c2", "#8a6d00", False, "chance: expected value")
    if kind == "simultaneous":
        return Look(
            "diamond", "#e3f1d9", "#3f6e1e", False,
            "simultaneous: its matrix game's value in mixed strategies",
        )
    if kind == "terminal":
        return Look("square", "#ffffff", "#333333", False, "terminal: utility")
    if kind == "cutoff":
        return Look("square", "#ececec", "#555555", True, "depth cutoff: evaluation")
    # max^n: the kind is the mover's name, and the mover maximises its own component
    index = tree.players.index(kind) if kind in tree.players else 0
    fill, stroke = PLAYER_COLOURS[index % len(PLAYER_COLOURS)]
    own = f" (component {index})" if kind in tree.players else ""
    return Look("up", fill, stroke, False, f"{kind}: maximises its own utility{own}")


def kinds_in_order(tree: Tree) -> list[str]:
    """The node kinds present in ``tree``, in legend order."""
    present = {node.kind for node in tree.nodes()}
    ordered = ["max", "min", *tree.players, "chance", "simultaneous", "terminal", "cutoff"]
    return [k for k in dict.fromkeys(ordered) if k in present]


def num(value: float | None) -> str:
    """A value for people: 3, 2.1, 0.4867, +∞."""
    return format_number(value).replace("inf", "∞")


def vector(values: Sequence[float]) -> str:
    return "(" + ", ".join(num(v) for v in values) + ")"


def value_text(node: TreeNode) -> str:
    """What is written in a node: its vector (max^n), its value, or nothing (pruned)."""
    if node.values is not None:
        return vector(node.values)
    return "" if node.value is None else num(node.value)


ALPHA: Final = "\N{GREEK SMALL LETTER ALPHA}"
BETA: Final = "\N{GREEK SMALL LETTER BETA}"
_GREEK: Final = (
    ("alpha", ALPHA), ("beta", BETA), (">=", "\N{GREATER-THAN OR EQUAL TO}"),
    ("<=", "\N{LESS-THAN OR EQUAL TO}"),
)


def greek(text: str) -> str:
    """A reason for a prune as the lecture figures write it: alpha=3 becomes the Greek
    letter, >= the sign.

    >>> greek("beta=2 <= alpha=3") == f"{BETA}=2 \N{LESS-THAN OR EQUAL TO} {ALPHA}=3"
    True
    """
    for word, sign in _GREEK:
        text = text.replace(word, sign)
    return text


def window_text(node: TreeNode) -> str:
    """The alpha-beta window the node was entered with, or "" when there was none."""
    if node.alpha is None or node.beta is None:
        return ""
    return f"{ALPHA}={num(node.alpha)}, {BETA}={num(node.beta)}"


def probability(p: float) -> str:
    """A probability as people write it: 0.9, 0.25, and 1/6 rather than 0.1667.

    >>> probability(0.9), probability(1 / 6), probability(0.123456)
    ('0.9', '1/6', '0.1235')
    """
    text = num(p)
    if len(text) > 4:
        ratio = Fraction(p).limit_denominator(12)
        if abs(float(ratio) - p) < 1e-9:
            return f"{ratio.numerator}/{ratio.denominator}"
    return text


def edge_text(node: TreeNode) -> str:
    """The label of the edge into ``node``: its action, and its probability under chance."""
    action = node.action or ""
    if node.probability is None:
        return action
    return f"{action} ({probability(node.probability)})"


def craft_text(node: TreeNode) -> str:
    """What the engine craft did to the node, in a few words for beside it: settled by
    the table (or the game's bounds) without a search, searched more than once."""
    parts = []
    if node.settled_by is not None:
        parts.append(node.settled_by)
    if node.visits > 1:
        parts.append(f"searched {node.visits}\N{MULTIPLICATION SIGN}")
    return ", ".join(parts)


CRAFT_LEGEND: Final = (
    "beside a node: settled by the table (or the game's bounds) without a search; "
    "searched n\N{MULTIPLICATION SIGN} (the last search drawn)"
)


def describe(node: TreeNode) -> str:
    """A one-line description, for tooltips."""
    parts = [node.kind if node.mover is None or node.mover == node.kind else
             f"{node.kind} ({node.mover} to move)"]
    if node.label:
        parts.insert(0, node.label)
    if node.action is not None:
        parts.append(f"via {edge_text(node)}")
    if node.pruned:
        parts.append(f"pruned: {greek(node.pruned_by or '')}")
    else:
        parts.append(f"value {value_text(node)}")
    window = window_text(node)
    if window:
        parts.append(f"entered with {window}")
    if node.pv:
        parts.append("on the chosen path")
    if node.visits > 1:
        parts.append(f"searched {node.visits} times, the last drawn")
    if node.settled_by is not None:
        parts.append(f"settled by the {'table' if node.settled_by == 'table' else 'game'}")
    parts.extend(node.notes)
    return "; ".join(parts)


def title(tree: Tree) -> str:
    """The caption: game, algorithm, value, counts."""
    value = vector(tree.values) if tree.values is not None else num(tree.value)
    kind = "" if tree.exact else " (heuristic)"
    nodes = int(tree.stats.get("nodes", 0))
    pruned = int(tree.stats.get("pruned", 0))
    counts = f"{nodes:,} nodes searched" + (f", {pruned:,} pruned" if pruned else "")
    return f"{tree.game}: {tree.algorithm}, value {value}{kind} for {tree.player}; {counts}"
