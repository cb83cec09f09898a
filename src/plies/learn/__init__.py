"""Learned evaluations: tune the weights of a linear evaluation from self-play.

A game with a linear evaluation (:class:`plies.linear.LinearEvaluation`: Othello,
empire) plays itself with the engine and some exploration (:mod:`plies.learn.selfplay`);
every visited position, seen by every player, is labelled with that player's outcome;
the weights are fitted by logistic regression or TD(lambda) (:mod:`plies.learn.fit`) and
rescaled to the game's evaluation units; :func:`learn` returns them with a record of how
they were made, which :func:`plies.linear.save_weights` writes and every agent loads
(``alphabeta:depth=3,weights=FILE``, ``plies play GAME --weights FILE``).

>>> from plies.games import load
>>> from plies.learn import learn
>>> from plies.learn.selfplay import SelfPlay
>>> from plies.tournament.agents import parse_agent
>>> plan = SelfPlay(parse_agent("alphabeta:depth=1"), games=4, seed=1, opening=20)
>>> result = learn(load("othello"), plan, method="logistic")
>>> sorted(result.weights) == sorted(load("othello").feature_names)
True
>>> result.training["method"], result.training["games"], result.training["depth"]
('logistic', 4, 1)
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from plies.errors import OptionError
from plies.learn.fit import (
    MAX_ALPHA,
    MAX_EPOCHS,
    MAX_L2,
    Fit,
    calibrated_log_loss,
    constant_feature,
    hand_calibration,
    log_loss,
    logistic,
    td_lambda,
    to_calibrated_scale,
    to_hand_spread,
    to_probability_scale,
)
from plies.learn.selfplay import SelfPlay, Trajectory, samples, self_play, targets
from plies.parallel.backends import Backend, resolve
from plies.version import __version__

METHODS: Final = ("logistic", "td")
SCALES: Final = ("auto", "hand", "probability", "calibrated")
PRIORS: Final = ("zero", "hand")
MAX_GAMES: Final = 1_000_000
"""The most self-play games one run may play (``--games`` times ``--iterations``): every
game's positions are kept in memory for the fit."""
HOLDOUT: Final = 0.2
"""The share of the games (the last ones) kept out of the fit that measures the
log-loss reported beside the weights; the weights themselves are fitted on every game."""


@dataclass(frozen=True, slots=True)
class Learned:
    """Learned weights in evaluation units (``weights``), the hand-set ones they replace
    (``hand``), and ``training``: how they were made and how well they predict (JSON-able,
    written into the weights file)."""

    game: str
    weights: dict[str, float]
    hand: dict[str, float]
    training: dict[str, Any]


def fit(
    method: str,
    trajectories: list[Trajectory],
    options: Mapping[str, float],
    labels: list[tuple[float, ...]] | None = None,
    prior: tuple[float, ...] | None = None,
) -> Fit:
    """Fit ``method`` (``logistic`` or ``td``) to the games.

    ``options``: ``l2`` for logistic regression; ``lambda``, ``alpha``, ``epochs`` for TD.
    ``labels``: each game's target per player (default: the outcome by rank).
    ``prior``: logistic only, the logit-scale weights the L2 penalty shrinks toward.
    """
    if method == "logistic":
        xs, ys = samples(trajectories, labels)
        return logistic(xs, ys, l2=float(options.get("l2", 1.0)), prior=prior)
    if prior is not None:
        raise OptionError("a prior needs --method logistic")
    if method == "td":
        return td_lambda(
            trajectories, lam=float(options.get("lambda", 0.7)),
            alpha=float(options.get("alpha", 0.1)), epochs=int(options.get("epochs", 20)),
            labels=labels,
        )
    raise OptionError(f"unknown method {method!r}; use one of: {', '.join(METHODS)}")


