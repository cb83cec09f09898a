"""Selective search in the one alpha-beta kernel, held to plain algorithms written here.

Quiescence inside the window must give exactly what :class:`plies.Quiescent` as the
evaluation gives; extensions exactly what a plain minimax that extends by the same rule
gives.  Null-move pruning, late-move reductions and singular extensions are forward
pruning (their values may differ from minimax): they must be ignored in exact searches,
refused where they cannot work, and never call a hook they were not asked to.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import plies
from plies.errors import OptionError
from plies.games import load
from plies.search.craft import EXTENSION_REACH, Craft
from tests.search.randomtree import (
    RandomTree,
    SelectiveTree,
    TreeNode,
    random_trees,
    selective_tree,
)

SETTINGS = settings(
    max_examples=150, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
ENGINE = {"tt": True, "ordering": True, "pvs": True}


def quiescent_minimax(tree: SelectiveTree, node: int, player: int, q: int) -> float:
    """The stand-pat value by its definition (paranoid): evaluation or a noisy move."""
    n = tree.nodes[node]
    if not n.children:
        return n.utilities[player]
    options = [n.heuristic[player]]
    if q > 0:
        options.append(quiescent_minimax(tree, n.children[0], player, q - 1))
    return max(options) if n.mover == player else min(options)


def extended_minimax(
    tree: SelectiveTree, node: int, player: int, depth: int, limit: int, ply: int, q: int | None
) -> float:
    """Paranoid minimax to ``limit`` plies, a child the hook names one ply deeper while
    ``ply`` is below ``EXTENSION_REACH * limit`` (the root's children never: the root is
    searched by the driver), scored by quiescence ``q`` (None: the evaluation)."""
    n = tree.nodes[node]
    if not n.children:
        return n.utilities[player]
    if depth >= limit:
        return n.heuristic[player] if q is None else quiescent_minimax(tree, node, player, q)
    values = []
    for action, child in enumerate(n.children):
        extend = ply > 0 and ply < EXTENSION_REACH * limit and tree.extension(node, action, child)
        values.append(extended_minimax(
            tree, child, player, depth + 1 - (1 if extend else 0), limit, ply + 1, q
        ))
    return max(values) if n.mover == player else min(values)


@SETTINGS
@given(st.integers(2, 3).flatmap(lambda k: random_trees(players=k)), st.integers(1, 4),
       st.integers(0, 3), st.sampled_from([{}, ENGINE, {"tt": True, "ordering": True}]))
def test_quiescence_in_the_window_is_quiescent_as_the_evaluation(
    tree: RandomTree, depth: int, q: int, switches: dict[str, Any]
) -> None:
    game = selective_tree(tree)
    limit = plies.Limit(depth=depth)
    expected = plies.minimax(plies.Quiescent(game, depth=q), 0, limit)
    got = plies.alphabeta(game, 0, limit, quiescence=q, **switches)
    assert (got.value, got.action) == (expected.value, expected.action)
    assert got.stats.seldepth <= depth + q


@SETTINGS
@given(st.integers(2, 3).flatmap(lambda k: random_trees(players=k, max_height=6)),
       st.integers(1, 3), st.sampled_from([None, 0, 2]),
       st.sampled_from([{}, ENGINE, {"tt": True, "ordering": True}]))
def test_extensions_search_what_an_extending_minimax_searches(
    tree: RandomTree, depth: int, q: int | None, switches: dict[str, Any]
) -> None:
    game = selective_tree(tree)
    got = plies.alphabeta(
        game, 0, plies.Limit(depth=depth), extensions=True, quiescence=q, **switches
    )
    assert got.value == extended_minimax(game, 0, got.player, 0, depth, 0, q)


@SETTINGS
@given(random_trees(max_height=4))
def test_forward_pruning_is_ignored_by_an_exact_search(tree: RandomTree) -> None:
    game = selective_tree(tree)
    expected = plies.minimax(game, 0)
    got = plies.alphabeta(
        game, 0, quiescence=2, extensions=True, null_move=2, reductions=True, singular=1.0,
        **ENGINE,
    )
    assert (got.value, got.action, got.exact) == (expected.value, expected.action, True)
    assert game.passes == 0  # never even asked


@pytest.mark.parametrize(
    ("switches", "message"),
    [
        ({"extensions": True}, "extensions needs the game's extension hook; tictactoe has none"),
        ({"null_move": 2}, "null_move needs the game's null_move hook"),
        ({"reductions": True}, "reductions needs the game's is_quiet hook"),
        ({"singular": 10.0}, "singular extensions test the table.s move: they need tt"),
    ],
)
def test_a_switch_the_game_cannot_serve_is_refused(
    switches: dict[str, Any], message: str
) -> None:
    ttt = load("tictactoe")
    with pytest.raises(OptionError, match=message):
        plies.alphabeta(ttt, ttt.initial_state(), plies.Limit(depth=2), **switches)


def test_selective_switches_are_refused_in_rounds() -> None:
    game = load("civ")
    with pytest.raises(OptionError, match="count plies: search with unit='ply'"):
        plies.alphabeta(
            game, game.initial_state(), plies.Limit(depth=1, unit="round"), quiescence=1,
            **ENGINE,
        )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"quiescence": -1}, "quiescence must be a whole number >= 0"),
        ({"null_move": 0}, "null_move must be a whole number >= 1"),
        ({"null_move": True}, "null_move must be a whole number >= 1"),
        ({"singular": 0}, "singular must be a positive margin"),
        ({"singular": "wide"}, "singular must be a positive margin"),
    ],
)
def test_bad_selective_values_are_one_line_errors(options: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        Craft(**options)


def test_craft_lists_its_selective_switches() -> None:
    craft = Craft(tt=True, quiescence=4, null_move=2)
    assert craft.selective == ("quiescence", "null_move")
    assert "quiescence" in craft.switches and craft.engine


def test_the_engine_layer_turns_on_what_the_game_has_hooks_for() -> None:
    from plies.policy import SearchRequest, plan, selective_craft

    chess = load("chess")
    craft = selective_craft(chess, singular=50)
    request = SearchRequest(limit=plies.Limit(depth=3), engine=True, craft=craft)
    chosen = plan(chess, chess.initial_state(), request)
    assert {"quiescence", "extensions", "singular", "null_move", "reductions"} <= set(
        chosen.options
    )
    exact = plan(chess, chess.initial_state(), SearchRequest(engine=True, craft=craft))
    assert "null_move" not in exact.options  # an exact search has no horizon
    with pytest.raises(OptionError, match="need the engine's alpha-beta"):
        plan(chess, chess.initial_state(), SearchRequest(limit=plies.Limit(depth=2), craft=craft))
    with pytest.raises(OptionError, match="unknown engine option 'nul_move'"):
        plan(chess, chess.initial_state(), SearchRequest(engine=True, craft={"nul_move": 2}))


@SETTINGS
@given(random_trees(max_height=6, max_branching=4), st.integers(5, 120))
def test_an_interrupted_engine_pass_keeps_a_root_move_it_proved_better(
    tree: RandomTree, nodes: int
) -> None:
    """A playing engine (any selective switch) stopped in pass d+1 returns the move that
    pass proved better than pass d's best: worth more at depth d+1, by plain minimax."""
    game = selective_tree(tree)
    done: list[plies.SearchResult] = []
    got = plies.alphabeta(
        game, 0, plies.Limit(depth=6, nodes=nodes), quiescence=0, on_iteration=done.append,
        **ENGINE,
    )
    if not (got.stopped and done and got.action != done[-1].action):
        return
    deeper = plies.Limit(depth=done[-1].stats.depth + 1)
    values = plies.analyze(plies.Quiescent(game, depth=0), 0, deeper).action_values
    assert values is not None
    sign = 1 if tree.nodes[0].mover == got.player else -1
    assert sign * values[got.action] > sign * values[done[-1].action]


