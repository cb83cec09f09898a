"""A search loads what it needs before its clock starts: an import is not search time."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import plies
from plies.games import load
from plies.search.common import search_with
from plies.search.minimax import MinimaxSearcher


def test_prepare_runs_once_before_the_clock_and_the_first_pass() -> None:
    seen: list[str] = []

    class Recording(MinimaxSearcher):
        def prepare(self) -> None:
            seen.append("prepare")

        def search_root(self, state: Any, **kw: Any) -> Any:
            seen.append("root")
            return super().search_root(state, **kw)

    game = load("nim")
    search_with(Recording, game, game.initial_state(), plies.Limit(depth=3), None, "first", None,
                None, deepen=True)
    assert seen[0] == "prepare" and seen.count("prepare") == 1 and "root" in seen


def test_the_first_simultaneous_solve_imports_scipy_before_its_clock() -> None:
    code = (
        "import sys, time, plies\n"
        "from plies.search.simultaneous import SimultaneousSearcher\n"
        "g = plies.games.load('rps')\n"
        "ticks = []\n"
        "real = SimultaneousSearcher.prepare\n"
        "def prepare(self):\n"
        "    real(self)\n"
        "    ticks.append('scipy.optimize' in sys.modules)\n"
        "SimultaneousSearcher.prepare = prepare\n"
        "plies.simultaneous(g, g.initial_state(), player=0)\n"
        "print(ticks)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120)
    assert out.stdout.strip() == "[True]"
