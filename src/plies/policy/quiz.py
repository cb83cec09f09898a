"""The lecture's question, "is this a good move?": a quiz graded by the engine's values.

:func:`ask` poses a question at a position: *which move is best for the player to move?*
(``kind="move"``) or *what is this position worth to that player?* (``kind="value"``).
The engine answers it at once (:func:`plies.analyze`: the value of every legal move,
each searched with a full window), but keeps the answer until :meth:`Question.grade`
reads the student's; the verdict says right or wrong and gives the engine's values as
the reason.  Every move as good as the best is a right answer.

:func:`quiz_position` picks a position to ask about: a seeded number of random moves
from the start (or from a given position), never a finished game.

>>> from plies.games import load
>>> game = load("aima-5-2")
>>> q = ask(game, game.initial_state())
>>> q.prompt
'Which move is best for MAX? (a1, a2, a3)'
>>> v = q.grade("a2")
>>> v.right, v.text
(False, 'Wrong: a2 is worth 2 to MAX; the best move is a1, worth 3 (a1 3, a2 2, a3 2).')
>>> ask(game, game.initial_state(), kind="value").grade("3").text
'Right: the position is worth 3 to MAX (best move a1).'
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from plies.errors import OptionError
from plies.game import CHANCE, SIMULTANEOUS, format_action, legal_actions, parse_action
from plies.game.text import number, player_name
from plies.policy.plan import SearchRequest, plan
from plies.policy.session import SearchSession
from plies.search import Limit, SearchResult

Kind = Literal["move", "value"]

KINDS: Final = ("move", "value")
TOLERANCE: Final = 1e-9
"""How far a value answer may be from the engine's and still be right."""
LISTED: Final = 6
"""How many moves' values a verdict names, best first (the answer's is named too)."""


@dataclass(frozen=True)
class Verdict:
    """The grade of one answer: ``right``, the ``best`` moves (their text), every move's
    value for the player (``values``, by text, in the game's order), and ``text``: one
    sentence for the student with the engine's values as the reason."""

    right: bool
    answer: str
    best: tuple[str, ...]
    value: float
    values: dict[str, float]
    text: str


@dataclass(frozen=True)
class Question:
    """A question about ``state`` for ``player`` (the player to move), answered by
    ``result`` (the engine's analysis: ``result.action_values``).  ``scores``: each
    action's value as people read it (``+35 cp``, ``mate in 2``), for a game with play
    defaults; the numbers are written plainly without it."""

    game: Any
    state: Any
    player: int
    kind: Kind
    result: SearchResult
    scores: dict[Any, str] = field(default_factory=dict)
    viewer: int | None = None
    """Whose values the question speaks of (None: the mover's); in a two-player zero-sum
    game, the opponent's: the values of the lecture's minimax tree are MAX's at every
    node, and the mover (MIN) picks the lowest."""

    @property
    def judge(self) -> int:
        """The player the values are for."""
        return self.player if self.viewer is None else self.viewer

    def _prefers(self, value: float) -> float:
        """The mover's preference for a value of :attr:`judge` (higher is better)."""
        return value if self.judge == self.player else -value

    @property
    def moves(self) -> list[str]:
        """The legal moves, as the game writes them."""
        return move_texts(self.game, self.state)

    @property
    def prompt(self) -> str:
        """The question, as the student reads it."""
        return prompt(self.game, self.state, self.player, self.kind, self.judge)

    def values(self) -> dict[str, float]:
        """Every legal move's value for the player, by its text, in the game's order."""
        found = self.result.action_values or {}
        return {format_action(self.game, self.state, a): v for a, v in found.items()}

    def best(self) -> tuple[str, ...]:
        """Every move whose value equals the best one's."""
        values = self.values()
        top = max(values.values(), key=self._prefers)
        return tuple(m for m, v in values.items() if v == top)

    def grade(self, answer: str) -> Verdict:
        """Grade ``answer``: a move's text (``kind="move"``) or a number (``"value"``).

        Raises:
            IllegalActionError: a move answer that names no legal move (the message
                lists them).
            OptionError: a value answer that is not a number.
        """
        who = player_name(self.game, self.judge)
        mover = "" if self.judge == self.player else \
            f" for {player_name(self.game, self.player)}"
        values, best = self.values(), self.best()
        top = values[best[0]]
        shown = {format_action(self.game, self.state, a): t for a, t in self.scores.items()}

        def worth(move: str) -> str:
            return shown.get(move) or number(values[move])

        ranked = sorted(values, key=lambda m: -self._prefers(values[m]))  # best first

        def listing(chosen: str | None) -> str:
            """The values, best first: the first few (chess has 20) and the answer's."""
            named = ranked[:LISTED]
            text = ", ".join(f"{m} {worth(m)}" for m in named)
            if chosen is not None and chosen not in named:
                text += f", ... {chosen} {worth(chosen)}"
            rest = len(ranked) - len(named) - (chosen is not None and chosen not in named)
            return text + (f" and {rest} more" if rest else "")

        exact = "" if self.result.exact else f" at depth {self.result.stats.depth}"
        if self.kind == "value":
            given = _number(answer)
            right = math.isclose(given, top, rel_tol=TOLERANCE, abs_tol=TOLERANCE)
            head = "Right" if right else f"Wrong: not {number(given)};"
            text = (f"{head}: the position is worth {worth(best[0])} to {who}{exact} "
                    f"(best move{mover} {' or '.join(best)})." if right else
                    f"{head} the position is worth {worth(best[0])} to {who}{exact} "
                    f"(best move{mover} {' or '.join(best)}: {listing(None)}).")
            return Verdict(right, answer, best, top, values, text)
        action = parse_action(self.game, self.state, answer)
        chosen = format_action(self.game, self.state, action)
        mine = values[chosen]
        right = mine == top
        listed = listing(chosen)
        also = [m for m in best if m != chosen]
        if right:
            tie = "" if not also else f"; {also[0]} is as good" if len(also) == 1 else \
                f"; {', '.join(also[:-1])} and {also[-1]} are as good"
            text = f"Right: {chosen} is worth {worth(chosen)} to {who}{exact}, the best" \
                   f"{mover}{tie} " \
                   f"({listed})."
        else:
            text = (f"Wrong: {chosen} is worth {worth(chosen)} to {who}{exact}; the best move"
                    f"{mover} is {' or '.join(best)}, worth {worth(best[0])} ({listed}).")
        return Verdict(right, chosen, best, top, values, text)


