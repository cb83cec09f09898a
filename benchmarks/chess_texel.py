"""Texel tuning of the chess evaluation: fit its weights to labelled positions.

    python benchmarks/chess_texel.py DATA.txt --out tuned.json

``DATA.txt`` has one ``FEN;result`` or ``FEN;result;expected`` a line (result 1, 0.5 or
0 from White's side; expected, Stockfish's own expected score for White), as
``benchmarks/chess_texel_data.py`` writes it (Stockfish self-play; see its docstring for
the provenance).  The target of the fit is ``lam * result + (1 - lam) * expected``
(``--lam``, 1 by default: the result alone, Texel's original method).  The evaluation is
linear in its weights given the phase (:mod:`plies.games.chess.features`), so a data
set becomes one sparse matrix ``X`` with ``X @ w`` the evaluation (before its rounding
to whole centipawns).  The fit:

1. ``K`` minimising the mean squared error of ``sigmoid(K * eval)`` against the result
   at the current weights (:data:`~plies.games.chess.evaluation.WEIGHTS`);
2. every parameter by L-BFGS on that error plus ``--l2`` times the mean squared
   distance (in pawns) from the current weights, on the first 90% of the lines; the last
   10% (whole games but the one at the cut) are held out and their error reported (and,
   when the target is not the result alone, the error against the held-out games'
   results, ``K`` fitted again for each set of weights).

The fitted weights are written as JSON (the vector of
:func:`plies.games.chess.features.vector`), ready for
:func:`~plies.games.chess.features.weights_from`.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
import time
from dataclasses import replace

import chess
import numpy as np
import scipy.optimize
import scipy.sparse

from plies.games.chess.evaluation import PHASE_MAX, WEIGHTS, activity
from plies.games.chess.features import BLOCKS, HALF, OFFSET, counts, vector, weights_from

# Mobility and shelter left out, the king attack at 256 per unit: ``activity`` then
# gives (White's less Black's) ``units * scale[attackers]``, the attack's count in 256ths.
_ATTACK_ONLY = replace(
    WEIGHTS, mobility_mg=(0, 0, 0, 0), mobility_eg=(0, 0, 0, 0), king_attack=(256, 256)
)


def load(
    path: str, limit: int | None, lam: float, king_attack: bool
) -> tuple[scipy.sparse.csr_matrix, np.ndarray, np.ndarray]:
    """The feature matrix (mg half then eg half, tapered by phase; with ``king_attack``
    two more columns, the king attack's mg and eg), the targets and the games' results."""
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    results: list[float] = []
    outcomes: list[float] = []
    with open(path) as f:
        for i, line in enumerate(f):
            if limit is not None and i >= limit:
                break
            fen, result, *expected = line.rstrip("\n").split(";")
            board = chess.Board(fen)
            pieces = (board.pawns, board.knights, board.bishops, board.rooks,
                      board.queens, board.kings)
            mg, eg, phase = counts(
                pieces, board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK], WEIGHTS
            )
            row = len(results)
            for j, n in mg.items():
                rows.append(row)
                cols.append(j)
                vals.append(n * phase / PHASE_MAX)
            for j, n in eg.items():
                rows.append(row)
                cols.append(HALF + j)
                vals.append(n * (PHASE_MAX - phase) / PHASE_MAX)
            if king_attack:
                units, _ = activity(_ATTACK_ONLY, pieces, board.occupied_co[chess.WHITE],
                                    board.occupied_co[chess.BLACK], shelters=False)
                if units:
                    rows += [row, row]
                    cols += [2 * HALF, 2 * HALF + 1]
                    vals += [units / 256 * phase / PHASE_MAX,
                             units / 256 * (PHASE_MAX - phase) / PHASE_MAX]
            outcomes.append(float(result))
            if expected:
                results.append(lam * float(result) + (1 - lam) * float(expected[0]))
            elif lam != 1:
                sys.exit(f"{path}:{i + 1}: no expected score for --lam {lam}")
            else:
                results.append(float(result))
    width = 2 * HALF + (2 if king_attack else 0)
    x = scipy.sparse.csr_matrix((vals, (rows, cols)), shape=(len(results), width))
    return x, np.array(results), np.array(outcomes)


def mse(e: np.ndarray, r: np.ndarray, k: float) -> float:
    return float(np.mean((r - 1.0 / (1.0 + np.exp(-k * e))) ** 2))


def fit_k(e: np.ndarray, r: np.ndarray) -> float:
    """The ``K`` that minimises the mean squared error of ``sigmoid(K * e)`` against ``r``."""
    return float(scipy.optimize.minimize_scalar(
        lambda k: mse(e, r, k), bounds=(1e-4, 0.05), method="bounded").x)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("data")
    parser.add_argument("--out", default="tuned.json")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--iterations", type=int, default=500)
    parser.add_argument("--king-attack", action="store_true", help="fit the king attack's "
                        "(mg, eg) weights too (the one term not linear: its rounding is left "
                        "out of the fit)")
    parser.add_argument("--lam", type=float, default=1.0, help="the weight of the game's "
                        "result in the target, against Stockfish's expected score")
    parser.add_argument("--module", default=None, help="also write the tuned weights as a "
                        "Python module (src/plies/games/chess/tuned.py)")
    parser.add_argument("--freeze", default="", help="comma-separated blocks kept as they are "
                        "(names of plies.games.chess.features.BLOCKS, e.g. pst)")
    args = parser.parse_args()
    start = time.time()
    x, r, outcome = load(args.data, args.limit, args.lam, args.king_attack)
    n = len(r)
    cut = n - n // 10
    xt, rt, xh, rh = x[:cut], r[:cut], x[cut:], r[cut:]
    w0 = np.array(vector(WEIGHTS) + ([0.0, 0.0] if args.king_attack else []))
    print(f"{n} positions ({cut} train, {n - cut} held out), targets mean {r.mean():.3f}; "
          f"features in {time.time() - start:.0f} s")
    e0 = xt @ w0
    k = fit_k(e0, rt)
    print(f"K = {k:.6f} per centipawn ({k * 400:.3f} per 400)")
    before = (mse(e0, rt, k), mse(xh @ w0, rh, k))

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        s = 1.0 / (1.0 + np.exp(-k * (xt @ w)))
        d = s - rt
        reg = (w - w0) / 100.0
        value = float(np.mean(d * d)) + args.l2 * float(np.mean(reg * reg))
        grad = xt.T @ (2.0 * d * s * (1.0 - s) * k) / len(rt) + args.l2 * 2.0 * reg / 100.0 / len(w)
        return value, np.asarray(grad)

    bounds: list[tuple[float | None, float | None]] = [(None, None)] * len(w0)
    for name in filter(None, args.freeze.split(",")):
        length = dict(BLOCKS)[name]
        for half in (0, HALF):
            for j in range(half + OFFSET[name], half + OFFSET[name] + length):
                bounds[j] = (w0[j], w0[j])
    fit = scipy.optimize.minimize(
        loss, w0, jac=True, method="L-BFGS-B", bounds=bounds,
        options={"maxiter": args.iterations, "ftol": 1e-15, "gtol": 1e-12})
    w = np.round(fit.x)
    after = (mse(xt @ w, rt, k), mse(xh @ w, rh, k))
    print(f"L-BFGS: {fit.nit} iterations, {fit.message}")
    print("| | train MSE | held-out MSE |\n|---|---|---|")
    print(f"| current weights | {before[0]:.6f} | {before[1]:.6f} |")
    print(f"| tuned (rounded) | {after[0]:.6f} | {after[1]:.6f} |")
    if args.lam != 1:  # how well each predicts the held-out games' results (K refitted)
        oh = outcome[cut:]
        for name, weights in (("current weights", w0), ("tuned (rounded)", w)):
            e = xh @ weights
            kr = fit_k(e, oh)
            print(f"{name}: held-out MSE against the games' results {mse(e, oh, kr):.6f} "
                  f"(K = {kr:.6f})")
    with open(args.out, "w") as f:
        json.dump([float(v) for v in w], f)
    if args.module:
        write_module(args.module, [float(v) for v in w], " ".join(sys.argv[1:]), before, after,
                     args.lam)
    print(f"wrote {args.out}; {time.time() - start:.0f} s in all")


def write_module(
    path: str, values: list[float], command: str, before: tuple[float, float],
    after: tuple[float, float], lam: float,
) -> None:
    """``TUNED``, the fitted weights, as a module plies imports (``values`` past the
    vector's are the king attack's mg and eg)."""
    target = ("the game's result" if lam == 1 else "Stockfish's expected score" if lam == 0
              else f"{lam:g} x the game's result + {1 - lam:g} x Stockfish's expected score")
    w = weights_from(values[:2 * HALF], WEIGHTS)
    if len(values) > 2 * HALF:
        w = replace(w, king_attack=(round(values[2 * HALF]), round(values[2 * HALF + 1])))
    fields = []
    for name in ("piece_mg", "piece_eg", "pst_mg", "pst_eg", "bishop_pair", "doubled",
                 "isolated", "passed_mg", "passed_eg", "rook_open", "rook_half_open",
                 "mobility_mg", "mobility_eg", "king_attack", "shelter"):
        value = getattr(w, name)
        if name.startswith("pst"):
            tables = []
            for table in value:
                rows = [", ".join(f"{v:4d}" for v in table[i:i + 8]) for i in range(0, 64, 8)]
                tables.append("        (\n" + "".join(f"            {r},\n" for r in rows)
                              + "        ),\n")
            fields.append(f"    {name}=(\n" + "".join(tables) + "    ),")
        else:
            fields.append(f"    {name}={value!r},")
    text = (
        '"""Chess weights fitted by Texel\'s method (``benchmarks/chess_texel.py``): generated.\n\n'
        + "\n".join(textwrap.wrap(f"Made by ``python benchmarks/chess_texel.py {command}``", 88))
        + "\n"
        "(the data: Stockfish self-play positions, ``benchmarks/chess_texel_data.py``).\n"
        f"Mean squared error of the target ({target}) against sigmoid(K * eval):\n"
        f"train {before[0]:.6f} "
        f"-> {after[0]:.6f}, held out {before[1]:.6f} -> {after[1]:.6f}.\n"
        "See ``benchmarks/results/chess_tuning.md``.\n"
        '"""\n\nfrom __future__ import annotations\n\nfrom typing import Final\n\n'
        "from plies.games.chess.evaluation import Weights\n\n# fmt: off\n"
        "TUNED: Final = Weights(\n" + "\n".join(fields) + "\n)\n# fmt: on\n"
    )
    with open(path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
