"""``plies games``: the games by name, built in and from plug-ins, with their options
(``--openspiel``: OpenSpiel's).

A game that needs an extra which is not installed (chess needs python-chess) is listed
with the line that installs it.  A plug-in game that cannot be used is listed with the
reason, and a plug-in that was ignored (it reuses a built-in name, or two declare one
name) is named below the table: the other games stay usable.  ``--json`` writes the same
rows as a list of objects."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from plies import games
from plies.errors import MissingExtraError, install_line
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
    listing.add_argument(
        "--json", action="store_true",
        help="write the list as JSON: one object per game (name, players, description, "
        "options, needs, plugin, problem)",
    )


def run(console: Console, args: argparse.Namespace) -> int:
    """List the games; returns the exit code."""
    return cmd_games(console, args)


@dataclass
class Row:
    """One game of the list.  ``players`` is None when the game cannot be built here;
    ``needs`` is the line that installs a missing extra; ``problem`` why a plug-in game
    cannot be used; ``plugin`` the distribution that adds it."""

    name: str
    players: int | None
    description: str
    options: list[dict[str, str]]
    needs: str | None = None
    plugin: str | None = None
    problem: str | None = None


def rows() -> list[Row]:
    """Every registered game, built in and from plug-ins, as a row of the list."""
    found = []
    for name in games.names():
        entry = GAMES.entry(name)
        plugin = entry.distribution if entry is not None and not entry.builtin else None
        try:
            info = games.info(name)
        except Exception as exc:  # a plug-in's own code may raise anything: list it
            if plugin is None and not isinstance(exc, PluginError):
                raise
            found.append(Row(name, None, "", [], plugin=plugin, problem=_problem(exc)))
            continue
        options = [
            {"name": o.name, "default": o.type.show(o.default), "accepts": o.describe()}
            for o in info.options
        ]
        row = Row(name, None, info.description, options, plugin=plugin)
        try:
            row.players = info.make().num_players
        except MissingExtraError as missing:
            row.needs = f"needs {missing.package}: {install_line(missing.extra)}"
        except Exception as exc:
            if plugin is None and not isinstance(exc, PluginError):
                raise
            row.problem = _problem(exc)
        found.append(row)
    return found


def _problem(exc: Exception) -> str:
    return str(exc) if isinstance(exc, PluginError) else one_line(exc)


def cmd_games(console: Console, args: argparse.Namespace) -> int:
    if args.openspiel:
        return cmd_openspiel_games(console)
    listed = rows()
    if args.json:
        print(json.dumps([asdict(row) for row in listed], indent=2), file=console.file)
        return 0
    table = Table(title="games")
    table.add_column("name")
    table.add_column("players", justify="right")
    table.add_column("description")
    table.add_column("options")
    for row in listed:
        if row.problem is not None and not row.description:
            table.add_row(row.name, "", Text(row.problem, style="red"), "")
            continue
        description = Text(row.description)
        if row.plugin:
            description.append(f" ({row.plugin})", style="dim")
        if row.needs is not None:
            description.append(f"; {row.needs}", style="yellow")
        if row.problem is not None:
            description.append(f"; {row.problem}", style="red")
        players = "" if row.players is None else str(row.players)
        options = " ".join(f"{o['name']}={o['default']}" for o in row.options)
        table.add_row(row.name, players, description, options)
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
