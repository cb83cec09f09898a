"""Random game trees for property tests: N players, several moves per turn, chance nodes;
and :func:`oracle`, the textbook search every fast search is held to."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

import plies
from plies import textbook
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


class SelectiveTree(RandomTree):
    """A random tree with every selective hook: the first child of a node is noisy, a
    node whose id is a multiple of 3 is "check" (extended), every move but the first is
    quiet, and passing is refused (a tree has no pass) but counted."""

    passes = 0

    def noisy_actions(self, state: int) -> Sequence[int]:
        return range(min(1, len(self.nodes[state].children)))

    def extension(self, state: int, action: int, child: int) -> int:
        return 1 if child % 3 == 0 else 0

    def is_quiet(self, state: int, action: int) -> bool:
        return action > 0

    def null_move(self, state: int) -> int | None:
        self.passes += 1
        return None


def selective_tree(tree: RandomTree) -> SelectiveTree:
    return SelectiveTree(tree.nodes, tree.num_players, tree.zero_sum)


class PassingTree(SelectiveTree):
    """A :class:`SelectiveTree` whose null move is allowed: passing at a node leads to its
    last child (a stand-in position: a tree has no real pass)."""

    def null_move(self, state: int) -> int | None:
        self.passes += 1
        children = self.nodes[state].children
        return children[-1] if children else None


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


class RandomDag(Game[tuple[int, int], int]):
    """A game whose states merge (transpositions): state ``(level, k)``, ``k < width``.

    Everything (movers, branching, children, utilities, evaluations) is derived from a
    seeded hash, so the same state reached by two paths is the same position.
    """

    def __init__(self, seed: int, players: int, height: int, width: int) -> None:
        self.seed, self.num_players, self.height, self.width = seed, players, height, width
        self.utility_range = (-8.0, 8.0)

    def _h(self, *parts: int) -> int:
        x = self.seed * 0x9E3779B1 & 0xFFFFFFFF
        for part in parts:
            x = (x ^ (part + 0x7F4A7C15)) * 0x85EBCA6B & 0xFFFFFFFF
            x ^= x >> 13
        return x

    def initial_state(self) -> tuple[int, int]:
        return (0, 0)

    def to_move(self, state: tuple[int, int]) -> int:
        return self._h(1, *state) % self.num_players

    def actions(self, state: tuple[int, int]) -> Sequence[int]:
        return range(1 + self._h(2, *state) % 3)

    def result(self, state: tuple[int, int], action: int) -> tuple[int, int]:
        return (state[0] + 1, self._h(3, *state, action) % self.width)

    def is_terminal(self, state: tuple[int, int]) -> bool:
        return state[0] >= self.height or (state[0] > 1 and self._h(4, *state) % 7 == 0)

    def utility(self, state: tuple[int, int], player: int) -> float:
        return float(self._h(5, *state, player) % 17 - 8)

    def evaluate(self, state: tuple[int, int], player: int) -> float:
        return float(self._h(6, *state, player) % 17 - 8)

    def __repr__(self) -> str:
        return f"RandomDag(seed={self.seed}, players={self.num_players}, height={self.height})"


@st.composite
def random_dags(draw: st.DrawFn) -> RandomDag:
    return RandomDag(
        seed=draw(st.integers(0, 2**31)),
        players=draw(st.integers(2, 3)),
        height=draw(st.integers(2, 8)),
        width=draw(st.integers(2, 6)),
    )


TurnState = tuple[tuple[int, ...], int, int, int]  # (history, agent, moves made, moves allowed)


class RandomTurns(Game[TurnState, int]):
    """N players taking turns 0, 1, ..., N-1 in a cycle, each with a state-dependent
    number of moves per turn (1 to ``moves``), and the out-of-turn hook
    ``pass_turn_to`` that Best-Reply Search needs.

    Everything (branching, turn lengths, the end, utilities, evaluations) is derived from
    a seeded hash of the history, so any line, passes included, is a position.  A pass
    is recorded in the history (as ``-1 - player``) and counts towards ``height``.
    """

    def __init__(self, seed: int, players: int, height: int, moves: int) -> None:
        self.seed, self.num_players, self.height, self.moves = seed, players, height, moves
        self.utility_range = (-4.0, 4.0)

    def _h(self, *parts: int) -> int:
        x = self.seed * 0x9E3779B1 & 0xFFFFFFFF
        for part in parts:
            x = (x ^ (part + 0x7F4A7C15)) * 0x85EBCA6B & 0xFFFFFFFF
            x ^= x >> 13
        return x

    def _turn(self, history: tuple[int, ...], agent: int) -> TurnState:
        return (history, agent, 0, 1 + self._h(7, *history, agent) % self.moves)

    def initial_state(self) -> TurnState:
        return self._turn((), 0)

    def to_move(self, state: TurnState) -> int:
        return state[1]

    def actions(self, state: TurnState) -> Sequence[int]:
        return range(1 + self._h(2, *state[0]) % 3)

    def result(self, state: TurnState, action: int) -> TurnState:
        history, agent, made, allowed = state
        history = (*history, action)
        if made + 1 < allowed:
            return (history, agent, made + 1, allowed)
        return self._turn(history, (agent + 1) % self.num_players)

    def pass_turn_to(self, state: TurnState, player: int) -> TurnState:
        if state[1] == player and state[2] == 0:
            return state
        return self._turn((*state[0], -1 - player), player)

    def is_terminal(self, state: TurnState) -> bool:
        history = state[0]
        return len(history) >= self.height or (
            len(history) > 1 and self._h(4, *history) % 7 == 0
        )

    def utility(self, state: TurnState, player: int) -> float:
        return float(self._h(5, *state[0], player) % 9 - 4)

    def evaluate(self, state: TurnState, player: int) -> float:
        if self.is_terminal(state):
            return self.utility(state, player)
        return float(self._h(6, *state[0], player) % 9 - 4)

    def __repr__(self) -> str:
        return (f"RandomTurns(seed={self.seed}, players={self.num_players}, "
                f"height={self.height}, moves={self.moves})")


@st.composite
def random_turn_games(
    draw: st.DrawFn, players: tuple[int, int] = (3, 4), moves: tuple[int, int] = (1, 2)
) -> RandomTurns:
    return RandomTurns(
        seed=draw(st.integers(0, 2**31)),
        players=draw(st.integers(*players)),
        height=draw(st.integers(2, 9)),
        moves=draw(st.integers(*moves)),
    )


LIMITS = st.one_of(
    st.none(),
    st.builds(plies.Limit, depth=st.integers(0, 4), unit=st.sampled_from(["ply", "round"])),
)
"""No limit, or a depth of 0 to 4 in plies or in rounds."""

SWITCHES: list[dict[str, Any]] = [
    dict(zip(("tt", "ordering", "pvs"), combo, strict=True))
    for combo in itertools.product([False, True], repeat=3)
] + [
    {"tt": True, "ordering": True, "aspiration": 0.5},
    {"tt": True, "ordering": True, "pvs": True, "bisection": True},
    {"bisection": True},
]
"""The value-preserving switches of :func:`plies.alphabeta`, alone and together."""


def switch_names(switches: dict[str, Any]) -> str:
    """A test id for a set of switches: ``tt+pvs``, or ``none``."""
    return "+".join(k for k, v in switches.items() if v) or "none"


def oracle(
    search: Callable[..., textbook.Answer],
    game: Any,
    state: Any,
    limit: plies.Limit | None = None,
    player: int | None = None,
) -> textbook.Answer:
    """The textbook ``search`` (:mod:`plies.textbook`) under ``limit``, the oracle."""
    depth = None if limit is None else limit.depth
    unit = "ply" if limit is None else limit.unit
    return search(game, state, player, depth, unit)
