"""The JSON API of ``plies web`` through Starlette's TestClient: every endpoint, every error.

Answers are cross-checked against the library itself (plain searches at the same
position) and against known facts (Bouton's theorem for Nim, the draw of tic-tac-toe,
the values of AIMA figure 5.2).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx2 as httpx
import pytest
from starlette.testclient import TestClient

from plies import Limit, alphabeta, games, minimax, play
from plies.game import legal_actions
from plies.games.nim import nim_sum
from plies.search import ALGORITHMS
from plies.viz import capture
from plies.web import api
from plies.web.app import LOOPBACK_HOSTS, create_app
from plies.web.view import page_search

from .gdl_games import GDL_PENNIES, GDL_STICKS


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as c:
        yield c


def ok(client: TestClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"/api/{path}", json=body)
    assert response.status_code == 200, response.text
    data = response.json()
    assert isinstance(data, dict)
    return data


def refused(response: httpx.Response, status: int, fragment: str) -> str:
    """The response is ``status`` with a one-line JSON error containing ``fragment``."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    message = response.json()["error"]
    assert isinstance(message, str) and message and "\n" not in message
    assert "Traceback" not in message
    assert fragment in message, message
    return message


def state_after(name: str, moves: list[str], **options: Any) -> Any:
    game = games.load(name, **options)
    state = game.initial_state()
    for move in moves:
        state = play(game, state, move)
    return game, state


# --- the page --------------------------------------------------------------------------------


def test_the_page_and_its_files_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert '<script type="module" src="/static/app.js">' in page.text
    for path, kind in (("/static/app.js", "javascript"), ("/static/style.css", "text/css")):
        response = client.get(path)
        assert response.status_code == 200 and kind in response.headers["content-type"]
    refused(client.get("/static/missing.js"), 404, "Not Found")


# --- GET /api/games --------------------------------------------------------------------------


def test_games_lists_every_game_with_typed_options(client: TestClient) -> None:
    data = client.get("/api/games").json()
    assert [g["name"] for g in data["games"]] == games.names()
    by_name = {g["name"]: g for g in data["games"]}
    assert by_name["civ"]["players"] == 3 and by_name["pig"]["has_chance"] is True
    nim = {o["name"]: o for o in by_name["nim"]["options"]}
    assert nim["piles"]["default"] == "3,4,5" and nim["misere"]["input"] == "bool"
    scoring = {o["name"]: o for o in by_name["connect4"]["options"]}["scoring"]
    assert scoring["input"] == "choice" and scoring["choices"] == ["winloss", "pons"]
    assert data["algorithms"] == ["auto", *ALGORITHMS]
    assert list(data["capabilities"]) == list(ALGORITHMS)
    for name, caps in data["capabilities"].items():  # what the registry says, as JSON
        entry = ALGORITHMS[name]
        assert caps["traceable"] is entry.traceable and caps["depth"] is entry.depth
        assert caps["engine"] == list(entry.engine) and caps["rule"] == entry.rule
        assert caps["players"] == entry.players and caps["summary"] == entry.summary
    assert data["limits"]["max_time"] == api.MAX_TIME
    assert data["limits"]["max_body"] == api.MAX_BODY


# --- POST /api/state -------------------------------------------------------------------------


def test_state_replays_the_moves(client: TestClient) -> None:
    data = ok(client, "state", {"game": "tictactoe", "moves": ["5", "1"]})
    game, state = state_after("tictactoe", ["5", "1"])
    assert data["render"] == game.render(state)
    assert data["to_move"] == 0 and data["to_move_name"] == "X"
    assert data["legal"] == ["2", "3", "4", "6", "7", "8", "9"]
    board = data["board"]
    assert board["cells"] == ["O", "", "", "", "X", "", "", "", ""]
    assert board["cell_moves"] == [None, "2", "3", "4", None, "6", "7", "8", "9"]
    assert data["terminal"] is False and "result" not in data


def test_state_at_the_end_says_who_won(client: TestClient) -> None:
    data = ok(client, "state", {"game": "tictactoe", "moves": ["1", "4", "2", "5", "3"]})
    assert data["terminal"] is True and data["legal"] == []
    assert data["utilities"] == [1.0, -1.0] and data["result"] == "X wins"
    assert all(move is None for move in data["board"]["cell_moves"])
    draw = ["5", "1", "9", "3", "2", "8", "7", "4", "6"]
    assert ok(client, "state", {"game": "tictactoe", "moves": draw})["result"] == "draw"


