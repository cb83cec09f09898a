"""``plies ggp match`` and :mod:`plies.ggp.manager`: real matches over HTTP, judged.

The players are plies players (``GgpServer`` in a thread) and the tests' tiny random
player (tests/ggp/randomplayer.py, its own HTTP server), which misbehaves on request:
every late, illegal, unreadable, refused or failed reply must be logged with its step and
role and replaced by a legal move, and the match must still reach its end.
"""

from __future__ import annotations

import json
import random
import socket
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest

from plies.cli import main
from plies.gdl.parser import parse
from plies.gdl.reasoner import Reasoner
from plies.gdl.terms import Term
from plies.ggp.manager import (
    GameManager,
    HttpSeat,
    MatchRecord,
    MatchSetupError,
    RandomSeat,
)
from tests.data import GDL_DATA
from tests.ggp.helpers import rules, serving
from tests.ggp.randomplayer import random_player

TICTACTOE = str(GDL_DATA / "ticTacToe.kif")
SLACK = {"margin": 1.6, "metagame_cap": 0.3}
"""Players that think 0.4 s of a 2 s play clock: a loaded machine still answers in time."""


def assert_legal_throughout(record: MatchRecord, manager: GameManager) -> None:
    """Every joint move applied was legal in its state, and the record ends where the
    moves lead."""
    machine = manager.machine
    state = machine.initial_state()
    for step in record.steps:
        assert step.state == state
        legal = machine.legal_all(state)
        assert all(move in legal[r] for r, move in enumerate(step.joint)), step.joint
        state = machine.next_state(state, step.joint)
    assert state == record.final_state


def test_faults_are_logged_with_step_and_role_and_replaced_by_legal_moves() -> None:
    manager = GameManager(rules("roshambo2"))
    white_faults = {1: "late", 2: "illegal", 3: "garbage"}
    black_faults = {1: "503", 2: "hangup"}
    with random_player(1, white_faults) as (white, _), random_player(2, black_faults) as (
        black, _,
    ):
        record = manager.play_match(
            [HttpSeat.from_url(white), HttpSeat.from_url(black)], match_id="rps.faults",
            start_clock=2, play_clock=2, rng=random.Random(5),
        )
    assert record.goals is not None and not record.aborted
    found = {(f.phase, f.step, f.role, f.kind) for f in record.faults}
    assert found == {
        ("play", 1, "white", "late"), ("play", 2, "white", "illegal"),
        ("play", 3, "white", "unreadable"), ("play", 1, "black", "http"),
        ("play", 2, "black", "failed"),
    }
    late = next(f for f in record.faults if f.kind == "late")
    assert late.latency is not None and late.latency > 2
    assert record.errors[0].startswith("step 1: ")
    assert [len(s.faults) for s in record.steps[:4]] == [2, 2, 1, 0]
    assert_legal_throughout(record, manager)


def test_a_match_between_plies_players_and_the_random_player_is_clean() -> None:
    manager = GameManager(rules("tictactoe_3player"))
    with serving(seed=1, **SLACK) as plies, random_player(3) as (url, _):
        seats = [HttpSeat(plies.host, plies.port), HttpSeat.from_url(url), RandomSeat()]
        record = manager.play_match(seats, match_id="ttt3.clean", start_clock=2,
                                    play_clock=2)
        assert plies.player.last is not None and plies.player.last.goals == record.goals
    assert record.faults == [] and record.goals is not None
    assert len(record.latencies(0)) == len(record.latencies(1)) == len(record.steps)
    assert record.latencies(2) == []  # the manager's own random seat sends nothing
    assert_legal_throughout(record, manager)


def test_max_steps_aborts_with_no_goals() -> None:
    manager = GameManager(rules("ticTacToe"))
    with random_player(1) as (url, _):
        record = manager.play_match([HttpSeat.from_url(url), RandomSeat()], match_id="m",
                                    start_clock=1, play_clock=1, max_steps=3)
    assert record.aborted and record.goals is None and len(record.steps) == 3


class FluentMachine:
    """Another state machine: states are frozensets of fluents (as a prover keeps them),
    answered through the propnet.  The judgement must not depend on the state type."""

    kind = "fluents"

    def __init__(self, text: str) -> None:
        self.inner = Reasoner(parse(text))
        self.description = self.inner.description
        self.roles = self.inner.roles

    def _in(self, state: frozenset[Term]) -> int:
        return self.inner.state_from_fluents(state)

    def initial_state(self) -> frozenset[Term]:
        return self.inner.fluents(self.inner.initial_state())

    def is_terminal(self, state: frozenset[Term]) -> bool:
        return self.inner.is_terminal(self._in(state))

    def legal(self, state: frozenset[Term], role: int) -> tuple[Term, ...]:
        return self.inner.legal(self._in(state), role)

    def legal_all(self, state: frozenset[Term]) -> tuple[tuple[Term, ...], ...]:
        return self.inner.legal_all(self._in(state))

    def next_state(self, state: frozenset[Term], joint: Sequence[Term]) -> frozenset[Term]:
        return self.inner.fluents(self.inner.next_state(self._in(state), joint))

    def goal_values(self, state: frozenset[Term], role: int) -> list[int]:
        return self.inner.goal_values(self._in(state), role)

    def goal(self, state: frozenset[Term], role: int) -> int:
        return self.inner.goal(self._in(state), role)

    def goals(self, state: frozenset[Term]) -> tuple[int, ...]:
        return self.inner.goals(self._in(state))

    def fluents(self, state: frozenset[Term]) -> frozenset[Term]:
        return state

    def state_from_fluents(self, fluents: Iterable[Term]) -> frozenset[Term]:
        return frozenset(fluents)

    def format_state(self, state: frozenset[Term]) -> str:
        return self.inner.format_state(self._in(state))


