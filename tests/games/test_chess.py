"""Chess over python-chess: perft through the game model, published mates, the horizon
effect and quiescence, the conformance check, the registry."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import plies
from plies.errors import GameFormatError, IllegalActionError
from plies.games import load, names
from plies.games.chess import EVAL_CAP, WIN, Chess, ChessState, position_key
from plies.games.chess.evaluation import ACTIVE, WEIGHTS, Evaluator, Weights
from plies.search.quiescence import Quiescent


def perft(game: Chess, state: ChessState, depth: int) -> int:
    """Leaf count of the legal-move tree ``depth`` plies deep, through actions + result."""
    if depth == 1:
        return len(game.actions(state))
    return sum(perft(game, game.result(state, a), depth - 1) for a in game.actions(state))


# The standard perft positions of the Chess Programming Wiki ("Perft Results"): the start
# position, "Kiwipete" (Peter McKenzie), and positions 3, 4 and 5, with their counts.
PERFT = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", (20, 400, 8902)),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", (48, 2039)),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", (14, 191, 2812)),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", (6, 264)),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", (44, 1486)),
]


@pytest.mark.parametrize(("fen", "counts"), PERFT)
def test_perft_of_the_standard_positions_through_the_game_model(
    fen: str, counts: tuple[int, ...]
) -> None:
    game = Chess(fen)
    state = game.initial_state()
    assert tuple(perft(game, state, d) for d in range(1, len(counts) + 1)) == counts


def test_result_does_not_mutate_its_input() -> None:
    game = Chess(PERFT[1][0])  # Kiwipete: castling, en passant soon, captures
    state = game.initial_state()
    fen, key = state.board.fen(), state.key
    for action in game.actions(state):
        child = game.result(state, action)
        assert child.board.fen() != fen
    assert state.board.fen() == fen and state.key == key and len(game.actions(state)) == 48
    assert copy.deepcopy(state) == state


# Published mates: (source, FEN, N, the first moves that mate in N, in UCI).  Each
# position is from a famous game or opening trap, taken before the mating side's last
# N moves; each was checked with python-chess by brute force to be a forced mate in N
# and in no fewer (the accepted first moves are every move that mates in N).
MATES: list[tuple[str, str, int, tuple[str, ...]]] = [
    # --- mate in 1 ---
    ("Fool's mate, 1.f3 e5 2.g4 Qh4#",
     "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", 1, ("d8h4",)),
    ("Scholar's mate, 4.Qxf7#",
     "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1, ("h5f7",)),
    ("Legal's mate (Legal de Kermur - Saint Brie, Paris 1750), 7.Nd5#",
     "rn1q1bnr/ppp1kB1p/3p2p1/4N3/4P3/2N5/PPPP1PPP/R1BbK2R w KQ - 1 7", 1, ("c3d5",)),
    ("Morphy - Duke of Brunswick and Count Isouard, Paris 1858, 17.Rd8#",
     "1n2kb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2KR4 w k - 0 17", 1, ("d1d8",)),
    ("Ed. Lasker - Thomas, London 1912, 18.Kd2#",
     "rn3r2/pbppq1p1/1p2pN2/8/3P2NP/6P1/PPP1BP1R/R3K1k1 w Q - 5 18", 1, ("e1d2", "e1c1")),
    ("Reti - Tartakower, Vienna 1910, 11.Bd8#",
     "rnb2b1r/ppk2ppp/2p5/4q1B1/4n3/8/PPP2PPP/2KR1BNR w - - 2 11", 1, ("g5d8",)),
    ("Anderssen - Kieseritzky, London 1851 (the Immortal Game), 23.Be7#",
     "r1bk3r/p2p1pNp/n2B1n2/1p1NP2P/6P1/3P4/P1P1K3/q5b1 w - - 0 23", 1, ("d6e7",)),
    ("Anderssen - Dufresne, Berlin 1852 (the Evergreen Game), 24.Bxe7#",
     "1r3kr1/pbpBnp1p/1b3P2/8/8/B1P2q2/P4PPP/3R2K1 w - - 4 24", 1, ("a3e7",)),
    ("Blackburne Shilling Gambit trap, 7...Nf3#",
     "r1b1kbnr/pppp1Npp/8/8/3nq3/8/PPPPBP1P/RNBQKR2 b Qkq - 1 7", 1, ("d4f3",)),
    ("Englund Gambit trap, 8...Qc1#",
     "r1b1k1nr/pppp1ppp/2n5/4P3/8/2Q2N2/PqP1PPPP/RN2KB1R b KQkq - 0 8", 1, ("b2c1",)),
    ("Kieninger trap (Budapest Gambit), 8...Nd3#",
     "r1b1k2r/ppppqppp/2n5/4n3/1PP2B2/5N2/1P1NPPPP/R2QKB1R b KQkq - 0 8", 1, ("e5d3",)),
    ("Fishing pole trap (Ruy Lopez), 9...Qh2#",
     "r1b1kb1r/pppp1pp1/2B5/4p3/4P2q/5Pp1/PPPP2P1/RNBQNRK1 b kq - 0 9", 1, ("h4h2", "h4h1")),
    ("Greco, 1620 (1.e4 b6 2.d4 Bb7), 8.Bg6#",
     "rn1qkb1r/p1ppp2P/1p6/7n/3P4/3B4/PPP2PbP/RNB1K1NR w KQkq - 0 8", 1, ("d3g6",)),
    ("Greco, 1620 (Damiano Defence), 14.Rxh5#",
     "rn3bnr/pbp2Q2/7k/6qp/3PP3/8/PPP2PP1/RNB1K2R w KQ - 0 14", 1, ("h1h5",)),
    ("Teed - Delmar, New York 1896, 8.Bg6#",
     "rnbqkbn1/ppppp3/8/6pr/3P1p2/3BP1B1/PPP2PPP/RN2K1NR w KQq - 0 8", 1, ("d3g6",)),
    # --- mate in 2 ---
    ("Legal's mate, 6.Bxf7+ Ke7 7.Nd5#",
     "rn1qkbnr/ppp2p1p/3p2p1/4N3/2B1P3/2N5/PPPP1PPP/R1BbK2R w KQkq - 0 6", 2, ("c4f7",)),
    ("Morphy - Duke of Brunswick and Count Isouard, Paris 1858, 16.Qb8+ Nxb8 17.Rd8#",
     "4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 0 16", 2, ("b3b8",)),
    ("Ed. Lasker - Thomas, London 1912, 17.Rh2+ Kg1 18.Kd2#",
     "rn3r2/pbppq1p1/1p2pN2/8/3P2NP/6P1/PPP1BPk1/R3K2R w KQ - 3 17", 2, ("h1h2", "e1c1")),
    ("Reti - Tartakower, Vienna 1910, 10.Bg5+ Kc7 11.Bd8#",
     "rnbk1b1r/pp3ppp/2p5/4q3/4n3/8/PPPB1PPP/2KR1BNR w - - 0 10", 2, ("d2g5",)),
    ("Anderssen - Kieseritzky, London 1851, 22.Qf6+ Nxf6 23.Be7#",
     "r1bk2nr/p2p1pNp/n2B4/1p1NP2P/6P1/3P1Q2/P1P1K3/q5b1 w - - 1 22", 2, ("f3f6",)),
    ("Anderssen - Dufresne, Berlin 1852, 23.Bd7+ Kf8 24.Bxe7#",
     "1r2k1r1/pbp1np1p/1b3P2/5B2/8/B1P2q2/P4PPP/3R2K1 w - - 2 23", 2, ("f5d7",)),
    ("Fishing pole trap (Ruy Lopez), 8...g3 and 9...Qh2#",
     "r1b1kb1r/pppp1pp1/2n5/1B2p3/4P1pq/5P2/PPPP2P1/RNBQNRK1 b kq - 0 8", 2, ("g4g3",)),
    ("Greco, 1620 (1.e4 b6 2.d4 Bb7), 7.gxh7+ Nxh5 8.Bg6#",
     "rn1qkb1r/p1ppp2p/1p3nP1/7Q/3P4/3B4/PPP2PbP/RNB1K1NR w KQkq - 1 7", 2, ("g6h7",)),
    ("Greco, 1620 (Damiano Defence), 13.hxg5+ Qxg5 14.Rxh5#",
     "rn3bnr/pbp1qQ2/7k/6pp/3PP2P/8/PPP2PP1/RNB1K2R w KQ - 2 13", 2, ("h4g5",)),
    ("Teed - Delmar, New York 1896, 7.Qxh5+ Rxh5 8.Bg6#",
     "rnbqkbn1/ppppp3/7r/6pp/3P1p2/3BP1B1/PPP2PPP/RN1QK1NR w KQq - 2 7", 2, ("d1h5",)),
    # --- mate in 3 ---
    ("Reti - Tartakower, Vienna 1910, 9.Qd8+ Kxd8 10.Bg5+ Kc7 11.Bd8#",
     "rnb1kb1r/pp3ppp/2p5/4q3/4n3/3Q4/PPPB1PPP/2KR1BNR w kq - 0 9", 3, ("d3d8",)),
    ("Anderssen - Kieseritzky, London 1851, 21.Nxg7+ Kd8 22.Qf6+ Nxf6 23.Be7#",
     "r1b1k1nr/p2p1ppp/n2B4/1p1NPN1P/6P1/3P1Q2/P1P1K3/q5b1 w kq - 2 21", 3, ("f5g7",)),
    ("Anderssen - Dufresne, Berlin 1852, 22.Bf5+ Ke8 23.Bd7+ Kf8 24.Bxe7#",
     "1r4r1/pbpknp1p/1b3P2/8/8/B1PB1q2/P4PPP/3R2K1 w - - 0 22", 3, ("d3f5",)),
]


def test_there_are_at_least_twenty_published_mates_of_each_length() -> None:
    assert len(MATES) >= 20
    assert {n for _, _, n, _ in MATES} == {1, 2, 3}


@pytest.mark.parametrize(("source", "fen", "n", "first"), MATES, ids=[m[0][:40] for m in MATES])
def test_alphabeta_finds_each_published_mate_at_depth_2n_minus_1(
    source: str, fen: str, n: int, first: tuple[str, ...]
) -> None:
    game = Chess(fen)
    state = game.initial_state()
    result = plies.alphabeta(
        game, state, plies.Limit(depth=2 * n - 1), tt=True, ordering=True
    )
    assert result.value == WIN, source
    assert result.action is not None and result.action.uci() in first, source
    if n > 1:  # and not one move earlier: the mate is exactly that long
        shorter = plies.alphabeta(game, state, plies.Limit(depth=2 * n - 3), tt=True, ordering=True)
        assert shorter.value < WIN, source


def test_mate_distance_scores_prefer_the_mate_in_one() -> None:
    # Reti - Tartakower before 11.Bd8#: with mate-distance scores a deeper search still
    # plays the mate in one.
    game = Chess("rnb2b1r/ppk2ppp/2p5/4q1B1/4n3/8/PPP2PPP/2KR1BNR w - - 2 11")
    result = plies.alphabeta(game, game.initial_state(), plies.Limit(depth=3), mate=True)
    assert result.action is not None and result.action.uci() == "g5d8"


# The horizon effect, constructed: White's queen on d4 can take a pawn on d5 that a
# black pawn on e6 defends.  At depth 1 a plain search sees only "a pawn up" and takes;
# with quiescence the recapture is searched too, the capture loses the queen for a
# pawn, and the search keeps the queen.
HORIZON = "4k3/8/4p3/3p4/3Q4/8/8/4K3 w - - 0 1"


def test_without_quiescence_depth_one_falls_for_the_horizon_effect() -> None:
    game = Chess(HORIZON)
    state = game.initial_state()
    plain = plies.alphabeta(game, state, plies.Limit(depth=1))
    assert plain.action is not None and game.format_action(state, plain.action) == "Qxd5"
    quiet = Quiescent(game)
    searched = plies.alphabeta(quiet, state, plies.Limit(depth=1))
    assert searched.action is not None and game.format_action(state, searched.action) != "Qxd5"
    assert searched.value > 600  # still a queen up for a pawn or so
    # What the quiescence search sees after Qxd5: the recapture, a pawn for the queen.
    after = game.result(state, plain.action)
    assert quiet.evaluate(after, 0) < 0 < game.evaluate(after, 0)


def test_noisy_actions_are_queen_promotions_and_captures_that_lose_nothing_at_once() -> None:
    game = Chess("1r2k3/P7/8/3q4/2P1N3/8/8/4K3 w - - 0 1")
    state = game.initial_state()
    noisy = [game.format_action(state, a) for a in game.noisy_actions(state)]
    assert noisy == ["axb8=Q+", "a8=Q", "cxd5"]  # promotions first, the capturing one first
    ordered = game.order_hint(state, game.actions(state))
    texts = [game.format_action(state, a) for a in ordered]
    assert texts[:4] == ["axb8=Q+", "a8=Q", "axb8=R+", "a8=R"]  # every promotion, queen first
    assert texts.index("cxd5") < texts.index("Nc3")
    # The queen taking a defended pawn is no quiescence move; a pawn taking it back is.
    horizon = Chess(HORIZON)
    start = horizon.initial_state()
    assert horizon.noisy_actions(start) == []
    after = horizon.result(start, horizon.parse_action(start, "Qxd5"))
    assert [horizon.format_action(after, a) for a in horizon.noisy_actions(after)] == ["exd5"]


def test_mvv_lva_takes_the_queen_with_the_pawn_before_the_knight() -> None:
    game = Chess("4k3/8/8/3q4/2P5/4N3/8/4K3 w - - 0 1")
    state = game.initial_state()
    texts = [game.format_action(state, a) for a in game.order_hint(state, game.actions(state))]
    assert texts[:2] == ["cxd5", "Nxd5"]


# --- the rules of the end ------------------------------------------------------------------


def test_checkmate_and_stalemate() -> None:
    game = Chess()
    mated = game.play_moves("f3 e5 g4 Qh4")
    assert game.is_terminal(mated) and game.outcome(mated) == "0-1"
    assert game.utility(mated, 1) == WIN and game.utility(mated, 0) == -WIN
    assert game.actions(mated) == []
    stale = Chess("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stale.is_terminal(stale.initial_state())
    assert stale.utility(stale.initial_state(), 0) == 0.0


def test_fifty_moves_insufficient_material_and_threefold_repetition_draw() -> None:
    fifty = Chess("4k3/8/8/8/8/8/R7/4K3 w - - 100 80")
    assert fifty.outcome(fifty.initial_state()) == "1/2-1/2"
    bare = Chess("4k3/8/8/8/8/8/4N3/4K3 w - - 0 1")
    assert bare.outcome(bare.initial_state()) == "1/2-1/2"
    game = Chess()
    twice = game.play_moves("Nf3 Nf6 Ng1 Ng8")
    assert not game.is_terminal(twice) and twice.repetitions() == 2
    thrice = game.play_moves("Nf3 Nf6 Ng1 Ng8", twice)
    assert thrice.repetitions() == 3 and game.outcome(thrice) == "1/2-1/2"
    assert thrice.key == game.initial_state().key  # the key is the position alone


def test_max_plies_ends_the_game_in_a_draw() -> None:
    game = Chess(max_plies=2)
    state = game.play_moves("e4 e5")
    assert game.is_terminal(state) and game.utility(state, 0) == 0.0


# --- text ----------------------------------------------------------------------------------


def test_moves_read_in_san_or_uci_and_print_in_san() -> None:
    game = Chess()
    state = game.initial_state()
    assert game.parse_action(state, "Nf3") == game.parse_action(state, "g1f3")
    assert game.format_action(state, game.parse_action(state, " e2e4 ")) == "e4"
    with pytest.raises(IllegalActionError, match=r"illegal move 'e5'.*Nf3"):
        game.parse_action(state, "e5")
    assert "White to move" in game.render(state) and "a b c d e f g h" in game.render(state)


def test_a_bad_fen_is_one_line_naming_the_fen() -> None:
    with pytest.raises(GameFormatError, match="fen 'nonsense'"):
        Chess("nonsense")
    with pytest.raises(GameFormatError, match="not a legal chess position"):
        Chess("8/8/8/8/8/8/8/8 w - - 0 1")  # no kings


# --- evaluation ------------------------------------------------------------------------------


def test_evaluation_is_symmetric_and_counts_material() -> None:
    game = Chess()
    assert game.centipawns(game.initial_state()) == 0
    up = Chess("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")
    s = up.initial_state()
    assert up.evaluate(s, 0) == -up.evaluate(s, 1) > 900
    mirrored = Chess("3qk3/8/8/8/8/8/8/4K3 b - - 0 1")
    assert mirrored.centipawns(mirrored.initial_state()) == -up.centipawns(s)
    assert abs(up.evaluate(s, 0)) <= EVAL_CAP


def test_every_weight_lives_in_weights() -> None:
    no_tables = Evaluator(Weights(pst=0.0, bishop_pair=(0, 0)))
    queen = 1 << 3  # d1
    kings = 1 << 4 | 1 << 60
    assert no_tables.score((0, 0, 0, 0, queen, kings), queen | 1 << 4, 1 << 60) == (
        WEIGHTS.piece_eg[4]  # no phase but the queen's 4 of 24: mostly endgame
        + (WEIGHTS.piece_mg[4] - WEIGHTS.piece_eg[4]) * 4 // 24
    )


# --- the plies model -------------------------------------------------------------------------


def test_chess_passes_the_conformance_check() -> None:
    report = plies.check_game(Chess(max_plies=120), playouts=4)
    assert report.ok, str(report)


def test_the_registry_lists_chess_with_its_options() -> None:
    assert "chess" in names()
    game: Any = load("chess", fen="8/8/8/8/8/k7/8/K6R w - - 0 1", max_plies="40")
    assert isinstance(game, Chess) and game.max_plies == 40
    assert len(game.actions(game.initial_state())) > 10


def test_a_game_and_its_states_pickle_for_worker_processes() -> None:
    import pickle

    game = Chess(max_plies=50)
    state = game.play_moves("e4 e5 Nf3 Nc6 Ng1 Nb8 Nf3")
    copy_game, copy_state = pickle.loads(pickle.dumps((game, state)))
    assert copy_state == state and copy_state.repetitions() == state.repetitions() == 2
    assert copy_game.max_plies == 50 and copy_game.actions(copy_state) == game.actions(state)


def test_a_state_after_a_double_step_pickles_to_an_equal_state() -> None:
    import pickle

    game = Chess()
    state = game.play_moves("e4")  # no capture en passant possible, the board keeps e3
    copy_state = pickle.loads(pickle.dumps(state))
    assert copy_state == state and copy_state.key == state.key


# --- the engine hooks: check extension, null move, quiet moves --------------------------------


def test_extension_is_one_ply_for_a_move_that_gives_check() -> None:
    game = Chess(MATES[1][1])  # Scholar's mate: Qxf7# gives check, Qh5-h3 does not
    state = game.initial_state()
    mate, quiet = game.parse_action(state, "h5f7"), game.parse_action(state, "h5h3")
    assert game.extension(state, mate, game.result(state, mate)) == 1
    assert game.extension(state, quiet, game.result(state, quiet)) == 0
    # A discovered check: the bishop steps off the e-file, the rook behind it checks.
    discovered = Chess("4k3/8/8/8/4B3/8/8/4RK2 w - - 0 1")
    s = discovered.initial_state()
    move = discovered.parse_action(s, "Bd5")
    assert discovered.extension(s, move, discovered.result(s, move)) == 1


def test_null_move_passes_the_turn_and_clears_en_passant() -> None:
    game = Chess()
    state = game.play_moves("e4 c5 e5 d5")  # en passant exd6 is legal here
    fen, key = state.board.fen(), state.key
    passed = game.null_move(state)
    assert passed is not None
    assert state.board.fen() == fen and state.key == key  # the input is untouched
    assert passed.board.turn != state.board.turn and passed.board.ep_square is None
    assert passed.key != state.key and game.to_move(passed) == 1
    assert passed.ply == state.ply + 1
    assert passed.board.halfmove_clock == state.board.halfmove_clock + 1
    assert passed.history == (state.key, state.history)
    # The position after the pass is the legal position Black to move, usable by the model.
    same = game.state_from_fen(
        "rnbqkbnr/pp2pppp/8/2ppP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 1 3"
    )
    assert passed.key == same.key
    assert sorted(m.uci() for m in game.actions(passed)) == sorted(
        m.uci() for m in game.actions(same)
    )
    assert game.evaluate(passed, 0) == game.evaluate(same, 0)
    child = game.result(passed, game.actions(passed)[0])
    assert game.to_move(child) == 0 and not game.is_terminal(child)


def test_passing_twice_repeats_the_position() -> None:
    game = Chess()
    state = game.initial_state()
    twice = game.null_move(game.null_move(state) or state)
    assert twice is not None and twice.key == state.key and twice.repetitions() == 2


def test_no_null_move_in_check_with_king_and_pawns_or_at_the_end() -> None:
    game = Chess()
    checked = game.play_moves("e4 f5 Qh5")  # Black is in check
    assert game.null_move(checked) is None
    pawns = Chess("4k3/pppp4/8/8/8/8/4PPPP/3QK3 b - - 0 1")  # Black: king and pawns
    assert pawns.null_move(pawns.initial_state()) is None
    queen = Chess("4k3/pppp4/8/8/8/8/4PPPP/3QK3 w - - 0 1")  # White has a queen
    assert queen.null_move(queen.initial_state()) is not None
    mated = game.play_moves("f3 e5 g4 Qh4")
    assert game.null_move(mated) is None
    stale = Chess("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stale.null_move(stale.initial_state()) is None


def test_quiet_moves_are_neither_captures_nor_promotions() -> None:
    game = Chess("r3k3/1P6/8/3pP3/8/8/8/R3K2R w KQq d6 0 1")
    state = game.initial_state()

    def quiet(uci: str) -> bool:
        return game.is_quiet(state, game.parse_action(state, uci))

    assert quiet("e1g1") and quiet("e1c1") and quiet("e5e6") and quiet("a1a7")
    assert not quiet("a1a8")  # rook takes rook
    assert not quiet("e5d6")  # en passant
    assert not quiet("b7b8q") and not quiet("b7b8n")  # promotions
    assert not quiet("b7a8q")  # a capture that promotes
    assert all(
        game.is_quiet(state, m) == (not state.board.is_capture(m) and m.promotion is None)
        for m in game.actions(state)
    )


# --- the fast model: play() and the incremental evaluation ------------------------------------


@pytest.mark.parametrize(("fen", "counts"), PERFT)
def test_play_makes_what_python_chess_push_makes_and_keeps_the_material_sum(
    fen: str, counts: tuple[int, ...]
) -> None:
    import random

    import chess

    rng = random.Random(fen)
    game = Chess(fen)
    fields = (
        "pawns", "knights", "bishops", "rooks", "queens", "kings", "promoted", "occupied",
        "occupied_co", "turn", "castling_rights", "ep_square", "halfmove_clock",
        "fullmove_number",
    )
    for _ in range(12):
        state = game.initial_state()
        reference = chess.Board(fen)
        for _ in range(150):
            if game.is_terminal(state):
                break
            move = rng.choice(game.actions(state))
            before = state.board.fen()
            state = game.result(state, move)
            reference.push(move)
            board = state.board
            assert [getattr(board, f) for f in fields] == [getattr(reference, f) for f in fields]
            assert state.key == position_key(reference) and board.fen() == reference.fen() != before
            occ = board.occupied_co
            pieces = (board.pawns, board.knights, board.bishops, board.rooks, board.queens,
                      board.kings)
            assert game.centipawns(state) == game.evaluator.score(pieces, occ[1], occ[0])


def test_a_state_from_a_game_with_other_weights_is_evaluated_with_this_games_weights() -> None:
    plain, flat = Chess(), Chess(weights=Weights(pst=0.0))
    state = plain.play_moves("e4 e5 Nf3")  # material kept for plain's evaluator
    child = flat.result(state, flat.parse_action(state, "Nc6"))
    assert flat.centipawns(state) == 0 and flat.centipawns(child) == 0
    assert plain.centipawns(state) != 0 and plain.centipawns(child) == plain.centipawns(
        plain.state_from_fen(child.board.fen())
    )


@pytest.mark.parametrize(("fen", "counts"), PERFT)
def test_fast_actions_and_noisy_actions_are_python_chess_moves_in_its_order(
    fen: str, counts: tuple[int, ...]
) -> None:
    import random

    rng = random.Random(fen)
    game = Chess(fen)
    seen = 0
    for _ in range(20):
        state = game.initial_state()
        for _ in range(120):
            noisy = game.noisy_actions(state)
            assert noisy == game.noisy_reference(state), state.board.fen()
            if not game.is_terminal(state):
                assert game.actions(state) == list(state.board.generate_legal_moves())
            seen += bool(noisy)
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(game.actions(state)))
    assert seen > 100  # captures and promotions were met, not only quiet positions


@pytest.mark.parametrize(("fen", "counts"), PERFT)
def test_check_pins_and_the_terminal_test_agree_with_python_chess(
    fen: str, counts: tuple[int, ...]
) -> None:
    import random

    import chess

    rng = random.Random(fen)
    game = Chess(fen)
    checks = 0
    for _ in range(20):
        state = game.initial_state()
        for _ in range(120):
            board = state.board
            assert state.in_check() == board.is_check()
            checks += state.in_check()
            pins = sum(1 << sq for sq in chess.SQUARES if board.is_pinned(board.turn, sq))
            assert state.pinned() == pins & board.occupied_co[board.turn]
            fresh = ChessState(board.copy(), state.ply, state.history)  # moves unknown
            assert game.is_terminal(fresh) == game.is_terminal(state) == (
                not any(board.generate_legal_moves())
                or board.is_insufficient_material()
                or board.halfmove_clock >= 100
                or state.repetitions() >= 3
            )
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(game.actions(state)))
    assert checks > 0


def reference_order(state: ChessState, actions: list[Any]) -> list[Any]:
    """MVV-LVA as first written, with python-chess's piece_type_at (the oracle)."""
    value = (0, 1, 3, 3, 5, 9, 20)
    board = state.board
    scored: list[tuple[int, int, Any]] = []
    quiet = []
    for move in actions:
        victim = board.piece_type_at(move.to_square)
        if victim is None and board.is_en_passant(move):
            victim = 1
        if move.promotion is not None:
            scored.append((-1000 - 10 * move.promotion - (victim or 0), len(scored), move))
        elif victim is not None:
            attacker = board.piece_type_at(move.from_square) or 1
            scored.append((-(8 * value[victim] - value[attacker]), len(scored), move))
        else:
            quiet.append(move)
    scored.sort()
    return [m for _, _, m in scored] + quiet


