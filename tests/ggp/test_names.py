"""Names that moved between the modules of ``plies.ggp`` stay where they were.

The clock, the choice, the match's Thinker, metagaming's Profile and the goal evaluation
live in ``plies.ggp.thinker``, which the move selection (``strategy``), the stage games
and UCT all import; ``plies.ggp.strategy`` still offers every one of them.  A player's
match and its turns live in ``plies.ggp.match``; ``plies.ggp.player`` still offers them.
"""

from __future__ import annotations

import plies.ggp.match as match
import plies.ggp.player as player
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


PLAYER = (
    "DEFAULT_MARGIN", "MIN_FRACTION", "METAGAME_CAP", "BUILD_PLAY_CLOCKS", "BUILD_FLOOR",
    "BUILD_CAP", "ABORT_WAIT", "Reply", "Turn", "Match", "GgpPlayer",
)


def test_player_still_offers_every_name_it_had() -> None:
    for name in PLAYER:
        assert hasattr(player, name), name
        assert name in player.__all__, name
    assert player.Match is match.Match and player.Turn is match.Turn
    assert all(hasattr(player, name) for name in player.__all__)
