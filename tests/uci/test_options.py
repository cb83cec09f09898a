"""Every option and ``go`` argument of ``plies uci``, driven through python-chess as a GUI
drives them (and, where the protocol's order matters, line by line in process)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import chess
import chess.engine
import pytest

from plies.search.limits import CHECK_MOST
from plies.uci import UciEngine, parse_go, think_time
from plies.uci.strength import ELO_MIN, strength
from tests.uci.test_engine import COMMAND, MATE_IN_1, MORPHY, environment
from tests.uci.test_protocol import Gui

QxF7 = chess.Move.from_uci("f3f7")


@pytest.fixture(scope="module")
def engine() -> Iterator[chess.engine.SimpleEngine]:
    with chess.engine.SimpleEngine.popen_uci(COMMAND, env=environment(), timeout=30) as eng:
        yield eng


def wait_for(condition: object, seconds: float = 60) -> None:
    """Wait until ``condition()`` holds (a hang check, not a speed claim)."""
    end = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < end, "the condition never came"
        time.sleep(0.005)


# --- MultiPV --------------------------------------------------------------------------------


def test_multipv_gives_that_many_best_lines_in_order(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board(MATE_IN_1)
    infos = engine.analyse(board, chess.engine.Limit(depth=2), multipv=3)
    assert [info["multipv"] for info in infos] == [1, 2, 3]
    assert all(info["depth"] == 2 for info in infos)
    firsts = [info["pv"][0] for info in infos]
    assert len(set(firsts)) == 3 and all(move in board.legal_moves for move in firsts)
    assert firsts[0] == QxF7 and infos[0]["score"].relative == chess.engine.Mate(1)
    scores = [info["score"].relative for info in infos]
    assert scores == sorted(scores, reverse=True)


def test_multipv_lines_carry_the_values_of_their_moves() -> None:
    """Each line's value is the value of its first move searched alone (searchmoves)."""
    gui = Gui()
    gui.say("setoption name MultiPV value 3", "position startpos moves e2e4 e7e5")
    out = gui.say("go depth 2")
    last = [line.split() for line in out if line.startswith("info depth 2")]
    assert [words[words.index("multipv") + 1] for words in last] == ["1", "2", "3"]
    for words in last:
        move, score = words[words.index("pv") + 1], words[words.index("cp") + 1]
        alone = Gui()
        alone.say("position startpos moves e2e4 e7e5")
        single = [line.split() for line in alone.say(f"go depth 2 searchmoves {move}")
                  if line.startswith("info depth 2")][-1]
        assert single[single.index("cp") + 1] == score, (move, single)
    assert out[-1].split()[1] == last[0][last[0].index("pv") + 1]


def test_multipv_above_the_number_of_moves_gives_every_move() -> None:
    gui = Gui()
    gui.say("setoption name MultiPV value 64", "position fen 7k/8/8/8/8/8/P7/K7 w - - 0 1")
    out = gui.say("go depth 1")
    assert len([line for line in out if line.startswith("info depth 1")]) == 4  # Kb1 Kb2 a3 a4


# --- go searchmoves -------------------------------------------------------------------------


