"""The ``plies`` command: the only place in plies that prints or exits.

Every user mistake (unknown game, malformed tree file, illegal move, bad option) is a
:class:`plies.errors.PliesError`; :func:`main` turns it into one line on stderr and exit
code 2.  Results print as Rich tables, or as plain JSON with ``--json``.

Text that comes from a game (action names, labels of a tree file) is never read as Rich
markup, and lines are soft-wrapped: a long line stays one line in a pipe or a log.

The machinery (the parser, :func:`main`) is :mod:`plies.cli.main`; each command is a
module with ``register(sub, common)`` and ``run(console, args) -> int``, found in the
command registry (:mod:`plies.cli.registry`): the built-in ones are the modules of this
package (``solve`` and ``analyze`` share :mod:`~plies.cli.solve`), and other packages add
theirs by entry point (``plies ggp`` is one, declared in plies' own ``pyproject.toml``).
"""

from plies.cli.main import (
    COMMAND_MODULES,
    UsageError,
    build_parser,
    ctrl_c_twice_exits,
    main,
    run,
)

__all__ = ["COMMAND_MODULES", "UsageError", "build_parser", "ctrl_c_twice_exits", "main", "run"]
