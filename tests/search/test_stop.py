"""Stopping a search from outside, the budget cadence, and the anytime iterations."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

import plies
from plies.games import load
from plies.search import iterations
from plies.search.common import SearchResult
from plies.search.limits import CHECK_FIRST, CHECK_MOST, NEVER, OutOfBudget, budget_check

# Searches that cannot finish in any reasonable time on Connect Four's empty board.
SEARCHES: dict[str, Callable[..., SearchResult]] = {
    "alphabeta": plies.alphabeta,
    "engine": lambda *a, **k: plies.alphabeta(*a, tt=True, ordering=True, pvs=True, **k),
    "minimax": plies.minimax,
    "bounded": plies.bounded_minimax,
    "expectiminimax": plies.expectiminimax,
    "maxn": plies.maxn,
    "analyze": plies.analyze,
    "simultaneous": plies.simultaneous,
}
RETURNS_AT_ALL = 60.0  # seconds: a bound on "it returns", not a timing assertion


def in_thread(call: Callable[[], SearchResult]) -> SearchResult:
    """Run ``call`` in a thread; fail (instead of hanging) if it never returns."""
    out: list[SearchResult] = []
    worker = threading.Thread(target=lambda: out.append(call()), daemon=True)
    worker.start()
    worker.join(RETURNS_AT_ALL)
    assert not worker.is_alive(), "the stopped search did not return"
    assert out, "the stopped search raised"
    return out[0]


class StopAfter:
    """A stop signal that becomes set after it was asked ``n`` times (no thread, no clock)."""

    def __init__(self, n: int) -> None:
        self.asked, self.n = 0, n

    def is_set(self) -> bool:
        self.asked += 1
        return self.asked > self.n


@pytest.mark.parametrize("name", SEARCHES)
@pytest.mark.parametrize("deepen", [False, True])
def test_a_search_stopped_from_another_thread_returns_a_legal_action(
    name: str, deepen: bool
) -> None:
    game = load("connect4")
    root = game.initial_state()
    stop = threading.Event()
    timer = threading.Timer(0.05, stop.set)
    timer.start()
    limit = plies.Limit(depth=42) if deepen else None  # deepens, or one exact pass
    report = (lambda r: None) if deepen else None
    r = in_thread(lambda: SEARCHES[name](game, root, limit, stop=stop, on_iteration=report))
    timer.join()
    assert r.stopped
    assert r.action in game.actions(root)
    assert not r.exact
    if not deepen:  # nothing completed: the fallback
        assert (r.action, r.stats.depth) == (game.actions(root)[0], 0)


def test_a_deepening_search_stopped_returns_its_last_completed_iteration() -> None:
    game = load("connect4")
    root = game.initial_state()
    stop = threading.Event()
    seen: list[SearchResult] = []

    def report(r: SearchResult) -> None:
        seen.append(r)
        if r.stats.depth == 3:
            stop.set()

    r = plies.alphabeta(game, root, plies.Limit(depth=42), stop=stop, on_iteration=report)
    assert r.stopped
    assert (r.value, r.action, r.pv, r.stats.depth) == (
        seen[-1].value, seen[-1].action, seen[-1].pv, 3,
    )
    plain = plies.alphabeta(game, root, plies.Limit(depth=3))
    assert (r.value, r.action) == (plain.value, plain.action)


@pytest.mark.parametrize("name", SEARCHES)
def test_a_stop_set_before_the_search_gives_the_fallback(name: str) -> None:
    game = load("connect4")
    root = game.initial_state()
    stop = threading.Event()
    stop.set()
    for limit in (None, plies.Limit(depth=4), plies.Limit(time=10.0)):
        r = SEARCHES[name](game, root, limit, stop=stop)
        assert r.stopped and not r.exact
        assert (r.action, r.stats.depth) == (game.actions(root)[0], 0)


def test_a_stopped_search_at_a_terminal_root_scores_it_and_does_not_raise() -> None:
    game = load("tictactoe")
    state = game.initial_state()
    for move in (0, 3, 1, 4, 2):  # X completes the top row
        state = game.result(state, move)
    assert game.is_terminal(state)
    stop = threading.Event()
    stop.set()
    r = plies.minimax(game, state, plies.Limit(time=10.0), player=0, stop=stop)
    assert (r.value, r.action, r.stopped) == (game.utility(state, 0), None, True)


def test_a_stop_signal_that_is_never_set_changes_nothing() -> None:
    game = load("connect4")
    root = game.initial_state()
    limit = plies.Limit(depth=5)
    for search in (plies.alphabeta, plies.minimax, plies.maxn):
        plain = search(game, root, limit)
        watched = search(game, root, limit, stop=threading.Event())
        assert (watched.value, watched.action, watched.pv, watched.stats.nodes) == (
            plain.value, plain.action, plain.pv, plain.stats.nodes,
        )
        assert not watched.stopped and not plain.stopped


def test_stopped_tells_a_spent_node_budget_from_a_finished_search() -> None:
    ttt = load("tictactoe")
    root = ttt.initial_state()
    spent = plies.alphabeta(ttt, root, plies.Limit(nodes=500))
    assert spent.stopped and not spent.exact
    finished = plies.alphabeta(ttt, root, plies.Limit(nodes=10**7))
    assert finished.exact and not finished.stopped
    assert not plies.alphabeta(ttt, root, plies.Limit(depth=2)).stopped


def test_a_traced_search_honours_the_stop_signal() -> None:
    game = load("connect4")
    stop = threading.Event()
    events = 0

    def trace(event: Any) -> None:
        nonlocal events
        events += 1
        if events == 5_000:
            stop.set()

    r = plies.alphabeta(game, game.initial_state(), trace=trace, stop=stop)
    assert r.stopped and events >= 5_000


def test_the_kernels_honour_a_stop_signal_without_threads() -> None:
    game = load("connect4")
    for search in (plies.alphabeta, plies.minimax, plies.expectiminimax):
        r = search(game, game.initial_state(), stop=StopAfter(20))
        assert r.stopped and r.action == game.actions(game.initial_state())[0]


# --- the cadence ---------------------------------------------------------------------------


class FakeClock:
    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def intervals(step: float, looks: int, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The node intervals between looks when each look comes ``step`` seconds after the last."""
    monkeypatch.setattr("plies.search.limits.time.perf_counter", FakeClock(step))
    nodes, check = budget_check(1e9, None)
    out = [nodes]
    for _ in range(looks):
        nxt = check(nodes)
        out.append(nxt - nodes)
        nodes = nxt
    return out


