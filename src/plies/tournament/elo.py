"""Elo ratings from game results: a Bradley-Terry fit with 95% intervals.

The model (Elo's logistic curve, i.e. Bradley-Terry on a base-10 scale of 400): agent
``i`` scores against agent ``j`` with expectation

    p_ij = 1 / (1 + 10 ** ((r_j - r_i) / 400)).

Every result counts as a score ``s`` of 1 (win), 1/2 (draw) or 0 (loss), and the ratings
maximise the log-likelihood ``sum s log p_ij + (1 - s) log(1 - p_ij)`` over all results
(draws as half points).  Ratings are defined up to a constant: they are reported with
mean 0.

An agent that wins (or loses) every game has no finite maximum-likelihood rating, which
happens all the time in small tournaments (a search against a random player).  So by
default every pair of agents that met also gets ``prior`` *virtual draws*, as BayesElo
does: the fit is then a maximum a posteriori estimate, always finite, and pulls ratings
together by about as much as one drawn game between each pair.  ``prior=0`` is plain
maximum likelihood.

The fit is Newton's method on the concave log-posterior (one rating fixed to 0 while
solving).  Intervals come from its curvature (the Laplace approximation): the
covariance of the ratings is the inverse of the observed information (minus the
Hessian) at the optimum, carried over to the mean-0 ratings, and a 95% interval is
``rating +- 1.96 standard errors``.  The intervals assume independent results; in a
game of more than two players each game is split into a result for every pair of its
players, which are not independent, so there they are only indicative.

>>> fit = fit_elo(2, [(0, 1, 1.0)] * 30 + [(0, 1, 0.0)] * 10, prior=0)
>>> round(fit.ratings[0] - fit.ratings[1], 2)  # 75 % is 400 log10(3) Elo
190.85
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from plies.errors import PliesError

SCALE = math.log(10) / 400  # the logistic slope of one Elo point
Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution
MAX_RATING = 10_000.0  # beyond this a fit without prior is diverging


class EloFitError(PliesError):
    """Ratings that cannot be fitted: agents never compared, or a diverging fit."""


@dataclass(frozen=True, slots=True)
class EloFit:
    """Fitted ratings (mean 0) with standard errors; see the module docstring."""

    ratings: tuple[float, ...]
    stderr: tuple[float, ...]
    prior: float
    iterations: int

    def interval(self, i: int, z: float = Z95) -> tuple[float, float]:
        """The 95% interval (by default) of agent ``i``'s rating."""
        half = z * self.stderr[i]
        return self.ratings[i] - half, self.ratings[i] + half


def expected_score(r_i: float, r_j: float) -> float:
    """Elo's expected score of a player rated ``r_i`` against one rated ``r_j``.

    >>> expected_score(400, 0)
    0.9090909090909091
    """
    return 1.0 / (1.0 + math.exp(-SCALE * (r_i - r_j)))


def fit_elo(
    n: int, results: Iterable[tuple[int, int, float]], *, prior: float = 1.0
) -> EloFit:
    """Elo ratings of agents ``0..n-1`` from pairwise ``(i, j, score of i)`` results.

    ``score`` is 1, 0.5 or 0 (any value in [0, 1] is accepted).  ``prior`` virtual
    draws are added to every pair that met (see the module docstring).

    Raises:
        EloFitError: some agents are not connected by any chain of games, or the fit
            diverges because ``prior=0`` and an agent won or lost every game.
    """
    if prior < 0:
        raise ValueError(f"prior must be >= 0, got {prior}")
    games = [[0.0] * n for _ in range(n)]
    points = [[0.0] * n for _ in range(n)]
    for i, j, score in results:
        if i == j or not 0.0 <= score <= 1.0:
            raise ValueError(f"bad result {(i, j, score)}")
        games[i][j] += 1
        games[j][i] += 1
        points[i][j] += score
        points[j][i] += 1.0 - score
    for i in range(n):
        for j in range(n):
            if games[i][j] > 0:
                games[i][j] += prior
                points[i][j] += prior / 2
    _check_connected(games)
    ratings = [0.0] * n
    iterations = 0
    if n > 1:
        ratings, iterations = _newton(games, points)
    cov = _covariance(games, ratings)
    mean = sum(ratings) / n if n else 0.0
    return EloFit(
        tuple(r - mean for r in ratings),
        tuple(math.sqrt(max(cov[i][i], 0.0)) for i in range(n)),
        prior,
        iterations,
    )


