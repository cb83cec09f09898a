"""The policy layer's defaults for playing chess and Othello, and positions as text."""

from __future__ import annotations

import random

import pytest

from plies.errors import GameFormatError, IllegalActionError
from plies.games import load
from plies.games.chess.rules import SINGULAR_MARGIN
from plies.games.othello import Othello
from plies.games.othello.rules import EXACT_EMPTIES as OTHELLO_EXACT_EMPTIES
from plies.policy import (
    PlayDefaults,
    Score,
    SearchSession,
    play_defaults,
    read_position,
)
from plies.policy.plan import QUIESCENCE
from plies.policy.session import MAX_DEPTH, MOVE_TIME
from plies.search import Limit

BACK_RANK = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"  # Ra8# at once
RETI = "rnbk1b1r/pp3ppp/2p5/4q3/4n3/8/PPPB1PPP/2KR1BNR w - - 0 10"  # 10.Bg5+ Kc7 11.Bd8#
HORIZON = "4k3/8/4p3/3p4/3Q4/8/8/4K3 w - - 0 1"  # Qxd5?? exd5 (tests/games/test_chess.py)
START_BOARD = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27 + " X"


def test_chess_and_othello_have_defaults_and_other_games_none() -> None:
    chess = play_defaults(load("chess"))
    assert chess is not None and chess.mate_scores
    assert dict(chess.craft) == {
        "quiescence": QUIESCENCE, "extensions": True, "null_move": 2, "reductions": True,
        "singular": SINGULAR_MARGIN,
    }
    assert chess.unit == "cp" and "SAN" in chess.moves_help and "UCI" in chess.moves_help
    othello = play_defaults(load("othello"))
    assert othello is not None and not othello.craft and not othello.mate_scores
    assert othello.exact_when is not None and othello.unit == "discs"
    for name in ("tictactoe", "connect4", "nim", "pig"):
        assert play_defaults(load(name)) is None
        assert not SearchSession(load(name)).tuned


def test_the_limit_is_the_users_or_the_defaults_time_a_move() -> None:
    engine = SearchSession(load("chess"))
    assert engine.limit() == Limit(depth=MAX_DEPTH, time=MOVE_TIME)
    assert engine.limit(depth=3) == Limit(depth=3)
    # a clock or a budget alone deepens until it says stop
    assert engine.limit(time=0.5) == Limit(depth=MAX_DEPTH, time=0.5)
    assert engine.limit(nodes=100) == Limit(depth=MAX_DEPTH, nodes=100)
    assert SearchSession(load("tictactoe")).limit() is None  # exact, as before


def test_othello_near_the_end_is_solved_exactly_without_a_limit() -> None:
    game = Othello()
    engine = SearchSession(game)
    state = _othello_with_empties(game, OTHELLO_EXACT_EMPTIES)
    assert engine.limit(state=state) is None
    result = engine.run(state, None)
    assert result.exact and engine.plan is not None and engine.plan.kind == "solver"
    early = _othello_with_empties(game, OTHELLO_EXACT_EMPTIES + 1)
    assert engine.limit(state=early) == Limit(depth=MAX_DEPTH, time=MOVE_TIME)


def _othello_with_empties(game: Othello, empties: int, seed: int = 3) -> object:
    rng = random.Random(seed)
    state = game.initial_state()
    while 64 - (state[0] | state[1]).bit_count() > empties:
        state = game.result(state, rng.choice(game.actions(state)))
    assert not game.is_terminal(state)
    return state


def test_a_mate_is_read_as_mate_in_n_from_both_sides() -> None:
    game = load("chess", {"fen": RETI})
    engine = SearchSession(game)
    state = game.initial_state()
    first = engine.run(state, engine.limit(depth=3))
    assert game.format_action(state, first.action) == "Bg5+"
    assert engine.score(first) == Score(100_000.0, 2, "cp")
    assert str(engine.score(first)) == "mate in 2"
    reply = game.result(state, first.action)
    second = engine.run(reply, engine.limit(depth=2))
    assert str(engine.score(second)) == "mated in 1" and engine.score(second).value == -100_000


def test_every_moves_value_names_the_mate_and_the_rest_in_centipawns() -> None:
    game = load("chess", {"fen": BACK_RANK})
    engine = SearchSession(game)
    state = game.initial_state()
    result = engine.run(state, engine.limit(depth=1), all_values=True)
    scores = {game.format_action(state, a): s for a, s in engine.action_scores(result).items()}
    assert len(scores) == len(game.actions(state))
    assert str(scores["Ra8#"]) == "mate in 1"
    assert all(s.mate is None and str(s).endswith(" cp") for m, s in scores.items() if m != "Ra8#")