def test_connect4_board_matches_the_games_own_picture(client: TestClient) -> None:
    data = ok(client, "state", {"game": "connect4", "options": {"width": 5, "height": 4},
                                "moves": ["3", "3", "4", "2"]})
    game, state = state_after("connect4", ["3", "3", "4", "2"], width=5, height=4)
    picture = [row.split() for row in game.render(state).splitlines()[:4]]
    board = data["board"]
    assert (board["rows"], board["columns"]) == (4, 5)
    cells = [board["cells"][r * 5 : r * 5 + 5] for r in range(4)]
    assert cells == [[c if c != "." else "" for c in row] for row in picture]
    assert board["column_moves"] == ["1", "2", "3", "4", "5"]


def test_the_bounds_are_the_games_own(client: TestClient) -> None:
    """No blanket cap on numbers: Empire loads with its defaults (300 turns, science 400),
    and each option takes what the game declares, no more."""
    assert ok(client, "state", {"game": "empire"})["to_move"] == 0
    for name in games.names():
        for option in games.info(name).options:
            if option.bounds is None or option.count is not None:
                continue
            low, high = option.bounds
            ok(client, "state", {"game": name, "options": {option.name: high}})
            answer = client.post("/api/state", json={"game": name,
                                                     "options": {option.name: high + 1}})
            assert answer.status_code == 422
            assert f"{name} accepts {option.name} {low}..{high}" in answer.json()["error"]


def test_options_may_be_typed_or_text(client: TestClient) -> None:
    typed = ok(client, "state", {"game": "nim", "options": {"piles": [1, 2], "misere": True}})
    text = ok(client, "state", {"game": "nim", "options": {"piles": "1,2", "misere": "yes"}})
    assert typed == text
    assert typed["render"] == games.load("nim", piles=(1, 2), misere=True).render(
        games.load("nim", piles=(1, 2), misere=True).initial_state()
    )
    assert ok(client, "state", {"game": "nim", "options": {"max_take": None}})["board"] is None


def test_state_at_a_chance_node_lists_the_odds(client: TestClient) -> None:
    data = ok(client, "state", {"game": "pig", "moves": ["roll"]})
    assert data["to_move"] == -1 and data["to_move_name"] == "chance"
    odds = data["chance"]
    assert len(odds) == 6 and abs(sum(o["p"] for o in odds) - 1) < 1e-12
    assert [o["move"] for o in odds] == data["legal"]


def test_a_tree_file_in_text_or_json_form(client: TestClient) -> None:
    text = "A: max(a1 -> B: min(3 12 8) a2 -> C: min(2 4 6) a3 -> D: min(14 5 2))"
    data = ok(client, "state", {"tree": text, "name": "fig52.tree", "moves": ["a2"]})
    assert data["game"] == "fig52" and data["legal"] == ["1", "2", "3"]
    as_json = json.dumps({"type": "max", "children": [3, {"type": "min", "children": [1, 5]}]})
    data = ok(client, "state", {"tree": as_json})
    assert data["legal"] == ["1", "2"] and data["players"] == ["MAX", "MIN"]
    assert ok(client, "move", {"tree": as_json})["move"] == "1"  # 3 beats min(1, 5)


# --- POST /api/move --------------------------------------------------------------------------


@pytest.mark.parametrize("moves", [["5"], ["1", "5", "9"], ["5", "1", "9", "3"]])
def test_the_engine_move_is_the_plain_searchs_move(client: TestClient, moves: list[str]) -> None:
    game, state = state_after("tictactoe", moves)
    plain = alphabeta(game, state, Limit(depth=3))
    data = ok(client, "move", {"game": "tictactoe", "moves": moves, "depth": 3})
    search = data["search"]
    assert data["by"] == "engine" and data["move"] == str(plain.action + 1)
    assert search["value"] == plain.value and search["stats"]["depth"] == 3
    assert search["pv"] == [str(a + 1) for a in plain.pv]
    assert data["state"]["moves"] == [*moves, data["move"]]
    exact = minimax(game, state)  # without a limit: solved, and the value is exact
    solved = ok(client, "move", {"game": "tictactoe", "moves": moves})["search"]
    assert solved["exact"] is True and solved["value"] == exact.value
    with_craft = ok(client, "move", {"game": "tictactoe", "moves": moves, "engine": True})
    assert with_craft["search"]["engine"] is True
    assert with_craft["search"]["value"] == exact.value


