"""OpenSpiel games in the web app (``plies web --game openspiel:NAME``): tic-tac-toe and
Connect Four on plies' own boards, every other game as OpenSpiel's text with move buttons;
in the system Chromium (Playwright) against uvicorn, as tests/web/test_browser.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx2 as httpx
import pytest

from plies.games import load
from plies.policy.games import position
from plies.web import api
from plies.web.app import LOOPBACK_HOSTS, create_app
from plies.web.view import view

from .conftest import serving
from .test_browser import WAIT_MS, browser, plies_played, shot, status, wait_for_turn  # noqa: F401

SPECS = ["openspiel:tic_tac_toe", "openspiel:connect_four", "openspiel:nim"]


def need_pyspiel() -> None:
    """pyspiel, which ``make`` installs (the ``openspiel`` extra is in ``test``)."""
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        pytest.fail("pyspiel is missing: pip install 'plies[openspiel]' (make installs it)")


@pytest.fixture(scope="module")
def openspiel_server() -> Iterator[str]:
    """The app with three OpenSpiel games added, as ``plies web --game ...`` serves it."""
    need_pyspiel()
    saved = dict(api.SERVED)
    api.serve_games(SPECS)
    try:
        with serving(create_app(allowed_hosts=LOOPBACK_HOSTS, workers=1, specs=SPECS)) as url:
            yield url
    finally:
        api.SERVED.clear()
        api.SERVED.update(saved)


@pytest.fixture
def openspiel_page(browser: Any, openspiel_server: str) -> Iterator[Any]:  # noqa: F811
    """The page of that app, loaded; the test fails on any script error."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(WAIT_MS)
    tab = context.new_page()
    problems: list[str] = []
    tab.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    tab.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    tab.goto(f"{openspiel_server}/")
    tab.wait_for_selector("body[data-ready=true]")
    try:
        yield tab
    finally:
        context.close()
    assert problems == []


# --- the boards, without a browser ---


@pytest.mark.parametrize(
    ("spec", "theirs", "ours"),
    [
        ("openspiel:tic_tac_toe", "x(1,1) o(0,0) x(2,2) o(0,2)", "5 1 9 3"),
        ("openspiel:connect_four", "x3 o3 x2 o0 x3", "4 4 3 1 4"),
    ],
)
def test_openspiel_boards_are_plies_own_boards(spec: str, theirs: str, ours: str) -> None:
    need_pyspiel()
    game = load(spec)
    shown = view(game, position(game, theirs)[0], theirs.split())["board"]
    own = load("tictactoe" if "tic" in spec else "connect4")
    expected = view(own, position(own, ours)[0], ours.split())["board"]
    assert shown["kind"] == expected["kind"]
    assert (shown["rows"], shown["columns"]) == (expected["rows"], expected["columns"])
    assert shown["cells"] == expected["cells"]
    clicks = "cell_moves" if "tic" in spec else "column_moves"
    assert [m is None for m in shown[clicks]] == [m is None for m in expected[clicks]]


def test_other_openspiel_games_show_openspiels_text() -> None:
    need_pyspiel()
    game = load("openspiel:nim")
    shown = view(game, game.initial_state(), [])
    assert shown["board"] is None
    assert shown["render"] == str(game.initial_state().native)
    assert "pile:1,take:1;" in shown["legal"]


# --- in the browser ---


def test_play_openspiel_tic_tac_toe_on_the_board(
    openspiel_page: Any, openspiel_server: str
) -> None:
    page = openspiel_page
    page.select_option("#game-select", "openspiel:tic_tac_toe")
    page.wait_for_selector(".grid.tictactoe")
    # The built-in tic-tac-toe's board is already there: wait for the new game's mover.
    wait_for_turn(page, 0, "P0")
    assert status(page) == "P0 to move (human)"
    page.wait_for_function(
        "() => document.getElementById('game-description').textContent"
        ".includes(\"OpenSpiel's Tic Tac Toe\")"
    )
    page.click("[data-cell='4']")  # x takes the centre; the engine (o) answers
    wait_for_turn(page, 2, "P0")
    assert plies_played(page)[0] == "x(1,1)"
    shot(page, "openspiel-tictactoe")
    while not status(page).startswith("Game over"):
        count = len(plies_played(page))
        page.locator(".grid .cell.empty:not([disabled])").first.click()
        wait_for_turn(page, count + 2, "P0")
    moves = plies_played(page)
    with httpx.Client(base_url=openspiel_server, timeout=30) as http:
        truth = http.post(
            "/api/state", json={"game": "openspiel:tic_tac_toe", "moves": moves}
        ).json()
    assert truth["terminal"] is True
    assert status(page).startswith(f"Game over: {truth['result']}")
    assert truth["result"] in ("draw", "P1 wins")  # perfect play never loses tic-tac-toe
    marks = [c.inner_text() for c in page.locator(".grid .cell").all()]
    assert marks == truth["board"]["cells"]
    shot(page, "openspiel-tictactoe-over")


def test_openspiel_connect_four_column_click(openspiel_page: Any) -> None:
    page = openspiel_page
    page.select_option("#game-select", "openspiel:connect_four")
    page.wait_for_selector(".grid.connect4")
    page.check("input[name=limit][value=depth]")
    page.fill("#depth", "2")
    page.click(".grid .cell[data-column='3'] >> nth=0")
    wait_for_turn(page, 2, "P0")
    assert plies_played(page)[0] == "x3"
    bottom_middle = 5 * 7 + 3
    assert "mark-X" in page.locator(f"[data-cell='{bottom_middle}']").get_attribute("class")
    shot(page, "openspiel-connect4")


def test_an_openspiel_game_without_a_board_shows_openspiels_text(
    openspiel_page: Any, openspiel_server: str
) -> None:
    page = openspiel_page
    page.select_option("#game-select", "openspiel:nim")
    page.wait_for_function(
        "() => document.getElementById('render').textContent.includes('(0): 1 3 5 7')"
    )
    assert page.locator("#render").is_visible()
    assert page.locator(".grid").count() == 0
    page.click("[data-move='pile:4,take:7;']")
    wait_for_turn(page, 2, "P0")
    moves = plies_played(page)
    assert moves[0] == "pile:4,take:7;"
    with httpx.Client(base_url=openspiel_server, timeout=30) as http:
        truth = http.post("/api/state", json={"game": "openspiel:nim", "moves": moves}).json()
    assert page.locator("#render").inner_text() == truth["render"]
    assert truth["render"].startswith("(0): ")  # back to the first player
    assert truth["render"].split()[-1] == "0"  # the pile emptied by pile:4,take:7;
    shot(page, "openspiel-nim")
