"""A captured search tree as a self-contained SVG, drawn like the lecture figures.

MAX nodes are upward triangles, MIN nodes downward triangles, chance nodes circles,
leaves squares (dashed when cut off by the depth limit), each with its backed-up value
inside; edges carry the actions; the chosen path is drawn thick and green; pruned
children are greyed, dashed stubs whose edges are crossed by a cut mark, with the bound
that pruned them written beneath.  A caption and a legend sit on top.  Every node has a
tooltip (``<title>``) with its kind, value and alpha-beta window.

The file uses no external font, image, style sheet or script: shapes are drawn with
presentation attributes and text asks for a generic sans-serif font.  Elements carry
classes for scripts and tests: ``g.node`` (plus its kind, ``pv``, ``pruned``, and
``settled`` / ``revisited`` for a node the table settled or the search entered again,
whose ``text.craft`` says so) holding a ``.shape``; ``line.edge`` (plus
``pv``/``pruned``); ``path.cut`` (one per pruned child) and ``text.bound`` (one per prune).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Final
from xml.sax.saxutils import escape, quoteattr

from plies.viz.layout import Layout, tidy
from plies.viz.model import Tree, TreeNode
from plies.viz.style import (
    CRAFT_LEGEND,
    EDGE_COLOUR,
    PRUNED_FILL,
    PRUNED_STROKE,
    PRUNED_TEXT,
    PV_COLOUR,
    TEXT,
    Look,
    craft_text,
    describe,
    edge_text,
    greek,
    kinds_in_order,
    look,
    title,
    value_text,
    window_text,
)

FONT = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"
VALUE_SIZE = 12.0
SMALL_SIZE = 10.5
HEIGHT = 28.0  # of every shape (a circle may grow to fit its text)
MIN_WIDTH = 36.0
ROW = 88.0
MARGIN = 24.0
LEAF_LABEL_AT = 0.62  # how far down its edge a leaf's action is written
SIDE_ROOM = 240.0  # how far beyond the outermost nodes side texts may reach
STUB_WIDTH = 24.0  # pruned stubs carry no value: drawn narrow


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """A generous estimate of the width of ``text`` in a sans-serif font (DejaVu Sans is
    among the widest); no font is measured, so the picture is the same everywhere."""
    wide = sum(1 for ch in text if ch.isupper() or ch in "mw∞")
    narrow = sum(1 for ch in text if ch in " .,:;ijlft()[]|'")
    em = 0.62 * len(text) + 0.14 * wide - 0.28 * narrow
    return size * em * (1.1 if bold else 1.0)

MARK: Final = "<!-- drawn by plies -->"
"""The comment after the XML declaration: how ``plies tree --out`` recognises a picture it
drew, which it may replace without ``--force`` (:mod:`plies.outputs`)."""


@dataclass(frozen=True, slots=True)
class _Box:
    """The drawn size of one node and where its value goes."""

    width: float
    height: float
    text: str
    inside: bool


def _box(node: TreeNode, shape: str) -> _Box:
    """Shapes grow to hold their value, except that an inner node's utility vector
    (max^n) is written beside its triangle, which would otherwise grow very wide."""
    text = value_text(node)
    tw = text_width(text, VALUE_SIZE)
    if node.pruned:
        return _Box(STUB_WIDTH if shape != "circle" else HEIGHT * 0.8, HEIGHT * 0.8, "", True)
    if shape == "square":
        return _Box(max(HEIGHT, tw + 10), HEIGHT, text, True)
    if shape == "circle":
        d = max(HEIGHT, tw + 10)
        return _Box(d, d, text, True)
    if node.values is not None and not node.is_leaf:
        return _Box(MIN_WIDTH, HEIGHT, text, False)
    # A triangle is about half as wide at the height of the text as at its base.
    return _Box(max(MIN_WIDTH, 2.2 * (tw + 4)), HEIGHT, text, True)


class _Drawing:
    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.looks: dict[int, Look] = {}
        self.boxes: dict[int, _Box] = {}
        self.nodes = {node.id: node for node in tree.nodes()}
        for node in tree.nodes():
            lk = look(node.kind, tree)
            self.looks[node.id] = lk
            self.boxes[node.id] = _box(node, lk.shape)
        self.layout = self._layout()
        self.extent = [0.0, self.layout.width]  # grows with texts written beside nodes

    # -- layout ------------------------------------------------------------------------

    def _layout(self) -> Layout:
        """Searched leaves get one common slot width (evenly spaced), pruned stubs a
        narrower one; both make room for the leaf edge labels, which sit 62% of the way
        down, where neighbouring edges are 0.62 slot apart."""
        leaves = [n for n in self.tree.nodes() if n.is_leaf]

        def need(group: list[TreeNode], floor: float) -> float:
            widest = max((self.boxes[n.id].width for n in group), default=0.0)
            label = max((text_width(edge_text(n), SMALL_SIZE) for n in group), default=0.0)
            return max(widest + 12, (label + 8) / LEAF_LABEL_AT, floor)

        searched = need([n for n in leaves if not n.pruned], 40.0)
        stub = min(searched, need([n for n in leaves if n.pruned], 28.0))
        scale = 1.0
        for _ in range(4):  # widen until wide inner nodes on one row no longer touch

            def slot(node: TreeNode, scale: float = scale) -> float:
                return scale * (stub if node.pruned else searched)

            layout = tidy(self.tree.root, slot=slot, row=ROW, group_gap=searched * 0.4 * scale)
            ratio = self._crowding(layout)
            if ratio <= 1.0:
                break
            scale *= ratio
        return layout

    def _rows(self, layout: Layout) -> list[list[int]]:
        rows: list[list[int]] = [[] for _ in range(layout.rows)]
        for node_id, r in layout.row_of.items():
            rows[r].append(node_id)
        for row in rows:
            row.sort(key=layout.x.__getitem__)
        return rows

    def _crowding(self, layout: Layout) -> float:
        """How much wider the slots must be for neighbours on a row to fit: their shapes,
        what the left one writes beside it (value, window) and the right one's label."""
        worst = 1.0
        for row in self._rows(layout):
            for a, b in itertools.pairwise(row):
                need = (self.boxes[a].width + self.boxes[b].width) / 2 + max(
                    8.0, self._beside(a) + self._label_room(b)
                )
                gap = layout.x[b] - layout.x[a]
                if gap > 0:
                    worst = max(worst, need / gap)
        return worst

    def _room(self) -> dict[int, tuple[float, float]]:
        """Free space to the left and right of each node on its row."""
        layout = self.layout
        room: dict[int, tuple[float, float]] = {}
        for row in self._rows(layout):
            for i, node_id in enumerate(row):
                half = self.boxes[node_id].width / 2
                x = layout.x[node_id]
                # The outermost nodes may write beside them: the picture widens.
                left = x - half - (
                    layout.x[row[i - 1]] + self.boxes[row[i - 1]].width / 2
                    if i else -SIDE_ROOM
                )
                right = (
                    layout.x[row[i + 1]] - self.boxes[row[i + 1]].width / 2
                    - self._label_room(row[i + 1])
                    if i + 1 < len(row) else layout.width + SIDE_ROOM
                ) - x - half
                room[node_id] = (left, right)
        return room

    def _beside(self, node_id: int) -> float:
        """The room the texts written to a node's right take (see :meth:`_node`): a value
        that does not fit inside its shape, then an inner node's window."""
        node, box = self.nodes[node_id], self.boxes[node_id]
        room = 5.0
        if box.text and not box.inside:
            room += text_width(box.text, VALUE_SIZE) + 8
        window = window_text(node)
        if window and not node.is_leaf:
            room += text_width(window, SMALL_SIZE) + 8
        return room if room > 5.0 else 0.0

    def _label_room(self, node_id: int) -> float:
        """The room a node's label takes on its left (labels name nodes: they come first)."""
        label = self.nodes[node_id].label
        return text_width(label, VALUE_SIZE) + 10 if label else 0.0

    # -- drawing -----------------------------------------------------------------------

    def svg(self) -> str:
        tree, layout = self.tree, self.layout
        room = self._room()
        nodes = [self._node(node, room[node.id]) for node in tree.nodes()]
        edges, labels, marks = self._edges(), self._edge_labels(), self._marks()
        span = self.extent[1] - self.extent[0]
        caption = title(tree)
        legend, legend_w, legend_h = self._legend()
        inner = max(span, text_width(caption, 13.0, bold=True), legend_w)
        width = inner + 2 * MARGIN
        top = MARGIN + 20 + legend_h + 36  # caption, legend, then room for the root
        height = top + (layout.rows - 1) * ROW + HEIGHT / 2 + 34 + MARGIN
        ox = MARGIN + (inner - span) / 2 - self.extent[0]
        out = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            MARK,
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(width)}" '
            f'height="{_f(height)}" viewBox="0 0 {_f(width)} {_f(height)}" '
            f'font-family="{FONT}" fill="{TEXT}">',
            f"<title>{escape(caption)}</title>",
            f'<rect class="background" width="{_f(width)}" height="{_f(height)}" fill="#ffffff"/>',
            f'<text class="caption" x="{_f(MARGIN)}" y="{_f(MARGIN + 12)}" font-size="13" '
            f'font-weight="bold">{escape(caption)}</text>',
            f'<g class="legend" transform="translate({_f(MARGIN)},{_f(MARGIN + 26)})">',
            *legend,
            "</g>",
            f'<g class="tree" transform="translate({_f(ox)},{_f(top)})">',
            '<g class="edges">', *edges, "</g>",
            '<g class="nodes">', *nodes, "</g>",
            '<g class="edge-labels">', *labels, "</g>",
            '<g class="prunes">', *marks, "</g>",
            "</g>",
            "</svg>",
        ]
        return "\n".join(out) + "\n"

    def _ends(self, parent: TreeNode, child: TreeNode) -> tuple[float, float, float, float]:
        layout = self.layout
        x1, y1 = layout.x[parent.id], layout.y[parent.id] + self.boxes[parent.id].height / 2
        x2, y2 = layout.x[child.id], layout.y[child.id] - self.boxes[child.id].height / 2
        return x1, y1, x2, y2

    def _pairs(self) -> list[tuple[TreeNode, TreeNode]]:
        return [(n, c) for n in self.tree.nodes() for c in n.children]

    def _edges(self) -> list[str]:
        out: list[str] = []
        for parent, child in self._pairs():
            x1, y1, x2, y2 = self._ends(parent, child)
            if child.pruned:
                cls, style = "edge pruned", (
                    f'stroke="{PRUNED_STROKE}" stroke-width="1.2" stroke-dasharray="4 3"'
                )
            elif child.pv:
                cls, style = "edge pv", f'stroke="{PV_COLOUR}" stroke-width="3.5"'
            else:
                cls, style = "edge", f'stroke="{EDGE_COLOUR}" stroke-width="1.2"'
            out.append(
                f'<line class="{cls}" x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}" '
                f"{style}/>"
            )
        return out

    def _edge_labels(self) -> list[str]:
        out: list[str] = []
        for parent, child in self._pairs():
            text = edge_text(child)
            if not text:
                continue
            x1, y1, x2, y2 = self._ends(parent, child)
            t = LEAF_LABEL_AT if child.is_leaf else 0.6
            x, y = x1 + t * (x2 - x1), y1 + t * (y2 - y1)
            colour = PRUNED_TEXT if child.pruned else TEXT
            weight = ' font-weight="bold"' if child.pv and not child.pruned else ""
            # A white box, not just a halo: where edges fan out flat, they cross the text.
            w = text_width(text, SMALL_SIZE, bold=bool(weight)) + 4
            out.append(
                f'<rect class="action-box" x="{_f(x - w / 2)}" y="{_f(y - SMALL_SIZE * 0.62)}" '
                f'width="{_f(w)}" height="{_f(SMALL_SIZE * 1.3)}" fill="#ffffff" '
                'fill-opacity="0.9"/>'
                f'<text class="action" x="{_f(x)}" y="{_f(y + SMALL_SIZE * 0.35)}" '
                f'font-size="{SMALL_SIZE}" text-anchor="middle" fill="{colour}"{weight}>'
                f"{escape(text)}</text>"
            )
        return out

    def _marks(self) -> list[str]:
        """A cut mark across every pruned edge, and each prune's bound under its stubs."""
        out: list[str] = []
        layout = self.layout
        for parent in self.tree.nodes():
            stubs = [c for c in parent.children if c.pruned]
            if not stubs:
                continue
            for stub in stubs:
                x1, y1, x2, y2 = self._ends(parent, stub)
                mx, my = x1 + 0.86 * (x2 - x1), y1 + 0.86 * (y2 - y1)
                length = math.hypot(x2 - x1, y2 - y1) or 1.0
                ux, uy = (x2 - x1) / length, (y2 - y1) / length  # along the edge
                px, py = -uy, ux  # across it
                d = []
                for shift in (-2.0, 2.0):
                    cx, cy = mx + ux * shift, my + uy * shift
                    d.append(
                        f"M{_f(cx - px * 5)},{_f(cy - py * 5)} L{_f(cx + px * 5)},{_f(cy + py * 5)}"
                    )
                out.append(
                    f'<path class="cut" d="{" ".join(d)}" stroke="{PRUNED_TEXT}" '
                    'stroke-width="1.5" fill="none"/>'
                )
            groups: dict[str, list[TreeNode]] = {}
            for stub in stubs:
                groups.setdefault(greek(stub.pruned_by or "pruned"), []).append(stub)
            for reason, group in groups.items():
                x = sum(layout.x[s.id] for s in group) / len(group)
                y = max(layout.y[s.id] + self.boxes[s.id].height / 2 for s in group) + 14
                half = text_width(reason, SMALL_SIZE) / 2
                self._reach(x - half)
                self._reach(x + half)
                out.append(
                    f'<text class="bound" x="{_f(x)}" y="{_f(y)}" font-size="{SMALL_SIZE}" '
                    f'font-style="italic" text-anchor="middle" fill="{PRUNED_TEXT}">'
                    f"{escape(reason)}</text>"
                )
        return out

    def _node(self, node: TreeNode, room: tuple[float, float]) -> str:
        lk, box = self.looks[node.id], self.boxes[node.id]
        x, y = self.layout.x[node.id], self.layout.y[node.id]
        fill, stroke, width = lk.fill, lk.stroke, 1.4
        dash = ' stroke-dasharray="4 2"' if lk.dashed else ""
        if node.pruned:
            fill, stroke, dash = PRUNED_FILL, PRUNED_STROKE, ' stroke-dasharray="3 2"'
        elif node.pv:
            stroke, width = PV_COLOUR, 2.8
        paint = f'fill="{fill}" stroke="{stroke}" stroke-width="{width}"{dash}'
        classes = " ".join(
            ["node", node.kind.replace(" ", "_")]
            + (["pv"] if node.pv else []) + (["pruned"] if node.pruned else [])
            + (["settled"] if node.settled_by else []) + (["revisited"] if node.visits > 1 else [])
        )
        parts = [
            f'<g class={quoteattr(classes)} id="node-{node.id}">',
            f"<title>{escape(describe(node))}</title>",
            _shape(lk.shape, x, y, box, paint),
        ]
        colour = PRUNED_TEXT if node.pruned else TEXT
        if box.text and box.inside:
            baseline = {"up": y + box.height / 2 - 4, "down": y - box.height / 2 + 12}.get(
                lk.shape, y + VALUE_SIZE * 0.36
            )
            parts.append(
                f'<text class="value" x="{_f(x)}" y="{_f(baseline)}" font-size="{VALUE_SIZE}" '
                f'text-anchor="middle" fill="{colour}">{escape(box.text)}</text>'
            )
        left, right = room
        side = x + box.width / 2 + 5
        if box.text and not box.inside:
            parts.append(_side_text("value", box.text, side, y + 4, VALUE_SIZE))
            side += text_width(box.text, VALUE_SIZE) + 8
            self._reach(side)
        window = window_text(node)
        if window and not node.is_leaf:
            end = side + text_width(window, SMALL_SIZE) + 8
            if end <= x + box.width / 2 + right:
                parts.append(_side_text("window", window, side, y + 4, SMALL_SIZE, "#666666"))
                self._reach(end)
                side = end
        craft = craft_text(node)
        if craft:  # under the node when there is no room beside it
            end = side + text_width(craft, SMALL_SIZE) + 8
            at = (side, y + 4) if end <= x + box.width / 2 + right else (
                x - text_width(craft, SMALL_SIZE) / 2, y + box.height / 2 + 12
            )
            parts.append(_side_text("craft", craft, *at, SMALL_SIZE, "#8a4b08"))
            self._reach(at[0] + text_width(craft, SMALL_SIZE))
        if node.label and text_width(node.label, VALUE_SIZE) + 10 <= left:
            self._reach(x - box.width / 2 - text_width(node.label, VALUE_SIZE) - 10)
            parts.append(
                f'<text class="label" x="{_f(x - box.width / 2 - 5)}" y="{_f(y + 4)}" '
                f'font-size="{VALUE_SIZE}" font-style="italic" font-weight="bold" '
                f'text-anchor="end" fill="{colour}">{escape(node.label)}</text>'
            )
        parts.append("</g>")
        return "".join(parts)

    def _reach(self, x: float) -> None:
        self.extent[0] = min(self.extent[0], x)
        self.extent[1] = max(self.extent[1], x)

    def _legend(self) -> tuple[list[str], float, float]:
        """Legend items in rows no wider than the tree (at least 640 px)."""
        tree = self.tree
        items: list[tuple[str, str]] = []
        for kind in kinds_in_order(tree):
            lk = look(kind, tree)
            paint = f'fill="{lk.fill}" stroke="{lk.stroke}" stroke-width="1.4"' + (
                ' stroke-dasharray="4 2"' if lk.dashed else ""
            )
            box = _Box(18, 16, "", True)
            items.append((_shape(lk.shape, 9, 0, box, paint), lk.legend))
        items.append((
            f'<line x1="0" y1="0" x2="18" y2="0" stroke="{PV_COLOUR}" stroke-width="3.5"/>',
            "chosen path (principal variation)",
        ))
        if any(node.pruned for node in tree.nodes()):
            items.append((
                f'<line x1="0" y1="0" x2="18" y2="0" stroke="{PRUNED_STROKE}" '
                'stroke-width="1.2" stroke-dasharray="4 3"/>',
                "pruned, never searched (with the bound that pruned it)",
            ))
        if any(craft_text(node) for node in tree.nodes()):
            items.append((
                f'<text x="0" y="{_f(SMALL_SIZE * 0.36)}" font-size="{SMALL_SIZE}" '
                'fill="#8a4b08">2\N{MULTIPLICATION SIGN}</text>',
                CRAFT_LEGEND,
            ))
        limit = max(self.extent[1] - self.extent[0], 640.0)
        out: list[str] = []
        x = y = 0.0
        widest = 0.0
        for icon, text in items:
            w = 24 + text_width(text, SMALL_SIZE) + 18
            if x > 0 and x + w > limit:
                x, y = 0.0, y + 20
            out.append(
                f'<g class="legend-item" transform="translate({_f(x)},{_f(y + 8)})">{icon}'
                f'<text x="24" y="{_f(SMALL_SIZE * 0.36)}" font-size="{SMALL_SIZE}">'
                f"{escape(text)}</text></g>"
            )
            x += w
            widest = max(widest, x)
        return out, widest, y + 16


