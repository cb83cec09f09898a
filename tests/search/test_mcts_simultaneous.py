"""MCTS at simultaneous nodes (decoupled UCT, regret matching), the solver there, and
tree reuse (:class:`plies.search.mcts.MctsTree`)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import plies
from plies.errors import OptionError
from plies.game import SIMULTANEOUS
from plies.games import load
from plies.games.matrix import MatrixGame
from plies.gdl import load_game
from plies.gdl.terms import to_kif
from plies.search.mcts import MctsTree, mcts
from plies.search.mcts_tree import own_strategy
from plies.search.registry import algorithm
from plies.search.simultaneous import simultaneous, solve_matrix_game
from tests.data import GDL_DATA

# A 2x2 zero-sum game without a saddle point: row plays (3/7, 4/7), column (2/7, 5/7).
SKEWED = [[3, -1], [-2, 1]]
# Rock-paper-scissors where rock's win pays 2: the equilibrium is (1/4, 1/2, 1/4).
BIASED_RPS = [[0, -1, 2], [1, 0, -1], [-2, 1, 0]]


def _matrix(payoffs: list[list[int]]) -> MatrixGame:
    rows = [f"r{i}" for i in range(len(payoffs))]
    columns = [f"c{j}" for j in range(len(payoffs[0]))]
    return MatrixGame(rows, columns, payoffs, name="test-matrix")


def _strategies(tree: MctsTree) -> list[list[float]]:
    return [own_strategy(tree.root, p) for p in range(2)]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_decoupled_uct_plays_rock_paper_scissors_uniformly(seed: int) -> None:
    rps = load("rps")
    result = mcts(rps, rps.initial_state(), plies.Limit(nodes=3000), player=0, seed=seed)
    assert result.strategy is not None and set(result.strategy) == {"rock", "paper", "scissors"}
    assert all(abs(p - 1 / 3) < 0.05 for p in result.strategy.values())
    assert result.action in rps.player_actions(rps.initial_state(), 0)
    assert abs(result.value) < 0.2 and not result.exact
    assert len(result.pv) == 1 and len(result.pv[0]) == 2  # a joint action


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_decoupled_uct_approaches_the_mixed_equilibrium_of_a_skewed_game(seed: int) -> None:
    game = _matrix(SKEWED)
    exact = solve_matrix_game(SKEWED)
    tree = MctsTree(game, game.initial_state(), seed=seed)
    tree.search(plies.Limit(nodes=3000), player=0)
    row, column = _strategies(tree)
    assert row[0] == pytest.approx(exact.row[0], abs=0.1)
    assert column[0] == pytest.approx(exact.column[0], abs=0.1)


@pytest.mark.parametrize(("selection", "seed"), [("ucb", 0), ("ucb", 1), ("rm", 0), ("rm", 1)])
def test_biased_rock_paper_scissors_comes_close_to_its_equilibrium(
    selection: str, seed: int
) -> None:
    game = _matrix(BIASED_RPS)
    exact = solve_matrix_game(BIASED_RPS)
    tree = MctsTree(game, game.initial_state(), seed=seed, selection=selection)
    result = tree.search(plies.Limit(nodes=30000), player=1)
    for strategy in _strategies(tree):
        for p, q in zip(strategy, exact.row, strict=True):
            assert p == pytest.approx(q, abs=0.08)
    assert result.strategy is not None
    assert list(result.strategy.values()) == pytest.approx(_strategies(tree)[1])


def test_decoupled_uct_in_a_symmetric_game_does_not_choose_in_lockstep() -> None:
    # Regression: with pure UCB1 both players of biased rock-paper-scissors had the
    # same statistics, so they chose the same action every time: only the three draws
    # were ever expanded and the strategy stayed uniform (1/3 each instead of 1/4,
    # 1/2, 1/4).  A small share of uniformly random choices (UCB_MIX) breaks the tie.
    game = _matrix(BIASED_RPS)
    tree = MctsTree(game, game.initial_state(), seed=0)
    tree.search(plies.Limit(nodes=2000), player=0)
    assert len(tree.root.children) == 9


def test_goofspiel_values_come_close_to_the_stage_game_solution() -> None:
    goof = load("goofspiel", cards=3)
    state = goof.initial_state()
    exact = simultaneous(goof, state, player=0).value
    for selection in ("ucb", "rm"):
        result = mcts(goof, state, plies.Limit(nodes=4000), player=0, seed=1,
                      selection=selection)
        lo, hi = goof.utility_range
        assert abs(result.value - exact) < 0.25 * (hi - lo), selection
        assert result.action in goof.player_actions(state, 0)


def test_a_simultaneous_node_is_never_solved_even_when_all_its_children_are() -> None:
    # Every joint action of one round of rock-paper-scissors ends the game: the nine
    # children are solved, but the root's value is the stage game's equilibrium, which
    # the solver's max rule cannot give.
    rps = load("rps")
    tree = MctsTree(rps, rps.initial_state(), seed=0)
    result = tree.search(plies.Limit(nodes=500), player=0)
    assert len(tree.root.children) == 9
    assert all(c.proof is not None for c in tree.root.children.values())
    assert tree.root.proof is None and not result.exact and result.stats.nodes == 500


def test_the_solver_still_proves_turn_nodes_above_and_below_simultaneous_ones() -> None:
    # The last round of a two-round roshambo in GDL: the root is simultaneous (never
    # solved); a GDL tic-tac-toe ending and a three-player GDL ending are proven.
    ttt = load_game(GDL_DATA / "ticTacToe.kif")
    state = ttt.initial_state()
    for move in ("mark 1 1", "mark 2 2", "mark 3 3", "mark 1 3", "mark 3 1"):
        state = ttt.result(state, ttt.parse_action(state, move))
    result = mcts(ttt, state, plies.Limit(nodes=20000), seed=0)
    assert result.exact
    assert result.value == plies.maxn(ttt, state).value


def test_the_solver_agrees_with_max_n_in_a_three_role_gdl_game() -> None:
    # 3-player toroidal tic-tac-toe, 19 random moves in: six cells left, so max^n is
    # cheap and the whole rest of the tree fits in the budget.
    game = load_game(GDL_DATA / "tictactoe_3player.kif")
    rng = random.Random(5)
    state = game.initial_state()
    for _ in range(19):
        actions = game.actions(state)
        state = game.result(state, actions[rng.randrange(len(actions))])
    assert not game.is_terminal(state) and game.num_players == 3
    exact = plies.maxn(game, state)
    result = mcts(game, state, plies.Limit(nodes=100_000), seed=0)
    assert result.exact and result.stats.nodes < 100_000
    assert result.value == exact.value


def test_gdl_roshambo_is_searched_with_joint_moves() -> None:
    game = load_game(GDL_DATA / "roshambo2.kif")
    state = game.initial_state()
    assert game.to_move(state) == SIMULTANEOUS
    result = mcts(game, state, plies.Limit(nodes=3000), player=1, seed=3)
    assert result.action in game.player_actions(state, 1)
    assert result.strategy is not None and len(result.strategy) == 4
    # rock is dominated by well (well beats rock and scissors, rock only scissors)
    shares = {to_kif(move): p for move, p in result.strategy.items()}
    assert shares["rock"] < 0.25 and min(shares.values()) > 0.05


# --- tree reuse ----------------------------------------------------------------------------


def _tictactoe_tree(nodes: int) -> tuple[Any, MctsTree]:
    ttt = load("tictactoe")
    tree = MctsTree(ttt, ttt.initial_state(), seed=4, solver=False)
    tree.search(plies.Limit(nodes=nodes))
    return ttt, tree


def test_advancing_keeps_the_childs_subtree_and_statistics() -> None:
    ttt, tree = _tictactoe_tree(3000)
    child = tree.root.children[4]
    visits, totals, children = child.visits, list(child.totals), dict(child.children)
    assert tree.advance(ttt.actions(ttt.initial_state())[4])
    assert tree.root is child
    assert (tree.visits, tree.root.totals, tree.root.children) == (visits, totals, children)
    assert tree.state == ttt.result(ttt.initial_state(), 4)


def test_reuse_gives_more_root_visits_at_equal_iterations() -> None:
    ttt, tree = _tictactoe_tree(3000)
    tree.advance(4)
    kept = tree.visits
    assert kept > 100
    after = ttt.result(ttt.initial_state(), 4)
    reused = tree.search(plies.Limit(nodes=1000))
    fresh_tree = MctsTree(ttt, after, seed=4, solver=False)
    fresh = fresh_tree.search(plies.Limit(nodes=1000))
    assert reused.stats.nodes == fresh.stats.nodes == 1000
    assert tree.visits == kept + 1000 > fresh_tree.visits == 1000


def test_rerooting_by_state_finds_a_grandchild_and_else_starts_afresh() -> None:
    ttt, tree = _tictactoe_tree(3000)
    grandchild = tree.root.children[4].children[0]
    assert tree.reroot(play_moves(ttt, 4, 0))
    assert tree.root is grandchild
    assert not tree.reroot(play_moves(ttt, 4, 0, 8, 2, 6, 3))  # deeper than depth=2 here
    assert tree.visits == 0 and tree.state == play_moves(ttt, 4, 0, 8, 2, 6, 3)


def test_advancing_a_simultaneous_root_by_its_joint_action() -> None:
    goof = load("goofspiel", cards=3)
    state = goof.initial_state()
    tree = MctsTree(goof, state, seed=0)
    tree.search(plies.Limit(nodes=500), player=0)
    joint = (3, 1)
    assert joint in goof.actions(state)
    assert tree.advance(joint)
    assert tree.state == goof.result(state, joint) and tree.visits > 0
    assert not MctsTree(goof, state).advance(joint)  # an empty tree has no child yet


def play_moves(game: Any, *actions: Any) -> Any:
    state = game.initial_state()
    for a in actions:
        state = game.result(state, a)
    return state


def test_mcts_is_offered_for_simultaneous_games_and_agents_play_them() -> None:
    from plies.tournament.agents import parse_agent

    rps = load("rps")
    assert algorithm("mcts").refusal(rps, rps.initial_state()) is None
    spec = parse_agent("mcts:nodes=300")
    spec.check(rps)
    action, _ = spec.choose(rps, rps.initial_state(), 1, seed=2)
    assert action in rps.player_actions(rps.initial_state(), 1)


def test_an_unknown_selection_is_refused_in_one_line() -> None:
    rps = load("rps")
    with pytest.raises(OptionError, match="selection must be one of ucb, rm"):
        mcts(rps, rps.initial_state(), player=0, selection="exp3")


@pytest.mark.parametrize("seed", range(4))
def test_chance_and_simultaneous_nodes_together_give_legal_lines(seed: int) -> None:
    # Goofspiel with prizes drawn by chance: CHANCE and SIMULTANEOUS nodes alternate.
    goof = load("goofspiel", cards=3, order="random")
    state = goof.initial_state()
    while goof.to_move(state) == plies.CHANCE:
        state = goof.result(state, goof.chance_outcomes(state)[seed % 3][0])
    result = mcts(goof, state, plies.Limit(nodes=800), player=1, seed=seed, all_values=True)
    lo, hi = goof.utility_range
    assert lo <= result.value <= hi and not result.exact
    assert result.action in goof.player_actions(state, 1)
    assert set(result.action_values or {}) <= set(goof.player_actions(state, 1))
    for joint in result.pv:
        assert joint in goof.actions(state)
        state = goof.result(state, joint)
