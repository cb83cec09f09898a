"""Mixed strategies at simultaneous steps (plies.ggp.stage): the stage game, its LP, the
seeded draw, the pessimistic option, and a whole match over HTTP.

Every random draw is seeded, so the frequency tests are exact replays, not flaky
statistics: their bounds are generous (more than three standard deviations) so that a
change of seeds would not break them either.
"""

from __future__ import annotations

import functools
import logging
import random
import sys
import time
import warnings
from collections import Counter
from typing import Any

import nashpy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import plies
from plies.cli import main
from plies.errors import OptionError
from plies.games.matrix import MatrixGame
from plies.gdl.game import GdlGame
from plies.gdl.parser import parse
from plies.gdl.reasoner import Reasoner
from plies.gdl.terms import Term
from plies.ggp import stage as stage_module
from plies.ggp.player import GgpPlayer
from plies.ggp.stage import MixedStrategy, StageGame, security_strategy, stage_game
from plies.ggp.strategy import choose_move
from plies.ggp.thinker import Choice, Clock, Mode, Profile, Simultaneous, Thinker
from plies.search.simultaneous import MissingDependencyError
from tests.ggp.helpers import FAST, rules, serving
from tests.ggp.manager import GameManager, HttpSeat, RandomSeat
from tests.ggp.test_strategy import GAMBLE

# A one-shot game: "a" and "b" are the two halves of the row's equilibrium (value 55);
# "c" (40 either way) is strictly dominated by the mixture of a and b, "d" by "a" alone.
DOMINATED = """
(role row) (role column)
(legal row a) (legal row b) (legal row c) (legal row d)
(legal column x) (legal column y)
(<= (next (played ?r ?c)) (does row ?r) (does column ?c))
(<= terminal (true (played ?r ?c)))
(pay a x 100) (pay a y 10) (pay b x 10) (pay b y 100)
(pay c x 40) (pay c y 40) (pay d x 90) (pay d y 5)
(<= (goal row ?v) (true (played ?r ?c)) (pay ?r ?c ?v))
(<= (goal column ?w) (true (played ?r ?c)) (pay ?r ?c ?v) (minus ?v ?w))
(minus 100 0) (minus 10 90) (minus 40 60) (minus 90 10) (minus 5 95)
"""

# Three roles choose a bit at once; all of them win when the three bits have even
# parity.  Not zero-sum (a common payoff), so the row's security level counts the other
# two as one opponent that minimises it: 50, by mixing its bit evenly.
PARITY = """
(role a) (role b) (role c)
(<= (legal ?r (bit 0)) (role ?r)) (<= (legal ?r (bit 1)) (role ?r))
(<= (next (chose ?r ?x)) (does ?r (bit ?x)))
(<= terminal (true (chose a ?x)))
(xor 0 0 0) (xor 0 1 1) (xor 1 0 1) (xor 1 1 0)
(<= even (true (chose a ?x)) (true (chose b ?y)) (true (chose c ?z)) (xor ?x ?y ?w) (xor ?w ?z 0))
(<= (goal ?r 100) (role ?r) even)
(<= (goal ?r 0) (role ?r) (not even))
"""

# Matching pennies for 60 rounds; only the last round counts and goals say nothing before
# the end (50 for everyone): a depth-limited search cannot tell the moves apart.  The
# state remembers every round played, so no transposition table collapses the 4^60
# histories and the game cannot be solved in the clocks used here.
PENNIES = (
    "(role row) (role column)"
    " (<= (legal ?r heads) (role ?r)) (<= (legal ?r tails) (role ?r))"
    " (init (round 0))"
    " (<= (next (round ?n)) (true (round ?m)) (succ ?m ?n))"
    " (<= (next matched) (does row ?x) (does column ?x))"
    " (<= (next (played ?n ?x ?y)) (true (round ?n)) (does row ?x) (does column ?y))"
    " (<= (next (played ?n ?x ?y)) (true (played ?n ?x ?y)))"
    " (<= terminal (true (round 60)))"
    " (<= (goal row 100) terminal (true matched)) (<= (goal row 0) terminal (not (true matched)))"
    " (<= (goal column 0) terminal (true matched))"
    " (<= (goal column 100) terminal (not (true matched)))"
    " (<= (goal ?r 50) (role ?r) (not terminal))"
    + "".join(f" (succ {k} {k + 1})" for k in range(60))
)

INLINE = {"dominated": DOMINATED, "parity": PARITY, "gamble": GAMBLE, "pennies": PENNIES}
ROSHAMBO = ("paper", "rock", "scissors", "well")  # the rules' order of the moves


