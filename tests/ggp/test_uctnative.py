"""The compiled UCT tree (:class:`plies.ggp.uctnative.NativeTree`) against the Python
tree (:class:`plies.search.mcts.MctsTree`): with the same deterministic playouts (a goal
that is a fixed function of the leaf's state) and every random choice taking the first
candidate, both grow the same tree, node by node (visits, reward sums, proofs, own
moves' statistics at simultaneous nodes, the moves left untried), one lane or many."""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Any

import pytest

pytest.importorskip("numba")

from plies.game import SIMULTANEOUS
from plies.gdl.game import GdlGame
from plies.gdl.parser import parse
from plies.gdl.reasoner import Reasoner
from plies.ggp import uctjit
from plies.ggp.uct import EXPLORATION
from plies.ggp.uctnative import NativeTree
from plies.search import Limit
from plies.search.mcts import MctsTree
from plies.search.mcts_tree import Node
from plies.wrappers.base import GameWrapper
from tests.ggp.helpers import rules

# Both roles pick one of nine numbers at each of three steps: 81 joint moves a node, two
# blocks of the children cache.  The left role wins when the last picks match.
RACE = """
(role left) (role right) (init (step 0)) (succ 0 1) (succ 1 2) (succ 2 3)
(number 1) (number 2) (number 3) (number 4) (number 5) (number 6) (number 7) (number 8)
(number 9)
(<= (legal ?r (pick ?n)) (role ?r) (number ?n))
(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
(<= (next (picked ?r ?s ?n)) (does ?r (pick ?n)) (true (step ?s)))
(<= (next (picked ?r ?s ?n)) (true (picked ?r ?s ?n)))
(<= match (true (picked left 2 ?n)) (true (picked right 2 ?n)))
(<= terminal (true (step 3)))
(<= (goal left 100) match) (<= (goal left 0) (not match))
(<= (goal right 0) match) (<= (goal right 100) (not match))
"""


@functools.cache
def reasoner_of(name: str) -> Reasoner:
    reasoner = Reasoner(parse(RACE if name == "race" else rules(name)))
    assert reasoner.build_native() is not None
    return reasoner


class FirstChoice(random.Random):
    """A generator whose every draw takes the first candidate and never mixes in a
    uniform choice (the compiled tree's ``deterministic``)."""

    def random(self) -> float:
        return 0.999

    def randrange(self, *args: Any, **kwargs: Any) -> int:  # type: ignore[override]
        return 0

    def getrandbits(self, k: int) -> int:
        return 0


class Fixed(GameWrapper[Any, Any]):
    """A GDL game whose playouts score each leaf by :func:`uctjit.fixed_goal`: a batch of
    them (``random_playouts``), or one (a playout that stays at the leaf, which
    ``evaluate`` then scores), for the sequential iterations of one lane."""

    def __init__(self, game: GdlGame, reasoner: Reasoner, zero_sum: bool) -> None:
        super().__init__(game)
        self.net = reasoner.native_built()
        self.zero_sum = zero_sum
        self.utility_range = (0.0, 100.0)

    def random_playout(self, state: Any, rng: random.Random, limit: int) -> Any:
        return state

    def evaluate(self, state: Any, player: int) -> float:
        assert self.net is not None
        return float(uctjit.fixed_goal(self.net.to_array(state), player))

    def random_playouts(
        self, states: Sequence[Any], rng: random.Random, limit: int
    ) -> list[tuple[float, ...] | None]:
        net = self.net
        assert net is not None
        out: list[tuple[float, ...] | None] = []
        for state in states:
            bits = net.to_array(state)
            out.append(tuple(float(uctjit.fixed_goal(bits, r)) for r in range(net.roles)))
        return out


