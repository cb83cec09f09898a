"""The UCI engine in-process: one line in, the answers out (no pipe, no python-chess)."""

from __future__ import annotations

import random

import chess
import pytest

from plies.uci import UciEngine, parse_go, think_time
from plies.uci.protocol import HASH_MAX
from plies.uci.strength import ELO_DEFAULT, ELO_MAX, ELO_MIN

STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
BARE_KINGS = "8/8/8/4k3/8/8/8/4K3 w - - 0 1"


class Gui:
    """Feeds lines to a :class:`UciEngine` and keeps what it answers."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.engine = UciEngine(self.out.append)

    def say(self, *lines: str) -> list[str]:
        before = len(self.out)
        for line in lines:
            assert self.engine.handle(line)
        self.engine.wait()
        return self.out[before:]

    def bestmove(self, *lines: str) -> str:
        answers = self.say(*lines)
        best = [a for a in answers if a.startswith("bestmove")]
        assert len(best) == 1, answers
        return best[0].split()[1]


def test_uci_lists_id_and_options_then_uciok() -> None:
    out = Gui().say("uci")
    assert out[0] == "id name plies" and out[1].startswith("id author")
    assert out[2:-1] == [
        f"option name Hash type spin default 16 min 1 max {HASH_MAX}",
        "option name Clear Hash type button",
        "option name Quiescence type spin default 4 min 0 max 16",
        "option name CheckExtensions type check default true",
        "option name SingularExtensions type check default true",
        "option name NullMove type check default true",
        "option name LateMoveReductions type check default true",
        "option name MultiPV type spin default 1 min 1 max 64",
        "option name Move Overhead type spin default 10 min 0 max 5000",
        "option name Ponder type check default false",
        "option name UCI_LimitStrength type check default false",
        f"option name UCI_Elo type spin default {ELO_DEFAULT} min {ELO_MIN} max {ELO_MAX}",
        "option name Backend type combo default auto var auto var numba var python",
    ]
    assert out[-1] == "uciok"


def test_stalemated_side_gets_bestmove_0000() -> None:
    assert Gui().bestmove(f"position fen {STALEMATE}", "go depth 2") == "0000"


def test_a_position_drawn_by_rule_still_gets_a_legal_bestmove() -> None:
    # Insufficient material ends the game for plies, but the mover still has moves.
    move = Gui().bestmove(f"position fen {BARE_KINGS}", "go depth 2")
    assert chess.Move.from_uci(move) in chess.Board(BARE_KINGS).legal_moves


def test_position_with_an_illegal_move_is_an_info_string_and_keeps_the_old_position() -> None:
    gui = Gui()
    gui.say("position startpos moves e2e4")
    out = gui.say("position startpos moves e7e5 e2e4")
    assert len(out) == 1 and out[0].startswith("info string position: move 1, 'e7e5'")
    assert gui.engine.state.board.fen().startswith("rnbqkbnr/pppppppp/8/8/4P3")


def test_a_bad_fen_is_an_info_string() -> None:
    gui = Gui()
    out = gui.say("position fen not/a/fen w - - 0 1")
    assert len(out) == 1 and out[0].startswith("info string position:")
    assert gui.bestmove("go depth 1") in {m.uci() for m in chess.Board().legal_moves}


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("xyzzy", "unknown command 'xyzzy'"),
        ("position", "position needs startpos or fen"),
        ("position middlegame", "expected startpos or fen"),
        ("position moves e2e4", "expected startpos or fen"),
        ("position fen", "expected startpos or fen"),
        ("setoption Hash 8", "setoption needs: setoption name"),
        ("setoption name Hash value lots", "Hash takes a whole number"),
        ("setoption name Hash value 0", "Hash must be 1.."),
        ("setoption name Quiescence value 17", "Quiescence must be 0..16, got 17"),
        ("setoption name Contempt value 10", "unknown option 'Contempt'"),
        ("debug maybe", "debug takes on or off"),
    ],
)
def test_malformed_commands_are_answered_with_an_info_string(line: str, said: str) -> None:
    out = Gui().say(line)
    assert len(out) == 1 and out[0].startswith("info string") and said in out[0], out


def test_go_with_bad_arguments_says_so_and_still_searches() -> None:
    gui = Gui()
    out = gui.say("go depth two nodes -5 wibble movetime 50 depth")
    strings = [a for a in out if a.startswith("info string")]
    assert any("'two' is not a whole number" in s for s in strings)
    assert any("unknown argument 'wibble'" in s for s in strings)
    assert any("go depth needs a number" in s for s in strings)
    assert out[-1].startswith("bestmove ") and out[-1] != "bestmove 0000"


def test_setoption_hash_resizes_the_table_and_ucinewgame_clears_it() -> None:
    gui = Gui()
    gui.say("setoption name Backend value python")  # the generic engine's table
    gui.say("setoption name Hash value 1")
    assert gui.engine.table.size == (1 << 20) // 230
    gui.say("position startpos", "go depth 2")
    assert len(gui.engine.table) > 0
    gui.say("ucinewgame")
    assert len(gui.engine.table) == 0


def test_setoption_quiescence_sets_the_depth_past_the_limit() -> None:
    gui = Gui()
    gui.say("setoption name Quiescence value 0")
    assert gui.engine.quiescence == 0
    assert gui.bestmove("go depth 1") in {m.uci() for m in chess.Board().legal_moves}


def test_garbage_lines_never_kill_the_engine() -> None:
    rng = random.Random(12)
    words = ["uci", "go", "position", "fen", "startpos", "moves", "e2e4", "depth", "-1", "",
             "setoption", "name", "value", "Hash", "stop", "isready", "nodes", "movetime",
             "\x00", "é", "99999999999999999999", "wtime", "infinite", "debug", "on", "8/8",
             "ponderhit", "MultiPV", "Clear", "UCI_Elo", "UCI_LimitStrength", "true", "3"]
    gui = Gui()
    for _ in range(300):
        line = " ".join(rng.choice(words) for _ in range(rng.randint(0, 6)))
        if line.split()[:1] == ["go"]:
            line = "go depth 1"  # keep the fuzz fast; go's own arguments are fuzzed above
        if line.split()[:1] != ["quit"]:
            gui.engine.handle(line)
            gui.engine.handle("stop")
    assert not any("internal error" in line for line in gui.out), [
        line for line in gui.out if "internal error" in line
    ]
    assert gui.say("isready") == ["readyok"]
    gui.say("position startpos")
    assert gui.bestmove("go depth 1") in {m.uci() for m in chess.Board().legal_moves}


def test_quit_is_the_only_line_that_ends_the_loop() -> None:
    gui = Gui()
    assert gui.engine.handle("quit") is False


def test_the_time_manager_shares_the_clock_and_keeps_a_margin() -> None:
    go = parse_go(["wtime", "30000", "btime", "1000", "winc", "0", "binc", "0"])
    assert think_time(go, white=True) == pytest.approx(1.0)
    assert think_time(go, white=False) == pytest.approx(1.0 / 30)
    last = parse_go(["wtime", "100", "btime", "100", "movestogo", "1"])
    assert think_time(last, white=True) == pytest.approx(0.05)  # all but the margin
    assert think_time(parse_go(["movetime", "1000"]), white=True) == pytest.approx(0.948)
    assert think_time(parse_go(["depth", "3"]), white=True) is None
    assert think_time(parse_go(["btime", "3000"]), white=True) == pytest.approx(0.1)


def test_a_node_budget_counts_the_quiescence_nodes() -> None:
    """Regression: quiescence ran outside the search (a full-window search per leaf), so
    neither ``go nodes`` nor ``stop`` reached it (up to 18 ms late after stop)."""
    gui = Gui()
    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    gui.say("setoption name Quiescence value 16")
    out = gui.say(f"position fen {kiwipete}", "go depth 3 nodes 2000")
    infos = [line.split() for line in out if line.startswith("info depth")]
    assert all(int(words[words.index("nodes") + 1]) <= 2000 for words in infos)
    assert out[-1].startswith("bestmove ")


def test_info_lines_carry_seldepth_past_the_depth() -> None:
    out = Gui().say("position startpos moves e2e4 d7d5", "go depth 3")
    infos = [line.split() for line in out if line.startswith("info depth")]
    last = infos[-1]
    depth, seldepth = int(last[last.index("depth") + 1]), int(last[last.index("seldepth") + 1])
    assert seldepth > depth == 3  # the exchange on d5 is searched past the horizon


@pytest.mark.parametrize("name", ["CheckExtensions", "SingularExtensions", "NullMove",
                                  "LateMoveReductions"])
def test_each_selective_switch_is_a_check_option(name: str) -> None:
    gui = Gui()
    assert f"option name {name} type check default true" in gui.say("uci")
    gui.say(f"setoption name {name} value false")
    assert gui.engine.values[name] is False
    switch = {"CheckExtensions": "extensions", "SingularExtensions": "singular",
              "NullMove": "null_move", "LateMoveReductions": "reductions"}[name]
    assert switch not in gui.engine.craft()
    assert gui.say(f"setoption name {name} value maybe") == [
        f"info string {name} takes true or false, got 'maybe'"
    ]
    gui.say(f"setoption name {name} value true")
    assert switch in gui.engine.craft()


def test_a_closed_output_ends_the_session_quietly() -> None:
    """Regression: ``plies uci`` with its output closed died of a BrokenPipeError
    traceback (the error of the answer was caught, and the error report hit it again)."""
    said: list[str] = []

    def send(line: str) -> None:
        said.append(line)
        raise BrokenPipeError(32, "Broken pipe")

    engine = UciEngine(send)
    assert engine.handle("uci") is False  # the GUI is gone: stop reading
    assert said == ["id name plies"]  # nothing more was tried after the first failure
    assert engine.handle("isready") is False
    engine.handle("go depth 1")
    assert said == ["id name plies"]


def test_a_second_search_of_a_position_with_the_kept_table_reaches_its_depth() -> None:
    """Regression: values read from the kept table made a pass look exact (no evaluation
    in it), so a second ``go depth 4`` of the same position stopped at depth 2 and the
    MultiPV lines after the first stopped early."""
    gui = Gui()
    gui.say("position startpos moves e2e4 e7e5 g1f3 b8c6")
    for _ in range(2):
        out = gui.say("go depth 4")
        assert [line.split()[2] for line in out if line.startswith("info depth")] == [
            "1", "2", "3", "4"
        ]
    gui.say("setoption name MultiPV value 2")
    out = gui.say("go depth 4")
    assert [line.split()[2] for line in out if line.startswith("info depth")] == [
        "1", "1", "2", "2", "3", "3", "4", "4"
    ]
