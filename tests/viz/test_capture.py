"""Capturing the tree of a search: known figures, and cross-checks on random trees."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import plies
from plies.errors import OptionError, PliesError, SearchLimitError
from plies.game import CHANCE
from plies.games import load
from plies.viz import SearchTree, TreeNode, TreeTooLargeError, capture
from plies.wrappers import GameWrapper
from tests.search.randomtree import RandomTree, random_trees

SETTINGS = settings(
    max_examples=100, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
AIMA_LEAVES = [3.0, 12.0, 8.0, 2.0, 4.0, 6.0, 14.0, 5.0, 2.0]


def aima(algorithm: str) -> SearchTree:
    game = load("src/plies/games/trees/aima-fig-5-2.tree")
    return capture(game, game.initial_state(), algorithm)


def by_path(tree: SearchTree) -> dict[tuple[str, ...], TreeNode]:
    """Every node by the actions that lead to it."""
    out: dict[tuple[str, ...], TreeNode] = {}
    paths = {tree.root.id: ()}
    for node in tree.nodes():
        path: tuple[str, ...] = paths[node.id]
        out[path] = node
        for child in node.children:
            paths[child.id] = (*path, str(child.action))
    return out


def pv_path(tree: SearchTree) -> list[str]:
    """The actions along the nodes marked pv, checking they form one path from the root."""
    node, actions = tree.root, []
    assert node.pv
    while True:
        marked = [c for c in node.children if c.pv]
        assert len(marked) <= 1
        if not marked:
            break
        node = marked[0]
        actions.append(str(node.action))
    assert sum(1 for n in tree.nodes() if n.pv) == len(actions) + 1
    return actions


# --- AIMA figure 5.2 --------------------------------------------------------------------------


def test_aima_minimax_values_and_shape() -> None:
    tree = aima("minimax")
    assert tree.value == 3.0 and tree.player == "MAX" and tree.exact
    assert [c.value for c in tree.root.children] == [3.0, 2.0, 2.0]
    assert [c.label for c in tree.root.children] == ["B", "C", "D"]
    leaves = [n for n in tree.nodes() if n.is_leaf]
    assert [n.value for n in leaves] == AIMA_LEAVES
    assert {n.kind for n in leaves} == {"terminal"}
    assert tree.root.kind == "max" and {c.kind for c in tree.root.children} == {"min"}
    assert tree.pruned_nodes() == []
    assert tree.stats["nodes"] == 13 == tree.stats["drawn"]
    assert all(n.alpha is None and n.beta is None for n in tree.nodes())  # no window
    # ids are the preorder in which the search reached the nodes
    assert [n.id for n in tree.nodes()] == list(range(13))
    assert all(c.parent == n.id for n in tree.nodes() for c in n.children)


def test_aima_alphabeta_prunes_c2_c3_after_the_2() -> None:
    tree = aima("alphabeta")
    nodes = by_path(tree)
    assert tree.value == 3.0
    assert [c.value for c in tree.root.children] == [3.0, 2.0, 2.0]
    pruned = tree.pruned_nodes()
    assert [n.action for n in pruned] == ["c2", "c3"]
    assert all(n.pruned_by == "beta=2 <= alpha=3" for n in pruned)
    assert all(n.value is None and n.depth is None and n.kind == "terminal" for n in pruned)
    assert all(n.parent == nodes[("a2",)].id for n in pruned)
    # The windows of the lecture figure: C and D are entered with alpha = 3.
    assert (nodes[("a1",)].alpha, nodes[("a1",)].beta) == (-math.inf, math.inf)
    assert (nodes[("a2",)].alpha, nodes[("a2",)].beta) == (3.0, math.inf)
    assert (nodes[("a3",)].alpha, nodes[("a3",)].beta) == (3.0, math.inf)
    assert (nodes[("a1", "b2")].alpha, nodes[("a1", "b2")].beta) == (-math.inf, 3.0)
    assert (nodes[("a3", "d3")].alpha, nodes[("a3", "d3")].beta) == (3.0, 5.0)
    searched = [n.value for n in tree.nodes() if n.is_leaf and not n.pruned]
    assert searched == [3.0, 12.0, 8.0, 2.0, 14.0, 5.0, 2.0]
    assert tree.stats["nodes"] == 11 and tree.stats["pruned"] == 2
    assert tree.stats["drawn"] == 13


def test_pv_is_the_chosen_path() -> None:
    for algorithm in ("minimax", "alphabeta"):
        tree = aima(algorithm)
        assert list(tree.pv) == ["a1", "b1"] == pv_path(tree)
        assert by_path(tree)[("a1", "b1")].value == tree.value


def test_tictactoe_depth_2_matches_the_search() -> None:
    game = load("tictactoe")
    limit = plies.Limit(depth=2)
    tree = capture(game, game.initial_state(), "alphabeta", limit)
    result = plies.alphabeta(game, game.initial_state(), limit)
    assert tree.value == result.value == tree.root.value
    assert tree.stats["nodes"] == result.stats.nodes
    assert sum(1 for n in tree.nodes() if not n.pruned) == result.stats.nodes
    assert tuple(pv_path(tree)) == tree.pv == tuple(str(a + 1) for a in result.pv)
    assert not tree.exact
    leaves = [n for n in tree.nodes() if n.is_leaf and not n.pruned]
    assert {n.kind for n in leaves} == {"cutoff"} and all(n.mover == "X" for n in leaves)
    assert tree.root.mover == "X" and {c.mover for c in tree.root.children} == {"O"}


def test_chance_nodes_carry_probabilities_and_expected_values() -> None:
    game = load("chance-demo")
    tree = capture(game, game.initial_state(), "expectiminimax")
    a1, a2 = tree.root.children
    assert (a1.kind, a1.value, a2.value) == ("chance", pytest.approx(2.1), pytest.approx(1.3))
    assert [c.probability for c in a1.children] == [0.9, 0.1]
    assert a1.mover == "chance"
    assert tree.pv == ("a1",) and pv_path(tree) == ["a1"]


def test_maxn_kinds_are_player_names_and_values_are_vectors() -> None:
    game = load("aima-5-4")
    tree = capture(game, game.initial_state(), "maxn")
    assert tree.values == (1.0, 2.0, 6.0) and tree.root.values == (1.0, 2.0, 6.0)
    assert tree.root.kind == "P0"
    assert {c.kind for c in tree.root.children} == {"P1"}
    assert [c.values for c in tree.root.children] == [(1.0, 2.0, 6.0), (1.0, 5.0, 2.0)]
    assert all(n.value == n.values[0] for n in tree.nodes() if n.values)


def test_two_player_maxn_tree_is_not_labelled_max_and_min() -> None:
    # the max^n picture taught the paranoid rule with two players: MIN "minimises MAX's value"
    from plies.viz.style import look

    game = load("nim", piles=(1, 2))
    tree = capture(game, game.initial_state(), "maxn")
    kinds = {n.kind for n in tree.nodes() if not n.is_leaf}
    assert kinds == {"P0", "P1"}
    assert all(n.values is not None for n in tree.nodes())
    assert look("P1", tree).legend == "P1: maximises its own utility (component 1)"
    assert look("P1", tree).shape == "up"
    for text in (tree.to_dot(), tree.to_svg()):
        assert "minimises" not in text and "MIN" not in text
        assert "P0: maximises its own utility (component 0)" in text


def test_paranoid_tree_of_three_players_has_both_opponents_minimise() -> None:
    from plies.viz.style import look

    game = load("aima-5-4")
    tree = capture(game, game.initial_state(), "alphabeta")
    assert {c.kind for c in tree.root.children} == {"min"}
    assert {c.mover for c in tree.root.children} == {"P1"}
    assert look("min", tree).legend == "MIN (P1, P2): minimises MAX's value"
    assert look("max", tree).legend == "MAX (P0): maximises"


def test_plies_tree_of_a_simultaneous_game_is_not_an_unknown_algorithm() -> None:
    # `plies tree rps --player 0` said "unknown algorithm 'simultaneous'"
    from plies.viz.style import look

    game = load("goofspiel", cards=2)
    state = game.initial_state()
    tree = capture(game, state, "simultaneous", player=0)
    result = plies.simultaneous(game, state, player=0)
    assert tree.value == result.value and tree.algorithm == "simultaneous"
    assert (tree.root.kind, tree.root.mover) == ("simultaneous", "everyone")
    assert [c.action for c in tree.root.children] == ["1/1", "1/2", "2/1", "2/2"]
    assert [c.value for c in tree.root.children] == [0.0, -1.0, 1.0, 0.0]
    assert {c.kind for c in tree.root.children} == {"simultaneous"}
    assert tree.pv == ("2/2", "1/1") and pv_path(tree) == ["2/2", "1/1"]
    assert look("simultaneous", tree).shape == "diamond"
    assert "◆ simultaneous: its matrix game's value in mixed strategies" in tree.to_dot()
    assert SearchTree.from_json(tree.to_json()).to_json() == tree.to_json()


def test_bounded_prunes_at_the_utility_bound_and_the_threshold() -> None:
    game = load("nim", piles=(1, 2, 2))
    tree = capture(game, game.initial_state(), "bounded")
    assert tree.value == plies.minimax(game, game.initial_state()).value == 1.0
    reasons = {n.pruned_by for n in tree.pruned_nodes()}
    assert reasons == {"v=1 = max utility"}
    sticks = load("sticks", sticks=6)
    tree = capture(sticks, sticks.initial_state(), "bounded", threshold=0.5)
    assert {n.pruned_by for n in tree.pruned_nodes()} <= {
        "v=1 >= threshold 0.5", "v=-1 = min utility",
    }
    assert tree.pruned_nodes()


# --- limits and errors ------------------------------------------------------------------------


class Counting(GameWrapper[Any, Any]):
    """Counts the states the search creates."""

    calls = 0

    def result(self, state: Any, action: Any) -> Any:
        Counting.calls += 1
        return super().result(state, action)


def test_node_cap_stops_the_search_early_with_a_clear_error() -> None:
    game = Counting(load("tictactoe"))
    Counting.calls = 0
    with pytest.raises(TreeTooLargeError) as info:
        capture(game, game.initial_state(), "minimax", max_nodes=50)
    assert isinstance(info.value, PliesError) and isinstance(info.value, SearchLimitError)
    assert "more than 50 nodes" in str(info.value)
    assert Counting.calls <= 60  # stopped at the 51st node, not after 549,946
    tree = capture(game, game.initial_state(), "minimax", plies.Limit(depth=1), max_nodes=10)
    assert tree.stats["nodes"] == 10  # exactly at the cap is fine


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"algorithm": "negamax"}, "unknown algorithm 'negamax'"),
        ({"limit": plies.Limit(time=1.0)}, "not a time or node budget"),
        ({"limit": plies.Limit(nodes=100)}, "not a time or node budget"),
        ({"max_nodes": 0}, "max_nodes must be >= 1"),
        ({"threshold": 1.0}, "needs the 'bounded' algorithm"),
    ],
)
def test_bad_options(kwargs: dict[str, Any], message: str) -> None:
    game = load("aima-5-2")
    with pytest.raises(OptionError, match=message):
        capture(game, game.initial_state(), **kwargs)


# --- cross-checks on random trees ----------------------------------------------------------


def direct(tree: RandomTree, node: int, player: int) -> float:
    """Expectiminimax from its definition."""
    n = tree.nodes[node]
    if not n.children:
        return n.utilities[player]
    values = [direct(tree, c, player) for c in n.children]
    if n.mover == CHANCE:
        return sum(p * v for p, v in zip(n.probs, values, strict=True))
    return max(values) if n.mover == player else min(values)


def walk_states(game: RandomTree, tree: SearchTree) -> list[tuple[TreeNode, int]]:
    """Each captured node with the random tree's node id it stands for."""
    out, stack = [], [(tree.root, 0)]
    while stack:
        node, state = stack.pop()
        out.append((node, state))
        for child in node.children:
            assert child.action is not None
            stack.append((child, game.result(state, int(child.action))))
    return out


