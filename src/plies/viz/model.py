"""What a tree picture is made of: the nodes of a captured search, and what a picture
reads of the whole tree.

:func:`plies.viz.capture` records a search as :class:`TreeNode` objects inside a
:class:`~plies.viz.tree.SearchTree`.  The pictures (:mod:`plies.viz.svg`,
:mod:`plies.viz.dot`, their shared :mod:`plies.viz.style` and :mod:`plies.viz.layout`)
read a tree only through :class:`Tree`, so they depend on this module alone, and
``SearchTree`` can draw itself with them.

>>> root = TreeNode(0, None, None, "max", "MAX", value=3.0)
>>> root.children = [TreeNode(1, 0, "a1", "terminal", None, value=3.0)]
>>> [(node.id, node.kind, node.is_leaf) for node in root.walk()]
[(0, 'max', False), (1, 'terminal', True)]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

__all__ = ["KINDS", "Tree", "TreeNode"]

KINDS: Final = ("max", "min", "chance", "simultaneous", "terminal", "cutoff")
"""Node kinds; a max^n tree uses the mover's name instead of max/min, because there
every player maximises its own utility (whatever the number of players)."""


@dataclass(eq=False)
class TreeNode:
    """One node of a captured tree.

    ``action`` is the action from the parent as the game writes it (None at the root).
    ``kind`` is ``"max"``, ``"min"``, ``"chance"``, ``"simultaneous"`` (a stage where
    everyone moves at once), ``"terminal"`` or ``"cutoff"`` (a depth-limited leaf scored
    by the evaluation); in a max^n tree an inner node's kind
    is its mover's name (there is no MIN: every player maximises its own utility).
    ``mover`` is the mover's name (``"chance"`` at chance nodes, ``"everyone"`` at
    simultaneous stages, None at terminals).
    ``value`` is the value the node backed up, from the searching player's point of view
    (a leaf: its utility or evaluation); None only for a pruned stub, which was never
    searched.  ``values`` is
    the utility vector of a max^n node.  ``alpha``/``beta`` are the window the node was
    entered with (None when the algorithm has none).  ``pv``: the node is on the chosen
    path.  ``pruned``: a child skipped by a prune, with the reason in ``pruned_by``.
    ``probability``: the chance of reaching the node from a chance parent.  ``label``:
    the node's label in an explicit tree file.  ``depth``: the search depth in the
    limit's unit (None for pruned stubs).  ``state`` is the game state (not exported).
    ``visits``: how many times the pictured search entered the node (the picture keeps
    the last visit).  ``settled_by``: ``"table"`` or ``"bounds"`` when the transposition
    table or the game's value bounds settled the node without searching a child.
    ``notes``: what the engine craft did there, in words ("table: 3", "moves tried: e4
    d4 ...", "re-searched", "reduced 1 ply", "extended", "null move", "stand pat 0.2",
    "Star2 probe", the root's window).
    """

    id: int
    parent: int | None
    action: str | None
    kind: str
    mover: str | None
    value: float | None = None
    values: tuple[float, ...] | None = None
    alpha: float | None = None
    beta: float | None = None
    pv: bool = False
    pruned: bool = False
    pruned_by: str | None = None
    probability: float | None = None
    label: str | None = None
    depth: int | None = None
    visits: int = 1
    settled_by: str | None = None
    notes: list[str] = field(default_factory=list)
    children: list[TreeNode] = field(default_factory=list)
    move: Any = field(default=None, repr=False)
    state: Any = field(default=None, repr=False)

    @property
    def is_leaf(self) -> bool:
        """True when the picture draws no children below this node."""
        return not self.children

    def walk(self) -> Iterator[TreeNode]:
        """This node and everything below it, in preorder (iterative: trees can be deep)."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))


class Tree(Protocol):
    """What a picture reads of a captured tree (:class:`~plies.viz.tree.SearchTree` is
    the tree :func:`plies.viz.capture` returns; the fields mean what they mean there).

    ``value`` is the root's value for ``player`` (one of ``players``), ``values`` the
    max^n utility vector (None otherwise), ``exact`` False when a depth cut-off was
    evaluated, ``stats`` the search's counters plus ``pruned``, ``drawn`` and ``visits``.
    """

    game: str
    algorithm: str
    player: str
    players: tuple[str, ...]
    value: float
    values: tuple[float, ...] | None
    exact: bool
    root: TreeNode
    stats: dict[str, float]

    def nodes(self) -> Iterator[TreeNode]:
        """Every node, in preorder."""
