"""plies.linear: the LinearEvaluation protocol (on Othello) and the weights file."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from plies.errors import OptionError, WeightsFileError
from plies.games import load
from plies.games.othello import FEATURES, Othello, OthelloState
from plies.linear import (
    LinearEvaluation,
    is_linear,
    load_weights,
    read_weights_file,
    save_weights,
    weighted,
)


def positions(count: int = 12, seed: int = 5) -> list[OthelloState]:
    """States of random Othello games, final positions included."""
    game, rng, out = Othello(), random.Random(seed), []
    for _ in range(count):
        state = game.initial_state()
        while not game.is_terminal(state):
            out.append(state)
            state = game.result(state, rng.choice(game.actions(state)))
        out.append(state)
    return out


def squashed(game: Othello, state: OthelloState, player: int) -> float:
    """Othello's documented evaluation: 64 x / (|x| + softness), x the weighted sum."""
    w = game.feature_weights()
    x = sum(w[name] * f for name, f in zip(game.feature_names, game.features(state, player),
                                            strict=True))
    return 64.0 * x / (abs(x) + game.weights.softness)


def test_othello_implements_the_protocol() -> None:
    game = load("othello")
    assert is_linear(game) and isinstance(game, LinearEvaluation)
    assert game.feature_names == FEATURES
    assert set(game.feature_weights()) == set(FEATURES)
    assert not is_linear(load("nim")) and not is_linear(load("connect4"))


@pytest.mark.parametrize("weights", [{}, {"corners": 200.0, "discs": -3.0, "mobility": 0.0}])
def test_othello_evaluate_is_the_squashed_weighted_sum_of_its_features(
    weights: dict[str, float],
) -> None:
    game = Othello().with_weights(weights)
    for state in positions():
        if game.is_terminal(state):
            continue
        for player in (0, 1):
            assert game.evaluate(state, player) == pytest.approx(
                squashed(game, state, player), abs=1e-9
            )
            assert len(game.features(state, player)) == len(FEATURES)


def test_features_of_the_two_players_are_opposite() -> None:
    game = Othello()
    for state in positions(4):
        assert game.features(state, 0) == tuple(-f for f in game.features(state, 1))


def test_with_weights_changes_only_the_named_weights() -> None:
    game = Othello()
    other = game.with_weights({"corners": 1.5})
    assert other.feature_weights() == {**game.feature_weights(), "corners": 1.5}
    assert game.feature_weights()["corners"] == 60.0  # the original is untouched
    assert other.weights.softness == game.weights.softness
    state = next(s for s in positions(3) if not s.over and game.features(s, 0)[2] != 0)
    assert other.evaluate(state, 0) != game.evaluate(state, 0)
    same = game.with_weights(game.feature_weights())
    assert all(same.evaluate(s, 0) == game.evaluate(s, 0) for s in positions(2))


def test_with_weights_refuses_an_unknown_feature_and_lists_the_features() -> None:
    with pytest.raises(OptionError, match=r"othello has no feature 'corner'; its features: "
                       r"mobility, frontier, corners, x_squares"):
        Othello().with_weights({"corner": 1.0})
    with pytest.raises(OptionError, match="softness"):  # the squashing scale is no feature
        Othello().with_weights({"softness": 1.0})


def test_weighted_refuses_a_game_without_a_linear_evaluation() -> None:
    with pytest.raises(OptionError, match="nim has no linear evaluation"):
        weighted(load("nim"), {"x": 1.0})


# --- the file -----------------------------------------------------------------------------


def test_weights_file_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    training = {"method": "logistic", "games": 3, "depth": 2, "seed": 1}
    save_weights(path, "othello", {"corners": 80.0, "discs": -1.25}, training)
    assert load_weights(path, Othello()) == {"corners": 80.0, "discs": -1.25}
    data = read_weights_file(path)
    assert data["game"] == "othello" and data["training"] == training
    raw = json.loads(path.read_text())
    assert raw["format"] == "plies-weights" and raw["version"] == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "is not JSON (line 1, column 2"),
        ("[1, 2]", "is not a plies weights file; expected {"),
        ('{"format": "other"}', "is not a plies weights file"),
        ('{"format": "plies-weights", "game": "othello"}', "lacks its game or weights"),
        ('{"format": "plies-weights", "game": "othello", "weights": {}}', "lacks its game"),
        ('{"format": "plies-weights", "game": 3, "weights": {"a": 1}}', "lacks its game"),
        ('{"format": "plies-weights", "game": "othello", "weights": {"corners": "9"}}',
         "weight 'corners' is '9', not a finite number"),
        ('{"format": "plies-weights", "game": "othello", "weights": {"corners": true}}',
         "not a finite number"),
        ('{"format": "plies-weights", "game": "othello", "weights": {"corners": NaN}}',
         "weight 'corners' is nan, not a finite number"),
    ],
)
def test_a_malformed_weights_file_is_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(WeightsFileError) as info:
        load_weights(path)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_a_missing_or_unreadable_weights_file(tmp_path: Path) -> None:
    with pytest.raises(WeightsFileError, match=r"no weights file '.*nothere\.json'"):
        load_weights(tmp_path / "nothere.json")
    with pytest.raises(WeightsFileError, match="cannot read weights file"):
        load_weights(tmp_path)  # a directory
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(WeightsFileError, match="not UTF-8"):
        load_weights(tmp_path / "bin.json")


def test_weights_for_another_game_or_unknown_features(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    save_weights(path, "othello", {"corners": 1.0, "edges": 2.0})
    assert load_weights(path) == {"corners": 1.0, "edges": 2.0}  # no game: not checked
    with pytest.raises(OptionError, match=r"has no feature 'edges'; its features: mobility"):
        load_weights(path, Othello())
    with pytest.raises(WeightsFileError, match="is for 'othello', not for 'nim'"):
        load_weights(path, load("nim"))


def test_save_weights_refuses_what_it_cannot_write(tmp_path: Path) -> None:
    with pytest.raises(WeightsFileError, match="weights must be finite"):
        save_weights(tmp_path / "w.json", "othello", {"corners": math.inf})
    with pytest.raises(WeightsFileError, match="cannot write weights file"):
        save_weights(tmp_path / "no" / "w.json", "othello", {"corners": 1.0})


def test_the_shipped_othello_weights_load() -> None:
    """src/plies/games/othello/weights/othello.json is a valid file for Othello, made by
    logistic regression on 600 self-play games at depth 2 (benchmarks/results/learn.md)."""
    from importlib import resources

    path = resources.files("plies.games.othello").joinpath("weights", "othello.json")
    weights = load_weights(str(path), Othello())
    assert set(weights) == set(FEATURES)
    training = read_weights_file(str(path))["training"]
    assert (training["method"], training["games"], training["depth"], training["seed"]) == (
        "logistic", 600, 2, 1
    )
