"""The clickable boards of chess, Othello and Pacman in the web API (plies/web/view.py).

Each board is checked against the game's own text picture and legal moves; a click is a
move posted as the board names it; an illegal one is a one-line 422 and the server goes
on.  The engine's values of the moves are cross-checked against :func:`plies.analyze`.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from typing import Any

import httpx2 as httpx
import pytest
from starlette.testclient import TestClient

from plies import Limit, analyze, games, play
from plies.budget import Budget
from plies.game import format_action
from plies.web import api
from plies.web.app import create_app

SCHOLAR = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"]
"""White mates with Qxf7#."""
PROMOTION_FEN = "8/P7/8/8/8/8/8/k6K w - - 0 1"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as c:
        yield c


def ok(client: TestClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"/api/{path}", json=body)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def refused(response: httpx.Response, status: int, fragment: str) -> None:
    assert response.status_code == status, response.text
    message = response.json()["error"]
    assert isinstance(message, str) and "\n" not in message and fragment in message, message


def chess_cell(square: str) -> int:
    """The board cell of a chess square: White at the bottom, a8 is cell 0."""
    return (8 - int(square[1])) * 8 + "abcdefgh".index(square[0])


def picture_cells(render: str, rows: range) -> list[str]:
    """The cells of a game's text picture (``.`` empty), row by row."""
    lines = render.splitlines()
    return [c if c != "." else "" for r in rows for c in lines[r].split()[1:9]]


def best_first(game: Any, state: Any, plain: Any) -> list[tuple[str, float]]:
    """The values of an analysis as the page lists them: best first, ties in the game's order."""
    values = plain.action_values
    order = sorted(values, key=lambda a: -values[a])
    return [(format_action(game, state, a), values[a]) for a in order]


# --- chess -----------------------------------------------------------------------------------


def test_the_chess_board_is_the_games_own_picture(client: TestClient) -> None:
    moves = ["e4", "c5", "Nf3", "d6"]
    data = ok(client, "state", {"game": "chess", "moves": moves})
    game = games.load("chess")
    state = game.play_moves(" ".join(moves))
    board = data["board"]
    assert (board["kind"], board["rows"], board["columns"]) == ("chess", 8, 8)
    assert board["cells"] == picture_cells(game.render(state), range(8))
    assert board["files"] == list("abcdefgh") and board["ranks"] == list("87654321")
    assert board["marks"]["K"]["text"] == board["marks"]["k"]["text"] == "♚"
    # Every legal move once, from its piece's cell to its target's.
    pairs = board["from_to"]
    assert sorted(p["move"] for p in pairs) == sorted(data["legal"])
    for pair in pairs:
        move = game.parse_action(state, pair["move"])
        assert pair["from"] == chess_cell(move.uci()[:2])
        assert pair["to"] == chess_cell(move.uci()[2:4])
        assert pair["promotion"] is None
    assert board["last"] == [chess_cell("d7"), chess_cell("d6")] and board["alert"] == []


def test_a_click_from_e2_to_e4_posts_the_move_the_board_names(client: TestClient) -> None:
    start = ok(client, "state", {"game": "chess"})["board"]
    assert start["last"] == []
    pair = next(p for p in start["from_to"]
                if (p["from"], p["to"]) == (chess_cell("e2"), chess_cell("e4")))
    after = ok(client, "state", {"game": "chess", "moves": [pair["move"]]})
    assert after["moves"] == ["e4"] and after["to_move_name"] == "Black"
    cells = after["board"]["cells"]
    assert cells[chess_cell("e2")] == "" and cells[chess_cell("e4")] == "P"
    assert after["board"]["last"] == [chess_cell("e2"), chess_cell("e4")]
    # UCI is read too, and the record keeps SAN.
    assert ok(client, "state", {"game": "chess", "moves": ["e2e4"]})["moves"] == ["e4"]


def test_a_pawn_on_the_last_rank_may_become_any_piece(client: TestClient) -> None:
    options = {"fen": PROMOTION_FEN}
    board = ok(client, "state", {"game": "chess", "options": options})["board"]
    promotions = {p["promotion"]: p["move"] for p in board["from_to"]
                  if p["from"] == chess_cell("a7")}
    assert promotions == {"q": "a8=Q+", "r": "a8=R+", "b": "a8=B", "n": "a8=N"}
    knight = ok(client, "state", {"game": "chess", "options": options,
                                  "moves": [promotions["n"]]})
    assert knight["board"]["cells"][chess_cell("a8")] == "N"