@functools.cache
def reasoner_of(name: str) -> Reasoner:
    return Reasoner(parse(INLINE.get(name) or rules(name)))


def informative(informative: bool = True) -> Profile:
    """A profile that lets the player search (a fast reasoner; informative goals)."""
    return Profile(
        playouts=10, steps=100, speed=1e5, length=10, branching=4, informative=informative
    )


def think(
    name: str,
    state: Any = None,
    *,
    role: int = 0,
    seed: int = 0,
    seconds: float = 30.0,
    mode: Mode = "auto",
    simultaneous: Simultaneous = "mixed",
    max_playouts: int | None = None,
    goals: bool = True,
) -> Choice:
    """The move the player chooses at ``state`` (default: the initial state); ``goals``:
    whether metagaming found the goals informative.

    The clock is only a bound: the positions used here are solved well before it."""
    reasoner = reasoner_of(name)
    state = reasoner.initial_state() if state is None else state
    thinker = Thinker(
        GdlGame(reasoner), reasoner, role, informative(goals), random.Random(99), mode=mode,
        simultaneous=simultaneous, sampler=random.Random(seed), max_playouts=max_playouts,
    )
    choice = Choice(reasoner.legal(state, role)[0])
    choose_move(thinker, state, Clock(time.perf_counter() + seconds), choice)
    assert choice.done.is_set()
    return choice


def roshambo_last_round() -> Any:
    """roshambo2 after eight drawn rounds: one round is left, a one-shot stage game."""
    reasoner = reasoner_of("roshambo2")
    state = reasoner.initial_state()
    for _ in range(8):
        state = reasoner.next_state(state, ["paper", "paper"])
    assert not reasoner.is_terminal(state)
    return state


def successor_goals(name: str, state: Any, role: int) -> tuple[StageGame, list[list[float]]]:
    """The stage game at ``state`` with each cell worth ``role``'s goal at its successor."""
    reasoner = reasoner_of(name)
    stage = stage_game(reasoner.legal_all(state), role)
    matrix = [
        [
            float(reasoner.goal(reasoner.next_state(state, stage.joint(i, j)), role))
            for j in range(len(stage.replies))
        ]
        for i in range(len(stage.own))
    ]
    return stage, matrix


# --- the stage game and its LP ---------------------------------------------------------------


def test_roshambo_stage_is_uniform_over_paper_scissors_well_with_value_50() -> None:
    # Rock is weakly dominated by well (well beats rock and scissors, loses to paper), so
    # the equilibrium is the rock-paper-scissors cycle of paper, scissors and well.
    stage, matrix = successor_goals("roshambo2", reasoner_of("roshambo2").initial_state(), 0)
    assert stage.own == ROSHAMBO and stage.cells == 16
    strategy = security_strategy(stage, matrix)
    assert strategy.value == pytest.approx(50.0, abs=1e-6)
    assert strategy.probabilities == pytest.approx([1 / 3, 0.0, 1 / 3, 1 / 3], abs=1e-6)


def test_roshambo_stage_agrees_with_the_simultaneous_solver_and_nashpy() -> None:
    stage, matrix = successor_goals("roshambo2", reasoner_of("roshambo2").initial_state(), 0)
    ours = security_strategy(stage, matrix)
    names = [str(m) for m in stage.own]
    game = MatrixGame(names, names, [[(v, 100 - v) for v in row] for row in matrix])
    solved = plies.simultaneous(game, game.initial_state(), player=0)
    assert solved.value == pytest.approx(ours.value, abs=1e-6)
    assert solved.strategy is not None
    assert [solved.strategy[n] for n in names] == pytest.approx(ours.probabilities, abs=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # nashpy warns about degenerate games
        row, _ = next(nashpy.Game(matrix).vertex_enumeration())
    assert list(row) == pytest.approx(ours.probabilities, abs=1e-6)


def test_the_search_at_a_one_shot_stage_solves_the_matrix_of_its_successors() -> None:
    state = roshambo_last_round()
    stage, matrix = successor_goals("roshambo2", state, 1)
    choice = think("roshambo2", state, role=1)
    move, source, detail = choice.read()
    assert source == "mixed" and move in ("paper", "scissors", "well")
    assert detail == (
        "backward induction depth 1 (exact): "
        + security_strategy(stage, matrix).describe()
    )
    assert detail.endswith("mixed (paper 0.33, rock 0, scissors 0.33, well 0.33), value 50")


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    st.integers(2, 4).flatmap(  # nashpy's vertex enumeration needs 2 moves a side
        lambda m: st.lists(
            st.lists(st.integers(0, 100), min_size=m, max_size=m), min_size=2, max_size=4
        )
    )
)
def test_security_value_is_the_zero_sum_equilibrium_value(matrix: list[list[int]]) -> None:
    stage = StageGame(0, tuple(f"m{i}" for i in range(len(matrix))), ((),) * len(matrix[0]))
    strategy = security_strategy(stage, matrix)
    # The strategy secures its value against every column ...
    for j in range(len(matrix[0])):
        secured = sum(p * row[j] for p, row in zip(strategy.probabilities, matrix, strict=True))
        assert secured >= strategy.value - 1e-6
    # ... and the value is what every Nash equilibrium of the zero-sum game pays the row
    # (vertex enumeration: no linear program involved).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # nashpy warns about degenerate games
        # As a constant-sum game with payoffs above zero, as nashpy's polytopes need.
        shifted = [[v + 1 for v in row] for row in matrix]
        theirs = [[101 - v for v in row] for row in matrix]
        equilibria = list(nashpy.Game(shifted, theirs).vertex_enumeration())
    assert equilibria
    for row, column in equilibria:
        assert row @ shifted @ column - 1 == pytest.approx(strategy.value, abs=1e-6)


