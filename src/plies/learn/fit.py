"""Fitting the weights: logistic regression (Newton's method / IRLS, L2) and TD(lambda).

Both fit the model ``P(player does well at s) = sigmoid(w·f(s, player))`` without an
intercept (a position is evaluated from each player's side, and a constant would not
change any choice).  Features are standardised (divided by their standard deviation over
the samples) before fitting, so that one L2 penalty and one step size suit features of
any scale; the weights are mapped back to the raw features afterwards.

**From the logit scale to evaluation units.**  A search compares evaluations with each
other and with the utilities of finished games, so a weight vector matters by its
direction (which positions are better) and by its scale (how a heuristic value compares
with a proven result).  The fit decides the direction; the scale is set one of two ways
(:func:`plies.learn.learn` picks it, the file records it):

- ``"hand"`` (:func:`to_hand_spread`; the default for a game whose evaluation is a
  monotone score, not a probability, e.g. Othello): one factor so that the weighted sum
  has the same mean absolute value over the training positions as with the game's
  hand-set weights (with a constant feature, an affine map that also matches the mean).
  The learned evaluation then spans the same range as the hand-set one (the same share
  of positions near Othello's ``64 x / (|x| + softness)`` saturation, say) and differs
  only in what it prefers.
- ``"probability"`` (a game with a constant feature, an intercept, e.g. Empire's
  ``bias``, whose evaluation estimates the expected utility): the model is fitted to the
  utility mapped to ``[0, 1]``, and :func:`to_probability_scale` replaces the sigmoid by
  its tangent at the mean logit ``z0`` of the training positions, ``sigmoid(z) ~
  p0 + p0 (1 - p0) (z - z0)``, mapped back to the utility range ``[lo, hi]``; the
  constant goes into the intercept's weight.  The evaluation is then the model's
  expected utility to first order (a game may clip it to its range, as Empire does).

numpy is imported here only, when a fit runs (the ``learn`` extra).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from plies.errors import OptionError

if TYPE_CHECKING:
    from plies.learn.selfplay import Trajectory


@dataclass(frozen=True, slots=True)
class Fit:
    """Weights on the logit scale (``P = sigmoid(w·f)``), one per feature, and how the fit
    went: ``iterations`` (Newton steps or TD epochs) and the mean log-loss on the data."""

    weights: tuple[float, ...]
    iterations: int
    log_loss: float


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:  # pragma: no cover - numpy is installed with the learn extra
        raise OptionError(
            "plies learn needs numpy: pip install 'plies[learn]'"
        ) from None
    return numpy


def _scales(np: Any, x: Any) -> Any:
    """The standard deviation of each column (1 where a feature never varies)."""
    std = x.std(axis=0)
    return np.where(std > 1e-12, std, 1.0)


def log_loss(
    xs: Sequence[Sequence[float]], ys: Sequence[float], weights: Sequence[float]
) -> float:
    """Mean cross-entropy of ``sigmoid(w·x)`` against the targets ``ys`` (in [0, 1])."""
    np = _numpy()
    x, y, w = np.asarray(xs, float), np.asarray(ys, float), np.asarray(weights, float)
    z = x @ w
    # log(1 + e^-z) and log(1 + e^z), computed without overflow
    return float(np.mean(y * np.logaddexp(0.0, -z) + (1.0 - y) * np.logaddexp(0.0, z)))


def logistic(
    xs: Sequence[Sequence[float]],
    ys: Sequence[float],
    *,
    l2: float = 1.0,
    tolerance: float = 1e-9,
    max_iterations: int = 100,
    prior: Sequence[float] | None = None,
) -> Fit:
    """Logistic regression without intercept, L2-penalised, by Newton's method (IRLS).

    Minimises ``sum_i loss(sigmoid(w·x_i), y_i) + l2/2 * |v - v0|^2`` where ``v`` are
    the weights of the standardised features (``y_i`` may be fractional: a draw is 1/2)
    and ``v0`` those of ``prior`` (raw-feature weights on the logit scale; default 0):
    with a prior the penalty shrinks the fit toward it rather than toward 0, so a large
    ``l2`` returns the prior and a small one the plain fit.
    The objective is strictly convex for ``l2 > 0``, so Newton's steps converge to the
    one minimum; a step is halved while it does not decrease the objective.

    Raises:
        OptionError: no samples, ragged rows, targets outside [0, 1], ``l2 < 0``, a
            prior of the wrong length.
    """
    np = _numpy()
    x, y = _checked(np, xs, ys)
    if not 0 <= l2 <= MAX_L2:
        raise OptionError(f"--l2 must be in [0, {MAX_L2:g}], got {l2:g}")
    scale = _scales(np, x)
    z = x / scale
    n, k = z.shape
    if prior is not None and len(prior) != k:
        raise OptionError(f"a prior of {len(prior)} weights for {k} features")
    v0 = np.zeros(k) if prior is None else np.asarray(prior, float) * scale
    v = v0.copy()

    def objective(v: Any) -> float:
        t = z @ v
        d = v - v0
        return float(np.sum(y * np.logaddexp(0.0, -t) + (1 - y) * np.logaddexp(0.0, t))
                     + l2 / 2 * d @ d)

    current = objective(v)
    iterations = 0
    for iterations in range(1, max_iterations + 1):  # noqa: B007 - reported after the loop
        p = 1.0 / (1.0 + np.exp(-(z @ v)))
        gradient = z.T @ (p - y) + l2 * (v - v0)
        hessian = (z * (p * (1 - p))[:, None]).T @ z + (l2 + 1e-12) * np.eye(k)
        step = np.linalg.solve(hessian, gradient)
        t = 1.0
        while t > 1e-8:
            candidate = objective(v - t * step)
            if candidate <= current:
                break
            t /= 2
        v = v - t * step
        change, current = current - candidate, candidate
        if float(np.max(np.abs(t * step))) < tolerance or change < tolerance * max(1.0, n):
            break
    w = v / scale
    return Fit(tuple(float(a) for a in w), iterations, log_loss(x, y, w))


MAX_EPOCHS: Final = 10_000
"""The most TD sweeps over the games (``--epochs``)."""
MAX_ALPHA: Final = 100.0
"""The largest TD step size (``--alpha``); the default is 0.1."""
MAX_L2: Final = 1e12
"""The largest L2 penalty (``--l2``): past it the fit is the prior, whatever the games."""

_CLIP: Final = 500.0
"""The logit at which TD's sigmoid is taken as 0 or 1 (within e^-500)."""