def test_check_and_mate_are_marked_on_the_board(client: TestClient) -> None:
    mated = ok(client, "state", {"game": "chess", "moves": ["f3", "e5", "g4", "Qh4"]})
    assert mated["terminal"] is True and mated["result"] == "Black wins"
    board = mated["board"]
    assert board["alert"] == [chess_cell("e1")]
    assert board["last"] == [chess_cell("d8"), chess_cell("h4")]
    assert board["from_to"] == []


def test_an_illegal_chess_move_is_one_line_and_the_server_goes_on(client: TestClient) -> None:
    refused(client.post("/api/state", json={"game": "chess", "moves": ["e4", "e2e5"]}), 422,
            "illegal move 'e2e5' (move 2 of moves); legal moves: Nh6, Nf6")
    refused(client.post("/api/move", json={"game": "chess", "moves": ["Ke2", "e5"]}), 422,
            "illegal move 'Ke2' (move 1 of moves)")
    assert ok(client, "state", {"game": "chess", "moves": ["e4"]})["moves"] == ["e4"]


def test_the_engine_mates_in_one(client: TestClient) -> None:
    data = ok(client, "move", {"game": "chess", "moves": SCHOLAR, "depth": 2,
                               "quiescence": True})
    assert data["move"] == "Qxf7#" and data["state"]["result"] == "White wins"
    assert data["search"]["pv"] == ["Qxf7#"]
    assert data["state"]["board"]["last"] == [chess_cell("h5"), chess_cell("f7")]


def test_chess_move_values_are_those_of_the_plain_analysis(client: TestClient) -> None:
    moves = ["e4", "e5", "Nf3"]
    search = ok(client, "analyze", {"game": "chess", "moves": moves, "depth": 2})["search"]
    game = games.load("chess")
    state = game.play_moves(" ".join(moves))
    plain = analyze(game, state, Limit(depth=2))
    assert [(r["move"], r["value"]) for r in search["move_values"]] == best_first(
        game, state, plain)
    assert search["value"] == plain.value and search["action"] == format_action(
        game, state, plain.action)
    assert search["stats"]["nodes"] == plain.stats.nodes and search["quiescence"] is False


def test_quiescence_sees_the_recapture_past_the_horizon(client: TestClient) -> None:
    """At depth 1 Nxe5 wins a pawn for a search that stops there; quiescence sees the
    recapture ...Nxe5 and ranks it below the quiet moves."""
    moves = ["e4", "e5", "Nf3", "Nc6"]
    body = {"game": "chess", "moves": moves, "depth": 1}
    flat = ok(client, "analyze", body)["search"]
    quiet = ok(client, "analyze", {**body, "quiescence": True})["search"]
    flat_values = {r["move"]: r["value"] for r in flat["move_values"]}
    quiet_values = {r["move"]: r["value"] for r in quiet["move_values"]}
    assert flat["action"] == "Nxe5"
    assert quiet["action"] != "Nxe5" and quiet_values["Nxe5"] < flat_values["Nxe5"] - 200
    assert quiet["quiescence"] is True and quiet["stats"]["quiescence_nodes"] > 0


def test_the_page_starts_chess_and_othello_with_a_time_budget(client: TestClient) -> None:
    entries = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    for name in ("chess", "othello"):
        suggested = entries[name]["search"]
        assert 0 < suggested["time"] <= api.MAX_TIME and "depth" not in suggested
    assert entries["chess"]["search"]["quiescence"] is True
    assert entries["tictactoe"]["search"] == {}


def test_a_chess_search_ends_when_its_request_is_stopped() -> None:
    """The pool stops a request through its budget's stop signal: the search returns a
    legal move at once instead of running out its time."""
    stop = threading.Event()
    stop.set()
    with api.budgeted(Budget(stop=stop)):
        data = api.move({"game": "chess", "moves": ["e4"], "time": api.MAX_TIME,
                         "quiescence": True})
    assert data["move"] in api.state({"game": "chess", "moves": ["e4"]})["legal"]
    assert data["search"]["stats"]["depth"] <= 1


def test_a_stopped_depth_limited_search_is_refused_not_played() -> None:
    """Regression: a chess search to depth 7 stopped by the server's cap before it
    finished one pass, and the page played its fallback, the first legal move (Nh3)."""
    stop = threading.Event()
    stop.set()
    with api.budgeted(Budget(stop=stop)), pytest.raises(api.ApiError) as caught:
        api.move({"game": "chess", "moves": ["e4", "e5"], "depth": 7})
    assert caught.value.status == 422
    assert "the search to depth 7 was stopped before it finished one pass" in str(caught.value)


# --- Othello ---------------------------------------------------------------------------------


