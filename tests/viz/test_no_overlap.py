"""Tree pictures never write one text over another, on every built-in tree and every
traceable algorithm that can search it (the windows, values, labels, edge labels and
bounds that ``plies tree`` writes beside and under the nodes)."""

from __future__ import annotations

import html
import itertools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from plies.errors import PliesError
from plies.games import load
from plies.search.registry import algorithm, names
from plies.viz import capture
from plies.viz.svg import text_width

TREES = ("aima-5-2", "aima-5-4", "chance-demo")
TAG = re.compile(r'<g\b([^>]*)>|</g>|<text ([^>]*)>([^<]*)</text>')
ATTR = re.compile(r'([\w-]+)="([^"]*)"')
SHIFT = re.compile(r"translate\(([-\d.]+),\s*([-\d.]+)\)")


def boxes(svg: str) -> list[tuple[str, float, float, float, float]]:
    """Every text's ``(text, left, top, right, bottom)`` on the page, from its anchor,
    its size and the translations of the groups around it."""
    out = []
    shifts: list[tuple[float, float]] = [(0.0, 0.0)]
    for match in TAG.finditer(svg):
        group, attrs, raw = match.groups()
        if match.group(0) == "</g>":
            shifts.pop()
            continue
        if group is not None:
            moved = SHIFT.search(group)
            dx, dy = (float(moved[1]), float(moved[2])) if moved else (0.0, 0.0)
            shifts.append((shifts[-1][0] + dx, shifts[-1][1] + dy))
            continue
        a = dict(ATTR.findall(attrs))
        text = html.unescape(raw)
        size = float(a.get("font-size", "12"))
        x, y = float(a["x"]) + shifts[-1][0], float(a["y"]) + shifts[-1][1]
        width = text_width(text, size, bold=a.get("font-weight") == "bold")
        anchor = a.get("text-anchor", "start")
        left = x - width / 2 if anchor == "middle" else x - width if anchor == "end" else x
        out.append((text, left, y - size * 0.8, left + width, y + size * 0.2))
    return out


def overlaps(svg: str) -> list[tuple[str, str]]:
    found = []
    for (t1, l1, u1, r1, d1), (t2, l2, u2, r2, d2) in itertools.combinations(boxes(svg), 2):
        if min(r1, r2) - max(l1, l2) > 1 and min(d1, d2) - max(u1, u2) > 1:
            found.append((t1, t2))
    return found


def searchable() -> list[tuple[str, str]]:
    """Every (tree, traceable algorithm) pair the algorithm accepts (the others are
    refused before anything is drawn)."""
    pairs = []
    for tree in TREES:
        game = load(tree)
        for name in names(lambda a: a.traceable):
            try:
                algorithm(name).check(game, game.initial_state())
            except PliesError:
                continue
            pairs.append((tree, name))
    return pairs


@pytest.mark.parametrize(("tree", "name"), searchable())
def test_no_two_texts_of_a_tree_picture_overlap(tree: str, name: str) -> None:
    game = load(tree)
    picture = capture(game, game.initial_state(), name).to_svg()
    assert overlaps(picture) == []


# The pictures the docs draw (tree files, tic-tac-toe with and without the engine) and
# the shapes a course draws beyond them: the strict cut rule's longer prune reasons,
# several moves a turn (civ, Kalah's extra moves), chance (pig), Pacman's ghosts in
# rounds, and simultaneous moves.
PICTURES = [
    ["src/plies/games/trees/aima-fig-5-2.tree"],
    ["src/plies/games/trees/aima-fig-5-4.tree", "--algorithm", "paranoid"],
    ["src/plies/games/trees/chance-demo.tree"],
    ["src/plies/games/trees/aima-fig-5-2.json"],
    ["aima-5-2", "--strict-cutoffs"],
    ["aima-5-2", "--engine", "--strict-cutoffs"],
    ["aima-5-4", "--algorithm", "paranoid", "--strict-cutoffs"],
    ["chance-demo", "--engine"],
    ["tictactoe", "--depth", "2"],
    ["tictactoe", "--depth", "2", "--strict-cutoffs"],
    ["tictactoe", "--moves", "5,1", "--depth", "2", "--engine"],
    ["tictactoe", "--moves", "5,1", "--depth", "2"],
    ["civ", "--depth", "2"],
    ["civ", "--depth", "2", "--algorithm", "maxn"],
    ["civ", "--depth", "1", "--unit", "round", "--algorithm", "paranoid"],
    ["civ", "--depth", "2", "--algorithm", "brs"],
    ["kalah", "--option", "pits=3", "--option", "seeds=2", "--depth", "3"],
    ["pig", "--depth", "2"],
    ["pacman", "--depth", "1", "--unit", "round"],
    ["rps", "--player", "0"],
    ["goofspiel", "--option", "cards=2", "--player", "0"],
]


@pytest.mark.parametrize("argv", PICTURES, ids=" ".join)
def test_no_two_texts_of_a_drawn_picture_overlap(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from plies.cli import main

    out, data = tmp_path / "tree.svg", tmp_path / "tree.json"
    for path in (out, data):
        assert main(["tree", *argv, "-o", str(path)]) == 0, capsys.readouterr().err
    svg = out.read_text(encoding="utf-8")
    assert overlaps(svg) == []

    def walk(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
        yield node
        for child in node["children"]:
            yield from walk(child)

    root = json.loads(data.read_text(encoding="utf-8"))["root"]
    windows = [n for n in walk(root) if n["children"] and (n["alpha"], n["beta"]) != (None, None)]
    assert svg.count('class="window"') == len(windows)  # none left out for want of room


def windows_drawn(svg: str) -> int:
    return svg.count('class="window"')


ENGINE = {"tt": True, "ordering": True}
WINDOWED = [(tree, name, {}) for tree, name in searchable()] + [
    (tree, name, ENGINE) for tree, name in searchable() if name == "alphabeta"
]


@pytest.mark.parametrize(("tree", "name", "craft"), WINDOWED,
                         ids=lambda p: "engine" if p == ENGINE else "plain" if p == {} else p)
def test_every_window_of_a_tree_picture_is_written(
    tree: str, name: str, craft: dict[str, bool]
) -> None:
    """Room is made for each inner node's window beside it (the paranoid AIMA 5.4
    picture once lost C1's and C2's, the windows the lecture's slide explains)."""
    from plies.viz.style import window_text

    game = load(tree)
    picture = capture(game, game.initial_state(), name, **craft)
    inner = [n for n in picture.nodes() if not n.is_leaf and window_text(n)]
    svg = picture.to_svg()
    assert svg.count('class="window"') == len(inner)
    assert overlaps(svg) == []
