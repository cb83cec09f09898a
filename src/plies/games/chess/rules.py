"""Chess as a plies game: python-chess knows the rules, plies searches.

The rules (legality, check, castling, en passant, promotion, the fifty-move rule,
insufficient material, repetition) are python-chess's (``pip install 'plies[chess]'``);
it is imported when a :class:`Chess` game is made, never by ``import plies``.

- **Players**: 0 is White, 1 is Black.
- **Actions**: ``chess.Move`` values in python-chess's legal-move order.  People read them
  in SAN (``format_action``) and may type SAN or UCI (``parse_action``: ``"Nf3"``,
  ``"g1f3"``).
- **States**: :class:`ChessState`, immutable and hashable; ``result`` makes the child's
  board directly (:func:`plies.games.chess.moves.play`: what python-chess's
  ``copy(stack=False)`` + ``push`` make, at a third of the cost), never touching its
  input.  A state computes its legal moves, check, pins and outcome once, on first
  use, and carries the evaluation's material sum from its parent.
- **Speed**: the moves, the terminal test and the quiescence moves come from
  :mod:`plies.games.chess.moves` (python-chess's attack tables without its generator
  layers; python-chess's generator in check), equal to python-chess's by test.
- **The end**: checkmate, stalemate, insufficient material (python-chess's test), a
  halfmove clock of 100 (the fifty-move rule, *claimable* in the rules, taken as a draw
  here, as engines do), and threefold repetition, also claimable and taken as a draw: a
  state keeps a linked list of the position keys since the last capture or pawn move,
  so the test walks at most 100 keys and a move costs one tuple.  The key is the
  position (pieces, side to move, castling rights, en-passant square as the board holds
  it); the halfmove clock and the history are not in it, so a transposition table may
  mix a position's values across histories (the graph-history interaction every engine
  accepts).  ``max_plies`` (an option) ends the game in a draw after that many plies
  from the given position, for playouts and tournaments.
- **Utility**: ``+WIN`` / ``-WIN`` / 0 for a win, loss or draw of ``player``, with
  ``utility_range == (-WIN, WIN)``.  ``evaluate`` is the weighted-feature evaluation of
  :mod:`plies.games.chess.evaluation` in centipawns from ``player``'s side, capped at
  :data:`EVAL_CAP`, so every win outranks every heuristic value and mate-distance
  scores (:mod:`plies.search.mate`) stay apart from them.
- **Hooks** for engines: ``order_hint`` (promotions, then captures by MVV-LVA, then the
  rest), ``noisy_actions`` (captures and promotions, the quiescence search's moves),
  ``extension`` (one more ply for a move that gives check), ``null_move`` (the position
  after a pass, for null-move pruning; None in check or with only king and pawns) and
  ``is_quiet`` (neither a capture nor a promotion: late-move reductions may reduce it).

>>> game = Chess()
>>> s = game.initial_state()
>>> len(game.actions(s)), game.format_action(s, game.parse_action(s, "g1f3"))
(20, 'Nf3')
>>> s = game.play_moves("f3 e5 g4 Qh4")  # fool's mate
>>> game.is_terminal(s), game.utility(s, 1)
(True, 100000.0)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from plies.compiled import BACKENDS, choose_backend
from plies.errors import GameFormatError, IllegalActionError, MissingExtraError
from plies.game import Game
from plies.game.board import Board
from plies.game.knowledge import NULL_REDUCTION, QUIESCENCE, PlayDefaults, PositionText
from plies.game.options import OPTIONAL_INT, Option, OptionType
from plies.games.chess.evaluation import WEIGHTS, Evaluator, Weights
from plies.games.chess.moves import (
    ORDER_VALUE,
    has_legal_move,
    king_safety,
    legal_moves,
    noisy_moves,
    play,
)
from plies.games.chess.positions import read_fen, write_fen
from plies.games.chess.tuning import NamedWeights
from plies.games.chess.view import NAMES, chess_board

if TYPE_CHECKING:
    import chess as chesslib

STARTING_FEN: Final = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
WIN: Final = 100_000.0
"""The utility of a win (centipawns, far above any material count)."""
EVAL_CAP: Final = 50_000
"""``evaluate`` stays within ``[-EVAL_CAP, EVAL_CAP]``: well inside ``utility_range``."""

ONGOING, WHITE_WINS, BLACK_WINS, DRAWN = 0, 1, 2, 3

SINGULAR_MARGIN: Final = 50
"""Centipawns by which the table's move must beat every other move in the shallower test
search to be singular (and searched one ply deeper): the engine's play defaults."""
MOVES_HELP: Final = (
    "write a move in SAN (e4, Nf3, exd5, O-O, e8=Q) or UCI (e2e4, g1f3, e1g1, e7e8q)"
)
"""How a person writes a chess move."""



