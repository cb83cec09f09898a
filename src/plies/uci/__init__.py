"""``plies uci``: plies as a chess engine that UCI GUIs and python-chess can drive.

- :mod:`plies.uci.protocol`: :class:`UciEngine` (one line in, answers out, the search in
  a thread) and :func:`serve` (the read loop).
- :mod:`plies.uci.clock`: the arguments of ``go`` and the time manager.
- :mod:`plies.uci.options`: the options, one table for the ``uci`` reply and ``setoption``.
- :mod:`plies.uci.think`: one ``go``'s search (MultiPV lines, ``searchmoves``, ``mate``).
- :mod:`plies.uci.strength`: the weakened levels of ``UCI_LimitStrength``/``UCI_Elo``.
- :mod:`plies.cli.uci`: the ``plies uci`` command.
"""

from plies.uci.clock import Go, parse_go, think_time
from plies.uci.protocol import UciEngine, serve

__all__ = ["Go", "UciEngine", "parse_go", "serve", "think_time"]
