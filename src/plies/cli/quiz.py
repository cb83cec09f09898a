"""``plies quiz``: "is this a good move?", graded by the engine (:mod:`plies.policy.quiz`).

Each question shows a position and asks which move is best for the player to move
(``--ask value``: what the position is worth).  Values are the first player's in a
two-player zero-sum game (MAX's, as the lecture's minimax tree writes them), else the
mover's; ``--player`` names another player.  Answers are read one a
line, from the terminal or a pipe (``--answer`` gives them on the command line); each is
graded at once, with the engine's value of every move as the reason.  The first question
is about the position ``--moves`` names (the start without it); with ``--questions N``
the others are about positions a seeded number of random moves further on.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from rich.console import Console

from plies.cli.args import game_of, limit_of, position_of, say, show
from plies.errors import PliesError
from plies.policy.games import find_player
from plies.policy.quiz import KINDS, Question, ask, quiz_position


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``quiz`` sub-command to the ``plies`` argument parser."""
    q = sub.add_parser(
        "quiz", parents=[common],
        help="is this a good move? pick the best move, the engine grades it",
        description="Pick the best move (or the value) of a position before the engine "
        "reveals it; the engine's value of every move says why you are right or wrong.",
    )
    q.add_argument("--ask", choices=KINDS, default="move",
                   help="ask for the best move (default) or the position's value")
    q.add_argument("--questions", type=int, default=1, metavar="N",
                   help="how many positions to ask about: the given one, then random "
                   "positions a few moves on (default 1)")
    q.add_argument("--answer", action="append", default=[], metavar="TEXT",
                   help="an answer, instead of reading one (repeat for several questions)")


def run(console: Console, args: argparse.Namespace) -> int:
    """Ask, read, grade; returns the exit code."""
    game = game_of(args)
    start, _ = position_of(args, game)
    if args.questions < 1:
        raise PliesError(f"--questions must be 1 or more, got {args.questions}")
    rng = random.Random(args.seed)
    given = list(args.answer)
    count = args.questions
    right = asked = 0
    for number in range(1, count + 1):
        state, played = (start, []) if number == 1 else quiz_position(game, start, rng)
        question = ask(game, state, kind=args.ask, limit=limit_of(args),
                       algorithm=args.algorithm, strict_cutoffs=args.strict_cutoffs,
                       player=None if args.player is None else find_player(game, args.player))
        say(console, f"question {number} of {count}" + (
            f" ({' '.join(played)} further on)" if played else ""))
        show(console, game, state)
        verdict = _answered(console, question, given)
        if verdict is None:
            break
        asked += 1
        right += verdict
    if asked:
        say(console, f"score: {right} of {asked} right")
    return 0


def _answered(console: Console, question: Question, given: list[str]) -> bool | None:
    """Read answers until one can be graded; True when right, None when input ended."""
    while True:
        say(console, question.prompt)
        if given:
            text = given.pop(0)
        else:
            line = sys.stdin.readline()
            if not line or line.strip().lower() in ("q", "quit"):
                return None
            text = line.strip()
        say(console, f"> {text}")
        try:
            verdict = question.grade(text)
        except PliesError as err:
            say(console, f"not an answer: {err}")
            continue
        say(console, verdict.text)
        return verdict.right
