"""Names that moved to break the stage/strategy/uct import cycle stay where they were.

The clock, the choice, the match's Thinker, metagaming's Profile and the goal evaluation
live in ``plies.ggp.thinker``, which the move selection (``strategy``), the stage games
and UCT all import; ``plies.ggp.strategy`` still offers every one of them.
"""

from __future__ import annotations

import plies.ggp.strategy as strategy
import plies.ggp.thinker as thinker

MOVED = (
    "MAX_PLAYOUT_STEPS", "MIN_SEARCH_DEPTH", "NEUTRAL", "WIN", "Choice", "Clock",
    "GoalEvaluated", "Method", "Mode", "Profile", "Simultaneous", "Source", "Thinker",
    "TimeUp", "safe_goal",
)


def test_strategy_still_offers_every_moved_name() -> None:
    for name in MOVED:
        assert getattr(strategy, name) is getattr(thinker, name), name
        assert name in strategy.__all__, name


def test_strategy_lists_only_names_it_has() -> None:
    assert all(hasattr(strategy, name) for name in strategy.__all__)
