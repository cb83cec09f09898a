"""Limits, budgets, tie rules, unsupported nodes and trace events of the search family."""

from __future__ import annotations

import pytest

import plies
from plies.game import CHANCE
from plies.search.common import TraceEvent
from tests.search.randomtree import RandomTree, TreeNode


def chain_tree() -> RandomTree:
    """MAX chooses between a MIN node over (3, 12, 8) and one over (2, 4, 6)."""
    nodes = [
        TreeNode(0, [1, 5], heuristic=(0.0, 0.0)),
        TreeNode(1, [2, 3, 4], heuristic=(5.0, -5.0)),
        TreeNode(0, utilities=(3.0, -3.0)),
        TreeNode(0, utilities=(12.0, -12.0)),
        TreeNode(0, utilities=(8.0, -8.0)),
        TreeNode(1, [6, 7, 8], heuristic=(1.0, -1.0)),
        TreeNode(0, utilities=(2.0, -2.0)),
        TreeNode(0, utilities=(4.0, -4.0)),
        TreeNode(0, utilities=(6.0, -6.0)),
    ]
    return RandomTree(nodes, 2, True)


def test_limit_rejects_nonsense() -> None:
    with pytest.raises(plies.OptionError, match="depth must be >= 0"):
        plies.Limit(depth=-1)
    with pytest.raises(plies.OptionError, match="unknown depth unit 'turn'"):
        plies.Limit(depth=1, unit="turn")  # type: ignore[arg-type]
    for seconds in (0, -1, float("nan"), float("inf"), 1e309):
        with pytest.raises(plies.OptionError, match="time must be a finite number of seconds > 0"):
            plies.Limit(time=seconds)
    with pytest.raises(plies.OptionError, match="nodes must be >= 1"):
        plies.Limit(nodes=0)


def test_unknown_tie_rule_lists_the_known_ones() -> None:
    with pytest.raises(plies.OptionError, match="use one of: first, random"):
        plies.minimax(chain_tree(), 0, tie="best")


def test_unknown_player_is_refused() -> None:
    with pytest.raises(plies.OptionError, match=r"players are 0\.\.1"):
        plies.alphabeta(chain_tree(), 0, player=2)


def test_depth_limit_scores_the_frontier_with_evaluate() -> None:
    tree = chain_tree()
    r = plies.minimax(tree, 0, plies.Limit(depth=1))
    assert (r.value, r.action, r.exact) == (5.0, 0, False)
    assert r.stats.evals == 2
    assert plies.minimax(tree, 0).exact


def test_node_budget_deepens_until_exact() -> None:
    tree = chain_tree()
    r = plies.alphabeta(tree, 0, plies.Limit(nodes=1_000))
    assert (r.value, r.action, r.exact, r.stats.depth) == (3.0, 0, True, 2)


def test_node_budget_too_small_falls_back_to_the_first_action() -> None:
    r = plies.alphabeta(chain_tree(), 0, plies.Limit(nodes=2))
    assert r.action == 0
    assert not r.exact
    assert r.stats.depth == 0


def test_time_budget_returns_a_completed_iteration() -> None:
    r = plies.minimax(chain_tree(), 0, plies.Limit(time=5.0))
    assert (r.value, r.exact) == (3.0, True)


def test_minimax_refuses_chance_nodes_and_names_the_cure() -> None:
    nodes = [
        TreeNode(CHANCE, [1, 2], probs=[0.5, 0.5]),
        TreeNode(0, utilities=(1.0, -1.0)),
        TreeNode(0, utilities=(3.0, -3.0)),
    ]
    tree = RandomTree(nodes, 2, True)
    for search in (plies.minimax, plies.alphabeta, plies.bounded_minimax):
        with pytest.raises(plies.UnsupportedGameError, match="use expectiminimax"):
            search(tree, 0, player=0)
    assert plies.expectiminimax(tree, 0, player=0).value == 2.0
    with pytest.raises(plies.UnsupportedGameError, match="pass player="):
        plies.expectiminimax(tree, 0)


def test_terminal_root_has_no_action() -> None:
    tree = chain_tree()
    r = plies.alphabeta(tree, 2, player=0)
    assert (r.value, r.action, r.pv) == (3.0, None, ())


def test_alphabeta_trace_shows_the_textbook_prune() -> None:
    events: list[TraceEvent] = []
    r = plies.alphabeta(chain_tree(), 0, trace=events.append)
    assert r.value == 3.0
    prunes = [e for e in events if e.kind == "prune"]
    assert len(prunes) == 1
    assert prunes[0].path == (1,) and prunes[0].pruned == (1, 2)
    assert (prunes[0].alpha, prunes[0].beta) == (3.0, 2.0)
    kinds = [e.kind for e in events if e.path == ()]
    assert kinds == ["enter", "expand", "backup"]
    assert [e.kind for e in events if e.path == (0, 0)] == ["enter", "terminal"]


