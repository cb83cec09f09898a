"""The GGP player's HTTP front: one request per message, one reply body per answer.

What a game manager may send (``docs/ggp-protocol.md`` section 1), and all of it
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

Nothing a request can do takes the player down (issue 11):

* a body is at most :data:`MAX_BODY` bytes (a ``Content-Length`` over it is refused with
  413 before a byte of the body is read; what the client still sends is then discarded,
  up to :data:`DISCARD_BYTES`, so that it reads the 413 instead of a reset) and nests at
  most :data:`MAX_DEPTH` deep;
* at most ``max_handlers`` connections are handled at once, at most :data:`PER_CLIENT`
  from one client address, and :data:`RESERVED` of them only for the *manager* (the
  address whose START the player accepted last); one more is answered 503
  (``Retry-After: 1``) at once, without reading its request;
* a body over :data:`SMALL_BODY` (only a START carries one: the rules) needs a permit:
  the manager has one of its own, other clients share :data:`MAX_LARGE`, one per address;
  without one, 503 without reading it, so the memory that parsing takes (tens of bytes per
  byte of message) is paid for a few large messages at a time;
* a request must arrive whole within :data:`READ_DEADLINE` seconds of its connection,
  however slowly its bytes trickle in;
* a body without ``Content-Length`` is read in linear time (:class:`MessageScanner`).
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote_plus

from plies.errors import PliesError
from plies.ggp.player import GgpPlayer, Reply
from plies.ggp.protocol import READY, MessageScanner, peek_keyword

log = logging.getLogger("plies.ggp")

MAX_BODY = 1 << 20
"""The largest request body accepted, in bytes (1 MiB): 27 times the largest description
in the shared game base (chess, 38 KB), and parsing it takes at most about 90 MB."""

SMALL_BODY = 16 << 10
"""Bodies up to this size (16 KiB: every message but a START of a large game) are read
without a large-body permit."""

MAX_LARGE = 2
"""Bodies over :data:`SMALL_BODY` read and parsed at once, from clients other than the
manager of the current (or last) match, which has a permit of its own."""

MAX_HANDLERS = 32
"""Connections handled at once (default of :class:`GgpServer`); the next is answered 503."""

PER_CLIENT = 8
"""Connections handled at once from one client address: one client cannot take them all."""

RESERVED = 4
"""Handler slots only the manager of the current (or last) match may take: a game
manager's message never waits behind an attacker's, however many addresses it has."""

MAX_DEPTH = 256
"""The deepest nesting of parentheses accepted in a message (GDL needs a few dozen)."""

READ_TIMEOUT = 10.0
"""Seconds a connection may stay silent while its request is being read."""

READ_DEADLINE = 10.0
"""Seconds from a connection's arrival by which its whole request must have been read."""

DISCARD_BYTES = 16 << 20
"""The most bytes of a refused request's body read and thrown away after the refusal, so
that its client can read the answer (16 MiB)."""