def test_the_othello_board_is_the_games_own_picture(client: TestClient) -> None:
    moves = ["d3", "c5", "f6"]
    data = ok(client, "state", {"game": "othello", "moves": moves})
    game = games.load("othello")
    state = game.initial_state()
    for move in moves:
        state = play(game, state, move)
    board = data["board"]
    assert (board["kind"], board["rows"], board["columns"]) == ("othello", 8, 8)
    assert board["cells"] == picture_cells(game.render(state), range(1, 9))
    clickable = {i: m for i, m in enumerate(board["cell_moves"]) if m is not None}
    assert sorted(clickable.values()) == sorted(data["legal"])
    for cell, move in clickable.items():
        assert move == "abcdefgh"[cell % 8] + str(cell // 8 + 1)
    assert board["extra_moves"] == [] and board["last"] == [5 * 8 + 5]  # f6


def test_an_othello_click_flips_the_discs(client: TestClient) -> None:
    start = ok(client, "state", {"game": "othello"})["board"]
    move = start["cell_moves"][2 * 8 + 3]
    assert move == "d3"
    after = ok(client, "state", {"game": "othello", "moves": [move]})
    cells = after["board"]["cells"]
    assert [cells[i] for i in (19, 27, 28, 35, 36)] == ["X", "X", "X", "X", "O"]
    assert after["to_move_name"] == "White" and after["board"]["last"] == [19]
    refused(client.post("/api/state", json={"game": "othello", "moves": ["d3", "a1"]}), 422,
            "illegal move 'a1' (move 2 of moves); legal moves: c3, e3, c5")
    assert ok(client, "state", {"game": "othello"})["legal"] == ["d3", "c4", "f5", "e6"]


def a_game_with_a_pass() -> list[str]:
    """The moves of a seeded random Othello game up to its first forced pass."""
    game = games.load("othello")
    rng = random.Random(12)
    while True:
        state, moves = game.initial_state(), []
        while not game.is_terminal(state):
            legal = [format_action(game, state, a) for a in game.actions(state)]
            if legal == ["pass"]:
                return moves
            moves.append(rng.choice(legal))
            state = play(game, state, moves[-1])


def test_a_forced_pass_is_a_button_beside_the_board(client: TestClient) -> None:
    moves = a_game_with_a_pass()
    data = ok(client, "state", {"game": "othello", "moves": moves})
    board = data["board"]
    assert data["legal"] == ["pass"] and board["extra_moves"] == ["pass"]
    assert all(m is None for m in board["cell_moves"])
    after = ok(client, "state", {"game": "othello", "moves": [*moves, "pass"]})
    assert after["to_move"] == 1 - data["to_move"]
    assert after["board"]["cells"] == board["cells"] and after["board"]["last"] == []


def test_othello_move_values_are_those_of_the_plain_analysis(client: TestClient) -> None:
    search = ok(client, "analyze", {"game": "othello", "moves": ["d3"], "depth": 3})["search"]
    game = games.load("othello")
    state = play(game, game.initial_state(), "d3")
    plain = analyze(game, state, Limit(depth=3))
    assert [(r["move"], r["value"]) for r in search["move_values"]] == best_first(
        game, state, plain)
    assert search["pv"][0] == search["action"]


def test_the_caption_counts_discs_and_names_a_check(client: TestClient) -> None:
    assert ok(client, "state", {"game": "othello", "moves": ["d3"]})["board"]["caption"] == (
        "discs: Black 4, White 1")
    passing = ok(client, "state", {"game": "othello", "moves": a_game_with_a_pass()})
    assert passing["board"]["caption"].endswith(f"; {passing['to_move_name']} must pass")
    check = ok(client, "state", {"game": "chess", "moves": ["e4", "f5", "Qh5"]})
    assert check["board"]["caption"] == "Black is in check"
    assert check["board"]["alert"] == [chess_cell("e8")]
    mate = ok(client, "state", {"game": "chess", "moves": ["f3", "e5", "g4", "Qh4"]})
    assert mate["board"]["caption"] == "checkmate"
    assert ok(client, "state", {"game": "chess"})["board"]["caption"] == ""


# --- Pacman ----------------------------------------------------------------------------------


PACMAN_MARKS = {"W": "%", "F": ".", "C": "o", "P": "P", "": " "}


def test_the_pacman_maze_is_drawn_as_the_game_draws_it(client: TestClient) -> None:
    options = {"layout": "smallClassic", "ghosts": 2}
    moves = ["East", "East"]
    data = ok(client, "state", {"game": "pacman", "options": options, "moves": moves})
    game = games.load("pacman", layout="smallClassic", ghosts=2)
    state = game.initial_state()
    for move in moves:
        state = play(game, state, move)
    board = data["board"]
    assert (board["kind"], board["rows"], board["columns"]) == ("pacman", 7, 20)
    # The same picture as render(), the ghosts numbered (G1, G2; S1.. when scared).
    drawn = "".join(PACMAN_MARKS.get(mark, mark[:1]) for mark in board["cells"])
    assert drawn == "".join(game.render(state).splitlines()[:7])
    assert [board["cells"].index(f"G{g}") for g in (1, 2)] == list(state.ghosts)
    # A ghost is to move: nothing to click.
    assert all(move is None for move in board["cell_moves"])
    assert board["caption"] == "score 9, move 1 of 200, Ghost 2 to move"  # ate a pellet


def test_a_pacman_click_on_a_neighbour_cell_moves_him_there(client: TestClient) -> None:
    options = {"layout": "tiny", "ghosts": 1, "ghost": "directional"}
    board = ok(client, "state", {"game": "pacman", "options": options})["board"]
    pacman = board["cells"].index("P")
    clickable = {i: m for i, m in enumerate(board["cell_moves"]) if m is not None}
    assert clickable == {pacman: "Stop", pacman + 1: "East", pacman + 7: "South"}
    # With its ghosts as chance (ghost=directional) the ghost's move is drawn, not searched.
    after = ok(client, "state", {"game": "pacman", "options": options, "moves": ["East"]})
    assert after["to_move_name"] == "chance" and after["board"]["cells"][pacman + 1] == "P"
    assert {c["move"] for c in after["chance"]} == {"West", "South"}
    moved = ok(client, "move", {"game": "pacman", "options": options, "moves": ["East"],
                                "seed": 1})
    assert moved["by"] == "chance" and moved["move"] in {"West", "South"}


def test_scared_pacman_ghosts_are_drawn_scared(client: TestClient) -> None:
    # tiny: the capsule is two steps South of Pacman.
    options = {"layout": "tiny", "ghosts": 1}
    data = ok(client, "state", {"game": "pacman", "options": options,
                                "moves": ["South", "West", "South"]})
    cells = data["board"]["cells"]
    assert "S1" in cells and "C" not in cells
    assert data["board"]["caption"].endswith("ghosts scared for 40 more moves")


# --- values as people read them, hidden cards, maps (issue: the classroom's boards) ------------


def test_chess_values_are_centipawns_best_first(client: TestClient) -> None:
    search = ok(client, "analyze", {"game": "chess", "moves": ["e4", "e5"], "depth": 2})["search"]
    rows = search["move_values"]
    values = [r["value"] for r in rows]
    assert values == sorted(values, reverse=True) and len(rows) == 29
    for row in rows:
        cp = round(row["value"])
        assert row["score"] == (f"+{cp} cp" if cp > 0 else f"{cp} cp"), row
        assert row["mate"] is None
    assert search["score"].endswith(" cp") and search["action"] == rows[0]["move"]


def test_chess_mate_is_written_mate_in_n(client: TestClient) -> None:
    search = ok(client, "analyze", {"game": "chess", "moves": SCHOLAR, "depth": 3})["search"]
    first = search["move_values"][0]
    assert first == {"move": "Qxf7#", "value": 100000.0, "score": "mate in 1", "mate": 1}
    assert search["score"] == "mate in 1" and search["value"] == 100000.0
    # Mated in one after a blunder: every other move is worse than the mate, not a mate.
    assert all(r["mate"] is None and r["score"].endswith(" cp")
               for r in search["move_values"][1:])


def test_the_engine_prefers_the_shorter_mate() -> None:
    """With mate distances (chess's play defaults) the engine's search sees mate in 1 and
    mate in 2 apart: it plays the first, and says so."""
    fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"  # Ra8# at once
    data = api.move({"game": "chess", "options": {"fen": fen}, "moves": [], "depth": 3})
    assert data["move"] == "Ra8#" and data["search"]["score"] == "mate in 1"


def test_othello_values_are_discs_to_one_decimal(client: TestClient) -> None:
    search = ok(client, "analyze", {"game": "othello", "moves": ["d3"], "depth": 3})["search"]
    for row in search["move_values"]:
        shown = f"{row['value']:.1f}"
        shown = "0" if float(shown) == 0 else ("+" + shown if row["value"] > 0 else shown)
        assert row["score"] == f"{shown} discs", row


def test_connect_four_stones_are_coloured_discs(client: TestClient) -> None:
    board = ok(client, "state", {"game": "connect4", "moves": ["4", "4"]})["board"]
    marks = board["marks"]
    assert {m: (marks[m]["shape"], marks[m]["color"]) for m in "XO"} == {
        "X": ("disc", "#e03131"), "O": ("disc", "#fab005")}
    assert board["player_marks"] == ["X", "O"]  # the page draws each player's stone by its name


def test_kuhn_shows_only_the_humans_card(client: TestClient) -> None:
    # P0 (the human at the page) holds the queen, the engine the king.
    seen = ok(client, "state", {"game": "kuhn", "moves": ["QK"], "viewer": 0})
    assert seen["render"] == "your card Q; betting: (none)" and "K" not in seen["render"]
    assert seen["hidden"] is True and seen["shown_moves"] == ["dealt"]
    assert seen["moves"] == ["QK"] and seen["board"] is None and seen["position"] is None
    # Without a viewer (engines playing each other) everything is shown ...
    assert "P1: K" in ok(client, "state", {"game": "kuhn", "moves": ["QK"]})["render"]
    # ... and when the hand is over the cards are turned face up.
    over = ok(client, "state", {"game": "kuhn",
                                "moves": ["QK", "pass", "pass"], "viewer": 0})
    assert over["hidden"] is False and "P1: K" in over["render"]


def test_leduc_deals_are_hidden_but_the_public_card_is_not(client: TestClient) -> None:
    moves = ["JsQh", "call", "call"]
    shown = ok(client, "state", {"game": "leduc", "moves": moves, "viewer": 1})
    assert shown["shown_moves"] == ["dealt", "call", "call"]
    assert "Qh" in shown["render"] and "Js" not in shown["render"]


@pytest.mark.parametrize("game", ["kuhn", "leduc"])
def test_the_engine_never_reads_the_hidden_card(client: TestClient, game: str) -> None:
    """Determinization: the engine's move and values depend on what it can see only. Two
    deals that differ only in the human's card give the engine the same search."""
    # The engine is P0 (the first to act) and keeps its card; the human's P1 card differs.
    deals = {"kuhn": ["QK", "QJ"], "leduc": ["JsKh", "JsQh"]}[game]
    answers = [ok(client, "move", {"game": game, "moves": [deal], "viewer": 1, "seed": 7,
                                   "depth": 6}) for deal in deals]
    first, second = (a["search"] for a in answers)
    assert first["algorithm"].startswith("determinize")
    assert (first["action"], first["move_values"]) == (second["action"], second["move_values"])
    # Another algorithm reads every card, as plies play's --algorithm does.
    full = ok(client, "move", {"game": game, "moves": [deals[0]], "viewer": 1, "depth": 6,
                               "algorithm": "expectiminimax"})["search"]
    assert full["algorithm"] == "expectiminimax"


def test_kuhn_analysis_is_for_the_human_to_move_only(client: TestClient) -> None:
    mine = ok(client, "analyze", {"game": "kuhn", "moves": ["QK"], "viewer": 0, "seed": 1})
    assert [r["move"] for r in mine["search"]["move_values"]] != []
    assert mine["search"]["algorithm"].startswith("determinize")
    refused(client.post("/api/analyze", json={"game": "kuhn", "moves": ["QK"], "viewer": 1}),
            422, "P0's cards are hidden from P1")


def test_empire_is_drawn_as_a_map(client: TestClient) -> None:
    data = ok(client, "state", {"game": "empire", "options": {"map": "small"}})
    board = data["board"]
    game = games.load("empire", map="small")
    rules = game.empire
    assert board["grounds"] == [{".": "#e9f1da", "^": "#c8b48f", "~": "#74c0fc"}[t]
                                for t in rules.terrain]
    # A capital with its unit is a square with a disc inside; its territory is tinted.
    capital = rules.capitals[0]
    assert board["cells"][capital] == "A+" and board["marks"]["A+"]["shape"] == "square"
    assert board["marks"]["A+"]["inner"] and board["labels"][capital] == "A2a3"
    red = board["tints"][capital]
    r, c = divmod(capital, rules.width)
    near = [rr * rules.width + cc for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
            if 0 <= rr < rules.height and 0 <= cc < rules.width
            and rules.terrain[rr * rules.width + cc] != "~"]
    assert red and all(board["tints"][sq] == red for sq in near)
    far = rules.capitals[1]
    assert board["tints"][far] not in ("", red)
    assert board["player_marks"] == ["A", "B", "C"]
    # A terminal without colour still shows the terrain and the cities.
    text = game.board(game.initial_state()).text()
    assert "^" in text and "~" in text and "A2a3" in text
