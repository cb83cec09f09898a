"""Random game trees for property tests: N players, several moves per turn, chance nodes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from hypothesis import strategies as st

from plies.game import CHANCE, Game


@dataclass
class TreeNode:
    mover: int  # a player, or CHANCE; ignored at leaves
    children: list[int] = field(default_factory=list)
    probs: list[float] = field(default_factory=list)
    utilities: tuple[float, ...] = ()  # at leaves
    heuristic: tuple[float, ...] = ()  # evaluate() at inner nodes


class RandomTree(Game[int, int]):
    """A game over an explicit random tree; states are node ids, actions child indices."""

    def __init__(self, nodes: list[TreeNode], players: int, zero_sum: bool) -> None:
        self.nodes = nodes
        self.num_players = players
        self.zero_sum = zero_sum
        leaves = [u for n in nodes if not n.children for u in n.utilities]
        self.utility_range = (min(leaves), max(leaves))

    def initial_state(self) -> int:
        return 0

    def to_move(self, state: int) -> int:
        return self.nodes[state].mover

    def actions(self, state: int) -> Sequence[int]:
        return range(len(self.nodes[state].children))

    def chance_outcomes(self, state: int) -> Sequence[tuple[int, float]]:
        return list(enumerate(self.nodes[state].probs))

    def result(self, state: int, action: int) -> int:
        return self.nodes[state].children[action]

    def is_terminal(self, state: int) -> bool:
        return not self.nodes[state].children

    def utility(self, state: int, player: int) -> float:
        return self.nodes[state].utilities[player]

    def evaluate(self, state: int, player: int) -> float:
        node = self.nodes[state]
        return (node.utilities if not node.children else node.heuristic)[player]

    def __repr__(self) -> str:  # shown by Hypothesis when a property fails
        return f"RandomTree(players={self.num_players}, nodes={self.nodes!r})"


@st.composite
def random_trees(
    draw: st.DrawFn,
    players: int = 2,
    chance: bool = False,
    max_height: int = 5,
    max_branching: int = 3,
    zero_sum: bool | None = None,
) -> RandomTree:
    """A random tree; values are small integers so that ties are frequent."""
    zs = players == 2 if zero_sum is None else zero_sum
    nodes: list[TreeNode] = []
    movers = [*range(players), *([CHANCE] if chance else [])]

    def vector() -> tuple[float, ...]:
        if zs:
            head = [float(draw(st.integers(-4, 4))) for _ in range(players - 1)]
            return (*head, -sum(head))
        return tuple(float(draw(st.integers(-4, 4))) for _ in range(players))

    def build(height: int) -> int:
        index = len(nodes)
        node = TreeNode(mover=draw(st.sampled_from(movers)))
        nodes.append(node)
        if height == 0 or (index > 0 and draw(st.integers(0, 3)) == 0):
            node.utilities = vector()
            node.mover = 0
            return index
        node.heuristic = vector()
        width = draw(st.integers(1, max_branching))
        node.children = [build(height - 1) for _ in range(width)]
        if node.mover == CHANCE:
            weights = [draw(st.integers(1, 4)) for _ in range(width)]
            node.probs = [w / sum(weights) for w in weights]
        return index

    build(max_height)
    return RandomTree(nodes, players, zs)
