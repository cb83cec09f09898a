"""Empire: a small Civilization-like strategy game for 3 to 6 players.

Each empire starts with a capital (size 2) and one unit standing in it, on a small map of
plains (``.``), hills (``^``, better to defend) and water (``~``, impassable).  Players
take turns 0, 1, ..., N-1; a turn is several **moves**, and how many is the state's
**Get-Move-Count**: ``min(3, 1 + cities // 2)`` for an empire with cities, 1 for one that
has lost its cities but still has units, and 0 for an empire that has neither (it is out:
its turns are skipped).  Each move is one action of any of the empire's cities or units
(one of them may act several times in a turn):

- ``grow X``: the city on square X gains 1 population (at most 6): food;
- ``study X``: research grows by the city's population: science;
- ``train X``: spend 3 shields for a unit (3 hit points) in city X, if none stands there;
- ``X-Y``: a unit steps to a neighbouring square (north, south, east, west) that is not
  water and holds no unit of its own empire.  Into an enemy unit it *attacks* (written
  ``XxY``): the defender loses 2 hit points (1 in a city or on hills), the attacker 1;
  a unit at 0 hit points is gone, and the attacker stays where it was.  Into an enemy
  city with no unit it *raids* it (``XxY``): a city of population 2 or more loses 1
  population and the unit stays where it was; a city of population 1 is *captured*:
  it changes hands and the unit moves in;
- ``settle X``: a unit founds a city (size 1) on its square, consumed, if no city lies
  within two squares (king's distance);
- ``rest``: only when nothing else is legal.

At the end of an empire's turn each of its cities yields ``1 + population // 2``
shields (the stock is capped at 20) and heals the unit standing in it by 1.  A *turn*
(a round) is over when every empire has had its turn.

**Victory**, checked after every move, in this order:

1. *conquest*: one empire holds every capital (an empire that has lost all its cities and
   units is out, so the last empire standing holds them all);
2. *science*: an empire's research reaches ``science`` (default 400);
3. *score* after ``turns`` turns (default 300, up to 1,500): the highest score wins, a
   tie shares the win.  Score = 3 per city + population + ``10 * research // science``.

Utility: a winner gets ``1 / number of winners`` (1 alone), everyone else 0, so
``utility_range`` is ``(0, 1)``.  The payoffs sum to 1, but ``zero_sum`` stays False: the
evaluation is each empire's own estimate (they do not sum to 1), so no search may derive
one player's value from the others'.  The game is N-player and general-sum as far as
searches are concerned: paranoid (``minimax``, ``alphabeta``) and ``maxn`` both apply.

**Evaluation**: a weighted sum of features from the evaluating empire's point of view
(:data:`FEATURE_NAMES`, hand-set weights in :class:`EmpireWeights`), clipped to ``[0, 1]``
(the utility range) at non-terminal states; the utility at terminal ones.  The game
implements the linear-evaluation protocol by duck typing: ``feature_names``,
``features(state, player)``, ``feature_weights()`` and ``with_weights(weights)``.

**Best-Reply Search hook**: ``pass_turn_to(state, player)`` (inherited from
:class:`~plies.wrappers.MultiMoveTurns`) returns the state in which ``player`` moves at the
start of its turn, the empires in between having skipped their turns (their end-of-turn
income still comes in).

The package: this module holds the rules (:class:`EmpireRules`, :class:`EmpireState`);
:mod:`plies.games.empire.game` the game (:class:`~plies.games.empire.game.Empire`, the
rules under multi-move turns), :mod:`plies.games.empire.evaluation` the features and
weights, :mod:`plies.games.empire.maps` the maps.

Representation: the rules' state is an :class:`EmpireState` of tuples of small ints
(hashable, its own transposition key); a city is ``(square, owner, population)``, a unit
``(square, owner, hit points)``, both sorted by square.  Squares are ``row * width +
col`` with row 0 at the top; people read them as in chess (``a1`` bottom left).  An
action is a tuple ``(kind, from, to)`` of ints.

>>> from plies.games.empire import Empire
>>> game = Empire(map="small")
>>> s = game.initial_state()
>>> [game.format_action(s, a) for a in game.actions(s)]
['grow b6', 'study b6', 'b6-b7', 'b6-a6', 'b6-c6', 'b6-b5']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from plies.errors import GameFormatError
from plies.games.empire.maps import DEFAULT_MAP, HILLS, PLAIN, WATER, parse_map

GROW: Final = 0
STUDY: Final = 1
TRAIN: Final = 2
MOVE: Final = 3
SETTLE: Final = 4
REST: Final = 5

Action = tuple[int, int, int]
"""``(kind, from, to)``: ``to == from`` except for a move."""

REST_ACTION: Final[Action] = (REST, -1, -1)

MAX_SIZE: Final = 6
START_SIZE: Final = 2
MAX_HP: Final = 3
UNIT_COST: Final = 3
MAX_SHIELDS: Final = 20
MAX_MOVES: Final = 3
SETTLE_DISTANCE: Final = 2
SCIENCE_GOAL: Final = 400
TURNS: Final = 300
CITY_POINTS: Final = 3
SCIENCE_POINTS: Final = 10
"""The score's points per city and for research at the goal."""