def test_a_stopped_engine_plays_the_better_move_its_last_pass_had_proved() -> None:
    """Depth 1 prefers A (evaluation 5); depth 2 finds A worth 0 and B worth 3, then runs
    out of nodes inside C: the engine plays B, a plain search would play A."""
    leaf = [TreeNode(0, utilities=(u, -u)) for u in (0.0, 2.0, 3.0, 4.0, 9.0, 9.0, 9.0)]
    inner = [
        TreeNode(1, children=[4, 5], heuristic=(5.0, -5.0)),
        TreeNode(1, children=[6, 7], heuristic=(1.0, -1.0)),
        TreeNode(1, children=[8, 9, 10], heuristic=(0.0, 0.0)),
    ]
    root = TreeNode(0, children=[1, 2, 3], heuristic=(0.0, 0.0))
    tree = selective_tree(RandomTree([root, *inner, *leaf], 2, True))
    moves = set()
    for nodes in range(4, 12):
        done: list[plies.SearchResult] = []
        got = plies.alphabeta(tree, 0, plies.Limit(depth=2, nodes=nodes), quiescence=0,
                              on_iteration=done.append, **ENGINE)
        plain = plies.alphabeta(tree, 0, plies.Limit(depth=2, nodes=nodes), **ENGINE)
        if got.stopped and done:
            moves.add(got.action)
            assert plain.action == 0  # the last completed pass's move
        # Regression: analyze kept the interrupted pass's move, which has no move values.
        every = plies.analyze(tree, 0, plies.Limit(depth=2, nodes=nodes), quiescence=0,
                              tt=True, ordering=True)
        assert every.action_values is not None and every.action in every.action_values
    assert moves == {0, 1}  # A until B was proved better, then B


def test_an_interrupted_plain_search_still_returns_its_last_completed_pass() -> None:
    ttt = load("tictactoe")
    done: list[plies.SearchResult] = []
    got = plies.alphabeta(ttt, ttt.initial_state(), plies.Limit(depth=9, nodes=3000),
                          on_iteration=done.append, **ENGINE)
    assert got.stopped and got.action == done[-1].action and got.value == done[-1].value
