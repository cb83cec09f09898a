"""Explicit game trees: the shipped figures, both formats, and every format error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.errors import GameFormatError
from plies.game import CHANCE, parse_action
from plies.games import load
from plies.sources import treeparse
from plies.sources.tree import TreeGame
from tests.conformance import check_game

TREES = Path(__file__).resolve().parents[2] / "src" / "plies" / "games" / "trees"
AIMA = "A: max(B: min(3 12 8) C: min(2 4 6) D: min(14 5 2))"


def value(game: TreeGame, state: int = 0) -> float:
    """Brute force for two-player trees: minimax, averaged at chance nodes (MAX's view)."""
    if game.is_terminal(state):
        return game.utility(state, 0)
    mover = game.to_move(state)
    if mover == CHANCE:
        return sum(p * value(game, game.result(state, a)) for a, p in game.chance_outcomes(state))
    values = [value(game, game.result(state, a)) for a in game.actions(state)]
    return max(values) if mover == 0 else min(values)


def maxn(game: TreeGame, state: int = 0) -> tuple[float, ...]:
    """Brute force max^n: each player picks the child best for itself (first on ties)."""
    if game.is_terminal(state):
        return tuple(game.utility(state, p) for p in range(game.num_players))
    mover = game.to_move(state)
    children = [maxn(game, game.result(state, a)) for a in game.actions(state)]
    return max(children, key=lambda v: v[mover])


def structure(game: TreeGame, state: int = 0) -> Any:
    """Everything a search can see below ``state``, as nested tuples."""
    if game.is_terminal(state):
        return tuple(game.utility(state, p) for p in range(game.num_players))
    mover = game.to_move(state)
    odds = dict(game.chance_outcomes(state)) if mover == CHANCE else {}
    return (
        mover,
        game.label(state),
        tuple(
            (a, odds.get(a), structure(game, game.result(state, a))) for a in game.actions(state)
        ),
    )


@pytest.mark.parametrize("name", ["aima-5-2", "aima-5-4", "chance-demo"])
def test_shipped_trees_conform(name: str) -> None:
    check_game(load(name), playouts=30)


def test_aima_figure_5_2() -> None:
    game = load("aima-5-2")
    assert isinstance(game, TreeGame)
    assert value(game) == 3.0
    assert game.actions(0) == ("a1", "a2", "a3")
    b = game.result(0, "a1")
    assert game.label(b) == "B" and game.to_move(b) == 1
    assert game.actions(b) == ("b1", "b2", "b3")
    assert [value(game, game.result(0, a)) for a in game.actions(0)] == [3.0, 2.0, 2.0]
    assert game.utility_range == (-14.0, 14.0) and game.zero_sum
    assert game.utility(game.result(b, "b2"), 1) == -12.0


def test_aima_figure_5_4_three_players() -> None:
    game = load("aima-5-4")
    assert isinstance(game, TreeGame)
    assert game.num_players == 3 and not game.zero_sum
    assert maxn(game) == (1.0, 2.0, 6.0)
    assert game.player_name(2) == "P2"
    assert game.utility_range == (1.0, 7.0)


def test_chance_demo() -> None:
    game = load("chance-demo")
    assert isinstance(game, TreeGame)
    assert value(game) == pytest.approx(2.1)
    chance = game.result(0, "a1")
    assert game.to_move(chance) == CHANCE
    assert game.chance_outcomes(chance) == (("1", 0.9), ("2", 0.1))


def test_json_and_text_forms_give_the_same_game() -> None:
    text = TreeGame.from_file(TREES / "aima-fig-5-2.tree")
    from_json = TreeGame.from_file(TREES / "aima-fig-5-2.json")
    assert from_json.name == "aima-fig-5-2"
    assert structure(text) == structure(from_json)
    assert len(text) == len(from_json) == 13
    assert [text.render(s) for s in range(13)] == [from_json.render(s) for s in range(13)]


@pytest.mark.parametrize("name", ["aima-5-2", "aima-5-4", "chance-demo"])
def test_to_text_round_trips(name: str) -> None:
    game = load(name)
    assert isinstance(game, TreeGame)
    again = TreeGame.from_text(game.to_text())
    assert structure(again) == structure(game)


def test_actions_are_labels_else_positions() -> None:
    game = TreeGame.from_text("max(L: min(1 2)  min(3 x: 4)  go -> 5)")
    assert game.actions(0) == ("L", "2", "go")
    assert game.actions(game.result(0, "2")) == ("1", "x")
    assert parse_action(game, 0, "l") == "L"  # people type case-insensitively
    assert game.path(game.result(game.result(0, "2"), "x")) == ("2", "x")
    assert game.parent(0) is None and game.parent(game.result(0, "L")) == 0


def test_text_form_details() -> None:
    game = TreeGame.from_text(
        """
        # a comment, then a tree across lines with commas
        p0(
          "left branch" -> p1([1, 2, 3], [3, 2, 1]),   # vector leaves: three players
          p2(chance(1/3: [0 0 1]  2/3: [1 0 0])  [2 2 2])  # players need not alternate
        )
        """
    )
    assert game.num_players == 3
    assert game.actions(0) == ("left branch", "2")
    p2 = game.result(0, "2")
    assert game.to_move(p2) == 2
    assert game.chance_outcomes(game.result(p2, "1")) == (("1", 1 / 3), ("2", 2 / 3))
    uniform = TreeGame.from_text("chance(1 2 3)")
    assert [p for _, p in uniform.chance_outcomes(0)] == [1 / 3] * 3
    dice = TreeGame.from_text("chance(" + " ".join(f"1/6: {v}" for v in range(6)) + ")")
    assert value(dice) == pytest.approx(2.5)
    assert TreeGame.from_text("MAX(-1.5e0 +2)").utility_range == (-2.0, 2.0)


def test_render() -> None:
    game = load("aima-5-2")
    assert game.render(0) == "node A: MAX to move; path: (root)"
    assert game.render(game.result(0, "a2")) == "node C: MIN to move; path: a2"
    assert game.render(game.result(game.result(0, "a2"), "c3")) == "leaf = 6; path: a2 c3"
    demo = load("chance-demo")
    assert demo.render(demo.result(0, "a1")) == "node #1: chance; path: a1"
    three = load("aima-5-4")
    leaf = three.result(three.result(three.result(0, "B1"), "C1"), "1")
    assert three.render(leaf) == "leaf = (1, 2, 6); path: B1 C1 1"


def test_leaves_move_after_their_parent() -> None:
    game = TreeGame.from_text("max(min(3 4) 5)")
    assert game.to_move(game.result(0, "2")) == 1
    assert game.to_move(game.result(game.result(0, "1"), "1")) == 0
    with pytest.raises(ValueError, match="inner node"):
        game.utility(0, 0)


def test_zero_sum_is_detected_from_vector_leaves() -> None:
    assert TreeGame.from_text("max([1 -1] [-2 2])").zero_sum
    assert TreeGame.from_text("max([0 3 0] [1 1 1])").zero_sum
    assert not TreeGame.from_text("max([1 1] [0 0])").zero_sum


TEXT_ERRORS = [
    ("", 1, 1, "the tree is empty"),
    ("max(3 4", 1, 8, "missing ')' to close the max node opened at line 1, column 1"),
    ("max()", 1, 1, "needs at least one child"),
    ("maxx(3 4)", 1, 1, "unknown node type 'maxx'"),
    ("max(3 4))", 1, 9, "expected the end of the tree"),
    ("max(3\n  %)", 2, 3, "unexpected character '%'"),
    ("chance(0.5: 3 0.4: 4)", 1, 1, "sum to 0.9, not 1"),
    ("chance(0.5: 3 4)", 1, 15, "give every child of a chance node a probability"),
    ("max(0.5: 3 4)", 1, 5, "only allowed under a chance node"),
    ("chance(1/0: 3)", 1, 10, "division by zero"),
    ("chance(0: 3 1: 4)", 1, 8, "probability 0 is not in (0, 1]"),
    ("A max(3)", 1, 1, "a label is followed by ':'"),
    ("max(\n  3\n  [1 2 3])", 2, 3, "a single number is a two-player leaf"),
    ("p2(3 4)", 1, 1, "player 2 does not exist"),
    ("max([1 2] [1 2 3])", 1, 11, "leaf has 3 values but the tree has 2 players"),
    ("A: max(a: 3 a: 4)", 1, 13, "two children of node 'A' are both reached by action 'a'"),
    ("max(x -> 3 X -> 4)", 1, 12, "both reached by action 'X'"),
    ("max(1 2 b -> 3 2 -> 4)", 1, 16, "action '2' (children 2 and 4)"),
    ('max(\n  min(5 "oops)\n)', 2, 9, "unterminated quoted name"),
    ("[]", 1, 1, "a leaf needs at least one value"),
    ("[1 2", 1, 5, "expected a number or ']'"),
    ("max(3 1e999)", 1, 7, "out of range"),
    ("max(a:)", 1, 7, "expected a node"),
    ("chance(1/x: 3)", 1, 10, "expected a number after '/'"),
    ("chance(1/2 3)", 1, 12, "expected ':' after the probability"),
]


@pytest.mark.parametrize(("text", "line", "column", "message"), TEXT_ERRORS)
def test_text_errors_name_line_and_column(text: str, line: int, column: int, message: str) -> None:
    with pytest.raises(GameFormatError) as caught:
        TreeGame.from_text(text, source="fig.tree")
    error = caught.value
    assert (error.source, error.line, error.column) == ("fig.tree", line, column)
    assert message in str(error)
    assert str(error).startswith(f"fig.tree:{line}:{column}: ")


JSON_ERRORS: list[tuple[Any, str]] = [
    ({"players": 2}, '(top level): missing the "root" node'),
    ({"root": 3, "extra": 1}, "(top level): unknown field 'extra'"),
    ({"players": True, "root": 3}, "players: expected the number of players"),
    ({"root": {"type": "maxx", "children": [3]}}, "root.type: expected one of"),
    ({"root": {"type": "max", "children": []}}, "root.children: expected a non-empty list"),
    ({"root": {"type": "max", "chilren": [3]}}, "root: unknown field 'chilren'"),
    ({"root": {"type": "max", "children": [3, True]}}, "root.children[1]: expected a number"),
    ({"root": {"type": "max", "children": [3, {"p": 1}]}}, "root.children[1]: unknown field 'p'"),
    (
        {"root": {"type": "chance", "children": [{"p": 0.5, "node": 3}, {"p": "x", "node": 4}]}},
        "root.children[1].p: expected a number",
    ),
    (
        {"root": {"type": "chance", "children": [{"p": 0.5, "node": 3}, {"prob": 0.4, "node": 4}]}},
        "root: the probabilities of this chance node sum to 0.9, not 1",
    ),
    (
        {"root": {"type": "chance", "children": [{"p": -1, "node": 3}]}},
        "root.children[0].p: probability -1 is not in (0, 1]",
    ),
    ({"root": {"type": "chance", "children": [3]}}, "root.children[0]: expected an outcome"),
    ({"root": {"type": "chance", "children": [{"p": 1}]}}, 'root.children[0]: missing the "node"'),
    ({"root": {"type": "chance", "children": [{"node": 1}]}}, "root.children[0]: missing the"),
    (
        {"players": 3, "root": {"type": "max", "children": [[1, 2, 3], [1, 2]]}},
        "root.children[1]: leaf has 2 values but the tree has 3 players",
    ),
    (
        {"players": 3, "root": {"type": "max", "children": [3]}},
        "root.children[0]: a single number is a two-player leaf",
    ),
    ({"root": {"type": "player", "children": [3]}}, "root.player: expected the player number"),
    (
        {"root": {"type": "player", "player": 2, "children": [3]}},
        "root: player 2 does not exist: the tree has 2 players",
    ),
    ({"root": {"type": "max", "player": 0, "children": [3]}}, "root.player: only a node of type"),
    (
        {"root": {"type": "max", "children": [{"value": 1, "values": [1]}]}},
        'root.children[0]: expected a leaf with "value" or "values"',
    ),
    (
        {"root": {"type": "max", "children": [{"value": 1, "label": " "}]}},
        "root.children[0].label: expected a non-empty string",
    ),
    (
        {"root": {"type": "max", "children": [{"values": []}]}},
        "root.children[0].values: expected a non-empty list of numbers",
    ),
    (
        {"root": {"type": "max", "label": "A", "children": [1, {"value": 2, "label": "1"}]}},
        "root.children[1]: two children of node 'A' are both reached by action '1'",
    ),
    (
        {"root": {"type": "min", "children": [{"values": [1, "2"]}]}},
        "root.children[0].values[1]: expected a number, found a string",
    ),
]


@pytest.mark.parametrize(("obj", "message"), JSON_ERRORS)
def test_json_errors_name_the_field(obj: Any, message: str) -> None:
    with pytest.raises(GameFormatError) as caught:
        TreeGame.from_json(obj, source="fig.json")
    assert str(caught.value).startswith(f"fig.json: {message}")
    assert caught.value.source == "fig.json" and caught.value.line is None


def test_json_syntax_errors_name_line_and_column() -> None:
    with pytest.raises(GameFormatError) as caught:
        TreeGame.from_json('{"root":\n  [1, 2', source="fig.json")
    assert (caught.value.line, caught.value.column) == (2, 8)
    assert "invalid JSON" in str(caught.value)


def test_json_accepts_a_bare_node_and_leaf_objects() -> None:
    game = TreeGame.from_json(
        {"type": "chance", "children": [
            {"prob": 0.25, "node": {"value": 4, "label": "x", "action": "heads"}},
            {"p": 0.75, "node": {"type": "player", "player": 1, "children": [0, -8]}},
        ]}
    )  # fmt: skip
    assert game.actions(0) == ("heads", "2")
    assert game.label(game.result(0, "heads")) == "x"
    assert value(game) == pytest.approx(0.25 * 4 + 0.75 * -8)
    assert TreeGame.from_json(json.dumps([1, 2, 3])).num_players == 3


def test_files(tmp_path: Path) -> None:
    path = tmp_path / "mine.tree"
    path.write_text(AIMA)
    game = TreeGame.from_file(path)
    assert game.name == "mine" and value(game) == 3.0
    assert load(str(path)).actions(0) == ("B", "C", "D")
    (tmp_path / "bad.tree").write_text("max(\n 3 4")
    with pytest.raises(GameFormatError, match=r"bad\.tree:2:5: missing '\)'"):
        TreeGame.from_file(tmp_path / "bad.tree")
    with pytest.raises(GameFormatError, match="cannot read the tree"):
        TreeGame.from_file(tmp_path / "missing.tree")
    (tmp_path / "latin1.tree").write_bytes(b"max(\xe9: 3)")
    with pytest.raises(GameFormatError, match="not UTF-8"):
        TreeGame.from_file(tmp_path / "latin1.tree")


def test_deep_trees_are_fine() -> None:
    depth = 5000  # deeper than Python's recursion limit: the flattening does not recurse
    game = TreeGame(_chain(depth))
    state = 0
    for _ in range(depth):
        state = game.result(state, "1")
    assert game.utility(state, 0) == 1.0
    # A file is held to the depth cap (256 levels) before Python's stack runs out.
    with pytest.raises(GameFormatError, match="nested too deeply: more than 256 levels"):
        TreeGame.from_text("max(" * depth + "1" + ")" * depth)
    nested: Any = 1
    for _ in range(depth):
        nested = {"type": "max", "children": [nested]}
    with pytest.raises(GameFormatError, match="nested too deeply"):
        TreeGame.from_json(nested)
    with pytest.raises(GameFormatError, match="nested too deeply"):
        TreeGame.from_json('{"type": "max", "children": [' * depth + "1" + "]}" * depth)


def _chain(depth: int) -> Any:
    from plies.sources.treeparse import LEAF, PLAYER, RawNode, Where

    node = RawNode(LEAF, Where(), values=(1.0,), scalar=True)
    for i in range(depth):
        node = RawNode(PLAYER, Where(), player=i % 2, written="max", children=[node])
    return node


@st.composite
def tree_texts(draw: st.DrawFn, depth: int = 3) -> str:
    """A tree in the text form with every kind of token around its nodes: labels and
    actions (names, numbers, quoted text holding '(', ':' and '#'), probabilities written
    as fractions or decimals, vector leaves, comments."""
    vector = draw(st.booleans())

    def node(level: int, parent_chance: bool) -> str:
        head = draw(st.sampled_from(["", "A: ", '"x(1: #" : ', "n1': "]))
        if level == depth or draw(st.integers(0, 3)) == 0:
            value = draw(st.sampled_from(["3", "-2.5", ".5e-3", "+7", "1e2"]))
            return head + ("[" + value + " 0]" if vector else value)
        kind = draw(st.sampled_from(["chance", "p0", "p1"] if vector else ["max", "min", "chance"]))
        count = draw(st.integers(1, 3))
        children = []
        for i in range(count):
            edge = ""
            if kind == "chance":
                edge = draw(st.sampled_from([f"1/{count}: ", f"1 / {count} :"]))
            edge += draw(st.sampled_from(["", f"a{i} -> ", f"{i + 1} -> ", f'"e{i}(" -> ']))
            comment = draw(st.sampled_from(["", " # (1 2 3: x)\n"]))
            children.append(edge + node(level + 1, kind == "chance") + comment)
        return f"{head}{kind}(" + "  ".join(children) + "\n)"

    return node(0, False)


@settings(max_examples=200, derandomize=True)
@given(tree_texts())
def test_text_node_count_before_parsing_is_exact(text: str) -> None:
    # The count that refuses a 15 MiB tree before parsing must not refuse a smaller one.
    stack, nodes = [treeparse.parse_text(text)], 0
    while stack:
        nodes += 1
        stack.extend(stack.pop().children)
    assert treeparse._text_nodes(text) == nodes


def test_15_mib_text_tree_is_refused_before_any_node_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # It took 6-7 GB and 133-212 s, under --time 3.
    def no_parser(*args: Any) -> None:
        raise AssertionError("the tree was parsed")

    monkeypatch.setattr(treeparse, "_TextParser", no_parser)
    path = tmp_path / "flat.tree"
    path.write_text("max(" + "1 " * (7 * 2**20) + ")")
    with pytest.raises(GameFormatError, match="more than 1,000,000 nodes"):
        TreeGame.from_file(path)
