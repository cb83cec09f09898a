"""The ``plies`` command, run in-process: ``main([...])`` with captured output.

Every bad input must end as exit code 2 with one line on stderr starting
``plies: error:`` -- never a traceback.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from plies import games
from plies.cli import main
from tests.clirun import fail, plain_pipe, run, run_json  # noqa: F401 (autouse fixture)


def play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str, *argv: str
) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    return run(capsys, "play", *argv)


# --- games ------------------------------------------------------------------------------------


def test_games_lists_every_game_with_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "games")
    for name in games.names():
        assert name in out
    assert "piles=3,4,5" in out  # nim's options with their defaults


def test_python_dash_m_plies_games() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "plies", "games"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert "tictactoe" in proc.stdout and "aima-5-2" in proc.stdout


@pytest.mark.parametrize("argv", [["--help"], ["solve", "--help"], ["play", "--help"]])
def test_help_exits_0(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 0
    assert "usage: plies" in capsys.readouterr().out


# --- solve ------------------------------------------------------------------------------------


def test_solve_tictactoe_table(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "solve", "tictactoe")
    assert re.search(r"value for X\s+│ 0 \(exact\)", out)
    assert "alphabeta" in out


def test_solve_tictactoe_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "solve", "tictactoe")
    assert data["value"] == 0.0
    assert data["exact"] is True
    assert data["algorithm"] == "alphabeta"
    assert data["action"] in {str(i) for i in range(1, 10)}
    assert data["pv"][0] == data["action"] and len(data["pv"]) == 9
    assert data["stats"]["nodes"] > 0


def test_solve_tictactoe_minimax_visits_the_whole_tree(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = run_json(capsys, "solve", "tictactoe", "--algorithm", "minimax")
    assert data["stats"]["nodes"] == 549946  # every node of the tic-tac-toe game tree
    assert data["value"] == 0.0


def test_solve_aima_5_2(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "solve", "aima-5-2")
    assert data["value"] == 3
    assert data["action"] == "a1"
    assert data["exact"] is True


def test_solve_aima_5_4_maxn_values(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "solve", "aima-5-4", "--algorithm", "maxn")
    assert data["algorithm"] == "maxn"
    assert data["values"] == {"P0": 1.0, "P1": 2.0, "P2": 6.0}
    assert data["value"] == 1.0


@pytest.mark.parametrize(("game", "value"), [("chance-demo", 2.1), ("pig", None)])
def test_chance_games_pick_expectiminimax(
    capsys: pytest.CaptureFixture[str], game: str, value: float | None
) -> None:
    assert games.load(game).has_chance is True
    data = run_json(capsys, "solve", game)
    assert data["algorithm"] == "expectiminimax"
    assert data["exact"] is True
    if value is not None:
        assert data["value"] == pytest.approx(value)
    else:
        assert -1 < data["value"] < 1  # pig is a game of luck for both players


def test_solve_chance_demo_table(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "solve", "chance-demo")
    assert "expectiminimax" in out
    assert "2.1 (exact)" in out


def test_threshold_answers_no_with_a_bound(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "solve", "tictactoe", "--threshold", "1")
    assert data["algorithm"] == "bounded"
    assert data["value"] < 1  # "can X force a win?" -- no
    assert data["exact"] is False
    assert "bound (threshold 1)" in run(capsys, "solve", "tictactoe", "--threshold", "1")


def test_depth_limit_gives_a_heuristic_value(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "solve", "tictactoe", "--depth", "2")
    assert data["exact"] is False
    assert data["stats"]["depth"] == 2
    assert data["stats"]["evals"] > 0
    assert "(heuristic)" in run(capsys, "solve", "tictactoe", "--depth", "2")


def test_time_budget_still_solves_tictactoe(capsys: pytest.CaptureFixture[str]) -> None:
    # A budget a loaded machine cannot use up: the deepening ends when the tree does.
    # (With 0.5 s it failed at load 12-20, on a value of the unfinished search.)
    data = run_json(capsys, "solve", "tictactoe", "--time", "30")
    assert data["value"] == 0.0
    assert data["action"] is not None


def test_unit_round_without_depth_is_a_full_search(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "solve", "tictactoe", "--unit", "round")
    assert data["value"] == 0.0
    assert data["exact"] is True


@pytest.mark.parametrize(
    ("options", "value"),
    [
        (["piles=1"], 1.0),  # take the last stick and win
        (["piles=1", "misere=true"], -1.0),  # ... and lose
        (["piles=1,2,3"], -1.0),  # nim-sum 0: the mover loses
        (["piles=1,2,3", "misere=true"], -1.0),
    ],
)
def test_nim_options(capsys: pytest.CaptureFixture[str], options: list[str], value: float) -> None:
    argv = ["solve", "nim"]
    for option in options:
        argv += ["-o", option]
    data = run_json(capsys, *argv)
    assert data["value"] == value
    assert data["exact"] is True


def test_position_after_moves(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "solve", "tictactoe", "--moves", "1 2")
    assert data["moves"] == ["1", "2"]
    assert data["value"] == 1.0  # X to move after 1, 2 wins


def test_player_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "solve", "tictactoe", "--moves", "1,2", "--player", "o")
    assert data["player"] == "O"
    assert data["value"] == -1.0


def test_game_over_position(capsys: pytest.CaptureFixture[str]) -> None:
    moves = ["--moves", "1,2,3,4,5,6,7"]  # X has won on 3-5-7
    out = run(capsys, "solve", "tictactoe", *moves)
    assert "nobody (game over)" in out
    assert re.search(r"value for O\s+│ -1 \(exact\)", out)
    data = run_json(capsys, "solve", "tictactoe", *moves)
    assert data["to_move"] is None
    assert data["action"] is None and data["pv"] == []
    assert data["value"] == -1.0
    analyzed = run_json(capsys, "analyze", "tictactoe", *moves)
    assert analyzed["value"] == -1.0


def test_chance_root_needs_player(capsys: pytest.CaptureFixture[str]) -> None:
    message = fail(capsys, "solve", "pig", "--moves", "roll", "--depth", "2")
    assert "--player" in message and "0 (P0)" in message
    data = run_json(capsys, "solve", "pig", "--moves", "roll", "--depth", "2", "--player", "0")
    assert data["to_move"] == "chance"
    assert data["player"] == "P0"


# --- analyze ----------------------------------------------------------------------------------

WINS = {"4", "5", "7"}  # after X 1, O 2: the moves that win for X


def test_analyze_json_values_every_move(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "analyze", "tictactoe", "--moves", "1,2")
    values = data["action_values"]
    assert set(values) == {"3", "4", "5", "6", "7", "8", "9"}
    for move, value in values.items():
        assert value == (1.0 if move in WINS else 0.0), move
    assert data["action"] in WINS


def test_analyze_table_mentions_every_move(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "analyze", "tictactoe", "--moves", "1,2")
    assert "value of every move for X (alphabeta)" in out
    rows = dict(re.findall(r"│ ([3-9])\s+│\s+(-?\d)\s+│", out))
    assert rows == {m: ("1" if m in WINS else "0") for m in "3456789"}


# --- trace ------------------------------------------------------------------------------------


def test_trace_aima_5_2_alphabeta(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "trace", "aima-5-2", "--algorithm", "alphabeta")
    lines = out.splitlines()
    assert "  Prune c2, c3: alpha=3 >= beta=2." in lines
    assert lines[-1] == "Result: value 3 for MAX, best move a1, 11 nodes."


# The Civilization tutorial: with a depth of one round, MAX (Rome) makes its 3 moves,
# then each MIN player its 3, and only then does the cutoff test hold (depth 1).
CIV_START = [
    "Tracing alphabeta on civ; MAX is Rome.",
    "Go to MAX (Rome) at the root (depth 0). Terminal and cutoff tests not met."
    " MAX (Rome) starts its turn (move 1 of 3).",
    "  Go to MAX (Rome) at farm (depth 0, alpha=-inf, beta=+inf)."
    " Terminal and cutoff tests not met. MAX (Rome) isn't done moving (1 < 3).",
    "    Go to MAX (Rome) at farm farm (depth 0, alpha=-inf, beta=+inf)."
    " Terminal and cutoff tests not met. MAX (Rome) isn't done moving (2 < 3).",
    "      Go to MIN (Egypt) at farm farm farm (depth 0, alpha=-inf, beta=+inf)."
    " Terminal and cutoff tests not met. MIN (Egypt) starts its turn (move 1 of 3).",
    "        Go to MIN (Egypt) at farm farm farm farm (depth 0, alpha=-inf, beta=+inf)."
    " Terminal and cutoff tests not met. MIN (Egypt) isn't done moving (1 < 3).",
    "          Go to MIN (Egypt) at farm farm farm farm farm (depth 0, alpha=-inf, beta=+inf)."
    " Terminal and cutoff tests not met. MIN (Egypt) isn't done moving (2 < 3).",
    "            Go to MIN (China) at farm farm farm farm farm farm"
    " (depth 0, alpha=-inf, beta=+inf)."
    " Terminal and cutoff tests not met. MIN (China) starts its turn (move 1 of 3).",
    "              Go to MIN (China) at farm farm farm farm farm farm farm"
    " (depth 0, alpha=-inf, beta=+inf)."
    " Terminal and cutoff tests not met. MIN (China) isn't done moving (1 < 3).",
    "                Go to MIN (China) at farm farm farm farm farm farm farm farm"
    " (depth 0, alpha=-inf, beta=+inf)."
    " Terminal and cutoff tests not met. MIN (China) isn't done moving (2 < 3).",
    "                  Go to MAX (Rome) at farm farm farm farm farm farm farm farm farm"
    " (depth 1, alpha=-inf, beta=+inf)."
    " Terminal test not met; cutoff test met at depth 1: evaluation 0.",
]


def test_trace_civ_tutorial(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "trace", "civ", "--depth", "1", "--unit", "round", "--max-lines", "30")
    lines = out.splitlines()
    assert lines[: len(CIV_START)] == CIV_START
    for phrase in (
        "Go to MAX",
        "Terminal and cutoff tests not met.",
        "isn't done moving (1 < 3)",
        "isn't done moving (2 < 3)",
        "MIN (Egypt) starts its turn",
        "cutoff test met at depth 1",
    ):
        assert phrase in out, phrase
    # the header, 30 narrated steps, then the search stops with the narration: two lines
    assert len(lines) == 1 + 30 + 2
    assert lines[-1].startswith("Stopped: ")
    assert lines[-2] == (
        "... the search was stopped after 30 lines (raise --max-lines to see more)."
    )


def test_long_lines_are_not_wrapped_in_a_pipe(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    out = run(capsys, "trace", "civ", "--depth", "1", "--unit", "round", "--max-lines", "11")
    assert out.splitlines()[: len(CIV_START)] == CIV_START
    message = fail(capsys, "solve", "no-such-game")  # one line, though longer than 40
    assert "tictactoe" in message


def test_trace_an_engine_search(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "trace", "tictactoe", "--moves", "5,1", "--depth", "2", "--engine")
    lines = out.splitlines()
    assert lines[0] == "Tracing alphabeta with tt, ordering, pvs on tictactoe; MAX is X."
    assert lines[-1] == "Result: value 0 for MAX, best move 2, 38 nodes."
    research = "  4 returned 0.08, which may be better: search it again with alpha=-inf, beta=0.16."
    assert research in lines
    assert any(line.startswith("Search the root again, one ply deeper") for line in lines)


# --- play -------------------------------------------------------------------------------------


def test_play_engine_vs_engine_draws(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "play", "tictactoe", "--human", "none", "--seed", "1")
    assert out.rstrip().endswith("game over: draw (X 0, O 0)")
    assert "draw" in out
    assert out.count(" (alphabeta) plays ") == 9


def test_play_illegal_input_reprompts(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # X takes 5, O answers 1; then 5 (taken) and foo are refused, 9 is played; then EOF.
    out = play(capsys, monkeypatch, "5\n5\nfoo\n9\n", "tictactoe")
    assert "illegal move '5'; legal moves: 2, 3, 4, 6, 7, 8, 9" in out
    assert "illegal move 'foo'; legal moves:" in out
    assert out.count("X to move; legal: 2, 3, 4, 6, 7, 8, 9 (q to quit)") == 3
    assert out.count(" (alphabeta) plays ") == 2  # O answered 5 and 9: the game went on
    assert out.rstrip().endswith("bye")  # EOF ends the game cleanly
    assert "game over" not in out


def test_play_to_the_end_from_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # X tries 1..9 in turn, again and again: each taken square is refused, the rest played.
    out = play(capsys, monkeypatch, "5\n" + "1\n2\n3\n4\n6\n7\n8\n9\n" * 5, "tictactoe")
    assert "game over: " in out
    assert "bye" not in out


@pytest.mark.parametrize("stdin", ["", "q\n", "  quit \n"])
def test_play_eof_or_q_quits(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str
) -> None:
    out = play(capsys, monkeypatch, stdin, "tictactoe")
    assert out.rstrip().endswith("bye")
    assert "plays" not in out and "game over" not in out


def test_play_pig_shows_chance_rolls(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "play", "pig", "--human", "none", "--seed", "3", "--depth", "4")
    assert re.search(r"^chance: [1-6]$", out, re.MULTILINE)
    assert "(expectiminimax) plays " in out
    assert re.search(r"^game over: P[01] wins \(P0 -?1, P1 -?1\)$", out, re.MULTILINE)


def test_play_human_is_o(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = play(capsys, monkeypatch, "q\n", "tictactoe", "--human", "O")
    assert out.index("X (alphabeta) plays") < out.index("O to move; legal:")


# --- bad input: exit 2, one line, no traceback --------------------------------------------------


def test_unknown_game_lists_the_games(capsys: pytest.CaptureFixture[str]) -> None:
    message = fail(capsys, "solve", "shogi")
    assert "unknown game 'shogi'" in message
    for name in games.names():
        assert name in message


def test_malformed_tree_file_names_line_and_column(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.tree"
    path.write_text("A: max(\n  a1 -> B: min(3 12 8)\n  a2 -> C: min(2 4 ]\n)\n")
    message = fail(capsys, "solve", str(path))
    assert message.startswith(f"{path}:3:20: ")
    assert "']'" in message


def test_malformed_json_tree_names_the_field(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps({"root": {"type": "max", "children": [1, {"type": "min", "children": ["x"]}]}})
    )
    message = fail(capsys, "solve", str(path))
    assert "root.children[1].children[0]" in message


def test_tree_file_solves(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "fig.tree"
    path.write_text("A: max(a1 -> min(3 12 8) a2 -> min(2 4 6))\n")
    data = run_json(capsys, "solve", str(path))
    assert (data["value"], data["action"]) == (3.0, "a1")


def test_missing_tree_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "missing.tree"
    message = fail(capsys, "solve", str(path))
    assert str(path) in message


def test_illegal_move_in_moves(capsys: pytest.CaptureFixture[str]) -> None:
    message = fail(capsys, "solve", "tictactoe", "--moves", "1,1")
    assert "illegal move '1'" in message
    assert "move 2 of --moves" in message
    assert "legal moves: 2, 3, 4, 5, 6, 7, 8, 9" in message


def test_minimax_on_a_chance_game_says_use_expectiminimax(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert "expectiminimax" in fail(capsys, "solve", "pig", "-a", "minimax")


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["solve", "nim", "-o", "foo=1"], "unknown option 'foo'"),
        (["solve", "nim", "-o", "piles=x"], "piles='x'"),
        (["solve", "nim", "-o", "piles"], "not key=value"),
        (["solve", "aima-5-2", "-o", "x=1"], "takes no options"),
        (["solve", "tictactoe", "--player", "Z"], "unknown player 'Z'; players are 0 (X), 1 (O)"),
        (["solve", "tictactoe", "--player", "2"], "unknown player '2'"),
        (["solve", "tictactoe", "--depth", "-1"], "depth must be >= 0"),
        (["solve", "tictactoe", "--depth", "x"], "--depth"),
        (["solve", "tictactoe", "--time", "0"], "time must be a finite number of seconds > 0"),
        (["solve", "tictactoe", "--time", "inf"], "time must be a finite number of seconds > 0"),
        (["analyze", "connect4", "--time", "1e309"], "finite number of seconds"),
        (["solve", "tictactoe", "--algorithm", "foo"], "invalid choice: 'foo'"),
        (["solve", "tictactoe", "--threshold", "1", "--algorithm", "minimax"],
         "a threshold needs the bounded algorithm"),
        (["frobnicate"], "invalid choice"),
        (["solve"], "game"),
        (["analyze", "tictactoe", "--threshold", "1"], "unrecognized arguments"),
        (["play", "tictactoe", "--human", "7"], "unknown player '7'"),
    ],
)
def test_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str], expected: str) -> None:
    assert expected in fail(capsys, *argv)


def test_plies_alone_prints_its_help_and_version_prints_the_version(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from plies.version import __version__

    out = run(capsys)
    assert out.startswith("usage: plies")
    assert "solve" in out and "'plies COMMAND --help'" in out
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"plies {__version__}\n"


def test_usage_error_points_to_the_right_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert fail(capsys, "--bogus").endswith("(see 'plies --help')")
    assert fail(capsys, "solve", "tictactoe", "-a", "x").endswith("(see 'plies solve --help')")


def test_nan_threshold_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert "not a number" in fail(capsys, "solve", "tictactoe", "--threshold", "nan")


def test_play_with_depth_0_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    message = fail(capsys, "play", "tictactoe", "--human", "none", "--depth", "0")
    assert "--depth 1" in message


def test_brackets_in_game_text_are_not_markup(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Rich would read "[/]" as a closing tag and crash with a MarkupError.
    path = tmp_path / "brackets.tree"
    path.write_text('A: max("[/]" -> min(3 4) "[bold]" -> 2)\n')
    assert re.search(r"best move\s+│ \[/\]", run(capsys, "solve", str(path)))
    assert "[bold]" in run(capsys, "analyze", str(path))
    out = play(capsys, monkeypatch, "[/x]\nq\n", "tictactoe")
    assert "illegal move '[/x]'" in out


def test_engine_shows_every_iteration_live(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "solve", "tictactoe", "--engine", "--depth", "4")
    lines = [line for line in out.splitlines() if line.startswith("depth ")]
    assert [line.split(":")[0] for line in lines] == ["depth 1", "depth 2", "depth 3", "depth 4"]
    plain = run_json(capsys, "solve", "tictactoe", "--depth", "4")
    craft = run_json(capsys, "solve", "tictactoe", "--depth", "4", "--engine")
    assert (craft["value"], craft["action"]) == (plain["value"], plain["action"])
    assert craft["stats"]["tt_hits"] > 0


def test_engine_in_analyze_and_play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = run(capsys, "analyze", "tictactoe", "--engine", "--depth", "2", "--moves", "5")
    assert "depth 2:" in out
    out = run(capsys, "play", "tictactoe", "--human", "none", "--engine", "--depth", "9")
    assert "game over: draw (X 0, O 0)" in out


def test_engine_needs_alphabeta_or_expectiminimax(capsys: pytest.CaptureFixture[str]) -> None:
    message = fail(capsys, "solve", "tictactoe", "--engine", "-a", "minimax")
    assert "the engine is for alphabeta or expectiminimax" in message
    plain = run_json(capsys, "solve", "pig", "-o", "goal=5", "-o", "max_turns=3")
    pruned = run_json(capsys, "solve", "pig", "-o", "goal=5", "-o", "max_turns=3", "--engine")
    assert pruned["value"] == plain["value"]
    assert pruned["stats"]["nodes"] < plain["stats"]["nodes"]


def test_demo_runs_every_section(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "demo")
    for fact in ("549,946", "18,297", "X wins", "AIMA figure 5.2", "expectiminimax",
                 "max^n", "Engine craft", "bisection", "dedicated solver"):
        assert fact in out, fact


L2_FIRST = "52753311433677442422121"  # the first position of Test_L2_R1: score 8


def test_connect4_solve_uses_the_dedicated_solver(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "solve", "connect4", "--moves", L2_FIRST)
    assert re.search(r"test score > -?\d+: (yes|no); score 8; [\d,]+ nodes", out), out
    assert "connect4: solver (" in out and "8 (exact)" in out
    data = run_json(capsys, "solve", "connect4", "--moves", L2_FIRST)
    generic = run_json(capsys, "solve", "connect4", "--moves", L2_FIRST, "-a", "alphabeta")
    assert data["algorithm"].startswith("solver (") and generic["algorithm"] == "alphabeta"
    assert data["value"] == generic["value"] == 8
    assert data["action"] == generic["action"] and data["exact"]
    assert data["pv"][0] == data["action"]
    weak = run_json(capsys, "solve", "connect4", "--moves", L2_FIRST, "--weak")
    assert weak["outcome"] == "win" and weak["value"] > 0
    limited = run_json(capsys, "solve", "connect4", "--moves", L2_FIRST, "--depth", "3")
    assert limited["algorithm"] == "alphabeta"  # a limit: the generic engine


def test_connect4_analyze_with_the_solver(capsys: pytest.CaptureFixture[str]) -> None:
    moves = "6672375354252731116762237724"  # Test_L2_R1: -2, in columns 5 and 6 only
    data = run_json(capsys, "analyze", "connect4", "--moves", moves)
    generic = run_json(capsys, "analyze", "connect4", "--moves", moves, "-a", "alphabeta")
    assert data["action_values"]["5"] == data["action_values"]["6"] == data["value"] == -2
    assert data["action_values"] == generic["action_values"]
    assert (data["value"], data["action"]) == (generic["value"], generic["action"])
    assert data["algorithm"].startswith("solver (")


def test_connect4_4453_is_solved(capsys: pytest.CaptureFixture[str]) -> None:
    # The opening the issue names: -2 (as Test_L1_R3 says).  With Numba about 20 s; as
    # Python about 10 minutes, so only with Numba (always there in CI: the test extra).
    from plies.games.connect4.solver import numba_available

    if not numba_available():
        pytest.fail("Numba is missing: pip install 'plies[fast]' (the test extra has it)")
    data = run_json(capsys, "solve", "connect4", "--moves", "4453")
    assert (data["value"], data["exact"], data["algorithm"]) == (-2, True, "solver (numba)")
    game = games.load("connect4")
    state = game.moves_from_string("4453" + "".join(data["pv"]))  # the PV plays to the end
    assert game.is_terminal(state) and game.utility(state, 0) == -2


def test_solve_of_a_game_that_never_ends_is_one_line_not_a_recursion_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Regression: ``plies solve pig -o max_turns=none`` (an endless game tree) printed a
    RecursionError traceback."""
    message = fail(capsys, "solve", "pig", "-o", "max_turns=none")
    assert "deeper than Python's recursion allows" in message and "depth" in message


def test_games_lists_a_game_whose_extra_is_missing_with_the_line_that_installs_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bare install (no python-chess) lists every game; chess says what it needs."""
    import plies.games.chess.rules as rules

    monkeypatch.setitem(sys.modules, "chess", None)  # `import chess` raises ImportError
    monkeypatch.setattr(rules, "_chess", None)
    listed = {row["name"]: row for row in json.loads(run(capsys, "games", "--json"))}
    assert listed["chess"]["needs"] == "needs python-chess: pip install 'plies[chess]'"
    assert listed["chess"]["players"] is None
    assert listed["tictactoe"] == {
        "name": "tictactoe", "players": 2, "description": listed["tictactoe"]["description"],
        "options": [], "needs": None, "plugin": None, "problem": None,
    }
    table = run(capsys, "games")
    assert "needs python-chess: pip install" in table and "tictactoe" in table
    assert fail(capsys, "solve", "chess") == "chess needs python-chess: pip install 'plies[chess]'"
