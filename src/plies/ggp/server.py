"""The GGP player's HTTP front: one request per message, one reply body per answer.

What a game manager may send (``shared/docs/ggp_protocol.md`` section 1), and all of it
is accepted:

* ``POST /`` with the message as the body, read by ``Content-Length``; without one, a
  chunked body, or (HTTP/1.0 style) the bytes until the s-expression closes or the client
  closes its side;
* ``GET /<url-encoded message>``, e.g. ``GET /(info)``, as browser tools send it;
* ``OPTIONS`` pre-flights, answered with an empty body.

Every answer is ``HTTP/1.0`` with ``Content-Type: text/acl``, ``Content-Length`` and the
CORS headers ggp-base's players send, and closes the connection.  The server is threaded
(:class:`http.server.ThreadingHTTPServer`), so INFO is answered while a PLAY is thinking.
It binds ``127.0.0.1`` unless told otherwise.
"""

from __future__ import annotations

import logging
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote_plus

from plies.errors import PliesError
from plies.ggp.player import GgpPlayer, Reply

log = logging.getLogger("plies.ggp")

MAX_BODY = 16 * 1024 * 1024
"""The largest request body accepted (bytes); a game description is far smaller."""

READ_TIMEOUT = 10.0
"""Seconds a connection may stay silent while its request is being read."""

CORS = (
    ("Access-Control-Allow-Origin", "*"),
    ("Access-Control-Allow-Methods", "POST, GET, OPTIONS"),
    ("Access-Control-Allow-Headers", "Content-Type, Sender, Receiver"),
    ("Access-Control-Allow-Age", "86400"),  # ggp-base's spelling
    ("Access-Control-Max-Age", "86400"),
)


class ServeError(PliesError):
    """The player cannot listen where it was asked to (port taken, bad address)."""


class GgpRequestHandler(BaseHTTPRequestHandler):
    """Turns each HTTP request into one call of :meth:`GgpPlayer.handle`."""

    server: GgpServer
    protocol_version = "HTTP/1.0"
    default_request_version = "HTTP/1.0"  # errors on a bare request line get headers too
    server_version = "plies-ggp"
    error_message_format = "error: %(message)s (HTTP %(code)d)\n"
    error_content_type = "text/plain; charset=utf-8"
    timeout = READ_TIMEOUT
    received: float = 0.0

    def handle(self) -> None:
        # The play clock runs from receipt: take the time before reading anything.
        self.received = time.perf_counter()
        super().handle()

    def do_POST(self) -> None:
        try:
            body = self._read_body()
        except _BadRequest as err:
            self._send(Reply(err.status, f"error: {err}"))
            return
        self._answer(body)

    def do_GET(self) -> None:
        # The whole path is the message: GDL variables start with "?", so a query string
        # cannot be told apart from a message that a tool did not encode.
        text = unquote_plus(self.path[1:] if self.path.startswith("/") else self.path)
        if not text.strip():
            self._send(Reply(400, "error: empty message; send one, e.g. GET /(info)"))
            return
        self._answer(text)

    def do_OPTIONS(self) -> None:
        self._send(Reply(200, ""))

    # -- helpers ---------------------------------------------------------------------------

    def _answer(self, text: str) -> None:
        try:
            reply = self.server.player.handle(text, self.received)
        except Exception as err:  # a bug must cost one reply, never the server
            log.exception("internal error on %r", text[:200])
            reply = Reply(500, f"error: internal error: {err}")
        if reply.status != 200:
            log.info("%s %s -> %d %s", self.command, _excerpt(text), reply.status, reply.body)
        self._send(reply)

    def _send(self, reply: Reply) -> None:
        data = reply.body.encode("utf-8")
        self.send_response(reply.status)
        kind = "text/acl" if reply.status == 200 else "text/plain; charset=utf-8"
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            self.wfile.write(data)
        except OSError:  # the manager gave up on us; nothing to do
            log.warning("the client closed the connection before the reply")

    def end_headers(self) -> None:
        for name, value in CORS:  # on every answer, errors included
            self.send_header(name, value)
        super().end_headers()

    def _read_body(self) -> str:
        length = self.headers.get("Content-Length")
        if length is not None:
            try:
                n = int(length)
            except ValueError:
                raise _BadRequest(400, f"bad Content-Length {length!r}") from None
            if n < 0:
                raise _BadRequest(400, f"bad Content-Length {length!r}")
            if n > MAX_BODY:
                raise _BadRequest(413, f"request body of {n} bytes is over {MAX_BODY}")
            data = self.rfile.read(n)
        elif "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            data = self._read_chunked()
        else:
            data = self._read_until_closed()
        return data.decode("utf-8", errors="replace")

    def _read_chunked(self) -> bytes:
        parts: list[bytes] = []
        total = 0
        while True:
            line = self.rfile.readline(1024)
            try:
                size = int(line.split(b";", 1)[0].strip() or b"0", 16)
            except ValueError:
                raise _BadRequest(400, f"bad chunk size {line[:40]!r}") from None
            if size == 0:
                break
            total += size
            if total > MAX_BODY:
                raise _BadRequest(413, f"request body is over {MAX_BODY} bytes")
            parts.append(self.rfile.read(size))
            self.rfile.readline(1024)
        return b"".join(parts)

    def _read_until_closed(self) -> bytes:
        """A body without a length: read until the message's parentheses balance, the
        client closes its side, or it stays silent for :data:`READ_TIMEOUT`."""
        data = b""
        while not _complete(data):
            try:
                chunk = self.rfile.read1(65536)
            except TimeoutError:
                break
            if not chunk:
                break
            data += chunk
            if len(data) > MAX_BODY:
                raise _BadRequest(413, f"request body is over {MAX_BODY} bytes")
        return data

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s " + format, self.address_string(), *args)


class _BadRequest(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _complete(data: bytes) -> bool:
    """True once ``data`` holds a whole parenthesised s-expression (comments ignored)."""
    depth = 0
    opened = False
    in_comment = False
    for byte in data:
        if in_comment:
            in_comment = byte != 0x0A
        elif byte == 0x3B:  # ;
            in_comment = True
        elif byte == 0x28:  # (
            depth += 1
            opened = True
        elif byte == 0x29:  # )
            depth -= 1
            if depth <= 0 and opened:
                return True
    return False


def _excerpt(text: str, width: int = 120) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 3] + "..."


class GgpServer(ThreadingHTTPServer):
    """An HTTP server for one :class:`GgpPlayer` (``port=0`` picks a free port).

    Use :meth:`serve_forever` (blocking) or :meth:`start` (a background thread) and
    :meth:`stop`.  ``url`` is where a game manager reaches the player.
    """

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, player: GgpPlayer, host: str = "127.0.0.1", port: int = 9147) -> None:
        try:
            super().__init__((host, port), GgpRequestHandler)
        except OSError as err:
            raise ServeError(f"cannot listen on {host}:{port}: {err.strerror or err}") from None
        self.player = player
        self._thread: threading.Thread | None = None

    @property
    def host(self) -> str:
        return str(self.server_address[0])

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    def start(self) -> GgpServer:
        """Serve in a daemon thread; returns ``self``."""
        self._thread = threading.Thread(
            target=self.serve_forever, kwargs={"poll_interval": 0.05},
            name=f"ggp-server-{self.port}", daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving, end the player's match and close the socket."""
        if self._thread is not None:
            self.shutdown()
            self._thread.join()
            self._thread = None
        self.player.close()
        self.server_close()

    def handle_error(self, request: Any, client_address: Any) -> None:
        log.exception("error while serving %s", client_address)

    def __enter__(self) -> GgpServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
