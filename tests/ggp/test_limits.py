"""No request takes the GGP player down: message size, nesting, concurrency and slow
clients are capped (issue 11).

Before: a 15 MiB message was read and parsed (1.3 GB; three at once 3.75 GB), a body
without Content-Length was re-scanned after every chunk (quadratic), and every
connection got a thread of its own, without limit.
"""

from __future__ import annotations

import socket
import threading
import time
import tracemalloc
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import pytest

import plies.ggp.server as server_module
from plies.ggp.manager import HttpReply, parse_response, post, raw_request
from plies.ggp.player import GgpPlayer
from plies.ggp.protocol import MessageScanner
from plies.ggp.server import MAX_BODY, MAX_DEPTH, SMALL_BODY, GgpServer
from tests.ggp.helpers import read_reply
from tests.ggp.test_server import AVAILABLE, rules_list

ATTEMPTS = 100
"""Polls of a condition that another thread brings about (each 0.05 s apart at most)."""


def raw(server: GgpServer, data: bytes) -> HttpReply:
    answer, latency = raw_request(server.host, server.port, data, timeout=5.0)
    return parse_response(answer, latency)


@contextmanager
def held_connections(server: GgpServer, n: int, first: bytes) -> Iterator[list[socket.socket]]:
    """``n`` connections that sent ``first`` and then nothing; closed afterwards."""
    with ExitStack() as stack:
        socks = []
        for _ in range(n):
            sock = stack.enter_context(socket.create_connection((server.host, server.port), 5))
            sock.sendall(first)
            socks.append(sock)
        yield socks


def until(condition: object, what: str) -> None:
    for _ in range(ATTEMPTS):
        if callable(condition) and condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"never happened: {what}")


def permit_taken(server: GgpServer) -> bool:
    return bool(server.large_clients)


def test_oversized_message_is_refused_without_reading_it(server: GgpServer) -> None:
    size = 15 * 1024 * 1024
    with socket.create_connection((server.host, server.port), timeout=5) as sock:
        tracemalloc.start()
        try:
            # Only the headers: a server that waited for the body would time this out.
            sock.sendall(f"POST / HTTP/1.0\r\nContent-Length: {size}\r\n\r\n(info".encode())
            reply = read_reply(sock)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert reply.status == 413 and f"over {MAX_BODY}" in reply.body
    assert peak < 1024 * 1024  # bytes allocated while refusing, in every thread
    assert post(server.host, server.port, "(info)").body == AVAILABLE


def test_a_client_still_sending_an_oversized_body_reads_the_413(server: GgpServer) -> None:
    """Regression: the refused body was left unread and the socket closed, which resets
    the connection: a client still writing its body (as ggp-base's manager writes a whole
    message before it reads) got a broken pipe, not the answer.  Here the body is sent
    only once the 413 has arrived, when the server has certainly answered."""
    body = b"(info " + b"x" * (2 * MAX_BODY) + b")"
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        # A small send buffer: each piece below waits for the server's acknowledgement,
        # so the reset of a closed socket arrives before the next one is written.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8192)
        sock.settimeout(30)
        sock.connect((server.host, server.port))
        sock.sendall(f"POST / HTTP/1.0\r\nContent-Length: {len(body)}\r\n\r\n".encode())
        assert sock.recv(1, socket.MSG_PEEK)  # the answer has begun
        for start in range(0, len(body), 16384):
            sock.sendall(body[start : start + 16384])  # a broken pipe if the server closed
        reply = read_reply(sock)
    assert reply.status == 413 and f"over {MAX_BODY}" in reply.body
    assert post(server.host, server.port, "(info)").body == AVAILABLE


def test_oversized_chunked_body_is_refused_without_reading_it(server: GgpServer) -> None:
    reply = raw(
        server,
        b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        + f"{MAX_BODY + 1:x}\r\n(info".encode(),
    )
    assert reply.status == 413
    assert post(server.host, server.port, "(info)").body == AVAILABLE


