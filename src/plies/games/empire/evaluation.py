"""Empire's evaluation: features from one empire's point of view and their weights.

Every feature is a plain number in ``[-1, 1]`` (most in ``[0, 1]``), computed in one pass
over the cities and units of an :class:`~plies.games.empire.rules.EmpireState`:

==================  =========================================================================
``bias``            1.0 always (an intercept for learned weights; hand weight 0)
``cities``          own cities / all cities
``population``      own population / all population
``military``        (own hit points - the strongest rival's) / (their sum + 10), in (-1, 1)
``science``         own research / the science goal, capped at 1
``science_lead``    (own research - the best rival's) / the goal, in [-1, 1]
``capitals``        capitals held / number of empires (conquest progress)
``capital_threat``  1.0 if the own capital is lost; else enemy hit points within two
                    squares of it minus own, over 6, clipped to [0, 1]
``income``          own shields per turn / everyone's
``territory``       land within two squares of own cities and units / all land
``score_lead``      (own score - the best rival's) / (their sum + 1), times the share of
                    the turns played: what the score victory at the turn limit will say,
                    counted more as the limit nears
==================  =========================================================================

The evaluation is ``sum(weight * feature)`` clipped to ``[0, 1]``, the utility range (a
win is 1, so the hand weights are set for a sum near ``1 / players`` in an even position).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from plies.games.empire.rules import CITY_POINTS, SCIENCE_POINTS, EmpireRules, EmpireState

FEATURE_NAMES: Final = (
    "bias", "cities", "population", "military", "science", "science_lead", "capitals",
    "capital_threat", "income", "territory", "score_lead",
)
THREAT_SCALE: Final = 6.0
MILITARY_DAMPING: Final = 10
"""Added to the hit points in the military balance, so that one unit more or less in a
small army does not swing the feature from -1 to 1."""


@dataclass(frozen=True, slots=True)
class EmpireWeights:
    """The hand-set weights of Empire's features (one field per name in FEATURE_NAMES)."""

    bias: float = 0.0
    cities: float = 0.3
    population: float = 0.05
    military: float = 0.1
    science: float = 0.2
    science_lead: float = 0.1
    capitals: float = 0.15
    capital_threat: float = -0.2
    income: float = 0.05
    territory: float = 0.4
    score_lead: float = 0.3


def features(rules: EmpireRules, state: EmpireState, player: int) -> tuple[float, ...]:
    """The values of :data:`FEATURE_NAMES` in ``state`` for ``player``, in that order."""
    n = rules.num_players
    cities = pop = income = 0  # own
    all_cities = all_pop = all_income = 0
    land = 0
    near = rules.near
    slot = rules.capital_owner_slot
    my_capital = rules.capitals[player]
    capital_owner = -1
    held = 0
    points = [0] * n  # the score without research
    for sq, owner, size in state.cities:
        points[owner] += CITY_POINTS + size
        all_cities += 1
        all_pop += size
        all_income += 1 + size // 2
        if owner == player:
            cities += 1
            pop += size
            income += 1 + size // 2
            land |= near[sq]
            if sq in slot:
                held += 1
        if sq == my_capital:
            capital_owner = owner
    hp = [0] * n
    zone = near[my_capital]
    pressure = 0
    for sq, owner, h in state.units:
        hp[owner] += h
        if owner == player:
            land |= near[sq]
            if zone >> sq & 1:
                pressure -= h
        elif zone >> sq & 1:
            pressure += h
    rival_hp = 0
    rival_science = 0
    rival_score = 0
    science = state.science
    goal = rules.science_goal
    for q in range(n):
        if q != player:
            if hp[q] > rival_hp:
                rival_hp = hp[q]
            if science[q] > rival_science:
                rival_science = science[q]
            score = points[q] + SCIENCE_POINTS * min(science[q], goal) // goal
            if score > rival_score:
                rival_score = score
    own_score = points[player] + SCIENCE_POINTS * min(science[player], goal) // goal
    mine = science[player]
    lead = (mine - rival_science) / goal
    lost = capital_owner != player
    threat = 1.0 if lost else min(1.0, max(0.0, pressure / THREAT_SCALE))
    return (
        1.0,
        cities / (all_cities or 1),
        pop / (all_pop or 1),
        (hp[player] - rival_hp) / (hp[player] + rival_hp + MILITARY_DAMPING),
        min(1.0, mine / goal),
        max(-1.0, min(1.0, lead)),
        held / n,
        threat,
        income / (all_income or 1),
        land.bit_count() / rules.land,
        (own_score - rival_score) / (own_score + rival_score + 1)
        * min(1.0, state.turn / rules.turns),
    )
