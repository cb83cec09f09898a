"""Chess searched by the compiled kernel: the ``compiled_search`` hook's engine.

:class:`CompiledSearch` runs :mod:`plies.games.chess.kernel` (Numba) on a
:class:`~plies.games.chess.ChessState`: iterative deepening of the kernel's engine in
aspiration windows at the root (:data:`ASPIRATION`; alpha-beta with a transposition
table in numpy arrays, move ordering, PVS, check extensions, null moves, late-move
reductions, forward pruning and quiescence; see
:func:`~plies.games.chess.kernel.engine`) under a depth, time and node limit and a stop
signal, or plain alpha-beta at a fixed depth (:meth:`CompiledSearch.plain`, the kernel's
cross-check against :func:`plies.alphabeta` on the Python game).  Both read the rules
as :class:`~plies.games.chess.Chess` has them (the fifty-move rule, threefold repetition
counted over the state's history, insufficient material, ``max_plies``) and the
game's :class:`~plies.games.chess.Evaluator`, value for value.

Values are centipawns for the side to move at the root (the searching player), capped
at :data:`~plies.games.chess.EVAL_CAP`; a mate in ``p`` plies is ``WIN - p`` (a loss
``-(WIN - p)``), and :meth:`CompiledSearch.search` reports it in the searched game's
scale: ``game.utility`` of the mated position, so mate-distance scores
(:class:`~plies.search.mate.MateDistance`) read as they do from the Python search.

Numba compiles the kernel on first use (cached on disk: later processes load it); a
search runs without the GIL, so the stop signal is watched from the caller's thread.
"""

from __future__ import annotations

import importlib
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, Final

import numpy as np

from plies.search.result import SearchResult, SearchStats

TABLE_BITS: Final = 19
"""The transposition table's size: ``2 ** TABLE_BITS`` slots of four int64 (16 MB), until
:meth:`CompiledSearch.resize` makes it another."""
SLOT_BYTES: Final = 32
ASPIRATION: Final = 25
"""The half-width in centipawns of the root's aspiration window (from
:data:`ASPIRATION_DEPTH` on, around the last iteration's value): a value outside it is
searched again with the failing side twice as far off, the full width once that
passes :data:`ASPIRATION_MAX`."""
ASPIRATION_DEPTH: Final = 4
"""The first iteration searched in an aspiration window."""
ASPIRATION_MAX: Final = 400
"""The widening beyond which the failing side of the aspiration window is opened."""


_COMPILING: list[threading.Thread] = []
_LOCK = threading.Lock()
_KERNEL = "plies.games.chess.kernel"


def kernel_ready(wait: bool) -> bool:
    """Whether the kernel is compiled; the first call starts its compilation (importing
    :mod:`plies.games.chess.kernel`) in a background thread, and ``wait`` waits for it.

    Raises:
        Exception: what the compilation raised, when waiting.
    """
    module = sys.modules.get(_KERNEL)
    if getattr(module, "READY", False):
        return True
    with _LOCK:
        if not _COMPILING:
            thread = threading.Thread(
                target=importlib.import_module, args=(_KERNEL,), daemon=True,
                name="plies chess kernel compilation",
            )
            thread.start()
            _COMPILING.append(thread)
    if wait:
        _COMPILING[0].join()
        importlib.import_module(_KERNEL)  # raises what the compilation raised, if anything
        return True
    return False


