"""The textbook searches: short, obviously right, and slow on purpose.

Each function here is the lecture's pseudocode (AIMA's MINIMAX-SEARCH, EXPECTIMINIMAX,
ALPHA-BETA-SEARCH, and max^n) over the :class:`plies.Game` protocol, with no speed tricks:
no table, no ordering, no compiled closures, no budget.  They are the oracles every fast
search of :mod:`plies.search` is tested against: the same value, the same first best
action in ``actions()`` order, and for plain alpha-beta the same number of nodes.  Read
them to learn what the fast searches compute.

Each returns an :class:`Answer`: ``value`` for ``player`` (default: the mover at
``state``), ``action`` the mover's first best action at ``state`` in ``actions()`` order
(None at a leaf or a chance node), ``nodes`` the states visited, ``state`` included, and
for max^n the utility vector ``values``.

Depth: ``depth`` (None: to the end of the game) cuts the tree off, and ``evaluate`` scores
a node there.  With ``unit="ply"`` every decision counts one: a player's move, and the move
of a player that a chance node stands for (``chance_player``, as
:class:`plies.OpponentsAsChance` models one); a die roll counts nothing.  With
``unit="round"`` the depth grows by one when the searching player is to decide again
after it has decided and someone else has since (several moves in one turn are one round).

>>> from plies.games import load
>>> tree = load("aima-5-2")
>>> minimax(tree, tree.initial_state())
Answer(value=3.0, action='a1', nodes=13, values=None)
>>> alphabeta(tree, tree.initial_state()).nodes
11
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

from plies.errors import UnsupportedGameError
from plies.game import CHANCE, game_ops

__all__ = ["Answer", "alphabeta", "expectiminimax", "maxn", "minimax"]

INF = float("inf")
NOBODY = -9  # on this path the searching player has not decided yet
Unit = Literal["ply", "round"]


class Answer(NamedTuple):
    """What a textbook search found (see the module doc)."""

    value: float
    action: Any
    nodes: int
    values: tuple[float, ...] | None = None


class _Rules:
    """What every search here shares: whose value, the depth rules, the node count."""

    def __init__(self, game: Any, state: Any, player: int | None, depth: int | None,
                 unit: Unit) -> None:
        self.game, self.ops, self.limit = game, game_ops(game), depth
        self.unit = "ply" if self.ops.num_players == 1 else unit  # alone, a round is a move
        self.player = game.to_move(state) if player is None else player
        self.nodes = 0

    def enter(self, state: Any, depth: int, last: int) -> tuple[int, int, int]:
        """Count a node: its actor, its depth, and the last decider for its children.

        The actor decides at the node: its mover, the player a chance node stands for,
        or CHANCE at a die roll.  ``depth`` is the parent's; in rounds it grows when the
        searching player decides again after someone else did (``last``).
        """
        self.nodes += 1
        actor = self.game.to_move(state)
        if actor == CHANCE:
            who = self.ops.chance_player(state)
            actor = CHANCE if who is None else who
        if self.unit == "round" and actor == self.player and last not in (NOBODY, self.player):
            depth += 1
        if actor != CHANCE and (last != NOBODY or actor == self.player):
            last = actor
        return actor, depth, last

    def child_depth(self, depth: int, actor: int) -> int:
        """One ply deeper below a decision; rounds grow on entry (:meth:`enter`)."""
        return depth + 1 if self.unit == "ply" and actor != CHANCE else depth

    def leaf(self, state: Any, depth: int) -> float | None:
        """The terminal test and the cutoff test: the node's value, or None."""
        if self.game.is_terminal(state):
            return float(self.game.utility(state, self.player))
        if self.limit is not None and depth >= self.limit:
            return float(self.ops.evaluate(state, self.player))
        return None


def minimax(game: Any, state: Any, player: int | None = None, depth: int | None = None,
            unit: Unit = "ply") -> Answer:
    """Paranoid minimax: ``player`` maximises its value, every other player minimises it.

    A player with several moves in a row has several max (or min) layers in a row.
    Chance nodes are refused: use :func:`expectiminimax`.
    """
    return _expectiminimax(game, state, player, depth, unit, chance=False)


