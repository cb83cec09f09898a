"""uvicorn, set up so that connections cannot hold the server: timeouts and a cap.

uvicorn closes a keep-alive connection that stays idle ``timeout_keep_alive`` seconds
after a response, but it has no timer for a connection that never sends a request, nor
for one that sends its headers a byte at a time (a "slowloris"), and it accepts
connections until the process runs out of file descriptors.  :class:`GuardedH11Protocol`
adds both: the request line and headers must arrive within :data:`HEADER_TIME` seconds
of the connection (or of the first byte of the next request on a kept-alive one), and a
connection beyond the cap is closed at once.  The body has its own timer in the app
(:data:`plies.web.app.BODY_TIME`).
"""

from __future__ import annotations

import asyncio
import logging
import resource
import socket
from collections.abc import Callable
from typing import Any, Final

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIME: Final = 10.0
"""Seconds a connection may take to send a request's line and headers."""
KEEP_ALIVE: Final = 5
"""Seconds an idle kept-alive connection stays open."""
SPARE_FILES: Final = 128
"""File descriptors kept free of connections: worker pipes, static files, logs."""
MAX_CONNECTIONS: Final = 1024
"""Most connections open at once, whatever the descriptor limit allows."""

log = logging.getLogger("plies.web")


def connection_cap(files: int | None = None) -> int:
    """How many connections may be open at once: below the process's limit of open
    files (``RLIMIT_NOFILE``, or ``files``) by :data:`SPARE_FILES`, at most
    :data:`MAX_CONNECTIONS`, and at least 8."""
    if files is None:
        files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        if files == resource.RLIM_INFINITY:
            files = MAX_CONNECTIONS + SPARE_FILES
    return max(8, min(MAX_CONNECTIONS, files - SPARE_FILES))


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a timer on request headers and a cap on connections."""

    header_time: float = HEADER_TIME
    max_connections: int = MAX_CONNECTIONS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            log.warning("too many connections (%d); closing one from %s",
                        len(self.connections), _peer(self.client))
            self.transport.abort()
            return
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is h11.IDLE:
            if self._header_timer is None:  # the first bytes of a request: its headers' clock
                self._arm()
        else:
            self._disarm()

    def on_response_complete(self) -> None:
        self._disarm()  # from here the keep-alive timer watches the connection
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_time, self._headers_too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            log.info("closed a connection from %s: no complete request within %g s",
                     _peer(self.client), self.header_time)
            self.transport.close()


class Server(uvicorn.Server):
    """uvicorn's server that calls ``on_shutdown()`` as soon as a shutdown begins
    (Ctrl-C, SIGTERM), before it waits for the requests in progress, so that they can
    end at once (the app's worker pool answers them 503) instead of being cancelled."""

    def __init__(self, config: uvicorn.Config,
                 on_shutdown: Callable[[], None] | None = None) -> None:
        super().__init__(config)
        self.on_shutdown = on_shutdown

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        if self.on_shutdown is not None:
            self.on_shutdown()
        await super().shutdown(sockets)


def _peer(client: tuple[str, int] | None) -> str:
    return f"{client[0]}:{client[1]}" if client else "?"


def config(app: Any, *, header_time: float = HEADER_TIME, keep_alive: int = KEEP_ALIVE,
           connections: int | None = None, log_level: str = "warning") -> uvicorn.Config:
    """A uvicorn configuration for ``app`` with the guards of this module.

    ``connections`` caps open connections (default :func:`connection_cap`); uvicorn's
    ``limit_concurrency`` answers 503 past the same number of requests in progress.  A
    shutdown (Ctrl-C) waits at most 2 s for requests in progress.
    """
    cap = connection_cap() if connections is None else connections
    protocol = type("GuardedH11Protocol", (GuardedH11Protocol,),
                    {"header_time": header_time, "max_connections": cap})
    return uvicorn.Config(
        app, http=protocol, log_level=log_level, timeout_keep_alive=keep_alive,
        limit_concurrency=cap + 1, timeout_graceful_shutdown=2, ws="none", lifespan="on",
    )


__all__ = ["HEADER_TIME", "KEEP_ALIVE", "GuardedH11Protocol", "Server", "config",
           "connection_cap"]
