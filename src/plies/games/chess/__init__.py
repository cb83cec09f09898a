"""Chess, a package of its own: the rules, the moves, the evaluation.

- :mod:`plies.games.chess.rules`: :class:`Chess` and :class:`ChessState`, python-chess's
  rules searched by plies (python-chess is imported when a game is made);
- :mod:`plies.games.chess.moves`: legal moves, check and quiescence moves on
  python-chess's bitboards, without its generator layers;
- :mod:`plies.games.chess.evaluation`: the weighted-feature evaluation (PeSTO's tables,
  pawn structure, rooks on open files; mobility and king safety, off by default) with
  every weight in :class:`Weights`;
- :mod:`plies.games.chess.kernel` and :mod:`plies.games.chess.engine`: the same rules
  and evaluation on bitboards compiled by Numba, and the engine the game's
  ``compiled_search`` hook returns (imported only when used).
"""

from plies.games.chess.evaluation import ACTIVE, PLAIN, WEIGHTS, Evaluator, Weights
from plies.games.chess.rules import (
    BLACK_WINS,
    DRAWN,
    EVAL_CAP,
    ONGOING,
    STARTING_FEN,
    WHITE_WINS,
    WIN,
    Chess,
    ChessState,
    chess_module,
    position_key,
)
from plies.games.chess.tuned import TUNED

__all__ = [
    "ACTIVE",
    "BLACK_WINS",
    "DRAWN",
    "EVAL_CAP",
    "ONGOING",
    "PLAIN",
    "STARTING_FEN",
    "TUNED",
    "WEIGHTS",
    "WHITE_WINS",
    "WIN",
    "Chess",
    "ChessState",
    "Evaluator",
    "Weights",
    "chess_module",
    "position_key",
]
