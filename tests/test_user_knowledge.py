"""A user's game that declares the front ends' hooks gets exactly what a built-in one gets.

``tests.kayles:Kayles`` declares a board, positions in and out, play defaults and an
exact solver (see tests/kayles.py); the web view, the terminal, the policy layer and a
notebook read them, as they read chess's or Othello's.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import pytest

import plies
from plies.game import hook
from plies.policy import SearchRequest, SearchSession, plan, read_position
from plies.search import Limit
from plies.web import api
from plies.web.view import view
from tests.clirun import run, run_json
from tests.kayles import Kayles, grundy

SPEC = "tests.kayles:Kayles"


def test_kayles_is_a_correct_game() -> None:
    assert plies.check_game(Kayles(7), playouts=30).ok


def test_the_grundy_values_are_the_published_ones() -> None:
    # Kayles' nim-sequence (OEIS A002186), from 0 pins.
    known = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7]
    assert [grundy(n) for n in range(len(known))] == known


def _positions(pins: int) -> list[tuple[str, int]]:
    rows = ("".join(cells) for cells in itertools.product("I.", repeat=pins))
    return [(row, mover) for row in rows if "I" in row for mover in (0, 1)]


@pytest.mark.parametrize("pins", [1, 2, 3, 5, 7])
def test_the_users_solver_answers_what_exact_alphabeta_answers(pins: int) -> None:
    game = Kayles(pins)
    solver = game.solver()
    for state in _positions(pins):
        expected = plies.alphabeta(game, state)
        for player in (0, 1):
            solved = solver.solve(state, player=player)
            searched = plies.alphabeta(game, state, player=player)
            assert (solved.value, solved.action) == (searched.value, searched.action), state
        assert solver.solve(state).pv == expected.pv
        assert solver.analyze(state) == plies.analyze(game, state).action_values


def test_the_policy_reads_the_solver_the_defaults_and_the_positions() -> None:
    game = Kayles(20)
    state = game.initial_state()
    chosen = plan(game, state, SearchRequest())
    assert chosen.kind == "solver" and chosen.name == "solver (grundy)"
    assert chosen.run(game, state).value == 1.0  # 20 pins: the first player wins
    session = SearchSession(game)
    assert session.tuned and session.limit(state=state) == Limit(depth=64, time=0.5)
    late = read_position(game, "I.I.I.I.I.I.I.I.I.I. B")
    assert session.limit(state=late.state) is None  # few pins: solved exactly
    assert late.setup == "I.I.I.I.I.I.I.I.I.I. B" and late.state == ("I.I.I.I.I.I.I.I.I.I.", 1)
    after = read_position(game, "I.I.I.I.I.I.I.I.I.I. B moves 3 1")
    assert after.moves == ("3", "1") and after.state[0].startswith("..")
    assert read_position(game, "1-2 4").state == game.result(
        game.result(state, (0, 1)), (3, 3)
    )
    with pytest.raises(plies.GameFormatError, match="places; this game has 20 pins"):
        read_position(game, "III A")


def test_the_web_view_draws_its_board_and_writes_its_position(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = Kayles(5)
    state = game.result(game.initial_state(), (1, 2))
    shown = view(game, state, ["2-3"], game.initial_state())
    board = shown["board"]
    assert board["cells"] == ["I", "", "", "I", "I"] and board["last"] == [1, 2]
    assert board["cell_moves"] == ["1", None, None, "4", "5"]
    assert board["from_to"] == [{"from": 3, "to": 4, "move": "4-5", "promotion": None}]
    assert board["marks"]["I"]["shape"] == "disc" and board["kind"] == ""
    assert shown["position"] == "I..II B"
    monkeypatch.setattr(api, "SERVED", {})
    assert api.serve_games([SPEC]) == ["kayles"]
    answer: dict[str, Any] = api.state({"game": "kayles", "moves": ["2-3", "4-5"]})
    assert answer["board"]["cells"] == ["I", "", "", "", "", "I", "I", "I", "I", "I"]
    assert answer["position"] == "I....IIIII A"
    assert answer["board"]["last"] == [3, 4]


def test_the_terminal_draws_its_board_and_runs_its_solver(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    out = run(capsys, "solve", SPEC, "--moves", "5")
    board = "I  I  I  I  .  I  I  I  I  I\n1  2  3  4  5  6  7  8  9  10\n9 pins standing\n"
    assert out.startswith(board)
    assert "kayles: solver (grundy)" in out and "B" in out
    data = run_json(capsys, "solve", SPEC, "--moves", "5")
    assert data["algorithm"] == "solver (grundy)" and data["value"] == 1.0
    positions = tmp_path / "kayles.txt"
    positions.write_text("IIIIIIIIII A\nI.I.I.I.I. B moves 1\n5\n")
    data = run_json(capsys, "analyze", SPEC, "--file", str(positions), "--workers", "1")
    assert [p.get("setup") for p in data["positions"]] == ["IIIIIIIIII A", "I.I.I.I.I. B", None]


def test_plies_play_shows_the_board_and_plays_with_its_defaults(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run(capsys, "play", SPEC, "--human", "none", "--seed", "1")
    assert out.startswith("I  I  I  I  I  I  I  I  I  I\n1  2  3  4  5  6  7  8  9  10\n10 pins")
    assert "(solver (grundy)) plays " in out  # 10 pins: at most 14 stand, solved exactly
    assert out.rstrip().endswith("game over: A wins (A 1, B -1)")


def test_a_notebook_shows_its_names_and_its_board() -> None:
    game = Kayles(6)
    state = game.result(game.initial_state(), (0, 0))
    html = plies.analyze(game, state)._repr_html_()
    assert "for B (exact)" in html and "<tr><td>2-3</td><td>" in html
    assert "<svg" in html and html.count("<circle") == 5
    board = game.board(state)
    assert board._repr_svg_().count("<circle") == 5 and board.text().startswith(". I I I I I")


def test_every_hook_is_read_through_plies_game_hook() -> None:
    game = Kayles()
    for name in ("board", "read_position", "write_position", "play_defaults", "solver"):
        assert hook(game, name) is not None, name
    rng = random.Random(5)
    state = game.initial_state()
    while not game.is_terminal(state):
        written = game.write_position(state)
        assert read_position(game, written).state == state
        state = game.result(state, rng.choice(game.actions(state)))


def test_a_plug_in_game_is_drawn_on_the_board_it_declares() -> None:
    """Kalah comes from another distribution by entry point (tests/plugin) and declares a
    board: the web view draws it like a built-in game's."""
    kalah = plies.games.load("kalah", pits=3, seeds=2)
    shown = view(kalah, kalah.initial_state(), [])
    board = shown["board"]
    assert (board["rows"], board["columns"]) == (2, 5)
    assert board["labels"] == ["0", "2", "2", "2", "", "", "2", "2", "2", "0"]
    assert board["cell_moves"] == [None] * 6 + ["1", "2", "3", None]
    assert plies.check_game(kalah, playouts=10).ok
