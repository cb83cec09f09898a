"""GdlGame: GDL descriptions as plies games, checked against the built-in tic-tac-toe,
known values of the shared games, plies search, and the shared conformance check."""

from __future__ import annotations

import itertools
import pickle
from collections import deque
from pathlib import Path
from typing import Any

import pytest

import plies
from plies.errors import GameFormatError, GdlValidationError, IllegalActionError
from plies.game import SIMULTANEOUS
from plies.games import load as load_builtin
from plies.gdl import GdlGame, GoalDefinitionError, MoveDefinitionError, load_game, parse
from tests.conformance import check_game
from tests.gdl.test_reasoner import GDL_DATA, shared_reasoner


def shared_game(name: str) -> GdlGame:
    return GdlGame(shared_reasoner(name), name=name)


def reachable(game: GdlGame) -> dict[int, None]:
    """Every state reachable through the game's own actions and results."""
    start = game.initial_state()
    seen = {start: None}
    todo = [start]
    while todo:
        s = todo.pop()
        if game.is_terminal(s):
            continue
        for a in game.actions(s):
            t = game.result(s, a)
            if t not in seen:
                seen[t] = None
                todo.append(t)
    return seen


# --- the conformance check ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "playouts"),
    [
        ("ticTacToe", 20),
        ("nim1", 20),
        ("buttons", 20),
        ("maze", 20),
        ("connectFour", 4),
        ("tictactoe_3player", 2),
        ("roshambo2", 10),
        ("gt_prisoner", 2),
        ("hunter", 3),
        ("pentago", 1),
        ("breakthrough", 1),
    ],
)
def test_conformance(name: str, playouts: int) -> None:
    report = check_game(shared_game(name), playouts=playouts, seed=1)
    assert report.playouts == playouts and report.terminals == playouts


# --- tic-tac-toe against the built-in game ------------------------------------------------

TTT = load_builtin("tictactoe")


def builtin_board(game: GdlGame, state: int) -> Any:
    cells = ["."] * 9
    for f in game.reasoner.fluents(state):
        if f[0] == "cell" and f[3] != "b":
            cells[(int(f[1]) - 1) * 3 + int(f[2]) - 1] = f[3].upper()
    return TTT.from_string("".join(cells))


def cell_index(move: Any) -> int:
    _, row, column = move
    return (int(row) - 1) * 3 + int(column) - 1


def test_tic_tac_toe_has_5478_states_and_value_50() -> None:
    game = shared_game("ticTacToe")
    assert len(reachable(game)) == 5478
    root = game.initial_state()
    assert plies.alphabeta(game, root).value == 50.0
    assert plies.alphabeta(game, root, player=1).value == 50.0


def test_tic_tac_toe_agrees_with_the_builtin_game_on_every_reachable_state() -> None:
    game = shared_game("ticTacToe")
    gdl_value: dict[int, float] = {}
    builtin_value: dict[Any, float] = {}

    def value_gdl(s: int) -> float:  # minimax value for xplayer (player 0)
        if s not in gdl_value:
            if game.is_terminal(s):
                gdl_value[s] = game.utility(s, 0)
            else:
                values = [value_gdl(game.result(s, a)) for a in game.actions(s)]
                gdl_value[s] = max(values) if game.to_move(s) == 0 else min(values)
        return gdl_value[s]

    def value_builtin(b: Any) -> float:
        if b not in builtin_value:
            if TTT.is_terminal(b):
                builtin_value[b] = TTT.utility(b, 0)
            else:
                values = [value_builtin(TTT.result(b, a)) for a in TTT.actions(b)]
                builtin_value[b] = max(values) if TTT.to_move(b) == 0 else min(values)
        return builtin_value[b]

    states = reachable(game)
    for s in states:
        b = builtin_board(game, s)
        assert game.is_terminal(s) == TTT.is_terminal(b), b
        if game.is_terminal(s):
            for p in (0, 1):
                assert game.utility(s, p) == 50 + 50 * TTT.utility(b, p), b
        else:
            assert game.to_move(s) == TTT.to_move(b), b
            assert sorted(map(cell_index, game.actions(s))) == sorted(TTT.actions(b)), b
        assert value_gdl(s) == 50 + 50 * value_builtin(b), b
    assert len({builtin_board(game, s) for s in states}) == 5478


# --- other known values, with plies search ------------------------------------------------


def test_nim1_first_player_wins() -> None:
    game = shared_game("nim1")
    assert len(reachable(game)) == 344
    result = plies.alphabeta(game, game.initial_state(), tt=True)
    assert game.to_move(game.initial_state()) == 0 and result.value == 100.0


@pytest.mark.parametrize(("name", "states"), [("buttons", 32), ("maze", 42)])
def test_one_player_puzzles_reach_100_in_six_moves(name: str, states: int) -> None:
    game = shared_game(name)
    assert len(reachable(game)) == states
    root = game.initial_state()
    assert plies.alphabeta(game, root, plies.Limit(depth=6)).value == 100.0
    assert plies.alphabeta(game, root, plies.Limit(depth=5)).value < 100.0
    # the shortest way to 100, by breadth-first search
    depth = {root: 0}
    queue = deque([root])
    shortest = None
    while queue and shortest is None:
        s = queue.popleft()
        if game.is_terminal(s):
            if game.utility(s, 0) == 100:
                shortest = depth[s]
            continue
        for a in game.actions(s):
            t = game.result(s, a)
            if t not in depth:
                depth[t] = depth[s] + 1
                queue.append(t)
    assert shortest == 6


# --- turns, simultaneous moves and forced steps -------------------------------------------


