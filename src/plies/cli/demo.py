"""``plies demo``, the main job of ``make run``: a non-interactive tour of the engine at work.

Part of the command-line front end: it prints Rich tables of searches it really runs, on
this machine, now.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from plies import games
from plies.game import format_action, hook, play
from plies.game.text import pv_text
from plies.policy import position
from plies.search import (
    Limit,
    SearchResult,
    alphabeta,
    analyze,
    bounded_minimax,
    expectiminimax,
    maxn,
    minimax,
)


def _pv(game: Any, state: Any, pv: tuple[Any, ...]) -> str:
    return " ".join(pv_text(game, state, pv)) or "-"


def _fmt(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:+.4f}"


def _timed(search: Callable[[], SearchResult]) -> tuple[SearchResult, float]:
    start = time.perf_counter()
    result = search()
    return result, time.perf_counter() - start


def solve_tictactoe(console: Console) -> None:
    game = games.load("tictactoe")
    root = game.initial_state()
    table = Table(title="Tic-tac-toe from the empty board, solved exactly")
    for column in ("algorithm", "value", "best move", "nodes", "cutoffs", "time", "nodes/s"):
        table.add_column(column, justify="left" if column == "algorithm" else "right")
    runs: list[tuple[str, Callable[[], SearchResult]]] = [
        ("minimax", lambda: minimax(game, root)),
        ("bounded minimax", lambda: bounded_minimax(game, root)),
        ("alpha-beta", lambda: alphabeta(game, root)),
    ]
    for name, search in runs:
        r, seconds = _timed(search)
        table.add_row(
            name, _fmt(r.value), format_action(game, root, r.action), f"{r.stats.nodes:,}",
            f"{r.stats.cutoffs:,}", f"{seconds:.2f}s", f"{r.stats.nodes / seconds:,.0f}",
        )
    console.print(table)
    console.print("Value 0: with best play on both sides tic-tac-toe is a draw.\n")


def analyze_position(console: Console) -> None:
    game = games.load("tictactoe")
    state = game.initial_state()
    for move in ("1", "2"):
        state = play(game, state, move)
    console.print("After X takes 1 and O takes 2, X to move:")
    console.print(game.render(state))
    r = analyze(game, state)
    assert r.action_values is not None
    table = Table(title="Value of every move for X (exact, alpha-beta)")
    table.add_column("move")
    table.add_column("value", justify="right")
    table.add_column("verdict")
    verdict = {1.0: "X wins", 0.0: "draw", -1.0: "X loses"}
    for action, value in r.action_values.items():
        table.add_row(format_action(game, state, action), _fmt(value), verdict[value])
    console.print(table)
    console.print(
        f"Best move {format_action(game, state, r.action)}; principal variation "
        f"{_pv(game, state, r.pv)}; {r.stats.nodes:,} nodes in {r.stats.elapsed:.3f}s.\n"
    )


def lecture_tree(console: Console) -> None:
    game = games.load("aima-5-2")
    root = game.initial_state()
    table = Table(title="The two-ply tree of AIMA figure 5.2: MAX over (3 12 8) (2 4 6) (14 5 2)")
    for column in ("algorithm", "value", "move", "nodes", "cutoffs"):
        table.add_column(column)
    for name, search in (("minimax", minimax), ("alpha-beta", alphabeta)):
        r = search(game, root)
        table.add_row(
            name, _fmt(r.value), format_action(game, root, r.action), str(r.stats.nodes),
            str(r.stats.cutoffs),
        )
    console.print(table)
    console.print("Alpha-beta never looks at 4 and 6 under C: after 2, C is worth at most 2 < 3.\n")


def more_games(console: Console) -> None:
    table = Table(title="Other games, other members of the family")
    for column in ("game", "search", "value", "best move", "nodes", "time"):
        table.add_column(column)

    nim = games.load("nim")
    r, s = _timed(lambda: alphabeta(nim, nim.initial_state()))
    table.add_row(
        "nim 3,4,5", "alpha-beta", _fmt(r.value), format_action(nim, nim.initial_state(), r.action),
        f"{r.stats.nodes:,}", f"{s:.2f}s",
    )
    misere = games.load("nim", misere=True)
    r, s = _timed(lambda: alphabeta(misere, misere.initial_state()))
    table.add_row(
        "nim 3,4,5 misère", "alpha-beta", _fmt(r.value),
        format_action(misere, misere.initial_state(), r.action), f"{r.stats.nodes:,}", f"{s:.2f}s",
    )
    ttt = games.load("tictactoe")
    r, s = _timed(lambda: bounded_minimax(ttt, ttt.initial_state(), threshold=1))
    table.add_row(
        "tic-tac-toe", "satisficing >= 1 (a win?)", f"{_fmt(r.value)} (no)",
        format_action(ttt, ttt.initial_state(), r.action), f"{r.stats.nodes:,}", f"{s:.2f}s",
    )
    pig = games.load("pig")
    r, s = _timed(lambda: expectiminimax(pig, pig.initial_state()))
    table.add_row(
        "pig (dice)", "expectiminimax", _fmt(r.value),
        format_action(pig, pig.initial_state(), r.action), f"{r.stats.nodes:,}", f"{s:.2f}s",
    )
    civ = games.load("civ")
    one_round = Limit(depth=1, unit="round")
    searches: list[tuple[str, Callable[..., SearchResult]]] = [
        ("paranoid alpha-beta", alphabeta), ("max^n", maxn),
    ]
    for name, search in searches:
        start = time.perf_counter()
        r = search(civ, civ.initial_state(), one_round)
        s = time.perf_counter() - start
        table.add_row(
            "civ: 3 players x 3 moves", f"{name}, 1 round", _fmt(r.value),
            _pv(civ, civ.initial_state(), r.pv[:3]), f"{r.stats.nodes:,}", f"{s:.2f}s",
        )
    console.print(table)
    console.print(
        "Pig's value is the first player's expected utility (+1 win, -1 loss) with a turn "
        "cap;\ncivilisation values are heuristic after one round, where every player has "
        "made its 3 moves.\n"
    )


def engine_craft(console: Console) -> None:
    table = Table(title="Engine craft: the same values, fewer nodes")
    for column in ("position", "search", "value", "best move", "nodes", "time"):
        table.add_column(column)
    craft = {"tt": True, "ordering": True, "pvs": True}
    ttt = games.load("tictactoe")
    c4 = games.load("connect4")
    opening, _ = position(c4, "4453")
    solved = games.load("connect4", scoring="pons")
    endgame, _ = position(solved, "52753311433677442422121")  # Test_L2_R1, score 8
    runs: list[tuple[str, Any, Any, Limit | None, dict[str, Any]]] = [
        ("tic-tac-toe, empty", ttt, ttt.initial_state(), None, {}),
        ("tic-tac-toe, empty", ttt, ttt.initial_state(), None, craft),
        ("connect4 after 4453, depth 7", c4, opening, Limit(depth=7), {}),
        ("connect4 after 4453, depth 7", c4, opening, Limit(depth=7), craft),
        ("connect4 Test_L2_R1 #1, exact", solved, endgame, None, craft),
        ("connect4 Test_L2_R1 #1, exact", solved, endgame, None, {**craft, "bisection": True}),
    ]
    for label, game, state, limit, switches in runs:
        start = time.perf_counter()
        r = alphabeta(game, state, limit, **switches)
        seconds = time.perf_counter() - start
        table.add_row(
            label,
            "alpha-beta" + (" + table, ordering, PVS" if switches else "")
            + (", bisection" if switches.get("bisection") else ""),
            _fmt(r.value), format_action(game, state, r.action), f"{r.stats.nodes:,}",
            f"{seconds:.2f}s",
        )
    # The dedicated Connect Four solver (Numba when installed) on a harder opening.
    middle, _ = position(solved, "335662333565")  # Test_L1_R2, score -2
    exact = hook(solved, "solver")  # the game's exact solver
    assert exact is not None
    solver = exact()
    r = solver.solve(middle)
    table.add_row(
        "connect4 Test_L1_R2 #2, exact", f"dedicated solver ({solver.backend})", _fmt(r.value),
        format_action(solved, middle, r.action), f"{r.stats.nodes:,}", f"{r.stats.elapsed:.2f}s",
    )
    console.print(table)
    console.print("The Test_L2_R1 rows are the exact score of the shared benchmark position "
                  "(8); the last row's is -2, by the dedicated solver of 'plies solve connect4'."
                  "\n")


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``demo`` sub-command to the ``plies`` argument parser."""
    sub.add_parser("demo", help="a non-interactive tour of the engine at work")


def run(console: Console | None = None, args: argparse.Namespace | None = None) -> int:
    """Print the tour; returns the exit code (0)."""
    console = console or Console(highlight=False)
    console.rule("plies: adversarial search at work")
    solve_tictactoe(console)
    analyze_position(console)
    lecture_tree(console)
    more_games(console)
    engine_craft(console)
    console.print("Next: 'plies games', 'plies solve tictactoe', 'plies trace civ --depth 1 "
                  "--unit round', 'plies play tictactoe'.")
    return 0


if __name__ == "__main__":
    run()
