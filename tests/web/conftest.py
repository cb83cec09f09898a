"""Fixtures of the web tests: a real uvicorn server on 127.0.0.1 and an ephemeral port."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from plies.cli.web import listen
from plies.web.app import LOOPBACK_HOSTS, create_app
from plies.web.server import Server, config


@contextmanager
def serving(app: Any, **options: Any) -> Iterator[str]:
    """Serve ``app`` with uvicorn (the guards of :func:`plies.web.server.config`, with
    ``options``) in a thread on 127.0.0.1; the base URL inside; stopped, workers and all,
    on the way out, even on failure."""
    sock = listen("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = Server(config(app, **options), on_shutdown=app.state.pool.stop)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the uvicorn server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


@pytest.fixture(scope="module")
def live_server() -> Iterator[str]:
    """The base URL (``http://127.0.0.1:PORT``) of the app served by uvicorn in a thread."""
    with serving(create_app(allowed_hosts=LOOPBACK_HOSTS)) as url:
        yield url