def test_chance_moves_follow_the_seed(client: TestClient) -> None:
    body = {"game": "pig", "moves": ["roll"], "seed": 7}
    first, again = ok(client, "move", body), ok(client, "move", body)
    assert first["by"] == "chance" and first["search"] is None and first["mover"] == "chance"
    assert first["move"] == again["move"] and first["move"] in {"1", "2", "3", "4", "5", "6"}
    seen = {ok(client, "move", {**body, "seed": s})["move"] for s in range(40)}
    assert len(seen) > 3  # the seed really draws


def test_the_engine_plays_for_the_mover(client: TestClient) -> None:
    body = {"game": "tictactoe", "moves": ["1", "5", "2"], "depth": 2}
    as_mover = ok(client, "move", body)
    as_other = ok(client, "move", {**body, "player": "X"})
    assert as_mover["move"] == as_other["move"] == "3"  # O must block 1-2-3
    assert as_other["search"]["player"] == "O"


def test_maxn_reports_a_utility_vector(client: TestClient) -> None:
    data = ok(client, "move", {"game": "aima-5-4", "algorithm": "maxn"})
    assert data["search"]["values"] == {"P0": 1.0, "P1": 2.0, "P2": 6.0}


def test_an_early_stop_by_the_cap_is_reported(client: TestClient) -> None:
    search = ok(client, "move", {"game": "connect4", "depth": 40, "time": 0.2})["search"]
    assert search["stopped_early"] is True and search["exact"] is False
    assert search["stats"]["depth"] < 40
    assert search["limit"] == {"depth": 40, "unit": "ply", "time": 0.2, "nodes": api.MAX_NODES}
    default = ok(client, "move", {"game": "nim", "options": {"piles": "1,2"}})["search"]
    assert default["limit"]["time"] == api.DEFAULT_TIME and default["stopped_early"] is False


# --- POST /api/analyze -----------------------------------------------------------------------


def test_analyze_nim_agrees_with_bouton(client: TestClient) -> None:
    piles = (1, 3, 4)
    data = ok(client, "analyze", {"game": "nim", "options": {"piles": list(piles)}})
    game = games.load("nim", piles=piles)
    state = game.initial_state()
    expected = []
    for action in legal_actions(game, state):
        after = game.result(state, action)
        value = 1.0 if nim_sum(after.piles) == 0 else -1.0
        expected.append({"move": game.format_action(state, action), "value": value,
                         "score": "+1" if value > 0 else "-1", "mate": None})
    expected.sort(key=lambda row: -row["value"])  # best first, ties in the game's order
    search = data["search"]
    assert search["move_values"] == expected
    assert search["exact"] is True and search["value"] == 1.0  # nim-sum 6: the mover wins
    assert nim_sum(state_after("nim", [search["action"]], piles=piles)[1].piles) == 0


def test_analyze_the_empty_tictactoe_board(client: TestClient) -> None:
    search = ok(client, "analyze", {"game": "tictactoe"})["search"]
    assert [row["value"] for row in search["move_values"]] == [0.0] * 9  # every opening draws
    assert [row["move"] for row in search["move_values"]] == [str(i) for i in range(1, 10)]


def test_analyze_at_a_chance_node_needs_a_player(client: TestClient) -> None:
    body = {"game": "pig", "moves": ["roll"], "depth": 3}
    refused(client.post("/api/analyze", json=body), 422, '"player"')
    search = ok(client, "analyze", {**body, "player": 0})["search"]
    assert search["player"] == "P0" and search["move_values"] == [] and search["action"] is None
    named = ok(client, "analyze", {**body, "player": "P1"})["search"]
    assert named["player"] == "P1" and named["value"] == pytest.approx(-search["value"])


def test_analyze_at_the_end_has_no_search(client: TestClient) -> None:
    data = ok(client, "analyze", {"game": "sticks", "options": {"sticks": 2},
                                  "moves": ["2"]})
    assert data["search"] is None and data["state"]["result"] == "P0 wins"


# --- POST /api/tree --------------------------------------------------------------------------