def td_lambda(
    trajectories: Sequence[Trajectory],
    *,
    lam: float = 0.7,
    alpha: float = 0.1,
    epochs: int = 20,
    labels: Sequence[tuple[float, ...]] | None = None,
) -> Fit:
    """TD(lambda) on the recorded self-play games, linear-sigmoid values.

    For each game and each player ``p``, ``V_t = sigmoid(w·f(s_t, p))`` over the
    recorded positions ``s_0 .. s_T-1`` and ``V_T = outcome(p)``; the backward view with
    accumulating eligibility traces: ``e <- lambda e + grad V_t``,
    ``w <- w + alpha/k (V_t+1 - V_t) e`` (``k`` features, standardised), one sweep over
    all games per epoch, the step size decaying as ``1/sqrt(epoch)``.  With ``lam = 1``
    the updates sum to those of a Monte Carlo regression on the outcome; smaller
    ``lam`` bootstraps from the next position's value (Sutton 1988, Tesauro's TD-Gammon).
    ``labels``: the final value of each game per player (default: its outcome by rank).

    Raises:
        OptionError: no positions, lam outside [0, 1], alpha <= 0, epochs < 1.
    """
    np = _numpy()
    if not 0.0 <= lam <= 1.0:
        raise OptionError(f"--lambda must be in [0, 1], got {lam}")
    if not 0 < alpha <= MAX_ALPHA or not 1 <= epochs <= MAX_EPOCHS:
        raise OptionError(
            f"TD needs a step size in (0, {MAX_ALPHA:g}] and 1..{MAX_EPOCHS:,} epochs, got "
            f"{alpha:g}, {epochs:,}"
        )
    finals = [t.outcome for t in trajectories] if labels is None else list(labels)
    games = [(t, final) for t, final in zip(trajectories, finals, strict=True) if t.features]
    if not games:
        raise OptionError("no positions to learn from: play more games or a shorter --opening")
    everything = np.asarray([f for t, _ in games for row in t.features for f in row], float)
    scale = _scales(np, everything)
    k = everything.shape[1]
    v = np.zeros(k)
    players = len(games[0][1])
    sequences = [
        (np.asarray([row[p] for row in t.features], float) / scale, final[p])
        for t, final in games for p in range(players)
    ]
    v = _td_epochs(np, sequences, v, lam=lam, alpha=alpha, epochs=epochs)
    w = v / scale
    xs = [f for t, _ in games for row in t.features for f in row]
    ys = [final[p] for t, final in games for _ in t.features for p in range(players)]
    return Fit(tuple(float(a) for a in w), epochs, log_loss(xs, ys, w))


