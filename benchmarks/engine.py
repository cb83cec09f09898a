"""W4 and W5: plies with its full engine craft on its own Connect Four.

Both need the built-in game ``plies.games.load("connect4")``; the runner calls them only
when ``"connect4" in plies.games.names()`` and otherwise prints that they were not run.

* W4: the time plies takes to reach depth 8, 10 and 12 from the empty board, shown beside
  the other libraries' plain alpha-beta at depth 8 (W2).  "Reach" is literal: the search
  runs under ``Limit(depth=d, time=budget)``, deepening 1, 2, ... d as an engine does, and a
  depth not completed within the budget is reported as not reached, never estimated.
* W5: Connect Four solving on the shared benchmark positions (``tests/data/connect4``):
  mean time and mean nodes per position, for plies and for the bare alpha-beta loop on the
  same positions, next to the published C++ solver's numbers; every plies value is checked
  against the file's score.  Each solver gets a time cap per position (plain alpha-beta
  cannot solve the opening positions in reasonable time, and plies may not either): a
  position over the cap is reported as not solved by that solver, never estimated.

:data:`ENGINE_OPTIONS` are the keyword arguments of ``plies.alphabeta`` that switch the
engine craft on (move ordering, transposition table, ...): only the options this version of
plies accepts are passed, and the options used are written into the results.
"""

from __future__ import annotations

import inspect
import signal
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bare import alphabeta as bare_alphabeta
from workloads import ConnectFour

import plies

ENGINE_OPTIONS: dict[str, Any] = {"tt": True, "ordering": True, "pvs": True}
"""Engine-craft keyword arguments for ``plies.alphabeta`` in W4 and W5: the transposition
table, move ordering (table move, killers, history, the game's ``order_hint``) and PVS."""
SOLVE_OPTIONS: dict[str, Any] = {**ENGINE_OPTIONS, "bisection": True}
"""W5 adds null-window bisection of the exact value (MTD-bi), as the published solver does."""

W4_DEPTHS = (8, 10, 12)
W5_FILES = ("Test_L3_R1", "Test_L2_R1", "Test_L1_R1")
PUBLISHED = {  # tests/data/connect4/README.md: the published C++ solver, final version
    "Test_L3_R1": (4.6e-6, 51),
    "Test_L2_R1": (37e-6, 450),
    "Test_L1_R1": (255e-6, 3_298),
}
"""Mean time (s) and mean explored nodes per position of the published solver."""
PUBLISHED_ALL = {
    **PUBLISHED,
    "Test_L2_R2": (3.2e-3, 39_900),
    "Test_L1_R2": (97e-3, 1_201_000),
    "Test_L1_R3": (5.5, 65_920_000),
}
"""The same for every file of the shared data."""

Tick = Callable[[str], None]


def connect4_available() -> bool:
    return "connect4" in plies.games.names()


def engine_options(options: dict[str, Any] = ENGINE_OPTIONS) -> dict[str, Any]:
    """``options`` restricted to what ``plies.alphabeta`` accepts."""
    accepted = inspect.signature(plies.alphabeta).parameters
    return {k: v for k, v in options.items() if k in accepted}


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


# --- W4 -----------------------------------------------------------------------------------


@dataclass
class DepthRun:
    depth: int
    reached: bool
    times: list[float] = field(default_factory=list)
    nodes: int = 0
    value: float | None = None
    action: Any = None
    reason: str = ""

    @property
    def median(self) -> float | None:
        return statistics.median(self.times) if self.times else None


def w4(repeat: int, budget: float, tick: Tick) -> list[DepthRun]:
    """Time to reach each depth of :data:`W4_DEPTHS`; ``tick`` is called once per search.

    A first search to each depth (untimed, the warm-up) tells whether the depth is reached
    within ``budget`` seconds; if not, that depth and the deeper ones are reported as not
    reached and not timed again.
    """
    game = plies.games.load("connect4", scoring="winloss")  # W2's plain searches' scores
    state = game.initial_state()
    options = engine_options()
    runs: list[DepthRun] = []
    for depth in W4_DEPTHS:
        run = DepthRun(depth, reached=False)
        runs.append(run)
        if len(runs) > 1 and not runs[-2].reached:
            run.reason = f"depth {runs[-2].depth} was not reached"
            tick(f"W4 depth {depth}: skipped")
            continue
        limit = plies.Limit(depth=depth, time=budget)

        def search(limit: plies.Limit = limit) -> plies.SearchResult:
            return plies.alphabeta(game, state, limit, **options)

        elapsed, r = _timed(search)
        tick(f"W4 depth {depth}: warm-up")
        if r.stats.depth < depth:
            run.reason = (
                f"not reached within the {budget:g} s budget "
                f"(depth {r.stats.depth} completed in {elapsed:.1f} s)"
            )
            continue
        run.reached = True
        run.nodes, run.value, run.action = r.stats.nodes, r.value, r.action
        for i in range(repeat):
            elapsed, r = _timed(search)
            run.times.append(elapsed)
            tick(f"W4 depth {depth}: run {i + 1}/{repeat}")
    return runs


