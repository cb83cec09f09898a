"""The ``plies`` command line as data, read from its own argparse parser: every command
with its usage, its options and its sub-commands.

One walk of the parser serves every place that must say what the command line accepts
without repeating it: the command-line reference of the documentation site and the shell
completion scripts (:mod:`plies.cli.completion`).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

__all__ = ["Command", "Option", "command", "plies_command"]

WIDTH = 88  # usage lines are wrapped at this width, whatever the terminal


@dataclass
class Option:
    """One argument of a command: its spellings, metavar, help, default and choices."""

    names: list[str]  # ["--depth", "-d"], or ["game"] for a positional
    metavar: str | None  # "DEPTH", None for a flag
    help: str | None  # the help text with %(default)s and the like expanded
    default: object
    choices: list[str] | None
    required: bool
    positional: bool


@dataclass
class Command:
    """One command (``plies solve``) or sub-command (``plies ggp serve``)."""

    path: list[str]  # ["plies", "ggp", "serve"]
    summary: str | None  # the help line of the command in its parent's list
    description: str | None
    usage: str
    epilog: str | None
    options: list[Option]
    commands: list[Command] = field(default_factory=list)

    @property
    def name(self) -> str:
        return " ".join(self.path)

    def walk(self) -> Iterator[Command]:
        """This command and every sub-command under it, depth first."""
        yield self
        for command in self.commands:
            yield from command.walk()


@contextmanager
def _columns(width: int) -> Iterator[None]:
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(width)
    try:
        yield
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old


def _renamed(action: argparse.Action, metavar: str) -> argparse.Action:
    """``action`` with ``metavar`` as its metavar (argparse otherwise shows the choices)."""
    return argparse.Action(action.option_strings, action.dest, nargs=action.nargs,
                           metavar=metavar)


def _options(parser: argparse.ArgumentParser) -> list[Option]:
    formatter = parser._get_formatter()
    options = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) or action.help == argparse.SUPPRESS:
            continue
        positional = not action.option_strings
        if action.nargs == 0 or positional:
            metavar = None
        else:  # a name, not the list of choices (listed apart)
            named = action.choices is not None and action.metavar is None
            shown = _renamed(action, action.dest.upper()) if named else action
            metavar = formatter._format_args(
                shown, formatter._get_default_metavar_for_optional(action)
            )
        options.append(Option(
            names=list(action.option_strings)
            or [action.metavar if isinstance(action.metavar, str) else action.dest],
            metavar=None if positional else metavar,
            help=formatter._expand_help(action) if action.help else None,
            default=action.default,
            choices=[str(c) for c in action.choices] if action.choices else None,
            required=bool(action.required),
            positional=positional,
        ))
    return options


def command(parser: argparse.ArgumentParser, path: list[str], summary: str | None) -> Command:
    """The command that ``parser`` parses, with its sub-commands."""
    with _columns(WIDTH):
        usage = parser.format_usage().strip()
    node = Command(path, summary, parser.description, usage, parser.epilog, _options(parser))
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help for choice in action._choices_actions}
            for name, sub in action.choices.items():
                node.commands.append(command(sub, [*path, name], helps.get(name)))
    return node


def plies_command(*, plugins: bool = False) -> Command:
    """The ``plies`` command, every command of plies' own (built in or declared by the
    ``plies`` distribution, as ``ggp`` is) and their sub-commands; with ``plugins``, the
    commands of every installed plug-in too."""
    from plies.cli.main import build_parser
    from plies.cli.registry import COMMANDS

    root = command(build_parser(), ["plies"], None)
    if plugins:
        return root
    own = []
    for sub in root.commands:
        entry = COMMANDS.entry(sub.path[1])
        if entry is not None and (entry.builtin or entry.distribution == "plies"):
            own.append(sub)
    root.commands = own
    return root
