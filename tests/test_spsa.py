"""SPSA: the gains, reproducible runs on any backend, a run that climbs from a bad start,
the units of a three-player game, ``plies tune``, and chess's named weights."""

from __future__ import annotations

import math

import pytest

from plies.errors import OptionError
from plies.games import load
from plies.learn.spsa import (
    Gains,
    Param,
    _Evaluating,
    _Unit,
    flips,
    parse_param,
    spsa,
    unit_task,
)
from plies.linear import has_weights, is_linear, load_weights, weighted
from plies.parallel import LocalBackend
from plies.tournament.agents import parse_agent
from plies.tournament.tournament import (
    game_seed,
    play_game,
    random_opening_of,
    rank_scores,
    replay_opening,
    schedule,
)
from tests.clirun import fail, plain_pipe, run, run_json  # noqa: F401

SERIAL = LocalBackend(workers=1)


def test_gains_end_at_c_end_and_r_end() -> None:
    p = Param("w", 1.0, c_end=0.5)
    gains = Gains(iterations=50, rate=0.2)
    assert gains.c(p, 49) == pytest.approx(0.5)
    assert gains.c(p, 0) == pytest.approx(0.5 * 50**0.101)
    # The last step of a unit with result R is r_end * c_end * R.
    assert gains.a(p, 49) / gains.c(p, 49) == pytest.approx(0.2 * 0.5)
    assert gains.big_a == 5.0
    assert all(gains.a(p, k) > gains.a(p, k + 1) for k in range(49))
    assert flips(3, 7, 5) == flips(3, 7, 5) and set(flips(3, 7, 64)) == {-1, 1}


def test_parse_param() -> None:
    weights = {"corners": 60.0, "bias": 0.0}
    assert parse_param("corners", weights) == Param("corners", 60.0, 15.0)
    assert parse_param("corners=5:0:100", weights) == Param("corners", 60.0, 5.0, 0.0, 100.0)
    for text, words in (("edges", "no weight 'edges'"), ("bias", "bias=C"),
                        ("corners=x", "numbers"), ("corners=0", "> 0"),
                        ("corners=1:0", "NAME=C:LOW:HIGH"), ("corners=1:70:80", "not in")):
        with pytest.raises(OptionError, match=words):
            parse_param(text, weights)


def test_refusals() -> None:
    with pytest.raises(OptionError, match="nim has no linear evaluation"):
        spsa("nim", "alphabeta:depth=1", [], iterations=1, backend=SERIAL)
    with pytest.raises(OptionError, match="random"):
        spsa("othello", "random", [], iterations=1, backend=SERIAL)
    with pytest.raises(OptionError, match="iterations"):
        spsa("othello", "alphabeta:depth=1", [], iterations=0, backend=SERIAL)
    with pytest.raises(OptionError, match="twice"):
        spsa("othello", "alphabeta:depth=1", ["corners", "corners"], iterations=1,
             backend=SERIAL)


@pytest.fixture(scope="module")
def othello_run() -> object:
    return spsa("othello", "alphabeta:depth=1", ["corners", "mobility"], iterations=6,
                batch=3, seed=4, random_opening=6, backend=SERIAL)


def test_a_run_is_the_same_on_a_pool(othello_run: object) -> None:
    pool = spsa("othello", "alphabeta:depth=1", ["corners", "mobility"], iterations=6,
                batch=3, seed=4, random_opening=6, backend=LocalBackend(workers=2))
    assert pool.theta == othello_run.theta  # type: ignore[attr-defined]
    assert pool.results == othello_run.results  # type: ignore[attr-defined]
    assert len(pool.history) == 2 and pool.history[-1] == pool.theta


def test_a_run_is_the_same_on_ray(othello_run: object) -> None:
    """The units on a local Ray instance: the weights shipped to its workers every batch
    give the same results and the same weights as in one process."""
    from plies.parallel.backends import RayBackend

    with RayBackend(workers=2) as ray:
        run = spsa("othello", "alphabeta:depth=1", ["corners", "mobility"], iterations=6,
                   batch=3, seed=4, random_opening=6, backend=ray)
    assert run.theta == othello_run.theta  # type: ignore[attr-defined]
    assert run.results == othello_run.results  # type: ignore[attr-defined]
    assert "Ray" in run.backend


def test_the_update_is_spall_s(othello_run: object) -> None:
    # Replay the updates from the recorded results: theta_i += a_k R / (c_k flip_i).
    r = othello_run
    theta = list(r.start)  # type: ignore[attr-defined]
    for k, result in enumerate(r.results):  # type: ignore[attr-defined]
        sign = flips(r.seed, k, 2)  # type: ignore[attr-defined]
        theta = [t + r.gains.a(p, k) * result / (r.gains.c(p, k) * s)  # type: ignore[attr-defined]
                 for p, t, s in zip(r.params, theta, sign, strict=True)]  # type: ignore[attr-defined]
    assert theta == pytest.approx(list(r.theta))  # type: ignore[attr-defined]
    assert all(abs(x) <= 2 for x in r.results)  # type: ignore[attr-defined]


