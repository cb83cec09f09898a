"""The ``random_playout`` hook: fast Monte Carlo playouts that play what the generic one plays.

A game's hook must return the same state as :func:`plies.game.default_random_playout`
from the same generator state, and leave the generator in the same state: then every
move it plays is legal (the generic playout only plays ``actions()``), its moves have the
generic playout's distribution, and MCTS gives the same result with or without it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import plies
from plies.errors import UnsupportedGameError
from plies.game import default_random_playout, game_ops, hook
from plies.games import load
from plies.gdl import load_game
from plies.search import Limit
from plies.wrappers import OpponentsAsChance
from tests.data import GDL_DATA

LIMITS = (0, 1, 2, 7, 500)


def _positions(game: Any, rng: random.Random, count: int, most: int) -> list[Any]:
    """``count`` states reached by up to ``most`` random moves from the start."""
    found = []
    for _ in range(count):
        state = game.initial_state()
        for _ in range(rng.randrange(most + 1)):
            if game.is_terminal(state):
                break
            actions = game.actions(state)
            state = game.result(state, actions[rng.randrange(len(actions))])
        found.append(state)
    return found


def _same_as_the_generic_playout(game: Any, positions: int, most: int) -> int:
    """Check the hook against the generic playout; the number of playouts that ended."""
    fast = hook(game, "random_playout")
    assert fast is not None
    rng = random.Random(2026)
    ended = 0
    for state in _positions(game, rng, positions, most):
        for limit in LIMITS:
            seed = rng.randrange(2**32)
            mine, theirs = random.Random(seed), random.Random(seed)
            got = fast(state, mine, limit)
            assert got == default_random_playout(game, state, theirs, limit), (state, limit)
            assert mine.getstate() == theirs.getstate()  # the same draws, no more
            ended += game.is_terminal(got)
    return ended


def _gdl(name: str) -> Any:
    return load_game(GDL_DATA / f"{name}.kif")


def test_connect4_playouts_are_the_generic_playouts() -> None:
    assert _same_as_the_generic_playout(load("connect4"), 150, 35) > 100


def test_connect4_playouts_on_a_small_board_reach_draws() -> None:
    game = load("connect4", width=4, height=4)
    assert _same_as_the_generic_playout(game, 100, 12) > 50
    signs = set()
    for seed in range(200):
        end = default_random_playout(game, game.initial_state(), random.Random(seed), 99)
        u = game.utility(end, 0)
        signs.add((u > 0) - (u < 0))
    assert signs == {-1, 0, 1}  # wins, losses and full boards are all met


def test_othello_playouts_are_the_generic_playouts_passes_included() -> None:
    game = load("othello")
    assert _same_as_the_generic_playout(game, 40, 50) > 20
    # A position where Black must pass (White to move after a pass is the test).
    rng = random.Random(7)
    passes = 0
    for state in _positions(game, rng, 300, 60):
        if not game.is_terminal(state) and game.actions(state) == [-1]:
            passes += 1
            seed = rng.randrange(2**32)
            got = game.random_playout(state, random.Random(seed), 3)
            assert got == default_random_playout(game, state, random.Random(seed), 3)
    assert passes > 0


@pytest.mark.parametrize("name", ["ticTacToe", "connectFour", "breakthrough", "pentago"])
def test_gdl_playouts_are_the_generic_playouts(name: str) -> None:
    assert _same_as_the_generic_playout(_gdl(name), 12, 20) > 0


def test_gdl_playouts_through_simultaneous_steps_are_the_generic_playouts() -> None:
    # roshambo2: every step is simultaneous; each role draws its own move.
    game = _gdl("roshambo2")
    assert game.to_move(game.initial_state()) == plies.SIMULTANEOUS
    assert _same_as_the_generic_playout(game, 10, 3) > 0


def test_the_generic_playout_plays_simultaneous_matrix_games() -> None:
    rps = load("rps")
    end = default_random_playout(rps, rps.initial_state(), random.Random(0), 10)
    assert rps.is_terminal(end)
    seen = {default_random_playout(rps, rps.initial_state(), random.Random(s), 1).last
            for s in range(60)}
    assert len(seen) == 9  # every joint action is drawn


@pytest.mark.parametrize("name", ["connect4", "othello"])
def test_mcts_plays_the_same_with_and_without_the_hook(name: str) -> None:
    fast, plain = load(name), load(name)
    plain.random_playout = None  # type: ignore[attr-defined]  # the generic playout
    assert hook(plain, "random_playout") is None
    limit = Limit(nodes=300)
    a = plies.mcts(fast, fast.initial_state(), limit, seed=3, all_values=True)
    b = plies.mcts(plain, plain.initial_state(), limit, seed=3, all_values=True)
    assert (a.action, a.value, a.pv, a.action_values) == (b.action, b.value, b.pv, b.action_values)


def test_a_wrapper_does_not_forward_the_hook() -> None:
    # Connect Four with O as a chance player that always plays column 1: the wrapped
    # game's uniform playout would ignore that policy.
    c4 = load("connect4")
    game = OpponentsAsChance(c4, 1, lambda s: [(0, 1.0)] if 0 in c4.actions(s) else
                             [(a, 1 / len(c4.actions(s))) for a in c4.actions(s)])
    assert hook(game, "random_playout") is None
    end = game_ops(game).random_playout
    assert end is not None
    state = end(game.initial_state(), random.Random(1), 10)
    o_stones = state.position if state.moves % 2 == 1 else state.position ^ state.mask
    assert o_stones & c4._column[0] == o_stones  # every O stone is in column 1


def test_the_default_playout_refuses_a_mover_that_is_no_player() -> None:
    class Broken:
        num_players = 2
        name = "broken"

        def initial_state(self) -> int:
            return 0

        def to_move(self, state: int) -> int:
            return 5

        def actions(self, state: int) -> list[int]:
            return [1]

        def result(self, state: int, action: int) -> int:
            return state + action

        def is_terminal(self, state: int) -> bool:
            return False

        def utility(self, state: int, player: int) -> float:
            return 0.0

    with pytest.raises(UnsupportedGameError, match=r"^broken: a random playout met to_move 5"):
        default_random_playout(Broken(), 0, random.Random(0), 3)


@pytest.mark.parametrize("name", ["ticTacToe", "roshambo2"])
def test_gdl_playouts_on_the_top_down_prover_are_the_generic_playouts(name: str) -> None:
    # GdlGame over a machine without the propnet's move indices takes the protocol path.
    from plies.gdl import GdlGame, parse
    from plies.gdl.topdown import TopDown

    game = GdlGame(TopDown(parse((GDL_DATA / f"{name}.kif").read_text())))
    assert _same_as_the_generic_playout(game, 6, 4) > 0