@SETTINGS
@given(st.integers(2, 3).flatmap(lambda k: random_trees(players=k)), st.integers(0, 2))
def test_minimax_capture_is_the_whole_tree_with_exact_values(
    game: RandomTree, who: int
) -> None:
    player = who % game.num_players
    tree = capture(game, 0, "minimax", player=player, max_nodes=10_000)
    pairs = walk_states(game, tree)
    assert len(pairs) == len(game.nodes) == tree.stats["nodes"]
    for node, state in pairs:
        assert node.value == direct(game, state, player)
        assert len(node.children) == len(game.nodes[state].children)
    assert tuple(pv_path(tree)) == tree.pv


@SETTINGS
@given(st.integers(2, 3).flatmap(lambda k: random_trees(players=k)), st.integers(0, 2))
def test_alphabeta_capture_honours_the_fail_soft_contract(
    game: RandomTree, who: int
) -> None:
    player = who % game.num_players
    tree = capture(game, 0, "alphabeta", player=player, max_nodes=10_000)
    assert tree.value == direct(game, 0, player)
    pairs = walk_states(game, tree)
    visited = [(n, s) for n, s in pairs if not n.pruned]
    assert len(visited) == tree.stats["nodes"]
    for node, state in visited:
        exact = direct(game, state, player)
        assert node.value is not None and node.alpha is not None and node.beta is not None
        if node.alpha < node.value < node.beta:
            assert node.value == exact
        elif node.value <= node.alpha:
            assert exact <= node.value
        else:
            assert exact >= node.value
        # Every child is either searched or pruned: none is silently missing.
        assert len(node.children) == len(game.nodes[state].children)
        stubs = [c for c in node.children if c.pruned]
        if stubs:  # the pruned ones are the last children, after the cut
            assert node.children[-len(stubs):] == stubs
            assert all(c.pruned_by == stubs[0].pruned_by for c in stubs)
            a, b = node.alpha, node.beta
            assert node.value >= b if node.kind == "max" else node.value <= a
    assert tuple(pv_path(tree)) == tree.pv


