"""``plies tournament`` and ``plies analyze GAME --file``: parallel work from the terminal.

Registered by :mod:`plies.cli` (``register``/``run``); ``plies analyze`` hands over to
:func:`run_batch` when it gets ``--file``.  Both show a Rich progress bar on stderr while
they work (in a terminal only, so a pipe or a log gets just the results), print tables,
or JSON with ``--json``.  Matplotlib and Ray are imported only when asked for.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from rich.console import Console
from rich.table import Table

from plies.cli.args import build_budget, limit_of, real, say
from plies.errors import OptionError
from plies.parallel.backends import Backend, GameRef, backend
from plies.parallel.batch import (
    PositionReport,
    analyze_positions,
    read_positions,
)
from plies.policy import jsonable, number
from plies.tournament.agents import KEYS, agent_algorithms, parse_agent
from plies.tournament.sprt import MODELS, SPRT, SprtOutcome, parse_sprt
from plies.tournament.tournament import TournamentResult, schedule, tournament


def add_backend_options(parser: argparse.ArgumentParser) -> None:
    """``--workers N`` and ``--ray [ADDRESS]``, shared by the commands that scale out."""
    parser.add_argument(
        "--workers", type=int, default=None, metavar="N",
        help="worker processes (default: the number of CPUs; 1: no extra process)",
    )
    parser.add_argument(
        "--ray", nargs="?", const="", default=None, metavar="ADDRESS",
        help="run on Ray: the cluster at ADDRESS, or a local Ray instance without one",
    )


SPRT_ROUNDS = 1000
"""The most rounds of ``plies tournament --sprt`` unless ``--games`` says otherwise."""


def add_sprt_options(
    parser: argparse.ArgumentParser, flag: str = "--sprt",
    candidate: str = "the first agent against the others",
) -> None:
    """``--sprt ELO0,ELO1`` (or ``flag``) and the test's model, alpha and beta."""
    parser.add_argument(
        flag, metavar="ELO0,ELO1", default=None,
        help=f"stop once a sequential probability ratio test of {candidate} decides H0: "
        f"elo = ELO0 or H1: elo = ELO1 (as Fishtest tests a patch)",
    )
    parser.add_argument(
        "--sprt-model", choices=MODELS, default="logistic",
        help=f"the Elo of {flag}'s bounds: logistic (as the Elo table) or normalized "
        "(Fishtest's; the same effort whatever the draw rate)",
    )
    parser.add_argument("--sprt-alpha", type=real, default=0.05, metavar="P",
                        help="the chance of accepting H1 when H0 holds (default 0.05)")
    parser.add_argument("--sprt-beta", type=real, default=0.05, metavar="P",
                        help="the chance of accepting H0 when H1 holds (default 0.05)")


