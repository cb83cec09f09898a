#!/usr/bin/env python3
"""The GGP player's UCT (``--mode mcts``) against the player before it, in real matches.

    PYTHONPATH=src python benchmarks/ggp_uct.py --base /tmp/base/src [--play 1] [--start 10]
        [--margin 0.3] [--games connectFour,breakthrough,tictactoe_3player,roshambo2]
        [--matches 2] [--mode mcts] [--out benchmarks/results/ggp_uct.md] [--keep-logs DIR]
    PYTHONPATH=src python benchmarks/ggp_uct.py --speed 1 [--repeat 5] [--games ...]

Each player runs in a process of its own (``GgpServer`` on 127.0.0.1), as a game manager
would hire it: *ours* from this checkout with ``--mode`` (default ``mcts``: UCT, the tree
kept across moves), *base* from ``--base`` (the sources of plies before UCT, e.g. ``git
archive ade3cea src | tar -x -C /tmp/base``), in its automatic mode: iterative-deepening
alpha-beta, flat Monte Carlo when the tree is too deep.  The test suite's game manager
(``tests/ggp/manager.py``) plays ``--matches`` matches per game and seat of ours (ours
in every role in turn; the other seats are base players), with the given clocks, and
counts wins, draws and losses (ours against the best base player's goal), illegal or
late replies (the manager's errors), and ours and base's search speed from the players'
logs: UCT iterations per second (each is one playout), flat Monte Carlo playouts per
second.  Not part of the test suite (it depends on the machine and its load).

A game is read from the test data (``tests/data/gdl``, its ``large/`` folder), else from
the GGP game repository's mirror (``benchmarks/ggp_vs_reference.py``'s ``GAMES``).

``--speed SECONDS`` plays no match: it measures the match tree's UCT iterations per
second (``plies.ggp.uct.MatchTree``, compiled network) at the initial state and at a
state up to 10 random steps in (at most half the mean game length): the Python tree
(``plies.search.mcts.MctsTree``, ``NATIVE`` off) with batches of ``plies.ggp.uct.BATCH``
lanes of MAST playouts, against the compiled tree (``plies.ggp.uctnative.NativeTree``,
the same batches), in turn, each search on a fresh tree for SECONDS, ``--repeat``
times; medians and their ratio, and the compiled tree's iterations per second of the
CPU time its thread had (``time.thread_time``: less sensitive to the machine's other
load); ``--compiled-only`` skips the Python tree.  ``--split SECONDS``: the compiled tree with its
playouts against the compiled tree with none (``NativeTree(fixed=True)``), at the
initial state: the share of an iteration's time the tree itself takes.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "src"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from tests.ggp.helpers import GDL  # noqa: E402
from tests.ggp.manager import GameManager, HttpSeat  # noqa: E402

SERVE = """
import logging, sys
from plies.ggp.player import GgpPlayer
from plies.ggp.server import GgpServer
handler = logging.FileHandler({log!r})
logger = logging.getLogger("plies.ggp")
logger.addHandler(handler)
logger.setLevel(logging.INFO)
server = GgpServer(GgpPlayer(margin={margin}, seed={seed}, mode={mode!r}), "127.0.0.1", 0).start()
print(server.port, flush=True)
sys.stdin.read()  # until the benchmark closes our stdin
server.stop()
"""

UCT_RATE = re.compile(r"by mcts(?: on \w+)?, \d+ iterations \((\d+)/s")
MC_RATE = re.compile(r"by montecarlo, (\d+) playouts over .* \((\d+\.\d+)s\)")
CHOICE = re.compile(r"match \S+: (UCT|alpha-beta) \((.*)\)$")


def rules(name: str) -> str:
    """The GDL text of ``name``: the test data's, else the GGP repository's."""
    for path in (GDL / f"{name}.kif", GDL / "large" / f"{name}.kif"):
        if path.exists():
            return path.read_text(encoding="utf-8")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import ggp_vs_reference as ref

    return ref.game_text(ref.GAMES[name])


def speed(args: argparse.Namespace) -> int:
    """``--speed``: UCT iterations per second, the Python tree against the compiled one."""
    import random as _random

    from plies.gdl.game import GdlGame
    from plies.gdl.parser import parse
    from plies.gdl.reasoner import Reasoner
    from plies.ggp import uct
    from plies.ggp.strategy import profile_game
    from plies.ggp.thinker import Clock, Thinker
    from plies.ggp.uct import BATCH, MatchTree
    from plies.ggp.uctnative import ready
    from plies.search import Limit

    print(f"`uptime`: {os.popen('uptime').read().strip()}")
    lines = [
        f"UCT iterations per second of the match tree, {args.speed:g} s a search on a fresh "
        f"tree, {args.repeat} searches a state (median), batches of {BATCH} MAST playouts\n",
    ]
    if args.compiled_only:
        lines += ["| game | state | compiled tree it/s | compiled tree it/CPU s |",
                  "|---|---|---|---|"]
    else:
        lines += ["| game | state | Python tree it/s | compiled tree it/s | ratio | "
                  "compiled tree it/CPU s |", "|---|---|---|---|---|---|"]
    for game in args.games.split(","):
        reasoner = Reasoner(parse(rules(game)), backend="numba")
        net = reasoner.build_native()
        assert net is not None
        while not ready(reasoner, net):  # the compiled tree's kernels, in the background
            time.sleep(0.05)
        rng = _random.Random(1)
        start = reasoner.initial_state()
        profile = profile_game(reasoner, start, Clock(time.perf_counter() + 30), rng,
                               max_playouts=30)
        mid, steps = start, 0
        while steps < min(10, profile.length / 2):  # random steps in, short of the end
            after = reasoner.next_state_indices(
                mid, [rng.choice(m) for m in reasoner.legal_indices(mid)])
            if reasoner.is_terminal(after):
                break
            mid, steps = after, steps + 1
        for label, state in (("initial", start), (f"{steps} steps in", mid)):
            runs: dict[bool, list[float]] = {False: [], True: []}
            cpu: list[float] = []
            for k in range(args.repeat + 1):  # the first round warms the compiled code up
                for native in runs:
                    if args.compiled_only and not native:
                        continue
                    uct.NATIVE = native  # type: ignore[misc]
                    t = Thinker(GdlGame(reasoner), reasoner, 0, profile, _random.Random(k),
                                mode="mcts")
                    tree = MatchTree(t, state)
                    tree.tree.batch = BATCH
                    used = time.thread_time()
                    result = tree.tree.search(Limit(time=args.speed), player=0)
                    used = time.thread_time() - used
                    if k:
                        runs[native].append(result.stats.nodes / result.stats.elapsed)
                        if native:
                            cpu.append(result.stats.nodes / used)
            compiled, on_cpu = statistics.median(runs[True]), statistics.median(cpu)
            if args.compiled_only:
                lines.append(f"| {game} | {label} | {compiled:,.0f} | {on_cpu:,.0f} |")
            else:
                plain = statistics.median(runs[False])
                lines.append(f"| {game} | {label} | {plain:,.0f} | {compiled:,.0f} | "
                             f"{compiled / plain:.1f} | {on_cpu:,.0f} |")
            print(lines[-1], flush=True)
    print(f"`uptime`: {os.popen('uptime').read().strip()}")
    print("\n".join(lines))
    return 0


def split(args: argparse.Namespace) -> int:
    """``--split``: the compiled tree's iterations per second at the initial state with
    its MAST playouts, and with no playouts (``fixed``: each leaf scored by a function
    of its state), so that their ratio is the share of the time the tree takes."""
    from plies.gdl.gatenet import Mast as NativeMast
    from plies.gdl.parser import parse
    from plies.gdl.reasoner import Reasoner
    from plies.ggp.uctnative import NativeTree
    from plies.search import Limit

    print(f"`uptime`: {os.popen('uptime').read().strip()}")
    lines = ["| game | with playouts it/s | tree only it/s | tree's share |", "|---|---|---|---|"]
    for game in args.games.split(","):
        reasoner = Reasoner(parse(rules(game)), backend="numba")
        net = reasoner.build_native()
        assert net is not None
        medians = []
        for fixed in (False, True):
            rates = []
            for k in range(args.repeat + 1):  # the first round warms the compiled code up
                tree = NativeTree(reasoner, net, reasoner.initial_state(), seed=k,
                                  exploration=0.4, playout=10_000, zero_sum=True,
                                  mast=NativeMast(net, 10.0), fixed=fixed)
                result = tree.search(Limit(time=args.split), player=0)
                if k:
                    rates.append(result.stats.nodes / result.stats.elapsed)
            medians.append(statistics.median(rates))
        full, tree_only = medians
        lines.append(f"| {game} | {full:,.0f} | {tree_only:,.0f} | {full / tree_only:.0%} |")
        print(lines[-1], flush=True)
    print(f"`uptime`: {os.popen('uptime').read().strip()}")
    print("\n".join(lines))
    return 0


@dataclass
class Player:
    port: int
    log: Path


@contextmanager
def player(src: Path, mode: str, seed: int, margin: float, log: Path) -> Iterator[Player]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(src), str(ROOT)]))
    code = SERVE.format(log=str(log), margin=margin, seed=seed, mode=mode)
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True, env=env,
    )
    try:
        assert proc.stdout is not None
        yield Player(int(proc.stdout.readline()), log)
    finally:
        if proc.stdin is not None:
            proc.stdin.close()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@dataclass
class Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    errors: list[str] = field(default_factory=list)
    steps: int = 0
    seconds: float = 0.0
    goals: list[str] = field(default_factory=list)


def rates(log: Path) -> tuple[list[float], list[float], set[str]]:
    """UCT iterations/s and flat Monte Carlo playouts/s of each move in a player's log,
    and metagaming's choices."""
    uct, mc, choices = [], [], set()
    for line in log.read_text().splitlines() if log.exists() else ():
        if m := UCT_RATE.search(line):
            uct.append(float(m.group(1)))
        if m := MC_RATE.search(line):
            mc.append(int(m.group(1)) / max(float(m.group(2)), 1e-3))
        if m := CHOICE.search(line):
            choices.add(f"{m.group(1)} ({m.group(2)})")
    return uct, mc, choices


