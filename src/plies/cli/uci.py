"""``plies uci``: speak UCI on standard input and output (for chess GUIs and python-chess).

Registered by :mod:`plies.cli` (``register``/``run``).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add ``uci`` to the ``plies`` argument parser."""
    sub.add_parser(
        "uci", help="a chess engine speaking UCI on stdin/stdout (for GUIs and python-chess)",
        description="Run plies as a UCI chess engine: it reads commands on standard input "
        "and answers on standard output until 'quit'.",
    )


def run(console: Console, args: argparse.Namespace) -> int:
    """Serve UCI until ``quit``, the end of input or of output; returns the exit code."""
    from plies.uci.protocol import serve

    if sys.stdout is None:  # started with its output closed: no answer can be given
        return 0

    def send(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    stdin: Any = sys.stdin
    if hasattr(stdin, "reconfigure"):  # bytes that are not UTF-8 must not end the engine
        stdin.reconfigure(errors="replace")
    serve(stdin, send)
    return 0
