"""Alpha-beta's strict cut rule in the browser: the "strict cutoffs" box reaches the tree
picture and its steps, which explain a prune by the bound the value passed."""

from __future__ import annotations

from typing import Any

from .test_browser import browser, page, shot  # noqa: F401  (the browser fixtures)
from .test_browser_tree import load_aima_5_2


def test_the_strict_cutoffs_box_gives_the_strict_rules_tree_and_steps(page: Any) -> None:  # noqa: F811
    load_aima_5_2(page)
    assert page.locator("#strict-cutoffs").is_enabled()
    page.check("#strict-cutoffs")
    page.click("#analyze")
    page.wait_for_selector("#values tr[data-move='a1']")
    page.click("#show-tree")
    page.wait_for_selector("#tree-picture svg g.node", state="attached")
    assert page.locator("#tree-picture svg g.node.pruned").count() == 2
    assert "v=2 &lt; \u03b1=3" in page.locator("#tree-picture svg").inner_html()
    page.click("#tree-step-first")
    for _ in range(8):
        page.click("#tree-step-next")
    assert page.locator("#tree-step-text").inner_text().strip() == "Prune c2, c3: v=2 < alpha=3."
    shot(page, "strict-tree-stepped", at="#tree-card")


def test_the_strict_cutoffs_box_is_off_for_an_algorithm_without_cuts(page: Any) -> None:  # noqa: F811
    load_aima_5_2(page)
    page.check("#strict-cutoffs")
    page.select_option("#algorithm", "minimax")
    page.wait_for_function("() => document.getElementById('strict-cutoffs').disabled")
    assert not page.locator("#strict-cutoffs").is_checked()
