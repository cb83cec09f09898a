"""How each library is asked to search: one factory per library, all with one signature.

``make(game_name, algorithm, depth)`` returns a :class:`Search` whose ``run()`` performs one
complete search from the initial position and returns an :class:`~bare.Outcome` (value for
the player to move at the root, chosen move, nodes with the root included), or raises
:class:`Unavailable` with the reason the library cannot run that search.

``game_name`` is ``"tictactoe"`` (plies' own game object), ``"connect4"`` (the benchmark's
:class:`workloads.ConnectFour`) or ``"tree"`` (:class:`workloads.SyntheticTree`);
``algorithm`` is ``"minimax"`` or ``"alphabeta"``; ``depth`` is a ply limit or None for a
search to the end of the game.

Same tree everywhere: every adapter calls the same game object's ``actions`` (natural
order), ``result``, ``is_terminal``, ``utility`` and ``evaluate``, and every library here
searches children in the order given, tests for a terminal state before the depth limit,
and starts each root child after the first with the window (best so far, +inf).  Nodes are
counted where a library does not count them by wrapping the transition: every generated
child counts one, plus one for the root (each of these libraries generates a child only to
search it, so this equals plies' "nodes visited, root included").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bare import Outcome, alphabeta, negamax
from workloads import ConnectFour, SyntheticTree

import plies

FULL_DEPTH = {"tictactoe": 9, "tree": 6}
"""Plies to the end of the game from the initial state, for libraries that need a depth."""


class Unavailable(Exception):
    """This library cannot run this search; the message says why."""


@dataclass(frozen=True, slots=True)
class Search:
    """One library's search of one workload.

    ``count`` is set when ``run()`` cannot count nodes without slowing the library down:
    ``count()`` then repeats the search once, untimed, through a counting wrapper.
    """

    run: Callable[[], Outcome]
    count: Callable[[], int] | None = None
    note: str = ""


def load_game(name: str) -> Any:
    """The game object every Python adapter shares."""
    if name == "tictactoe":
        return plies.games.load("tictactoe")
    if name == "connect4":
        return ConnectFour()
    if name == "tree":
        return SyntheticTree()
    raise ValueError(f"unknown benchmark game {name!r}")


def _depth(name: str, depth: int | None) -> int:
    return depth if depth is not None else FULL_DEPTH[name]


# --- plies and the bare loops -------------------------------------------------------------


def make_plies(name: str, algorithm: str, depth: int | None) -> Search:
    game = load_game(name)
    state = game.initial_state()
    search = plies.minimax if algorithm == "minimax" else plies.alphabeta
    limit = plies.Limit(depth=depth) if depth is not None else None

    def run() -> Outcome:
        r = search(game, state, limit)
        return Outcome(r.value, r.action, r.stats.nodes)

    return Search(run)


def make_bare(name: str, algorithm: str, depth: int | None) -> Search:
    game = load_game(name)
    state = game.initial_state()
    search = negamax if algorithm == "minimax" else alphabeta
    return Search(lambda: search(game, state, depth))


# --- easyAI ----------------------------------------------------------------------------------


def make_easyai(name: str, algorithm: str, depth: int | None) -> Search:
    """easyAI's ``Negamax`` (alpha-beta negamax) over a ``TwoPlayerGame`` wrapping the game.

    The wrapper keeps a stack of states and implements ``unmake_move`` (easyAI's fast path:
    without it easyAI deep-copies the whole game object for every child).  easyAI has no
    unpruned minimax.  easyAI multiplies every leaf score by ``1 + 0.001 * depth_left`` to
    prefer quick wins; the scoring function divides by the same factor so that the leaf
    values, and therefore the tree, are those of the other libraries (exact for the values
    used here: checked by the node and value agreement in every run).
    """
    if algorithm != "alphabeta":
        raise Unavailable("easyAI has no unpruned minimax (Negamax always prunes)")
    try:
        from easyAI import Negamax, TwoPlayerGame
    except ImportError as exc:
        raise Unavailable(f"not installed ({exc})") from exc
    rules = load_game(name)
    root = rules.initial_state()
    plies_deep = _depth(name, depth)
    to_move, is_terminal = rules.to_move, rules.is_terminal
    utility, evaluate = rules.utility, rules.evaluate

    class Adapter(TwoPlayerGame):  # type: ignore[misc]
        def __init__(self) -> None:
            self.players = [None, None]
            self.current_player = 1  # easyAI numbers the players 1 and 2
            self.stack = [root]
            self.nodes = 1  # the root

        def possible_moves(self) -> Any:
            return rules.actions(self.stack[-1])

        def make_move(self, move: Any) -> None:
            self.nodes += 1
            self.stack.append(rules.result(self.stack[-1], move))

        def unmake_move(self, move: Any) -> None:
            self.stack.pop()

        def is_over(self) -> bool:
            return bool(is_terminal(self.stack[-1]))

    def scoring(game: Adapter) -> float:
        s = game.stack[-1]
        mover = to_move(s)
        value = float(utility(s, mover) if is_terminal(s) else evaluate(s, mover))
        left = plies_deep - (len(game.stack) - 1)
        return value / (1 + 0.001 * left) if left else value

    def run() -> Outcome:
        game = Adapter()
        ai = Negamax(plies_deep, scoring)
        move = ai(game)
        return Outcome(ai.alpha + 0.0, move, game.nodes)

    return Search(run)


# --- aima3 -------------------------------------------------------------------------------------


def make_aima(name: str, algorithm: str, depth: int | None) -> Search:
    """aima3's ``games.py``: ``minimax_decision``, ``alphabeta_search`` (to the end) and
    ``alphabeta_cutoff_search`` (to a depth, with ``eval_fn``), over an ``aima3.games.Game``
    whose methods are the game object's own, ``result`` wrapped to count.

    aima3 returns only the move, not the value.  ``alphabeta_cutoff_search(d=...)`` cuts
    off when ``depth > d`` with the root's children at depth 1, so a search to ``depth``
    plies passes ``d=depth - 1``.
    """
    try:
        from aima3.games import (
            Game,
            alphabeta_cutoff_search,
            alphabeta_search,
            minimax_decision,
        )
    except ImportError as exc:
        raise Unavailable(f"not installed ({exc})") from exc
    rules = load_game(name)
    root = rules.initial_state()
    player = rules.to_move(root)
    evaluate = rules.evaluate

    class Adapter(Game):  # type: ignore[misc]
        def __init__(self) -> None:
            self.nodes = 1  # the root
            self.actions = rules.actions
            self.terminal_test = rules.is_terminal
            self.utility = rules.utility
            self.to_move = rules.to_move

        def result(self, state: Any, move: Any) -> Any:
            self.nodes += 1
            return rules.result(state, move)

    def eval_fn(state: Any) -> float:
        return float(evaluate(state, player))  # utility at a terminal state

    def run() -> Outcome:
        game = Adapter()
        if algorithm == "minimax":
            move = minimax_decision(root, game)
        elif depth is None:
            move = alphabeta_search(root, game)
        else:
            move = alphabeta_cutoff_search(root, game, d=depth - 1, eval_fn=eval_fn)
        return Outcome(None, move, game.nodes)

    if algorithm == "minimax" and depth is not None:
        raise Unavailable("aima3's minimax_decision has no depth limit")
    return Search(run, note="aima3 returns the move only")


MAKERS: dict[str, Callable[[str, str, int | None], Search]] = {
    "bare loop": make_bare,
    "plies": make_plies,
    "easyAI": make_easyai,
    "aima3": make_aima,
}
