"""The ASGI app (Starlette): the page, its static files, and the JSON API of :mod:`.api`.

Routes:

- ``GET /``: the page (``static/index.html``); ``GET /static/...``: its CSS and JS.
- ``GET /api/games``: the built-in games, their options, the algorithms, the caps.
- ``POST /api/state``, ``/api/move``, ``/api/analyze``, ``/api/tree``: see :mod:`.api`.

Every answer of the API is JSON.  A bad request gets a 4xx status and
``{"error": "<one line>"}``: 400 a body that is not a JSON object, 404 an unknown path,
405 a wrong method, 413 a body over :data:`~.api.MAX_BODY` bytes, 415 a body that is not
declared ``application/json`` (which also keeps other web sites from posting to the
server without a CORS preflight), 422 a request the game cannot use.  The work of a
request runs in a worker thread, at most ``workers`` at once; searches are capped in time
and nodes (see :mod:`.api`), so the event loop keeps serving.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from plies.errors import PliesError
from plies.web import api

STATIC: Final = Path(__file__).parent / "static"
LOOPBACK_HOSTS: Final = ("127.0.0.1", "localhost", "::1")
"""Host names a server bound to the loopback interface answers to (DNS rebinding guard)."""

_PAGE_HEADERS: Final = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}
_API_HEADERS: Final = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}

log = logging.getLogger("plies.web")


def error(message: str, status: int) -> Response:
    """``{"error": message}`` with ``status``: every failure of the API looks like this."""
    return Response(api.encode({"error": " ".join(message.split())}), status,
                    headers=_API_HEADERS, media_type="application/json")


def create_app(*, allowed_hosts: Sequence[str] | None = None, workers: int = 2) -> Starlette:
    """The web app.  ``allowed_hosts``: Host headers to answer (None: any)."""
    limiter: list[anyio.CapacityLimiter] = []  # made on first use, inside the event loop

    async def work(fn: Callable[[Mapping[str, Any]], dict[str, Any]], body: Mapping[str, Any]
                   ) -> Response:
        if not limiter:
            limiter.append(anyio.CapacityLimiter(workers))
        try:
            data = await anyio.to_thread.run_sync(fn, body, limiter=limiter[0])
        except api.ApiError as err:
            return error(str(err), err.status)
        except PliesError as err:  # unknown game, bad option, unsupported algorithm, ...
            return error(str(err), 422)
        except RecursionError:
            return error("the game is too deep to search here", 422)
        return Response(api.encode(data), headers=_API_HEADERS, media_type="application/json")

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers=_PAGE_HEADERS)

    async def games(request: Request) -> Response:
        return await work(api.catalogue, {})

    async def post(request: Request) -> Response:
        name = request.path_params["name"]
        if name == "games":
            return error("Method Not Allowed: POST /api/games; GET it", 405)
        endpoint = api.ENDPOINTS.get(name)
        if endpoint is None:
            known = ", ".join(f"/api/{name}" for name in api.ENDPOINTS)
            return error(f"no such endpoint {request.url.path}; POST to one of {known}", 404)
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            return error(f"send the body as application/json, not {kind or 'nothing'}", 415)
        try:
            body = api.decode(await _read(request))
        except api.ApiError as err:
            return error(str(err), err.status)
        return await work(endpoint, body)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return error(f"{exc.detail}: {request.method} {request.url.path}", exc.status_code)

    async def server_error(request: Request, exc: Exception) -> Response:
        log.error("internal error on %s %s", request.method, request.url.path, exc_info=exc)
        return error(f"internal error: {type(exc).__name__}: {exc}", 500)

    middleware = []
    if allowed_hosts is not None:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts)))
    return Starlette(
        routes=[
            Route("/", page, methods=["GET"]),
            Route("/api/games", games, methods=["GET"]),
            Route("/api/{name}", post, methods=["POST"]),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        middleware=middleware,
        exception_handlers={HTTPException: http_error, Exception: server_error},
    )


async def _read(request: Request) -> bytes:
    """The body, refused with 413 as soon as it passes :data:`~.api.MAX_BODY` bytes."""
    too_big = api.ApiError(f"the body is larger than {api.MAX_BODY // 1024} KiB", 413)
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > api.MAX_BODY:
        raise too_big
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > api.MAX_BODY:
            raise too_big
        chunks.append(chunk)
    return b"".join(chunks)
