"""Chess as a plies game: python-chess knows the rules, plies searches.

The rules (legality, check, castling, en passant, promotion, the fifty-move rule,
insufficient material, repetition) are python-chess's (``pip install 'plies[chess]'``);
it is imported when a :class:`Chess` game is made, never by ``import plies``.

- **Players**: 0 is White, 1 is Black.
- **Actions**: ``chess.Move`` values in python-chess's legal-move order.  People read them
  in SAN (``format_action``) and may type SAN or UCI (``parse_action``: ``"Nf3"``,
  ``"g1f3"``).
- **States**: :class:`ChessState`, immutable and hashable; ``result`` copies the board
  (``copy(stack=False)``) and pushes, never touching its input.
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
  :mod:`plies.games.chess_eval` in centipawns from ``player``'s side, capped at
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
from typing import TYPE_CHECKING, Any, Final

from plies.errors import GameFormatError, IllegalActionError, UnsupportedGameError
from plies.game import Game
from plies.games.chess_eval import WEIGHTS, Evaluator, Weights

if TYPE_CHECKING:
    import chess as chesslib

STARTING_FEN: Final = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
WIN: Final = 100_000.0
"""The utility of a win (centipawns, far above any material count)."""
EVAL_CAP: Final = 50_000
"""``evaluate`` stays within ``[-EVAL_CAP, EVAL_CAP]``: well inside ``utility_range``."""

ONGOING, WHITE_WINS, BLACK_WINS, DRAWN = 0, 1, 2, 3

# MVV-LVA: a capture scores 8 * victim - attacker (victim first, then the cheapest attacker).
_ORDER_VALUE: Final = (0, 1, 3, 3, 5, 9, 20)  # by python-chess piece type (1 pawn .. 6 king)


_chess: Any = None  # python-chess once imported (hot paths read it: `_chess or chess_module()`)


def chess_module() -> Any:
    """python-chess, imported on first use.

    Raises:
        UnsupportedGameError: python-chess is not installed (one line naming the extra).
    """
    global _chess
    if _chess is None:
        try:
            import chess
        except ImportError:  # pragma: no cover - the extra is installed where tests run
            raise UnsupportedGameError(
                "chess needs python-chess: pip install 'plies[chess]'"
            ) from None
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
        ep = board.ep_square
        self.key = (  # position_key(board), inline: a state is made per node
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
        return (_rebuild, (self.board.fen(), self.ply, self.history))

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
        """Find the pins and the check of the side to move at once: a slider aiming at
        the king pins the one piece between them, or checks if there is none."""
        chess = _chess or chess_module()
        board = self.board
        turn = board.turn
        occupied_co = board.occupied_co
        own, them = occupied_co[turn], occupied_co[not turn]
        occupied = board.occupied
        king = (board.kings & own).bit_length() - 1
        queens = board.queens
        snipers = them & (
            (chess.BB_RANK_ATTACKS[king][0] | chess.BB_FILE_ATTACKS[king][0])
            & (board.rooks | queens)
            | chess.BB_DIAG_ATTACKS[king][0] & (board.bishops | queens)
        )
        pinned = 0
        check = bool(
            them & (
                chess.BB_KNIGHT_ATTACKS[king] & board.knights
                | chess.BB_PAWN_ATTACKS[turn][king] & board.pawns
            )
        )
        between = chess.between
        while snipers:
            low = snipers & -snipers
            snipers ^= low
            b = between(king, low.bit_length() - 1) & occupied
            if not b:
                check = True
            elif b & (b - 1) == 0:
                pinned |= b
        self._pinned = pinned & own
        self._check = int(check)

    def repetitions(self) -> int:
        """How often this position occurred since the last capture or pawn move (>= 1)."""
        count, key, node = 1, self.key, self.history
        while node is not None:
            if node[0] == key:
                count += 1
            node = node[1]
        return count


# Ranks 1 and 8, whose castling rights a king move gives up; the rook's squares when
# castling short and long, (from, to) by the king's destination.
_RANK_1: Final = 0xFF
_RANK_8: Final = 0xFF << 56
_CASTLING_ROOK: Final = {6: (7, 5), 2: (0, 3), 62: (63, 61), 58: (56, 59)}


def play(
    board: chesslib.Board, move: chesslib.Move, packed: Any, material: int
) -> tuple[chesslib.Board, int]:
    """A new board: ``board`` after the legal ``move``, and the new material sum.

    What python-chess's ``board.copy(stack=False)`` followed by ``push(move)`` makes (the
    same pieces, side to move, castling rights, en-passant square, clocks and promoted
    pieces; the perft tests and a random-game test check it), for standard chess, with an
    empty move stack, without copying the undo stack.  ``packed`` are the evaluator's
    packed tables (:attr:`~plies.games.chess_eval.Evaluator.packed`) and ``material``
    the packed sum for ``board``; the sum for the new board is returned with it.
    ``board`` is not changed.
    """
    turn = board.turn
    us = 1 if turn else 0
    occupied_co = board.occupied_co
    own, them = occupied_co[us], occupied_co[1 - us]
    pawns, knights, bishops = board.pawns, board.knights, board.bishops
    rooks, queens, kings = board.rooks, board.queens, board.kings
    promoted, castling, ep = board.promoted, board.castling_rights, board.ep_square
    clock = board.halfmove_clock + 1
    f, t, promotion = move.from_square, move.to_square, move.promotion
    fb, tb = 1 << f, 1 << t
    table, theirs = packed[us], packed[1 - us]
    new_ep = None
    # The moving piece leaves its square.
    if pawns & fb:
        piece = 1
        pawns ^= fb
        clock = 0
    elif knights & fb:
        piece = 2
        knights ^= fb
    elif bishops & fb:
        piece = 3
        bishops ^= fb
    elif rooks & fb:
        piece = 4
        rooks ^= fb
    elif queens & fb:
        piece = 5
        queens ^= fb
    else:
        piece = 6
        kings ^= fb
    own ^= fb
    was_promoted = promoted & fb
    material -= table[piece][f]
    # A capture on the target square.
    if them & tb:
        clock = 0
        them ^= tb
        keep = ~tb
        if pawns & tb:
            material -= theirs[1][t]
            pawns &= keep
        elif knights & tb:
            material -= theirs[2][t]
            knights &= keep
        elif bishops & tb:
            material -= theirs[3][t]
            bishops &= keep
        elif rooks & tb:
            material -= theirs[4][t]
            rooks &= keep
        elif queens & tb:
            material -= theirs[5][t]
            queens &= keep
    elif piece == 1:
        diff = t - f
        if diff == 16:
            new_ep = f + 8
        elif diff == -16:
            new_ep = f - 8
        elif t == ep:  # en passant: the captured pawn stands behind the target square
            down = t - 8 if turn else t + 8
            db = 1 << down
            pawns ^= db
            them ^= db
            promoted &= ~db
            material -= theirs[1][down]
    promoted &= ~(fb | tb)
    castling &= ~(fb | tb)
    if piece == 6:
        castling &= ~(_RANK_1 if turn else _RANK_8)
        rook = _CASTLING_ROOK.get(t) if f - t in (2, -2) else None
        if rook is not None:  # castling: the rook jumps over the king
            rf, rt = rook
            step = 1 << rf | 1 << rt
            rooks ^= step
            own ^= step
            promoted &= ~step
            material += table[4][rt] - table[4][rf]
    # The piece (or the promoted piece) arrives.
    if promotion:
        piece = promotion
        promoted |= tb
    elif was_promoted:
        promoted |= tb
    own |= tb
    if piece == 1:
        pawns |= tb
    elif piece == 2:
        knights |= tb
    elif piece == 3:
        bishops |= tb
    elif piece == 4:
        rooks |= tb
    elif piece == 5:
        queens |= tb
    else:
        kings |= tb
    material += table[piece][t]
    child = _new(type(board))
    child.__dict__ = {
        "pawns": pawns, "knights": knights, "bishops": bishops, "rooks": rooks,
        "queens": queens, "kings": kings, "promoted": promoted,
        "occupied_co": [them, own] if turn else [own, them], "occupied": own | them,
        "turn": not turn, "castling_rights": castling, "ep_square": new_ep,
        "halfmove_clock": clock,
        "fullmove_number": board.fullmove_number + (0 if turn else 1),
        "chess960": board.chess960, "move_stack": [], "_stack": [],
    }
    return child, material


_new = object.__new__


def _has_move(state: ChessState, chess: Any) -> bool:
    """Whether the side to move has a legal move (for the terminal test).

    Out of check, a piece that is not pinned may make any move of its kind, so a free
    pawn's push or a free knight's or slider's step to a square not its own settles it
    in a few bit operations; otherwise (in check, or every free piece blocked)
    python-chess's legal-move generator decides.
    """
    if not state.in_check():
        board = state.board
        turn = board.turn
        own = board.occupied_co[turn]
        free = own & ~state.pinned()
        pawns = board.pawns & free
        if (pawns << 8 if turn else pawns >> 8) & ~board.occupied:
            return True
        knights = board.knights & free
        attacks = chess.BB_KNIGHT_ATTACKS
        while knights:
            low = knights & -knights
            knights ^= low
            if attacks[low.bit_length() - 1] & ~own:
                return True
        sliders = (board.bishops | board.rooks | board.queens) & free
        mask = board.attacks_mask
        while sliders:
            low = sliders & -sliders
            sliders ^= low
            if mask(low.bit_length() - 1) & ~own:
                return True
    return any(True for _ in state.board.generate_legal_moves())


def _legal_moves(board: chesslib.Board, pinned: int, chess: Any) -> list[Any]:
    """The legal moves of a position whose side to move is not in check, in
    python-chess's order (``pinned``: the mover's pieces pinned to its king).

    Python-chess's ``generate_legal_moves`` without its generator layers: pieces from h8
    down (targets from h8 down), castling, pawn captures, single and double pushes
    (promotions as queen, rook, bishop, knight), en passant; a pinned piece keeps to its
    line and the king to unattacked squares.  A test compares it with python-chess.
    """
    if not _MOVES:
        _MOVES.extend([chess.Move(f, t) for t in range(64)] for f in range(64))
    moves = _MOVES
    turn = board.turn
    occupied_co = board.occupied_co
    own, them = occupied_co[turn], occupied_co[not turn]
    occupied = board.occupied
    pawns, knights, bishops, rooks, kings = (
        board.pawns, board.knights, board.bishops, board.rooks, board.kings
    )
    king_bb = kings & own
    rays = chess.BB_RAYS
    attackers = board.attackers_mask
    enemy = not turn
    knight_attacks, king_attacks = chess.BB_KNIGHT_ATTACKS, chess.BB_KING_ATTACKS
    diag_attacks, diag_masks = chess.BB_DIAG_ATTACKS, chess.BB_DIAG_MASKS
    rank_attacks, rank_masks = chess.BB_RANK_ATTACKS, chess.BB_RANK_MASKS
    file_attacks, file_masks = chess.BB_FILE_ATTACKS, chess.BB_FILE_MASKS
    out: list[Any] = []
    add = out.append
    free = ~own
    movers = own & ~pawns
    while movers:
        f = movers.bit_length() - 1
        fb = 1 << f
        movers ^= fb
        if knights & fb:
            targets = knight_attacks[f] & free
        elif kings & fb:
            targets = king_attacks[f] & free
            row = moves[f]
            while targets:
                t = targets.bit_length() - 1
                targets ^= 1 << t
                if not attackers(enemy, t):
                    add(row[t])
            continue
        else:
            targets = 0
            if not rooks & fb:
                targets = diag_attacks[f][diag_masks[f] & occupied]
            if not bishops & fb:
                targets |= (
                    rank_attacks[f][rank_masks[f] & occupied]
                    | file_attacks[f][file_masks[f] & occupied]
                )
            targets &= free
        if pinned & fb:
            line = rays[f]
            while targets:
                t = targets.bit_length() - 1
                targets ^= 1 << t
                if line[t] & king_bb:
                    add(moves[f][t])
        else:
            row = moves[f]
            while targets:
                t = targets.bit_length() - 1
                targets ^= 1 << t
                add(row[t])
    backrank = 0xFF if turn else 0xFF << 56
    if board.castling_rights & backrank and king_bb & backrank:
        out.extend(board.generate_castling_moves())
    mine = pawns & own
    if not mine:
        return out
    Move = chess.Move
    last = 0xFF << 56 if turn else 0xFF
    pawn_attacks = chess.BB_PAWN_ATTACKS[turn]
    capturers = mine
    while capturers:
        f = capturers.bit_length() - 1
        fb = 1 << f
        capturers ^= fb
        targets = pawn_attacks[f] & them
        while targets:
            t = targets.bit_length() - 1
            tb = 1 << t
            targets ^= tb
            if pinned & fb and not rays[f][t] & king_bb:
                continue
            if tb & last:
                out += (Move(f, t, 5), Move(f, t, 4), Move(f, t, 3), Move(f, t, 2))
            else:
                add(moves[f][t])
    empty = ~occupied
    if turn:
        single = mine << 8 & empty
        double = single << 8 & empty & 0xFF000000
        back = -8
    else:
        single = mine >> 8 & empty
        double = single >> 8 & empty & 0xFF00000000
        back = 8
    for targets, step in ((single, back), (double, 2 * back)):
        while targets:
            t = targets.bit_length() - 1
            tb = 1 << t
            targets ^= tb
            f = t + step
            if pinned >> f & 1 and not rays[f][t] & king_bb:
                continue
            if tb & last:
                out += (Move(f, t, 5), Move(f, t, 4), Move(f, t, 3), Move(f, t, 2))
            else:
                add(moves[f][t])
    if board.ep_square is not None:
        out.extend(board.generate_legal_ep())
    return out


_FILE_A: Final = 0x0101010101010101
_FILE_H: Final = _FILE_A << 7
_MOVES: list[list[Any]] = []  # _MOVES[from][to]: one shared chess.Move per pair, made once


def _noisy(board: chesslib.Board, pinned: int, chess: Any) -> list[Any]:
    """:meth:`Chess.noisy_actions` of a position whose side to move is not in check
    (``pinned``: its pieces pinned to its king).

    The captures come from the attack tables (a knight's, a slider's, the king's) and
    from shifted pawn bitboards, are kept when legal (a pinned piece stays on its line,
    the king goes to an unattacked square) and when :meth:`Chess.noisy_actions`' filter
    keeps them, then sorted by (MVV-LVA key, python-chess's generation order: pieces,
    then pawns, then en passant, then quiet promotions, squares from h8 down) as
    :meth:`Chess.order_hint` sorts them.  Moves are shared ``chess.Move`` values (nobody
    mutates a move).
    """
    if not _MOVES:
        _MOVES.extend([chess.Move(f, t) for t in range(64)] for f in range(64))
    moves = _MOVES
    turn = board.turn
    occupied_co = board.occupied_co
    own, them = occupied_co[turn], occupied_co[not turn]
    if not them & ~board.kings and not board.pawns & own:
        return []  # a bare enemy king and no pawn to promote: nothing to capture
    occupied = board.occupied
    pawns, knights, bishops = board.pawns, board.knights, board.bishops
    rooks, kings = board.rooks, board.kings
    king_bb = kings & own
    rays = chess.BB_RAYS
    attackers = board.attackers_mask
    enemy = not turn
    enemy_pawns = pawns & them
    guards = chess.BB_PAWN_ATTACKS[turn]  # a square an enemy pawn defends: pawn attacks
    knight_attacks, king_attacks = chess.BB_KNIGHT_ATTACKS, chess.BB_KING_ATTACKS
    diag_attacks, diag_masks = chess.BB_DIAG_ATTACKS, chess.BB_DIAG_MASKS
    rank_attacks, rank_masks = chess.BB_RANK_ATTACKS, chess.BB_RANK_MASKS
    file_attacks, file_masks = chess.BB_FILE_ATTACKS, chess.BB_FILE_MASKS
    found: list[tuple[int, int, Any]] = []  # (order key, generation rank, move)
    # Pieces: knights, bishops, rooks, queens and the king, from h8 down.
    movers = own & ~pawns
    while movers:
        f = movers.bit_length() - 1
        fb = 1 << f
        movers ^= fb
        if knights & fb:
            attacker, targets = 2, knight_attacks[f] & them
        elif kings & fb:
            attacker, targets = 6, king_attacks[f] & them
        else:
            targets = 0
            attacker = 3 if bishops & fb else 4 if rooks & fb else 5
            if attacker != 4:
                targets = diag_attacks[f][diag_masks[f] & occupied]
            if attacker != 3:
                targets |= (
                    rank_attacks[f][rank_masks[f] & occupied]
                    | file_attacks[f][file_masks[f] & occupied]
                )
            targets &= them
        if not targets:
            continue
        worth = _ORDER_VALUE[attacker]
        rank = (63 - f) << 6
        while targets:
            t = targets.bit_length() - 1
            tb = 1 << t
            targets ^= tb
            if attacker == 6:
                if attackers(enemy, t):
                    continue  # illegal, and a king never captures into a defence anyway
            elif pinned & fb and not rays[f][t] & king_bb:
                continue
            victim = (
                1 if pawns & tb else 2 if knights & tb else 3 if bishops & tb
                else 4 if rooks & tb else 5
            )
            value = _ORDER_VALUE[victim]
            if value >= worth or not (guards[t] & enemy_pawns or attackers(enemy, t)):
                found.append((worth - 8 * value, rank + 63 - t, moves[f][t]))
    # Pawn captures (toward the a-file and toward the h-file); on the last rank only the
    # queen promotion.  A pawn is worth no more than any victim: no filter.
    mine = pawns & own
    if mine:
        last = 0xFF << 56 if turn else 0xFF
        if turn:
            west, east = (mine & ~_FILE_A) << 7 & them, (mine & ~_FILE_H) << 9 & them
            west_step, east_step = 7, 9
        else:
            west, east = (mine & ~_FILE_A) >> 9 & them, (mine & ~_FILE_H) >> 7 & them
            west_step, east_step = -9, -7
        for targets, step in ((west, west_step), (east, east_step)):
            while targets:
                t = targets.bit_length() - 1
                tb = 1 << t
                targets ^= tb
                f = t - step
                if pinned >> f & 1 and not rays[f][t] & king_bb:
                    continue
                victim = (
                    1 if pawns & tb else 2 if knights & tb else 3 if bishops & tb
                    else 4 if rooks & tb else 5
                )
                rank = 4096 + ((63 - f) << 6) + 63 - t
                if tb & last:
                    found.append((-1050 - victim, rank, chess.Move(f, t, 5)))
                else:
                    found.append((1 - 8 * _ORDER_VALUE[victim], rank, moves[f][t]))
        if board.ep_square is not None:
            for i, move in enumerate(board.generate_legal_ep()):
                found.append((-7, 8192 + i, move))
        # Queen promotions without a capture, by target square from h8 down.
        seventh = mine & (0xFF << 48 if turn else 0xFF << 8)
        if seventh:
            pushes = (seventh << 8 if turn else seventh >> 8) & ~occupied
            while pushes:
                t = pushes.bit_length() - 1
                pushes ^= 1 << t
                f = t - 8 if turn else t + 8
                if pinned >> f & 1 and not rays[f][t] & king_bb:
                    continue
                found.append((-1050, 12288 + 63 - t, chess.Move(f, t, 5)))
    if not found:
        return []
    found.sort()
    return [m for _, _, m in found]


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


class Chess(Game[ChessState, Any]):
    """Chess from ``fen`` (default: the starting position); see the module docstring."""

    num_players = 2
    zero_sum = True
    name = "chess"
    utility_range = (-WIN, WIN)

    def __init__(
        self, fen: str = STARTING_FEN, max_plies: int | None = None, weights: Weights = WEIGHTS
    ) -> None:
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
        self._board = board

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
                moves = _legal_moves(state.board, state.pinned(), _chess or chess_module())
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
        has_move = bool(moves) if moves is not None else _has_move(state, _chess or chess_module())
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
                    (_ORDER_VALUE[attacker] - 8 * _ORDER_VALUE[victim], len(scored), move)
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
        return _noisy(state.board, state.pinned(), _chess or chess_module())

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
                or _ORDER_VALUE[victim] >= _ORDER_VALUE[attacker]
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
        child.push(chess_module().Move.null())
        return ChessState(child, state.ply + 1, (state.key, state.history))

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
        return ("White", "Black")[player]
