"""Names that moved to break the import cycle around ``plies.viz.capture`` stay where
they were.

The nodes (``TreeNode``, ``KINDS``) and what a picture reads of a tree (``Tree``) live in
``plies.viz.model``, which every picture module imports; ``SearchTree`` and its JSON form
live in ``plies.viz.tree``, which draws with ``dot`` and ``svg``.  ``capture`` and
``schema`` still offer their old names.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import plies.viz.model as model
import plies.viz.schema as schema
import plies.viz.tree as tree
from plies.games import load
from plies.viz.dot import tree_to_dot
from plies.viz.svg import tree_to_svg

# the module, not the function plies.viz.capture that the package exports under its name
capture = importlib.import_module("plies.viz.capture")
VIZ = Path(model.__file__).parent


def test_capture_still_offers_the_tree_types() -> None:
    assert capture.TreeNode is model.TreeNode
    assert capture.KINDS is model.KINDS
    assert capture.SearchTree is tree.SearchTree


def test_schema_still_offers_the_json_names() -> None:
    for name in schema.__all__:
        assert getattr(schema, name) is getattr(tree, name), name


def test_the_pictures_read_only_the_model() -> None:
    """dot, svg, style and layout import no viz module but the model and each other."""
    allowed = {"plies.viz.model", "plies.viz.style", "plies.viz.layout"}
    for name in ("dot", "svg", "style", "layout"):
        source = (VIZ / f"{name}.py").read_text(encoding="utf-8")
        imported = {
            node.module
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("plies.viz")
        }
        assert imported <= allowed, (name, imported - allowed)


def test_a_tree_read_back_from_json_draws_as_the_captured_one() -> None:
    game = load("aima-5-2")
    captured = capture.capture(game, game.initial_state(), "alphabeta")
    again = schema.tree_from_json(captured.to_json())
    assert isinstance(again, tree.SearchTree)
    assert tree_to_svg(again) == captured.to_svg()
    assert tree_to_dot(again) == captured.to_dot()
