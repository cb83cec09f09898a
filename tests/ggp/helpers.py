"""Helpers of the GGP tests: the shared games, and players served on ephemeral ports."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from plies.ggp.manager import HttpReply, parse_response
from plies.ggp.player import GgpPlayer
from plies.ggp.server import GgpServer
from tests.data import GDL_DATA

GDL = GDL_DATA


def rules(name: str) -> str:
    """The text of a shared GDL game (``tests/data/gdl/<name>.kif``)."""
    return (GDL / f"{name}.kif").read_text(encoding="utf-8")


FAST = {"margin": 0.7, "metagame_cap": 0.3}
"""Player options that keep the tests short: 0.3 s of thinking on a 1 s play clock."""


@contextmanager
def serving(player: GgpPlayer | None = None, **options: Any) -> Iterator[GgpServer]:
    """A player listening on 127.0.0.1 on a free port, stopped afterwards."""
    server = GgpServer(player or GgpPlayer(**options), "127.0.0.1", 0).start()
    try:
        yield server
    finally:
        server.stop()


BOMB_FACTS = 30
BOMB = (
    "((role robot) (init s) "
    + " ".join(f"(n i{k})" for k in range(BOMB_FACTS))
    + " (<= (big ?a ?b ?c ?d ?e ?f ?g ?h) (n ?a) (n ?b) (n ?c) (n ?d) (n ?e) (n ?f) (n ?g)"
    " (n ?h)) (<= (legal robot go) (true s)) (<= (next s) (true s))"
    " (<= terminal (big i0 i0 i0 i0 i0 i0 i0 i0)) (goal robot 100))"
)
"""A valid description whose grounding would run for days: a head that keeps every
variable of a 30^8 join, so no shortcut applies and only a budget, a stop or the
grounding's atom cap (after some seconds) ends it (issue 11).  Its only move depends on
the state, so nothing can be answered before the reasoner is built."""


def read_reply(sock: socket.socket) -> HttpReply:
    """The whole HTTP answer the server sends on ``sock`` (read until it closes)."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return parse_response(data)