_chess: Any = None  # python-chess once imported (hot paths read it: `_chess or chess_module()`)


def chess_module() -> Any:
    """python-chess, imported on first use.

    Raises:
        MissingExtraError: python-chess is not installed (one line naming the extra).
    """
    global _chess
    if _chess is None:
        try:
            import chess
        except ImportError:  # pragma: no cover - the extra is installed where tests run
            raise MissingExtraError("chess", "python-chess", "chess") from None
        _chess = chess
    return _chess


def position_key(board: chesslib.Board) -> int:
    """One int per position: pieces, colours, side to move, castling rights, en passant."""
    ep = board.ep_square
    return (
        board.pawns
        | board.knights << 64
        | board.bishops << 128
        | board.rooks << 192
        | board.queens << 256
        | board.kings << 320
        | board.occupied_co[1] << 384
        | board.castling_rights << 448
        | (0 if ep is None else ep + 1) << 512
        | int(board.turn) << 520
    )


class ChessState:
    """A chess position with what the rules need of its past (immutable, hashable).

    ``board`` is a python-chess board that nobody may mutate (copy it to play on);
    ``key`` the position key (:func:`position_key`); ``ply`` the plies played since the
    game's starting position; ``history`` the keys of the earlier positions since the last
    capture or pawn move, as a linked list ``(key, rest)``.  Equal states have equal
    position, halfmove clock and history.  The legal moves and the outcome are
    computed once, on first use.
    """

    __slots__ = (
        "_check", "_evaluator", "_material", "_moves", "_outcome", "_pinned", "board",
        "history", "key", "ply",
    )

    def __init__(
        self,
        board: chesslib.Board,
        ply: int = 0,
        history: tuple[int, Any] | None = None,
        material: int = 0,
        evaluator: Evaluator | None = None,
    ) -> None:
        self.board = board
        self.key = position_key(board)
        self.ply = ply
        self.history = history
        self._moves: list[chesslib.Move] | None = None
        self._outcome = -1
        self._check = -1  # is the side to move in check: -1 not known yet, else 0 or 1
        self._pinned = -1  # the mover's pieces pinned to its king (a bitboard); -1: not known
        # The packed material and piece-square sum (Evaluator.material) for `_evaluator`,
        # kept up to date move by move by Chess.result; unknown while _evaluator is None.
        self._material = material
        self._evaluator = evaluator

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ChessState)
            and self.key == other.key
            and self.board.halfmove_clock == other.board.halfmove_clock
            and self.history == other.history
        )

    def __hash__(self) -> int:
        return hash(self.key)

    def __deepcopy__(self, memo: dict[int, Any]) -> ChessState:
        return self  # immutable

    def __reduce__(self) -> tuple[Any, ...]:
        # en_passant="fen": the square behind every double step, as the board (and so
        # the key) holds it, not only when a capture there is legal.
        return (_rebuild, (self.board.fen(en_passant="fen"), self.ply, self.history))

    def __repr__(self) -> str:
        return f"ChessState({self.board.fen()!r})"

    def in_check(self) -> bool:
        """Whether the side to move is in check (computed once)."""
        if self._check == -1:
            self._look_at_king()
        return self._check == 1

    def pinned(self) -> int:
        """The side to move's pieces pinned to its king, as a bitboard (computed once)."""
        if self._pinned == -1:
            self._look_at_king()
        return self._pinned

    def _look_at_king(self) -> None:
        """Find the pins and the check of the side to move at once (:func:`king_safety`)."""
        self._pinned, check = king_safety(self.board, _chess or chess_module())
        self._check = int(check)

    def repetitions(self) -> int:
        """How often this position occurred since the last capture or pawn move (>= 1)."""
        count, key, node = 1, self.key, self.history
        while node is not None:
            if node[0] == key:
                count += 1
            node = node[1]
        return count


