"""The ``plies`` command: the only place in plies that prints or exits.

Every user mistake (unknown game, malformed tree file, illegal move, bad option) is a
:class:`plies.errors.PliesError`; :func:`main` turns it into one line on stderr and exit
code 2.  Results print as Rich tables, or as plain JSON with ``--json``.

Text that comes from a game (action names, labels of a tree file) is never read as Rich
markup, and lines are soft-wrapped: a long line stays one line in a pipe or a log.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from plies import games
from plies.errors import IllegalActionError, OptionError, PliesError
from plies.game import (
    CHANCE,
    SIMULTANEOUS,
    format_action,
    format_player_action,
    legal_actions,
    parse_action,
    play,
)
from plies.search import SEARCHES, Limit, SearchResult, SearchStats, analyze, simultaneous
from plies.search.narrate import Narrator

Search = Callable[..., SearchResult]
ALGORITHMS: dict[str, Search] = SEARCHES
CHOICES = ["auto", *ALGORITHMS]


class UsageError(PliesError):
    """A command-line argument that argparse accepted but plies cannot use."""


# --- arguments --------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """argparse that reports errors as a PliesError instead of exiting by itself."""

    def error(self, message: str) -> Any:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def _real(text: str) -> float:
    """A float argument; NaN is refused (it compares false with everything)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if math.isnan(value):
        raise argparse.ArgumentTypeError(f"not a number: {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="plies", description="Adversarial search: minimax and its family.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    sub.add_parser("games", help="list the built-in games")
    sub.add_parser("demo", help="a non-interactive tour of the engine at work")

    common = _Parser(add_help=False)
    common.add_argument(
        "game", help="a built-in game name, a .tree/.json tree file, or a .kif GDL file"
    )
    common.add_argument(
        "-o", "--option", action="append", default=[], metavar="KEY=VALUE",
        help="a game option, e.g. piles=3,4,5 (repeatable; 'plies games' lists them)",
    )
    common.add_argument(
        "--moves", default="", help="moves from the start, space- or comma-separated"
    )
    common.add_argument("--algorithm", "-a", default="auto", choices=CHOICES)
    common.add_argument("--depth", "-d", type=int, help="depth limit (in --unit)")
    common.add_argument("--unit", choices=["ply", "round"], default="ply")
    common.add_argument("--time", "-t", type=_real, help="time budget in seconds")
    common.add_argument("--nodes", type=int, help="node budget")
    common.add_argument("--player", help="search from this player's point of view")
    common.add_argument("--tie", choices=["first", "random"], default="first")
    common.add_argument("--seed", type=int, default=None, help="seed for random choices")
    common.add_argument(
        "--engine", action="store_true",
        help="alpha-beta with engine craft: transposition table, move ordering, PVS, "
        "iterative deepening shown live",
    )

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
                "--threshold", type=_real,
                help="bounded minimax: only decide whether this value can be reached",
            )
            p.add_argument(
                "--weak", action="store_true",
                help="only win, draw or loss (an exact engine search, cheaper than the score)",
            )

    t = sub.add_parser("trace", parents=[common], help="narrate a small search step by step")
    t.add_argument("--max-lines", type=int, default=400, help="stop narrating after N lines")

    p = sub.add_parser("play", parents=[common], help="play in the terminal")
    p.add_argument(
        "--human", default="0",
        help="comma-separated human players (numbers or names), or 'none' for engine vs engine",
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
}


def _command_modules() -> list[Any]:
    import importlib

    return [importlib.import_module(name) for name in dict.fromkeys(COMMAND_MODULES.values())]


# --- shared steps ---------------------------------------------------------------------------


GDL_SUFFIXES = (".kif", ".gdl")


def _load(args: argparse.Namespace) -> Any:
    if args.game.lower().endswith(GDL_SUFFIXES):
        if args.option:
            raise OptionError("a GDL game takes no -o options; its rules are in the file")
        from plies.gdl import load_game

        return load_game(Path(args.game))
    options = games.parse_options(args.game, args.option)
    return games.load(args.game, **options)


def _split_moves(game: Any, text: str) -> list[str]:
    split = getattr(game, "split_moves", None)  # e.g. connect4's compact "4453"
    return list(split(text)) if split is not None else text.replace(",", " ").split()


