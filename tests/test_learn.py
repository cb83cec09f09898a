"""plies.learn: fitting (logistic regression, TD(lambda)), self-play, ``plies learn``, and
agents that evaluate with a weights file."""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from plies.errors import OptionError, UnsupportedGameError
from plies.games import GameSpec, load
from plies.games.othello import Othello
from plies.learn import learn
from plies.learn.fit import (
    calibrated_log_loss,
    constant_feature,
    hand_calibration,
    logistic,
    td_lambda,
    to_calibrated_scale,
    to_evaluation_scale,
    to_hand_spread,
    to_probability_scale,
)
from plies.learn.selfplay import SelfPlay, Trajectory, play_one, samples, self_play
from plies.linear import load_weights, save_weights
from plies.parallel.backends import LocalBackend, RayBackend, WorkerError
from plies.tournament.agents import parse_agent
from plies.tournament.tournament import tournament
from tests.clirun import fail, plain_pipe, run  # noqa: F401 (autouse fixture)

TRUE_WEIGHTS = (1.5, -2.0, 0.0, 0.4)


def synthetic(n: int, seed: int) -> tuple[list[list[float]], list[float]]:
    """Features of very different scales, outcomes drawn from sigmoid(w·x)."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 4)) * np.array([1.0, 0.1, 5.0, 30.0])
    w = np.array(TRUE_WEIGHTS) / np.array([1.0, 0.1, 5.0, 30.0])
    p = 1 / (1 + np.exp(-(x @ w)))
    y = (rng.random(n) < p).astype(float)
    return x.tolist(), y.tolist()


def test_logistic_regression_recovers_known_weights() -> None:
    xs, ys = synthetic(40_000, 1)
    fit = logistic(xs, ys, l2=0.0)
    scales = np.array([1.0, 0.1, 5.0, 30.0])
    recovered = np.array(fit.weights) * scales
    assert recovered == pytest.approx(TRUE_WEIGHTS, abs=0.06)
    assert fit.iterations < 20


def test_logistic_l2_shrinks_the_weights() -> None:
    xs, ys = synthetic(2_000, 2)
    free, shrunk = logistic(xs, ys, l2=0.0), logistic(xs, ys, l2=500.0)
    assert np.linalg.norm(shrunk.weights) < 0.8 * np.linalg.norm(free.weights)
    assert shrunk.log_loss > free.log_loss  # the penalty costs fit on the training data


def test_logistic_l2_shrinks_toward_the_prior() -> None:
    """With a prior the penalty pulls toward it: a huge l2 returns it, none ignores it."""
    xs, ys = synthetic(2_000, 2)
    prior = [0.3, 1.0, -0.1, 0.01]
    assert logistic(xs, ys, l2=1e9, prior=prior).weights == pytest.approx(prior, abs=1e-5)
    free = logistic(xs, ys, l2=0.0)
    assert logistic(xs, ys, l2=0.0, prior=prior).weights == pytest.approx(free.weights, abs=1e-4)
    with pytest.raises(OptionError, match="a prior of 2 weights for 4 features"):
        logistic(xs, ys, prior=[1.0, 2.0])


def test_the_calibrated_scale_inverts_the_hand_calibration() -> None:
    """The prior from the hand-set weights maps back to exactly those weights."""
    rng = np.random.default_rng(5)
    x = np.column_stack([np.ones(500), rng.random((500, 2))])
    hand = [0.1, 0.6, 0.3]
    p = 1 / (1 + np.exp(-(4 * (x @ hand) - 2)))
    ys = (rng.random(500) < p).astype(float).tolist()
    prior, a, b = hand_calibration(x.tolist(), ys, hand, (0, 1.0))
    assert a == pytest.approx(4, rel=0.5) and b == pytest.approx(-2, abs=1.5)
    assert to_calibrated_scale(prior, a, b, (0, 1.0)) == pytest.approx(hand)
    with pytest.raises(OptionError, match="does not predict the outcome"):
        to_calibrated_scale(prior, -1.0, b, (0, 1.0))


def test_logistic_takes_fractional_targets() -> None:
    """Draws are 1/2: all-draw data is fitted by the zero vector (sigmoid 0 = 1/2)."""
    xs = [[1.0, 2.0], [-1.0, 0.5], [3.0, -1.0]]
    fit = logistic(xs, [0.5, 0.5, 0.5], l2=0.0)
    assert fit.weights == pytest.approx((0.0, 0.0), abs=1e-6)
    assert fit.log_loss == pytest.approx(math.log(2))


@pytest.mark.parametrize(
    ("xs", "ys", "message"),
    [([], [], "no positions"), ([[1.0], [2.0]], [0.5], "do not match"),
     ([[1.0]], [1.5], "targets must lie in")],
)
def test_logistic_refuses_bad_data(xs: list[list[float]], ys: list[float], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        logistic(xs, ys)


def walks(games: int, seed: int) -> list[Trajectory]:
    """Two-player games whose features drift towards the winner's side: the outcome of
    player 0 is drawn from sigmoid(w·f) at the last position (player 1 sees -f)."""
    rng = random.Random(seed)
    w = (1.0, -0.5)
    out = []
    for _ in range(games):
        f = [0.0, 0.0]
        rows = []
        for _ in range(10):
            f = [f[0] + rng.gauss(0, 1), f[1] + rng.gauss(0, 1)]
            rows.append((tuple(f), tuple(-v for v in f)))
        z = w[0] * f[0] + w[1] * f[1]
        win = 1.0 if rng.random() < 1 / (1 + math.exp(-z)) else 0.0
        out.append(Trajectory(tuple(rows), (0, 1) * 5, (win, 1.0 - win), 10))
    return out


@pytest.mark.parametrize("lam", [0.0, 0.7, 1.0])
def test_td_lambda_learns_the_direction_of_the_weights(lam: float) -> None:
    fit = td_lambda(walks(400, 3), lam=lam, alpha=0.5, epochs=10)
    w = np.array(fit.weights)
    cosine = w @ np.array([1.0, -0.5]) / np.linalg.norm(w) / math.hypot(1.0, 0.5)
    assert cosine > 0.97
    assert fit.log_loss < math.log(2)


def test_td_lambda_refuses_bad_options() -> None:
    with pytest.raises(OptionError, match="lambda must be in"):
        td_lambda(walks(2, 1), lam=1.5)
    with pytest.raises(OptionError, match="no positions"):
        td_lambda([Trajectory((), (), (1.0, 0.0), 0)])


def test_the_evaluation_scale_matches_the_hand_weights_mean_sum() -> None:
    xs = [[1.0, 2.0], [-3.0, 1.0], [0.5, -0.5]]
    hand, learned = [10.0, 1.0], [0.2, 0.3]
    c = to_evaluation_scale(xs, learned, hand)
    mean = np.mean(np.abs(np.array(xs) @ np.array(hand)))
    assert np.mean(np.abs(np.array(xs) @ (c * np.array(learned)))) == pytest.approx(mean)


def test_the_hand_spread_with_an_intercept_matches_mean_and_deviation() -> None:
    xs = np.array([[1.0, 2.0, 0.5], [1.0, -3.0, 1.0], [1.0, 0.5, -0.5], [1.0, 4.0, 2.0]])
    hand, learned = [0.3, 0.05, 0.1], [-2.0, 1.5, 0.4]
    w = np.array(to_hand_spread(xs.tolist(), learned, hand, (0, 1.0)))
    mine, theirs = xs @ w, xs @ np.array(hand)
    assert mine.mean() == pytest.approx(theirs.mean())
    assert np.abs(mine - mine.mean()).mean() == pytest.approx(np.abs(theirs - theirs.mean()).mean())
    assert w[1:] / w[1] == pytest.approx(np.array(learned[1:]) / learned[1])  # same direction
    plain = to_hand_spread(xs.tolist(), learned, hand, None)
    assert plain == pytest.approx(tuple(to_evaluation_scale(xs.tolist(), learned, hand) * v
                                        for v in learned))


def test_the_probability_scale_is_the_tangent_of_the_logistic_model() -> None:
    """With an intercept, the weighted sum equals lo + (hi - lo) sigmoid(z) at the mean
    logit z0 and has its slope there."""
    xs = [[1.0, 0.2, -1.0], [1.0, 0.8, 0.5], [1.0, -0.4, 2.0]]
    learned = [-0.7, 2.0, 0.3]
    assert constant_feature(xs) == (0, 1.0)
    assert constant_feature([[0.0, 1.0], [0.0, 2.0]]) is None  # zeros are no intercept
    lo, hi = -2.0, 6.0
    w = np.array(to_probability_scale(xs, learned, (0, 1.0), (lo, hi)))
    z = np.array(xs) @ np.array(learned)
    z0 = z.mean()
    p0 = 1 / (1 + math.exp(-z0))
    x0 = np.array(xs).mean(axis=0)  # its logit is z0 (z is linear in x)
    assert x0 @ w == pytest.approx(lo + (hi - lo) * p0)
    step = np.array([0.0, 0.1, 0.0])
    slope = (hi - lo) * p0 * (1 - p0) * learned[1]
    assert ((x0 + step) @ w - x0 @ w) / 0.1 == pytest.approx(slope)


def test_calibrated_log_loss_ranks_a_good_direction_above_a_bad_one() -> None:
    xs, ys = synthetic(4_000, 6)
    good = np.array(TRUE_WEIGHTS) / np.array([1.0, 0.1, 5.0, 30.0])
    bad = np.array([0.0, 0.0, 1.0, 0.0])
    tx, ty, hx, hy = xs[:3000], ys[:3000], xs[3000:], ys[3000:]
    assert calibrated_log_loss(tx, ty, hx, hy, good.tolist(), False) < calibrated_log_loss(
        tx, ty, hx, hy, bad.tolist(), False
    ) - 0.1


# --- self-play -------------------------------------------------------------------------------


def test_self_play_is_a_function_of_its_seed_and_explores() -> None:
    game = Othello()
    plan = SelfPlay(parse_agent("alphabeta:depth=1"), games=2, seed=4, opening=6)
    a, b = play_one(game, plan, 0), play_one(game, plan, 0)
    assert a == b
    other = play_one(game, plan, 1)
    assert other.features != a.features  # random openings: another game
    assert len(a.features) == a.plies - 6  # every position after the opening, not the end
    xs, ys = samples([a])
    assert len(xs) == 2 * len(a.features) and set(ys) <= {0.0, 0.5, 1.0}
    assert a.outcome in ((1.0, 0.0), (0.0, 1.0), (0.5, 0.5))


def test_empire_learns_on_the_probability_scale() -> None:
    """Empire has an intercept feature (bias) and utilities in [0, 1]: the labels are the
    utilities and the weights the logistic model's tangent."""
    game = load("empire")
    plan = SelfPlay(parse_agent("alphabeta:depth=1"), games=3, seed=2)
    result = learn(game, plan)
    assert result.training["scale"] == "probability"
    assert result.training["labels"] == "utility in [0, 1]"
    assert set(result.weights) == set(game.feature_names)
    assert game.with_weights(result.weights).feature_weights() == result.weights
    othello = learn(Othello(), SelfPlay(parse_agent("alphabeta:depth=1"), games=2, opening=20))
    assert othello.training["scale"] == "hand"


