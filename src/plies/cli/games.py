"""``plies games``: the built-in games with their options (``--openspiel``: OpenSpiel's)."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.table import Table

from plies import games


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``games`` sub-command to the ``plies`` argument parser."""
    listing = sub.add_parser("games", help="list the built-in games (--openspiel: OpenSpiel's)")
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
    table = Table(title="built-in games")
    table.add_column("name")
    table.add_column("players", justify="right")
    table.add_column("description")
    table.add_column("options")
    for name in games.names():
        game = games.load(name)
        table.add_row(name, str(game.num_players), games.describe(name), games.options_help(name))
    console.print(table)
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
