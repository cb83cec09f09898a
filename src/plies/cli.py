"""The ``plies`` command: the only place in plies that prints or exits.

Every user mistake (unknown game, malformed tree file, illegal move, bad option) is a
:class:`plies.errors.PliesError`; :func:`main` turns it into one line on stderr and exit
code 2.  Results print as Rich tables, or as plain JSON with ``--json``.

Text that comes from a game (action names, labels of a tree file) is never read as Rich
markup, and lines are soft-wrapped: a long line stays one line in a pipe or a log.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.table import Table

from plies import games
from plies.engine import (
    EngineSearch,
    Plan,
    Score,
    SolverTest,
    jsonable,
    number,
    outcome,
    plan,
    pv_text,
    report,
)
from plies.engine.args import (
    ArgumentParser,
    game_of,
    position_of,
    real,
    request_of,
    say,
    search_arguments,
)
from plies.errors import PliesError, UsageError
from plies.search import SearchResult
from plies.search.memo import MemoProgress
from plies.search.narrate import Narrator

__all__ = ["COMMAND_MODULES", "UsageError", "build_parser", "ctrl_c_twice_exits", "main", "run"]


# --- arguments --------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="plies", description="Adversarial search: minimax and its family.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=ArgumentParser)

    listing = sub.add_parser("games", help="list the built-in games (--openspiel: OpenSpiel's)")
    listing.add_argument(
        "--openspiel", action="store_true",
        help="list OpenSpiel's games instead (each playable as openspiel:NAME)",
    )
    sub.add_parser("demo", help="a non-interactive tour of the engine at work")

    common = search_arguments()
    for name, text in (
        ("solve", "exact (or depth-limited) value and best move"),
        ("analyze", "the value of every legal move"),
    ):
        p = sub.add_parser(name, parents=[common], help=text)
        p.add_argument("--json", action="store_true", help="print JSON instead of tables")
        if name == "analyze":  # batch analysis, on a process pool or Ray: plies.parallel
            from plies.parallel.cli import add_backend_options

            p.add_argument("--file", help="analyze every position in FILE (one per line)")
            add_backend_options(p)
        if name == "solve":
            p.add_argument(
                "--threshold", type=real,
                help="bounded minimax: only decide whether this value can be reached",
            )
            p.add_argument(
                "--weak", action="store_true",
                help="only win, draw or loss (an exact engine search, cheaper than the score)",
            )

    t = sub.add_parser("trace", parents=[common], help="narrate a small search step by step")
    t.add_argument("--max-lines", type=int, default=400,
                   help="stop the search after narrating N lines")

    p = sub.add_parser("play", parents=[common], help="play in the terminal")
    p.add_argument(
        "--human", default="0",
        help="comma-separated human players (numbers or names), or 'none' for engine vs engine",
    )
    p.add_argument(
        "--worlds", metavar="N",
        help="hidden cards (kuhn, leduc): worlds the engine samples a move, or 'all' "
        "(default 20)",
    )
    for module in _command_modules():
        module.register(sub, common)
    return parser


# Commands that live beside their subsystem (viz, ggp, web, parallel).  Each module has
# ``register(sub, common)`` to add its sub-parser(s) and ``run(console, args) -> int``; it
# imports its heavy dependencies only inside ``run``, so ``plies --help`` stays fast.
COMMAND_MODULES: dict[str, str] = {
    "tree": "plies.viz.cli",
    "ggp": "plies.ggp.cli",
    "web": "plies.web.cli",
    "tournament": "plies.parallel.cli",
    "check": "plies.checkcli",
    "uci": "plies.uci.cli",
    "learn": "plies.learn.cli",
}


def _command_modules() -> list[Any]:
    import importlib

    return [importlib.import_module(name) for name in dict.fromkeys(COMMAND_MODULES.values())]


# --- shared steps ---------------------------------------------------------------------------


def _stats_table(result: SearchResult) -> Table:
    s = result.stats
    table = Table(title="statistics", show_header=True)
    # Counters a search does not keep (all zero: the dedicated solver's) are left out.
    cells = {
        "nodes": f"{s.nodes:,}", "leaves": s.leaves, "evals": s.evals, "cutoffs": s.cutoffs,
        "tt hits": s.tt_hits, "depth": str(s.depth), "time": f"{s.elapsed:.3f}s",
        "nodes/s": f"{s.nps:,.0f}",
    }
    shown = {k: v if isinstance(v, str) else f"{v:,}" for k, v in cells.items()
             if isinstance(v, str) or s.leaves or s.evals or s.cutoffs or s.tt_hits}
    for column in shown:
        table.add_column(column, justify="right")
    table.add_row(*shown.values())
    return table


def _search(
    console: Console, game: Any, state: Any, args: argparse.Namespace, *, all_values: bool
) -> tuple[Plan, SearchResult]:
    """Plan and run the search ``args`` ask for, showing its progress on ``console``."""
    chosen = plan(game, state, request_of(args, game, state, all_values=all_values))
    live = not args.json and not all_values

    def on_test(t: SolverTest) -> None:
        known = f"score {t.lo}" if t.lo == t.hi else f"score in [{t.lo}, {t.hi}]"
        say(console, f"test score > {t.m}: {'yes' if t.answer > t.m else 'no'}; {known}; "
                     f"{t.nodes:,} nodes, {t.elapsed:.2f}s")

    def on_iteration(r: SearchResult) -> None:
        line = " ".join(pv_text(game, state, r.pv))
        say(console, f"depth {r.stats.depth}: value {number(r.value)}, pv {line or '-'}, "
                     f"{r.stats.nodes:,} nodes, {r.stats.elapsed:.2f}s")

    show_iterations = not args.json and chosen.kind == "engine" and "tt" in chosen.options
    what = f"solving with the {chosen.name}" if chosen.kind == "solver" else (
        f"searching with {chosen.name}"
    )
    with console.status(f"{what}...", spinner="dots") as status:

        def on_progress(p: MemoProgress) -> None:
            status.update(f"{what}: {p.states:,} states solved, {p.nodes:,} nodes, "
                          f"{p.tt_hits:,} table hits, {p.elapsed:.1f}s")

        result = chosen.run(
            game, state, on_test=on_test if live else None,
            on_iteration=on_iteration if show_iterations else None,
            on_progress=on_progress if console.is_terminal else None,
        )
    return chosen, result


def _solved(game: Any, state: Any, args: argparse.Namespace, all_values: bool) -> bool:
    """True when the request is one for the plain policy even in chess or Othello: a
    threshold, a weak solution, or an exact request that a dedicated solver answers
    (Othello's endgame solver); everything else gets the engine's search."""
    if getattr(args, "threshold", None) is not None or getattr(args, "weak", False):
        return True
    request = request_of(args, game, state, all_values=all_values)
    return request.limit is None and plan(game, state, request).kind == "solver"


def _engine_search(
    console: Console, engine: EngineSearch, state: Any, args: argparse.Namespace, *,
    all_values: bool,
) -> tuple[Plan, SearchResult, Score]:
    """The engine's search of chess or Othello (see :mod:`plies.engine.playing`): the
    given limit or the defaults' time, quiescence and mate scores.  The result's values
    are the game's (a mate is the utility of a win); the score says "mate in N"."""
    game = engine.game
    request = request_of(args, game, state, all_values=all_values)
    given = request.limit
    limit = engine.limit(state=state) if given is None else engine.limit(
        given.depth, given.time, given.nodes, given.unit
    )

    def on_iteration(r: SearchResult) -> None:
        line = " ".join(pv_text(game, state, r.pv))
        say(console, f"depth {r.stats.depth}: value {engine.score(r)}, pv {line or '-'}, "
                     f"{r.stats.nodes:,} nodes, {r.stats.elapsed:.2f}s")

    live = not args.json and not all_values and limit is not None
    with console.status("searching with the engine...", spinner="dots"):
        result = engine.run(
            state, limit, algorithm=args.algorithm, player=request.player, tie=args.tie,
            seed=args.seed, all_values=all_values, on_iteration=on_iteration if live else None,
        )
    assert engine.plan is not None
    score = engine.score(result)
    values = {a: s.value for a, s in engine.action_scores(result).items()}
    result = dataclasses.replace(
        result, value=score.value, action_values=values if all_values else None
    )
    return engine.plan, result, score


# --- commands -----------------------------------------------------------------------------


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


def cmd_solve(console: Console, args: argparse.Namespace, *, all_values: bool = False) -> int:
    game = game_of(args)
    state, moves = position_of(args, game)
    engine = EngineSearch(game)
    score = None
    if engine.tuned and not _solved(game, state, args, all_values):
        chosen, result, score = _engine_search(console, engine, state, args,
                                               all_values=all_values)
    else:
        chosen, result = _search(console, game, state, args, all_values=all_values)
    name = chosen.name
    data = report(game, state, moves, name, result)
    if score is not None:
        data["score"], data["mate"] = str(score), score.mate
    if getattr(args, "weak", False):
        data["outcome"] = outcome(game.utility_range, result.value)
    if args.json:
        # Plain text, not Rich: no colour codes (FORCE_COLOR) and no wrapping in a pipe.
        print(json.dumps(jsonable(data), indent=2), file=console.file, flush=True)
        return 0
    say(console, game.render(state) if hasattr(game, "render") else str(state))
    if all_values and result.action_values:
        title = f"value of every move for {data['player']} ({name})"
        table = Table(title=title, min_width=len(title))
        table.add_column("move")
        table.add_column("value", justify="right")
        table.add_column("")
        for action, value in data["action_values"].items():
            best = value == data["value"]
            mark = "chosen" if action == data["action"] else "best" if best else ""
            table.add_row(action, number(value), mark)
        console.print(table)
    summary = Table(show_header=False, title=f"{data['game']}: {name}")
    summary.add_column(style="bold")
    summary.add_column()
    threshold = getattr(args, "threshold", None)
    kind = "exact" if result.exact else (
        f"bound (threshold {number(threshold)})" if threshold is not None
        else "bound" if "outcome" in data else "heuristic"
    )
    summary.add_row("to move", str(data["to_move"] or "nobody (game over)"))
    if "outcome" in data:
        summary.add_row(f"outcome for {data['player']}", data["outcome"])
    summary.add_row(f"value for {data['player']}", f"{number(result.value)} ({kind})")
    if score is not None:
        summary.add_row("score", str(score))
    if result.values is not None:
        summary.add_row("values", ", ".join(f"{k}={number(v)}" for k, v in data["values"].items()))
    summary.add_row("best move", data["action"] or "none")
    if "strategy" in data:
        mix = ", ".join(f"{a} ({number(q)})" for a, q in data["strategy"].items() if q > 0)
        summary.add_row("mixed strategy", mix)
    summary.add_row("principal variation", " ".join(data["pv"]) or "-")
    console.print(summary)
    console.print(_stats_table(result))
    return 0


def cmd_trace(console: Console, args: argparse.Namespace) -> int:
    game = game_of(args)
    state, _ = position_of(args, game)
    chosen = plan(game, state, request_of(args, game, state, traced=True))
    player = chosen.request.player
    who = game.to_move(state) if player is None else player

    def echo(line: str) -> None:
        say(console, line)

    rule = "maxn" if chosen.algorithm.name == "maxn" else "paranoid"
    narrator = Narrator(game, state, who, echo=echo, limit=args.max_lines, rule=rule)
    say(console, narrator.opening(chosen.name))
    # The narration's end stops the search: nobody waits for steps that are not shown.
    result = chosen.run(game, state, trace=narrator, stop=narrator.done)
    if narrator.done.is_set():
        say(console, f"... the search was stopped after {args.max_lines:,} lines "
                     "(raise --max-lines to see more).")
        say(console, f"Stopped: {result.stats.nodes:,} nodes searched; no value is proven.")
        return 0
    say(console, narrator.closing(result))
    return 0


# --- entry point --------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``plies`` command; returns the exit code (0 ok, 2 user error, 130 Ctrl-C).

    Ctrl-C stops the command, its worker processes included, and prints
    ``plies: interrupted``; a second Ctrl-C while it stops exits at once, quietly.
    """
    with ctrl_c_twice_exits():
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    # markup=False: action names and tree labels may contain "[...]".  Text goes through
    # say (soft-wrapped); tables wrap their cells to the console width.
    console = Console(highlight=False, markup=False)
    errors = Console(stderr=True, highlight=False, markup=False, soft_wrap=True)
    try:
        args = build_parser().parse_args(argv)
        if args.command == "games":
            return cmd_games(console, args)
        if args.command == "demo":
            from plies import demo

            demo.run(console)
            return 0
        if args.command == "solve":
            return cmd_solve(console, args)
        if args.command == "analyze":
            if args.file is not None:
                from plies.parallel.cli import run_batch

                return run_batch(console, args)
            return cmd_solve(console, args, all_values=True)
        if args.command == "trace":
            return cmd_trace(console, args)
        if args.command == "play":
            from plies.playcli import cmd_play

            return cmd_play(console, args)
        import importlib

        module: Any = importlib.import_module(COMMAND_MODULES[args.command])
        return int(module.run(console, args))
    except PliesError as err:
        errors.print(f"plies: error: {err}")
        return 2
    except KeyboardInterrupt:
        errors.print("plies: interrupted")
        return 130


@contextmanager
def ctrl_c_twice_exits() -> Iterator[None]:
    """The first Ctrl-C raises KeyboardInterrupt as usual; from then on a Ctrl-C ends the
    process at once with code 130 and no traceback (its worker processes terminated).

    The second stage stays armed after the block: the process is on its way out, and a
    Ctrl-C while it waits at exit must not print a traceback either.  Nothing changes
    unless Python's own handler is in place in the main thread (a program that embeds
    ``main`` keeps its own).
    """
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    armed = False

    def exit_now(signum: int, frame: Any) -> None:
        processes = sys.modules.get("multiprocessing")  # never imported: no workers
        for child in processes.active_children() if processes is not None else ():
            child.terminate()
        os._exit(130)

    def interrupt(signum: int, frame: Any) -> None:
        nonlocal armed
        armed = True
        signal.signal(signal.SIGINT, exit_now)
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, interrupt)
    try:
        yield
    finally:
        if not armed:
            signal.signal(signal.SIGINT, signal.default_int_handler)


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()
