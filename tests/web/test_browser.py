"""The page in a real browser: the system Chromium driven by Playwright, against uvicorn.

Screenshots go to ``tests/web/artifacts/`` (git-ignored).  Playwright's own browser
downloads are never used: the tests launch ``/usr/bin/chromium``.  Without it they fail
in CI (``CI=true``) and are skipped, with the reason, elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from plies.games.nim import nim_sum

from .gdl_games import GDL_STICKS

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = Path(__file__).parent / "artifacts"
WAIT_MS = 20_000


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail(f"the browser tests need the system Chromium at {CHROMIUM} "
                    "(apt-get install -y chromium; .ci/run installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: Any, live_server: str) -> Iterator[Any]:
    """The app's page, loaded; the test fails on any script error or failed request."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(WAIT_MS)
    tab = context.new_page()
    problems: list[str] = []
    tab.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    tab.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    tab.problems = problems  # a test that provokes an error clears what it expected
    tab.goto(f"{live_server}/")
    tab.wait_for_selector("body[data-ready=true]")
    try:
        yield tab
    finally:
        context.close()
    assert problems == []


def shot(page: Any, name: str, at: str | None = None) -> None:
    """Save a screenshot: the whole page, or the viewport scrolled to ``at`` (a big tree
    makes a whole-page picture slow)."""
    ARTIFACTS.mkdir(exist_ok=True)
    if at is not None:
        page.locator(at).scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=at is None)


def status(page: Any) -> str:
    return str(page.locator("#status").inner_text())


def plies_played(page: Any) -> list[str]:
    """The moves on the record, without their numbers ("1. e4", "e5", "2. Nf3", "1... e5")."""
    texts = page.locator("#history .ply").all_inner_texts()
    return [re.sub(r"^\s*(\d+\.(\.\.)?)?\s*", "", text) for text in texts]


def wait_for_turn(page: Any, moves: int, human: str) -> None:
    """Until ``moves`` moves are on the record and ``human`` is to move, or the game ends."""
    page.wait_for_function(
        """([n, who]) => {
            const s = document.getElementById('status').textContent;
            const plies = document.querySelectorAll('#history .ply').length;
            return s.startsWith('Game over') || (plies >= n && s.startsWith(who + ' to move'));
        }""",
        arg=[moves, human],
    )


def test_play_tictactoe_against_the_engine(page: Any, live_server: str) -> None:
    assert status(page) == "X to move (human)"
    page.click("[data-cell='4']")  # X takes the centre; the engine (O) answers
    wait_for_turn(page, 2, "X")
    assert plies_played(page)[0] == "5"

    # The value of every move, as the server computes it for the same position.
    moves = plies_played(page)
    page.click("#analyze")
    page.wait_for_selector("#analysis:not([hidden]) #values tr[data-move]")
    rows = page.locator("#values tr[data-move]")
    with httpx.Client(base_url=live_server, timeout=30) as http:
        expected = http.post("/api/analyze", json={"game": "tictactoe", "moves": moves,
                                                   "time": 1}).json()["search"]
    assert rows.count() == 7 == len(expected["move_values"])
    for i, row in enumerate(expected["move_values"]):
        cells = rows.nth(i).locator("td")
        assert cells.nth(0).inner_text() == row["move"]
        assert float(cells.nth(1).inner_text()) == row["value"]
    assert page.locator("#values tr.best").get_attribute("data-move") == expected["action"]
    assert page.locator("#r-pv .chip").all_inner_texts() == expected["pv"]
    assert int(page.locator("[data-stat='depth']").inner_text()) == expected["stats"]["depth"]

    # The tree of that search: values, the principal variation, the pruned branches.
    page.click("#show-tree")
    page.wait_for_selector("#tree li.node", state="attached")
    page.click(".outline-box summary")
    summary = page.locator("#tree-summary").inner_text()
    assert "alphabeta to the end of the game" in summary and "pruned" in summary
    root = page.locator("#tree > li")
    assert root.locator(":scope > .row .value").inner_text() == f"{expected['value']:g}"
    page.click("#tree-expand")
    pruned = page.locator("#tree li.pruned")
    assert pruned.count() > 0
    assert pruned.first.locator(".why").inner_text().startswith("pruned: ")
    assert "≤" in pruned.first.inner_text() or "≥" in pruned.first.inner_text()
    on_pv = page.locator("#tree li.on-pv > .row .action").all_inner_texts()
    assert on_pv == ["root", *expected["pv"]]
    shot(page, "tictactoe-tree", at="#tree-card")
    page.click("#tree-collapse")

    # Play on, always the first free cell, to the end; the engine never loses.
    while not status(page).startswith("Game over"):
        count = len(plies_played(page))
        page.locator(".grid .cell.empty:not([disabled])").first.click()
        wait_for_turn(page, count + 2, "X")
    final = status(page)
    moves = plies_played(page)
    with httpx.Client(base_url=live_server, timeout=30) as http:
        truth = http.post("/api/state", json={"game": "tictactoe", "moves": moves}).json()
    assert truth["terminal"] is True
    assert final.startswith(f"Game over: {truth['result']}")
    assert truth["result"] in ("draw", "O wins")  # perfect play never loses tic-tac-toe
    marks = [c.inner_text() for c in page.locator(".grid .cell").all()]
    assert marks == truth["board"]["cells"]
    shot(page, "tictactoe-over")


