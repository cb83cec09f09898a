"""The web app's bounds (issue 22): what a request may make the server do, and say.

A hostile test found 500s for numbers past Python's 4,300-digit limit in tree text and
tree JSON, a 60 MB 422 for an 89-byte body declaring millions of players, and answers
that echoed a user's 200 KB input whole.  Each fault is a test named after it; the app
runs with its real worker pool (Starlette's TestClient), the slow ones on uvicorn.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from starlette.testclient import TestClient

from plies.web import api
from plies.web.app import create_app
from plies.web.pool import MB

from .test_faults import BOMB, app_server, post, wait_for

JSON = {"content-type": "application/json"}
DIGITS = "9" * 5000
"""A number past Python's limit of 4,300 digits for a text-to-int conversion."""
SHORT = 2 * api.MAX_MESSAGE
"""Bytes an error answer stays within (the message, its length note and the JSON)."""


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(workers=1)) as c:
        yield c


def short_error(response: Any, status: int) -> str:
    """``response`` is ``status`` with one short line of error (no traceback)."""
    assert response.status_code == status, response.text[:500]
    assert len(response.content) <= SHORT, len(response.content)
    message = response.json()["error"]
    assert isinstance(message, str) and message and "\n" not in message
    assert "Traceback" not in message
    return str(message)


@pytest.mark.parametrize("path", ["state", "move", "analyze", "tree"])
@pytest.mark.parametrize(
    "tree",
    [
        '{"players": 2, "root": [#, 1]}'.replace("#", DIGITS),
        '{"players": #, "root": 1}'.replace("#", DIGITS),
        '{"root": {"type": "max", "children": [{"value": #}]}}'.replace("#", DIGITS),
        '{"root": {"type": "player", "player": #, "children": [1]}}'.replace("#", DIGITS),
        '{"root": {"type": "chance", "children": [{"p": #, "node": 1}]}}'.replace("#", DIGITS),
        '{"root": {"values": [#, 1, 2]}}'.replace("#", DIGITS),
        "p#(1 2)".replace("#", DIGITS),
        "chance(#: 1 1: 2)".replace("#", DIGITS),
        "chance(1/#: 1 1: 2)".replace("#", DIGITS),
    ],
    ids=["json-leaf", "json-players", "json-value", "json-player", "json-p", "json-values",
         "text-player", "text-probability", "text-fraction"],
)
def test_a_number_past_the_digit_limit_in_a_tree_is_a_422_not_a_500(
    client: TestClient, path: str, tree: str
) -> None:
    response = client.post(f"/api/{path}", json={"tree": tree})
    message = short_error(response, 422)
    # the parser names the number: by its count of digits, or quoted cut short
    named = ("4,300 digits", "number", "(5,000 characters)")
    assert any(word in message for word in named), message


@pytest.mark.parametrize("field", ["depth", "time", "seed", "max_nodes", "player"])
def test_a_number_past_the_digit_limit_in_any_request_field_is_a_400(
    client: TestClient, field: str
) -> None:
    raw = b'{"game": "nim", "%s": %s}' % (field.encode(), DIGITS.encode())
    message = short_error(client.post("/api/move", content=raw, headers=JSON), 400)
    assert message == "malformed JSON: a number has more than 4,300 digits"


@pytest.mark.parametrize(
    "raw",
    [
        b'{"game": "nim", "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        b'{"game": "nim", "options": ' + b'{"a": ' * 40 + b"1" + b"}" * 40 + b"}",
        b'{"game": "nim", "moves": ' + b"[" * 33 + b"]" * 33 + b"}",
    ],
    ids=["100000-deep", "options-40-deep", "moves-33-deep"],
)
def test_a_deeply_nested_body_is_a_400(client: TestClient, raw: bytes) -> None:
    message = short_error(client.post("/api/state", content=raw, headers=JSON), 400)
    assert "nested too deeply" in message


def test_a_deeply_nested_tree_json_is_a_422(client: TestClient) -> None:
    tree = '{"root": ' * 20_000 + "1" + "}" * 20_000
    assert "nested too deeply" in short_error(
        client.post("/api/state", json={"tree": tree}), 422)


def test_a_tree_declaring_millions_of_players_gets_a_short_422(client: TestClient) -> None:
    """Regression: this 72-byte body got a 60 MB 422 (the message wrote one ``0`` per
    player).  The answer is one short line, whatever the parser's message."""
    body = json.dumps({"tree": '{"players": 30000000, "root": 1}', "name": "t.json"})
    assert len(body) < 89
    response = client.post("/api/state", content=body, headers=JSON)
    message = short_error(response, 422)
    assert "30,000,000 is too many" in message


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("state", {"game": "x" * 200_000}),
        ("state", {"game": "nim", "options": {"x" * 200_000: 1}}),
        ("state", {"game": "nim", "options": {"piles": ",".join(["9"] * 40_000)}}),
        ("state", {"game": "nim", "moves": ["y" * 900]}),
        ("state", {"tree": "A: max(# 1)".replace("#", DIGITS)}),
        ("tree", {"game": "nim", "max_nodes": int("1" * 4000)}),
        ("move", {"game": "nim", "depth": -int("1" * 4000)}),
        ("move", {"game": "nim", "player": "p" * 900, "depth": 1}),
        ("state", {"gdl": "(role " + "a" * 200_000 + ")"}),
    ],
    ids=["game-name", "option-name", "option-value", "move", "tree-number", "max-nodes",
         "depth", "player", "gdl"],
)
def test_an_error_that_quotes_a_huge_input_is_one_short_line(
    client: TestClient, path: str, body: dict[str, Any]
) -> None:
    """Regression: these answers echoed the input whole (200 KB for a 200 KB name)."""
    short_error(client.post(f"/api/{path}", json=body), 422)