def test_three_roles_the_others_are_one_opponent() -> None:
    reasoner = reasoner_of("parity")
    state = reasoner.initial_state()
    stage = stage_game(reasoner.legal_all(state), 1)
    assert stage.own == (("bit", "0"), ("bit", "1")) and len(stage.replies) == 4
    # Our own move sits at our role's place in the joint move.
    assert stage.joint(1, 2) == (("bit", "1"), ("bit", "1"), ("bit", "0"))
    _, matrix = successor_goals("parity", state, 1)
    strategy = security_strategy(stage, matrix)
    assert strategy.value == pytest.approx(50.0)
    assert strategy.probabilities == pytest.approx([0.5, 0.5])
    moves = Counter(think("parity", role=1, seed=seed).read()[0] for seed in range(40))
    assert set(moves) == {("bit", "0"), ("bit", "1")}


def test_sample_inverts_the_cumulative_distribution_and_skips_zeros() -> None:
    strategy = MixedStrategy(("a", "b", "c", "d"), (0.0, 0.25, 0.0, 0.75), 1.0)
    assert strategy.sample(0.0) == "b"
    assert strategy.sample(0.2499) == "b"
    assert strategy.sample(0.25) == "d"
    assert strategy.sample(0.999999) == "d"
    assert strategy.sample(1.0) == "d"  # round-off beyond the sum: the last possible move
    assert strategy.describe() == "mixed (a 0, b 0.25, c 0, d 0.75), value 1"


# --- playing: frequencies, dominance, seeds -----------------------------------------------------


def test_roshambo_plays_paper_scissors_well_a_third_of_the_time_each() -> None:
    state = roshambo_last_round()
    moves = Counter(think("roshambo2", state, seed=seed).read()[0] for seed in range(300))
    assert moves["rock"] == 0
    for move in ("paper", "scissors", "well"):
        assert 70 <= moves[move] <= 130, moves  # expected 100, standard deviation 8.2


def test_a_strictly_dominated_move_is_never_played() -> None:
    moves = Counter(think("dominated", seed=seed).read()[0] for seed in range(200))
    assert set(moves) == {"a", "b"}, moves
    assert 70 <= moves["a"] <= 130, moves  # the equilibrium mixes a and b evenly
    _, _, detail = think("dominated").read()
    assert detail.endswith("mixed (a 0.5, b 0.5, c 0, d 0), value 55")


def test_prisoners_dilemma_plays_the_dominant_defect() -> None:
    for seed in range(2):
        move, source, detail = think("gt_prisoner", seed=seed, seconds=0.5).read()
        assert (move, source) == ("defect", "mixed")
        assert "mixed (cooperate 0, defect 1)" in detail


def test_the_same_seed_gives_the_same_moves() -> None:
    def moves(seed: int) -> list[Term]:
        state = roshambo_last_round()
        return [think("roshambo2", state, seed=s).read()[0] for s in range(seed, seed + 12)]

    assert moves(5) == moves(5)
    assert moves(5) != moves(105)


