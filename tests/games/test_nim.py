"""Nim and sticks: conformance, and the known theory checked against brute force."""

from __future__ import annotations

from collections.abc import Hashable
from itertools import product

import pytest

from plies.errors import GameFormatError
from plies.game import parse_action
from plies.games.nim import Nim, NimState, nim_sum, sticks
from tests.conformance import check_game


def mover_wins(game: Nim, state: NimState, memo: dict[Hashable, bool]) -> bool:
    """Brute force: can the player to move force a win?"""
    key = game.key(state)
    if key not in memo:
        if game.is_terminal(state):
            memo[key] = game.utility(state, state.mover) > 0
        else:
            memo[key] = any(
                not mover_wins(game, game.result(state, a), memo) for a in game.actions(state)
            )
    return memo[key]


def wins(piles: tuple[int, ...], **rules: object) -> bool:
    game = Nim(piles, **rules)  # type: ignore[arg-type]
    return mover_wins(game, game.initial_state(), {})


SMALL = [p for p in product(range(5), repeat=3) if sum(p)]


@pytest.mark.parametrize(
    "game",
    [Nim(), Nim((1, 2, 3), misere=True), Nim((5, 7), max_take=3), sticks(), sticks(misere=True)],
    ids=["nim", "misere", "max_take", "sticks", "sticks-misere"],
)
def test_conformance(game: Nim) -> None:
    report = check_game(game)
    assert report.terminals == 50


def test_normal_play_losses_are_the_zero_nim_sums() -> None:
    memo: dict[Hashable, bool] = {}
    for piles in [*SMALL, (3, 4, 5), (1, 4, 5), (2, 5, 7), (1, 2, 3, 4)]:
        game = Nim(piles)
        assert mover_wins(game, game.initial_state(), memo) == (nim_sum(piles) != 0), piles


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_subtraction_game_losses_are_multiples_of_k_plus_1(k: int) -> None:
    losing = [n for n in range(1, 30) if not wins((n,), max_take=k)]
    assert losing == [n for n in range(1, 30) if n % (k + 1) == 0]


def test_subtraction_game_with_several_piles_follows_grundy_values() -> None:
    for piles in SMALL:
        grundy = nim_sum([n % 3 for n in piles])
        assert wins(piles, max_take=2) == (grundy != 0), piles


def test_misere_nim() -> None:
    for piles in SMALL:
        # Misere play differs from normal play only when no pile has 2 sticks or more.
        mover_loses = sum(piles) % 2 == 1 if max(piles) <= 1 else nim_sum(piles) == 0
        assert wins(piles, misere=True) == (not mover_loses), piles


@pytest.mark.parametrize("k", [1, 2, 3])
def test_misere_single_pile(k: int) -> None:
    losing = [n for n in range(1, 25) if not wins((n,), max_take=k, misere=True)]
    assert losing == [n for n in range(1, 25) if n % (k + 1) == 1]


def test_twenty_one_sticks() -> None:
    game = sticks()
    assert game.piles == (21,) and game.max_take == 3 and game.name == "sticks"
    memo: dict[Hashable, bool] = {}
    start = game.initial_state()
    assert mover_wins(game, start, memo)
    # The winning move takes 1 and leaves a multiple of 4.
    good = [a for a in game.actions(start) if not mover_wins(game, game.result(start, a), memo)]
    assert good == [(0, 1)]


def test_utility_follows_the_rule() -> None:
    last_taken_by_0 = NimState((0, 0), 1)
    assert Nim().utility(last_taken_by_0, 0) == 1.0
    assert Nim().utility(last_taken_by_0, 1) == -1.0
    assert Nim(misere=True).utility(last_taken_by_0, 0) == -1.0
    with pytest.raises(ValueError, match="non-terminal"):
        Nim().utility(Nim().initial_state(), 0)


def test_actions_and_their_text() -> None:
    game = Nim((2, 0, 1))
    s = game.initial_state()
    assert game.actions(s) == [(0, 1), (0, 2), (2, 1)]
    assert [game.format_action(s, a) for a in game.actions(s)] == ["1:1", "1:2", "3:1"]
    assert parse_action(game, s, "1:2") == (0, 2)
    assert game.result(s, (0, 2)) == NimState((0, 0, 1), 1)
    capped = Nim((5, 2), max_take=3)
    assert capped.actions(capped.initial_state()) == [(0, 1), (0, 2), (0, 3), (1, 1), (1, 2)]
    single = sticks(5)
    assert [
        single.format_action(single.initial_state(), a)
        for a in single.actions(single.initial_state())
    ] == ["1", "2", "3"]


def test_key_ignores_pile_order_and_empty_piles() -> None:
    game = Nim((3, 4, 5))
    assert game.key(NimState((3, 0, 5), 1)) == game.key(NimState((5, 3, 0), 1))
    assert game.key(NimState((3, 0, 5), 1)) != game.key(NimState((3, 0, 5), 0))


def test_render() -> None:
    game = Nim((3, 10), max_take=2, misere=True)
    assert game.render(game.initial_state()) == (
        "pile 1:  3 |||\npile 2: 10 ||||||||||\nP0 to move (take 1-2, last stick loses)"
    )
    assert game.render(NimState((0, 0), 1)) == "pile 1:  0\npile 2:  0\nP1 wins"
    assert sticks(3).render(NimState((3,), 0)).startswith("sticks: 3 |||")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"piles": ()}, "at least one stick"),
        ({"piles": (0, 0)}, "at least one stick"),
        ({"piles": (3, -1)}, "non-negative"),
        ({"max_take": 0}, "max_take"),
    ],
)
def test_bad_options(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(GameFormatError, match=message):
        Nim(**kwargs)  # type: ignore[arg-type]
