"""``plies ggp serve``: run a General Game Playing player that game managers can hire.

    plies ggp serve --port 9147 [--host 127.0.0.1] [--margin 1] [--name plies]
    plies ggp match GAME.kif --player URL ... [--start 10] [--play 5]   (plies.ggp.matchcli)

A command module (``register``/``run``, :mod:`plies.cli.registry`) that plies' own
``pyproject.toml`` declares as the entry point ``ggp`` of the group ``plies.commands``: GGP
reaches the core only through the command registry.  The player logs every match
(start, each move with how it was found, the final goals) to the terminal until Ctrl-C.
"""

from __future__ import annotations

import argparse
import logging
import math
import signal
import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if math.isnan(value) or value < 0 or math.isinf(value):
        raise argparse.ArgumentTypeError(f"the margin must be >= 0 seconds, got {text!r}")
    return value


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"ports are 0..65535, got {value}")
    return value


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add ``ggp`` (with its ``serve`` and ``match`` subcommands) to the ``plies`` parser."""
    ggp = sub.add_parser(
        "ggp", help="General Game Playing: serve a player over HTTP, or run a match"
    )
    commands = ggp.add_subparsers(dest="ggp_command", required=True, parser_class=type(ggp))
    from plies.ggp.matchcli import register_match  # ``plies ggp match``

    register_match(commands)
    serve = commands.add_parser(
        "serve",
        help="answer a GGP game manager's START/PLAY/STOP messages over HTTP",
        description="Serve a General Game Playing player: it plays any game written in GDL "
        "that a game manager (e.g. ggp-base's GameServer) sends it.",
    )
    serve.add_argument("--port", type=_port, default=9147, help="TCP port (default 9147)")
    serve.add_argument(
        "--host", default="127.0.0.1",
        help="address to bind (default 127.0.0.1; 0.0.0.0 exposes the player to the network)",
    )
    serve.add_argument(
        "--margin", type=_seconds, default=None,
        help="seconds kept back from every clock for latency and load (default 1)",
    )
    serve.add_argument("--name", default="plies", help="the name INFO reports (default plies)")
    serve.add_argument(
        "--mode", choices=["auto", "alphabeta", "montecarlo", "mcts"], default="auto",
        help="how moves are chosen: alphabeta, montecarlo (flat playouts), mcts (UCT with "
        "the tree kept across moves) or auto (default: metagaming chooses UCT or alpha-beta)",
    )
    serve.add_argument(
        "--simultaneous", choices=["mixed", "pessimistic"], default="mixed",
        help="steps where several roles choose, when alpha-beta plays them: a mixed "
        "strategy of the stage game (default) or the pessimistic sequentialisation (a "
        "pure move); UCT plays its decoupled statistics' mixed strategy",
    )
    serve.add_argument(
        "--seed", type=int, default=None,
        help="seed for the random playouts and the draws of mixed strategies",
    )
    serve.add_argument("--quiet", action="store_true", help="log only warnings")


def run(console: Console, args: argparse.Namespace) -> int:
    """Serve until interrupted (or run ``plies ggp match``); returns the exit code."""
    if args.ggp_command == "match":
        from plies.ggp.matchcli import run_match

        return run_match(console, args)
    from plies.ggp.player import DEFAULT_MARGIN, GgpPlayer
    from plies.ggp.server import GgpServer

    if args.margin is None:
        args.margin = DEFAULT_MARGIN
    player = GgpPlayer(
        args.name, margin=args.margin, mode=args.mode, seed=args.seed,
        simultaneous=args.simultaneous,
    )
    server = GgpServer(player, args.host, args.port)
    handler = _ConsoleHandler(console)
    logger = logging.getLogger("plies.ggp")
    logger.addHandler(handler)
    logger.setLevel(logging.WARNING if args.quiet else logging.INFO)
    logger.propagate = False
    previous = _stop_on_sigterm()
    try:
        console.print(
            f"plies GGP player {args.name!r} listening on {server.url} "
            f"(margin {args.margin:g}s, mode {args.mode}); Ctrl-C stops",
            soft_wrap=True,
        )
        server.serve_forever()
    except KeyboardInterrupt:
        console.print("stopped", soft_wrap=True)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        logger.removeHandler(handler)
        server.player.close()
        server.server_close()
    return 0


def _stop_on_sigterm() -> Any:
    """Let SIGTERM (``kill``, a container stopping) end serving like Ctrl-C does.

    Returns the previous handler, or None when not in the main thread (where Python
    cannot install one)."""
    if threading.current_thread() is not threading.main_thread():
        return None

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    return signal.signal(signal.SIGTERM, interrupt)


class _ConsoleHandler(logging.Handler):
    """Log records as plain lines on the Rich console (never read as markup)."""

    def __init__(self, console: Console) -> None:
        super().__init__()
        self.console = console

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = record.getMessage()
            if record.exc_info and record.levelno >= logging.ERROR:
                text += f" ({record.exc_info[1]!r})"
            prefix = "" if record.levelno <= logging.INFO else f"{record.levelname.lower()}: "
            self.console.print(prefix + text, soft_wrap=True, markup=False, highlight=False)
        except Exception:
            self.handleError(record)