def trees(name: str, lanes: int, iterations: int, zero_sum: bool,
          state: Any = None) -> tuple[MctsTree, NativeTree]:
    reasoner = reasoner_of(name)
    net = reasoner.native_built()
    assert net is not None
    start = reasoner.initial_state() if state is None else state
    game = Fixed(GdlGame(reasoner), reasoner, zero_sum)
    plain = MctsTree(game, start, seed=0, exploration=EXPLORATION, playout=10_000,
                     batch=lanes)
    plain.tree.rng = FirstChoice()
    native = NativeTree(reasoner, net, start, seed=0, exploration=EXPLORATION,
                        playout=10_000, zero_sum=zero_sum, batch=lanes, deterministic=True,
                        fixed=True)
    mover = game.to_move(start)
    player = 0 if mover == SIMULTANEOUS else mover
    a = plain.search(Limit(nodes=iterations), player=player)
    b = native.search(Limit(nodes=iterations), player=player)
    assert a.stats.nodes == b.stats.nodes
    assert a.exact == b.exact
    if a.strategy is None:
        assert a.action == b.action
    else:
        assert b.strategy is not None
        assert a.strategy == pytest.approx(b.strategy)
    return plain, native


def same(node: Node, native: NativeTree, n: int, roles: int) -> int:
    """Compare the subtrees; the number of nodes compared."""
    ni, nf, ei, ef = native.ni, native.nf, native.ei, native.ef
    j = uctjit
    assert node.visits == ni[n, j.VISITS]
    assert node.totals == pytest.approx(list(nf[n, :roles]), abs=1e-9)
    assert (node.proof is not None) == bool(ni[n, j.SOLVED])
    if node.proof is not None:
        assert node.proof == pytest.approx(list(nf[n, roles:]), abs=1e-12)
    if node.terminal:
        assert ni[n, j.TERM]
        return 1
    count = 1
    if node.mover == SIMULTANEOUS:
        assert ni[n, j.MOVER] == j.SIM
        for r in range(roles):
            lo, hi = ni[n, j.RFIRST + r], ni[n, j.RFIRST + r + 1]
            assert node.own_visits[r] == list(ei[lo:hi, j.EVISITS])
            assert node.own_totals[r] == pytest.approx(list(ef[lo:hi]), abs=1e-9)
        kids = {}
        c = ni[n, j.KIDS]
        while c >= 0:
            kids[int(ni[c, j.KEY])] = int(c)
            c = ni[c, j.SIB]
        assert sorted(kids) == sorted(node.children)
        for key, child in node.children.items():
            count += same(child, native, kids[key], roles)
        return count
    assert node.mover == ni[n, j.MOVER]
    lo, hi = ni[n, j.RFIRST + node.mover], ni[n, j.RFIRST + node.mover + 1]
    assert len(node.moves) == hi - lo
    assert sorted(node.untried) == [k for k in range(hi - lo) if ei[lo + k, j.CHILD] == -1]
    assert sorted(node.children) == [k for k in range(hi - lo) if ei[lo + k, j.CHILD] >= 0]
    if node.proof is not None and node.best >= 0:
        assert node.best == ni[n, j.BEST] - lo
    for k, child in node.children.items():
        count += same(child, native, int(ei[lo + k, j.CHILD]), roles)
    return count


GAMES = [
    ("ticTacToe", True),
    ("connectFour", True),
    ("roshambo2", True),  # simultaneous
    ("gt_prisoner", False),  # simultaneous, not zero-sum
    ("tictactoe_3player", False),  # three roles
    ("breakthrough", True),
]


@pytest.mark.parametrize(("name", "zero_sum"), GAMES)
@pytest.mark.parametrize("lanes", [1, 16, 64])
def test_the_compiled_tree_grows_the_python_tree(name: str, zero_sum: bool, lanes: int) -> None:
    plain, native = trees(name, lanes, 1500, zero_sum)
    roles = reasoner_of(name).stats and len(reasoner_of(name).roles)
    assert same(plain.root, native, native.root, roles) == native.nodes


def test_the_trees_agree_where_the_solver_proves_the_root() -> None:
    """Near the end of tic-tac-toe MCTS-Solver proves nodes (and the root): both trees
    prove the same ones and stop at the same iteration."""
    reasoner = reasoner_of("ticTacToe")
    game = GdlGame(reasoner)
    state = reasoner.initial_state()
    for move in (0, 3, 1, 2):
        state = game.result(state, game.actions(state)[move])
    plain, native = trees("ticTacToe", 8, 20_000, True, state)
    assert plain.root.proof is not None
    assert plain.tree.stats.nodes < 20_000
    assert same(plain.root, native, native.root, 2) == native.nodes


