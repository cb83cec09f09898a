"""``plies learn GAME``: learn the weights of a game's linear evaluation from self-play.

    plies learn othello --games 400 --depth 2 --method logistic --out othello.json --seed 1

Registered by :mod:`plies.cli` (``register``/``run``).  The self-play games run on a
local process pool (``--workers N``) or Ray (``--ray [ADDRESS]``), as ``plies
tournament``'s do, with the same games and weights on every backend.  Shows a Rich progress bar on
stderr while the games are played (in a terminal only), then a table of the hand-set and
learned weights and the held-out log-loss of both; writes the weights file
(:func:`plies.linear.save_weights`), which ``--weights FILE`` and the agent key
``weights=FILE`` load.  ``--out`` is checked before the self-play and written atomically
(:mod:`plies.outputs`): an existing file that is not a weights file needs ``--force``.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from plies.cli.args import real, say
from plies.cli.tournament import progress_bar, started
from plies.cli.weightsjob import add_weights_job_arguments, weights_target
from plies.errors import OptionError
from plies.games import GameSpec
from plies.learn import METHODS, PRIORS, SCALES, learn
from plies.learn.selfplay import SelfPlay
from plies.linear import load_weights, save_weights, weighted
from plies.parallel.backends import backend
from plies.policy import number
from plies.tournament.agents import parse_agent


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``learn`` sub-command to ``sub`` (argparse sub-parsers)."""
    p = sub.add_parser(
        "learn", help="learn the weights of a linear evaluation from self-play",
        description="Self-play with the engine (random openings, epsilon-greedy moves), "
        "every position labelled with each player's outcome; logistic regression or "
        "TD(lambda) fits the evaluation's feature weights, written to --out.",
    )
    add_weights_job_arguments(
        p, game="a built-in game with a linear evaluation (e.g. othello)",
        out="write the weights here (JSON)",
        weights="self-play with these weights instead of the game's (learn again from them)",
        seed="seed of the games (default 0)",
    )
    p.add_argument("--games", type=int, default=200, metavar="N",
                   help="self-play games (per iteration)")
    p.add_argument(
        "--iterations", type=int, default=1, metavar="K",
        help="rounds of self-play with the weights learned so far, each fitted on every "
        "game played (default 1)",
    )
    p.add_argument("--depth", "-d", type=int, help="search depth of every move (default 2)")
    p.add_argument("--time", "-t", type=real, help="seconds a move instead of a depth")
    p.add_argument(
        "--algorithm", "-a", default="alphabeta",
        help="the self-play search (default alphabeta, with engine craft where it applies)",
    )
    p.add_argument(
        "--method", choices=METHODS, default="logistic",
        help="logistic: a logistic regression of the games' outcomes on their positions; "
        "td: TD(lambda) over the recorded self-play games",
    )
    p.add_argument(
        "--scale", choices=SCALES, default="auto",
        help="map the fit to evaluation units like the hand-set weights' spread (hand) or "
        "as the tangent of the expected utility (probability; needs an intercept feature) "
        "or through the inverse of the hand-set sum's logistic calibration (calibrated); "
        "auto: calibrated with --prior hand, else probability when the game has an intercept",
    )
    p.add_argument(
        "--prior", choices=PRIORS, default="zero",
        help="logistic: shrink the fit toward 0 (zero) or toward the hand-set weights "
        "calibrated as a logistic model (hand; needs an intercept feature)",
    )
    p.add_argument("--opening", type=int, default=4, metavar="K",
                   help="random moves at the start of every game (default 4)")
    p.add_argument("--epsilon", type=real, default=0.05,
                   help="chance of a random move afterwards (default 0.05)")
    p.add_argument("--l2", type=real, default=1.0,
                   help="logistic: L2 penalty on the standardised weights (default 1)")
    p.add_argument("--lambda", dest="lam", type=real, default=0.7,
                   help="TD(lambda): the trace decay (default 0.7)")
    p.add_argument("--alpha", type=real, default=0.1, help="TD: the step size (default 0.1)")
    p.add_argument("--epochs", type=int, default=20, help="TD: sweeps over the games (default 20)")