def _td_epochs(
    np: Any, sequences: list[tuple[Any, float]], v: Any, *, lam: float, alpha: float,
    epochs: int,
) -> Any:
    """The TD(lambda) sweeps of :func:`td_lambda` from the weights ``v``.

    Raises:
        OptionError: a weight is no longer finite after a sweep (``alpha`` too large).
    """
    with np.errstate(over="ignore", invalid="ignore"):  # divergence is checked below
        return _sweeps(np, sequences, v, lam=lam, alpha=alpha, epochs=epochs)


def _sweeps(
    np: Any, sequences: list[tuple[Any, float]], v: Any, *, lam: float, alpha: float,
    epochs: int,
) -> Any:
    k = len(v)
    for epoch in range(1, epochs + 1):
        rate = alpha / k / math.sqrt(epoch)
        for z, outcome in sequences:
            e = np.zeros(k)
            # Clipped: exp(710) overflows, and sigmoid(+-500) is 0 or 1 to 200 digits.
            values = 1.0 / (1.0 + np.exp(-np.clip(z @ v, -_CLIP, _CLIP)))
            for t in range(len(z)):
                value = values[t]
                e = lam * e + value * (1 - value) * z[t]
                target = outcome if t + 1 == len(z) else values[t + 1]
                v = v + rate * (target - value) * e
                # The next values change with v; recomputing one value is enough.
                if t + 1 < len(z):
                    x = min(max(float(z[t + 1] @ v), -_CLIP), _CLIP)
                    values[t + 1] = 1.0 / (1.0 + math.exp(-x))
        if not np.all(np.isfinite(v)):
            raise OptionError(
                f"TD(lambda) diverged at epoch {epoch} (a weight grew past any float); "
                f"use a smaller --alpha than {alpha:g}"
            )
    return v


def to_hand_spread(
    xs: Sequence[Sequence[float]],
    learned: Sequence[float],
    hand: Sequence[float],
    constant: tuple[int, float] | None,
) -> tuple[float, ...]:
    """``learned`` in the hand-set weights' units (module docstring, ``"hand"``).

    Without a constant feature: ``c * learned`` with ``c`` from
    :func:`to_evaluation_scale`.  With one (``(index, value)``): the affine map
    ``a * learned·x + b`` whose mean and mean absolute deviation over ``xs`` equal those
    of ``hand·x``, ``b`` put into the constant feature's weight.
    """
    if constant is None:
        factor = to_evaluation_scale(xs, learned, hand)
        return tuple(factor * w for w in learned)
    np = _numpy()
    x = np.asarray(xs, float)
    mine, theirs = x @ np.asarray(learned, float), x @ np.asarray(hand, float)
    spread = float(np.mean(np.abs(mine - mine.mean())))
    target = float(np.mean(np.abs(theirs - theirs.mean())))
    a = target / spread if spread > 0 and target > 0 else 1.0
    b = float(theirs.mean()) - a * float(mine.mean())
    weights = [a * w for w in learned]
    index, value = constant
    weights[index] += b / value
    return tuple(weights)


def to_evaluation_scale(
    xs: Sequence[Sequence[float]], learned: Sequence[float], hand: Sequence[float]
) -> float:
    """The factor that gives ``learned`` the hand-set weights' scale (module docstring):
    ``mean |hand·x| / mean |learned·x|`` over the samples; 1 when either is 0."""
    np = _numpy()
    x = np.asarray(xs, float)
    mine = float(np.mean(np.abs(x @ np.asarray(learned, float))))
    theirs = float(np.mean(np.abs(x @ np.asarray(hand, float))))
    return theirs / mine if mine > 0 and theirs > 0 else 1.0


def constant_feature(xs: Sequence[Sequence[float]]) -> tuple[int, float] | None:
    """``(index, value)`` of the first feature with the same nonzero value in every
    sample (an intercept), or None."""
    np = _numpy()
    x = np.asarray(xs, float)
    for j in range(x.shape[1]):
        if x[0, j] != 0 and np.all(x[:, j] == x[0, j]):
            return j, float(x[0, j])
    return None


