"""Parallel work: execution backends and batch analysis.

Batch analysis (:func:`analyze_positions`) and tournaments (:mod:`plies.tournament`) run
many independent positions or games on a :class:`LocalBackend` (a process pool, the
default) or a :class:`RayBackend`; results are the same on either.  Nothing heavy is
imported here: Ray loads only when used.  Parallel search of one position is an
algorithm: :mod:`plies.search.parallel`.
"""

import importlib
import warnings

from plies._compat import deprecated_alias
from plies.parallel.backends import Backend, BackendError, GameRef, LocalBackend, RayBackend
from plies.parallel.batch import Position, PositionReport, analyze_positions, read_positions

__all__ = [
    "Backend",
    "BackendError",
    "GameRef",
    "LocalBackend",
    "Position",
    "PositionReport",
    "RayBackend",
    "analyze_positions",
    "read_positions",
]

# Tournaments, agents and Elo moved to plies.tournament; their names are served here with
# a warning for one release.
for _name in (
    "AgentSpec", "EloFit", "GameRecord", "TournamentResult", "fit_elo", "parse_agent",
    "tournament",
):
    deprecated_alias(globals(), _name, f"plies.tournament.{_name}")
del _name

# The old module plies.parallel.tournament (a shim now) has the name of the function
# served above: load it here (its own warning is for other importers), and drop the
# attribute its import sets on this package, so that it does not hide the function.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    importlib.import_module("plies.parallel.tournament")
del globals()["tournament"]
