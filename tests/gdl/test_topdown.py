"""The top-down reasoner: state by state against the propnet and the reference prover,
the games the grounding wall kept out, recursion, negation, and the automatic choice."""

from __future__ import annotations

import itertools
import random
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.budget import Budget, BudgetExceeded
from plies.errors import IllegalActionError
from plies.gdl import (
    GdlGame,
    GdlRulesError,
    GoalDefinitionError,
    GroundingError,
    Prover,
    Reasoner,
    load,
    load_game,
    parse,
)
from plies.gdl.machine import StateMachine, build_machine
from plies.gdl.terms import Term
from plies.gdl.topdown import TopDown
from plies.search import Limit, alphabeta
from tests.data import GDL_DATA

GAMES = sorted(GDL_DATA.glob("*.kif"))
CASES = sorted((GDL_DATA / "prover_cases").glob("*.kif"))
LARGE = GDL_DATA / "large"


@cache
def machines(path: Path) -> tuple[Reasoner, TopDown]:
    desc = load(path)
    return Reasoner(desc), TopDown(desc)


def agree(r: Reasoner, other: StateMachine, s: int, joints: int, rng: random.Random) -> None:
    """Same terminal test, legal moves of every role, goals and successors in ``s``."""
    t = other.state_from_fluents(r.fluents(s))
    where = r.format_state(s)
    assert other.is_terminal(t) == r.is_terminal(s), where
    legal = r.legal_all(s)
    assert [sorted(m, key=str) for m in other.legal_all(t)] == [
        sorted(m, key=str) for m in legal
    ], where
    for i in range(len(r.roles)):
        assert other.goal_values(t, i) == r.goal_values(s, i), where
    if not r.is_terminal(s):
        every = list(itertools.product(*legal))
        for joint in rng.sample(every, min(joints, len(every))):
            assert other.fluents(other.next_state(t, joint)) == r.fluents(
                r.next_state(s, joint)
            ), (where, joint)


