"""Simultaneous moves: matrix games solved for mixed strategies, and backward induction.

At a SIMULTANEOUS node every player chooses at once, so no player can wait to see the
others' choice and a pure minimax value need not exist (rock-paper-scissors has none).
Von Neumann's minimax theorem gives every finite two-player zero-sum matrix game a value
in *mixed* strategies: ``max_x min_y x'Ay = min_y max_x x'Ay``.  :func:`solve_matrix_game`
finds it with a linear program (SciPy's HiGHS, imported only when a matrix has no pure
saddle point), and :func:`simultaneous` applies it at every simultaneous stage of a game
tree, bottom up: the payoff matrix of a stage holds the values of its children (backward
induction over a "stacked matrix game", as in Bosansky et al., 2016).

The model is paranoid, like :func:`plies.minimax`: the searching player maximises its
utility and every other player minimises it.  With two zero-sum players the value is the
game's value (the Nash equilibrium payoff); with more players, or a game that is not
zero-sum, it is the searching player's *security level*: what it can guarantee, in mixed
strategies, against opponents who coordinate (their joint replies are the columns, so a
coalition may correlate its mixed strategy).

The cheaper alternative needs no LP: :class:`plies.wrappers.Sequentialized` turns every
simultaneous stage into turn nodes (the searching player chooses first and the others
answer knowing its move), so that any turn-based search applies; that value is a lower
bound of this one, and the optimistic order (the searching player moves last) an upper
bound.
"""

from __future__ import annotations

import contextlib
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from itertools import product
from typing import Any, NamedTuple

from plies.errors import GameFormatError, PliesError, UnsupportedGameError
from plies.game import CHANCE, SIMULTANEOUS, Game, default_player_actions
from plies.search.common import (
    INF,
    NOBODY,
    Limit,
    Searcher,
    SearchResult,
    StopSignal,
    Trace,
    resolve_player,
    run,
)

# Probabilities within this of the largest count as equally likely when choosing an action.
_TIE = 1e-9


class MissingDependencyError(PliesError, ImportError):
    """An optional third-party package that a feature needs is not installed."""


class MatrixSolution(NamedTuple):
    """The solution of a zero-sum matrix game: its value and one optimal strategy each.

    ``row`` guarantees the row player at least ``value`` against every column, and
    ``column`` holds the row player to at most ``value`` whatever row it plays.
    """

    value: float
    row: tuple[float, ...]
    column: tuple[float, ...]


def solve_matrix_game(payoffs: Sequence[Sequence[float]]) -> MatrixSolution:
    """The value and optimal mixed strategies of the zero-sum game ``payoffs``.

    ``payoffs[i][j]`` is what the row player (the maximiser) gets, and the column player
    pays, when row ``i`` meets column ``j``.  A matrix with a pure saddle point (every
    1xN and Mx1 matrix has one) is solved directly, with the first maximin row and the
    first minimax column; any other matrix by the linear program

        maximise v  subject to  sum_i x_i A[i][j] >= v for every column j,
                                sum_i x_i = 1,  x >= 0,

    whose dual gives the column player's strategy.  The LP is solved by SciPy's HiGHS
    (imported here, on first need) on the matrix scaled to [0, 1], so the value and
    strategies are exact up to HiGHS's tolerances (about 1e-9 of the payoff range).

    Raises:
        GameFormatError: an empty or ragged matrix, or an entry that is not finite.
        MissingDependencyError: the matrix has no saddle point and SciPy is missing.

    >>> solve_matrix_game([[3, 1], [4, 2]])  # a saddle point: row 2, column 2
    MatrixSolution(value=2.0, row=(0.0, 1.0), column=(0.0, 1.0))
    """
    matrix = _checked(payoffs)
    saddle = _saddle_point(matrix)
    if saddle is not None:
        return saddle
    return _solve_lp(matrix)


def _checked(payoffs: Sequence[Sequence[float]]) -> list[list[float]]:
    matrix = [[float(u) for u in row] for row in payoffs]
    if not matrix or not matrix[0]:
        raise GameFormatError("a matrix game needs at least one row and one column")
    width = len(matrix[0])
    for i, row in enumerate(matrix):
        if len(row) != width:
            raise GameFormatError(
                f"a matrix game needs rows of equal length: row 0 has {width} entries, "
                f"row {i} has {len(row)}"
            )
        if not all(math.isfinite(u) for u in row):
            raise GameFormatError(f"payoffs must be finite numbers, row {i} is {row}")
    return matrix


def _pure(size: int, index: int) -> tuple[float, ...]:
    return tuple(1.0 if k == index else 0.0 for k in range(size))