def test_the_cadence_grows_while_looks_come_fast(monkeypatch: pytest.MonkeyPatch) -> None:
    got = intervals(0.0001, 10, monkeypatch)
    assert got[0] == CHECK_FIRST
    assert got[1:] == [min(CHECK_FIRST * 2**k, CHECK_MOST) for k in range(1, 11)]


def test_the_cadence_shrinks_while_looks_come_slowly(monkeypatch: pytest.MonkeyPatch) -> None:
    assert intervals(0.01, 6, monkeypatch)[1:] == [8, 4, 2, 1, 1, 1]


def test_the_cadence_holds_at_about_a_millisecond(monkeypatch: pytest.MonkeyPatch) -> None:
    assert intervals(0.001, 4, monkeypatch)[1:] == [CHECK_FIRST] * 4


def test_a_node_budget_is_looked_at_exactly_past_its_end() -> None:
    nodes, check = budget_check(None, 100)
    while True:
        try:
            nodes = check(nodes)
        except OutOfBudget:
            break
        assert nodes <= 101
    assert nodes == 101


def test_no_limit_never_looks() -> None:
    assert budget_check(None, None)[0] == NEVER


def test_a_stop_is_seen_at_the_next_look() -> None:
    stop = threading.Event()
    nodes, check = budget_check(None, None, stop)
    nodes = check(nodes)
    stop.set()
    with pytest.raises(OutOfBudget):
        check(nodes)


# --- anytime iterations ------------------------------------------------------------------


def workers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "plies-iterations"]


