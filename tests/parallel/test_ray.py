"""Ray gives the same results as one process: one local Ray instance for the module."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from plies.cli import main
from plies.parallel import (
    GameRef,
    LocalBackend,
    Position,
    RayBackend,
    analyze_positions,
)
from plies.tournament import tournament

AGENTS = ["expectiminimax:depth=2", "maxn:depth=1", "random"]


@pytest.fixture(scope="module")
def ray() -> Iterator[Any]:
    import ray

    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR,
             log_to_driver=False)
    yield ray
    ray.shutdown()


def test_tournament_on_ray_equals_one_process(ray: Any) -> None:
    options = {"goal": 5, "max_turns": 2}  # a chance game: the dice follow the seed too
    serial = tournament("pig", AGENTS, rounds=2, seed=8, options=options,
                        backend=LocalBackend(1))
    on_ray = tournament("pig", AGENTS, rounds=2, seed=8, options=options, backend=RayBackend())
    assert on_ray.records == serial.records
    assert on_ray.standings() == serial.standings()
    assert on_ray.backend.startswith("Ray")
    assert ray.is_initialized()  # a connection it did not open is left open


def test_batch_analysis_on_ray_equals_one_process(ray: Any) -> None:
    positions = [Position(i, m) for i, m in enumerate(["", "5", "5 1", "1 5 9"], 1)]
    serial = analyze_positions(GameRef("tictactoe"), positions, backend=LocalBackend(1))
    on_ray = analyze_positions(GameRef("tictactoe"), positions, backend=RayBackend())
    assert [{**r.as_dict(), "stats": None} for r in on_ray] == [
        {**r.as_dict(), "stats": None} for r in serial
    ]


def test_cli_ray_flag(ray: Any, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "nim", "-o", "piles=2,2", "--agent", "alphabeta", "--agent",
            "random", "--games", "2", "--seed", "5", "--json"]
    assert main([*argv, "--workers", "1"]) == 0
    serial = json.loads(capsys.readouterr().out)
    assert main([*argv, "--ray"]) == 0
    out, err = capsys.readouterr()
    on_ray = json.loads(out)
    assert err == ""
    assert on_ray["records"] == serial["records"]
    assert on_ray["backend"].startswith("Ray")
