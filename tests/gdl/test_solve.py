"""Solving GDL games exactly (issue 14, part 4): misère Nim against its mathematics.

``tests/data/gdl/nim/nim4.kif`` is the repository's misère Nim (heaps 12, 12, 20 and 20; the
player who takes the last object loses, so the player in control at the end scores 100).
The same rules with other heaps are made here by changing its four ``init`` facts.

Misère Nim theory (Bouton 1901): the player to move loses exactly when some heap is
larger than 1 and the nim-sum (xor) of the heaps is 0, or when every heap is 0 or 1 and
an odd number of them are 1.
"""

from __future__ import annotations

import re
from functools import cache, reduce
from operator import xor
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import plies
from plies.gdl import load_game
from plies.gdl.game import GdlGame
from plies.policy import SearchRequest, plan
from plies.search.craft import TranspositionTable
from plies.search.memo import MemoProgress, MemoSolver
from tests.clirun import plain_pipe as plain_pipe
from tests.clirun import run_json
from tests.gdl.test_gdlgame import reachable

DATA = Path(__file__).resolve().parent.parent / "data" / "gdl" / "nim"
NIM4 = DATA / "nim4.kif"


def misere_nim_text(heaps: tuple[int, int, int, int]) -> str:
    """nim4.kif with the heaps a, b, c, d set to ``heaps`` (each at most 27, its largest
    ``succ``)."""
    text = NIM4.read_text()
    for name, size in zip("abcd", heaps, strict=True):
        text, n = re.subn(rf"\(init \(heap {name} \d+\)\)", f"(init (heap {name} {size}))", text)
        assert n == 1
    return text


@cache
def misere_nim(heaps: tuple[int, int, int, int]) -> GdlGame:
    return load_game(misere_nim_text(heaps), name="nim" + "_".join(map(str, heaps)))


def mover_wins(heaps: tuple[int, ...]) -> bool:
    """Misère Nim's theorem: does the player to move win?"""
    if any(h > 1 for h in heaps):
        return reduce(xor, heaps, 0) != 0
    return sum(heaps) % 2 == 0


def heaps_of(game: GdlGame, state: int) -> tuple[int, ...]:
    found = {f[1]: int(f[2]) for f in game.reasoner.fluents(state) if f[0] == "heap"}
    return tuple(found[h] for h in "abcd")


def reach(game: GdlGame, heaps: tuple[int, ...]) -> int:
    """A state with these heaps, reached from the start by one move per heap that shrinks."""
    state = game.initial_state()
    for name, size in zip("abcd", heaps, strict=True):
        if heaps_of(game, state)["abcd".index(name)] != size:
            state = game.result(state, game.parse_action(state, f"reduce {name} {size}"))
    assert heaps_of(game, state) == heaps
    return state


SMALL = (4, 4, 4, 4)
heap_tuples = st.tuples(*[st.integers(0, n) for n in SMALL])


@settings(max_examples=60, deadline=None)
@given(heap_tuples)
def test_memo_solver_agrees_with_misere_nim_theory(heaps: tuple[int, int, int, int]) -> None:
    game = misere_nim(SMALL)
    state = reach(game, heaps)
    if game.is_terminal(state):  # the player in control, who did not take last, wins
        control = next(f[1] for f in game.reasoner.fluents(state) if f[0] == "control")
        assert game.utility(state, game.roles.index(control)) == 100.0 and mover_wins(heaps)
        return
    mover = game.to_move(state)
    chosen = plan(game, state, SearchRequest(player=mover))
    assert chosen.name == "solver (memo)"
    result = chosen.run(game, state)
    assert result.exact and result.value == (100.0 if mover_wins(heaps) else 0.0)
    # The best move, if the mover wins, leaves a position that loses for the other player.
    after = game.result(state, result.action)
    if result.value == 100.0:
        assert not mover_wins(heaps_of(game, after))


