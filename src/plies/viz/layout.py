"""A tidy layered layout for tree pictures.

Each node sits on the row of its distance from the root.  Leaves (nodes drawn without
children, pruned stubs included) take columns from left to right in preorder, each as
wide as ``slot(leaf)`` says (leaves of one slot width are evenly spaced), with a little
extra room between leaves whose nearest common ancestor lies further up, so that sibling
groups read as groups; every inner node is centred over its first and last child.
Columns are never shared, so nodes on one row cannot overlap when every slot is at
least as wide as its node.  Linear in the number of nodes.

>>> from plies.viz.model import TreeNode
>>> root = TreeNode(0, None, None, "max", "MAX")
>>> root.children = [TreeNode(1, 0, "a", "terminal", None), TreeNode(2, 0, "b", "terminal", None)]
>>> layout = tidy(root, slot=lambda node: 40.0, row=80, group_gap=10)
>>> layout.x, layout.y
({1: 20.0, 2: 60.0, 0: 40.0}, {0: 0.0, 1: 80.0, 2: 80.0})
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from plies.viz.model import TreeNode


@dataclass(frozen=True, slots=True)
class Layout:
    """Node centres by id (``x`` from 0 to ``width``, ``y`` from 0 down by rows)."""

    x: dict[int, float]
    y: dict[int, float]
    row_of: dict[int, int]
    width: float
    rows: int


def tidy(
    root: TreeNode, *, slot: Callable[[TreeNode], float], row: float, group_gap: float
) -> Layout:
    """Lay out the tree under ``root``: ``slot(leaf)`` is the width of a leaf's column,
    ``row`` the distance between rows, ``group_gap`` the extra room per level of
    separation between neighbouring leaves of different parents (at most two levels)."""
    preorder: list[TreeNode] = []
    row_of: dict[int, int] = {}
    parent: dict[int, TreeNode] = {}
    stack: list[tuple[TreeNode, int]] = [(root, 0)]
    while stack:
        node, level = stack.pop()
        preorder.append(node)
        row_of[node.id] = level
        for child in reversed(node.children):
            parent[child.id] = node
            stack.append((child, level + 1))
    x: dict[int, float] = {}
    previous: TreeNode | None = None
    position = 0.0
    for node in preorder:
        if node.children:
            continue
        if previous is None:
            position = slot(node) / 2
        else:
            apart = _levels_apart(previous, node, parent, row_of)
            position += (slot(previous) + slot(node)) / 2 + group_gap * min(2, apart - 1)
        x[node.id] = position
        previous = node
    for node in reversed(preorder):  # children before parents
        if node.children:
            x[node.id] = (x[node.children[0].id] + x[node.children[-1].id]) / 2
    y = {node.id: float(row_of[node.id] * row) for node in preorder}
    assert previous is not None  # a tree has at least one leaf
    return Layout(x, y, row_of, position + slot(previous) / 2, max(row_of.values()) + 1)


def _levels_apart(
    a: TreeNode, b: TreeNode, parent: dict[int, TreeNode], row_of: dict[int, int]
) -> int:
    """How many levels above the deeper of ``a`` and ``b`` their common ancestor lies."""
    deepest = max(row_of[a.id], row_of[b.id])
    while row_of[a.id] > row_of[b.id]:
        a = parent[a.id]
    while row_of[b.id] > row_of[a.id]:
        b = parent[b.id]
    while a is not b:
        a, b = parent[a.id], parent[b.id]
    return deepest - row_of[a.id]
