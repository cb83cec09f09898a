"""Tournaments with a random opening per round: the same moves for every game of a round,
kept in the records (so the games replay), different rounds, the same on a pool."""

from __future__ import annotations

import pytest

from plies import games
from plies.errors import OptionError
from plies.game import play
from plies.parallel import LocalBackend
from plies.tournament import tournament

SERIAL = LocalBackend(workers=1)


def test_every_game_of_a_round_starts_with_its_opening() -> None:
    r = tournament("connect4", ["alphabeta:depth=2", "alphabeta:depth=1"], rounds=3, seed=8,
                   backend=SERIAL, random_opening=4)
    assert r.random_opening == 4 and r.as_dict()["random_opening"] == 4
    openings = [tuple(rec.moves[:4]) for rec in r.records]
    assert openings[0] == openings[1] and openings[2] == openings[3]
    assert openings[4] == openings[5] and len({openings[0], openings[2], openings[4]}) == 3
    game = games.load("connect4")
    for rec in r.records:  # every record replays to a finished game with its utilities
        state = game.initial_state()
        for move in rec.moves:
            state = play(game, state, move)
        assert game.is_terminal(state)
        assert tuple(game.utility(state, p) for p in range(2)) == rec.utilities
    pool = tournament("connect4", ["alphabeta:depth=2", "alphabeta:depth=1"], rounds=3,
                      seed=8, backend=LocalBackend(workers=2), random_opening=4)
    assert pool.records == r.records


def test_a_negative_opening_is_refused() -> None:
    with pytest.raises(OptionError, match="random-opening"):
        tournament("nim", ["random", "random"], rounds=1, seed=1, backend=SERIAL,
                   random_opening=-1)