def test_a_hand_prior_with_a_huge_penalty_gives_back_the_hand_weights() -> None:
    game = load("empire")
    # seed 1: games in which the hand-set sum rises with the outcome (with seed 2 it
    # falls on the three games; to_calibrated_scale then refuses, tested above)
    plan = SelfPlay(parse_agent("alphabeta:depth=1"), games=4, seed=1)
    result = learn(game, plan, prior="hand", options={"l2": 1e12})
    assert result.training["scale"] == "calibrated" and result.training["prior"] == "hand"
    assert result.weights == pytest.approx(game.feature_weights(), abs=1e-6)
    with pytest.raises(OptionError, match="need a constant feature"):
        learn(Othello(), SelfPlay(parse_agent("alphabeta:depth=1"), games=1, opening=20),
              prior="hand")


def test_iterations_play_again_with_the_weights_learned_so_far() -> None:
    plan = SelfPlay(parse_agent("alphabeta:depth=1"), games=2, seed=3, opening=20)
    twice = learn(Othello(), plan, iterations=2)
    assert twice.training["games"] == 4 and twice.training["iterations"] == 2
    assert [len(r["weights"]) for r in twice.training["rounds"]] == [7, 7]
    assert twice.hand == Othello().feature_weights()  # the reference stays the hand-set one
    once = learn(Othello(), SelfPlay(plan.agent, games=4, seed=3, opening=20))
    assert once.training["positions"] != twice.training["positions"] or (
        once.weights != twice.weights
    )  # games 2 and 3 were played by the learned weights, not the hand-set ones
    with pytest.raises(OptionError, match="--iterations must be at least 1"):
        learn(Othello(), plan, iterations=0)


