"""Empire's board for the front ends: the whole map as a grid (plains, hills, water), each
empire's cities and units in its colour with their size and hit points, unit moves made
by clicking the unit and its target, the other actions as buttons beside the board (the
``board`` hook of :class:`~plies.games.empire.Empire`)."""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Final

from plies.game.board import Board, FromTo, Mark
from plies.games.empire.maps import HILLS, WATER
from plies.games.empire.rules import LETTERS, MOVE, Action, EmpireRules, EmpireState

COLOURS: Final = ("#e03131", "#2457c5", "#2f9e44", "#9c36b5", "#e8590c", "#0c8599")
"""Each empire's colour, A to F."""
LOOKS: Final = MappingProxyType({
    HILLS: Mark("block", color="#c8b48f", plain=HILLS),
    WATER: Mark("block", color="#74c0fc", plain=WATER),
    **{letter: Mark("block", color=c) for letter, c in zip(LETTERS, COLOURS, strict=True)},
    **{letter.lower(): Mark("disc", color=c)
       for letter, c in zip(LETTERS, COLOURS, strict=True)},
})
"""Hills and water; a city of empire A is the block ``A``, a unit of A outside a city the
disc ``a`` (each in A's colour)."""


def empire_board(
    rules: EmpireRules, state: EmpireState, actions: Sequence[tuple[Action, str]],
    caption: str, last: Action | None = None,
) -> Board:
    """The map of ``state``: a cell's label is what the text picture writes there (``A2``
    a city of A of size 2, ``a3`` a unit of A with 3 hit points, ``A2a3`` both);
    ``actions`` are the mover's legal actions with their text."""
    w = rules.width
    city_at = {c[0]: c for c in state.cities}
    unit_at = {u[0]: u for u in state.units}
    cells: list[str] = []
    labels: list[str] = []
    for sq, ground in enumerate(rules.terrain):
        city, unit = city_at.get(sq), unit_at.get(sq)
        label = f"{LETTERS[city[1]]}{city[2]}" if city else ""
        label += f"{LETTERS[unit[1]].lower()}{unit[2]}" if unit else ""
        mark = (LETTERS[city[1]] if city else LETTERS[unit[1]].lower() if unit
                else ground if ground in (HILLS, WATER) else "")
        cells.append(mark)
        labels.append(label)
    highlighted: tuple[int, ...] = ()
    if last is not None and last[1] >= 0:
        highlighted = (last[1], last[2]) if last[0] == MOVE else (last[1],)
    return Board(
        rules.height, w, tuple(cells), marks=LOOKS, background="#e9f1da",
        labels=tuple(labels), files=tuple(chr(ord("a") + c) for c in range(w)),
        ranks=tuple(str(rules.height - r) for r in range(rules.height)),
        from_to=tuple(FromTo(a[1], a[2], text) for a, text in actions if a[0] == MOVE),
        extra_moves=tuple(text for action, text in actions if action[0] != MOVE),
        last=highlighted, caption=caption,
    )


__all__ = ["COLOURS", "LOOKS", "empire_board"]