def test_watch_engine_against_engine_on_nim(page: Any) -> None:
    page.select_option("#game-select", "nim")
    page.wait_for_selector("[data-option=piles]")
    page.fill("[data-option=piles]", "1,2,3")
    page.dispatch_event("[data-option=piles]", "change")
    page.wait_for_function("() => document.getElementById('render').textContent"
                           ".includes('pile 3: 3')")
    page.select_option("[data-role='0']", "engine")  # both sides engines: the game plays
    page.wait_for_function(
        "() => document.getElementById('status').textContent.startsWith('Game over')"
    )
    # Nim-sum 1^2^3 = 0: the first player loses against perfect play (Bouton).
    assert nim_sum((1, 2, 3)) == 0
    assert status(page).startswith("Game over: P1 wins")
    assert len(plies_played(page)) >= 2
    assert page.locator("#last-title").text_content().startswith("Last search: P1 played")
    shot(page, "nim-engine-vs-engine")


def test_connect4_column_click_and_a_tree_file(page: Any, tmp_path: Path) -> None:
    page.select_option("#game-select", "connect4")
    page.wait_for_selector(".grid.connect4")
    page.check("input[name=limit][value=depth]")
    page.fill("#depth", "2")
    page.click(".grid .cell[data-column='3'] >> nth=0")  # any cell of column 4
    wait_for_turn(page, 2, "X")
    bottom_left = 5 * 7  # the bottom row starts at cell 35
    assert "mark-X" in page.locator(f"[data-cell='{bottom_left + 3}']").get_attribute("class")
    assert plies_played(page)[0] == "4"
    shot(page, "connect4")
    page.click("#undo")  # takes back the engine's answer and the human's move
    page.wait_for_function("() => document.querySelectorAll('#history .ply').length === 0")
    assert page.locator(".grid .cell.mark-X, .grid .cell.mark-O").count() == 0
    assert status(page) == "X to move (human)"

    # An explicit tree from a file: AIMA figure 5.2, where alpha-beta prunes c2 and c3.
    tree = tmp_path / "fig52.tree"
    tree.write_text("A: max(a1 -> B: min(b1 -> 3 b2 -> 12 b3 -> 8)\n"
                    "       a2 -> C: min(c1 -> 2 c2 -> 4 c3 -> 6)\n"
                    "       a3 -> D: min(d1 -> 14 d2 -> 5 d3 -> 2))\n")
    page.click(".tab[data-source=tree]")
    page.select_option("[data-role='0']", "human")
    page.set_input_files("#tree-file", str(tree))
    page.wait_for_function("() => document.getElementById('render').textContent"
                           ".includes('node A')")
    page.check("input[name=limit][value=time]")
    page.click("#analyze")
    page.wait_for_selector("#values tr[data-move='a1']")
    values = {r.get_attribute("data-move"): r.locator("td").nth(1).inner_text()
              for r in page.locator("#values tr[data-move]").all()}
    assert values == {"a1": "+3", "a2": "+2", "a3": "+2"}
    # After Analyze the tree is the alpha-beta search that chooses the move, with its
    # pruning; the analysis's exact values are beside it, with why the counts differ.
    page.click("#show-tree")
    page.wait_for_selector("#tree-picture svg g.node", state="attached")
    note = page.locator("#tree-note").inner_text()
    assert "Exact value of every move (the analysis): a1 +3, a2 +2, a3 +2." in note
    assert "2 branches are pruned" in note and "(17 there, 11 here)" in note  # 2 passes
    page.click(".outline-box summary")
    page.click("#tree-expand")
    assert page.locator("#tree li.pruned").count() == 2
    assert page.locator("#tree li.node").count() == 13  # 11 searched and 2 pruned stubs
    # The engine's move is one alpha-beta search: its tree shows the pruned branches.
    page.click("#engine-move")
    page.wait_for_function("() => document.getElementById('last-title').textContent"
                           ".startsWith('Last search')")
    page.click("#show-tree")
    page.wait_for_function("() => document.getElementById('tree-summary').textContent"
                           ".includes('pruned')")
    page.click("#tree-expand")
    pruned = page.locator("#tree li.pruned > .row").all_inner_texts()
    assert [" ".join(p.split()) for p in pruned] == [
        "· c2 TERMINAL pruned: β=2 ≤ α=3", "· c3 TERMINAL pruned: β=2 ≤ α=3",  # noqa: RUF001
    ]
    shot(page, "tree-file")

    # A malformed tree: one line saying where, and the page goes on.
    page.fill("#tree-text", "A: max(1 2")
    page.click("#new-game")
    page.wait_for_selector("#error:not([hidden])")
    assert "fig52.tree:1:" in page.locator("#error").inner_text()
    assert page.problems == [  # the browser logs the refused request, as it should
        "Failed to load resource: the server responded with a status of 422 "
        "(Unprocessable Entity)"
    ]
    page.problems.clear()