def test_self_play_is_the_same_on_one_process_a_pool_and_ray() -> None:
    """The games and the fitted weights do not depend on where the games ran: here, in
    this process through a backend, on two worker processes, on a local Ray instance.
    Two iterations, so the second round's weights are shipped to the workers."""
    plan = SelfPlay(parse_agent("alphabeta:depth=1,engine=1"), games=4, seed=5, opening=20)
    spec = GameSpec("othello")

    def both(backend: LocalBackend | RayBackend | None) -> tuple[list[Trajectory], Any]:
        games = self_play(spec, plan, first=3, backend=backend)
        learned = learn(spec, plan, iterations=2, backend=backend)
        return games, (learned.weights, learned.training["positions"],
                       learned.training["rounds"])

    here = both(None)
    assert [t.plies for t in here[0]] != [here[0][0].plies] * 4  # four different games
    assert both(LocalBackend(1)) == here
    assert both(LocalBackend(2)) == here
    with RayBackend(workers=2) as ray:
        assert both(ray) == here


def worker_pid(shared: object, task: int) -> int:
    return os.getpid()


def test_a_held_pool_serves_every_iteration() -> None:
    """Inside ``with backend:`` the workers start once (plies learn's iterations share
    them); outside, each map has its own; a failed map ends its pool, the next starts one."""

    def workers() -> set[int]:
        return {p.pid for p in multiprocessing.active_children() if p.pid is not None}

    pool = LocalBackend(2)
    with pool:
        served = set(pool.map(worker_pid, None, range(8)))
        first = workers()
        assert served <= first and os.getpid() not in served
        served = set(pool.map(worker_pid, None, range(8)))
        assert served <= first and workers() == first  # the same processes
        endless = SelfPlay(parse_agent("alphabeta:depth=1"), games=2, max_plies=10)
        with pytest.raises(WorkerError):
            self_play(GameSpec("othello"), endless, backend=pool)
        # terminated: on a loaded machine the last one may take a moment to be reaped
        deadline = time.monotonic() + 60
        while not workers().isdisjoint(first) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert workers().isdisjoint(first)
        served = set(pool.map(worker_pid, None, range(8)))
        second = workers()
        assert served <= second and second.isdisjoint(first)
    assert not workers()  # shut down with the block
    assert set(pool.map(worker_pid, None, range(8))).isdisjoint(first | second)
    assert not workers()  # a map outside the block shuts its own pool down