def play_game(
    game: str, args: argparse.Namespace, logs: Path
) -> tuple[Tally, list[float], list[float], set[str]]:
    manager = GameManager(rules(game), f"{game}.kif")
    roles = len(manager.roles)
    tally = Tally()
    uct: list[float] = []
    mc: list[float] = []
    base_rates: list[float] = []  # a base player in mcts mode: its UCT iterations/s
    choices: set[str] = set()
    for seat in range(roles):
        for k in range(args.matches):
            tag = f"{game}.{seat}.{k}"
            with ExitStack() as stack:
                seats = []
                ours_log = logs / f"{tag}.ours.log"
                base_logs = []
                for r in range(roles):
                    if r == seat:
                        p = stack.enter_context(
                            player(ROOT / "src", args.mode, 100 + k, args.margin, ours_log))
                    else:
                        log = logs / f"{tag}.base{r}.log"
                        base_logs.append(log)
                        p = stack.enter_context(
                            player(args.base, args.base_mode, 200 + 10 * r + k, args.margin,
                                   log))
                    seats.append(HttpSeat("127.0.0.1", p.port))
                start = time.perf_counter()
                record = manager.play_match(
                    seats, match_id=tag, start_clock=args.start, play_clock=args.play,
                )
                tally.seconds += time.perf_counter() - start
            tally.steps += len(record.steps)
            tally.errors += record.errors
            goals = record.goals or ()
            tally.goals.append("/".join(map(str, goals)))
            if goals:
                mine = goals[seat]
                best_other = max(g for r, g in enumerate(goals) if r != seat)
                if mine > best_other:
                    tally.wins += 1
                elif mine == best_other:
                    tally.draws += 1
                else:
                    tally.losses += 1
            u, _, c = rates(ours_log)
            uct += u
            choices |= c
            for log in base_logs:
                base_uct, base_mc, _ = rates(log)
                mc += base_mc
                base_rates.extend(base_uct)
            print(f"{tag}: goals {goals} (ours: role {seat}), errors {record.errors}",
                  flush=True)
    return tally, uct, mc or base_rates, choices


