"""``plies tune GAME``: tune an evaluation's weights by SPSA matches, then verify by SPRT.

    plies tune empire --agent alphabeta:depth=2,engine=1 --iterations 120 --out empire.json

Registered by :mod:`plies.cli` (``register``/``run``).  Plays the SPSA units
(:mod:`plies.learn.spsa`) on the tournament's backends (``--workers``, ``--ray``) with a
progress bar on stderr (in a terminal only), writes the tuned weights to ``--out`` (a
plies weights file, which ``weights=FILE`` agents load), prints the weights before and
after, and with ``--verify ELO0,ELO1`` plays a match of the tuned weights against the
starting ones that stops when its SPRT decides (``plies tournament --sprt``).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.console import Console
from rich.table import Table

from plies.cli.args import real, say
from plies.cli.tournament import (
    SPRT_ROUNDS,
    add_sprt_options,
    progress_bar,
    sprt_line,
    sprt_of,
    started,
)
from plies.cli.weightsjob import add_weights_job_arguments, weights_target
from plies.errors import OptionError
from plies.learn.spsa import DEFAULT_BATCH, DEFAULT_RATE, spsa
from plies.linear import load_weights, save_weights, weighted
from plies.parallel.backends import GameRef, backend
from plies.policy import jsonable
from plies.tournament.agents import parse_agent
from plies.tournament.tournament import tournament


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``tune`` sub-command to ``sub`` (argparse sub-parsers)."""
    p = sub.add_parser(
        "tune", help="tune evaluation weights by SPSA matches, verified by an SPRT match",
        description="SPSA (simultaneous perturbation stochastic approximation, as Fishtest "
        "tunes Stockfish): every iteration plays the weights nudged up against them nudged "
        "down, in every seat order, and moves the weights toward the winner.",
    )
    add_weights_job_arguments(
        p, game="a game whose evaluation has named weights (e.g. empire, othello, chess)",
        out="write the tuned weights here",
        weights="start from these weights instead of the game's own",
        seed="seed (default 0)",
    )
    p.add_argument("--agent", required=True, metavar="SPEC",
                   help="the search of every move, e.g. alphabeta:depth=2,engine=1")
    p.add_argument(
        "--param", action="append", default=[], metavar="NAME[=C[:LOW:HIGH]]",
        help="a weight to tune, with its last perturbation C (default a quarter of its "
        "start) and bounds (repeatable; default every weight that is not 0)",
    )
    p.add_argument("--iterations", type=int, default=100, metavar="N",
                   help="SPSA iterations: units of one game per seat order (default 100)")
    p.add_argument("--batch", type=int, default=DEFAULT_BATCH, metavar="B",
                   help=f"iterations played with the same weights, in parallel (default "
                   f"{DEFAULT_BATCH}; the result depends on it, not on --workers)")
    p.add_argument("--rate", type=real, default=DEFAULT_RATE, metavar="R",
                   help=f"r_end: a weight's last step is R * C * result (default "
                   f"{DEFAULT_RATE})")
    p.add_argument("--random-opening", type=int, default=6, metavar="K",
                   help="random moves at the start of every unit and verification round "
                   "(default 6)")
    p.add_argument("--moves", default="", help="an opening: every game starts after these moves")
    add_sprt_options(p, "--verify", "a match of the tuned weights against the starting ones")
    p.add_argument("--verify-games", type=int, default=None, metavar="N",
                   help=f"the most rounds of the --verify match (default {SPRT_ROUNDS})")


def run(console: Console, args: argparse.Namespace) -> int:
    """``plies tune``: SPSA, write ``--out``, print the weights, verify."""
    out = weights_target(args)
    ref = GameRef.parse(args.game, args.option)
    game = ref.load()
    agent = parse_agent(args.agent)
    start = load_weights(args.weights, game) if args.weights else None
    weighted(game, {})  # a game without weights fails before anything is played
    test = sprt_of(args.verify, args)
    if args.verify_games is not None and test is None:
        raise OptionError("--verify-games applies to a --verify match")
    with started(backend(args.workers, args.ray)) as runner:
        with progress_bar(args.iterations, "SPSA iterations") as advance:
            result = spsa(
                ref, agent, args.param, iterations=args.iterations, seed=args.seed,
                rate=args.rate, batch=args.batch, start=start, opening=args.moves,
                random_opening=args.random_opening, backend=runner, progress=advance,
            )
        weights = {**(start or {}), **result.weights()}
        save_weights(out, result.game, weights, result.training())
        match = None
        if test is not None:
            base = f"{agent.label},weights={args.weights}" if args.weights else agent.label
            field = [f"{agent.label},weights={args.out}", base]
            field += [base] * (game.num_players - 2)
            rounds = args.verify_games or SPRT_ROUNDS
            with progress_bar(rounds * len(field) * (len(field) - 1), "verification games") as adv:
                match = tournament(
                    ref, field, rounds=rounds, seed=args.seed, opening=args.moves,
                    backend=runner, progress=adv, sprt=test,
                    random_opening=args.random_opening,
                )
    if args.json:
        data: dict[str, Any] = {
            "game": result.game, "out": args.out, "weights": weights,
            "start": dict(zip(result.names, result.start, strict=True)),
            "history": [list(h) for h in result.history], "results": list(result.results),
            "training": result.training(), "backend": result.backend,
        }
        if match is not None:
            data["verify"] = match.as_dict()
        print(json.dumps(jsonable(data), indent=2), file=console.file, flush=True)
        return 0
    mean = sum(result.results) / len(result.results)
    say(console, f"{result.game}: {result.gains.iterations} SPSA iterations, "
                 f"{result.games} games ({result.agent}, batch {result.batch}, rate "
                 f"{result.gains.rate:g}, seed {result.seed}), {result.backend}, "
                 f"{result.elapsed:.1f}s; mean result of plus {mean:+.2f} a unit")
    table = Table(title="weights (SPSA)")
    for name in ("weight", "start", "tuned", "change", "last c"):
        table.add_column(name, justify="left" if name == "weight" else "right")
    for p, value in zip(result.params, result.theta, strict=True):
        table.add_row(p.name, f"{p.start:.4g}", f"{value:.4g}", f"{value - p.start:+.4g}",
                      f"{p.c_end:.4g}")
    console.print(table)
    say(console, f"wrote {args.out}")
    if match is not None and match.sprt is not None:
        pairs = [p for p in match.pairs() if p.a == match.agents[0]]
        wins = sum(p.a_wins for p in pairs)
        draws = sum(p.draws for p in pairs)
        losses = sum(p.b_wins for p in pairs)
        tuned = next(s for s in match.standings() if s.agent == match.agents[0])
        say(console, f"verification: {len(match.records)} games, tuned against the start "
                     f"{wins}-{draws}-{losses} (pairwise W-D-L), Elo of the tuned weights "
                     f"{round(tuned.elo):+d} [{round(tuned.elo_low):+d}, "
                     f"{round(tuned.elo_high):+d}] (mean 0 over the field)")
        say(console, sprt_line(match.sprt, "the tuned weights"))
    return 0
