"""Move selection without HTTP: known positions, the two methods, the clock and failures."""

from __future__ import annotations

import functools
import random
import threading
import time
from typing import Any

import pytest

from plies.gdl.game import GdlGame
from plies.gdl.parser import parse
from plies.gdl.reasoner import Reasoner
from plies.gdl.terms import Term
from plies.ggp.strategy import choose_move, montecarlo, profile_game, useful_depth
from plies.ggp.thinker import (
    NEUTRAL,
    Choice,
    Clock,
    GoalEvaluated,
    Mode,
    Profile,
    Simultaneous,
    Thinker,
)
from tests.ggp.helpers import rules

# A one-shot simultaneous game in which the cautious move and the greedy move differ:
# "safe" earns 40 whatever the column does; "bold" earns 100 or 0.  Pessimistic
# sequentialisation (the column answers knowing our move) prefers safe (40 > 0); against
# a uniformly random column bold is better on average (50 > 40).
GAMBLE = """
(role row) (role column)
(legal row safe) (legal row bold) (legal column left) (legal column right)
(<= (next (played ?a ?b)) (does row ?a) (does column ?b))
(<= terminal (true (played ?a ?b)))
(<= (goal row 40) (true (played safe ?b)))
(<= (goal row 100) (true (played bold left)))
(<= (goal row 0) (true (played bold right)))
(<= (goal column 60) (true (played safe ?b)))
(<= (goal column 0) (true (played bold left)))
(<= (goal column 100) (true (played bold right)))
"""


@functools.cache
def reasoner_of(name: str) -> Reasoner:
    text = GAMBLE if name == "gamble" else rules(name)
    return Reasoner(parse(text))


def far() -> Clock:
    return Clock(time.perf_counter() + 60.0)


def think(
    name: str,
    *,
    role: int = 0,
    moves: list[Term] | None = None,
    mode: Mode = "auto",
    max_playouts: int | None = None,
    clock: Clock | None = None,
    profile: Profile | None = None,
    simultaneous: Simultaneous = "mixed",
) -> Choice:
    reasoner = reasoner_of(name)
    state = reasoner.initial_state()
    for joint in moves or ():
        state = reasoner.next_state(state, joint)
    rng = random.Random(1)
    if profile is None:
        profile = profile_game(reasoner, reasoner.initial_state(), far(), rng, max_playouts=50)
    thinker = Thinker(
        GdlGame(reasoner), reasoner, role, profile, rng, mode=mode, max_playouts=max_playouts,
        simultaneous=simultaneous,
    )
    choice = Choice(reasoner.legal(state, role)[0])
    choose_move(thinker, state, clock or far(), choice)
    assert choice.done.is_set()
    return choice


# --- metagaming ------------------------------------------------------------------------------


def test_profile_of_buttons() -> None:
    reasoner = reasoner_of("buttons")
    profile = profile_game(
        reasoner, reasoner.initial_state(), far(), random.Random(0), max_playouts=60
    )
    assert profile.playouts == 60
    assert 1 <= profile.length <= 6  # buttons ends after 6 moves at the latest
    assert profile.branching == 3  # three buttons, always
    assert not profile.informative  # goal 0 in every unfinished state
    assert profile.speed > 0


def test_profile_sees_informative_goals_in_nim() -> None:
    # nim1 gives every state a goal (the player in control has 0, the other 100).
    reasoner = reasoner_of("nim1")
    profile = profile_game(reasoner, reasoner.initial_state(), far(), random.Random(0),
                           max_playouts=20)
    assert profile.informative


def test_profile_stops_at_the_clock() -> None:
    reasoner = reasoner_of("ticTacToe")
    profile = profile_game(reasoner, reasoner.initial_state(), Clock(0.0), random.Random(0))
    assert profile.playouts == 0 and profile.depth(10.0) == 0.0


def test_estimated_depth() -> None:
    profile = Profile(playouts=1, speed=1000.0, branching=10.0, length=30.0)
    assert profile.depth(1.0) == pytest.approx(3.0)  # 1000 nodes = 10^3
    assert Profile(playouts=1, speed=1000.0, branching=1.0).depth(1.0) == float("inf")
    assert useful_depth(Profile(playouts=1, length=30.0, informative=True)) == 2
    assert useful_depth(Profile(playouts=1, length=30.0)) == 4
    assert useful_depth(Profile(playouts=1, length=1.0)) == 1


# --- the evaluation ----------------------------------------------------------------------------


def test_evaluation_uses_goals_only_when_they_are_informative() -> None:
    reasoner = reasoner_of("connectFour")  # goal 0 for both in every unfinished state
    game = GdlGame(reasoner)
    state = reasoner.initial_state()
    assert reasoner.goal(state, 0) == 0
    assert GoalEvaluated(game, reasoner, informative=False).evaluate(state, 0) == NEUTRAL
    assert GoalEvaluated(game, reasoner, informative=True).evaluate(state, 0) == 0.0
    ttt = reasoner_of("ticTacToe")  # no goal at all before the end
    view = GoalEvaluated(GdlGame(ttt), ttt, informative=True)
    assert view.evaluate(ttt.initial_state(), 1) == NEUTRAL


# --- alpha-beta ---------------------------------------------------------------------------------


def test_alphabeta_finds_the_only_winning_move_in_nim() -> None:
    # Heaps 1, 5, 4, 2 have nim-sum 2: the only move to nim-sum 0 empties heap d.
    choice = think("nim1", mode="alphabeta")
    move, source, detail = choice.read()
    assert move == ("reduce", "d", "0")
    assert source == "alphabeta" and "value 100 (exact)" in detail