def sprt_of(text: str | None, args: argparse.Namespace) -> SPRT | None:
    """The test that ``--sprt`` (given as ``text``) and its options ask for."""
    if text is None:
        return None
    return parse_sprt(text, args.sprt_model, args.sprt_alpha, args.sprt_beta)


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``tournament`` sub-command to ``sub`` (argparse sub-parsers)."""
    p = sub.add_parser(
        "tournament", help="round robin between agents, with win/draw/loss tables and Elo",
        description="Round robin between agents: every pair (every group of N in an "
        "N-player game) plays in every seat order; Elo ratings with 95% intervals.",
    )
    p.add_argument(
        "game", help="a built-in game name, a .tree/.json tree file, a .kif GDL file, "
        "module:attribute of your own game, or openspiel:NAME (an OpenSpiel game)"
    )
    p.add_argument(
        "-o", "--option", action="append", default=[], metavar="KEY=VALUE",
        help="a game option, e.g. piles=3,4,5 (repeatable; 'plies games' lists them)",
    )
    p.add_argument(
        "--agent", action="append", default=[], metavar="SPEC",
        help=f"an agent, ALGORITHM[:KEY=VALUE,...] (repeatable); algorithms: "
        f"{', '.join(agent_algorithms())}; keys: {', '.join(KEYS)}",
    )
    p.add_argument(
        "--games", type=int, default=None, metavar="N",
        help=f"games per pairing and seat order (default 2; with --sprt the most, default "
        f"{SPRT_ROUNDS})",
    )
    p.add_argument("--seed", type=int, default=None, help="tournament seed (default: drawn)")
    p.add_argument("--moves", default="", help="an opening: every game starts after these moves")
    p.add_argument(
        "--random-opening", type=int, default=0, metavar="K",
        help="start every round with up to K random moves drawn from the seed (the same "
        "for every game of the round; default 0)",
    )
    add_backend_options(p)
    add_sprt_options(p)
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    p.add_argument("--plot", metavar="FILE", help="draw the Elo ratings to FILE.png or FILE.svg")
    p.add_argument("--force", action="store_true",
                   help="replace --plot even if it is not a plot plies drew")


@contextmanager
def progress_bar(
    total: int, what: str, console: Console | None = None
) -> Iterator[Callable[[int], None]]:
    """A Rich progress bar for ``total`` items; yields ``advance(k)``.

    Drawn on ``console`` (default: stderr) when it is a terminal, and removed when done.
    """
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = console or Console(stderr=True)
    columns = (
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
    )
    with Progress(
        *columns, console=console, transient=True, disable=not console.is_terminal
    ) as progress:
        task = progress.add_task(what, total=total)
        yield lambda k: progress.advance(task, k)


# --- plies tournament ----------------------------------------------------------------------------


def run(console: Console, args: argparse.Namespace) -> int:
    """``plies tournament``: play, then print tables (or JSON) and draw ``--plot``."""
    from plies.tournament.plot import check_plot_path, plot_elo

    ref = GameRef.parse(args.game, args.option)
    specs = [parse_agent(text) for text in args.agent]
    test = sprt_of(args.sprt, args)
    plot = check_plot_path(args.plot, force=args.force) if args.plot else None  # before the games
    game = ref.load()
    for spec in specs:
        spec.check(game)
    rounds = args.games if args.games is not None else SPRT_ROUNDS if test else 2
    total = len(schedule(len(specs), game.num_players, rounds))
    with started(backend(args.workers, args.ray)) as runner, progress_bar(
        total, "games"
    ) as advance:
        result = tournament(
            ref, specs, rounds=rounds, seed=args.seed, opening=args.moves,
            backend=runner, progress=advance, sprt=test,
            random_opening=args.random_opening,
        )
    plotted = plot_elo(result, plot) if plot is not None else None
    if args.json:
        data = result.as_dict()
        data["plot"] = None if plotted is None else str(plotted)
        _print_json(console, data)
        return 0
    print_tournament(console, result)
    if plotted is not None:
        say(console, f"plot: {plotted}")
    return 0


def print_tournament(console: Console, result: TournamentResult) -> None:
    """The tournament's tables: standings with Elo, pairs, seats, and how Elo was fitted."""
    many = len(result.players) > 2
    say(
        console,
        f"{result.game}: {len(result.agents)} agents, {len(result.records)} games "
        f"({result.rounds} per pairing and seat order), seed {result.seed}, "
        f"{result.backend}, {result.elapsed:.1f}s",
    )
    table = Table(title="standings" + (" (W/D/L: pairwise results)" if many else ""))
    for name in ("agent", "games", "W", "D", "L", "score", "Elo, 95%", "nodes/move"):
        table.add_column(name, justify="left" if name == "agent" else "right", no_wrap=True)
    for s in result.standings():
        table.add_row(
            s.agent, str(s.games), str(s.wins), str(s.draws), str(s.losses),
            f"{100 * s.score:.1f}%", f"{round(s.elo):+d} ± {(s.elo_high - s.elo_low) / 2:.0f}",
            f"{s.nodes_per_move:,.0f}",
        )
    console.print(table)
    pairs = Table(title="pairs (each pair in every seat order)")
    for name in ("agent A", "agent B", "A wins", "draws", "B wins", "A score"):
        pairs.add_column(name, justify="left" if name.startswith("agent") else "right",
                         no_wrap=True)
    for p in result.pairs():
        pairs.add_row(
            p.a, p.b, str(p.a_wins), str(p.draws), str(p.b_wins),
            f"{100 * p.a_score:.1f}%",
        )
    console.print(pairs)
    seats = Table(title="seats (whoever sat there)")
    for name in ("seat", "games", "W", "D", "L", "score"):
        seats.add_column(name, justify="left" if name == "seat" else "right", no_wrap=True)
    for seat in result.seats():
        seats.add_row(
            seat.seat, str(seat.games), str(seat.wins), str(seat.draws), str(seat.losses),
            f"{100 * seat.score:.1f}%",
        )
    console.print(seats)
    say(
        console,
        f"Elo: Bradley-Terry maximum a posteriori fit, draws as half points, "
        f"{number(result.elo.prior)} virtual draw per pair; mean 0; 95% interval = "
        f"+-1.96 standard errors from the Hessian.",
    )
    if result.sprt is not None:
        say(console, sprt_line(result.sprt, result.agents[0]))
    if not result.reproducible:
        say(
            console,
            "note: agents limited by time= depend on the machine's speed, so this run is "
            "not reproducible; nodes= is a reproducible budget.",
        )


def sprt_line(outcome: SprtOutcome, candidate: str) -> str:
    """The test's outcome in one line: bounds, LLR, units, decision."""
    t = outcome.test
    unit = "round" if outcome.units == 1 else "rounds"
    return (
        f"SPRT of {candidate} {t.label}: LLR {outcome.llr:.2f} ({t.lower:.2f}, "
        f"{t.upper:.2f}) after {outcome.units} {unit}, unit scores in half points "
        f"{', '.join(map(str, outcome.results))}; {outcome.verdict}."
    )


# --- plies analyze GAME --file -----------------------------------------------------------------


