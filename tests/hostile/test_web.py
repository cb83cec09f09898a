"""Hostile requests to ``plies web`` (a real uvicorn server with one worker): numbers past
4,300 digits, deep JSON, a billion players, wrong types and absurd values in every field,
bodies that are not JSON, paths that are not there.

The promise: a 4xx (never a 5xx) whose body is bounded, and the server answers the next
cheap request.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from plies.web.app import LOOPBACK_HOSTS, create_app
from tests.hostile.corpus import MAX_BODY, Request, http, web_requests
from tests.web.conftest import serving

REQUESTS = web_requests(40)
CHEAP = Request("cheap", "POST", "/api/state", b'{"game": "tictactoe", "moves": ["5"]}')


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, int]]:
    """(host, port) of a web app with one worker and 5 s a request."""
    with serving(create_app(allowed_hosts=LOOPBACK_HOSTS, workers=1, request_time=5.0)) as url:
        parts = urlsplit(url)
        assert parts.hostname is not None and parts.port is not None
        yield parts.hostname, parts.port


@pytest.mark.parametrize("request_", REQUESTS, ids=[r.name for r in REQUESTS])
def test_hostile_request_is_a_bounded_4xx_and_the_server_keeps_serving(
    server: tuple[str, int], request_: Request
) -> None:
    status, body = http(*server, request_)
    assert status < 500, f"{request_.name}: {status} {body[:300]!r}"
    if status >= 400:
        assert len(body) <= MAX_BODY, f"{request_.name}: a {status} of {len(body):,} bytes"
    assert http(*server, CHEAP)[0] == 200
