"""The JSON form of a captured search tree.

The schema is documented, read and written in :mod:`plies.viz.tree`, with the
:class:`~plies.viz.tree.SearchTree` it describes (``SearchTree.to_json()``,
``SearchTree.from_json()``); its names stay importable from here.
"""

from __future__ import annotations

from plies.viz.tree import (
    NODE_KEYS,
    SCHEMA_VERSION,
    node_to_json,
    number,
    tree_from_json,
    tree_to_json,
    unnumber,
)

__all__ = [
    "NODE_KEYS",
    "SCHEMA_VERSION",
    "node_to_json",
    "number",
    "tree_from_json",
    "tree_to_json",
    "unnumber",
]