def test_self_play_ships_the_weights_and_the_errors_to_the_workers(greedy: Path) -> None:
    plan = SelfPlay(parse_agent("alphabeta:depth=1"), games=3, seed=1, opening=30)
    weights = load_weights(greedy)
    pool = LocalBackend(2)
    shipped = self_play(GameSpec("othello"), plan, backend=pool, weights=weights)
    assert shipped == self_play(Othello().with_weights(weights), plan)
    assert shipped != self_play(Othello(), plan)
    endless = SelfPlay(plan.agent, games=2, max_plies=10)
    with pytest.raises(UnsupportedGameError, match="lasted 10 moves without ending"):
        self_play(Othello(), endless)
    with pytest.raises(WorkerError, match=r"^a self-play game of othello lasted 10 moves"):
        self_play(GameSpec("othello"), endless, backend=pool)


def test_self_play_refuses_a_game_without_a_linear_evaluation() -> None:
    plan = SelfPlay(parse_agent("alphabeta:depth=1"), games=1)
    with pytest.raises(OptionError, match="nim has no linear evaluation to learn"):
        learn(load("nim"), plan)
    with pytest.raises(OptionError, match="epsilon must be a probability"):
        learn(Othello(), SelfPlay(parse_agent("alphabeta:depth=1"), games=1, epsilon=2.0))


