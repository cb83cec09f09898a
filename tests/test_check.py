"""The public conformance check: plies.check_game and its report.

How each kind of breakage is caught is in tests/games/test_conformance.py (through the
assertion helper of tests/conformance.py); here: the report itself, declared facts,
simultaneous moves, games that raise, and every built-in game passing.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

import pytest

import plies
from plies.check import CHECKS, CheckReport, check_game
from plies.game import SIMULTANEOUS, Game
from plies.imperfect import is_imperfect
from tests.games.test_conformance import Race, SameText
from tests.kayles import Kayles


def statuses(report: CheckReport) -> dict[str, str]:
    return {check.name: check.status for check in report.checks}


@pytest.mark.parametrize("name", plies.games.names())
def test_every_builtin_game_passes_every_check(name: str) -> None:
    game = plies.games.load(name)
    report = plies.check_game(game, playouts=20)
    assert report.ok, str(report)
    hidden = ["information sets"] if is_imperfect(game) else []  # kuhn, leduc
    assert [check.name for check in report.checks] == [*CHECKS, *hidden]
    unrun = {name for name, status in statuses(report).items() if status != "pass"}
    # A long game whose 20 playouts are all cut off never reaches a terminal state.
    assert unrun == ({"utilities"} if report.terminals == 0 else set()), str(report)
    if unrun:
        assert "cut off after" in report.check("utilities").reason


def test_the_report_keeps_going_after_a_failure() -> None:
    report = check_game(SameText())
    assert not report.ok
    assert [check.name for check in report.failures] == ["action text"]
    failed = report.check("action text")
    assert failed.reason.startswith("playout 0, step 0, state (0, 0): format_action(2) = 'add'")
    assert str(failed).startswith("fail  action text: playout 0")
    # text is for people: the playouts still ran, and every other check passed
    assert report.playouts == report.terminals == 50 and report.abandoned == 0
    assert report.check("result is pure").passed


def test_a_game_that_raises_fails_the_check_that_called_it() -> None:
    class Crashing(Race):
        def utility(self, state: tuple[int, int], player: int) -> float:
            raise KeyError("no winner yet")

    report = check_game(Crashing(), playouts=3)
    assert [check.name for check in report.failures] == ["utilities"]
    assert report.check("utilities").reason.endswith("raised KeyError: 'no winner yet'")
    assert report.abandoned == 3 and report.playouts == 0


def test_a_duck_typed_game_missing_members_is_reported_not_raised() -> None:
    class Partial:
        num_players = 2

        def initial_state(self) -> int:
            return 0

    report = check_game(Partial())
    assert report.check("model").reason == (
        "the game lacks to_move, actions, result, is_terminal, utility"
    )
    assert set(statuses(report).values()) == {"fail", "skip"}
    assert not report.ok


def test_a_bad_num_players_is_reported() -> None:
    class NoOne:
        num_players = 0
        initial_state = to_move = actions = result = is_terminal = utility = print

    report = check_game(NoOne())
    assert report.check("model").reason == "num_players must be an int >= 1, got 0"


def test_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="playouts and max_steps must be >= 1"):
        check_game(Race(), playouts=0)


def test_unfinished_playouts_are_counted_not_failed() -> None:
    pig = plies.games.load("pig", max_turns=None, goal=50)
    report = check_game(pig, playouts=3, max_steps=20)
    assert report.ok and report.unfinished == 3
    assert "3 were cut off after 20 steps" in report.check("playouts").reason


# --- declared facts against what the playouts meet ------------------------------------------


class Dice(Race):
    """Race with chance nodes that does not say so."""

    def __init__(self) -> None:
        super().__init__(dice=True)


class DiceDenied(Dice):
    has_chance = False  # said, and wrong


class ChanceClaimed(Race):
    has_chance = True  # said, never met


def test_chance_nodes_that_a_game_denies_fail() -> None:
    report = check_game(DiceDenied())
    assert report.check("has_chance").status == "fail"
    assert "has_chance is False but the playouts met" in report.check("has_chance").reason


def test_undeclared_chance_nodes_warn() -> None:
    report = check_game(Dice())
    check = report.check("has_chance")
    assert check.status == "warn" and check.passed and report.ok
    assert check.reason.endswith("declare has_chance = True so searches can tell up front")


def test_a_declared_fact_never_met_warns() -> None:
    report = check_game(ChanceClaimed())
    check = report.check("has_chance")
    assert check.status == "warn" and check.reason == (
        "declared True, but the playouts met no CHANCE node"
    )


def test_a_wrapper_inherits_the_games_declaration() -> None:
    report = check_game(plies.OpponentsAsChance(plies.games.load("tictactoe")), playouts=5)
    assert report.check("has_chance").status == "pass" and report.chance_nodes > 0


# --- simultaneous moves -------------------------------------------------------------------


class UndeclaredPennies(Game[int, Any]):
    """Matching pennies, once: both show heads or tails at the same time.

    It does not declare ``has_simultaneous`` (as GDL games cannot know it up front).
    """

    num_players = 2
    utility_range = (-1.0, 1.0)
    zero_sum = True

    def initial_state(self) -> int:
        return 0

    def to_move(self, state: Any) -> int:
        return SIMULTANEOUS

    def actions(self, state: Any) -> Sequence[Any]:
        return [(a, b) for a in "HT" for b in "HT"]

    def result(self, state: Any, action: Any) -> Any:
        return action

    def is_terminal(self, state: Any) -> bool:
        return bool(state != 0)

    def utility(self, state: Any, player: int) -> float:
        same = 1.0 if state[0] == state[1] else -1.0
        return same if player == 0 else -same


class Pennies(UndeclaredPennies):
    has_simultaneous = True


class OwnActionsWrong(Pennies):
    def player_actions(self, state: Any, player: int) -> Sequence[Any]:
        return ["H", "T", "E"]  # "E" (edge) is in no joint action


class NotEveryCombination(Pennies):
    def actions(self, state: Any) -> Sequence[Any]:
        return [("H", "H"), ("T", "T"), ("H", "T")]


class FlatJoint(Pennies):
    def actions(self, state: Any) -> Sequence[Any]:
        return ["HH", "HT"]


class SimultaneousDenied(Pennies):
    has_simultaneous = False


def test_a_correct_simultaneous_game_passes() -> None:
    report = check_game(Pennies())
    assert report.ok and report.simultaneous_nodes == 50
    assert report.check("simultaneous moves").reason == "checked at 50 simultaneous nodes"


@pytest.mark.parametrize(
    ("game", "check", "reason"),
    [
        (
            OwnActionsWrong(), "simultaneous moves",
            "player_actions(state, 0) is ['H', 'T', 'E'], but the joint actions give player 0 "
            "['H', 'T']",
        ),
        (
            NotEveryCombination(), "simultaneous moves",
            "the 3 joint actions are not every combination of the players' actions (4)",
        ),
        (
            FlatJoint(), "simultaneous moves",
            "joint action 'HH' is not a tuple with one action per player",
        ),
        (
            SimultaneousDenied(), "has_simultaneous",
            "has_simultaneous is False but the playouts met 50 SIMULTANEOUS nodes",
        ),
    ],
    ids=lambda v: "" if isinstance(v, str) else type(v).__name__,
)
def test_broken_simultaneous_games_are_caught(game: Any, check: str, reason: str) -> None:
    report = check_game(game)
    assert [c.name for c in report.failures] == [check]
    assert report.check(check).reason.endswith(reason)


def test_a_game_that_leaves_has_simultaneous_out_gets_a_warning() -> None:
    report = check_game(UndeclaredPennies())
    assert report.ok and report.check("has_simultaneous").status == "warn"


def test_evaluate_outside_the_range_fails() -> None:
    class Wild(Race):
        def evaluate(self, state: tuple[int, int], player: int) -> float:
            return 5.0 if not self.is_terminal(state) else self.utility(state, player)

    report = check_game(Wild())
    assert report.check("evaluate").reason.endswith(
        "evaluate 5.0 for player 0 lies outside utility_range (-1.0, 1.0)"
    )


# --- plies check ---------------------------------------------------------------------------


@pytest.fixture
def check_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """``plies check`` with a plain console of a known width."""
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COLUMNS", "120")


def plies_check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from plies.cli import main

    code = main(["check", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.usefixtures("check_command")
def test_plies_check_prints_every_check_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = plies_check(capsys, "tictactoe", "--playouts", "5")
    assert (code, err) == (0, "")
    assert "tictactoe: 5 random playouts (seed 0)" in out
    for name in CHECKS:
        assert name in out
    assert out.rstrip().endswith(f"all {len(CHECKS)} checks passed; 41 states met")


@pytest.mark.usefixtures("check_command")
def test_plies_check_exits_1_when_a_check_fails(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = plies_check(capsys, "tests.test_check:OwnActionsWrong", "--playouts", "3")
    assert code == 1
    assert f"1 of {len(CHECKS)} checks failed" in out and "player_actions(state, 0)" in out


@pytest.mark.usefixtures("check_command")
def test_plies_check_reads_your_game_and_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = plies_check(capsys, "tests.usergames:Trio", "-o", "target=3", "--json")
    data = json.loads(out)
    assert code == 0 and data["ok"] and data["game"] == "trio" and data["playouts"] == 50
    assert [c["name"] for c in data["checks"]] == list(CHECKS)
    code, out, _ = plies_check(capsys, "tests.test_check:UndeclaredPennies", "--json")
    data = json.loads(out)
    assert code == 0 and {c["status"] for c in data["checks"]} == {"pass", "warn"}


@pytest.mark.usefixtures("check_command")
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["chess960"], "unknown game 'chess960'; available games:"),
        (["tests.usergames:Nope"], "module 'tests.usergames' has no attribute 'Nope'"),
        (["nim", "-o", "pile=3"], "unknown option 'pile' for nim"),
        (["nim", "--playouts", "0"], "--playouts must be in 1..100,000, got 0"),
        # a count that sizes the work is bounded before it starts (it ran for years)
        (["nim", "--playouts", "18446744073709551617"],
         "--playouts must be in 1..100,000, got 18446744073709551617"),
        (["nim", "--max-steps", "1" + "0" * 9], "--max-steps must be in 1..100,000"),
        (["x.kif", "-o", "a=1"], "a GDL file takes no options, got 'a'"),
    ],
)
def test_plies_check_user_errors_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = plies_check(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("plies: error: ") and message in err and err.count("\n") == 1


class BoardWithoutPairs(Kayles):
    """Kayles whose board forgets the moves that knock two pins down."""

    def board(self, state: Any, last: Any = None) -> Any:
        return dataclasses.replace(super().board(state, last), from_to=())


class BoardWithStrayMoves(Kayles):
    """Kayles whose board still offers pin 1 after it fell."""

    def board(self, state: Any, last: Any = None) -> Any:
        board = super().board(state, last)
        return dataclasses.replace(board, cell_moves=("1", *board.cell_moves[1:]))


class ForgetfulPositions(Kayles):
    """Kayles whose position text forgets who is to move."""

    def write_position(self, state: Any) -> str:
        return f"{state[0]} A"


def test_a_declared_board_and_position_text_are_checked() -> None:
    report = check_game(Kayles(6), playouts=5)
    assert report.ok
    assert "the legal moves at" in str(report.check("board"))
    assert "read back at" in str(report.check("positions"))
    missing = check_game(BoardWithoutPairs(6), playouts=5).check("board")
    assert missing.status == "fail" and "the board names moves but not ['1-2'" in missing.reason
    stray = check_game(BoardWithStrayMoves(6), playouts=5).check("board")
    assert stray.status == "fail" and "the board names ['1'], not legal" in stray.reason
    forgetful = check_game(ForgetfulPositions(6), playouts=5).check("positions")
    assert forgetful.status == "fail" and "reads back as another position" in forgetful.reason
    plain = check_game(plies.games.load("nim"), playouts=2)
    assert str(plain.check("board")).endswith("no board (render's text instead)")


class NothingToClaim(Kayles):
    """Kayles with an unclaimed hook that has nothing to claim: every state as it is."""

    def unclaimed(self, state: Any) -> Any:
        return state


class ClaimsTheStart(Kayles):
    """Kayles whose unclaimed hook answers with another position: the start."""

    def unclaimed(self, state: Any) -> Any:
        return self.initial_state()


def test_a_declared_unclaimed_hook_is_checked() -> None:
    report = check_game(NothingToClaim(6), playouts=5)
    assert report.ok and str(report.check("claims")).endswith("states")
    assert "checked at" in str(report.check("claims"))
    wrong = check_game(ClaimsTheStart(6), playouts=5).check("claims")
    assert wrong.status == "fail" and "unclaimed(state) is another position" in wrong.reason
    plain = check_game(Kayles(6), playouts=2).check("claims")
    assert plain.status == "pass" and "no unclaimed hook" in plain.reason


class ListCount:
    """Players add 1 or 2 to a running total held in a list; ``result`` mutates it."""

    num_players = 2

    def initial_state(self) -> list[int]:
        return [0, 0]

    def to_move(self, s: list[int]) -> int:
        return s[1]

    def actions(self, s: list[int]) -> list[int]:
        return [1, 2]

    def result(self, s: list[int], a: int) -> list[int]:
        s[0] += a
        s[1] = 1 - s[1]
        return s

    def is_terminal(self, s: list[int]) -> bool:
        return s[0] >= 5

    def utility(self, s: list[int], p: int) -> float:
        return 1.0 if s[1] != p else -1.0


def test_a_check_the_playouts_never_reached_is_not_run_not_passed() -> None:
    report = check_game(ListCount(), playouts=5)  # type: ignore[arg-type]
    hashing = report.check("hashing and keys")
    assert hashing.status == "fail" and "use a tuple, not a list" in hashing.reason
    for name in ("utilities", "playouts"):
        check = report.check(name)
        assert check.status == "skip", check
        assert check.reason.startswith("not run: ")
        assert "a result() that changes the state it is given" in check.reason


def test_a_list_state_whose_result_mutates_it_fails_both_checks() -> None:
    """The student's list state: an unhashable state does not stop the playouts before
    result() is tried, so the mutation that breaks every search is named, not "not run"."""
    report = check_game(ListCount(), playouts=5)  # type: ignore[arg-type]
    pure = report.check("result is pure")
    assert pure.status == "fail" and "result(state, 1) mutated the state" in pure.reason
    assert report.check("initial state").status == "pass"  # said once, by hashing and keys
    for name in ("to_move", "actions", "evaluate", "action text"):
        assert report.check(name).status == "pass", report.check(name)


class ListCopyCount(ListCount):
    """The same game with a pure ``result``: only the unhashable state is wrong."""

    def result(self, s: list[int], a: int) -> list[int]:
        return [s[0] + a, 1 - s[1]]


def test_an_unhashable_state_alone_fails_one_check_and_the_rest_run() -> None:
    report = check_game(ListCopyCount(), playouts=5)  # type: ignore[arg-type]
    assert [c.name for c in report.checks if c.status == "fail"] == ["hashing and keys"]
    assert [c.name for c in report.checks if c.status == "skip"] == []
    assert report.playouts == 5 and report.terminals == 5


class UnhashableKey(ListCopyCount):
    """Hashable tuple states are fine, but this key() gives a list."""

    def initial_state(self) -> Any:
        return (0, 0)

    def result(self, s: Any, a: int) -> Any:
        return (s[0] + a, 1 - s[1])

    def key(self, s: Any) -> Any:
        return list(s)


def test_an_unhashable_key_is_named_as_the_likely_cause() -> None:
    report = check_game(UnhashableKey(), playouts=3)  # type: ignore[arg-type]
    assert "is not hashable" in report.check("hashing and keys").reason
    assert "an unhashable key" in report.check("utilities").reason


@pytest.mark.usefixtures("check_command")
def test_plies_check_does_not_count_a_check_that_never_ran_as_passed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = plies_check(capsys, "nim", "--max-steps", "1", "--playouts", "3")
    assert code == 0
    assert out.rstrip().endswith(f"{len(CHECKS) - 1} of {len(CHECKS)} checks passed, 1 not run; "
                                 "6 states met")
    code, out, _ = plies_check(capsys, "tests.test_check:ListCount", "--playouts", "3")
    assert code == 1 and f"2 of {len(CHECKS)} checks failed, 2 not run;" in out


class Ticking(Game[Any, int]):
    """A hashable state object that ``result`` changes in place."""

    num_players = 2

    class State:
        def __init__(self) -> None:
            self.total = 0

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Ticking.State) and other.total == self.total

        def __hash__(self) -> int:
            return hash(self.total)

        def __deepcopy__(self, memo: Any) -> Ticking.State:
            twin = Ticking.State()
            twin.total = self.total
            return twin

    def initial_state(self) -> Any:
        return Ticking.State()

    def to_move(self, s: Any) -> int:
        return s.total % 2

    def actions(self, s: Any) -> Sequence[int]:
        return [1, 2]

    def result(self, s: Any, a: int) -> Any:
        s.total += a
        return s

    def is_terminal(self, s: Any) -> bool:
        return bool(s.total >= 6)

    def utility(self, s: Any, p: int) -> float:
        return 1.0 if p == 0 else -1.0


def test_a_mutating_result_is_named_as_the_likely_cause() -> None:
    report = check_game(Ticking(), playouts=5)
    assert report.check("result is pure").status == "fail"
    utilities = report.check("utilities")
    assert utilities.status == "skip"
    assert "a result() that changes the state it is given" in utilities.reason


def test_a_search_that_meets_no_actions_names_the_likely_cause() -> None:
    from plies.errors import UnsupportedGameError

    class Stuck(Ticking):
        def actions(self, s: Any) -> Sequence[int]:
            return [] if s.total == 3 else [1, 2]

    with pytest.raises(UnsupportedGameError, match="run plies check"):
        plies.alphabeta(Stuck(), Stuck().initial_state())
