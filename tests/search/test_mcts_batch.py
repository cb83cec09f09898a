"""MCTS's batched iterations (``batch`` > 1 over a game's ``random_playouts`` hook): one
lane is the sequential iteration, and with many lanes the tree stays a UCT tree (every
visit backed up, no virtual loss left, rewards in [0, 1], proofs still right)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import plies
from plies.errors import OptionError
from plies.game import SIMULTANEOUS, Game
from plies.games import load
from plies.search.mcts import MctsTree, mcts
from plies.search.mcts_tree import Node
from plies.wrappers.base import GameWrapper
from tests.search.randomtree import RandomTree, random_trees


class Batched(GameWrapper[Any, Any]):
    """``game`` with a ``random_playouts`` hook that plays each state's playout in turn
    with the game's own random playout (the draws :meth:`Tree.rollout` makes), and
    records the size of every batch."""

    def __init__(self, game: Game[Any, Any]) -> None:
        super().__init__(game)
        self.batches: list[int] = []

    def random_playouts(
        self, states: Sequence[Any], rng: random.Random, limit: int
    ) -> list[tuple[float, ...] | None]:
        ops = self._ops
        assert ops.random_playout is not None
        self.batches.append(len(states))
        out: list[tuple[float, ...] | None] = []
        for state in states:
            end = ops.random_playout(state, rng, limit)
            out.append(tuple(ops.utility(end, p) for p in range(ops.num_players))
                       if ops.is_terminal(end) else None)
        return out


def nodes(node: Node) -> Iterator[Node]:
    yield node
    for child in node.children.values():
        yield from nodes(child)


def shape(node: Node) -> Any:
    """Everything the search learnt at ``node`` and below, to compare two trees."""
    return (
        node.visits, node.totals, node.proof, node.best, node.untried, node.own_visits,
        node.own_totals, node.regrets, node.policy,
        {k: shape(c) for k, c in sorted(node.children.items())},
    )


def check_invariants(tree: MctsTree) -> None:
    """Every node's visits are the lanes backed up through it: the one that added it
    (not the root's) plus its children's, or more at a solved node (lanes stop there);
    no virtual loss is left; every player's mean reward is in [0, 1]."""
    root = tree.root
    for node in nodes(root):
        assert node.pending == 0
        below = sum(c.visits for c in node.children.values())
        own = 0 if node is root else 1
        if node.proof is None:
            assert node.visits == own + below, node.state
        else:
            assert node.visits >= own + below, node.state
        for total in node.totals:
            assert -1e-9 <= total <= node.visits + 1e-9
        if node.mover == SIMULTANEOUS:
            for visits, totals in zip(node.own_visits, node.own_totals, strict=True):
                assert sum(visits) == node.visits - own
                assert all(-1e-9 <= t <= v + 1e-9 for t, v in zip(totals, visits, strict=True))


def play(game: Any, *actions: Any) -> Any:
    state = game.initial_state()
    for a in actions:
        state = game.result(state, a)
    return state


# --- one lane is the sequential iteration ---------------------------------------------------

GAMES = [
    ("tictactoe", {}, ()), ("connect4", {}, ()), ("nim", {"piles": (1, 2, 4)}, ()),
    ("pig", {}, ()), ("rps", {}, ()), ("goofspiel", {}, ()),
]


def lockstep(game: Any, state: Any, seed: int, iterations: int) -> tuple[MctsTree, MctsTree]:
    """A sequential tree and a one-lane batched tree grown side by side, iteration for
    iteration, until the sequential root is proven or ``iterations`` are done."""
    plain = MctsTree(game, state, seed=seed)
    lanes = MctsTree(Batched(game), state, seed=seed)
    for tree in (plain, lanes):
        tree.tree.scan_root()
    for _ in range(iterations):
        if plain.root.proof is not None:
            break
        plain.tree.iterate()
        assert lanes.tree.iterate_batch(1) == 1
    return plain, lanes


@pytest.mark.parametrize(("name", "options", "moves"), GAMES, ids=[g[0] for g in GAMES])
@pytest.mark.parametrize("seed", [0, 3])
def test_one_lane_grows_the_tree_the_sequential_iteration_grows(
    name: str, options: dict[str, Any], moves: tuple[Any, ...], seed: int
) -> None:
    game = load(name, **options)
    state = play(game, *moves)
    plain, lanes = lockstep(game, state, seed, 400)
    assert shape(lanes.root) == shape(plain.root)
    check_invariants(lanes)


@pytest.mark.parametrize(("name", "options", "moves"), GAMES, ids=[g[0] for g in GAMES])
def test_a_batch_of_one_or_no_hook_is_todays_search(
    name: str, options: dict[str, Any], moves: tuple[Any, ...]
) -> None:
    game = load(name, **options)
    state = play(game, *moves)
    player = 0
    base = mcts(game, state, plies.Limit(nodes=700), seed=5, player=player)
    wrapped = Batched(game)
    one = mcts(wrapped, state, plies.Limit(nodes=700), seed=5, player=player, batch=1)
    unhooked = mcts(game, state, plies.Limit(nodes=700), seed=5, player=player, batch=64)
    for other in (one, unhooked):
        assert (other.action, other.value, other.pv, other.exact, other.strategy) == (
            base.action, base.value, base.pv, base.exact, base.strategy)
        assert (other.stats.nodes, other.stats.leaves) == (base.stats.nodes, base.stats.leaves)
    assert wrapped.batches == []


@settings(max_examples=40, deadline=None)
@given(random_trees(players=3, chance=True), st.integers(0, 2**16))
def test_one_lane_is_the_sequential_iteration_on_random_trees(tree: RandomTree, seed: int) -> None:
    plain, lanes = lockstep(tree, tree.initial_state(), seed, 150)
    assert shape(lanes.root) == shape(plain.root)


# --- many lanes ----------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(random_trees(chance=True), st.integers(2, 64), st.integers(0, 2**16))
def test_batched_trees_keep_the_invariants_and_proofs_are_exact(
    tree: RandomTree, batch: int, seed: int
) -> None:
    root = tree.initial_state()
    game = Batched(tree)
    search = MctsTree(game, root, seed=seed, batch=batch)
    result = search.search(plies.Limit(nodes=600), player=0)
    check_invariants(search)
    assert result.stats.nodes == 600 or result.exact
    assert all(b <= batch for b in game.batches)
    if result.exact:
        assert result.value == pytest.approx(plies.expectiminimax(tree, root, player=0).value)


@settings(max_examples=60, deadline=None)
@given(random_trees(players=3), st.integers(2, 64))
def test_batched_search_proves_every_small_tree(tree: RandomTree, batch: int) -> None:
    # The sequential test's budget (200 iterations a node, see test_mcts.py).
    root = tree.initial_state()
    result = mcts(Batched(tree), root, plies.Limit(nodes=200 * len(tree.nodes)), player=0,
                  seed=2, batch=batch)
    assert result.exact and not result.stopped
    assert result.value == pytest.approx(plies.maxn(tree, root, player=0).value)


@settings(max_examples=30, deadline=None)
@given(random_trees(players=3, chance=True), st.integers(2, 64), st.sampled_from([1, 2]))
def test_playouts_that_stop_at_the_cap_are_scored_one_at_a_time(
    tree: RandomTree, batch: int, cap: int
) -> None:
    root = tree.initial_state()
    search = MctsTree(Batched(tree), root, seed=1, batch=batch, playout=cap)
    result = search.search(plies.Limit(nodes=300), player=0)
    check_invariants(search)
    assert result.stats.nodes == 300 or result.exact


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_batched_search_finds_and_proves_the_winning_nim_move(seed: int) -> None:
    nim = load("nim", piles=(1, 2, 4))  # nim-sum 7: only taking 1 from the 4 wins
    state = nim.initial_state()
    exact = plies.analyze(nim, state)
    winning = [a for a, v in (exact.action_values or {}).items() if v == 1]
    search = MctsTree(Batched(nim), state, seed=seed, batch=64)
    proven = search.search(plies.Limit(nodes=5000))
    assert proven.exact and proven.action == winning[0] and proven.value == exact.value
    check_invariants(search)


def test_batched_search_takes_and_proves_the_win_in_tictactoe() -> None:
    ttt = load("tictactoe")
    state = play(ttt, 0, 3, 1, 4)
    result = mcts(Batched(ttt), state, plies.Limit(nodes=2000), seed=1, batch=64)
    assert result.exact and result.value == 1 and result.pv == (2,)


@pytest.mark.parametrize("selection", ["ucb", "rm"])
def test_batched_decoupled_uct_plays_rock_paper_scissors_about_uniformly(selection: str) -> None:
    rps = load("rps")
    search = MctsTree(Batched(rps), rps.initial_state(), seed=0, batch=64, selection=selection)
    result = search.search(plies.Limit(nodes=6000), player=0)
    check_invariants(search)
    assert result.strategy is not None
    assert all(abs(p - 1 / 3) < 0.08 for p in result.strategy.values()), result.strategy


def test_a_node_budget_stays_exact_and_the_iterations_are_reported() -> None:
    c4 = load("connect4")
    seen: list[int] = []
    game = Batched(c4)
    result = mcts(game, c4.initial_state(), plies.Limit(nodes=3000), batch=64, seed=0,
                  on_iteration=lambda r: seen.append(r.stats.nodes))
    assert result.stats.nodes == 3000 and seen == [1024, 2048, 3000]
    assert max(game.batches) <= 64 and game.batches[-1] <= 3000 - 46 * 64


def test_bad_batch_sizes_are_refused_in_one_line() -> None:
    ttt = load("tictactoe")
    for bad in (0, -3, 1.5, True):
        with pytest.raises(OptionError, match="batch must be an integer >= 1"):
            MctsTree(ttt, ttt.initial_state(), batch=bad)  # type: ignore[arg-type]


def test_a_wrong_number_of_results_is_a_clear_error() -> None:
    class Short(Batched):
        def random_playouts(
            self, states: Sequence[Any], rng: random.Random, limit: int
        ) -> list[tuple[float, ...] | None]:
            return super().random_playouts(states, rng, limit)[1:]

    ttt = load("tictactoe")
    with pytest.raises(plies.errors.UnsupportedGameError, match="returned 63 results for 64"):
        mcts(Short(ttt), ttt.initial_state(), plies.Limit(nodes=200), batch=64)


def test_under_a_time_limit_a_batch_is_cut_to_what_fits_before_the_deadline() -> None:
    c4 = load("connect4")
    game = Batched(c4)
    search = MctsTree(game, c4.initial_state(), seed=0, batch=64)
    search.pace = 1e9  # as if the last search took forever an iteration: one lane fits
    result = search.search(plies.Limit(time=0.3), player=0)
    assert game.batches[0] == 1 and max(game.batches) <= 64
    assert result.stats.nodes == search.root.visits and search.pace < 1e9
    check_invariants(search)
