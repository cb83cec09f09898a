"""Tic-tac-toe: conformance, the known counts (perft) and value, text in and out."""

from __future__ import annotations

from functools import cache

import pytest

from plies.errors import GameFormatError, IllegalActionError
from plies.game import play
from plies.games.tictactoe import DRAW, UNDECIDED, Board, TicTacToe, _outcome
from tests.conformance import check_game

TTT = TicTacToe()


def reachable() -> set[Board]:
    seen = {TTT.initial_state()}
    stack = [TTT.initial_state()]
    while stack:
        state = stack.pop()
        if TTT.is_terminal(state):
            continue
        for action in TTT.actions(state):
            child = TTT.result(state, action)
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return seen


def test_conformance() -> None:
    report = check_game(TTT, playouts=100)
    assert report.terminals == 100


def test_reachable_states() -> None:
    assert len(reachable()) == 5478


def test_full_tree_has_549946_nodes() -> None:
    def count(state: Board) -> int:
        if TTT.is_terminal(state):
            return 1
        return 1 + sum(count(TTT.result(state, a)) for a in TTT.actions(state))

    assert count(TTT.initial_state()) == 549_946


def test_value_is_a_draw() -> None:
    @cache
    def value(state: Board) -> float:  # for X, by plain minimax
        if TTT.is_terminal(state):
            return TTT.utility(state, 0)
        values = [value(TTT.result(state, a)) for a in TTT.actions(state)]
        return max(values) if TTT.to_move(state) == 0 else min(values)

    assert value(TTT.initial_state()) == 0.0
    # After X takes a corner, O must take the centre: every other answer loses.
    corner = TTT.result(TTT.initial_state(), 0)
    losing = [a + 1 for a in TTT.actions(corner) if value(TTT.result(corner, a)) == 1.0]
    assert losing == [2, 3, 4, 6, 7, 8, 9]


def test_incremental_outcome_matches_a_full_board_scan() -> None:
    for state in reachable():
        assert state.outcome == _outcome(state.cells), state
        assert state.mover == state.cells.count("X") - state.cells.count("O")


def test_evaluate_is_strictly_inside_the_utility_range() -> None:
    values = {TTT.evaluate(s, p) for s in reachable() if not TTT.is_terminal(s) for p in (0, 1)}
    assert all(-1.0 < v < 1.0 for v in values)
    assert len(values) > 10
    x_threatens = TTT.from_string("xx. o.. ..o")  # X has two in the top row
    assert TTT.evaluate(x_threatens, 0) > 0
    assert TTT.evaluate(x_threatens, 0) == -TTT.evaluate(x_threatens, 1)


def test_utilities() -> None:
    x_won = TTT.from_string("xxx oo. ...")
    assert x_won.outcome == 0 and TTT.is_terminal(x_won)
    assert (TTT.utility(x_won, 0), TTT.utility(x_won, 1)) == (1.0, -1.0)
    drawn = TTT.from_string("xox xoo oxx")
    assert drawn.outcome == DRAW and TTT.utility(drawn, 0) == 0.0
    with pytest.raises(ValueError, match="non-terminal"):
        TTT.utility(TTT.initial_state(), 0)


def test_from_string() -> None:
    board = TTT.from_string(" X|.|o \n ...\n ---")
    assert board == Board("X.O......", 0, UNDECIDED)
    assert TTT.from_string("x........").mover == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x.o", "9 cells"),
        ("x.o.....z", "9 cells"),
        ("xx.......", "cannot happen"),
        ("o........", "cannot happen"),
        ("xxxooo...", "both players"),
        ("ooo xx. x.x", "O has a line but it is O's turn"),
        ("xxx oo. oo.", "cannot happen"),
        ("xxx ooo x.o", "both players"),
    ],
)
def test_from_string_rejects_impossible_boards(text: str, message: str) -> None:
    with pytest.raises(GameFormatError, match=message):
        TTT.from_string(text)


def test_actions_are_typed_as_cell_numbers() -> None:
    s = play(TTT, TTT.initial_state(), "5")
    assert s.cells == "....X...."
    assert [TTT.format_action(s, a) for a in TTT.actions(s)] == list("12346789")
    with pytest.raises(IllegalActionError, match="legal moves: 1, 2, 3, 4, 6, 7, 8, 9"):
        play(TTT, s, "5")


def test_render() -> None:
    s = TTT.from_string("x.o .x. ..o")
    assert TTT.render(s) == (
        " X | 2 | O\n---+---+---\n 4 | X | 6\n---+---+---\n 7 | 8 | O\nX to move"
    )
    assert TTT.render(TTT.from_string("xxx oo. ...")).endswith("X wins")
    assert TTT.render(TTT.from_string("xox xoo oxx")).endswith("draw")
    assert (TTT.player_name(0), TTT.player_name(1)) == ("X", "O")
