"""Kalah (Mancala), the game this plug-in adds to plies as ``kalah``.

Two rows of ``pits`` pits, ``seeds`` seeds in each, and a store at each player's right.
A move takes every seed of one of the mover's pits and sows them one by one
counter-clockwise, into the mover's own store but not the opponent's.  A last seed in the
mover's store gives another move; a last seed in an empty pit of the mover's, opposite a
pit with seeds, captures both into the mover's store.  When one side has no seeds left,
the other side's seeds go to their owner's store, and the larger store wins.

Pits are numbered 1..``pits`` from each mover's left; South (player 0) moves first.

>>> game = Kalah(pits=3, seeds=2)
>>> state = game.result(game.initial_state(), 2)  # sow 2 seeds: pit 3, then the store
>>> state.board, game.to_move(state)  # the last seed in South's store: South again
((2, 0, 3, 1, 2, 2, 2, 0), 0)
"""

from __future__ import annotations

from typing import ClassVar, NamedTuple

import plies
from plies.game import Board, Mark
from plies.game.options import INT, Option

LOOKS = {"pit": Mark("disc", color="#b08968", plain="o"), "store": Mark("block", color="#7f5539")}
"""A pit with seeds is a disc, a store a block; the seeds are counted on them."""


class KalahState(NamedTuple):
    """The seeds of every pit and store, South's pits, South's store, North's pits, North's
    store (counter-clockwise), and the player to move."""

    board: tuple[int, ...]
    mover: int


class Kalah(plies.Game[KalahState, int]):
    """Kalah with ``pits`` pits a side and ``seeds`` seeds a pit (see the module)."""

    name = "kalah"
    description: ClassVar[str] = (
        "Kalah (Mancala): sow seeds counter-clockwise, capture, the larger store wins"
    )
    options: ClassVar[tuple[Option, ...]] = (
        Option("pits", INT, 6, "pits on each side", bounds=(1, 8)),
        Option("seeds", INT, 4, "seeds in each pit at the start", bounds=(1, 6)),
    )
    num_players = 2
    zero_sum = True
    utility_range = (-1.0, 1.0)

    def __init__(self, pits: int = 6, seeds: int = 4) -> None:
        if pits < 1 or seeds < 1:
            raise plies.GameFormatError(f"kalah needs pits and seeds >= 1, got {pits}, {seeds}")
        self.pits, self.seeds = pits, seeds
        self.total = 2 * pits * seeds

    def store(self, player: int) -> int:
        """The index of ``player``'s store on the board."""
        return self.pits + player * (self.pits + 1)

    def pit(self, player: int, number: int) -> int:
        """The index of ``player``'s pit ``number`` (1 at the player's left)."""
        return player * (self.pits + 1) + number - 1

    def initial_state(self) -> KalahState:
        side = (self.seeds,) * self.pits
        return KalahState((*side, 0, *side, 0), 0)

    def to_move(self, state: KalahState) -> int:
        return state.mover

    def actions(self, state: KalahState) -> list[int]:
        return [n for n in range(1, self.pits + 1) if state.board[self.pit(state.mover, n)]]

    def result(self, state: KalahState, action: int) -> KalahState:
        board = list(state.board)
        mover, size = state.mover, len(board)
        where = self.pit(mover, action)
        seeds, board[where] = board[where], 0
        while seeds:
            where = (where + 1) % size
            if where != self.store(1 - mover):
                board[where] += 1
                seeds -= 1
        mine = self.pit(mover, 1) <= where < self.store(mover)
        if mine and board[where] == 1:
            opposite = 2 * self.pits - where
            if board[opposite]:
                board[self.store(mover)] += board[opposite] + 1
                board[where] = board[opposite] = 0
        nxt = mover if where == self.store(mover) else 1 - mover
        if not any(board[: self.pits]) or not any(board[self.pits + 1 : -1]):
            for player in (0, 1):  # one side is empty: each takes what is left on its side
                first = self.pit(player, 1)
                board[self.store(player)] += sum(board[first : first + self.pits])
                board[first : first + self.pits] = [0] * self.pits
        return KalahState(tuple(board), nxt)

    def is_terminal(self, state: KalahState) -> bool:
        return state.board[self.store(0)] + state.board[self.store(1)] == self.total

    def utility(self, state: KalahState, player: int) -> float:
        lead = state.board[self.store(player)] - state.board[self.store(1 - player)]
        return float((lead > 0) - (lead < 0))

    def evaluate(self, state: KalahState, player: int) -> float:
        """The lead in stores, as a fraction of all seeds (inside the utility range); the
        utility at the end."""
        if self.is_terminal(state):
            return self.utility(state, player)
        lead = state.board[self.store(player)] - state.board[self.store(1 - player)]
        return lead / (self.total + 1)

    def player_name(self, player: int) -> str:
        return ("South", "North")[player]

    def board(self, state: KalahState, last: int | None = None) -> Board:
        """North's pits (right to left) above South's, each player's store at its right
        end, the seeds counted on them: a click on one of the mover's pits sows it.  (The
        pit just sown is not marked: a move may be followed by the same player's.)"""
        columns = self.pits + 2
        cells, labels = [""] * 2 * columns, [""] * 2 * columns
        moves: list[str | None] = [None] * 2 * columns
        legal = set(self.actions(state)) if not self.is_terminal(state) else set()
        for player, row in ((1, 0), (0, 1)):
            for number in range(1, self.pits + 1):
                column = number if player == 0 else self.pits + 1 - number
                cell = row * columns + column
                seeds = state.board[self.pit(player, number)]
                cells[cell], labels[cell] = ("pit" if seeds else ""), str(seeds)
                if player == state.mover and number in legal:
                    moves[cell] = str(number)
            store = row * columns + (columns - 1 if player == 0 else 0)
            cells[store], labels[store] = "store", str(state.board[self.store(player)])
        return Board(2, columns, tuple(cells), marks=LOOKS, background="#e6ccb2",
                     labels=tuple(labels), cell_moves=tuple(moves),
                     caption=f"{self.player_name(state.mover)} to move")

    def render(self, state: KalahState) -> str:
        north = state.board[self.pits + 1 : -1][::-1]
        south = state.board[: self.pits]
        row = " ".join(f"{n:2}" for n in north)
        return "\n".join([
            f"   {row}",
            f"{state.board[-1]:2}{' ' * (3 * self.pits + 1)}{state.board[self.pits]:2}",
            "   " + " ".join(f"{n:2}" for n in south),
            f"{self.player_name(state.mover)} to move",
        ])


__all__ = ["Kalah", "KalahState"]