def test_reentered_root_starts_a_fresh_tree() -> None:
    """A search that deepens iteratively enters the root once per pass: keep the last."""
    game = load("tictactoe")
    tree = capture(game, game.initial_state(), "alphabeta", plies.Limit(depth=1))
    one_pass = tree.stats["drawn"]
    from plies.viz.capture import _Recorder

    recorder = _Recorder(game, 0, "alphabeta", 100, None)
    for depth in (1, 1):
        plies.alphabeta(game, game.initial_state(), plies.Limit(depth=depth), trace=recorder)
    assert sum(1 for _ in recorder.finish().walk()) == one_pass


# --- engine craft in the picture ----------------------------------------------------------


def reversed_order(state: Any, actions: Any) -> list[Any]:
    return list(reversed(actions))


def test_a_re_searched_child_is_drawn_once_with_its_visits() -> None:
    game = load("aima-5-2")
    tree = capture(game, game.initial_state(), "alphabeta", order=reversed_order, pvs=True)
    nodes = by_path(tree)
    b1 = nodes[("a1", "b1")]
    assert (b1.visits, b1.value, b1.alpha, b1.beta) == (2, 3.0, -math.inf, 8.0)
    assert "re-searched" in b1.notes
    assert nodes[("a1",)].notes == ["moves tried: b3 b2 b1"]
    assert [c.action for c in nodes[("a1",)].children] == ["b3", "b2", "b1"]
    assert tree.stats["visits"] == tree.stats["nodes"] == 13  # 11 nodes, 2 re-searches
    assert tree.stats["drawn"] == 13 and tree.stats["pruned"] == 2
    assert [n.id for n in tree.nodes()] == list(range(13))  # preorder, no gaps
    svg = tree.to_svg()
    assert 'class="node terminal revisited"' in svg and "searched 2\N{MULTIPLICATION SIGN}" in svg
    again = SearchTree.from_json(tree.to_json())
    assert by_path(again)[("a1", "b1")].notes == b1.notes
    assert "searched 2\N{MULTIPLICATION SIGN}" in tree.to_dot()


