"""Results and trees show themselves in a notebook (``_repr_html_`` / ``_repr_svg_``)."""

from __future__ import annotations

import plies
from plies.games import TreeGame
from plies.search import SearchStats
from plies.viz.capture import capture


def test_a_search_result_shows_its_value_action_and_pv() -> None:
    game = plies.games.load("aima-5-2")
    html = plies.alphabeta(game, game.initial_state())._repr_html_()
    assert "<th>value</th><td><b>3</b> for player 0 (exact)</td>" in html
    assert "<th>best action</th><td><b>a1</b></td>" in html
    assert "<th>principal variation</th><td>a1 b1</td>" in html
    assert "<th>nodes</th><td>11 (" in html


def test_an_analysis_shows_the_value_of_every_move() -> None:
    game = plies.games.load("aima-5-2")
    html = plies.analyze(game, game.initial_state())._repr_html_()
    assert "<tr><th>action</th><th>value</th></tr>" in html
    for action, value in (("a1", "3"), ("a2", "2"), ("a3", "2")):
        assert f"<tr><td>{action}</td><td>{value}</td></tr>" in html


def test_maxn_and_mixed_strategies_show_their_tables() -> None:
    game = plies.games.load("aima-5-4")
    assert "<th>utility vector</th><td>1, 2, 6</td>" in plies.maxn(
        game, game.initial_state()
    )._repr_html_()
    rps = plies.games.load("rps")
    html = plies.simultaneous(rps, rps.initial_state(), player=0)._repr_html_()
    assert "<th>probability</th>" in html and "<td>0.333333</td>" in html


def test_the_text_of_a_result_is_escaped() -> None:
    result = plies.SearchResult(
        value=-0.0, action="<script>&", pv=("<script>&", "b"), stats=SearchStats(),
        action_values={"<i>": 1.5},
    )
    html = result._repr_html_()
    assert "<script>" not in html and "<i>" not in html
    assert "<b>&lt;script&gt;&amp;</b>" in html and "<td>&lt;i&gt;</td><td>1.5</td>" in html
    assert "<b>0</b> for player 0" in html  # never "-0"


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
