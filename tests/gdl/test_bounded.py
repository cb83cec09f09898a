"""GDL work is bounded and stoppable: budgets, join bombs, huge boards, huge and deep input.

Every hostile description here must end as plies' own error (a
:class:`~plies.errors.PliesError`) or load; none may run unbounded, crash with
``ValueError``/``RecursionError`` from the inside, or take the process down.
"""

from __future__ import annotations

import gc
import inspect
import itertools
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from plies.budget import Budget, BudgetExceeded, Stopped
from plies.cli import main
from plies.errors import GameFormatError
from plies.gdl import (
    DEFAULT_BUDGET,
    GdlGame,
    GoalDefinitionError,
    GroundingError,
    Prover,
    Reasoner,
    load_game,
    netcompile,
    parse,
)
from plies.gdl.ground import MAX_BODY, MAX_DEPTH, ground, natural_key
from plies.gdl.parser import MAX_NESTING, parse_terms
from plies.gdl.propnet import bitset, build_network, compile_network
from plies.gdl.terms import to_kif
from plies.gdl.validator import validate
from tests.data import GDL_DATA
from tests.gdl.hostile import GAME, board_game, join_bomb, nested, state_join_bomb

SMALL = Budget(seconds=60, steps=200_000)
"""A budget far below what the bombs need, far above what the loading ones take."""


# --- the default budget -------------------------------------------------------------------


def test_the_default_budget_is_the_default_of_every_gdl_entry_point() -> None:
    for function in (Reasoner, GdlGame, load_game, ground):
        assert inspect.signature(function).parameters["budget"].default is DEFAULT_BUDGET
    assert DEFAULT_BUDGET.steps is not None


def test_the_default_budget_counts_steps_not_seconds_so_the_choice_ignores_the_load() -> None:
    # A wall-clock budget picked the propnet at load 5 and the top-down prover at load 18.
    assert DEFAULT_BUDGET.seconds is None


@pytest.mark.parametrize("path", sorted(GDL_DATA.glob("*.kif")), ids=lambda p: p.stem)
def test_every_test_game_loads_within_a_tenth_of_the_default_budget(path: Path) -> None:
    game = load_game(path)
    assert DEFAULT_BUDGET.steps is not None
    assert 0 < game.reasoner.stats.steps < DEFAULT_BUDGET.steps // 10


# --- join bombs ---------------------------------------------------------------------------


def test_grounding_a_zero_arity_join_bomb_ends_within_its_budget() -> None:
    # 30^8 bindings, but once `big` is derived the rest of the join cannot add anything.
    game = load_game(join_bomb(), budget=SMALL)
    assert game.reasoner.stats.steps < 10_000
    assert game.is_terminal(game.initial_state())


def test_a_join_bomb_whose_head_has_a_variable_is_cut_once_per_head() -> None:
    game = load_game(join_bomb("(big ?h)"), budget=SMALL)
    assert game.reasoner.stats.steps < 100_000
    assert game.is_terminal(game.initial_state())


def test_a_join_bomb_with_a_wide_head_ends_within_its_budget() -> None:
    with pytest.raises(BudgetExceeded, match="ran out of its budget of 200,000 steps"):
        Reasoner(parse(join_bomb("(big ?a ?b ?c ?d ?e ?f ?g ?h)")), budget=SMALL)
    # The game then falls back to the top-down prover, which asks for one instance only.
    game = load_game(join_bomb("(big ?a ?b ?c ?d ?e ?f ?g ?h)"), budget=SMALL)
    assert game.reasoner.kind == "topdown" and game.is_terminal(game.initial_state())


def test_a_join_bomb_over_the_state_ends_within_its_budget() -> None:
    with pytest.raises(BudgetExceeded, match="grounding the rules ran out of its budget"):
        Reasoner(parse(state_join_bomb()), budget=SMALL)


def test_a_join_bomb_over_the_state_ends_within_its_seconds() -> None:
    with pytest.raises(BudgetExceeded, match=r"ran out of its budget of 0\.05 s"):
        Reasoner(parse(state_join_bomb()), budget=Budget(seconds=0.05))


def test_or_that_multiplies_rules_ends_within_its_budget() -> None:
    rule = "(<= terminal " + " ".join(["(or (q 1) (q 2))"] * 60) + ")"
    with pytest.raises(BudgetExceeded):
        Reasoner(parse(f"{GAME} (q 1) {rule}"), budget=SMALL)
    # The top-down prover keeps each (or ...) as a relation: no 2^60 rules.
    game = load_game(f"{GAME} (q 1) {rule}", budget=SMALL)
    assert game.reasoner.kind == "topdown" and game.is_terminal(game.initial_state())


