"""The Elo fit: known answers, recovery of known ratings, interval coverage, edge cases."""

from __future__ import annotations

import math
import random

import pytest

from plies.tournament.elo import SCALE, EloFitError, expected_score, fit_elo


def simulate(
    ratings: list[float], games_per_pair: int, rng: random.Random, draw_rate: float = 0.2
) -> list[tuple[int, int, float]]:
    """Results drawn so that the expected score is Elo's (draws as half points)."""
    results = []
    for i in range(len(ratings)):
        for j in range(i + 1, len(ratings)):
            p = expected_score(ratings[i], ratings[j])
            draw = draw_rate * min(p, 1 - p) * 2  # keeps win and loss odds >= 0
            for _ in range(games_per_pair):
                u = rng.random()
                score = 1.0 if u < p - draw / 2 else 0.5 if u < p + draw / 2 else 0.0
                results.append((i, j, score))
    return results


def log_posterior(ratings: list[float], results: list[tuple[int, int, float]]) -> float:
    """The objective written the plain way: one term per result."""
    total = 0.0
    for i, j, s in results:
        p = expected_score(ratings[i], ratings[j])
        total += s * math.log(p) + (1 - s) * math.log(1 - p)
    return total


def test_two_agents_match_the_closed_form() -> None:
    # 30 wins, 10 losses: p = 3/4, so the difference is 400 log10(3), and the variance
    # of the difference is 1 / (information) = 1 / (SCALE^2 n p (1 - p)).
    fit = fit_elo(2, [(0, 1, 1.0)] * 30 + [(1, 0, 1.0)] * 10, prior=0)
    assert fit.ratings[0] - fit.ratings[1] == pytest.approx(400 * math.log10(3))
    assert fit.ratings[0] == pytest.approx(-fit.ratings[1])
    se_diff = 1 / (SCALE * math.sqrt(40 * 0.75 * 0.25))
    assert fit.stderr[0] == pytest.approx(se_diff / 2)
    low, high = fit.interval(0)
    assert (high - low) / 2 == pytest.approx(1.959964 * se_diff / 2, rel=1e-6)


def test_draws_count_as_half_points() -> None:
    halves = fit_elo(2, [(0, 1, 0.5)] * 20 + [(0, 1, 1.0)] * 10, prior=0)
    wins_losses = fit_elo(2, [(0, 1, 1.0)] * 20 + [(0, 1, 0.0)] * 10, prior=0)  # also 2/3
    assert halves.ratings == pytest.approx(wins_losses.ratings)


def test_fit_maximises_the_plain_log_likelihood() -> None:
    results = simulate([-150, 0, 50, 100], 30, random.Random(5))
    fit = fit_elo(4, results, prior=0)
    best = log_posterior(list(fit.ratings), results)
    for i in range(4):
        for step in (-1.0, 1.0):
            moved = list(fit.ratings)
            moved[i] += step
            assert log_posterior(moved, results) < best
    assert sum(fit.ratings) == pytest.approx(0, abs=1e-9)


def test_recovers_known_ratings() -> None:
    truth = [-300.0, -100.0, 100.0, 300.0]
    fit = fit_elo(4, simulate(truth, 400, random.Random(1)), prior=1)
    for estimate, se, true in zip(fit.ratings, fit.stderr, truth, strict=True):
        assert abs(estimate - true) < 3 * se
        assert abs(estimate - true) < 40
        assert 5 < se < 30


def test_intervals_cover_the_truth_about_95_percent_of_the_time() -> None:
    truth = [-200.0, -50.0, 50.0, 200.0]
    rng = random.Random(2024)
    covered = total = 0
    for _ in range(100):
        fit = fit_elo(4, simulate(truth, 60, rng), prior=0)
        for i, true in enumerate(truth):
            low, high = fit.interval(i)
            covered += low <= true <= high
            total += 1
    assert 0.90 <= covered / total <= 0.99


def test_prior_keeps_a_clean_sweep_finite() -> None:
    sweep = [(0, 1, 1.0)] * 10 + [(1, 2, 0.5)] * 10
    fit = fit_elo(3, sweep, prior=1)
    assert fit.ratings[0] > fit.ratings[1] > fit.ratings[2] - 1e-9
    assert all(math.isfinite(r) and r < 1000 for r in fit.ratings)
    with pytest.raises(EloFitError, match="won or lost every game"):
        fit_elo(3, sweep, prior=0)


def test_even_results_give_equal_ratings() -> None:
    fit = fit_elo(3, [(0, 1, 1.0), (1, 2, 1.0), (2, 0, 1.0)] * 5)
    assert fit.ratings == pytest.approx((0.0, 0.0, 0.0), abs=1e-9)
    assert fit.stderr[0] == pytest.approx(fit.stderr[1])


def test_agents_never_compared_cannot_be_rated() -> None:
    with pytest.raises(EloFitError, match="agent 2 is not connected"):
        fit_elo(4, [(0, 1, 1.0), (2, 3, 0.5)])
