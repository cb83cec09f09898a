"""Pacman's board for the front ends: the maze, the pellets, Pacman and the ghosts; a
click on the cell Pacman would step to moves him there (the ``board`` hook of
:class:`~plies.games.pacman.Pacman`, which the ghosts-as-chance wrapper forwards)."""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Final

from plies.game.board import Board, Mark
from plies.games.pacman.maze import (
    CAPSULE,
    FOOD,
    GHOST,
    PACMAN,
    SCARED_GHOST,
    WALL,
    Maze,
    bits,
)

GHOST_COLOURS: Final = ("#ff2a2a", "#ffb8ff", "#00e5ff", "#ffb852")
"""Blinky, Pinky, Inky and Clyde."""
LOOKS: Final = MappingProxyType({
    "W": Mark("block", color="#1c2fb8", plain=WALL),
    "F": Mark("dot", color="#ffd9b3", plain=FOOD),
    "C": Mark("disc", color="#ffb8ae", plain=CAPSULE),
    "P": Mark("disc", color="#ffd400", plain=PACMAN),
    **{f"G{g}": Mark("disc", color=c, plain=GHOST) for g, c in enumerate(GHOST_COLOURS, 1)},
    **{f"S{g}": Mark("disc", color="#6f8bff", plain=SCARED_GHOST) for g in range(1, 5)},
})
"""The marks: W wall, F pellet, C capsule, P Pacman, G1..G4 a ghost, S1..S4 a scared one."""


def pacman_board(
    maze: Maze, pacman: int, ghosts: Sequence[int], scared: Sequence[int], food: int,
    capsules: int, cell_moves: Sequence[str | None], caption: str,
) -> Board:
    """The maze with what is on it (a ghost is drawn over a pellet it stands on; Pacman
    under a ghost that caught him); ``cell_moves`` are Pacman's moves by the cell each
    leads to (his own cell: Stop)."""
    cells = ["W" if i in maze.walls else "" for i in range(maze.width * maze.height)]
    for i in bits(food):
        cells[i] = "F"
    for i in bits(capsules):
        cells[i] = "C"
    cells[pacman] = "P"
    for g, (cell, timer) in enumerate(zip(ghosts, scared, strict=True), start=1):
        cells[cell] = f"{'S' if timer else 'G'}{g}"
    return Board(
        maze.height, maze.width, tuple(cells), kind="pacman", marks=LOOKS,
        background="#000000", cell_moves=tuple(cell_moves), caption=caption, blank=" ",
    )


__all__ = ["GHOST_COLOURS", "LOOKS", "pacman_board"]
