"""``plies games``: the games by name, built in and from plug-ins, with their options
(``--openspiel``: OpenSpiel's).

A plug-in game that cannot be used is listed with the reason, and a plug-in that was
ignored (it reuses a built-in name, or two declare one name) is named below the table:
the other games stay usable."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from plies import games
from plies.games.registry import GAMES
from plies.plugins import PluginError, one_line


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``games`` sub-command to the ``plies`` argument parser."""
    listing = sub.add_parser(
        "games", help="list the games by name, built in and from plug-ins (--openspiel: "
        "OpenSpiel's)",
    )
    listing.add_argument(
        "--openspiel", action="store_true",
        help="list OpenSpiel's games instead (each playable as openspiel:NAME)",
    )


def run(console: Console, args: argparse.Namespace) -> int:
    """List the games; returns the exit code."""
    return cmd_games(console, args)


def cmd_games(console: Console, args: argparse.Namespace) -> int:
    if args.openspiel:
        return cmd_openspiel_games(console)
    table = Table(title="games")
    table.add_column("name")
    table.add_column("players", justify="right")
    table.add_column("description")
    table.add_column("options")
    for name in games.names():
        entry = GAMES.entry(name)
        plugin = entry is not None and not entry.builtin
        distribution = entry.distribution if entry is not None else None
        try:
            info = games.info(name)
            players = str(info.make().num_players)
        except Exception as exc:  # a plug-in's own code may raise anything: list it
            if not plugin and not isinstance(exc, PluginError):
                raise
            shown = str(exc) if isinstance(exc, PluginError) else one_line(exc)
            table.add_row(name, "", Text(shown, style="red"), "")
            continue
        description = Text(info.description)
        if plugin and distribution:
            description.append(f" ({distribution})", style="dim")
        table.add_row(name, players, description, info.options_help())
    console.print(table)
    for problem in GAMES.ignored():
        console.print(Text(str(problem), style="yellow"), soft_wrap=True)
    return 0


def cmd_openspiel_games(console: Console) -> int:
    from plies.sources.openspiel import openspiel_games

    infos = openspiel_games()
    table = Table(
        title=f"OpenSpiel games ({len(infos)}): plies plays each as openspiel:NAME",
        caption="* a wrapper: needs parameters naming its game. "
        "Refused: mean-field, sampled chance.",
    )
    table.add_column("name", no_wrap=True)
    table.add_column("players", justify="right")
    for column in ("moves", "chance", "information", "utility"):
        table.add_column(column, no_wrap=True)
    for info in infos:
        table.add_row(
            info.name + (" *" if info.needs_parameters else ""), info.players,
            info.moves, info.chance, info.information, info.utility,
        )
    console.print(table)
    return 0
