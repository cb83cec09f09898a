"""Kuhn poker: rules, payoffs, the full-information value, and its information sets."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from plies.game import CHANCE, parse_action
from plies.games import load
from plies.games.kuhn import BET, DEALS, PASS, KuhnPoker, KuhnState
from plies.imperfect import ImperfectInformation, check_worlds, is_imperfect
from plies.search import expectiminimax
from tests.conformance import check_game

KUHN = KuhnPoker()
J, Q, K = 0, 1, 2


def every_state(game: Any, state: Any) -> list[Any]:
    """``state`` and every state below it (the Kuhn tree is 55 nodes)."""
    found = [state]
    if not game.is_terminal(state):
        for action in game.actions(state):
            found += every_state(game, game.result(state, action))
    return found


STATES = every_state(KUHN, KUHN.initial_state())


def test_conformance() -> None:
    report = check_game(KUHN, playouts=100)
    assert report.terminals == 100 and report.chance_nodes == 100


def test_the_tree_has_six_deals_and_thirty_terminals() -> None:
    assert len(STATES) == 1 + 6 * 9
    assert sum(KUHN.is_terminal(s) for s in STATES) == 6 * 5


def test_the_deal_is_a_chance_node_with_six_equally_likely_pairs() -> None:
    root = KUHN.initial_state()
    assert KUHN.to_move(root) == CHANCE
    assert [p for _, p in KUHN.chance_outcomes(root)] == [pytest.approx(1 / 6)] * 6
    assert all(a != b for a, b in DEALS) and len(set(DEALS)) == 6
    assert parse_action(KUHN, root, "qk") == (Q, K)


@pytest.mark.parametrize(
    ("cards", "history", "p0_wins"),
    [
        ((K, J), (PASS, PASS), 1.0),
        ((J, K), (PASS, PASS), -1.0),
        ((J, Q), (BET, PASS), 1.0),  # P1 folds to a bluff
        ((K, Q), (PASS, BET, PASS), -1.0),  # P0 folds the best hand
        ((Q, K), (BET, BET), -2.0),
        ((K, Q), (PASS, BET, BET), 2.0),
    ],
)
def test_payoffs(cards: tuple[int, int], history: tuple[str, ...], p0_wins: float) -> None:
    state = KuhnState(cards, history)
    assert KUHN.is_terminal(state)
    assert (KUHN.utility(state, 0), KUHN.utility(state, 1)) == (p0_wins, -p0_wins)


def test_with_the_cards_face_up_the_higher_card_wins_the_antes_and_the_root_is_worth_0() -> None:
    # Face up, nobody pays into a pot it will lose: the loser passes or folds.
    for deal in DEALS:
        dealt = KuhnState(deal, ())
        assert expectiminimax(KUHN, dealt, player=0).value == (1.0 if deal[0] > deal[1] else -1.0)
    assert expectiminimax(KUHN, KUHN.initial_state(), player=0).value == 0.0


def test_registered_as_kuhn() -> None:
    game = load("kuhn")
    assert isinstance(game, KuhnPoker) and is_imperfect(game)
    assert isinstance(game, ImperfectInformation)


# --- information sets ------------------------------------------------------------------


def test_a_player_sees_its_own_card_and_the_betting_not_the_other_card() -> None:
    a, b = KuhnState((Q, J), (PASS,)), KuhnState((Q, K), (PASS,))
    assert KUHN.information_set(a, 0) == KUHN.information_set(b, 0) == (Q, (PASS,))
    assert KUHN.information_set(a, 1) != KUHN.information_set(b, 1)
    assert KUHN.observation(a, 1) == "your card J; betting: pass"


@pytest.mark.parametrize("player", [0, 1])
def test_worlds_are_exactly_the_states_of_the_information_set(player: int) -> None:
    """Every world shares the state's information set, and every state that does is a
    world, all equally likely (two unseen cards, dealt at random)."""
    for state in STATES:
        worlds = KUHN.worlds(state, player)
        seen = KUHN.information_set(state, player)
        alike = {s for s in STATES if KUHN.information_set(s, player) == seen}
        assert {w for w, _ in worlds} == alike
        assert sum(p for _, p in worlds) == pytest.approx(1.0)
        assert len({p for _, p in worlds}) == 1


def test_sampled_worlds_follow_the_deal_and_the_seed() -> None:
    state = KuhnState((K, J), (BET,))
    sample = KUHN.sample_worlds(state, 1, 2000, random.Random(3))
    assert sample == KUHN.sample_worlds(state, 1, 2000, random.Random(3))
    counts = Counter(w.cards for w in sample)
    assert set(counts) == {(Q, J), (K, J)}
    assert 900 < counts[(Q, J)] < 1100  # 1000 expected; 3.2 standard deviations either side


def test_the_information_sets_pass_the_interface_check() -> None:
    assert check_worlds(KUHN, playouts=30) == []


class PeekingKuhn(KuhnPoker):
    """A broken game: P0's information set leaks P1's card, so its worlds do not match."""

    def information_set(self, state: KuhnState, player: int) -> Any:
        return state


def test_the_interface_check_finds_a_leaky_information_set() -> None:
    problems = check_worlds(PeekingKuhn(), playouts=3)
    assert problems and all("can tell world" in p for p in problems)
