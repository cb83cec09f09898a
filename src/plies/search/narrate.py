"""Narrate a search step by step, like the worked examples of the lecture material.

A :class:`Narrator` is a trace callback: hand it to any search as ``trace=`` and it turns
the events into sentences ("Go to MAX. Terminal and cutoff tests not met. MAX isn't done
moving (1 < 3)."), indented by the depth of the node in the tree.  It only formats text;
printing is the caller's business.

Every event kind is narrated (:class:`~plies.search.result.TraceEvent`): the plain
algorithm's steps, and what the engine craft does (a table that settles a node or narrows
its window, the order the moves are tried in, a null-window test searched again, a null
move, an extension, a reduction, a quiescence stand-pat, a Star2 probe, a root window).

The narration follows the search's decision rule (:data:`RULES`), which each algorithm
declares in the registry (:attr:`plies.search.registry.Algorithm.rule`):

- ``"paranoid"`` (``minimax``, ``alphabeta``, ...): the searching player is MAX and
  maximises its value, every other player is MIN and minimises MAX's value, chance nodes
  average by probability, and a simultaneous stage is worth the value of its matrix game
  in mixed strategies.
- ``"maxn"``: every player maximises its *own* utility, its component of the utility
  vector; nodes are named by their mover, never MAX or MIN, and values are vectors.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from typing import Any, Final

from plies.errors import OptionError
from plies.game import CHANCE, SIMULTANEOUS, format_action
from plies.search.registry import ALGORITHMS, RULES, algorithm, names
from plies.search.result import NULL_MOVE, SearchResult, TraceEvent, step_state, step_text
from plies.wrappers import OpponentsAsChance

__all__ = [
    "NOISE", "RULES", "Narrator", "cut_reason", "format_number", "narration_rule", "window_text",
]

def narration_rule(rule_or_algorithm: str) -> str:
    """The decision rule (one of :data:`RULES`) named by ``rule_or_algorithm``: a rule
    itself, or the name of a registered algorithm that reports trace events (its
    :attr:`~plies.search.registry.Algorithm.rule`).

    >>> narration_rule("maxn"), narration_rule("alphabeta"), narration_rule("paranoid")
    ('maxn', 'paranoid', 'paranoid')
    >>> narration_rule("mcts")
    Traceback (most recent call last):
    ...
    plies.errors.OptionError: no narration for 'mcts': it reports no trace events
    """
    if rule_or_algorithm in RULES:
        return rule_or_algorithm
    if rule_or_algorithm not in ALGORITHMS:
        known = ", ".join([*RULES, *names(lambda a: a.traceable)])
        raise OptionError(f"no narration for {rule_or_algorithm!r}; use one of: {known}")
    entry = algorithm(rule_or_algorithm)
    if not entry.traceable:
        raise OptionError(f"no narration for {entry.name!r}: it reports no trace events")
    return entry.rule


NOISE: Final = 1e-9
"""Values closer to 0 than this are written 0: the round-off of the matrix games' LP."""


def format_number(value: float | None) -> str:
    """A value as the narration writes it: 3, 2.1, 0.4867, +inf, ``?`` for None.

    Round-off below :data:`NOISE` (a linear program's 2.2e-16, a ``-0.0``) is written 0,
    so that people do not read a draw as a win or a loss.

    >>> format_number(3.0), format_number(2.1), format_number(-math.inf), format_number(None)
    ('3', '2.1', '-inf', '?')
    >>> format_number(2.220446049250313e-16), format_number(-0.0)
    ('0', '0')
    """
    if value is None:
        return "?"
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    if abs(value) < NOISE:
        return "0"
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.4g}"


def window_text(alpha: float | None, beta: float | None) -> str:
    """A window as the narration writes it: ``alpha=3, beta=+inf``, or a null window."""
    if alpha is not None and beta is not None:
        above = math.nextafter(alpha, math.inf)
        if beta == above:
            return f"a null window at {format_number(alpha)}"
        if beta == math.nextafter(above, math.inf):
            return f"a window of one ulp each side of {format_number(above)}"
    return f"alpha={format_number(alpha)}, beta={format_number(beta)}"


def _vector(values: tuple[float, ...]) -> str:
    return "(" + ", ".join(format_number(v) for v in values) + ")"