# --- W5 -----------------------------------------------------------------------------------


class OverTime(BaseException):
    """A W5 search ran past its time cap (a BaseException: no ``except Exception`` eats it)."""


@contextmanager
def time_cap(seconds: float) -> Iterator[None]:
    """Interrupt the enclosed code with :class:`OverTime` after ``seconds`` (SIGALRM)."""

    def alarm(signum: int, frame: Any) -> None:
        raise OverTime

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _solve(search: Callable[[], Any], repeat: int, cap: float) -> tuple[list[float], Any]:
    """``repeat`` timed runs of ``search`` (none after a first run that hits ``cap``)."""
    times: list[float] = []
    out = None
    for _ in range(repeat):
        with time_cap(cap):
            elapsed, out = _timed(search)
        times.append(elapsed)
    return times, out


@dataclass
class Solved:
    """One position: its moves and score, and what plies and the bare loop made of it."""

    moves: str
    score: int
    plies_time: float | None = None  # median of the runs; None: over the time cap
    plies_nodes: int | None = None
    plies_value: float | None = None
    bare_time: float | None = None
    bare_nodes: int | None = None


@dataclass
class SolveSet:
    name: str
    positions: int  # asked for (the first ones of the file)
    tried: list[Solved] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)  # plies values that disagree with the file
    stopped: str = ""


def read_positions(path: Path) -> Iterator[tuple[str, int]]:
    """``(moves, score)`` per line: moves are 1-based column digits."""
    for line in path.read_text().splitlines():
        if line.strip():
            moves, score = line.split()
            yield moves, int(score)


def _column_mover(game: Any) -> Callable[[Any, str], Any]:
    """Plays a 1-based column digit on plies' Connect Four, whatever its action encoding."""
    state = game.initial_state()
    texts = {game.format_action(state, a): a for a in game.actions(state)}
    if set(texts) == {str(c) for c in range(1, 8)}:
        return lambda s, digit: plies.play(game, s, digit)
    if list(game.actions(state)) == list(range(7)):
        return lambda s, digit: plies.play(game, s, int(digit) - 1)
    raise ValueError(f"cannot map column digits to connect4 actions {sorted(texts)}")


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def w5(
    data: Path,
    positions: int,
    repeat: int,
    budget: float,
    cap: float,
    scoring: str,
    tick: Tick,
) -> list[SolveSet]:
    """Solve the first ``positions`` positions of each file of :data:`W5_FILES`.

    Each position is solved ``repeat`` times by plies (engine options on, no limit;
    ``scoring`` ``"winloss"``: the weak solution, whose sign is checked against the file's
    score, or ``"pons"``: the strong one, checked exactly) and by the bare alpha-beta loop
    over the benchmark's own Connect Four; a position's time is the median of its runs.
    A solver that runs past ``cap`` seconds on a position is stopped there and the position
    counts as not solved by it.  A file stops once ``budget`` seconds have gone into it.
    """
    game = plies.games.load("connect4", scoring=scoring)
    mover = _column_mover(game)
    bare_game = ConnectFour()
    options = engine_options(SOLVE_OPTIONS)
    sets: list[SolveSet] = []
    for name in W5_FILES:
        lines = list(read_positions(data / name))[:positions]
        result = SolveSet(name, len(lines))
        sets.append(result)
        start = time.perf_counter()
        for i, (moves, score) in enumerate(lines):
            if time.perf_counter() - start > budget:
                result.stopped = f"the {budget:g} s budget was spent after {i} positions"
                break
            position = Solved(moves, score)
            result.tried.append(position)
            state = game.initial_state()
            for digit in moves:
                state = mover(state, digit)

            def plies_solve(s: Any = state) -> plies.SearchResult:
                return plies.alphabeta(game, s, **options)

            bare_state = bare_game.state_after([int(d) - 1 for d in moves])

            def bare_solve(s: Any = bare_state) -> Any:
                return bare_alphabeta(bare_game, s)

            try:
                times, r = _solve(plies_solve, repeat, cap)
                position.plies_time = statistics.median(times)
                position.plies_nodes, position.plies_value = r.stats.nodes, r.value
                right = r.value == score if scoring == "pons" else _sign(r.value) == _sign(score)
                if not right:
                    result.wrong.append(f"{moves}: plies {r.value:g}, file {score}")
            except OverTime:
                pass
            try:
                times, b = _solve(bare_solve, repeat, cap)
                position.bare_time, position.bare_nodes = statistics.median(times), b.nodes
            except OverTime:
                pass
            tick(f"W5 {name}: position {i + 1}/{len(lines)}")
    return sets