@settings(max_examples=25, deadline=None)
@given(st.tuples(*[st.integers(0, 2) for _ in range(4)]))
def test_memo_solver_equals_plain_minimax_on_small_heaps(
    heaps: tuple[int, int, int, int],
) -> None:
    game = misere_nim((2, 2, 2, 2))
    state = reach(game, heaps)
    if game.is_terminal(state):
        return
    for player in (0, 1):
        memo = MemoSolver(game).solve(state, player=player)
        plain = plies.minimax(game, state, player=player)
        assert (memo.value, memo.action) == (plain.value, plain.action)


def test_misere_nim_6_6_10_10_is_a_second_player_win_over_every_reachable_state() -> None:
    """A mid-size instance: 11,842 reachable states (2 * 7 * 7 * 11 * 11 with whose turn
    it is, less 16 that no line of play reaches), solved in well under a second."""
    game = misere_nim((6, 6, 10, 10))
    assert len(reachable(game)) == 2 * 7 * 7 * 11 * 11 - 16
    state = game.initial_state()
    chosen = plan(game, state, SearchRequest())
    result = chosen.run(game, state)
    assert (result.value, game.format_action(state, result.action)) == (0.0, "(reduce a 0)")
    solver = chosen.solver
    assert isinstance(solver, MemoSolver) and 0 < len(solver) <= len(reachable(game))
    # Every first move loses, and the solver knows each reply that wins.
    values = plan(game, state, SearchRequest(all_values=True)).run(game, state).action_values
    assert values is not None and set(values.values()) == {0.0} and len(values) == 32


def test_solve_of_a_gdl_game_names_the_memo_solver_and_its_statistics(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "nim3355.kif"
    path.write_text(misere_nim_text((3, 3, 5, 5)))
    data = run_json(capsys, "solve", str(path))
    assert (data["algorithm"], data["value"], data["exact"]) == ("solver (memo)", 0.0, True)
    assert data["action"] == "(reduce a 0)" and data["stats"]["nodes"] > 0


def test_engine_and_memo_solver_agree_on_misere_nim() -> None:
    game = misere_nim((3, 4, 5, 6))
    state = game.initial_state()
    memo = plan(game, state, SearchRequest()).run(game, state)
    engine = plan(game, state, SearchRequest(engine=True)).run(game, state)
    assert memo.value == engine.value == (100.0 if mover_wins((3, 4, 5, 6)) else 0.0)
    assert memo.action == engine.action


def test_misere_nim_states_spread_over_transposition_table_slots() -> None:
    """Regression: a GDL state is a bit set with one bit per true fluent, and its
    remainder modulo the table's prime folded misère Nim's states onto few slots (6,6,10,10:
    11,842 states, 9,909 slots), so alpha-beta with a table searched evicted states
    again and again; nim4 (12,12,20,20) was not solved in 15 minutes.  Keys now fill
    as many slots as random numbers would."""
    game = misere_nim((6, 6, 10, 10))
    start = game.initial_state()
    seen, todo = {start}, [start]
    while todo:
        state = todo.pop()
        if not game.is_terminal(state):
            for action in game.actions(state):
                child = game.result(state, action)
                if child not in seen:
                    seen.add(child)
                    todo.append(child)
    table = TranspositionTable()
    slots = {table.slot(game.key(s)) for s in seen}
    expected = table.modulus * (1 - (1 - 1 / table.modulus) ** len(seen))  # random slots
    assert len(slots) >= 0.99 * expected
    assert len({game.key(s) for s in seen}) == len(seen)  # and keys stay distinct


def test_misere_nim_kif_is_nim4_with_heaps_6_6_10_10() -> None:
    """tests/data/gdl/nim/misereNim.kif (the README's example) differs from nim4.kif in its
    four ``init`` facts only (see tests/data/gdl/README.md)."""
    assert (DATA / "misereNim.kif").read_text() == misere_nim_text((6, 6, 10, 10))


def test_plan_passes_progress_reports_to_the_memo_solver() -> None:
    game = misere_nim((6, 6, 10, 10))
    state = game.initial_state()
    reports: list[MemoProgress] = []
    chosen = plan(game, state, SearchRequest())
    assert chosen.kind == "solver"
    result = chosen.run(game, state, on_progress=reports.append)
    assert reports and reports[-1].nodes == result.stats.nodes
    assert reports[-1].states == len(chosen.solver)
