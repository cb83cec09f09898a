"""OpenSpiel games in plies (``openspiel:NAME``): the adapter keeps the game model's
promises, and plies' values equal OpenSpiel's own algorithms' values.

pyspiel (``pip install 'plies[openspiel]'``, which ``make`` does through the test extra) is
needed by most tests; a missing pyspiel fails them with the line that installs it.
"""

from __future__ import annotations

import importlib.util
import pickle
import sys
from typing import Any

import pytest

import plies
from plies.errors import GameFormatError, GameSpecError, IllegalActionError, UnsupportedGameError
from plies.game import CHANCE, SIMULTANEOUS
from plies.games import GameSpec, load
from plies.policy.games import position
from plies.search.simultaneous import solve_matrix_game
from plies.sources.openspiel import OpenSpielGame, is_openspiel_spec, load_openspiel
from tests.clirun import fail, plain_pipe, run, run_json  # noqa: F401 (autouse fixture)
from tests.conformance import check_game

PYSPIEL = importlib.util.find_spec("pyspiel") is not None


@pytest.fixture
def spiel() -> Any:
    """pyspiel, which ``make`` installs (the ``openspiel`` extra is in ``test``)."""
    if not PYSPIEL:
        pytest.fail("pyspiel is missing: pip install 'plies[openspiel]' (make installs it)")
    import pyspiel

    return pyspiel


def moves(game: OpenSpielGame, text: str) -> Any:
    return position(game, text)[0]


# --- the adapter keeps the model's promises ---


@pytest.mark.parametrize(
    "spec",
    [
        "openspiel:tic_tac_toe",
        "openspiel:connect_four",
        "openspiel:pig(winscore=6)",
        "openspiel:pig(players=3,winscore=4)",
        "openspiel:kuhn_poker",
        "openspiel:matrix_rps",
        "openspiel:goofspiel(num_cards=3)",
        "openspiel:oshi_zumo(coins=4,size=1)",
        "openspiel:nim",
    ],
)
def test_openspiel_games_pass_the_conformance_check(spiel: Any, spec: str) -> None:
    report = check_game(load(spec), playouts=10)
    assert report.terminals == 10


def test_facts_come_from_openspiel(spiel: Any) -> None:
    ttt = load("openspiel:tic_tac_toe")
    assert (ttt.num_players, ttt.zero_sum, ttt.has_chance, ttt.has_simultaneous) == (
        2, True, False, False,
    )
    assert ttt.utility_range == (-1.0, 1.0) and ttt.name == "openspiel:tic_tac_toe"
    pig = load("openspiel:pig(winscore=6)")
    assert pig.has_chance and pig.name == "openspiel:pig(winscore=6)"
    assert pig.to_move(pig.result(pig.initial_state(), 0)) == CHANCE  # roll
    rps = load("openspiel:matrix_rps")
    assert rps.has_simultaneous and rps.to_move(rps.initial_state()) == SIMULTANEOUS
    kuhn = load("openspiel:kuhn_poker")
    assert isinstance(kuhn, OpenSpielGame) and not kuhn.perfect_information


def test_result_leaves_the_state_alone(spiel: Any) -> None:
    game = load("openspiel:tic_tac_toe")
    state = game.initial_state()
    child = game.result(state, 4)
    assert state.native.history() == [] and child.native.history() == [4]
    assert child.history == (4,) and child != state


def test_actions_read_and_written_as_openspiel_text_or_ids(spiel: Any) -> None:
    game = load("openspiel:tic_tac_toe")
    state = moves(game, "x(1,1) o(0,0) 8")
    assert state.native.history() == [4, 0, 8]
    assert game.format_action(state, 2) == "o(0,2)"
    assert game.parse_action(state, " O(0,2) ") == 2
    with pytest.raises(IllegalActionError, match="legal moves: o"):
        game.parse_action(state, "x(1,1)")
    nim = load("openspiel:nim")
    assert nim.format_action(nim.initial_state(), 0) == "pile:1,take:1;"
    assert nim.parse_action(nim.initial_state(), "pile:1, take:1;") == 0
    rps = load("openspiel:matrix_rps")
    start = rps.initial_state()
    assert rps.format_action(start, (0, 2)) == "Rock/Scissors"
    assert rps.parse_action(start, "rock/scissors") == rps.parse_action(start, "0/2") == (0, 2)