@pytest.mark.parametrize(
    ("algorithm", "options"),
    [
        ("alphabeta", {}),
        ("alphabeta", {"tt": True, "ordering": True}),
        ("minimax", {}),
        ("bounded", {}),
        ("expectiminimax", {}),
        ("maxn", {}),
        ("simultaneous", {}),
    ],
)
def test_iterations_deepen_and_end_where_the_plain_call_does(
    algorithm: str, options: dict[str, Any]
) -> None:
    game = load("connect4")
    root = game.initial_state()
    limit = plies.Limit(depth=4)
    got = list(iterations(game, root, limit, algorithm=algorithm, **options))
    assert [r.stats.depth for r in got] == [1, 2, 3, 4]
    assert [r.stats.nodes for r in got] == sorted(r.stats.nodes for r in got)
    plain = plies.search.ALGORITHMS[algorithm].search(game, root, limit, **options)
    last = got[-1]
    assert (last.value, last.action, last.exact, last.stopped) == (
        plain.value, plain.action, plain.exact, False,
    )
    assert last.values == plain.values and last.strategy == plain.strategy
    assert not workers()


def test_iterations_without_a_depth_limit_deepen_until_exact() -> None:
    ttt = load("tictactoe")
    got = list(iterations(ttt, ttt.initial_state()))
    assert [r.stats.depth for r in got] == list(range(1, 10))
    assert got[-1].exact and not any(r.exact for r in got[:-1])
    plain = plies.alphabeta(ttt, ttt.initial_state())
    assert (got[-1].value, got[-1].action) == (plain.value, plain.action)


def test_breaking_out_of_iterations_stops_the_search() -> None:
    game = load("connect4")
    seen = []
    for r in iterations(game, game.initial_state()):  # would search for hours
        seen.append(r.stats.depth)
        if len(seen) == 2:
            break
    assert seen == [1, 2]
    assert not workers()  # stopped and joined when the loop let go of the generator


def test_closing_iterations_stops_the_search() -> None:
    game = load("connect4")
    it = iterations(game, game.initial_state(), algorithm="minimax")
    assert next(it).stats.depth == 1
    it.close()
    assert not workers()


def test_iterations_end_when_their_stop_signal_is_set() -> None:
    game = load("connect4")
    stop = threading.Event()
    depths = []
    for r in iterations(game, game.initial_state(), stop=stop):
        depths.append(r.stats.depth)
        if r.stats.depth == 3:
            stop.set()
    # Deeper iterations may finish before the worker sees the stop; then it ends.
    assert depths == list(range(1, len(depths) + 1)) and 3 <= len(depths) < 42
    assert not workers()


def test_iterations_stopped_before_the_first_gives_the_fallback() -> None:
    game = load("connect4")
    stop = threading.Event()
    stop.set()
    (only,) = iterations(game, game.initial_state(), stop=stop)
    assert only.stopped and only.stats.depth == 0 and only.action == 0


def test_iterations_raise_the_searchs_error_and_refuse_bad_arguments() -> None:
    pig = load("pig")
    with pytest.raises(plies.UnsupportedGameError, match="use expectiminimax"):
        list(iterations(pig, pig.initial_state(), plies.Limit(depth=2), algorithm="minimax"))
    assert not workers()
    with pytest.raises(plies.OptionError, match="unknown algorithm 'negamax'"):
        iterations(pig, pig.initial_state(), algorithm="negamax")
    with pytest.raises(plies.OptionError, match="drop on_iteration"):
        iterations(pig, pig.initial_state(), on_iteration=print)


def test_a_search_inside_an_evaluate_is_not_deepened_by_iterations() -> None:
    ttt = load("tictactoe")
    inner = plies.Limit(depth=2)
    seen: list[int] = []

    class Looking(plies.wrappers.GameWrapper[Any, Any]):
        def evaluate(self, state: Any, player: int) -> float:
            seen.append(plies.minimax(ttt, state, inner, player=player).stats.nodes)
            return 0.0

    game = Looking(ttt)
    list(iterations(game, game.initial_state(), plies.Limit(depth=1), algorithm="minimax"))
    first_child = ttt.result(ttt.initial_state(), 0)
    assert seen[0] == plies.minimax(ttt, first_child, inner, player=0).stats.nodes
