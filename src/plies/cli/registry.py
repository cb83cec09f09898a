"""The command registry: every ``plies`` sub-command by name, open to plug-ins.

A command is a module with two functions:

- ``register(sub, common)`` adds its sub-parser(s) to ``sub``, the sub-parsers action of
  the ``plies`` parser (``sub.add_parser(name, help=..., parents=[common])``).  ``common``
  is the parent parser of the arguments most commands share (the game, its options,
  ``--moves``, ``--algorithm``, the limits: :func:`plies.cli.args.search_arguments`); a
  command takes it as a parent or builds its own.
- ``run(console, args) -> int`` runs the parsed command: it prints to ``console`` (a
  :class:`rich.console.Console`) and returns the exit code.  A user's mistake is a
  :class:`~plies.errors.PliesError`, which ``plies`` prints as one line (exit code 2).

A module imports its heavy dependencies inside ``run``, so that ``plies --help`` stays
fast.  One module may serve several commands (``solve`` and ``analyze``): it is named once
per command.  The built-in commands are registered below exactly as a plug-in registers
one, by an entry point of the group ``plies.commands`` in its ``pyproject.toml``::

    [project.entry-points."plies.commands"]
    hello = "mypkg.cli"

``plies ggp`` is one: it is declared in plies' own ``pyproject.toml``, so the core names
no GGP module.  A plug-in command that cannot be used (it fails to import, lacks
``register`` or ``run``, or its ``register`` raises) is listed by ``plies --help`` with
the problem, and running it prints that problem as one line; the other commands work
as before.  A plug-in that reuses a built-in command's name is ignored (``plies --help``
says so at its end).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import ModuleType
from typing import Any, Final

from plies.plugins import Registry

BUILTIN: Final = {
    "games": "plies.cli.games",
    "algorithms": "plies.cli.algorithms",
    "demo": "plies.cli.demo",
    "solve": "plies.cli.solve",
    "analyze": "plies.cli.solve",
    "trace": "plies.cli.trace",
    "quiz": "plies.cli.quiz",
    "play": "plies.cli.play",
    "tree": "plies.cli.tree",
    "web": "plies.cli.web",
    "tournament": "plies.cli.tournament",
    "check": "plies.cli.check",
    "uci": "plies.cli.uci",
    "learn": "plies.cli.learn",
    "tune": "plies.cli.tune",
    "completion": "plies.cli.completion",
}
"""The built-in commands, in the order ``plies --help`` lists them (plug-ins follow)."""


def command_module(name: str, module: Any) -> ModuleType:
    """``module``, checked to be a command module (``register`` and ``run`` functions).

    Raises:
        TypeError: it is not a module, or lacks one of the two functions.
    """
    if not isinstance(module, ModuleType):
        raise TypeError(f"a command is a module with register() and run(), not {module!r}")
    for function, signature in (("register", "register(sub, common)"),
                                ("run", "run(console, args) -> int")):
        if not callable(getattr(module, function, None)):
            raise TypeError(f"module {module.__name__} has no {signature} function")
    return module


COMMANDS: Final[Registry[ModuleType]] = Registry(
    "plies.commands", BUILTIN, kind="command", adapt=command_module
)
"""Every command by name: the built-ins, then the plug-ins' (read when first used)."""


def modules() -> list[tuple[str, list[str]]]:
    """Each command module's target (``"module"`` or ``"module:attribute"``) with the
    names it serves, in the order of :meth:`Registry.names` (nothing is imported)."""
    grouped: dict[str, list[str]] = {}
    for name in COMMANDS.names():
        entry = COMMANDS.entry(name)
        target = name if entry is None or entry.target is None else entry.target
        grouped.setdefault(target, []).append(name)
    return list(grouped.items())


class _Targets(Mapping[str, str]):
    """Command name -> the module that serves it, read from the registry when used."""

    def __getitem__(self, name: str) -> str:
        entry = COMMANDS.entry(name)
        if entry is None or entry.target is None:
            raise KeyError(name)
        return entry.target

    def __iter__(self) -> Iterator[str]:
        return iter(COMMANDS.names())

    def __len__(self) -> int:
        return len(COMMANDS.names())


COMMAND_MODULES: Final[Mapping[str, str]] = _Targets()
"""Each command's module by command name (a read-only view of :data:`COMMANDS`)."""


__all__ = ["BUILTIN", "COMMANDS", "COMMAND_MODULES", "command_module", "modules"]
