"""The quiz in the browser, "is this a good move?": the question first, the engine's values
only after the answer (the system Chromium, driven by Playwright)."""

from __future__ import annotations

from typing import Any

from .test_browser import browser, page, shot  # noqa: F401  (the browser fixtures)
from .test_browser_tree import load_aima_5_2


def test_the_quiz_grades_a_move_with_the_engines_values(page: Any) -> None:  # noqa: F811
    load_aima_5_2(page)
    page.click("#quiz-move")
    page.wait_for_selector("#quiz-moves button[data-move='a2']")
    assert page.locator("#quiz-question").inner_text() == "Which move is best for MAX? (a1, a2, a3)"
    assert page.locator("#quiz-values tr").count() == 0  # nothing revealed before the answer
    page.click("#quiz-moves button[data-move='a2']")
    page.wait_for_selector("#quiz-verdict.wrong")
    assert page.locator("#quiz-verdict").inner_text() == (
        "Wrong: a2 is worth 2 to MAX; the best move is a1, worth 3 (a1 3, a2 2, a3 2).")
    assert page.locator("#quiz-values tr.best").get_attribute("data-move") == "a1"
    assert page.locator("#quiz-values tr.picked").get_attribute("data-move") == "a2"
    shot(page, "quiz", at="#quiz")
    page.click("#quiz-value")
    page.wait_for_selector("#quiz-value-form:not([hidden])")
    assert page.locator("#quiz-values tr").count() == 0  # a new question hides the old answer
    page.fill("#quiz-number", "3")
    page.click("#quiz-value-form button")
    page.wait_for_selector("#quiz-verdict.right")
    assert page.locator("#quiz-verdict").inner_text().startswith("Right: the position is worth 3")


def test_every_best_move_is_right_and_a_new_position_ends_the_quiz(page: Any) -> None:  # noqa: F811
    page.select_option("#game-select", "tictactoe")
    page.wait_for_function("() => document.getElementById('status').textContent"
                           ".startsWith('X to move')")
    page.click("#quiz-move")
    page.wait_for_selector("#quiz-moves button[data-move='9']")
    page.click("#quiz-moves button[data-move='9']")  # every first move draws
    page.wait_for_selector("#quiz-verdict.right")
    assert page.locator("#quiz-values tr.best").count() == 9
    page.select_option("#game-select", "aima-5-2")
    page.wait_for_function("() => document.getElementById('render').textContent"
                           ".includes('node A')")
    page.wait_for_selector("#quiz", state="hidden")  # the quiz was about the old position


def test_chess_quiz_values_are_centipawns_best_first(page: Any) -> None:  # noqa: F811
    page.select_option("#game-select", "chess")
    page.wait_for_function("() => document.getElementById('status').textContent"
                           ".startsWith('White to move')")
    page.select_option("#algorithm", "alphabeta")
    page.click("#quiz-move")
    page.wait_for_selector("#quiz-moves button[data-move='e4']")
    page.click("#quiz-moves button[data-move='e4']")
    page.wait_for_selector("#quiz-verdict.right, #quiz-verdict.wrong")
    cells = page.locator("#quiz-values tr td:nth-child(2)").all_inner_texts()
    assert len(cells) == 20 and all(c.endswith(" cp") for c in cells)
    numbers = [float(c.split()[0]) for c in cells]
    assert numbers == sorted(numbers, reverse=True)
    shot(page, "quiz-chess", at="#quiz")


def test_a_min_node_is_asked_in_max_values(page: Any) -> None:  # noqa: F811
    load_aima_5_2(page)
    page.select_option("[data-role='1']", "human")  # MIN waits for the student
    page.click("#legal button:text-is('a1')")
    page.wait_for_function("() => document.getElementById('render').textContent"
                           ".includes('node B')")
    page.click("#quiz-value")
    page.wait_for_selector("#quiz-value-form:not([hidden])")
    assert page.locator("#quiz-question").inner_text() == \
        "What is this position worth to MAX? (a number)"
    page.fill("#quiz-number", "12")
    page.click("#quiz-value-form button")
    page.wait_for_selector("#quiz-verdict.wrong")
    assert page.locator("#quiz-verdict").inner_text() == (
        "Wrong: not 12; the position is worth 3 to MAX (best move for MIN b1: b1 3, b3 8, b2 12).")
    shot(page, "quiz-min-node", at="#quiz")