# --- plies learn --------------------------------------------------------------------------------


LEARN = ["learn", "othello", "--games", "3", "--depth", "1", "--seed", "2", "--opening", "8",
         "--workers", "1"]


def test_plies_learn_writes_a_weights_file_end_to_end(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = run(capsys, *LEARN, "--out", str(tmp_path / "w.json"))
    assert out.startswith("othello: 3 self-play games (alphabeta:depth=1,engine=1, 8 random")
    assert "positions x players, 1 worker (this process), " in out
    assert "weights (logistic)" in out and f"wrote {tmp_path / 'w.json'}" in out
    weights = load_weights(tmp_path / "w.json", Othello())
    assert set(weights) == set(Othello.feature_names)
    training = json.loads((tmp_path / "w.json").read_text())["training"]
    assert training["method"] == "logistic" and training["games"] == 3
    assert training["depth"] == 1 and training["seed"] == 2 and training["plies"]
    assert training["date"].endswith("Z")
    # The same seed, the same weights (the file differs only in its date and time), on
    # any number of workers.
    again = run(capsys, *LEARN, "--workers", "2", "--out", str(tmp_path / "again.json"))
    assert "positions x players, 2 workers (local processes), " in again
    assert load_weights(tmp_path / "again.json") == weights
    training = json.loads((tmp_path / "again.json").read_text())["training"]
    assert training["backend"] == "2 workers (local processes)"


def test_plies_learn_td_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = json.loads(run(capsys, *LEARN, "--method", "td", "--epochs", "2", "--json",
                          "--out", str(tmp_path / "td.json")))
    assert data["training"]["method"] == "td"
    assert data["training"]["options"] == {"lambda": 0.7, "alpha": 0.1, "epochs": 2}
    assert data["weights"] == load_weights(tmp_path / "td.json")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["nim"], "nim has no linear evaluation to learn"),
        (["othello", "--depth", "0"], "--depth must be at least 1, got 0"),
        (["othello", "--depth", "1", "--time", "1"], "give --depth or --time, not both"),
        (["othello", "--games", "0"], "--games must be at least 1, got 0"),
        (["othello", "--algorithm", "random"], "self-play needs a search algorithm"),
        (["othello", "--algorithm", "negamax"], "unknown algorithm 'negamax'"),
        (["othello", "--method", "sgd"], "argument --method: invalid choice: 'sgd'"),
        (["othello", "--workers", "0"], "--workers must be at least 1, got 0"),
        (["othello", "--ray", "nohost:port"], "bad Ray address 'nohost:port'"),
        (["othello", "--ray", "host:1", "--workers", "2"], "--workers applies to a local pool"),
    ],
)
def test_plies_learn_bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, extra: list[str], message: str
) -> None:
    assert message in fail(capsys, "learn", *extra, "--out", str(tmp_path / "w.json"))


