"""The catalogue and the analysis in a real browser: every game starts with its own
default options, an error never stands over another game's board, a simultaneous game
analysed shows its mixed strategies, and Analyze clicked while the engine thinks is queued.

The system Chromium driven by Playwright against uvicorn, with the fixtures of
``test_browser.py``; screenshots go to ``tests/web/artifacts/``.
"""

from __future__ import annotations

from typing import Any

from .test_browser import browser, page, shot  # noqa: F401  (fixtures)
from .test_browser_boards import choose


def test_empire_starts_with_its_own_default_options(page: Any) -> None:  # noqa: F811
    choose(page, "empire")
    options = page.eval_on_selector_all(
        "#options [data-option]",
        "xs => Object.fromEntries(xs.map(x => [x.dataset.option, x.value]))")
    assert options["turns"] == "300" and options["science"] == "400"
    assert page.locator("#error").is_hidden()
    shot(page, "webcat-empire-defaults")


def test_an_error_is_never_drawn_over_another_games_board(page: Any) -> None:  # noqa: F811
    choose(page, "tictactoe")
    assert page.locator("#board .cell").count() == 9
    choose(page, "empire")
    page.fill("[data-option=turns]", "0")
    page.dispatch_event("[data-option=turns]", "change")
    page.wait_for_selector("#error:not([hidden])")
    assert "turns" in page.locator("#error").inner_text()
    assert page.locator("#board").inner_html() == ""
    assert page.locator("#status").inner_text() == ""
    shot(page, "webcat-error-no-stale-board")
    page.problems.clear()  # the 422 answer was the point


def test_rock_paper_scissors_analysed_shows_its_mixed_strategies(page: Any) -> None:  # noqa: F811
    page.select_option("#game-select", "rps")
    page.wait_for_function(
        "() => document.querySelector('#status').textContent.includes('at once')")
    page.click("#analyze")
    page.wait_for_selector("#analysis:not([hidden]) tr.strategy-head")
    assert "Mixed strategies" in page.locator("#analysis-title").text_content()
    heads = page.locator("#values tr.strategy-head").all_text_contents()
    assert len(heads) == 2 and all("secures 0" in h for h in heads)
    rows = page.locator("#values tr[data-move]")
    assert rows.count() == 6
    for i in range(6):
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[0] in ("rock", "paper", "scissors") and cells[1] == "33.3%"
    assert "BEST" not in page.locator("#values").inner_text().upper()
    assert page.locator("#r-move").text_content() == "none alone: play the mixed strategy below"
    shot(page, "webcat-rps-analysed")


def test_analyze_clicked_while_the_engine_thinks_is_queued(page: Any) -> None:  # noqa: F811
    choose(page, "connect4")
    page.check("input[name=limit][value=time]")
    page.fill("#time", "2")  # Connect Four is not solved in 2 s: the engine uses them all
    page.select_option(".role select >> nth=0", "engine")  # the first player: it starts
    page.wait_for_selector("#engine-move:disabled")  # the engine is thinking
    page.click("#analyze")
    assert "queued" in page.locator("#analyze").text_content()
    # The analysis comes once the engine has moved: it is of the second player's position.
    page.wait_for_function(
        "() => document.querySelector('#last-title').textContent.startsWith('Analysis')")
    page.wait_for_selector("#analysis:not([hidden]) tr.best")
    assert page.locator("#history .ply").count() == 1
    assert page.locator("#analyze").text_content() == "Analyze position"