def test_a_game_pickles_by_its_openspiel_string(spiel: Any) -> None:
    game = load("openspiel:pig(winscore=6)")
    again = pickle.loads(pickle.dumps(game))
    assert isinstance(again, OpenSpielGame) and again.name == game.name
    spec = GameSpec.parse("openspiel:pig", ["winscore=6"])
    assert pickle.loads(pickle.dumps(spec)).load().name == "openspiel:pig(winscore=6)"


# --- values: plies' searches against OpenSpiel's own algorithms ---


def test_tic_tac_toe_is_a_draw(spiel: Any) -> None:
    game = load("openspiel:tic_tac_toe")
    assert plies.alphabeta(game, game.initial_state()).value == 0.0


def test_every_tic_tac_toe_value_equals_openspiels_minimax_solver(spiel: Any) -> None:
    # OpenSpiel's MinimaxSolver tables the value of every reachable non-terminal
    # tic-tac-toe position (for the player to move); plies' alpha-beta gives the same
    # value for each of them.  One table serves all searches of one player (values are
    # kept from the searcher's point of view), and it is keyed by position.
    from open_spiel.python.algorithms.minimax_solver import MinimaxSolver

    table = MinimaxSolver("tic_tac_toe").solve()
    game = load("openspiel:tic_tac_toe")
    states: dict[Any, Any] = {}
    frontier = [game.initial_state()]
    while frontier:
        state = frontier.pop()
        if game.key(state) in states or game.is_terminal(state):
            continue
        states[game.key(state)] = state
        frontier.extend(game.result(state, a) for a in game.actions(state))
    assert len(states) == len(table) == 4520
    for player in (0, 1):
        shared = plies.TranspositionTable()
        for state in states.values():
            if game.to_move(state) == player:
                ours = plies.alphabeta(game, state, tt=shared).value
                assert ours == table[str(state.native)].value, str(state.native)


@pytest.mark.parametrize(
    "line", ["x(1,1)", "x(0,0) o(0,1)", "x(0,0) o(1,1) x(2,2)", "x(0,1) o(0,0)"]
)
def test_tic_tac_toe_values_equal_openspiel_alpha_beta(spiel: Any, line: str) -> None:
    from open_spiel.python.algorithms.minimax import alpha_beta_search

    game = load("openspiel:tic_tac_toe")
    state = moves(game, line)
    for player in (0, 1):
        theirs, _ = alpha_beta_search(
            game.native, state.native, maximizing_player_id=player
        )
        assert plies.minimax(game, state, player=player).value == theirs


def test_connect_four_depth_limited_values_equal_openspiel_alpha_beta(spiel: Any) -> None:
    # OpenSpiel's Connect Four, searched by plies' engine to a depth where OpenSpiel's
    # alpha-beta scores its cutoff leaves with the same evaluation (0: plies' default for
    # a utility range of -1..1).
    from open_spiel.python.algorithms.minimax import alpha_beta_search

    game = load("openspiel:connect_four")
    state = moves(game, "x3 o3 x2 o4 x4")
    for depth in (1, 3, 4):
        theirs, _ = alpha_beta_search(
            game.native, state.native, value_function=lambda s: 0.0, maximum_depth=depth
        )
        ours = plies.alphabeta(game, state, plies.Limit(depth=depth))
        assert ours.value == theirs