def test_tree_of_aima_figure_5_2(client: TestClient) -> None:
    tree = ok(client, "tree", {"game": "aima-5-2"})["tree"]
    assert tree["algorithm"] == "alphabeta" and tree["value"] == 3.0
    assert tree["pv"] == ["a1", "b1"]
    root = tree["root"]
    assert [c["value"] for c in root["children"]] == [3.0, 2.0, 2.0]
    pruned = [(n["action"], n["pruned_by"]) for c in root["children"] for n in c["children"]
              if n["pruned"]]
    assert [action for action, _ in pruned] == ["c2", "c3"]
    assert all("2" in why and "3" in why for _, why in pruned)  # beta=2 <= alpha=3
    game = games.load("aima-5-2")
    library = capture(game, game.initial_state(), "alphabeta").to_json()
    assert tree["root"] == library["root"] and tree["pv"] == library["pv"]
    assert [c["pv"] for c in root["children"]] == [True, False, False]
    plain = ok(client, "tree", {"game": "aima-5-2", "algorithm": "minimax"})["tree"]
    assert not any(n["pruned"] for c in plain["root"]["children"] for n in c["children"])


def test_strict_cutoffs_reach_the_web_searches(client: TestClient) -> None:
    tree = ok(client, "tree", {"game": "aima-5-2", "strict_cutoffs": True})["tree"]
    pruned = [n["pruned_by"] for c in tree["root"]["children"] for n in c["children"]
              if n["pruned"]]
    assert pruned == ["v=2 < alpha=3", "v=2 < alpha=3"]
    body = {"game": "tictactoe", "algorithm": "alphabeta", "depth": 9}
    default = ok(client, "move", body)["search"]
    strict = ok(client, "move", {**body, "strict_cutoffs": True})["search"]
    assert strict["value"] == default["value"]
    assert strict["stats"]["nodes"] > default["stats"]["nodes"]
    refused(client.post("/api/move", json={**body, "algorithm": "minimax",
                                           "strict_cutoffs": True}), 422, "strict cutoffs")
    refused(client.post("/api/move", json={**body, "strict_cutoffs": "yes"}), 422,
            "strict_cutoffs")
    info = client.get("/api/games").json()
    assert "strict_cutoffs" in info["capabilities"]["alphabeta"]["options"]


def test_tree_node_cap_and_depth(client: TestClient) -> None:
    refused(client.post("/api/tree", json={"game": "tictactoe"}), 422, "more than 2,000 nodes")
    tree = ok(client, "tree", {"game": "tictactoe", "depth": 1})["tree"]
    assert len(tree["root"]["children"]) == 9
    assert {c["kind"] for c in tree["root"]["children"]} == {"cutoff"}
    refused(client.post("/api/tree", json={"game": "tictactoe", "max_nodes": 0}), 422,
            "max_nodes must be between 1 and")
    refused(client.post("/api/tree", json={"game": "tictactoe", "moves": ["1", "4", "2", "5",
                                                                           "3"]}),
            422, "the game is over")


# --- errors ----------------------------------------------------------------------------------

