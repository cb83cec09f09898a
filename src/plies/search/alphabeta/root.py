"""The searchers of alpha-beta: the root, and the root drivers of the engine craft.

:class:`AlphaBetaSearcher` is plain alpha-beta: the root driver of
:class:`~plies.search.common.Searcher` (tie rule, iterative deepening, the root window)
over the core kernel (:func:`~plies.search.alphabeta.core.alphabeta_kernel`).
:class:`CraftSearcher` adds the engine craft: the kernel's switches, and two ways to
search the root with a narrow window (aspiration windows and MTD-bi, which also solves
weakly).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from plies.errors import OptionError
from plies.game import Game, hook
from plies.search.alphabeta.context import Switches
from plies.search.alphabeta.core import alphabeta_kernel
from plies.search.common import Searcher
from plies.search.craft import (
    HINT_DEPTH,
    PLAIN,
    Craft,
    Order,
    Ordering,
    TranspositionTable,
    move_order,
)
from plies.search.kernels import INF, Kernel

Root = tuple[float, Any, list[Any], dict[Any, float] | None]


class AlphaBetaSearcher(Searcher):
    """Depth-first alpha-beta with a fail-soft window (the core kernel, every switch off).

    Below the root, children are searched in ``actions()`` order or ``order(state,
    actions)`` order; the root keeps ``actions()`` order for the tie rule.
    """

    algorithm = "alphabeta"
    windowed = True
    order: Order | None = None
    strict: bool = False  # the strict cut rule (``strict_cutoffs``)

    def compile(self) -> Kernel:
        return alphabeta_kernel(
            self.ops, self.player, self.max_depth, Switches(order=self.order, strict=self.strict),
            rounds=self.rounds, deadline=self.deadline, budget=self.kernel_budget(),
            stop=self.stop, game=self.game, trace=self.trace,
        )


class CraftSearcher(AlphaBetaSearcher):
    """Alpha-beta with engine craft: the core kernel with its switches, and root drivers.

    Two ways to search the root with a narrow window, with the ``"first"`` tie rule and
    without ``all_values``:

    - ``aspiration`` (a half-width ``d``): an iteration after the first searches the
      root in ``(v - d, v + d)`` around the last iteration's value ``v``, and again with
      the full window if the value falls outside.
    - ``bisection``: MTD-bi.  Null-window tests "is the value > m?" halve an interval
      known to hold the root value (the game's ``value_bounds`` in an exact search, else
      its ``utility_range``) until it closes on the value ``V``; the root's children are
      then searched in ``(V - ulp, V + ulp)`` to name the first action worth ``V``.  The
      tests reuse each other's table entries, which is why a table makes them cheap.

    A traced search reports each narrowed root search with a ``"window"`` event (and an
    aspiration window's failure with a ``"research"`` of the root).
    """

    craft: Craft = PLAIN
    table: TranspositionTable | None = None
    memory: Ordering | None = None
    hint: Order | None = None
    known: float | None = None  # the root value, once bisection has found it
    solve_children: bool = False  # bisect every root child (analyze, random ties)

    def search_root(
        self,
        state: Any,
        *,
        tie: str = "first",
        rng: random.Random | None = None,
        all_values: bool = False,
    ) -> Root:
        def full() -> Root:
            return super(CraftSearcher, self).search_root(
                state, tie=tie, rng=rng, all_values=all_values
            )

        ops = self.ops
        if ops.is_terminal(state) or ops.to_move(state) < 0:
            return full()
        if all_values or tie != "first":
            # Every value (or every tie) must be exact: bisect each child of an exact search.
            self.solve_children = self.craft.bisection and self.max_depth is None
            return full()
        window = guess = None
        if self.craft.weak:
            interval = self.root_interval(state)
            if interval is None or self.max_depth is not None:
                raise OptionError("a weak solution needs an exact search of a game with a "
                                  "finite utility_range")
            low, high = self.ops.utility_range
            draw = (low + high) / 2
            lo, hi = self.bisect(state, *interval, draw=draw)
            self.root_first = None
            if lo == hi:
                self.known = guess = lo
                window = (math.nextafter(lo, -INF), math.nextafter(lo, INF))
            else:  # a win (lo > draw) or a loss (hi < draw): the value is only a bound
                self.partial = True
                edge = draw if lo > draw else math.nextafter(draw, -INF)
                self.root_window = (edge, math.nextafter(edge, INF))
                self.report_window(state, edge, self.root_window)
                return full()
        elif self.craft.bisection:
            interval = self.root_interval(state)
            if interval is not None:
                guess, _ = self.bisect(state, *interval)
                window = (math.nextafter(guess, -INF), math.nextafter(guess, INF))
                self.root_first = None
                if self.max_depth is None:
                    # The interval was sound, so v is exact: in actions() order the first
                    # child worth v is the action, and the root stops there.  (Under a
                    # depth limit an evaluation outside utility_range could fool it.)
                    self.known = guess
        elif self.craft.aspiration is not None and self.root_guess is not None:
            guess, half = self.root_guess, self.craft.aspiration
            window = (guess - half, guess + half)
        if window is not None:
            self.root_window = window
            self.report_window(state, guess, window)
            out = full()
            if window[0] < out[0] < window[1]:
                return out
            self.root_window = (-INF, INF)  # outside: a bound only, so search again
            if self.trace is not None:
                self.emit("research", state, 0, ops.to_move(state), out[0], -INF, INF)
        return full()

    def report_window(
        self, state: Any, value: float | None, window: tuple[float, float], ply: int = 0
    ) -> None:
        """Trace a search of ``state`` (the root, or a root child at ``ply`` 1) with a
        narrowed window."""
        if self.trace is not None and self.kernel is not None:
            mover = self.ops.to_move(state)
            path = self.kernel.path[:ply]
            self.emit("window", state, ply, mover, value, *window, path=path)

    def child_value(
        self, state: Any, action: Any, depth: int, last: int, ply: int,
        alpha: float = -INF, beta: float = INF,
    ) -> float:
        if self.solve_children:
            child = self.ops.result(state, action)
            interval = self.root_interval(child)
            if interval is not None and self.kernel is not None:
                depth = self.kernel.entry_depth(depth, last)
                self.step_into(ply, action)
                return self.bisect(child, *interval, depth=depth, ply=ply + 1)[0]
        return super().child_value(state, action, depth, last, ply, alpha, beta)

    def root_stop(self, best: float, maximizing: bool) -> bool:
        return best == self.known

    def root_interval(self, state: Any) -> tuple[float, float] | None:
        """Finite bounds on the root value, or None when the game gives none."""
        bounds = getattr(self.game, "value_bounds", None) if self.max_depth is None else None
        if bounds is not None:
            lo, hi = bounds(state, self.player)
        else:
            lo, hi = self.ops.utility_range
        if math.isfinite(lo) and math.isfinite(hi) and lo <= hi:
            return float(lo), float(hi)
        return None

    def bisect(
        self, state: Any, lo: float, hi: float, depth: int = 0, ply: int = 0,
        draw: float | None = None,
    ) -> tuple[float, float]:
        """Narrow ``[lo, hi]``, known to hold the value of ``state``, by null-window tests.

        MTD-bi: each test "is the value > m?" is one kernel search with the window
        ``(m, m + ulp)``; it fails high (the value is at least what it returns) or low
        (at most).  Without ``draw`` the interval closes on the value; with it (weak
        solving) it only narrows until it says win (> draw), draw or loss (< draw).
        ``depth`` is the kernel's depth argument of ``state``, found at ``ply``.
        """
        assert self.kernel is not None
        worker, nextafter = self.kernel.worker, math.nextafter
        while lo < hi:
            if draw is not None:
                if not lo <= draw <= hi:
                    break
                m = nextafter(draw, -INF) if hi == draw else draw  # "> draw?" or ">= draw?"
            else:
                # Pons' choice of test: halfway to the nearer extreme, not to the middle.
                m = lo + (hi - lo) / 2
                if m <= 0 and lo / 2 < m:
                    m = lo / 2
                elif m >= 0 and hi / 2 > m:
                    m = hi / 2
                if m >= hi:
                    m = nextafter(hi, -INF)
            self.report_window(state, m, (m, nextafter(m, INF)), ply)
            v = worker(state, depth, ply, m, nextafter(m, INF))
            if v > m:
                lo = v  # failed high: the value is at least v
            else:
                hi = v  # failed low: the value is at most v
        return lo, hi

    def compile(self) -> Kernel:
        if self.table is not None:
            self.table.new_search(self.player)
        craft = self.craft
        if self.rounds and craft.selective:
            raise OptionError(
                f"{', '.join(craft.selective)} count plies: search with unit='ply'"
            )
        return alphabeta_kernel(
            self.ops, self.player, self.max_depth, self.switches(), rounds=self.rounds,
            deadline=self.deadline, budget=self.kernel_budget(), stop=self.stop,
            game=self.game, trace=self.trace,
        )

    def switches(self) -> Switches:
        """What the core is asked to do for this searcher's craft and game."""
        game, craft = self.game, self.craft
        # The game's bounds on the true value hold for exact searches only.
        exact = self.max_depth is None
        ordering = None
        if self.hint is not None or self.memory is not None:
            ordering = move_order(self.hint, self.memory, exact)
        return Switches(
            table=self.table, ordering=ordering, memory=self.memory, pvs=craft.pvs,
            bounds=getattr(game, "value_bounds", None) if exact else None,
            sufficient=getattr(game, "sufficient_actions", None) if exact else None,
            quiescence=craft.quiescence, noisy=hook(game, "noisy_actions"),
            extension=selective_hook(game, craft.extensions, "extension"),
            singular=craft.singular,
            null_move=selective_hook(game, craft.null_move is not None, "null_move"),
            null_reduction=craft.null_move or 0,
            quiet=selective_hook(game, craft.reductions, "is_quiet"),
            # A game whose captures matter (quiescence) orders by its hint at every node:
            # captures first pays in chess, where Connect Four's hint did not near the leaves.
            hint_depth=0 if craft.quiescence is not None else HINT_DEPTH,
            strict=self.strict,
        )


def selective_hook(game: Game[Any, Any], on: bool, name: str) -> Callable[..., Any] | None:
    """The game's hook ``name`` when its switch is ``on`` (checked by ``check_selective``)."""
    return hook(game, name) if on else None
