"""The dedicated Connect Four solver: exact scores, best moves, PVs; both backends agree."""

from __future__ import annotations

import os
import random
import signal
import threading
import time
from collections.abc import Callable

import pytest

import plies
from plies.errors import OptionError
from plies.game import hook
from plies.games.connect4 import Connect4, Connect4State, load_positions
from plies.games.connect4.solver import Connect4Solver, numba_available, solve_positions
from tests.games.test_connect4 import data_file

PONS = Connect4(scoring="pons")
SMALL = 100_003  # table slots: plenty for these searches, cheap to allocate


def backends() -> list[str]:
    """Python always; Numba where it is installed, and always under CI (the test extra)."""
    if numba_available():
        return ["python", "numba"]
    if os.environ.get("CI"):
        pytest.fail("Numba is missing: CI installs the test extra, which includes plies[fast]")
    return ["python"]


@pytest.fixture(params=backends())
def backend(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest.mark.parametrize(
    ("name", "count"), [("Test_L3_R1", 50), ("Test_L2_R1", 20), ("Test_L1_R1", 10)]
)
def test_benchmark_scores(backend: str, name: str, count: int) -> None:
    solver = Connect4Solver(PONS, backend=backend, size=SMALL)
    for moves, expected, score, nodes in solve_positions(
        solver, load_positions(data_file(name))[:count]
    ):
        assert score == expected, moves
        assert nodes > 0


def test_node_counts_are_the_published_solvers() -> None:
    # The same search visits the same nodes in either backend; the published C++ solver's
    # mean over Test_L3_R1 is 51 nodes, and this solver's over the first 200 is the same.
    positions = load_positions(data_file("Test_L3_R1"))[:200]
    counts = {}
    for backend in backends():
        solver = Connect4Solver(PONS, backend=backend, size=1 << 20)
        counts[backend] = [nodes for *_, nodes in solve_positions(solver, positions)]
    assert len({tuple(c) for c in counts.values()}) == 1
    mean = sum(counts["python"]) / len(positions)
    assert 40 < mean < 60, mean


def _random_position(rng: random.Random, game: Connect4, stones: int) -> Connect4State | None:
    state = game.initial_state()
    for _ in range(stones):
        if game.is_terminal(state):
            return None
        state = game.result(state, rng.choice(game.actions(state)))
    return None if game.is_terminal(state) else state


@pytest.mark.parametrize(("width", "height"), [(4, 4), (5, 4), (4, 5)])
def test_small_boards_agree_with_plain_alphabeta(backend: str, width: int, height: int) -> None:
    game = Connect4(width, height, scoring="pons")
    solver = Connect4Solver(game, backend=backend, size=SMALL)
    rng = random.Random(width * 10 + height)
    checked = 0
    while checked < 8:
        state = _random_position(rng, game, rng.randrange(4, width * height - 2))
        if state is None:
            continue
        plain = plies.alphabeta(game, state)  # the obviously correct search, whole tree
        mine = solver.solve(state)
        assert mine.value == plain.value
        assert mine.action == plain.action  # the first column worth the score
        assert solver.analyze(state) == plies.analyze(game, state).action_values
        checked += 1


def test_the_pv_keeps_the_score_to_the_end(backend: str) -> None:
    solver = Connect4Solver(PONS, backend=backend, size=SMALL)
    for moves, score in load_positions(data_file("Test_L2_R1"))[:8]:
        state = PONS.moves_from_string(moves)
        result = solver.solve(state)
        assert result.value == score and result.exact
        mover = PONS.to_move(state)
        here = state
        for column in result.pv:  # each step is worth the score, and the game ends as scored
            here = PONS.result(here, column)
        assert PONS.is_terminal(here)
        assert PONS.utility(here, mover) == score, moves
        assert result.pv[0] == result.action


def test_weak_solutions_give_the_outcome(backend: str) -> None:
    solver = Connect4Solver(PONS, backend=backend, size=SMALL)
    for moves, score in load_positions(data_file("Test_L2_R1"))[:15]:
        state = PONS.moves_from_string(moves)
        sign = (score > 0) - (score < 0)
        assert solver.score(state, weak=True) == sign, moves
        result = solver.solve(state, weak=True)
        assert (result.value > 0) - (result.value < 0) == sign
        assert result.exact == (sign == 0)
        here = state
        for column in result.pv:  # the PV keeps the outcome
            here = PONS.result(here, column)
        outcome = PONS.utility(here, PONS.to_move(state))
        assert (outcome > 0) - (outcome < 0) == sign, moves


def test_other_player_and_winloss_scoring() -> None:
    game = Connect4()  # win/loss: the same search, values mapped to +1/-1/0
    solver = Connect4Solver(game, backend="python", size=SMALL)
    state = game.moves_from_string("17516442226766")  # X wins (score 8)
    assert solver.solve(state).value == 1.0
    assert solver.solve(state, player=1).value == -1.0
    assert Connect4Solver(PONS, backend="python", size=SMALL).solve(state, player=1).value == -8


def test_terminal_and_immediate_wins() -> None:
    solver = Connect4Solver(PONS, backend="python", size=SMALL)
    won = PONS.moves_from_string("1212121")  # X has four: O to move has lost
    assert solver.score(won) == -18
    r = solver.solve(won)
    assert (r.value, r.action, r.pv) == (-18.0, None, ())
    state = PONS.moves_from_string("121212")  # three X in column 1: X wins there at once
    r = solver.solve(state)
    assert (r.value, r.action, r.pv) == (18.0, 0, (0,))


def test_bad_options() -> None:
    with pytest.raises(OptionError, match="unknown solver backend 'gpu'; use one of: auto"):
        Connect4Solver(PONS, backend="gpu")
    with pytest.raises(OptionError, match="at least 2 slots"):
        Connect4Solver(PONS, size=1)
    if numba_available():
        with pytest.raises(OptionError, match=r"width \* \(height \+ 1\) <= 63"):
            Connect4Solver(Connect4(9, 7), backend="numba")
    assert Connect4Solver(Connect4(9, 7)).backend == "python"  # auto: what fits


def test_the_game_keeps_one_solver_per_backend() -> None:
    game = Connect4(scoring="pons")
    solver = game.solver("python")
    assert solver is game.solver("python") and isinstance(solver, Connect4Solver)
    assert solver.backend == "python"
    assert hook(plies.games.load("nim"), "solver") is None


def test_the_old_solver_for_still_works_with_a_warning() -> None:
    from plies.solvers import solver_for

    game = Connect4(scoring="pons")
    with pytest.warns(DeprecationWarning, match="use the game's solver hook"):
        assert solver_for(game, "python") is game.solver("python")
    with pytest.warns(DeprecationWarning):
        assert solver_for(plies.games.load("nim")) is None


def test_a_stop_signal_ends_a_solve_between_two_tests() -> None:
    import threading

    stop = threading.Event()
    stop.set()
    with pytest.raises(plies.SearchLimitError, match="stopped"):
        Connect4Solver(PONS, backend="python", size=SMALL).solve(
            PONS.moves_from_string("4453"), stop=stop
        )


LONG = "4453"  # tens of millions of nodes: no backend finishes it while a test waits
BOUND = 60.0  # seconds for the search to get going: a hang, not a speed, fails a test


def when_searching(solver: Connect4Solver, then: Callable[[], None]) -> threading.Thread:
    """A thread that calls ``then`` once ``solver``'s kernel has counted many nodes of a
    null-window test (the counter it writes as it goes: a test that long is one of the
    long ones), or after :data:`BOUND`."""
    many = 1_000_000 if solver.backend == "numba" else 20_000
    solver._counter[0] = 0  # what loading the compiled kernel counted

    def watch() -> None:
        deadline = time.monotonic() + BOUND
        while solver._counter[0] < many and time.monotonic() < deadline:
            time.sleep(0.001)
        then()

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def check_the_table_still_holds_true_bounds(solver: Connect4Solver) -> None:
    """What a stopped test stored (nothing on its way out) leaves the solver exact."""
    for moves, expected in load_positions(data_file("Test_L3_R1"))[:20]:
        assert solver.score(solver.game.moves_from_string(moves)) == expected


def test_ctrl_c_stops_a_solve_inside_a_null_window_test(backend: str) -> None:
    """Regression: Ctrl-C during a compiled solve took effect only when the null-window
    test ended (10-12 s; the compiled loop never came back to Python, and a second
    Ctrl-C did not help).  The kernel now runs in a thread of its own and stops within
    POLL_EVERY nodes: the halt is latched inside the test, not after it."""
    solver = Connect4Solver(PONS, backend=backend, size=SMALL)
    watcher = when_searching(solver, lambda: os.kill(os.getpid(), signal.SIGINT))
    with pytest.raises(KeyboardInterrupt):
        solver.solve(PONS.moves_from_string(LONG))
    watcher.join()
    if backend == "numba":
        assert solver._counter[1] == 1  # stopped by the halt flag, inside the test
    check_the_table_still_holds_true_bounds(solver)


def test_a_stop_signal_ends_a_solve_inside_a_null_window_test(backend: str) -> None:
    stop = threading.Event()
    solver = Connect4Solver(PONS, backend=backend, size=SMALL)
    watcher = when_searching(solver, stop.set)
    with pytest.raises(plies.SearchLimitError, match="stopped before it finished"):
        solver.solve(PONS.moves_from_string(LONG), stop=stop)
    watcher.join()
    assert solver._counter[1] == 1  # the halt was latched inside the test
    check_the_table_still_holds_true_bounds(solver)