def to_probability_scale(
    xs: Sequence[Sequence[float]],
    learned: Sequence[float],
    constant: tuple[int, float],
    utility_range: tuple[float, float],
) -> tuple[float, ...]:
    """The weights whose sum is the tangent of ``lo + (hi - lo) sigmoid(learned·x)`` at
    the mean logit of ``xs`` (see the module docstring); ``constant``: the intercept
    feature's ``(index, value)``."""
    np = _numpy()
    z0 = float(np.mean(np.asarray(xs, float) @ np.asarray(learned, float)))
    p0 = 1.0 / (1.0 + math.exp(-z0))
    slope = p0 * (1.0 - p0)
    lo, hi = utility_range
    weights = [(hi - lo) * slope * w for w in learned]
    index, value = constant
    weights[index] += (lo + (hi - lo) * (p0 - slope * z0)) / value
    return tuple(weights)


def hand_calibration(
    xs: Sequence[Sequence[float]],
    ys: Sequence[float],
    hand: Sequence[float],
    constant: tuple[int, float],
) -> tuple[tuple[float, ...], float, float]:
    """The hand-set sum as a logistic model: ``(prior, a, b)`` with ``sigmoid(a hand·x +
    b)`` fitted to the samples and ``prior`` its logit-scale weights (``a hand``, ``b``
    put into the intercept feature ``constant``), the start and the centre of a fit with
    ``logistic(..., prior=prior)``; :func:`to_calibrated_scale` maps back with ``a, b``."""
    np = _numpy()
    sums = np.asarray(xs, float) @ np.asarray(hand, float)
    a, b = logistic([[v, 1.0] for v in sums.tolist()], ys, l2=1e-6).weights
    prior = [a * w for w in hand]
    index, value = constant
    prior[index] += b / value
    return tuple(prior), a, b


def to_calibrated_scale(
    learned: Sequence[float], a: float, b: float, constant: tuple[int, float]
) -> tuple[float, ...]:
    """``learned`` (logit scale) in the hand-set weights' units through the inverse of
    their calibration ``sigmoid(a hand·x + b)`` (:func:`hand_calibration`): the sum
    ``(learned·x - b) / a``, so the prior itself maps back to the hand-set weights and a
    fit near it to weights near them, with the same range of sums (and clipping).

    Raises:
        OptionError: ``a <= 0`` (the hand-set sum does not rise with the outcome).
    """
    if not a > 0:
        raise OptionError(f"the hand-set evaluation does not predict the outcome (slope {a:.3g})")
    index, value = constant
    weights = list(learned)
    weights[index] -= b / value
    return tuple(w / a for w in weights)


def calibrated_log_loss(
    train_x: Sequence[Sequence[float]],
    train_y: Sequence[float],
    test_x: Sequence[Sequence[float]],
    test_y: Sequence[float],
    weights: Sequence[float],
    intercept: bool,
) -> float:
    """The held-out log-loss of the sum ``w·x`` as a predictor: ``sigmoid(a w·x (+ b))``
    with ``a`` (and ``b``) fitted on the training samples.  How well a fixed weight
    vector's direction (the hand-set one) predicts outcomes, in the learned model's terms."""
    np = _numpy()

    def columns(xs: Sequence[Sequence[float]]) -> list[list[float]]:
        s = np.asarray(xs, float) @ np.asarray(weights, float)
        return [[v, 1.0] if intercept else [v] for v in s.tolist()]

    calibration = logistic(columns(train_x), train_y, l2=1e-6)
    return log_loss(columns(test_x), test_y, calibration.weights)


def _checked(np: Any, xs: Sequence[Sequence[float]], ys: Sequence[float]) -> tuple[Any, Any]:
    if len(xs) == 0:
        raise OptionError("no positions to learn from: play more games or a shorter --opening")
    try:
        x = np.asarray(xs, float)
    except ValueError:
        raise OptionError("feature rows of different lengths") from None
    y = np.asarray(ys, float)
    if x.ndim != 2 or y.shape != (x.shape[0],):
        raise OptionError(f"{len(xs)} feature rows and {len(ys)} targets do not match")
    if np.any((y < 0) | (y > 1)) or not np.all(np.isfinite(x)):
        raise OptionError("targets must lie in [0, 1] and features be finite numbers")
    return x, y
