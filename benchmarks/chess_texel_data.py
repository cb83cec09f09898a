"""Labelled positions for Texel tuning of the chess evaluation, made by fast Stockfish self-play.

No copy of Zurichess's ``quiet-labeled.epd`` was reachable from the session that wrote
this, so the positions come from games Stockfish (``/usr/games/stockfish``, GPL-3) plays
against itself at a fixed node count, from openings of ``--random-plies`` random moves.
Every position after the random opening where the side to move is not in check and
Stockfish's chosen move is not a capture or promotion (a cheap "quiet" filter) is written
as ``FEN;result;expected``: the game's result from White's side (1, 0.5, 0) and the
expected score for White that Stockfish's own search gave the position (its win/draw/loss
estimate, ``UCI_ShowWDL``: ``(wins + draws / 2) / 1000``), a far less noisy label than one
result shared by a whole game.  Games past 300 plies are dropped.

    python benchmarks/chess_texel_data.py OUT.txt --games 400 --nodes 800
"""

from __future__ import annotations

import argparse
import random

import chess
import chess.engine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--nodes", type=int, default=800)
    parser.add_argument("--random-plies", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    engine.configure({"Threads": 1, "Hash": 16, "UCI_ShowWDL": True})
    with open(args.out, "a") as out:
        for _ in range(args.games):
            board = chess.Board()
            for _ in range(args.random_plies):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
            fens: list[str] = []
            while not board.is_game_over(claim_draw=True) and board.ply() < 300:
                played = engine.play(
                    board, chess.engine.Limit(nodes=args.nodes), info=chess.engine.INFO_SCORE
                )
                move = played.move
                assert move is not None
                wdl = played.info.get("wdl")
                if (wdl is not None and not board.is_check() and not board.is_capture(move)
                        and not move.promotion):
                    fens.append(f"{board.fen()};{{}};{wdl.white().expectation():.3f}")
                board.push(move)
            outcome = board.outcome(claim_draw=True)
            if outcome is None:
                continue
            result = {True: "1", False: "0", None: "0.5"}[outcome.winner]
            out.writelines(line.format(result) + "\n" for line in fens)
            out.flush()
    engine.quit()


if __name__ == "__main__":
    main()
