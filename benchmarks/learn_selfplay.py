#!/usr/bin/env python3
"""Self-play games per second for ``plies learn`` on one process, local pools and local Ray,
and the measured costs a scaling model for a cluster needs.

    PYTHONPATH=src .venv/bin/python benchmarks/learn_selfplay.py --game othello --depth 2 \\
        --games 48 --workers 1,2,4 --ray --repeat 3 --out benchmarks/results/learn_selfplay.md

Every configuration plays the same ``--games`` self-play games
(:func:`plies.learn.selfplay.self_play`, the function ``plies learn`` calls, with the
hand-set weights shipped as ``plies learn``'s later iterations ship theirs) and is checked
to return the very same trajectories as this process alone.  "this process" is the
plain loop (no backend); ``N workers`` is :class:`~plies.parallel.backends.LocalBackend`,
either outside a ``with`` (a new pool for each call, as the library's ``learn`` without
``with``) or inside one (the pool kept from call to call, as ``plies learn``'s iterations
after the first); Ray is one local instance (``ray.init(num_cpus=R)``) kept for every
call.  The kept ones are started and called once, untimed, before the timed calls (that
first call is reported apart).  The configurations alternate their order from repeat to
repeat and the medians are reported.

The costs measured for the model: processor seconds per game in this process (``t_g``);
the fixed cost of one call on each backend (a map of tasks that do nothing: spawning and
importing plies in the workers, or Ray's scheduling); the bytes of what is shipped to a
worker per chunk of games (the game by reference, the weights, the plan) and back per game
(a trajectory), with the time to pickle and unpickle them; applying the weights in a
worker; and the fit on the driver (logistic regression on every game's positions), which
stays serial.  Not part of ``make test``: timed assertions are flaky tests.
"""

from __future__ import annotations

import argparse
import os
import pickle
import resource
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from report import machine, plies_source

from plies.games import GameSpec
from plies.learn import learn_from
from plies.learn.selfplay import SelfPlay, Shared, Trajectory, self_play
from plies.parallel.backends import (
    Backend,
    LocalBackend,
    RayBackend,
    _descendants,
    _proc_stat,
    chunks,
)
from plies.tournament.agents import parse_agent


def nothing(shared: Any, task: int) -> int:
    """A task that does no work: a map of these is a backend's fixed cost."""
    return task


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def wall(run: Callable[[], Any]) -> tuple[float, Any]:
    began = time.perf_counter()
    out = run()
    return time.perf_counter() - began, out


