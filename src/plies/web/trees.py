"""``POST /api/ordering``: does move ordering matter?  The same search, ordered four ways.

The lecture's point about alpha-beta: the value never depends on the order of the
children, the work does.  This endpoint captures the same alpha-beta search of a position
(:func:`plies.viz.capture`) with the children

- *as the game lists them* (``actions()`` order);
- *best first*: each node's children sorted by their minimax value for the node's mover
  (the ideal order, which prunes most; found by searching every child, so it is for
  small trees);
- *worst first*: the reverse, which prunes least;
- *with the engine's ordering and table*, where the algorithm has those switches: the
  transposition table's move, killer moves, history and the game's ``order_hint``.

Each comes back with its node count, pruned branches, cutoffs, value and picture.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from plies.game import game_ops
from plies.search import Limit, minimax
from plies.viz import capture
from plies.web.api import (
    ENDPOINTS,
    ApiError,
    _get,
    _max_nodes,
    _node_cap,
    keep_hidden,
    load_position,
    settings,
)
from plies.web.view import view

MAX_ORDERED_NODES: Final = 3_000
"""The largest tree (as the game lists its moves) ordered best and worst first: those
orders search every child of every node to sort them."""


def ordering(body: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/ordering``: the search of ``/api/tree`` under each order (module doc):
    ``{"state", "orders": [{"label", "nodes", "pruned", "cutoffs", "value", "svg"}]}``."""
    position = load_position(body)
    game, here = position.game, position.state
    if game.is_terminal(here):
        raise ApiError("the game is over: there is no search to show")
    keep_hidden(body, position, "its search trees")
    max_nodes = _max_nodes(body)
    _get(body, "analysis", bool, "true or false")
    chosen = settings(body, game, here)
    name = chosen.plan.algorithm.name
    if "order" not in chosen.plan.algorithm.options:
        raise ApiError(f"{name} searches every child whatever their order; move ordering "
                       "matters to alpha-beta: choose alphabeta (or paranoid)")
    request = chosen.plan.request
    limit = None if chosen.depth is None else Limit(depth=chosen.depth, unit=chosen.limit.unit)
    keep = {k: v for k, v in chosen.plan.options.items()
            if k == "strict_cutoffs"}  # the cut rule asked for; no other craft

    def picture(label: str, **craft: Any) -> dict[str, Any]:
        with _node_cap(max_nodes):
            tree = capture(game, here, name, limit, player=request.player, max_nodes=max_nodes,
                           **keep, **craft)
        stats = tree.stats
        return {"label": label, "nodes": int(stats["nodes"]), "pruned": int(stats["pruned"]),
                "cutoffs": int(stats["cutoffs"]), "value": tree.to_json()["value"],
                "pv": list(tree.pv), "svg": tree.to_svg()}

    listed = picture("as the game lists them")
    orders = [listed]
    if listed["nodes"] <= MAX_ORDERED_NODES:
        player = request.player if request.player is not None else game.to_move(here)
        rank = _ranker(game, player, limit)
        orders.append(picture("best first", order=rank(best=True)))
        orders.append(picture("worst first", order=rank(best=False)))
    if {"tt", "ordering"} <= set(chosen.plan.algorithm.switches):
        orders.append(picture("engine ordering + table (deepening: every pass counted)",
                          tt=True, ordering=True))
    return {"state": view(game, here, position.moves, position.before), "orders": orders,
            "algorithm": name, "ordered_up_to": MAX_ORDERED_NODES}


def _ranker(
    game: Any, player: int, limit: Limit | None
) -> Callable[..., Callable[[Any, Sequence[Any]], list[Any]]]:
    """``rank(best=...)``: an ``order(state, actions)`` that sorts the children by their
    minimax value (memoised by the game's key) for the mover, best or worst first."""
    ops = game_ops(game)
    values: dict[Any, float] = {}

    def worth(state: Any) -> float:
        key = ops.key(state)
        if key not in values:
            values[key] = minimax(game, state, limit, player=player).value
        return values[key]

    def rank(best: bool) -> Callable[[Any, Sequence[Any]], list[Any]]:
        def order(state: Any, actions: Sequence[Any]) -> list[Any]:
            maximizing = ops.to_move(state) == player
            scored = [(worth(ops.result(state, a)), i, a) for i, a in enumerate(actions)]
            high_first = maximizing == best
            scored.sort(key=lambda t: (-t[0] if high_first else t[0], t[1]))
            return [a for _, _, a in scored]

        return order

    return rank


ENDPOINTS["ordering"] = ordering  # served where the app and its workers serve the others

__all__ = ["MAX_ORDERED_NODES", "ordering"]
