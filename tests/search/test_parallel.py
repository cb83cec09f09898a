"""parallel_alphabeta against serial alphabeta: the same value (and action) at the same depth."""

from __future__ import annotations

import inspect
import multiprocessing
import pickle
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import plies
from plies import Limit
from plies.errors import IllegalActionError, OptionError, UnsupportedGameError
from plies.game import CHANCE, Game
from plies.games import load, names
from plies.games.connect4 import Connect4
from plies.search import parallel
from plies.search.parallel import parallel_alphabeta
from tests.data import CONNECT4_DATA
from tests.search.randomtree import RandomDag, RandomTree, random_dags, random_trees

CRAFT: dict[str, Any] = {"tt": True, "ordering": True, "pvs": True}
# Process start-up costs tens of milliseconds per search: few examples, fixed seeds.
SETTINGS = settings(
    max_examples=12, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def assert_same(
    game: Game[Any, Any], state: Any, limit: Limit | None, *, player: int | None = None,
    split_plies: int = parallel.SPLIT_PLIES, **options: Any,
) -> plies.SearchResult:
    """parallel_alphabeta returns serial alphabeta's value and action, and a legal line."""
    expected = plies.alphabeta(game, state, limit, player=player, **options)
    got = parallel_alphabeta(
        game, state, limit, player=player, workers=2, split_plies=split_plies, **options
    )
    assert got.value == expected.value
    assert got.action == expected.action
    assert got.player == expected.player
    assert got.pv[:1] == (got.action,)
    for action in got.pv:  # the principal variation is a legal line
        assert action in game.actions(state)
        state = game.result(state, action)
    return got


class CountingPool(ProcessPoolExecutor):
    """A process pool that counts the tasks it is given (in this process)."""

    submitted = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        CountingPool.submitted += 1
        return super().submit(fn, *args, **kwargs)


@pytest.fixture
def pool_tasks(monkeypatch: pytest.MonkeyPatch) -> type[CountingPool]:
    CountingPool.submitted = 0
    monkeypatch.setattr(parallel, "ProcessPoolExecutor", CountingPool)
    return CountingPool


# --- known games ------------------------------------------------------------------------------


@pytest.mark.parametrize("moves", [(), (4,), (0, 4), (0, 4, 8), (4, 0, 2, 6)])
@pytest.mark.parametrize("depth", [1, 3, None])
def test_tictactoe(moves: tuple[int, ...], depth: int | None) -> None:
    ttt = load("tictactoe")
    state = ttt.initial_state()
    for move in moves:
        state = ttt.result(state, move)
    assert_same(ttt, state, Limit(depth=depth))


def test_tictactoe_is_a_draw_with_every_engine_option() -> None:
    ttt = load("tictactoe")
    got = assert_same(ttt, ttt.initial_state(), None, **CRAFT)
    assert got.value == 0.0 and got.exact


def test_min_root_for_the_other_player() -> None:
    ttt = load("tictactoe")
    state = ttt.result(ttt.initial_state(), 0)
    assert_same(ttt, ttt.initial_state(), Limit(depth=4), player=1)
    assert_same(ttt, state, Limit(depth=4), player=0)


def test_round_depth_unit_splits_at_the_root_only() -> None:
    ttt = load("tictactoe")
    assert_same(ttt, ttt.initial_state(), Limit(depth=2, unit="round"))


@pytest.mark.parametrize("piles", [(1, 2, 3), (2, 2, 3), (3, 4)])
def test_nim_matches_serial_and_bouton(piles: tuple[int, ...]) -> None:
    nim = load("nim", piles=piles)
    got = assert_same(nim, nim.initial_state(), None)
    first_player_wins = piles[0] ^ piles[1] ^ (piles[2] if len(piles) > 2 else 0) != 0
    assert got.value == (1.0 if first_player_wins else -1.0)


def connect4_positions() -> list[str]:
    """The empty board and the first positions of two of Pons' benchmark sets."""
    lines = []
    for name in ("Test_L2_R1", "Test_L1_R2"):
        with open(CONNECT4_DATA / name) as f:
            lines += [next(f).split()[0] for _ in range(2)]
    return ["", *lines]


@pytest.mark.parametrize("moves", connect4_positions())
@pytest.mark.parametrize(("depth", "options"), [(5, {}), (6, CRAFT), (7, CRAFT)])
def test_connect4(moves: str, depth: int, options: dict[str, Any]) -> None:
    c4 = Connect4()
    assert_same(c4, c4.moves_from_string(moves), Limit(depth=depth), **options)


def newer_engine_options() -> list[dict[str, Any]]:
    """Value-preserving switches of plies.alphabeta beyond tt/ordering/pvs, where it has them."""
    known = inspect.signature(plies.alphabeta).parameters
    candidates: list[dict[str, Any]] = [
        {"tt": True, "aspiration": 0.05},
        {"tt": True, "bisection": True},
        {**CRAFT, "bisection": True},
    ]
    return [c for c in candidates if set(c) <= set(known)]


@pytest.mark.parametrize("options", newer_engine_options())
@pytest.mark.parametrize("moves", ["", "335662333565"])
def test_connect4_with_more_engine_options(moves: str, options: dict[str, Any]) -> None:
    c4 = Connect4()
    assert_same(c4, c4.moves_from_string(moves), Limit(depth=6), **options)


def test_connect4_uses_the_pool_and_adds_up_statistics(pool_tasks: type[CountingPool]) -> None:
    c4 = Connect4()
    got = assert_same(c4, c4.initial_state(), Limit(depth=6))
    assert pool_tasks.submitted >= 7  # the eldest, then the six young brothers at the root
    assert got.stats.depth == 6
    assert got.stats.nodes >= got.stats.leaves >= got.stats.evals > 0
    assert got.stats.elapsed > 0 and got.stats.nps > 0
    assert not got.exact


def test_split_plies_zero_is_ybwc_at_the_root(pool_tasks: type[CountingPool]) -> None:
    c4 = Connect4()
    assert_same(c4, c4.initial_state(), Limit(depth=6), split_plies=0)
    assert pool_tasks.submitted == 7  # one task per root move


def test_an_exact_ordering_pass_answers_without_processes(pool_tasks: type[CountingPool]) -> None:
    ttt = load("tictactoe")
    state = ttt.initial_state()
    for move in (0, 4, 8, 2, 6, 3):  # three empty cells: depth 3 sees every end
        state = ttt.result(state, move)
    got = assert_same(ttt, state, Limit(depth=9))
    assert got.exact and got.value == 1.0 and pool_tasks.submitted == 0


# --- random games ------------------------------------------------------------------------------


limits = st.builds(Limit, depth=st.integers(1, 5))


@SETTINGS
@given(st.integers(2, 3).flatmap(lambda k: random_trees(players=k, max_height=6)), limits,
       st.integers(0, 2))
def test_random_trees(tree: RandomTree, limit: Limit, p: int) -> None:
    assert_same(tree, 0, limit, player=p % tree.num_players)


@SETTINGS
@given(random_dags(), st.integers(2, 8))
def test_random_dags_with_a_transposition_table(dag: RandomDag, depth: int) -> None:
    assert_same(dag, dag.initial_state(), Limit(depth=depth), **CRAFT)


@SETTINGS
@given(random_trees(players=2, max_height=5), st.integers(0, 10**6))
def test_random_tie_rule_picks_a_best_action(tree: RandomTree, seed: int) -> None:
    got = parallel_alphabeta(tree, 0, Limit(depth=4), tie="random", seed=seed)
    values = plies.analyze(tree, 0, Limit(depth=4)).action_values  # the mover's values
    assert values is not None
    assert got.value == max(values.values())
    assert values[got.action] == got.value
    again = parallel_alphabeta(tree, 0, Limit(depth=4), tie="random", seed=seed)
    assert again.action == got.action  # seeded


# --- workers=1, errors, pickling -----------------------------------------------------------------


def test_one_worker_is_the_serial_search() -> None:
    c4 = Connect4()
    state = c4.moves_from_string("4453")
    expected = plies.alphabeta(c4, state, Limit(depth=5), **CRAFT)
    got = parallel_alphabeta(c4, state, Limit(depth=5), workers=1, **CRAFT)
    assert (got.value, got.action, got.pv) == (expected.value, expected.action, expected.pv)
    assert got.stats.nodes == expected.stats.nodes


@pytest.mark.parametrize("workers", [0, -1, 1.5, True, "2"])
def test_workers_must_be_a_positive_integer(workers: Any) -> None:
    ttt = load("tictactoe")
    with pytest.raises(OptionError, match="workers must be an integer >= 1"):
        parallel_alphabeta(ttt, ttt.initial_state(), workers=workers)


def test_split_plies_must_be_a_natural_number() -> None:
    ttt = load("tictactoe")
    with pytest.raises(OptionError, match="split_plies"):
        parallel_alphabeta(ttt, ttt.initial_state(), split_plies=-1)


@pytest.mark.parametrize("limit", [Limit(time=1.0), Limit(depth=4, nodes=1000)])
def test_budgets_are_refused(limit: Limit) -> None:
    ttt = load("tictactoe")
    with pytest.raises(OptionError, match="fixed depth"):
        parallel_alphabeta(ttt, ttt.initial_state(), limit)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"depth": 3}, "unknown engine option 'depth'"),
        ({"trace": print}, "cannot be traced"),
        ({"on_iteration": print}, "no iterations"),
        *[
            ({name: True}, "plies.alphabeta")
            for name in ("weak", "mate", "strict_cutoffs")
            if name in inspect.signature(plies.alphabeta).parameters
        ],
    ],
)
def test_options_without_a_parallel_meaning_are_refused(
    options: dict[str, Any], message: str
) -> None:
    ttt = load("tictactoe")
    with pytest.raises(OptionError, match=message):
        parallel_alphabeta(ttt, ttt.initial_state(), Limit(depth=3), **options)