def test_minimax_trace_visits_every_node_in_order() -> None:
    events: list[TraceEvent] = []
    plies.minimax(chain_tree(), 0, trace=events.append)
    entered = [e.path for e in events if e.kind == "enter"]
    assert entered == [(), (0,), (0, 0), (0, 1), (0, 2), (1,), (1, 0), (1, 1), (1, 2)]
    backups = {e.path: e.value for e in events if e.kind == "backup"}
    assert backups == {(0,): 3.0, (1,): 2.0, (): 3.0}


def test_bounded_minimax_stops_at_the_top_of_the_range() -> None:
    nodes = [
        TreeNode(0, [1, 2, 3]),
        TreeNode(0, utilities=(0.0, 0.0)),
        TreeNode(0, utilities=(1.0, -1.0)),
        TreeNode(0, utilities=(1.0, -1.0)),
    ]
    tree = RandomTree(nodes, 2, True)
    bounded = plies.bounded_minimax(tree, 0)
    plain = plies.minimax(tree, 0)
    assert (bounded.value, bounded.action) == (plain.value, plain.action) == (1.0, 1)
    assert bounded.stats.nodes == 3 < plain.stats.nodes


def test_searches_from_the_other_players_point_of_view() -> None:
    tree = chain_tree()
    r = plies.minimax(tree, 0, player=1)
    assert r.value == -3.0
    assert r.action == 0  # MAX (player 0) still picks its best move


def test_expectimax_with_modelled_opponents_respects_the_depth_limit() -> None:
    """Issue 10, bug 7.1: it searched all 549,946 nodes of tic-tac-toe at any depth."""
    ttt = plies.games.load("tictactoe")
    ghosts = plies.OpponentsAsChance(ttt, players=[1])
    s0 = ttt.initial_state()
    cases = (("round", 1, 82), ("round", 2, 3_610), ("ply", 1, 10), ("ply", 2, 82))
    for unit, depth, nodes in cases:
        limit = plies.Limit(depth=depth, unit=unit)  # type: ignore[arg-type]
        r = plies.expectiminimax(ghosts, s0, limit)
        assert r.stats.nodes == nodes == plies.minimax(ttt, s0, limit).stats.nodes
        assert not r.exact
        # Star1 prunes (in rounds too) but cuts off at the same depth.
        pruned = plies.expectiminimax(ghosts, s0, limit, pruning=True)
        assert pruned.stats.nodes <= nodes and pruned.stats.seldepth == r.stats.seldepth
        assert (pruned.value, pruned.action, pruned.exact) == (r.value, r.action, False)
    # Two plies: MAX moves, the modelled opponent replies, then evaluate (9 x 8 leaves);
    # before, the reply did not count and MAX's second move was searched too.
    two_plies = plies.expectiminimax(ghosts, s0, plies.Limit(depth=2))
    assert two_plies.stats.evals == 72
    assert len(two_plies.pv) == 1  # the line stops at the chance node: MAX's move only


def rogue_tree(mover: int) -> RandomTree:
    """MAX chooses between a leaf and a node whose ``to_move`` is ``mover``."""
    nodes = [
        TreeNode(0, [1, 2]),
        TreeNode(0, utilities=(1.0, -1.0)),
        TreeNode(mover, [3, 4], probs=[0.5, 0.5]),
        TreeNode(0, utilities=(2.0, -2.0)),
        TreeNode(0, utilities=(3.0, -3.0)),
    ]
    return RandomTree(nodes, 2, True)


@pytest.mark.parametrize("mover", [2, 7, -3])
@pytest.mark.parametrize("traced", [False, True])
def test_a_to_move_that_names_no_player_is_an_error_not_a_minimiser(
    mover: int, traced: bool
) -> None:
    tree = rogue_tree(mover)
    trace = (lambda event: None) if traced else None
    searches = [plies.minimax, plies.expectiminimax, plies.bounded_minimax, plies.maxn]
    searches += [plies.simultaneous, plies.alphabeta]
    for search in searches:
        with pytest.raises(
            plies.UnsupportedGameError,
            match=rf"to_move returned {mover}, which is not a player \(players are 0\.\.1\)",
        ):
            search(tree, 0, trace=trace)
    with pytest.raises(plies.UnsupportedGameError, match="not a player"):
        plies.minimax(tree, 2)  # the root itself: no player to search for
