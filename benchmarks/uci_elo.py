#!/usr/bin/env python3
"""Calibrate ``UCI_LimitStrength``/``UCI_Elo``: weakened plies against Stockfish's levels.

    .venv/bin/python benchmarks/uci_elo.py --level 800 --level 1200 --level 1600 \\
        --stockfish-elo 1350 --games 10
    .venv/bin/python benchmarks/uci_elo.py --help

Not part of ``make bench`` or ``make test``.  For each ``--level E`` the engine of this
checkout (``python -m plies uci``) is set to ``UCI_LimitStrength=true`` and
``UCI_Elo=E`` and plays ``--games`` games against Stockfish (``/usr/games/stockfish``,
``Threads=1``, ``Hash=16``) at ``UCI_LimitStrength=true``, ``UCI_Elo=--stockfish-elo``
(Stockfish 15.1 accepts 1350..2850).  The openings, the colours, the end of a game and
the adjudication are ``benchmarks/chess_match.py``'s, whose helpers this reuses.

The clocks differ on purpose.  A weakened plies is limited by its level's node budget,
not by time, so that its strength does not depend on the machine's load; it gets
``--plies-movetime`` (default 2 s) a move as a ceiling it should not reach.  Stockfish's
weakened levels pick their move at a fixed shallow depth (``Skill Level`` + 1) and would
spend the rest of any ``movetime`` without changing the pick; ``--stockfish-movetime``
(default 0.05 s) is ample for that depth.

``--against-plies E`` plays a second plies at ``UCI_Elo`` E instead (both on the plies
clock): the levels below Stockfish's lowest are measured against a plies level that was
itself measured against Stockfish.

The report: per level, plies' node budget and weakness, W-D-L, score, the Elo difference
with its 95% interval (``chess_match.elo``: the Bradley-Terry fit, one virtual draw when
every game went one way), and the *measured* Elo: the opponent's level plus the
difference.
The anchors of :data:`plies.uci.strength.LEVELS` are set from these measurements.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import chess_match as match  # the benchmark next to this one


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--level", type=int, action="append", default=[],
                   help="a UCI_Elo of plies to measure (repeatable)")
    p.add_argument("--stockfish-elo", type=int, default=1350, help="Stockfish's UCI_Elo")
    p.add_argument("--against-plies", type=int, default=None, metavar="ELO",
                   help="play a second plies at UCI_Elo ELO instead of Stockfish (for the "
                   "levels below Stockfish's lowest)")
    p.add_argument("--games", type=int, default=10, help="games per level (default 10)")
    p.add_argument("--plies-movetime", type=float, default=2.0)
    p.add_argument("--stockfish-movetime", type=float, default=0.05)
    p.add_argument("--max-plies", type=int, default=200)
    p.add_argument("--adjudicate-cp", type=int, default=1000)
    p.add_argument("--adjudicate-moves", type=int, default=3)
    p.add_argument("--stockfish", default=None, help="the Stockfish binary")
    args = p.parse_args(argv)
    if not args.level:
        p.error("give at least one --level")
    return args


def play(
    number: int, opening: tuple[str, str], plies_white: bool, engines: dict[str, Any],
    level: match.Level, args: argparse.Namespace,
) -> match.GameRecord:
    """One game (as ``chess_match.play_game``, with a clock for each side)."""
    import chess
    import chess.engine

    board = chess.Board()
    for move in opening[1].split():
        board.push_uci(move)
    key = object()
    limits = {"plies": chess.engine.Limit(time=args.plies_movetime),
              "opponent": chess.engine.Limit(time=args.stockfish_movetime)}
    streak: list[int] = []
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            result, reason = outcome.result(), outcome.termination.name.lower()
            break
        if board.ply() >= args.max_plies:
            result, reason = "1/2-1/2", "move cap"
            break
        name = "plies" if (board.turn == chess.WHITE) == plies_white else "opponent"
        start = time.perf_counter()
        played = engines[name].play(board, limits[name], info=chess.engine.INFO_ALL, game=key)
        (level.plies if name == "plies" else level.opponent).add(
            time.perf_counter() - start, dict(played.info)
        )
        assert played.move is not None, f"{name} gave no move at {board.fen()}"
        board.push(played.move)
        cp = match.mover_score(dict(played.info), True)
        streak = [*streak, cp] if cp is not None else []
        verdict = match.adjudicate(streak, args.adjudicate_cp, args.adjudicate_moves)
        if verdict is not None:
            result, reason = verdict, "adjudication"
            break
    points = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
    score = points if plies_white else 1.0 - points
    return match.GameRecord(number, opening[0], plies_white, result, reason, board.ply(), score)


def main(argv: Sequence[str] | None = None) -> int:
    import chess.engine

    from plies.uci.strength import strength

    argv = sys.argv[1:] if argv is None else list(argv)
    args = parse_args(argv)
    started = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    load_before = os.getloadavg()[0]
    command, env = match.plies_command()
    binary = args.stockfish or "/usr/games/stockfish"
    openings = list(match.OPENINGS)
    rows = []
    other = command if args.against_plies is not None else [binary]
    with chess.engine.SimpleEngine.popen_uci(command, env=env, timeout=60) as plies, \
            chess.engine.SimpleEngine.popen_uci(other, env=env, timeout=60) as stockfish:
        if args.against_plies is not None:
            stockfish.configure({"UCI_LimitStrength": True, "UCI_Elo": args.against_plies})
            args.stockfish_elo = args.against_plies
            args.stockfish_movetime = args.plies_movetime
            opponent = "plies"
        else:
            stockfish.configure({"Threads": 1, "Hash": match.STOCKFISH_HASH_MB,
                                 "UCI_LimitStrength": True, "UCI_Elo": args.stockfish_elo})
            opponent = stockfish.id.get("name", "Stockfish")
        engines = {"plies": plies, "opponent": stockfish}
        for elo in args.level:
            plies.configure({"UCI_LimitStrength": True, "UCI_Elo": elo})
            level = match.Level(f"plies UCI_Elo {elo}", {"UCI_Elo": elo})
            for number in range(1, args.games + 1):
                opening = openings[((number - 1) // 2) % len(openings)]
                record = play(number, opening, number % 2 == 1, engines, level, args)
                level.games.append(record)
                print(f"{level.name} game {number}: {record.result} ({record.reason}, "
                      f"{record.length} plies)", file=sys.stderr, flush=True)
            fit = match.elo(level.games)
            rows.append((elo, strength(elo), level, fit))
    print(f"plies (UCI_LimitStrength) vs {opponent} at UCI_Elo "
          f"{args.stockfish_elo}: plies ceiling {args.plies_movetime:g} s/move, {opponent} "
          f"{args.stockfish_movetime:g} s/move, {started}, plies {match.commit()}, "
          f"{os.cpu_count()} cores, load average {load_before:.2f} before, "
          f"{os.getloadavg()[0]:.2f} after")
    print()
    print("| plies UCI_Elo | nodes | weakness | games | W-D-L | score | Elo diff, 95% "
          "| measured Elo | s/move plies | depth plies |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for elo, level_strength, level, fit in rows:
        games = level.games
        wins = sum(g.score == 1 for g in games)
        draws = sum(g.score == 0.5 for g in games)
        score = sum(g.score for g in games) / len(games)
        star = "*" if fit["prior"] else ""
        side = level.plies
        print(
            f"| {elo} | {level_strength.nodes} | {level_strength.weakness} | {len(games)} "
            f"| {wins}-{draws}-{len(games) - wins - draws} | {100 * score:.0f}% "
            f"| {fit['elo']:+.0f}{star} [{fit['low']:+.0f}, {fit['high']:+.0f}] "
            f"| {args.stockfish_elo + fit['elo']:.0f} "
            f"| {side.time_per_move or 0:.2f} | {side.mean_depth or 0:.1f} |"
        )
    print()
    print("command: benchmarks/uci_elo.py " + " ".join(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