def test_unknown_tie_rule_is_refused() -> None:
    ttt = load("tictactoe")
    with pytest.raises(OptionError, match="tie rule"):
        parallel_alphabeta(ttt, ttt.initial_state(), tie="last")


def test_an_unpicklable_game_is_refused_with_the_reason() -> None:
    tree = RandomDag(seed=1, players=2, height=4, width=3)
    tree.hook = lambda: None  # type: ignore[attr-defined]
    with pytest.raises(UnsupportedGameError, match=r"cannot be pickled.*plies\.alphabeta"):
        parallel_alphabeta(tree, tree.initial_state(), Limit(depth=3))


def test_an_unpicklable_order_function_is_refused() -> None:
    ttt = load("tictactoe")
    with pytest.raises(OptionError, match=r"order function.*cannot be pickled"):
        parallel_alphabeta(ttt, ttt.initial_state(), Limit(depth=3), order=lambda s, a: a)


def reverse_order(state: Any, actions: Sequence[Any]) -> Sequence[Any]:
    return list(reversed(actions))


def test_a_module_level_order_function_is_used() -> None:
    c4 = Connect4()
    assert_same(c4, c4.moves_from_string("4453"), Limit(depth=5), order=reverse_order)


class ChanceBelow(Game[int, int]):
    """Binary tree whose nodes at depth 4 are chance nodes: alpha-beta refuses them.

    The ordering passes (a third of the depth) never reach them, so the refusal is raised in a
    worker process and must reach the caller.
    """

    num_players = 2

    def initial_state(self) -> int:
        return 1

    def to_move(self, state: int) -> int:
        return CHANCE if state.bit_length() == 5 else (state.bit_length() - 1) % 2

    def actions(self, state: int) -> Sequence[int]:
        return (0, 1)

    def result(self, state: int, action: int) -> int:
        return 2 * state + action

    def is_terminal(self, state: int) -> bool:
        return state.bit_length() > 7

    def utility(self, state: int, player: int) -> float:
        return float(state % 5) if player == 0 else -float(state % 5)


