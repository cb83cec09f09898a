"""General Game Playing: a player that game managers hire over HTTP.

* :mod:`plies.ggp.protocol`: the messages (INFO/PING, PREVIEW, START, PLAY, STOP, ABORT);
* :mod:`plies.ggp.player`: :class:`GgpPlayer`, the match state machine;
* :mod:`plies.ggp.machines`: its two reasoners (top-down prover, propnet), shared between
  threads and kept from stopping the clock;
* :mod:`plies.ggp.strategy`: metagaming and anytime move selection (alpha-beta,
  pessimistic sequentialisation of simultaneous moves, Monte Carlo playouts), with
  :mod:`plies.ggp.stage` (mixed strategies at simultaneous steps) and :mod:`plies.ggp.uct`
  (UCT in the match's tree); all three think with the clock, the choice and the match of
  :mod:`plies.ggp.thinker`;
* :mod:`plies.ggp.server`: :class:`GgpServer`, the threaded HTTP front;
* :mod:`plies.ggp.manager`: :class:`GameManager`, a game manager that runs and judges
  matches between GGP players over HTTP (``plies ggp match``);
* :mod:`plies.ggp.cli`: ``plies ggp serve`` and ``plies ggp match``.

The names below are imported on first use, so that ``plies --help`` (which registers
``plies ggp``) does not load the GDL reasoner.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from plies.ggp.manager import GameManager, HttpSeat, MatchRecord, MatchSetupError, RandomSeat
    from plies.ggp.player import GgpPlayer, Reply
    from plies.ggp.protocol import Message, ProtocolError, parse_message
    from plies.ggp.server import GgpServer, ServeError

__all__ = [
    "GameManager",
    "GgpPlayer",
    "GgpServer",
    "HttpSeat",
    "MatchRecord",
    "MatchSetupError",
    "Message",
    "ProtocolError",
    "RandomSeat",
    "Reply",
    "ServeError",
    "parse_message",
]

# The player logs matches to "plies.ggp"; the CLI shows them.  A library user sees them
# only after configuring logging (no stray warnings on stderr).
logging.getLogger("plies.ggp").addHandler(logging.NullHandler())

_HOMES = {
    "GameManager": "plies.ggp.manager",
    "HttpSeat": "plies.ggp.manager",
    "MatchRecord": "plies.ggp.manager",
    "MatchSetupError": "plies.ggp.manager",
    "RandomSeat": "plies.ggp.manager",
    "GgpPlayer": "plies.ggp.player",
    "Reply": "plies.ggp.player",
    "Message": "plies.ggp.protocol",
    "ProtocolError": "plies.ggp.protocol",
    "parse_message": "plies.ggp.protocol",
    "GgpServer": "plies.ggp.server",
    "ServeError": "plies.ggp.server",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'plies.ggp' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(home), name)
