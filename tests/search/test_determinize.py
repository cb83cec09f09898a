"""Determinization: exact where the player sees everything, seeded, and wrong where the
literature says it is (strategy fusion, non-locality)."""

from __future__ import annotations

import itertools
import math
import random
import sys
from typing import Any

import pytest

from plies.errors import OptionError, UnsupportedGameError
from plies.games import load
from plies.games.hidden_coin import HiddenCoin, non_locality, strategy_fusion
from plies.games.kuhn import BET, PASS, KuhnPoker, KuhnState
from plies.imperfect import Observable, check_worlds
from plies.search import Limit, analyze, expectiminimax
from plies.search.determinize import determinize
from tests.conformance import check_game

KUHN = KuhnPoker()
J, Q, K = 0, 1, 2

# The two examples and why determinization gets them wrong are in the docstring of
# plies.games.hidden_coin: strategy fusion (P0's later call is made knowing the coin in
# each world) and non-locality (P1's "go" says the coin is tails; the toss says 1/2).
FUSION = strategy_fusion()
NONLOCAL = non_locality()


def fused_value(game: HiddenCoin, first: str, call: str) -> float:
    """P0's real expected payoff of one plan: ``first``, then ``call`` whatever the coin."""
    return sum(game.payoff[(coin, (first, call))] for coin in "HT") / 2


def test_the_example_games_conform() -> None:
    for game in (FUSION, NONLOCAL):
        check_game(game, playouts=20)
        assert check_worlds(game, playouts=20) == []
        assert check_worlds(Observable(load("tictactoe")), playouts=3) == []


def test_the_example_worlds_are_the_information_sets() -> None:
    for game in (FUSION, NONLOCAL):
        for coin in ("H", "T"):
            for history in [(), *game.moves]:
                state = (coin, history)
                seen = game.information_set(state, 0)
                worlds = game.worlds(state, 0)
                assert {game.information_set(w, 0) for w, _ in worlds} == {seen}
                assert [w[0] for w, _ in worlds] == ["H", "T"]  # P0 cannot rule out either
                assert game.worlds(state, 1) == [(state, 1.0)]  # P1 sees the coin


def test_strategy_fusion_prefers_a_gamble_that_needs_a_guess_it_cannot_make() -> None:
    # Strategy fusion: in the heads world the search plays gamble, call-H (+1), in the
    # tails world gamble, call-T (+1): two strategies fused into one "gamble = +1".  P0
    # cannot tell the worlds apart when it calls, so it has only one call for both.
    start = FUSION.result(FUSION.initial_state(), "H")  # P0 sees (True, ()) either way
    found = determinize(FUSION, start, None)
    assert found.action_values == {"safe": 0.5, "gamble": 1.0}
    assert found.action == "gamble" and not found.exact
    # The truth: one call for both worlds, each worth 0 on average; "safe" is better.
    assert max(fused_value(FUSION, "gamble", call) for call in ("call-H", "call-T")) == 0.0


def test_non_locality_trusts_the_toss_where_the_opponent_told_more() -> None:
    # Non-locality: the value of P0's choice after "go" depends on a part of the tree
    # determinization never looks at, P1's choice on heads ("stop"), which makes the
    # heads world unreachable; each world is searched on its own and weighted 1/2.
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


# --- Kuhn poker: the whole determinized strategy, and how much a best response wins -------


def kuhn_decisions() -> list[KuhnState]:
    """Every non-terminal state where a player (not chance) is to act."""
    found, todo = [], [KUHN.initial_state()]
    while todo:
        state = todo.pop()
        if KUHN.is_terminal(state):
            continue
        if KUHN.to_move(state) >= 0:
            found.append(state)
        todo += [KUHN.result(state, a) for a in KUHN.actions(state)]
    return found


Policy = dict[tuple[int, Any], str]


def kuhn_value(policy: Policy) -> float:
    """P0's expected payoff when both players follow ``policy`` (information set -> action)."""
    total = 0.0
    for deal, p in KUHN.chance_outcomes(KUHN.initial_state()):
        state = KUHN.result(KUHN.initial_state(), deal)
        while not KUHN.is_terminal(state):
            mover = KUHN.to_move(state)
            state = KUHN.result(state, policy[(mover, KUHN.information_set(state, mover))])
        total += p * KUHN.utility(state, 0)
    return total


