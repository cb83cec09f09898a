"""``plies solve`` and ``plies analyze``: the value and best move of a position, or the
value of every legal move.

A game with play defaults (chess, Othello) gets the engine's search with them
(:class:`plies.policy.SearchSession`: a time a move, quiescence, mate scores, the unit
of values), unless the request is one for the plain policy (a threshold, a weak
solution, an exact solver); every other game gets the search that
:func:`plies.policy.plan` chooses.  The position is shown as the game's board (or its
text picture); results print as Rich tables, or as plain JSON with ``--json``.
``plies analyze GAME --file FILE`` hands over to batch analysis
(:func:`plies.cli.tournament.run_batch`).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from typing import Any

from rich.console import Console
from rich.table import Table

from plies.cli.args import game_of, position_of, real, request_of, say, show
from plies.cli.progress import watch
from plies.policy import (
    Plan,
    Score,
    SearchSession,
    SolverTest,
    jsonable,
    number,
    outcome,
    plan,
    pv_text,
    report,
)
from plies.search import SearchResult
from plies.search.memo import MemoProgress


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``solve`` and ``analyze`` sub-commands to the ``plies`` argument parser."""
    for name, text in (
        ("solve", "exact (or depth-limited) value and best move"),
        ("analyze", "the value of every legal move"),
    ):
        p = sub.add_parser(name, parents=[common], help=text)
        p.add_argument("--json", action="store_true", help="print JSON instead of tables")
        if name == "analyze":  # batch analysis, on a process pool or Ray: plies.parallel
            from plies.cli.tournament import add_backend_options

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


def run(console: Console, args: argparse.Namespace) -> int:
    """Run ``solve`` or ``analyze`` (``args.command``); returns the exit code."""
    if args.command == "analyze":
        if args.file is not None:
            from plies.cli.tournament import run_batch

            return run_batch(console, args)
        return cmd_solve(console, args, all_values=True)
    return cmd_solve(console, args)


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

    show_iterations = not args.json and chosen.kind == "engine" and "tt" in chosen.options
    anytime = chosen.request.limit is not None and chosen.request.limit.anytime
    what = f"solving with the {chosen.name}" if chosen.kind == "solver" else (
        f"searching with {chosen.name}"
    )
    with console.status(f"{what}...", spinner="dots") as status:
        progress = watch(console, status, what,
                         exact=chosen.request.limit is None and chosen.kind != "solver")

        def on_iteration(r: SearchResult) -> None:
            progress.iteration(r)
            if show_iterations:
                line = " ".join(pv_text(game, state, r.pv))
                say(console, f"depth {r.stats.depth}: value {number(r.value)}, pv "
                             f"{line or '-'}, {r.stats.nodes:,} nodes, {r.stats.elapsed:.2f}s")

        def on_progress(p: MemoProgress) -> None:
            status.update(f"{what}: {p.states:,} states solved, {p.nodes:,} nodes, "
                          f"{p.tt_hits:,} table hits, {p.elapsed:.1f}s")

        result = chosen.run(
            game, state, stop=progress, on_test=on_test if live else None,
            # (Only where the search deepens anyway: on_iteration makes a depth-limited
            # search deepen iteratively.)
            on_iteration=on_iteration if show_iterations or anytime else None,
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
    console: Console, session: SearchSession, state: Any, args: argparse.Namespace, *,
    all_values: bool,
) -> tuple[Plan, SearchResult, Score]:
    """The engine's search of chess or Othello (see :mod:`plies.policy.session`): the
    given limit or the defaults' time, quiescence and mate scores.  The result's values
    are the game's (a mate is the utility of a win); the score says "mate in N"."""
    game = session.game
    request = request_of(args, game, state, all_values=all_values)
    given = request.limit
    limit = session.limit(state=state) if given is None else session.limit(
        given.depth, given.time, given.nodes, given.unit
    )

    def on_iteration(r: SearchResult) -> None:
        line = " ".join(pv_text(game, state, r.pv))
        say(console, f"depth {r.stats.depth}: value {session.score(r)}, pv {line or '-'}, "
                     f"{r.stats.nodes:,} nodes, {r.stats.elapsed:.2f}s")

    live = not args.json and not all_values and limit is not None
    with console.status("searching with the engine...", spinner="dots") as status:
        progress = watch(console, status, "searching with the engine", exact=limit is None)

        def iterated(r: SearchResult) -> None:
            progress.iteration(r)
            if live:
                on_iteration(r)

        result = session.run(
            state, limit, algorithm=args.algorithm, player=request.player, tie=args.tie,
            seed=args.seed, all_values=all_values, stop=progress,
            on_iteration=iterated if live or (limit is not None and limit.anytime) else None,
        )
    assert session.plan is not None
    score = session.score(result)
    values = {a: s.value for a, s in session.action_scores(result).items()}
    result = dataclasses.replace(
        result, value=score.value, action_values=values if all_values else None
    )
    return session.plan, result, score


def cmd_solve(console: Console, args: argparse.Namespace, *, all_values: bool = False) -> int:
    game = game_of(args)
    state, moves = position_of(args, game)
    session = SearchSession(game)
    score = None
    if session.tuned and not _solved(game, state, args, all_values):
        chosen, result, score = _engine_search(console, session, state, args,
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
    show(console, game, state)
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