class CompiledSearch:
    """The compiled searches of one :class:`~plies.games.chess.Chess` game (its
    evaluator's tables, a transposition table kept between searches)."""

    def __init__(self, game: Any, table_bits: int = TABLE_BITS) -> None:
        from plies.games.chess import kernel

        self.k = kernel
        self.game = game
        self.tables = kernel.tables(game.evaluator)
        self.tt = np.empty((1 << table_bits, 4), dtype=np.int64)
        self.tt.fill(0)  # every page touched now, not by the first search on its clock
        self.history = np.zeros((2, 4096), dtype=np.int64)

    backend: Final = "numba"

    def search(
        self,
        game: Any,
        state: Any,
        limit: Any,
        *,
        player: int | None = None,
        stop: Any = None,
        on_iteration: Callable[[SearchResult], None] | None = None,
        craft: dict[str, Any] | None = None,
    ) -> SearchResult:
        """The :class:`~plies.game.CompiledEngine` search: :meth:`run` within ``limit``
        (a :class:`~plies.search.Limit`) with the switches ``craft`` names."""
        k = self.k
        switches = k.TT
        if craft is not None:
            for name, bit in (("quiescence", k.QUIESCENCE), ("null_move", k.NULL_MOVE),
                              ("extensions", k.EXTENSIONS), ("reductions", k.REDUCTIONS)):
                if craft.get(name):
                    switches |= bit
            if craft.get("reductions"):
                # The forward pruning and the twofold repetition go with the reductions.
                switches |= k.PRUNING | k.REPETITION
        return self.run(
            game, state, depth=limit.depth, seconds=limit.time, nodes=limit.nodes, stop=stop,
            on_iteration=on_iteration, player=player, switches=switches,
        ).about(game, state)

    def clear(self) -> None:
        """Forget the transposition table and the move history."""
        self.tt[:] = 0
        self.history[:] = 0

    def resize(self, megabytes: int) -> None:
        """An empty table of the most slots (a power of two, 32 bytes each, at least
        2 ** 10) that ``megabytes`` hold."""
        slots = max(1 << 10, 1 << (((megabytes << 20) // SLOT_BYTES).bit_length() - 1))
        if slots != len(self.tt):
            self.tt = np.zeros((slots, 4), dtype=np.int64)
        else:
            self.tt[:] = 0

    def hashfull(self) -> int:
        """Per mille of the table's first thousand slots in use (as engines sample it)."""
        sample = self.tt[:1000, 0]
        return int(np.count_nonzero(sample)) * 1000 // len(sample)

    def _setup(self, state: Any) -> tuple[Any, ...]:
        k = self.k
        keys: list[int] = []
        node = state.history
        while node is not None:
            keys.append(node[0])
            node = node[1]
        keys.reverse()  # oldest first
        base = len(keys)
        hist = np.zeros(base + k.MAX_PLY + 2, dtype=np.int64)
        for i, key in enumerate(keys):
            hist[i] = k.row_of_key(key)[k.HASH]
        stack = np.zeros((k.MAX_PLY + 2, k.ROW), dtype=np.int64)
        stack[0] = k.row_of(state.board)
        hist[base] = stack[0, k.HASH]
        hist_len = np.zeros(k.MAX_PLY + 2, dtype=np.int64)
        hist_len[0] = base
        moves = np.zeros((k.MAX_PLY + 2, k.MAX_MOVES), dtype=np.int64)
        ctx = np.zeros(k.CTX, dtype=np.int64)
        max_plies = self.game.max_plies
        ctx[k.PLY_LIMIT] = 1 << 40 if max_plies is None else max_plies - state.ply
        return stack, moves, hist, base, hist_len, ctx

    def plain(self, state: Any, depth: int, actions: list[Any]) -> tuple[int, Any]:
        """``(value, action)``: plain alpha-beta to ``depth`` over the root's ``actions``
        in their order (the first best kept), value for the side to move."""
        k = self.k
        stack, moves, hist, base, hist_len, ctx = self._setup(state)
        board = state.board
        root = np.array([k.encode(board, a) for a in actions], dtype=np.int64)
        halt = np.zeros(1, dtype=np.int64)
        value, index = k.plain_root(
            stack, moves, hist, base, hist_len, *self.tables, ctx, halt, root, depth
        )
        self.nodes = int(ctx[k.NODES])
        return int(value), actions[index]

    def run(
        self,
        game: Any,
        state: Any,
        *,
        depth: int | None = None,
        seconds: float | None = None,
        nodes: int | None = None,
        stop: Any = None,
        on_iteration: Callable[[SearchResult], None] | None = None,
        player: int | None = None,
        switches: int | None = None,
    ) -> SearchResult:
        """Iterative deepening of the engine on ``state`` (``game.to_move(state)``'s
        search) until ``depth``, ``seconds``, ``nodes`` or ``stop`` (an object with
        ``is_set()``) ends it; the result of the last finished iteration.

        ``game`` is the game searched (the :class:`~plies.games.chess.Chess` game or a
        wrapper of it whose states are ``(ChessState, ply)``, such as
        :class:`~plies.search.mate.MateDistance`): terminal values are its
        ``utility``.  ``value`` is from ``player``'s side (default the mover).
        """
        k = self.k
        chess_state, wrapped_ply = (state if isinstance(state, tuple) else (state, None))
        stack, moves, hist, base, hist_len, ctx = self._setup(chess_state)
        ctx[k.SWITCHES] = k.ENGINE if switches is None else switches
        ctx[k.NODE_LIMIT] = nodes or 0
        mover = game.to_move(state)
        player = mover if player is None else player
        sign = 1 if player == mover else -1
        scores = np.zeros_like(moves)
        killers = np.zeros((k.MAX_PLY + 2, 2), dtype=np.int64)
        pv = np.zeros((k.MAX_PLY + 2, k.MAX_PLY + 2), dtype=np.int64)
        pv_len = np.zeros(k.MAX_PLY + 2, dtype=np.int64)
        halt = np.zeros(1, dtype=np.int64)
        self.history //= 2  # the last move's scores count, half as much as this one's
        start = time.perf_counter()
        deadline = None if seconds is None else start + seconds
        done = threading.Event()

        def watch() -> None:  # sets the kernel's halt flag on the clock or the signal
            while not done.is_set():
                if (stop is not None and stop.is_set()) or (
                    deadline is not None and time.perf_counter() >= deadline
                ):
                    halt[0] = 1
                    return
                done.wait(0.002)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        best: SearchResult | None = None
        chess = _chess()
        try:
            limit = k.MAX_PLY - 8 if depth is None else min(depth, k.MAX_PLY - 8)
            value = 0
            for d in range(1, limit + 1):
                # An aspiration window around the last iteration's value, widened on
                # the side it fails until the value falls within it.
                delta = ASPIRATION
                alpha, beta = -k.INFINITY, k.INFINITY
                if d >= ASPIRATION_DEPTH and abs(value) < k.MATE_BAND:
                    alpha, beta = value - delta, value + delta
                while True:
                    value = k.engine(
                        stack, moves, scores, hist, base, hist_len, self.tt, killers,
                        self.history, pv, pv_len, *self.tables, ctx, halt, 0, d,
                        alpha, beta, False,
                    )
                    if ctx[k.STOPPED]:
                        break
                    delta *= 2
                    if value <= alpha:
                        alpha = -k.INFINITY if delta > ASPIRATION_MAX else value - delta
                    elif value >= beta:
                        beta = k.INFINITY if delta > ASPIRATION_MAX else value + delta
                    else:
                        break
                if ctx[k.STOPPED] or pv_len[0] == 0:
                    break
                line = _line(chess_state.board, pv[0, : pv_len[0]], k, chess)
                stats = SearchStats(
                    nodes=int(ctx[k.NODES]), depth=d, seldepth=int(ctx[k.SELDEPTH]),
                    elapsed=time.perf_counter() - start,
                )
                v = self._value(game, state, wrapped_ply, int(value), line, mover)
                best = SearchResult(sign * v, line[0], tuple(line), stats, player,
                                    exact=False)
                if on_iteration is not None:
                    on_iteration(best)
                if abs(value) > k.MATE_BAND and k.WIN - abs(value) <= d:
                    break  # a mate found within the full-width depth: final
                if seconds is not None and time.perf_counter() - start > 0.6 * seconds:
                    break  # the next iteration would not finish
                if stop is not None and stop.is_set():
                    break
        finally:
            done.set()
            watcher.join()
        stopped = bool(ctx[k.STOPPED])
        if best is None:
            actions = game.actions(state)
            action = actions[0] if actions else None
            stats = SearchStats(nodes=int(ctx[k.NODES]), elapsed=time.perf_counter() - start)
            estimate = float(game.evaluate(state, player))
            return SearchResult(estimate, action, (), stats, player, exact=False, stopped=True)
        return SearchResult(best.value, best.action, best.pv, replace_elapsed(best.stats, start),
                            player, exact=False, stopped=stopped)

    def _value(
        self, game: Any, state: Any, wrapped_ply: int | None, value: int, line: list[Any],
        mover: int,
    ) -> float:
        """The kernel's ``value`` (for the mover) in ``game``'s scale: a mate is the
        utility of the position at the end of the line (mate-distance scores included)."""
        k = self.k
        if abs(value) <= k.MATE_BAND:
            return float(value)
        plies = k.WIN - abs(value)
        end = state
        for move in line[:plies]:
            end = game.result(end, move)
        if len(line) >= plies and game.is_terminal(end):
            return float(game.utility(end, mover))
        # The line was cut short (a table hit): the utility at that distance.
        lo, hi = game.utility_range
        step = float(getattr(game, "step", 0.0))
        return float(hi - plies * step if value > 0 else lo + plies * step)


def replace_elapsed(stats: SearchStats, start: float) -> SearchStats:
    return SearchStats(nodes=stats.nodes, depth=stats.depth, seldepth=stats.seldepth,
                       elapsed=time.perf_counter() - start)


def _line(board: Any, moves: Any, k: Any, chess: Any) -> list[Any]:
    """The kernel's principal variation as python-chess moves (kept while legal)."""
    line = []
    b = board.copy(stack=False)
    for m in moves:
        move = k.decode(int(m), chess)
        if not b.is_legal(move):
            break
        line.append(move)
        b.push(move)
    return line


def _chess() -> Any:
    import chess  # there is a Chess game: python-chess is installed

    return chess
