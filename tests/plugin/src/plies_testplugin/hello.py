"""``plies hello-plugin``: a command added to plies by entry point.

It takes the arguments every ``plies`` command shares (the game, its options, ``--moves``)
and says what it sees: the game's name, its players, who is to move and the legal moves.

    $ plies hello-plugin nim -o piles=1,2
    hello from plies-testplugin: nim, 2 players; P0 to move; legal moves: 0:1 1:1 1:2
"""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add ``hello-plugin`` to the ``plies`` argument parser."""
    sub.add_parser(
        "hello-plugin", parents=[common],
        help="say what a game looks like from its start (a plug-in command)",
    )


def run(console: Any, args: argparse.Namespace) -> int:
    """Load the game and describe the position; returns the exit code."""
    from plies.cli.args import game_of, position_of, say
    from plies.game import format_action, legal_actions
    from plies.policy import mover_name

    game = game_of(args)
    state, _ = position_of(args, game)
    name = getattr(game, "name", type(game).__name__)
    moves = " ".join(format_action(game, state, a) for a in legal_actions(game, state))
    where = "the game is over" if game.is_terminal(state) else (
        f"{mover_name(game, state)} to move; legal moves: {moves}"
    )
    say(console, f"hello from plies-testplugin: {name}, {game.num_players} players; {where}")
    return 0
