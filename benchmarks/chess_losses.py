"""Where plies loses a match: every move of plies in a PGN scored by Stockfish.

For each move plies played (the side whose ``White``/``Black`` header names plies),
Stockfish at full strength (one thread, a fixed node budget: the numbers do not depend
on the machine's load) scores the position before it and after it, from plies' side.
Prints the largest drops (centipawns; a mate counts 10,000), then, for the moves that
lost at least ``--threshold`` centipawns from a position within 600 of equal, how many
fall in each phase (opening: moves 1-12; endgame: at most 26 points of pieces left,
counting 3, 3, 5, 9; else middlegame) and in how many Stockfish's own choice was a
capture or a check (a tactic) rather than a quiet move.

Run: ``PYTHONPATH=src python benchmarks/chess_losses.py GAMES.pgn [--nodes N]`` (needs
``stockfish`` on the PATH or ``--stockfish PATH``, and python-chess).
"""

from __future__ import annotations

import argparse
import collections
import shutil
from typing import NamedTuple

import chess
import chess.engine
import chess.pgn

PIECE_POINTS = ((chess.KNIGHT, 3), (chess.BISHOP, 3), (chess.ROOK, 5), (chess.QUEEN, 9))
MATE = 10_000


class Drop(NamedTuple):
    cp: int  # how much the move lost, from plies' side
    game: str
    move: int  # the full-move number
    phase: str
    played: str
    best: str
    tactical: bool  # Stockfish's best move is a capture or a check
    before: int
    after: int
    result: str


def phase_of(board: chess.Board) -> str:
    points = sum(
        len(board.pieces(piece, colour)) * value
        for piece, value in PIECE_POINTS for colour in chess.COLORS
    )
    if board.fullmove_number <= 12:
        return "opening"
    return "endgame" if points <= 26 else "middlegame"


def drops(path: str, engine: chess.engine.SimpleEngine, nodes: int) -> list[Drop]:
    limit = chess.engine.Limit(nodes=nodes)
    found = []
    with open(path, encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            plies_white = "plies" in game.headers.get("White", "")
            board = game.board()
            for move in game.mainline_moves():
                if (board.turn == chess.WHITE) != plies_white:
                    board.push(move)
                    continue
                side = board.turn
                info = engine.analyse(board, limit)
                before = info["score"].pov(side).score(mate_score=MATE)
                best = info.get("pv", [move])[0]
                tactical = board.is_capture(best) or board.gives_check(best)
                played, best_san = board.san(move), board.san(best)
                board.push(move)
                after = engine.analyse(board, limit)["score"].pov(side).score(mate_score=MATE)
                found.append(Drop(
                    before - after, game.headers.get("Round", "?"), board.fullmove_number,
                    phase_of(board), played, best_san, tactical, before, after,
                    game.headers.get("Result", "*"),
                ))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn")
    parser.add_argument("--nodes", type=int, default=400_000)
    parser.add_argument("--threshold", type=int, default=100)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    args = parser.parse_args()
    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    try:
        engine.configure({"Threads": 1, "Hash": 64})
        found = drops(args.pgn, engine, args.nodes)
    finally:
        engine.quit()
    found.sort(reverse=True)
    print("cp lost | game | move | phase | played | Stockfish's | tactic | before | after")
    for d in found[: args.top]:
        print(f"{d.cp} | {d.game} | {d.move} | {d.phase} | {d.played} | {d.best} | "
              f"{'yes' if d.tactical else 'no'} | {d.before} | {d.after}")
    lost: collections.Counter[str] = collections.Counter()
    tactics: collections.Counter[str] = collections.Counter()
    for d in found:
        if d.cp >= args.threshold and abs(d.before) < 600:
            lost[d.phase] += 1
            tactics[d.phase] += d.tactical
    print(f"\nplies' moves: {len(found)}; losing >= {args.threshold} cp from within 600 of equal:")
    for phase in ("opening", "middlegame", "endgame"):
        print(f"  {phase}: {lost[phase]} (Stockfish's move a capture or check in {tactics[phase]})")


if __name__ == "__main__":
    main()
