"""The test suite's game manager is plies' own, :mod:`plies.ggp.manager`.

This module keeps the names tests were written against (``from tests.ggp.manager import
GameManager, HttpSeat, ...``), with the short clocks the tests use by default (start 2 s,
play 1 s) where the public manager defaults to 10 s and 5 s.
"""

from __future__ import annotations

from typing import Any

from plies.ggp import manager as _public
from plies.ggp.manager import (
    Fault,
    HttpReply,
    HttpSeat,
    MatchRecord,
    RandomSeat,
    Seat,
    Step,
    parse_response,
    post,
    raw_request,
)

__all__ = [
    "Fault",
    "GameManager",
    "HttpReply",
    "HttpSeat",
    "MatchRecord",
    "RandomSeat",
    "Seat",
    "Step",
    "parse_response",
    "post",
    "raw_request",
]


class GameManager(_public.GameManager):
    """:class:`plies.ggp.manager.GameManager` with the tests' short default clocks."""

    def play_match(self, seats: Any, **options: Any) -> MatchRecord:
        options.setdefault("start_clock", 2)
        options.setdefault("play_clock", 1)
        return super().play_match(seats, **options)