@pytest.mark.parametrize(
    "spec", ["pig(winscore=4,horizon=6)", "pig(winscore=5,horizon=8,diceoutcomes=3)"]
)
def test_pig_values_equal_openspiel_expectiminimax(spiel: Any, spec: str) -> None:
    from open_spiel.python.algorithms.minimax import expectiminimax

    game = load(f"openspiel:{spec}")
    state = game.initial_state()
    for player in (0, 1):
        theirs, _ = expectiminimax(state.native, 1000, None, player)
        ours = plies.expectiminimax(game, state, player=player).value
        assert ours == pytest.approx(theirs, abs=1e-12)


def test_kuhn_poker_full_state_values_equal_openspiel_expectiminimax(spiel: Any) -> None:
    # Both search the full state (the deal seen by everyone): the perfect-information
    # relaxation of Kuhn poker, from the deal and from each first card.
    from open_spiel.python.algorithms.minimax import expectiminimax

    game = load("openspiel:kuhn_poker")
    start = game.initial_state()
    for state in (start, *(game.result(start, card) for card in (0, 1, 2))):
        for player in (0, 1):
            theirs, _ = expectiminimax(state.native, 100, None, player)
            ours = plies.expectiminimax(game, state, player=player).value
            assert ours == pytest.approx(theirs, abs=1e-12)


@pytest.mark.parametrize("name", ["matrix_rps", "matrix_mp", "matrix_brps", "matrix_rpsw"])
def test_matrix_game_values_are_equilibria_of_openspiels_payoffs(spiel: Any, name: str) -> None:
    # plies' simultaneous search solves the stage; the value is then certified on
    # OpenSpiel's own payoff table: the row strategy guarantees it against every column,
    # and the column strategy holds the row player to it.
    game = load(f"openspiel:{name}")
    value = plies.simultaneous(game, game.initial_state(), player=0).value
    matrix = spiel.load_game(name)
    rows, cols = matrix.num_rows(), matrix.num_cols()
    payoff = [[matrix.player_utility(0, r, c) for c in range(cols)] for r in range(rows)]
    solution = solve_matrix_game(payoff)
    x, y = solution.row, solution.column
    worst_column = min(sum(x[r] * payoff[r][c] for r in range(rows)) for c in range(cols))
    best_row = max(sum(y[c] * payoff[r][c] for c in range(cols)) for r in range(rows))
    assert value == pytest.approx(worst_column, abs=1e-7)
    assert value == pytest.approx(best_row, abs=1e-7)


def security_values(payoffs: Any, solve: Any) -> set[float]:
    """The values (rounded to 1e-9) of the zero-sum game ``(payoffs, -payoffs)`` at every
    equilibrium ``solve`` returns: what the row player can guarantee with mixed strategies."""
    return {round(float(x @ payoffs @ y), 9) for x, y in solve(payoffs, -payoffs)}


def lemke_howson(payoffs: Any, other: Any) -> list[Any]:
    """Every equilibrium OpenSpiel's ``matrix_nash.lemke_howson_solve`` (nashpy) finds."""
    import warnings

    from open_spiel.python.algorithms.matrix_nash import lemke_howson_solve

    with warnings.catch_warnings():  # nashpy warns on degenerate games (its own, not ours)
        warnings.simplefilter("ignore")
        return list(lemke_howson_solve(payoffs, other))


@pytest.mark.parametrize(
    "name",
    [
        "matrix_rps", "matrix_mp", "matrix_brps", "matrix_rpsw",  # zero-sum
        "matrix_pd", "matrix_bos", "matrix_sh", "matrix_cd", "matrix_coordination",
        "matrix_shapleys_game",  # general-sum: the value is each player's security level
    ],
)
def test_matrix_game_values_equal_openspiels_lemke_howson(spiel: Any, name: str) -> None:
    # plies' simultaneous value for a player is what that player can guarantee when the
    # other minimises it: the value of the zero-sum game (M, -M) on the player's payoffs M
    # (M transposed for the column player).  OpenSpiel's solver finds that game's
    # equilibria by Lemke-Howson, and each of them pays the same value.
    import numpy as np

    game = load(f"openspiel:{name}")
    matrix = spiel.load_matrix_game(name)
    rows = np.array(matrix.row_utilities())
    columns = np.array(matrix.col_utilities()).T
    for player, payoffs in ((0, rows), (1, columns)):
        ours = plies.simultaneous(game, game.initial_state(), player=player).value
        theirs = security_values(payoffs, lemke_howson)
        assert len(theirs) == 1
        assert ours == pytest.approx(theirs.pop(), abs=1e-9)