def test_rerooting_keeps_the_subtree() -> None:
    reasoner = reasoner_of("connectFour")
    net = reasoner.native_built()
    assert net is not None
    game = GdlGame(reasoner)
    start = reasoner.initial_state()
    tree = NativeTree(reasoner, net, start, seed=3, exploration=EXPLORATION, playout=10_000,
                      zero_sum=True)
    first = tree.search(Limit(nodes=2000), player=0)
    after = game.result(start, first.action)
    edge = tree.choice()
    assert edge is not None
    child = int(tree.ei[edge, uctjit.CHILD])
    visits = int(tree.ni[child, uctjit.VISITS])
    assert tree.reroot(after, depth=4)
    assert tree.visits == visits
    assert tree.nodes <= 2001
    second = tree.search(Limit(nodes=500), player=1)
    assert second.action in game.actions(after)
    assert not tree.reroot(start, depth=4)  # not below: a fresh tree
    assert tree.nodes == 1


def test_a_search_that_ends_before_its_first_iteration_proves_nothing() -> None:
    """A slice whose time is gone before the first batch (a loaded machine) has no move
    to offer, and says so: not exact, no action."""
    reasoner = reasoner_of("connectFour")
    net = reasoner.native_built()
    assert net is not None
    tree = NativeTree(reasoner, net, reasoner.initial_state(), seed=3,
                      exploration=EXPLORATION, playout=10_000, zero_sum=True)
    result = tree.search(Limit(time=1e-9), player=0)
    assert (result.stats.nodes, result.action, result.exact) == (0, None, False)
    assert tree.search(Limit(nodes=64), player=0).action is not None


def test_a_full_tree_stops_expanding() -> None:
    reasoner = reasoner_of("connectFour")
    net = reasoner.native_built()
    assert net is not None
    tree = NativeTree(reasoner, net, reasoner.initial_state(), seed=3,
                      exploration=EXPLORATION, playout=10_000, zero_sum=True,
                      max_bytes=200_000)
    result = tree.search(Limit(nodes=20_000), player=0)
    assert result.stats.nodes == 20_000
    assert tree.full
    assert tree.nodes <= tree.max_nodes
    assert tree.visits == 20_000


@pytest.mark.parametrize("name", ["connectFour", "breakthrough", "tictactoe_3player",
                                  "roshambo2", "gt_prisoner", "race"])
def test_the_children_cache_changes_no_node(name: str) -> None:
    """Children computed 64 at a time (and kept in the cache until expanded) are the
    children computed one at a time: with MAST's playouts and the same seed, a tree
    with the default cache, one with a cache of one row (a block pushed out at almost
    every expansion) and one with none hold the same arrays, also after a re-rooting."""
    from plies.gdl.gatenet import Mast as NativeMast

    reasoner = reasoner_of(name)
    net = reasoner.native_built()
    assert net is not None
    game = GdlGame(reasoner)
    start = reasoner.initial_state()
    width = int(uctjit.block_width(net.k))
    grown = []
    for cache in (None, 8 * width, 0):
        extra = {} if cache is None else {"cache_bytes": cache}
        tree = NativeTree(reasoner, net, start, seed=5, exploration=EXPLORATION,
                          playout=10_000, zero_sum=name != "tictactoe_3player",
                          mast=NativeMast(net, 10.0), **extra)
        assert tree.cache.shape[0] == {None: tree.cache.shape[0], 0: 0}.get(cache, 1)
        first = tree.search(Limit(nodes=3000), player=0)
        snap = [first.action]
        played = first.action
        if game.to_move(start) == SIMULTANEOUS:  # our move, the other roles' first ones
            played = tuple(first.action if r == 0 else game.player_actions(start, r)[0]
                           for r in range(game.num_players))
        assert tree.reroot(game.result(start, played), depth=2)
        tree.search(Limit(nodes=2000), player=1)
        nodes, edges = tree.nodes, int(tree.meta[uctjit.EDGES])
        snap += [tree.ns[:nodes].copy(), tree.ni[:nodes].copy(), tree.nf[:nodes].copy(),
                 tree.ei[:edges].copy(), tree.ef[:edges].copy()]
        grown.append(snap)
    assert grown[0][0] == grown[1][0] == grown[2][0]
    for a, b, c in zip(grown[0][1:], grown[1][1:], grown[2][1:], strict=True):
        assert (a == b).all()
        assert (a == c).all()
