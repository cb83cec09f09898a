"""The ``plies`` command's machinery: the parser and :func:`main`.

Every user mistake (unknown game, malformed tree file, illegal move, bad option) is a
:class:`plies.errors.PliesError`; :func:`main` turns it into one line on stderr and exit
code 2.  Each command is a module of its own, found in the command registry
(:mod:`plies.cli.registry`, open to plug-ins); a command line imports only the module of
the command it names.
"""

from __future__ import annotations

import _thread
import argparse
import errno
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from types import FrameType
from typing import Any

from rich.console import Console

from plies._startup import interrupted, say_interrupted
from plies.cli.args import ArgumentParser, search_arguments
from plies.cli.registry import COMMAND_MODULES, COMMANDS, modules
from plies.errors import PliesError, UsageError
from plies.plugins import PluginError
from plies.version import __version__

__all__ = ["COMMAND_MODULES", "UsageError", "build_parser", "ctrl_c_twice_exits", "main", "run"]


# --- the commands -----------------------------------------------------------------------


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The ``plies`` argument parser: a sub-command for each command of the registry
    (:data:`~plies.cli.registry.COMMANDS`).

    With ``argv`` that names a command, only that command's module is imported and
    registered (a command starts without importing the others); otherwise (``--help``, a
    mistyped command) every one is.  A plug-in command that cannot be used gets a
    sub-command that says why (see :mod:`plies.cli.registry`).  Each sub-parser's
    defaults carry the module that runs it (``args.command_module``), or the problem
    (``args.command_problem``).
    """
    parser = ArgumentParser(
        prog="plies", description="Adversarial search: minimax and its family.",
        epilog="'plies COMMAND --help' tells more about each command.",
    )
    parser.add_argument(
        "--version", action="version", version=f"plies {__version__}",
        help="print the version of plies and exit",
    )
    # Not required: 'plies' alone prints this help (see _main).
    sub = parser.add_subparsers(
        dest="command", metavar="COMMAND", parser_class=ArgumentParser,
        title="commands",
    )
    common = search_arguments()
    wanted = _command_word(argv)
    groups = modules()
    if wanted is not None and any(wanted in names for _, names in groups):
        groups = [(target, names) for target, names in groups if wanted in names]
    for _, names in groups:
        _register(sub, common, names)
    ignored = [str(p) for p in COMMANDS.ignored()] if wanted is None else []
    if ignored:
        parser.epilog = f"{parser.epilog} Ignored: {' '.join(ignored)}"
    return parser


def _command_word(argv: Sequence[str] | None) -> str | None:
    """The command ``argv`` names: its first word, unless that is an option."""
    if argv is None or not argv or argv[0].startswith("-"):
        return None
    return argv[0]


def _register(sub: Any, common: argparse.ArgumentParser, names: list[str]) -> None:
    """Let the module that serves ``names`` add its sub-parsers; a plug-in that cannot
    gets one sub-parser per name that says why."""
    before = set(sub.choices)
    try:
        module = COMMANDS.load(names[0])
        module.register(sub, common)
    except PluginError as err:
        problem = err
    except Exception as exc:  # a plug-in's register(); a built-in's raises (a bug of plies)
        entry = COMMANDS.entry(names[0])
        if entry is None or entry.builtin:
            raise
        problem = PluginError(
            f"plug-in command {names[0]!r} ({entry.origin()}) cannot be used: its "
            f"register() raised {type(exc).__name__}: {exc}"
        )
    else:
        for name in set(sub.choices) - before:
            sub.choices[name].set_defaults(command_module=module)
        return
    for name in names:
        if name not in sub.choices:
            broken = sub.add_parser(name, help=str(problem), add_help=False)
            broken.set_defaults(command_problem=problem)


# --- entry point --------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``plies`` command; returns the exit code (0 ok, 2 user error, 130 Ctrl-C).

    Ctrl-C stops the command, its worker processes included, and prints
    ``plies: interrupted``; a second Ctrl-C while it stops exits at once, quietly.  When
    the reader of the output goes away (``plies solve tictactoe --json | head -1``) the
    command ends quietly with :data:`BROKEN_PIPE` (141, as a program killed by SIGPIPE).
    """
    with ctrl_c_twice_exits():
        try:
            code = _main(argv)
            if sys.stdout is not None:
                sys.stdout.flush()  # now, where a closed pipe can be told apart
        except BrokenPipeError:
            _discard_output()
            return BROKEN_PIPE
        except KeyboardInterrupt:  # outside _main's own handler: making its consoles, or
            # the final flush (Rich reads the terminal when a console is made)
            say_interrupted()
            return 130
        return code


BROKEN_PIPE = 128 + 13
"""The exit code when the output's reader went away (128 + SIGPIPE, as a shell reports a
program that SIGPIPE ended)."""