def test_a_bad_weight_climbs() -> None:
    # Othello that seeks to lose its corners: SPSA, playing its own perturbations, raises
    # the corners weight toward the hand-set +60.
    result = spsa("othello", "alphabeta:depth=1", ["corners=20"], iterations=12, batch=4,
                  seed=1, random_opening=4, rate=2.0, start={"corners": -60.0},
                  backend=SERIAL)
    assert result.theta[0] > -60.0 + 20
    # The steps' direction: plus won where plus had the larger corners weight.
    signs = [flips(1, k, 1)[0] for k in range(12)]
    assert sum(r * s for r, s in zip(result.results, signs, strict=True)) > 0


def test_a_unit_of_three_players_sums_plus_against_minus() -> None:
    game = load("empire", turns=6)
    spec = parse_agent("alphabeta:depth=1")
    base = game.feature_weights()
    plus = {**base, "cities": 0.6}
    minus = {**base, "cities": 0.0}
    seatings = tuple(schedule(3, 3, 1))
    seeds = tuple(game_seed(9, j) for j in range(3))
    opening = random_opening_of(game, None, 3, 9, 0)
    setup = _Unit(game, spec, tuple(base.items()), seatings, None)
    r = unit_task(setup, (0, tuple(plus.items()), tuple(minus.items()), seeds, opening))
    players = [_Evaluating(spec, weighted(game, w)) for w in (plus, minus, base)]
    expected = 0.0
    for seats, seed in zip(seatings, seeds, strict=True):
        final, _, _, _ = play_game(game, players, seats, seed,
                                   replay_opening(game, None, opening))
        scores = rank_scores([game.utility(final, p) for p in range(3)])
        expected += 2 * (scores[seats.index(0)] - scores[seats.index(1)])
    assert r == expected and -6 <= r <= 6


def test_chess_named_weights() -> None:
    game = load("chess", max_plies=40)
    assert has_weights(game) and not is_linear(game)
    weights = game.feature_weights()
    assert weights["rook_open_mg"] == 20.0 and weights["doubled_eg"] == -20.0
    other = game.with_weights({"rook_open_mg": 31.6, "passed_eg_7": 100})
    assert other.weights.rook_open == (32, 10) and other.weights.passed_eg[6] == 100
    assert other.fen == game.fen and other.max_plies == 40
    assert other.backend == game.backend
    assert other.feature_weights() == {**weights, "rook_open_mg": 32.0, "passed_eg_7": 100.0}
    assert game.with_weights(weights).weights == game.weights
    tuned = game.with_weights({"mobility_rook_eg": 6.2, "king_attack_mg": 11, "shelter_3": -9})
    assert tuned.weights.mobility_eg[2] == 6 and tuned.weights.king_attack[0] == 11
    assert tuned.weights.shelter[2] == -9
    assert tuned.feature_weights()["mobility_rook_eg"] == 6.0
    with pytest.raises(OptionError, match="no weight 'mobility'"):
        game.with_weights({"mobility": 1.0})


def test_cli_tune_and_verify(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    out = f"{tmp_path}/o.json"
    text = run(capsys, "tune", "othello", "--agent", "alphabeta:depth=1", "--param",
               "corners", "--iterations", "4", "--batch", "2", "--out", out, "--workers", "1",
               "--verify=-50,400", "--verify-games", "6", "--seed", "3")
    assert "othello: 4 SPSA iterations, 8 games" in text
    assert "SPRT of the tuned weights <-50, 400> logistic Elo" in text
    tuned = load_weights(out, load("othello"))
    assert set(tuned) == {"corners"}
    data = run_json(capsys, "tune", "othello", "--agent", "alphabeta:depth=1", "--param",
                    "corners", "--iterations", "4", "--batch", "2", "--out", out,
                    "--workers", "1", "--seed", "3")
    assert data["weights"] == tuned and math.isfinite(data["training"]["mean_result"])
    assert data["training"]["method"] == "spsa" and len(data["history"]) == 2
    assert "no linear evaluation" in fail(capsys, "tune", "nim", "--agent",
                                          "alphabeta:depth=1", "--out", f"{tmp_path}/n.json")
    assert "no weight 'edges'" in fail(capsys, "tune", "othello", "--agent",
                                       "alphabeta:depth=1", "--param", "edges", "--out",
                                       f"{tmp_path}/e.json")
    assert "--verify-games" in fail(capsys, "tune", "othello", "--agent", "alphabeta:depth=1",
                                    "--verify-games", "3", "--out", f"{tmp_path}/v.json")
