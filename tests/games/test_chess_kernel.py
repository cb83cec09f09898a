"""The compiled chess kernel (Numba) against its oracles: python-chess's moves and perft
counts, :class:`Evaluator`'s values, plies' alpha-beta on the Python rules; and the
``compiled_search`` hook as the policy layer and the UCI engine read it."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import chess
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import plies
from plies.errors import OptionError
from plies.game import hook
from plies.games.chess import ACTIVE, PLAIN, TUNED, WIN, Chess, Evaluator, Weights
from plies.policy import SearchRequest, plan
from plies.search import Limit
from plies.search.mate import MateDistance
from plies.wrappers.base import GameWrapper

# Perft counts (Chess Programming Wiki, "Perft Results"): start, Kiwipete, positions 3-6.
PERFT = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", [20, 400, 8902, 197281]),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
     [48, 2039, 97862]),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [14, 191, 2812, 43238]),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", [6, 264, 9467]),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", [44, 1486, 62379]),
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
     [46, 2079, 89890]),
]
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"


@pytest.fixture(scope="module")
def k() -> Any:
    from plies.games.chess import kernel

    return kernel


def _stack(k: Any, board: Any) -> tuple[Any, Any]:
    stack = np.zeros((k.MAX_PLY + 2, k.ROW), dtype=np.int64)
    stack[0] = k.row_of(board)
    return stack, np.zeros((k.MAX_PLY + 2, k.MAX_MOVES), dtype=np.int64)


def _random_board(seed: int, plies_played: int) -> Any:
    rng = random.Random(seed)
    board = chess.Board()
    for _ in range(plies_played):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


@pytest.mark.parametrize(("fen", "counts"), PERFT)
def test_perft_counts_are_the_published_ones(k: Any, fen: str, counts: list[int]) -> None:
    stack, moves = _stack(k, chess.Board(fen))
    assert [k.perft(stack, 0, d, moves) for d in range(1, len(counts) + 1)] == counts


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), length=st.integers(0, 160))
def test_moves_and_make_equal_python_chess_move_for_move(k: Any, seed: int, length: int) -> None:
    # Along a random game: the legal moves as a set, and every child position (row and
    # hash) equal to python-chess's push; check, insufficient material as python-chess.
    rng = random.Random(seed)
    board = chess.Board()
    for _ in range(length):
        stack, moves = _stack(k, board)
        n = k.legal_moves(stack, 0, moves[0])
        mine = {k.decode(int(m), chess) for m in moves[0, :n]}
        assert mine == set(board.legal_moves), board.fen()
        assert n == len(mine)  # no move twice
        assert bool(k.in_check(stack[0])) == board.is_check()
        assert bool(k.insufficient_material(stack[0])) == board.is_insufficient_material()
        if not n:
            break
        for m in moves[0, :n]:
            move = k.decode(int(m), chess)
            assert k.encode(board, move) == int(m)
            k.make(stack, 0, int(m))
            child = board.copy(stack=False)
            child.push(move)
            assert list(stack[1]) == list(k.row_of(child)), (board.fen(), move)
        board.push(rng.choice(list(board.legal_moves)))


@pytest.mark.parametrize(
    "weights", [
        Weights(), PLAIN, Weights(phase=(1, 2, 1, 3, 5, 0), pst=0.5, doubled=(-7, -31)),
        Weights(mobility_mg=(3, -2, 7, 1), mobility_eg=(1, 9, -4, 5),
                mobility_centre=(2, 0, 9, 1), king_attack_unit=(3, 1, 4, 1),
                king_attack=(-17, 33), king_attack_scale=(5, 9, 200),
                shelter=(-40, 1, -3, -9, -15, -2, 6, 8)),
        ACTIVE,
        dataclasses.replace(ACTIVE, shelter=(0,) * 8),  # mobility and king attack
        Weights(shelter=ACTIVE.shelter),  # the shelter alone
        TUNED,
    ]
)
def test_the_evaluation_equals_evaluator_value_for_value(k: Any, weights: Weights) -> None:
    evaluator = Evaluator(weights)
    tables = k.tables(evaluator)
    boards = [_random_board(seed, 20 + 4 * seed) for seed in range(40)]
    rng = random.Random(7)
    for fen, _ in PERFT:  # and every position of short random games from each
        board = chess.Board(fen)
        for _ in range(60):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            boards.append(board.copy(stack=False))
    for board in boards:
        occ = board.occupied_co
        pieces = (board.pawns, board.knights, board.bishops, board.rooks, board.queens,
                  board.kings)
        assert k.evaluate(k.row_of(board), *tables) == evaluator.score(
            pieces, occ[1], occ[0]
        ), board.fen()


_SEE_VALUE = {None: 0, 1: 100, 2: 320, 3: 330, 4: 500, 5: 900, 6: 20_000}


def _exchange(board: Any, square: int, color: bool) -> int:
    """What ``color`` gains taking on ``square`` with its least valuable attacker, or 0
    when it had better not (pins ignored, x-rays seen as pieces leave)."""
    attackers = list(board.attackers(color, square))
    if not attackers:
        return 0
    frm = min(attackers, key=lambda s: _SEE_VALUE[board.piece_type_at(s)])
    after = board.copy(stack=False)
    after.set_piece_at(square, after.remove_piece_at(frm))
    return max(0, _SEE_VALUE[board.piece_type_at(square)] - _exchange(after, square, not color))


def test_the_static_exchange_equals_the_exchange_played_out(k: Any) -> None:
    checked = 0
    for seed in range(120):
        board = _random_board(seed, 10 + seed % 70)
        row = k.row_of(board)
        for move in board.legal_moves:
            if not board.is_capture(move) or board.is_en_passant(move) or move.promotion:
                continue
            after = board.copy(stack=False)
            after.set_piece_at(move.to_square, after.remove_piece_at(move.from_square))
            gain = (_SEE_VALUE[board.piece_type_at(move.to_square)]
                    - _exchange(after, move.to_square, not board.turn))
            for threshold in (-200, 0, 1, 200):
                assert k.see_ge(row, k.encode(board, move), threshold) == (gain >= threshold)
                checked += 1
    assert checked > 1000


def test_a_position_key_gives_the_hash_of_its_board(k: Any) -> None:
    from plies.games.chess import position_key

    for seed in range(10):
        board = _random_board(seed, 30)
        assert k.row_of_key(position_key(board))[k.HASH] == k.row_of(board)[k.HASH]


def _random_state(game: Chess, rng: random.Random, length: int) -> Any:
    state = game.initial_state()
    for _ in range(length):
        if game.is_terminal(state):
            break
        state = game.result(state, rng.choice(game.actions(state)))
    return state


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), length=st.integers(0, 80), depth=st.integers(1, 2))
def test_the_plain_compiled_search_equals_alphabeta(seed: int, length: int, depth: int) -> None:
    game = Chess(backend="numba")
    state = _random_state(game, random.Random(seed), length)
    if game.is_terminal(state):
        return
    compiled = game.compiled_search()
    expected = plies.alphabeta(game, state, Limit(depth=depth))
    value, action = compiled.plain(state, depth, list(game.actions(state)))
    assert (float(value), action) == (expected.value, expected.action)


@pytest.mark.parametrize(
    ("fen", "moves", "max_plies", "depth"),
    [
        # Threefold repetition inside the search, over the state's history.
        ("startpos", "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1", None, 3),
        # The fifty-move rule: a halfmove clock of 99 ends the game after one quiet move.
        ("8/8/3k4/8/8/3K4/8/4R3 w - - 99 80", "", None, 2),
        # max_plies: the game is a draw two plies on.
        ("startpos", "e4 e5", 4, 3),
        # A mate in one (the value is the win), and insufficient material after Kxb2.
        (MATE_IN_ONE, "", None, 3),
        ("8/8/8/8/8/2k5/1R6/7K b - - 0 1", "", None, 2),
    ],
)
def test_the_plain_compiled_search_knows_the_rules_endings(
    fen: str, moves: str, max_plies: int | None, depth: int
) -> None:
    game = Chess(fen, max_plies, backend="numba") if fen != "startpos" else Chess(
        max_plies=max_plies, backend="numba"
    )
    state = game.play_moves(moves) if moves else game.initial_state()
    expected = plies.alphabeta(game, state, Limit(depth=depth))
    value, action = game.compiled_search().plain(state, depth, list(game.actions(state)))
    assert (float(value), action) == (expected.value, expected.action)


def test_the_policy_runs_the_compiled_engine_for_engine_requests_with_a_limit() -> None:
    game = Chess(MATE_IN_ONE, backend="numba")  # auto: once compiled in the background
    mated = MateDistance(game)
    root = mated.root(game.initial_state())
    chosen = plan(mated, root, SearchRequest(limit=Limit(depth=4), engine=True))
    assert chosen.name == "alphabeta (numba)"
    result = chosen.run(mated, root)
    assert result.action == chess.Move.from_uci("a1a8")
    assert mated.distance(result.value) == 1  # mate in one ply, in the wrapper's scale
    exact = plan(mated, root, SearchRequest(engine=True))  # no limit: the generic search
    assert exact.compiled is None
    plain = plan(game, game.initial_state(), SearchRequest(limit=Limit(depth=2)))
    assert plain.compiled is None  # not an engine request
    python = Chess(MATE_IN_ONE)  # the default backend
    assert plan(python, python.initial_state(),
                SearchRequest(limit=Limit(depth=2), engine=True)).compiled is None


def test_the_engine_finds_the_best_move_on_the_clock() -> None:
    game = Chess(
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", backend="numba"
    )
    result = game.compiled_search().search(
        game, game.initial_state(), Limit(time=0.5), craft={"quiescence": 4}
    )
    assert result.action == chess.Move.from_uci("h5f7")  # scholar's mate
    assert result.value == WIN


def test_the_hook_names_its_backends() -> None:
    with pytest.raises(OptionError, match="unknown chess backend 'fortran'"):
        Chess(backend="fortran")
    assert Chess(backend="python").compiled_search() is None
    assert Chess().compiled_search("python") is None
    # A wrapper does not forward it (it changes the game); MateDistance makes its own.
    assert hook(GameWrapper(Chess()), "compiled_search") is None
    assert hook(MateDistance(Chess()), "compiled_search") is not None
    assert MateDistance(Chess(backend="numba")).compiled_search() is not None
    assert MateDistance(Chess(backend="python")).compiled_search() is None


def test_auto_searches_in_python_until_the_kernel_is_compiled() -> None:
    from plies.games.chess.engine import kernel_ready

    assert Chess().compiled_search() is None  # the default backend: python
    game = Chess(backend="auto")
    ready = kernel_ready(wait=False)
    assert (game.compiled_search() is not None) == ready
    kernel_ready(wait=True)
    assert game.compiled_search() is not None


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), length=st.integers(0, 80), depth=st.integers(1, 3))
def test_the_engine_with_its_switches_off_equals_alphabeta(
    seed: int, length: int, depth: int
) -> None:
    # No table, quiescence, null move, extensions, reductions or forward pruning: the
    # iterative deepening of the engine's PVS is plain alpha-beta, value for value.
    game = Chess(backend="numba")
    state = _random_state(game, random.Random(seed), length)
    if game.is_terminal(state):
        return
    expected = plies.alphabeta(game, state, Limit(depth=depth))
    result = game.compiled_search().run(game, state, depth=depth, switches=0)
    assert result.value == expected.value


def _switch_sets(k: Any) -> list[int]:
    """The engine's switches all on, each selective one alone, and all but each."""
    selective = [k.NULL_MOVE, k.EXTENSIONS, k.REDUCTIONS, k.PRUNING]
    return ([k.ENGINE] + [k.TT | k.QUIESCENCE | s for s in selective]
            + [k.ENGINE & ~s for s in selective])