_DRAIN_SECONDS = 1.0  # how long a refused connection's unread bytes are discarded
_MAX_DRAINING = 256  # refused connections drained at once; beyond, closed at once

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
        # The play clock runs from receipt: the time the connection was accepted, before
        # this thread started (which takes a while on a loaded machine).
        self.received = self.server.accepted(self.request)
        self.server.reading(self, self.received + READ_DEADLINE)
        self._permit: threading.Semaphore | None = None
        try:
            super().handle()
        finally:
            self.server.reading(self, None)
            if self._permit is not None:
                self.server.release_large(self.client_address[0], self._permit)

    def do_POST(self) -> None:
        try:
            body = self._read_body()
        except _BadRequest as err:
            self._send(Reply(err.status, f"error: {err}"), retry=err.status == 503)
            self._discard_rest()
            return
        except OSError as err:  # the client went away, or was too slow (READ_DEADLINE)
            log.info("%s: request not read: %s", self.address_string(), err)
            self.close_connection = True
            return
        self.server.reading(self, None)
        self._answer(body)

    def do_GET(self) -> None:
        self.server.reading(self, None)
        # The whole path is the message: GDL variables start with "?", so a query string
        # cannot be told apart from a message that a tool did not encode.
        text = unquote_plus(self.path[1:] if self.path.startswith("/") else self.path)
        if not text.strip():
            self._send(Reply(400, "error: empty message; send one, e.g. GET /(info)"))
            return
        try:  # the request line is at most 64 KiB: the same caps as a body
            if len(text) > SMALL_BODY:
                self._large()
            scanner = MessageScanner()
            scanner.feed(text.encode("utf-8", errors="replace"))
            _check_depth(scanner)
        except _BadRequest as err:
            self._send(Reply(err.status, f"error: {err}"), retry=err.status == 503)
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
        elif reply.body == READY and peek_keyword(text) == "start":
            self.server.manager = self.client_address[0]
        self._send(reply)

    def _send(self, reply: Reply, *, retry: bool = False) -> None:
        data = reply.body.encode("utf-8")
        self.send_response(reply.status)
        kind = "text/acl" if reply.status == 200 else "text/plain; charset=utf-8"
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        if retry:
            self.send_header("Retry-After", "1")
        self.end_headers()
        try:
            self.wfile.write(data)
        except OSError:  # the manager gave up on us; nothing to do
            log.warning("the client closed the connection before the reply")

    def _discard_rest(self) -> None:
        """After refusing a request whose body was not read: end the reply and discard
        what the client still sends (at most :data:`DISCARD_BYTES`, until the request's
        :data:`READ_DEADLINE`), then close.  Closing a socket with unread bytes resets
        the connection, and a client still writing its body (a manager sending a 2 MiB
        message) would get a broken pipe instead of the answer."""
        self.close_connection = True
        sock = self.connection
        left = DISCARD_BYTES
        try:
            sock.shutdown(socket.SHUT_WR)  # the answer is whole: the client may read it
            while left > 0:
                wait = self.received + READ_DEADLINE - time.perf_counter()
                if wait <= 0:
                    break
                sock.settimeout(wait)
                chunk = sock.recv(min(65536, left))
                if not chunk:  # the client has read the answer and closed
                    break
                left -= len(chunk)
        except OSError:  # reset, timed out, or cut at the read deadline
            pass

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
            if n > MAX_BODY:  # refused before reading a byte of it
                raise _BadRequest(413, f"request body of {n} bytes is over {MAX_BODY}")
            if n > SMALL_BODY:
                self._large()
            data = self._read_exact(n)
            scanner = MessageScanner()
            scanner.feed(data)
        elif "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            data, scanner = self._read_chunked()
        else:
            data, scanner = self._read_until_closed()
        _check_depth(scanner)
        return data.decode("utf-8", errors="replace")

    def _large(self) -> None:
        """Take a large-body permit (released when the request ends), or refuse."""
        if self._permit is None:
            self._permit = self.server.acquire_large(self.client_address[0])
            if self._permit is None:
                raise _BadRequest(503, "busy with another large message; try again")

    def _read_exact(self, n: int) -> bytes:
        parts: list[bytes] = []
        left = n
        while left > 0:
            chunk = self.rfile.read1(min(left, 65536))
            if not chunk:
                raise _BadRequest(400, f"the body ended after {n - left} of {n} bytes")
            parts.append(chunk)
            left -= len(chunk)
        return b"".join(parts)

    def _read_chunked(self) -> tuple[bytes, MessageScanner]:
        parts: list[bytes] = []
        scanner = MessageScanner()
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
            if total > SMALL_BODY:
                self._large()
            part = self._read_exact(size)
            scanner.feed(part)
            parts.append(part)
            self.rfile.readline(1024)
        return b"".join(parts), scanner

    def _read_until_closed(self) -> tuple[bytes, MessageScanner]:
        """A body without a length: read until the message's parentheses balance, the
        client closes its side, or it stays silent for :data:`READ_TIMEOUT`.  Each byte
        is scanned once (:class:`MessageScanner`) and the parts are joined once."""
        parts: list[bytes] = []
        scanner = MessageScanner()
        while not scanner.complete:
            try:
                chunk = self.rfile.read1(65536)
            except TimeoutError:
                break
            if not chunk:
                break
            if scanner.scanned + len(chunk) > MAX_BODY:
                raise _BadRequest(413, f"request body is over {MAX_BODY} bytes")
            if scanner.scanned + len(chunk) > SMALL_BODY:
                self._large()
            scanner.feed(chunk)
            parts.append(chunk)
        return b"".join(parts), scanner

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s " + format, self.address_string(), *args)


