"""Pacman and its ghosts: a grid game after the Berkeley CS188 Pacman project.

Rules: a maze of walls (``%``), pellets (``.``), power pellets or *capsules* (``o``), one
Pacman (``P``, player 0) and ``ghosts`` ghosts (``G``, players 1..k).  Pacman moves, then
every ghost in turn, then Pacman again: one *round*.  Pacman may go North, South, East,
West or Stop; a ghost must move (no Stop) unless it is walled in.  Ghost ``i`` starts on
the ``i``-th ``G`` of the maze in reading order; with more ghosts than ``G`` cells the
starts are reused in turn (so every layout takes 1 to 4 ghosts).

The score is the project's: -1 for each Pacman move, +10 for each pellet eaten, +500 when
the last pellet is eaten (Pacman wins, the game ends), -500 when a ghost that is not
scared shares Pacman's cell (Pacman is caught, the game ends), +200 for eating a scared
ghost (it goes back to its start, no longer scared).  A capsule makes every ghost
scared for ``scared_time`` ghost moves (40 in the project); each ghost's timer counts
down on its own moves.  A win beats a loss in the same move, as in the project.  The
game also ends, with the score as it stands, once Pacman has made ``max_moves`` moves and
the ghosts have answered the last one, so every game is finite.  (Unlike the project,
scared ghosts move at full speed: the grid has no half steps.)

Utility: Pacman's is the score; every ghost's is minus the score.  With one ghost the
game is zero-sum; with more it is not (the utilities sum to ``(1 - k) * score``), and
paranoid minimax (every ghost minimises Pacman's score) is the project's
multi-ghost minimax.  ``utility_range`` bounds every score the rules allow.

Evaluation: a weighted sum of features (:class:`PacmanWeights`, one frozen dataclass):
the score, the food left, the closeness of the nearest food (1 / maze distance), of the
nearest active ghost and of the nearest scared ghost Pacman can still catch, and the
capsules left.  Maze distances are exact (breadth-first search, precomputed); the nearest
pellet is the first one in a per-cell list of cells by distance, cached by (cell, food).
:data:`SCORE_ONLY` is the plain score, the evaluation under which a depth-limited
Pacman starves (see the tests).

Ghost kinds (:data:`GHOST_KINDS`, the registry's ``ghost`` option): ``minimax`` ghosts are
players that every search searches; ``random`` and ``directional`` ghosts are chance nodes
(:func:`ghost_model`: :class:`~plies.wrappers.OpponentsAsChance` with :func:`random_ghost` or
:func:`directional_ghost`), the model of the project's expectimax agent.

Representation: a :class:`PacmanState` named tuple of ints and tuples, immutable and its
own transposition key; cells are indices ``row * width + col``, food and capsules are
bitmasks over cells.  Actions are the strings ``"North"``, ``"South"``, ``"East"``,
``"West"``, ``"Stop"``; people may type them in any case or by their first letter.

>>> game = Pacman("tiny", ghosts=1)
>>> print(game.render(game.initial_state()))
%%%%%%%
%P...G%
%.%%%.%
%o....%
%%%%%%%
score 0, move 0 of 200, Pacman to move
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from plies.errors import GameFormatError, IllegalActionError
from plies.game import Game
from plies.game.board import Board
from plies.game.declaration import declare
from plies.game.options import INT, Option, OptionType, choice

# The maze, its characters and the directions are the maze module's, re-exported here.
from plies.games.pacman.maze import CAPSULE as CAPSULE
from plies.games.pacman.maze import DEFAULT_LAYOUT as DEFAULT_LAYOUT
from plies.games.pacman.maze import DIRECTIONS as DIRECTIONS
from plies.games.pacman.maze import EAST as EAST
from plies.games.pacman.maze import EMPTY as EMPTY
from plies.games.pacman.maze import FOOD as FOOD
from plies.games.pacman.maze import GHOST as GHOST
from plies.games.pacman.maze import LAYOUTS as LAYOUTS
from plies.games.pacman.maze import NORTH as NORTH
from plies.games.pacman.maze import PACMAN as PACMAN
from plies.games.pacman.maze import SCARED_GHOST as SCARED_GHOST
from plies.games.pacman.maze import SOUTH as SOUTH
from plies.games.pacman.maze import STOP as STOP
from plies.games.pacman.maze import WALL as WALL
from plies.games.pacman.maze import WEST as WEST
from plies.games.pacman.maze import Maze as Maze
from plies.games.pacman.maze import bits
from plies.games.pacman.view import pacman_board
from plies.wrappers import OpponentsAsChance

FOOD_POINTS: Final = 10
TIME_PENALTY: Final = 1
WIN_POINTS: Final = 500
LOSE_POINTS: Final = 500
GHOST_POINTS: Final = 200
SCARED_TIME: Final = 40

PLAYING: Final = 0
WON: Final = 1
LOST: Final = -1

NEAREST_FOOD_CACHE: Final = 200_000
"""How many (cell, food) pairs :meth:`Pacman.food_distance` remembers before it starts over."""


def food_closeness(distance: float) -> float:
    """The food-closeness feature: 1 / distance, 0 on food (none left) or out of reach."""
    return 0.0 if distance in (0, math.inf) else 1.0 / distance


class PacmanState(NamedTuple):
    """A position: where everyone is, what is left to eat, the score, who moves.

    ``scared`` holds each ghost's scared timer (0: active); ``moves`` counts Pacman's
    moves; ``outcome`` is :data:`PLAYING`, :data:`WON` or :data:`LOST`.
    """

    pacman: int
    ghosts: tuple[int, ...]
    scared: tuple[int, ...]
    food: int
    capsules: int
    score: int
    mover: int
    moves: int
    outcome: int


@dataclass(frozen=True, slots=True)
class PacmanWeights:
    """The weights of :meth:`Pacman.evaluate`, a sum of weight times feature (Pacman's view).

    Features: ``score`` (the game score), ``food_left`` (pellets left),
    ``food_closeness`` (1 / maze distance to the nearest pellet, 0 when none is
    reachable), ``ghost_closeness`` (1 / (1 + distance) to the nearest active ghost),
    ``scared_closeness`` (1 / (1 + distance) to the nearest scared ghost whose timer
    outlasts the distance), ``capsules_left``.  A closeness is bounded by 1, so a weight
    below :data:`FOOD_POINTS` never makes leaving a pellet uneaten look better than eating
    it.
    """

    score: float = 1.0
    food_left: float = -2.0
    food_closeness: float = 5.0
    ghost_closeness: float = -10.0
    scared_closeness: float = 50.0
    capsules_left: float = -20.0


SCORE_ONLY: Final = PacmanWeights(1.0, 0.0, 0.0, 0.0, 0.0, 0.0)
"""The plain score as evaluation: the one under which a depth-limited Pacman starves."""

EVALUATIONS: Final = {"features": PacmanWeights(), "score": SCORE_ONLY}
"""The evaluations the registry's ``evaluation`` option names."""

_LETTERS: Final = {"n": NORTH, "s": SOUTH, "e": EAST, "w": WEST, "x": STOP}


class Pacman(Game[PacmanState, str]):
    """Pacman (player 0) against ``ghosts`` ghosts (players 1..k); see the module docstring.

    ``layout`` is a name in :data:`LAYOUTS` or a maze as text (rows split at newlines or
    ``/``).  ``weights`` sets the evaluation (:class:`PacmanWeights`).

    Raises:
        GameFormatError: an unknown layout name, a malformed maze, ``ghosts`` outside
            1..4, ``max_moves`` or ``scared_time`` below 1.
    """

    name = "pacman"

    def __init__(
        self,
        layout: str = DEFAULT_LAYOUT,
        ghosts: int = 2,
        max_moves: int = 200,
        *,
        scared_time: int = SCARED_TIME,
        weights: PacmanWeights = PacmanWeights(),  # frozen: one shared default is safe
    ) -> None:
        if not 1 <= ghosts <= 4:
            raise GameFormatError(f"ghosts must be 1..4, got {ghosts}")
        if max_moves < 1:
            raise GameFormatError(f"max_moves must be at least 1, got {max_moves}")
        if scared_time < 1:
            raise GameFormatError(f"scared_time must be at least 1, got {scared_time}")
        if layout not in LAYOUTS and "/" not in layout and "\n" not in layout:
            raise GameFormatError(
                f"unknown Pacman layout {layout!r}; built-in: {', '.join(LAYOUTS)}, or a maze "
                f"as rows split at / or newlines"
            )
        self.layout = layout
        self.maze = Maze.parse(LAYOUTS.get(layout, layout))
        self.ghosts = ghosts
        self.max_moves = max_moves
        self.scared_time = scared_time
        self.weights = weights
        self.num_players = 1 + ghosts
        self.zero_sum = ghosts == 1
        starts = self.maze.ghost_starts
        self.ghost_starts = tuple(starts[i % len(starts)] for i in range(ghosts))
        food, capsules = self.maze.food.bit_count(), self.maze.capsules.bit_count()
        high = FOOD_POINTS * food + WIN_POINTS + GHOST_POINTS * ghosts * capsules
        low = TIME_PENALTY * max_moves + LOSE_POINTS
        bound = float(max(high, low))
        self.utility_range = (-bound, bound)
        self._moves = self._moves_table()
        self._distance = self._distances()
        # Every open cell's reachable cells by increasing maze distance (with their bits):
        # the nearest pellet is the first one whose bit is in the food mask.
        self._by_distance = {
            source: tuple((1 << c, d) for c, d in sorted(row.items(), key=lambda cd: cd[1]) if d)
            for source, row in self._distance.items()
        }
        # Nearest-food distance by (Pacman's cell, food mask).  A search meets the same pair
        # at many leaves (the ghosts' moves change neither), so the scan above runs once.
        self._nearest_food: dict[tuple[int, int], float] = {}

    # --- the maze ---------------------------------------------------------------------------

    def _moves_table(self) -> dict[int, tuple[tuple[str, int], ...]]:
        maze = self.maze
        table: dict[int, tuple[tuple[str, int], ...]] = {}
        for cell in range(maze.width * maze.height):
            if cell in maze.walls:
                continue
            steps = [(d, maze.neighbour(cell, d)) for d in DIRECTIONS]
            table[cell] = tuple((d, n) for d, n in steps if n is not None)
        return table

    def _distances(self) -> dict[int, dict[int, int]]:
        """Maze distances between every two connected open cells (breadth-first search)."""
        result: dict[int, dict[int, int]] = {}
        for source in self._moves:
            seen = {source: 0}
            queue = deque([source])
            while queue:
                cell = queue.popleft()
                for _, nxt in self._moves[cell]:
                    if nxt not in seen:
                        seen[nxt] = seen[cell] + 1
                        queue.append(nxt)
            result[source] = seen
        return result

    def distance(self, a: int, b: int) -> float:
        """The maze distance between cells ``a`` and ``b`` (inf when unconnected)."""
        return self._distance[a].get(b, math.inf)

    # --- the rules --------------------------------------------------------------------------

    def initial_state(self) -> PacmanState:
        maze = self.maze
        k = self.ghosts
        return PacmanState(
            maze.pacman, self.ghost_starts, (0,) * k, maze.food, maze.capsules, 0, 0, 0, PLAYING
        )

    def to_move(self, state: PacmanState) -> int:
        return state.mover

    def actions(self, state: PacmanState) -> list[str]:
        if state.mover == 0:
            return [d for d, _ in self._moves[state.pacman]] + [STOP]
        legal = [d for d, _ in self._moves[state.ghosts[state.mover - 1]]]
        return legal or [STOP]

    def step(self, cell: int, action: str) -> int:
        """The cell one ``action`` leads to from ``cell`` (Stop: ``cell`` itself).

        Raises:
            ValueError: ``action`` runs into a wall.
        """
        if action == STOP:
            return cell
        for direction, target in self._moves[cell]:
            if direction == action:
                return target
        raise ValueError(f"Pacman cannot move {action!r} from cell {cell}")

    def result(self, state: PacmanState, action: str) -> PacmanState:
        pacman, ghosts, scared, food, capsules, score, mover, moves, outcome = state
        k = self.ghosts
        if mover == 0:
            pacman = self.step(pacman, action)
            score -= TIME_PENALTY
            moves += 1
            bit = 1 << pacman
            if food & bit:
                food ^= bit
                score += FOOD_POINTS
                if not food:
                    score += WIN_POINTS
                    outcome = WON
            if capsules & bit:
                capsules ^= bit
                scared = (self.scared_time,) * k
            movers = range(k)  # Pacman may walk into any ghost
        else:
            g = mover - 1
            cell = self.step(ghosts[g], action)
            ghosts = (*ghosts[:g], cell, *ghosts[g + 1 :])
            if scared[g]:
                scared = (*scared[:g], scared[g] - 1, *scared[g + 1 :])
            movers = range(g, g + 1)  # only the ghost that moved can meet Pacman
        for g in movers:
            if ghosts[g] != pacman:
                continue
            if scared[g]:  # eaten: back to its start, no longer scared
                score += GHOST_POINTS
                ghosts = (*ghosts[:g], self.ghost_starts[g], *ghosts[g + 1 :])
                scared = (*scared[:g], 0, *scared[g + 1 :])
            elif outcome == PLAYING:  # caught once, however many ghosts are there
                score -= LOSE_POINTS
                outcome = LOST
        return PacmanState(
            pacman, ghosts, scared, food, capsules, score, (mover + 1) % (k + 1), moves, outcome
        )

    def is_terminal(self, state: PacmanState) -> bool:
        return state.outcome != PLAYING or (state.moves >= self.max_moves and state.mover == 0)

    def utility(self, state: PacmanState, player: int) -> float:
        """The score for Pacman (player 0), minus the score for every ghost."""
        return float(state.score if player == 0 else -state.score)

    # --- evaluation -------------------------------------------------------------------------

    def food_distance(self, cell: int, food: int) -> float:
        """The maze distance from ``cell`` to the nearest pellet of the mask ``food``.

        0 when ``food`` has a pellet on ``cell``; inf when no pellet is reachable.  Cached
        (the cache is emptied once it holds :data:`NEAREST_FOOD_CACHE` entries).
        """
        memo = self._nearest_food
        distance = memo.get((cell, food))
        if distance is None:
            distance = 0.0 if food >> cell & 1 else math.inf
            if distance:
                for bit, d in self._by_distance[cell]:
                    if food & bit:
                        distance = float(d)
                        break
            if len(memo) >= NEAREST_FOOD_CACHE:
                memo.clear()
            memo[cell, food] = distance
        return distance

    def features(self, state: PacmanState) -> dict[str, float]:
        """The features :class:`PacmanWeights` weighs, by the weights' field names."""
        food, ghost, scared, capsules = self._features(state)
        return {
            "score": float(state.score),
            "food_left": float(food),
            "food_closeness": food_closeness(self.food_distance(state.pacman, state.food)),
            "ghost_closeness": ghost,
            "scared_closeness": scared,
            "capsules_left": float(capsules),
        }

    def _features(self, state: PacmanState) -> tuple[int, float, float, int]:
        """Food left, ghost closeness, scared-ghost closeness, capsules left."""
        here = self._distance[state.pacman]
        active = catchable = math.inf
        for g, t in zip(state.ghosts, state.scared, strict=True):
            d = here.get(g, math.inf)
            if not t:
                active = min(active, d)
            elif d < t:
                catchable = min(catchable, d)
        return (
            state.food.bit_count(), 1.0 / (1.0 + active), 1.0 / (1.0 + catchable),
            state.capsules.bit_count(),
        )

    def evaluate(self, state: PacmanState, player: int) -> float:
        """The weighted feature sum for Pacman, negated for a ghost; the utility at the end.

        Clamped to ``utility_range`` (bounded searches rely on it).
        """
        if state.outcome != PLAYING or (state.moves >= self.max_moves and state.mover == 0):
            return float(state.score if player == 0 else -state.score)
        w = self.weights
        food, ghost, scared, capsules = self._features(state)
        value = (
            w.score * state.score + w.food_left * food
            + w.food_closeness * food_closeness(self.food_distance(state.pacman, state.food))
            + w.ghost_closeness * ghost + w.scared_closeness * scared
            + w.capsules_left * capsules
        )
        lo, hi = self.utility_range
        value = min(max(value, lo), hi)
        return value if player == 0 else -value

    # --- for people -------------------------------------------------------------------------

    def format_action(self, state: PacmanState, action: str) -> str:
        return action

    def parse_action(self, state: PacmanState, text: str) -> str:
        """``North``/``South``/``East``/``West``/``Stop`` in any case, or ``n s e w x``."""
        word = text.strip().lower()
        word = _LETTERS.get(word, word)
        legal = self.actions(state)
        for action in legal:
            if action.lower() == word.lower():
                return action
        raise IllegalActionError(text, legal)

    def player_name(self, player: int) -> str:
        return "Pacman" if player == 0 else f"Ghost {player}"

    def board(self, state: PacmanState, last: str | None = None) -> Board:
        """The maze; Pacman's moves are clicks on the cell he would step to (his own:
        Stop).  The caption is the score line, and how long the ghosts stay scared."""
        cell_moves: list[str | None] = [None] * (self.maze.width * self.maze.height)
        if state.mover == 0 and not self.is_terminal(state):
            for action in self.actions(state):
                cell_moves[self.step(state.pacman, action)] = action
        scared = [t for t in state.scared if t]
        caption = self.render(state).rsplit("\n", 1)[1] + (
            f"; ghosts scared for {max(scared)} more moves" if scared else ""
        )
        return pacman_board(self.maze, state.pacman, state.ghosts, state.scared, state.food,
                            state.capsules, cell_moves, caption)

    def render(self, state: PacmanState) -> str:
        """The maze as text, then the score, the move count and who moves (or the result)."""
        maze = self.maze
        grid = [
            [WALL if r * maze.width + c in maze.walls else EMPTY for c in range(maze.width)]
            for r in range(maze.height)
        ]
        for mask, char in ((state.food, FOOD), (state.capsules, CAPSULE)):
            for cell in bits(mask):
                grid[cell // maze.width][cell % maze.width] = char
        grid[state.pacman // maze.width][state.pacman % maze.width] = PACMAN
        for cell, timer in zip(state.ghosts, state.scared, strict=True):
            grid[cell // maze.width][cell % maze.width] = SCARED_GHOST if timer else GHOST
        status = f"score {state.score}, move {state.moves} of {self.max_moves}, "
        if state.outcome == WON:
            status += "Pacman wins"
        elif state.outcome == LOST:
            status += "Pacman is caught"
        elif self.is_terminal(state):
            status += "out of moves"
        else:
            status += f"{self.player_name(state.mover)} to move"
        return "\n".join("".join(row) for row in grid) + "\n" + status

    def order_hint(self, state: PacmanState, actions: Sequence[str]) -> list[str]:
        """Pacman: moves onto food or a capsule first; ghosts: moves towards Pacman first."""
        if state.mover == 0:
            eats = state.food | state.capsules

            def pacman_key(a: str) -> int:
                return 0 if eats >> self.step(state.pacman, a) & 1 else 1

            return sorted(actions, key=pacman_key)
        cell = state.ghosts[state.mover - 1]
        here = self._distance[state.pacman]
        return sorted(actions, key=lambda a: here.get(self.step(cell, a), math.inf))


GHOST_KINDS: Final = ("minimax", "random", "directional")
"""How the ghosts play: searched as adversaries (paranoid minimax), or chance that follows
:func:`random_ghost` or :func:`directional_ghost` (expectimax's model, sampled in play)."""


def _parse_layout(text: str) -> str:
    for name in LAYOUTS:  # a built-in name, in any case
        if text.strip().lower() == name.lower():
            return name
    if "/" not in text and "\n" not in text:
        raise ValueError(text)
    return text


LAYOUT: Final = OptionType(
    "layout name (" + ", ".join(LAYOUTS) + ") or maze rows split at /",
    _parse_layout,
    lambda v: isinstance(v, str),
)
"""A built-in Pacman maze by name, or a maze as text: ``%%%%/%P.G%/%%%%``."""
MAX_GHOSTS: Final = 4
"""The project's largest ghost crew (trickyClassic has four ghost starts)."""
MAX_MOVES: Final = 5_000


@declare(
    description="Pacman against 1-4 ghosts (CS188 scoring): pellets, capsules, scared ghosts",
    options=(
        Option(
            "layout", LAYOUT, DEFAULT_LAYOUT,
            "a built-in maze or your own (% wall . pellet o capsule P Pacman G ghost)",
        ),
        Option("ghosts", INT, 2, "number of ghosts", bounds=(1, MAX_GHOSTS)),
        Option(
            "max_moves", INT, 200, "Pacman moves after which the game ends",
            bounds=(1, MAX_MOVES),
        ),
        Option(
            "evaluation", choice(*EVALUATIONS), "features",
            "features: the weighted features; score: the plain score (Pacman starves)",
        ),
        Option(
            "ghost", choice(*GHOST_KINDS), "minimax",
            "minimax: ghosts are searched players; random, directional: ghosts are "
            "chance with that policy (expectimax; sampled in play)",
        ),
    ),
)
def pacman(
    layout: str = DEFAULT_LAYOUT, ghosts: int = 2, max_moves: int = 200,
    evaluation: str = "features", ghost: str = "minimax",
) -> Game[PacmanState, str]:
    """The registry's factory: a :class:`Pacman` whose weights :data:`EVALUATIONS` names.

    ``ghost`` (one of :data:`GHOST_KINDS`): ``minimax`` gives the game itself, every ghost
    a player; ``random`` or ``directional`` gives :func:`ghost_model`, the game with the
    ghosts as chance nodes, so ``expectiminimax`` is the project's expectimax agent and
    ``plies play`` draws the ghosts' moves from that policy.

    Raises:
        GameFormatError: an ``evaluation`` that is not in :data:`EVALUATIONS`, a ``ghost``
            that is not in :data:`GHOST_KINDS`, or what :class:`Pacman` refuses.
    """
    if evaluation not in EVALUATIONS:
        raise GameFormatError(
            f"unknown Pacman evaluation {evaluation!r}; accepted: {', '.join(EVALUATIONS)}"
        )
    if ghost not in GHOST_KINDS:
        raise GameFormatError(
            f"unknown Pacman ghost kind {ghost!r}; accepted: {', '.join(GHOST_KINDS)}"
        )
    return ghost_model(Pacman(layout, ghosts, max_moves, weights=EVALUATIONS[evaluation]), ghost)


# --- ghost models -----------------------------------------------------------------------------


def random_ghost(game: Pacman) -> Callable[[PacmanState], list[tuple[str, float]]]:
    """The project's RandomGhost as a policy: every legal move of the ghost equally likely.

    For :class:`~plies.wrappers.OpponentsAsChance` (``policy=``); the same as its default.
    """

    def policy(state: PacmanState) -> list[tuple[str, float]]:
        legal = game.actions(state)
        return [(a, 1.0 / len(legal)) for a in legal]

    return policy


def directional_ghost(
    game: Pacman, attack: float = 0.8, flee: float = 0.8
) -> Callable[[PacmanState], list[tuple[str, float]]]:
    """The project's DirectionalGhost as a policy for :class:`~plies.wrappers.OpponentsAsChance`.

    An active ghost puts probability ``attack`` on the moves that bring it nearest to
    Pacman (by maze distance, shared equally) and spreads the rest over all its legal
    moves; a scared ghost does the same with ``flee`` on the moves that take it farthest.

    Raises:
        ValueError: ``attack`` or ``flee`` outside 0..1.
    """
    if not (0.0 <= attack <= 1.0 and 0.0 <= flee <= 1.0):
        raise ValueError(f"attack and flee are probabilities, got {attack} and {flee}")

    # The odds depend only on the ghost's cell, Pacman's cell and whether it is scared, and
    # a search asks for them at every ghost node: each triple is computed once.
    known: dict[tuple[int, int, bool], list[tuple[str, float]]] = {}

    def policy(state: PacmanState) -> list[tuple[str, float]]:
        g = state.mover - 1
        scared = state.scared[g] > 0
        where = (state.ghosts[g], state.pacman, scared)
        odds = known.get(where)
        if odds is None:
            legal = game.actions(state)
            after = [game.distance(state.pacman, game.step(state.ghosts[g], a)) for a in legal]
            target = max(after) if scared else min(after)
            best = [a for a, d in zip(legal, after, strict=True) if d == target]
            bias = flee if scared else attack
            odds = known[where] = [
                (a, (bias / len(best) if a in best else 0.0) + (1.0 - bias) / len(legal))
                for a in legal
            ]
        return list(odds)

    return policy


def ghost_policy(game: Pacman, kind: str) -> Callable[[PacmanState], list[tuple[str, float]]]:
    """The policy of the ghost kind ``kind``: ``random`` or ``directional`` (the defaults).

    Raises:
        GameFormatError: any other kind (``minimax`` ghosts search, they have no policy).
    """
    if kind == "random":
        return random_ghost(game)
    if kind == "directional":
        return directional_ghost(game)
    raise GameFormatError(f"ghost kind {kind!r} has no policy; accepted: random, directional")


def ghost_model(game: Pacman, kind: str) -> Game[PacmanState, str]:
    """``game`` with its ghosts played as ``kind`` says (one of :data:`GHOST_KINDS`).

    ``minimax``: ``game`` itself.  ``random``/``directional``: an
    :class:`~plies.wrappers.OpponentsAsChance` over every ghost with :func:`ghost_policy`, so a
    ghost's move is a chance node (it still counts as a ply for depth, so depth in rounds
    means what it means for minimax ghosts).

    Raises:
        GameFormatError: a kind not in :data:`GHOST_KINDS`.
    """
    if kind == "minimax":
        return game
    return OpponentsAsChance(game, range(1, game.num_players), policy=ghost_policy(game, kind))