def test_a_gdl_game_from_a_file(page: Any, live_server: str, tmp_path: Path) -> None:
    rules = tmp_path / "sticks.kif"
    rules.write_text(GDL_STICKS)
    page.click(".tab[data-source=gdl]")
    page.set_input_files("#gdl-file", str(rules))
    page.wait_for_function("() => document.getElementById('render').textContent"
                           ".includes('(sticks 4)')")
    assert status(page) == "first to move (human)"
    page.click("#analyze")
    page.wait_for_selector("#values tr[data-move]")
    values = {r.get_attribute("data-move"): r.locator("td").nth(1).inner_text()
              for r in page.locator("#values tr[data-move]").all()}
    assert values == {"(take 1)": "+100", "(take 2)": "0"}  # take 1, leave 3: a win
    page.check("#auto-analyze")  # from now on, play the best move of each analysis
    while not status(page).startswith("Game over"):
        count = len(plies_played(page))
        page.click("#values tr.best button")
        wait_for_turn(page, count + 1, "first")
        if not status(page).startswith("Game over"):
            page.wait_for_selector("#analysis:not([hidden]) #values tr.best button")
    moves = plies_played(page)
    assert moves[0] == "(take 1)"
    with httpx.Client(base_url=live_server, timeout=30) as http:
        truth = http.post("/api/state", json={"gdl": GDL_STICKS, "moves": moves}).json()
    assert status(page).startswith(f"Game over: {truth['result']}")
    assert truth["result"] == "first wins"  # the best moves win from 4 sticks
    shot(page, "gdl-sticks")