def playout_states(r: Reasoner, playouts: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    out = []
    for _ in range(playouts):
        s = r.initial_state()
        out.append(s)
        while not r.is_terminal(s):
            s = r.next_state(s, [rng.choice(m) for m in r.legal_all(s)])
            out.append(s)
    return out


# --- against the propnet and the prover -----------------------------------------------


@pytest.mark.parametrize("path", GAMES + CASES, ids=lambda p: p.stem)
def test_agrees_with_the_propnet_along_random_playouts(path: Path) -> None:
    try:
        r, td = machines(path)
    except GroundingError:
        assert path.stem in ("test_case_3b", "test_case_3e", "test_case_3f")
        with pytest.raises(GroundingError, match="unsafe rule"):
            TopDown(load(path))
        return
    assert td.initial_state() == r.fluents(r.initial_state())
    rng = random.Random(path.stem)
    for s in playout_states(r, 3, seed=5):
        agree(r, td, s, 3, rng)


@pytest.mark.parametrize("name", ["buttons", "maze", "nim1"])
def test_agrees_with_the_reference_prover_on_every_reachable_state(name: str) -> None:
    desc = load(GDL_DATA / f"{name}.kif")
    p, td = Prover(desc), TopDown(desc)
    seen = {p.initial_state()}
    frontier = list(seen)
    while frontier:
        s = frontier.pop()
        assert td.is_terminal(s) == p.is_terminal(s)
        for i in range(len(p.roles)):
            assert td.legal(s, i) == tuple(sorted(p.legal(s, i), key=_natural))
            assert td.goal_values(s, i) == p.goal_values(s, i)
        if td.is_terminal(s):
            continue
        for joint in itertools.product(*td.legal_all(s)):
            t = td.next_state(s, joint)
            assert t == p.next_state(s, joint)
            if t not in seen:
                seen.add(t)
                frontier.append(t)


def _natural(t: Term) -> tuple[object, ...]:
    from plies.gdl.ground import natural_key

    return natural_key(t)


def test_states_are_fluent_sets_and_round_trip() -> None:
    _, td = machines(GDL_DATA / "ticTacToe.kif")
    s = td.next_state(td.initial_state(), [("mark", "2", "2"), "noop"])
    assert ("cell", "2", "2", "x") in td.fluents(s)
    assert td.state_from_fluents(td.fluents(s)) == s
    assert td.format_state(s).startswith("{(cell 1 1 b)")
    assert td.kind == "topdown" and isinstance(td, StateMachine)


def test_a_joint_move_of_the_wrong_length_is_refused() -> None:
    _, td = machines(GDL_DATA / "ticTacToe.kif")
    with pytest.raises(IllegalActionError, match="one move for each of 2 roles"):
        td.next_state(td.initial_state(), ["noop"])


# --- the games behind the grounding wall ----------------------------------------------


@pytest.fixture(scope="module")
def chess() -> TopDown:
    return TopDown(load(LARGE / "chess.kif"))


def test_chess_has_twenty_opening_moves_and_plays(chess: TopDown) -> None:
    s = chess.initial_state()
    assert len(chess.legal(s, 0)) == 20 and chess.legal(s, 1) == ("noop",)
    assert ("move", "wp", "e", "2", "e", "4") in chess.legal(s, 0)
    s = chess.next_state(s, [("move", "wp", "e", "2", "e", "4"), "noop"])
    assert ("cell", "e", "4", "wp") in s and ("cell", "e", "2", "b") in s
    assert chess.legal(s, 0) == ("noop",) and len(chess.legal(s, 1)) == 20
    rng = random.Random(3)
    for _ in range(30):
        assert not chess.is_terminal(s)
        s = chess.next_state(s, [rng.choice(m) for m in chess.legal_all(s)])


def test_fools_mate_ends_chess_with_black_winning(chess: TopDown) -> None:
    s = chess.initial_state()
    for white, black in [(("wp", "f", "2", "f", "3"), ("bp", "e", "7", "e", "5")),
                         (("wp", "g", "2", "g", "4"), ("bq", "d", "8", "h", "4"))]:
        s = chess.next_state(s, [("move", *white), "noop"])
        s = chess.next_state(s, ["noop", ("move", *black)])
    assert chess.legal(s, 0) == () or chess.is_terminal(s)
    assert chess.is_terminal(s) and chess.goals(s) == (0, 100)


def test_amazons_has_2176_opening_moves_and_plays() -> None:
    td = TopDown(load(LARGE / "amazons.kif"))
    s = td.initial_state()
    legal = td.legal_all(s)
    assert len(legal[0]) == 2176 and len(legal[1]) == 1
    rng = random.Random(1)
    for _ in range(4):
        s = td.next_state(s, [rng.choice(m) for m in td.legal_all(s)])
    assert not td.is_terminal(s)


PEANO = """
(role p) (init (c 0))
(legal p go) (legal p stop)
(<= (next (c (s ?x))) (does p go) (true (c ?x)))
(<= (next (c ?x)) (does p stop) (true (c ?x)))
(<= (next stopped) (does p stop))
(<= terminal (true (c (s (s (s 0))))))
(<= terminal (true stopped))
(<= (goal p 100) (true (c (s (s (s 0))))))
(<= (goal p 0) (not (true (c (s (s (s 0)))))))
"""


def test_a_peano_counter_that_grounding_cannot_end_plays_top_down() -> None:
    with pytest.raises(GroundingError, match="grounding does not terminate"):
        Reasoner(parse(PEANO))
    game = load_game(PEANO)
    assert game.choice is not None and game.choice.kind == "topdown"
    assert "grounding does not terminate" in game.choice.reason
    s = game.initial_state()
    for _ in range(3):
        s = game.result(s, "go")
    assert game.is_terminal(s) and game.utility(s, 0) == 100
    assert alphabeta(game, game.initial_state(), Limit(depth=4)).value == 100


# --- the automatic choice -------------------------------------------------------------


def test_a_game_over_a_deliberately_low_grounding_limit_loads_through_the_fallback() -> None:
    path = GDL_DATA / "ticTacToe.kif"
    with pytest.raises(GroundingError, match="more than 50 "):
        Reasoner(load(path), max_atoms=50)
    game = load_game(path, ground_limit=50)
    assert game.choice is not None and game.choice.kind == "topdown"
    assert isinstance(game.reasoner, TopDown) and "more than 50 " in game.choice.reason
    fast = load_game(path)
    assert fast.choice is not None and fast.choice.kind == "propnet"
    assert fast.choice.reason.startswith("propnet: grounded in")
    # The same game either way: the same value, and the same playout from one seed.
    limit = Limit(depth=3)
    assert alphabeta(game, game.initial_state(), limit).value == alphabeta(
        fast, fast.initial_state(), limit).value
    end = game.random_playout(game.initial_state(), random.Random(9), 20)
    fast_end = fast.random_playout(fast.initial_state(), random.Random(9), 20)
    assert end == fast.reasoner.fluents(fast_end)


def test_running_out_of_budget_while_grounding_falls_back_to_top_down() -> None:
    choice = build_machine(load(GDL_DATA / "connectFour.kif"), budget=Budget(steps=1000))
    assert choice.kind == "topdown" and "ran out of its budget of 1,000 steps" in choice.reason
    # ... and the budget then bounds each query instead.
    assert len(choice.machine.legal(choice.machine.initial_state(), 0)) == 8


def test_build_machine_can_be_told_which_one() -> None:
    desc = load(GDL_DATA / "nim1.kif")
    assert build_machine(desc, prefer="topdown").kind == "topdown"
    assert build_machine(desc, prefer="propnet").kind == "propnet"
    with pytest.raises(GroundingError, match="more than 10 "):
        build_machine(desc, prefer="propnet", ground_limit=10)
    with pytest.raises(ValueError, match="prefer must be"):
        build_machine(desc, prefer="fast")


def test_rules_that_neither_machine_accepts_raise_the_grounding_error() -> None:
    with pytest.raises(GroundingError, match="unsafe rule"):
        build_machine(parse("(role a) (<= (legal a ?x) (not (q ?x))) terminal (goal a 1)"))


def test_a_query_over_its_budget_raises_and_leaves_the_machine_usable() -> None:
    bomb = "(role p) (init s) (legal p go) (next s) (goal p 100) " + " ".join(
        f"(n {i})" for i in range(30)) + " (<= (legal p (big ?a ?b ?c ?d ?e)) " + " ".join(
        f"(n {v})" for v in ("?a", "?b", "?c", "?d", "?e")) + ") (<= terminal (true t))"
    td = TopDown(parse(bomb), budget=Budget(steps=10_000))
    s = td.initial_state()
    with pytest.raises(BudgetExceeded, match="ran out of its budget of 10,000 steps"):
        td.legal(s, 0)
    assert not td.is_terminal(s) and td.goal(s, 0) == 100


# --- recursion and negation ------------------------------------------------------------

GRAPH = """
(role p)
(init (edge a b)) (init (edge b c)) (init (edge c b)) (init (edge c d)) (init (edge d a))
(<= (legal p (cut ?x ?y)) (true (edge ?x ?y)))
(legal p wait)
(<= (next (edge ?x ?y)) (true (edge ?x ?y)) (not (does p (cut ?x ?y))))
(<= terminal (not (path a d)))
(<= (goal p 100) (path d b)) (<= (goal p 0) (not (path d b)))
(<= (reach ?x) (path a ?x))
(<= (legal p (probe ?x)) (reach ?x) (not (path ?x a)))
"""
RIGHT = "(<= (path ?x ?y) (true (edge ?x ?y))) (<= (path ?x ?z) (true (edge ?x ?y)) (path ?y ?z))"
LEFT = "(<= (path ?x ?y) (true (edge ?x ?y))) (<= (path ?x ?z) (path ?x ?y) (true (edge ?y ?z)))"
DOUBLE = "(<= (path ?x ?y) (true (edge ?x ?y))) (<= (path ?x ?z) (path ?x ?y) (path ?y ?z))"
MUTUAL = """(<= (path ?x ?y) (true (edge ?x ?y))) (<= (path ?x ?z) (true (edge ?x ?y)) (hop ?y ?z))
(<= (hop ?x ?y) (path ?x ?y))"""


@pytest.mark.parametrize("closure", [RIGHT, LEFT, DOUBLE, MUTUAL],
                         ids=["right", "left", "double", "mutual"])
def test_transitive_closure_over_a_cyclic_graph_terminates_and_is_right(closure: str) -> None:
    desc = parse(GRAPH + closure)
    r, td = Reasoner(desc), TopDown(desc)
    rng = random.Random(0)
    for s in playout_states(r, 4, seed=2):
        agree(r, td, s, 4, rng)


@given(
    edges=st.sets(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=14),
    closure=st.sampled_from([RIGHT, LEFT, DOUBLE, MUTUAL]),
)
@settings(max_examples=40, deadline=None)
def test_reachability_on_random_graphs_matches_the_prover(
    edges: set[tuple[int, int]], closure: str
) -> None:
    text = "(role p) (legal p wait) (next done) (<= terminal (true done)) (goal p 0) " + closure
    text += " (<= (legal p (from ?x ?y)) (path ?x ?y) (not (path ?y ?x)))"
    text += " (<= (legal p (loop ?x)) (path ?x ?x))"
    state = frozenset(("edge", str(a), str(b)) for a, b in edges)
    desc = parse(text)
    assert TopDown(desc).legal(state, 0) == tuple(
        sorted(Prover(desc).legal(state, 0), key=_natural))


def test_a_game_stratified_only_once_ground_is_played() -> None:
    # (goal p 100) depends on (not (goal p 0)): a cycle through negation by relation
    # name, none between ground atoms.
    text = """(role p) (init (s 0)) (legal p go) (<= (next (s 1)) (true (s 0)))
              (<= terminal (true (s 1)))
              (<= (goal p 0) (true (s 0))) (<= (goal p 100) (not (goal p 0)))"""
    # Stratified rule by rule (the validity branch), the propnet grounds it now; the
    # top-down prover must play it too.
    assert build_machine(parse(text)).kind == "propnet"
    td = build_machine(parse(text), prefer="topdown").machine
    s = td.initial_state()
    assert td.goal_values(s, 0) == [0]
    assert td.goal(td.next_state(s, ["go"]), 0) == 100


def test_a_cycle_through_negation_between_ground_atoms_raises() -> None:
    td = TopDown(parse("(role p) (legal p go) (<= terminal (not w)) (<= w (not terminal)) "
                       "(goal p 0)"))
    with pytest.raises(GdlRulesError, match="not stratified"):
        td.is_terminal(td.initial_state())


def test_recursion_without_end_raises() -> None:
    td = TopDown(parse("(role p) (legal p go) (<= terminal (deep 0)) "
                       "(<= (deep ?x) (deep (s ?x))) (goal p 0)"))
    with pytest.raises(GdlRulesError, match="recurse without end"):
        td.is_terminal(td.initial_state())
    assert td.legal(td.initial_state(), 0) == ("go",)  # still usable


def test_a_rule_body_deeper_than_python_nests_blocks() -> None:
    # Twenty-four generators in one body: the compiler splits it into continuations.
    body = " ".join(f"(true (n {i} ?x{i}))" for i in range(24))
    text = f"""(role p) (legal p go) (next done) {' '.join(f'(init (n {i} v))' for i in range(24))}
               (<= terminal {body}) (<= (goal p ?x0) {body} (val ?x0)) (val v)
               (<= (legal p (all ?x0 ?x23)) {body})"""
    desc = parse(text.replace("(val v)", "(val 7)").replace("v))", "7))"))
    td, p = TopDown(desc), Prover(desc)
    s = td.initial_state()
    assert td.is_terminal(s) and td.goal(s, 0) == 7
    assert td.legal(s, 0) == tuple(sorted(p.legal(s, 0), key=_natural))


def test_goal_errors_name_the_role_and_the_state() -> None:
    td = TopDown(parse("(role a) (legal a go) (<= (goal a 100) (true won)) terminal"))
    with pytest.raises(GoalDefinitionError, match=r"role a has no goal value in state \{\}"):
        td.goal(td.initial_state(), 0)


def test_gdlgame_keeps_working_over_a_given_reasoner() -> None:
    r, td = machines(GDL_DATA / "nim1.kif")
    for machine in (r, td):
        game = GdlGame(machine)
        assert game.choice is None and game.reasoner is machine
        assert len(game.actions(game.initial_state())) > 1
