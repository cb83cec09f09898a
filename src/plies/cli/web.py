"""``plies web``: serve the web app (play and inspect searches in a browser).

The server binds to 127.0.0.1 unless ``--host`` says otherwise, and then answers only
requests addressed to a loopback name (a guard against DNS rebinding).  Starlette and
uvicorn are imported only when the command runs, so ``plies --help`` stays fast.
"""

from __future__ import annotations

import argparse
import ipaddress
import socket
import threading
import time
import webbrowser
from typing import Any

from rich.console import Console

from plies.errors import PliesError


class WebError(PliesError):
    """The web app cannot start (a missing package, a port in use)."""


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0..65535 (0: any free port), got {port}")
    return port


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add ``plies web [--host H] [--port P] [--no-browser] [--game SPEC] [--workers N]
    [--queue N] [--worker-memory MB]`` to the subparsers ``sub``."""
    p = sub.add_parser(
        "web", help="play and inspect searches in the browser",
        description="Serve the plies web app: play any game against the engine, see the "
        "value of every move and the tree of a search.",
    )
    p.add_argument("--host", default="127.0.0.1",
                   help="interface to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=_port, default=8000, help="port (default 8000; 0: any free)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser tab")
    p.add_argument(
        "--game", action="append", default=[], metavar="SPEC",
        help="offer this game too: module:attribute of your own game, a .tree/.json or a "
        ".kif file, or openspiel:NAME (repeatable)",
    )
    p.add_argument("--workers", type=_count("workers", 1, 64), default=2, metavar="N",
                   help="processes that run searches and GDL games (default 2)")
    p.add_argument("--queue", type=_count("queue", 0, 10_000), default=None, metavar="N",
                   help="searches that may wait for a worker before the server answers 503 "
                   "(default: twice --workers)")
    p.add_argument("--worker-memory", type=_count("worker-memory", 64, 1 << 20), default=1024,
                   metavar="MB", help="memory a worker may use, in MB (default 1024); a "
                   "request that needs more gets an error")


def _count(what: str, low: int, high: int) -> Any:
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text[:40]!r}") from None
        if not low <= n <= high:
            raise argparse.ArgumentTypeError(f"--{what} is {low}..{high:,}, got {text[:40]}")
        return n
    return parse


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only (127.0.0.0/8, ::1, localhost)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``(host, port)`` and listening; :class:`WebError` when that is
    impossible."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as err:
        raise WebError(f"cannot listen on {host}: {err.strerror or err}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as err:
        sock.close()
        hint = "; try another --port" if port else ""
        raise WebError(f"cannot listen on {host}:{port}: {err.strerror or err}{hint}") from None
    sock.listen(2048)  # connections wait in the backlog until the server is up
    return sock


def run(console: Console, args: argparse.Namespace) -> int:
    """Serve until interrupted (Ctrl+C); returns the exit code."""
    try:  # Starlette and uvicorn, or one line that says how to install them
        import plies.web.app
        import plies.web.server  # noqa: F401
    except ImportError as err:
        raise WebError(
            f"the web app needs Starlette and uvicorn ({err.name or err} is missing): "
            "pip install 'plies[web]'"
        ) from None
    from plies.web.api import serve_games, withdraw_games

    added = serve_games(args.game)  # before listening: a bad spec is a one-line error
    try:
        return _serve(console, args, added)
    finally:
        withdraw_games(added)


def _serve(console: Console, args: argparse.Namespace, added: list[str]) -> int:
    """Listen, print where, and serve until interrupted."""
    from plies.web.app import LOOPBACK_HOSTS, create_app
    from plies.web.pool import MB
    from plies.web.server import Server, config

    sock = listen(args.host, args.port)
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{shown}:{port}/"
    loopback = is_loopback(args.host)
    app = create_app(
        allowed_hosts=LOOPBACK_HOSTS if loopback else None, workers=args.workers,
        queue=args.queue, memory=args.worker_memory * MB, specs=args.game,
    )
    server = Server(config(app), on_shutdown=app.state.pool.stop)
    console.print(f"plies web: serving on {url} (Ctrl+C to stop)", soft_wrap=True)
    if added:
        console.print(f"plies web: also offering {', '.join(added)}", soft_wrap=True)
    if not loopback:
        console.print(
            f"warning: listening on {args.host}: anyone who can reach this machine can use "
            "the app", soft_wrap=True,
        )
    console.file.flush()  # the URL line must reach a pipe before the server blocks
    if not args.no_browser:
        threading.Thread(target=_open_when_started, args=(server, url), daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    return 0


def _open_when_started(server: Any, url: str, wait: float = 10.0) -> None:
    deadline = time.monotonic() + wait
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    if server.started:
        webbrowser.open(url)
