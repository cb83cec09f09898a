"""One ``go`` of the UCI engine: from the root position to the move to play.

:class:`Think` runs in the engine's search thread.  The search is the policy layer's
(:func:`plies.policy.plan` with ``engine=True``) on chess wrapped in
:class:`~plies.search.mate.MateDistance`; what ``go`` and the options ask shapes it:

- **One line** (``MultiPV`` 1): the policy's iterative deepening, an ``info`` line per
  finished iteration, the best move of the last one (or the move an interrupted
  iteration proved better).
- **Several lines** (``MultiPV`` k): at each depth the root is searched k times, each
  time without the moves the earlier lines start with (:class:`RootMoves`), which gives
  the k best moves in order with their own values and lines (``info ... multipv i``).
  A depth is reported once all its lines are searched; a depth cut short by the clock is
  dropped, as an unfinished iteration is.
- **searchmoves**: the root's moves are the ones ``go`` names (:class:`RootMoves`).
- **mate N**: a search to ``2N - 1`` plies without null-move pruning and late-move
  reductions (which could prune the mate away); it stops at the first iteration that
  proves a mate in at most N moves.
- **UCI_LimitStrength**: the level's node budget (:mod:`plies.uci.strength`), its best
  lines, and the move :func:`~plies.uci.strength.pick` chooses among them.

The clock, ``stop`` and ``ponderhit`` act through one :class:`threading.Event`, the
search's stop signal; a node budget counts the nodes of every search of the ``go``
(:class:`NodeBudget`).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from plies.game import hook
from plies.policy import SearchRequest, plan
from plies.policy.session import mate_moves
from plies.search import Limit, SearchResult
from plies.search.craft import TranspositionTable
from plies.search.mate import MateDistance
from plies.uci.strength import Strength, pick


class RootMoves(MateDistance):
    """:class:`MateDistance` whose root (ply 0) offers only ``moves``.

    Every other node offers the game's own actions.  Only the root has ply 0, so one
    comparison a node is the whole cost.
    """

    def __init__(self, game: Any, moves: Sequence[Any]) -> None:
        super().__init__(game)
        self.moves = list(moves)

    def actions(self, state: tuple[Any, int]) -> Sequence[Any]:
        return self.moves if state[1] == 0 else self.game.actions(state[0])

    def compiled_search(self, backend: str | None = None) -> None:
        """None: a compiled engine searches every root move, not only ``moves``, so a
        search of some moves runs the generic engine."""
        return None


class NodeBudget:
    """The stop signal of a ``go`` that runs several searches (MultiPV, a weakened level):
    ``stop`` is set, or the searches have visited more than ``nodes`` nodes in all (None:
    no budget).

    A search tells it its node count at every look (``tick``, as it tells a
    :class:`~plies.search.Progress`), about once a millisecond; :meth:`finished` adds a
    finished search's exact count.  So a budget is kept to within one look's nodes.
    """

    can_stop = True

    def __init__(self, stop: threading.Event, nodes: int | None) -> None:
        self.stop, self.nodes = stop, nodes
        self.spent = 0  # nodes of the searches that have ended
        self.current = 0  # the running search's count at its last look

    def tick(self, nodes: int, deepest: int = 0) -> None:
        self.current = nodes

    def finished(self, nodes: int) -> None:
        self.spent += nodes
        self.current = 0

    def is_set(self) -> bool:
        if self.nodes is not None and self.spent + self.current > self.nodes:
            return True
        return self.stop.is_set()


@dataclass
class Line:
    """One searched line at the root: the mover's value, its first move, the line."""

    value: float
    move: Any
    pv: tuple[Any, ...]
    depth: int
    seldepth: int


@dataclass
class Ask:
    """What one ``go`` asks, with the engine's options applied."""

    depth: int
    nodes: int | None
    lines: int
    moves: list[Any] | None
    mate: int | None
    craft: dict[str, Any]
    strength: Strength | None
    stop_at_mate: bool
    """Stop deepening once a mate is proved (not under ``go depth``, which asks for that
    depth)."""
    waiting: Callable[[], bool]
    """True while the GUI has not yet asked for a move (``go infinite``, pondering):
    no early stop at a proved mate then."""


