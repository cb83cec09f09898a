"""Helpers of the GGP tests: the shared games, and players served on ephemeral ports."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

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