def test_play_rock_paper_scissors_against_the_engine(page: Any) -> None:
    """Regression: simultaneous games could not be played against the engine in the web
    app (422); the human picks only their own move, the engine samples its mixed one."""
    page.select_option("#game-select", "rps")
    page.wait_for_selector("[data-player='0'][data-move='rock']")
    page.select_option("[data-role='0']", "human")
    page.select_option("[data-role='1']", "engine")
    assert page.locator("[data-player='1']").count() == 0  # the engine's side: no buttons
    page.click("[data-player='0'][data-move='paper']")
    page.wait_for_function(
        "() => document.getElementById('status').textContent.startsWith('Game over')"
    )
    played = plies_played(page)
    assert len(played) == 1 and played[0].split()[0] in ("paper", "paper/rock",
                                                         "paper/paper", "paper/scissors")
    assert page.locator("#last-title").text_content().startswith("Last search: Column mixed")
    shot(page, "rps-against-the-engine")


def board_marks(page: Any) -> list[str]:
    """The mark of every cell of the drawn board ("" for an empty one)."""
    return [
        next((c[5:] for c in (cls or "").split() if c.startswith("mark-")), "")
        for cls in page.eval_on_selector_all(".grid .cell", "cells => cells.map(c => c.className)")
    ]


def test_play_chess_by_clicking_e2_then_e4(page: Any, live_server: str) -> None:
    page.select_option("#game-select", "chess")
    page.wait_for_selector(".grid.chess")
    # The page starts chess with a time budget, engine craft and quiescence.
    assert page.input_value("#time") == "2" and page.is_checked("input[name=limit][value=time]")
    assert page.is_checked("#engine") and page.is_checked("#quiescence")
    assert status(page) == "White to move (human)"
    assert page.locator("#legal-wrap").is_hidden()  # the board is the way to move
    page.click("[data-square=e2]")
    assert "selected" in page.get_attribute("[data-square=e2]", "class")
    targets = page.eval_on_selector_all(".grid .cell.target", "c => c.map(x => x.dataset.square)")
    assert sorted(targets) == ["e3", "e4"]
    page.click("[data-square=e4]")
    wait_for_turn(page, 2, "White")
    moves = plies_played(page)
    assert moves[0] == "e4"
    # Chess numbers moves, not plies: "1. e4 e5".
    assert " ".join(page.locator("#history").inner_text().split()) == f"1. e4 {moves[1]}"
    with httpx.Client(base_url=live_server, timeout=30) as http:
        truth = http.post("/api/state", json={"game": "chess", "moves": moves}).json()
    assert board_marks(page) == truth["board"]["cells"]
    assert "mark-P" in page.get_attribute("[data-square=e4]", "class")
    last = page.eval_on_selector_all(".grid .cell.last", "c => c.map(x => Number(x.dataset.cell))")
    assert last == sorted(truth["board"]["last"])
    assert page.locator("#last-title").text_content() == f"Last search: Black played {moves[1]}"
    assert page.locator("#r-pv .chip").count() >= 1
    assert int(page.locator("[data-stat='depth']").inner_text()) >= 1
    # The engine's quiescence runs inside the search: it reaches past the depth.
    depth = int(page.locator("[data-stat='depth']").inner_text())
    assert int(page.locator("[data-stat='seldepth']").inner_text()) > depth

    # The value of every move: in the table, and on the squares of the picked piece.
    page.click("#analyze")
    page.wait_for_selector("#analysis:not([hidden]) #values tr[data-move]")
    assert page.locator("#values tr[data-move]").count() == len(truth["legal"])
    page.click("[data-square=g1]")
    values = page.locator(".grid .cell.target .cell-value")
    assert values.count() == 3  # Nf3, Nh3, Ne2
    table = {r.get_attribute("data-move"): r.locator("td").nth(1).inner_text()
             for r in page.locator("#values tr[data-move]").all()}
    f3 = page.locator("[data-square=f3] .cell-value")
    assert f3.get_attribute("title") == table["Nf3"] and table["Nf3"].endswith(" cp")
    shot(page, "chess")


