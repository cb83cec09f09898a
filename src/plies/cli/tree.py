"""``plies tree``: draw the tree a search explores, as SVG, Graphviz DOT or JSON.

    plies tree src/plies/games/trees/aima-fig-5-2.tree --out fig.svg
    plies tree tictactoe --depth 2 --out ttt.svg
    plies tree nim -o piles=1,2,2 --algorithm bounded --out nim.dot
    plies tree aima-5-2                       # no --out: the JSON goes to stdout

The format follows the extension of ``-o`` (``.svg``, ``.json``, ``.dot``/``.gv``) unless
``--format`` says otherwise; ``-o -`` writes to stdout.  ``-o`` is checked before the
search and written atomically (:mod:`plies.outputs`); an existing file that is not a
picture ``plies tree`` drew needs ``--force``.  The game, position and search
options are those of ``plies solve``, except that ``-o`` names the output here, so game
options are given with the long ``--option`` only.  A picture shows one complete search:
a depth limit, not ``--time`` or ``--nodes``, and at most ``--max-nodes`` visited nodes.
``--engine`` draws the engine's search (table, ordering, PVS): see
:mod:`plies.viz.capture` for what a picture shows of a node searched twice.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from plies.cli.args import game_of, position_of, real, request_of, say, search_arguments
from plies.errors import OptionError, SearchLimitError
from plies.outputs import check_target, write_text
from plies.policy import Plan, number, plan
from plies.viz.capture import DEFAULT_MAX_NODES, SearchTree, TreeTooLargeError, capture
from plies.viz.svg import MARK

FORMATS = {".svg": "svg", ".json": "json", ".dot": "dot", ".gv": "dot"}
SIGNATURES = (MARK.encode(), b"digraph search_tree {", b'{\n  "schema": 1,\n  "game": ')
"""The heads of the pictures ``plies tree`` writes (SVG, DOT, JSON): a file holding one
is replaced without ``--force`` (:func:`plies.outputs.check_target`)."""


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``tree`` sub-command to the ``plies`` argument parser."""
    # "-o" is a game option, as in every command; the picture goes to --out.  A picture
    # shows one complete search, so no budgets are offered (--engine is: it is drawn).
    base = search_arguments(budgets=False)
    p = sub.add_parser(
        "tree", parents=[base],
        help="draw the search tree (SVG, DOT or JSON)",
        description="Draw the tree a search explores: values, alpha-beta windows, the "
        "chosen path and the pruned branches; with --engine, what the transposition table, "
        "move ordering and principal variation search do to them.",
    )
    p.add_argument(
        "--out", "--output", dest="output", metavar="FILE",
        help="write here; the format follows the extension (.svg, .json, .dot, .gv); "
        "'-' or nothing: stdout",
    )
    p.add_argument("--format", choices=sorted(set(FORMATS.values())), help="override the format")
    p.add_argument("--force", action="store_true",
                   help="replace --out even if it is not a picture plies drew")
    p.add_argument(
        "--max-nodes", type=int, default=DEFAULT_MAX_NODES,
        help=f"refuse searches that visit more nodes than this (default {DEFAULT_MAX_NODES:,})",
    )
    p.add_argument(
        "--threshold", type=real,
        help="bounded minimax: only decide whether this value can be reached",
    )


def craft_of(chosen: Plan) -> dict[str, Any]:
    """The engine switches of a plan (``--engine``), as keywords of the search."""
    return {k: v for k, v in chosen.options.items() if k != "threshold"}


def output_format(path: str | None, given: str | None) -> str:
    """The picture format: ``given``, else from the extension of ``path``, else JSON."""
    if given is not None:
        return given
    if path is None or path == "-":
        return "json"
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        known = ", ".join(FORMATS)
        raise OptionError(
            f"cannot tell the format of {path!r} from its extension; use one of {known} "
            "(or --format svg|json|dot)"
        )
    return FORMATS[suffix]


def render(tree: SearchTree, fmt: str, *, ascii_only: bool = False) -> str:
    """``tree`` as text in ``fmt`` ("svg", "json" or "dot")."""
    if fmt == "svg":
        return tree.to_svg()
    if fmt == "dot":
        return tree.to_dot()
    return json.dumps(tree.to_json(), indent=2, ensure_ascii=ascii_only) + "\n"


def output_given_as_option(args: argparse.Namespace) -> None:
    """Take ``-o FILE`` (no ``=``, a picture's extension or ``-``) as ``--out FILE``, with
    a warning: ``-o`` named the output of ``plies tree`` before it became the game option
    of every command.  Deprecated; goes in the next minor release."""
    if args.output is not None:
        return
    old = [
        text for text in args.option
        if "=" not in text and (text == "-" or Path(text).suffix.lower() in FORMATS)
    ]
    if len(old) != 1:
        return
    args.option.remove(old[0])
    args.output = old[0]
    print(
        f"plies: warning: '-o {old[0]}' as the output is deprecated: -o is a game option "
        f"(KEY=VALUE) in every command; write --out {old[0]}",
        file=sys.stderr,
    )


def run(console: Console, args: argparse.Namespace) -> int:
    """Capture the search that ``args`` describe and write its picture."""
    from plies.viz.style import vector

    output_given_as_option(args)
    if args.max_nodes < 1:
        raise OptionError(f"--max-nodes must be at least 1, got {args.max_nodes}")
    fmt = output_format(args.output, args.format)
    target = None
    if args.output is not None and args.output != "-":  # before the search, not after
        target = check_target(args.output, option="--out", kind="a tree plies drew",
                              signatures=SIGNATURES, force=args.force)
    game = game_of(args)
    state, _ = position_of(args, game)
    request = request_of(args, game, state, traced=True)
    chosen = plan(game, state, request)
    try:
        tree = capture(
            game, state, chosen.algorithm.name, request.limit, player=request.player,
            max_nodes=args.max_nodes, tie=request.tie, seed=request.seed,
            threshold=request.threshold, **craft_of(chosen),
        )
    except TreeTooLargeError as err:
        raise SearchLimitError(
            f"the search visited more than {err.max_nodes:,} nodes; "
            "use a smaller --depth or a larger --max-nodes"
        ) from None
    if target is None:
        print(render(tree, fmt, ascii_only=True), end="", file=console.file, flush=True)
        return 0
    write_text(target, render(tree, fmt), label="--out")
    pruned = int(tree.stats["pruned"])
    nodes, drawn_pass = int(tree.stats["nodes"]), int(tree.stats["visits"])
    value = vector(tree.values) if tree.values is not None else number(tree.value)
    say(
        console,
        f"wrote {args.output} ({fmt}): {nodes:,} nodes searched"
        + (f" ({drawn_pass:,} in the search of the root drawn)" if drawn_pass != nodes else "")
        + (f", {pruned:,} pruned" if pruned else "")
        + f"; value {value} for {tree.player}; chosen path "
        + (" ".join(tree.pv) or "-"),
    )
    return 0
