"""The arguments shared by the commands that write a weights file (``learn``, ``tune``).

Both take a game with its options, write ``--out`` (checked before any game is played,
:func:`plies.outputs.check_target`), may start from ``--weights FILE``, are seeded, print
JSON with ``--json`` and play their games on the tournament's backends
(``--workers``, ``--ray``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from plies.cli.tournament import add_backend_options
from plies.linear import SIGNATURE
from plies.outputs import check_target


def add_weights_job_arguments(
    parser: argparse.ArgumentParser, *, game: str, out: str, weights: str, seed: str,
) -> None:
    """GAME, ``-o/--option``, ``--out``, ``--force``, ``--weights``, ``--seed``,
    ``--json`` and the backend options, with the command's own help for the first ones."""
    parser.add_argument("game", help=game)
    parser.add_argument(
        "-o", "--option", action="append", default=[], metavar="KEY=VALUE",
        help="a game option (repeatable; 'plies games' lists them)",
    )
    parser.add_argument("--out", required=True, metavar="FILE", help=out)
    parser.add_argument("--force", action="store_true",
                        help="replace --out even if it is not a weights file plies wrote")
    parser.add_argument("--weights", metavar="FILE", help=weights)
    parser.add_argument("--seed", type=int, default=0, help=seed)
    add_backend_options(parser)
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")


def weights_target(args: argparse.Namespace) -> Path:
    """``--out``, checked before the work: a target that cannot or may not be written
    (an existing file that is not a plies weights file, without ``--force``) fails now."""
    return check_target(args.out, option="--out", kind="a plies weights file",
                        signatures=(SIGNATURE,), force=args.force)