def cpu_seconds() -> float:
    """Processor time of this process and of every process below it: the finished ones
    (a pool's workers, once it has shut down) and the live ones (a local Ray instance's
    head processes and workers, read from ``/proc``), so the work of every backend is
    counted, Ray's own bookkeeping included."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
    tick = os.sysconf("SC_CLK_TCK")
    for pid in _descendants(os.getpid()):
        fields = _proc_stat(pid)
        if fields is not None:  # utime, stime, cutime, cstime: fields 14-17 of stat
            total += sum(int(x) for x in fields[11:15]) / tick
    return total


def pickled(obj: Any, repeat: int = 200) -> tuple[int, float]:
    """``(bytes, microseconds to pickle and unpickle once)`` of ``obj``."""
    data = pickle.dumps(obj)
    began = time.perf_counter()
    for _ in range(repeat):
        pickle.loads(pickle.dumps(obj))
    return len(data), (time.perf_counter() - began) / repeat * 1e6


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="othello")
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--games", type=int, default=48)
    parser.add_argument("--opening", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", default="1,2", help="local pool sizes, e.g. 1,2,4")
    parser.add_argument("--ray", action="store_true", help="also a local Ray instance")
    parser.add_argument("--ray-cpus", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, help="also write the Markdown report here")
    args = parser.parse_args(argv)

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    spec = GameSpec(args.game)
    game = spec.load()
    weights = game.feature_weights()
    agent = parse_agent(f"alphabeta:depth={args.depth},engine=1")
    plan = SelfPlay(agent, args.games, args.seed, args.opening)
    pools = [int(w) for w in args.workers.split(",")]
    before, started = load_average(), datetime.now(UTC)

    # t_g: processor seconds per game in this process (also the reference trajectories).
    cpu = time.process_time()
    reference: list[Trajectory] = self_play(spec, plan, weights=weights)
    t_g = (time.process_time() - cpu) / args.games
    log(f"{args.game} depth {args.depth}: {t_g:.3f} CPU s a game in this process")

    backends: dict[str, Backend | None] = {"this process": None}
    for w in pools:
        if w == 1:
            backends["1 worker (in this process, through the backend)"] = LocalBackend(1)
            continue
        backends[f"{w} workers, a new pool each call"] = LocalBackend(w)
        backends[f"{w} workers, the pool kept (a later call)"] = LocalBackend(w)
    if args.ray:
        backends[f"Ray, local instance of {args.ray_cpus} CPUs (a later call)"] = RayBackend(
            workers=args.ray_cpus
        )
    # The kept ones (a held pool, Ray) are entered and warmed up by one untimed call: the
    # time of the later calls is what iterations after the first pay.
    first_call: dict[str, float] = {}
    kept = [name for name in backends if "later call" in name]
    for name in kept:
        runner = backends[name]
        assert runner is not None
        first_call[name], _ = wall(
            lambda r=runner: (r.__enter__(), self_play(spec, plan, backend=r, weights=weights))
        )
        log(f"{name}: entered and first call in {first_call[name]:.1f} s")
    try:
        times: dict[str, list[float]] = {name: [] for name in backends}
        cpus: dict[str, list[float]] = {name: [] for name in backends}
        same: dict[str, bool] = dict.fromkeys(backends, True)
        fixed: dict[str, list[float]] = {name: [] for name in backends if backends[name]}
        shared = Shared(spec, tuple(weights.items()), plan)
        names = list(backends)
        for round_ in range(args.repeat):
            for name in names if round_ % 2 == 0 else names[::-1]:
                runner = backends[name]
                cpu = cpu_seconds()
                seconds, games = wall(
                    lambda r=runner: self_play(spec, plan, backend=r, weights=weights)
                )
                times[name].append(seconds)
                cpus[name].append(cpu_seconds() - cpu)
                same[name] = same[name] and games == reference
                if runner is not None:
                    count = len(chunks(args.games, getattr(runner, "workers", 1)))
                    overhead, _ = wall(
                        lambda r=runner, c=count: r.map(nothing, shared, range(c))
                    )
                    fixed[name].append(overhead)
                log(f"  {name}: {seconds:.2f} s ({args.games / seconds:.2f} games/s)")
    finally:
        for name in kept:
            runner = backends[name]
            assert runner is not None
            runner.__exit__(None, None, None)

    shared_bytes, shared_us = pickled(shared)
    bare_bytes, _ = pickled(Shared(spec, None, plan))
    trajectory = [pickled(t, 20) for t in reference]
    traj_bytes = statistics.mean(b for b, _ in trajectory)
    traj_us = statistics.mean(u for _, u in trajectory)
    began = time.perf_counter()
    for _ in range(100):
        game.with_weights(weights)
    weigh_us = (time.perf_counter() - began) / 100 * 1e6
    cpu = time.process_time()
    learned = learn_from(game, reference, plan)
    fit_s = time.process_time() - cpu
    positions = learned.training["positions"]

    serial = statistics.median(times["this process"])
    info = machine()
    report = [
        f"# Self-play for `plies learn`: {args.game}, depth {args.depth}",
        "",
        f"- machine: {info['cpu']}, {info['cores']} cores ({info['usable_cores']} usable), "
        f"{info['memory']}, {info['os']}, {info['python']}",
        f"- load average (1, 5, 15 min) before: {before}; after: {load_average()}",
        f"- date: {started:%Y-%m-%d %H:%M} UTC; plies {plies_source()}",
        f"- command: `{' '.join([Path(sys.executable).name, *sys.argv])}`",
        f"- {args.games} games of `{agent.label}`, {args.opening} random opening moves, seed "
        f"{args.seed}; median wall time of {args.repeat} repeats",
        "",
        "| where | wall | games/s | speed-up | CPU, all processes | CPU a game "
        "| fixed cost of a call | same games |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name in backends:
        median = statistics.median(times[name])
        cost = f"{statistics.median(fixed[name]):.2f} s" if name in fixed else "-"
        work = statistics.median(cpus[name])
        report.append(
            f"| {name} | {median:.2f} s | {args.games / median:.2f} | "
            f"**{serial / median:.2f}** | {work:.2f} s | {work / args.games * 1000:.0f} ms | "
            f"{cost} | "
            f"{'yes' if same[name] else '**NO**'} |"
        )
    report += [
        "",
        "| cost | measured |",
        "|---|---:|",
        f"| `t_g`: processor time of one game in this process | {t_g * 1000:.1f} ms |",
        f"| shipped to a worker per chunk: game by reference, weights, plan | "
        f"{shared_bytes:,} bytes ({shared_bytes - bare_bytes:,} of them the "
        f"{len(weights)} weights), {shared_us:.0f} us to pickle + unpickle |",
        f"| shipped back per game: one trajectory | {traj_bytes:,.0f} bytes, "
        f"{traj_us:.0f} us to pickle + unpickle |",
        f"| applying the weights in a worker (once per chunk) | {weigh_us:.1f} us |",
        f"| the fit on the driver ({args.games} games, {positions:,} positions x players), "
        f"processor time | {fit_s:.2f} s |",
    ]
    for name in kept:
        report.append(
            f"| {name.removesuffix(' (a later call)')}: started, and its first call "
            f"| {first_call[name]:.1f} s |"
        )
    text = "\n".join(report) + "\n"
    print(text)
    if args.out is not None:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