@pytest.mark.parametrize(
    ("field", "value", "fragment"),
    [
        ("moves", ["1"] * (api.MAX_MOVES + 1), "replays at most"),
        ("moves", ["m" * (api.MAX_TEXT + 1)], "move 1 is longer than"),
        ("moves", [1], "move 1 is a number"),
        ("depth", api.MAX_DEPTH + 1, "depth must be between"),
        ("time", 1e308, "time must be more than 0"),
        ("time", 0, "time must be more than 0"),
        ("max_nodes", api.MAX_TREE_NODES + 1, "max_nodes must be between"),
        ("algorithm", "nope", "unknown algorithm"),
        ("engine", "yes", "true or false"),
        ("seed", 1.5, "a whole number"),
        ("own", {str(i): "x" for i in range(api.MAX_OPTIONS + 1)}, "at most"),
        ("name", "n" * (api.MAX_TEXT + 1), "longer than"),
        ("player", "p" * (api.MAX_TEXT + 1), "longer than"),
    ],
)
def test_a_bad_field_is_refused_before_the_game_is_loaded(
    monkeypatch: pytest.MonkeyPatch, field: str, value: Any, fragment: str
) -> None:
    """Regression: a depth of 41 or a thousand-and-one moves were refused only after the
    game was loaded, so a GDL description was grounded (for up to 15 s) first."""
    def never(body: Any) -> Any:
        raise AssertionError("the game was loaded before the fields were checked")

    monkeypatch.setattr(api, "load_game", never)
    for endpoint in api.ENDPOINTS.values():
        with pytest.raises(api.ApiError, match=fragment):
            endpoint({"gdl": BOMB, field: value})


def test_options_past_the_cap_are_refused_before_the_game_is_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(api, "load_game", lambda body: pytest.fail("loaded"))
    options = {f"o{i}": 1 for i in range(api.MAX_OPTIONS + 1)}
    with pytest.raises(api.ApiError, match="a game takes at most 64"):
        api.state({"game": "nim", "options": options})


def test_a_bad_field_never_takes_a_worker() -> None:
    """The server checks the fields before it queues a request: a GDL bomb with a bad
    depth is refused at once, and no worker ever sees it."""
    with app_server(workers=1) as (url, pool):
        response = post(url, "/api/move", {"gdl": BOMB, "depth": api.MAX_DEPTH + 1})
        assert "depth must be between" in short_error(response, 422)
        assert pool.stats.served == 0 and pool.busy == 0


def test_a_tree_declaring_a_billion_players_gets_a_short_422_within_the_workers_memory(
    client: TestClient,
) -> None:
    """Regression: this 50-byte body ran its worker for its whole budget (15 s) while the
    tree parser wrote a 2 GB message in C code that the memory watch could not interrupt;
    the answer is a short 422, and the worker serves the next request."""
    body = {"tree": '{"players": 1000000000, "root": 1}'}
    message = short_error(client.post("/api/state", json=body), 422)
    assert "players" in message or "memory" in message, message
    assert client.post("/api/move", json={"game": "nim", "depth": 2}).status_code == 200


def test_a_worker_that_ran_out_of_memory_is_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    """A MemoryError (here: a served game asked to hold 3 GB, past the worker's address
    space) is a 422, and the worker, whose memory may stay fragmented, is replaced."""
    monkeypatch.setattr(api, "SERVED", {})
    spec = f"{Path(__file__).parent / 'hungry.py'}:Hungry"
    (name,) = api.serve_games([spec])
    with app_server(workers=1, specs=[spec], memory=256 * MB) as (url, pool):
        (first,) = pool.pids()
        fed = {"game": name, "options": {"size": 1000}, "depth": 1}
        assert post(url, "/api/move", fed).status_code == 200
        starved = {"game": name, "options": {"size": 3 * 1024**3}, "depth": 1}
        assert "more memory" in short_error(post(url, "/api/move", starved), 422)
        wait_for(lambda: pool.pids() not in ([], [first]), "a fresh worker")
        assert pool.stats.recycled == 1
        assert post(url, "/api/move", fed).status_code == 200

def test_the_list_of_games_is_made_at_start_not_by_the_first_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Making the catalogue makes every game (about a second on a loaded machine): the
    first ``GET /api/games`` paid it, and a cheap request waited behind it.  The server
    makes it while it starts; every request reads it."""
    made = []
    real = api.catalogue

    def counted(body: Any = None) -> dict[str, Any]:
        made.append(1)
        return real(body)

    monkeypatch.setattr(api, "catalogue", counted)
    with app_server(workers=1) as (url, _):
        assert made == [1]
        with httpx.Client(base_url=url, timeout=60) as http:
            answers = [http.get("/api/games") for _ in range(3)]
        assert [a.status_code for a in answers] == [200] * 3
        assert made == [1]
