"""The strict cut rule (``strict_cutoffs=True``) against a plain strict alpha-beta.

Some courses' autograders (the Berkeley CS188 Pacman project's among them) count the
states an alpha-beta agent generates, and their alpha-beta cuts only when a bound is
strictly passed: ``v > beta`` at a MAX node, ``v < alpha`` at a MIN node.  The oracle
below is that pseudocode, written here and nowhere else; plies' search with
``strict_cutoffs=True`` must generate exactly the same states in the same order, on random
trees with 2 and 3 players, with several moves per turn, with the depth in plies and in
rounds, and on Pacman with every ghost a MIN layer.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import plies
from plies import textbook
from plies.games import load
from plies.wrappers import EvaluatedTerminals
from tests.clirun import plain_pipe, run  # noqa: F401  (plain_pipe: an autouse fixture)
from tests.search.randomtree import (
    LIMITS,
    SWITCHES,
    RandomTree,
    RandomTurns,
    oracle,
    random_trees,
    random_turn_games,
)

SETTINGS = settings(
    max_examples=200, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
trees = st.integers(2, 3).flatmap(lambda k: random_trees(players=k))
players = st.integers(0, 2)


class Generated:
    """A game that writes down every state its ``result`` generates."""

    def __init__(self, game: Any) -> None:
        self.game, self.states = game, []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def result(self, state: Any, action: Any) -> Any:
        child = self.game.result(state, action)
        self.states.append(child)
        return child


def course_alphabeta(
    game: Any, state: Any, player: int, depth: int | None, unit: str
) -> tuple[float, Any]:
    """Alpha-beta as the course writes it: the root keeps the first best action, a MAX
    node returns as soon as ``v > beta``, a MIN node as soon as ``v < alpha``.

    The depth grows by one a ply (``unit="ply"``), or, in rounds, when ``player`` is to
    decide again after someone else has decided (every ghost moved: one round).
    """
    rounds = unit == "round" and game.num_players > 1
    nobody = -1

    def enter(s: Any, d: int, last: int) -> tuple[int, int, int]:
        actor = game.to_move(s)
        if rounds and actor == player and last not in (nobody, player):
            d += 1
        if last != nobody or actor == player:
            last = actor
        return actor, d, last

    def value(s: Any, d: int, last: int, alpha: float, beta: float) -> float:
        actor, d, last = enter(s, d, last)
        if game.is_terminal(s):
            return float(game.utility(s, player))
        if depth is not None and d >= depth:
            return float(game.evaluate(s, player))
        below = d if rounds else d + 1
        if actor == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, value(game.result(s, a), below, last, alpha, beta))
                if v > beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, value(game.result(s, a), below, last, alpha, beta))
            if v < alpha:
                return v
            beta = min(beta, v)
        return v

    actor, d, last = enter(state, 0, nobody)
    if game.is_terminal(state) or (depth is not None and d >= depth):  # nothing to choose
        return value(state, 0, nobody, -math.inf, math.inf), None
    below = d if rounds else d + 1
    maximizing = actor == player
    best, choice = (-math.inf if maximizing else math.inf), None
    alpha, beta = -math.inf, math.inf
    for a in game.actions(state):
        v = value(game.result(state, a), below, last, alpha, beta)
        if choice is None or (v > best if maximizing else v < best):
            best, choice = v, a
        if maximizing:
            alpha = max(alpha, best)
        else:
            beta = min(beta, best)
    return best, choice


def both(game: Any, limit: plies.Limit | None, p: int, **switches: Any) -> tuple[Any, Any]:
    """``(plies, course)``: each search's value, action and generated states."""
    depth, unit = (None, "ply") if limit is None else (limit.depth, limit.unit)
    ours, theirs = Generated(game), Generated(game)
    root = game.initial_state()
    got = plies.alphabeta(ours, root, limit, player=p, strict_cutoffs=True, **switches)
    value, action = course_alphabeta(theirs, root, p, depth, unit)
    return (got.value, got.action, ours.states), (value, action, theirs.states)


@SETTINGS
@given(trees, LIMITS, players)
def test_strict_cutoffs_generate_the_courses_states_on_random_trees(
    tree: RandomTree, limit: plies.Limit | None, p: int
) -> None:
    ours, course = both(tree, limit, p % tree.num_players)
    assert ours == course


@SETTINGS
@given(random_turn_games(players=(2, 4), moves=(1, 3)), LIMITS, players)
def test_strict_cutoffs_generate_the_courses_states_with_several_moves_a_turn(
    game: RandomTurns, limit: plies.Limit | None, p: int
) -> None:
    ours, course = both(game, limit, p % game.num_players)
    assert ours == course


@SETTINGS
@given(trees, LIMITS, players)
def test_strict_cutoffs_keep_minimax_and_search_at_least_the_default_rules_states(
    tree: RandomTree, limit: plies.Limit | None, p: int
) -> None:
    p %= tree.num_players
    strict = plies.alphabeta(tree, 0, limit, player=p, strict_cutoffs=True)
    default = plies.alphabeta(tree, 0, limit, player=p)
    expected = oracle(textbook.minimax, tree, 0, limit, p)
    assert (strict.value, strict.action) == (default.value, default.action) == expected[:2]
    assert strict.stats.nodes >= default.stats.nodes