def test_alphabeta_blocks_and_wins_in_tictactoe() -> None:
    x, o = ("mark", "1", "1"), ("mark", "2", "2")
    # x: (1 1) (1 2); o: (2 2) (3 3).  x to move has a win (at (1 3), or a fork).
    win = think("ticTacToe", moves=[(x, "noop"), ("noop", o), (("mark", "1", "2"), "noop"),
                                    ("noop", ("mark", "3", "3"))])
    assert "value 100 (exact)" in win.read()[2]
    # x: (1 1) (3 3); o: (2 2) (1 3).  o threatens (3 1); blocking there also forks (2 1)
    # and (3 2), so it is the one move that wins (any other loses at once).
    block = think("ticTacToe", moves=[(x, "noop"), ("noop", o), (("mark", "3", "3"), "noop"),
                                      ("noop", ("mark", "1", "3"))])
    assert block.read()[0] == ("mark", "3", "1")
    assert "value 100 (exact)" in block.read()[2]


def test_a_forced_move_is_played_at_once() -> None:
    choice = think("ticTacToe", role=1)  # oplayer can only noop at the start
    assert choice.read()[:2] == ("noop", "forced")


def test_pessimistic_sequentialisation_at_a_simultaneous_root() -> None:
    # The option; by default simultaneous steps are mixed (tests/ggp/test_stage.py).
    choice = think("gamble", mode="alphabeta", simultaneous="pessimistic")
    move, source, detail = choice.read()
    assert (move, source) == ("safe", "alphabeta")
    assert "value 40 (exact)" in detail


def test_simultaneous_roshambo_plays_an_own_move() -> None:
    choice = think("roshambo2", role=1, mode="alphabeta", clock=Clock(time.perf_counter() + 0.3))
    assert choice.read()[0] in ("rock", "paper", "scissors", "well")


# --- Monte Carlo ----------------------------------------------------------------------------


def test_montecarlo_prefers_the_best_mean_against_random_play() -> None:
    choice = think("gamble", mode="montecarlo", max_playouts=400, simultaneous="pessimistic")
    move, source, detail = choice.read()
    assert (move, source) == ("bold", "montecarlo")
    assert detail.startswith("400 playouts over 2 moves")


def test_montecarlo_counts_and_restricts_to_candidates() -> None:
    reasoner = reasoner_of("buttons")
    choice = Choice("a")
    n = montecarlo(reasoner, reasoner.initial_state(), 0, far(), random.Random(0), choice,
                   moves=["b", "c"], max_playouts=30)
    assert n == 30
    assert choice.read()[0] in ("b", "c")


def test_a_game_too_deep_to_search_goes_to_montecarlo() -> None:
    # A profile that says not even two plies fit in the time: sampling only.
    hopeless = Profile(playouts=10, speed=1.0, branching=30.0, length=60.0)
    choice = think("connectFour", profile=hopeless, max_playouts=16)
    assert choice.read()[1] == "montecarlo"


def test_uninformative_goals_screen_with_search_then_sample() -> None:
    # Connect Four's goals say nothing before the end: the search only screens the moves,
    # and playouts choose among those it does not refute.
    profile = Profile(playouts=10, speed=10_000.0, branching=8.0, length=22.0)
    choice = think("connectFour", profile=profile, max_playouts=64,
                   clock=Clock(time.perf_counter() + 1.0))
    assert choice.read()[1] == "montecarlo"


# --- the clock and failures ---------------------------------------------------------------


def test_cancel_stops_thinking() -> None:
    reasoner = reasoner_of("connectFour")
    thinker = Thinker(GdlGame(reasoner), reasoner, 0, Profile(), random.Random(0),
                      mode="montecarlo")
    clock = far()
    choice = Choice(reasoner.legal(reasoner.initial_state(), 0)[0])
    worker = threading.Thread(target=choose_move,
                              args=(thinker, reasoner.initial_state(), clock, choice))
    worker.start()
    clock.cancel.set()
    worker.join(timeout=30)
    assert not worker.is_alive() and choice.done.is_set()


class Broken:
    """A reasoner that fails after a few questions."""

    def __init__(self, inner: Reasoner, calls: int) -> None:
        self.inner, self.calls = inner, calls

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if not callable(attr):
            return attr

        def call(*args: Any) -> Any:
            self.calls -= 1
            if self.calls < 0:
                raise RuntimeError("reasoner broke")
            return attr(*args)

        return call


def test_a_failing_reasoner_leaves_a_legal_move(caplog: Any) -> None:
    inner = reasoner_of("ticTacToe")
    broken: Any = Broken(inner, 3)
    thinker = Thinker(GdlGame(inner), broken, 0, Profile(), random.Random(0), mode="montecarlo")
    choice = Choice(("mark", "1", "1"))
    choose_move(thinker, inner.initial_state(), far(), choice)
    assert choice.done.is_set() and choice.read() == (("mark", "1", "1"), "fallback", "")
    assert "thinking failed" in caplog.text


@pytest.mark.parametrize("name", ["gamble", "buttons"])
def test_montecarlo_on_compiled_playouts_finds_the_same_best_move(name: str) -> None:
    python, compiled = reasoner_of(name), Reasoner(parse(GAMBLE if name == "gamble" else
                                                         rules(name)), backend="numba")
    assert compiled.native is not None  # made: the playouts move over to it
    moves = []
    for reasoner in (python, compiled):
        choice = Choice(reasoner.legal(reasoner.initial_state(), 0)[0])
        n = montecarlo(reasoner, reasoner.initial_state(), 0, far(), random.Random(0), choice,
                       max_playouts=600)
        assert n == 600
        moves.append(choice.read()[0])
    assert moves[0] == moves[1]
