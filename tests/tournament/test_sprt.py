"""The SPRT: Fishtest's log-likelihood ratio, checked against a finished Fishtest run and
against a direct numerical maximum-likelihood fit; tournaments that stop on it."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.errors import OptionError
from plies.parallel import LocalBackend
from plies.tournament import tournament
from plies.tournament.sprt import (
    NELO_PER_T,
    SPRT,
    llr_logistic,
    llr_normalized,
    logistic_score,
    parse_sprt,
    sequential,
)
from tests.clirun import fail, plain_pipe, run, run_json  # noqa: F401

SERIAL = LocalBackend(workers=1)

# A finished Fishtest run (id 6549951b136acbc573529528, "phRed8" against master, STC
# 10+0.1, normalized bounds <0.00, 2.00>), as kept in vdbergh/vtjson's bench.py: the
# server stored llr -2.936953911013966 after 53,184 pairs and showed
# "LLR: -2.94 (-2.94,2.94) <0.00,2.00> ... Ptnml(0-2): 369, 12695, 27124, 12664, 332".
FISHTEST_PENTANOMIAL = [369, 12695, 27124, 12664, 332]
FISHTEST_LLR = -2.936953911013966


def test_llr_equals_a_finished_fishtest_run() -> None:
    assert llr_normalized(0.0, 2.0, FISHTEST_PENTANOMIAL) == pytest.approx(
        FISHTEST_LLR, abs=1e-9
    )
    test = SPRT(0.0, 2.0, model="normalized")
    assert test.lower == pytest.approx(-math.log(19)) and test.upper == pytest.approx(
        math.log(19)
    )
    assert test.decision(test.llr(FISHTEST_PENTANOMIAL)) is None  # shown as -2.94 ...
    # ... and rejected there by Fishtest's overshoot correction of its batched looks.


def _oracle_llr(results: list[int], s0: float, s1: float, t: bool) -> float:
    """The GSPRT LLR by maximising the multinomial likelihood numerically (SciPy):
    the constraint is the mean score (``t`` False) or the t-value (mean - 1/2) / sd."""
    import scipy.optimize as scipy_optimize  # the test group installs SciPy (plies[lp])
    counts = [c if c > 0 else 1e-3 for c in results]
    total = sum(counts)
    values = [i / (len(counts) - 1) for i in range(len(counts))]

    def best(s: float) -> float:
        def constraint(q: list[float]) -> float:
            mean = sum(a * p for a, p in zip(values, q, strict=True))
            if not t:
                return mean - s
            var = sum(p * (a - mean) ** 2 for a, p in zip(values, q, strict=True))
            return (mean - 0.5) - s * math.sqrt(max(var, 1e-300))

        found = scipy_optimize.minimize(
            lambda q: -sum(c * math.log(max(p, 1e-300)) for c, p in zip(counts, q, strict=True)),
            [c / total for c in counts],
            method="SLSQP",
            bounds=[(1e-12, 1.0)] * len(counts),
            constraints=[
                {"type": "eq", "fun": lambda q: sum(q) - 1.0},
                {"type": "eq", "fun": constraint},
            ],
            options={"ftol": 1e-14, "maxiter": 500},
        )
        return -float(found.fun)

    return best(s1) - best(s0)


results3 = st.lists(st.integers(0, 60), min_size=3, max_size=3).filter(
    lambda r: r[0] + r[1] > 0 and r[1] + r[2] > 0 and sum(r) >= 5
)
results5 = st.lists(st.integers(0, 40), min_size=5, max_size=5).filter(
    lambda r: sum(r[:2]) > 0 and sum(r[3:]) > 0 and sum(r) >= 5
)


@settings(max_examples=25, deadline=None)
@given(st.one_of(results3, results5), st.floats(-60, 40), st.floats(5, 60))
def test_logistic_llr_is_the_maximum_likelihood_ratio(
    results: list[int], elo0: float, width: float
) -> None:
    elo1 = elo0 + width
    expected = _oracle_llr(results, logistic_score(elo0), logistic_score(elo1), t=False)
    assert llr_logistic(elo0, elo1, results) == pytest.approx(expected, abs=1e-4, rel=1e-4)


@settings(max_examples=25, deadline=None)
@given(st.one_of(results3, results5), st.floats(-30, 20), st.floats(2, 30))
def test_normalized_llr_is_the_maximum_likelihood_ratio(
    results: list[int], nelo0: float, width: float
) -> None:
    nelo1 = nelo0 + width
    m = (len(results) - 1) // 2
    t0, t1 = (n / NELO_PER_T * math.sqrt(m) for n in (nelo0, nelo1))
    expected = _oracle_llr(results, t0, t1, t=True)
    assert llr_normalized(nelo0, nelo1, results) == pytest.approx(
        expected, abs=1e-4, rel=1e-4
    )


@settings(max_examples=30, deadline=None)
@given(results5, st.floats(-50, 50), st.floats(1, 50), st.sampled_from(["logistic", "normalized"]))
def test_llr_mirrors_when_the_sides_swap(
    results: list[int], elo0: float, width: float, model: str
) -> None:
    # The candidate's score x is the other side's 1 - x: testing elo1 against elo0 on the
    # results equals testing -elo1 against -elo0 on the reversed results, negated.
    test = SPRT(elo0, elo0 + width, model=model)
    mirror = SPRT(-elo0 - width, -elo0, model=model)
    assert test.llr(results) == pytest.approx(-mirror.llr(results[::-1]), abs=1e-7)


def test_sequential_stops_at_the_first_crossing() -> None:
    test = SPRT(0, 100)
    outcome, used = sequential(test, [4] * 50, 2)
    assert outcome.decision == "H1" and used == outcome.units < 50
    before, _ = sequential(test, [4] * (used - 1), 2)
    assert before.decision is None
    outcome, used = sequential(test, [0] * 50, 2)
    assert outcome.decision == "H0" and outcome.results == (used, 0, 0, 0, 0)
    undecided, used = sequential(test, [2, 2], 2)
    assert undecided.decision is None and used == 2 and undecided.llr < 0


def test_bad_tests_are_refused() -> None:
    for text, words in (("5", "ELO0,ELO1"), ("a,b", "ELO0,ELO1"), ("10,0", "elo0 < elo1"),
                        ("0,inf", "finite")):
        with pytest.raises(OptionError, match=words):
            parse_sprt(text)
    with pytest.raises(OptionError, match="alpha"):
        SPRT(0, 5, alpha=0.7)
    with pytest.raises(OptionError, match="frequencies"):
        SPRT(0, 5).llr([1, 2, 3, 4])


def test_a_tournament_stops_when_the_test_decides() -> None:
    agents = ["random", "alphabeta:depth=2"]
    full = tournament("tictactoe", agents, rounds=30, seed=3, backend=SERIAL)
    stopped = tournament("tictactoe", agents, rounds=30, seed=3, backend=SERIAL,
                         sprt=SPRT(0, 100))
    assert stopped.sprt is not None and stopped.sprt.decision == "H0"
    assert stopped.rounds == stopped.sprt.units < 30
    # The games played are the first ones of the full tournament, game for game.
    assert stopped.records == full.records[: 2 * stopped.rounds]
    assert sum(stopped.sprt.results) == stopped.rounds
    limited = tournament("tictactoe", agents, rounds=2, seed=3, backend=SERIAL,
                         sprt=SPRT(0, 100))
    assert limited.sprt is not None and limited.sprt.decision is None and limited.rounds == 2


def test_the_stop_is_the_same_on_a_pool() -> None:
    agents = ["alphabeta:depth=1", "random"]
    one = tournament("tictactoe", agents, rounds=40, seed=5, backend=SERIAL, sprt=SPRT(0, 150))
    pool = tournament("tictactoe", agents, rounds=40, seed=5, backend=LocalBackend(workers=2),
                      sprt=SPRT(0, 150))
    assert one.sprt == pool.sprt and one.records == pool.records


def test_three_agents_and_three_players_count_the_first_against_the_rest() -> None:
    # Three agents of tic-tac-toe: a round is 6 games, 4 with the candidate in them.
    r = tournament("tictactoe", ["alphabeta:depth=2", "random", "random"], rounds=20,
                   seed=2, backend=SERIAL, sprt=SPRT(0, 100))
    assert r.sprt is not None and len(r.sprt.results) == 9
    assert len(r.records) == 6 * r.rounds


def test_cli_sprt(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "tournament", "tictactoe", "--agent", "alphabeta:depth=2", "--agent",
              "random", "--sprt", "0,100", "--seed", "1", "--workers", "1")
    assert "SPRT of alphabeta:depth=2 <0, 100> logistic Elo" in out
    assert "H1 accepted" in out
    data = run_json(capsys, "tournament", "tictactoe", "--agent", "alphabeta:depth=2",
                    "--agent", "random", "--sprt", "0,100", "--seed", "1", "--workers", "1",
                    "--sprt-model", "normalized")
    assert data["sprt"]["decision"] == "H1" and data["sprt"]["model"] == "normalized"
    assert data["games"] == 2 * data["sprt"]["units"]
    message = fail(capsys, "tournament", "tictactoe", "--agent", "random", "--agent",
                   "random", "--sprt", "50")
    assert "ELO0,ELO1" in message and "\n" not in message.strip()