def test_promote_a_pawn_to_a_knight_on_the_board(page: Any) -> None:
    page.select_option("#game-select", "chess")
    page.wait_for_selector("[data-option=fen]")
    page.fill("[data-option=fen]", "8/P7/8/8/8/8/8/k6K w - - 0 1")
    page.dispatch_event("[data-option=fen]", "change")
    page.wait_for_selector("#promotion")
    assert page.input_value("#promotion") == "q"  # a queen unless told otherwise
    page.select_option("#promotion", "n")
    page.click("[data-square=a7]")
    page.click("[data-square=a8]")
    wait_for_turn(page, 2, "White")
    assert plies_played(page)[0] == "a8=N"
    assert "mark-N" in page.get_attribute("[data-square=a8]", "class")
    shot(page, "chess-promotion")


def test_play_othello_by_clicking_a_legal_square(page: Any, live_server: str) -> None:
    page.select_option("#game-select", "othello")
    page.wait_for_selector(".grid.othello")
    assert status(page) == "Black to move (human)"
    playable = page.eval_on_selector_all(".grid .cell:not([disabled])",
                                         "c => c.map(x => x.dataset.square)")
    assert sorted(playable) == ["c4", "d3", "e6", "f5"]
    page.click("[data-square=d3]")
    wait_for_turn(page, 2, "Black")
    moves = plies_played(page)
    assert moves[0] == "d3"
    with httpx.Client(base_url=live_server, timeout=30) as http:
        truth = http.post("/api/state", json={"game": "othello", "moves": moves}).json()
        after_d3 = http.post("/api/state", json={"game": "othello", "moves": ["d3"]}).json()
    assert board_marks(page) == truth["board"]["cells"]
    # d3 flips d4; White's reply may flip it back (c3 does), so the page's board is
    # checked against the server's, and the flip against the position after d3 alone.
    assert after_d3["board"]["cells"][3 * 8 + 3] == "X"
    page.click("#analyze")
    # Wait for every legal square's value, not the first one drawn: under load the page
    # can be caught between the first value and the last.
    page.wait_for_function(
        "n => document.querySelectorAll('.grid .cell .cell-value').length >= n",
        arg=len(truth["legal"]),
    )
    assert page.locator(".grid .cell .cell-value").count() == len(truth["legal"])
    shot(page, "othello")


def test_playing_black_turns_the_chess_board_round(page: Any, live_server: str) -> None:
    page.select_option("#game-select", "chess")
    page.wait_for_selector(".grid.chess")
    page.select_option("[data-role='1']", "human")
    page.select_option("[data-role='0']", "engine")  # White (the engine) opens
    wait_for_turn(page, 1, "Black")
    squares = page.eval_on_selector_all(".grid .cell", "c => c.map(x => x.dataset.square)")
    assert squares[0] == "h1" and squares[-1] == "a8"  # Black's side at the bottom
    assert page.locator(".frame .ranks span").first.inner_text() == "1"
    assert page.locator(".frame .files span").first.inner_text() == "h"
    page.click("[data-square=e7]")
    page.click("[data-square=e5]")
    wait_for_turn(page, 3, "Black")
    moves = plies_played(page)
    assert moves[1] == "e5"
    with httpx.Client(base_url=live_server, timeout=30) as http:
        truth = http.post("/api/state", json={"game": "chess", "moves": moves}).json()
    assert board_marks(page) == truth["board"]["cells"][::-1]
    shot(page, "chess-as-black")


