"""A traced search is the search that runs: every switch, the same nodes, well-formed events.

Tracing is a callback of the one implementation, so asking for a trace must change
nothing but the events: the same value, action, principal variation and statistics, and
one ``"enter"`` per counted node.  The events nest as the recursion does (every
``"enter"`` closed by its ``"terminal"``, ``"cutoff"`` or ``"backup"``) and name each node
by the path from the root that reaches its state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import plies
from plies.game import CHANCE, hook
from plies.games import load
from plies.search.result import NULL_MOVE, TraceEvent
from tests.search.randomtree import (
    LIMITS,
    SWITCHES,
    PassingTree,
    RandomDag,
    RandomTree,
    random_dags,
    random_trees,
    selective_tree,
    switch_names,
)

SETTINGS = settings(
    max_examples=150, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
limits = LIMITS
players = st.integers(0, 2)

ENGINE: list[dict[str, Any]] = [*SWITCHES, {"mate": True}, {"tt": True, "mate": True, "pvs": True}]
"""Switch combinations for any depth limit (``weak`` needs an exact search: see below)."""
SELECTIVE: list[dict[str, Any]] = [
    {"quiescence": 2},
    {"quiescence": 0, "tt": True, "ordering": True, "pvs": True},
    {"extensions": True},
    {"extensions": True, "quiescence": 1, "tt": True, "ordering": True},
    {"reductions": True},
    {"reductions": True, "pvs": True, "tt": True, "ordering": True},
    {"null_move": 1},
    {"null_move": 2, "tt": True, "ordering": True, "pvs": True},
    {"singular": 1.0, "tt": True, "ordering": True},
    {"quiescence": 2, "extensions": True, "singular": 0.5, "null_move": 1, "reductions": True,
     "tt": True, "ordering": True, "pvs": True},
]
"""The selective switches, alone and together (depth-limited searches in plies)."""


def same_search(
    search: Callable[..., plies.SearchResult], game: Any, state: Any, *args: Any, **kw: Any
) -> list[TraceEvent]:
    """Run ``search`` traced and untraced; check they are one search; return the events."""
    try:
        fast = search(game, state, *args, **kw)
    except plies.PliesError as err:
        with pytest.raises(type(err), match=None):
            search(game, state, *args, trace=lambda e: None, **kw)
        return []
    events: list[TraceEvent] = []
    traced = search(game, state, *args, trace=events.append, **kw)
    assert (traced.value, traced.action, traced.pv, traced.exact) == (
        fast.value, fast.action, fast.pv, fast.exact,
    )
    assert traced.action_values == fast.action_values
    f, t = fast.stats, traced.stats
    assert (t.nodes, t.leaves, t.evals, t.cutoffs, t.tt_hits, t.depth, t.seldepth) == (
        f.nodes, f.leaves, f.evals, f.cutoffs, f.tt_hits, f.depth, f.seldepth,
    )
    assert sum(e.kind == "enter" for e in events) == t.nodes
    well_formed(game, state, events)
    return events


CLOSERS = ("terminal", "cutoff", "backup")


def well_formed(game: Any, root: Any, events: list[TraceEvent]) -> None:
    """Events nest like the recursion, and each path leads to its node's state."""
    null_move = hook(game, "null_move")
    stack: list[tuple[tuple[Any, ...], Any]] = []  # (path, state) of the open nodes
    for e in events:
        if e.kind == "enter":
            if not stack:
                assert e.path == () and e.state == root, e
            else:
                path, state = stack[-1]
                assert e.path[:-1] == path and len(e.path) == len(path) + 1, e
                action = e.path[-1]
                if action is NULL_MOVE:
                    assert null_move is not None
                    assert e.state == null_move(state)
                else:
                    if game.to_move(state) == CHANCE:
                        legal = [o for o, _ in plies.game.game_ops(game).chance_outcomes(state)]
                    else:
                        legal = list(game.actions(state))
                    assert action in legal, e
                    assert e.state == game.result(state, action), e
            stack.append((e.path, e.state))
        elif e.kind in CLOSERS:
            assert stack and stack[-1][0] == e.path, e
            stack.pop()
        elif e.kind in ("window", "research") and not stack:
            assert e.path == () and e.action is None, e  # about the root, between searches
        elif e.kind == "window":
            assert stack[-1][0] == e.path[:-1], e  # about a child of the open node
        else:
            assert stack and stack[-1][0] == e.path, e
            if e.kind in ("research", "reduce", "extend") and e.action is not None:
                state = stack[-1][1]
                assert e.action in list(game.actions(state)) or game.to_move(state) == CHANCE
    assert not stack, "a node was never closed"