def test_an_error_in_a_worker_reaches_the_caller() -> None:
    game = ChanceBelow()
    with pytest.raises(UnsupportedGameError, match="chance nodes"):
        parallel_alphabeta(game, game.initial_state(), Limit(depth=6))


class RaisesDeep(Game[tuple[int, ...], int]):
    """A game whose rules raise IllegalActionError (its own constructor) six plies down."""

    num_players = 2

    def initial_state(self) -> tuple[int, ...]:
        return ()

    def to_move(self, state: tuple[int, ...]) -> int:
        return len(state) % 2

    def actions(self, state: tuple[int, ...]) -> Sequence[int]:
        return (0, 1, 2)

    def result(self, state: tuple[int, ...], action: int) -> tuple[int, ...]:
        if len(state) == 5:
            raise IllegalActionError(action, ["none"], context="(a bug six plies down)")
        return (*state, action)

    def is_terminal(self, state: tuple[int, ...]) -> bool:
        return len(state) >= 8

    def utility(self, state: tuple[int, ...], player: int) -> float:
        return float(sum(state) % 3) * (1 if player == 0 else -1)


def test_an_exception_with_its_own_constructor_survives_the_trip() -> None:
    game = RaisesDeep()
    with pytest.raises(IllegalActionError, match="a bug six plies down") as raised:
        parallel_alphabeta(game, game.initial_state(), Limit(depth=7))
    assert raised.value.legal == ["none"]


def test_a_pool_of_the_callers_is_used_and_left_open() -> None:
    c4 = Connect4()
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(2, mp_context=spawn) as pool:
        for moves in ("", "4453"):
            state = c4.moves_from_string(moves)
            expected = plies.alphabeta(c4, state, Limit(depth=6), **CRAFT)
            got = parallel_alphabeta(c4, state, Limit(depth=6), executor=pool, **CRAFT)
            assert (got.value, got.action) == (expected.value, expected.action)
        assert pool.submit(abs, -3).result() == 3


@pytest.mark.parametrize("name", names())
def test_every_built_in_game_is_picklable(name: str) -> None:
    game = load(name)
    state = game.initial_state()
    if game.to_move(state) >= 0 and game.actions(state):
        state = game.result(state, game.actions(state)[0])
    copy = pickle.loads(pickle.dumps(game))
    state_copy = pickle.loads(pickle.dumps(state))
    assert state_copy == state
    assert copy.is_terminal(state_copy) == game.is_terminal(state)
    if not game.is_terminal(state) and game.to_move(state) >= 0:
        assert list(copy.actions(state_copy)) == list(game.actions(state))