def expectiminimax(game: Any, state: Any, player: int | None = None,
                   depth: int | None = None, unit: Unit = "ply") -> Answer:
    """Paranoid minimax where a chance node averages its children by probability."""
    return _expectiminimax(game, state, player, depth, unit, chance=True)


def _expectiminimax(game: Any, state: Any, player: int | None, depth: int | None,
                    unit: Unit, chance: bool) -> Answer:
    rules = _Rules(game, state, player, depth, unit)

    def value(s: Any, d: int, last: int) -> tuple[float, Any]:
        actor, d, last = rules.enter(s, d, last)
        leaf = rules.leaf(s, d)
        if leaf is not None:
            return leaf, None
        below = rules.child_depth(d, actor)
        if game.to_move(s) == CHANCE:
            if not chance:
                raise UnsupportedGameError("minimax cannot search chance nodes")
            outcomes = rules.ops.chance_outcomes(s)
            return sum(p * value(game.result(s, o), below, last)[0] for o, p in outcomes), None
        best, move = (-INF if actor == rules.player else INF), None
        for a in game.actions(s):
            v = value(game.result(s, a), below, last)[0]
            if move is None or (v > best if actor == rules.player else v < best):
                best, move = v, a
        return best, move

    v, action = value(state, 0, NOBODY)
    return Answer(v, action, rules.nodes)


def alphabeta(game: Any, state: Any, player: int | None = None, depth: int | None = None,
              unit: Unit = "ply") -> Answer:
    """Alpha-beta over the paranoid model: minimax's value and action, fewer nodes.

    A max node stops as soon as its value reaches ``beta``, a min node as soon as it
    falls to ``alpha``; children are searched in ``actions()`` order.  Chance nodes are
    refused.
    """
    rules = _Rules(game, state, player, depth, unit)

    def value(s: Any, d: int, last: int, alpha: float, beta: float) -> tuple[float, Any]:
        actor, d, last = rules.enter(s, d, last)
        leaf = rules.leaf(s, d)
        if leaf is not None:
            return leaf, None
        if game.to_move(s) == CHANCE:
            raise UnsupportedGameError("alpha-beta cannot search chance nodes")
        below = rules.child_depth(d, actor)
        maximising = actor == rules.player
        best, move = (-INF if maximising else INF), None
        for a in game.actions(s):
            v = value(game.result(s, a), below, last, alpha, beta)[0]
            if move is None or (v > best if maximising else v < best):
                best, move = v, a
            if maximising:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
            if alpha >= beta:
                break
        return best, move

    v, action = value(state, 0, NOBODY, -INF, INF)
    return Answer(v, action, rules.nodes)


def maxn(game: Any, state: Any, player: int | None = None, depth: int | None = None,
         unit: Unit = "ply") -> Answer:
    """Max^n (Luckhardt and Irani, 1986): every player maximises its own utility.

    A node backs up the utility vector of the child best for its mover (the first such
    child), a chance node the probability-weighted mean vector.  ``value`` is ``player``'s
    component of the root's vector ``values``.
    """
    rules = _Rules(game, state, player, depth, unit)
    players = range(rules.ops.num_players)

    def vector(s: Any, d: int, last: int) -> tuple[tuple[float, ...], Any]:
        actor, d, last = rules.enter(s, d, last)
        if game.is_terminal(s):
            return tuple(float(game.utility(s, p)) for p in players), None
        if rules.limit is not None and d >= rules.limit:
            return tuple(float(rules.ops.evaluate(s, p)) for p in players), None
        below = rules.child_depth(d, actor)
        mover = game.to_move(s)
        if mover == CHANCE:
            children = [(p, vector(game.result(s, o), below, last)[0])
                        for o, p in rules.ops.chance_outcomes(s)]
            return tuple(sum(p * v[k] for p, v in children) for k in players), None
        scored = [(vector(game.result(s, a), below, last)[0], a) for a in game.actions(s)]
        return max(scored, key=lambda va: va[0][mover])  # max() keeps the first of equals

    values, action = vector(state, 0, NOBODY)
    return Answer(values[rules.player], action, rules.nodes, values)
