"""Othello: perft, bitboards against a plain board, passes, the end, evaluation, the solver."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import plies
from plies.errors import IllegalActionError, OptionError
from plies.games import load, names
from plies.games.othello import (
    CORNERS,
    FULL,
    PASS,
    X_SQUARES,
    Othello,
    OthelloState,
    OthelloWeights,
    flips,
    legal_moves,
    make_state,
    stable_discs,
)
from plies.games.othello.solver import OthelloSolver
from tests.clirun import plain_pipe, run, run_json  # noqa: F401 (autouse fixture)
from tests.conformance import check_game

GAME = Othello()

# Aart Bik, "Perft for Reversi" (aartbik.com/MISC/reversi.html): a pass counts as a ply
# and a finished game below the full depth counts as one leaf.  Passes first occur at
# depth 9 (3,005,288 leaves, which this model also gives: benchmarks/othello_endgame.py
# --perft 9); up to depth 8 no game has a pass, so the convention does not matter here.
PERFT = {1: 4, 2: 12, 3: 56, 4: 244, 5: 1396, 6: 8200, 7: 55092}


def perft(state: OthelloState, depth: int) -> int:
    if depth == 0 or GAME.is_terminal(state):
        return 1
    return sum(perft(GAME.result(state, a), depth - 1) for a in GAME.actions(state))


@pytest.mark.parametrize("depth", sorted(PERFT))
def test_perft_from_the_start_position(depth: int) -> None:
    assert perft(GAME.initial_state(), depth) == PERFT[depth]


# --- a plain board: a list of 64 cells, the rules written out square by square ------------

STEPS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def plain_flips(board: list[int], me: int, sq: int) -> list[int]:
    """The squares a disc of ``me`` (1 or 2) on ``sq`` flips on a board of 0/1/2 cells."""
    if board[sq]:
        return []
    out = []
    r0, c0 = divmod(sq, 8)
    for dr, dc in STEPS:
        line = []
        r, c = r0 + dr, c0 + dc
        while 0 <= r < 8 and 0 <= c < 8 and board[8 * r + c] == 3 - me:
            line.append(8 * r + c)
            r, c = r + dr, c + dc
        if line and 0 <= r < 8 and 0 <= c < 8 and board[8 * r + c] == me:
            out += line
    return out


def to_board(mine: int, theirs: int) -> list[int]:
    return [1 if mine >> i & 1 else 2 if theirs >> i & 1 else 0 for i in range(64)]


def bits(cells: list[int]) -> int:
    return sum(1 << i for i in cells)


boards = st.lists(st.sampled_from((0, 1, 2)), min_size=64, max_size=64)


@settings(max_examples=300, deadline=None)
@given(boards)
def test_bitboard_moves_and_flips_match_a_plain_board(cells: list[int]) -> None:
    mine = bits([i for i, v in enumerate(cells) if v == 1])
    theirs = bits([i for i, v in enumerate(cells) if v == 2])
    expected_moves = [sq for sq in range(64) if plain_flips(cells, 1, sq)]
    assert legal_moves(mine, theirs) == bits(expected_moves)
    for sq in expected_moves:
        assert flips(mine, theirs, sq) == bits(plain_flips(cells, 1, sq))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_games_match_a_plain_board_to_the_end(seed: int) -> None:
    rng = random.Random(seed)
    state = GAME.initial_state()
    board = [0] * 64
    board[27] = board[36] = 2  # White d4 e5
    board[28] = board[35] = 1  # Black e4 d5
    me = 1
    while not GAME.is_terminal(state):
        moves = [sq for sq in range(64) if plain_flips(board, me, sq)]
        actions = GAME.actions(state)
        assert actions == (moves or [PASS])
        assert GAME.to_move(state) == me - 1
        action = rng.choice(actions)
        if action != PASS:
            for sq in plain_flips(board, me, action):
                board[sq] = me
            board[action] = me
        state = GAME.result(state, action)
        me = 3 - me
        black, white = GAME.black_white(state)
        assert (black, white) == (bits([i for i in range(64) if board[i] == 1]),
                                  bits([i for i in range(64) if board[i] == 2]))
    # over: neither colour has a move on the plain board either
    assert not any(plain_flips(board, c, sq) for c in (1, 2) for sq in range(64))


# --- passes and the end --------------------------------------------------------------------


def test_a_player_without_a_move_passes_and_only_then() -> None:
    # Row 8 reads . . . . X O X O (Black e8 g8, White f8 h8), nothing else on the board.
    # Black has no move; White has one: d8, bracketing e8 against f8.
    black, white = (1 << 60) | (1 << 62), (1 << 61) | (1 << 63)
    state = make_state(black, white, player=1)
    assert GAME.actions(state) == [59]
    passing = make_state(black, white, player=0)
    assert not GAME.is_terminal(passing)
    assert GAME.actions(passing) == [PASS]
    after = GAME.result(passing, PASS)
    assert GAME.to_move(after) == 1 and GAME.black_white(after) == GAME.black_white(passing)
    assert GAME.actions(after) == [59]
    assert GAME.format_action(passing, PASS) == "pass"
    assert GAME.parse_action(passing, " PASS ") == PASS
    with pytest.raises(IllegalActionError, match="legal moves: d8"):
        GAME.parse_action(after, "pass")  # a player with a move may not pass
    assert "must pass" in GAME.render(passing)


def test_the_game_ends_when_neither_can_move_and_empties_go_to_the_winner() -> None:
    # White wiped out with 60 squares empty: Black wins 64-0.
    state = make_state(black=bits([27, 28, 35, 36]), white=0, player=1)
    assert GAME.is_terminal(state) and GAME.actions(state) == []
    assert (GAME.utility(state, 0), GAME.utility(state, 1)) == (64.0, -64.0)
    assert GAME.evaluate(state, 1) == -64.0
    full_draw = make_state(black=(1 << 32) - 1, white=FULL ^ ((1 << 32) - 1), player=0)
    assert GAME.is_terminal(full_draw) and GAME.utility(full_draw, 0) == 0.0
    assert "draw" in GAME.render(full_draw)
    with pytest.raises(ValueError, match="not over"):
        GAME.utility(GAME.initial_state(), 0)


def test_a_finished_random_game_scores_the_disc_difference() -> None:
    rng = random.Random(5)
    state = GAME.initial_state()
    while not GAME.is_terminal(state):
        state = GAME.result(state, rng.choice(GAME.actions(state)))
    black, white = GAME.black_white(state)
    b, w = black.bit_count(), white.bit_count()
    empties = 64 - b - w
    expected = b - w + (empties if b > w else -empties if b < w else 0)
    assert GAME.utility(state, 0) == expected == -GAME.utility(state, 1)


# --- text ------------------------------------------------------------------------------------


def test_squares_read_and_write_as_in_othello_diagrams() -> None:
    s = GAME.initial_state()
    assert [GAME.format_action(s, a) for a in GAME.actions(s)] == ["d3", "c4", "f5", "e6"]
    assert GAME.parse_action(s, "F5") == 37
    for bad in ("a1", "z9", "d", "pass", ""):
        with pytest.raises(IllegalActionError, match="legal moves: d3, c4, f5, e6"):
            GAME.parse_action(s, bad)
    assert GAME.player_name(0) == "Black" and GAME.player_name(1) == "White"
    assert GAME.render(s).splitlines()[4] == "4 . . . O X . . ."


# --- evaluation and ordering ---------------------------------------------------------------


def random_positions(count: int, seed: int) -> list[OthelloState]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = GAME.initial_state()
        for _ in range(rng.randrange(1, 60)):
            if GAME.is_terminal(state):
                break
            state = GAME.result(state, rng.choice(GAME.actions(state)))
        out.append(state)
    return out


def test_evaluation_is_antisymmetric_and_inside_the_utility_range() -> None:
    for state in random_positions(200, 1):
        v = GAME.evaluate(state, 0)
        assert -64 < v < 64 or GAME.is_terminal(state)
        assert GAME.evaluate(state, 1) == -v


def test_evaluation_likes_corners_and_dislikes_x_squares() -> None:
    base_black, white = bits([27, 28, 35, 36, 20]), bits([19, 44])
    plain = make_state(base_black, white, 1)
    corner = make_state(base_black | 1, white, 1)
    x_square = make_state(base_black | (1 << 9), white, 1)
    assert GAME.evaluate(corner, 0) > GAME.evaluate(plain, 0) > GAME.evaluate(x_square, 0)
    no_corners = Othello(OthelloWeights(corners=0.0, stability=0.0))
    assert no_corners.evaluate(corner, 0) < GAME.evaluate(corner, 0)


def test_stable_discs_never_flip_for_the_rest_of_a_game() -> None:
    rng = random.Random(7)
    for state in random_positions(60, 2):
        black, white = GAME.black_white(state)
        occupied = black | white
        stable_b, stable_w = stable_discs(black, occupied), stable_discs(white, occupied)
        assert stable_b & ~black == 0 and stable_w & ~white == 0
        while not GAME.is_terminal(state):
            state = GAME.result(state, rng.choice(GAME.actions(state)))
            black, white = GAME.black_white(state)
            assert stable_b & ~black == 0 and stable_w & ~white == 0


def test_corners_and_the_edges_they_anchor_are_stable() -> None:
    row1 = bits([0, 1, 2])  # a1 b1 c1 Black, d1 White, e1 empty
    occupied = row1 | (1 << 3)
    assert stable_discs(row1, occupied) == row1
    assert stable_discs(1 << 3, occupied) == 0


def test_order_hint_puts_corners_first_and_x_squares_last() -> None:
    for state in random_positions(200, 3):
        actions = GAME.actions(state)
        ordered = GAME.order_hint(state, actions)
        assert sorted(ordered) == sorted(actions)
        kinds = [2 if (1 << a) & CORNERS else 0 if (1 << a) & X_SQUARES else 1
                 for a in ordered if a != PASS]
        assert kinds == sorted(kinds, reverse=True)


def test_engine_craft_with_the_hooks_keeps_the_depth_limited_value() -> None:
    for state in random_positions(6, 4):
        if GAME.is_terminal(state):
            continue
        limit = plies.Limit(depth=3)
        plain = plies.alphabeta(GAME, state, limit)
        craft = plies.alphabeta(GAME, state, limit, tt=True, ordering=True, pvs=True)
        assert craft.value == pytest.approx(plain.value)
        assert plies.minimax(GAME, state, plies.Limit(depth=2)).value == pytest.approx(
            plies.alphabeta(GAME, state, plies.Limit(depth=2)).value
        )


# --- the endgame solver ----------------------------------------------------------------------


def endgame(empties: int, rng: random.Random) -> OthelloState:
    while True:
        state = GAME.initial_state()
        while not state.over and 64 - (state.mover | state.other).bit_count() > empties:
            state = GAME.result(state, rng.choice(GAME.actions(state)))
        if not state.over:
            return state


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 8), st.integers(0, 2**32 - 1))
def test_the_solver_agrees_with_plain_alphabeta(empties: int, seed: int) -> None:
    state = endgame(empties, random.Random(seed))
    solver = OthelloSolver(GAME, backend="python")
    expected = plies.alphabeta(GAME, state)
    assert expected.exact
    got = solver.solve(state)
    assert got.value == expected.value == solver.score(state)
    weak = solver.score(state, weak=True)
    assert (weak > 0) == (got.value > 0) and (weak < 0) == (got.value < 0)
    assert solver.solve(state, player=1 - GAME.to_move(state)).value == -expected.value
    # the PV plays out to the solved score
    here = state
    for action in got.pv:
        here = GAME.result(here, action)
    assert GAME.is_terminal(here)
    assert GAME.utility(here, GAME.to_move(state)) == got.value
    values = solver.analyze(state)
    assert max(values.values()) == got.value and values[got.action] == got.value


def test_the_solver_agrees_with_minimax_on_tiny_endgames() -> None:
    rng = random.Random(11)
    for empties in (1, 2, 3, 4, 5):
        state = endgame(empties, rng)
        expected = plies.minimax(GAME, state).value
        assert OthelloSolver(GAME, backend="python").score(state) == expected


def test_the_solver_scores_a_finished_game_and_a_forced_pass() -> None:
    solver = OthelloSolver(backend="python")
    over = make_state(black=bits([27, 28]), white=0, player=0)
    result = solver.solve(over)
    assert (result.value, result.action, result.pv) == (64.0, None, ())
    passing = make_state(black=(1 << 62) | (1 << 60), white=(1 << 63) | (1 << 61), player=0)
    result = solver.solve(passing)
    assert result.action == PASS and result.value == plies.alphabeta(GAME, passing).value


# --- the conformance check and the registry --------------------------------------------------


def test_othello_passes_the_conformance_check() -> None:
    check_game(GAME, playouts=10)
    report = plies.check_game(GAME, playouts=10)
    assert report.ok, str(report)


def test_the_registry_lists_othello() -> None:
    assert "othello" in names()
    game = load("othello")
    assert isinstance(game, Othello) and game.name == "othello"
    assert game.utility_range == (-64.0, 64.0) and game.zero_sum


def test_the_engine_layer_answers_exact_othello_requests_with_the_solver() -> None:
    from plies.policy import SearchRequest, plan

    assert isinstance(GAME.solver(), OthelloSolver) and GAME.solver() is GAME.solver()
    assert GAME.solver("python").backend == "python"
    with pytest.raises(OptionError, match="auto, numba, python"):
        GAME.solver("fast")
    state = endgame(9, random.Random(3))
    expected = plies.alphabeta(GAME, state, tt=True, ordering=True, pvs=True).value
    chosen = plan(GAME, state, SearchRequest())
    assert chosen.kind == "solver"
    assert chosen.run(GAME, state).value == expected
    weak = plan(GAME, state, SearchRequest(weak=True)).run(GAME, state)
    assert (weak.value > 0) == (expected > 0) and (weak.value < 0) == (expected < 0)
    assert weak.exact == (expected == 0)
    every = plan(GAME, state, SearchRequest(all_values=True)).run(GAME, state)
    assert every.action_values == plies.analyze(GAME, state).action_values
    assert plan(GAME, state, SearchRequest(limit=plies.Limit(depth=2))).kind != "solver"


@settings(max_examples=40, deadline=None)
@given(st.integers(5, 9), st.integers(0, 2**32 - 1))
def test_the_stability_cutoff_bound_holds_and_windows_agree(empties: int, seed: int) -> None:
    state = endgame(empties, random.Random(seed))
    solver = OthelloSolver(GAME, backend="python")
    exact = solver.score(state)
    # the cut-off's bound: the opponent keeps its stable discs
    assert exact <= 64 - 2 * stable_discs(state.other, state.mover | state.other).bit_count()
    assert exact >= 2 * stable_discs(state.mover, state.mover | state.other).bit_count() - 64
    for lo in (exact - 1, exact, 29, 40):  # null windows around the score and high alphas
        fresh = OthelloSolver(GAME, backend="python")
        r = fresh._search(state.mover, state.other, lo, lo + 1)
        assert (r > lo) == (exact > lo)
        assert exact <= r if r <= lo else exact >= r  # fail-soft: an upper or a lower bound


def test_plies_solve_and_play_othello_in_the_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(4)
    state, moves = GAME.initial_state(), []
    while 64 - (state.mover | state.other).bit_count() > 10:
        action = rng.choice(GAME.actions(state))
        moves.append(GAME.format_action(state, action))
        state = GAME.result(state, action)
    data = run_json(capsys, "solve", "othello", "--moves", " ".join(moves))
    assert data["exact"] is True
    assert data["value"] == OthelloSolver(GAME, backend="python").score(state)
    out = run(capsys, "play", "othello", "--human", "none", "--depth", "1")
    assert "game over" in out and "  a b c d e f g h" in out
