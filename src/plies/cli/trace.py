"""``plies trace``: narrate a small search step by step (:class:`plies.search.Narrator`).

With ``--engine`` the narration is that of the engine's search: the transposition table,
the order the moves are tried in, principal variation search's null-window tests and
their re-searches (and MTD-bi's tests in an exact search).
"""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console

from plies.cli.args import game_of, position_of, request_of, say
from plies.policy import plan
from plies.search.narrate import Narrator


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``trace`` sub-command to the ``plies`` argument parser."""
    t = sub.add_parser("trace", parents=[common], help="narrate a small search step by step")
    t.add_argument("--max-lines", type=int, default=400,
                   help="stop the search after narrating N lines")


def run(console: Console, args: argparse.Namespace) -> int:
    """Narrate the search; returns the exit code."""
    return cmd_trace(console, args)


def cmd_trace(console: Console, args: argparse.Namespace) -> int:
    game = game_of(args)
    state, _ = position_of(args, game)
    chosen = plan(game, state, request_of(args, game, state, traced=True))
    player = chosen.request.player
    who = game.to_move(state) if player is None else player

    def echo(line: str) -> None:
        say(console, line)

    narrator = Narrator(
        game, state, who, echo=echo, limit=args.max_lines, rule=chosen.algorithm.rule,
        strict=bool(chosen.options.get("strict_cutoffs")),
    )
    switches = [k for k, v in chosen.options.items() if k != "threshold" and v is not False]
    name = f"{chosen.name} with {', '.join(switches)}" if switches else chosen.name
    say(console, narrator.opening(name))
    # The narration's end stops the search: nobody waits for steps that are not shown.
    result = chosen.run(game, state, trace=narrator, stop=narrator.done)
    if narrator.done.is_set():
        say(console, f"... the search was stopped after {args.max_lines:,} lines "
                     "(raise --max-lines to see more).")
        say(console, f"Stopped: {result.stats.nodes:,} nodes searched; no value is proven.")
        return 0
    say(console, narrator.closing(result))
    return 0
