"""Every reasoner build counts its work in steps, ends at its budget and stops on its signal.

Regression tests for issue 22: the top-down prover's build was neither bounded nor
stoppable (``ruleDepthExponential`` had not finished after 6.5 CPU-minutes, and kept a
GGP player's core busy after the match's STOP), a term nested 200 deep gave a
``MemoryError`` when the top-down prover compiled it, and the choice between the propnet
and the top-down prover depended on a wall-clock budget, so on the machine's load.
"""

from __future__ import annotations

import random
import re
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import plies.budget
from plies.budget import Budget, BudgetExceeded, Stopped
from plies.gdl import Prover, Reasoner, TopDown, netcompile, parse, tdcompile
from plies.gdl.ground import DEFAULT_BUDGET
from plies.gdl.machine import STEPS_PER_SECOND, build_machine, build_steps
from plies.gdl.parser import MAX_NESTING
from plies.gdl.parser import load as load_kif
from plies.gdl.terms import Description
from tests.data import GDL_DATA
from tests.gdl.hostile import GAME, board_game, nested, state_join_bomb

RULE_DEPTH = GDL_DATA / "large" / "ruleDepthExponential.kif"

STOP_BOUND = 30.0
"""Seconds a stopped build may take to raise, at most: a generous bound for a loaded
machine (it stops within milliseconds on an idle one); without the stop it would run for
minutes or forever."""


def _rule_depth() -> Description:
    return load_kif(RULE_DEPTH)


# --- the top-down prover's build ---------------------------------------------------------


def test_top_down_build_of_rule_depth_exponential_is_bounded_by_its_steps() -> None:
    # Each prereqN calls prereqN+1 with a bit appended: specialising every call on its
    # constants made 2^20 call patterns, and compiling them never ended.
    td = TopDown(_rule_depth(), build=Budget(steps=1_000_000))
    assert 0 < td.steps < 100_000
    assert len(td.program.patterns) < 1_000
    with pytest.raises(BudgetExceeded, match="ran out of its budget of 1,000 steps"):
        TopDown(_rule_depth(), build=Budget(steps=1_000))


def test_top_down_prover_plays_rule_depth_exponential_to_its_goal() -> None:
    td = TopDown(_rule_depth())
    s = td.initial_state()
    assert td.legal(s, 0) == ("continue", "giveUp")
    steps = 0
    while not td.is_terminal(s) and steps < 6:  # the queries double with each step
        s = td.next_state(s, ["continue"])
        steps += 1
    assert td.goal(s, 0) == 5 * steps
    assert td.is_terminal(td.next_state(s, ["giveUp"]))


def test_top_down_build_of_rule_depth_exponential_is_stopped_by_its_signal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Without the cap on specialised patterns the compile runs for minutes: the stop
    # must end it anyway.
    monkeypatch.setattr(tdcompile, "MAX_SPECIALISED", 1 << 60)
    seconds = _stop_mid_build(lambda budget: TopDown(_rule_depth(), build=budget),
                              "compiling the top-down prover")
    assert seconds < STOP_BOUND


def test_a_query_budget_without_a_build_budget_bounds_the_build_too() -> None:
    with pytest.raises(BudgetExceeded, match="compiling the top-down prover ran out"):
        TopDown(_rule_depth(), budget=Budget(steps=500))


def test_a_build_budget_does_not_bound_the_queries_after_the_build() -> None:
    td = TopDown(_rule_depth(), build=Budget(steps=50_000))
    s = td.initial_state()
    for _ in range(5):  # every query ticks; none may count against the build's steps
        s = td.next_state(s, ["continue"])
        assert td.legal(s, 0) == ("continue", "giveUp")


# --- deep terms ---------------------------------------------------------------------------


def _deep_game(depth: int) -> str:
    """A game whose rules write terms ``depth`` deep, ground and with variables."""
    ground_a, ground_b = nested(depth, "a"), nested(depth, "b")
    pattern = nested(depth, "?x")
    return "\n".join([
        "(role p) (legal p go) (goal p 100)",
        f"(init (c {ground_a}))",
        f"(<= (next (d {pattern})) (true (c {pattern})))",
        f"(<= (next (c {ground_b})) (true (d {ground_a})))",
        f"(<= terminal (true (c {ground_b})))",
    ])


