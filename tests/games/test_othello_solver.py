"""The compiled Othello endgame solver against the plain one, and the FFO positions #40-#49.

The Python solver (``backend="python"``) is the oracle: it is itself checked against
plain alpha-beta and minimax in ``test_othello.py``.  The compiled kernel must give the
same scores, the same best actions and principal variations, null-window results on the
right side of every window, and the published values of the FFO endgame test suite.
"""

from __future__ import annotations

import random
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import plies.compiled
from plies.errors import OptionError, SearchLimitError
from plies.games.othello import Othello, OthelloState, flips, legal_moves, stable_discs
from plies.games.othello.positions import read_position
from plies.games.othello.solver import AUTO_COMPILED, OthelloSolver
from tests.data import OTHELLO_DATA

GAME = Othello()
FFO = OTHELLO_DATA / "fforum-40-49.obf"


@pytest.fixture(scope="module")
def compiled() -> OthelloSolver:
    """One compiled solver for the module (one compile, a small table kept throughout)."""
    return OthelloSolver(GAME, backend="numba", slots=1 << 18)


def endgame(empties: int, rng: random.Random) -> OthelloState:
    while True:
        state = GAME.initial_state()
        while not state.over and 64 - (state.mover | state.other).bit_count() > empties:
            state = GAME.result(state, rng.choice(GAME.actions(state)))
        if not state.over:
            return state


def ffo() -> list[tuple[int, OthelloState, dict[str, int]]]:
    """``(number, position, {move: published value})`` for FFO #40-#49."""
    out = []
    for number, line in enumerate(FFO.read_text().splitlines(), start=40):
        board, values = line.split(";", 1)
        parsed = read_position(board)
        assert parsed is not None
        moves = dict(item.strip().split(":") for item in values.split(";") if item.strip())
        out.append((number, parsed.state, {m.lower(): int(v) for m, v in moves.items()}))
    return out


# --- the bit tricks ------------------------------------------------------------------------

boards = st.lists(st.sampled_from((0, 1, 2)), min_size=64, max_size=64)


@settings(max_examples=200, deadline=None)
@given(boards)
def test_the_kernels_bit_tricks_match_the_bitboard_module(cells: list[int]) -> None:
    np = pytest.importorskip("numpy")
    from plies.games.othello import kernel

    mine = sum(1 << i for i, v in enumerate(cells) if v == 1)
    theirs = sum(1 << i for i, v in enumerate(cells) if v == 2)
    m, t = np.uint64(mine), np.uint64(theirs)
    expected = legal_moves(mine, theirs)
    assert int(kernel.legal(m, t)) == expected
    for sq in range(64):
        if expected >> sq & 1:
            assert int(kernel.flips(m, t, np.uint64(1 << sq))) == flips(mine, theirs, sq)
            assert kernel.square_of(np.uint64(1 << sq)) == sq
    assert int(kernel.stable(m, m | t)) == stable_discs(mine, mine | theirs)
    assert kernel.popcount(m) == mine.bit_count()


# --- the compiled search against the Python one -------------------------------------------


@settings(max_examples=20, deadline=None)
@given(st.integers(8, 14), st.integers(0, 2**32 - 1))
def test_the_compiled_solver_gives_the_python_solvers_values(
    compiled: OthelloSolver, empties: int, seed: int
) -> None:
    state = endgame(empties, random.Random(seed))
    plain = OthelloSolver(GAME, backend="python")
    exact = plain.score(state)
    assert compiled.score(state) == exact
    weak = compiled.score(state, weak=True)
    assert (weak > 0) == (exact > 0) and (weak < 0) == (exact < 0)
    # null windows on both sides of the score: the right side, and a true fail-soft bound
    for lo in (exact - 1, exact, exact - 9, exact + 7):
        r = compiled._search(state.mover, state.other, lo, lo + 1)
        assert (r > lo) == (exact > lo)
        assert exact <= r if r <= lo else exact >= r


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 7), st.integers(0, 2**32 - 1))
def test_the_unrolled_last_moves_give_every_windows_answer(
    compiled: OthelloSolver, empties: int, seed: int
) -> None:
    """The kernel's unrolled functions for six empty squares and fewer (passes included)
    against the Python solver: the exact value in the full window and the right side and
    a true fail-soft bound for every null window."""
    state = endgame(empties, random.Random(seed))
    exact = OthelloSolver(GAME, backend="python").score(state)
    assert compiled._search(state.mover, state.other, -65, 65) == exact
    for lo in range(-65, 65, 4):
        r = compiled._search(state.mover, state.other, lo, lo + 1)
        assert (r > lo) == (exact > lo)
        assert exact <= r if r <= lo else exact >= r


