"""Chess and Othello in the batch side: ``plies analyze --file`` with FEN, EPD and Othello
boards, and tournaments (with worker processes: states and games pickle)."""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path

import pytest

from plies import games
from plies.game import play
from plies.games.othello import Othello
from plies.parallel import LocalBackend, Position, analyze_positions
from plies.search import Limit
from plies.tournament import tournament
from tests.clirun import fail, plain_pipe, run, run_json  # noqa: F401 (autouse fixture)

FENS = (
    "# chess positions: a FEN, an EPD line with operations, moves after a FEN, moves\n"
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\n"
    "\n"
    'rnbk1b1r/pp3ppp/2p5/4q3/4n3/8/PPPB1PPP/2KR1BNR w - - bm Bg5+; id "Reti 1910";\n'
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e4 e5\n"
    "d4 d5\n"
)
BOARD = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27 + " X"


@pytest.fixture
def fens(tmp_path: Path) -> Path:
    path = tmp_path / "fens.txt"
    path.write_text(FENS)
    return path


def test_analyze_file_of_fens_gives_best_move_value_depth_pv_and_nodes(
    capsys: pytest.CaptureFixture[str], fens: Path
) -> None:
    data = run_json(capsys, "analyze", "chess", "--file", str(fens), "--depth", "3",
                    "--workers", "1")
    rows = data["positions"]
    assert [r["line"] for r in rows] == [2, 4, 5, 6]
    mate1, reti, after, moves = rows
    assert (mate1["action"], mate1["score"], mate1["mate"]) == ("Ra8#", "mate in 1", 1)
    assert mate1["value"] == 100_000 and mate1["pv"] == ["Ra8#"]
    assert mate1["setup"] == "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
    assert (reti["action"], reti["score"], reti["best_move_found"]) == ("Bg5+", "mate in 2", True)
    assert reti["operations"] == {"bm": "Bg5+", "id": "Reti 1910"}
    assert reti["pv"][0] == "Bg5+" and reti["pv"][-1].endswith("#")
    assert after["moves"] == ["e4", "e5"] and after["to_move"] == "White"
    assert moves["setup"] is None and moves["moves"] == ["d4", "d5"]
    for r in rows:
        assert r["stats"]["depth"] == 3 and r["stats"]["nodes"] > 0
        assert r["pv"][0] == r["action"]
    for r in (after, moves):
        assert r["score"].endswith(" cp") and r["mate"] is None and r["best_move_found"] is None


def test_analyze_file_of_fens_as_a_table(
    capsys: pytest.CaptureFixture[str], fens: Path
) -> None:
    out = run(capsys, "analyze", "chess", "--file", str(fens), "--depth", "3", "--workers", "1")
    assert "chess: best move and value (alphabeta, for the player to move)" in out
    assert "Reti 1910" in out and "yes (Bg5+)" in out
    assert "mate in 1" in out
    assert "4 positions, " in out and "best move found in 1 of 1" in out


def test_analyze_file_of_fens_is_the_same_on_two_workers(
    capsys: pytest.CaptureFixture[str], fens: Path
) -> None:
    def reports(workers: str) -> list[dict[str, object]]:
        data = run_json(capsys, "analyze", "chess", "--file", str(fens), "--depth", "2",
                        "--workers", workers)
        for r in data["positions"]:
            del r["stats"]["elapsed"], r["stats"]["nps"]
        return list(data["positions"])

    assert reports("2") == reports("1")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("rnbqkbnr/pppppppp w", "is not a FEN or EPD: write the board, side to move"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e5",
         "illegal move 'e5' (move 1 after the position at"),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "is not a legal chess position"),
    ],
)
def test_a_bad_line_fails_at_once_naming_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, line: str, message: str
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(f"# line 2 is bad\n{line}\n6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\n")
    error = fail(capsys, "analyze", "chess", "--file", str(path), "--depth", "1",
                 "--workers", "1")
    assert message in error and f"{path}:2" in error


