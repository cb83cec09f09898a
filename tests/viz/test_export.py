"""JSON, DOT and SVG exports of a captured tree."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from typing import Any

import pytest

import plies
from plies.errors import GameFormatError
from plies.games import TreeGame, load
from plies.viz import SearchTree, capture
from plies.viz.style import greek
from plies.viz.tree import NODE_KEYS

SVG = "{http://www.w3.org/2000/svg}"


def aima(algorithm: str = "alphabeta") -> SearchTree:
    game = load("src/plies/games/trees/aima-fig-5-2.tree")
    return capture(game, game.initial_state(), algorithm)


def trees() -> list[SearchTree]:
    ttt = load("tictactoe")
    chance = load("chance-demo")
    three = load("aima-5-4")
    return [
        aima("alphabeta"),
        aima("minimax"),
        capture(ttt, ttt.initial_state(), "alphabeta", plies.Limit(depth=2)),
        capture(chance, chance.initial_state(), "expectiminimax"),
        capture(three, three.initial_state(), "maxn"),
    ]


def json_nodes(node: dict[str, Any]) -> list[dict[str, Any]]:
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(reversed(n["children"]))
    return out


# --- JSON ---------------------------------------------------------------------------------------


def test_json_schema_and_strict_round_trip() -> None:
    for tree in trees():
        data = tree.to_json()
        text = json.dumps(data, allow_nan=False)  # strict JSON: no Infinity or NaN
        assert json.loads(text) == data
        assert set(data) == {
            "schema", "game", "algorithm", "player", "players", "value", "values", "exact",
            "pv", "root", "stats",
        }
        nodes = json_nodes(data["root"])
        assert len(nodes) == tree.stats["drawn"]
        for node in nodes:
            assert tuple(node) == NODE_KEYS
            if node["pruned"]:
                assert node["value"] is None and node["pruned_by"]
            else:
                assert isinstance(node["value"], float)
        again = SearchTree.from_json(json.loads(text))
        assert again.to_json() == data
        assert again.to_svg() == tree.to_svg()
        assert again.to_dot() == tree.to_dot()


def test_json_of_aima_alphabeta() -> None:
    data = aima().to_json()
    root = data["root"]
    assert (data["value"], data["pv"], data["player"]) == (3.0, ["a1", "b1"], "MAX")
    window = (root["alpha"], root["beta"])
    assert (window, root["label"], root["kind"]) == (("-inf", "+inf"), "A", "max")
    c = root["children"][1]
    assert (c["action"], c["alpha"], c["beta"], c["value"]) == ("a2", 3.0, "+inf", 2.0)
    assert [(k["action"], k["pruned"], k["pruned_by"]) for k in c["children"]] == [
        ("c1", False, None),
        ("c2", True, "beta=2 <= alpha=3"),
        ("c3", True, "beta=2 <= alpha=3"),
    ]
    assert data["stats"]["nodes"] == 11 and data["stats"]["pruned"] == 2


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"schema": 2},
        {"schema": 1, "game": "g"},
    ],
)
def test_from_json_refuses_other_data(data: dict[str, Any]) -> None:
    with pytest.raises(GameFormatError):
        SearchTree.from_json(data)


def test_from_json_refuses_a_node_without_its_keys() -> None:
    data = aima().to_json()
    del data["root"]["children"][0]["value"]
    with pytest.raises(GameFormatError, match="lacks value"):
        SearchTree.from_json(data)


# --- DOT ----------------------------------------------------------------------------------------

NODE_LINE = re.compile(r'^  n(\d+) \[shape="(\w+)", label="([^"]*)"')
EDGE_LINE = re.compile(r"^  n(\d+) -> n(\d+) \[(.*)\];$")


def test_dot_structure() -> None:
    tree = aima()
    dot = tree.to_dot()
    lines = dot.splitlines()
    assert lines[0] == "digraph search_tree {" and lines[-1] == "}"
    nodes = [m.groups() for m in map(NODE_LINE.match, lines) if m]
    edges = [m.groups() for m in map(EDGE_LINE.match, lines) if m]
    assert len(nodes) == 13 and len(edges) == 12
    shapes = {int(i): shape for i, shape, _ in nodes}
    drawn = {n.id: n for n in tree.nodes()}
    expected = {"max": "triangle", "min": "invtriangle", "terminal": "box"}
    assert all(shapes[i] == expected[drawn[i].kind] for i in shapes)
    labels = {int(i): label for i, _, label in nodes}
    assert labels[0] == "3" and [labels[c.id] for c in tree.root.children] == ["3", "2", "2"]
    pv = [e for e in edges if 'penwidth="3.5"' in e[2]]
    assert [(int(a), int(b)) for a, b, _ in pv] == [(0, 1), (1, 2)]
    pruned = [e for e in edges if 'style="dashed"' in e[2]]
    assert len(pruned) == 2 and all(greek("beta=2 <= alpha=3") in e[2] for e in pruned)
    assert dot.count("{") == dot.count("}") == 1


def test_dot_quotes_what_a_tree_file_may_contain() -> None:
    game = TreeGame.from_text('max("a \\ <b>" -> 1  "c & d\'" -> 2)')  # one backslash
    assert game.actions(0)[0] == "a \\ <b>"
    dot = capture(game, game.initial_state(), "minimax").to_dot()
    assert 'label="a \\\\ <b>"' in dot and "label=\"c & d'\"" in dot


def test_graphviz_accepts_the_dot() -> None:
    if shutil.which("dot") is None:
        pytest.fail("Graphviz is not installed (apt-get install -y graphviz; .ci/run installs it)")
    for tree in trees():
        done = subprocess.run(
            ["dot", "-Tsvg"], input=tree.to_dot(), capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr
        ET.fromstring(done.stdout.encode())


# --- SVG ----------------------------------------------------------------------------------------


def parse(tree: SearchTree) -> ET.Element:
    return ET.fromstring(tree.to_svg().encode("utf-8"))


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def test_svg_is_well_formed_with_one_shape_per_node() -> None:
    tree = aima()
    root = parse(tree)
    assert root.tag == f"{SVG}svg"
    groups = by_class(root, "node")
    assert len(groups) == 13
    kinds = {"max": 0, "min": 0, "terminal": 0}
    for g in groups:
        shapes = by_class(g, "shape")
        assert len(shapes) == 1
        classes = g.get("class", "").split()
        kind = classes[1]
        kinds[kind] += 1
        expected = f"{SVG}rect" if kind == "terminal" else f"{SVG}polygon"
        assert shapes[0].tag == expected
    assert kinds == {"max": 1, "min": 3, "terminal": 9}
    assert len(by_class(root, "pruned")) == 2 + 2  # two greyed nodes, two dashed edges
    assert len(by_class(root, "cut")) == 2  # a cut mark across each pruned edge
    bounds = by_class(root, "bound")
    assert [b.text for b in bounds] == [greek("beta=2 <= alpha=3")]
    pv_edges = [e for e in by_class(root, "edge") if "pv" in e.get("class", "")]
    assert len(pv_edges) == 2
    assert len([g for g in groups if "pv" in g.get("class", "").split()]) == 3


def test_svg_writes_every_value_and_action() -> None:
    tree = aima()
    root = parse(tree)
    values = {}
    for g in by_class(root, "node"):
        texts = by_class(g, "value")
        values[g.get("id")] = texts[0].text if texts else None
    drawn = {f"node-{n.id}": n for n in tree.nodes()}
    for node_id, node in drawn.items():
        if node.pruned:
            assert values[node_id] is None
        else:
            assert node.value is not None and values[node_id] == f"{node.value:g}"
    actions = sorted(t.text or "" for t in by_class(root, "action"))
    assert actions == sorted(["a1", "a2", "a3", *(f"{c}{i}" for c in "bcd" for i in (1, 2, 3))])
    labels = [t.text for t in by_class(root, "label")]
    assert labels == ["A", "B", "C", "D"]


def test_svg_is_self_contained() -> None:
    for tree in trees():
        text = tree.to_svg()
        ET.fromstring(text.encode("utf-8"))
        for outside in ("href", "url(", "@import", "<script", "@font-face", "<image"):
            assert outside not in text


def bbox(element: ET.Element) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of a polygon, rect or circle."""
    if element.tag == f"{SVG}polygon":
        points = [tuple(map(float, p.split(","))) for p in element.get("points", "").split()]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        return min(xs), min(ys), max(xs), max(ys)
    if element.tag == f"{SVG}circle":
        cx, cy, r = (float(element.get(k, "0")) for k in ("cx", "cy", "r"))
        return cx - r, cy - r, cx + r, cy + r
    x, y = float(element.get("x", "0")), float(element.get("y", "0"))
    return x, y, x + float(element.get("width", "0")), y + float(element.get("height", "0"))


