"""Monte Carlo tree search in the web app: a time budget, never a depth, and no tree picture."""

from __future__ import annotations

from typing import Any

import pytest

from plies.web import api

from .test_browser import browser, page  # noqa: F401  (the browser fixtures)


def test_the_catalogue_says_mcts_takes_no_depth_and_draws_no_tree() -> None:
    caps = api.catalogue()["capabilities"]
    assert caps["mcts"]["depth"] is False and caps["mcts"]["traceable"] is False
    assert caps["alphabeta"]["depth"] is True


@pytest.mark.parametrize("endpoint", [api.move, api.analyze_moves])
def test_mcts_searches_with_a_time_budget(endpoint: Any) -> None:
    body = {"game": "tictactoe", "moves": ["1", "4", "2", "5"], "algorithm": "mcts", "time": 0.5}
    search = endpoint(body)["search"]
    assert search["action"] == "3"  # X completes the top row (proven by MCTS-Solver)
    assert search["exact"] is True
    assert search["limit"]["time"] == 0.5 and search["limit"]["depth"] is None


def test_mcts_without_depth_or_time_gets_the_default_time() -> None:
    search = api.move({"game": "connect4", "moves": [], "algorithm": "mcts"})["search"]
    assert search["limit"]["time"] == api.DEFAULT_TIME
    assert search["stats"]["nodes"] > 0


def test_a_depth_for_mcts_is_refused_in_one_line_naming_the_time() -> None:
    body = {"game": "tictactoe", "moves": [], "algorithm": "mcts", "depth": 4}
    for endpoint in (api.move, api.analyze_moves):
        refused = r'^mcts takes a time budget, not a depth: send "time"'
        with pytest.raises(api.ApiError, match=refused) as err:
            endpoint(body)
        assert err.value.status == 422 and "\n" not in str(err.value)


def test_the_tree_of_mcts_is_refused_naming_the_algorithms_that_draw_one() -> None:
    body = {"game": "tictactoe", "moves": [], "algorithm": "mcts", "time": 0.2}
    with pytest.raises(api.ApiError, match=r"^mcts reports no trace.*draw the tree of alphabeta"):
        api.search_tree(body)


def test_choosing_mcts_in_the_page_switches_to_a_time_budget(page: Any) -> None:  # noqa: F811
    page.click("input[name=limit][value=depth]")
    page.select_option("#algorithm", "mcts")
    assert page.is_disabled("input[name=limit][value=depth]") and page.is_disabled("#depth")
    assert page.is_checked("input[name=limit][value=time]")
    page.fill("#time", "0.3")
    page.click("#analyze")
    page.wait_for_selector("#analysis:not([hidden]) #values tr[data-move]")
    assert page.locator("#values tr[data-move]").count() == 9
    page.click("#show-tree")
    assert "mcts reports no trace" in page.locator("#tree-summary").inner_text()
    page.select_option("#algorithm", "alphabeta")  # a depth is offered again
    assert not page.is_disabled("input[name=limit][value=depth]")