@SETTINGS
@given(st.integers(2, 3).flatmap(lambda k: random_trees(players=k, chance=True)), limits,
       players, st.sampled_from(["minimax", "expectiminimax", "alphabeta", "bounded", "maxn"]))
def test_every_algorithm_traces_the_search_that_runs(
    tree: RandomTree, limit: plies.Limit | None, p: int, name: str
) -> None:
    p %= tree.num_players
    same_search(plies.ALGORITHMS[name].search, tree, 0, limit, player=p)


@SETTINGS
@given(st.integers(2, 3).flatmap(lambda k: random_trees(players=k, chance=True)), limits,
       players, st.sampled_from([True, "star2"]))
def test_star1_and_star2_trace_their_pruning(
    tree: RandomTree, limit: plies.Limit | None, p: int, pruning: bool | str
) -> None:
    p %= tree.num_players
    same_search(plies.expectiminimax, tree, 0, limit, player=p, pruning=pruning)


@SETTINGS
@given(st.integers(2, 3).flatmap(lambda k: random_trees(players=k)), limits, players,
       st.sampled_from(ENGINE), st.sampled_from(["first", "random"]))
def test_every_engine_switch_traces_the_search_that_runs(
    tree: RandomTree, limit: plies.Limit | None, p: int, switches: dict[str, Any], tie: str
) -> None:
    p %= tree.num_players
    same_search(plies.alphabeta, tree, 0, limit, player=p, tie=tie, seed=7, **switches)


@SETTINGS
@given(random_dags(), limits, players, st.sampled_from(ENGINE))
def test_a_traced_table_search_of_a_game_with_transpositions(
    game: RandomDag, limit: plies.Limit | None, p: int, switches: dict[str, Any]
) -> None:
    p %= game.num_players
    same_search(plies.alphabeta, game, game.initial_state(), limit, player=p, **switches)


@SETTINGS
@given(st.integers(2, 3).flatmap(lambda k: random_trees(players=k)), players)
def test_weak_solving_and_analysis_trace_the_search_that_runs(tree: RandomTree, p: int) -> None:
    p %= tree.num_players
    same_search(plies.alphabeta, tree, 0, player=p, weak=True, tt=True, ordering=True)
    same_search(plies.analyze, tree, 0, player=p, tt=True, bisection=True)
    same_search(plies.analyze, tree, 0, player=p, algorithm="minimax")


@SETTINGS
@given(st.integers(2, 3).flatmap(lambda k: random_trees(players=k, max_height=6)),
       st.integers(1, 4), st.sampled_from(SELECTIVE))
def test_every_selective_switch_traces_the_search_that_runs(
    tree: RandomTree, depth: int, switches: dict[str, Any]
) -> None:
    game = selective_tree(tree)
    same_search(plies.alphabeta, game, 0, plies.Limit(depth=depth), **switches)
    passing = PassingTree(tree.nodes, tree.num_players, tree.zero_sum)
    same_search(plies.alphabeta, passing, 0, plies.Limit(depth=depth), **switches)


def test_a_stopped_traced_search_counts_what_the_untraced_one_counts() -> None:
    c4 = load("connect4")
    limit = plies.Limit(depth=12, nodes=5_000)
    fast = plies.alphabeta(c4, c4.initial_state(), limit, tt=True, ordering=True, pvs=True)
    events: list[TraceEvent] = []
    traced = plies.alphabeta(c4, c4.initial_state(), limit, tt=True, ordering=True, pvs=True,
                             trace=events.append)
    assert traced.stopped and fast.stopped
    assert (traced.action, traced.stats.nodes) == (fast.action, fast.stats.nodes)
    # The node at which the budget ran out is counted, never entered.
    assert sum(e.kind == "enter" for e in events) == traced.stats.nodes - 1


