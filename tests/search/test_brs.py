"""Best-Reply Search (brs) and BRS+ (brs+): against alpha-beta with two players, against
the BRS definition written out plainly with more, and their refusals."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import plies
from plies.errors import UnsupportedGameError
from plies.games import load
from plies.search.brs import brs, brs_plus
from plies.search.registry import algorithm
from tests.data import GDL_DATA
from tests.search.randomtree import RandomTree, RandomTurns, random_trees, random_turn_games

SETTINGS = settings(
    max_examples=200, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
SEARCHES = [brs, brs_plus]


# --- the BRS definition, written out (no pruning, no bookkeeping) -------------------------


def turns(game: Any, state: Any, who: int) -> Iterator[tuple[Any, Any]]:
    """``(first action, end state)`` of every way ``who`` can play out its turn."""
    if game.is_terminal(state) or game.to_move(state) != who:
        yield None, state
        return
    for action in game.actions(state):
        for _, end in turns(game, game.result(state, action), who):
            yield action, end


def fixed_line(game: Any, state: Any, stop: set[int]) -> Any:
    """Play the first action until a player in ``stop`` is to move (or the game ends)."""
    while not game.is_terminal(state) and game.to_move(state) not in stop:
        state = game.result(state, game.actions(state)[0])
    return state


def definition(game: Any, player: int, plus: bool) -> Any:
    """The BRS value as the papers define it: ``value(state, layers left)``."""

    def leaf(state: Any, left: int | None) -> float | None:
        if game.is_terminal(state):
            return float(game.utility(state, player))
        if left == 0:
            return float(game.evaluate(state, player))
        return None

    def nxt(left: int | None) -> int | None:
        return None if left is None else left - 1

    def max_layer(state: Any, left: int | None) -> float:
        value = leaf(state, left)
        if value is not None:
            return value
        return max(after_max(end, left) for _, end in turns(game, state, player))

    def after_max(end: Any, left: int | None) -> float:
        if game.is_terminal(end):
            return float(game.utility(end, player))
        return min_layer(end, nxt(left))

    def min_layer(state: Any, left: int | None) -> float:
        value = leaf(state, left)
        if value is not None:
            return value
        n, mover = game.num_players, game.to_move(state)
        values = []
        for q in ((mover + k) % n for k in range(n)):
            if q == player:
                continue
            if plus:
                start = fixed_line(game, state, {q, player})
            else:
                start = state if q == mover else game.pass_turn_to(state, q)
            if game.is_terminal(start) or game.to_move(start) != q:
                continue  # q gets no turn before the searching player's
            for _, end in turns(game, start, q):
                if plus:
                    end = fixed_line(game, end, {player})
                elif not game.is_terminal(end) and game.to_move(end) != player:
                    end = game.pass_turn_to(end, player)
                values.append(
                    float(game.utility(end, player)) if game.is_terminal(end)
                    else max_layer(end, nxt(left))
                )
        return min(values) if values else float(game.evaluate(state, player))

    return max_layer, min_layer


def brs_by_definition(
    game: Any, state: Any, depth: int | None, plus: bool
) -> tuple[float, Any]:
    """The root value and the first best root action, for the player to move."""
    player = game.to_move(state)
    max_layer, min_layer = definition(game, player, plus)
    best, best_action = -float("inf"), None
    for action in game.actions(state):
        child = game.result(state, action)
        if game.is_terminal(child):
            value = float(game.utility(child, player))
        elif game.to_move(child) == player:
            value = max_layer(child, depth)
        else:
            value = min_layer(child, None if depth is None else depth - 1)
        if value > best:
            best, best_action = value, action
    return best, best_action


# --- two players: exactly alpha-beta --------------------------------------------------------


two_player_limits = st.one_of(
    st.none(),
    st.builds(plies.Limit, depth=st.integers(0, 5), unit=st.sampled_from(["ply", "round"])),
)


@SETTINGS
@given(random_trees(players=2), two_player_limits, st.sampled_from(SEARCHES))
def test_brs_equals_alphabeta_with_two_players(
    tree: RandomTree, limit: plies.Limit | None, search: Any
) -> None:
    # Random movers: several moves in a row are one turn (a ply is a move, as in
    # alpha-beta; a round is a MAX and a MIN layer).
    expected = plies.alphabeta(tree, 0, limit)
    got = search(tree, 0, limit)
    assert (got.value, got.action) == (expected.value, expected.action)


@SETTINGS
@given(random_trees(players=2), st.integers(0, 1), st.sampled_from(SEARCHES))
def test_brs_equals_alphabeta_for_either_player(tree: RandomTree, p: int, search: Any) -> None:
    expected = plies.alphabeta(tree, 0, player=p)
    got = search(tree, 0, player=p)
    assert (got.value, got.action) == (expected.value, expected.action)


@pytest.mark.parametrize("search", SEARCHES)
@pytest.mark.parametrize(
    ("name", "options", "moves", "depths"),
    [
        ("tictactoe", {}, "", (1, 2, 3, 4, 5, None)),
        ("tictactoe", {}, "5 1", (1, 2, 3, None)),
        ("connect4", {}, "4 4 3", (1, 2, 3, 4, 5)),
        ("nim", {}, "", (1, 3, None)),
    ],
)
def test_brs_equals_alphabeta_on_two_player_games(
    search: Any, name: str, options: dict[str, Any], moves: str,
    depths: tuple[int | None, ...],
) -> None:
    game = load(name, **options)
    state = game.initial_state()
    for move in moves.split():
        state = plies.play(game, state, move)
    for depth in depths:
        limit = None if depth is None else plies.Limit(depth=depth)
        expected = plies.alphabeta(game, state, limit)
        got = search(game, state, limit)
        assert (got.value, got.action, got.pv) == (expected.value, expected.action, expected.pv)


@pytest.mark.parametrize("search", SEARCHES)
def test_brs_equals_alphabeta_on_two_player_multi_move_turns(search: Any) -> None:
    game = load("civ", players=2, moves=2, rounds=2)
    state = game.initial_state()
    limits = [None, *(plies.Limit(depth=d, unit=u) for d in (1, 2, 3) for u in ("ply", "round"))]
    for limit in limits:
        expected = plies.alphabeta(game, state, limit)
        got = search(game, state, limit)
        assert (got.value, got.action) == (expected.value, expected.action)


# --- more players: the definition -------------------------------------------------------------


def check_definition(game: RandomTurns, search: Any, plus: bool, depth: int | None) -> None:
    """Exact, by rounds (any game: 2d layers) and by plies (one move per turn: d layers)."""
    state = game.initial_state()
    if depth is None:
        got = search(game, state)
        assert (got.value, got.action) == brs_by_definition(game, state, None, plus)
        return
    got = search(game, state, plies.Limit(depth=depth, unit="round"))
    assert (got.value, got.action) == brs_by_definition(game, state, 2 * depth, plus)
    if game.moves == 1:
        got = search(game, state, plies.Limit(depth=depth))
        assert (got.value, got.action) == brs_by_definition(game, state, depth, plus)


@SETTINGS
@given(random_turn_games(), st.one_of(st.none(), st.integers(1, 3)))
def test_brs_equals_its_definition(game: RandomTurns, depth: int | None) -> None:
    check_definition(game, brs, False, depth)


@SETTINGS
@given(random_turn_games(), st.one_of(st.none(), st.integers(1, 3)))
def test_brs_plus_equals_its_definition(game: RandomTurns, depth: int | None) -> None:
    check_definition(game, brs_plus, True, depth)


@SETTINGS
@given(random_turn_games(players=(2, 4)), st.integers(1, 5), st.sampled_from(SEARCHES))
def test_brs_pruning_visits_no_more_nodes_than_the_plain_tree(
    game: RandomTurns, depth: int, search: Any
) -> None:
    state = game.initial_state()
    pruned = search(game, state, plies.Limit(depth=depth))
    plain = search(game, state, plies.Limit(depth=depth), pruning=False)
    assert (pruned.value, pruned.action) == (plain.value, plain.action)
    assert pruned.stats.nodes <= plain.stats.nodes


@SETTINGS
@given(random_turn_games(), st.integers(1, 4), st.sampled_from(SEARCHES))
def test_brs_traced_is_the_same_search(game: RandomTurns, depth: int, search: Any) -> None:
    state = game.initial_state()
    events: list[plies.TraceEvent] = []
    traced = search(game, state, plies.Limit(depth=depth), trace=events.append)
    plain = search(game, state, plies.Limit(depth=depth))
    assert (traced.value, traced.action, traced.pv) == (plain.value, plain.action, plain.pv)
    assert traced.stats.nodes == plain.stats.nodes
    assert sum(e.kind == "enter" for e in events) == plain.stats.nodes


@SETTINGS
@given(random_turn_games(moves=(1, 1)), st.integers(1, 3))
def test_brs_depth_in_rounds_is_two_plies_with_one_move_a_turn(
    game: RandomTurns, rounds: int
) -> None:
    state = game.initial_state()
    for search in SEARCHES:
        by_round = search(game, state, plies.Limit(depth=rounds, unit="round"))
        by_ply = search(game, state, plies.Limit(depth=2 * rounds))
        assert (by_round.value, by_round.action) == (by_ply.value, by_ply.action)


def test_brs_plus_sees_more_own_turns_than_paranoid_at_the_same_depth() -> None:
    # Three players, depth 6: paranoid's line is P0 P1 P2 P0 P1 P2 (two own turns);
    # BRS+'s layers MAX MIN MAX MIN MAX MIN hold three own turns.
    game = load("civ", players=3, moves=1, rounds=4)
    state = game.initial_state()
    paranoid = plies.alphabeta(game, state, plies.Limit(depth=6))
    best_reply = brs_plus(game, state, plies.Limit(depth=6))

    def own_turns(pv: tuple[Any, ...]) -> int:
        s, count = state, 0
        for action in pv:
            count += game.to_move(s) == 0
            s = game.result(s, action)
        return count

    assert own_turns(paranoid.pv) == 2
    assert own_turns(best_reply.pv) == 3


@pytest.mark.parametrize("plus", [False, True])
@pytest.mark.parametrize("rounds", [1, 2])
def test_brs_equals_its_definition_on_civ_whose_turns_pass_by_the_hook(
    plus: bool, rounds: int
) -> None:
    # Three civilisations, three moves a turn: MultiMoveTurns.pass_turn_to lets one reply.
    game = load("civ", rounds=3)
    state = game.initial_state()
    search = brs_plus if plus else brs
    got = search(game, state, plies.Limit(depth=rounds, unit="round"))
    assert (got.value, got.action) == brs_by_definition(game, state, 2 * rounds, plus)


@pytest.mark.parametrize("name", ["brs", "brs+"])
def test_brs_plays_empire(name: str) -> None:
    game = load("empire", turns=30)
    state = game.initial_state()
    for _ in range(12):  # into the game, a few turns of every empire
        result = algorithm(name).search(game, state, plies.Limit(depth=3))
        assert result.action in game.actions(state)
        assert 0.0 <= result.value <= 1.0
        state = game.result(state, result.action)


def test_brs_plus_lines_are_legal_lines() -> None:
    game = load("civ")
    result = brs_plus(game, game.initial_state(), plies.Limit(depth=4))
    state = game.initial_state()
    for action in result.pv:
        state = plies.play(game, state, action)  # raises on an illegal move


def test_brs_analyze_gives_every_root_action() -> None:
    game = load("civ")
    state = game.initial_state()
    result = plies.analyze(game, state, plies.Limit(depth=3), algorithm="brs+")
    assert result.action_values is not None
    assert list(result.action_values) == list(game.actions(state))
    assert result.value == max(result.action_values.values())
    assert result.value == brs_plus(game, state, plies.Limit(depth=3)).value


# --- refusals -----------------------------------------------------------------------------


def test_brs_refuses_a_game_of_three_players_without_pass_turn_to() -> None:
    game = load(str(GDL_DATA / "tictactoe_3player.kif"))
    with pytest.raises(UnsupportedGameError) as err:
        brs(game, game.initial_state(), plies.Limit(depth=2))
    message = str(err.value)
    assert "\n" not in message and "pass_turn_to" in message and "brs+" in message
    assert algorithm("brs").refusal(game) == message
    assert algorithm("brs+").refusal(game) is None


@pytest.mark.parametrize("name", ["brs", "brs+"])
@pytest.mark.parametrize(("game_name", "word"), [("rps", "simultaneous"), ("pig", "chance")])
def test_brs_refuses_simultaneous_moves_and_chance(name: str, game_name: str, word: str) -> None:
    game = load(game_name)
    with pytest.raises(UnsupportedGameError) as err:
        algorithm(name).search(game, game.initial_state(), plies.Limit(depth=2), player=0)
    message = str(err.value)
    assert "\n" not in message and word in message and name in message


# --- GDL games of three players ---------------------------------------------------------------


@pytest.fixture(scope="module")
def chinese_checkers() -> Any:
    # Grounding it takes 20 M steps (tests/data/gdl/README.md): loaded once here.
    return load(str(GDL_DATA / "large" / "chineseCheckers3.kif"))


def test_chinese_checkers_loads_and_passes_the_conformance_check(chinese_checkers: Any) -> None:
    game = chinese_checkers
    assert game.num_players == 3 and game.roles == ("red", "green", "blue")
    state = game.initial_state()
    assert game.to_move(state) == 0
    assert [game.format_action(state, a) for a in game.actions(state)] == [
        "noop", "(move a1 c3)", "(move a1 c5)", "(move b1 c3)", "(move b1 c4)",
        "(move b2 c4)", "(move b2 c5)",
    ]
    report = plies.check_game(game, playouts=3, seed=1)
    assert report.playouts == report.terminals == 3


@pytest.mark.parametrize("name", ["chineseCheckers3", "tictactoe_3player"])
def test_brs_plus_paranoid_and_maxn_play_three_player_gdl_games_to_the_end(
    name: str, chinese_checkers: Any
) -> None:
    game = chinese_checkers if name == "chineseCheckers3" else load(str(GDL_DATA / f"{name}.kif"))
    state = game.initial_state()
    searches = ["brs+", "paranoid", "maxn"]
    moves = 0
    while not game.is_terminal(state):
        search = algorithm(searches[game.to_move(state)]).search
        result = search(game, state, plies.Limit(depth=2))
        assert result.action in game.actions(state)
        state = game.result(state, result.action)
        moves += 1
    assert moves <= 59
    assert all(0 <= game.utility(state, p) <= 100 for p in range(3))