def move_texts(game: Any, state: Any) -> list[str]:
    """The legal moves at ``state``, as the game writes them."""
    return [format_action(game, state, a) for a in legal_actions(game, state)]


def prompt(game: Any, state: Any, player: int, kind: Kind, viewer: int | None = None) -> str:
    """The question ``kind`` about ``state`` for ``player`` (the mover), as the student
    reads it; ``viewer``: whose value a value question asks for (None: the mover's)."""
    if kind == "value":
        who = player_name(game, player if viewer is None else viewer)
        return f"What is this position worth to {who}? (a number)"
    who = player_name(game, player)
    return f"Which move is best for {who}? ({', '.join(move_texts(game, state))})"


def viewer_of(game: Any, mover: int, player: int | None = None) -> int:
    """Whose values a question at a ``mover``'s turn speaks of: ``player`` when given,
    else in a two-player zero-sum game the first player's (MAX's, as the lecture's
    minimax values are), else the mover's.

    Raises:
        OptionError: ``player`` is not the mover in a game where one player's loss is
            not the other's gain (the mover's best move cannot be read from its values).
    """
    zero_sum = getattr(game, "zero_sum", False) and getattr(game, "num_players", 0) == 2
    if player is not None and player != mover and not zero_sum:
        raise OptionError("a quiz speaks of the mover's values, or of either player's in a "
                          "two-player zero-sum game; leave out the player")
    if player is not None:
        return player
    return 0 if zero_sum else mover


def ask(
    game: Any, state: Any, *, kind: Kind = "move", limit: Limit | None = None,
    algorithm: str = "auto", strict_cutoffs: bool = False, player: int | None = None,
) -> Question:
    """The question ``kind`` at ``state``, answered by the engine.

    ``limit`` None: exactly, or, for a game with play defaults (chess, Othello), as
    :class:`~plies.policy.SearchSession` searches it (its time a move, mate scores; the
    values are then the engine's estimates and the verdict says at which depth).

    Raises:
        OptionError: an unknown kind, a finished game, or a position where nobody chooses
            (chance, or everyone moving at once: no single best move).
    """
    if kind not in KINDS:
        raise OptionError(f"unknown question {kind!r}; ask one of: {', '.join(KINDS)}")
    if game.is_terminal(state):
        raise OptionError("the game is over here: there is no move to ask about")
    mover = game.to_move(state)
    if mover in (CHANCE, SIMULTANEOUS) or mover < 0:
        what = "chance moves" if mover == CHANCE else "everyone moves at once"
        raise OptionError(f"{what} here: a quiz asks where one player chooses")
    viewer = viewer_of(game, mover, player)
    session = SearchSession(game)
    if session.tuned and not strict_cutoffs:
        chosen = session.limit(state=state) if limit is None else session.limit(
            limit.depth, limit.time, limit.nodes, limit.unit)
        found = session.run(state, chosen, algorithm=algorithm, player=viewer, all_values=True)
        scores = {a: s.signed for a, s in session.action_scores(found).items()}
        return Question(game, state, mover, kind, found, scores, viewer)
    request = SearchRequest(algorithm=algorithm, limit=limit, player=viewer, all_values=True,
                            strict_cutoffs=strict_cutoffs)
    result = plan(game, state, request).run(game, state)
    return Question(game, state, mover, kind, result, viewer=viewer)


def quiz_position(
    game: Any, start: Any, rng: random.Random, *, most: int = 8
) -> tuple[Any, list[str]]:
    """A position ``0..most`` random moves after ``start`` where one player is to choose
    (chance moves drawn by their odds): the state and the moves' text."""
    for _ in range(20):
        state, played = start, []
        for _ in range(rng.randint(0, most)):
            if game.is_terminal(state):
                break
            actions: Sequence[Any] = legal_actions(game, state)
            if game.to_move(state) == CHANCE:
                odds = list(game.chance_outcomes(state))
                action = rng.choices([a for a, _ in odds], [p for _, p in odds])[0]
            else:
                action = rng.choice(list(actions))
            played.append(format_action(game, state, action))
            state = game.result(state, action)
        if not game.is_terminal(state) and game.to_move(state) >= 0:
            return state, played
    return start, []


def _number(text: str) -> float:
    try:
        value = float(text.strip())
    except ValueError:
        raise OptionError(f"answer with a number, e.g. 3 or -0.5; got {text.strip()[:40]!r}") \
            from None
    if not math.isfinite(value):
        raise OptionError(f"answer with a finite number; got {text.strip()[:40]!r}")
    return value


__all__ = ["KINDS", "Kind", "Question", "Verdict", "ask", "move_texts", "prompt",
           "quiz_position", "viewer_of"]