def _shape(shape: str, x: float, y: float, box: _Box, paint: str) -> str:
    hw, hh = box.width / 2, box.height / 2
    if shape == "up":
        points = f"{_f(x)},{_f(y - hh)} {_f(x + hw)},{_f(y + hh)} {_f(x - hw)},{_f(y + hh)}"
        return f'<polygon class="shape" points="{points}" {paint}/>'
    if shape == "down":
        points = f"{_f(x - hw)},{_f(y - hh)} {_f(x + hw)},{_f(y - hh)} {_f(x)},{_f(y + hh)}"
        return f'<polygon class="shape" points="{points}" {paint}/>'
    if shape == "circle":
        return f'<circle class="shape" cx="{_f(x)}" cy="{_f(y)}" r="{_f(hw)}" {paint}/>'
    if shape == "diamond":
        top, bottom = f"{_f(x)},{_f(y - hh)}", f"{_f(x)},{_f(y + hh)}"
        points = f"{top} {_f(x + hw)},{_f(y)} {bottom} {_f(x - hw)},{_f(y)}"
        return f'<polygon class="shape" points="{points}" {paint}/>'
    return (
        f'<rect class="shape" x="{_f(x - hw)}" y="{_f(y - hh)}" width="{_f(box.width)}" '
        f'height="{_f(box.height)}" {paint}/>'
    )


def _side_text(
    cls: str, text: str, x: float, y: float, size: float, colour: str = TEXT
) -> str:
    return (
        f'<text class="{cls}" x="{_f(x)}" y="{_f(y)}" font-size="{size}" fill="{colour}" '
        f'stroke="#ffffff" stroke-width="3" paint-order="stroke">{escape(text)}</text>'
    )


def _f(value: float) -> str:
    """A coordinate with at most one decimal."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def tree_to_svg(tree: Tree) -> str:
    """The SVG text of ``tree`` (see the module docstring)."""
    return _Drawing(tree).svg()
