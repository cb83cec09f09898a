"""Results, trees and boards show themselves in a notebook (``_repr_html_`` / ``_repr_svg_``),
with the game's own names for moves and players and values cleaned as the CLI cleans them."""

from __future__ import annotations

import pickle

import plies
from plies.games import TreeGame
from plies.search import SearchStats
from plies.viz.capture import capture


def test_a_search_result_shows_its_value_action_and_pv() -> None:
    game = plies.games.load("aima-5-2")
    html = plies.alphabeta(game, game.initial_state())._repr_html_()
    assert "<th>value</th><td><b>3</b> for MAX (exact)</td>" in html
    assert "<th>best move</th><td><b>a1</b></td>" in html
    assert "<th>principal variation</th><td>a1 b1</td>" in html
    assert "<th>nodes</th><td>11 (" in html


def test_a_result_names_moves_and_players_as_the_game_and_the_cli_do() -> None:
    """Tic-tac-toe's first cell is move 1 (not the action 0), X is X (not player 0), the
    PV is the game's moves (not a tuple), and the board shows where the best move is."""
    ttt = plies.games.load("tictactoe")
    state = plies.play(ttt, ttt.initial_state(), "5")
    result = plies.alphabeta(ttt, state)
    assert result.origin is not None and result.origin.game is ttt
    html = result._repr_html_()
    assert "<td><b>0</b> for O (exact)</td>" in html
    assert "<th>best move</th><td><b>1</b></td>" in html
    assert "<th>principal variation</th><td>1 2 8 4 6 3 7 9</td>" in html  # as plies solve
    assert "<svg" in html and ">best</text>" in html and ">X</text>" in html


def test_an_analysis_shows_every_move_with_its_value_and_on_the_board() -> None:
    ttt = plies.games.load("tictactoe")
    state = plies.play(ttt, plies.play(ttt, ttt.initial_state(), "1"), "5")
    html = plies.analyze(ttt, state)._repr_html_()
    assert "<tr><th>move</th><th>value</th></tr>" in html
    assert "<tr><td>9</td><td>0</td></tr>" in html and "<tr><td>2</td><td>0</td></tr>" in html
    assert html.count('font-size="11"') == 7  # a value on each of the seven empty cells


def test_float_noise_is_cleaned_as_the_cli_cleans_it() -> None:
    game = plies.games.load("aima-5-2")
    state = game.initial_state()
    noisy = plies.SearchResult(
        2.220446049250313e-16, "a1", ("a1",), SearchStats(), 0,
        action_values={"a1": 2.0000000000000004, "a2": -1e-17},
    ).about(game, state)
    html = noisy._repr_html_()
    assert "e-16" not in html and "<b>0</b> for MAX" in html
    assert "<tr><td>a1</td><td>2</td></tr><tr><td>a2</td><td>0</td></tr>" in html


def test_the_origin_is_not_part_of_the_value_nor_pickled() -> None:
    ttt = plies.games.load("tictactoe")
    result = plies.alphabeta(ttt, ttt.initial_state())
    bare = pickle.loads(pickle.dumps(result))
    assert bare == result and bare.origin is None and result.origin is not None
    assert len(pickle.dumps(result)) == len(pickle.dumps(bare))
    assert "for player 0" in bare._repr_html_()  # without its game: numbers, as before


def test_maxn_and_mixed_strategies_show_their_tables() -> None:
    game = plies.games.load("aima-5-4")
    html = plies.maxn(game, game.initial_state())._repr_html_()
    assert "<th>values</th><td>P0 1, P1 2, P2 6</td>" in html
    rps = plies.games.load("rps")
    html = plies.simultaneous(rps, rps.initial_state(), player=0)._repr_html_()
    assert "<th>probability</th>" in html and "<tr><td>rock</td><td>0.3333</td></tr>" in html


def test_the_text_of_a_result_is_escaped() -> None:
    result = plies.SearchResult(
        value=-0.0, action="<script>&", pv=("<script>&", "b"), stats=SearchStats(),
        action_values={"<i>": 1.5},
    )
    html = result._repr_html_()
    assert "<script>" not in html and "<i>" not in html
    assert "<b>&lt;script&gt;&amp;</b>" in html and "<td>&lt;i&gt;</td><td>1.5</td>" in html
    assert "<b>0</b> for player 0" in html  # never "-0"


def test_a_board_shows_itself_as_a_picture() -> None:
    chess = plies.games.load("chess")
    board = chess.board(chess.initial_state())
    svg = board._repr_svg_()
    assert svg.startswith("<svg") and svg.count("♚") == 2 and "<?xml" not in svg
    assert board._repr_html_().startswith('<div class="plies-board"><svg')


def test_a_search_tree_shows_its_picture() -> None:
    game = plies.games.load("aima-5-2")
    tree = capture(game, game.initial_state())
    assert tree._repr_svg_() == tree.to_svg() and "<svg" in tree._repr_svg_()
    html = tree._repr_html_()
    assert html.startswith("<figure><svg") and "<?xml" not in html
    assert "<figcaption>aima-5-2: alphabeta, value 3 for MAX; principal variation a1 b1; " in html
    assert html.endswith("11 nodes searched, 2 pruned</figcaption></figure>")


def test_the_caption_of_a_tree_is_escaped() -> None:
    game = TreeGame.from_text("max(min(3 12) min(2 4))", name="a<b&c")
    html = capture(game, game.initial_state())._repr_html_()
    assert "a<b" not in html and "<figcaption>a&lt;b&amp;c: alphabeta" in html


def test_the_caption_of_a_tree_writes_values_without_float_noise() -> None:
    game = TreeGame.from_text("max(min(2.220446049250313e-16 1) min(-1 4))")
    html = capture(game, game.initial_state())._repr_html_()
    assert "e-16" not in html and "value 0 for MAX" in html
