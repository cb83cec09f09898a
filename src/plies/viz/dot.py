"""A captured search tree as Graphviz DOT text (``dot -Tsvg tree.dot``).

The same conventions as the SVG: MAX ``triangle``, MIN ``invtriangle``, chance
``circle``, simultaneous stage ``diamond``, terminal ``box``, depth cutoff dashed
``box``; each node's label is its value; edges carry the actions; the chosen path is
thick and green; pruned stubs are grey and dashed, and the bound that pruned them labels
their edge; what the engine craft did (a node the table settled, a node searched again)
is the node's ``xlabel``. ``ordering=out`` keeps the children in the order the search
tried them. The legend is the graph's label.
"""

from __future__ import annotations

from plies.viz.model import Tree, TreeNode
from plies.viz.style import (
    CRAFT_LEGEND,
    EDGE_COLOUR,
    PRUNED_FILL,
    PRUNED_STROKE,
    PRUNED_TEXT,
    PV_COLOUR,
    craft_text,
    describe,
    edge_text,
    greek,
    kinds_in_order,
    look,
    title,
    value_text,
)

DOT_SHAPES = {
    "up": "triangle", "down": "invtriangle", "circle": "circle", "diamond": "diamond",
    "square": "box",
}
LEGEND_MARKS = {"up": "▲", "down": "▼", "circle": "●", "diamond": "◆", "square": "■"}


def quote(text: str) -> str:
    """A DOT double-quoted string."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _attrs(pairs: dict[str, str]) -> str:
    return "[" + ", ".join(f"{k}={quote(v)}" for k, v in pairs.items()) + "]"


def _node(tree: Tree, node: TreeNode) -> str:
    lk = look(node.kind, tree)
    style = ["filled"]
    attrs = {
        "shape": DOT_SHAPES[lk.shape],
        "label": value_text(node),
        "fillcolor": lk.fill,
        "color": lk.stroke,
        "tooltip": describe(node),
    }
    beside = " ".join(t for t in (node.label, craft_text(node)) if t)
    if beside:
        attrs["xlabel"] = beside
    if lk.dashed:
        style.append("dashed")
    if node.pruned:
        attrs.update(fillcolor=PRUNED_FILL, color=PRUNED_STROKE, fontcolor=PRUNED_TEXT)
        style.append("dashed")
    elif node.pv:
        attrs.update(color=PV_COLOUR, penwidth="2.5")
    attrs["style"] = ",".join(style)
    return f"  n{node.id} {_attrs(attrs)};"


def _edge(parent: TreeNode, child: TreeNode) -> str:
    attrs = {"label": edge_text(child)}
    if child.pruned:
        attrs.update(
            style="dashed", color=PRUNED_STROKE, fontcolor=PRUNED_TEXT, arrowhead="tee",
            headlabel=greek(child.pruned_by or "pruned"),
        )
    elif child.pv:
        attrs.update(color=PV_COLOUR, penwidth="3.5")
    else:
        attrs.update(color=EDGE_COLOUR)
    return f"  n{parent.id} -> n{child.id} {_attrs(attrs)};"


def _legend(tree: Tree) -> str:
    parts = [f"{LEGEND_MARKS[look(k, tree).shape]} {look(k, tree).legend}"
             for k in kinds_in_order(tree)]
    parts.append("green: chosen path")
    if any(node.pruned for node in tree.nodes()):
        parts.append("grey dashed: pruned, with the bound that pruned it")
    if any(craft_text(node) for node in tree.nodes()):
        parts.append(CRAFT_LEGEND)
    return title(tree) + "\n" + "   ".join(parts)


def tree_to_dot(tree: Tree) -> str:
    """The DOT text of ``tree`` (see the module docstring)."""
    graph = {
        "label": _legend(tree), "labelloc": "t", "ordering": "out", "fontname": "Helvetica",
        "nodesep": "0.25", "ranksep": "0.6",
    }
    lines = [
        "digraph search_tree {",
        f"  graph {_attrs(graph)};",
        "  node [fontname=\"Helvetica\", fontsize=\"11\", width=\"0.5\", height=\"0.4\", "
        "fixedsize=\"false\"];",
        "  edge [fontname=\"Helvetica\", fontsize=\"10\", arrowhead=\"none\"];",
    ]
    nodes = list(tree.nodes())
    lines.extend(_node(tree, node) for node in nodes)
    lines.extend(_edge(node, child) for node in nodes for child in node.children)
    lines.append("}")
    return "\n".join(lines) + "\n"
