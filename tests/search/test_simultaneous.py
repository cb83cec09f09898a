"""Simultaneous moves: matrix games by LP, backward induction, and the sequentialisations.

The oracle for mixed values is LP-free: the Shapley-Snow enumeration of square
submatrices in exact fractions (:func:`exact_value`), whose answer is proved optimal by
checking both players' guarantees.  Pure maximin and minimax, written out recursively,
are the oracles of the pessimistic and optimistic sequentialisations.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations, product
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import plies
from plies.errors import GameFormatError, UnsupportedGameError
from plies.game import CHANCE, SIMULTANEOUS, Game, play
from plies.games import load
from plies.games.matrix import Goofspiel, MatrixGame, rock_paper_scissors
from plies.search.common import Limit, TraceEvent, run
from plies.search.simultaneous import (
    MatrixSolution,
    MissingDependencyError,
    SimultaneousSearcher,
    simultaneous,
    solve_matrix_game,
)
from plies.wrappers import PartialJoint, Sequentialized
from tests.conformance import check_game
from tests.search.randomtree import RandomTree, random_trees

SETTINGS = settings(
    max_examples=100, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
TOL = 1e-6

Matrix = list[list[Fraction]]


# --- the LP-free oracle -------------------------------------------------------------------------


def _solve(rows: list[list[Fraction]]) -> tuple[list[Fraction], Fraction] | None:
    """Solve ``sum_c rows[r][c] z_c = v`` for every r and ``sum_c z_c = 1`` (None: singular)."""
    k = len(rows)
    # Unknowns z_0..z_{k-1}, v; augmented matrix of k+1 equations.
    eq = [[*row, Fraction(-1), Fraction(0)] for row in rows]
    eq.append([Fraction(1)] * k + [Fraction(0), Fraction(1)])
    size = k + 1
    for col in range(size):
        pivot = next((r for r in range(col, size) if eq[r][col] != 0), None)
        if pivot is None:
            return None
        eq[col], eq[pivot] = eq[pivot], eq[col]
        for r in range(size):
            if r != col and eq[r][col] != 0:
                f = eq[r][col] / eq[col][col]
                eq[r] = [a - f * b for a, b in zip(eq[r], eq[col], strict=True)]
    z = [eq[r][size] / eq[r][r] for r in range(size)]
    return z[:k], z[k]


def exact_solution(a: Matrix) -> tuple[Fraction, list[Fraction], list[Fraction]]:
    """The value and optimal strategies of ``a`` by Shapley-Snow kernels, proved optimal."""
    m, n = len(a), len(a[0])
    for k in range(1, min(m, n) + 1):
        for rows in combinations(range(m), k):
            for cols in combinations(range(n), k):
                xs = _solve([[a[i][j] for i in rows] for j in cols])
                ys = _solve([[a[i][j] for j in cols] for i in rows])
                if xs is None or ys is None or xs[1] != ys[1]:
                    continue
                v = xs[1]
                if any(p < 0 for p in (*xs[0], *ys[0])):
                    continue
                x = [Fraction(0)] * m
                y = [Fraction(0)] * n
                for i, p in zip(rows, xs[0], strict=True):
                    x[i] = p
                for j, p in zip(cols, ys[0], strict=True):
                    y[j] = p
                guaranteed = min(sum(x[i] * a[i][j] for i in range(m)) for j in range(n))
                conceded = max(sum(a[i][j] * y[j] for j in range(n)) for i in range(m))
                if guaranteed == v == conceded:
                    return v, x, y
    raise AssertionError(f"no optimal kernel found for {a}")


def exact_value(a: Matrix) -> Fraction:
    return exact_solution(a)[0]


def maximin(a: Sequence[Sequence[Any]]) -> Any:
    return max(min(row) for row in a)


def minimax_pure(a: Sequence[Sequence[Any]]) -> Any:
    return min(max(a[i][j] for i in range(len(a))) for j in range(len(a[0])))


def assert_optimal(a: Sequence[Sequence[float]], sol: MatrixSolution) -> None:
    """Both strategies are distributions and each guarantees the value (within TOL)."""
    m, n = len(a), len(a[0])
    scale = max(1.0, max(abs(u) for row in a for u in row))
    for dist, size in ((sol.row, m), (sol.column, n)):
        assert len(dist) == size
        assert all(p >= 0 for p in dist)
        assert math.isclose(math.fsum(dist), 1.0, abs_tol=1e-9)
    guaranteed = min(math.fsum(sol.row[i] * a[i][j] for i in range(m)) for j in range(n))
    conceded = max(math.fsum(a[i][j] * sol.column[j] for j in range(n)) for i in range(m))
    assert guaranteed >= sol.value - TOL * scale
    assert conceded <= sol.value + TOL * scale


matrices = st.integers(1, 4).flatmap(
    lambda m: st.integers(1, 4).flatmap(
        lambda n: st.lists(
            st.lists(st.integers(-9, 9), min_size=n, max_size=n), min_size=m, max_size=m
        )
    )
)


# --- matrix games with known solutions -------------------------------------------------------


def test_rock_paper_scissors_is_uniform_with_value_0() -> None:
    sol = solve_matrix_game([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    assert sol.value == pytest.approx(0, abs=1e-9)
    assert sol.row == pytest.approx((1 / 3,) * 3) and sol.column == pytest.approx((1 / 3,) * 3)


def test_matching_pennies() -> None:
    sol = solve_matrix_game([[1, -1], [-1, 1]])
    assert sol.value == pytest.approx(0, abs=1e-9)
    assert sol.row == pytest.approx((0.5, 0.5)) and sol.column == pytest.approx((0.5, 0.5))


def test_a_saddle_point_is_pure_and_needs_no_lp(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "scipy.optimize", None)  # any LP would now fail
    assert solve_matrix_game([[3, 1], [4, 2]]) == MatrixSolution(2.0, (0.0, 1.0), (0.0, 1.0))
    # 1xN and Mx1 always have one: the row (column) player just picks the best entry.
    assert solve_matrix_game([[5, -2, 7]]) == MatrixSolution(-2.0, (1.0,), (0.0, 1.0, 0.0))
    assert solve_matrix_game([[5], [-2], [7]]) == MatrixSolution(7.0, (0.0, 0.0, 1.0), (1.0,))
    # Equal entries: the first maximin row and the first minimax column.
    assert solve_matrix_game([[1, 1], [1, 1]]) == MatrixSolution(1.0, (1.0, 0.0), (1.0, 0.0))


def test_two_by_two_closed_form() -> None:
    # [[a, b], [c, d]] without a saddle point: v = (ad - bc) / (a - b - c + d).
    sol = solve_matrix_game([[3, -1], [-2, 1]])
    assert sol.value == pytest.approx(1 / 7)
    assert sol.row == pytest.approx((3 / 7, 4 / 7)) and sol.column == pytest.approx((2 / 7, 5 / 7))


def test_ferguson_three_by_three_all_strategies_active() -> None:
    # Ferguson, Game Theory, Part II: solved by the principle of indifference.
    a = [[0, 1, -2], [1, -2, 3], [-2, 3, -4]]
    quarter, half = Fraction(1, 4), Fraction(1, 2)
    assert exact_solution([[Fraction(u) for u in row] for row in a]) == (
        Fraction(0), [quarter, half, quarter], [quarter, half, quarter]
    )
    sol = solve_matrix_game(a)
    assert sol.value == pytest.approx(0, abs=1e-9)
    assert sol.row == pytest.approx((0.25, 0.5, 0.25)) and sol.column == pytest.approx(
        (0.25, 0.5, 0.25)
    )


def test_two_by_four_solved_graphically() -> None:
    # The row player mixes 5/7, 2/7; only columns 2 and 3 are used: value 17/7.
    a = [[2, 3, 1, 5], [4, 1, 6, 0]]
    sol = solve_matrix_game(a)
    assert sol.value == pytest.approx(17 / 7)
    assert sol.row == pytest.approx((5 / 7, 2 / 7))
    assert sol.column == pytest.approx((0, 5 / 7, 2 / 7, 0), abs=1e-9)


def test_bad_matrices_are_refused() -> None:
    bad_matrices: list[list[list[float]]] = [
        [], [[]], [[1, 2], [3]], [[1.0, math.nan]], [[math.inf]]
    ]
    for bad in bad_matrices:
        with pytest.raises(GameFormatError):
            solve_matrix_game(bad)


def test_missing_scipy_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "scipy.optimize", None)
    with pytest.raises(MissingDependencyError, match=r"pip install") as err:
        solve_matrix_game([[1, -1], [-1, 1]])
    assert isinstance(err.value, plies.PliesError) and isinstance(err.value, ImportError)


@SETTINGS
@given(matrices)
def test_lp_strategies_are_optimal(a: list[list[int]]) -> None:
    sol = solve_matrix_game(a)
    assert_optimal(a, sol)
    assert maximin(a) - TOL <= sol.value <= minimax_pure(a) + TOL
    assert sol.value == pytest.approx(float(exact_value([[Fraction(u) for u in r] for r in a])))


@SETTINGS
@given(matrices, st.integers(-20, 20), st.integers(1, 5))
def test_value_is_affine_and_antisymmetric(a: list[list[int]], shift: int, scale: int) -> None:
    v = solve_matrix_game(a).value
    moved = solve_matrix_game([[scale * u + shift for u in row] for row in a]).value
    assert moved == pytest.approx(scale * v + shift, abs=TOL * scale * 10)
    # The column player's game: transpose and negate.
    swapped = [[-a[i][j] for i in range(len(a))] for j in range(len(a[0]))]
    assert solve_matrix_game(swapped).value == pytest.approx(-v, abs=TOL * 10)


@SETTINGS
@given(matrices)
def test_pure_sequential_bounds(a: list[list[int]]) -> None:
    """Moving first (pessimistic) <= the mixed value <= moving last (optimistic)."""
    game = MatrixGame(
        [f"r{i}" for i in range(len(a))], [f"c{j}" for j in range(len(a[0]))], a
    )
    s = game.initial_state()
    low = plies.minimax(Sequentialized(game, 0), s).value
    high = plies.alphabeta(Sequentialized(game, 0, optimistic=True), s, player=0).value
    value = simultaneous(game, s, player=0).value
    assert low == maximin(a) and high == minimax_pure(a)
    assert low - TOL <= value <= high + TOL
    # The column player's view: its value is the negation.
    assert simultaneous(game, s, player=1).value == pytest.approx(-value, abs=TOL * 10)


# --- random trees with simultaneous stages -----------------------------------------------------


@dataclass
class SNode:
    kind: str  # "leaf", "sim", "turn" or "chance"
    mover: int = 0  # at turn nodes
    own: list[list[str]] = field(default_factory=list)  # at sim nodes: each player's actions
    children: dict[Any, int] = field(default_factory=dict)
    probs: list[Fraction] = field(default_factory=list)  # at chance nodes, by child order
    utilities: tuple[int, ...] = ()  # at leaves
    heuristic: tuple[int, ...] = ()  # evaluate() at inner nodes


class SimTree(Game[int, Any]):
    """An explicit tree with simultaneous, turn and chance nodes; states are node ids."""

    def __init__(self, nodes: list[SNode], players: int) -> None:
        self.nodes = nodes
        self.num_players = players
        self.zero_sum = players == 2
        self.has_chance = any(n.kind == "chance" for n in nodes)
        every = [u for n in nodes for u in n.utilities]
        self.utility_range = (min(every), max(every))

    def initial_state(self) -> int:
        return 0

    def to_move(self, state: int) -> int:
        node = self.nodes[state]
        return {"sim": SIMULTANEOUS, "chance": CHANCE}.get(node.kind, node.mover)

    def actions(self, state: int) -> Sequence[Any]:
        return list(self.nodes[state].children)

    def player_actions(self, state: int, player: int) -> Sequence[Any]:
        return self.nodes[state].own[player]

    def chance_outcomes(self, state: int) -> Sequence[tuple[Any, float]]:
        node = self.nodes[state]
        return [(a, float(p)) for a, p in zip(node.children, node.probs, strict=True)]

    def result(self, state: int, action: Any) -> int:
        return self.nodes[state].children[action]

    def is_terminal(self, state: int) -> bool:
        return self.nodes[state].kind == "leaf"

    def utility(self, state: int, player: int) -> float:
        return float(self.nodes[state].utilities[player])

    def evaluate(self, state: int, player: int) -> float:
        node = self.nodes[state]
        return float((node.utilities if node.kind == "leaf" else node.heuristic)[player])

    def key(self, state: int) -> Hashable:
        return state

    def __repr__(self) -> str:
        return f"SimTree(players={self.num_players}, nodes={self.nodes!r})"


@st.composite
def sim_trees(draw: st.DrawFn, players: int = 2, chance: bool = True) -> SimTree:
    """Depth 1-3 trees whose inner nodes are simultaneous stages, turns or chance nodes."""
    nodes: list[SNode] = []
    kinds = ["sim", "sim", "sim", "turn", *(["chance"] if chance else [])]
    widths = [2, 3, 1] if players == 2 else [2, 1]  # actions per player at a stage

    def vector() -> tuple[int, ...]:
        head = [draw(st.integers(-4, 4)) for _ in range(players - 1)]
        last = -sum(head) if players == 2 else draw(st.integers(-4, 4))
        return (*head, last)

    def build(height: int) -> int:
        index = len(nodes)
        node = SNode(kind=draw(st.sampled_from(kinds)))
        nodes.append(node)
        if height == 0 or (index > 0 and draw(st.integers(0, 3)) == 0):
            node.kind, node.utilities = "leaf", vector()
            return index
        node.heuristic = vector()
        if node.kind == "sim":
            node.own = [
                [f"{'abc'[p]}{k}" for k in range(draw(st.sampled_from(widths)))]
                for p in range(players)
            ]
            labels: list[Any] = list(product(*node.own))
        else:
            labels = [f"m{k}" for k in range(draw(st.integers(1, 3)))]
            node.mover = draw(st.integers(0, players - 1))
        for label in labels:
            node.children[label] = build(height - 1)
        if node.kind == "chance":
            weights = [draw(st.integers(1, 4)) for _ in labels]
            node.probs = [Fraction(w, sum(weights)) for w in weights]
        return index

    build(draw(st.sampled_from([2, 1, 3])))
    return SimTree(nodes, players)


def stage_matrix(tree: SimTree, node: SNode, player: int, value: Any) -> list[list[Any]]:
    """Rows: ``player``'s actions; columns: the others' joint replies (as the search does)."""
    others = [node.own[q] for q in range(tree.num_players) if q != player]
    return [
        [
            value(node.children[(*reply[:player], a, *reply[player:])])
            for reply in product(*others)
        ]
        for a in node.own[player]
    ]


def brute(tree: SimTree, i: int, player: int, stage: str, depth: int = 0,
          max_depth: int | None = None) -> Fraction:
    """The value by definition; ``stage``: "mixed", "maximin" or "minimax" at sim nodes."""
    node = tree.nodes[i]
    if node.kind == "leaf":
        return Fraction(node.utilities[player])
    if max_depth is not None and depth >= max_depth:
        return Fraction(node.heuristic[player])
    if node.kind == "chance":
        return sum(
            (p * brute(tree, c, player, stage, depth, max_depth)
             for p, c in zip(node.probs, node.children.values(), strict=True)),
            Fraction(0),
        )

    def value(c: int) -> Fraction:
        return brute(tree, c, player, stage, depth + 1, max_depth)

    if node.kind == "turn":
        values = [value(c) for c in node.children.values()]
        return max(values) if node.mover == player else min(values)
    a = stage_matrix(tree, node, player, value)
    if stage == "maximin":
        return Fraction(maximin(a))
    if stage == "minimax":
        return Fraction(minimax_pure(a))
    return exact_value(a)


@SETTINGS
@given(st.integers(2, 3).flatmap(lambda k: sim_trees(players=k)), st.integers(0, 2),
       st.sampled_from([None, 1, 2]), st.booleans())
def test_simultaneous_equals_the_definition(
    tree: SimTree, p: int, depth: int | None, memo: bool
) -> None:
    p %= tree.num_players
    limit = None if depth is None else Limit(depth=depth)
    got = simultaneous(tree, 0, limit, player=p, memo=memo)
    assert got.value == pytest.approx(float(brute(tree, 0, p, "mixed", 0, depth)), abs=TOL)
    assert got.player == p


@SETTINGS
@given(st.integers(2, 3).flatmap(lambda k: sim_trees(players=k)), st.integers(0, 2))
def test_sequentialised_search_is_pure_maximin_and_minimax(tree: SimTree, p: int) -> None:
    p %= tree.num_players
    low = plies.expectiminimax(Sequentialized(tree, p), 0, player=p).value
    high = plies.expectiminimax(Sequentialized(tree, p, optimistic=True), 0, player=p).value
    assert low == pytest.approx(float(brute(tree, 0, p, "maximin")), abs=1e-9)
    assert high == pytest.approx(float(brute(tree, 0, p, "minimax")), abs=1e-9)
    value = simultaneous(tree, 0, player=p).value
    assert low - TOL <= value <= high + TOL
    if not tree.has_chance:
        assert plies.alphabeta(Sequentialized(tree, p), 0, player=p).value == low
        assert plies.minimax(Sequentialized(tree, p, optimistic=True), 0, player=p).value == high


@settings(SETTINGS, max_examples=40)
@given(sim_trees(players=3, chance=False))
def test_maxn_runs_on_a_sequentialised_three_player_tree(tree: SimTree) -> None:
    result = plies.maxn(Sequentialized(tree, 0), 0, player=0)
    assert result.values is not None and len(result.values) == 3
    state: Any = 0
    seq = Sequentialized(tree, 0)
    for action in result.pv:  # the principal variation is playable and ends at a leaf
        state = play(seq, state, action)
    assert seq.is_terminal(state)
    assert tuple(seq.utility(state, q) for q in range(3)) == result.values


_limits = st.one_of(
    st.none(),
    st.builds(Limit, depth=st.integers(0, 4), unit=st.sampled_from(["ply", "round"])),
)


@SETTINGS
@given(st.integers(2, 3).flatmap(lambda k: random_trees(players=k, chance=True, max_height=4)),
       _limits,
       st.integers(0, 2))
def test_without_simultaneous_nodes_it_is_expectiminimax(
    tree: RandomTree, limit: Limit | None, p: int
) -> None:
    p %= tree.num_players
    expected = plies.expectiminimax(tree, 0, limit, player=p)
    got = simultaneous(tree, 0, limit, player=p)
    assert got.value == pytest.approx(expected.value, abs=1e-9)
    assert got.action == expected.action
    assert got.exact == expected.exact
    assert got.strategy == (None if got.action is None else {got.action: 1.0})


# --- the search's result ------------------------------------------------------------------------


def test_rps_root_strategy_and_action() -> None:
    rps = load("rps")
    r = simultaneous(rps, rps.initial_state(), player=1)
    assert r.value == pytest.approx(0, abs=1e-9) and r.exact and r.player == 1
    assert r.strategy is not None and list(r.strategy) == ["rock", "paper", "scissors"]
    assert list(r.strategy.values()) == pytest.approx([1 / 3] * 3)
    assert r.action == "rock"  # the first of equally probable actions
    assert r.pv == (("rock", "rock"),)  # a joint action, in player order
    assert (r.stats.nodes, r.stats.leaves, r.stats.depth) == (10, 9, 1)
    picked = {simultaneous(rps, rps.initial_state(), player=0, tie="random", seed=k).action
              for k in range(20)}
    assert picked == {"rock", "paper", "scissors"}


def test_every_own_action_is_valued_against_the_optimal_reply() -> None:
    game = MatrixGame(["a", "b", "c"], ["x", "y"], [[3, -1], [-2, 1], [-5, -5]])
    searcher = SimultaneousSearcher(game, 0)
    result = run(lambda depth: searcher, game.initial_state(), None, all_values=True)
    assert result.value == pytest.approx(1 / 7)
    assert result.action_values is not None
    values = result.action_values
    assert values["a"] == pytest.approx(1 / 7) and values["b"] == pytest.approx(1 / 7)
    assert values["c"] == pytest.approx(-5)  # outside the support: worse


def test_repeated_games_add_up() -> None:
    for rounds in (1, 2, 3):
        rps = load("rps", rounds=rounds)
        assert simultaneous(rps, rps.initial_state(), player=0).value == pytest.approx(
            0, abs=1e-9
        )
        pd = load("prisoners-dilemma", rounds=rounds)
        r = simultaneous(pd, pd.initial_state(), player=1)
        assert r.value == rounds  # defecting guarantees 1 a round; nothing guarantees more
        assert r.strategy == {"cooperate": 0.0, "defect": 1.0}
        assert r.pv == (("defect", "defect"),) * rounds


@pytest.mark.parametrize(
    ("cards", "order", "scoring"),
    [(3, "descending", "winloss"), (4, "descending", "winloss"), (3, "ascending", "points"),
     (3, "random", "winloss"), (3, "random", "points")],
)
def test_goofspiel_is_symmetric_so_its_value_is_0(cards: int, order: str, scoring: str) -> None:
    game = Goofspiel(cards, order, scoring)
    for p in (0, 1):
        r = simultaneous(game, game.initial_state(), player=p)
        assert r.value == pytest.approx(0, abs=1e-7) and r.exact
    low = plies.expectiminimax(Sequentialized(game, 0), game.initial_state(), player=0).value
    assert low <= 0


def test_goofspiel_4_moving_first_loses() -> None:
    # Bidding openly is a real handicap: whoever commits first loses 4-card Goofspiel.
    game = Goofspiel(4)
    s = game.initial_state()
    assert plies.alphabeta(Sequentialized(game, 0), s).value == -1
    assert plies.alphabeta(Sequentialized(game, 0, optimistic=True), s, player=0).value == 1


def test_memo_changes_nothing_but_the_work() -> None:
    game = Goofspiel(4, scoring="points")
    s = game.initial_state()
    with_memo = simultaneous(game, s, player=0)
    without = simultaneous(game, s, player=0, memo=False)
    assert with_memo.value == pytest.approx(without.value, abs=1e-9)
    assert with_memo.stats.tt_hits > 0 and without.stats.tt_hits == 0
    assert with_memo.stats.nodes < without.stats.nodes


def test_depth_limit_scores_the_cutoff_with_evaluate() -> None:
    pd = load("prisoners-dilemma", rounds=3)
    s = pd.initial_state()
    for unit in ("ply", "round"):
        r = simultaneous(pd, s, Limit(depth=1, unit=unit), player=0)
        # After one round: the maximin payoff 1, plus 2 rounds at the middle of [0, 5].
        assert (r.value, r.exact, r.stats.depth) == (6.0, False, 1)
    full = simultaneous(pd, s, Limit(depth=3), player=0)
    assert (full.value, full.exact) == (3.0, True)


def test_rounds_count_stages_and_turns() -> None:
    # In rounds, depth grows when the turn comes back to player 0 after it has moved and
    # someone else has too; a stage is a move of everyone.  So: stage (round 0), player 1
    # (still round 0), stage (1), player 0 (2: everyone moved in the stage), player 1 (2),
    # player 0 (3).  In plies every node is one deeper than its parent.
    nodes = [
        SNode("sim", own=[["a"], ["b"]], children={("a", "b"): 1}, heuristic=(0, 0)),
        SNode("turn", mover=1, children={"m": 2}, heuristic=(0, 0)),
        SNode("sim", own=[["a"], ["b"]], children={("a", "b"): 3}, heuristic=(0, 0)),
        SNode("turn", mover=0, children={"m": 4}, heuristic=(0, 0)),
        SNode("turn", mover=1, children={"m": 5}, heuristic=(0, 0)),
        SNode("turn", mover=0, children={"m": 6}, heuristic=(0, 0)),
        SNode("leaf", utilities=(1, -1)),
    ]
    tree = SimTree(nodes, 2)
    depths: dict[int, int] = {}

    def record(event: TraceEvent) -> None:
        if event.kind == "enter":
            depths[event.state] = event.depth

    simultaneous(tree, 0, Limit(unit="round", depth=9), player=0, trace=record)
    assert [depths[i] for i in range(7)] == [0, 0, 1, 2, 2, 3, 3]
    depths.clear()
    simultaneous(tree, 0, Limit(unit="ply", depth=9), player=0, trace=record)
    assert [depths[i] for i in range(7)] == [0, 1, 2, 3, 4, 5, 6]


def test_a_budget_too_small_still_returns_an_own_action() -> None:
    game = Goofspiel(4)
    r = simultaneous(game, game.initial_state(), Limit(nodes=1), player=1)
    assert r.action in (1, 2, 3, 4) and not r.exact
    r = simultaneous(game, game.initial_state(), Limit(nodes=100), player=0)
    assert r.action in (1, 2, 3, 4) and r.strategy is not None and r.stats.depth >= 1


def test_trace_sees_every_stage() -> None:
    events: list[TraceEvent] = []
    rps = rock_paper_scissors()
    simultaneous(rps, rps.initial_state(), player=0, trace=events.append)
    kinds = [e.kind for e in events]
    assert kinds[:2] == ["enter", "expand"] and kinds[-1] == "backup"
    assert kinds.count("terminal") == 9
    assert events[0].mover == SIMULTANEOUS


class DuckPennies:
    """Matching pennies as a duck-typed game: joint actions only, no ``player_actions``."""

    num_players = 2

    def initial_state(self) -> str:
        return "start"

    def to_move(self, state: str) -> int:
        return SIMULTANEOUS

    def actions(self, state: str) -> list[tuple[str, str]]:
        return [("H", "H"), ("H", "T"), ("T", "H"), ("T", "T")]

    def result(self, state: str, action: tuple[str, str]) -> str:
        return "same" if action[0] == action[1] else "different"

    def is_terminal(self, state: str) -> bool:
        return state != "start"

    def utility(self, state: str, player: int) -> float:
        return 1.0 if (state == "same") == (player == 0) else -1.0


def test_player_actions_default_to_the_projection_of_joint_actions() -> None:
    game: Any = DuckPennies()  # duck-typed on purpose: not a Game subclass
    r = simultaneous(game, "start", player=1)
    assert r.value == pytest.approx(0, abs=1e-9) and r.strategy == pytest.approx(
        {"H": 0.5, "T": 0.5}
    )
    seq = Sequentialized(game, 1)
    assert list(seq.actions("start")) == ["H", "T"]
    assert plies.minimax(seq, "start").value == -1.0


def test_simultaneous_root_needs_a_player() -> None:
    rps = load("rps")
    with pytest.raises(UnsupportedGameError, match="player="):
        simultaneous(rps, rps.initial_state())


def test_a_stage_must_allow_every_combination() -> None:
    class Partial(MatrixGame):
        def actions(self, state: Any) -> Sequence[tuple[str, str]]:
            return super().actions(state)[:-1]  # one combination missing

    game = Partial(["a", "b"], ["x", "y"], [[1, 2], [3, 4]])
    with pytest.raises(UnsupportedGameError, match="every combination"):
        simultaneous(game, game.initial_state(), player=0)


def test_turn_based_searches_still_refuse_simultaneous_nodes() -> None:
    rps = load("rps")
    with pytest.raises(UnsupportedGameError, match="simultaneous"):
        plies.alphabeta(rps, rps.initial_state(), player=0)


# --- the sequentialised game -------------------------------------------------------------------


def test_sequentialized_turns_and_states() -> None:
    rps = load("rps")
    seq = Sequentialized(rps, 1)
    s = rps.initial_state()
    assert seq.to_move(s) == 1 and list(seq.actions(s)) == ["rock", "paper", "scissors"]
    half = seq.result(s, "paper")
    assert half == PartialJoint(s, ("paper",)) and seq.to_move(half) == 0
    assert not seq.is_terminal(half) and "Column chose paper" in seq.render(half)
    done = seq.result(half, "rock")
    assert done == rps.result(s, ("rock", "paper"))  # the joint action is in player order
    assert seq.key(half) == PartialJoint(rps.key(s), ("paper",)) and seq.key(half) != seq.key(s)
    assert Sequentialized(rps, 1, optimistic=True).to_move(s) == 0
    with pytest.raises(ValueError, match="no player 2"):
        Sequentialized(rps, 2)


@pytest.mark.parametrize("optimistic", [False, True])
def test_sequentialized_games_conform(optimistic: bool) -> None:
    check_game(Sequentialized(load("goofspiel", cards=3), 0, optimistic=optimistic),
               playouts=20)
    check_game(Sequentialized(load("goofspiel", cards=3, order="random"), 1,
                              optimistic=optimistic), playouts=20)


# --- the built-in games -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "options"),
    [("rps", {}), ("rps", {"rounds": 3}), ("matching-pennies", {"rounds": 2}),
     ("prisoners-dilemma", {"rounds": 2}), ("goofspiel", {}),
     ("goofspiel", {"cards": 3, "order": "random", "scoring": "points"}),
     ("goofspiel", {"order": "ascending"})],
)
def test_builtin_simultaneous_games_conform(name: str, options: dict[str, Any]) -> None:
    game = load(name, **options)
    assert game.name == name
    report = check_game(game, playouts=20)
    assert report.terminals == 20


def test_matrix_game_facts() -> None:
    pd = load("prisoners-dilemma", rounds=2)
    assert not pd.zero_sum and pd.utility_range == (0.0, 10.0)
    assert load("rps").zero_sum and load("matching-pennies").player_name(0) == "Even"
    s = play(pd, pd.initial_state(), "defect/cooperate")
    assert s.totals == (5.0, 0.0) and pd.render(s).startswith("round 2 of 2")
    with pytest.raises(GameFormatError):
        MatrixGame(["a"], ["x", "y"], [[1]])
    with pytest.raises(GameFormatError):
        MatrixGame(["a", "a"], ["x"], [[1], [2]])
    with pytest.raises(GameFormatError):
        load("rps", rounds=0)


def test_goofspiel_rules() -> None:
    game = Goofspiel(3)
    s = game.initial_state()
    assert (s.prize, s.prizes, game.to_move(s)) == (3, (2, 1), SIMULTANEOUS)
    s = play(game, s, "2/1")  # player 0 bids higher: wins the 3
    assert s.scores == (3, 0) and s.hands == ((1, 3), (2, 3)) and s.prize == 2
    s = play(game, s, "3/3")  # a tie: the prize is discarded
    assert s.scores == (3, 0) and s.prize == 1
    s = play(game, s, "1/2")
    assert game.is_terminal(s) and s.scores == (3, 1) and game.utility(s, 1) == -1.0
    assert Goofspiel(3, scoring="points").utility(s, 0) == 2.0
    drawn = Goofspiel(3, order="random")
    s = drawn.initial_state()
    assert drawn.to_move(s) == CHANCE and drawn.chance_outcomes(s) == [(1, 1 / 3), (2, 1 / 3),
                                                                       (3, 1 / 3)]
    assert drawn.result(s, 2).prize == 2 and drawn.result(s, 2).prizes == (1, 3)
    with pytest.raises(GameFormatError):
        Goofspiel(3, order="sideways")