def _saddle_point(matrix: list[list[float]]) -> MatrixSolution | None:
    """The pure solution when the maximin over rows equals the minimax over columns."""
    m, n = len(matrix), len(matrix[0])
    row_mins = [min(row) for row in matrix]
    col_maxes = [max(matrix[i][j] for i in range(m)) for j in range(n)]
    lower, upper = max(row_mins), min(col_maxes)
    if lower != upper:
        return None
    return MatrixSolution(
        lower, _pure(m, row_mins.index(lower)), _pure(n, col_maxes.index(upper))
    )


def _solve_lp(matrix: list[list[float]]) -> MatrixSolution:
    try:
        from scipy.optimize import linprog  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError as exc:
        raise MissingDependencyError(
            "solving a matrix game without a saddle point needs SciPy: "
            "pip install 'plies[lp]' (or pip install scipy)"
        ) from exc
    m, n = len(matrix), len(matrix[0])
    lo = min(min(row) for row in matrix)
    span = max(max(row) for row in matrix) - lo  # > 0: a constant matrix has a saddle point
    # Variables x_1..x_m, v.  Minimise -v; for each column j: v - sum_i x_i A'[i][j] <= 0.
    a_ub = [[-(matrix[i][j] - lo) / span for i in range(m)] + [1.0] for j in range(n)]
    res = linprog(
        c=[0.0] * m + [-1.0],
        A_ub=a_ub,
        b_ub=[0.0] * n,
        A_eq=[[1.0] * m + [0.0]],
        b_eq=[1.0],
        bounds=[(0.0, None)] * m + [(None, None)],
        method="highs",
    )
    if res.status != 0:  # a finite matrix game always has a solution
        raise RuntimeError(f"HiGHS failed on a matrix game: {res.message}")
    row = _distribution(float(p) for p in res.x[:m])
    # The duals of the column constraints are the column player's optimal strategy.
    column = _distribution(-float(p) for p in res.ineqlin.marginals)
    return MatrixSolution(lo + span * -float(res.fun) + 0.0, row, column)  # + 0.0: no -0.0


def _distribution(weights: Any) -> tuple[float, ...]:
    """Clip the LP's round-off below zero and make the weights sum to one."""
    clipped = [w if w > 1e-12 else 0.0 for w in weights]
    total = math.fsum(clipped)
    return tuple(w / total for w in clipped)


# --- backward induction ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Stage:
    """What the root remembers of a simultaneous stage, to choose and explain its action."""

    own: Sequence[Any]  # the searching player's actions (rows)
    joints: list[list[tuple[Any, ...]]]  # joints[i][j]: the joint action of row i, column j
    matrix: list[list[float]]
    lines: list[list[list[Any]]]  # the principal variation below each joint action
    solution: MatrixSolution


