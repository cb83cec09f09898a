"""Self-play of two plies checkouts' UCI engines: a candidate against a baseline.

Each side is ``python -m plies uci`` with ``PYTHONPATH`` set to a checkout's ``src``
(``Backend=numba`` by default), playing :func:`chess_match.play_game` at a fixed time a
move.  Games come in pairs, one opening with the colours swapped: the opening is one of
:data:`chess_match.OPENINGS` followed by ``--random-plies`` seeded random moves (the
engines are deterministic enough that the book lines alone repeat games).  After every
pair it prints the pair as a JSON line; at the end (or at ``--sprt``'s decision) the
candidate's W-D-L, its Elo with the 95% interval (:func:`chess_match.elo`) and the
pentanomial log-likelihood ratio of :class:`plies.tournament.sprt.SPRT`.  ``--shard I/N``
plays every N-th pair from the I-th, so that N processes share the work; ``--summary``
adds up the JSON lines of several runs.

Run: ``python benchmarks/chess_gauntlet.py CANDIDATE_SRC BASELINE_SRC --pairs 50
--movetime 0.15 [--sprt 0,15] [--shard 0/2] > run0.jsonl``, then
``python benchmarks/chess_gauntlet.py --summary run0.jsonl run1.jsonl --sprt 0,15``.
With ``--sprt``, a shard given its siblings' files (``--shard 0/2 --siblings
run1.jsonl``, and ``--shard 1/2 --siblings run0.jsonl``) stops once the pairs of all
of them decide; without ``--siblings`` a shard of several plays all its pairs.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import chess_match as cm  # noqa: E402

from plies.tournament.sprt import SPRT, parse_sprt  # noqa: E402


def opening(index: int, random_plies: int) -> tuple[str, str]:
    """Book line ``index`` (cycled) and ``random_plies`` moves seeded by ``index``."""
    import chess

    name, line = cm.OPENINGS[index % len(cm.OPENINGS)]
    board = chess.Board()
    for uci in line.split():
        board.push_uci(uci)
    rng = random.Random(index)
    extra = []
    for _ in range(random_plies):
        moves = sorted(board.legal_moves, key=str)
        if not moves:
            break
        move = rng.choice(moves)
        board.push(move)
        extra.append(move.uci())
    return f"{name} + {' '.join(extra)}", " ".join([line, *extra])


def start(src: str, backend: str) -> Any:
    import chess.engine

    env = dict(os.environ, PYTHONPATH=src)
    engine = chess.engine.SimpleEngine.popen_uci(
        [sys.executable, "-m", "plies", "uci"], env=env, timeout=300
    )
    engine.configure({"Backend": backend})
    return engine


def pentanomial(lines: list[dict[str, Any]]) -> list[int]:
    """How many pairs of ``lines`` the candidate scored 0, 0.5, 1, 1.5 and 2 in."""
    penta = [0] * 5
    for d in lines:
        if "games" in d:
            penta[round(2 * sum(g["score"] for g in d["games"]))] += 1
    return penta


def read_pairs(paths: list[str]) -> list[dict[str, Any]]:
    """The JSON lines of the runs written to ``paths`` so far: a line another shard is
    still writing (not yet valid JSON) and a file not yet made are left out."""
    lines = []
    for path in paths:
        try:
            text = Path(path).read_text()
        except FileNotFoundError:
            continue
        for x in text.splitlines():
            if x.startswith("{"):
                try:
                    lines.append(json.loads(x))
                except json.JSONDecodeError:
                    continue
    return lines


def summary(lines: list[dict[str, Any]], test: SPRT | None) -> str:
    scores = [g["score"] for d in lines if "games" in d for g in d["games"]]
    penta = pentanomial(lines)
    won, drawn = scores.count(1.0), scores.count(0.5)
    lost = len(scores) - won - drawn
    out = [f"games {len(scores)}, candidate W-D-L {won}-{drawn}-{lost}, "
           f"score {sum(scores) / max(1, len(scores)):.1%}, pentanomial {penta}"]
    if scores:
        records = [cm.GameRecord(i, "", True, "", "", 0, s) for i, s in enumerate(scores)]
        e = cm.elo(records)
        out.append(f"Elo {e['elo']:+.0f}, 95% [{e['low']:+.0f}, {e['high']:+.0f}]")
    if test is not None:
        llr = test.llr(penta) if sum(penta) else 0.0
        out.append(f"SPRT {test.label}: LLR {llr:.2f} in ({test.lower:.2f}, {test.upper:.2f})"
                   f" -> {test.decision(llr) or 'no decision'}")
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("candidate", nargs="?")
    parser.add_argument("baseline", nargs="?")
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--movetime", type=float, default=0.15)
    parser.add_argument("--backend", default="numba")
    parser.add_argument("--random-plies", type=int, default=2)
    parser.add_argument("--max-plies", type=int, default=240)
    parser.add_argument("--sprt", default=None, metavar="ELO0,ELO1")
    parser.add_argument("--shard", default="0/1", metavar="I/N")
    parser.add_argument("--summary", nargs="+", metavar="JSONL")
    parser.add_argument("--siblings", nargs="+", default=[], metavar="JSONL",
                        help="with --sprt and --shard: the other shards' output files; "
                             "stop once the pairs of all shards decide")
    args = parser.parse_args()
    test = parse_sprt(args.sprt) if args.sprt else None
    if args.summary:
        print(summary(read_pairs(args.summary), test))
        return 0
    if not (args.candidate and args.baseline):
        parser.error("give CANDIDATE_SRC and BASELINE_SRC, or --summary FILES")
    shard, shards = (int(x) for x in args.shard.split("/"))
    play = argparse.Namespace(movetime=args.movetime, max_plies=args.max_plies,
                              adjudicate_cp=1000, adjudicate_moves=3)
    engines = {"plies": start(args.candidate, args.backend),
               "opponent": start(args.baseline, args.backend)}
    level = cm.Level("baseline", {})
    lines: list[dict[str, Any]] = []
    try:
        for pair in range(shard, args.pairs, shards):
            book = opening(pair, args.random_plies)
            games = []
            for white in (True, False):
                record, _ = cm.play_game(2 * pair + white, book, white, engines, level, play)
                games.append({"candidate_white": white, "result": record.result,
                              "reason": record.reason, "length": record.length,
                              "score": record.score})
            lines.append({"pair": pair, "opening": book[0], "games": games})
            print(json.dumps(lines[-1]), flush=True)
            if test is not None and (shards == 1 or args.siblings):
                penta = pentanomial(lines + read_pairs(args.siblings))
                if test.decision(test.llr(penta)):
                    break
    finally:
        for engine in engines.values():
            engine.quit()
    print(json.dumps({"depth": [level.plies.mean_depth, level.opponent.mean_depth],
                      "nps": [level.plies.nps, level.opponent.nps]}), flush=True)
    print(summary(lines, test), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
