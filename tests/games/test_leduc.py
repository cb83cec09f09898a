"""Leduc poker: rules and payoffs checked history by history against OpenSpiel's
``leduc_poker``, the face-up value against OpenSpiel's expectiminimax, and the
information sets."""

from __future__ import annotations

import importlib.util
import random
from collections import Counter
from typing import Any

import pytest

import plies
from plies.game import CHANCE, parse_action
from plies.games import load
from plies.games.leduc import CALL, DEALS, FOLD, RAISE, LeducPoker, LeducState, stakes
from plies.imperfect import ImperfectInformation, check_worlds, is_imperfect
from tests.conformance import check_game

LEDUC = LeducPoker()
JS, JH, QS, QH, KS, KH = range(6)
SPIEL_ACTION = {FOLD: 0, CALL: 1, RAISE: 2}


@pytest.fixture(scope="module")
def spiel() -> Any:
    """pyspiel, which ``make`` installs (the ``openspiel`` extra is in ``test``)."""
    if importlib.util.find_spec("pyspiel") is None:
        pytest.fail("pyspiel is missing: pip install 'plies[openspiel]' (make installs it)")
    import pyspiel

    return pyspiel


def test_conformance() -> None:
    report = check_game(LEDUC, playouts=100)
    assert report.terminals == 100 and report.chance_nodes >= 100


def test_registered_as_leduc() -> None:
    game = load("leduc")
    assert isinstance(game, LeducPoker) and is_imperfect(game)
    assert isinstance(game, ImperfectInformation)


def test_the_deal_is_thirty_equally_likely_pairs_and_the_public_card_one_of_four() -> None:
    root = LEDUC.initial_state()
    assert LEDUC.to_move(root) == CHANCE and len(DEALS) == 30
    assert [p for _, p in LEDUC.chance_outcomes(root)] == [pytest.approx(1 / 30)] * 30
    assert parse_action(LEDUC, root, "JsKh") == (JS, KH)
    flop = LeducState((JS, KH), None, (CALL, CALL), ())
    assert LEDUC.to_move(flop) == CHANCE
    assert [c for c, _ in LEDUC.chance_outcomes(flop)] == [JH, QS, QH, KS]
    assert parse_action(LEDUC, flop, "Qh") == QH


@pytest.mark.parametrize(
    ("cards", "public", "first", "second", "p0_wins"),
    [
        ((KS, JS), QS, (CALL, CALL), (CALL, CALL), 1.0),  # K high
        ((JS, KS), JH, (CALL, CALL), (CALL, CALL), 1.0),  # a pair of jacks beats K
        ((QS, QH), KS, (RAISE, CALL), (CALL, CALL), 0.0),  # equal ranks split
        ((JS, QS), None, (RAISE, FOLD), (), 1.0),  # P1 folds to a raise: loses its ante
        ((KS, QS), None, (RAISE, RAISE, FOLD), (), -3.0),  # P0 folds after putting in 3
        ((QS, KS), JS, (RAISE, RAISE, CALL), (RAISE, RAISE, CALL), -13.0),  # the biggest pot
    ],
)
def test_payoffs(
    cards: tuple[int, int], public: int | None, first: tuple[str, ...],
    second: tuple[str, ...], p0_wins: float,
) -> None:
    state = LeducState(cards, public, first, second)
    assert LEDUC.is_terminal(state)
    assert (LEDUC.utility(state, 0), LEDUC.utility(state, 1)) == (p0_wins, -p0_wins)


def test_a_player_may_fold_only_facing_a_raise_and_raise_twice_a_round() -> None:
    dealt = LeducState((JS, QS), None, (), ())
    assert LEDUC.actions(dealt) == (CALL, RAISE)
    assert LEDUC.actions(dealt._replace(first=(RAISE,))) == (FOLD, CALL, RAISE)
    assert LEDUC.actions(dealt._replace(first=(RAISE, RAISE))) == (FOLD, CALL)
    assert stakes(dealt._replace(first=(RAISE, RAISE))) == (3, 5)