def check_options(
    method: str, options: Mapping[str, float], games: int = 1, iterations: int = 1
) -> None:
    """Refuse fit options and a number of games outside their bounds, before any game is
    played (:data:`MAX_GAMES`, :data:`MAX_EPOCHS`, :data:`MAX_ALPHA`, :data:`MAX_L2`).

    Raises:
        OptionError: the option, its value and the range accepted.
    """
    if iterations < 1:
        raise OptionError(f"--iterations must be at least 1, got {iterations}")
    if games * iterations > MAX_GAMES:
        raise OptionError(
            f"{games:,} games x {iterations:,} iterations is more than the cap of "
            f"{MAX_GAMES:,} self-play games; lower --games or --iterations"
        )
    if method == "logistic":
        l2 = float(options.get("l2", 1.0))
        if not 0.0 <= l2 <= MAX_L2:
            raise OptionError(f"--l2 must be in [0, {MAX_L2:g}], got {l2:g}")
    elif method == "td":
        lam = float(options.get("lambda", 0.7))
        alpha = float(options.get("alpha", 0.1))
        epochs = int(options.get("epochs", 20))
        if not 0.0 <= lam <= 1.0:
            raise OptionError(f"--lambda must be in [0, 1], got {lam:g}")
        if not 0.0 < alpha <= MAX_ALPHA:
            raise OptionError(f"--alpha must be a step size in (0, {MAX_ALPHA:g}], got {alpha:g}")
        if not 1 <= epochs <= MAX_EPOCHS:
            raise OptionError(f"--epochs must be in 1..{MAX_EPOCHS:,}, got {epochs:,}")


def learn(
    game: Any,
    plan: SelfPlay,
    *,
    method: str = "logistic",
    options: Mapping[str, float] | None = None,
    progress: Callable[[int], None] | None = None,
    game_options: Mapping[str, Any] | None = None,
    scale: str = "auto",
    iterations: int = 1,
    prior: str = "zero",
    backend: Backend | None = None,
    weights: Mapping[str, float] | None = None,
) -> Learned:
    """Self-play ``plan.games`` games of ``game`` and fit its evaluation's weights.

    ``game`` is a game or a :class:`~plies.games.GameSpec`; ``weights`` (optional) are
    the weights it starts from instead of its own.  Self-play uses those weights (so a
    game loaded with learned weights learns again from its own play).  With
    ``iterations`` k > 1 this repeats: each round
    plays ``plan.games`` more games with the weights fitted so far and fits again on
    every game played (so the positions the learned weights steer into, and how they
    end, enter the data; a fit on the hand-set policy's games alone learns what goes with
    winning under that policy, not what to aim for).  The scale and the hand-set
    comparison always refer to the starting weights.  The result's ``weights`` are in
    evaluation units (:mod:`plies.learn.fit`, ``scale``).  A game with a constant
    feature (an intercept) and a finite ``utility_range`` is labelled with the utility
    mapped to ``[0, 1]``, any other with the outcome by rank.  ``prior="hand"``
    (logistic, a game with an intercept): the L2 penalty shrinks the fit toward the
    hand-set weights calibrated as a logistic model (:func:`plies.learn.fit.hand_calibration`)
    instead of toward 0, and the scale (``auto``) is ``calibrated``, the inverse of that
    calibration, so a large ``l2`` gives back the hand-set weights.  ``training`` holds the
    method, the games, depth or time, seed, date, plies version, the positions, the labels, the
    scale, the logit-scale weights and the held-out log-loss of the learned and of the
    hand-set weights (the hand-set sum calibrated by a logistic fit of its own, with an
    intercept in the probability case; ``log(2) = 0.693`` is a coin toss between two).
    ``backend``: where the self-play games run (:func:`plies.learn.selfplay.self_play`;
    None: in this process); the games and the weights are the same on every backend.
    Called inside ``with backend:``, every iteration uses the same worker processes.

    Raises:
        OptionError: an unknown method, fit options or a number of games outside their
            bounds (:func:`check_options`, before any game is played), or a game without
            a linear evaluation; see :meth:`SelfPlay.check`.
        UnsupportedGameError: the agent cannot play the game.
        WorkerError: one of those errors met by a worker of ``backend``.
    """
    check_options(method, options or {}, plan.games, iterations)
    start = resolve(game)
    if weights is not None:
        start = start.with_weights(weights)
    trajectories: list[Trajectory] = []
    playing, rounds = weights, []
    for k in range(iterations):
        trajectories += self_play(
            game, plan, progress, first=k * plan.games, backend=backend, weights=playing
        )
        result = learn_from(
            start, trajectories, plan, method=method, options=options,
            game_options=game_options, scale=scale, prior=prior,
        )
        rounds.append({
            key: result.training[key] for key in
            ("positions", "holdout_log_loss_learned", "holdout_log_loss_hand")
            if key in result.training
        } | {"weights": result.weights})
        playing = result.weights
    result.training["games"] = plan.games * iterations
    result.training["iterations"] = iterations
    if iterations > 1:
        result.training["rounds"] = rounds
    return result