BAD_BODIES: list[tuple[str, dict[str, Any], str]] = [
    ("state", {"game": "shogi"}, "unknown game 'shogi'; available games: aima-5-2"),
    ("state", {"game": "src/plies/games/trees/aima-fig-5-2.tree"}, "unknown game 'src/"),
    ("state", {}, 'give exactly one of "game"'),
    ("state", {"game": "nim", "tree": "1"}, "got 2"),
    ("state", {"game": 3}, '"game" must be a string (a built-in game name), got a number'),
    ("state", {"game": "nim", "options": {"colour": "red"}}, "unknown option 'colour' for nim"),
    ("state", {"game": "nim", "options": {"piles": "1,x"}}, "not a valid comma-separated ints"),
    ("state", {"game": "nim", "options": {"misere": {"a": 1}}}, 'option "misere" must be'),
    ("state", {"game": "nim", "options": [1]}, '"options" must be an object'),
    ("state", {"game": "nim", "options": {"piles": "1,1000"}}, "numbers of 0..64 each"),
    ("state", {"game": "nim", "options": {"piles": ",".join(["1"] * 17)}}, "has 17 numbers"),
    ("state", {"game": "nim", "options": {"piles": "0"}}, "at least one stick"),
    ("state", {"game": "civ", "options": {"moves": 0}}, "civ accepts moves 1..5"),
    ("state", {"tree": "max(1 2", "options": {"a": 1}}, '"options" go with a built-in'),
    ("state", {"tree": "max(1 2"}, "line 1"),
    ("state", {"tree": "{\"type\": \"max\"}"}, "root"),
    ("state", {"tree": "max(" * 3000 + "1" + ")" * 3000}, "nested too deeply"),
    ("state", {"game": "tictactoe", "moves": ["5", "5"]},
     "illegal move '5' (move 2 of moves); legal moves: 1, 2, 3, 4, 6, 7, 8, 9"),
    ("state", {"game": "tictactoe", "moves": "5"}, '"moves" must be a list of strings'),
    ("state", {"game": "tictactoe", "moves": [5]}, "move 1 is a number"),
    ("state", {"game": "nim", "moves": ["1:1"] * 1001}, "at most 1000"),
    ("state", {"name": 1, "tree": "1"}, '"name" must be a string'),
    ("move", {"game": "tictactoe", "depth": "3"}, '"depth" must be a whole number'),
    ("move", {"game": "tictactoe", "depth": True}, "got a boolean"),
    ("move", {"game": "tictactoe", "depth": 2.5}, "got a number"),
    ("move", {"game": "tictactoe", "depth": -1}, "depth must be between 0 and 40"),
    ("move", {"game": "tictactoe", "depth": 41}, "depth must be between 0 and 40"),
    ("move", {"game": "tictactoe", "depth": 0}, "the engine chose no move"),
    ("move", {"game": "tictactoe", "time": 0}, "time must be more than 0 and at most 5"),
    ("move", {"game": "tictactoe", "time": 60}, "at most 5 seconds"),
    ("move", {"game": "tictactoe", "time": "fast"}, '"time" must be a number of seconds'),
    ("move", {"game": "tictactoe", "algorithm": "negamax"}, "unknown algorithm 'negamax'"),
    ("move", {"game": "tictactoe", "unit": "turn"}, "unknown unit 'turn'; use one of: ply"),
    ("move", {"game": "tictactoe", "tie": "last"}, "unknown tie 'last'"),
    ("move", {"game": "tictactoe", "engine": "yes"}, '"engine" must be true or false'),
    ("move", {"game": "tictactoe", "engine": True, "algorithm": "minimax"},
     "the engine is for alphabeta or expectiminimax"),
    ("move", {"game": "tictactoe", "player": "Z"}, "unknown player 'Z'; players are 0 (X)"),
    ("move", {"game": "tictactoe", "player": 2}, "unknown player '2'"),
    ("move", {"game": "tictactoe", "seed": 1.5}, '"seed" must be a whole number'),
    ("move", {"game": "pig", "algorithm": "alphabeta"}, "cannot search chance nodes"),
    ("move", {"game": "tictactoe", "moves": ["1", "4", "2", "5", "3"]}, "the game is over"),
    ("analyze", {"game": "pig", "algorithm": "bounded"},
     "cannot search chance nodes (pig has chance); use expectiminimax"),
    ("tree", {"game": "aima-5-2", "max_nodes": "10"}, '"max_nodes" must be a whole number'),
    ("tree", {"game": "aima-5-2", "max_nodes": 10**6}, "max_nodes must be between 1 and 5000"),
]


@pytest.mark.parametrize(("path", "body", "fragment"), BAD_BODIES)
def test_bad_requests_get_422_with_one_line(
    client: TestClient, path: str, body: dict[str, Any], fragment: str
) -> None:
    refused(client.post(f"/api/{path}", json=body), 422, fragment)


JSON = {"content-type": "application/json"}


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        (b"{", "malformed JSON: Expecting property name enclosed in double quotes (line 1"),
        (b"", "malformed JSON: Expecting value"),
        (b"[1, 2]", "the body must be a JSON object, got a list"),
        (b'"nim"', "the body must be a JSON object, got a string"),
        (b'{"game": "nim", "time": NaN}', "NaN is not a number in JSON"),
        (b'{"game": "nim", "depth": Infinity}', "Infinity is not a number in JSON"),
        (b"\xff\xfe{}", "the body is not UTF-8 text"),
        (b"[" * 100_000, "nested too deeply"),
        (b'{"depth": ' + b"1" * 5000 + b"}", "a number has more than 4,300 digits"),
    ],
)
def test_malformed_bodies_get_400(client: TestClient, raw: bytes, fragment: str) -> None:
    refused(client.post("/api/state", content=raw, headers=JSON), 400, fragment)