def _check_backend(backend: str) -> None:
    if backend not in BACKENDS:
        choose_backend(backend, "chess")  # raises: an unknown backend


def _rebuild(fen: str, ply: int, history: tuple[int, Any] | None) -> ChessState:
    return ChessState(chess_module().Board(fen), ply, history)


def _check_status(chess: Any, board: chesslib.Board, fen: str) -> None:
    """Raise :class:`GameFormatError` naming what makes ``board`` illegal, if anything."""
    status = board.status()
    if status != chess.STATUS_VALID:
        problems = ", ".join(
            str(flag.name).lower().replace("_", " ") for flag in chess.Status if flag & status
        )
        raise GameFormatError(f"fen {fen!r} is not a legal chess position: {problems}")


def _parse_fen(text: str) -> str:
    word = text.strip()
    return STARTING_FEN if word.lower() == "startpos" else word


FEN: Final = OptionType(
    "FEN or startpos",
    _parse_fen,
    lambda v: isinstance(v, str),
    lambda v: "startpos" if v == STARTING_FEN else str(v),
)
"""A chess position in Forsyth-Edwards Notation, or ``startpos`` (as UCI writes it)."""
MAX_PLIES: Final = 10_000
"""Far beyond any real game (the fifty-move rule ends one within about 6,000 plies)."""