def test_analyze_file_of_othello_boards_and_moves(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "othello.txt"
    path.write_text(f"{BOARD}\n-\nd3 c5\n{BOARD} moves d3 c5\n")
    data = run_json(capsys, "analyze", "othello", "--file", str(path), "--depth", "2",
                    "--workers", "1")
    board, start, moves, board_moves = data["positions"]
    assert board["setup"] == BOARD and start["setup"] is None
    assert {k: v for k, v in board.items() if k not in ("line", "setup")} == {
        k: v for k, v in start.items() if k not in ("line", "setup")
    } | {"stats": board["stats"]}  # the same position, however written
    assert board_moves["moves"] == moves["moves"] == ["d3", "c5"]
    assert board_moves["action"] == moves["action"] and board_moves["value"] == moves["value"]
    assert all(r["action"] in ("d3", "c4", "f5", "e6") for r in (board, start))
    assert all(r["mate"] is None and r["stats"]["depth"] == 2 for r in data["positions"])


def test_analyze_file_solves_an_othello_endgame_exactly_without_a_limit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = Othello()
    rng = random.Random(8)
    state, moves = game.initial_state(), []
    while 64 - (state[0] | state[1]).bit_count() > 8:
        action = rng.choice(game.actions(state))
        moves.append(game.format_action(state, action))
        state = game.result(state, action)
    path = tmp_path / "end.txt"
    path.write_text(" ".join(moves) + "\n")
    (row,) = run_json(capsys, "analyze", "othello", "--file", str(path),
                      "--workers", "1")["positions"]
    assert row["exact"] and row["algorithm"].startswith("solver")
    assert row["value"] == int(row["value"])  # a disc difference


def test_analyze_positions_from_python_with_fens() -> None:
    chess = games.load("chess")
    (report,) = analyze_positions(
        chess, [Position(1, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")], limit=Limit(depth=1),
        backend=LocalBackend(workers=1),
    )
    assert report.action == "Ra8#" and report.mate == 1 and report.action_values == {}


# --- tournaments -------------------------------------------------------------------------


def test_chess_games_and_states_pickle() -> None:
    chess = games.load("chess", max_plies=10)
    state = chess.initial_state()
    for move in ("e4", "e5", "Nf3", "Nc6", "Bb5"):
        state = play(chess, state, move)
    again = pickle.loads(pickle.dumps(state))
    assert again == state and again.ply == state.ply and chess.actions(again)
    copy = pickle.loads(pickle.dumps(chess))
    assert copy.max_plies == 10 and copy.fen == chess.fen


@pytest.mark.parametrize(
    ("game", "options", "agents"),
    [
        ("chess", ["-o", "max_plies=8"], ["alphabeta:depth=1", "random"]),
        ("chess", ["-o", "max_plies=6"], ["alphabeta:depth=1,engine=1", "random"]),
        ("othello", [], ["alphabeta:depth=1", "alphabeta:depth=1,engine=1", "random"]),
    ],
)
def test_tournaments_of_chess_and_othello_run_on_two_workers(
    capsys: pytest.CaptureFixture[str], game: str, options: list[str], agents: list[str]
) -> None:
    argv = ["tournament", game, *options, "--games", "1", "--seed", "4", "--workers", "2"]
    for agent in agents:
        argv += ["--agent", agent]
    data = run_json(capsys, *argv)
    n = len(agents)
    assert data["games"] == n * (n - 1) and data["agents"] == agents
    assert {s["agent"] for s in data["standings"]} == set(agents)
    assert sum(s["games"] for s in data["standings"]) == 2 * data["games"]
    if game == "chess":  # the move cap ends every game by then
        cap = int(options[1].split("=")[1])
        assert all(len(r["moves"]) <= cap for r in data["records"])


def test_a_chess_tournament_is_the_same_on_one_or_two_workers() -> None:
    def records(workers: int) -> list[tuple[object, ...]]:
        result = tournament(
            "chess", ["alphabeta:depth=1", "random"], rounds=1, seed=9,
            options={"max_plies": 8}, opening="e4 e5", backend=LocalBackend(workers=workers),
        )
        return [(r.seats, r.utilities, r.moves, r.nodes) for r in result.records]

    assert records(2) == records(1)


def test_an_agent_without_a_limit_is_refused_for_chess_and_othello(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for game in ("chess", "othello"):
        error = fail(capsys, "tournament", game, "--agent", "alphabeta", "--agent", "random",
                     "--workers", "1")
        assert error == (
            f"agent 'alphabeta' has no limit, and {game} cannot be searched to the end: give "
            f"it depth=, time= or nodes= (e.g. alphabeta:depth=2)"
        )


def test_tournament_json_round_trips(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "tournament", "chess", "-o", "max_plies=2", "--agent", "random",
                    "--agent", "alphabeta:depth=1", "--games", "1", "--seed", "1",
                    "--workers", "1")
    assert json.loads(json.dumps(data)) == data and data["options"] == {"max_plies": 2}


def test_a_position_that_is_already_over_is_reported_as_such(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "over.txt"
    path.write_text(
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\n"  # fool's mate
        "8/8/8/8/8/5k2/8/5K2 w - - 0 1\n"  # two kings: a draw
    )
    mated, drawn = run_json(capsys, "analyze", "chess", "--file", str(path), "--depth", "2",
                            "--workers", "1")["positions"]
    assert (mated["to_move"], mated["action"], mated["score"], mated["mate"]) == (
        None, None, "mated", 0
    )
    assert mated["value"] == -100_000 and mated["player"] == "White"
    assert (drawn["to_move"], drawn["value"], drawn["mate"]) == (None, 0, None)