def test_a_node_the_table_settles_is_drawn_as_settled() -> None:
    game = load("tictactoe")
    tree = capture(game, game.initial_state(), "alphabeta", plies.Limit(depth=4),
                   tt=True, ordering=True)
    plain = plies.alphabeta(game, game.initial_state(), plies.Limit(depth=4), tt=True,
                            ordering=True)
    settled = [n for n in tree.nodes() if n.settled_by == "table"]
    assert settled and all(not n.children and n.value is not None for n in settled)
    assert all(any(note.startswith("table: ") for note in n.notes) for n in settled)
    assert (tree.value, tree.stats["nodes"]) == (plain.value, plain.stats.nodes)
    # Iterative deepening: the picture is the last pass (depth 4), the count is every pass.
    assert tree.stats["visits"] < tree.stats["nodes"]
    assert max(n.depth or 0 for n in tree.nodes()) == 4
    assert 'settled' in tree.to_svg()


def test_the_last_root_search_of_mtd_bi_is_drawn() -> None:
    game = load("nim", piles=(1, 2, 2))
    tree = capture(game, game.initial_state(), "alphabeta", tt=True, bisection=True)
    result = plies.alphabeta(game, game.initial_state(), tt=True, bisection=True)
    assert (tree.value, tree.stats["nodes"]) == (result.value, result.stats.nodes)
    assert tree.stats["visits"] < tree.stats["nodes"]
    assert tree.root.notes == ["searched in a window of one ulp each side of 1"]


def test_a_null_move_is_a_pass_child() -> None:
    from tests.search.test_narrate import full_tree

    game = full_tree(6)
    tree = capture(game, 0, "alphabeta", plies.Limit(depth=4), null_move=1, tt=True,
                   ordering=True, quiescence=1, extensions=True)
    passes = [n for n in tree.nodes() if n.action == "(pass)"]
    assert passes and all(not n.pruned for n in passes)
    cut = [n for n in tree.nodes() if n.pruned_by and n.pruned_by.startswith("null move")]
    assert cut
    SearchTree.from_json(tree.to_json())  # the pass survives a round trip
    tree.to_svg()


def test_star1_prunes_at_chance_nodes_in_the_picture() -> None:
    pig = load("pig", goal=5, max_turns=2)
    tree = capture(pig, pig.initial_state(), "expectiminimax", pruning="star2",
                   max_nodes=20_000)
    result = plies.expectiminimax(pig, pig.initial_state(), pruning="star2")
    assert tree.value == result.value
    stubs = [n for n in tree.nodes() if n.pruned_by and n.pruned_by.startswith("Star1")]
    assert stubs or any("Star2" in note for n in tree.nodes() for note in n.notes)