def test_searchmoves_restricts_the_root(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board(MATE_IN_1)
    allowed = [chess.Move.from_uci("c4b5"), chess.Move.from_uci("a2a3")]
    info = engine.analyse(board, chess.engine.Limit(depth=2), root_moves=allowed)
    assert info["pv"][0] in allowed
    played = engine.play(board, chess.engine.Limit(depth=2), root_moves=allowed)
    assert played.move in allowed
    infos = engine.analyse(board, chess.engine.Limit(depth=1), root_moves=allowed, multipv=3)
    assert {info["pv"][0] for info in infos} == set(allowed)  # two lines: two moves


def test_searchmoves_that_are_not_legal_are_said_and_ignored() -> None:
    gui = Gui()
    gui.say(f"position fen {MATE_IN_1}")
    out = gui.say("go depth 1 searchmoves e2e5 a2a3")
    assert "info string go searchmoves: 'e2e5' is not a legal move here; ignored" in out
    assert out[-1].split()[1] == "a2a3"
    out = gui.say("go depth 1 searchmoves h1h8")
    assert any("no legal move named; searching every move" in line for line in out)
    assert out[-1].split()[1] == "f3f7"


# --- go mate --------------------------------------------------------------------------------


def test_go_mate_finds_the_mate_in_two_and_stops(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board(MORPHY)
    info = engine.analyse(board, chess.engine.Limit(mate=2))
    assert info["score"].relative == chess.engine.Mate(2)
    assert info["depth"] <= 3  # 2 moves are 3 plies: no deeper iteration
    played = engine.play(board, chess.engine.Limit(mate=2))
    assert played.move == chess.Move.from_uci("b3b8")


def test_go_mate_searches_without_null_moves_and_reductions() -> None:
    gui = Gui()
    assert {"null_move", "reductions"} <= set(gui.engine.craft())
    craft = gui.engine.craft(parse_go(["mate", "3"]))
    assert "null_move" not in craft and "reductions" not in craft and "quiescence" in craft


def test_go_mate_without_a_mate_still_plays_the_best_move_it_found() -> None:
    gui = Gui()
    out = gui.say("position startpos", "go mate 1")
    assert [line.split()[2] for line in out if line.startswith("info depth")] == ["1"]
    assert chess.Move.from_uci(out[-1].split()[1]) in chess.Board().legal_moves


# --- Clear Hash -----------------------------------------------------------------------------


def test_clear_hash_empties_the_table_and_keeps_its_size(
    engine: chess.engine.SimpleEngine,
) -> None:
    gui = Gui()
    gui.say("setoption name Backend value python")  # the generic engine's table
    size = gui.engine.table.size
    gui.say("position startpos", "go depth 3")
    assert len(gui.engine.table) > 0
    assert gui.say("setoption name Clear Hash") == []
    assert len(gui.engine.table) == 0 and gui.engine.table.size == size
    assert gui.say("setoption name Clear Hash value 1") == [
        "info string Clear Hash is a button: it takes no value, got '1'"
    ]
    engine.configure({"Clear Hash": None})  # python-chess presses a button with None
    info = engine.analyse(chess.Board(), chess.engine.Limit(depth=1))
    assert info["hashfull"] == 0


# --- Move Overhead --------------------------------------------------------------------------


def test_move_overhead_is_taken_from_every_move_planned() -> None:
    go = parse_go(["movetime", "1000"])
    assert think_time(go, white=True, overhead=0.3) == pytest.approx(0.648)
    clock = parse_go(["wtime", "30000", "btime", "30000"])
    assert think_time(clock, white=True, overhead=0.1) == pytest.approx(0.9)
    assert think_time(clock, white=True, overhead=5.0) == pytest.approx(0.005)  # SHORTEST
    gui = Gui()
    gui.say("debug on", "setoption name Move Overhead value 300")
    assert "info string time planned: 0.648 s" in gui.say("go movetime 1000 depth 1")
    gui.say("setoption name Move Overhead value 0")
    assert "info string time planned: 0.948 s" in gui.say("go movetime 1000 depth 1")
    assert gui.say("setoption name Move Overhead value -1") == [
        "info string Move Overhead must be 0..5000, got -1"
    ]


# --- ponder and ponderhit -------------------------------------------------------------------


def test_go_ponder_waits_for_ponderhit_and_only_then_runs_the_clock() -> None:
    """Pondering ignores the clock (5 ms here, which would end the search at depth 1 or
    2); ``ponderhit`` starts it, and the ``bestmove`` follows."""
    gui = Gui()
    gui.say("position startpos moves e2e4 e7e5")
    assert gui.engine.handle("go ponder movetime 1")
    wait_for(lambda: any(line.startswith("info depth 4") for line in gui.out))
    assert not any(line.startswith("bestmove") for line in gui.out) and gui.engine.searching
    gui.engine.handle("ponderhit")
    gui.engine.wait()
    assert len([line for line in gui.out if line.startswith("bestmove")]) == 1


def test_go_ponder_then_stop_answers_with_a_bestmove() -> None:
    gui = Gui()
    gui.say("position startpos")
    gui.engine.handle("go ponder wtime 1000 btime 1000")
    wait_for(lambda: any(line.startswith("info depth 1") for line in gui.out))
    out = gui.say("stop")
    assert len([line for line in out if line.startswith("bestmove")]) == 1


def test_a_search_that_ends_while_pondering_answers_at_ponderhit() -> None:
    gui = Gui()
    gui.say(f"position fen {MATE_IN_1}")
    gui.engine.handle("go ponder depth 1")
    wait_for(lambda: any(line.startswith("info depth 1") for line in gui.out))
    time_to_answer = [line for line in gui.out if line.startswith("bestmove")]
    assert time_to_answer == [] and gui.engine.searching  # done, but the GUI has not asked
    assert gui.say("ponderhit")[-1].startswith("bestmove f3f7")


def test_ponderhit_without_ponder_is_an_info_string() -> None:
    assert Gui().say("ponderhit") == ["info string ponderhit without a go ponder running; ignored"]


def test_python_chess_ponders_and_sends_ponderhit(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    game = object()
    first = engine.play(board, chess.engine.Limit(time=0.1), ponder=True, game=game)
    assert first.move in board.legal_moves and first.ponder is not None
    board.push(first.move)
    assert first.ponder in board.legal_moves
    board.push(first.ponder)  # the expected reply came: python-chess says ponderhit
    second = engine.play(board, chess.engine.Limit(time=0.1), ponder=True, game=game)
    assert second.move in board.legal_moves
    board.push(second.move)
    third = engine.play(board, chess.engine.Limit(time=0.1), game=game)  # stops the ponder
    assert third.move in board.legal_moves


# --- UCI_LimitStrength and UCI_Elo ---------------------------------------------------------


def test_a_weakened_engine_keeps_its_node_budget_and_still_mates() -> None:
    gui = Gui()
    gui.say("setoption name UCI_LimitStrength value true",
            f"setoption name UCI_Elo value {ELO_MIN}")
    out = gui.say("position startpos moves e2e4", "go movetime 5000")
    nodes = [int(w[w.index("nodes") + 1]) for w in (line.split() for line in out)
             if w[:2] == ["info", "depth"]]
    budget = strength(ELO_MIN).nodes
    assert nodes and max(nodes) <= budget + CHECK_MOST  # the level's, and one look more
    assert chess.Move.from_uci(out[-1].split()[1]) in chess.Board(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").legal_moves
    assert gui.bestmove(f"position fen {MATE_IN_1}", "go movetime 5000") == "f3f7"


def test_a_weakened_engine_plays_other_moves_than_the_full_one() -> None:
    fens = [chess.Board().fen()]
    board = chess.Board()
    for move in ["e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6"]:
        board.push_uci(move)
        fens.append(board.fen())
    played: dict[str, list[str]] = {"full": [], "weak": []}
    for name, elo in (("full", None), ("weak", ELO_MIN)):
        lines: list[str] = []
        uci = UciEngine(lines.append, seed=5)
        if elo is not None:
            uci.handle("setoption name UCI_LimitStrength value true")
            uci.handle(f"setoption name UCI_Elo value {elo}")
        for fen in fens:
            uci.handle(f"position fen {fen}")
            uci.handle("go nodes 300")
            uci.wait()
            played[name].append(lines[-1].split()[1])
    assert played["full"] != played["weak"]


def test_the_strength_options_are_refused_out_of_bounds(engine: chess.engine.SimpleEngine) -> None:
    gui = Gui()
    assert gui.say("setoption name UCI_Elo value 99") == [
        f"info string UCI_Elo must be {engine.options['UCI_Elo'].min}.."
        f"{engine.options['UCI_Elo'].max}, got 99"
    ]
    engine.configure({"UCI_LimitStrength": True, "UCI_Elo": engine.options["UCI_Elo"].min})
    played = engine.play(chess.Board(), chess.engine.Limit(time=0.2))
    assert played.move in chess.Board().legal_moves
    engine.configure({"UCI_LimitStrength": False})


def test_every_option_in_the_uci_reply_is_accepted_by_python_chess(
    engine: chess.engine.SimpleEngine,
) -> None:
    settings = {"Hash": 4, "Quiescence": 2, "CheckExtensions": False, "NullMove": False,
                "Move Overhead": 20, "UCI_LimitStrength": False, "UCI_Elo": 1500}
    assert set(engine.options) >= set(settings) | {"Clear Hash", "MultiPV", "Ponder"}
    engine.configure(settings)
    info = engine.analyse(chess.Board(MATE_IN_1), chess.engine.Limit(depth=2))
    assert "string" not in info  # no complaint
    assert info["pv"][0] == QxF7
    engine.configure({"Hash": 16, "Quiescence": 4, "CheckExtensions": True, "NullMove": True,
                      "Move Overhead": 10})