@pytest.mark.parametrize("depth", [200, MAX_NESTING - 4])
def test_a_term_nested_200_deep_compiles_top_down_and_agrees_with_the_propnet(
    depth: int,
) -> None:
    # The generated code wrote the term as a nested tuple display, and CPython's
    # parser ran out of stack: a MemoryError.  Every term the parser accepts compiles.
    desc = parse(_deep_game(depth))
    td, net = TopDown(desc), Reasoner(desc)
    states: list[tuple[Any, Any]] = [(td.initial_state(), net.initial_state())]
    for _ in range(2):
        a, b = states[-1]
        assert td.fluents(a) == net.fluents(b)
        assert not td.is_terminal(a) and not net.is_terminal(b)
        states.append((td.next_state(a, ["go"]), net.next_state(b, ["go"])))
    a, b = states[-1]
    assert td.fluents(a) == net.fluents(b)
    assert td.is_terminal(a) and net.is_terminal(b)


def test_a_term_nested_200_deep_compiles_in_a_game_as_the_parser_bounds_it() -> None:
    game = f"{GAME} (<= terminal (true t)) (init {nested(200)}) (<= (next ?x) (true ?x))"
    td = TopDown(parse(game))
    s = td.next_state(td.initial_state(), ["go"])
    assert len(s) == 2 and not td.is_terminal(s)


# --- every build stops on its signal -------------------------------------------------------


def _stop_mid_build(build: Callable[[Budget], Any], phase: str) -> float:
    """Run ``build`` in a thread, set its stop signal once the build has reached
    ``phase`` (a meter's ``what``), and return the seconds from the signal to
    :class:`Stopped`.  The build waits at its first look in ``phase`` until the signal
    is set, then works on: the stop must be seen by a later look, however loaded the
    machine (the build cannot have finished meanwhile)."""
    stop = threading.Event()
    reached = threading.Event()
    original = plies.budget.Meter.look

    def look(meter: plies.budget.Meter) -> None:
        if meter.what.startswith(phase) and not reached.is_set():
            reached.set()
            stop.wait(STOP_BOUND)
            return  # this look does not count: the next tick looks again
        original(meter)

    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            build(Budget(stop=stop))
            outcome["error"] = None
        except BaseException as err:
            outcome["error"] = err
        outcome["ended"] = time.monotonic()

    plies.budget.Meter.look = look  # type: ignore[method-assign]
    try:
        worker = threading.Thread(target=run, daemon=True)
        worker.start()
        while not reached.wait(0.01):
            assert worker.is_alive(), f"the build ended before {phase}: {outcome}"
        stopped = time.monotonic()
        stop.set()
        worker.join(STOP_BOUND * 4)
    finally:
        plies.budget.Meter.look = original  # type: ignore[method-assign]
    assert not worker.is_alive(), "the build did not stop"
    assert isinstance(outcome["error"], Stopped), outcome
    assert str(outcome["error"]).startswith(phase)
    return float(outcome["ended"] - stopped)


@pytest.fixture(scope="module")
def big_board() -> Iterator[Description]:
    yield parse(board_game(40))


@pytest.mark.parametrize("phase", [
    "grounding the rules",
    "building the propositional network",
    "compiling the propositional network",
])
def test_every_phase_of_the_propnet_build_is_stopped_by_its_signal(
    big_board: Description, phase: str
) -> None:
    seconds = _stop_mid_build(lambda budget: Reasoner(big_board, budget=budget), phase)
    assert seconds < STOP_BOUND


