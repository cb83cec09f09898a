"""The values of a search as the page shows them: in the game's unit, best first.

A value is sent as the number (``value``, the game's: a mate is the utility of a win)
and as people read it (``score``: ``"+35 cp"``, ``"mate in 2"``, ``"+11.5 discs"``,
``"-0.0476"``), as :class:`plies.policy.Score` writes it from the game's play defaults
(its unit, the decimals it is shown with, mate scores).  The value of every move of an
analysis (``move_values``) comes best first for the searching player, ties in the
game's order, as ``plies play``'s ``?`` lists them.

>>> from plies import analyze
>>> from plies.games import load
>>> ttt = load("tictactoe")
>>> state = ttt.result(ttt.initial_state(), 4)  # X in the centre: O's corners draw
>>> shown = scored(ttt, state, analyze(ttt, state))
>>> shown["score"], [(row["move"], row["score"]) for row in shown["move_values"]][3:6]
('0', [('9', '0'), ('2', '-1'), ('4', '-1')])
"""

from __future__ import annotations

from typing import Any

from plies.policy import SearchSession, own_action_text
from plies.policy.text import clean
from plies.search import SearchResult


def scored(
    game: Any, state: Any, result: SearchResult, session: SearchSession | None = None
) -> dict[str, Any]:
    """``value`` and ``score`` of ``result`` and, for an analysis, ``move_values``: a
    list of ``{"move", "value", "score", "mate"}`` best first (``mate``: moves to a
    forced end, negative when the player is mated, else None).  ``session``: the one
    whose mate-distance game was searched (its values are read back to the game's)."""
    reader = session if session is not None else SearchSession(game)
    score = reader.score(result)
    data: dict[str, Any] = {"value": clean(score.value), "score": score.signed}
    if result.action_values is not None:
        scores = reader.action_scores(result)
        raw = result.action_values
        order = sorted(raw, key=lambda a: -raw[a])  # stable: ties keep the game's order
        data["move_values"] = [
            {"move": own_action_text(game, state, result.player, a),
             "value": clean(scores[a].value), "score": scores[a].signed,
             "mate": scores[a].mate}
            for a in order
        ]
    return data


__all__ = ["scored"]