def _discard_output() -> None:
    """Send what is left of standard output nowhere: the interpreter flushes it at exit,
    which would fail again on the broken pipe and print a warning."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):  # no stdout to redirect
        pass


def _main(argv: Sequence[str] | None) -> int:
    # markup=False: action names and tree labels may contain "[...]".  Text goes through
    # say (soft-wrapped); tables wrap their cells to the console width.
    started = time.monotonic()  # --time counts from here (see plies.cli.args.game_of)
    console = _Output(highlight=False, markup=False)
    errors = Console(stderr=True, highlight=False, markup=False, soft_wrap=True)
    try:
        parser = build_parser(sys.argv[1:] if argv is None else argv)
        args, extra = parser.parse_known_args(argv)
        if args.command is None and not extra:  # 'plies' alone: what it can do
            parser.print_help()
            return 0
        problem = getattr(args, "command_problem", None)
        if problem is not None:  # a plug-in command that cannot be used, whatever its args
            raise problem
        if extra:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        args.started = started
        return int(args.command_module.run(console, args))
    except PliesError as err:
        errors.print(f"plies: error: {err}")
        return 2
    except KeyboardInterrupt:
        errors.print("plies: interrupted")
        return 130


class _Output(Console):
    """Standard output: a broken pipe ends the command as everywhere else in :func:`main`
    (Rich's own reaction is exit 1)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


@contextmanager
def ctrl_c_twice_exits() -> Iterator[None]:
    """The first Ctrl-C raises KeyboardInterrupt as usual; from then on a Ctrl-C ends the
    process at once with code 130 and no traceback (its worker processes terminated).
    A first Ctrl-C that Python cannot raise where it lands (in a weakref callback or a
    ``__del__``, where it would be printed as ignored and lost) ends the process the
    same way, after ``plies: interrupted``.

    A first Ctrl-C that lands while a module is being imported is raised as soon as the
    import is over, at the importing line: C code that imports (NumPy's ``import_array``
    in every compiled extension) prints an exception raised inside and turns it into an
    ``ImportError``, which would look like a missing optional package and let the command
    go on.  An import that has not ended :data:`IMPORT_WAIT` seconds later ends the
    process as a second Ctrl-C does.  Once interrupted, errors that finalizers raise
    (``__del__`` of an object the interrupt left half-made) are not printed.

    The second stage stays armed after the block, and finalizers' errors stay unprinted:
    the process is on its way out, and a Ctrl-C while it waits at exit must not print a
    traceback either.  So does a Ctrl-C still waiting for an import when the block ends
    (the command had finished: it is not raised).  Nothing changes unless Python's own
    handler is in place in the main thread (a program that embeds ``main`` keeps its
    own), or the one that keeps the command's start quiet (:mod:`plies._startup`).
    """
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) not in (signal.default_int_handler, interrupted)
    ):
        yield
        return
    armed = False

    def exit_now(signum: int, frame: Any) -> None:
        processes = sys.modules.get("multiprocessing")  # never imported: no workers
        for child in processes.active_children() if processes is not None else ():
            child.terminate()
        os._exit(130)

    waiting_since: float | None = None  # a Ctrl-C waits for an import to end
    again = False  # the next call of interrupt is the waiting Ctrl-C's, not a new one
    closed = False  # the block has ended: a waiting Ctrl-C is not raised any more

    def interrupt(signum: int, frame: Any) -> None:
        nonlocal armed, waiting_since, again
        if waiting_since is not None and not again:  # a second Ctrl-C while one waits
            say_interrupted()
            exit_now(signum, frame)
        again = False
        if importing(frame):
            now = time.monotonic()
            waiting_since = now if waiting_since is None else waiting_since
            if now - waiting_since > IMPORT_WAIT:
                say_interrupted()
                exit_now(signum, frame)
            with suppress(RuntimeError):  # no new thread at interpreter shutdown: raise
                timer = threading.Timer(IMPORT_POLL, look_again)
                timer.daemon = True
                timer.start()
                return
        waiting_since = None
        armed = True
        signal.signal(signal.SIGINT, exit_now)
        raise KeyboardInterrupt

    def look_again() -> None:
        nonlocal again
        if closed:
            return
        again = True
        _thread.interrupt_main(signal.SIGINT)  # interrupt runs again in the main thread

    previous_hook = sys.unraisablehook

    def unraisable(info: Any) -> None:
        # The interrupt came while Python ran code whose exceptions it cannot pass on
        # (a weakref callback, such as the import machinery's, or a __del__): it would
        # print "Exception ignored" with a traceback and carry on as if not interrupted.
        if info.exc_type is not None and issubclass(info.exc_type, KeyboardInterrupt):
            say_interrupted()
            exit_now(signal.SIGINT, None)
        if not armed:  # after the interrupt: a half-made object's finalizer failing
            previous_hook(info)

    signal.signal(signal.SIGINT, interrupt)
    sys.unraisablehook = unraisable
    try:
        yield
    finally:
        closed = True
        if waiting_since is not None:  # the command ended while a Ctrl-C waited
            signal.signal(signal.SIGINT, exit_now)
        elif not armed:  # else the process is on its way out: both stay as they are
            sys.unraisablehook = previous_hook
            signal.signal(signal.SIGINT, signal.default_int_handler)


IMPORT_WAIT = 3.0
"""Seconds a Ctrl-C that landed in an import waits for the import to end before it ends
the process (see :func:`ctrl_c_twice_exits`)."""

IMPORT_POLL = 0.01
"""Seconds between two looks at whether that import has ended."""


def importing(frame: FrameType | None) -> bool:
    """Whether ``frame`` runs inside Python's import machinery (a module's body being
    executed, or the machinery itself)."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib._bootstrap"):
            return True
        frame = frame.f_back
    return False


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()