def _position(game: Any, moves: str) -> tuple[Any, list[str]]:
    state = game.initial_state()
    played: list[str] = []
    for i, token in enumerate(_split_moves(game, moves), start=1):
        try:
            state = play(game, state, token)
        except IllegalActionError as err:
            raise IllegalActionError(
                token, err.legal, context=f"(move {i} of --moves)"
            ) from None
        played.append(token)
    return state, played


def _players(game: Any) -> str:
    return ", ".join(f"{p} ({_name(game, p)})" for p in range(game.num_players))


def _player(game: Any, state: Any, text: str | None) -> int | None:
    """The player named by ``--player`` (a number or a name); None: the mover decides.

    At a chance node nobody is to move, so the user must say whose value to report.
    """
    if text is None:
        if not game.is_terminal(state) and game.to_move(state) < 0:
            raise OptionError(
                f"nobody is to move here ({_mover_name(game, state)}); say whose value "
                f"to report with --player ({_players(game)})"
            )
        return None
    text = text.strip()
    if text.isdigit() and int(text) < game.num_players:
        return int(text)
    for p in range(game.num_players):
        if _name(game, p).lower() == text.lower():
            return p
    raise OptionError(f"unknown player {text!r}; players are {_players(game)}")


def _algorithm(
    game: Any, name: str, threshold: float | None = None, state: Any = None
) -> tuple[str, Search]:
    if threshold is not None:
        if name not in ("auto", "bounded"):
            raise OptionError("--threshold needs --algorithm bounded (or auto)")
        return "bounded", ALGORITHMS["bounded"]
    if name == "auto":
        if getattr(game, "has_simultaneous", False) or (
            state is not None and game.to_move(state) == SIMULTANEOUS
        ):
            name = "simultaneous"
        elif getattr(game, "has_chance", False):
            name = "expectiminimax"
        else:
            name = "alphabeta"
    return name, ALGORITHMS[name]


def _limit(args: argparse.Namespace, default_time: float | None = None) -> Limit | None:
    time = args.time
    if time is None and args.depth is None and args.nodes is None:
        time = default_time
    if args.depth is None and time is None and args.nodes is None and args.unit == "ply":
        return None
    return Limit(depth=args.depth, unit=args.unit, time=time, nodes=args.nodes)


def _say(console: Console, text: str = "", *, style: str | None = None) -> None:
    """Print plain text soft-wrapped: Rich would otherwise break lines at 80 columns
    whenever the output is not a terminal (a pipe, a log, a test)."""
    console.print(text, style=style, soft_wrap=True)


def _name(game: Any, player: int) -> str:
    namer = getattr(game, "player_name", None)
    return f"P{player}" if namer is None else str(namer(player))


def _pv_text(game: Any, state: Any, pv: Sequence[Any]) -> list[str]:
    out: list[str] = []
    for action in pv:
        out.append(format_action(game, state, action))
        state = game.result(state, action)
    return out


def _num(value: float) -> str:
    """3, 0.4867, 2.1, +inf: integers without a point, others to 4 decimals at most."""
    if not math.isfinite(value):
        return "nan" if math.isnan(value) else ("+inf" if value > 0 else "-inf")
    if value == int(value):
        return str(int(value))
    return f"{value:.4f}".rstrip("0").rstrip(".")


def _jsonable(value: Any) -> Any:
    """``value`` with infinities as "+inf"/"-inf" strings: strict JSON has no Infinity."""
    if isinstance(value, float) and not math.isfinite(value):
        return _num(value)
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


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
) -> tuple[str, SearchResult]:
    solver = _exact_solver(game, state, args)
    if solver is not None:
        return _solve_exactly(console, solver, state, args, all_values=all_values)
    name, search = _algorithm(game, args.algorithm, getattr(args, "threshold", None), state)
    kwargs: dict[str, Any] = {
        "player": _player(game, state, args.player), "tie": args.tie, "seed": args.seed,
    }
    if getattr(args, "threshold", None) is not None:
        kwargs["threshold"] = args.threshold
    limit = _limit(args)
    kwargs.update(_engine(name, args, None if args.json else console, game, state, limit))
    if getattr(args, "weak", False):
        if name != "alphabeta" or limit is not None:
            raise OptionError("--weak needs an exact alpha-beta search (no --depth, --time, "
                              "--nodes)")
        kwargs.update(tt=True, ordering=True, weak=True)
        kwargs.pop("bisection", None)
    with console.status(f"searching with {name}...", spinner="dots"):
        if all_values:
            kwargs.pop("pruning", None)
            kwargs.pop("pvs", None)
            if name != "alphabeta":
                for switch in ("tt", "ordering", "bisection"):
                    kwargs.pop(switch, None)
            return name, analyze(game, state, limit, algorithm=name, **kwargs)
        return name, search(game, state, limit, **kwargs)