class SimultaneousSearcher(Searcher):
    """Backward induction with a matrix game at every SIMULTANEOUS node.

    Turn nodes are paranoid minimax nodes, chance nodes average, and a simultaneous
    stage is worth the mixed-strategy value of the matrix of its children's values (rows:
    the searching player's actions; columns: the other players' joint replies).  With
    ``memo`` a state reached again (same ``game.key``, same depth) is not searched again.
    A simultaneous stage counts one ply, and in round units it is one round.
    """

    algorithm = "simultaneous"
    chance_ok = True
    simultaneous_ok = True
    memo: dict[Any, tuple[float, list[Any]]] | None
    player_actions: Callable[[Any, int], Sequence[Any]]
    stage: _Stage | None  # the root's stage, once searched
    scored: list[tuple[Any, float, list[Any]]]  # the root's turn: (action, value, line)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.memo = {}
        custom = getattr(self.game, "player_actions", None)
        self.player_actions = custom or partial(default_player_actions, self.game)
        self.stage = None
        self.scored = []

    def prepare(self) -> None:
        """Import SciPy's LP solver now (when installed), not inside the timed search."""
        if getattr(self.game, "has_simultaneous", False):
            with contextlib.suppress(ImportError):
                import scipy.optimize  # type: ignore[import-untyped,import-not-found,unused-ignore]  # noqa: F401

    def depth_here(self, depth: int, mover: int, last: int) -> int:
        """A simultaneous stage gives the turn back to the searching player (rounds)."""
        if mover == SIMULTANEOUS:
            if self.rounds and last not in (self.player, NOBODY):
                return depth + 1
            return depth
        return super().depth_here(depth, mover, last)

    def next_last(self, mover: int, last: int) -> int:
        """After a stage every player has moved: the next turn of ours starts a round."""
        return SIMULTANEOUS if mover == SIMULTANEOUS else super().next_last(mover, last)

    def node_value(
        self, state: Any, depth: int, last: int, ply: int, alpha: float, beta: float
    ) -> float:
        """The paranoid mixed-strategy value of ``state`` for ``self.player`` (no window)."""
        mover, depth, value = self.arrive(state, depth, last, ply)
        if value is not None:
            return value
        key: Any = None
        if self.memo is not None and ply > 0:
            key = self.ops.key(state)
            if self.max_depth is not None:
                key = (key, depth, last if self.rounds else None)
            hit = self.memo.get(key)
            if hit is not None:
                self.stats.tt_hits += 1
                value, line = hit
                self.pv[ply] = list(line)
                if self.trace is not None:
                    self.emit("backup", state, depth, mover, value)
                return value
        actor = self.actor(state, mover)
        last = self.next_last(actor, last)
        if mover == CHANCE:  # dice do not count toward the depth, a modelled player does
            value = 0.0
            child_depth = depth + self.step(actor)
            for outcome, p in self.ops.chance_outcomes(state):
                value += p * self.child_value(state, outcome, child_depth, last, ply)
            self.pv[ply] = []
        elif mover == SIMULTANEOUS:
            value = self.stage_value(state, depth + self.ply_step, last, ply)
        else:
            value = self.turn_value(state, mover, depth + self.ply_step, last, ply)
        if key is not None:
            assert self.memo is not None
            self.memo[key] = (value, list(self.pv[ply]))
        if self.trace is not None:
            self.emit("backup", state, depth, mover, value)
        return value

    def turn_value(self, state: Any, mover: int, child_depth: int, last: int, ply: int) -> float:
        """Paranoid minimax at a turn node; the first best action makes the line."""
        maximizing = mover == self.player
        value = -INF if maximizing else INF
        for action in self.legal(state):
            v = self.child_value(state, action, child_depth, last, ply)
            if ply == 0:
                self.scored.append((action, v, [action, *self.pv[1]]))
            if v > value if maximizing else v < value:
                value = v
                self.pv[ply] = [action, *self.pv[ply + 1]]
        return value

    def stage_value(self, state: Any, child_depth: int, last: int, ply: int) -> float:
        """The value of the matrix game whose entries are the children's values."""
        n, me = self.ops.num_players, self.player
        own = self.player_actions(state, me)
        replies = list(product(*(self.player_actions(state, q) for q in range(n) if q != me)))
        joints = [[(*reply[:me], action, *reply[me:]) for reply in replies] for action in own]
        combos, legal = len(own) * len(replies), len(self.ops.actions(state))
        if combos == 0 or legal != combos:
            raise UnsupportedGameError(
                f"{self.algorithm} needs every combination of the players' own actions to "
                f"be a legal joint action at a simultaneous node; {state!r} has "
                f"{legal} joint actions and {combos} combinations"
            )
        matrix: list[list[float]] = []
        lines: list[list[list[Any]]] = []
        for row in joints:
            matrix.append([])
            lines.append([])
            for joint in row:
                matrix[-1].append(self.child_value(state, joint, child_depth, last, ply))
                lines[-1].append(list(self.pv[ply + 1]))
        solution = solve_matrix_game(matrix)
        i, j = _first_max(solution.row), _first_max(solution.column)
        self.pv[ply] = [joints[i][j], *lines[i][j]]
        if ply == 0:
            self.stage = _Stage(own, joints, matrix, lines, solution)
        return solution.value

    def search_root(
        self,
        state: Any,
        *,
        tie: str = "first",
        rng: random.Random | None = None,
        all_values: bool = False,
    ) -> tuple[float, Any, list[Any], dict[Any, float] | None]:
        """Search the root; the action is the most probable one of the root's mover.

        At a simultaneous root that is the searching player's most probable action in its
        optimal mixed strategy (ties: the first, or a seeded random one), and
        ``action_values`` gives each of its actions' value against the opponents' optimal
        strategy (the support's actions all score the game's value).  At a turn root it is
        the mover's best action, as in minimax.
        """
        value = self.node_value(state, 0, NOBODY, 0, -INF, INF)
        stage = self.stage
        if stage is not None:
            x, y = stage.solution.row, stage.solution.column
            top = max(x)
            candidates = [i for i, p in enumerate(x) if p >= top - _TIE]
            i = rng.choice(candidates) if tie == "random" and rng else candidates[0]
            j = _first_max(y)
            pv = [stage.joints[i][j], *stage.lines[i][j]]
            values = None
            if all_values:
                values = {
                    a: math.fsum(q * u for q, u in zip(y, row, strict=True))
                    for a, row in zip(stage.own, stage.matrix, strict=True)
                }
            self.pv[0] = pv
            return value, stage.own[i], pv, values
        if self.scored:
            best = [entry for entry in self.scored if entry[1] == value]
            action, _, pv = rng.choice(best) if tie == "random" and rng else best[0]
            self.pv[0] = pv
            values = {a: v for a, v, _ in self.scored} if all_values else None
            return value, action, pv, values
        return value, None, list(self.pv[0]), {} if all_values else None

    def root_strategy(self) -> dict[Any, float] | None:
        """The searching player's mixed strategy at a simultaneous root, else None."""
        if self.stage is None:
            return None
        return dict(zip(self.stage.own, self.stage.solution.row, strict=True))