# A mate in two whose first move is quiet (Kc7, then Ra1# or Rh8#), and a mate in one.
MATES = [("k7/8/2K5/8/8/8/8/7R w - - 0 1", 3), (MATE_IN_ONE, 1)]


def _mates_within(board: Any, moves: int) -> bool:
    """Whether the side to move mates within ``moves`` of its moves, whatever the replies."""
    for move in list(board.legal_moves):
        board.push(move)
        mated = board.is_checkmate() or (
            moves > 1 and not board.is_game_over() and all(
                _after(board, reply, moves - 1) for reply in list(board.legal_moves)
            )
        )
        board.pop()
        if mated:
            return True
    return False


def _after(board: Any, move: Any, moves: int) -> bool:
    board.push(move)
    mated = _mates_within(board, moves)
    board.pop()
    return mated


@pytest.mark.parametrize(("fen", "plies_to_mate"), MATES)
def test_every_switch_set_finds_the_mate(k: Any, fen: str, plies_to_mate: int) -> None:
    game = Chess(fen, backend="numba")
    mated = MateDistance(game)
    root = mated.root(game.initial_state())
    expected = plies.alphabeta(mated, root, Limit(depth=plies_to_mate))
    assert mated.distance(expected.value) == plies_to_mate
    for switches in _switch_sets(k):
        result = game.compiled_search().run(mated, root, depth=plies_to_mate + 2,
                                            switches=switches)
        assert result.value == expected.value, switches
        board = game.initial_state().board.copy()
        assert result.action in board.legal_moves, switches
        board.push(result.action)
        assert board.is_checkmate() or all(  # every reply leaves a mate in one
            _after(board, reply, 1) for reply in list(board.legal_moves)
        ), switches


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), length=st.integers(0, 120))
def test_every_switch_set_returns_a_legal_move_and_line(k: Any, seed: int, length: int) -> None:
    game = Chess(backend="numba")
    state = _random_state(game, random.Random(seed), length)
    if game.is_terminal(state):
        return
    for switches in _switch_sets(k):
        result = game.compiled_search().run(game, state, depth=5, switches=switches)
        board = state.board.copy()
        for move in result.pv:
            assert move in board.legal_moves, switches
            board.push(move)
        assert result.action == result.pv[0]