def test_the_same_player_seed_gives_the_same_replies() -> None:
    rules_message = GameManager(rules("roshambo2")).rules_message

    def replies(seed: int) -> list[str]:
        # alpha-beta's stage games: UCT's own draws depend on how far its tree grew
        player = GgpPlayer(seed=seed, margin=0.8, metagame_cap=0.2,  # 0.25 s a step
                           mode="alphabeta")
        assert player.handle(f"(START m white {rules_message} 5 1)").body == "ready"
        out: list[str] = []
        last = "NIL"
        for theirs in ("rock", "paper"):
            out.append(player.handle(f"(PLAY m {last})").body)
            last = f"({out[-1]} {theirs})"
        assert player.handle("(ABORT m)").body == "aborted"
        return out

    assert replies(5) == replies(5)
    assert replies(5) != replies(6)


def test_one_draw_per_step_whatever_the_search_reached() -> None:
    # Searches of different lengths at the opening (none reaches the end of the match)
    # draw the move the seed's first number picks from the strategy, the same at every
    # depth: the draw does not depend on how many iterations the clock allowed.
    uniform = MixedStrategy(ROSHAMBO, (1 / 3, 0.0, 1 / 3, 1 / 3), 50.0)
    for seed in range(2):
        expected = uniform.sample(random.Random(seed).random())
        for seconds in (0.2, 0.8):
            move, source, detail = think("roshambo2", seed=seed, seconds=seconds).read()
            assert (move, source) == (expected, "mixed")
            assert detail.startswith("backward induction depth ")


# --- the pessimistic option and the fallbacks -------------------------------------------------


def test_pessimistic_option_reproduces_the_pure_paper_of_issue_14() -> None:
    # The issue's match: plies played paper in every round of roshambo2, the first of the
    # moves that all lose when the opponent answers knowing ours.
    reasoner = reasoner_of("roshambo2")
    state = reasoner.initial_state()
    for _ in range(3):
        move, source, detail = think("roshambo2", state, simultaneous="pessimistic").read()
        assert (move, source) == ("paper", "alphabeta")
        assert detail.endswith("value 0 (exact)")
        state = reasoner.next_state(state, [move, "scissors"])


def test_pessimistic_option_keeps_the_cautious_pure_move_of_the_gamble() -> None:
    assert think("gamble", simultaneous="pessimistic").read()[:2] == ("safe", "alphabeta")
    move, source, detail = think("gamble").read()
    assert (move, source) == ("safe", "mixed")  # 40 for sure beats any mix with bold
    assert detail.endswith("mixed (bold 0, safe 1), value 40")


def test_montecarlo_values_fill_the_stage_matrix() -> None:
    move, source, detail = think("gamble", mode="montecarlo", max_playouts=400).read()
    assert (move, source) == ("safe", "mixed")
    assert detail.startswith("Monte Carlo, 400 playouts over 4 joint moves: mixed (bold 0, safe 1)")


@pytest.mark.parametrize("name", ["gamble", "roshambo2"])
def test_montecarlo_stage_on_compiled_batches_fills_the_same_matrix(name: str) -> None:
    compiled = Reasoner(parse(INLINE.get(name) or rules(name)), backend="numba")
    assert compiled.native is not None  # made: the stage's playouts move over to it
    state = compiled.initial_state() if name == "gamble" else roshambo_last_round()
    details = []
    for reasoner in (reasoner_of(name), compiled):
        thinker = Thinker(
            GdlGame(reasoner), reasoner, 0, informative(), random.Random(99),
            mode="montecarlo", sampler=random.Random(0), max_playouts=640,
        )
        choice = Choice(reasoner.legal(state, 0)[0])
        choose_move(thinker, state, Clock(time.perf_counter() + 30.0), choice)
        details.append(choice.read()[2])
    cells = "4" if name == "gamble" else "16"
    for detail in details:
        assert detail.startswith(f"Monte Carlo, 640 playouts over {cells} joint moves: mixed")
    if name == "gamble":  # the same security strategy from both
        assert details[0] == details[1]


def test_uninformative_goals_go_from_the_search_to_montecarlo_values() -> None:
    # 60 rounds cannot be searched to the end in the first half of the clock, and every
    # cut-off scores 50, so the second half fills the matrix with playouts instead.
    move, source, detail = think("pennies", seconds=0.6, goals=False).read()
    assert source == "mixed" and move in ("heads", "tails")
    assert detail.startswith("Monte Carlo, "), detail
    assert " playouts over 4 joint moves: mixed (heads " in detail


def test_montecarlo_stage_of_roshambo_mixes() -> None:
    state = roshambo_last_round()
    moves = Counter(
        think("roshambo2", state, seed=seed, mode="montecarlo", max_playouts=320).read()[0]
        for seed in range(60)
    )
    assert len(moves) >= 3, moves  # no pure strategy: at least paper, scissors and well