# --- W5, the dedicated solver --------------------------------------------------------------

DEDICATED_FILES = ("Test_L3_R1", "Test_L2_R1", "Test_L1_R1", "Test_L2_R2", "Test_L1_R2")
OPENING = ("4453", -2)
"""The opening the issue names, with its score (the same as in ``Test_L1_R3``)."""


@dataclass
class DedicatedSet:
    """The dedicated solver (:mod:`plies.games.connect4.solver`) on one file."""

    name: str
    backend: str
    solved: int = 0
    times: list[float] = field(default_factory=list)
    nodes: list[int] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    stopped: str = ""


def w5_dedicated(
    data: Path, budget: float, python_positions: int, tick: Tick
) -> tuple[list[DedicatedSet], dict[str, Any]]:
    """The dedicated solver on whole files and on the opening ``4453``.

    Every file of :data:`DEDICATED_FILES` is solved from its first line on with a
    fresh table of 2**20 slots per position (the reset is not timed), until all 1,000
    are done or ``budget`` seconds went into the file: by Numba when it is installed,
    and by the Python backend on the first ``python_positions`` lines of the W5 files.
    Then ``4453`` by Numba (the first Numba call also compiles the kernel, so a warm-up
    position goes first).
    """
    from plies.games.connect4.solver import Connect4Solver, numba_available

    game = plies.games.load("connect4", scoring="pons")
    backends = ["numba", "python"] if numba_available() else ["python"]
    sets: list[DedicatedSet] = []
    for backend in backends:
        # 2**20 slots (Pons' table has 2**23) make the per-position reset cheap; Test_L1_R2
        # positions, the largest here, stay below 1.5 million nodes.
        solver = Connect4Solver(game, backend=backend, size=1 << 20)
        solver.score(game.moves_from_string("4453444"))  # warm-up: Numba compiles here
        files = DEDICATED_FILES if backend == "numba" else W5_FILES
        for name in files:
            result = DedicatedSet(name, backend)
            sets.append(result)
            lines = list(read_positions(data / name))
            if backend == "python":
                lines = lines[:python_positions]
            start = time.perf_counter()
            for moves, score in lines:
                if time.perf_counter() - start > budget:
                    result.stopped = f"the {budget:g} s budget was spent"
                    break
                solver.reset()
                state = game.moves_from_string(moves)
                before = solver.nodes
                elapsed, value = _timed(lambda s=state, solver=solver: solver.score(s))
                result.times.append(elapsed)
                result.nodes.append(solver.nodes - before)
                result.solved += 1
                if value != score:
                    result.wrong.append(f"{moves}: {value}, file {score}")
            tick(f"W5 dedicated {backend} {name}: {result.solved} positions")
    opening: dict[str, Any] = {"moves": OPENING[0], "score": OPENING[1], "status": "not run"}
    if "numba" in backends:
        solver = Connect4Solver(game, backend="numba")
        solver.score(game.moves_from_string("4453444"))
        solver.reset()
        before = solver.nodes
        elapsed, value = _timed(lambda: solver.score(game.moves_from_string(OPENING[0])))
        opening.update(status="ok", backend="numba", value=value, seconds=elapsed,
                       nodes=solver.nodes - before, right=value == OPENING[1])
        tick("W5 dedicated: 4453")
    else:
        opening["reason"] = "Numba is not installed (pip install 'plies[fast]')"
    return sets, opening