def test_body_without_content_length_is_read_in_linear_time(
    server: GgpServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Count the bytes scanned: each byte of the body once, however many pieces it
    # arrives in (the old reader re-scanned the whole body after every piece).
    fed: list[int] = []
    original = MessageScanner.feed

    def counting(self: MessageScanner, data: bytes) -> None:
        fed.append(len(data))
        original(self, data)

    monkeypatch.setattr(MessageScanner, "feed", counting)
    body = b"(info " + b"(a b) " * 5000 + b")"
    assert SMALL_BODY < len(body) < MAX_BODY
    with socket.create_connection((server.host, server.port), timeout=5) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.sendall(b"POST / HTTP/1.0\r\n\r\n")
        for k in range(0, len(body), 300):
            sock.sendall(body[k : k + 300])
            if k % 3000 == 0:
                time.sleep(0.002)  # let the server read a piece at a time
        reply = read_reply(sock)
    assert (reply.status, reply.body) == (200, AVAILABLE)
    assert sum(fed) == len(body)
    assert len(fed) >= 10  # it did arrive in pieces


def test_concurrent_requests_are_capped() -> None:
    server = GgpServer(GgpPlayer(seed=1), "127.0.0.1", 0, max_handlers=4).start()
    try:
        with held_connections(server, 4, b"POST / HTTP/1.0\r\n"):
            refused: list[HttpReply] = []

            def one_refused() -> bool:
                reply = raw(server, b"POST / HTTP/1.0\r\nContent-Length: 6\r\n\r\n(info)")
                if reply.status == 503:
                    refused.append(reply)
                return bool(refused)

            until(one_refused, "a fifth connection answered 503")
            assert refused[0].headers["retry-after"] == "1"
            assert "too many requests" in refused[0].body
            assert server.refused >= 1
        # The held connections closed: their handlers end and INFO is served again.
        until(
            lambda: post(server.host, server.port, "(info)").status == 200,
            "INFO served once the connections closed",
        )
    finally:
        server.stop()


def test_a_second_large_message_at_once_is_refused_without_reading_it(
    server: GgpServer,
) -> None:
    large = SMALL_BODY + 1000
    head = f"POST / HTTP/1.0\r\nContent-Length: {large}\r\n\r\n(info ".encode()
    with held_connections(server, 1, head):  # holds the one large-body permit
        until(lambda: permit_taken(server), "the first large body being read")
        reply = raw(server, head)  # no body: refused without waiting for it
        assert reply.status == 503 and "another large message" in reply.body
        assert reply.headers["retry-after"] == "1"
        assert post(server.host, server.port, "(info)").body == AVAILABLE  # small: served
    until(lambda: not permit_taken(server), "the permit released once the client left")
    body = b"(info " + b"a " * (large // 2) + b")"
    reply = raw(server, b"POST / HTTP/1.0\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
    assert (reply.status, reply.body) == (200, AVAILABLE)


def test_a_request_trickling_in_is_cut_at_the_read_deadline(
    server: GgpServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server_module, "READ_DEADLINE", 0.3)
    closed = False
    with socket.create_connection((server.host, server.port), timeout=5) as sock:
        sock.sendall(b"POST / HTTP/1.0\r\n")
        for _ in range(ATTEMPTS):  # one header byte at a time, never finishing
            try:
                sock.sendall(b"X")
                sock.settimeout(0.05)
                if sock.recv(1024) == b"":
                    closed = True
                    break
            except TimeoutError:
                continue
            except OSError:
                closed = True
                break
    assert closed
    assert post(server.host, server.port, "(info)").body == AVAILABLE


def test_deeply_nested_message_is_refused(server: GgpServer) -> None:
    depth = MAX_DEPTH + 10
    reply = post(server.host, server.port, "(info " + "(" * depth + ")" * depth + ")")
    assert reply.status == 400 and f"nests {depth + 1} deep" in reply.body
    reply = raw(server, b"GET /(info" + b"%28" * depth + b"%29" * depth + b") HTTP/1.0\r\n\r\n")
    assert reply.status == 400 and f"nests {depth + 1} deep" in reply.body
    assert post(server.host, server.port, "(info)").body == AVAILABLE


def test_start_while_busy_is_answered_without_parsing_its_rules(server: GgpServer) -> None:
    game = rules_list("buttons")
    assert post(server.host, server.port, f"(start m1 robot {game} 5 1)").body == "ready"
    # Rules that do not even parse: a busy player does not look at them.
    reply = post(server.host, server.port, "(start m2 robot ((((( 5 1)")
    assert (reply.status, reply.body) == (200, "busy")
    assert post(server.host, server.port, "(abort m1)").body == "aborted"


def test_a_signal_while_a_handler_thread_starts_stops_the_server_and_frees_its_slot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Regression: SIGTERM landed in the accepting thread while it started a handler thread
    # that had already answered and given back its slot; the accepting thread gave it back
    # again, "Semaphore released too many times" replaced the signal's exception, and the
    # player kept serving instead of stopping.
    import socketserver

    started = socketserver.ThreadingMixIn.process_request

    def start_then_interrupt(self: GgpServer, request: socket.socket, address: object) -> None:
        started(self, request, address)
        for thread in threading.enumerate():  # the handler runs to its end first
            if thread is not threading.current_thread() and thread.name.startswith("Thread"):
                thread.join(5)
        raise KeyboardInterrupt

    monkeypatch.setattr(socketserver.ThreadingMixIn, "process_request", start_then_interrupt)
    server = GgpServer(GgpPlayer(seed=1), "127.0.0.1", 0, max_handlers=2)
    try:
        client = socket.create_connection((server.host, server.port))
        client.sendall(b"POST / HTTP/1.0\r\nContent-Length: 6\r\n\r\n(info)")
        request, address = server.get_request()
        with pytest.raises(KeyboardInterrupt):
            server.process_request(request, address)
        assert read_reply(client).status == 200
        client.close()
        # Both slots are free: two more admissions succeed, a third does not.
        assert server.handlers == 0 and not server.clients
        assert server._admit(1, "127.0.0.1") and server._admit(2, "127.0.0.1")
        assert not server._admit(3, "127.0.0.1")
    finally:
        server.server_close()
