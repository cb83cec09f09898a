"""The sequential probability ratio test (SPRT) of a match, as Fishtest computes it.

A match is a sequence of *units*, independent and alike: a pair of games with the
colours swapped (a round of a two-agent tournament), or in general one round of the
tournament's schedule.  A unit's result is the candidate's score in it, counted in half
points: ``0 .. 2m`` for ``m`` pairwise results (two games: 0 = two losses, 1 = a loss
and a draw, 2 = two draws or a win and a loss, 3 = a win and a draw, 4 = two wins, the
*pentanomial* count of Fishtest; one game: the trinomial loss, draw, win).  ``results``
is the frequency of each score, ``results[i]`` units scored ``i`` half points.

The hypotheses are ``H0: elo = elo0`` and ``H1: elo = elo1``.  After every unit the
generalised log-likelihood ratio (GSPRT) of the units so far is compared with the bounds
``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``: below the lower one H0 is
accepted (the candidate is not ``elo1`` better), above the upper one H1 is; between
them the match goes on.  ``alpha`` is the chance of accepting H1 when ``elo = elo0``,
``beta`` the chance of accepting H0 when ``elo = elo1``.

The log-likelihood ratio is Fishtest's (``server/fishtest/stats/LLRcalc.py``, by Michel
Van den Bergh), written here from its description:

- ``logistic``: Elo on the logistic scale, ``score = 1 / (1 + 10 ** (-elo / 400))``.  The
  LLR is ``N`` times the mean log ratio of the two maximum-likelihood distributions of
  the unit score whose expectation is the score of ``elo1`` and of ``elo0``
  (Proposition 1.1 of "support_MLE_multinomial.pdf": ``p_i / (1 + x (a_i - s))`` with
  ``x`` the root of the secular equation).
- ``normalized``: normalized Elo (Fishtest's default), ``nelo = 800 / ln 10 * (score -
  1/2) / sigma`` with ``sigma`` the standard deviation of one result, so a bound means the
  same effort whatever the draw rate.  The maximum-likelihood distributions are those
  with a given t-value ``(mu - 1/2) / sigma_unit``, found by the same secular equation
  in a fixed-point loop ("normalized_elo_practical.pdf", section 4.1).

A frequency of 0 is replaced by 0.001 before the fit, as Fishtest does.  No SciPy: the
secular equation's left side falls strictly, so a safeguarded Newton iteration finds
its root.

Cross-checked against a finished Fishtest run (``tests/tournament/test_sprt.py``):
pentanomial ``[369, 12695, 27124, 12664, 332]`` with normalized bounds ``<0.00, 2.00>``
stored ``llr = -2.936953911013966``.  Fishtest rejected it there, just inside the bound
-2.944, by its correction for the overshoot of looks taken in batches; a look after every
unit, as here, needs no such correction.

>>> test = SPRT(0.0, 2.0, model="normalized")
>>> round(test.llr([369, 12695, 27124, 12664, 332]), 6)
-2.936954
>>> test.decision(-2.95), test.decision(0.0), test.decision(3.0)
('H0', None, 'H1')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from plies.errors import OptionError

MODELS: Final = ("logistic", "normalized")
NELO_PER_T: Final = 800 / math.log(10)
"""Normalized Elo per unit of the t-value of one result (``347.43...``)."""
REGULARIZE: Final = 1e-3
"""What a frequency of 0 counts as in the fit (Fishtest's value)."""

Pdf = list[tuple[float, float]]  # (value, probability), values ascending


def logistic_score(elo: float) -> float:
    """The expected score of a player ``elo`` logistic Elo stronger.

    >>> logistic_score(0.0), round(logistic_score(400.0), 4)
    (0.5, 0.9091)
    """
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def logistic_elo(score: float) -> float:
    """The logistic Elo difference of an expected ``score`` (clamped to [0.001, 0.999]).

    >>> round(logistic_elo(0.75), 1)
    190.8
    """
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400.0 * math.log10(1.0 / score - 1.0)


def _pdf(results: Sequence[float]) -> tuple[float, Pdf]:
    """``(N, pdf)``: the number of units and the empirical distribution of the unit mean
    score in [0, 1] (zero counts regularized)."""
    counts = [float(c) if c > 0 else REGULARIZE for c in results]
    total = sum(counts)
    last = len(counts) - 1
    return total, [(i / last, c / total) for i, c in enumerate(counts)]


def _moments(pdf: Pdf) -> tuple[float, float]:
    mean = sum(p * a for a, p in pdf)
    return mean, sum(p * (a - mean) ** 2 for a, p in pdf)


def _secular(pdf: Pdf) -> float:
    """The root ``x`` of ``sum p_i a_i / (1 + x a_i) = 0`` with every ``1 + x a_i > 0``
    (some ``a_i`` negative, some positive)."""
    low = -1.0 / max(a for a, _ in pdf)
    high = -1.0 / min(a for a, _ in pdf)

    def f(x: float) -> tuple[float, float]:
        value = slope = 0.0
        for a, p in pdf:
            d = 1.0 + x * a
            value += p * a / d
            slope -= p * a * a / (d * d)
        return value, slope

    # f falls strictly from +inf at ``low`` to -inf at ``high``: Newton steps, with a
    # bisection whenever a step would leave the bracket.
    x = 0.0
    for _ in range(200):
        value, slope = f(x)
        if abs(value) < 1e-15:
            break
        if value > 0:
            low = x
        else:
            high = x
        step = x - value / slope
        x = step if low < step < high else (low + high) / 2
        if high - low < 1e-15 * max(1.0, abs(x)):
            break
    return x


def _mle_mean(pdf: Pdf, s: float) -> Pdf:
    """The distribution on the same values nearest ``pdf`` (maximum likelihood) with mean
    ``s``."""
    x = _secular([(a - s, p) for a, p in pdf])
    return [(a, p / (1.0 + x * (a - s))) for a, p in pdf]


def _mle_t(pdf: Pdf, ref: float, t: float) -> Pdf:
    """The maximum-likelihood distribution on the same values with t-value
    ``(mu - ref) / sigma = t`` (a fixed-point iteration of the secular equation)."""
    mle = [(a, 1.0 / len(pdf)) for a, _ in pdf]
    for _ in range(100):
        mu, var = _moments(mle)
        sigma = math.sqrt(var)
        shifted = [
            (a - ref - t * sigma * (1.0 + ((mu - a) / sigma) ** 2) / 2.0, p) for a, p in pdf
        ]
        x = _secular(shifted)
        new = [(a, p / (1.0 + x * b)) for (a, p), (b, _) in zip(pdf, shifted, strict=True)]
        done = max(abs(q - r) for (_, q), (_, r) in zip(mle, new, strict=True)) < 1e-12
        mle = new
        if done:
            break
    return mle


def _llr_per_unit(pdf: Pdf, pdf0: Pdf, pdf1: Pdf) -> float:
    return sum(p * (math.log(q1) - math.log(q0))
               for (_, p), (_, q0), (_, q1) in zip(pdf, pdf0, pdf1, strict=True))


def check_results(results: Sequence[float]) -> None:
    """Refuse a frequency list that is not ``2m + 1`` non-negative counts, ``m >= 1``."""
    if len(results) < 3 or len(results) % 2 == 0:
        raise OptionError(
            f"SPRT results are 2m+1 frequencies of a unit's score in half points (3: "
            f"loss, draw, win; 5: a pair of games), got {len(results)}"
        )
    if any(c < 0 for c in results):
        raise OptionError("SPRT result frequencies cannot be negative")


def llr_logistic(elo0: float, elo1: float, results: Sequence[float]) -> float:
    """The GSPRT log-likelihood ratio of ``elo1`` against ``elo0`` (logistic Elo)."""
    check_results(results)
    total, pdf = _pdf(results)
    s0, s1 = logistic_score(elo0), logistic_score(elo1)
    return total * _llr_per_unit(pdf, _mle_mean(pdf, s0), _mle_mean(pdf, s1))


def llr_normalized(nelo0: float, nelo1: float, results: Sequence[float]) -> float:
    """The GSPRT log-likelihood ratio of ``nelo1`` against ``nelo0`` (normalized Elo)."""
    check_results(results)
    per_unit = (len(results) - 1) // 2  # results in a unit: sigma_unit = sigma / sqrt(m)
    t0, t1 = (nelo / NELO_PER_T * math.sqrt(per_unit) for nelo in (nelo0, nelo1))
    total, pdf = _pdf(results)
    return total * _llr_per_unit(pdf, _mle_t(pdf, 0.5, t0), _mle_t(pdf, 0.5, t1))


@dataclass(frozen=True, slots=True)
class SPRT:
    """A sequential test of ``elo0`` (H0) against ``elo1`` (H1); see the module docstring.

    >>> test = SPRT(0, 10)
    >>> round(test.lower, 3), round(test.upper, 3)
    (-2.944, 2.944)
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "logistic"

    def __post_init__(self) -> None:
        if not (math.isfinite(self.elo0) and math.isfinite(self.elo1)):
            raise OptionError("SPRT bounds must be finite numbers of Elo")
        if not self.elo0 < self.elo1:
            raise OptionError(
                f"SPRT needs elo0 < elo1 (H0: elo = elo0, H1: elo = elo1), got "
                f"{self.elo0:g},{self.elo1:g}"
            )
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < value < 0.5:
                raise OptionError(f"SPRT {name} must be in (0, 0.5), got {value:g}")
        if self.model not in MODELS:
            raise OptionError(f"SPRT model {self.model!r}: use one of {', '.join(MODELS)}")

    @property
    def lower(self) -> float:
        """Accept H0 at or below this LLR."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """Accept H1 at or above this LLR."""
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, results: Sequence[float]) -> float:
        """The log-likelihood ratio of the unit ``results`` (0 for no unit yet)."""
        check_results(results)
        if sum(results) == 0:
            return 0.0
        if self.model == "logistic":
            return llr_logistic(self.elo0, self.elo1, results)
        return llr_normalized(self.elo0, self.elo1, results)

    def decision(self, llr: float) -> str | None:
        """``"H1"`` (accepted) past the upper bound, ``"H0"`` past the lower, else None."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    @property
    def label(self) -> str:
        """``<elo0, elo1>`` with the model, as Fishtest shows a test's bounds."""
        return f"<{self.elo0:g}, {self.elo1:g}> {self.model} Elo, alpha {self.alpha:g}, " \
               f"beta {self.beta:g}"


def parse_sprt(text: str, model: str = "logistic", alpha: float = 0.05,
               beta: float = 0.05) -> SPRT:
    """The test written ``ELO0,ELO1`` (e.g. ``0,50``).

    >>> parse_sprt("-5, 20")
    SPRT(elo0=-5.0, elo1=20.0, alpha=0.05, beta=0.05, model='logistic')
    >>> parse_sprt("20")
    Traceback (most recent call last):
    ...
    plies.errors.OptionError: --sprt takes ELO0,ELO1 (e.g. 0,50), got '20'
    """
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        elo0, elo1 = (float(p) for p in parts)
    except ValueError:
        raise OptionError(f"--sprt takes ELO0,ELO1 (e.g. 0,50), got {text!r}") from None
    return SPRT(elo0, elo1, alpha, beta, model)


@dataclass(frozen=True, slots=True)
class SprtOutcome:
    """Where a sequential match stopped: the test, the unit frequencies at the stop,
    their LLR, the decision (``"H1"``, ``"H0"`` or None: the game limit came first) and
    the number of units played."""

    test: SPRT
    results: tuple[int, ...]
    llr: float
    decision: str | None
    units: int

    @property
    def verdict(self) -> str:
        """The decision in words."""
        t = self.test
        if self.decision == "H1":
            return f"H1 accepted (elo >= {t.elo1:g} rather than <= {t.elo0:g})"
        if self.decision == "H0":
            return f"H0 accepted (elo <= {t.elo0:g} rather than >= {t.elo1:g})"
        return "no decision: the game limit came first"

    def as_dict(self) -> dict[str, object]:
        return {
            "elo0": self.test.elo0, "elo1": self.test.elo1, "alpha": self.test.alpha,
            "beta": self.test.beta, "model": self.test.model, "lower": self.test.lower,
            "upper": self.test.upper, "results": list(self.results), "llr": self.llr,
            "decision": self.decision, "units": self.units,
        }


def sequential(test: SPRT, scores: Sequence[int], size: int,
               start: Sequence[int] | None = None) -> tuple[SprtOutcome, int]:
    """Feed unit ``scores`` (half points out of ``2 * size``) to ``test`` one by one,
    after the frequencies ``start``; stop at the first decision.

    Returns the outcome and how many of ``scores`` were used.
    """
    counts = list(start) if start is not None else [0] * (2 * size + 1)
    llr = test.llr(counts)
    used = 0
    for score in scores:
        counts[score] += 1
        used += 1
        llr = test.llr(counts)
        if test.decision(llr) is not None:
            break
    return SprtOutcome(test, tuple(counts), llr, test.decision(llr), sum(counts)), used


__all__ = [
    "MODELS", "SPRT", "SprtOutcome", "llr_logistic", "llr_normalized", "logistic_elo",
    "logistic_score", "parse_sprt", "sequential",
]