def test_build_machine_is_stopped_while_it_builds_the_top_down_prover(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(tdcompile, "MAX_SPECIALISED", 1 << 60)
    seconds = _stop_mid_build(
        lambda budget: build_machine(_rule_depth(), budget=budget, prefer="topdown"),
        "compiling the top-down prover",
    )
    assert seconds < STOP_BOUND


# --- the choice of a reasoner counts steps --------------------------------------------------


def test_the_reasoner_choice_counts_steps_so_a_loaded_machine_gets_the_same_reasoner(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A wall-clock budget chose the propnet at load 5 and the top-down prover at load 18.
    desc = parse(board_game(4))
    needed = Reasoner(desc).stats.steps
    enough, short = Budget(steps=needed), Budget(steps=needed - 1)
    assert build_machine(desc, budget=enough).kind == "propnet"
    assert build_machine(desc, budget=short).kind == "topdown"
    original = plies.budget.Meter.look

    def slow_look(meter: plies.budget.Meter) -> None:
        time.sleep(0.002)  # a machine many times busier
        original(meter)

    monkeypatch.setattr(plies.budget.Meter, "look", slow_look)
    assert build_machine(desc, budget=enough).kind == "propnet"
    assert build_machine(desc, budget=short).kind == "topdown"


def test_a_build_whose_seconds_run_out_is_an_error_not_a_choice() -> None:
    with pytest.raises(BudgetExceeded, match=r"ran out of its budget of 0\.05 s"):
        build_machine(parse(state_join_bomb()), budget=Budget(seconds=0.05))


def test_a_budget_without_steps_gets_the_default_steps_for_the_choice() -> None:
    choice = build_machine(parse(state_join_bomb()), budget=Budget(seconds=600),
                           ground_limit=10_000)
    assert choice.kind == "topdown"  # the grounding's cap, not the seconds, decided
    assert "more than 10,000" in choice.reason


def test_build_steps_turns_seconds_of_a_clock_into_a_step_budget() -> None:
    assert build_steps(1.0) == STEPS_PER_SECOND
    assert build_steps(1e-9) == 1
    assert build_steps(1e300) == DEFAULT_BUDGET.steps
    for bad in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="finite and > 0"):
            build_steps(bad)


def test_the_ggp_players_top_down_build_is_stopped_by_its_matchs_stop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The player built the top-down prover without a budget: after the match's STOP
    # the build of ruleDepthExponential kept a core busy.
    from plies.ggp.machines import build_slow

    monkeypatch.setattr(tdcompile, "MAX_SPECIALISED", 1 << 60)
    seconds = _stop_mid_build(lambda budget: build_slow(_rule_depth(), budget),
                              "compiling the top-down prover")
    assert seconds < STOP_BOUND


# --- the propnet's code is compiled in pieces a stop can come between ---------------------


@pytest.mark.parametrize(("name", "states"), [("ticTacToe", 60), ("connectFour", 20),
                                              ("tictactoe_3player", 6), ("hunter", 20)])
def test_propnet_code_split_into_small_helpers_agrees_with_the_prover(
    monkeypatch: pytest.MonkeyPatch, name: str, states: int
) -> None:
    # One generated statement (a 120x120 board's legal(), checkers' table of a megabyte)
    # took Python up to 0.7 s to compile, and a stop waited for it.  Split into helpers of
    # a few lines (every test a function of its own), the network still plays the game.
    from tests.gdl.test_reasoner import agree_with_prover, playout_states

    monkeypatch.setattr(netcompile, "_PART_LINES", 3)
    monkeypatch.setattr(netcompile, "_TABLE_CHARS", 10)
    r = Reasoner(load_kif(GDL_DATA / f"{name}.kif"))
    assert "def legal_0(" in r.compiled.source and "ADD = (" not in r.compiled.source
    rng = random.Random(11)
    sample = playout_states(r, 2, seed=5)
    sample = rng.sample(sample, min(states, len(sample)))
    agree_with_prover(r, Prover(r.description), sample,
                      lambda js: rng.sample(js, min(3, len(js))))


def test_no_statement_of_a_large_boards_propnet_code_is_long() -> None:
    net = Reasoner(parse(board_game(30)))
    source = net.compiled.source
    statements = re.split(r"\n(?=\S)", source)
    assert max(s.count("\n") for s in statements) <= 2 * netcompile._PART_LINES
    assert max(map(len, statements)) < 200_000