class Chess(NamedWeights, Game[ChessState, Any]):
    """Chess from ``fen`` (default: the starting position); see the module docstring."""

    num_players = 2
    zero_sum = True
    name = "chess"
    utility_range = (-WIN, WIN)
    description: ClassVar[str] = (
        "Chess (python-chess rules): SAN or UCI moves, a PeSTO evaluation; needs plies[chess]"
    )
    options: ClassVar[tuple[Option, ...]] = (
        Option("fen", FEN, STARTING_FEN, "the starting position"),
        Option(
            "max_plies", OPTIONAL_INT, None,
            "plies after which the game is a draw (none: the rules alone end it)",
            bounds=(1, MAX_PLIES),
        ),
    )

    def __init__(
        self, fen: str = STARTING_FEN, max_plies: int | None = None, weights: Weights = WEIGHTS,
        backend: str = "python",
    ) -> None:
        _check_backend(backend)
        chess = chess_module()  # not kept on the game: a module does not pickle
        try:
            board = chess.Board(fen)
        except ValueError as exc:
            raise GameFormatError(f"fen {fen!r} is not a chess position: {exc}") from None
        _check_status(chess, board, fen)
        if max_plies is not None and max_plies < 1:
            raise GameFormatError(f"max_plies must be at least 1 or None, got {max_plies}")
        self.fen = board.fen()
        self.max_plies = max_plies
        self.weights = weights
        self.evaluator = Evaluator(weights)
        self.backend = backend
        self._board = board
        self._compiled: Any = None

    def __getstate__(self) -> dict[str, Any]:
        # The compiled engine (its tables) is made again where the game is unpickled.
        return {**self.__dict__, "_compiled": None}

    # --- the game model ------------------------------------------------------------------

    def initial_state(self) -> ChessState:
        return ChessState(self._board.copy(stack=False))

    def state_from_fen(self, fen: str) -> ChessState:
        """The state of the position ``fen`` (no history before it).

        Raises:
            GameFormatError: ``fen`` is not a legal position.
        """
        try:
            board = chess_module().Board(fen)
        except ValueError as exc:
            raise GameFormatError(f"fen {fen!r} is not a chess position: {exc}") from None
        _check_status(chess_module(), board, fen)
        return ChessState(board)

    def to_move(self, state: ChessState) -> int:
        return 0 if state.board.turn else 1

    def actions(self, state: ChessState) -> list[chesslib.Move]:
        """The legal moves in python-chess's order (none once the game is over)."""
        moves = state._moves
        if moves is None:
            if state.in_check():
                moves = list(state.board.generate_legal_moves())
            else:
                moves = legal_moves(state.board, state.pinned(), _chess or chess_module())
            state._moves = moves
        if state._outcome == -1:
            self._decide(state)
        return moves if state._outcome == ONGOING else []

    def result(self, state: ChessState, action: chesslib.Move) -> ChessState:
        """The state after the legal move ``action`` (``state`` is not changed).

        The child board is made by :func:`play` (python-chess's ``copy`` + ``push``
        without the undo stack, in a third of the time), and the evaluation's material
        sum is carried over incrementally.
        """
        evaluator = self.evaluator
        if state._evaluator is not evaluator:
            self._material_of(state)
        board, material = play(state.board, action, evaluator.packed, state._material)
        history = None if board.halfmove_clock == 0 else (state.key, state.history)
        return ChessState(board, state.ply + 1, history, material, evaluator)

    def is_terminal(self, state: ChessState) -> bool:
        outcome = state._outcome
        if outcome == -1:
            outcome = self._decide(state)
        return outcome != ONGOING

    def _decide(self, state: ChessState) -> int:
        board = state.board
        moves = state._moves
        has_move = bool(moves) if moves is not None else has_legal_move(
            board, state.pinned(), state.in_check(), _chess or chess_module()
        )
        if not has_move:
            mated = BLACK_WINS if board.turn else WHITE_WINS
            outcome = mated if state.in_check() else DRAWN  # else stalemate
        elif (
            board.halfmove_clock >= 100
            or (self.max_plies is not None and state.ply >= self.max_plies)
            or (state.history is not None and state.repetitions() >= 3)
            or (
                not (board.pawns | board.rooks | board.queens)
                and board.is_insufficient_material()
            )
        ):
            outcome = DRAWN
        else:
            outcome = ONGOING
        state._outcome = outcome
        return outcome

    def unclaimed(self, state: ChessState) -> ChessState:
        """``state`` with a draw its player may claim left unclaimed (the ``unclaimed`` hook).

        Threefold repetition and the fifty-move rule are claims in the rules of chess: the
        player to move may claim the draw or play on.  This game takes them as draws (as
        engines do inside a search), so a playing engine starts from the state returned
        here: the same position, halfmove clock and history, not over, its children
        decided by the rules as always (a mate played from it is a mate).  Checkmate,
        stalemate, insufficient material and ``max_plies`` are no claims: ``state`` itself.

        >>> game = Chess("6k1/5ppp/8/8/8/8/8/R5K1 w - - 100 80")  # fifty moves, Ra8#
        >>> s = game.initial_state()
        >>> game.is_terminal(s), game.is_terminal(game.unclaimed(s))
        (True, False)
        """
        if not self.is_terminal(state) or state._outcome != DRAWN:
            return state
        board = state.board
        claimable = board.halfmove_clock >= 100 or (
            state.history is not None and state.repetitions() >= 3
        )
        if (
            not claimable
            or (self.max_plies is not None and state.ply >= self.max_plies)
            or board.is_insufficient_material()
            or not any(board.generate_legal_moves())
        ):
            return state
        fresh = ChessState(board, state.ply, state.history, state._material, state._evaluator)
        fresh._outcome = ONGOING  # decided here once, as _decide would without the claim
        return fresh

    def outcome(self, state: ChessState) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` or ``"*"`` (the game goes on)."""
        self.is_terminal(state)
        return ("*", "1-0", "0-1", "1/2-1/2")[state._outcome]

    def utility(self, state: ChessState, player: int) -> float:
        """``+WIN`` if ``player`` won, ``-WIN`` if it lost, 0 for a draw."""
        if not self.is_terminal(state):
            raise ValueError("utility of a chess position that is not over")
        outcome = state._outcome
        if outcome == DRAWN:
            return 0.0
        white_won = outcome == WHITE_WINS
        return WIN if white_won == (player == 0) else -WIN

    def key(self, state: ChessState) -> Hashable:
        return state.key

    # --- evaluation and engine hooks ---------------------------------------------------------

    def centipawns(self, state: ChessState) -> int:
        """The static evaluation for White, in centipawns (no search, no terminal test)."""
        b = state.board
        occ = b.occupied_co
        evaluator = self.evaluator
        material = state._material if state._evaluator is evaluator else self._material_of(state)
        return evaluator.finish(
            material, (b.pawns, b.knights, b.bishops, b.rooks, b.queens, b.kings), occ[1], occ[0]
        )

    def _material_of(self, state: ChessState) -> int:
        """``state``'s packed material sum under this game's evaluator, computed and kept."""
        b = state.board
        occ = b.occupied_co
        evaluator = self.evaluator
        material = evaluator.material(
            (b.pawns, b.knights, b.bishops, b.rooks, b.queens, b.kings), occ[1], occ[0]
        )
        state._material, state._evaluator = material, evaluator
        return material

    def evaluate(self, state: ChessState, player: int) -> float:
        """The weighted-feature evaluation for ``player`` in centipawns (capped at
        :data:`EVAL_CAP`); the utility at a terminal state."""
        outcome = state._outcome
        if outcome == -1:
            outcome = self._decide(state)
        if outcome != ONGOING:
            return self.utility(state, player)
        b = state.board
        occ = b.occupied_co
        evaluator = self.evaluator
        material = state._material if state._evaluator is evaluator else self._material_of(state)
        cp = evaluator.finish(
            material, (b.pawns, b.knights, b.bishops, b.rooks, b.queens, b.kings), occ[1], occ[0]
        )  # centipawns(), inline: this runs at every leaf
        if cp > EVAL_CAP:
            cp = EVAL_CAP
        elif cp < -EVAL_CAP:
            cp = -EVAL_CAP
        return float(cp if player == 0 else -cp)

    def order_hint(self, state: ChessState, actions: Sequence[chesslib.Move]) -> list[Any]:
        """Promotions first (queen first), then captures by MVV-LVA, then the rest in order."""
        board = state.board
        occupied, ep = board.occupied, board.ep_square
        pawns, knights, bishops = board.pawns, board.knights, board.bishops
        rooks, queens = board.rooks, board.queens
        scored: list[tuple[int, int, Any]] = []
        quiet: list[Any] = []
        for move in actions:
            t = move.to_square
            tb = 1 << t
            if occupied & tb:
                victim = (
                    1 if pawns & tb else 2 if knights & tb else 3 if bishops & tb
                    else 4 if rooks & tb else 5 if queens & tb else 6
                )
            elif t == ep and pawns >> move.from_square & 1:
                victim = 1  # en passant
            else:
                victim = 0
            promo = move.promotion
            if promo is not None:
                scored.append((-1000 - 10 * promo - victim, len(scored), move))
            elif victim:
                fb = 1 << move.from_square
                attacker = (
                    1 if pawns & fb else 2 if knights & fb else 3 if bishops & fb
                    else 4 if rooks & fb else 5 if queens & fb else 6
                )
                scored.append(
                    (ORDER_VALUE[attacker] - 8 * ORDER_VALUE[victim], len(scored), move)
                )
            else:
                quiet.append(move)
        if not scored:
            return list(actions)
        scored.sort()
        return [m for _, _, m in scored] + quiet

    def noisy_actions(self, state: ChessState) -> list[Any]:
        """The moves a quiescence search plays: queen promotions and the captures that
        cannot lose material at once, ordered as :meth:`order_hint` orders them.

        A capture is kept when the victim is worth at least the capturing piece, or when
        the opponent does not defend the square (a cheap stand-in for static exchange
        evaluation).  Without that filter every capture of every piece is searched
        to the quiescence depth from every leaf, and a position full of mutual threats
        (Kiwipete) took minutes for a 3-ply search; under-promotions are left out too.

        Out of check the captures come from the attack tables directly (a quiescence
        node's main cost; python-chess's generator made them at several times the cost),
        in python-chess's order; in check from python-chess's evasions.  Both give what
        :meth:`noisy_reference` gives (a test checks it).
        """
        if self.is_terminal(state):
            return []
        if state.in_check():
            return self.noisy_reference(state)
        return noisy_moves(state.board, state.pinned(), _chess or chess_module())

    def noisy_reference(self, state: ChessState) -> list[Any]:
        """:meth:`noisy_actions` through python-chess's legal-move generator (the
        definition the fast path is tested against; used in check)."""
        if self.is_terminal(state):
            return []
        board = state.board
        piece_at = board.piece_type_at
        defended = board.is_attacked_by
        them = not board.turn
        noisy = []
        for move in board.generate_legal_captures():
            if move.promotion is not None and move.promotion != 5:
                continue
            victim = piece_at(move.to_square) or 1  # en passant: a pawn
            attacker = piece_at(move.from_square) or 1
            if (
                move.promotion is not None
                or ORDER_VALUE[victim] >= ORDER_VALUE[attacker]
                or not defended(them, move.to_square)
            ):
                noisy.append(move)
        pawns = board.pawns & board.occupied_co[board.turn]
        seventh = pawns & (0xFF << 48 if board.turn else 0xFF << 8)
        if seventh:
            empty = ~board.occupied & 0xFFFFFFFFFFFFFFFF
            noisy.extend(
                m for m in board.generate_legal_moves(seventh, empty) if m.promotion == 5
            )
        return self.order_hint(state, noisy) if noisy else noisy

    def extension(self, state: ChessState, action: chesslib.Move, child: ChessState) -> int:
        """Extra plies to search ``child`` (reached from ``state`` by ``action``): 1 when
        the move gives check, else 0 (the check extension).

        The in-check test is cached on ``child``, where the terminal test reuses it.
        """
        return 1 if child.in_check() else 0

    def null_move(self, state: ChessState) -> ChessState | None:
        """The position after the side to move passes, or None when a pass is no sound test.

        The pass flips the side to move, clears the en-passant square, adds one to the
        halfmove clock and to ``ply`` and extends the history as :meth:`result` does; the
        position stays legal, since the passing side is not in check.  None when the side
        to move is in check (a pass would leave its king capturable), when it has only
        king and pawns (zugzwang is common there, and null-move pruning would assume a
        move never hurts), or when the game is over.  ``state`` is not changed.
        """
        board = state.board
        own = board.occupied_co[board.turn]
        if (
            not own & (board.knights | board.bishops | board.rooks | board.queens)
            or state.in_check()
            or self.is_terminal(state)
        ):
            return None
        child = board.copy(stack=False)
        child.push((_chess or chess_module()).Move.null())
        # A pass moves no piece: the material sum carries over as it is.
        return ChessState(
            child, state.ply + 1, (state.key, state.history), state._material, state._evaluator
        )

    def is_quiet(self, state: ChessState, action: chesslib.Move) -> bool:
        """True for a move late-move reductions may reduce: neither a capture (en passant
        included) nor a promotion.  Checks are :meth:`extension`'s concern."""
        if action.promotion is not None:
            return False
        board = state.board
        to = action.to_square
        if board.occupied_co[not board.turn] >> to & 1:
            return False
        # En passant: a pawn moving to the en-passant square.
        return not (to == board.ep_square and board.pawns >> action.from_square & 1)

    def compiled_search(self, backend: str | None = None) -> Any:
        """The compiled engine (:class:`~plies.games.chess.engine.CompiledSearch`, Numba)
        that the policy layer runs for engine requests with a limit, or None.

        ``backend`` (default: the game's ``backend``, ``"python"`` unless the game was made
        with another: the generic engine's searches, deterministic node for node, stay
        what front ends show by default): ``"numba"`` is the compiled engine
        (:class:`~plies.errors.OptionError` without Numba), made ready first;
        ``"python"`` is None (the generic engine on the Python rules runs); ``"auto"`` is
        the compiled engine once it is ready, else None: Numba compiles the engine's
        recursive search in each process (it cannot be cached), which takes seconds, so
        the first request starts that in a background thread and searches in Python
        meanwhile.  The engine, with its transposition table, is made once per game
        and kept between searches.
        """
        backend = self.backend if backend is None else backend
        if choose_backend(backend, "chess") == "python":
            return None
        from plies.games.chess.engine import kernel_ready

        if not kernel_ready(wait=backend == "numba"):
            return None
        if self._compiled is None:
            from plies.games.chess.engine import CompiledSearch

            self._compiled = CompiledSearch(self)
        return self._compiled

    # --- text ----------------------------------------------------------------------------

    def format_action(self, state: ChessState, action: chesslib.Move) -> str:
        """The move in SAN (``"Nf3"``, ``"O-O"``, ``"exd8=Q+"``)."""
        return str(state.board.san(action))

    def parse_action(self, state: ChessState, text: str) -> chesslib.Move:
        """The legal move written in SAN or UCI.

        Raises:
            IllegalActionError: not a legal move here; the message lists them in SAN.
        """
        board = state.board
        word = text.strip()
        legal = self.actions(state)
        move = None
        try:
            move = board.parse_uci(word.lower()) if len(word) in (4, 5) else None
        except ValueError:
            move = None
        if move is None or move not in legal:
            try:
                move = board.parse_san(word)
            except ValueError:
                move = None
        if move is None or move not in legal:
            raise IllegalActionError(text, [board.san(m) for m in legal])
        return move

    def play_moves(self, text: str, state: ChessState | None = None) -> ChessState:
        """The state after the moves in ``text`` (SAN or UCI, blank-separated)."""
        state = self.initial_state() if state is None else state
        for token in self.split_moves(text):
            if token[0].isdigit() and token.rstrip(".").isdigit():
                continue  # a move number ("1.")
            state = self.result(state, self.parse_action(state, token))
        return state

    def render(self, state: ChessState) -> str:
        board = state.board
        rows = [f"{8 - i} {row}" for i, row in enumerate(str(board).splitlines())]
        rows.append("  a b c d e f g h")
        if self.is_terminal(state):
            rows.append(f"game over: {self.outcome(state)}")
        else:
            who = "White" if board.turn else "Black"
            rows.append(f"{who} to move" + (" (check)" if board.is_check() else ""))
        return "\n".join(rows)

    def player_name(self, player: int) -> str:
        return NAMES[player]

    # --- what front ends read --------------------------------------------------------------

    def board(self, state: ChessState, last: chesslib.Move | None = None) -> Board:
        """The board, White at the bottom; a piece and its target are clicked in turn."""
        # None once the game is over (also drawn by rule, where python-chess has moves).
        moves = [] if self.is_terminal(state) else self.actions(state)
        return chess_board(state.board, [(m, str(state.board.san(m))) for m in moves], last)

    def read_position(self, text: str) -> PositionText | None:
        """A FEN or EPD line (see :mod:`plies.games.chess.positions`); None for other text."""
        return read_fen(text, self.state_from_fen)

    def write_position(self, state: ChessState) -> str:
        """The FEN of ``state``."""
        return write_fen(state.board)

    def play_defaults(self) -> PlayDefaults:
        """Engine craft with every selective switch (quiescence over captures and queen
        promotions, check and singular extensions, null-move pruning, late-move
        reductions), mate scores ("mate in N"), centipawns, two seconds a move."""
        return PlayDefaults(
            craft={"quiescence": QUIESCENCE, "extensions": True, "null_move": NULL_REDUCTION,
                   "reductions": True, "singular": SINGULAR_MARGIN},
            mate_scores=True, unit="cp", moves_help=MOVES_HELP,
        )
