"""Batch analysis: positions files, and reports that match plies.analyze called directly."""

from __future__ import annotations

from pathlib import Path

import pytest

from plies import analyze, games
from plies.errors import IllegalActionError, OptionError
from plies.game import format_action, play
from plies.parallel import GameRef, LocalBackend, Position, analyze_positions, read_positions
from plies.parallel.batch import parse_positions
from plies.search import Limit

SERIAL = LocalBackend(workers=1)
TTT_FILE = "# tic-tac-toe, one position a line\n-\n5\n\n5 1\n  5 1 9   \n1,2,3,4,5,6,7\n"


def direct(name: str, moves: str, **kwargs: object) -> dict[str, float]:
    game = games.load(name)
    state = game.initial_state()
    for move in moves.replace(",", " ").split():
        state = play(game, state, move)
    result = analyze(game, state, **kwargs)  # type: ignore[arg-type]
    return {format_action(game, state, a): v for a, v in (result.action_values or {}).items()}


def test_positions_file_skips_blanks_and_comments(tmp_path: Path) -> None:
    path = tmp_path / "ttt.txt"
    path.write_text(TTT_FILE)
    assert read_positions(path) == [
        Position(2, ""), Position(3, "5"), Position(5, "5 1"), Position(6, "5 1 9"),
        Position(7, "1,2,3,4,5,6,7"),
    ]
    assert parse_positions("# only a comment\n\n") == []
    (tmp_path / "empty.txt").write_text("# nothing\n")
    with pytest.raises(OptionError, match="holds no position"):
        read_positions(tmp_path / "empty.txt")
    with pytest.raises(OptionError, match=r"cannot read positions file .*No such file"):
        read_positions(tmp_path / "missing.txt")


def test_reports_match_analyze_called_directly(tmp_path: Path) -> None:
    path = tmp_path / "ttt.txt"
    path.write_text(TTT_FILE)
    positions = read_positions(path)
    reports = analyze_positions(GameRef("tictactoe"), positions, backend=SERIAL)
    assert [r.line for r in reports] == [2, 3, 5, 6, 7]
    for p, r in zip(positions, reports, strict=True):
        assert r.action_values == direct("tictactoe", p.moves)
        assert r.exact and r.algorithm == "alphabeta"
    assert reports[0].value == 0.0 and reports[0].to_move == "X"
    assert reports[1].action_values == {
        "1": 0.0, "2": -1.0, "3": 0.0, "4": -1.0, "6": -1.0, "7": 0.0, "8": -1.0, "9": 0.0,
    }
    over = reports[-1]  # X has completed 3-5-7
    assert over.to_move is None and over.action is None and over.action_values == {}
    assert over.value == -1.0 and over.player == "O"


def test_depth_limit_algorithm_and_player_pass_through() -> None:
    positions = [Position(1, "4 4 3"), Position(2, "")]
    reports = analyze_positions(
        GameRef("connect4"), positions, limit=Limit(depth=3), algorithm="minimax",
        player="0", backend=SERIAL,
    )
    for p, r in zip(positions, reports, strict=True):
        game = games.load("connect4")
        state = game.initial_state()
        for move in p.moves.split():
            state = play(game, state, move)
        want = analyze(game, state, Limit(depth=3), algorithm="minimax", player=0)
        assert r.value == want.value and not r.exact
        assert list(r.action_values.values()) == list((want.action_values or {}).values())
        assert r.player == game.player_name(0)


def test_chance_positions_need_a_player() -> None:
    ref = GameRef("pig", (("goal", 4), ("max_turns", 2)))
    with pytest.raises(OptionError, match="nobody is to move in the position on line 3"):
        analyze_positions(ref, [Position(1, ""), Position(3, "roll")], backend=SERIAL)
    [report] = analyze_positions(ref, [Position(3, "roll")], player=0, backend=SERIAL)
    game = ref.load()
    want = analyze(game, play(game, game.initial_state(), "roll"), player=0,
                   algorithm="expectiminimax")
    assert report.algorithm == "expectiminimax" and report.value == pytest.approx(want.value)
    assert report.to_move == "chance"


def test_bad_lines_fail_before_any_search() -> None:
    with pytest.raises(IllegalActionError, match=r"illegal move '5' \(move 2 at pos.txt:4\)"):
        analyze_positions(GameRef("tictactoe"), [Position(1, "1"), Position(4, "5 5")],
                          backend=SERIAL, source="pos.txt")
    with pytest.raises(OptionError, match="unknown player 'Z'; players are 0 \\(X\\), 1 \\(O\\)"):
        analyze_positions(GameRef("tictactoe"), [Position(1, "")], player="Z", backend=SERIAL)


def test_pool_gives_the_same_reports() -> None:
    positions = [Position(i, m) for i, m in enumerate(["", "5", "1 5", "1 5 9", "2"], 1)]
    serial = analyze_positions(GameRef("tictactoe"), positions, backend=SERIAL)
    pooled = analyze_positions(GameRef("tictactoe"), positions, backend=LocalBackend(2))
    strip = [{**r.as_dict(), "stats": None} for r in serial]
    assert [{**r.as_dict(), "stats": None} for r in pooled] == strip
