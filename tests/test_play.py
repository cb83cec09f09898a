"""``plies play`` with chess and Othello: moves in SAN and UCI, one-line errors, the engine's
value, PV and statistics, ``?`` for the value of every move, the endgame solver."""

from __future__ import annotations

import io
import random
import re

import pytest

from plies.games.othello import Othello
from tests.clirun import plain_pipe, run, run_json  # noqa: F401 (autouse fixture)

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
CASTLE = "r3k2r/pppq1ppp/8/8/8/8/PPPQ1PPP/R3K2R w KQkq - 0 1"
PROMOTE = "7k/4P3/8/8/8/8/P7/K7 w - - 0 1"
RETI = "rnbk1b1r/pp3ppp/2p5/4q3/4n3/8/PPPB1PPP/2KR1BNR w - - 0 10"  # 10.Bg5+ Kc7 11.Bd8#
# (after 10...Ke8, 11.Rd8# mates as well)
START_MOVES = ["Nh3", "Nf3", "Nc3", "Na3", *(f"{c}{r}" for r in (3, 4) for c in "hgfedcba")]
ENGINE_LINE = re.compile(
    r"^(White|Black) \(alphabeta\) plays (\S+): value (-?\d+ cp|mate in \d+|mated in \d+), "
    r"pv (\S+(?: \S+)*) \(depth (\d+), ([\d,]+) nodes in \d+\.\d\ds, [\d,]+ nodes/s\)$",
    re.MULTILINE,
)


def play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str, *argv: str
) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    return run(capsys, "play", *argv)


@pytest.mark.parametrize(
    ("fen", "typed", "shown"),
    [
        (START, "e4", "e4"),
        (START, "e2e4", "e4"),
        (START, "Nf3", "Nf3"),
        (START, "g1f3", "Nf3"),
        (CASTLE, "O-O", "O-O"),
        (CASTLE, "0-0", "O-O"),
        (CASTLE, "e1g1", "O-O"),
        (CASTLE, "e1c1", "O-O-O"),
        (PROMOTE, "e7e8q", "e8=Q+"),
        (PROMOTE, "e8=Q", "e8=Q+"),
        (PROMOTE, "e7e8n", "e8=N"),
    ],
)
def test_play_chess_takes_san_and_uci(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, fen: str, typed: str,
    shown: str,
) -> None:
    out = play(capsys, monkeypatch, f"{typed}\nq\n", "chess", "-o", f"fen={fen}", "--depth", "1")
    assert f"\nWhite plays {shown}\n" in out
    assert ENGINE_LINE.search(out), out  # Black answered
    assert "illegal" not in out and out.rstrip().endswith("bye")


@pytest.mark.parametrize("typed", ["e5", "xyz", "Nd2", "e2e5", "e7e8q", "O-O"])
def test_play_chess_refuses_a_bad_move_in_one_line_and_goes_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, typed: str
) -> None:
    out = play(capsys, monkeypatch, f"{typed}\ne4\nq\n", "chess", "--depth", "1")
    errors = [line for line in out.splitlines() if line.startswith("illegal move")]
    assert errors == [
        f"illegal move {typed!r}: write a move in SAN (e4, Nf3, exd5, O-O, e8=Q) or UCI "
        f"(e2e4, g1f3, e1g1, e7e8q); legal here: Nh3, Nf3, Nc3, Na3, h3, g3, f3, e3, d3, c3, "
        f"b3, a3, h4, g4, f4, e4, d4, c4, b4, a4"
    ]
    assert "Traceback" not in out
    assert "\nWhite plays e4\n" in out and ENGINE_LINE.search(out)  # the game went on


