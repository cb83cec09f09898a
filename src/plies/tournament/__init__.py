"""Tournaments: agents, round robins and Elo ratings.

An agent is a search algorithm with its limits, written as one short spec
(:func:`parse_agent`, :mod:`plies.tournament.agents`); :func:`tournament`
(:mod:`plies.tournament.tournament`) plays a reproducible round robin between agents on
any execution backend of :mod:`plies.parallel` (a process pool by default, or Ray);
:func:`fit_elo` (:mod:`plies.tournament.elo`) rates them with 95% intervals,
:class:`SPRT` (:mod:`plies.tournament.sprt`) stops a match once it is decided, and
:mod:`plies.tournament.plot` draws the ratings.  Nothing heavy is imported here:
Ray and matplotlib load only when used.
"""

from plies.tournament.agents import AgentSpec, parse_agent
from plies.tournament.elo import EloFit, fit_elo
from plies.tournament.sprt import SPRT
from plies.tournament.tournament import GameRecord, TournamentResult, tournament

__all__ = [
    "SPRT",
    "AgentSpec",
    "EloFit",
    "GameRecord",
    "TournamentResult",
    "fit_elo",
    "parse_agent",
    "tournament",
]
