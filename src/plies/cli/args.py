"""The command-line face of a request: the arguments every ``plies`` command shares.

Each command module of :mod:`plies.cli` builds its parser from :func:`search_arguments`
and turns the parsed arguments into a game, a position and a :class:`SearchRequest`
here, so every command reads them the same way.
"""

from __future__ import annotations

import argparse
import math
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from time import monotonic
from typing import Any, Final

from rich.console import Console

from plies import games
from plies.budget import Budget, BudgetExceeded, Stopped
from plies.errors import OptionError, UsageError, bounded, quoted
from plies.game import hook
from plies.linear import load_weights, weighted
from plies.policy.games import find_player, players_text, position
from plies.policy.plan import SearchRequest, algorithm_choices
from plies.policy.text import mover_name
from plies.search import Limit


class ArgumentParser(argparse.ArgumentParser):
    """argparse that reports errors as a :class:`UsageError` instead of exiting, on one
    short line (argparse quotes the argument it refuses, which may be 5,000 digits)."""

    def error(self, message: str) -> Any:
        raise UsageError(f"{bounded(message, 240)} (see '{self.prog} --help')")


def real(text: str) -> float:
    """A float argument; NaN is refused (it compares false with everything)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if math.isnan(value):
        raise argparse.ArgumentTypeError(f"not a number: {text!r}")
    return value


def search_arguments(
    *, budgets: bool = True, engine: bool = True, short_option: bool = True
) -> ArgumentParser:
    """A parent parser with the game, the position and the search options.

    ``budgets``: offer ``--time`` and ``--nodes``; ``engine``: offer ``--engine``;
    ``short_option``: spell game options ``-o`` as well as ``--option`` (a command whose
    ``-o`` is its output file says False).  A command offers only what it accepts.
    """
    common = ArgumentParser(add_help=False)
    common.add_argument(
        "game", help="a built-in game name, a .tree/.json tree file, a .kif GDL file, "
        "module:attribute of your own game, or openspiel:NAME (an OpenSpiel game)"
    )
    common.add_argument(
        *(("-o", "--option") if short_option else ("--option",)),
        action="append", default=[], metavar="KEY=VALUE",
        help="a game option, e.g. piles=3,4,5 (repeatable; 'plies games' lists them)",
    )
    common.add_argument(
        "--moves", default="", help="moves from the start, space- or comma-separated"
    )
    common.add_argument(
        "--algorithm", "-a", default="auto", choices=algorithm_choices(),
        help="the search ('plies algorithms' lists them); auto: simultaneous for "
        "simultaneous moves, expectiminimax for chance, else alphabeta",
    )
    common.add_argument("--depth", "-d", type=int, help="depth limit (in --unit)")
    common.add_argument(
        "--unit", choices=["ply", "round"], default="ply",
        help="what --depth counts: plies (single moves) or rounds (a move of every player)",
    )
    if budgets:
        common.add_argument("--time", "-t", type=real, help="time budget in seconds")
        common.add_argument("--nodes", type=int, help="node budget")
    common.add_argument("--player", help="search from this player's point of view")
    common.add_argument(
        "--tie", choices=["first", "random"], default="first",
        help="among equally good moves: the first in the game's order, or a random one "
        "(--seed)",
    )
    common.add_argument("--seed", type=int, default=None, help="seed for random choices")
    common.add_argument(
        "--weights", metavar="FILE",
        help="evaluate with the feature weights in FILE (written by plies learn)",
    )
    common.add_argument(
        "--strict-cutoffs", action="store_true",
        help="alpha-beta cuts only when a bound is strictly passed (v > beta at MAX, "
        "v < alpha at MIN), as some courses' autograders expect",
    )
    if engine:
        common.add_argument(
            "--engine", action="store_true",
            help="alpha-beta with engine craft: transposition table, move ordering, PVS, "
            "iterative deepening shown live",
        )
    return common


def game_of(args: argparse.Namespace) -> Any:
    """The game ``args.game`` names, with its ``-o`` options and ``--weights FILE``
    (:func:`plies.linear.load_weights`: a file for this game's linear evaluation).

    ``--time`` is the budget of the whole command, counted from ``args.started`` (when
    :func:`plies.cli.main` began; else from this call): reading and building the game
    (a tree file, grounding GDL) fail with :class:`~plies.budget.BudgetExceeded` once it
    is spent.  The seconds spent up to the search are kept in ``args.build_seconds``;
    :func:`request_of` takes them off the search's ``--time``, so that the whole command
    keeps to it.
    """
    started = getattr(args, "started", None)
    started = monotonic() if started is None else started
    budget = build_budget(args)
    with _backstop(None if budget is None else budget.seconds, args):
        try:
            game = games.load(args.game, args.option, budget=budget)
        except BudgetExceeded as err:
            if budget is None or isinstance(err, (Stopped, LoadingHung)):
                raise
            raise BudgetExceeded(
                f"--time {args.time:g} s ran out while loading {quoted(args.game)}: {err}"
            ) from None
        choice = getattr(game, "choice", None)  # a GDL game says which reasoner plays it
        path = getattr(args, "weights", None)
        if path is not None:
            game = weighted(game, load_weights(path, game, stdin=True))  # "-": stdin once
    args.build_seconds = monotonic() - started
    seconds = getattr(args, "time", None)
    spent = seconds is not None and args.build_seconds >= seconds  # an error follows
    if choice is not None and choice.kind != "propnet" and not spent:
        print(f"plies: {args.game}: {choice.reason}", file=sys.stderr)
    return game


class LoadingHung(BudgetExceeded):
    """Loading code that does not count its steps ran past ``--time`` (the backstop)."""


BACKSTOP: Final = (2.0, 1.0)
"""``(factor, seconds)``: loading code that does not count its steps against the budget
(a user's module or factory, a plug-in's source) is interrupted once ``factor`` times
what was left of ``--time``, plus ``seconds``, have passed: a bound on a hang, well
after any source that keeps to its budget has stopped by itself."""


ALARM_MAX: Final = 1e7
"""The longest backstop the system's timer is given (seconds; a longer ``--time``
overflows it)."""


@contextmanager
def _backstop(seconds: float | None, args: argparse.Namespace) -> Iterator[None]:
    """Raise :class:`~plies.budget.BudgetExceeded` in the block once :data:`BACKSTOP`
    of ``seconds`` have passed (by SIGALRM; only in the main thread, and only when no
    other timer or SIGALRM handler is in place; else nothing)."""
    usable = (
        seconds is not None
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, None)
        and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    )
    if not usable or seconds is None:
        yield
        return
    factor, extra = BACKSTOP

    def ring(signum: int, frame: Any) -> None:
        raise LoadingHung(
            f"loading the game {quoted(args.game)} did not end within --time "
            f"{args.time:g} s (stopped after {factor:g} times what was left, plus {extra:g} s)"
        )

    signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, min(factor * seconds + extra, ALARM_MAX))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)


def build_budget(args: argparse.Namespace) -> Budget | None:
    """The budget for loading and building the game: what is left of ``--time`` since
    ``args.started`` (the command's start, when known), else None, the default of the
    game's source (:func:`plies.games.load`).

    Raises:
        BudgetExceeded: nothing is left of ``--time``.
    """
    seconds = getattr(args, "time", None)
    if seconds is None or not seconds > 0:  # a bad --time is refused by the search's Limit
        return None
    started = getattr(args, "started", None)
    left = seconds if started is None else started + seconds - monotonic()
    if not left > 0:
        raise BudgetExceeded(f"--time {seconds:g} s ran out before the game was loaded")
    return Budget(seconds=left)


def position_of(args: argparse.Namespace, game: Any) -> tuple[Any, list[str]]:
    """The state after ``--moves`` and the moves as typed."""
    return position(game, args.moves, "of --moves")


def limit_of(
    args: argparse.Namespace, default_time: float | None = None, *, spent: float = 0.0
) -> Limit | None:
    """The ``--depth``/``--unit``/``--time``/``--nodes`` limit; None for an exact search.

    ``spent``: seconds of ``--time`` already used (building the game), taken off it.

    Raises:
        BudgetExceeded: ``spent`` leaves nothing of ``--time`` for the search.
    """
    time, nodes = getattr(args, "time", None), getattr(args, "nodes", None)
    if time is not None and spent > 0 and time > 0:
        if spent >= time:
            raise BudgetExceeded(
                f"building the game took {spent:.2f} s, all of --time {time:g} s; nothing is "
                f"left for the search"
            )
        time -= spent
    if time is None and args.depth is None and nodes is None:
        time = default_time
    if args.depth is None and time is None and nodes is None and args.unit == "ply":
        return None
    return Limit(depth=args.depth, unit=args.unit, time=time, nodes=nodes)


def player_of(game: Any, state: Any, text: str | None) -> int | None:
    """The player ``--player`` names (a number or a name); None: the mover decides.

    At a chance or simultaneous node nobody is to move, so the user must say whose value
    to report.
    """
    if text is None:
        if not game.is_terminal(state) and game.to_move(state) < 0:
            raise OptionError(
                f"nobody is to move here ({mover_name(game, state)}); say whose value "
                f"to report with --player ({players_text(game)})"
            )
        return None
    return find_player(game, text)


def request_of(
    args: argparse.Namespace,
    game: Any,
    state: Any,
    *,
    all_values: bool = False,
    traced: bool = False,
    default_time: float | None = None,
) -> SearchRequest:
    """The :class:`SearchRequest` that the common arguments describe (one search: what
    the command spent before it, since ``args.started``, or else building the game, is
    taken off ``--time``)."""
    started = getattr(args, "started", None)
    spent = getattr(args, "build_seconds", 0.0) if started is None else monotonic() - started
    return SearchRequest(
        algorithm=args.algorithm,
        limit=limit_of(args, default_time, spent=spent),
        player=player_of(game, state, args.player),
        tie=args.tie,
        seed=args.seed,
        engine=getattr(args, "engine", False),
        threshold=getattr(args, "threshold", None),
        weak=getattr(args, "weak", False),
        all_values=all_values,
        traced=traced,
        strict_cutoffs=getattr(args, "strict_cutoffs", False),
    )


def say(console: Console, text: str = "", *, style: str | None = None) -> None:
    """Print plain text soft-wrapped: Rich would otherwise break lines at 80 columns
    whenever the output is not a terminal (a pipe, a log, a test)."""
    console.print(text, style=style, soft_wrap=True)


def show(console: Console, game: Any, state: Any, last: Any = None) -> None:
    """Print the position: the game's board (its ``board`` hook, ``last`` the action that
    led here) drawn by Rich, in colour on a colour terminal; else the game's ``render``
    text."""
    draw = hook(game, "board")
    if draw is None:
        render = getattr(game, "render", None)
        say(console, str(state) if render is None else str(render(state)))
        return
    console.print(draw(state, last), soft_wrap=True)


__all__ = [
    "ArgumentParser", "algorithm_choices", "build_budget", "game_of", "limit_of",
    "player_of", "position_of", "real", "request_of", "say", "search_arguments", "show",
]