def test_plies_learn_refuses_an_output_in_a_missing_directory(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    message = fail(capsys, *LEARN, "--out", str(tmp_path / "no" / "w.json"))
    assert message.startswith("cannot write") and "no directory" in message


# --- loading weights: agents, --weights -------------------------------------------------------


@pytest.fixture
def greedy(tmp_path: Path) -> Path:
    """Weights that count discs only: a 1-ply search then takes the most discs."""
    path = tmp_path / "greedy.json"
    zero = dict.fromkeys(Othello.feature_names, 0.0)
    save_weights(path, "othello", {**zero, "discs": 1.0})
    return path


def test_the_weights_agent_option_changes_the_evaluation(greedy: Path) -> None:
    game = Othello()
    spec = parse_agent(f"alphabeta:depth=1,weights={greedy}")
    assert spec.label == f"alphabeta:depth=1,weights={greedy}"
    spec.check(game)
    assert spec.evaluating(game).feature_weights()["discs"] == 1.0
    assert parse_agent("alphabeta:depth=1").evaluating(game) is game
    rng = random.Random(8)
    differs = 0
    for _ in range(30):
        state = game.initial_state()
        for _ in range(rng.randrange(4, 40)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(game.actions(state)))
        if game.is_terminal(state):
            continue
        mover = game.to_move(state)
        action, _ = spec.choose(game, state, mover, seed=1)
        gained = {a: game.result(state, a)[1].bit_count() for a in game.actions(state)}
        assert gained[action] == max(gained.values())  # the greedy choice
        hand, _ = parse_agent("alphabeta:depth=1").choose(game, state, mover, seed=1)
        differs += gained[hand] != max(gained.values())
    assert differs > 0  # the hand-set weights do not play greedily


def test_the_weights_agent_option_refuses_bad_files(greedy: Path, tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="weights= needs a file"):
        parse_agent("alphabeta:depth=1,weights=")
    with pytest.raises(Exception, match="no weights file"):
        parse_agent(f"alphabeta:depth=1,weights={tmp_path / 'none.json'}")
    with pytest.raises(Exception, match="is for 'othello', not for 'connect4'"):
        parse_agent(f"alphabeta:depth=1,weights={greedy}").check(load("connect4"))


def test_a_tournament_between_learned_and_hand_weights(greedy: Path) -> None:
    result = tournament(
        "othello", [f"alphabeta:depth=1,weights={greedy}", "alphabeta:depth=1"],
        rounds=1, seed=2, backend=LocalBackend(workers=1),
    )
    assert result.agents == (f"alphabeta:depth=1,weights={greedy}", "alphabeta:depth=1")
    assert len(result.records) == 2


def test_plies_learn_starts_from_a_weights_file(
    capsys: pytest.CaptureFixture[str], greedy: Path, tmp_path: Path
) -> None:
    data = json.loads(run(capsys, *LEARN, "--weights", str(greedy), "--json",
                          "--out", str(tmp_path / "w.json")))
    assert data["training"]["start_weights"] == load_weights(greedy)
    assert data["hand"] == load_weights(greedy)  # the scale refers to the starting weights
    message = fail(capsys, *LEARN, "--scale", "probability", "--out", str(tmp_path / "p.json"))
    assert message.startswith("the probability scale needs a constant feature")


def test_weights_flag_of_analyze(capsys: pytest.CaptureFixture[str], greedy: Path) -> None:
    args = ["analyze", "othello", "--moves", "d3 c5", "--depth", "1", "--json"]
    hand = json.loads(run(capsys, *args))
    mine = json.loads(run(capsys, *args, "--weights", str(greedy)))
    assert hand["action_values"].keys() == mine["action_values"].keys()
    assert hand["action_values"] != mine["action_values"]
    greedy_game = run(capsys, "play", "othello", "--human", "none", "--depth", "1",
                      "--weights", str(greedy))
    hand_game = run(capsys, "play", "othello", "--human", "none", "--depth", "1")
    assert greedy_game != hand_game and "game over: " in greedy_game
    message = fail(capsys, "analyze", "nim", "--weights", str(greedy))
    assert message.endswith("is for 'othello', not for 'nim'")