@pytest.mark.parametrize("seed", range(8))
def test_random_matrix_game_values_equal_nashpys_vertex_enumeration(spiel: Any, seed: int) -> None:
    # Zero-sum games of random shape and payoffs, built by OpenSpiel (create_matrix_game):
    # mostly mixed equilibria, none of them symmetric, so the value is rarely 0.  nashpy's
    # vertex enumeration solves them.  Its Lemke-Howson (OpenSpiel's matrix_nash) is not
    # used here: on these non-square games nashpy 0.0.43 returns column strategies that
    # are no equilibrium (seeds 0 and 7), and its support enumeration finds none.
    import nashpy
    import numpy as np

    def vertex_enumeration(payoffs: Any, other: Any) -> list[Any]:
        return list(nashpy.Game(payoffs, other).vertex_enumeration())

    rng = np.random.default_rng(seed)
    payoffs = rng.uniform(-1.0, 1.0, size=rng.integers(2, 6, size=2)).round(3)
    game = OpenSpielGame(spiel.create_matrix_game(payoffs.tolist(), (-payoffs).tolist()))
    ours = plies.simultaneous(game, game.initial_state(), player=0).value
    theirs = security_values(payoffs, vertex_enumeration)
    assert len(theirs) == 1
    assert ours == pytest.approx(theirs.pop(), abs=1e-9)
    column = plies.simultaneous(game, game.initial_state(), player=1).value
    assert column == pytest.approx(-ours, abs=1e-9)


@pytest.mark.parametrize("params", ["coins=4,fields=3", "coins=5,fields=3", "coins=4,fields=4"])
def test_blotto_values_equal_nashpys_linear_program(spiel: Any, params: str) -> None:
    # Colonel Blotto: OpenSpiel's simultaneous game turned into its matrix by OpenSpiel
    # (extensive_to_matrix_game).  It is degenerate (many equal payoffs), where
    # Lemke-Howson fails, so nashpy's own minimax LP solves it.
    import nashpy
    import numpy as np

    game = load(f"openspiel:blotto({params})")
    matrix = spiel.extensive_to_matrix_game(game.native)
    rows = np.array(matrix.row_utilities())
    columns = np.array(matrix.col_utilities()).T

    def linear_program(payoffs: Any, other: Any) -> list[Any]:
        return [nashpy.Game(payoffs, other).linear_program()]

    for player, payoffs in ((0, rows), (1, columns)):
        ours = plies.simultaneous(game, game.initial_state(), player=player).value
        assert ours == pytest.approx(security_values(payoffs, linear_program).pop(), abs=1e-7)


def test_goofspiel_is_fair_and_its_bounds_hold(spiel: Any) -> None:
    # Goofspiel is symmetric, so its value is 0; the sequentialised searches bound it
    # (the searching player choosing first: a lower bound; last: an upper bound).
    from plies.wrappers import Sequentialized

    game = load("openspiel:goofspiel(num_cards=3)")
    start = game.initial_state()
    value = plies.simultaneous(game, start, player=0).value
    low = plies.expectiminimax(Sequentialized(game, 0), start, player=0).value
    high = plies.expectiminimax(Sequentialized(game, 0, optimistic=True), start, player=0).value
    assert value == pytest.approx(0.0, abs=1e-9)
    assert low <= value + 1e-9 and value <= high + 1e-9


def test_three_player_pig_searches_with_maxn(spiel: Any) -> None:
    game = load("openspiel:pig(players=3,winscore=3,horizon=5)")
    assert game.num_players == 3
    result = plies.maxn(game, game.initial_state())
    assert game.utility_range[0] <= result.value <= game.utility_range[1]
    assert result.action in game.actions(game.initial_state())


