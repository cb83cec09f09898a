"""SPSA: tune an evaluation's weights by the results of matches.

Simultaneous perturbation stochastic approximation (Spall 1992), as Fishtest tunes
Stockfish's parameters.  Every iteration ``k`` draws a random sign ``flip_i = +-1`` for
every tuned weight, plays one *unit* between ``theta + c_k flip`` (plus) and ``theta -
c_k flip`` (minus) with the same search, and moves every weight by

    theta_i += a_k * R / (c_k flip_i)

where ``R`` is plus's result in the unit: wins minus losses of a pair of games with the
colours swapped in a two-player game; in a game of N players the unit is N games in
which plus, minus and N - 2 agents with the starting weights take every seat in turn,
and ``R`` sums ``(N - 1) * (plus's rank score - minus's)`` (a win over minus counts 1 in
a two-player game).  A weight is kept within its bounds.

The gains are Spall's and Fishtest's: ``c_k = c / k^gamma`` and ``a_k = a / (A +
k)^alpha`` with ``alpha = 0.602``, ``gamma = 0.101``, ``A`` a tenth of the iterations,
``c = c_end * N^gamma`` so that the last perturbation is ``c_end``, and ``a = r_end
c_end^2 (A + N)^alpha``: a weight's last step is ``r_end * c_end * R``.  ``c_end`` is a
change of the weight that should cost a few Elo; ``rate`` is ``r_end``.

Units are played in batches on any backend of :mod:`plies.parallel`; every unit of a
batch starts from the weights at the start of the batch (as Fishtest's workers play
with the weights of their last report), and the updates are then applied in iteration
order.  Flips and game seeds come from the seed and the iteration number alone, so a run
is a pure function of its seed and its batch size: the same on one process, a pool or
Ray (with agents limited by depth or nodes; ``time`` depends on the machine).

>>> from plies.parallel import LocalBackend
>>> result = spsa("tictactoe", "alphabeta:depth=1", [], iterations=1,
...               backend=LocalBackend(1))
Traceback (most recent call last):
...
plies.errors.OptionError: tictactoe has no linear evaluation (feature weights); ...
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from plies.errors import OptionError
from plies.games import GameSpec
from plies.linear import has_weights, weighted
from plies.parallel.backends import Backend, LocalBackend, resolve
from plies.parallel.batch import position
from plies.tournament.agents import AgentSpec, parse_agent
from plies.tournament.tournament import (
    game_seed,
    play_game,
    random_opening_of,
    rank_scores,
    replay_opening,
    schedule,
)

ALPHA: Final = 0.602
GAMMA: Final = 0.101
A_SHARE: Final = 0.1
"""``A`` as a share of the iterations (Fishtest's default)."""
DEFAULT_RATE: Final = 0.05
DEFAULT_BATCH: Final = 8
MAX_ITERATIONS: Final = 1_000_000


@dataclass(frozen=True, slots=True)
class Param:
    """One tuned weight: its name, start, last perturbation ``c_end`` and bounds."""

    name: str
    start: float
    c_end: float
    low: float = -math.inf
    high: float = math.inf

    def clamp(self, value: float) -> float:
        return min(max(value, self.low), self.high)


def parse_param(text: str, weights: Mapping[str, float]) -> Param:
    """The weight written ``NAME``, ``NAME=C`` or ``NAME=C:LOW:HIGH``, starting from
    ``weights[NAME]``.  ``C`` (the last perturbation) defaults to a quarter of the start's
    size.

    >>> parse_param("cities", {"cities": 0.4})
    Param(name='cities', start=0.4, c_end=0.1, low=-inf, high=inf)
    >>> parse_param("cities=0.05:0:1", {"cities": 0.4})
    Param(name='cities', start=0.4, c_end=0.05, low=0.0, high=1.0)

    Raises:
        OptionError: an unknown name (the message lists the weights), a value that is not
            a number, a perturbation that is not positive, bounds that do not hold the
            start.
    """
    name, sep, rest = text.partition("=")
    name = name.strip()
    if name not in weights:
        raise OptionError(
            f"no weight {name!r} to tune; the weights: {', '.join(weights)}"
        )
    start = float(weights[name])
    parts = rest.split(":") if sep else []
    if len(parts) not in (0, 1, 3):
        raise OptionError(f"--param {text!r}: write NAME, NAME=C or NAME=C:LOW:HIGH")
    try:
        numbers = [float(p) for p in parts]
    except ValueError:
        raise OptionError(f"--param {text!r}: C, LOW and HIGH are numbers") from None
    if numbers:
        c_end = numbers[0]
    elif start != 0:
        c_end = abs(start) / 4
    else:
        raise OptionError(
            f"--param {name}: its weight is 0, so give the perturbation: {name}=C"
        )
    if not (math.isfinite(c_end) and c_end > 0):
        raise OptionError(f"--param {text!r}: the perturbation C must be a number > 0")
    low, high = (numbers[1], numbers[2]) if len(numbers) == 3 else (-math.inf, math.inf)
    if not low <= start <= high or math.isnan(low) or math.isnan(high):
        raise OptionError(f"--param {text!r}: the start {start:g} is not in [{low:g}, {high:g}]")
    return Param(name, start, c_end, low, high)


@dataclass(frozen=True, slots=True)
class Gains:
    """The gain sequences of a run of ``iterations`` (see the module docstring)."""

    iterations: int
    rate: float = DEFAULT_RATE
    alpha: float = ALPHA
    gamma: float = GAMMA

    @property
    def big_a(self) -> float:
        return A_SHARE * self.iterations

    def c(self, param: Param, k: int) -> float:
        """The perturbation of iteration ``k`` (0-based)."""
        n = self.iterations
        return float(param.c_end * n**self.gamma / (k + 1) ** self.gamma)

    def a(self, param: Param, k: int) -> float:
        """The step gain of iteration ``k`` (0-based)."""
        n, big_a = self.iterations, self.big_a
        a = self.rate * param.c_end**2 * (big_a + n) ** self.alpha
        return float(a / (big_a + k + 1) ** self.alpha)


def flips(seed: int, k: int, count: int) -> tuple[int, ...]:
    """The signs of iteration ``k`` of a run seeded ``seed``.

    >>> flips(1, 0, 4) == flips(1, 0, 4)
    True
    """
    rng = random.Random(f"plies-spsa/{seed}/{k}")
    return tuple(rng.choice((-1, 1)) for _ in range(count))


@dataclass(frozen=True, slots=True)
class _Evaluating:
    """An agent that searches with its own game (the same rules, other weights)."""

    spec: AgentSpec
    game: Any

    def choose(self, game: Any, state: Any, player: int, seed: int) -> tuple[Any, int]:
        return self.spec.choose(self.game, state, player, seed)


@dataclass(frozen=True, slots=True)
class _Unit:
    game: Any  # a GameSpec or a picklable game
    agent: AgentSpec
    base: tuple[tuple[str, float], ...]  # the weights of the other seats
    seatings: tuple[tuple[int, ...], ...]
    start: Any


Weights = tuple[tuple[str, float], ...]


def unit_task(
    setup: _Unit, task: tuple[int, Weights, Weights, tuple[int, ...], tuple[str, ...]]
) -> float:
    """Play unit ``task = (k, plus weights, minus weights, game seeds, random opening)``;
    plus's ``R``."""
    _, plus, minus, seeds, opening = task
    game = resolve(setup.game)
    start = replay_opening(game, setup.start, opening) if opening else setup.start
    n = game.num_players
    base = weighted(game, dict(setup.base))
    players = [
        _Evaluating(setup.agent, weighted(game, dict(plus))),
        _Evaluating(setup.agent, weighted(game, dict(minus))),
        *[_Evaluating(setup.agent, base)] * (n - 2),
    ]
    total = 0.0
    for seats, seed in zip(setup.seatings, seeds, strict=True):
        final, _, _, _ = play_game(game, players, seats, seed, start)
        scores = rank_scores([float(game.utility(final, p)) for p in range(n)])
        total += (n - 1) * (scores[seats.index(0)] - scores[seats.index(1)])
    return total


@dataclass(frozen=True, slots=True)
class SpsaResult:
    """A finished run: the weights tuned (``theta``, by name in ``names``), where they
    started, the weights after every batch (``history``) and every unit's ``R``."""

    game: str
    agent: str
    names: tuple[str, ...]
    params: tuple[Param, ...]
    theta: tuple[float, ...]
    history: tuple[tuple[float, ...], ...]
    results: tuple[float, ...]
    seed: int
    batch: int
    random_opening: int
    gains: Gains
    games: int
    elapsed: float
    backend: str

    @property
    def start(self) -> tuple[float, ...]:
        return tuple(p.start for p in self.params)

    def weights(self) -> dict[str, float]:
        """The tuned weights by name."""
        return dict(zip(self.names, self.theta, strict=True))

    def training(self) -> dict[str, Any]:
        """How the weights were made (JSON-able, for the weights file)."""
        return {
            "method": "spsa", "agent": self.agent, "iterations": self.gains.iterations,
            "games": self.games, "seed": self.seed, "batch": self.batch,
            "random_opening": self.random_opening,
            "rate": self.gains.rate, "alpha": self.gains.alpha, "gamma": self.gains.gamma,
            "A": self.gains.big_a,
            "params": [
                {"name": p.name, "start": p.start, "c_end": p.c_end,
                 "low": None if math.isinf(p.low) else p.low,
                 "high": None if math.isinf(p.high) else p.high}
                for p in self.params
            ],
            "mean_result": sum(self.results) / len(self.results) if self.results else 0.0,
            "seconds": round(self.elapsed, 1),
        }


def spsa(
    game: Any,
    agent: AgentSpec | str,
    params: Sequence[Param | str],
    *,
    iterations: int,
    seed: int = 0,
    rate: float = DEFAULT_RATE,
    batch: int = DEFAULT_BATCH,
    start: Mapping[str, float] | None = None,
    options: Mapping[str, Any] | None = None,
    opening: str = "",
    random_opening: int = 0,
    backend: Backend | None = None,
    progress: Callable[[int], None] | None = None,
) -> SpsaResult:
    """Tune ``params`` (parsed with :func:`parse_param` when text; none: every weight) of
    ``game``'s evaluation by ``iterations`` units of SPSA (module docstring), every move
    searched by ``agent``.

    ``start``: the weights to start from (default the game's own); they are also the
    weights of the seats beyond plus and minus in a game of more than two players.
    Every unit starts after ``opening`` and up to ``random_opening`` random moves drawn
    from the seed and the unit (the same for all its games, as in
    :func:`plies.tournament.tournament`).  ``progress(k)`` is called as ``k`` more units
    finish.

    Raises:
        OptionError: a game without named weights, a bad parameter, iterations, batch or
            rate out of range, an agent with weights of its own.
        UnsupportedGameError: the agent cannot play the game.
    """
    if isinstance(game, str):
        game = GameSpec(game, tuple((options or {}).items()))
    elif options:
        raise OptionError("options apply to a game given by name")
    loaded = resolve(game)
    if not has_weights(loaded):
        weighted(loaded, {})  # the one-line error
    spec = parse_agent(agent) if isinstance(agent, str) else agent
    if spec.weights:
        raise OptionError(
            f"agent {spec.label!r} has weights of its own; give the starting weights to "
            f"tune (--weights) instead"
        )
    if spec.algorithm == "random":
        raise OptionError("SPSA needs a search agent: random moves read no weights")
    base = dict(loaded.feature_weights())
    if start is not None:
        weighted(loaded, start)  # unknown names fail here
        base.update(start)
    spec.check(weighted(loaded, base))
    tuned = tuple(parse_param(p, base) if isinstance(p, str) else p for p in params) or tuple(
        parse_param(name, base) for name in base if base[name] != 0
    )
    names = tuple(p.name for p in tuned)
    if len(set(names)) != len(names):
        raise OptionError("a weight is tuned twice (--param)")
    if not 1 <= iterations <= MAX_ITERATIONS:
        raise OptionError(f"--iterations must be 1 to {MAX_ITERATIONS:,}, got {iterations}")
    if random_opening < 0:
        raise OptionError(f"--random-opening must be 0 or more moves, got {random_opening}")
    if batch < 1:
        raise OptionError(f"--batch must be at least 1, got {batch}")
    if not (math.isfinite(rate) and rate > 0):
        raise OptionError(f"--rate must be a number > 0, got {rate:g}")
    gains = Gains(iterations, rate)
    n = loaded.num_players
    seatings = tuple(schedule(max(2, n), n, 1))
    at = position(loaded, opening, "of the opening") if opening else None
    setup = _Unit(game, spec, tuple(base.items()), seatings, at)
    runner = backend or LocalBackend()
    theta = [p.start for p in tuned]
    history: list[tuple[float, ...]] = []
    results: list[float] = []
    began = time.perf_counter()
    for first in range(0, iterations, batch):
        ks = range(first, min(first + batch, iterations))
        tasks = []
        for k in ks:
            sign = flips(seed, k, len(tuned))
            plus, minus = dict(base), dict(base)
            for p, t, s in zip(tuned, theta, sign, strict=True):
                plus[p.name] = p.clamp(t + gains.c(p, k) * s)
                minus[p.name] = p.clamp(t - gains.c(p, k) * s)
            seeds = tuple(game_seed(seed, k * len(seatings) + j) for j in range(len(seatings)))
            moves = random_opening_of(loaded, at, random_opening, seed, k)
            tasks.append((k, tuple(plus.items()), tuple(minus.items()), seeds, moves))
        outcomes = runner.map(unit_task, setup, tasks, progress)
        for k, r in zip(ks, outcomes, strict=True):
            sign = flips(seed, k, len(tuned))
            theta = [
                p.clamp(t + gains.a(p, k) * r / (gains.c(p, k) * s))
                for p, t, s in zip(tuned, theta, sign, strict=True)
            ]
            results.append(r)
        history.append(tuple(theta))
    return SpsaResult(
        game=getattr(loaded, "name", "game"), agent=spec.label, names=names, params=tuned,
        theta=tuple(theta), history=tuple(history), results=tuple(results), seed=seed,
        batch=batch, random_opening=random_opening, gains=gains, games=iterations * len(seatings),
        elapsed=time.perf_counter() - began, backend=runner.description,
    )


__all__ = ["Gains", "Param", "SpsaResult", "flips", "parse_param", "spsa", "unit_task"]
