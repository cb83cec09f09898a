"""The yardstick: negamax and alpha-beta written by hand, as short and direct as possible.

Both loops call a plies game object's own methods (``to_move``, ``actions``, ``result``,
``is_terminal``, ``utility``, ``evaluate``) and nothing else: no statistics beyond one node
counter, no trace, no principal variation, no tie rule.  Run over plies' tic-tac-toe, the
benchmark's Connect Four or the synthetic tree, a library's time divided by the bare loop's
time on the same game is that library's search overhead: the game calls are the same.

They visit the same tree as ``plies.minimax`` / ``plies.alphabeta`` with ``tie="first"``:
children in ``actions()`` order, terminal test before the depth test, fail-soft windows,
and at the root each child after the first searched with the window ``(best, +inf)``, so a
child that only ties the best one is never preferred.  Nodes are counted as plies counts
them: every node visited, the root included.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

INF = math.inf
UNLIMITED = 1 << 30


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one search returned: value for the player to move at the root, its move, nodes."""

    value: float | None
    action: Any
    nodes: int | None


def negamax(game: Any, state: Any, depth: int | None = None) -> Outcome:
    """Plain negamax (= minimax for two zero-sum players) to ``depth`` plies, or to the end."""
    to_move, actions, result = game.to_move, game.actions, game.result
    is_terminal, utility, evaluate = game.is_terminal, game.utility, game.evaluate
    nodes = 1  # the root

    def search(s: Any, d: int) -> float:
        nonlocal nodes
        nodes += 1
        if is_terminal(s):
            return float(utility(s, to_move(s)))
        if d == 0:
            return float(evaluate(s, to_move(s)))
        best = -INF
        for a in actions(s):
            v = -search(result(s, a), d - 1)
            if v > best:
                best = v
        return best

    limit = UNLIMITED if depth is None else depth
    best, best_action = -INF, None
    for a in actions(state):
        v = -search(result(state, a), limit - 1)
        if v > best:
            best, best_action = v, a
    return Outcome(best + 0.0, best_action, nodes)  # + 0.0 turns a negated 0 into 0.0


def alphabeta(game: Any, state: Any, depth: int | None = None) -> Outcome:
    """Fail-soft alpha-beta in negamax form to ``depth`` plies, or to the end."""
    to_move, actions, result = game.to_move, game.actions, game.result
    is_terminal, utility, evaluate = game.is_terminal, game.utility, game.evaluate
    nodes = 1  # the root

    def search(s: Any, d: int, alpha: float, beta: float) -> float:
        nonlocal nodes
        nodes += 1
        if is_terminal(s):
            return float(utility(s, to_move(s)))
        if d == 0:
            return float(evaluate(s, to_move(s)))
        best = -INF
        for a in actions(s):
            v = -search(result(s, a), d - 1, -beta, -alpha)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best

    limit = UNLIMITED if depth is None else depth
    best, best_action = -INF, None
    for a in actions(state):
        v = -search(result(state, a), limit - 1, -INF, -best)
        if v > best:
            best, best_action = v, a
    return Outcome(best + 0.0, best_action, nodes)  # + 0.0 turns a negated 0 into 0.0
