"""Determinization: exact where the player sees everything, seeded, and wrong where the
literature says it is (strategy fusion, non-locality)."""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

import pytest

from plies.errors import OptionError, UnsupportedGameError
from plies.game import CHANCE, Game
from plies.games import load
from plies.games.kuhn import BET, PASS, KuhnPoker, KuhnState
from plies.imperfect import Observable, sample_from
from plies.search import Limit, analyze, expectiminimax
from plies.search.determinize import determinize
from tests.conformance import check_game

KUHN = KuhnPoker()
J, Q, K = 0, 1, 2

CoinState = tuple[str | None, tuple[str, ...]]


class HiddenCoin(Game[CoinState, str]):
    """A coin is tossed (H or T, 1/2 each) that P0 never sees; ``payoff[(coin, history)]``
    is P0's utility at each terminal history; ``moves[history]`` the mover and its
    actions elsewhere.  P1 sees the coin; P0's information set is the history alone."""

    num_players = 2
    zero_sum = True
    has_chance = True
    utility_range = (-2.0, 2.0)
    name = "hidden-coin"

    def __init__(
        self,
        moves: dict[tuple[str, ...], tuple[int, tuple[str, ...]]],
        payoff: dict[tuple[str, tuple[str, ...]], float],
    ) -> None:
        self.moves = moves
        self.payoff = payoff

    def initial_state(self) -> CoinState:
        return None, ()

    def to_move(self, state: CoinState) -> int:
        return CHANCE if state[0] is None else self.moves[state[1]][0]

    def actions(self, state: CoinState) -> tuple[str, ...]:
        return ("H", "T") if state[0] is None else self.moves[state[1]][1]

    def result(self, state: CoinState, action: str) -> CoinState:
        return (action, ()) if state[0] is None else (state[0], (*state[1], action))

    def is_terminal(self, state: CoinState) -> bool:
        return state[0] is not None and state[1] not in self.moves

    def utility(self, state: CoinState, player: int) -> float:
        assert state[0] is not None
        won = self.payoff[(state[0], state[1])]
        return won if player == 0 else -won

    def information_set(self, state: CoinState, player: int) -> Hashable:
        return state if player == 1 else (state[0] is not None, state[1])

    def worlds(self, state: CoinState, player: int) -> list[tuple[CoinState, float]]:
        if player == 1 or state[0] is None:
            return [(state, 1.0)]
        return [(("H", state[1]), 0.5), (("T", state[1]), 0.5)]

    def sample_worlds(self, state: CoinState, player: int, n: int, rng: random.Random) -> list[
        CoinState
    ]:
        return sample_from(self.worlds(state, player), n, rng)


# Strategy fusion (Frank & Basin 1998; AIMA 3rd ed. 5.6, "averaging over clairvoyance"):
# P0 takes a sure 0.5 ("safe") or "gambles" and must then call the coin it cannot see:
# +1 if right, -1 if wrong.  In each world the search calls the coin knowing it, so
# "gamble" is worth +1 in both worlds, and determinization prefers it to 0.5; but the
# real P0 makes ONE call for both worlds (one information set), and either call is worth
# (1 - 1) / 2 = 0.  The best real choice is "safe".
FUSION = HiddenCoin(
    {(): (0, ("safe", "gamble")), ("gamble",): (0, ("call-H", "call-T"))},
    {
        **{(coin, ("safe",)): 0.5 for coin in "HT"},
        **{(coin, ("gamble", f"call-{call}")): 1.0 if call == coin else -1.0
           for coin in "HT" for call in "HT"},
    },
)

# Non-locality (Frank & Basin 1998): P1 sees the coin and moves first: "stop" costs P0 1
# on heads and pays it 1 on tails; after "go" P0 picks "a" (+2 on heads, -1 on tails) or
# "b" (-2 on heads, 0.5 on tails).  A P1 who plays well stops on heads (-1 beats +2 for
# it) and goes on tails (0.5 beats 1), so once P1 has gone the coin is tails and "b"
# (0.5) is right.  Determinization weighs heads and tails by the toss alone, ignoring
# what P1's move says: "a" averages 0.5 and "b" -0.75, and it plays "a", worth -1.
NONLOCAL = HiddenCoin(
    {(): (1, ("stop", "go")), ("go",): (0, ("a", "b"))},
    {
        ("H", ("stop",)): -1.0, ("T", ("stop",)): 1.0,
        ("H", ("go", "a")): 2.0, ("T", ("go", "a")): -1.0,
        ("H", ("go", "b")): -2.0, ("T", ("go", "b")): 0.5,
    },
)


def fused_value(game: HiddenCoin, first: str, call: str) -> float:
    """P0's real expected payoff of one plan: ``first``, then ``call`` whatever the coin."""
    return sum(game.payoff[(coin, (first, call))] for coin in "HT") / 2