def test_turn_taking_fills_in_the_noop() -> None:
    game = shared_game("ticTacToe")
    s = game.initial_state()
    assert game.to_move(s) == 0 and ("mark", "2", "2") in game.actions(s)
    s = game.result(s, ("mark", "2", "2"))
    assert game.to_move(s) == 1 and "noop" not in game.actions(s)
    assert game.next_state(game.initial_state(), [("mark", "2", "2"), "noop"]) == s


def test_simultaneous_nodes_take_joint_moves() -> None:
    game = shared_game("roshambo2")
    s = game.initial_state()
    assert game.to_move(s) == SIMULTANEOUS
    mine = game.player_actions(s, 0)
    theirs = game.player_actions(s, 1)
    assert len(mine) > 1 and len(theirs) > 1
    assert list(game.actions(s)) == list(itertools.product(mine, theirs))
    joint = (mine[0], theirs[-1])
    assert game.result(s, joint) == game.next_state(s, joint)
    text = game.format_action(s, joint)
    assert game.parse_action(s, text) == joint


FORCED = """
(role a) (role b) (init (t 0)) (succ 0 1) (succ 1 2)
(legal a wait) (legal b wait)
(<= (next (t ?y)) (true (t ?x)) (succ ?x ?y))
(<= terminal (true (t 2))) (goal a 10) (goal b 90)
"""


def test_forced_steps_belong_to_role_0() -> None:
    game = load_game(FORCED)
    s = game.initial_state()
    assert game.to_move(s) == 0 and list(game.actions(s)) == ["wait"]
    s = game.result(game.result(s, "wait"), "wait")
    assert game.is_terminal(s) and (game.utility(s, 0), game.utility(s, 1)) == (10.0, 90.0)
    assert game.name == "gdl" and game.player_name(1) == "b" and game.utility_range == (0, 100)


# --- moves as people type them ------------------------------------------------------------


@pytest.mark.parametrize("text", ["(mark 1 3)", "mark 1 3", "  (MARK 1 3) ", "MARK 1 3"])
def test_parse_action_accepts_kif_with_or_without_parentheses(text: str) -> None:
    game = shared_game("ticTacToe")
    assert game.parse_action(game.initial_state(), text) == ("mark", "1", "3")


def test_format_action_is_kif() -> None:
    game = shared_game("ticTacToe")
    s = game.initial_state()
    assert game.format_action(s, ("mark", "1", "3")) == "(mark 1 3)"
    assert game.format_action(game.result(s, ("mark", "1", "3")), "noop") == "noop"


@pytest.mark.parametrize("text", ["(mark 4 4)", "noop", "(mark 1", ""])
def test_parse_action_rejects_what_is_not_legal(text: str) -> None:
    game = shared_game("ticTacToe")
    with pytest.raises(IllegalActionError, match=r"legal moves: \(mark 1 1\), \(mark 1 2\)"):
        game.parse_action(game.initial_state(), text)


def test_play_checks_legality_through_the_kif_parser() -> None:
    game = shared_game("ticTacToe")
    s = plies.play(game, game.initial_state(), "mark 2 2")
    with pytest.raises(IllegalActionError):
        plies.play(game, s, "(mark 2 2)")


def test_render_lists_the_fluents() -> None:
    game = shared_game("ticTacToe")
    picture = game.render(game.initial_state())
    assert picture.splitlines()[:2] == ["(cell 1 1 b)", "(cell 1 2 b)"]
    assert picture.splitlines()[-1] == "(control xplayer)"


# --- errors -------------------------------------------------------------------------------

STUCK = """
(role a) (role b) (init (t 0))
(<= (legal a go) (true (t 0))) (legal b go)
(<= (next (t 1)) (true (t 0)))
(<= terminal (true (t 2))) (goal a 0) (goal b 0)
"""


def test_no_legal_move_in_a_non_terminal_state_raises() -> None:
    game = load_game(STUCK)
    s = game.result(game.initial_state(), "go")
    with pytest.raises(MoveDefinitionError, match=r"role a has no legal move .* \{\(t 1\)\}"):
        game.to_move(s)


def test_two_goal_values_raise_from_utility() -> None:
    game = GdlGame(parse("(role a) (legal a go) terminal (goal a 0) (goal a 100)"))
    with pytest.raises(GoalDefinitionError, match=r"role a has 2 goal values \(0, 100\)"):
        game.utility(game.initial_state(), 0)


# --- loading ------------------------------------------------------------------------------


def test_load_game_from_a_file_or_text() -> None:
    path = GDL_DATA / "ticTacToe.kif"
    game = load_game(path)
    assert game.name == "ticTacToe" and game.roles == ("xplayer", "oplayer")
    assert load_game(str(path)).name == "ticTacToe"
    assert load_game(path.read_text(), name="ttt").name == "ttt"


@pytest.mark.parametrize("path", sorted((GDL_DATA / "invalid").glob("*.kif")), ids=lambda p: p.stem)
def test_load_game_rejects_invalid_gdl(path: Path) -> None:
    with pytest.raises(GdlValidationError):
        load_game(path)


def test_load_game_reports_unreadable_files_and_bad_text() -> None:
    with pytest.raises(GameFormatError, match="cannot read GDL file"):
        load_game("no/such/file.kif")
    with pytest.raises(GameFormatError, match="never closed"):
        load_game("(role a")


def test_games_survive_pickling_for_process_pools() -> None:
    game = shared_game("ticTacToe")
    s = game.result(game.initial_state(), ("mark", "1", "1"))
    copy = pickle.loads(pickle.dumps(game))
    assert copy.name == "ticTacToe" and copy.actions(s) == game.actions(s)
    assert copy.result(s, ("mark", "2", "2")) == game.result(s, ("mark", "2", "2"))
