"""``plies tree``: draw the tree a search explores, as SVG, Graphviz DOT or JSON.

    plies tree src/plies/games/trees/aima-fig-5-2.tree -o fig.svg
    plies tree tictactoe --depth 2 -o ttt.svg
    plies tree nim --option piles=1,2,2 --algorithm bounded -o nim.dot
    plies tree aima-5-2                       # no -o: the JSON goes to stdout

The format follows the extension of ``-o`` (``.svg``, ``.json``, ``.dot``/``.gv``) unless
``--format`` says otherwise; ``-o -`` writes to stdout.  The game, position and search
options are those of ``plies solve``, except that ``-o`` names the output here, so game
options are given with the long ``--option`` only.  A picture shows one complete search:
a depth limit, not ``--time`` or ``--nodes``, and at most ``--max-nodes`` visited nodes.
"""

from __future__ import annotations

import argparse
import copy
import json
from pathlib import Path
from typing import Any

from rich.console import Console

from plies.errors import OptionError, SearchLimitError
from plies.viz.capture import DEFAULT_MAX_NODES, SearchTree, TreeTooLargeError, capture

FORMATS = {".svg": "svg", ".json": "json", ".dot": "dot", ".gv": "dot"}


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``tree`` sub-command to the ``plies`` argument parser."""
    from plies.cli import _real

    # ``common`` spells game options "-o/--option"; here "-o" is the output file.  A
    # private copy keeps the other commands' "-o" intact while "resolve" takes it over.
    base = copy.deepcopy(common)
    p = sub.add_parser(
        "tree", parents=[base], conflict_handler="resolve",
        help="draw the search tree (SVG, DOT or JSON)",
        description="Draw the tree a search explores: values, alpha-beta windows, the "
        "chosen path and the pruned branches.",
    )
    p.add_argument(
        "-o", "--output", metavar="FILE",
        help="write here; the format follows the extension (.svg, .json, .dot, .gv); "
        "'-' or nothing: stdout",
    )
    p.add_argument("--format", choices=sorted(set(FORMATS.values())), help="override the format")
    p.add_argument(
        "--max-nodes", type=int, default=DEFAULT_MAX_NODES,
        help=f"refuse searches that visit more nodes than this (default {DEFAULT_MAX_NODES:,})",
    )
    p.add_argument(
        "--threshold", type=_real,
        help="bounded minimax: only decide whether this value can be reached",
    )


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


def run(console: Console, args: argparse.Namespace) -> int:
    """Capture the search that ``args`` describe and write its picture."""
    from plies.cli import UsageError, _algorithm, _limit, _load, _num, _player, _position, _say
    from plies.viz.style import vector

    if args.engine:
        raise OptionError("--engine does not apply: a tree picture shows the plain search")
    if args.max_nodes < 1:
        raise OptionError(f"--max-nodes must be at least 1, got {args.max_nodes}")
    fmt = output_format(args.output, args.format)
    game = _load(args)
    state, _ = _position(game, args.moves)
    name, _ = _algorithm(game, args.algorithm, args.threshold)
    player = _player(game, state, args.player)
    limit = _limit(args)
    if limit is not None and limit.anytime:
        raise OptionError(
            "a tree picture shows one complete search: use --depth, not --time or --nodes"
        )
    try:
        tree = capture(
            game, state, name, limit, player=player, max_nodes=args.max_nodes, tie=args.tie,
            seed=args.seed, threshold=args.threshold,
        )
    except TreeTooLargeError as err:
        raise SearchLimitError(
            f"the search visited more than {err.max_nodes:,} nodes; "
            "use a smaller --depth or a larger --max-nodes"
        ) from None
    if args.output is None or args.output == "-":
        print(render(tree, fmt, ascii_only=True), end="", file=console.file, flush=True)
        return 0
    try:
        Path(args.output).write_text(render(tree, fmt), encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    pruned = int(tree.stats["pruned"])
    value = vector(tree.values) if tree.values is not None else _num(tree.value)
    _say(
        console,
        f"wrote {args.output} ({fmt}): {int(tree.stats['nodes']):,} nodes searched"
        + (f", {pruned:,} pruned" if pruned else "")
        + f"; value {value} for {tree.player}; chosen path "
        + (" ".join(tree.pv) or "-"),
    )
    return 0