def _exact_solver(game: Any, state: Any, args: argparse.Namespace) -> Any:
    """The game's dedicated exact solver, when ``--algorithm auto`` should use it.

    Only for an exact search (no limit, no threshold) with the ``first`` tie rule and
    without ``--engine``, which keeps the generic engine with the game's hooks.
    """
    if (
        args.algorithm != "auto" or args.engine or _limit(args) is not None
        or getattr(args, "threshold", None) is not None or args.tie != "first"
        or game.is_terminal(state)
    ):
        return None
    from plies.solvers import solver_for

    return solver_for(game)


def _solve_exactly(
    console: Console, solver: Any, state: Any, args: argparse.Namespace, *, all_values: bool
) -> tuple[str, SearchResult]:
    """``solve``/``analyze`` by the game's dedicated solver, each null-window test shown."""
    game = solver.game
    name = f"solver ({solver.backend})"
    player = _player(game, state, args.player)
    weak = getattr(args, "weak", False)

    def report(m: int, r: int, lo: int, hi: int, elapsed: float) -> None:
        known = f"score {lo}" if lo == hi else f"score in [{lo}, {hi}]"
        _say(console, f"test score > {m}: {'yes' if r > m else 'no'}; {known}; "
                      f"{solver.nodes - nodes0:,} nodes, {elapsed:.2f}s")

    nodes0 = solver.nodes
    on_test = None if args.json or all_values else report
    with console.status(f"solving with the {name}...", spinner="dots"):
        if not all_values:
            return name, solver.solve(state, player=player, weak=weak, on_test=on_test)
        start = time.perf_counter()
        values = solver.analyze(state, player=player)
    mover = game.to_move(state)
    pick = max if player in (None, mover) else min
    best = pick(values.values())
    action = next(a for a, v in values.items() if v == best)
    stats = SearchStats(nodes=solver.nodes - nodes0, elapsed=time.perf_counter() - start)
    return name, SearchResult(
        best, action, (action,), stats, mover if player is None else player,
        action_values=values,
    )


def _engine(
    name: str,
    args: argparse.Namespace,
    console: Console | None,
    game: Any,
    state: Any,
    limit: Limit | None = None,
) -> dict[str, Any]:
    """The engine-craft keywords for ``--engine``, reporting each iteration on ``console``.

    A game with solver hooks (``value_bounds``, as Connect Four has) gets the engine
    with ``--algorithm auto`` even without ``--engine``; an exact search (no limit)
    then finds the value by bisection.
    """
    solver = getattr(args, "algorithm", None) == "auto" and name == "alphabeta" and (
        hasattr(game, "value_bounds")
    )
    if not (args.engine or solver):
        return {}
    if name == "expectiminimax":
        return {"pruning": True}  # Star1 at chance nodes, alpha-beta elsewhere
    if name != "alphabeta":
        raise OptionError(
            f"--engine needs --algorithm alphabeta or expectiminimax (or auto), not {name}"
        )
    options: dict[str, Any] = {"tt": True, "ordering": True, "pvs": True}
    if limit is None:
        options["bisection"] = True
    if console is not None:

        def report(r: SearchResult) -> None:
            line = " ".join(_pv_text(game, state, r.pv))
            _say(
                console,
                f"depth {r.stats.depth}: value {_num(r.value)}, pv {line or '-'}, "
                f"{r.stats.nodes:,} nodes, {r.stats.elapsed:.2f}s",
            )

        options["on_iteration"] = report
    return options


def _report(game: Any, state: Any, moves: list[str], name: str, r: SearchResult) -> dict[str, Any]:
    together = not game.is_terminal(state) and game.to_move(state) == SIMULTANEOUS

    def own(action: Any) -> str:  # the searching player's own action
        if together:
            return format_player_action(game, state, r.player, action)
        return format_action(game, state, action)

    data: dict[str, Any] = {
        "game": getattr(game, "name", "game"),
        "moves": moves,
        "to_move": None if game.is_terminal(state) else _mover_name(game, state),
        "player": _name(game, r.player),
        "algorithm": name,
        "value": r.value,
        "exact": r.exact,
        "action": None if r.action is None else own(r.action),
        "pv": _pv_text(game, state, r.pv),
        "stats": r.stats.as_dict(),
    }
    if r.values is not None:
        data["values"] = {_name(game, p): v for p, v in enumerate(r.values)}
    if r.action_values is not None:
        data["action_values"] = {own(a): v for a, v in r.action_values.items()}
    if r.strategy is not None:
        data["strategy"] = {own(a): q for a, q in r.strategy.items()}
    return data


