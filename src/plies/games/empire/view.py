"""Empire's board for the front ends: the whole map as a grid (plains, hills, water as the
ground), each empire's territory tinted, its cities and units in its colour with their
size and hit points, unit moves made
by clicking the unit and its target, the other actions as buttons beside the board (the
``board`` hook of :class:`~plies.games.empire.Empire`)."""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Final

from plies.game.board import Board, FromTo, Mark
from plies.games.empire.maps import HILLS, PLAIN, WATER
from plies.games.empire.rules import (
    LETTERS,
    MOVE,
    SETTLE_DISTANCE,
    Action,
    EmpireRules,
    EmpireState,
)

COLOURS: Final = ("#e03131", "#2457c5", "#2f9e44", "#9c36b5", "#e8590c", "#0c8599")
"""Each empire's colour, A to F."""
TERRAIN: Final = MappingProxyType({PLAIN: "#e9f1da", HILLS: "#c8b48f", WATER: "#74c0fc"})
"""The ground of plains, hills and water."""
LOOKS: Final = MappingProxyType({
    **{letter: Mark("square", color=c, plain=letter)
       for letter, c in zip(LETTERS, COLOURS, strict=True)},
    **{f"{letter}+": Mark("square", color=c, plain=f"{letter}+", inner="#ffffff")
       for letter, c in zip(LETTERS, COLOURS, strict=True)},
    **{letter.lower(): Mark("disc", color=c)
       for letter, c in zip(LETTERS, COLOURS, strict=True)},
})
"""A city of empire A is the square ``A`` (``A+`` with its unit standing in it: a white
disc inside), a unit of A outside a city the disc ``a``, each in A's colour."""
LEGEND: Final = ("A3 = city of A (a square), population 3; a2 = unit of A (a disc), 2 hit "
                 "points; A3a2 = both (a square with a white disc)\n^ hills (tan), ~ water "
                 "(blue); tinted land: an empire's territory (within 2 squares of its cities)")


def territory(rules: EmpireRules, state: EmpireState) -> list[int | None]:
    """The owner of each square's territory: the empire whose city is nearest, within
    the settling distance (king's distance 2: where nobody else may found a city), or
    None (nobody's, or two empires' cities equally near)."""
    w = rules.width
    owners: list[int | None] = []
    for sq in range(len(rules.terrain)):
        r, c = divmod(sq, w)
        near: dict[int, int] = {}
        for city_sq, owner, _ in state.cities:
            cr, cc = divmod(city_sq, w)
            d = max(abs(r - cr), abs(c - cc))
            if d <= SETTLE_DISTANCE:
                near[owner] = min(d, near.get(owner, d))
        best = min(near.values(), default=None)
        closest = [p for p, d in near.items() if d == best]
        owners.append(closest[0] if len(closest) == 1 and rules.terrain[sq] != WATER else None)
    return owners


def empire_board(
    rules: EmpireRules, state: EmpireState, actions: Sequence[tuple[Action, str]],
    caption: str, last: Action | None = None,
) -> Board:
    """The map of ``state``: the terrain as each square's ground, each empire's territory
    tinted in its colour, cities as squares labelled with their population, units as
    discs labelled with their hit points (``A2``, ``a3``, ``A2a3`` as the text picture
    writes them); ``actions``
    are the mover's legal actions with their text."""
    w = rules.width
    city_at = {c[0]: c for c in state.cities}
    unit_at = {u[0]: u for u in state.units}
    cells: list[str] = []
    labels: list[str] = []
    for sq in range(len(rules.terrain)):
        city, unit = city_at.get(sq), unit_at.get(sq)
        if city and unit:
            cells.append(f"{LETTERS[city[1]]}+")
            labels.append(f"{LETTERS[city[1]]}{city[2]}{LETTERS[unit[1]].lower()}{unit[2]}")
        elif city:
            cells.append(LETTERS[city[1]])
            labels.append(f"{LETTERS[city[1]]}{city[2]}")
        elif unit:
            cells.append(LETTERS[unit[1]].lower())
            labels.append(f"{LETTERS[unit[1]].lower()}{unit[2]}")
        else:
            cells.append("")
            labels.append("")
    highlighted: tuple[int, ...] = ()
    if last is not None and last[1] >= 0:
        highlighted = (last[1], last[2]) if last[0] == MOVE else (last[1],)
    owners = territory(rules, state)
    return Board(
        rules.height, w, tuple(cells), marks=LOOKS, background="#d5dcc6",
        labels=tuple(labels), files=tuple(chr(ord("a") + c) for c in range(w)),
        ranks=tuple(str(rules.height - r) for r in range(rules.height)),
        from_to=tuple(FromTo(a[1], a[2], text) for a, text in actions if a[0] == MOVE),
        extra_moves=tuple(text for action, text in actions if action[0] != MOVE),
        last=highlighted, caption=caption,
        grounds=tuple(TERRAIN[t] for t in rules.terrain),
        tints=tuple("" if p is None else COLOURS[p] for p in owners),
        ground_text=tuple(t if t != PLAIN else "" for t in rules.terrain),
        player_marks=tuple(LETTERS[:rules.num_players]),
    )


__all__ = ["COLOURS", "LEGEND", "LOOKS", "TERRAIN", "empire_board", "territory"]