def test_play_chess_shows_the_engines_value_pv_and_statistics(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = play(capsys, monkeypatch, "e4\nq\n", "chess", "--depth", "2")
    found = ENGINE_LINE.search(out)
    assert found is not None, out
    side, move, value, pv, depth, nodes = found.groups()
    assert side == "Black" and value.endswith(" cp") and depth == "2"
    assert pv.split()[0] == move and len(pv.split()) >= 2  # the PV starts with the move
    assert int(nodes.replace(",", "")) > 20  # the root's 20 children at least


def test_play_chess_engine_against_engine_reports_mate_in_n_until_the_mate(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run(capsys, "play", "chess", "-o", f"fen={RETI}", "--human", "none", "--depth", "3")
    moves = [(m[1], m[2]) for m in ENGINE_LINE.findall(out)]
    assert moves[0] == ("Bg5+", "mate in 2")
    assert moves[1][1] == "mated in 1"
    assert moves[2][0].endswith("#") and moves[2][1] == "mate in 1"
    assert len(moves) == 3
    assert out.rstrip().endswith("game over: 1-0 (White 100000, Black -100000)")


def test_play_question_mark_shows_every_moves_value_best_first(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = play(capsys, monkeypatch, "?\nhint\nq\n", "chess", "--depth", "1")
    lines = [line for line in out.splitlines() if line.startswith("value of every move")]
    assert len(lines) == 2  # "?" and "hint" ask the same, and get the same answer
    assert lines[0].partition("): ")[2] == lines[1].partition("): ")[2]
    head, _, listing = lines[0].partition("): ")
    assert head.startswith("value of every move for White, best first (alphabeta, depth 1, ")
    pairs = [item.rsplit(" ", 2) for item in listing.split(", ")]
    assert sorted(m.removesuffix(":") for m, _, _ in pairs) == sorted(START_MOVES)
    values = [int(v) for _, v, unit in pairs if unit == "cp"]
    assert len(values) == 20 and values == sorted(values, reverse=True)
    assert "plays" not in out  # asking costs no move


def test_play_question_mark_names_a_mate(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
    out = play(capsys, monkeypatch, "?\nq\n", "chess", "-o", f"fen={fen}", "--depth", "1")
    assert "best first (alphabeta, depth 1, " in out
    assert "): Ra8#: mate in 1, " in out


def test_play_help_says_how_to_write_moves(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = play(capsys, monkeypatch, "help\nq\n", "chess", "--depth", "1")
    assert (
        "Write a move in SAN (e4, Nf3, exd5, O-O, e8=Q) or UCI (e2e4, g1f3, e1g1, e7e8q). "
        "Commands: ? or hint (the engine's value of every legal move), help, q (quit)."
    ) in out
    assert "(? for the value of every move, help, q to quit)" in out


def test_play_hint_works_for_every_game_and_a_move_named_like_a_command_wins(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = play(capsys, monkeypatch, "5\n?\nq\n", "tictactoe")
    assert "value of every move for X, best first (alphabeta, depth 7, exact, " in out
    assert re.search(r"\): (\d): 0, (\d): 0, ", out)  # a draw whatever X plays
    assert "X to move; legal: 2, 3, 4, 6, 7, 8, 9 (q to quit)" in out  # as before


def test_play_othello_human_engine_and_errors(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = play(capsys, monkeypatch, "a1\nd3\n?\nq\n", "othello", "--depth", "2")
    assert (
        "illegal move 'a1': write a move as a square a1..h8 (column a-h, row 1-8 from the top), "
        "or pass when you have no move; legal here: d3, c4, f5, e6"
    ) in out
    assert "\nBlack plays d3\n" in out
    found = re.search(
        r"^White \(alphabeta\) plays ([a-h][1-8]): value -?\d+(\.\d+)? discs, pv \1 \S+ "
        r"\(depth 2, [\d,]+ nodes in \d+\.\d\ds, [\d,]+ nodes/s\)$", out, re.MULTILINE,
    )
    assert found, out
    assert "value of every move for Black, best first (alphabeta, depth 2, " in out


def test_play_othello_endgame_is_solved_exactly_to_the_end(
    capsys: pytest.CaptureFixture[str],
) -> None:
    game = Othello()
    rng = random.Random(5)
    state, moves = game.initial_state(), []
    while 64 - (state[0] | state[1]).bit_count() > 9:
        action = rng.choice(game.actions(state))
        moves.append(game.format_action(state, action))
        state = game.result(state, action)
    out = run(capsys, "play", "othello", "--moves", " ".join(moves), "--human", "none")
    lines = [line for line in out.splitlines() if " plays " in line]
    assert lines and all("(solver (" in line and ", exact, " in line for line in lines)
    assert "game over: " in out


# --- solve and analyze of one chess position: the same engine search ----------------------------


def test_solve_chess_reports_mate_in_n_as_a_score(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "solve", "chess", "-o", f"fen={RETI}", "--depth", "3")
    assert (data["action"], data["score"], data["mate"]) == ("Bg5+", "mate in 2", 2)
    assert data["value"] == 100_000 and data["pv"][0] == "Bg5+" and not data["exact"]
    out = run(capsys, "solve", "chess", "-o", f"fen={RETI}", "--depth", "3")
    assert re.search(r"│ score\s+│ mate in 2\s+│", out)
    assert "depth 3: value mate in 2, pv Bg5+ " in out  # the iterations, live


def test_analyze_chess_gives_every_moves_value_with_mates_as_wins(
    capsys: pytest.CaptureFixture[str],
) -> None:
    fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
    data = run_json(capsys, "analyze", "chess", "-o", f"fen={fen}", "--depth", "1")
    values = data["action_values"]
    assert len(values) == 20 and values["Ra8#"] == 100_000  # 2 king, 12 rook, 6 pawn moves
    assert all(abs(v) < 50_000 for m, v in values.items() if m != "Ra8#")
    assert data["score"] == "mate in 1" and data["action"] == "Ra8#"
