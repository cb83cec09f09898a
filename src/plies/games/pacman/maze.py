"""The mazes of Pacman (:mod:`plies.games.pacman.rules`): the built-in layouts and their parser.

A layout is the CS188 project's text: ``%`` wall, ``.`` pellet, ``o`` power pellet
(capsule), ``P`` Pacman, ``G`` a ghost start, blank an empty cell; rows split at newlines
or ``/``.  Cells are indices ``row * width + col``; pellets and capsules are bitmasks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from plies.bits import members
from plies.errors import GameFormatError

NORTH: Final = "North"
SOUTH: Final = "South"
EAST: Final = "East"
WEST: Final = "West"
STOP: Final = "Stop"
DIRECTIONS: Final = (NORTH, SOUTH, EAST, WEST)
"""Pacman's actions come in this order, then Stop (the project's order)."""

WALL: Final = "%"
FOOD: Final = "."
CAPSULE: Final = "o"
PACMAN: Final = "P"
GHOST: Final = "G"
SCARED_GHOST: Final = "S"
EMPTY: Final = " "

LAYOUTS: Final = {
    # A maze small enough to search to the end in tests.
    "tiny": (
        "%%%%%%%\n"
        "%P...G%\n"
        "%.%%%.%\n"
        "%o....%\n"
        "%%%%%%%"
    ),
    # Two open rows: ghosts can go round Pacman.
    "test": (
        "%%%%%%%%%%\n"
        "%P . .  .%\n"
        "%  . G . %\n"
        "%%%%%%%%%%"
    ),
    "smallClassic": (
        "%%%%%%%%%%%%%%%%%%%%\n"
        "%......%G  G%......%\n"
        "%.%%...%%  %%...%%.%\n"
        "%.%o.%........%.o%.%\n"
        "%.%%.%.%%%%%%.%.%%.%\n"
        "%........P.........%\n"
        "%%%%%%%%%%%%%%%%%%%%"
    ),
    "mediumClassic": (
        "%%%%%%%%%%%%%%%%%%%%\n"
        "%o...%........%....%\n"
        "%.%%.%.%%%%%%.%.%%.%\n"
        "%.%..............%.%\n"
        "%.%.%%.%%  %%.%%.%.%\n"
        "%......%G  G%......%\n"
        "%.%.%%.%%%%%%.%%.%.%\n"
        "%.%..............%.%\n"
        "%.%%.%.%%%%%%.%.%%.%\n"
        "%....%...P....%...o%\n"
        "%%%%%%%%%%%%%%%%%%%%"
    ),
    "trickyClassic": (
        "%%%%%%%%%%%%%%%%%%%%\n"
        "%o...%........%...o%\n"
        "%.%%.%.%%..%%.%.%%.%\n"
        "%.%.....%..%.....%.%\n"
        "%.%.%%.%%  %%.%%.%.%\n"
        "%...... GGGG%.%....%\n"
        "%.%....%%%%%%.%..%.%\n"
        "%.%....%  oo%.%..%.%\n"
        "%.%....% %%%%.%..%.%\n"
        "%.%...........%..%.%\n"
        "%.%%.%.%%%%%%.%.%%.%\n"
        "%o...%...P....%...o%\n"
        "%%%%%%%%%%%%%%%%%%%%"
    ),
}
"""Built-in mazes by name, in the project's text format (``%`` wall, ``.`` pellet, ``o``
capsule, ``P`` Pacman, ``G`` ghost start).  The ``*Classic`` ones follow the project's mazes
of those names (written from its published layouts; details may differ)."""

DEFAULT_LAYOUT: Final = "smallClassic"

_STEPS: Final = {NORTH: (-1, 0), SOUTH: (1, 0), EAST: (0, 1), WEST: (0, -1)}

@dataclass(frozen=True, slots=True)
class Maze:
    """A parsed layout: its size, walls, and the starting contents."""

    width: int
    height: int
    walls: frozenset[int]
    food: int
    capsules: int
    pacman: int
    ghost_starts: tuple[int, ...]

    @classmethod
    def parse(cls, text: str) -> Maze:
        """The maze written in ``text``: rows split at newlines or ``/``.

        Raises:
            GameFormatError: rows of unequal length, an unknown character, not exactly
                one ``P``, or no ``G``; the message says what is accepted.
        """
        rows = [row for row in text.replace("/", "\n").split("\n") if row.strip()]
        if not rows:
            raise GameFormatError("a Pacman layout needs rows of %, ., o, P, G and blanks")
        width = len(rows[0])
        if any(len(row) != width for row in rows):
            raise GameFormatError(
                f"a Pacman layout's rows must all be {width} characters long; got "
                f"{', '.join(str(len(row)) for row in rows)}"
            )
        walls: set[int] = set()
        food = capsules = 0
        pacman: list[int] = []
        ghosts: list[int] = []
        for r, row in enumerate(rows):
            for c, char in enumerate(row):
                cell = r * width + c
                if char == WALL:
                    walls.add(cell)
                elif char == FOOD:
                    food |= 1 << cell
                elif char == CAPSULE:
                    capsules |= 1 << cell
                elif char == PACMAN:
                    pacman.append(cell)
                elif char == GHOST:
                    ghosts.append(cell)
                elif char != EMPTY:
                    raise GameFormatError(
                        f"unknown character {char!r} in a Pacman layout (row {r + 1}); "
                        f"accepted: % wall, . pellet, o capsule, P Pacman, G ghost, blank"
                    )
        if len(pacman) != 1:
            raise GameFormatError(f"a Pacman layout needs exactly one P, got {len(pacman)}")
        if not ghosts:
            raise GameFormatError("a Pacman layout needs at least one G (a ghost start)")
        return cls(width, len(rows), frozenset(walls), food, capsules, pacman[0], tuple(ghosts))

    def neighbour(self, cell: int, direction: str) -> int | None:
        """The open cell one step from ``cell`` towards ``direction``; None at a wall."""
        dr, dc = _STEPS[direction]
        r, c = divmod(cell, self.width)
        r, c = r + dr, c + dc
        if not (0 <= r < self.height and 0 <= c < self.width):
            return None
        target = r * self.width + c
        return None if target in self.walls else target


def bits(mask: int) -> list[int]:
    """The cells whose bits are set in ``mask``, lowest first."""
    return members(mask)