def test_the_example_games_conform() -> None:
    check_game(FUSION, playouts=20)
    check_game(NONLOCAL, playouts=20)


def test_strategy_fusion_prefers_a_gamble_that_needs_a_guess_it_cannot_make() -> None:
    start = FUSION.result(FUSION.initial_state(), "H")  # P0 sees (True, ()) either way
    found = determinize(FUSION, start, None)
    assert found.action_values == {"safe": 0.5, "gamble": 1.0}
    assert found.action == "gamble" and not found.exact
    # The truth: one call for both worlds, each worth 0 on average; "safe" is better.
    assert max(fused_value(FUSION, "gamble", call) for call in ("call-H", "call-T")) == 0.0


def test_non_locality_trusts_the_toss_where_the_opponent_told_more() -> None:
    tails = NONLOCAL.result(NONLOCAL.initial_state(), "T")
    # With the coin face up, a sound P1 stops on heads and goes on tails:
    assert expectiminimax(NONLOCAL, ("H", ()), player=1).action == "stop"
    assert expectiminimax(NONLOCAL, tails, player=1).action == "go"
    after_go = NONLOCAL.result(tails, "go")
    found = determinize(NONLOCAL, after_go, None)
    assert found.action_values == {"a": 0.5, "b": -0.75}
    assert found.action == "a"
    # ...but only the tails world reaches this point against that P1, where "a" loses.
    assert analyze(NONLOCAL, after_go, algorithm="expectiminimax").action_values == {
        "a": -1.0, "b": 0.5,
    }


@pytest.mark.parametrize("name", ["pig", "tictactoe", "nim"])
def test_where_the_player_sees_everything_it_is_the_perfect_information_value(
    name: str,
) -> None:
    game = load(name, **({"goal": 5, "max_turns": 2} if name == "pig" else {}))
    seen = Observable(game)
    rng = random.Random(7)
    state = game.initial_state()
    for _ in range(6):  # along a random game, at every decision
        if game.is_terminal(state):
            break
        if game.to_move(state) >= 0:
            limit = Limit(depth=3)
            truth = analyze(game, state, limit, algorithm="expectiminimax")
            for worlds in (None, 3):
                found = determinize(seen, state, worlds, limit, seed=1)
                # Three equal worlds average to the value up to rounding (0.2 * 3 / 3);
                # equal values round alike, so the chosen action is the same exactly.
                assert found.action_values == pytest.approx(truth.action_values)
                assert found.value == pytest.approx(truth.value)
                assert found.action == truth.action
                if worlds is None:
                    assert found.action_values == truth.action_values
        state = game.result(state, rng.choice(list(game.actions(state))))


def test_kuhn_exact_worlds_average_the_face_up_values() -> None:
    # P1 holds the queen facing a bet: against the jack calling wins 2, against the king
    # it loses 2, and folding loses 1 in both worlds.
    found = determinize(KUHN, KuhnState((J, Q), (BET,)), None)
    assert found.action_values == {PASS: -1.0, BET: 0.0}
    assert (found.action, found.value, found.player) == (BET, 0.0, 1)
    assert found.stats.nodes == 2 * 3  # two worlds, a root and two children each


def test_the_same_seed_gives_the_same_result() -> None:
    state = KuhnState((Q, K), ())
    runs = [determinize(KUHN, state, 7, seed=seed) for seed in (5, 5, 6)]
    assert runs[0].action_values == runs[1].action_values
    assert runs[0].action == runs[1].action
    # Different seeds draw different worlds here (7 draws from two worlds):
    assert runs[0].action_values != runs[2].action_values


def test_refuses_what_it_cannot_do() -> None:
    with pytest.raises(UnsupportedGameError, match="no information sets"):
        determinize(load("tictactoe"), load("tictactoe").initial_state())
    with pytest.raises(UnsupportedGameError, match="chance"):
        determinize(KUHN, KUHN.initial_state())
    with pytest.raises(UnsupportedGameError, match="not P1"):
        determinize(KUHN, KuhnState((J, Q), ()), player=1)
    with pytest.raises(OptionError, match="at least 1"):
        determinize(KUHN, KuhnState((J, Q), ()), 0)


class LeakyWorlds(KuhnPoker):
    """A broken game whose worlds show the player a card it does not hold."""

    def sample_worlds(self, state: Any, player: int, n: int, rng: random.Random) -> list[Any]:
        return [KuhnState((K, J), state.history)] * n


def test_a_world_outside_the_information_set_is_refused() -> None:
    with pytest.raises(UnsupportedGameError, match="can tell from the state"):
        determinize(LeakyWorlds(), KuhnState((Q, J), ()), 2)