def _engine_after(k: Any, fen: str, line: str, switches: int, depth: int) -> int:
    """The engine's value (for the side to move) of the position ``line`` leads to from
    ``fen``, searched at the ply the line ends on, the line being the search's path."""
    game = Chess(fen, backend="numba")
    compiled = game.compiled_search()
    stack, moves, hist, base, hist_len, ctx = compiled._setup(game.initial_state())
    ctx[k.SWITCHES] = switches
    board = game.initial_state().board.copy()
    ply = 0
    for uci in line.split():
        move = chess.Move.from_uci(uci)
        k.make(stack, ply, k.encode(board, move))
        k._enter(stack, ply, hist, base, hist_len)
        board.push(move)
        ply += 1
    scores = np.zeros_like(moves)
    killers = np.zeros((k.MAX_PLY + 2, 2), dtype=np.int64)
    pv = np.zeros((k.MAX_PLY + 2, k.MAX_PLY + 2), dtype=np.int64)
    pv_len = np.zeros(k.MAX_PLY + 2, dtype=np.int64)
    return int(k.engine(
        stack, moves, scores, hist, base, hist_len, compiled.tt, killers, compiled.history,
        pv, pv_len, *compiled.tables, ctx, np.zeros(1, dtype=np.int64), ply, depth,
        -k.INFINITY, k.INFINITY, False,
    ))


def test_the_engine_scores_a_repetition_of_its_path_as_a_draw(k: Any) -> None:
    # A queen up; the queen and the black king step out and back: the root again.
    fen, back = "7k/8/8/8/8/8/8/3QK3 w - - 0 1", "d1d2 h8g8 d2d1 g8h8"
    assert _engine_after(k, fen, back, k.ENGINE, 3) == 0
    assert _engine_after(k, fen, back, k.ENGINE & ~k.REPETITION, 3) > 500
    # A ply before it, Black (a queen down) takes the draw the repetition offers.
    assert _engine_after(k, fen, "d1d2 h8g8 d2d1", k.ENGINE, 3) == 0
    assert _engine_after(k, fen, "d1d2 h8g8 d2d1", k.ENGINE & ~k.REPETITION, 3) < -500
    # The plain search counts threefold only (the Python rules).
    game = Chess(fen, backend="numba")
    state = game.play_moves("Qd2 Kg8 Qd1 Kh8")
    value, _ = game.compiled_search().plain(state, 2, list(game.actions(state)))
    assert value > 500