# --- transposition keys ---


def test_tic_tac_toe_connect_four_and_breakthrough_are_keyed_by_position(spiel: Any) -> None:
    game = load("openspiel:tic_tac_toe")
    one, two = moves(game, "x(0,0) o(1,1) x(2,2)"), moves(game, "x(2,2) o(1,1) x(0,0)")
    assert game.key_by == "string" and one != two and game.key(one) == game.key(two)
    four = load("openspiel:connect_four")
    assert four.key(moves(four, "x0 o1 x2")) == four.key(moves(four, "x2 o1 x0"))
    breakthrough = load("openspiel:breakthrough(rows=5,columns=4)")
    assert breakthrough.key(moves(breakthrough, "a5a4 a1a2 b5b4")) == breakthrough.key(
        moves(breakthrough, "b5b4 a1a2 a5a4")
    )
    history = load("openspiel:tic_tac_toe", {"key": "history"})
    assert history.key_by == "history" and history.key(one) != history.key(two)


def test_games_whose_text_is_not_the_whole_state_keep_history_keys(spiel: Any) -> None:
    # Pig's text shows scores but not the turns its horizon counts; Kuhn poker's hides
    # nothing but is no game a position key was checked for: both stay on history keys.
    assert load("openspiel:pig(winscore=6)").key_by == "history"
    assert load("openspiel:kuhn_poker").key_by == "history"
    string = load("openspiel:nim", ["key=string"])
    assert string.key_by == "string" and string.name == "openspiel:nim"


@pytest.mark.parametrize(
    ("spec", "line", "depth"),
    [
        ("connect_four", "x3 o3 x2", 4),
        ("connect_four", "x3 o3 x2", 6),
        ("breakthrough(rows=4,columns=3)", "", 7),
    ],
)
def test_position_keys_change_no_value_and_save_nodes(
    spiel: Any, spec: str, line: str, depth: int
) -> None:
    position_keyed = load(f"openspiel:{spec}")
    history_keyed = load(f"openspiel:{spec}", {"key": "history"})
    start = moves(position_keyed, line)
    limit = plies.Limit(depth=depth)
    plain = plies.alphabeta(history_keyed, start, limit)
    merged = plies.alphabeta(position_keyed, start, limit, tt=True)
    apart = plies.alphabeta(history_keyed, start, limit, tt=True)
    assert plain.value == merged.value == apart.value
    assert merged.stats.tt_hits > 0 == apart.stats.tt_hits
    assert merged.stats.nodes < apart.stats.nodes


