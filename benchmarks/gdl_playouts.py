"""Random playouts per second with the GDL reasoner, printed as a Markdown table.

For each game, uniformly random playouts (every role picks a random legal move, to the
end of the game) are run for ``--seconds`` seconds of processor time, ``--runs`` times,
and the median number of states per processor second is reported.  A *state* is one
visited state: each one has its terminal test, and each non-terminal one its legal moves
and a successor.

Six ways to play the same playouts, from the fastest to the slowest:

- ``batch``: 64 playouts at once in compiled code, one bit of a word per playout
  (:meth:`plies.gdl.gatenet.GateNet.batch`, :mod:`plies.gdl.gatebits`), ``BATCH``
  playouts per call from Python, as the GGP player's Monte Carlo makes them;
- ``numba``: whole playouts in compiled code (:class:`plies.gdl.gatenet.GateNet`, the
  reasoner's network as Numba-compiled gates), one call from Python per playout, as
  the GGP player's Monte Carlo makes them;
- ``indices``: the compiled reasoner's fast path (moves as indices into its move table,
  ``legal_indices`` / ``next_state_indices``), what a Monte Carlo player would use;
- ``terms``: the reasoner's public API with GDL terms (``legal_all`` / ``next_state``);
- ``GdlGame``: the plies ``Game`` API that searches use (``to_move``, ``actions``,
  ``result``, with the legal-move cache), one role's move per call;
- ``naive prover``: :class:`plies.gdl.Prover`, the reference reasoner that evaluates the
  rules bottom-up for every question (no grounding, no compilation).

Run from the repository root::

    .venv/bin/python benchmarks/gdl_playouts.py
    .venv/bin/python benchmarks/gdl_playouts.py --games ticTacToe --seconds 1 --runs 3

A game is looked for in ``--data`` and then in its ``large/`` folder (checkers).

``--greedy`` measures the greedy playouts of the GGP player instead (``GateNet.batch``'s
``greedy``; Numba needed): per game, playouts and states per processor second of the
uniform batch (``greedy`` 0), decisive moves (1), decisive and anti-decisive ones (2),
and 2 again with a lookahead that evaluates every gate of a tried move, not only those
it can change; each after one batch that learns the moves that end games::

    .venv/bin/python benchmarks/gdl_playouts.py --greedy --games connectFour,breakthrough
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from plies.compiled import numba_available
from plies.gdl import GdlGame, Prover, Reasoner, load
from plies.gdl.gatenet import GateNet

# Processor time, not wall time: the machine may be shared, and other processes' load
# should not count against the reasoner.
clock = time.process_time

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "gdl"
GAMES = ("ticTacToe", "connectFour", "breakthrough", "checkers")
LIMIT = 100_000  # steps of one compiled playout at most (every game here ends well before)
BATCH = 640  # playouts of one bit-parallel call (ten per lane)


def run_batch(net: GateNet, start: int, rng: random.Random, deadline: float) -> int:
    states = 0
    while clock() < deadline:
        states += net.batch(start, BATCH, seed=rng.getrandbits(32), limit=LIMIT).visited
    return states


def greedy_rates(net: GateNet, start: int, greedy: int, seconds: float,
                 runs: int) -> tuple[float, float]:
    """Median playouts and states per processor second of ``greedy`` batches."""
    net.ends[:] = 0
    net.batch(start, BATCH, seed=0, limit=LIMIT, greedy=greedy)  # learns what ends games
    playouts, states = [], []
    for run in range(runs):
        rng = random.Random(run)
        began = clock()
        count = visited = 0
        while clock() < began + seconds:
            visited += net.batch(start, BATCH, seed=rng.getrandbits(32), limit=LIMIT,
                                 greedy=greedy).visited
            count += BATCH
        spent = clock() - began
        playouts.append(count / spent)
        states.append(visited / spent)
    return statistics.median(playouts), statistics.median(states)


def greedy_table(games: list[str], data: Path, seconds: float, runs: int) -> str:
    """The ``--greedy`` table (see the module docstring)."""
    import numpy as np

    rows: list[list[str]] = []
    for name in games:
        path = data / f"{name}.kif"
        reasoner = Reasoner(load(path if path.exists() else data / "large" / f"{name}.kif"))
        net = reasoner.native
        assert net is not None
        every = GateNet(reasoner.network)
        every._lookahead = np.empty(0, dtype=np.int64)  # no lists: every gate evaluated
        start = reasoner.initial_state()
        row = [name]
        for n, greedy in ((net, 0), (net, 1), (net, 2), (every, 2)):
            playouts, states = greedy_rates(n, start, greedy, seconds, runs)
            row += [f"{playouts:,.0f}", f"{states:,.0f}"]
        rows.append(row)
    header = ["game"] + [f"{what} {unit}" for what in
                         ("uniform", "decisive", "anti-decisive", "anti-decisive, every gate")
                         for unit in ("po/s", "st/s")]
    return (_markdown(header, rows) + f"\n\npo/s, st/s = playouts and states per processor "
            f"second of batches of {BATCH}, median of {runs} runs of {seconds:g} s")


def run_native(net: GateNet, start: int, rng: random.Random, deadline: float) -> int:
    states = 0
    while clock() < deadline:
        _, _, visited = net.playout(start, seed=rng.getrandbits(32), limit=LIMIT)
        states += visited
    return states


def run_indices(r: Reasoner, rng: random.Random, deadline: float) -> int:
    states = 0
    legal, step, terminal = r.legal_indices, r.next_state_indices, r.is_terminal
    choice = rng.choice
    while clock() < deadline:
        s = r.initial_state()
        while True:
            states += 1
            if terminal(s):
                break
            s = step(s, [choice(moves) for moves in legal(s)])
    return states


def run_terms(r: Reasoner, rng: random.Random, deadline: float) -> int:
    states = 0
    choice = rng.choice
    while clock() < deadline:
        s = r.initial_state()
        while True:
            states += 1
            if r.is_terminal(s):
                break
            s = r.next_state(s, [choice(moves) for moves in r.legal_all(s)])
    return states


def run_game(game: GdlGame, rng: random.Random, deadline: float) -> int:
    states = 0
    choice = rng.choice
    while clock() < deadline:
        s = game.initial_state()
        while True:
            states += 1
            if game.is_terminal(s):
                break
            s = game.result(s, choice(game.actions(s)))
    return states


def run_prover(p: Prover, rng: random.Random, deadline: float) -> int:
    states = 0
    choice = rng.choice
    roles = range(len(p.roles))
    while clock() < deadline:
        s = p.initial_state()
        while True:
            states += 1
            if p.is_terminal(s):
                break
            s = p.next_state(s, [choice(p.legal(s, r)) for r in roles])
            if clock() >= deadline:
                break
    return states


def median_rates(
    players: list[tuple[str, Callable[[random.Random, float], int]]], seconds: float, runs: int
) -> dict[str, float]:
    """Median states per processor second of each player over ``runs`` timed runs.

    The runs are interleaved (every player once per round), so that a change of load on
    the machine affects every player alike.
    """
    rates: dict[str, list[float]] = {label: [] for label, _ in players}
    for run in range(runs):
        for label, play in players:
            if label == "naive prover" and run >= 3:
                continue
            rng = random.Random(run)
            start = clock()
            states = play(rng, start + seconds)
            rates[label].append(states / (clock() - start))
    return {label: statistics.median(values) for label, values in rates.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated .kif names")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one timed run")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per measurement")
    parser.add_argument("--data", type=Path, default=DATA, help="directory of the .kif files")
    parser.add_argument("--no-prover", action="store_true", help="skip the naive prover")
    parser.add_argument("--greedy", action="store_true",
                        help="measure the greedy batches instead (see above)")
    args = parser.parse_args(argv)
    if args.greedy:
        print(greedy_table(args.games.split(","), args.data, args.seconds, args.runs))
        return

    compiled = numba_available()
    if compiled:
        from plies.gdl import gatejit  # noqa: F401 - the kernels load once, not per game

    rows: list[list[str]] = []
    for name in args.games.split(","):
        path = args.data / f"{name}.kif"
        desc = load(path if path.exists() else args.data / "large" / f"{name}.kif")
        started = clock()
        reasoner = Reasoner(desc)
        build = clock() - started
        game = GdlGame(reasoner, name=name)
        players: list[tuple[str, Callable[[random.Random, float], int]]] = []
        gates = "-"
        if compiled:
            started = clock()
            net = reasoner.native
            assert net is not None
            gates = f"{clock() - started:.2f}"
            start = reasoner.initial_state()
            net.playout(start, seed=0, limit=LIMIT)  # compiled here on a first run
            net.batch(start, 1, seed=0, limit=LIMIT)
            players.append(("batch", lambda rng, end, n=net, s=start: run_batch(n, s, rng, end)))
            players.append(("numba", lambda rng, end, n=net, s=start: run_native(n, s, rng, end)))
        players += [
            ("indices", lambda rng, end, r=reasoner: run_indices(r, rng, end)),
            ("terms", lambda rng, end, r=reasoner: run_terms(r, rng, end)),
            ("GdlGame", lambda rng, end, g=game: run_game(g, rng, end)),
        ]
        if not args.no_prover:
            prover = Prover(desc)
            players.append(("naive prover", lambda rng, end, p=prover: run_prover(p, rng, end)))
        rates = median_rates(players, args.seconds, args.runs)
        stats = reasoner.stats
        row = [
            name,
            f"{stats.fluents} / {sum(stats.moves)} / {stats.ground_rules:,}",
            f"{build:.2f}",
            gates,
            *(f"{rates[label]:,.0f}" for label, _ in players),
        ]
        if "numba" in rates:
            row.insert(6, f"{rates['numba'] / rates['indices']:.1f}x")
            row.insert(5, f"{rates['batch'] / rates['indices']:.1f}x")
        if "naive prover" in rates:
            row.append(f"{rates['indices'] / rates['naive prover']:,.0f}x")
        rows.append(row)

    header = [
        "game",
        "fluents / moves / ground rules",
        "build s",
        "gates s",
        *(["batch st/s", "batch / indices", "numba st/s", "numba / indices"]
          if compiled else []),
        "indices st/s",
        "terms st/s",
        "GdlGame st/s",
    ]
    if not args.no_prover:
        header += ["naive prover st/s", "indices / naive"]
    print(_markdown(header, rows))
    print(
        f"\nst/s = states per processor second in uniformly random playouts, median of "
        f"{args.runs} runs of {args.seconds:g} s (naive prover: {min(args.runs, 3)} runs); "
        "build s = processor seconds to ground and compile; gates s = processor seconds "
        "to lay out the compiled gates (made on first use, once the kernels are loaded)"
    )


def _markdown(header: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