def test_the_manager_judges_with_any_state_machine() -> None:
    text = rules("ticTacToe")
    manager = GameManager(text, machine=FluentMachine(text))
    with random_player(4, {2: "illegal"}) as (x, _), random_player(5) as (o, _):
        record = manager.play_match([HttpSeat.from_url(x), HttpSeat.from_url(o)],
                                    match_id="ttt.fluents", start_clock=1, play_clock=1)
    assert isinstance(record.final_state, frozenset) and record.goals is not None
    assert [(f.step, f.role, f.kind) for f in record.faults] == [(2, "xplayer", "illegal")]
    assert_legal_throughout(record, manager)


# --- the command line --------------------------------------------------------------------


def test_cli_match_between_two_plies_players(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "match.json"
    with serving(seed=1, **SLACK) as x, serving(seed=2, **SLACK) as o:
        code = main(["ggp", "match", TICTACTOE, "--player", x.url, "--player", o.url,
                     "--start", "2", "--play", "2", "--match-id", "cli.1", "--json", str(out)])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert "match cli.1: ticTacToe.kif, start clock 2s, play clock 2s" in printed
    assert "step 1: xplayer (mark" in printed and "game over after" in printed
    assert "no late, illegal or failed replies" in printed
    data: dict[str, Any] = json.loads(out.read_text())
    assert data["completed"] and data["faults"] == [] and sum(data["goals"]) == 100
    assert data["roles"] == ["xplayer", "oplayer"] and data["players"] == [x.url, o.url]
    assert len(data["moves"]) == data["steps"] == len(data["replies"])
    reasoner = Reasoner(parse(rules("ticTacToe")))
    state = reasoner.initial_state()
    for joint in data["moves"]:
        state = reasoner.next_state(state, [parse_move(m) for m in joint])
    assert list(reasoner.goals(state)) == data["goals"]


def parse_move(text: str) -> Term:
    from plies.gdl.parser import parse_term

    return parse_term(text)


def test_cli_reports_every_fault_and_the_replacement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "faults.json"
    with random_player(1, {1: "illegal", 3: "503"}) as (bad, _):
        code = main(["ggp", "match", TICTACTOE, "--role", f"xplayer={bad}",
                     "--role", "oplayer=random", "--start", "1", "--play", "1",
                     "--seed", "3", "--json", str(out)])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert "! step 1: xplayer illegal move 'noop'; replaced by (mark" in printed
    assert "! step 3: xplayer HTTP 503 'error: not now'; replaced by (mark" in printed
    assert "2 late, illegal or failed replies:" in printed
    faults = json.loads(out.read_text())["faults"]
    assert [(f["step"], f["role"], f["kind"]) for f in faults] == [
        (1, "xplayer", "illegal"), (3, "xplayer", "http"),
    ]


def test_cli_max_steps_reports_an_unfinished_match(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["ggp", "match", TICTACTOE, "--player", "random", "--player", "random",
                 "--max-steps", "2", "--quiet", "--seed", "1"])
    printed = capsys.readouterr().out
    assert code == 0
    assert "aborted after 2 steps (--max-steps 2): the game was not over" in printed
    assert "step 1:" not in printed  # --quiet


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["no/such/game.kif", "--player", "random"], "cannot read GDL file"),
        ([str(GDL_DATA / "invalid" / "notsafe.kif"), "--player", "random"], "invalid GDL"),
        ([TICTACTOE, "--player", "random"],
         "this game has 2 role(s) (xplayer, oplayer), got 1 --player"),
        ([TICTACTOE, "--player", "random", "--player", "ftp://h:1/"],
         "not a player address: 'ftp://h:1/'"),
        ([TICTACTOE, "--player", "random", "--player", "localhost"], "not a player address"),
        ([TICTACTOE, "--role", "xplayer=random", "--role", "white=random"],
         "expected NAME=URL with NAME one of xplayer, oplayer"),
        ([TICTACTOE, "--role", "xplayer=random"], "no player for role(s) oplayer"),
        ([TICTACTOE, "--role", "xplayer=random", "--player", "random"], "not both"),
        ([TICTACTOE, "--player", "random", "--player", "random", "--play", "0"],
         "a clock must be > 0 seconds"),
        ([TICTACTOE, "--player", "random", "--player", "random", "--json",
          "no/such/dir/x.json"], "cannot write --json"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ggp", "match", *argv]) == 2
    err = capsys.readouterr().err
    assert expected in err and err.count("\n") == 1, err


def test_an_unreachable_player_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    port = _closed_port()
    assert main(["ggp", "match", TICTACTOE, "--player", "random",
                 "--player", f"127.0.0.1:{port}"]) == 2
    err = capsys.readouterr().err
    assert f"cannot reach the player of oplayer at http://127.0.0.1:{port}/" in err
    assert err.count("\n") == 1


def test_check_players_counts_seats() -> None:
    manager = GameManager(rules("ticTacToe"))
    with pytest.raises(MatchSetupError, match="got 3 player"):
        manager.check_players([RandomSeat()] * 3)


def test_cli_judges_with_the_top_down_reasoner_when_asked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with random_player(2, {1: "illegal"}) as (url, _):
        code = main(["ggp", "match", str(GDL_DATA / "nim1.kif"), "--player", url,
                     "--player", "random", "--reasoner", "topdown", "--seed", "2",
                     "--start", "1", "--play", "1"])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert "rules by the topdown reasoner (topdown: asked for)" in printed
    assert "! step 1: player1 illegal move" in printed and "game over after" in printed
