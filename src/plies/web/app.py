"""The ASGI app (Starlette): the page, its static files, and the JSON API of :mod:`.api`.

Routes:

- ``GET /``: the page (``static/index.html``); ``GET /static/...``: its CSS and JS.
- ``GET /api/games``: the built-in games, their options, the algorithms, the caps.
- ``POST /api/NAME``: each endpoint of :data:`.api.ENDPOINTS` (``state``, ``move``,
  ``analyze``, ``tree``, and ``quiz`` and ``ordering``, which :mod:`.quiz` and
  :mod:`.trees` add); see :mod:`.api`.

Every answer of the API is JSON.  A bad request gets a 4xx status and
``{"error": "<one line>"}``: 400 a body that is not a JSON object, 404 an unknown path,
405 a wrong method, 408 a body that takes more than :data:`BODY_TIME` seconds to arrive,
413 a body over :data:`~.api.MAX_BODY` bytes, 415 a body that is not declared
``application/json`` (which also keeps other web sites from posting to the server without
a CORS preflight), 422 a request the game cannot use, 503 (with ``Retry-After``) when
every worker is busy and the queue is full, or when the worker serving the request ended
under it.  Every error message is one line of at most :data:`~.api.MAX_MESSAGE`
characters, and every field that needs no game is checked (:func:`~.api.check_request`)
before the request waits for a worker.  A 500 carries only an id; the server log has the
rest.

Where the work runs: searches and GDL games go to a :class:`~.pool.WorkerPool` of
processes, each request within a budget of ``request_time`` seconds (grounding included)
after which it is stopped, and killed if it does not stop; the page, the catalogue and the
state of a built-in game or a served one run in the event loop's threads, so they never
wait behind a search.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Final

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from plies.errors import PliesError
from plies.web import api, quiz, trees  # noqa: F401  (they register /api/quiz, /api/ordering)
from plies.web.pool import MB, PoolFull, WorkerPool, internal_error, internal_error_id

STATIC: Final = Path(__file__).parent / "static"
LOOPBACK_HOSTS: Final = ("127.0.0.1", "localhost", "::1")
"""Host names a server bound to the loopback interface answers to (DNS rebinding guard)."""

_PAGE_HEADERS: Final = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}
_API_HEADERS: Final = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
BODY_TIME: Final = 10.0
"""Seconds a request body may take to arrive (a slow sender holds a connection)."""
CHEAP_THREADS: Final = 8
"""Threads that serve cheap requests (the state of a built-in game, the catalogue)."""

log = logging.getLogger("plies.web")


def error(message: str, status: int) -> Response:
    """``{"error": message}`` with ``status``: every failure of the API looks like this."""
    return Response(api.error_json(message), status, headers=_API_HEADERS,
                    media_type="application/json")


def create_app(
    *, allowed_hosts: Sequence[str] | None = None, workers: int = 2, queue: int | None = None,
    request_time: float = api.REQUEST_TIME, memory: int = 1024 * MB, specs: Sequence[str] = (),
    body_time: float = BODY_TIME,
) -> Starlette:
    """The web app.  ``allowed_hosts``: Host headers to answer (None: any).

    ``workers`` processes serve searches and GDL games, ``queue`` requests may wait for one
    (default ``2 * workers``; more get 503), each request has ``request_time`` seconds
    (loading its game and its searches), a worker may hold ``memory`` bytes (see
    :class:`~.pool.WorkerPool`), and ``specs`` are the server's own games
    (:func:`~.api.serve_games`, which the caller has already run in this process).
    ``body_time``: seconds a request body may take to arrive (408 after).
    The workers start with the app's lifespan and are killed when it ends.
    """
    pool = WorkerPool(workers, queue=queue, memory=memory, specs=specs)
    cheap: list[anyio.CapacityLimiter] = []  # made inside the event loop
    catalogue: list[bytes] = []

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await anyio.to_thread.run_sync(pool.start)
        try:  # made now, so that the first GET /api/games is as cheap as the next ones
            await games_answer()
        except Exception:  # the first request makes it then, or says why not
            log.exception("could not make the list of games at start")
        try:
            yield
        finally:
            with anyio.CancelScope(shield=True):
                await anyio.to_thread.run_sync(pool.close)

    async def in_thread(fn: Callable[[Mapping[str, Any]], dict[str, Any]],
                        body: Mapping[str, Any]) -> Response:
        if not cheap:
            cheap.append(anyio.CapacityLimiter(CHEAP_THREADS))
        try:
            data = await anyio.to_thread.run_sync(fn, body, limiter=cheap[0])
        except api.ApiError as err:
            return error(str(err), err.status)
        except PliesError as err:  # unknown game, bad option, illegal move, ...
            return error(str(err), 422)
        except RecursionError:
            return error("the game is too deep to search here", 422)
        return Response(api.encode(data), headers=_API_HEADERS, media_type="application/json")

    async def in_pool(request: Request, name: str, body: Mapping[str, Any]) -> Response:
        try:
            reply = await pool.run(name, body, seconds=request_time,
                                   gone=request.is_disconnected)
        except PoolFull as err:
            response = error(str(err), 503)
            response.headers["Retry-After"] = str(err.retry_after)
            return response
        if reply is None:  # the client went away; nobody reads this
            log.info("client %s went away during %s %s", _client(request), request.method,
                     request.url.path)
            return Response(status_code=499)
        headers = dict(_API_HEADERS)
        if reply.retry_after is not None:
            headers["Retry-After"] = str(reply.retry_after)
        return Response(reply.body, reply.status, headers=headers,
                        media_type="application/json")

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers=_PAGE_HEADERS)

    async def games_answer() -> Response:
        """``GET /api/games``: the catalogue, made once (it makes every game: a second)."""
        if not catalogue:
            answer = await in_thread(api.catalogue, {})
            if answer.status_code != 200:
                return answer
            catalogue.append(bytes(answer.body))
        return Response(catalogue[0], headers=_API_HEADERS, media_type="application/json")

    async def games(request: Request) -> Response:
        return await games_answer()

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
            body = api.decode(await _read(request, body_time))
        except api.ApiError as err:
            response = error(str(err), err.status)
            if err.status == 408:  # the rest of the body may still come: end the connection
                response.headers["Connection"] = "close"
            return response
        except ClientDisconnect:
            log.info("client %s went away while sending %s %s", _client(request),
                     request.method, request.url.path)
            return Response(status_code=499)
        try:
            api.check_request(body)  # a bad field never waits for a worker
        except api.ApiError as err:
            return error(str(err), err.status)
        if name == "state" and body.get("gdl") is None and body.get("tree") is None:
            return await in_thread(endpoint, body)  # a built-in or served game: cheap
        return await in_pool(request, name, body)

    def guarded(handler: Callable[[Request], Any]) -> Callable[[Request], Any]:
        """``handler``, with an unexpected exception logged with an id and answered 500."""
        async def endpoint(request: Request) -> Response:
            try:
                response: Response = await handler(request)
            except HTTPException:
                raise
            except Exception:
                return _internal(request)
            return response
        return endpoint

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return error(f"{exc.detail}: {request.method} {request.url.path}", exc.status_code)

    async def server_error(request: Request, exc: Exception) -> Response:
        return _internal(request, exc)

    middleware = []
    if allowed_hosts is not None:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts)))
    app = Starlette(
        routes=[
            Route("/", guarded(page), methods=["GET"]),
            Route("/api/games", guarded(games), methods=["GET"]),
            Route("/api/{name}", guarded(post), methods=["POST"]),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        middleware=middleware,
        exception_handlers={HTTPException: http_error, Exception: server_error},
        lifespan=lifespan,
    )
    app.state.pool = pool
    return app


def _client(request: Request) -> str:
    return f"{request.client.host}:{request.client.port}" if request.client else "?"


def _internal(request: Request, exc: BaseException | None = None) -> Response:
    """Log the exception being handled with a new id; answer 500 with the id only."""
    error_id = internal_error_id()
    log.error("internal error (id %s) on %s %s", error_id, request.method, request.url.path,
              exc_info=exc or True)
    return Response(internal_error(error_id), 500, headers=_API_HEADERS,
                    media_type="application/json")


async def _read(request: Request, body_time: float = BODY_TIME) -> bytes:
    """The body, refused with 413 as soon as it passes :data:`~.api.MAX_BODY` bytes and
    with 408 when it takes more than ``body_time`` seconds to arrive.

    Raises:
        starlette.requests.ClientDisconnect: the client went away before the end.
    """
    too_big = api.ApiError(f"the body is larger than {api.MAX_BODY // 1024} KiB", 413)
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > api.MAX_BODY:
        raise too_big
    chunks: list[bytes] = []
    size = 0
    with anyio.move_on_after(body_time) as late:
        async for chunk in request.stream():
            size += len(chunk)
            if size > api.MAX_BODY:
                raise too_big
            chunks.append(chunk)
    if late.cancelled_caught:
        raise api.ApiError(f"the body took more than {body_time:g} s to arrive", 408)
    return b"".join(chunks)