def _walk(spiel: Any) -> tuple[int, int]:
    """Walk both trees in step: every history has the same mover, legal actions, chance
    odds, terminal test and payoffs.  Returns (states, terminals)."""
    game = spiel.load_game("leduc_poker")
    counted = [0, 0]

    def same(ours: LeducState, theirs: Any) -> None:
        counted[0] += 1
        assert LEDUC.is_terminal(ours) == theirs.is_terminal()
        if theirs.is_terminal():
            counted[1] += 1
            assert [LEDUC.utility(ours, p) for p in (0, 1)] == theirs.returns()
            return
        assert LEDUC.to_move(ours) == theirs.current_player()
        if theirs.is_chance_node():
            odds = dict(theirs.chance_outcomes())
            for card, p in LEDUC.chance_outcomes(ours):
                assert isinstance(card, int) and odds.pop(card) == pytest.approx(p)
                same(LEDUC.result(ours, card), theirs.child(card))
            assert not odds
            return
        assert [SPIEL_ACTION[a] for a in LEDUC.actions(ours)] == theirs.legal_actions()  # type: ignore[index]
        for action in LEDUC.actions(ours):
            same(LEDUC.result(ours, action), theirs.child(SPIEL_ACTION[action]))  # type: ignore[index]

    for first, second in DEALS:
        theirs = game.new_initial_state().child(first).child(second)
        same(LEDUC.result(LEDUC.initial_state(), (first, second)), theirs)
    return counted[0], counted[1]


def test_every_history_plays_as_in_openspiel_leduc_poker(spiel: Any) -> None:
    states, terminals = _walk(spiel)
    # A betting round has 6 decision nodes, 4 folds and 5 ways to call it closed; each
    # deal: 6 + 4 + 5 x (a chance node + 4 public cards x 15 nodes of round 2) = 315
    # states, 4 + 5 x 4 x 9 = 184 terminals (with OpenSpiel's root and 6 half-deals, the
    # 9,457 histories Leduc poker is known for).
    assert (states, terminals) == (30 * 315, 30 * 184)


def test_face_up_values_equal_openspiels_expectiminimax(spiel: Any) -> None:
    # Both search the full state (both private cards seen): the perfect-information
    # relaxation, from each deal, for each player.
    from open_spiel.python.algorithms.minimax import expectiminimax

    game = spiel.load_game("leduc_poker")
    root_ours = plies.expectiminimax(LEDUC, LEDUC.initial_state(), player=0).value
    root_theirs, _ = expectiminimax(game.new_initial_state(), 100, None, 0)
    assert root_ours == pytest.approx(root_theirs, abs=1e-12)
    for first, second in DEALS[::3]:
        theirs_state = game.new_initial_state().child(first).child(second)
        ours_state = LEDUC.result(LEDUC.initial_state(), (first, second))
        for player in (0, 1):
            theirs, _ = expectiminimax(theirs_state, 100, None, player)
            ours = plies.expectiminimax(LEDUC, ours_state, player=player).value
            assert ours == pytest.approx(theirs, abs=1e-12)


# --- information sets ------------------------------------------------------------------


def test_a_player_sees_its_card_the_public_card_and_the_betting() -> None:
    a = LeducState((QS, JS), KH, (CALL, CALL), (RAISE,))
    b = a._replace(cards=(QS, KS))
    assert LEDUC.information_set(a, 0) == LEDUC.information_set(b, 0)
    assert LEDUC.information_set(a, 1) != LEDUC.information_set(b, 1)
    assert LEDUC.observation(a, 1) == (
        "your card Js; public card Kh; pot 6 (P0 5, P1 1); round 1: call call; round 2: raise"
    )
    assert "Qs" not in LEDUC.observation(a, 1) and "Qs" in LEDUC.render(a)


@pytest.mark.parametrize(("public", "count"), [(None, 5), (KH, 4)])
def test_worlds_deal_the_other_player_every_unseen_card(public: int | None, count: int) -> None:
    first = (CALL, CALL) if public is not None else (RAISE,)
    state = LeducState((QS, JS), public, first, ())
    worlds = LEDUC.worlds(state, 1)
    assert len(worlds) == count and sum(p for _, p in worlds) == pytest.approx(1.0)
    assert {w.cards[0] for w, _ in worlds if w.cards} == set(range(6)) - {JS, public}


def test_sampled_worlds_follow_the_deal_and_the_seed() -> None:
    state = LeducState((KS, JS), None, (RAISE,), ())
    sample = LEDUC.sample_worlds(state, 1, 2500, random.Random(5))
    assert sample == LEDUC.sample_worlds(state, 1, 2500, random.Random(5))
    counts = Counter(w.cards[0] for w in sample if w.cards)
    assert set(counts) == {JH, QS, QH, KS, KH}
    assert all(400 < n < 600 for n in counts.values())  # 500 expected; > 3 sd either side


def test_the_information_sets_pass_the_interface_check() -> None:
    assert check_worlds(LEDUC, playouts=30) == []