@pytest.mark.parametrize(("fen", "counts"), PERFT)
def test_order_hint_is_mvv_lva_after_promotions(fen: str, counts: tuple[int, ...]) -> None:
    import random

    rng = random.Random(fen)
    game = Chess(fen)
    for _ in range(10):
        state = game.initial_state()
        for _ in range(120):
            if game.is_terminal(state):
                break
            moves = game.actions(state)
            assert game.order_hint(state, moves) == reference_order(state, moves)
            state = game.result(state, rng.choice(moves))


# --- evaluation features: pawn structure and rook files ---------------------------------------


def square(name: str) -> int:
    return (int(name[1]) - 1) * 8 + "abcdefgh".index(name[0])


def test_doubled_isolated_and_passed_pawns_score_by_their_weights() -> None:
    from plies.games.chess.evaluation import unpack

    e = Evaluator()
    c2, c3 = 1 << square("c2"), 1 << square("c3")
    # Two white pawns on c3 and c2: one doubled, both isolated, both passed (no black pawn).
    assert unpack(e.pawn_structure(c2 | c3, 0)[0]) == (
        -10 - 2 * 10 + WEIGHTS.passed_mg[1] + WEIGHTS.passed_mg[2],
        -20 - 2 * 10 + WEIGHTS.passed_eg[1] + WEIGHTS.passed_eg[2],
    )