class Think:
    """The search of one ``go`` at ``state`` (see the module docstring)."""

    def __init__(
        self, game: Any, state: Any, ask: Ask, table: TranspositionTable,
        stop: threading.Event, send: Callable[[str], None], rng: random.Random,
    ) -> None:
        self.game, self.state, self.ask, self.table = game, state, ask, table
        self.stop, self.send, self.rng = stop, send, rng
        self.signal = NodeBudget(stop, ask.nodes)
        self.start = time.perf_counter()
        self.chosen = ""
        self.hashfull: Callable[[], int] = lambda: len(table) * 1000 // table.modulus
        """The ``hashfull`` of the table that the running search fills."""

    def run(self) -> Line | None:
        """The line whose move to play; None when the root has no move to search (the
        game is over, by mate, stalemate or a draw that is not a claim)."""
        mated = MateDistance(self.game)
        root = mated.root(self.state)
        unclaimed = hook(mated, "unclaimed")
        if unclaimed is not None:  # a draw the mover may claim is no reason not to play on
            root = unclaimed(root)
        if mated.is_terminal(root):
            return None
        moves = list(mated.actions(root))
        if self.ask.moves is not None:
            moves = [m for m in moves if m in self.ask.moves]
        wanted = max(self.ask.lines, self.ask.strength.lines if self.ask.strength else 1)
        wanted = min(wanted, len(moves))
        if wanted == 1:
            game = mated if self.ask.moves is None else RootMoves(self.game, moves)
            line = self.one_line(game, root)
            return line
        lines = self.many_lines(root, moves, wanted)
        if not lines:
            return None
        if self.ask.strength is not None:
            best = pick([(line.value, line) for line in lines], self.ask.strength.weakness,
                        self.rng)
            return best
        return lines[0]

    # --- one line: the policy's iterative deepening ------------------------------------

    def one_line(self, game: MateDistance, root: Any) -> Line | None:
        ask = self.ask
        limit = Limit(depth=ask.depth, nodes=ask.nodes)
        request = SearchRequest(limit=limit, engine=True, craft=ask.craft)
        chosen = plan(game, root, request)
        self.chosen = f"{chosen.name} {sorted(chosen.options)}"
        if chosen.compiled is not None:
            self.hashfull = chosen.compiled.hashfull
        best: list[Line | None] = [None]

        def on_iteration(r: SearchResult) -> None:
            if r.action is None:
                return
            line = Line(r.value, r.action, r.pv, r.stats.depth, r.stats.seldepth)
            best[0] = line
            self.report(game, line, r.stats.nodes, 0)
            if self.proved_mate(game, line, r.stats.depth):
                self.stop.set()  # a forced mate seen within the depth: no need to deepen

        self.start = time.perf_counter()  # planning is not search time
        result = chosen.run(game, root, stop=self.stop, on_iteration=on_iteration,
                            table=self.table)
        if result.action is not None and (best[0] is None or result.action != best[0].move):
            # A stopped search may still have proved a better move than its last iteration's.
            best[0] = Line(result.value, result.action, result.pv, result.stats.depth,
                           result.stats.seldepth)
        return best[0]

    # --- several lines: each depth searched once per line --------------------------------

    def many_lines(self, root: Any, moves: list[Any], wanted: int) -> list[Line]:
        ask = self.ask
        done: list[Line] = []
        shown = min(ask.lines, wanted)
        self.start = time.perf_counter()
        for depth in range(1, ask.depth + 1):
            lines: list[Line] = []
            exact = True
            for index in range(wanted):
                rest = [m for m in moves if all(m != line.move for line in lines)]
                game = RootMoves(self.game, rest)
                request = SearchRequest(limit=Limit(depth=depth), engine=True, craft=ask.craft)
                chosen = plan(game, root, request)
                self.chosen = f"{chosen.name} {sorted(chosen.options)}"
                result = chosen.run(game, root, stop=self.signal, table=self.table)
                self.signal.finished(result.stats.nodes)
                if result.stopped or result.action is None:
                    # The clock or the budget cut this depth short: keep the last whole one
                    # (or, at depth 1, the lines it finished).
                    return done or lines
                exact = exact and result.exact
                line = Line(result.value, result.action, result.pv, depth,
                            result.stats.seldepth)
                lines.append(line)
                if index < shown:
                    self.report(game, line, self.signal.spent, index + 1 if ask.lines > 1 else 0)
            done = lines
            if exact or self.signal.is_set() or self.proved_mate(game, done[0], depth):
                break  # solved, out of time or budget, or a mate that no depth improves
        return done

    def proved_mate(self, game: MateDistance, line: Line, depth: int) -> bool:
        """Whether ``line`` is a forced mate seen within ``depth`` plies and the search
        may stop there (not while the GUI waits, not under a fixed ``go depth``)."""
        plies = score_text(game, line.value, len(line.pv))[1]
        return (
            plies is not None and plies <= depth and self.ask.stop_at_mate
            and not self.ask.waiting()
        )

    # --- info lines -----------------------------------------------------------------------

    def report(self, game: MateDistance, line: Line, nodes: int, multipv: int) -> None:
        """Send the ``info`` line of ``line`` (``multipv`` 0: a single line)."""
        elapsed = time.perf_counter() - self.start
        score = score_text(game, line.value, len(line.pv))[0]
        self.send(
            f"info depth {line.depth} seldepth {line.seldepth} "
            + (f"multipv {multipv} " if multipv else "")
            + f"score {score} nodes {nodes} nps {int(nodes / elapsed) if elapsed > 0 else 0} "
            f"hashfull {self.hashfull()} "
            f"time {int(elapsed * 1000)} pv {' '.join(m.uci() for m in line.pv)}"
        )


def score_text(game: MateDistance, value: float, length: int) -> tuple[str, int | None]:
    """``cp N`` or ``mate N`` for a value, and the plies to mate (None: no mate)."""
    moves = mate_moves(game, value, length)
    if moves is None:
        return f"cp {round(value)}", None
    if moves == 0:  # "mate 0" is no UCI score: the mate is on the next move
        moves = 1 if value > 0 else -1
    return f"mate {moves}", 2 * moves - 1 if moves > 0 else -2 * moves


__all__ = ["Ask", "Line", "NodeBudget", "RootMoves", "Think", "score_text"]
