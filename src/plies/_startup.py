"""The ``plies`` command's first moments: Ctrl-C while it imports ends it quietly.

Importing plies takes a few tenths of a second.  Until :func:`plies.cli.main` puts its
own handler in place, Python's would turn a Ctrl-C into a ``KeyboardInterrupt``
traceback from the middle of some import.  Importing this module (the root package does
it first, before anything heavy) installs a handler that ends the process at once with
``plies: interrupted`` and code 130, as the command itself does: nothing has started
yet, so there is nothing to clean up.

Only the ``plies`` command is touched (the ``plies`` script, ``python -m plies``); a
program that imports plies keeps Python's handler.  Only modules Python has loaded
before it runs plies' code are used (``_signal`` is the core of :mod:`signal`, which
would import :mod:`enum` first), so the moment when a Ctrl-C is still Python's own is as
short as it can be.
"""

import _signal  # type: ignore[import-not-found]  # no stub; signal.signal is this one
import os
import sys
from itertools import pairwise
from types import FrameType


def is_the_plies_command() -> bool:
    """Whether this process is the ``plies`` command being started: the ``plies`` script
    or ``python -m plies``."""
    script = os.path.basename(sys.argv[0]) if sys.argv else ""
    if os.path.splitext(script)[0] in ("plies", "plies-script"):
        return True
    words = getattr(sys, "orig_argv", [])
    return any(a == "-m" and b in ("plies", "plies.cli") for a, b in pairwise(words))


def say_interrupted() -> None:
    """``plies: interrupted`` on stderr, straight to the file descriptor (a signal
    handler may run while Python's own stderr object is in the middle of a write)."""
    try:  # noqa: SIM105 (contextlib is not among the modules loaded before plies)
        os.write(2, b"plies: interrupted\n")
    except OSError:  # no stderr to tell
        pass


def interrupted(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C before the command runs: say so and end, code 130, no traceback."""
    try:
        say_interrupted()
    finally:
        os._exit(130)


if is_the_plies_command() and _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
    _signal.signal(_signal.SIGINT, interrupted)
