"""The quiz: questions graded by the engine's values, in the library, the CLI and the API."""

from __future__ import annotations

import io
import random

import pytest
from starlette.testclient import TestClient

from plies.cli import main
from plies.errors import IllegalActionError, OptionError
from plies.games import load
from plies.policy.quiz import ask, quiz_position
from plies.web.app import create_app
from tests.clirun import plain_pipe  # noqa: F401  (autouse: output as in a pipe)


def test_every_best_move_is_right_and_the_reason_lists_the_values() -> None:
    game = load("tictactoe")
    question = ask(game, game.initial_state())  # every first move draws
    for move in question.moves:
        verdict = question.grade(move)
        assert verdict.right and verdict.value == 0.0
    assert set(question.best()) == set(question.moves)


def test_a_wrong_move_names_the_best_and_its_value() -> None:
    game = load("nim", options=["piles=1,2"])  # nim-sum 3: take 1 from the pile of 2 wins
    question = ask(game, game.initial_state())
    verdicts = {m: question.grade(m) for m in question.moves}
    winners = [m for m, v in verdicts.items() if v.right]
    assert len(winners) == 1 and verdicts[winners[0]].value == 1.0
    loser = next(v for v in verdicts.values() if not v.right)
    assert loser.text.startswith(f"Wrong: {loser.answer} is worth -1 to ")
    assert f"the best move is {winners[0]}, worth 1 (" in loser.text


def test_value_answers_and_bad_answers() -> None:
    game = load("aima-5-2")
    question = ask(game, game.initial_state(), kind="value")
    assert question.grade("3.0").right and not question.grade("2").right
    with pytest.raises(OptionError, match="answer with a number"):
        question.grade("three")
    with pytest.raises(IllegalActionError):
        ask(game, game.initial_state()).grade("a9")


def test_no_quiz_where_nobody_chooses_alone() -> None:
    with pytest.raises(OptionError, match="everyone moves at once"):
        game = load("rps")
        ask(game, game.initial_state())
    from plies.policy import position

    game = load("tictactoe")
    over, _ = position(game, "1 4 2 5 3")  # X has a row
    with pytest.raises(OptionError, match="game is over"):
        ask(game, over)


def test_quiz_positions_are_seeded_and_unfinished() -> None:
    game = load("tictactoe")
    first = quiz_position(game, game.initial_state(), random.Random(7))
    again = quiz_position(game, game.initial_state(), random.Random(7))
    assert first[1] == again[1]
    assert not game.is_terminal(first[0])


def test_plies_quiz_reads_answers_grades_them_and_keeps_score(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("zz\na1\n"))
    assert main(["quiz", "aima-5-2"]) == 0
    out = capsys.readouterr().out
    assert "Which move is best for MAX? (a1, a2, a3)" in out
    assert "not an answer: illegal move 'zz'" in out
    assert "Right: a1 is worth 3 to MAX, the best (a1 3, a2 2, a3 2)." in out
    assert out.rstrip().endswith("score: 1 of 1 right")


def test_plies_quiz_with_answers_on_the_command_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["quiz", "tictactoe", "--seed", "1", "--questions", "2", "--depth", "2",
                 "--ask", "value", "--answer", "0", "--answer", "1"]) == 0
    out = capsys.readouterr().out
    assert out.count("What is this position worth to ") == 2
    assert "at depth 2" in out and "score: " in out


def test_the_quiz_endpoint_asks_first_and_grades_after() -> None:
    with TestClient(create_app()) as client:
        question = client.post("/api/quiz", json={"game": "aima-5-2"}).json()
        assert question["moves"] == ["a1", "a2", "a3"] and "verdict" not in question
        graded = client.post("/api/quiz", json={"game": "aima-5-2", "answer": "a3"}).json()
        assert graded["verdict"]["right"] is False and graded["verdict"]["best"] == ["a1"]
        bad = client.post("/api/quiz", json={"game": "aima-5-2", "answer": "zz"})
        assert bad.status_code == 422 and "illegal move" in bad.json()["error"]
        chance = client.post("/api/quiz", json={"game": "rps"})
        assert chance.status_code == 422


def test_quiz_chess_without_a_limit_searches_with_its_play_defaults() -> None:
    # Regression: an exact search of chess ran into Python's recursion limit.
    game = load("chess")
    question = ask(game, game.initial_state())  # the game's time a move, mate scores
    assert not question.result.exact and question.result.action_values
    verdict = question.grade("a3")
    assert " cp" in verdict.text and " at depth " in verdict.text
    listed = verdict.text[verdict.text.index("(") + 1:-2].split(", ")
    assert listed[0].split(" ")[0] in verdict.best  # the values come best first


def test_a_right_move_among_many_as_good_names_them_once() -> None:
    game = load("tictactoe")
    text = ask(game, game.initial_state()).grade("1").text
    assert text.startswith("Right: 1 is worth 0 to X, the best; 2, 3, 4, 5, 6, 7, 8 and 9 "
                           "are as good (")


def test_the_quiz_endpoint_writes_chess_values_in_centipawns_best_first() -> None:
    with TestClient(create_app()) as client:
        graded = client.post("/api/quiz", json={"game": "chess", "depth": 1,
                                                "answer": "e4"}).json()["verdict"]
    rows = graded["values"]
    assert [r["value"] for r in rows] == sorted((r["value"] for r in rows), reverse=True)
    assert all(r["score"].endswith(" cp") for r in rows) and " cp" in graded["text"]
    assert rows[0]["move"] in graded["best"]


def test_a_min_node_is_asked_in_max_values_as_the_lecture_writes_them() -> None:
    game = load("aima-5-2")
    from plies.policy import position

    b, _ = position(game, "a1")  # node B: MIN chooses among 3, 12, 8
    assert ask(game, b, kind="value").prompt == "What is this position worth to MAX? (a number)"
    assert ask(game, b, kind="value").grade("3").right
    verdict = ask(game, b).grade("b2")
    assert verdict.text == ("Wrong: b2 is worth 12 to MAX; the best move for MIN is b1, "
                            "worth 3 (b1 3, b3 8, b2 12).")
    assert ask(game, b, player=1).grade("b1").text.startswith("Right: b1 is worth -3 to MIN,")


def test_another_players_values_only_in_a_two_player_zero_sum_game() -> None:
    game = load("aima-5-4")  # max^n: three players, each its own utility
    with pytest.raises(OptionError, match="leave out the player"):
        ask(game, game.initial_state(), player=2)


def test_the_quiz_endpoint_at_a_min_node_sends_the_position_and_min_s_best_first() -> None:
    with TestClient(create_app()) as client:
        reply = client.post("/api/quiz", json={"game": "aima-5-2", "moves": ["a1"],
                                               "answer": "b2"}).json()
    assert reply["state"]["to_move_name"] == "MIN"  # the position, as /api/state sends it
    assert [(r["move"], r["value"]) for r in reply["verdict"]["values"]] == [
        ("b1", 3), ("b3", 8), ("b2", 12)]
    assert reply["verdict"]["best"] == ["b1"] and not reply["verdict"]["right"]
