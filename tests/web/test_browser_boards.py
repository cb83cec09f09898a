"""The boards in a real browser: values in the game's unit, stones, maps, hidden cards.

The system Chromium driven by Playwright against uvicorn, with the fixtures of
``test_browser.py``; screenshots go to ``tests/web/artifacts/``.
"""

from __future__ import annotations

from typing import Any

from .test_browser import browser, page, shot  # noqa: F401  (fixtures)

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"


def choose(page: Any, game: str) -> None:  # noqa: F811  (a page, not the fixture)
    """Pick ``game`` and wait until its first position is on the page (the status line is
    cleared first, so that the previous game's "to move" is not taken for the new one's)."""
    page.evaluate("() => { document.querySelector('#status').textContent = ''; }")
    page.select_option("#game-select", game)
    page.wait_for_function(
        "(game) => document.querySelector('#game-select').value === game"
        " && document.querySelector('#status').textContent.includes('to move')", arg=game)


def analyze(page: Any) -> None:  # noqa: F811
    page.click("#analyze")
    page.wait_for_selector("#analysis:not([hidden]) tr.best")


def test_connect_four_stones_are_red_and_yellow_discs(page: Any) -> None:  # noqa: F811
    choose(page, "connect4")
    page.click("[data-column='3']")  # X drops a stone in column 4; O answers
    page.wait_for_function("() => document.querySelectorAll('#history .ply').length === 2")
    colours = page.eval_on_selector_all(
        ".grid.connect4 .cell:not(.empty) .disc",
        "ds => ds.map(d => getComputedStyle(d).backgroundColor)")
    assert sorted(colours) == ["rgb(224, 49, 49)", "rgb(250, 176, 5)"]
    assert page.locator(".grid.connect4").inner_text().strip() == ""  # no X or O written
    swatch = page.locator("#status .swatch")
    assert swatch.evaluate("s => getComputedStyle(s).backgroundColor") == "rgb(224, 49, 49)"
    # The column numbers stand under their columns.
    centres = page.evaluate("""() => {
        const mid = (e) => { const r = e.getBoundingClientRect(); return r.left + r.width / 2; };
        const cells = [...document.querySelectorAll('.grid.connect4 .cell')].slice(0, 7);
        const files = [...document.querySelectorAll('.frame .files span')];
        return cells.map((c, i) => Math.abs(mid(c) - mid(files[i])));
    }""")
    assert max(centres) < 3, centres
    shot(page, "boards-connect4")


def test_chess_values_are_centipawns_and_mates_best_first(page: Any) -> None:  # noqa: F811
    choose(page, "chess")
    page.fill("[data-option=fen]", MATE_IN_ONE)
    page.dispatch_event("[data-option=fen]", "change")
    page.wait_for_function("() => document.querySelector('#position').textContent.includes('6k1')")
    page.check("input[name=limit][value=depth]")
    page.fill("#depth", "2")
    analyze(page)
    rows = page.locator("#values tr[data-move]")
    first = rows.first.locator("td").all_inner_texts()
    assert first[0] == "Ra8#" and first[1] == "mate in 1"
    scores = rows.evaluate_all("rs => rs.map(r => r.children[1].textContent)")
    assert all(s.endswith(" cp") for s in scores[1:]) and len(scores) > 10
    cps = [int(s.removesuffix(" cp")) for s in scores[1:]]
    assert cps == sorted(cps, reverse=True)
    assert page.locator("#r-value").inner_text().startswith("mate in 1")
    shot(page, "boards-chess")


def test_pacman_values_leave_the_maze_uncovered(page: Any) -> None:  # noqa: F811
    choose(page, "pacman")
    analyze(page)
    board = page.locator("#board")
    assert board.locator(".grid.pacman .cell-value").count() == 0
    chips = board.locator(".value-strip .value-chip")
    moves = page.locator("#values tr[data-move]").evaluate_all(
        "rs => rs.map(r => r.dataset.move)")
    assert [c.split()[0] for c in chips.all_inner_texts()] == moves  # best first
    assert "best" in (chips.first.get_attribute("class") or "")
    # The whole maze is in its card, not clipped at its edge.
    fits = board.evaluate("b => b.querySelector('.grid').getBoundingClientRect().right"
                          " <= b.getBoundingClientRect().right + 1")
    assert fits
    chips.first.hover()
    assert board.locator(".cell.pointed").count() == 1
    shot(page, "boards-pacman")


def test_kuhn_shows_the_human_its_own_card_only(page: Any) -> None:  # noqa: F811
    choose(page, "kuhn")
    page.wait_for_function("() => document.querySelector('#history').textContent.includes('dealt')")
    render = page.locator("#render").inner_text()
    assert render.startswith("your card ") and "P1:" not in render
    assert "cards only" in page.locator("#status").inner_text()
    page.click("#legal [data-move=pass]")  # the engine answers; the hand may end
    page.wait_for_function("() => document.querySelectorAll('#history .ply').length >= 3")
    shot(page, "boards-kuhn")


def test_empire_is_a_map(page: Any) -> None:  # noqa: F811
    choose(page, "empire")
    # the empires' territories (waited for: the map is drawn once the position arrives)
    page.wait_for_function(
        "() => document.querySelectorAll('#board .grid .cell.tinted').length > 20")
    grid = page.locator("#board .grid")
    assert grid.locator(".disc.square .inner").count() == 3  # three capitals, each with its unit
    water = grid.locator(".cell").nth(3 + 9 * 2)  # d7 on the continent map
    assert water.evaluate("c => getComputedStyle(c).backgroundColor") == "rgb(116, 192, 252)"
    assert page.locator("#roles .swatch").count() == 3
    shot(page, "boards-empire")
