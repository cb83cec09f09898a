"""Monte Carlo tree search (UCT): finds won moves, reproducible, budgets, chance, N players."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from hypothesis import given, settings

import plies
from plies.errors import OptionError
from plies.games import load
from plies.gdl import load_game
from plies.search.limits import CHECK_MOST
from plies.search.mcts import ITERATIONS, Node, final_choice, mcts
from plies.search.registry import algorithm
from tests.data import GDL_DATA
from tests.search.randomtree import RandomTree, TreeNode, random_trees


def play(game: Any, *actions: Any) -> Any:
    state = game.initial_state()
    for a in actions:
        state = game.result(state, a)
    return state


def test_it_takes_the_immediate_win_in_tictactoe() -> None:
    ttt = load("tictactoe")
    state = play(ttt, 0, 3, 1, 4)  # X on 0 and 1, O threatens 5: X wins at 2
    result = mcts(ttt, state, plies.Limit(nodes=2000), seed=1, solver=False)
    assert result.action == 2
    assert result.pv[0] == 2
    assert result.value > 0.9 and not result.exact and not result.stopped
    assert result.player == 0


def test_the_solver_proves_the_immediate_win_and_stops() -> None:
    ttt = load("tictactoe")
    state = play(ttt, 0, 3, 1, 4)
    result = mcts(ttt, state, plies.Limit(nodes=2000), seed=1)
    assert result.exact and result.value == 1 and result.pv == (2,)
    assert result.stats.nodes < 2000 and not result.stopped


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_it_finds_the_winning_nim_move(seed: int) -> None:
    nim = load("nim", piles=(1, 2, 4))  # nim-sum 7: only taking 1 from the 4 wins
    state = nim.initial_state()
    exact = plies.analyze(nim, state)
    winning = [a for a, v in (exact.action_values or {}).items() if v == 1]
    assert len(winning) == 1
    result = mcts(nim, state, plies.Limit(nodes=5000), seed=seed, solver=False)
    assert result.action == winning[0] and not result.exact
    proven = mcts(nim, state, plies.Limit(nodes=5000), seed=seed)
    assert proven.exact and proven.action == winning[0] and proven.value == exact.value


@settings(max_examples=60, deadline=None)
@given(random_trees(chance=True))
def test_a_proven_value_is_the_expectiminimax_value(tree: RandomTree) -> None:
    root = tree.initial_state()
    result = mcts(tree, root, plies.Limit(nodes=2000), player=0, seed=2)
    if result.exact:
        assert result.value == pytest.approx(plies.expectiminimax(tree, root, player=0).value)


@settings(max_examples=60, deadline=None)
@given(random_trees(players=3))
def test_without_chance_every_small_tree_is_proven(tree: RandomTree) -> None:
    # UCB revisits every unproven child, so a budget well above the tree's size proves it
    # (each iteration expands one node, or walks to a proven one).  Only at a rate of
    # ln(N), though, next to a solved child that scores its exact reward without a bonus:
    # a three-player tree of 64 nodes with a solved top-reward child at the root needed
    # 3,523 iterations (55 a node), so the budget is 200 a node.
    root = tree.initial_state()
    result = mcts(tree, root, plies.Limit(nodes=200 * len(tree.nodes)), player=0, seed=2)
    assert result.exact and not result.stopped
    assert result.value == pytest.approx(plies.maxn(tree, root, player=0).value)


def test_a_top_reward_child_first_in_order_proves_a_three_player_parent() -> None:
    # Hypothesis's tree: the root's first child gives its mover (player 1) the top reward.
    # UCB kept choosing it, its sibling was visited ln N times and never solved, and the
    # root stayed unproven after 20,000 iterations.  A top-reward child with no unsolved
    # sibling before it decides max^n's choice, in any game with bounded utilities.
    def node(mover: int, children: list[int], utilities: tuple[float, ...] = ()) -> TreeNode:
        return TreeNode(mover=mover, children=children, probs=[], utilities=utilities,
                        heuristic=() if utilities else (0.0, 0.0, 0.0))

    zero = (0.0, 0.0, 0.0)
    tree = RandomTree(players=3, zero_sum=False, nodes=[
        node(1, [1, 2]), node(0, [], (0.0, 3.0, 0.0)), node(0, [3, 10]), node(0, [4]),
        node(0, [5, 6, 9]), node(0, [], zero), node(0, [7, 8]), node(0, [], zero),
        node(0, [], zero), node(0, [], zero), node(0, [], (3.0, 0.0, 0.0)),
    ])
    root = tree.initial_state()
    result = mcts(tree, root, plies.Limit(nodes=200 * len(tree.nodes)), player=0, seed=2)
    assert result.exact and not result.stopped
    assert result.value == plies.maxn(tree, root, player=0).value == 0.0
    assert result.action == plies.maxn(tree, root, player=0).action


def test_a_seeded_search_is_reproducible_and_seeds_differ() -> None:
    c4 = load("connect4")
    state = c4.initial_state()
    runs = [mcts(c4, state, plies.Limit(nodes=300), seed=7, all_values=True) for _ in range(2)]
    a, b = runs
    assert (a.value, a.action, a.pv, a.action_values) == (b.value, b.action, b.pv, b.action_values)
    other = [mcts(c4, state, plies.Limit(nodes=300), seed=s, all_values=True) for s in range(4)]
    assert len({tuple(sorted((r.action_values or {}).items())) for r in other}) > 1


def test_the_node_budget_counts_iterations_exactly() -> None:
    ttt = load("tictactoe")
    result = mcts(ttt, ttt.initial_state(), plies.Limit(nodes=137))
    assert result.stats.nodes == 137
    assert result.stats.leaves + result.stats.evals == 137  # every playout ends somewhere
    assert not result.stopped


def test_without_a_budget_it_runs_the_default_iterations() -> None:
    ttt = load("tictactoe")
    assert mcts(ttt, ttt.initial_state(), solver=False).stats.nodes == ITERATIONS


def test_a_set_stop_signal_ends_the_search_with_a_legal_move() -> None:
    ttt = load("tictactoe")
    stop = threading.Event()
    stop.set()
    result = mcts(ttt, ttt.initial_state(), stop=stop)
    assert result.stopped and result.stats.nodes < ITERATIONS
    assert result.action in ttt.actions(ttt.initial_state())


def test_a_stop_from_on_iteration_ends_the_search_at_the_next_look() -> None:
    ttt = load("tictactoe")
    stop = threading.Event()
    seen: list[int] = []

    def on_iteration(r: plies.SearchResult) -> None:
        seen.append(r.stats.nodes)
        stop.set()

    result = mcts(ttt, ttt.initial_state(), stop=stop, on_iteration=on_iteration, solver=False)
    # The next look comes at most CHECK_MOST iterations later; the end is reported unless
    # it is the iteration just reported.
    assert seen[0] == 1024 and seen[-1] == result.stats.nodes and len(seen) <= 2
    assert result.stopped and 1024 <= result.stats.nodes <= 1024 + CHECK_MOST


def test_iterations_report_every_doubling_and_the_end() -> None:
    ttt = load("tictactoe")
    got = list(plies.iterations(ttt, ttt.initial_state(), plies.Limit(nodes=5000),
                                algorithm="mcts", solver=False))
    assert [r.stats.nodes for r in got] == [1024, 2048, 4096, 5000]


def test_chance_nodes_are_sampled_in_pig() -> None:
    pig = load("pig", goal=4, max_turns=2)
    state = pig.initial_state()
    result = mcts(pig, state, plies.Limit(nodes=3000), seed=3, all_values=True)
    lo, hi = pig.utility_range
    assert result.action in pig.actions(state)
    assert lo <= result.value <= hi
    assert set(result.action_values or {}) == set(pig.actions(state))
    # Rolling is right at the start; the estimate agrees with expectiminimax's choice.
    exact = plies.expectiminimax(pig, state)
    assert result.action == exact.action


def test_a_chance_root_has_no_action_and_its_mean_as_value() -> None:
    pig = load("pig", goal=4, max_turns=2)
    state = play(pig, "roll")
    assert pig.to_move(state) == plies.CHANCE
    result = mcts(pig, state, plies.Limit(nodes=200), player=0)
    assert result.action is None and result.pv == ()
    assert pig.utility_range[0] <= result.value <= pig.utility_range[1]


def test_three_players_each_maximise_their_own_reward() -> None:
    civ = load("civ")
    state = civ.initial_state()
    result = mcts(civ, state, plies.Limit(nodes=400), seed=0)
    lo, hi = civ.utility_range
    assert civ.num_players == 3
    assert result.action in civ.actions(state)
    assert lo <= result.value <= hi


@settings(max_examples=40, deadline=None)
@given(random_trees(players=3, chance=True))
def test_random_trees_give_legal_lines_and_values_in_range(tree: RandomTree) -> None:
    root = tree.initial_state()
    result = mcts(tree, root, plies.Limit(nodes=60), player=0, seed=5)
    lo, hi = tree.utility_range
    assert lo - 1e-9 <= result.value <= hi + 1e-9
    state = root
    for action in result.pv:
        assert action in tree.actions(state)
        state = tree.result(state, action)
    assert result.stats.nodes <= 60


def test_a_terminal_root_is_exact() -> None:
    ttt = load("tictactoe")
    state = play(ttt, 0, 3, 1, 4, 2)
    result = mcts(ttt, state, plies.Limit(nodes=10), player=0)  # X won
    assert result.exact and result.action is None and result.value == 1


def test_bad_options_are_refused_in_one_line() -> None:
    ttt = load("tictactoe")
    with pytest.raises(OptionError, match="not a depth"):
        mcts(ttt, ttt.initial_state(), plies.Limit(depth=3))
    with pytest.raises(OptionError, match="exploration must be >= 0"):
        mcts(ttt, ttt.initial_state(), exploration=-1)
    with pytest.raises(OptionError, match="cannot be traced"):
        mcts(ttt, ttt.initial_state(), trace=print)


def test_the_registry_and_analyze_run_it() -> None:
    ttt = load("tictactoe")
    state = play(ttt, 0, 3, 1, 4)
    entry = algorithm("mcts")
    assert entry.chance and entry.simultaneous and not entry.exact
    got = plies.analyze(ttt, state, plies.Limit(nodes=1500), algorithm="mcts", playout=50)
    assert got.action == 2 and got.action_values is not None
    assert max(got.action_values, key=got.action_values.__getitem__) == 2


def test_an_agent_spec_plays_it() -> None:
    from plies.tournament.agents import parse_agent

    ttt = load("tictactoe")
    spec = parse_agent("mcts:nodes=500")
    spec.check(ttt)
    action, nodes = spec.choose(ttt, play(ttt, 0, 3, 1, 4), 0, seed=1)
    assert action == 2 and nodes == 0  # the decisive-move scan proves the win at once


def _child(visits: int, totals: list[float], proof: list[float] | None = None) -> Node:
    return Node(None, 1, proof is not None, visits=visits, totals=totals, proof=proof)


def test_the_final_choice_never_plays_a_proven_loss_for_its_visits() -> None:
    root = Node(None, 0, False, moves=("a", "b", "c"), visits=90)
    root.children = {
        0: _child(60, [30.0, 30.0], proof=[0.0, 1.0]),  # most visited, then proven lost
        1: _child(20, [6.0, 14.0]),  # mean 0.3 for the mover
        2: _child(10, [2.0, 8.0]),
    }
    assert final_choice(root) == 1
    root.children[2] = _child(10, [5.0, 5.0], proof=[0.5, 0.5])  # a proven draw beats 0.3
    assert final_choice(root) == 2
    root.children[1] = _child(20, [12.0, 8.0])  # mean 0.6: better than the draw on average
    assert final_choice(root) == 1


def test_the_final_choice_plays_a_top_reward_child_in_a_three_player_game() -> None:
    # Three players: a child with the mover's top reward proves nothing about the others'
    # rewards (max^n's tie rule), so the root stays unsolved; it is still the move to play.
    root = Node(None, 0, False, moves=("a", "b"), visits=51)
    root.children = {0: _child(50, [45.0, 2.0, 3.0]), 1: _child(1, [1.0, 0.0, 0.0], [1, 0, 0])}
    assert final_choice(root) == 1


def test_the_decisive_move_scan_finds_a_win_before_any_iteration() -> None:
    # GDL tic-tac-toe does not declare zero_sum, so a won child proves nothing about the
    # root; with one iteration MCTS still plays the winning (mark 3 1) of the column 1-2.
    ttt = load_game(GDL_DATA / "ticTacToe.kif")
    state = ttt.initial_state()
    for move in ("mark 1 1", "mark 1 2", "mark 2 1", "mark 2 2"):
        state = ttt.result(state, ttt.parse_action(state, move))
    result = mcts(ttt, state, plies.Limit(nodes=1), seed=0)
    assert ttt.format_action(state, result.action) == "(mark 3 1)" and result.value == 100
    assert result.stats.nodes == 1


def _gdl_position(game: Any, *moves: str) -> Any:
    state = game.initial_state()
    for move in moves:
        state = game.result(state, game.parse_action(state, move))
    return state


def test_the_anti_decisive_scan_blocks_a_threat_with_one_iteration() -> None:
    # O (2 2), (1 3) threatens the diagonal at (3 1); X has no win: every other move loses.
    ttt = load_game(GDL_DATA / "ticTacToe.kif")
    state = _gdl_position(ttt, "mark 1 1", "mark 2 2", "mark 1 2", "mark 1 3")
    for seed in range(3):
        result = mcts(ttt, state, plies.Limit(nodes=1), seed=seed, all_values=True)
        assert ttt.format_action(state, result.action) == "(mark 3 1)"
        assert list(result.action_values or {}) == [result.action]  # the rest: not searched
    plain = [mcts(ttt, state, plies.Limit(nodes=1), seed=s, solver=False).action
             for s in range(6)]
    assert len(set(plain)) > 1  # without the scan one iteration is a random move


def test_when_every_move_loses_at_once_they_are_all_searched() -> None:
    # X on 1, 3, 5; O on 0, 4, 2 threatens both 8 and 6: every X move (6, 7, 8) loses.
    ttt = load("tictactoe")
    state = play(ttt, 1, 0, 3, 4, 5, 2)
    result = mcts(ttt, state, plies.Limit(nodes=30), seed=0, all_values=True)
    assert result.action in (6, 7, 8)
    assert sorted(result.action_values or {}) == [6, 7, 8]
    assert result.exact and result.value == -1  # and the solver proves the loss


def test_selection_skips_the_moves_the_anti_decisive_scan_left_out() -> None:
    # Regression: select() looked up every action's child and raised KeyError once the
    # root's remaining moves were all expanded and the left-out ones had no child.
    ttt = load_game(GDL_DATA / "ticTacToe.kif")
    state = _gdl_position(ttt, "mark 1 1", "mark 2 2", "mark 1 2", "mark 1 3")
    result = mcts(ttt, state, plies.Limit(nodes=300), seed=0)
    assert ttt.format_action(state, result.action) == "(mark 3 1)"
    assert result.stats.nodes == 300 or result.exact
