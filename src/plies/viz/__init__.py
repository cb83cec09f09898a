"""Pictures of search trees: capture a traced search, export it as JSON, DOT or SVG.

>>> from plies.games import load
>>> from plies.viz import capture
>>> game = load("aima-5-2")
>>> tree = capture(game, game.initial_state(), "minimax")
>>> tree.value, tree.pv, tree.to_svg().startswith("<?xml")
(3.0, ('a1', 'b1'), True)
"""

from plies.viz.capture import (
    ALGORITHMS,
    DEFAULT_MAX_NODES,
    KINDS,
    SearchTree,
    TreeNode,
    TreeTooLargeError,
    capture,
)

__all__ = [
    "ALGORITHMS",
    "DEFAULT_MAX_NODES",
    "KINDS",
    "SearchTree",
    "TreeNode",
    "TreeTooLargeError",
    "capture",
]
