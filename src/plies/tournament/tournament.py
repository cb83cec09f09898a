"""Round-robin tournaments between agents, reproducible on any backend.

The schedule: for every group of ``num_players`` distinct agents (every pair in a
two-player game), one game per seat rotation (colours swapped in a two-player game;
in a game of N players each agent takes every seat once), repeated ``rounds`` times.
Game ``k`` of the schedule is played with the seed ``game_seed(seed, k)``; that seed
alone decides every chance outcome and every agent's per-move seed (agents break ties
at random), so a game's record depends on nothing but the tournament seed, its index
and the agents: the same with one process, a pool or Ray.  Agents limited by ``time``
are the exception (their depth depends on the machine); ``nodes`` limits are exact.

Scoring by utility rank: in a game of N players a player scores 1 for every other player
with a lower utility, 1/2 for every one with an equal utility, and the sum is divided by
N - 1 (win 1, draw 1/2, loss 0 with two players).  Each game is also split into one
result for every pair of its players (win, draw or loss by utility), from which the
win/draw/loss tables and the Elo fit (:mod:`plies.tournament.elo`) are made; with two
players that is one result per game, seen from both sides.

>>> r = tournament("nim", ["alphabeta", "random"], rounds=1, seed=1,
...                options={"piles": (1, 2)}, backend=LocalBackend(workers=1))
>>> [(s.agent, s.wins, s.draws, s.losses) for s in r.standings()]
[('alphabeta', 2, 0, 0), ('random', 0, 0, 2)]
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Protocol

from plies.errors import OptionError
from plies.game import CHANCE, SIMULTANEOUS, format_action, game_ops, parse_action
from plies.games import GameSpec
from plies.parallel.backends import Backend, LocalBackend, resolve
from plies.parallel.batch import position
from plies.policy import player_name, split_moves
from plies.tournament.agents import AgentSpec, joint_action, parse_agent
from plies.tournament.elo import EloFit, fit_elo
from plies.tournament.sprt import SPRT, SprtOutcome, sequential

DEFAULT_PRIOR = 1.0


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a tournament seeded ``seed`` (64 bits, from SHA-256).

    >>> game_seed(7, 0) == game_seed(7, 0) != game_seed(7, 1)
    True
    """
    digest = hashlib.sha256(f"plies-tournament/{seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


MAX_GAMES = 1_000_000
"""The most games a tournament may hold: the schedule and the records are kept in memory
(``--games 10**9`` would exhaust it before the first game)."""


def schedule(num_agents: int, num_players: int, rounds: int = 1) -> list[tuple[int, ...]]:
    """The seatings of a round robin: ``seats[p]`` is the agent playing as player ``p``.

    >>> schedule(3, 2)
    [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]

    Raises:
        OptionError: fewer than two agents, fewer agents than seats, or more than
            :data:`MAX_GAMES` games.
    """
    if num_players < 2:
        raise OptionError("a tournament needs a game of two or more players")
    if num_agents < 2:
        raise OptionError("a tournament needs at least two agents (--agent, repeatable)")
    if num_agents < num_players:
        raise OptionError(
            f"the game has {num_players} players: give at least {num_players} agents "
            f"(the same spec may be given twice)"
        )
    if rounds < 1:
        raise OptionError(f"--games must be at least 1, got {rounds}")
    total = math.comb(num_agents, num_players) * num_players * rounds
    if total > MAX_GAMES:
        shown = f"{total:,}" if total < 10**15 else "over 10**15"
        raise OptionError(
            f"a tournament of {shown} games is more than the cap of {MAX_GAMES:,}; "
            f"lower --games or the number of agents"
        )
    seatings: list[tuple[int, ...]] = []
    for _ in range(rounds):
        for group in combinations(range(num_agents), num_players):
            seatings.extend(group[k:] + group[:k] for k in range(num_players))
    return seatings


def rank_scores(utilities: Sequence[float]) -> tuple[float, ...]:
    """Each player's score by utility rank (see the module docstring).

    >>> rank_scores([1, -1]), rank_scores([2, 5, 2])
    ((1.0, 0.0), (0.25, 1.0, 0.25))
    """
    n = len(utilities)
    if n < 2:
        return (1.0,) * n
    return tuple(
        sum(1.0 if u > v else 0.5 if u == v else 0.0 for j, v in enumerate(utilities) if j != i)
        / (n - 1)
        for i, u in enumerate(utilities)
    )


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: who sat where, what happened, and what it cost.

    ``seats[p]`` is the agent index of player ``p``; ``utilities``, ``scores`` (by
    rank), ``nodes`` (searched) and ``decisions`` (moves chosen) are per player.
    ``moves`` are the actions as typed, chance outcomes included, after the opening
    (the round's random opening moves first), so ``plies play GAME --moves "..."``
    replays the game.
    """

    index: int
    seed: int
    seats: tuple[int, ...]
    utilities: tuple[float, ...]
    scores: tuple[float, ...]
    moves: tuple[str, ...]
    nodes: tuple[int, ...]
    decisions: tuple[int, ...]

    def pairs(self) -> Iterator[tuple[int, int, int, int, float]]:
        """``(seat p, seat q, agent of p, agent of q, score of p)`` for every pair p < q."""
        u = self.utilities
        for p, q in combinations(range(len(self.seats)), 2):
            score = 1.0 if u[p] > u[q] else 0.5 if u[p] == u[q] else 0.0
            yield p, q, self.seats[p], self.seats[q], score


class Player(Protocol):
    """What :func:`play_game` asks of an agent (:class:`AgentSpec` is one)."""

    def choose(self, game: Any, state: Any, player: int, seed: int) -> tuple[Any, int]:
        """``player``'s action at ``state`` and the nodes searched for it."""
        ...


def play_game(
    game: Any, agents: Sequence[Player], seats: Sequence[int], seed: int, start: Any = None
) -> tuple[Any, list[str], list[int], list[int]]:
    """Play one game from ``start`` (default: the initial state).

    Returns ``(final state, moves as typed, nodes per player, decisions per player)``.
    A ``random.Random(seed)`` draws every chance outcome and every agent's move seed.
    """
    ops = game_ops(game)
    n = game.num_players
    rng = random.Random(seed)
    state = game.initial_state() if start is None else start
    moves: list[str] = []
    nodes, decisions = [0] * n, [0] * n
    while not game.is_terminal(state):
        mover = game.to_move(state)
        if mover == CHANCE:
            outcomes = list(ops.chance_outcomes(state))
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        elif mover == SIMULTANEOUS:
            own = []
            for p in range(n):
                choice, searched = agents[seats[p]].choose(game, state, p, rng.getrandbits(63))
                own.append(choice)
                nodes[p] += searched
                decisions[p] += 1
            action = joint_action(game, state, own)
        else:
            action, searched = agents[seats[mover]].choose(
                game, state, mover, rng.getrandbits(63)
            )
            nodes[mover] += searched
            decisions[mover] += 1
        moves.append(format_action(game, state, action))
        state = game.result(state, action)
    return state, moves, nodes, decisions


@dataclass(frozen=True, slots=True)
class _Setup:
    game: Any  # a GameSpec or a picklable game
    agents: tuple[AgentSpec, ...]
    start: Any


Task = tuple[int, int, tuple[int, ...], tuple[str, ...]]
"""A game of a tournament: ``(index, seed, seats, random opening moves)``."""


def random_opening(game: Any, start: Any, plies: int, seed: int) -> tuple[str, ...]:
    """Up to ``plies`` uniformly random moves from ``start`` (None: the initial state),
    chance outcomes drawn by their probabilities, as typed; fewer when the game ends.

    >>> from plies.games import load
    >>> len(random_opening(load("tictactoe"), None, 3, seed=1))
    3
    """
    ops = game_ops(game)
    rng = random.Random(f"plies-opening/{seed}")
    state = game.initial_state() if start is None else start
    moves: list[str] = []
    for _ in range(plies):
        if game.is_terminal(state):
            break
        if game.to_move(state) == CHANCE:
            outcomes = list(ops.chance_outcomes(state))
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(list(game.actions(state)))
        moves.append(format_action(game, state, action))
        state = game.result(state, action)
    return tuple(moves)


def replay_opening(game: Any, start: Any, moves: Sequence[str]) -> Any:
    """The state after the typed ``moves`` from ``start`` (None: the initial state)."""
    state = game.initial_state() if start is None else start
    for text in moves:
        state = game.result(state, parse_action(game, state, text))
    return state


def game_task(setup: _Setup, task: Task) -> GameRecord:
    """Play game ``task`` (top-level, so any process can run it)."""
    index, seed, seats, opening = task
    game = resolve(setup.game)
    start = replay_opening(game, setup.start, opening) if opening else setup.start
    final, moves, nodes, decisions = play_game(game, setup.agents, seats, seed, start)
    utilities = tuple(float(game.utility(final, p)) for p in range(game.num_players))
    return GameRecord(
        index, seed, seats, utilities, rank_scores(utilities), (*opening, *moves),
        tuple(nodes), tuple(decisions),
    )


# --- the result -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Standing:
    """One agent's totals: pairwise wins, draws and losses, rank score, Elo."""

    agent: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float  # mean rank score, 0..1
    elo: float
    elo_low: float
    elo_high: float
    nodes_per_move: float


@dataclass(frozen=True, slots=True)
class PairResult:
    """The games between agents ``a`` and ``b``, from ``a``'s side."""

    a: str
    b: str
    games: int
    a_wins: int
    draws: int
    b_wins: int

    @property
    def a_score(self) -> float:
        return (self.a_wins + self.draws / 2) / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class SeatResult:
    """How a seat (player 0 moves first, ...) fared, whoever sat in it."""

    seat: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """A finished tournament: its setting, every game, and the Elo fit.

    ``records`` are in schedule order.  Everything except ``elapsed`` and ``backend``
    is a function of the game, the agents, ``rounds`` and ``seed`` (see the module
    docstring for agents limited by time).
    """

    game: str
    options: tuple[tuple[str, Any], ...]
    opening: tuple[str, ...]
    players: tuple[str, ...]
    agents: tuple[str, ...]
    specs: tuple[AgentSpec, ...]
    seed: int
    rounds: int
    records: tuple[GameRecord, ...]
    elo: EloFit
    elapsed: float
    backend: str
    sprt: SprtOutcome | None = None
    random_opening: int = 0

    @property
    def reproducible(self) -> bool:
        """False when an agent's search is limited by a clock."""
        return all(spec.reproducible for spec in self.specs)

    def standings(self) -> list[Standing]:
        """One row per agent, best Elo first (ties: the order the agents were given)."""
        k = len(self.agents)
        games, points = [0] * k, [0.0] * k
        wdl = [[0, 0, 0] for _ in range(k)]
        nodes, decisions = [0] * k, [0] * k
        for record in self.records:
            for p, agent in enumerate(record.seats):
                games[agent] += 1
                points[agent] += record.scores[p]
                nodes[agent] += record.nodes[p]
                decisions[agent] += record.decisions[p]
            for _, _, a, b, score in record.pairs():
                wdl[a][_outcome(score)] += 1
                wdl[b][2 - _outcome(score)] += 1
        rows = []
        for i, label in enumerate(self.agents):
            low, high = self.elo.interval(i)
            wins, draws, losses = wdl[i]
            rows.append(
                Standing(
                    label, games[i], wins, draws, losses,
                    points[i] / games[i] if games[i] else 0.0, self.elo.ratings[i], low, high,
                    nodes[i] / decisions[i] if decisions[i] else 0.0,
                )
            )
        order = sorted(range(k), key=lambda i: -self.elo.ratings[i])
        return [rows[i] for i in order]

    def pairs(self) -> list[PairResult]:
        """One row per pair of agents (in the order given), from the first one's side."""
        k = len(self.agents)
        table = {(a, b): [0, 0, 0] for a, b in combinations(range(k), 2)}
        for record in self.records:
            for _, _, a, b, score in record.pairs():
                if a > b:
                    a, b, score = b, a, 1.0 - score
                table[a, b][_outcome(score)] += 1
        return [
            PairResult(self.agents[a], self.agents[b], sum(c), c[0], c[1], c[2])
            for (a, b), c in table.items()
            if sum(c)
        ]

    def seats(self) -> list[SeatResult]:
        """One row per seat: its pairwise results against the other seats and mean score."""
        n = len(self.players)
        wdl = [[0, 0, 0] for _ in range(n)]
        points = [0.0] * n
        for record in self.records:
            for p in range(n):
                points[p] += record.scores[p]
            for p, q, _, _, score in record.pairs():
                wdl[p][_outcome(score)] += 1
                wdl[q][2 - _outcome(score)] += 1
        count = len(self.records)
        return [
            SeatResult(
                self.players[p], count, wdl[p][0], wdl[p][1], wdl[p][2],
                points[p] / count if count else 0.0,
            )
            for p in range(n)
        ]

    def as_dict(self) -> dict[str, Any]:
        """The whole result as plain JSON-able data."""
        return {
            "game": self.game,
            "options": {k: list(v) if isinstance(v, tuple) else v for k, v in self.options},
            "opening": list(self.opening),
            "players": list(self.players),
            "agents": list(self.agents),
            "seed": self.seed,
            "rounds": self.rounds,
            "random_opening": self.random_opening,
            "games": len(self.records),
            "reproducible": self.reproducible,
            "elo_method": {
                "model": "Bradley-Terry (Elo logistic, 400 points = 10:1 odds), draws as half "
                "points, maximum a posteriori",
                "prior_virtual_draws_per_pair": self.elo.prior,
                "interval": "95%, rating +- 1.96 standard errors from the Hessian",
                "anchor": "mean rating 0",
            },
            "standings": [_plain(s) for s in self.standings()],
            "pairs": [{**_plain(p), "a_score": p.a_score} for p in self.pairs()],
            "seats": [_plain(s) for s in self.seats()],
            "records": [
                {**_plain(r), "agents": [self.agents[a] for a in r.seats]} for r in self.records
            ],
            "elapsed": self.elapsed,
            "backend": self.backend,
            "sprt": None if self.sprt is None else self.sprt.as_dict(),
        }


def _outcome(score: float) -> int:
    """0 for a win, 1 for a draw, 2 for a loss (an index into ``[wins, draws, losses]``)."""
    return 0 if score == 1.0 else 1 if score == 0.5 else 2


def _plain(obj: Any) -> dict[str, Any]:
    return {
        name: list(value) if isinstance(value, tuple) else value
        for name in obj.__slots__
        if not name.startswith("_")
        for value in (getattr(obj, name),)
    }


def labels(specs: Sequence[AgentSpec]) -> tuple[str, ...]:
    """The agents' names: their spec, with ``#2``, ``#3`` ... on repeats.

    >>> labels([parse_agent("random"), parse_agent("random")])
    ('random', 'random#2')
    """
    seen: dict[str, int] = {}
    out = []
    for spec in specs:
        seen[spec.label] = seen.get(spec.label, 0) + 1
        out.append(spec.label if seen[spec.label] == 1 else f"{spec.label}#{seen[spec.label]}")
    return tuple(out)


def tournament(
    game: Any,
    agents: Sequence[AgentSpec | str],
    *,
    rounds: int = 2,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    opening: str = "",
    backend: Backend | None = None,
    progress: Callable[[int], None] | None = None,
    prior: float = DEFAULT_PRIOR,
    sprt: SPRT | None = None,
    random_opening: int = 0,
) -> TournamentResult:
    """Play a round robin between ``agents`` (specs or their text) and fit Elo ratings.

    ``game`` is a game spec (with ``options``), a :class:`~plies.games.GameSpec`, or a
    picklable game object.  Each group of agents plays ``rounds`` games in every seat rotation
    (see the module docstring), from the position after ``opening`` (moves as typed).
    ``seed`` None draws one (reported in the result).  ``backend`` defaults to a local
    process pool of ``os.cpu_count()`` workers; ``progress(k)`` is called as ``k`` more
    games finish.  ``prior`` is the Elo fit's virtual draws per pair.
    ``random_opening``: every round starts with up to that many uniformly random moves
    after ``opening``, drawn from the seed and the round (every game of a round, so
    every seat order, has the same ones): deterministic agents then meet in varied
    positions.

    ``sprt``: a sequential test (:mod:`plies.tournament.sprt`) of the first agent, the
    candidate, against the others: one round of the schedule is a unit (with two agents,
    a pair of games with the colours swapped), its score the candidate's pairwise results
    in half points.  The tournament stops after the first round at which the test decides,
    or after ``rounds`` rounds; the result holds the rounds played and the test's outcome.
    Game ``k`` is the same game as in the full tournament, and rounds are played in
    batches whose size changes the work wasted past the stop, never the result: the
    stop is the same on one process, a pool or Ray.

    Raises:
        OptionError: a bad agent spec, too few agents, ``rounds < 1``.
        UnsupportedGameError: an agent that cannot play this game.
        IllegalActionError: an illegal move in ``opening``.
    """
    if isinstance(game, str):
        game = GameSpec(game, tuple((options or {}).items()))
    elif options:
        raise OptionError("options apply to a game given by name")
    loaded = resolve(game)
    specs = tuple(parse_agent(a) if isinstance(a, str) else a for a in agents)
    for spec in specs:
        spec.check(loaded)
    n = loaded.num_players
    seatings = schedule(len(specs), n, rounds)
    start = position(loaded, opening, "of the opening") if opening else None
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    if random_opening < 0:
        raise OptionError(f"--random-opening must be 0 or more moves, got {random_opening}")
    per_round = len(seatings) // rounds
    openings = [
        random_opening_of(loaded, start, random_opening, seed, r) for r in range(rounds)
    ] if random_opening else [()] * rounds
    tasks: list[Task] = [
        (k, game_seed(seed, k), seats, openings[k // per_round])
        for k, seats in enumerate(seatings)
    ]
    runner = backend or LocalBackend()
    setup = _Setup(game, specs, start)
    began = time.perf_counter()
    outcome = None
    if sprt is None:
        records = runner.map(game_task, setup, tasks, progress)
    else:
        records, outcome = _sequential_games(runner, setup, tasks, per_round, sprt, progress)
        rounds = outcome.units
    elapsed = time.perf_counter() - began
    results = [(a, b, s) for r in records for _, _, a, b, s in r.pairs()]
    return TournamentResult(
        game=getattr(loaded, "name", "game"),
        options=game.options if isinstance(game, GameSpec) else (),
        opening=tuple(split_moves(loaded, opening)),
        players=tuple(player_name(loaded, p) for p in range(n)),
        agents=labels(specs),
        specs=specs,
        seed=seed,
        rounds=rounds,
        records=tuple(records),
        elo=fit_elo(len(specs), results, prior=prior),
        elapsed=elapsed,
        backend=runner.description,
        sprt=outcome,
        random_opening=random_opening,
    )


def random_opening_of(game: Any, start: Any, plies: int, seed: int, unit: int) -> tuple[str, ...]:
    """The random opening of round (or unit) ``unit`` of a run seeded ``seed``."""
    return random_opening(game, start, plies, game_seed(seed, -1 - unit))


SPRT_BATCH_PER_WORKER = 2
"""Rounds of a sequential tournament played per worker between two looks at the test
(a look costs little; a batch amortises the start of a pool)."""


def candidate_score(records: Sequence[GameRecord]) -> int:
    """Agent 0's pairwise results in ``records`` (one round), in half points."""
    half = 0
    for record in records:
        for _, _, a, b, score in record.pairs():
            if a == 0:
                half += round(2 * score)
            elif b == 0:
                half += round(2 * (1.0 - score))
    return half


def _sequential_games(
    runner: Backend, setup: _Setup, tasks: list[Task],
    per_round: int, test: SPRT, progress: Callable[[int], None] | None,
) -> tuple[list[GameRecord], SprtOutcome]:
    """Play ``tasks`` round by round until ``test`` decides (see :func:`tournament`)."""
    first = tasks[:per_round]
    size = sum(len(seats) - 1 for _, _, seats, _ in first if 0 in seats)
    workers = getattr(runner, "workers", None) or 1
    batch = max(1, math.ceil(SPRT_BATCH_PER_WORKER * workers * 2 / per_round)) * per_round
    records: list[GameRecord] = []
    outcome, _ = sequential(test, [], size)
    for begin in range(0, len(tasks), batch):
        played = runner.map(game_task, setup, tasks[begin:begin + batch], progress)
        units = [played[i:i + per_round] for i in range(0, len(played), per_round)]
        outcome, used = sequential(
            test, [candidate_score(u) for u in units], size, outcome.results
        )
        records.extend(played[: used * per_round])
        if outcome.decision is not None:
            break
    return records, outcome
