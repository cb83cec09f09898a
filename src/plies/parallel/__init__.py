"""Parallel work: tournaments, batch analysis and parallel search of one position.

Tournaments (:func:`tournament`) and batch analysis (:func:`analyze_positions`) run
many independent games or positions on a :class:`LocalBackend` (a process pool, the
default) or a :class:`RayBackend`; results are the same on either.  Nothing heavy is
imported here: Ray and matplotlib load only when used.
"""

from plies.parallel.agents import AgentSpec, parse_agent
from plies.parallel.backends import Backend, BackendError, GameRef, LocalBackend, RayBackend
from plies.parallel.batch import Position, PositionReport, analyze_positions, read_positions
from plies.parallel.elo import EloFit, fit_elo
from plies.parallel.tournament import GameRecord, TournamentResult, tournament

__all__ = [
    "AgentSpec",
    "Backend",
    "BackendError",
    "EloFit",
    "GameRecord",
    "GameRef",
    "LocalBackend",
    "Position",
    "PositionReport",
    "RayBackend",
    "TournamentResult",
    "analyze_positions",
    "fit_elo",
    "parse_agent",
    "read_positions",
    "tournament",
]
