"""The ``plies`` command's machinery: the command table, the parser and :func:`main`.

Every user mistake (unknown game, malformed tree file, illegal move, bad option) is a
:class:`plies.errors.PliesError`; :func:`main` turns it into one line on stderr and exit
code 2.  Each command is a module of its own (:data:`COMMAND_MODULES`).
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from rich.console import Console

from plies.cli.args import ArgumentParser, search_arguments
from plies.errors import PliesError, UsageError

__all__ = ["COMMAND_MODULES", "UsageError", "build_parser", "ctrl_c_twice_exits", "main", "run"]


# --- the commands -----------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The ``plies`` argument parser: a sub-command for each of :data:`COMMAND_MODULES`."""
    parser = ArgumentParser(prog="plies", description="Adversarial search: minimax and its family.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=ArgumentParser)
    common = search_arguments()
    for module in _command_modules():
        module.register(sub, common)
    return parser


# The commands, in the order ``plies --help`` lists them, and the module of each.  A
# module has ``register(sub, common)`` to add its sub-parser(s) (``common``: the shared
# search arguments, :func:`plies.cli.args.search_arguments`) and ``run(console, args)
# -> int``; it imports its heavy dependencies only inside ``run``, so ``plies --help``
# stays fast.  One module may serve several commands (solve and analyze).
COMMAND_MODULES: dict[str, str] = {
    "games": "plies.cli.games",
    "demo": "plies.cli.demo",
    "solve": "plies.cli.solve",
    "analyze": "plies.cli.solve",
    "trace": "plies.cli.trace",
    "play": "plies.cli.play",
    "tree": "plies.cli.tree",
    "ggp": "plies.ggp.cli",
    "web": "plies.cli.web",
    "tournament": "plies.cli.tournament",
    "check": "plies.cli.check",
    "uci": "plies.cli.uci",
    "learn": "plies.cli.learn",
}


def _command_modules() -> list[Any]:
    return [importlib.import_module(name) for name in dict.fromkeys(COMMAND_MODULES.values())]


# --- entry point --------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``plies`` command; returns the exit code (0 ok, 2 user error, 130 Ctrl-C).

    Ctrl-C stops the command, its worker processes included, and prints
    ``plies: interrupted``; a second Ctrl-C while it stops exits at once, quietly.
    """
    with ctrl_c_twice_exits():
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    # markup=False: action names and tree labels may contain "[...]".  Text goes through
    # say (soft-wrapped); tables wrap their cells to the console width.
    console = Console(highlight=False, markup=False)
    errors = Console(stderr=True, highlight=False, markup=False, soft_wrap=True)
    try:
        args = build_parser().parse_args(argv)
        module: Any = importlib.import_module(COMMAND_MODULES[args.command])
        return int(module.run(console, args))
    except PliesError as err:
        errors.print(f"plies: error: {err}")
        return 2
    except KeyboardInterrupt:
        errors.print("plies: interrupted")
        return 130


@contextmanager
def ctrl_c_twice_exits() -> Iterator[None]:
    """The first Ctrl-C raises KeyboardInterrupt as usual; from then on a Ctrl-C ends the
    process at once with code 130 and no traceback (its worker processes terminated).

    The second stage stays armed after the block: the process is on its way out, and a
    Ctrl-C while it waits at exit must not print a traceback either.  Nothing changes
    unless Python's own handler is in place in the main thread (a program that embeds
    ``main`` keeps its own).
    """
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    armed = False

    def exit_now(signum: int, frame: Any) -> None:
        processes = sys.modules.get("multiprocessing")  # never imported: no workers
        for child in processes.active_children() if processes is not None else ():
            child.terminate()
        os._exit(130)

    def interrupt(signum: int, frame: Any) -> None:
        nonlocal armed
        armed = True
        signal.signal(signal.SIGINT, exit_now)
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, interrupt)
    try:
        yield
    finally:
        if not armed:
            signal.signal(signal.SIGINT, signal.default_int_handler)


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()