def _first_max(weights: Sequence[float]) -> int:
    """The first most probable index (round-off below ``_TIE`` is no difference)."""
    top = max(weights)
    return next(k for k, w in enumerate(weights) if w >= top - _TIE)


def simultaneous(
    game: Game[Any, Any],
    state: Any,
    limit: Limit | None = None,
    *,
    player: int | None = None,
    tie: str = "first",
    seed: int | None = None,
    trace: Trace | None = None,
    memo: bool = True,
    stop: StopSignal | None = None,
    on_iteration: Callable[[SearchResult], None] | None = None,
) -> SearchResult:
    """The mixed-strategy (minimax-theorem) value of ``state`` for ``player``, by backward
    induction over a game with SIMULTANEOUS nodes.

    ``value`` is from ``player``'s point of view (default: the player to move; a
    simultaneous or chance root needs ``player`` given): the expected utility ``player``
    can guarantee with mixed strategies when every other player minimises it.  For two
    zero-sum players that is the exact value of the game (every Nash equilibrium pays
    it).  Each simultaneous stage is the matrix game of its children's values, solved by
    :func:`solve_matrix_game`; turn nodes are paranoid minimax nodes and chance nodes
    average, as in :func:`plies.expectiminimax`.  ``result.exact`` means no depth cutoff
    was evaluated (the LP's round-off, about 1e-9 of the payoff range, aside); with
    ``limit.depth`` the cutoff leaves are scored by ``game.evaluate(state, player)``, and
    a simultaneous stage counts as one ply (one round).

    ``strategy`` is the root mover's strategy, action -> probability: ``player``'s
    optimal mixed strategy at a simultaneous root, the chosen action with probability 1
    at a turn root.  ``action`` is its most probable action (the first of equals, or a
    seeded random one with ``tie="random"``); to *play* a mixed strategy, draw from
    ``strategy`` instead.  ``pv`` follows the most probable joint action at every stage
    (joint actions are tuples in player order).  With ``memo`` (default) states met
    again with the same ``game.key`` at the same depth are looked up, not searched.

    A simultaneous node must allow every combination of the players' own actions
    (``game.player_actions``, default: projected from the joint actions); otherwise
    :class:`UnsupportedGameError`.  Matrices without a pure saddle point need SciPy.
    ``stop`` and ``on_iteration`` as in :func:`plies.minimax` (each iteration's result
    carries its ``strategy``).

    >>> from plies.games import load
    >>> pd = load("prisoners-dilemma")
    >>> r = simultaneous(pd, pd.initial_state(), player=0)
    >>> r.value, r.action, r.strategy
    (1.0, 'defect', {'cooperate': 0.0, 'defect': 1.0})
    """
    who = resolve_player(game, state, player)
    unit = limit.unit if limit else "ply"
    passes: list[SimultaneousSearcher] = []

    def factory(depth: int | None) -> Searcher:
        searcher = SimultaneousSearcher(game, who, depth, unit, trace)
        if not memo:
            searcher.memo = None
        return searcher

    def finished(searcher: Searcher) -> None:
        assert isinstance(searcher, SimultaneousSearcher)
        passes.append(searcher)

    def with_strategy(result: SearchResult) -> SearchResult:
        strategy = passes[-1].root_strategy()
        if strategy is None and result.action is not None:
            strategy = {result.action: 1.0}
        return replace(result, strategy=strategy)

    report = None if on_iteration is None else (lambda r: on_iteration(with_strategy(r)))
    result = run(
        factory, state, limit, tie=tie, seed=seed, vector=finished, stop=stop,
        on_iteration=report,
    )
    if not passes:  # not even one pass completed: run's fallback picked an action
        return _fallback_action(game, state, who, result)
    return with_strategy(result)


def _fallback_action(game: Any, state: Any, who: int, result: SearchResult) -> SearchResult:
    """At a simultaneous root the fallback's action must be ``who``'s own, not a joint one."""
    if game.is_terminal(state) or game.to_move(state) != SIMULTANEOUS:
        return result
    custom = getattr(game, "player_actions", None)
    own = (custom or partial(default_player_actions, game))(state, who)
    joint = result.action
    return replace(result, action=own[0] if joint is None else joint[who])