@SETTINGS
@given(trees, LIMITS, players, st.sampled_from(SWITCHES))
def test_every_engine_switch_under_strict_cutoffs_keeps_minimax(
    tree: RandomTree, limit: plies.Limit | None, p: int, switches: dict[str, Any]
) -> None:
    p %= tree.num_players
    got = plies.alphabeta(tree, 0, limit, player=p, strict_cutoffs=True, **switches)
    assert (got.value, got.action) == oracle(textbook.minimax, tree, 0, limit, p)[:2]


@SETTINGS
@given(trees, LIMITS, players)
def test_a_traced_strict_search_enters_the_nodes_the_untraced_one_generates(
    tree: RandomTree, limit: plies.Limit | None, p: int
) -> None:
    p %= tree.num_players
    events: list[plies.TraceEvent] = []
    logged = Generated(tree)
    plain = plies.alphabeta(logged, 0, limit, player=p, strict_cutoffs=True)
    traced = plies.alphabeta(tree, 0, limit, player=p, strict_cutoffs=True, trace=events.append)
    entered = [e.state for e in events if e.kind == "enter"]
    assert entered[1:] == logged.states
    assert (traced.value, traced.action, traced.stats.nodes, traced.stats.cutoffs) == (
        plain.value, plain.action, plain.stats.nodes, plain.stats.cutoffs)


def tie_tree() -> RandomTree:
    """MAX root: a MIN child worth 3, then a MIN child whose first leaf is 3 (a tie with
    alpha) and whose second leaf is 1: the default rule cuts at the tie, the strict rule
    looks at the 1 as well."""
    from tests.search.randomtree import TreeNode

    def leaf(v: float) -> TreeNode:
        return TreeNode(mover=0, utilities=(v, -v))

    nodes = [
        TreeNode(mover=0, children=[1, 4]),
        TreeNode(mover=1, children=[2, 3]), leaf(3), leaf(5),
        TreeNode(mover=1, children=[5, 6]), leaf(3), leaf(1),
    ]
    return RandomTree(nodes, 2, True)


def test_a_tie_with_alpha_is_a_cut_by_default_and_not_under_the_strict_rule() -> None:
    tree = tie_tree()
    default, strict = Generated(tree), Generated(tree)
    a = plies.alphabeta(default, 0)
    b = plies.alphabeta(strict, 0, strict_cutoffs=True)
    assert (a.value, a.action) == (b.value, b.action) == (3.0, 0)
    assert default.states == [1, 2, 3, 4, 5]
    assert strict.states == [1, 2, 3, 4, 5, 6]


def test_the_strict_rule_says_so_where_it_prunes() -> None:
    from plies.viz import capture

    game = load("aima-5-2")
    tree = capture(game, game.initial_state(), strict_cutoffs=True)
    reasons = [n.pruned_by for n in tree.nodes() if n.pruned]
    assert reasons and all(" < alpha=" in r for r in reasons)


def test_plies_trace_explains_a_strict_prune_by_the_bound_it_passed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    strict = run(capsys, "trace", "aima-5-2", "-a", "alphabeta", "--strict-cutoffs")
    assert "Prune c2, c3: v=2 < alpha=3." in strict
    default = run(capsys, "trace", "aima-5-2", "-a", "alphabeta")
    assert "Prune c2, c3: alpha=3 >= beta=2." in default


def test_the_web_steps_of_a_strict_search_explain_its_prunes() -> None:
    from plies.viz import capture

    game = load("aima-5-2")
    steps: list[dict[str, Any]] = []
    capture(game, game.initial_state(), strict_cutoffs=True, steps=steps)
    said = [s["text"].strip() for s in steps if s["kind"] == "prune"]
    assert said == ["Prune c2, c3: v=2 < alpha=3."]


@pytest.mark.parametrize("ghosts,depth", [(1, 2), (2, 1), (2, 2)])
def test_pacman_in_rounds_with_every_ghost_a_min_layer_is_the_courses_search(
    ghosts: int, depth: int
) -> None:
    game = load("pacman", options=[f"ghosts={ghosts}", "layout=test"])
    limit = plies.Limit(depth=depth, unit="round")
    ours, course = both(game, limit, 0)
    assert ours == course
    # The course scores won and lost states with the evaluation function.
    scored = EvaluatedTerminals(game)
    ours, course = both(scored, limit, 0)
    assert ours == course


def test_strict_cutoffs_reach_the_search_through_a_request() -> None:
    from plies.policy import SearchRequest, plan

    game = load("tictactoe")
    state = game.initial_state()
    chosen = plan(game, state, SearchRequest(algorithm="alphabeta", strict_cutoffs=True))
    assert chosen.options["strict_cutoffs"] is True
    strict = chosen.run(game, state)
    default = plan(game, state, SearchRequest(algorithm="alphabeta")).run(game, state)
    assert strict.value == default.value and strict.stats.nodes > default.stats.nodes


def test_strict_cutoffs_are_refused_by_an_algorithm_without_cuts() -> None:
    from plies.errors import OptionError
    from plies.policy import SearchRequest, plan

    game = load("tictactoe")
    with pytest.raises(OptionError, match="strict"):
        plan(game, game.initial_state(), SearchRequest(algorithm="minimax", strict_cutoffs=True))