def _check_connected(games: Sequence[Sequence[float]]) -> None:
    n = len(games)
    if n <= 1:
        return
    seen = {0}
    frontier = [0]
    while frontier:
        i = frontier.pop()
        for j in range(n):
            if games[i][j] > 0 and j not in seen:
                seen.add(j)
                frontier.append(j)
    if len(seen) < n:
        apart = min(set(range(n)) - seen)
        raise EloFitError(f"agent {apart} is not connected to agent 0 by any game")


def _log_likelihood(
    games: Sequence[Sequence[float]], points: Sequence[Sequence[float]], ratings: Sequence[float]
) -> float:
    total = 0.0
    for i, row in enumerate(games):
        for j, count in enumerate(row):
            if count > 0 and points[i][j] > 0:
                d = SCALE * (ratings[i] - ratings[j])
                # log p_ij = -log(1 + e^-d), written to stay finite for large |d|
                total -= points[i][j] * (max(-d, 0.0) + math.log1p(math.exp(-abs(d))))
    return total


def _gradient(
    games: Sequence[Sequence[float]], points: Sequence[Sequence[float]], ratings: Sequence[float]
) -> list[float]:
    """The log-likelihood's gradient."""
    n = len(games)
    return [
        sum(
            SCALE * (points[i][j] - games[i][j] * expected_score(ratings[i], ratings[j]))
            for j in range(n)
            if j != i and games[i][j] > 0
        )
        for i in range(n)
    ]


def _information(games: Sequence[Sequence[float]], ratings: Sequence[float]) -> list[list[float]]:
    """The observed information: minus the log-likelihood's Hessian."""
    n = len(games)
    info = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if j != i and games[i][j] > 0:
                p = expected_score(ratings[i], ratings[j])
                w = SCALE * SCALE * games[i][j] * p * (1.0 - p)
                info[i][i] += w
                info[i][j] -= w
    return info


def _newton(
    games: Sequence[Sequence[float]], points: Sequence[Sequence[float]]
) -> tuple[list[float], int]:
    """Maximise the log-likelihood with rating 0 fixed at 0 (Newton with step halving)."""
    n = len(games)
    ratings = [0.0] * n
    current = _log_likelihood(games, points, ratings)
    for iteration in range(1, 201):
        grad, info = _gradient(games, points, ratings), _information(games, ratings)
        try:
            step = _solve([row[1:] for row in info[1:]], grad[1:])
        except EloFitError:  # the graph is connected: the information vanished far out
            break
        scale = 1.0
        while True:
            trial = [0.0, *(r + scale * s for r, s in zip(ratings[1:], step, strict=True))]
            value = _log_likelihood(games, points, trial)
            if value >= current - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        moved = max((abs(scale * s) for s in step), default=0.0)
        ratings, current = trial, value
        if max(abs(r) for r in ratings) > MAX_RATING:
            break
        if moved < 1e-9:
            return ratings, iteration
    raise EloFitError(
        "the Elo fit diverges: an agent won or lost every game; fit with a prior > 0"
    )


def _covariance(games: Sequence[Sequence[float]], ratings: Sequence[float]) -> list[list[float]]:
    """Covariance of the mean-0 ratings: the inverse information, centred."""
    n = len(games)
    if n <= 1:
        return [[0.0] * n for _ in range(n)]
    info = _information(games, ratings)
    reduced = _inverse([row[1:] for row in info[1:]])
    full = [[0.0] * n for _ in range(n)]
    for i in range(1, n):
        for j in range(1, n):
            full[i][j] = reduced[i - 1][j - 1]
    # centre: cov(A r) = A cov(r) A^T with A = I - 11^T / n
    row_mean = [sum(row) / n for row in full]
    col_mean = [sum(full[i][j] for i in range(n)) / n for j in range(n)]
    grand = sum(row_mean) / n
    return [
        [full[i][j] - row_mean[i] - col_mean[j] + grand for j in range(n)] for i in range(n)
    ]


def _solve(matrix: Sequence[Sequence[float]], rhs: Sequence[float]) -> list[float]:
    """``x`` with ``matrix @ x == rhs`` (Gauss-Jordan with partial pivoting)."""
    inverse = _inverse(matrix)
    return [sum(a * b for a, b in zip(row, rhs, strict=True)) for row in inverse]


def _inverse(matrix: Sequence[Sequence[float]]) -> list[list[float]]:
    n = len(matrix)
    a = [[*row, *(1.0 if i == j else 0.0 for j in range(n))] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-300:
            raise EloFitError("the Elo fit is singular: agents are not connected by games")
        a[col], a[pivot] = a[pivot], a[col]
        lead = a[col][col]
        a[col] = [x / lead for x in a[col]]
        for r in range(n):
            if r != col and a[r][col] != 0.0:
                factor = a[r][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col], strict=True)]
    return [row[n:] for row in a]
