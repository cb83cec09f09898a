"""A toy "Civilization": several players, several moves per turn, not zero-sum.

This is the setting of the tutorial's multi-move formulation: every agent makes ``moves``
moves per turn (Get-Move-Count), agents take turns 0, 1, ..., N-1, and a *round* is over
when every agent has used its moves.  The rules below know nothing about turns; they
are a :class:`~plies.wrappers.MultiMoveRules` and :func:`civ` wraps them in
:class:`~plies.wrappers.MultiMoveTurns`, which keeps the agent index, move count and round
counter in the state.

Rules: every civilisation starts with ``food`` food and no cities.  Each move, the
agent chooses one of (in this order, where legal):

- ``farm``: gain 1 food (always legal, so there is always a move);
- ``build``: spend 2 food to found a city (needs 2 food);
- ``raid``: take 1 food from the next civilisation, agent ``(p + 1) mod N`` (needs it
  to have food).

The game ends after ``rounds`` rounds, i.e. after ``rounds * players * moves`` moves in
all.  The rules count moves themselves (the round counter lives in the wrapper's state),
so the rules and the wrapper must be built with the same ``moves``, as :func:`civ` does.

Utility: a civilisation's *score* is ``3 * cities + food``; the utility of player ``p``
is its score minus the best score among the others (positive exactly when ``p`` leads).
The game is not zero-sum.  ``evaluate`` is the same formula on a non-terminal state.
Each own move adds at most 1 to a score, so with ``M = rounds * moves`` moves per player
every utility lies within ``+-(food + M)``, which is ``utility_range``.

With the defaults (3 players, 3 moves, 2 rounds, 1 food) one full round from the start is
9 plies with 2 or 3 actions each and has 786 leaves: small enough to narrate.

Representation: a :class:`CivState` ``(food, cities, moves_made)`` of tuples and an int;
actions are the strings ``"farm"``, ``"build"``, ``"raid"``, typed as they are.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from plies.errors import GameFormatError
from plies.game.declaration import declare
from plies.game.options import INT, Option
from plies.wrappers import MultiMoveTurns

FARM: Final = "farm"
BUILD: Final = "build"
RAID: Final = "raid"
CITY_COST: Final = 2
CITY_POINTS: Final = 3

NAMES: Final = ("Rome", "Egypt", "China", "Maya", "Inca", "Zulu")
"""Display names of players 0..5; further players are ``P6``, ``P7``, ..."""

CIV_PLAYERS: Final = 6
"""As many civilisations as have names (Rome ... Zulu)."""
CIV_MOVES: Final = 5
CIV_ROUNDS: Final = 10


class CivState(NamedTuple):
    """Food and cities per civilisation, and the number of moves made so far (all agents)."""

    food: tuple[int, ...]
    cities: tuple[int, ...]
    moves_made: int


class CivRules:
    """The rules of the toy Civilization as :class:`~plies.wrappers.MultiMoveRules`."""

    zero_sum = False
    name = "civ"

    def __init__(self, players: int = 3, moves: int = 3, rounds: int = 2, food: int = 1) -> None:
        if players < 2:
            raise GameFormatError(f"players must be at least 2, got {players}")
        if moves < 1:
            raise GameFormatError(f"moves must be at least 1, got {moves}")
        if rounds < 1:
            raise GameFormatError(f"rounds must be at least 1, got {rounds}")
        if food < 0:
            raise GameFormatError(f"food must be at least 0, got {food}")
        self.num_players = players
        self.moves = moves
        self.rounds = rounds
        self.food = food
        self.total_moves = rounds * players * moves
        bound = float(food + rounds * moves)
        self.utility_range = (-bound, bound)

    def initial_state(self) -> CivState:
        n = self.num_players
        return CivState((self.food,) * n, (0,) * n, 0)

    def actions(self, state: CivState, agent: int) -> list[str]:
        food = state[0]
        legal = [FARM]
        if food[agent] >= CITY_COST:
            legal.append(BUILD)
        if food[(agent + 1) % self.num_players] > 0:
            legal.append(RAID)
        return legal

    def result(self, state: CivState, agent: int, action: str) -> CivState:
        food, cities, made = state
        new_food = list(food)
        if action == FARM:
            new_food[agent] += 1
        elif action == BUILD:
            new_food[agent] -= CITY_COST
            cities = (*cities[:agent], cities[agent] + 1, *cities[agent + 1 :])
        elif action == RAID:
            new_food[agent] += 1
            new_food[(agent + 1) % self.num_players] -= 1
        else:
            raise ValueError(f"unknown civ action {action!r}")
        return CivState(tuple(new_food), cities, made + 1)

    def is_terminal(self, state: CivState) -> bool:
        return state[2] >= self.total_moves

    def score(self, state: CivState, player: int) -> int:
        """``3 * cities + food`` of ``player``."""
        return CITY_POINTS * state[1][player] + state[0][player]

    def utility(self, state: CivState, player: int) -> float:
        mine = self.score(state, player)
        best_other = max(self.score(state, q) for q in range(self.num_players) if q != player)
        return float(mine - best_other)

    def evaluate(self, state: CivState, player: int) -> float:
        """The utility formula applied to the position as it stands."""
        return self.utility(state, player)

    def format_action(self, state: CivState, action: str) -> str:
        return action

    def player_name(self, player: int) -> str:
        return NAMES[player] if player < len(NAMES) else f"P{player}"

    def render(self, state: CivState) -> str:
        food, cities, made = state
        names = [self.player_name(p) for p in range(self.num_players)]
        width = max(len(n) for n in names)
        rows = [f"{'':<{width}}  food  cities  score"]
        for p, name in enumerate(names):
            rows.append(f"{name:<{width}}  {food[p]:>4}  {cities[p]:>6}  {self.score(state, p):>5}")
        rows.append(f"{made} of {self.total_moves} moves made")
        return "\n".join(rows)


@declare(
    description="Toy Civilization: 3 players, 3 moves per turn (farm, build, raid); not zero-sum",
    options=(
        Option("players", INT, 3, "number of civilisations", bounds=(2, CIV_PLAYERS)),
        Option("moves", INT, 3, "moves per turn", bounds=(1, CIV_MOVES)),
        Option("rounds", INT, 2, "rounds until the game ends", bounds=(1, CIV_ROUNDS)),
        Option("food", INT, 1, "food each civilisation starts with", bounds=(0, 20)),
    ),
)
def civ(
    players: int = 3, moves: int = 3, rounds: int = 2, food: int = 1
) -> MultiMoveTurns[CivState, str]:
    """The toy Civilization with ``moves`` moves per turn, as a :class:`~plies.game.Game`."""
    return MultiMoveTurns(CivRules(players, moves, rounds, food), moves=moves)