def learn_from(
    game: Any,
    trajectories: list[Trajectory],
    plan: SelfPlay,
    *,
    method: str = "logistic",
    options: Mapping[str, float] | None = None,
    game_options: Mapping[str, Any] | None = None,
    scale: str = "auto",
    prior: str = "zero",
) -> Learned:
    """:func:`learn` from games already played (by ``plan``): fit and map the weights."""
    if method not in METHODS:
        raise OptionError(f"unknown method {method!r}; use one of: {', '.join(METHODS)}")
    if scale not in SCALES:
        raise OptionError(f"unknown scale {scale!r}; use one of: {', '.join(SCALES)}")
    if prior not in PRIORS:
        raise OptionError(f"unknown prior {prior!r}; use one of: {', '.join(PRIORS)}")
    options = dict(options or {})
    names = tuple(game.feature_names)
    hand = game.feature_weights()
    hand_vector = [hand[name] for name in names]
    xs, _ = samples(trajectories)
    if not xs:
        raise OptionError("no positions to learn from: play more games or a shorter --opening")
    constant = constant_feature(xs)
    lo, hi = getattr(game, "utility_range", None) or (-math.inf, math.inf)
    finite = math.isfinite(lo) and math.isfinite(hi) and lo < hi
    if (prior == "hand" or scale == "calibrated") and constant is None:
        raise OptionError(
            "the hand prior and the calibrated scale need a constant feature (an intercept)"
        )
    if scale == "auto":
        scale = (
            "calibrated" if prior == "hand"
            else "probability" if constant is not None and finite else "hand"
        )
    elif scale == "probability" and (constant is None or not finite):
        raise OptionError(
            "the probability scale needs a constant feature (an intercept) and a finite "
            "utility_range; use the hand scale"
        )
    # A game with an intercept learns its utility (Empire: the win share); without one
    # the utility may be a margin (Othello's discs), so it learns win, draw or loss.
    by_utility = constant is not None and finite
    labels = targets(trajectories, (lo, hi) if by_utility else None)
    cut = len(trajectories) - int(len(trajectories) * HOLDOUT)
    check: dict[str, Any] = {}
    if 0 < cut < len(trajectories):
        train, held = trajectories[:cut], trajectories[cut:]
        hx, hy = samples(held, labels[cut:])
        tx, ty = samples(train, labels[:cut])
        if hx and tx:
            trial_prior = None
            if prior == "hand":
                assert constant is not None
                trial_prior = hand_calibration(tx, ty, hand_vector, constant)[0]
            trial = fit(method, train, options, labels[:cut], trial_prior)
            check = {
                "holdout_games": len(held),
                "holdout_positions": len(hx),
                "holdout_log_loss_learned": round(log_loss(hx, hy, trial.weights), 5),
                "holdout_log_loss_hand": round(
                    calibrated_log_loss(tx, ty, hx, hy, hand_vector, constant is not None), 5
                ),
            }
    all_x, all_y = samples(trajectories, labels)
    calibration = None
    if prior == "hand" or scale == "calibrated":
        assert constant is not None
        calibration = hand_calibration(all_x, all_y, hand_vector, constant)
    result = fit(method, trajectories, options, labels,
                 calibration[0] if prior == "hand" and calibration else None)
    if scale == "calibrated":
        assert constant is not None and calibration is not None
        vector = to_calibrated_scale(result.weights, calibration[1], calibration[2], constant)
    elif scale == "probability":
        assert constant is not None
        vector = to_probability_scale(xs, result.weights, constant, (lo, hi))
    else:
        vector = to_hand_spread(xs, result.weights, hand_vector, constant)
    weights = dict(zip(names, vector, strict=True))
    limit = plan.agent.limit
    training: dict[str, Any] = {
        "method": method,
        "games": plan.games,
        "depth": None if limit is None else limit.depth,
        "time": None if limit is None else limit.time,
        "agent": plan.agent.label,
        "seed": plan.seed,
        "opening": plan.opening,
        "epsilon": plan.epsilon,
        "options": options,
        "game_options": {k: _plain(v) for k, v in (game_options or {}).items()},
        "start_weights": hand,
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "plies": __version__,
        "positions": len(xs),
        "labels": "utility in [0, 1]" if by_utility else "outcome by rank",
        "scale": scale,
        "prior": prior,
        "fit_iterations": result.iterations,
        "log_loss": round(result.log_loss, 5),
        "logit_weights": dict(zip(names, result.weights, strict=True)),
        **check,
    }
    return Learned(getattr(game, "name", "game"), weights, hand, training)


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


__all__ = [
    "HOLDOUT", "METHODS", "PRIORS", "SCALES", "Learned", "SelfPlay", "fit", "learn", "learn_from",
]