def run(console: Console, args: argparse.Namespace) -> int:
    """``plies learn``: self-play, fit, write ``--out``, print the weights."""
    # Before any work: a target that cannot or may not be written fails now, not after
    # the self-play.
    out = weights_target(args)
    spec = GameSpec.parse(args.game, args.option)
    game = spec.load()
    start = None
    if args.weights is not None:
        start = load_weights(args.weights, game)
        game = weighted(game, start)
    if args.depth is not None and args.time is not None:
        raise OptionError("give --depth or --time, not both")
    if args.depth is not None and args.depth < 1:
        raise OptionError(f"--depth must be at least 1, got {args.depth}")
    if args.time is not None and not 0 < args.time < math.inf:
        raise OptionError(f"--time must be a finite number of seconds > 0, got {args.time:g}")
    limit = f"time={args.time:g}" if args.time is not None else f"depth={args.depth or 2}"
    if args.algorithm.strip().lower() == "random":
        raise OptionError("self-play needs a search algorithm, not random")
    agent = parse_agent(f"{args.algorithm}:{limit}")
    if agent.algorithm == "alphabeta":  # engine craft: same values, faster
        agent = parse_agent(f"{agent.label},engine=1")
    plan = SelfPlay(agent, args.games, args.seed, args.opening, args.epsilon)
    plan.check(game)  # before the progress bar: a bad request fails at once
    options: dict[str, float] = (
        {"l2": args.l2} if args.method == "logistic"
        else {"lambda": args.lam, "alpha": args.alpha, "epochs": args.epochs}
    )
    if args.iterations < 1:
        raise OptionError(f"--iterations must be at least 1, got {args.iterations}")
    runner = backend(args.workers, args.ray)
    began = time.perf_counter()
    with started(runner), progress_bar(args.games * args.iterations, "self-play games") as advance:
        result = learn(
            spec, plan, method=args.method, options=options, progress=advance,
            game_options=dict(spec.options), scale=args.scale, iterations=args.iterations,
            prior=args.prior, backend=runner, weights=start,
        )
    seconds = time.perf_counter() - began
    result.training["seconds"] = round(seconds, 1)
    result.training["backend"] = runner.description
    save_weights(out, result.game, result.weights, result.training)
    if args.json:
        data = {"game": result.game, "out": args.out, "weights": result.weights,
                "hand": result.hand, "training": result.training}
        print(json.dumps(data, indent=2), file=console.file, flush=True)
        return 0
    t = result.training
    rounds = f" in {args.iterations} iterations" if args.iterations > 1 else ""
    say(console, f"{result.game}: {t['games']} self-play games{rounds} ({agent.label}, "
                 f"{plan.opening} random opening moves, epsilon {number(plan.epsilon)}), "
                 f"{t['positions']:,} "
                 f"positions x players, {runner.description}, {seconds:.1f}s")
    table = Table(title=f"weights ({args.method})")
    for name in ("feature", "hand-set", "learned", "logit scale"):
        table.add_column(name, justify="left" if name == "feature" else "right")
    for name, w in result.weights.items():
        logit = t["logit_weights"][name]
        table.add_row(name, f"{result.hand[name]:.4g}", f"{w:.4g}", f"{logit:.4g}")
    console.print(table)
    if "holdout_games" in t:
        games = f"{t['holdout_games']} game" + ("s" if t["holdout_games"] != 1 else "")
        say(console, f"held-out log-loss ({games}, "
                     f"{t['holdout_positions']:,} positions; 0.693 = a coin toss): learned "
                     f"{t['holdout_log_loss_learned']:.3f}, "
                     f"hand-set {t['holdout_log_loss_hand']:.3f}")
    if t["scale"] == "hand":
        say(console, "evaluation units: the learned sum spread like the hand-set one "
                     f"(mean |w.f|); labels: {t['labels']}")
    elif t["scale"] == "calibrated":
        say(console, "evaluation units: the hand-set sum's, through the inverse of its "
                     f"logistic calibration; labels: {t['labels']}")
    else:
        say(console, "evaluation units: the tangent of the utility's logistic model at the "
                     f"mean position (an intercept feature); labels: {t['labels']}")
    say(console, f"wrote {args.out}")
    return 0
