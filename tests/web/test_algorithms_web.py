"""The page offers what the algorithm registry says each algorithm can do: the engine box
for those with engine craft, a depth for those that take one, a tree for the traceable;
the test plug-in's algorithm (tests/plugin, ``negamax-plugin``) is offered like the rest."""

from __future__ import annotations

from typing import Any

from plies.search.registry import available, names
from plies.web import api

from .test_browser import browser, page  # noqa: F401  (the browser fixtures)

PLUGIN = "negamax-plugin"


def test_the_engine_and_depth_boxes_follow_the_capabilities(page: Any) -> None:  # noqa: F811
    options = page.locator("#algorithm option").all_inner_texts()
    assert options == api.catalogue()["algorithms"] == ["auto", *available()]
    assert PLUGIN in options
    for name, entry in available().items():
        page.select_option("#algorithm", name)
        assert page.is_disabled("#engine") is (not entry.engine), name
        assert page.is_disabled("#depth") is (not entry.depth), name
    page.select_option("#algorithm", "auto")
    assert not page.is_disabled("#engine") and not page.is_disabled("#depth")


def test_the_plug_in_algorithm_analyzes_and_its_tree_is_refused(page: Any) -> None:  # noqa: F811
    page.select_option("#algorithm", PLUGIN)
    page.check("input[name=limit][value=depth]")
    page.fill("#depth", "9")
    page.click("#analyze")
    # The values, or the server's refusal (then the failure says what it was).
    page.wait_for_selector("#analysis:not([hidden]) #values tr[data-move], #error:not([hidden])")
    assert page.is_hidden("#error"), page.locator("#error").inner_text()
    assert page.locator("#values tr[data-move]").count() == 9
    values = {float(v) for v in page.locator("#values tr[data-move] td:nth-child(2)")
              .all_inner_texts()}
    assert values == {0.0}  # every first move of tic-tac-toe draws
    page.click("#show-tree")
    summary = page.locator("#tree-summary").inner_text()
    traceable = " or ".join(names(lambda a: a.traceable))
    assert summary == (f"{PLUGIN} reports no trace, so its tree cannot be drawn: analyze "
                       f"with {traceable} to see one.")
