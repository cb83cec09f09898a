"""``plies algorithms``: the search algorithms of the registry, with what each can do.

The list is :mod:`plies.search.registry`'s: the built-in algorithms and those that
installed plug-ins add, each usable as ``--algorithm NAME``, in the web app and in a
tournament agent spec.  A plug-in that cannot be used is listed with its problem.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

    from plies.search.registry import Algorithm


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``algorithms`` sub-command to the ``plies`` argument parser."""
    sub.add_parser(
        "algorithms", help="list the search algorithms with what each can do",
        description="List the search algorithms (built in and from plug-ins): the players, "
        "chance and simultaneous moves each searches, whether it takes a depth, can be "
        "traced (plies trace, plies tree) and the engine craft it takes (--engine).",
    )


def run(console: Console, args: argparse.Namespace) -> int:
    """Print the table; returns the exit code."""
    from rich.table import Table

    from plies.search.registry import REGISTRY

    usable, _ = REGISTRY.load_all()
    table = Table(title="search algorithms")
    for column in ("name", "players", "chance", "simultaneous", "depth", "trace", "engine"):
        table.add_column(column, no_wrap=True)
    for name in REGISTRY.names():
        if name in usable:
            table.add_row(name, *_capabilities(usable[name]))
    console.print(table)
    for name in REGISTRY.names():
        if name in usable:
            console.print(f"{name}: {usable[name].summary}", soft_wrap=True)
    for problem in REGISTRY.problems():  # plug-ins that fail to load or clash
        console.print(f"plies: {problem}", soft_wrap=True)
    return 0


def _capabilities(entry: Algorithm) -> tuple[str, ...]:
    def yes(flag: bool) -> str:
        return "yes" if flag else "-"

    players = "any" if entry.players is None else f"up to {entry.players}"
    engine = " ".join(entry.engine) or "-"
    return (players, yes(entry.chance), yes(entry.simultaneous), yes(entry.depth),
            yes(entry.traceable), engine)