class _BadRequest(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _check_depth(scanner: MessageScanner) -> None:
    if scanner.max_depth > MAX_DEPTH:
        raise _BadRequest(
            400, f"the message nests {scanner.max_depth} deep; at most {MAX_DEPTH} is accepted"
        )


_BUSY_BODY = b"error: too many requests at once; try again\n"
_BUSY_RESPONSE = (
    b"HTTP/1.0 503 Service Unavailable\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\n"
    + f"Content-Length: {len(_BUSY_BODY)}\r\n".encode("ascii")
    + b"Retry-After: 1\r\n"
    b"Access-Control-Allow-Origin: *\r\n"
    b"\r\n" + _BUSY_BODY
)


def _drain(sock: socket.socket) -> bool:
    """Discard what a refused client sent; False once it has closed its side."""
    try:
        while True:
            if not sock.recv(65536):
                return False
    except BlockingIOError:
        return True
    except OSError:
        return False


def _address(client_address: Any) -> str:
    """The host part of a client's address (what the per-client caps count by)."""
    if isinstance(client_address, tuple) and client_address:
        return str(client_address[0])
    return str(client_address)


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
    request_queue_size = 64

    def __init__(
        self,
        player: GgpPlayer,
        host: str = "127.0.0.1",
        port: int = 9147,
        *,
        max_handlers: int = MAX_HANDLERS,
    ) -> None:
        if max_handlers < 1:
            raise ValueError(f"max_handlers must be >= 1, got {max_handlers}")
        self.player = player
        self.max_handlers = max_handlers
        self.handlers = 0  # connections handled now
        self.clients: dict[str, int] = {}  # connections handled now, per client address
        self.large = threading.BoundedSemaphore(MAX_LARGE)
        self.manager_large = threading.BoundedSemaphore(1)
        self.large_clients: set[str] = set()  # addresses holding a shared large permit
        self.manager: str | None = None  # the address whose START was accepted last
        self.refused = 0  # connections answered 503 because every handler was busy
        self._thread: threading.Thread | None = None
        self._guard = threading.Lock()
        self._deadlines: dict[GgpRequestHandler, float] = {}
        self._holding: dict[int, str] = {}  # connections holding a slot: their address
        self._accepted: dict[int, float] = {}  # ... and when each was accepted
        self._per_client = min(PER_CLIENT, max_handlers)
        self._reserved = min(RESERVED, max_handlers // 4)
        self._draining: list[tuple[socket.socket, float]] = []
        try:
            super().__init__((host, port), GgpRequestHandler)
        except OSError as err:
            raise ServeError(f"cannot listen on {host}:{port}: {err.strerror or err}") from None

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

    # -- caps ------------------------------------------------------------------------------

    def process_request(self, request: Any, client_address: Any) -> None:
        """Hand the connection to a handler thread if a slot is free for its client
        (see the module docstring's caps); else answer 503 at once, in the accepting
        thread, without reading the request."""
        now = time.perf_counter()
        address = _address(client_address)
        if not self._admit(id(request), address, now):
            self._refuse(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:  # e.g. Ctrl-C while the thread starts: it may release too
            self._release(request)
            raise

    def _admit(self, key: int, address: str, now: float | None = None) -> bool:
        with self._guard:
            # The manager's slots are kept for it (never all taken by others), and one
            # address never holds more than PER_CLIENT.
            room = self.max_handlers - (0 if address == self.manager else self._reserved)
            if self.handlers >= room or self.clients.get(address, 0) >= self._per_client:
                return False
            self.handlers += 1
            self.clients[address] = self.clients.get(address, 0) + 1
            self._holding[key] = address
            self._accepted[key] = time.perf_counter() if now is None else now
            return True

    def accepted(self, request: Any) -> float:
        """When ``request``'s connection was accepted (``time.perf_counter``)."""
        with self._guard:
            return self._accepted.get(id(request), time.perf_counter())

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._release(request)

    def _release(self, request: Any) -> None:
        """Give back ``request``'s handler slot, once, whichever thread asks first."""
        with self._guard:
            address = self._holding.pop(id(request), None)
            self._accepted.pop(id(request), None)
            if address is None:
                return
            self.handlers -= 1
            left = self.clients[address] - 1
            if left:
                self.clients[address] = left
            else:
                del self.clients[address]

    def acquire_large(self, address: str) -> threading.Semaphore | None:
        """A permit to read and parse a large body from ``address``, or None: the
        manager's own permit, else one of the shared ones (one per address)."""
        if address == self.manager and self.manager_large.acquire(blocking=False):
            return self.manager_large
        with self._guard:
            if address in self.large_clients or not self.large.acquire(blocking=False):
                return None
            self.large_clients.add(address)
        return self.large

    def release_large(self, address: str, permit: threading.Semaphore) -> None:
        if permit is self.large:
            with self._guard:
                self.large_clients.discard(address)
        permit.release()

    def _refuse(self, request: socket.socket) -> None:
        self.refused += 1
        try:
            request.setblocking(False)
            request.send(_BUSY_RESPONSE)  # a few hundred bytes: fits an empty send buffer
            request.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        if len(self._draining) < _MAX_DRAINING:
            # Closing a socket with unread bytes resets it, and the client may lose the
            # 503: discard what it sends for a moment (service_actions), then close.
            self._draining.append((request, time.monotonic() + _DRAIN_SECONDS))
        else:
            request.close()

    def reading(self, handler: GgpRequestHandler, deadline: float | None) -> None:
        """Note that ``handler`` must have read its request by ``deadline``
        (``time.perf_counter``), or that it has (None)."""
        with self._guard:
            if deadline is None:
                self._deadlines.pop(handler, None)
            else:
                self._deadlines[handler] = deadline

    def service_actions(self) -> None:
        """Between two accepts: cut the connections past :data:`READ_DEADLINE`, and drain
        and close the refused ones."""
        now = time.perf_counter()
        with self._guard:
            late = [h for h, deadline in self._deadlines.items() if deadline < now]
            for handler in late:
                del self._deadlines[handler]
        for handler in late:
            log.info("%s: request not read within %gs; closing", handler.address_string(),
                     READ_DEADLINE)
            with contextlib.suppress(OSError):
                handler.connection.shutdown(socket.SHUT_RDWR)
        if self._draining:
            clock = time.monotonic()
            keep: list[tuple[socket.socket, float]] = []
            for sock, until in self._draining:
                if clock < until and _drain(sock):
                    keep.append((sock, until))
                else:
                    sock.close()
            self._draining = keep

    def server_close(self) -> None:
        for sock, _ in self._draining:
            sock.close()
        self._draining = []
        super().server_close()

    def handle_error(self, request: Any, client_address: Any) -> None:
        log.exception("error while serving %s", client_address)

    def __enter__(self) -> GgpServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
