"""Narrate a search step by step, like the worked examples of the lecture material.

A :class:`Narrator` is a trace callback: hand it to any search as ``trace=`` and it turns
the events into sentences ("Go to MAX. Terminal and cutoff tests not met. MAX isn't done
moving (1 < 3)."), indented by the depth of the node in the tree.  It only formats text;
printing is the caller's business.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from plies.game import CHANCE, format_action
from plies.search.common import TraceEvent


def value_text(value: float | None) -> str:
    """A value as narrations and tree pictures write it: ``3``, ``0.4867``, ``+inf``, ``?``."""
    if value is None:
        return "?"
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.4g}"


_num = value_text


class Narrator:
    """Collects one sentence per trace event in :attr:`lines` (and passes each to ``echo``).

    Roles follow the paranoid model: the searching player is MAX, every other player
    MIN, chance nodes CHANCE.  For games with several moves per turn (those with a
    ``turn_progress(state)`` method, such as :class:`plies.MultiMoveTurns`) it says
    whether the mover is done moving, as in the "Civilization" tutorial.
    """

    def __init__(
        self,
        game: Any,
        root: Any,
        player: int,
        *,
        echo: Callable[[str], None] | None = None,
        limit: int | None = None,
    ) -> None:
        self.game = game
        self.root = root
        self.player = player
        self.echo = echo
        self.limit = limit
        self.lines: list[str] = []
        self.truncated = 0
        self._entered: TraceEvent | None = None
        self._progress = getattr(game, "turn_progress", None)

    def role(self, mover: int) -> str:
        if mover == CHANCE:
            return "CHANCE"
        name = getattr(self.game, "player_name", None)
        who = f"P{mover}" if name is None else str(name(mover))
        tag = "MAX" if mover == self.player else "MIN"
        return tag if who == tag else f"{tag} ({who})"

    def __call__(self, event: TraceEvent) -> None:
        if event.kind == "enter":  # said together with the tests that follow it
            self._entered = event
            return
        text = self.sentence(event)
        if self._entered is not None:
            text = f"{self.arrival(self._entered, event.kind)} {text}"
            self._entered = None
        if self.limit is not None and len(self.lines) >= self.limit:
            self.truncated += 1
            return
        line = "  " * len(event.path) + text
        self.lines.append(line)
        if self.echo is not None:
            self.echo(line)

    def where(self, event: TraceEvent) -> str:
        """The node as the moves that lead to it from the root."""
        if not event.path:
            return "the root"
        moves: list[str] = []
        state = self.root
        for action in event.path:
            moves.append(format_action(self.game, state, action))
            state = self.game.result(state, action)
        return " ".join(moves)

    def arrival(self, e: TraceEvent, then: str) -> str:
        """The sentence for entering a node; leaves are not called MAX or MIN."""
        window = ""
        if e.alpha is not None and e.beta is not None:
            window = f", alpha={_num(e.alpha)}, beta={_num(e.beta)}"
        if then == "terminal":
            return f"Go to leaf {self.where(e)} (depth {e.depth}{window})."
        return f"Go to {self.role(e.mover)} at {self.where(e)} (depth {e.depth}{window})."

    def sentence(self, e: TraceEvent) -> str:
        role = self.role(e.mover)
        if e.kind == "terminal":
            return f"Terminal test met: utility {_num(e.value)}{self._vector(e)}."
        if e.kind == "cutoff":
            return (
                f"Terminal test not met; cutoff test met at depth {e.depth}: "
                f"evaluation {_num(e.value)}{self._vector(e)}."
            )
        if e.kind == "expand":
            return "Terminal and cutoff tests not met." + self._turn(e)
        if e.kind == "backup":
            return f"{role} at {self.where(e)} backs up {_num(e.value)}{self._vector(e)}."
        if e.kind == "prune":
            skipped = ", ".join(self._action(e, a) for a in e.pruned)
            why = (
                f"alpha={_num(e.alpha)} >= beta={_num(e.beta)}"
                if e.alpha is not None and e.beta is not None
                else f"{_num(e.value)} cannot be improved on"
            )
            return f"Prune {skipped}: {why}."
        return ""

    def _action(self, e: TraceEvent, action: Any) -> str:
        return format_action(self.game, e.state, action)

    def _vector(self, e: TraceEvent) -> str:
        if e.values is None:
            return ""
        return " (" + ", ".join(_num(v) for v in e.values) + ")"

    def _turn(self, e: TraceEvent) -> str:
        if e.mover == CHANCE:
            return " Chance moves: average the outcomes by probability."
        role = self.role(e.mover)
        if self._progress is None:
            goal = "maximises" if e.mover == self.player else "minimises"
            return f" {role} moves: it {goal} MAX's value."
        made, allowed = self._progress(e.state)
        if made == 0:
            return f" {role} starts its turn (move 1 of {allowed})."
        return f" {role} isn't done moving ({made} < {allowed})."