def test_play_pacman_on_the_drawn_maze(page: Any, live_server: str) -> None:
    page.select_option("#game-select", "pacman")
    page.wait_for_selector(".grid.pacman")
    page.fill("[data-option=ghosts]", "1")
    page.dispatch_event("[data-option=ghosts]", "change")
    # The maze is drawn again with one ghost (it had two).
    page.wait_for_function(  # a function, not an expression: the page's CSP forbids eval
        "() => document.querySelectorAll('.grid.pacman .cell[class*=mark-G]').length === 1"
    )
    assert status(page) == "Pacman to move (human)"
    with httpx.Client(base_url=live_server, timeout=30) as http:
        truth = http.post(
            "/api/state", json={"game": "pacman", "options": {"ghosts": "1"}}
        ).json()["board"]
    assert board_marks(page) == truth["cells"]  # walls, pellets, capsules, Pacman, the ghost
    assert {"W", "F", "C", "P", "G1"} <= set(board_marks(page))
    # Pacman moves by a click on the cell he steps to; the engine answers for the ghost.
    playable = page.eval_on_selector_all(".grid .cell:not([disabled])",
                                         "c => c.map(x => Number(x.dataset.cell))")
    pacman = truth["cells"].index("P")
    assert sorted(playable) == sorted(i for i, m in enumerate(truth["cell_moves"]) if m)
    assert pacman + 1 in playable
    page.click(f"[data-cell='{pacman + 1}']")
    wait_for_turn(page, 2, "Pacman")
    assert plies_played(page)[0] == "East"
    assert "mark-P" in page.get_attribute(f"[data-cell='{pacman + 1}']", "class")
    shot(page, "pacman")


def test_a_change_that_leaves_the_options_as_they_were_keeps_the_game(page: Any) -> None:
    """A field left after its edit was taken fires ``change`` again (the browser compares
    with the value it had on focus): the game goes on, it is not started again."""
    page.select_option("#game-select", "pacman")
    page.wait_for_selector(".grid.pacman")
    page.fill("[data-option=ghosts]", "1")
    page.dispatch_event("[data-option=ghosts]", "change")
    page.wait_for_function(
        "() => document.querySelectorAll('.grid.pacman .cell[class*=mark-G]').length === 1"
    )
    pacman = board_marks(page).index("P")
    page.click(f"[data-cell='{pacman + 1}']")  # leaves the field: a second change event
    wait_for_turn(page, 2, "Pacman")
    page.dispatch_event("[data-option=ghosts]", "change")
    page.dispatch_event("[data-option=layout]", "change")
    assert plies_played(page)[0] == "East"
    assert len(plies_played(page)) >= 2
    page.fill("[data-option=ghosts]", "2")
    page.dispatch_event("[data-option=ghosts]", "change")  # another game: it starts afresh
    page.wait_for_function("() => document.querySelectorAll('#history .ply').length === 0")
    assert status(page) == "Pacman to move (human)"


def slow_next_position(page: Any, ms: int) -> None:
    """The page's next ``/api/state`` answer arrives ``ms`` milliseconds late."""
    page.evaluate(
        """(ms) => {
            const fetch = window.fetch;
            window.fetch = async (url, init) => {
                const answer = fetch(url, init);
                if (String(url).endsWith('/api/state') && window.slowNext) {
                    window.slowNext = false;
                    await new Promise((resolve) => setTimeout(resolve, ms));
                }
                return answer;
            };
            window.slowNext = true;
        }""",
        ms,
    )


def test_a_click_while_the_move_loads_is_not_a_second_move(page: Any) -> None:
    """A second click before the first move's position is back is not the engine's
    move made by the human: the engine still answers for O."""
    moves: list[str] = []
    page.on("request", lambda r: moves.append(r.url) if r.url.endswith("/api/move") else None)
    assert status(page) == "X to move (human)"
    slow_next_position(page, 1500)
    page.click("[data-cell='4']")
    page.click("[data-cell='0']")  # O's turn once the move is back: not a move for X or O
    wait_for_turn(page, 2, "X")
    assert plies_played(page)[0] == "5"
    assert len(moves) == 1  # O's move was the engine's search
    assert len(plies_played(page)) == 2