def pawn_terms_by_definition(w: Weights, own: set[int], enemy: set[int], white: bool) -> int:
    """mg of one side's pawn terms, square by square from the definitions (the oracle)."""
    mg = 0
    for file in range(8):
        count = sum(1 for sq in own if sq % 8 == file)
        mg += w.doubled[0] * max(count - 1, 0)
        if count and not any(abs(sq % 8 - file) == 1 for sq in own):
            mg += w.isolated[0] * count
    for sq in own:
        rank = sq // 8
        ahead = [e for e in enemy if abs(e % 8 - sq % 8) <= 1 and (
            e // 8 > rank if white else e // 8 < rank)]
        if not ahead:
            mg += w.passed_mg[rank if white else 7 - rank]
    return mg


def test_pawn_structure_follows_the_definitions_on_random_pawns() -> None:
    import random

    from plies.games.chess.evaluation import unpack

    rng = random.Random(12)
    e = Evaluator()
    for _ in range(300):
        squares = rng.sample(range(8, 56), rng.randint(0, 16))
        cut = rng.randint(0, len(squares))
        white, black = set(squares[:cut]), set(squares[cut:])
        packed = e.pawn_structure(sum(1 << q for q in white), sum(1 << q for q in black))[0]
        assert unpack(packed)[0] == pawn_terms_by_definition(
            WEIGHTS, white, black, True
        ) - pawn_terms_by_definition(WEIGHTS, black, white, False)


def test_rooks_on_open_and_half_open_files() -> None:
    # Equal mg and eg weights of 24: the tapered bonus is exactly 24 at any phase.
    flat = Weights(rook_open=(0, 0), rook_half_open=(0, 0))
    for fen, weights in (
        ("4k3/3p4/8/8/8/8/8/3RK3 w - - 0 1", Weights(rook_open=(0, 0), rook_half_open=(24, 24))),
        ("4k3/4p3/8/8/8/8/8/3RK3 w - - 0 1", Weights(rook_open=(24, 24), rook_half_open=(0, 0))),
        ("4k3/3p4/8/8/8/8/3P4/3RK3 w - - 0 1", Weights(rook_open=(24, 24),
                                                       rook_half_open=(24, 24))),
    ):
        game, plain = Chess(fen, weights=weights), Chess(fen, weights=flat)
        gain = game.centipawns(game.initial_state()) - plain.centipawns(plain.initial_state())
        assert gain == (0 if "3P4" in fen else 24), fen


def test_plain_weights_are_the_evaluation_without_pawn_structure_and_rook_files() -> None:
    from plies.games.chess.evaluation import PLAIN

    # The values of the evaluation before pawn structure and rook files (perft positions
    # 2 to 5 and a Queen's Gambit middlegame), and the values with them.
    fens = [fen for fen, _ in PERFT[1:]] + [
        "r1bq1rk1/pp1nbppp/2p1pn2/3p2B1/2PP4/2N1PN2/PPQ2PPP/R3KB1R w KQ - 0 8"
    ]
    before, now = [56, 37, 136, 34, -32], [56, 5, 136, 84, -32]
    for fen, old, new in zip(fens, before, now, strict=True):
        plain, game = Chess(fen, weights=PLAIN), Chess(fen)
        assert plain.centipawns(plain.initial_state()) == old, fen
        assert game.centipawns(game.initial_state()) == new, fen


def activity_by_definition(w: Weights, board: Any) -> tuple[int, int]:
    """(mg, eg) for White of mobility and king safety, from the definitions with
    python-chess's attack sets (the oracle of :func:`evaluation.activity`)."""
    import chess

    mg = eg = 0
    for color in (chess.WHITE, chess.BLACK):
        sign = 1 if color else -1
        own = board.occupied_co[color]
        zone = chess.BB_KING_ATTACKS[board.king(not color)]
        attackers = units = 0
        guarded = 0
        for sq in board.pieces(chess.PAWN, not color):
            guarded |= int(board.attacks(sq))
        for p, piece in enumerate((chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)):
            for sq in board.pieces(piece, color):
                attacks = int(board.attacks(sq))
                n = bin(attacks & ~own & ~guarded).count("1") - w.mobility_centre[p]
                mg += sign * w.mobility_mg[p] * n
                eg += sign * w.mobility_eg[p] * n
                if attacks & zone:
                    attackers += 1
                    units += w.king_attack_unit[p]
        if attackers and board.pieces(chess.QUEEN, color):
            scale = w.king_attack_scale[min(attackers, len(w.king_attack_scale) - 1)]
            mg += sign * (units * scale * w.king_attack[0] // 256)
            eg += sign * (units * scale * w.king_attack[1] // 256)
        king = board.king(color)
        file, rank = chess.square_file(king), chess.square_rank(king)
        if file in (0, 1, 2, 5, 6, 7):
            for f, times in ((file - 1, 1), (file, 2), (file + 1, 1)):
                if not 0 <= f < 8:
                    continue
                ranks = [
                    chess.square_rank(sq) for sq in board.pieces(chess.PAWN, color)
                    if chess.square_file(sq) == f
                    and (chess.square_rank(sq) > rank if color else chess.square_rank(sq) < rank)
                ]
                if not ranks:
                    penalty = w.shelter[0]
                else:
                    penalty = w.shelter[min(ranks) if color else 7 - max(ranks)]
                mg += sign * times * penalty
    return mg, eg


@pytest.mark.parametrize("weights", [
    ACTIVE,
    Weights(mobility_mg=(3, -2, 7, 1), mobility_eg=(1, 9, -4, 5), mobility_centre=(2, 0, 9, 1),
            king_attack_unit=(3, 1, 4, 1), king_attack=(-17, 33), king_attack_scale=(5, 9, 200),
            shelter=(-40, 1, -3, -9, -15, -2, 6, 8)),
])
def test_mobility_and_king_safety_follow_the_definitions_on_random_games(
    weights: Weights,
) -> None:
    import random

    import chess

    from plies.games.chess.evaluation import activity

    rng = random.Random(3)
    for fen, _ in PERFT:
        for _ in range(4):
            board = chess.Board(fen)
            for _ in range(rng.randint(0, 60)):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
            occ = board.occupied_co
            pieces = (board.pawns, board.knights, board.bishops, board.rooks, board.queens,
                      board.kings)
            assert activity(weights, pieces, occ[1], occ[0]) == activity_by_definition(
                weights, board
            ), board.fen()


def test_mobility_and_king_safety_are_what_active_weights_add() -> None:
    from plies.games.chess.evaluation import activity

    fen = "r1bq1rk1/pp1nbppp/2p1pn2/3p2B1/2PP4/2N1PN2/PPQ2PPP/R3KB1R w KQ - 0 8"
    game, static = Chess(fen, weights=ACTIVE), Chess(fen)
    board = game.initial_state().board
    occ = board.occupied_co
    pieces = (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings)
    mg, eg = activity(ACTIVE, pieces, occ[1], occ[0])
    phase = 24  # every minor, rook and queen on the board
    assert (mg, eg) != (0, 0)
    assert game.centipawns(game.initial_state()) - static.centipawns(
        static.initial_state()
    ) == mg * phase // 24
    # By hand: a black king on g8 with no pawn in front pays shelter[0] four times (its
    # own file twice); a knight on a1 attacks 2 squares, one on d4 8, two of them (c6, e6)
    # guarded by a black pawn.
    mg, eg, centre = ACTIVE.mobility_mg[0], ACTIVE.mobility_eg[0], ACTIVE.mobility_centre[0]
    for fen, expected in (
        ("6k1/8/8/8/8/8/5PPP/6K1 w - - 0 1", (-4 * ACTIVE.shelter[0], 0)),
        ("6k1/8/8/8/8/5P2/6PP/6K1 w - - 0 1", (-4 * ACTIVE.shelter[0] + ACTIVE.shelter[2], 0)),
        ("4k3/8/8/8/8/8/8/N3K3 w - - 0 1", (mg * (2 - centre), eg * (2 - centre))),
        ("4k3/3p4/8/8/3N4/8/8/4K3 w - - 0 1", (mg * (6 - centre), eg * (6 - centre))),
    ):
        board = Chess(fen).initial_state().board
        occ = board.occupied_co
        pieces = (board.pawns, board.knights, board.bishops, board.rooks, board.queens,
                  board.kings)
        assert activity(ACTIVE, pieces, occ[1], occ[0]) == expected, fen


def test_the_short_phase_count_is_the_weighted_one() -> None:
    import random

    fast = Evaluator()
    general = Evaluator()
    object.__setattr__(general, "pesto_phase", False)  # count through weights.phase
    assert fast.pesto_phase
    game = Chess(PERFT[3][0])
    rng = random.Random(5)
    state = game.initial_state()
    for _ in range(200):
        if game.is_terminal(state):
            state = game.initial_state()
        board = state.board
        occ = board.occupied_co
        pieces = (board.pawns, board.knights, board.bishops, board.rooks, board.queens,
                  board.kings)
        assert fast.score(pieces, occ[1], occ[0]) == general.score(pieces, occ[1], occ[0])
        state = game.result(state, rng.choice(game.actions(state)))
