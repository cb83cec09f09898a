"""The ``Backend`` option: ``plies uci`` on chess's compiled engine (Numba) or the generic
one, the same protocol on both (the compiled engine's values and moves are checked
against plain alpha-beta in ``tests/games/test_chess_kernel.py``)."""

from __future__ import annotations

import pytest

from tests.uci.test_engine import BACK_RANK, MATE_IN_1
from tests.uci.test_protocol import Gui


def compiled_gui() -> Gui:
    gui = Gui()
    assert gui.say("setoption name Backend value numba", "isready") == ["readyok"]
    return gui


def test_an_unknown_backend_is_one_info_line_and_the_engine_keeps_its_own() -> None:
    gui = Gui()
    assert gui.say("setoption name Backend value fast") == [
        "info string Backend takes one of auto, numba, python, got 'fast'"
    ]
    assert gui.engine.values["Backend"] == "auto"
    assert gui.bestmove("position fen " + MATE_IN_1, "go depth 2") == "f3f7"


@pytest.mark.parametrize("backend", ["numba", "python"])
def test_both_backends_mate_in_one_and_report_it(backend: str) -> None:
    gui = Gui()
    gui.say(f"setoption name Backend value {backend}", "position fen " + MATE_IN_1)
    out = gui.say("go depth 3")
    assert out[-1].split()[:2] == ["bestmove", "f3f7"]
    assert any("score mate 1" in line for line in out if line.startswith("info depth"))


def test_the_compiled_engine_searches_a_claimable_draw_and_mates() -> None:
    gui = compiled_gui()
    fen = BACK_RANK.format(clock=100, move=80)
    assert gui.bestmove("position fen " + fen, "go movetime 300") == "a1a8"


def test_searchmoves_keeps_to_its_moves_on_the_compiled_backend() -> None:
    gui = compiled_gui()
    assert gui.bestmove("position fen " + MATE_IN_1, "go depth 3 searchmoves a2a3 h2h3") in (
        "a2a3", "h2h3"
    )


def test_clear_hash_and_ucinewgame_clear_the_compiled_table() -> None:
    gui = compiled_gui()
    compiled = gui.engine._compiled()
    assert compiled is not None and compiled.backend == "numba"
    gui.say("position startpos", "go depth 4")
    assert compiled.tt.any()
    gui.say("setoption name Clear Hash")
    assert not compiled.tt.any()
    gui.say("go depth 4")
    assert compiled.tt.any()
    gui.say("ucinewgame", "isready")
    assert not compiled.tt.any()


def test_both_backends_keep_a_node_budget() -> None:
    """``go nodes N``: no iteration reports more than N nodes, on either engine."""
    for backend in ("numba", "python"):
        gui = Gui()
        gui.say(f"setoption name Backend value {backend}", "position startpos")
        out = gui.say("go nodes 20000")
        nodes = [int(line.split()[line.split().index("nodes") + 1])
                 for line in out if line.startswith("info depth")]
        assert nodes and max(nodes) <= 20000, (backend, out)
        assert out[-1].startswith("bestmove")


def test_hash_sizes_the_compiled_table_and_hashfull_reads_it() -> None:
    """``Hash`` sizes the compiled engine's table too (the most 32-byte slots that fit),
    before and after the engine is made, and ``hashfull`` reports that table's use."""
    gui = Gui()
    gui.say("setoption name Hash value 1")  # before the compiled engine exists
    gui.say("setoption name Backend value numba", "isready")
    compiled = gui.engine._compiled()
    assert len(compiled.tt) == (1 << 20) // 32
    out = gui.say("position startpos", "go depth 6")
    full = [int(line.split()[line.split().index("hashfull") + 1])
            for line in out if line.startswith("info depth")]
    assert full[-1] == compiled.hashfull() > 0  # the generic table stayed empty
    assert len(gui.engine.table) == 0
    gui.say("setoption name Hash value 3")
    assert len(compiled.tt) == (1 << 21) // 32 and not compiled.tt.any()