def test_the_key_option_survives_pickling_and_the_command_line(
    spiel: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    game = load("openspiel:tic_tac_toe", ["key=history"])
    assert pickle.loads(pickle.dumps(game)).key_by == "history"
    spec = GameSpec.parse("openspiel:tic_tac_toe", ["key=history"])
    assert pickle.loads(pickle.dumps(spec)).load().key_by == "history"
    merged = run_json(capsys, "solve", "openspiel:tic_tac_toe", "--engine")
    apart = run_json(capsys, "solve", "openspiel:tic_tac_toe", "--engine", "-o", "key=history")
    assert merged["value"] == apart["value"] == 0.0
    assert merged["stats"]["nodes"] < apart["stats"]["nodes"]
    message = fail(capsys, "solve", "openspiel:tic_tac_toe", "-o", "key=board")
    assert "key 'board' is not a transposition key of an OpenSpiel game; accepted: auto" in message


# --- specs and errors ---


def test_openspiel_specs_are_told_apart_from_module_specs() -> None:
    assert is_openspiel_spec("openspiel:tic_tac_toe") and is_openspiel_spec(" OpenSpiel:pig")
    assert not is_openspiel_spec("mypkg.games:Trio")


def test_solve_openspiel_tic_tac_toe_on_the_command_line(
    spiel: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    data = run_json(capsys, "solve", "openspiel:tic_tac_toe")
    assert data["value"] == 0.0 and data["exact"] is True
    assert data["game"] == "openspiel:tic_tac_toe"
    assert data["action"] == "x(0,0)" and len(data["pv"]) == 9


def test_options_add_openspiel_parameters_on_the_command_line(
    spiel: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    data = run_json(capsys, "solve", "openspiel:pig(winscore=4)", "-o", "horizon=6")
    assert data["value"] == pytest.approx(0.6369598765432098)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("openspiel:tic_tac_to", "unknown OpenSpiel game 'tic_tac_to'; did you mean tic_tac_toe"),
        ("openspiel:pig(winscroe=3)", "pig has no parameter 'winscroe'; its parameters: "),
        ("openspiel:pig(winscore)", "parameter 'winscore' is not key=value"),
        ("openspiel:", "is not an OpenSpiel game spec; write openspiel:NAME"),
        ("openspiel:tic_tac_toe(key=string)", "key is plies' option, not a parameter of"),
    ],
)
def test_bad_openspiel_specs_fail_in_one_line(
    spiel: Any, capsys: pytest.CaptureFixture[str], spec: str, message: str
) -> None:
    assert message in fail(capsys, "solve", spec)


def test_a_mean_field_game_is_refused(spiel: Any) -> None:
    with pytest.raises(UnsupportedGameError, match="mean-field game"):
        load_openspiel("openspiel:mfg_crowd_modelling")


def test_a_game_with_sampled_chance_is_refused(spiel: Any) -> None:
    """Regression: Tarok samples its deal inside OpenSpiel and lists one chance outcome
    of probability 1, so expectiminimax would have searched one random deal as certain."""
    with pytest.raises(UnsupportedGameError, match="samples its chance outcomes"):
        load_openspiel("openspiel:tarok")


def test_without_pyspiel_an_openspiel_game_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel now fails
    with pytest.raises(GameSpecError, match=r"needs OpenSpiel \(pyspiel\).*plies\[openspiel\]"):
        load("openspiel:tic_tac_toe")
    with pytest.raises(GameFormatError, match="not an OpenSpiel game spec"):
        load_openspiel("openspiel:pig(")


def test_plies_games_lists_openspiel_games_with_their_type(
    spiel: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    out = run(capsys, "games", "--openspiel")
    rows = {line.split("│")[1].strip(): line for line in out.splitlines() if "│" in line}
    assert len(rows) == len(spiel.registered_names()) == 126
    cells = {name: [c.strip() for c in line.split("│")[2:-1]] for name, line in rows.items()}
    assert cells["tic_tac_toe"] == ["2", "sequential", "none", "perfect", "zero-sum"]
    assert cells["pig"] == ["2", "sequential", "explicit", "perfect", "zero-sum"]
    assert cells["kuhn_poker"] == ["2", "sequential", "explicit", "imperfect", "zero-sum"]
    assert cells["matrix_pd"] == ["2", "simultaneous", "none", "one-shot", "general-sum"]
    assert cells["misere *"][1] == "sequential"  # a wrapper: needs the game it wraps
    assert cells["mfg_crowd_modelling"][1] == "mean-field"
    assert "Refused: mean-field, sampled chance." in out


def test_plies_games_openspiel_without_pyspiel_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    message = fail(capsys, "games", "--openspiel")
    assert message == "OpenSpiel (pyspiel) is not installed: pip install 'plies[openspiel]'"


def test_play_openspiel_connect_four_engine_against_engine(
    spiel: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from plies.cli import main

    assert main(["play", "openspiel:connect_four", "--human", "none", "--depth", "2"]) == 0
    out = capsys.readouterr().out
    assert "game over" in out and "plays x" in out


def test_openspiel_moves_from_the_command_line_are_checked(
    spiel: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    message = fail(capsys, "solve", "openspiel:tic_tac_toe", "--moves", "x(1,1) x(0,0)")
    assert "illegal move 'x(0,0)' (move 2 of --moves); legal moves: o(0,0)" in message
