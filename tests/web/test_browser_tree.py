"""The search tree in the browser: the lecture's picture, stepping through the search, and
whether move ordering matters (the system Chromium, driven by Playwright)."""

from __future__ import annotations

from typing import Any

from .test_browser import browser, page, shot  # noqa: F401  (the browser fixtures)


def load_aima_5_2(page: Any) -> None:  # noqa: F811
    page.select_option("#game-select", "aima-5-2")
    page.wait_for_function("() => document.getElementById('render').textContent"
                           ".includes('node A')")
    page.select_option("#algorithm", "alphabeta")


def test_the_tree_is_the_lecture_picture_and_the_search_can_be_stepped(page: Any) -> None:  # noqa: F811
    load_aima_5_2(page)
    page.click("#analyze")
    page.wait_for_selector("#values tr[data-move='a1']")
    page.click("#show-tree")
    page.wait_for_selector("#tree-picture svg g.node", state="attached")
    nodes = page.locator("#tree-picture svg g.node")
    assert nodes.count() == 13
    assert page.locator("#tree-picture svg g.node.pruned").count() == 2
    assert "β" in page.locator("#tree-picture svg").inner_html()  # the pruning bound
    # Step forward: the current node, the line down to it, the nodes not reached yet.
    assert page.locator("#tree-step-count").inner_text() == "the whole search (16 steps)"
    page.click("#tree-step-first")
    assert page.locator("#tree-step-count").inner_text() == "step 1 of 16"
    assert page.locator("#tree-step-text").inner_text().startswith("Go to MAX at the root")
    assert page.locator("#node-0.current").count() == 1
    assert page.locator("g.node.future").count() == 12
    for _ in range(8):
        page.click("#tree-step-next")
    text = page.locator("#tree-step-text").inner_text()
    assert text == "Prune c2, c3: alpha=3 >= beta=2."
    assert page.locator("g.node.current").get_attribute("id") == "node-5"
    assert page.locator("g.node.line").get_attribute("id") == "node-0"
    shot(page, "tree-stepped", at="#tree-card")
    page.click("#tree-step-back")
    assert page.locator("#tree-step-text").inner_text().strip().startswith("Go to leaf a2 c1")
    page.click("#tree-step-last")
    assert page.locator("g.node.future").count() == 0
    # Zoom.
    before = page.locator("#tree-picture svg").evaluate("s => s.getBoundingClientRect().width")
    page.click("#tree-zoom-in")
    after = page.locator("#tree-picture svg").evaluate("s => s.getBoundingClientRect().width")
    assert after > before


def test_does_move_ordering_matter_side_by_side(page: Any) -> None:  # noqa: F811
    load_aima_5_2(page)
    page.click("#analyze")
    page.wait_for_selector("#values tr[data-move='a1']")
    page.click("#show-tree")
    page.wait_for_selector("#tree-picture svg g.node", state="attached")
    page.click("#tree-ordering")
    page.wait_for_selector(".order-panel svg", state="attached")
    panels = {p.get_attribute("data-order"): p.locator(".order-facts").inner_text()
              for p in page.locator(".order-panel").all()}
    assert panels["as the game lists them"] == "11 nodes, 2 pruned, value 3"
    assert panels["best first"] == "9 nodes, 4 pruned, value 3"
    assert panels["worst first"] == "13 nodes, 0 pruned, value 3"
    shot(page, "tree-ordering", at="#ordering")


def test_rock_paper_scissors_analysed_shows_the_mixed_strategies(page: Any) -> None:  # noqa: F811
    page.select_option("#game-select", "rps")
    page.wait_for_function("() => document.getElementById('render').textContent"
                           ".includes('round')")
    page.click("#analyze")
    page.wait_for_selector("#analysis:not([hidden]) #values tr[data-player]")
    assert "mixed strategies" in page.locator("#analysis-title").inner_text().lower()
    rows = page.locator("#values tr[data-player='Row']")
    assert [r.locator("td").nth(1).inner_text() for r in rows.all()] == ["33.3%"] * 3
    assert "secures 0" in page.locator("#values").inner_text()
    assert page.locator("#values .tag").count() == 0  # no "best" move where all move at once
    page.click("#show-tree")
    page.wait_for_selector("#tree-picture svg g.node", state="attached")  # no player field needed
    shot(page, "rps-analysed", at="#analysis")