NAMES: Final = ("Rome", "Egypt", "China", "Maya", "Inca", "Zulu")
LETTERS: Final = "ABCDEF"


class EmpireState(NamedTuple):
    """The rules' state: turn number, cities, units, shields and research per empire."""

    turn: int
    cities: tuple[tuple[int, int, int], ...]  # (square, owner, population), by square
    units: tuple[tuple[int, int, int], ...]  # (square, owner, hit points), by square
    shields: tuple[int, ...]
    science: tuple[int, ...]


class EmpireRules:
    """The rules of Empire as :class:`~plies.wrappers.MultiMoveRules` (the wrapper keeps turns)."""

    zero_sum = False
    name = "empire"
    utility_range = (0.0, 1.0)

    def __init__(
        self, players: int = 3, map: str | Sequence[str] = DEFAULT_MAP,
        turns: int = TURNS, science: int = SCIENCE_GOAL,
    ) -> None:
        if not 3 <= players <= len(NAMES):
            raise GameFormatError(f"players must be 3..{len(NAMES)}, got {players}")
        if turns < 1:
            raise GameFormatError(f"turns must be at least 1, got {turns}")
        if science < 1:
            raise GameFormatError(f"science must be at least 1, got {science}")
        rows = parse_map(map)
        self.rows = rows
        self.height, self.width = len(rows), len(rows[0])
        self.num_players = players
        self.turns = turns
        self.science_goal = science
        cells = "".join(rows)
        self.terrain = tuple(PLAIN if ch.isdigit() else ch for ch in cells)
        capitals = {int(ch) - 1: i for i, ch in enumerate(cells) if ch.isdigit()}
        if len(capitals) < players:
            raise GameFormatError(
                f"the map has {len(capitals)} capitals, too few for {players} players"
            )
        self.capitals = tuple(capitals[p] for p in range(players))
        self.capital_owner_slot = {sq: p for p, sq in enumerate(self.capitals)}
        self.land = sum(1 for t in self.terrain if t != WATER)
        self.neighbours = tuple(self._neighbours(sq) for sq in range(len(cells)))
        self.near = tuple(self._near(sq, SETTLE_DISTANCE) for sq in range(len(cells)))

    def _neighbours(self, sq: int) -> tuple[int, ...]:
        """Land squares north, west, east, south of ``sq`` (reading order)."""
        r, c = divmod(sq, self.width)
        out = []
        for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
            rr, cc = r + dr, c + dc
            inside = 0 <= rr < self.height and 0 <= cc < self.width
            if inside and self.terrain[rr * self.width + cc] != WATER:
                out.append(rr * self.width + cc)
        return tuple(out)

    def _near(self, sq: int, distance: int) -> int:
        """Bitmask of the land squares within king's ``distance`` of ``sq``."""
        r, c = divmod(sq, self.width)
        mask = 0
        for rr in range(max(0, r - distance), min(self.height, r + distance + 1)):
            for cc in range(max(0, c - distance), min(self.width, c + distance + 1)):
                if self.terrain[rr * self.width + cc] != WATER:
                    mask |= 1 << (rr * self.width + cc)
        return mask

    def square(self, sq: int) -> str:
        """A square's name as in chess: column letter, then row counted from the bottom."""
        r, c = divmod(sq, self.width)
        return f"{chr(ord('a') + c)}{self.height - r}"

    # --- the rules ---------------------------------------------------------------------

    def initial_state(self) -> EmpireState:
        n = self.num_players
        cities = tuple(sorted((sq, p, START_SIZE) for p, sq in enumerate(self.capitals)))
        units = tuple(sorted((sq, p, MAX_HP) for p, sq in enumerate(self.capitals)))
        return EmpireState(0, cities, units, (0,) * n, (0,) * n)

    def move_count(self, state: EmpireState, agent: int) -> int:
        """Get-Move-Count: ``min(3, 1 + cities // 2)``; 1 with units only; 0 when out."""
        cities = 0
        for city in state.cities:
            if city[1] == agent:
                cities += 1
        if cities:
            return min(MAX_MOVES, 1 + cities // 2)
        for unit in state.units:
            if unit[1] == agent:
                return 1
        return 0

    def actions(self, state: EmpireState, agent: int) -> list[Action]:
        acts: list[Action] = []
        unit_at = {u[0]: u[1] for u in state.units}
        can_train = state.shields[agent] >= UNIT_COST
        city_mask = 0
        for sq, owner, size in state.cities:
            city_mask |= 1 << sq
            if owner != agent:
                continue
            if size < MAX_SIZE:
                acts.append((GROW, sq, sq))
            acts.append((STUDY, sq, sq))
            if can_train and sq not in unit_at:
                acts.append((TRAIN, sq, sq))
        near = self.near
        for sq, owner, _ in state.units:
            if owner != agent:
                continue
            for to in self.neighbours[sq]:
                if unit_at.get(to, -1) != agent:
                    acts.append((MOVE, sq, to))
            if not near[sq] & city_mask:
                acts.append((SETTLE, sq, sq))
        return acts or [REST_ACTION]

    def result(self, state: EmpireState, agent: int, action: Action) -> EmpireState:
        kind, src, dst = action
        turn, cities, units, shields, science = state
        if kind in (GROW, STUDY):
            i = self._city_index(cities, src)
            sq, owner, size = cities[i]
            if kind == GROW:
                cities = (*cities[:i], (sq, owner, size + 1), *cities[i + 1 :])
            else:
                science = (*science[:agent], science[agent] + size, *science[agent + 1 :])
        elif kind == TRAIN:
            shields = (*shields[:agent], shields[agent] - UNIT_COST, *shields[agent + 1 :])
            units = tuple(sorted((*units, (src, agent, MAX_HP))))
        elif kind == SETTLE:
            units = tuple(u for u in units if u[0] != src)
            cities = tuple(sorted((*cities, (src, agent, 1))))
        elif kind == MOVE:
            cities, units = self._move(cities, units, agent, src, dst)
        elif kind != REST:
            raise ValueError(f"unknown empire action {action!r}")
        return EmpireState(turn, cities, units, shields, science)

    def _city_index(self, cities: tuple[tuple[int, int, int], ...], sq: int) -> int:
        for i, city in enumerate(cities):
            if city[0] == sq:
                return i
        raise ValueError(f"no city on {self.square(sq)}")

    def _move(
        self, cities: tuple[tuple[int, int, int], ...], units: tuple[tuple[int, int, int], ...],
        agent: int, src: int, dst: int,
    ) -> tuple[tuple[tuple[int, int, int], ...], tuple[tuple[int, int, int], ...]]:
        mover = defender = None
        rest = []
        for unit in units:
            if unit[0] == src:
                mover = unit
            elif unit[0] == dst:
                defender = unit
            else:
                rest.append(unit)
        if mover is None:
            raise ValueError(f"no unit on {self.square(src)}")
        if defender is not None:  # an attack: both take damage, the attacker stays put
            cover = self.terrain[dst] == HILLS or any(c[0] == dst for c in cities)
            hp = defender[2] - (1 if cover else 2)
            if hp > 0:
                rest.append((dst, defender[1], hp))
            if mover[2] > 1:
                rest.append((src, agent, mover[2] - 1))
            return cities, tuple(sorted(rest))
        for i, (sq, owner, size) in enumerate(cities):
            if sq == dst:
                if owner != agent:
                    if size > 1:  # the city resists: it shrinks, the unit stays put
                        rest.append(mover)
                        cities = (*cities[:i], (sq, owner, size - 1), *cities[i + 1 :])
                        return cities, tuple(sorted(rest))
                    cities = (*cities[:i], (sq, agent, 1), *cities[i + 1 :])  # captured
                break
        rest.append((dst, agent, mover[2]))
        return cities, tuple(sorted(rest))

    def end_turn(self, state: EmpireState, agent: int) -> EmpireState:
        """Upkeep after ``agent``'s turn: shields from its cities, healing, the turn count."""
        turn, cities, units, shields, science = state
        income = 0
        own = set()
        for sq, owner, size in cities:
            if owner == agent:
                income += 1 + size // 2
                own.add(sq)
        if income:
            stock = min(MAX_SHIELDS, shields[agent] + income)
            shields = (*shields[:agent], stock, *shields[agent + 1 :])
        if own:
            healed = None
            for i, (sq, owner, hp) in enumerate(units):
                if hp < MAX_HP and sq in own:
                    if healed is None:
                        healed = list(units)
                    healed[i] = (sq, owner, hp + 1)
            if healed is not None:
                units = tuple(healed)
        if agent == self.num_players - 1:
            turn += 1
        return EmpireState(turn, cities, units, shields, science)

    # --- the end ---------------------------------------------------------------------------

    def conqueror(self, state: EmpireState) -> int | None:
        """The empire that holds every capital, if one does."""
        slot = self.capital_owner_slot
        owner = None
        held = 0
        for sq, o, _ in state.cities:
            if sq in slot:
                if owner is None:
                    owner = o
                elif o != owner:
                    return None
                held += 1
        return owner if held == len(slot) else None

    def is_terminal(self, state: EmpireState) -> bool:
        return (
            state.turn >= self.turns
            or max(state.science) >= self.science_goal
            or self.conqueror(state) is not None
        )

    def score(self, state: EmpireState, player: int) -> int:
        """3 per city + population + ``10 * research // science``."""
        points = 0
        for _, owner, size in state.cities:
            if owner == player:
                points += CITY_POINTS + size
        return points + SCIENCE_POINTS * min(state.science[player], self.science_goal) // (
            self.science_goal
        )

    def victory(self, state: EmpireState) -> tuple[str, tuple[int, ...]] | None:
        """``(victory, winners)`` at a terminal state (victory: conquest, science,
        score); None while the game goes on."""
        conqueror = self.conqueror(state)
        if conqueror is not None:
            return "conquest", (conqueror,)
        best = max(state.science)
        if best >= self.science_goal:
            return "science", tuple(p for p, s in enumerate(state.science) if s == best)
        if state.turn >= self.turns:
            scores = [self.score(state, p) for p in range(self.num_players)]
            top = max(scores)
            return "score", tuple(p for p, s in enumerate(scores) if s == top)
        return None

    def utility(self, state: EmpireState, player: int) -> float:
        end = self.victory(state)
        if end is None:
            raise ValueError("utility asked of a game that is not over")
        winners = end[1]
        return 1.0 / len(winners) if player in winners else 0.0

    # --- people ----------------------------------------------------------------------------

    def format_action(self, state: EmpireState, action: Action) -> str:
        kind, src, dst = action
        if kind == REST:
            return "rest"
        if kind == MOVE:
            hostile = any(u[0] == dst for u in state.units) or any(
                c[0] == dst and c[1] != self._owner_of_unit(state, src) for c in state.cities
            )
            return f"{self.square(src)}{'x' if hostile else '-'}{self.square(dst)}"
        word = ("grow", "study", "train", "", "settle")[kind]
        return f"{word} {self.square(src)}"

    @staticmethod
    def _owner_of_unit(state: EmpireState, sq: int) -> int:
        for u in state.units:
            if u[0] == sq:
                return u[1]
        return -1

    def player_name(self, player: int) -> str:
        return f"{LETTERS[player]} {NAMES[player]}"

    def render(self, state: EmpireState) -> str:
        w = self.width
        city_at = {c[0]: c for c in state.cities}
        unit_at = {u[0]: u for u in state.units}
        lines = ["    " + "".join(f"{chr(ord('a') + c):<4}" for c in range(w)).rstrip()]
        for r in range(self.height):
            cells = []
            for c in range(w):
                sq = r * w + c
                city, unit = city_at.get(sq), unit_at.get(sq)
                left = f"{LETTERS[city[1]]}{city[2]}" if city else f" {self.terrain[sq]}"
                right = f"{LETTERS[unit[1]].lower()}{unit[2]}" if unit else "  "
                cells.append(left + right)
            lines.append(f"{self.height - r:>2}  " + "".join(cells).rstrip())
        lines.append(
            "A3 = city of A, population 3; a2 = unit of A, 2 hit points; ^ hills, ~ water"
        )
        for p in range(self.num_players):
            own = [c for c in state.cities if c[1] == p]
            hp = sum(u[2] for u in state.units if u[1] == p)
            units = sum(1 for u in state.units if u[1] == p)
            lines.append(
                f"{self.player_name(p)}: capital {self.square(self.capitals[p])}, "
                f"{len(own)} cities, pop {sum(c[2] for c in own)}, {units} units "
                f"({hp} hp), shields {state.shields[p]}, "
                f"science {state.science[p]}/{self.science_goal}, score {self.score(state, p)}"
            )
        end = self.victory(state)
        status = f"turn {state.turn + 1} of {self.turns}"
        if end is not None:
            names = ", ".join(self.player_name(p) for p in end[1])
            status = f"{end[0]} victory: {names} (after {state.turn} turns)"
        lines.append(status)
        return "\n".join(lines)
