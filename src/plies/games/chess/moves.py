"""Chess moves on python-chess's bitboards, without its generator layers.

What :class:`~plies.games.chess.Chess` calls at every node of a search: making a move
(:func:`play`, python-chess's ``copy`` + ``push`` in one step, with the evaluation's
material sum carried along), pins and check (:func:`king_safety`), the terminal test's
"is there a legal move" (:func:`has_legal_move`), the legal moves (:func:`legal_moves`)
and the quiescence moves (:func:`noisy_moves`).  Each computes what python-chess
computes (same positions, same moves in the same order; ``tests/games/test_chess.py``
compares them on random games), from python-chess's public attack tables, at a third
to a half of the cost; positions in check go to python-chess's own generator.  The
functions take the ``chess`` module as an argument: python-chess is imported by
:mod:`plies.games.chess.rules` on first use, never by ``import plies``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    import chess as chesslib

ORDER_VALUE: Final = (0, 1, 3, 3, 5, 9, 20)
"""Piece values for MVV-LVA by python-chess piece type (1 pawn .. 6 king): a capture
scores ``8 * victim - attacker`` (victim first, then the cheapest attacker)."""


def king_safety(board: chesslib.Board, chess: Any) -> tuple[int, bool]:
    """The side to move's pieces pinned to its king (a bitboard), and whether it is in
    check: a slider aiming at the king pins the one piece between them, or checks if
    there is none; a knight or pawn on an attacking square checks."""
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
    return pinned & own, check


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
    packed tables (:attr:`~plies.games.chess.evaluation.Evaluator.packed`) and ``material``
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


def has_legal_move(board: chesslib.Board, pinned: int, in_check: bool, chess: Any) -> bool:
    """Whether the side to move has a legal move (for the terminal test).

    Out of check, a piece that is not pinned may make any move of its kind, so a free
    pawn's push or a free knight's or slider's step to a square not its own settles it
    in a few bit operations; otherwise (in check, or every free piece blocked)
    python-chess's legal-move generator decides.
    """
    if not in_check:
        turn = board.turn
        own = board.occupied_co[turn]
        free = own & ~pinned
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
    return any(True for _ in board.generate_legal_moves())


def legal_moves(board: chesslib.Board, pinned: int, chess: Any) -> list[Any]:
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


def noisy_moves(board: chesslib.Board, pinned: int, chess: Any) -> list[Any]:
    """``Chess.noisy_actions`` of a position whose side to move is not in check
    (``pinned``: its pieces pinned to its king).

    The captures come from the attack tables (a knight's, a slider's, the king's) and
    from shifted pawn bitboards, are kept when legal (a pinned piece stays on its line,
    the king goes to an unattacked square) and when the filter of ``noisy_actions``
    keeps them, then sorted by (MVV-LVA key, python-chess's generation order: pieces,
    then pawns, then en passant, then quiet promotions, squares from h8 down) as
    ``Chess.order_hint`` sorts them.  Moves are shared ``chess.Move`` values (nobody
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
        worth = ORDER_VALUE[attacker]
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
            value = ORDER_VALUE[victim]
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
                    found.append((1 - 8 * ORDER_VALUE[victim], rank, moves[f][t]))
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
