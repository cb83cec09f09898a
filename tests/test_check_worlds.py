"""``plies check`` and :func:`plies.check_game` check the information sets of a game with
hidden cards (``information sets``, by :func:`plies.imperfect.check_worlds`)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from plies.check import CHECKS, check_game
from plies.games import load
from plies.games.kuhn import KuhnPoker, KuhnState


class PeekingKuhn(KuhnPoker):
    """A broken game: a player's information set holds the other player's card."""

    def information_set(self, state: KuhnState, player: int) -> Any:
        return state


class HalfKuhn(KuhnPoker):
    """A broken game: information sets, but no way to sample their worlds."""

    sample_worlds = None  # type: ignore[assignment]


class RaisingKuhn(KuhnPoker):
    """A broken game: listing the worlds fails."""

    def worlds(self, state: KuhnState, player: int) -> list[tuple[KuhnState, float]]:
        raise RuntimeError("no deck")


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_games_with_hidden_cards_get_an_information_sets_line(name: str) -> None:
    report = check_game(load(name), playouts=10)
    assert report.ok and len(report.checks) == len(CHECKS) + 1
    assert str(report.checks[-1]) == (
        "pass  information sets: sampled worlds, and the listed worlds match every "
        "player's information set and actions along 10 playouts"
    )


def test_a_perfect_information_game_has_no_such_line() -> None:
    report = check_game(load("tictactoe"), playouts=3)
    assert [c.name for c in report.checks] == list(CHECKS)


@pytest.mark.parametrize(
    ("game", "reason"),
    [
        (PeekingKuhn(), "playout 0: P0 can tell world"),
        (HalfKuhn(), "sample_worlds missing (a game with information sets needs "
                     "information_set and sample_worlds)"),
        (RaisingKuhn(), "raised RuntimeError: no deck"),
    ],
)
def test_broken_information_sets_fail_the_check(game: Any, reason: str) -> None:
    report = check_game(game, playouts=3)
    last = report.checks[-1]
    assert (last.name, last.status) == ("information sets", "fail")
    assert last.reason.startswith(reason), last.reason
    assert report.failures == [last]  # the game model itself is fine


@pytest.fixture
def check_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")


@pytest.mark.usefixtures("check_command")
def test_plies_check_runs_the_worlds_check(capsys: pytest.CaptureFixture[str]) -> None:
    from plies.cli import main

    assert main(["check", "leduc", "--playouts", "5"]) == 0
    out = capsys.readouterr().out
    assert "information sets" in out and out.strip().startswith("leduc: 5 random playouts")
    assert f"all {len(CHECKS) + 1} checks passed" in out
    assert main(["check", "tests.test_check_worlds:PeekingKuhn", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    failed = [c for c in data["checks"] if c["status"] == "fail"]
    assert [c["name"] for c in failed] == ["information sets"]