def _mover_name(game: Any, state: Any) -> str:
    mover = game.to_move(state)
    if mover == SIMULTANEOUS:
        return "everyone (simultaneous)"
    return "chance" if mover == CHANCE else _name(game, mover)


# --- commands -----------------------------------------------------------------------------


def cmd_games(console: Console, args: argparse.Namespace) -> int:
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


def cmd_solve(console: Console, args: argparse.Namespace, *, all_values: bool = False) -> int:
    game = _load(args)
    state, moves = _position(game, args.moves)
    name, result = _search(console, game, state, args, all_values=all_values)
    data = _report(game, state, moves, name, result)
    if getattr(args, "weak", False):
        data["outcome"] = _outcome(game, result.value)
    if args.json:
        # Plain text, not Rich: no colour codes (FORCE_COLOR) and no wrapping in a pipe.
        print(json.dumps(_jsonable(data), indent=2), file=console.file, flush=True)
        return 0
    _say(console, game.render(state) if hasattr(game, "render") else str(state))
    if all_values and result.action_values:
        title = f"value of every move for {data['player']} ({name})"
        table = Table(title=title, min_width=len(title))
        table.add_column("move")
        table.add_column("value", justify="right")
        table.add_column("")
        for action, value in data["action_values"].items():
            mark = "chosen" if action == data["action"] else "best" if value == result.value else ""
            table.add_row(action, _num(value), mark)
        console.print(table)
    summary = Table(show_header=False, title=f"{data['game']}: {name}")
    summary.add_column(style="bold")
    summary.add_column()
    threshold = getattr(args, "threshold", None)
    kind = "exact" if result.exact else (
        f"bound (threshold {_num(threshold)})" if threshold is not None
        else "bound" if "outcome" in data else "heuristic"
    )
    summary.add_row("to move", str(data["to_move"] or "nobody (game over)"))
    if "outcome" in data:
        summary.add_row(f"outcome for {data['player']}", data["outcome"])
    summary.add_row(f"value for {data['player']}", f"{_num(result.value)} ({kind})")
    if result.values is not None:
        summary.add_row("values", ", ".join(f"{k}={_num(v)}" for k, v in data["values"].items()))
    summary.add_row("best move", data["action"] or "none")
    if "strategy" in data:
        mix = ", ".join(f"{a} ({_num(q)})" for a, q in data["strategy"].items() if q > 0)
        summary.add_row("mixed strategy", mix)
    summary.add_row("principal variation", " ".join(data["pv"]) or "-")
    console.print(summary)
    console.print(_stats_table(result))
    return 0


def _outcome(game: Any, value: float) -> str:
    """Win, draw or loss: ``value`` against the middle of the game's utility range."""
    low, high = game.utility_range
    draw = (low + high) / 2
    return "win" if value > draw else "loss" if value < draw else "draw"


def cmd_trace(console: Console, args: argparse.Namespace) -> int:
    game = _load(args)
    state, _ = _position(game, args.moves)
    name, search = _algorithm(game, args.algorithm)
    player = _player(game, state, args.player)
    who = game.to_move(state) if player is None else player

    def echo(line: str) -> None:
        _say(console, line)

    narrator = Narrator(game, state, who, echo=echo, limit=args.max_lines)
    title = getattr(game, "name", "game")
    _say(console, f"Tracing {name} on {title}; MAX is {_name(game, who)}.")
    limit = _limit(args)
    result = search(game, state, limit, player=player, tie=args.tie, seed=args.seed, trace=narrator)
    if narrator.truncated:
        _say(console, f"... {narrator.truncated:,} more steps not shown (raise --max-lines).")
    best = "none" if result.action is None else format_action(game, state, result.action)
    _say(
        console,
        f"Result: value {_num(result.value)} for MAX, best move {best}, "
        f"{result.stats.nodes:,} nodes.",
    )
    return 0