def test_a_stage_too_large_is_played_pessimistically(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage_module, "MAX_CELLS", 15)
    move, source, _ = think("roshambo2").read()
    assert (move, source) == ("paper", "alphabeta")


def test_without_scipy_the_step_is_played_pessimistically(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def missing(payoffs: Any) -> Any:
        raise MissingDependencyError("solving a matrix game ... needs SciPy")

    # plies.search re-exports the function simultaneous under the module's name.
    module = sys.modules["plies.search.simultaneous"]
    monkeypatch.setattr(module, "solve_matrix_game", missing)
    with caplog.at_level(logging.WARNING, logger="plies.ggp"):
        move, source, _ = think("roshambo2", roshambo_last_round()).read()
    assert (move, source) == ("paper", "alphabeta")
    assert "playing the pessimistic sequentialisation" in caplog.text


@pytest.mark.parametrize("method", ["mcts", "alphabeta"])
def test_where_metagaming_chose_uct_a_simultaneous_step_is_uct_s(method: str) -> None:
    """Metagaming's choice decides how a simultaneous step is played: UCT's decoupled
    statistics (the tree looks past the step), or alpha-beta's stage game."""
    reasoner = reasoner_of("roshambo2")
    thinker = Thinker(GdlGame(reasoner), reasoner, 0, informative(True), random.Random(99),
                      sampler=random.Random(0), method=method)  # type: ignore[arg-type]
    state = reasoner.initial_state()
    choice = Choice(reasoner.legal(state, 0)[0])
    choose_move(thinker, state, Clock(time.perf_counter() + 0.3), choice)
    move, source, _ = choice.read()
    assert source == {"mcts": "mcts", "alphabeta": "mixed"}[method]
    assert str(move) in {"rock", "paper", "scissors", "well"}


def test_a_step_where_only_we_choose_is_not_a_stage() -> None:
    # tic-tac-toe's first step: xplayer chooses, oplayer can only noop.
    _, source, _ = think("ticTacToe", seconds=0.3).read()
    assert source == "alphabeta"


# --- the player and the command line -------------------------------------------------------------


def test_unknown_simultaneous_option_is_refused() -> None:
    with pytest.raises(OptionError, match="use one of: mixed, pessimistic"):
        GgpPlayer(simultaneous="optimistic")  # type: ignore[arg-type]


def test_serve_passes_simultaneous_to_the_player(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from plies.ggp import server as server_module

    made: list[GgpPlayer] = []

    class Stub:
        def __init__(self, player: GgpPlayer, host: str, port: int) -> None:
            made.append(player)
            self.player, self.url = player, f"http://{host}:{port}/"

        def serve_forever(self) -> None:
            raise KeyboardInterrupt

        def server_close(self) -> None:
            """Nothing was bound: the stub never opened a socket."""

    monkeypatch.setattr(server_module, "GgpServer", Stub)
    assert main(["ggp", "serve", "--simultaneous", "pessimistic"]) == 0
    assert main(["ggp", "serve"]) == 0
    assert [p.simultaneous for p in made] == ["pessimistic", "mixed"]
    assert main(["ggp", "serve", "--simultaneous", "optimistic"]) == 2
    assert "invalid choice: 'optimistic'" in capsys.readouterr().err


def test_roshambo_match_over_http_against_a_random_player(
    caplog: pytest.LogCaptureFixture,
) -> None:
    manager = GameManager(rules("roshambo2"))
    with (caplog.at_level(logging.INFO, logger="plies.ggp"),
          serving(seed=3, mode="alphabeta", **FAST) as plies_):  # alpha-beta's stage games
        record = manager.play_match(
            [HttpSeat(plies_.host, plies_.port), RandomSeat(random.Random(4))],
            match_id="mixed.1", play_clock=1,
        )
        player = plies_.player
    assert record.errors == []  # every reply legal and before the clock
    assert record.goals is not None and sum(record.goals) == 100
    latencies = record.latencies(0)
    assert len(latencies) == len(record.steps) and max(latencies) < 1.0
    last = player.last
    assert last is not None and last.moves == [step.joint for step in record.steps]
    played = [line for line in caplog.messages if "match mixed.1 step" in line]
    assert len(played) == len(record.steps)
    assert all(" by mixed on propnet, " in line for line in played), played
    # A step whose first search iteration did not end in time (the machine is shared)
    # plays its uniform draw; the others show their strategy.
    assert any("mixed (paper 0.33, rock 0, scissors 0.33, well 0.33)" in x for x in played)