# --- real games --------------------------------------------------------------------------


@pytest.mark.parametrize("switches", [{}, *ENGINE[1:]], ids=switch_names)
@pytest.mark.parametrize(
    ("name", "options", "limit"),
    [
        ("tictactoe", {}, None),
        ("tictactoe", {}, plies.Limit(depth=4)),
        ("connect4", {"width": 4, "height": 4}, plies.Limit(depth=7)),
        ("connect4", {"width": 5, "height": 4}, plies.Limit(depth=5)),
        ("civ", {"players": 2, "moves": 2}, plies.Limit(depth=1, unit="round")),
    ],
)
def test_real_games_trace_every_engine_switch(
    name: str, options: dict[str, Any], limit: plies.Limit | None, switches: dict[str, Any]
) -> None:
    game = load(name, **options)
    same_search(plies.alphabeta, game, game.initial_state(), limit, **switches)


def test_connect4_with_table_ordering_and_pvs_shows_what_the_craft_does() -> None:
    c4 = load("connect4", width=5, height=4)
    events = same_search(plies.alphabeta, c4, c4.initial_state(), plies.Limit(depth=8),
                         tt=True, ordering=True, pvs=True)
    kinds = {e.kind for e in events}
    assert {"table", "order", "research", "prune"} <= kinds
    hits = [e for e in events if e.kind == "table" and e.alpha is not None
            and e.beta is not None and e.alpha >= e.beta]
    assert len(hits) == plies.alphabeta(
        c4, c4.initial_state(), plies.Limit(depth=8), tt=True, ordering=True, pvs=True
    ).stats.tt_hits


def test_star2_on_pig_traces_its_probes() -> None:
    pig = load("pig", goal=6, max_turns=3)
    events = same_search(plies.expectiminimax, pig, pig.initial_state(), pruning="star2")
    assert any(e.kind == "probe" for e in events)
    assert any(e.kind == "prune" and e.mover == CHANCE for e in events)


@pytest.mark.parametrize(
    "switches",
    [{"quiescence": 2}, {"extensions": True}, {"null_move": 2}, {"reductions": True},
     {"singular": 50.0}, {"quiescence": 4, "extensions": True, "null_move": 2,
                          "reductions": True, "singular": 50.0}],
    ids=lambda s: "+".join(s),
)
@pytest.mark.parametrize("fen", [
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",  # a back-rank mate in one
])
def test_chess_traces_the_selective_switches(fen: str, switches: dict[str, Any]) -> None:
    pytest.importorskip("chess")
    chess = load("chess", fen=fen)
    # A pass needs 3 plies left below the root, and a static evaluation past the window.
    middlegame = fen.startswith("r1bqkbnr")
    depth = 5 if switches == {"null_move": 2} and middlegame else 3
    events = same_search(plies.alphabeta, chess, chess.initial_state(), plies.Limit(depth=depth),
                         tt=True, ordering=True, pvs=True, **switches)
    kinds = {e.kind for e in events}
    if "quiescence" in switches:
        assert "stand" in kinds
    if depth == 5:
        assert "null" in kinds


def test_the_policy_layer_plans_a_traced_engine_search() -> None:
    from plies.policy import SearchRequest, plan

    c4 = load("connect4", width=5, height=4)
    root = c4.initial_state()
    limit = plies.Limit(depth=6)
    chosen = plan(c4, root, SearchRequest(limit=limit, engine=True, traced=True))
    assert chosen.kind == "engine" and {"tt", "ordering", "pvs"} <= set(chosen.options)
    events: list[TraceEvent] = []
    traced = chosen.run(c4, root, trace=events.append)
    assert traced.stats.nodes == chosen.run(c4, root).stats.nodes
    assert sum(e.kind == "enter" for e in events) == traced.stats.nodes
    # Asked for nothing, a trace gets the plain algorithm (auto adds no craft to a trace).
    assert plan(c4, root, SearchRequest(limit=limit, traced=True)).kind == "plain"