@pytest.mark.parametrize("command", ["solve", "check"])
def test_the_zero_arity_join_bomb_loads_at_once_in_the_cli(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cut = tmp_path / "big.kif"
    cut.write_text(join_bomb())
    assert main([command, str(cut)]) == 0


def test_a_join_bomb_over_the_state_is_solved_top_down_in_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The default budget: the caps on the size of the grounding end it in a few seconds,
    # then the top-down prover needs one binding of the join to see the game is over.
    bomb = tmp_path / "bomb.kif"
    bomb.write_text(state_join_bomb(arity=5))
    assert main(["solve", str(bomb)]) == 0
    err = capsys.readouterr().err  # one line says which reasoner plays, and why
    assert err.startswith(f"plies: {bomb}: topdown: no propnet (grounding produced more than ")
    assert err.endswith("too large to ground)\n") and err.count("\n") == 1


# --- stops --------------------------------------------------------------------------------


def test_a_stop_ends_grounding_from_another_thread() -> None:
    stop = threading.Event()
    timer = threading.Timer(0.05, stop.set)
    timer.start()
    try:
        with pytest.raises(Stopped, match="grounding the rules was stopped"):
            Reasoner(parse(state_join_bomb()), budget=Budget(stop=stop))
    finally:
        timer.cancel()


def test_a_stop_ends_building_and_compiling_the_network() -> None:
    g = ground(parse(board_game(3)))
    stop = threading.Event()
    stop.set()
    with pytest.raises(Stopped, match="building the propositional network was stopped"):
        build_network(g, Budget(stop=stop).meter("x"))
    net = build_network(g)
    with pytest.raises(Stopped, match="compiling the propositional network was stopped"):
        compile_network(net, Budget(stop=stop).meter("x"))


def test_the_network_and_the_code_count_against_the_budget_of_grounding() -> None:
    desc = parse(board_game(4))
    grounding_only = ground(desc).rules
    built = Reasoner(desc)
    assert built.stats.steps > len(grounding_only)
    with pytest.raises(BudgetExceeded):
        Reasoner(desc, budget=Budget(steps=built.stats.steps - 1))


# --- large games --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def board_120() -> GdlGame:
    return load_game(board_game(120), name="board120")


def test_a_game_with_20000_fluents_loads(board_120: GdlGame) -> None:
    # Beyond about 14,300 fluents a mask has more than 4,300 decimal digits: Python will
    # not convert it, so masks that wide are named constants of the generated code.
    assert len(board_120.reasoner.fluent_table) == 3 * 120 * 120 + 2
    assert "M0" in board_120.reasoner.compiled.source
    assert max(len(word) for word in board_120.reasoner.compiled.source.split()) < 200


def test_a_120_by_120_board_plays(board_120: GdlGame) -> None:
    game = board_120
    s = game.initial_state()
    for move in ["mark 1 1", "mark 120 120", "mark 60 7"]:
        assert game.to_move(s) in (0, 1)
        s = game.result(s, game.parse_action(s, move))
    marked = {f for f in game.reasoner.fluents(s) if f[0] == "cell" and f[3] != "b"}
    assert marked == {("cell", "1", "1", "white"), ("cell", "120", "120", "black"),
                      ("cell", "60", "7", "white")}
    assert len(game.actions(s)) == 120 * 120 - 3


def test_the_states_of_a_120_by_120_board_convert_to_fluents_and_back(board_120: GdlGame) -> None:
    r = board_120.reasoner
    s = board_120.result(board_120.initial_state(), ("mark", "120", "1"))
    assert r.state_from_fluents(r.fluents(s)) == s
    assert ("cell", "120", "1", "white") in r.fluents(s)


@given(st.sets(st.integers(0, 5000), max_size=60))
def test_bitset_sets_exactly_its_bits(bits: set[int]) -> None:
    expected = 0
    for b in bits:
        expected |= 1 << b
    assert bitset(bits) == expected


def test_wide_masks_as_named_constants_agree_with_the_prover(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every mask of a small board made a named constant: the same code path as a huge
    # board's, checked move by move against the reference prover.
    monkeypatch.setattr(netcompile, "_LITERAL_BITS", 1)
    desc = parse(board_game(3))
    r, p = Reasoner(desc), Prover(desc)
    assert "M0" in r.compiled.source and "ADD =" not in r.compiled.source
    s, fs = r.initial_state(), p.initial_state()
    for turn in itertools.count():
        assert r.fluents(s) == fs and r.is_terminal(s) == p.is_terminal(fs)
        if r.is_terminal(s):
            break
        legal = r.legal_all(s)
        for i in range(2):
            assert sorted(legal[i], key=str) == list(p.legal(fs, i))
        joint = [moves[(turn * 7) % len(moves)] for moves in legal]
        s, fs = r.next_state(s, joint), p.next_state(fs, joint)
    assert r.goals(s) == (50, 50)


# --- huge numbers, deep terms, long bodies ------------------------------------------------

HUGE = "9" * 5000


def test_a_goal_value_of_5000_digits_is_a_short_warning_and_a_short_goal_error() -> None:
    text = f"(role p) (init s) (legal p go) (next s) (<= terminal (true s)) (goal p {HUGE})"
    [warning] = [d for d in validate(parse(text)) if d.check == "goal-value"]
    assert "goal value 99999999999999999999... (5,000 characters)" in warning.message
    game = load_game(text)  # a warning: the game loads, the goal is an error when asked
    with pytest.raises(GoalDefinitionError, match=r"goal value 9{20}\.\.\. \(5,000 characters\)"):
        game.utility(game.initial_state(), 0)
    with pytest.raises(GoalDefinitionError, match=r"goal value 9{20}\.\.\. \(5,000 characters\)"):
        Prover(parse(text)).goal(frozenset({"s"}), 0)


def test_a_goal_value_of_5000_digits_from_a_rule_is_a_goal_error_when_asked() -> None:
    text = f"{GAME} (v {HUGE}) (<= terminal (true s)) (<= (goal p ?x) (v ?x))"
    reasoner = load_game(text).reasoner
    with pytest.raises(GoalDefinitionError, match="GDL goal values are integers from 0 to 100"):
        reasoner.goals(reasoner.initial_state())


def test_constants_of_5000_digits_are_names_like_any_other() -> None:
    counters = " ".join(f"(init (c {'1' * 4400}{i}))" for i in range(30))
    game = load_game(f"{GAME} (<= terminal (true s)) {counters} (<= (next (c ?x)) (true (c ?x)))")
    assert len(game.reasoner.fluent_table) == 31
    assert sorted(["10", "9", "1" * 4400, "0" * 4000 + "2"], key=natural_key) == [
        "0" * 4000 + "2", "9", "10", "1" * 4400]


def test_terms_nested_beyond_the_limit_are_a_format_error() -> None:
    refused = f"nested too deeply: more than {MAX_NESTING} levels"
    for depth in (MAX_NESTING + 1, 100_000):
        with pytest.raises(GameFormatError, match=refused):
            load_game(f"{GAME} (<= terminal (true s)) (init {nested(depth)})")
        with pytest.raises(GameFormatError, match=refused):
            parse_terms(nested(depth))


def test_terms_nested_250_deep_load_play_and_print() -> None:
    deep = nested(250)
    text = f"{GAME} (<= terminal (true t)) (init {deep}) (<= (next ?x) (true ?x))"
    game = load_game(text)
    s = game.result(game.initial_state(), "go")
    assert ("f0" if 250 % 3 == 1 else "f2" if 250 % 3 == 0 else "f1") in to_kif(
        max(game.reasoner.fluents(s), key=len))
    assert parse(to_kif(parse(text).rules[-2].head)).rules[0].head[0] == "init"
    p = Prover(game.description)
    assert p.next_state(p.initial_state(), ["go"]) == game.reasoner.fluents(s)


def test_a_finite_rule_whose_head_nests_40_deep_grounds() -> None:
    # Not "grounding does not terminate": nothing grows, the term is written that deep.
    text = f"{GAME} (c 1) (<= terminal (true t)) (<= (next {nested(40, '?x')}) (c ?x))"
    game = load_game(text)
    s = game.result(game.initial_state(), "go")
    assert len(game.reasoner.fluents(s)) == 2


def test_terms_that_grow_without_end_are_still_refused() -> None:
    text = f"{GAME} (<= terminal (true t)) (init (g z)) (<= (next (g (s ?x))) (true (g ?x)))"
    with pytest.raises(GroundingError, match="does not terminate"):
        Reasoner(parse(text))
    deep = f"{GAME} (<= terminal (true t)) (init {nested(100)}) (<= (next (g ?x)) (true ?x))"
    with pytest.raises(GroundingError, match=f"deeper than {101 + MAX_DEPTH}"):
        Reasoner(parse(deep))
    for finite_play, fluents in ((text, 2), (deep, 3)):  # each state is finite: the
        game = load_game(finite_play)  # top-down prover plays
        assert game.reasoner.kind == "topdown"
        assert len(game.reasoner.fluents(game.result(game.initial_state(), "go"))) == fluents


def test_a_rule_body_of_1000_literals_is_a_grounding_error() -> None:
    body = " ".join(f"(q ?x{i})" for i in range(1000))
    text = f"{GAME} (q 1) (<= terminal {body})"
    with pytest.raises(GroundingError, match=f"a rule body of 1,000 literals; at most {MAX_BODY}"):
        load_game(text)
    with pytest.raises(GameFormatError, match="a rule body of 1,000 literals"):
        Prover(parse(text))


def test_a_rule_body_of_200_literals_grounds() -> None:
    body = " ".join(f"(q ?x{i})" for i in range(200))
    game = load_game(f"{GAME} (q 1) (<= terminal {body})")
    assert game.is_terminal(game.initial_state())


def test_the_engine_loads_gdl_files_within_the_default_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import plies.gdl.source
    from plies.games import load as load_any

    bomb = tmp_path / "bomb.kif"
    bomb.write_text(join_bomb("(big ?a ?b ?c ?d ?e ?f ?g ?h)"))
    monkeypatch.setattr(plies.gdl.source, "DEFAULT_BUDGET", Budget(steps=1000))
    game = load_any(str(bomb))  # the propnet ran out of its steps: the top-down prover
    assert isinstance(game, GdlGame) and game.choice is not None
    assert "budget of 1,000 steps" in game.choice.reason


def test_a_dependency_chain_of_thousands_of_relations_gives_one_line_messages() -> None:
    # One backward search per keyword (a search per rule was quadratic: a minute for
    # 12,000 rules); each message shows the start and the end of its chain.
    n = 3000
    lines = [f"{GAME} (<= terminal (true s))", f"(<= (r{n} x) (does p x))"]
    lines += [f"(<= (r{i} x) (r{i + 1} x))" for i in range(n)]
    lines += [f"(<= (legal p (m{i})) (r{i} x))" for i in range(n)]
    errors = [d for d in validate(parse("\n".join(lines))) if d.check == "keyword-dependency"]
    assert len(errors) == n
    assert errors[0].message == (
        "legal must not depend on does, but it does (legal -> r0 -> r1 -> r2 -> r3 -> ... -> does)"
    )
    assert max(len(d.message) for d in errors) < 120


def test_a_counter_of_nested_terms_that_stops_at_depth_40_grounds() -> None:
    # Peano numerals z, (s z), (s (s z)), ... up to 40 deep: the counter stops where its
    # successor facts stop, so the terms do not grow without end.
    numerals = ["z"]
    for _ in range(40):
        numerals.append(f"(s {numerals[-1]})")
    succ = " ".join(f"(succ {a} {b})" for a, b in itertools.pairwise(numerals))
    text = (
        "(role p) (init (count z)) (legal p tick) "
        "(<= (next (count ?y)) (true (count ?x)) (succ ?x ?y)) "
        f"(<= terminal (true (count {numerals[-1]}))) (goal p 100) {succ}"
    )
    game = load_game(text)
    s = game.initial_state()
    for _ in range(40):
        assert not game.is_terminal(s)
        s = game.result(s, "tick")
    assert game.is_terminal(s) and len(game.reasoner.fluent_table) == 41


def test_a_grounding_stopped_mid_join_leaves_no_garbage_cycles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Regression: the join's recursive closure was a reference cycle that kept every fact
    # of a stopped grounding alive until the next full collection, which then paused the
    # whole process for seconds (a GGP player replied late after an aborted bomb match).
    import weakref

    from plies.gdl import ground as ground_module

    made: list[weakref.ref[ground_module.FactBase]] = []
    original = ground_module.FactBase.__init__

    def recording(self: ground_module.FactBase, *args: int) -> None:
        original(self, *args)
        made.append(weakref.ref(self))

    monkeypatch.setattr(ground_module.FactBase, "__init__", recording)
    gc.disable()  # only reference counting may free it
    try:
        with pytest.raises(BudgetExceeded):
            Reasoner(parse(join_bomb("(big ?a ?b ?c ?d ?e ?f ?g ?h)")),
                     budget=Budget(steps=300_000))
        assert made and all(ref() is None for ref in made)
    finally:
        gc.enable()