def test_svg_layout_is_tidy() -> None:
    """No two shapes overlap; parents are centred over their children; rows go down."""
    for tree in trees():
        root = parse(tree)
        boxes = {
            g.get("id"): bbox(by_class(g, "shape")[0]) for g in by_class(root, "node")
        }
        ordered = sorted(boxes.values())
        for i, a in enumerate(ordered):
            for b in ordered[i + 1 :]:
                if b[0] >= a[2]:
                    break
                assert b[1] >= a[3] or a[1] >= b[3], (a, b)  # same columns: other rows
        for node in tree.nodes():
            box = boxes[f"node-{node.id}"]
            centre = (box[0] + box[2]) / 2
            if node.children:
                first = boxes[f"node-{node.children[0].id}"]
                last = boxes[f"node-{node.children[-1].id}"]
                middle = ((first[0] + first[2]) / 2 + (last[0] + last[2]) / 2) / 2
                assert centre == pytest.approx(middle, abs=0.2)
                assert all(boxes[f"node-{c.id}"][1] > box[3] for c in node.children)


def test_svg_legend_names_what_is_drawn() -> None:
    root = parse(aima())
    legend = " ".join(t.text or "" for t in root.iter(f"{SVG}text") if t.text)
    for words in ("MAX", "MIN", "terminal", "chosen path", "pruned"):
        assert words in legend
    chance = load("chance-demo")
    root = parse(capture(chance, chance.initial_state(), "expectiminimax"))
    assert len([e for e in root.iter(f"{SVG}circle") if "shape" in e.get("class", "")]) == 2 + 1
    legend = " ".join(t.text or "" for t in root.iter(f"{SVG}text") if t.text)
    assert "chance" in legend and "pruned" not in legend


def test_svg_escapes_text_from_the_game() -> None:
    game = TreeGame.from_text('"<A & B>": max("x<y" -> 1  "&amp;" -> 2)')
    tree = capture(game, game.initial_state(), "minimax")
    root = parse(tree)
    assert sorted(t.text or "" for t in by_class(root, "action")) == ["&amp;", "x<y"]
    assert [t.text for t in by_class(root, "label")] == ["<A & B>"]