def test_a_body_over_the_cap_gets_413(client: TestClient) -> None:
    big = json.dumps({"tree": "1" + " " * api.MAX_BODY}).encode()
    refused(client.post("/api/state", content=big, headers=JSON), 413, "larger than 256 KiB")

    def chunks() -> Iterator[bytes]:  # no Content-Length: the cap holds while reading
        for _ in range(api.MAX_BODY // 1024 + 2):
            yield b" " * 1024

    refused(client.post("/api/state", content=chunks(), headers=JSON), 413, "larger than")


def test_wrong_content_type_gets_415(client: TestClient) -> None:
    body = json.dumps({"game": "nim"})
    refused(client.post("/api/state", content=body, headers={"content-type": "text/plain"}),
            415, "send the body as application/json, not text/plain")
    refused(client.post("/api/state", content=body.encode(), headers={"content-type": ""}),
            415, "not nothing")


def test_unknown_paths_and_methods(client: TestClient) -> None:
    refused(client.post("/api/solve", json={}), 404, "no such endpoint /api/solve; POST to one")
    refused(client.get("/nowhere"), 404, "Not Found: GET /nowhere")
    refused(client.get("/api/state"), 405, "Method Not Allowed: GET /api/state")
    refused(client.post("/api/games", json={}), 405, "Method Not Allowed")


def test_gdl_sticks_agrees_with_the_built_in_sticks(client: TestClient) -> None:
    """The same game twice: written in GDL, and built in; goal 100/0 is utility +1/-1."""
    gdl = ok(client, "analyze", {"gdl": GDL_STICKS, "name": "games/sticks.kif"})
    assert gdl["state"]["game"] == "sticks" and gdl["state"]["players"] == ["first", "second"]
    built_in = ok(client, "analyze", {"game": "sticks",
                                      "options": {"sticks": 4, "max_take": 2}})["search"]
    as_goals = [{"move": f"(take {r['move']})", "value": 50 + 50 * r["value"]}
                for r in built_in["move_values"]]
    gdl_values = [{"move": r["move"], "value": r["value"]} for r in gdl["search"]["move_values"]]
    assert gdl_values == as_goals == [
        {"move": "(take 1)", "value": 100.0}, {"move": "(take 2)", "value": 0.0},
    ]
    data = ok(client, "state", {"gdl": GDL_STICKS, "moves": ["take 1", "(take 2)", "take 1"]})
    assert data["moves"] == ["(take 1)", "(take 2)", "(take 1)"]  # as the game writes them
    assert data["result"] == "first wins" and data["utilities"] == [100.0, 0.0]


def test_gdl_games_are_built_once_for_many_requests() -> None:
    """In a worker of the pool: the same text is ground once (the worker's own cache)."""
    before = api._gdl_game.cache_info()
    for moves in ([], ["take 1"], ["take 1", "take 1"]):
        api.state({"gdl": GDL_STICKS, "name": "again.kif", "moves": moves})
    after = api._gdl_game.cache_info()
    assert (after.misses - before.misses, after.hits - before.hits) == (1, 2)


def test_gdl_simultaneous_moves(client: TestClient) -> None:
    data = ok(client, "state", {"gdl": GDL_PENNIES})
    assert (data["to_move"], data["to_move_name"]) == (-2, "simultaneous")
    assert data["legal"] == ["heads heads", "heads tails", "tails heads", "tails tails"]
    assert data["own_moves"] == [["heads", "tails"], ["heads", "tails"]]
    assert ok(client, "state", {"gdl": GDL_PENNIES, "moves": ["tails heads"]})["result"] == \
        "b wins"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("/etc/passwd", '"gdl" must be the text of a GDL (KIF) description, not a file name'),
        ("(role x", "bad.kif:1:"),
        ("(role x) (<= (legal x ?m) (?r ?m))", "bad.kif:1:"),
        (GDL_STICKS.replace("(role p)", "").replace("(role ?p)", "(role ?z)"), "bad.kif"),
    ],
)
def test_bad_gdl_gets_422(client: TestClient, text: str, fragment: str) -> None:
    refused(client.post("/api/state", json={"gdl": text, "name": "bad.kif"}), 422, fragment)