def mean(xs: list[float]) -> str:
    return f"{statistics.mean(xs):,.0f}" if xs else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", type=Path, help="the base player's src/ (matches)")
    parser.add_argument("--speed", type=float,
                        help="measure UCT iterations/s for this many seconds a search")
    parser.add_argument("--split", type=float,
                        help="the compiled tree's share of the time: SECONDS a search")
    parser.add_argument("--repeat", type=int, default=5, help="--speed: searches a state")
    parser.add_argument("--compiled-only", action="store_true",
                        help="--speed: the compiled tree alone (no Python tree)")
    parser.add_argument("--games", default="connectFour,breakthrough,tictactoe_3player,roshambo2")
    parser.add_argument("--matches", type=int, default=2, help="matches per game and seat")
    parser.add_argument("--play", type=int, default=1)
    parser.add_argument("--start", type=int, default=10)
    parser.add_argument("--margin", type=float, default=0.3)
    parser.add_argument("--mode", default="mcts")
    parser.add_argument("--base-mode", default="auto", help="the base player's --mode")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--keep-logs", type=Path,
                        help="keep the players' logs in this folder (GAME.SEAT.K.ours.log, ...)")
    args = parser.parse_args(argv)
    if args.speed is not None:
        return speed(args)
    if args.split is not None:
        return split(args)
    if args.base is None:
        parser.error("--base is required for matches (or give --speed)")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        logs = Path(tmp)
        if args.keep_logs is not None:
            args.keep_logs.mkdir(parents=True, exist_ok=True)
            logs = args.keep_logs
        for game in args.games.split(","):
            tally, uct, mc, choices = play_game(game, args, logs)
            rows.append(
                f"| {game} | {tally.wins} | {tally.draws} | {tally.losses} | "
                f"{len(tally.errors)} | {mean(uct)} | {mean(mc)} | {tally.steps} | "
                f"{tally.seconds:.0f} | {' '.join(tally.goals)} |"
            )
            if choices:
                rows[-1] += " " + "; ".join(sorted(choices))
            print(rows[-1], flush=True)
    header = (
        f"ours `--mode {args.mode}` vs base (`--mode {args.base_mode}`), play clock "
        f"{args.play} s, start {args.start} s, margin {args.margin} s, "
        f"{args.matches} match(es) per seat\n\n"
        "| game | wins | draws | losses | illegal/late | ours: UCT playouts/s | base: "
        "playouts/s of a move (flat MC, or UCT) | steps | seconds | goals (each match) |\n"
        "|---|---|---|---|---|---|---|---|---|---|"
    )
    table = header + "\n" + "\n".join(rows) + "\n"
    print(table)
    if args.out:
        with args.out.open("a", encoding="utf-8") as out:
            out.write(table + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