@pytest.fixture(scope="module")
def kayles_server() -> Iterator[str]:
    """The app serving a user's own game beside the built-in ones (``plies web --game``)."""
    from plies.web import api
    from plies.web.app import LOOPBACK_HOSTS, create_app

    from .conftest import serving

    saved = dict(api.SERVED)
    try:
        assert api.serve_games(["tests.kayles:Kayles"]) == ["kayles"]
        app = create_app(allowed_hosts=LOOPBACK_HOSTS, specs=["tests.kayles:Kayles"])
        with serving(app) as url:
            yield url
    finally:
        api.SERVED.clear()
        api.SERVED.update(saved)


def test_a_users_game_is_played_on_the_board_it_declares(
    browser: Any, kayles_server: str
) -> None:
    """Kayles (tests/kayles.py) declares a board: its pins are drawn from their marks, a
    click knocks one down, a click on a pin and on its neighbour knocks both."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    try:
        page.goto(f"{kayles_server}/")
        page.wait_for_selector("body[data-ready=true]")
        page.select_option("#game-select", "kayles")
        page.wait_for_selector(".grid.generic")
        assert board_marks(page) == ["I"] * 10
        assert page.locator("#legal-wrap").is_hidden()  # the board plays every move
        assert page.inner_text("#position") == "position: IIIIIIIIII A"
        page.click("[data-cell='9']")  # knock down pin 10, which starts no pair
        wait_for_turn(page, 2, "A")
        assert plies_played(page)[0] == "10"
        page.click("[data-cell='0']")  # pin 1 starts the pair 1-2: picked first, ...
        assert "selected" in page.get_attribute("[data-cell='0']", "class")
        page.click("[data-cell='0']")  # ... and knocked down alone by a second click
        wait_for_turn(page, 4, "A")
        assert plies_played(page)[2] == "1"
        with httpx.Client(base_url=kayles_server, timeout=30) as http:
            truth = http.post(
                "/api/state", json={"game": "kayles", "moves": plies_played(page)}
            ).json()["board"]
        assert board_marks(page) == truth["cells"]
        pair = truth["from_to"][0]  # two neighbouring pins: click one, then the other
        page.click(f"[data-cell='{pair['from']}']")
        assert "selected" in page.get_attribute(f"[data-cell='{pair['from']}']", "class")
        page.click(f"[data-cell='{pair['to']}']")
        wait_for_turn(page, 6, "A")
        assert plies_played(page)[4] == pair["move"]
        shot(page, "kayles")
    finally:
        context.close()
    assert problems == []


def test_empire_shows_its_whole_map_as_a_board(page: Any) -> None:
    page.select_option("#game-select", "empire")
    for option, value in (("turns", "50"), ("science", "60")):  # a short game
        page.fill(f"[data-option={option}]", value)
        page.dispatch_event(f"[data-option={option}]", "change")
    page.wait_for_selector(".grid.generic")
    page.problems.clear()  # the server's cap on option values may refuse the defaults
    cells = page.locator(".grid.generic .cell")
    assert cells.count() == 81  # the default 9x9 map, not text clipped at the card's edge
    labels = page.locator(".grid.generic .cell-label").all_inner_texts()
    assert sorted(labels) == ["A2a3", "B2b3", "C2c3"]
    assert page.locator("#render").is_hidden()
    page.wait_for_function(
        "() => document.querySelector('#board .caption').textContent.includes('of 50')"
    )
    assert "turn 1 of 50: A Rome to move" in page.inner_text("#board .caption")
    shot(page, "empire")