def cmd_play(console: Console, args: argparse.Namespace) -> int:
    game = _load(args)
    state, _ = _position(game, args.moves)
    humans = set() if args.human.strip().lower() == "none" else {
        _player(game, state, token) for token in args.human.split(",") if token.strip()
    }
    name, search = _algorithm(game, args.algorithm)
    limit = _limit(args, default_time=2.0)
    rng = random.Random(args.seed)
    while not game.is_terminal(state):
        _say(console, game.render(state))
        mover = game.to_move(state)
        if mover == SIMULTANEOUS:
            joint = _joint_move(console, game, state, humans, limit, rng)
            if joint is None:
                _say(console, "bye")
                return 0
            state = game.result(state, joint)
            continue
        if mover == CHANCE:
            outcomes = list(game.chance_outcomes(state))
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            _say(console, f"chance: {format_action(game, state, action)}")
        elif mover in humans:
            action = _ask(console, game, state, mover)
            if action is None:
                _say(console, "bye")
                return 0
        else:
            seed = rng.randrange(2**32)
            craft = _engine(name, args, None, game, state, limit)
            result = search(game, state, limit, player=mover, tie=args.tie, seed=seed, **craft)
            action = result.action
            if action is None:  # e.g. --depth 0: a value, but no move was compared
                raise OptionError(
                    f"the engine chose no move for {_name(game, mover)} within the limit; "
                    "give it --depth 1 or more, or --time"
                )
            _say(
                console,
                f"{_name(game, mover)} ({name}) plays {format_action(game, state, action)}: "
                f"value {_num(result.value)}, depth {result.stats.depth}, "
                f"{result.stats.nodes:,} nodes in {result.stats.elapsed:.2f}s",
            )
        state = game.result(state, action)
    _say(console, game.render(state))
    scores = ", ".join(
        f"{_name(game, p)} {_num(game.utility(state, p))}" for p in range(game.num_players)
    )
    _say(console, f"game over: {scores}")
    return 0


def _joint_move(
    console: Console, game: Any, state: Any, humans: set[int | None], limit: Limit | None,
    rng: random.Random,
) -> tuple[Any, ...] | None:
    """Everyone's move at a simultaneous node: humans type, engines draw from the
    mixed strategy of :func:`plies.simultaneous`.  None when a human quits."""
    joint: list[Any] = []
    for p in range(game.num_players):
        choices = list(game.player_actions(state, p))
        if p in humans and len(choices) > 1:
            action = _ask(console, game, state, p, choices)
            if action is None:
                return None
        elif len(choices) == 1:
            action = choices[0]
        else:
            result = simultaneous(game, state, limit, player=p, seed=rng.randrange(2**32))
            strategy = result.strategy or {result.action: 1.0}
            action = rng.choices(list(strategy), list(strategy.values()))[0]
            mix = ", ".join(
                f"{format_player_action(game, state, p, a)} {q:.2f}"
                for a, q in strategy.items() if q
            )
            _say(console, f"{_name(game, p)} (simultaneous, mix {mix}) plays "
                          f"{format_player_action(game, state, p, action)}")
        joint.append(action)
    return tuple(joint)


def _ask(
    console: Console, game: Any, state: Any, mover: int, choices: Sequence[Any] | None = None
) -> Any:
    """A move typed by ``mover``: one of ``choices`` (at a simultaneous node) or legal."""
    actions = list(legal_actions(game, state) if choices is None else choices)
    if choices is None:
        legal = [format_action(game, state, a) for a in actions]
    else:
        legal = [format_player_action(game, state, mover, a) for a in actions]
    while True:
        _say(console, f"{_name(game, mover)} to move; legal: {', '.join(legal)} (q to quit)")
        try:
            text = input("> ")
        except EOFError:
            _say(console)  # the prompt line was not ended by the user's Enter
            return None
        if not sys.stdin.isatty():  # piped input: echo it so the transcript reads well
            _say(console, text)
        if text.strip().lower() in ("q", "quit", "exit"):
            return None
        if choices is not None:
            typed = " ".join(text.split()).lower()
            for action, shown in zip(actions, legal, strict=True):
                if shown.lower() == typed:
                    return action
            _say(console, f"not a move of {_name(game, mover)}: {text!r}", style="red")
            continue
        try:
            return parse_action(game, state, text)
        except IllegalActionError as err:
            _say(console, str(err), style="red")


# --- entry point --------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``plies`` command; returns the exit code (0 ok, 2 user error)."""
    # markup=False: action names and tree labels may contain "[...]".  Text goes through
    # _say (soft-wrapped); tables wrap their cells to the console width.
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


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()