def cut_reason(
    maximizing: bool, alpha: float, beta: float, value: float | None, *, strict: bool = False
) -> str:
    """Why alpha-beta cut off a node's remaining children, in the narrator's words.

    The default rule cuts when the window closes: "alpha=3 >= beta=2" (a MAX node),
    "beta=2 <= alpha=3" (a MIN node).  The strict rule cuts only when the node's value
    so far (``value``) strictly passes a bound: "v=5 > beta=4", "v=2 < alpha=3".

    >>> cut_reason(False, 3.0, 2.0, 2.0), cut_reason(False, 3.0, 2.0, 2.0, strict=True)
    ('beta=2 <= alpha=3', 'v=2 < alpha=3')
    """
    a, b = format_number(alpha), format_number(beta)
    if strict:
        got = format_number(value)
        return f"v={got} > beta={b}" if maximizing else f"v={got} < alpha={a}"
    return f"alpha={a} >= beta={b}" if maximizing else f"beta={b} <= alpha={a}"


class Narrator:
    """Collects one sentence per trace event in :attr:`lines` (and passes each to ``echo``).

    ``rule`` is the search's decision rule, one of :data:`RULES` or the name of a search
    (see :func:`narration_rule`): ``"paranoid"`` (the default) calls the searching
    ``player`` MAX and every other player MIN; ``"maxn"`` names every node by its mover,
    which maximises its own component of the utility vector.  Chance nodes are CHANCE;
    a player that :class:`plies.OpponentsAsChance` models as chance is named as such.
    For games with several moves per turn (those with a ``turn_progress(state)``
    method, such as :class:`plies.MultiMoveTurns`) it says whether the mover is done
    moving, as in the "Civilization" tutorial.

    ``limit`` caps :attr:`lines`; the events past it are counted in :attr:`truncated`,
    and the first of them sets :attr:`done`, an :class:`threading.Event` that a search
    can take as its stop signal (``stop=narrator.done``), so that a narration cut short
    does not leave the search running for nothing.

    Raises :class:`~plies.errors.OptionError` for an unknown rule, and from inside the
    search when the events do not fit the rule (a max^n search, whose events carry
    utility vectors, narrated with the paranoid rule).

    ``strict``: the search cuts by alpha-beta's strict rule (``strict_cutoffs``), so a
    prune is explained by the bound its value passed ("v=2 < alpha=3", see
    :func:`cut_reason`).
    """

    def __init__(
        self,
        game: Any,
        root: Any,
        player: int,
        *,
        echo: Callable[[str], None] | None = None,
        limit: int | None = None,
        rule: str = "paranoid",
        strict: bool = False,
    ) -> None:
        if limit is not None and limit < 0:
            raise OptionError(f"the line limit must be >= 0, got {limit}")
        self.game = game
        self.root = root
        self.player = player
        self.echo = echo
        self.limit = limit
        self.rule = narration_rule(rule)
        self.strict = strict
        self.lines: list[str] = []
        self.truncated = 0
        self.done = threading.Event()
        """Set once the line limit cut the narration: nothing more will be said."""
        self._entered: TraceEvent | None = None
        self._roots = 0  # searches of the root so far
        self._announced = False  # the last line announced the next search of the root
        self._progress = getattr(game, "turn_progress", None)

    @property
    def maxn(self) -> bool:
        return self.rule == "maxn"

    def name(self, player: int) -> str:
        """The player's name: ``game.player_name(player)``, else ``P0``, ``P1``, ..."""
        namer = getattr(self.game, "player_name", None)
        return f"P{player}" if namer is None else str(namer(player))

    def role(self, mover: int) -> str:
        """How a node's mover is called: MAX or MIN (with its name when that differs) under
        the paranoid rule, its name under max^n, CHANCE at chance nodes."""
        if mover == CHANCE:
            return "CHANCE"
        if mover == SIMULTANEOUS:
            return "SIMULTANEOUS"
        who = self.name(mover)
        if self.maxn:
            return who
        tag = "MAX" if mover == self.player else "MIN"
        return tag if who == tag else f"{tag} ({who})"

    def opening(self, algorithm: str) -> str:
        """The line that introduces the narration of ``algorithm`` on the game."""
        title = getattr(self.game, "name", "game")
        if self.maxn:
            players = ", ".join(self.name(p) for p in range(self.game.num_players))
            return (
                f"Tracing {algorithm} on {title}: every player maximises its own utility; "
                f"vectors list ({players})."
            )
        return f"Tracing {algorithm} on {title}; MAX is {self.name(self.player)}."

    def closing(self, result: SearchResult) -> str:
        """The line that sums up ``result``, the search's result, in the rule's terms."""
        root = self.root
        best = "none" if result.action is None else format_action(self.game, root, result.action)
        nodes = f"{result.stats.nodes:,} nodes"
        if self.maxn and result.values is not None:
            mine = format_number(result.value)
            return (
                f"Result: values {_vector(result.values)}, {self.name(self.player)} gets "
                f"{mine}; best move {best}, {nodes}."
            )
        return f"Result: value {format_number(result.value)} for MAX, best move {best}, {nodes}."

    def __call__(self, event: TraceEvent) -> None:
        if event.values is not None and not self.maxn:
            raise OptionError(
                "this search backs up utility vectors (max^n): narrate it with rule='maxn'"
            )
        if event.kind == "enter":  # said together with the tests that follow it
            self._entered = event
            if not event.path:
                self._roots += 1
            return
        if self.limit is not None and len(self.lines) >= self.limit:
            self._entered = None
            self.truncated += 1
            self.done.set()
            return
        text = self.sentence(event)
        if self._entered is not None:
            text = f"{self.arrival(self._entered, event.kind)} {text}"
            if not self._entered.path and self._roots > 1 and not self._announced:
                text = f"Search the root again, one ply deeper (iterative deepening). {text}"
            self._entered = None
        self._announced = event.kind in ("window", "research") and not event.path
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
            moves.append(step_text(self.game, state, action))
            state = step_state(self.game, state, action)
        return " ".join(moves)

    def arrival(self, e: TraceEvent, then: str) -> str:
        """The sentence for entering a node; leaves are not called MAX or MIN."""
        window = ""
        if e.alpha is not None and e.beta is not None:
            window = f", {window_text(e.alpha, e.beta)}"
        if then == "terminal":
            return f"Go to leaf {self.where(e)} (depth {e.depth}{window})."
        return f"Go to {self.role(e.mover)} at {self.where(e)} (depth {e.depth}{window})."

    def sentence(self, e: TraceEvent) -> str:
        """The sentence for one event other than ``enter``."""
        if e.kind == "terminal":
            if e.values is not None:
                return f"Terminal test met: utilities {_vector(e.values)}."
            return f"Terminal test met: utility {format_number(e.value)}."
        if e.kind == "cutoff":
            said = (
                f"evaluations {_vector(e.values)}" if e.values is not None
                else f"evaluation {format_number(e.value)}"
            )
            return f"Terminal test not met; cutoff test met at depth {e.depth}: {said}."
        if e.kind == "expand":
            return "Terminal and cutoff tests not met." + self._turn(e)
        if e.kind == "backup":
            return self._backup(e)
        if e.kind == "prune":
            return self._prune(e)
        return self._craft(e)

    def _prune(self, e: TraceEvent) -> str:
        skipped = ", ".join(self._action(e, a) for a in e.pruned)
        if e.action is NULL_MOVE:
            side = f">= beta={format_number(e.beta)}" if e.mover == self.player else (
                f"<= alpha={format_number(e.alpha)}"
            )
            return f"Prune {skipped}: even passing keeps the value {side} (null move)."
        if e.mover == CHANCE and e.alpha is not None and e.beta is not None:
            return (
                f"Prune {skipped}: whatever they are worth, the average stays outside "
                f"alpha={format_number(e.alpha)}, beta={format_number(e.beta)} "
                f"(Star1: {format_number(e.value)} is a bound)."
            )
        if self.strict and e.alpha is not None and e.beta is not None:
            why = cut_reason(e.mover == self.player, e.alpha, e.beta, e.value, strict=True)
        elif e.alpha is not None and e.beta is not None:
            # The window closed; said the same way at MAX and MIN nodes.
            why = f"alpha={format_number(e.alpha)} >= beta={format_number(e.beta)}"
        else:
            why = f"{format_number(e.value)} cannot be improved on"
        return f"Prune {skipped}: {why}."

    def _craft(self, e: TraceEvent) -> str:
        """The sentence for what the engine craft does at a node (see TraceEvent)."""
        v, window = format_number(e.value), window_text(e.alpha, e.beta)
        action = None if e.action is None else self._action(e, e.action)
        if e.kind == "order":
            moves = ", ".join(self._action(e, a) for a in e.moves)
            if action is not None and len(e.moves) == 1:
                return (f"Try the table's move {action} first; the others are ordered only "
                        "if it does not cut off.")
            first = " (the table's move first)" if action is not None else ""
            return f"Try the moves in the order {moves}{first}."
        if e.kind == "table":
            if e.alpha is not None and e.beta is not None and e.alpha >= e.beta:
                return f"The table holds {v} for this position, searched as deep: no search."
            return f"The table holds {v} (a bound) for this position: now {window}."
        if e.kind == "bounds":
            if e.value is not None:
                return f"The game's bounds on the value settle it at {v}: no search."
            return f"The game's bounds on the value narrow the window: {window}."
        if e.kind == "research":
            if action is None:
                return (f"The value {v} fell outside the window: search the root again "
                        f"with {window}.")
            return f"{action} returned {v}, which may be better: search it again with {window}."
        if e.kind == "reduce":
            plies = "ply" if e.value == 1 else "plies"
            return (f"Late quiet move {action}: first search it {v} {plies} shallower with "
                    f"{window}.")
        if e.kind == "extend":
            return f"Extend {action}: search it one ply deeper."
        if e.kind == "singular":
            return (f"Singular test of the table's move {action}: search the others shallower; "
                    f"does any reach {v}?")
        if e.kind == "null":
            edge = "beta" if e.mover == self.player else "alpha"
            return (f"The evaluation {v} already reaches {edge}: pass (null move) and search "
                    f"shallower with {window}.")
        if e.kind == "stand":
            return (f"Past the depth limit: quiescence search. Standing pat is worth the "
                    f"evaluation {v}.")
        if e.kind == "probe":
            return f"Star2 probe: search only its first move, for a lower bound: does it reach {v}?"
        if e.kind == "window":
            where = "the root" if not e.path else self.where(e)
            if e.alpha is not None and e.beta == math.nextafter(e.alpha, math.inf):
                return f"Test {where}: is its value above {v}? Search it with {window}."
            return f"Search {where} in {window}." if "ulp" in window else (
                f"Search {where} in a window around {v}: {window}."
            )
        return ""

    def _action(self, e: TraceEvent, action: Any) -> str:
        return step_text(self.game, e.state, action)

    def _backup(self, e: TraceEvent) -> str:
        role = self.role(e.mover)
        if e.values is None:
            why = " (its matrix game's value)" if e.mover == SIMULTANEOUS else ""
            return f"{role} at {self.where(e)} backs up {format_number(e.value)}{why}."
        vector = _vector(e.values)
        if e.mover in (CHANCE, SIMULTANEOUS) or not 0 <= e.mover < len(e.values):
            return f"{role} at {self.where(e)} backs up {vector}, the average by probability."
        own = format_number(e.values[e.mover])
        return (
            f"{role} at {self.where(e)} backs up {vector}, the child best for {role} "
            f"(component {e.mover} = {own})."
        )

    def _goal(self, mover: int) -> str:
        """What the mover of a node is after, under the rule."""
        if self.maxn:
            return f"it maximises its own utility (component {mover} of the vector)"
        return "it maximises MAX's value" if mover == self.player else "it minimises MAX's value"

    def _turn(self, e: TraceEvent) -> str:
        if e.mover == CHANCE:
            return self._chance(e)
        if e.mover == SIMULTANEOUS:
            return (
                " Everyone moves at once: the joint actions make a matrix game, worth its "
                "value for MAX in mixed strategies (solved by linear programming)."
            )
        role = self.role(e.mover)
        if self._progress is None:
            return f" {role} moves: {self._goal(e.mover)}."
        made, allowed = self._progress(e.state)
        if made == 0:
            start = f" {role} starts its turn (move 1 of {allowed})"
            return f"{start}; {self._goal(e.mover)}." if self.maxn else f"{start}."
        return f" {role} isn't done moving ({made} < {allowed})."

    def _chance(self, e: TraceEvent) -> str:
        outcomes = "outcome vectors" if self.maxn else "outcomes"
        game = self.game
        if isinstance(game, OpponentsAsChance):
            real = game.game.to_move(e.state)
            if real in game.players:
                return (
                    f" {self.name(real)} is modelled as chance: average its moves' "
                    f"{outcomes} by probability."
                )
        return f" Chance moves: average the {outcomes} by probability."