@settings(max_examples=15, deadline=None)
@given(st.integers(6, 11), st.integers(0, 2**32 - 1))
def test_the_compiled_solver_plays_the_same_actions_and_principal_variation(
    compiled: OthelloSolver, empties: int, seed: int
) -> None:
    state = endgame(empties, random.Random(seed))
    plain = OthelloSolver(GAME, backend="python")
    expected, got = plain.solve(state), compiled.solve(state)
    assert (got.value, got.action, got.pv, got.exact) == (
        expected.value, expected.action, expected.pv, expected.exact)
    assert compiled.analyze(state) == plain.analyze(state)
    weak = compiled.solve(state, weak=True)
    assert weak.action == plain.solve(state, weak=True).action


def test_compiled_and_python_agree_along_real_games(compiled: OthelloSolver) -> None:
    """Whole games of the evaluation's alpha-beta, every position from 12 empties on."""
    import plies

    rng = random.Random(25)
    for _ in range(2):
        state = GAME.initial_state()
        for _ in range(4):
            state = GAME.result(state, rng.choice(GAME.actions(state)))
        while not state.over:
            if 64 - (state.mover | state.other).bit_count() <= 12:
                assert compiled.score(state) == OthelloSolver(GAME, backend="python").score(state)
            action = plies.alphabeta(GAME, state, plies.Limit(depth=2)).action
            state = GAME.result(state, action)


# --- the FFO endgame test suite ---------------------------------------------------------------


def test_the_ffo_file_holds_positions_40_to_49_with_their_values() -> None:
    positions = ffo()
    assert [n for n, _, _ in positions] == list(range(40, 50))
    empties = [64 - (s.mover | s.other).bit_count() for _, s, _ in positions]
    assert empties == [20, 22, 22, 23, 23, 24, 24, 25, 25, 26]
    for _, state, values in positions:
        assert not state.over
        legal = {GAME.format_action(state, a) for a in GAME.actions(state)}
        assert set(values) <= legal
        assert next(iter(values.values())) == max(values.values())


def test_ffo_40_is_solved_to_its_published_value(compiled: OthelloSolver) -> None:
    number, state, values = ffo()[0]
    assert number == 40
    result = compiled.solve(state, pv=False)
    assert result.value == max(values.values()) == 38
    assert GAME.format_action(state, result.action) == "a2"


def test_an_ffo_position_a_move_in_has_the_published_value_of_that_move(
    compiled: OthelloSolver,
) -> None:
    """FFO #41 after its second-best move h3 (-2 for Black): 21 empties, White to move."""
    _, state, values = ffo()[1]
    child = GAME.result(state, GAME.parse_action(state, "h3"))
    assert compiled.score(child) == -values["h3"] == 2


# --- backends, errors, stopping ----------------------------------------------------------------


def test_backends_resolve_and_bad_ones_are_one_line_errors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert OthelloSolver(GAME, backend="python").backend == "python"
    # auto: Python below AUTO_COMPILED empties (done before Numba would load), compiled above
    auto = OthelloSolver(GAME)
    assert auto.backend == "numba"
    small, large = endgame(AUTO_COMPILED - 4, random.Random(1)), ffo()[0][1]
    assert auto.score(small) == OthelloSolver(GAME, backend="python").score(small)
    assert auto._kernel is None
    assert auto.score(large) == 38 and auto._kernel is not None
    with pytest.raises(OptionError, match="use one of: auto, numba, python"):
        OthelloSolver(GAME, backend="cython")
    monkeypatch.setattr(plies.compiled, "numba_available", lambda: False)
    assert OthelloSolver(GAME).backend == "python"
    with pytest.raises(OptionError, match=r"pip install 'plies\[fast\]'"):
        OthelloSolver(GAME, backend="numba")


def test_a_stop_signal_ends_a_compiled_solve(compiled: OthelloSolver) -> None:
    _, state, _ = ffo()[-1]  # 26 empties: far longer than the moment it takes to stop
    stop = threading.Event()
    nodes = compiled.nodes
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    try:
        with pytest.raises(SearchLimitError, match="stopped"):
            compiled.solve(state, stop=stop)
    finally:
        timer.cancel()
    assert compiled.nodes > nodes
    # the table kept only true bounds: the next answer is still exact
    small = endgame(10, random.Random(9))
    assert compiled.score(small) == OthelloSolver(GAME, backend="python").score(small)


def test_the_data_file_is_where_the_readme_says() -> None:
    readme = (OTHELLO_DATA / "README.md").read_text()
    assert "abulmo/edax-reversi" in readme and "fforum-40-59.obf" in readme
