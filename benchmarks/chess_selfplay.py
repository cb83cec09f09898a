#!/usr/bin/env python3
"""Self-play of two plies checkouts' compiled chess engines, stopped by an SPRT.

    .venv/bin/python benchmarks/chess_selfplay.py NEW_SRC OLD_SRC --games 60 --movetime 0.1

``plies uci`` with ``Backend=numba`` from ``NEW_SRC`` against the same from ``OLD_SRC``
(each a checkout's ``src`` directory), game pairs from ``chess_match.py``'s openings with
the colours swapped, played by its ``play_game`` (a draw at 200 plies, adjudicated at a
1000 cp lead both engines agree on for 3 moves).  After every pair the pentanomial
counts go to :class:`plies.tournament.sprt.SPRT` (logistic Elo, ``H0: 0``, ``H1:
--elo1``, ``alpha = beta = 0.1``); the match stops at its decision or after ``--games``.
Prints a line a game and the score with a 95% interval over the pairs.

Not part of ``make bench``: a verdict takes 20-60 games, 10-30 minutes on two cores.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

import chess.engine

sys.path.insert(0, str(Path(__file__).resolve().parent))
import chess_match as cm

from plies.tournament.sprt import SPRT, logistic_elo


def start(src: str) -> Any:
    """The engine of ``src``; its first ``go`` waits for the kernel's compilation, which
    takes minutes on a loaded machine (hence the long command timeout)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = src
    engine = chess.engine.SimpleEngine.popen_uci(
        [sys.executable, "-m", "plies", "uci"], env=env, timeout=900
    )
    engine.configure({"Backend": "numba"})
    return engine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("new_src")
    parser.add_argument("old_src")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--movetime", type=float, default=0.1)
    parser.add_argument("--elo1", type=float, default=60.0)
    opts = parser.parse_args()
    test = SPRT(0.0, opts.elo1, model="logistic", alpha=0.1, beta=0.1)
    args = argparse.Namespace(movetime=opts.movetime, max_plies=200, adjudicate_cp=1000,
                              adjudicate_moves=3)
    new, old = start(opts.new_src), start(opts.old_src)
    level = cm.Level("old", {})
    penta = [0] * 5
    scores: list[float] = []
    print(f"new {opts.new_src} vs old {opts.old_src}, {opts.movetime} s a move, "
          f"SPRT {test.label}", flush=True)
    try:
        for n in range(1, opts.games + 1):
            opening = cm.OPENINGS[((n - 1) // 2) % len(cm.OPENINGS)]
            rec, _ = cm.play_game(n, opening, n % 2 == 1, {"plies": new, "opponent": old},
                                  level, args)
            scores.append(rec.score)
            w, d = scores.count(1.0), scores.count(0.5)
            line = (f"game {n}: {opening[0]} new {'white' if n % 2 else 'black'} "
                    f"{rec.result} {rec.reason} -> {w}-{d}-{len(scores) - w - d}")
            if n % 2 == 0:
                penta[round(2 * (scores[-1] + scores[-2]))] += 1
                llr = test.llr(penta)
                line += f" penta {penta} llr {llr:.2f} [{test.lower:.2f}, {test.upper:.2f}]"
                decision = test.decision(llr)
                if decision:
                    print(line, "\nSPRT", decision, flush=True)
                    break
            print(line, flush=True)
    finally:
        new.quit()
        old.quit()
    n = len(scores)
    mu = sum(scores) / n
    pairs = [(scores[i] + scores[i + 1]) / 2 for i in range(0, n - 1, 2)]
    sd = (sum((p - mu) ** 2 for p in pairs) / max(1, len(pairs) - 1)) ** 0.5
    se = sd / max(1, len(pairs)) ** 0.5
    lo, hi = (min(max(x, 1e-3), 1 - 1e-3) for x in (mu - 1.96 * se, mu + 1.96 * se))
    w, d = scores.count(1.0), scores.count(0.5)
    print(f"new vs old W-D-L {w}-{d}-{n - w - d} score {mu:.3f} "
          f"Elo {logistic_elo(min(max(mu, 1e-3), 1 - 1e-3)):+.0f} "
          f"[{logistic_elo(lo):+.0f}, {logistic_elo(hi):+.0f}]")
    print("depth new/old", level.plies.depth / max(1, level.plies.depth_moves),
          level.opponent.depth / max(1, level.opponent.depth_moves))


if __name__ == "__main__":
    main()