def run_batch(console: Console, args: argparse.Namespace) -> int:
    """``plies analyze GAME --file positions.txt``: every position, on any backend.

    ``--time`` is per position, and bounds building the game (once, here) as well; it is
    not shortened by the building, which is shared by all positions.
    """
    if args.moves:
        raise OptionError(
            "--moves and --file do not mix: write each position's moves on a line of the file"
        )
    ref = GameRef.parse(args.game, args.option)
    positions = read_positions(args.file)
    game = ref.load(budget=build_budget(args))  # --time bounds building the game too
    algorithm = args.algorithm
    with started(backend(args.workers, args.ray)) as runner, progress_bar(
        len(positions), "positions"
    ) as advance:
        reports = analyze_positions(
            ref, positions, limit=limit_of(args), algorithm=algorithm, player=args.player,
            tie=args.tie, seed=args.seed, backend=runner, progress=advance, source=args.file,
        )
    name = getattr(game, "name", args.game)
    algorithm = reports[0].algorithm if reports else algorithm  # what ran ("auto" resolved)
    if args.json:
        _print_json(console, {
            "game": name, "algorithm": algorithm, "file": args.file,
            "positions": [r.as_dict() for r in reports],
        })
        return 0
    whose = reports[0].player if args.player is not None else "the player to move"
    if reports and reports[0].score is not None:  # the engine's search (chess, Othello)
        print_engine_batch(
            console, f"{name}: best move and value ({algorithm}, for {whose})", reports
        )
        return 0
    print_batch(console, f"{name}: the value of every move ({algorithm}, for {whose})", reports)
    return 0


def print_engine_batch(console: Console, title: str, reports: list[PositionReport]) -> None:
    """One row per position searched by the engine: the best move, its value, the depth,
    the principal variation and the nodes; with EPD operations, each line's ``id`` and
    whether the move is its ``bm``."""
    epd = any(r.operations for r in reports)
    table = Table(title=title)
    columns = ("line", *(("id", "bm") if epd else ()), "to move", "best", "value", "depth",
               "pv", "nodes")
    for name in columns:
        table.add_column(name, justify="right" if name in ("line", "depth", "nodes") else "left")
    for r in reports:
        found = r.best_move_found
        cells = [str(r.line)]
        if epd:
            bm = r.operations.get("bm")
            verdict = "-" if found is None else f"{'yes' if found else 'no'} ({bm})"
            cells += [r.operations.get("id", "-"), verdict]
        value = r.score or number(r.value)
        if r.player != r.to_move:  # a --player's value, or the game is over
            value += f" for {r.player}"
        cells += [
            r.to_move or "game over", r.action or "-", value, str(int(r.stats["depth"])),
            " ".join(r.pv) or "-", f"{int(r.stats['nodes']):,}",
        ]
        table.add_row(*cells)
    console.print(table)
    nodes = sum(int(r.stats["nodes"]) for r in reports)
    seconds = sum(r.stats["elapsed"] for r in reports)
    summary = f"{len(reports)} positions, {nodes:,} nodes, {seconds:.2f}s of search"
    if epd:
        verdicts = [r.best_move_found for r in reports if r.best_move_found is not None]
        summary += f"; best move found in {sum(verdicts)} of {len(verdicts)}"
    say(console, summary)


def print_batch(console: Console, title: str, reports: list[PositionReport]) -> None:
    """One row per position: its moves, the mover, the value, the best move, every move's value."""
    table = Table(title=title)
    for name in ("line", "moves", "to move", "value", "best", "value of every move"):
        table.add_column(name, justify="right" if name in ("line", "value") else "left")
    for r in reports:
        values = "  ".join(f"{a}:{number(v)}" for a, v in r.action_values.items())
        value = number(r.value) + ("" if r.exact else " (heuristic)")
        if r.player != r.to_move:  # a --player's value, or the game is over
            value += f" for {r.player}"
        table.add_row(
            str(r.line), " ".join(r.moves) or "-", r.to_move or "game over", value,
            r.action or "-", values or "-",
        )
    console.print(table)
    nodes = sum(int(r.stats["nodes"]) for r in reports)
    say(console, f"{len(reports)} positions, {nodes:,} nodes")


# --- shared ---------------------------------------------------------------------------------------


@contextmanager
def started(runner: Backend) -> Iterator[Backend]:
    """``runner``, connected until the block ends (Ray starts here, under a spinner)."""
    with ExitStack() as stack:
        with Console(stderr=True).status(f"starting {runner.description}...", spinner="dots"):
            stack.enter_context(runner)
        yield runner


def _print_json(console: Console, data: Any) -> None:
    # Plain text, not Rich: no colour codes and no wrapping in a pipe.
    try:
        print(json.dumps(jsonable(data), indent=2), file=console.file, flush=True)
    except BrokenPipeError:  # e.g. '| head': the reader has seen enough
        os.dup2(os.open(os.devnull, os.O_WRONLY), console.file.fileno())