def test_internal_error_hides_exception_text(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    """A 500 carries an id, never the exception's text; the log has the id and the
    traceback; the app goes on."""
    def broken(body: Any) -> dict[str, Any]:
        raise RuntimeError("secret /home/user/boom")

    monkeypatch.setitem(api.ENDPOINTS, "state", broken)  # the state of nim runs in-process
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        message = refused(c.post("/api/state", json={"game": "nim"}), 500, "internal error")
        assert "secret" not in message and "RuntimeError" not in message
        error_id = message.split("(id ")[1].split(")")[0]
        assert len(error_id) == 8 and int(error_id, 16) >= 0
        assert message == f"internal error (id {error_id}); see the server log"
        logged = [r for r in caplog.records if error_id in r.getMessage()]
        assert len(logged) == 1 and logged[0].exc_info is not None
        assert c.post("/api/move", json={"game": "nim", "depth": 1}).status_code == 200


def test_only_loopback_host_names_when_bound_to_loopback() -> None:
    app = create_app(allowed_hosts=LOOPBACK_HOSTS)
    with TestClient(app, base_url="http://127.0.0.1:8000") as c:
        assert c.get("/api/games").status_code == 200
        rebound = c.get("/api/games", headers={"host": "evil.example:8000"})
        assert rebound.status_code == 400 and rebound.text == "Invalid host header"
    with TestClient(app, base_url="http://localhost:8000") as c:
        assert c.post("/api/state", json={"game": "nim"}).status_code == 200


def test_simultaneous_games_can_be_played_against_the_engine_in_the_web_app(
    client: TestClient,
) -> None:
    """Regression: rps, goofspiel and roshambo2.kif answered 422 "the engine cannot search
    simultaneous moves yet"; the engine now plays its side with a seeded sample from its
    optimal mixed strategy and the human picks only their own action."""
    body = {"game": "rps", "own": {"0": "rock"}, "seed": 7}
    answer = ok(client, "move", body)
    own, engine = answer["move"].split("/") if "/" in answer["move"] else answer["move"].split()
    assert own == "rock" and engine in ("rock", "paper", "scissors")
    mix = answer["strategies"]["Column"]
    assert mix == pytest.approx({"rock": 1 / 3, "paper": 1 / 3, "scissors": 1 / 3})
    assert answer["search"]["algorithm"] == "simultaneous"
    assert answer["search"]["value"] == 0  # float noise is not shown as a win or a loss
    assert ok(client, "move", body)["move"] == answer["move"]  # the sample is seeded
    moves = {ok(client, "move", {**body, "seed": s})["move"] for s in range(30)}
    assert len(moves) == 3  # a mixed strategy, not a pure one
    # Both players by the engine; goofspiel too; a bad own move is a one-line 422.
    assert ok(client, "move", {"gdl": GDL_PENNIES, "seed": 1})["state"]["terminal"]
    assert ok(client, "move", {"game": "goofspiel", "own": {"P0": "1"}})["by"] == "engine"
    refused(client.post("/api/move", json={"game": "rps", "own": {"0": "lizard"}}), 422,
            "illegal move 'lizard' (own move of 0); legal moves: rock, paper, scissors")
    refused(client.post("/api/move", json={"game": "rps", "own": {"Z": "rock"}}), 422,
            "unknown player 'Z'")


def test_show_the_tree_of_the_last_search_draws_the_same_search(client: TestClient) -> None:
    """Regression: "Show the tree of the last search" ran a different search (3,825 nodes
    in the analysis, 703 in the tree): the tree of an analysis is now the analysis's own
    search (every move with a full window) at the depth its last iteration reached."""
    import plies
    from plies.games import load

    moves = ["5", "1"]
    analysis = ok(client, "analyze", {"game": "tictactoe", "moves": moves, "depth": 3})
    tree = ok(client, "tree", {"game": "tictactoe", "moves": moves, "depth": 3,
                               "analysis": True})["tree"]
    ttt = load("tictactoe")
    state = plies.play(ttt, plies.play(ttt, ttt.initial_state(), "5"), "1")
    plain = plies.analyze(ttt, state, plies.Limit(depth=3))
    assert tree["stats"]["nodes"] == analysis["search"]["stats"]["nodes"] == plain.stats.nodes
    values = {c["action"]: c["value"] for c in tree["root"]["children"]}
    assert values == {m["move"]: m["value"] for m in analysis["search"]["move_values"]}
    # A move's search stays the one-window alpha-beta search: fewer nodes than the analysis.
    move_tree = ok(client, "tree", {"game": "tictactoe", "moves": moves, "depth": 3})["tree"]
    assert move_tree["stats"]["nodes"] < tree["stats"]["nodes"]


def test_the_servers_cap_stops_a_search_that_asked_for_more() -> None:
    """A request keeps its limit (the command line's search); the cap only stops it."""
    import plies
    from plies.policy import Deadline, SearchRequest, plan

    c4 = games.load("connect4")
    request = SearchRequest(limit=plies.Limit(depth=30))
    result = plan(c4, c4.initial_state(), request).run(c4, c4.initial_state(),
                                                       stop=Deadline(0.2))
    assert result.stopped and result.action in c4.actions(c4.initial_state())
    assert 1 <= result.stats.depth < 30


def test_the_page_starts_a_game_with_its_play_defaults(client: TestClient) -> None:
    """The catalogue's ``search`` comes from each game's play defaults (no table of names)."""
    catalogue = client.get("/api/games").json()
    search = {g["name"]: g["search"] for g in catalogue["games"]}
    assert search["chess"] == {"time": 2.0, "engine": True, "quiescence": True}
    assert search["othello"] == {"time": 2.0, "engine": True, "quiescence": False}
    assert search["tictactoe"] == {} and search["connect4"] == {}


def test_the_old_page_search_table_warns() -> None:
    from plies.web import api

    with pytest.warns(DeprecationWarning, match="plies.web.view.page_search"):
        assert api.PAGE_SEARCH is page_search


def test_a_simultaneous_game_analysed_shows_every_players_mixed_strategy(
    client: TestClient,
) -> None:
    answer = ok(client, "analyze", {"game": "rps", "depth": 2})
    strategies = answer["strategies"]
    assert [s["player"] for s in strategies] == ["Row", "Column"]
    for s in strategies:
        assert s["value"] == 0.0 and s["exact"]
        assert [m["move"] for m in s["strategy"]] == ["rock", "paper", "scissors"]
        assert all(abs(m["probability"] - 1 / 3) < 1e-9 for m in s["strategy"])
    # A turn-based game has no strategies section; its moves have values.
    assert "strategies" not in ok(client, "analyze", {"game": "tictactoe", "depth": 1})


def test_a_simultaneous_games_tree_needs_no_player_field(client: TestClient) -> None:
    tree = ok(client, "tree", {"game": "rps", "depth": 2})["tree"]
    assert tree["player"] == "Row" and tree["value"] == 0.0


def test_a_served_gdl_game_is_described_by_its_file_and_roles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(api, "SERVED", {})
    (name,) = api.serve_games(["tests/data/gdl/nim1.kif"])
    entry = next(g for g in api.catalogue()["games"] if g["name"] == name)
    assert entry["description"].startswith("a GDL file (tests/data/gdl/nim1.kif); players: ")
    assert len(entry["description"]) < 200 and "Rule(" not in entry["description"]


@pytest.mark.parametrize(("game", "algorithm", "kinds"), [
    ("aima-5-2", "minimax", {"expand", "terminal", "backup"}),
    ("aima-5-2", "alphabeta", {"expand", "terminal", "backup", "prune"}),
    ("chance-demo", "expectiminimax", {"expand", "terminal", "backup"}),
    ("aima-5-4", "maxn", {"expand", "terminal", "backup"}),
    ("aima-5-4", "paranoid", {"expand", "terminal", "backup", "prune"}),
    ("civ", "alphabeta", {"expand", "terminal", "backup"}),  # several moves a turn
])
def test_every_traced_search_can_be_stepped_through(
    client: TestClient, game: str, algorithm: str, kinds: set[str]
) -> None:
    body: dict[str, Any] = {"game": game, "algorithm": algorithm}
    if game == "civ":
        body.update(depth=1, unit="round", options={"players": 2, "moves": 2, "rounds": 1})
    answer = ok(client, "tree", body)
    steps, tree = answer["steps"], answer["tree"]
    ids = set()
    stack = [tree["root"]]
    while stack:
        node = stack.pop()
        ids.add(node["id"])
        stack.extend(node["children"])
    assert steps and {s["kind"] for s in steps} >= kinds
    assert all(s["node"] in ids and s["text"].strip() for s in steps)
    assert steps[0]["node"] == 0 and steps[-1]["node"] == 0  # root first, root's backup last
    assert "<svg " in answer["svg"] and 'id="node-0"' in answer["svg"]


@pytest.mark.parametrize("path", ["tree", "ordering", "quiz"])
def test_a_search_that_reads_hidden_cards_is_not_shown_to_a_player(
    client: TestClient, path: str
) -> None:
    body = {"game": "kuhn", "moves": ["JQ"], "depth": 2, "algorithm": "expectiminimax"}
    refused(client.post(f"/api/{path}", json={**body, "viewer": 0}), 422, "hides cards")
    if path == "tree":  # the referee's view (no human) draws the tree
        assert client.post(f"/api/{path}", json=body).status_code == 200