def test_quiescence_keeps_the_queen_where_a_bare_depth_1_search_takes_the_pawn() -> None:
    game = load("chess", {"fen": HORIZON})
    state = game.initial_state()
    result = SearchSession(game).run(state, Limit(depth=1))
    assert game.format_action(state, result.action) != "Qxd5"
    bare = SearchSession(game, PlayDefaults()).run(state, Limit(depth=1))  # no quiescence
    assert game.format_action(state, bare.action) == "Qxd5"


def test_the_nodes_include_the_quiescence_nodes() -> None:
    game = load("chess", {"fen": HORIZON})
    state = game.initial_state()
    with_q = SearchSession(game).run(state, Limit(depth=1))
    without = SearchSession(game, PlayDefaults(mate_scores=True)).run(state, Limit(depth=1))
    assert with_q.stats.nodes > without.stats.nodes


def test_a_search_under_a_clock_stops_deepening_at_a_seen_mate() -> None:
    game = load("chess", {"fen": BACK_RANK})
    result = SearchSession(game).run(game.initial_state(), Limit(depth=MAX_DEPTH, nodes=10**7))
    assert result.stopped and result.stats.depth < 5  # not all the way to the budget


# --- positions as text ---------------------------------------------------------------------


def test_a_fen_an_epd_line_and_moves_after_them() -> None:
    chess = load("chess")
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    written = read_position(chess, fen)
    assert written.setup == fen and written.moves == () and written.operations == ()
    assert written.state.board.fen() == fen
    after = read_position(chess, fen + " moves Bb5 a6")
    assert after.moves == ("Bb5", "a6") and after.setup == fen
    assert after.state.board.fen().startswith("r1bqkbnr/1ppp1ppp/p1n5/1B2p3/")
    epd = read_position(chess, fen.rsplit(" ", 2)[0] + ' bm Bb5; id "Ruy Lopez";')
    assert dict(epd.operations) == {"bm": "Bb5", "id": "Ruy Lopez"}
    assert epd.state.board.fen() == fen.rsplit(" ", 2)[0] + " 0 1"
    moves = read_position(chess, "e4 e5 Nf3")
    assert moves.setup is None and moves.moves == ("e4", "e5", "Nf3")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("rnbqkbnr/pppppppp w", "is not a FEN or EPD: write the board, side to move"),
        ("xx/yy w KQkq -", "is not a chess position"),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "is not a legal chess position"),
    ],
)
def test_a_bad_fen_names_what_is_wrong_and_where(text: str, message: str) -> None:
    with pytest.raises(GameFormatError, match=message) as caught:
        read_position(load("chess"), text, "at fens.txt:4")
    assert "at fens.txt:4" in str(caught.value) and "\n" not in str(caught.value)


def test_an_illegal_move_after_a_fen_names_the_move_and_where() -> None:
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    with pytest.raises(IllegalActionError, match=r"'e5' \(move 1 after the position at f:2\)"):
        read_position(load("chess"), f"{fen} moves e5", "at f:2")


def test_an_othello_board_is_read_as_edax_writes_it() -> None:
    game = Othello()
    start = read_position(game, START_BOARD)
    assert start.state == game.initial_state() and start.setup == START_BOARD.strip()
    spaced = " ".join(START_BOARD[:64]) + " x ; a comment"
    assert read_position(game, spaced).state == game.initial_state()
    after = read_position(game, START_BOARD + " moves d3 c5")
    assert after.moves == ("d3", "c5") and after.state == game.result(
        game.result(game.initial_state(), 19), 34
    )
    white = read_position(game, START_BOARD[:64] + " O")
    assert game.to_move(white.state) == 1
    with pytest.raises(GameFormatError, match="centre squares"):
        read_position(game, "-" * 64 + " X")
    # moves from the start still work, and a board-like line of the wrong length is moves
    assert read_position(game, "d3 c5").state == after.state
    with pytest.raises(IllegalActionError):
        read_position(game, "-" * 63 + " X")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("SINGULAR_MARGIN", "plies.games.chess.rules.SINGULAR_MARGIN"),
        ("CHESS_MOVES_HELP", "plies.games.chess.rules.MOVES_HELP"),
        ("OTHELLO_EXACT_EMPTIES", "plies.games.othello.rules.EXACT_EMPTIES"),
        ("OTHELLO_MOVES_HELP", "plies.games.othello.rules.MOVES_HELP"),
    ],
)
def test_game_knowledge_that_moved_to_its_game_still_reads_with_a_warning(
    old: str, new: str
) -> None:
    import importlib

    from plies.policy import session

    where, _, name = new.rpartition(".")
    with pytest.warns(DeprecationWarning, match=new):
        value = getattr(session, old)
    assert value == getattr(importlib.import_module(where), name)