def best_response(policy: Policy, responder: int) -> float:
    """``responder``'s payoff from its best pure strategy against ``policy`` (by trying all
    64: six information sets of two actions each)."""
    mine = sorted({key for key in policy if key[0] == responder}, key=str)
    best = -math.inf
    for choice in itertools.product((PASS, BET), repeat=len(mine)):
        value = kuhn_value({**policy, **dict(zip(mine, choice, strict=True))})
        best = max(best, value if responder == 0 else -value)
    return best


def test_determinization_sees_no_reason_to_bet_a_king_in_kuhn_poker() -> None:
    # In every world the opponent sees the king and folds to a bet or checks behind, so
    # betting and passing are both worth +1: the value of hiding one's hand is invisible
    # to a search that gives everyone every card.  Ties go to the first action, "pass".
    for state in (KuhnState((K, J), ()), KuhnState((J, K), (PASS,))):
        found = determinize(KUHN, state, None)
        assert found.action_values == {PASS: 1.0, BET: 1.0}
        assert found.action == PASS


def test_a_best_response_wins_a_sixth_of_a_chip_against_determinization_in_kuhn_poker() -> None:
    policy: Policy = {}
    for state in kuhn_decisions():
        mover = KUHN.to_move(state)
        policy[(mover, KUHN.information_set(state, mover))] = determinize(KUHN, state, None).action
    assert len(policy) == 12  # 3 cards x 2 betting points x 2 players
    assert kuhn_value(policy) == 0.0  # against itself it breaks even
    # Kuhn poker's value is -1/18 for P0 (Kuhn 1950): a sound P1 wins 1/18 a hand, a
    # best response to determinization wins 1/6 in either seat.
    assert best_response(policy, 0) == pytest.approx(1 / 6)
    assert best_response(policy, 1) == pytest.approx(1 / 6)


def test_a_time_budget_is_the_moves_shared_by_the_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    # plies.search.determinize is also the function's name: take the module itself.
    module = sys.modules[determinize.__module__]
    limits: list[Any] = []

    def spy(game: Any, state: Any, limit: Any, **kwargs: Any) -> Any:
        limits.append(limit)
        return analyze(game, state, None, **kwargs)

    monkeypatch.setattr(module, "analyze", spy)
    state = KuhnState((J, Q), (BET,))
    determinize(KUHN, state, 4, Limit(depth=2, time=0.8, nodes=50), seed=1)
    assert limits == [Limit(depth=2, time=0.2, nodes=50)] * 4  # depth and nodes: each world's
    limits.clear()
    determinize(KUHN, state, None, Limit(time=1.0))
    assert limits == [Limit(time=0.5)] * 2  # the two listed worlds


def test_the_choice_depends_only_on_the_information_set() -> None:
    # Determinization is given the true state but may read it only through its
    # information set: every state of one information set gets the same answer (the same
    # worlds: sample_worlds draws from the information set, with the same seed).
    leduc = load("leduc")
    by_set: dict[Any, list[Any]] = {}
    # P0 holds Js in three deals and Qh in two, P1 holds Ks in two: each of those is 3
    # information sets (a player has 3 decision nodes in the first round) of 2-3 states.
    for deal in [(0, 2), (0, 4), (0, 5), (3, 1), (3, 4)]:
        todo = [leduc.result(leduc.initial_state(), deal)]
        while todo:
            state = todo.pop()
            if leduc.is_terminal(state) or leduc.to_move(state) < 0:
                continue  # (round 1 only: the public card is not dealt here)
            mover = leduc.to_move(state)
            by_set.setdefault((mover, leduc.information_set(state, mover)), []).append(state)
            todo += [leduc.result(state, a) for a in leduc.actions(state)]
    shared = [states for states in by_set.values() if len(states) > 1]
    assert len(shared) == 3 * 3
    for states in shared:
        for worlds in (None, 3):
            answers = {
                tuple(determinize(leduc, s, worlds, seed=5).action_values.items())
                for s in states
            }
            assert len(answers) == 1
