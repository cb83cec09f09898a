"""Hidden information: what a player knows, and the worlds consistent with it.

A game with hidden information (cards in a hand, a coin under a cup) is still a
:class:`~plies.game.Game` over *full* states, the states a referee sees; the perfect-
information searches can search it as if every card were face up.  What a player knows
is a second layer on top, the *information set* (AIMA 5.6, Frank & Basin 1998): the set of
full states the player cannot tell apart.  A game offers it through two methods:

- ``information_set(state, player) -> Hashable``: a key equal for two states exactly when
  ``player`` cannot tell them apart (own cards, public actions; never the opponent's cards).
- ``sample_worlds(state, player, n, rng) -> list[state]``: ``n`` full states drawn from
  ``player``'s belief at ``state``: each has the same information set as ``state`` for
  ``player``, and each is drawn with the probability chance gives it (the deal), not
  weighted by what the opponents' past actions suggest (no opponent model).

and, optionally, ``worlds(state, player) -> [(state, probability), ...]``: that belief as
an exact distribution (probabilities sum to 1), for games small enough to list it; and
``observation(state, player) -> str``: what ``player`` sees, drawn for people (its own
cards, the public ones, the betting), which a front end shows a human player instead of
``render`` (the referee's view, every card face up); see :func:`render_for`.

:class:`Observable` makes any perfect-information game an :class:`ImperfectInformation`
game whose players see everything (one world: the state itself).  Determinization, the
search that averages over sampled worlds, is :func:`plies.search.determinize.determinize`.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from plies.errors import UnsupportedGameError
from plies.wrappers import GameWrapper

S = TypeVar("S")
A = TypeVar("A")

REQUIRED_IMPERFECT = ("information_set", "sample_worlds")
"""The members a game needs to be searched over worlds."""


@runtime_checkable
class ImperfectInformation(Protocol[S]):
    """The information-set interface (see the module docstring for the contract)."""

    def information_set(self, state: S, player: int) -> Hashable:
        """A key that two states share exactly when ``player`` cannot tell them apart."""
        ...

    def sample_worlds(self, state: S, player: int, n: int, rng: random.Random) -> list[S]:
        """``n`` full states drawn from ``player``'s belief at ``state`` (chance's odds)."""
        ...


def is_imperfect(game: Any) -> bool:
    """Whether ``game`` offers the information-set interface."""
    return all(callable(getattr(game, name, None)) for name in REQUIRED_IMPERFECT)


def check_imperfect(game: Any) -> None:
    """Raise :class:`UnsupportedGameError` unless ``game`` offers the interface."""
    missing = [name for name in REQUIRED_IMPERFECT if not callable(getattr(game, name, None))]
    if missing:
        name = getattr(game, "name", type(game).__name__)
        raise UnsupportedGameError(
            f"{name} has no information sets (missing {', '.join(missing)}); searching over "
            "worlds needs a game with information_set and sample_worlds, or plies.Observable(game)"
        )


def render_for(game: Any, state: S, player: int) -> str:
    """What ``player`` sees at ``state``, for people.

    ``game.observation(state, player)`` when the game has it; else, for a game with
    information sets, the information set itself (all the player knows, never more);
    else (perfect information) ``game.render(state)``.
    """
    observe = getattr(game, "observation", None)
    if callable(observe):
        return str(observe(state, player))
    if is_imperfect(game):
        return f"P{player} knows: {game.information_set(state, player)!r}"
    return str(game.render(state))


def sample_from(
    worlds: Sequence[tuple[S, float]], n: int, rng: random.Random
) -> list[S]:
    """``n`` states drawn with replacement from the distribution ``worlds``.

    A game that can list its worlds implements ``sample_worlds`` with this.
    """
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    states = [world for world, _ in worlds]
    weights = [p for _, p in worlds]
    return rng.choices(states, weights, k=n)


class Observable(GameWrapper[S, A]):
    """A perfect-information game as an :class:`ImperfectInformation` one: players see all.

    The information set of a state is the state itself (its transposition key) and the only
    world is the state, so searching over worlds is searching the state.
    """

    def information_set(self, state: S, player: int) -> Hashable:
        return self.key(state)

    def sample_worlds(self, state: S, player: int, n: int, rng: random.Random) -> list[S]:
        if n < 1:
            raise ValueError(f"n must be at least 1, got {n}")
        return [state] * n

    def worlds(self, state: S, player: int) -> list[tuple[S, float]]:
        return [(state, 1.0)]


def check_worlds(
    game: Any, *, playouts: int = 20, seed: int = 0, samples: int = 8, max_steps: int = 500
) -> list[str]:
    """Check the information-set interface of ``game`` along seeded random playouts.

    At every state of each playout and for every player: each sampled world (and each
    listed one, if ``game`` has ``worlds``) has the state's information set; where the player
    is to move, each world has the same legal actions; listed probabilities are positive
    and sum to 1, and the true state is among them.  Returns one line per problem found
    (empty: none), at most one per kind and playout.
    """
    check_imperfect(game)
    rng = random.Random(seed)
    problems: list[str] = []
    can_list = callable(getattr(game, "worlds", None))
    for playout in range(playouts):
        found: dict[str, str] = {}
        state = game.initial_state()
        for _ in range(max_steps):
            for player in range(game.num_players):
                for kind, problem in _world_problems(game, state, player, rng, samples, can_list):
                    found.setdefault(kind, f"playout {playout}: {problem}")
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(list(game.actions(state))))
        problems += found.values()
    return problems


def _world_problems(
    game: Any, state: Any, player: int, rng: random.Random, samples: int, can_list: bool
) -> list[tuple[str, str]]:
    seen = game.information_set(state, player)
    mover = not game.is_terminal(state) and game.to_move(state) == player
    actions = list(game.actions(state)) if mover else None
    worlds = list(game.sample_worlds(state, player, samples, rng))
    problems = []
    if len(worlds) != samples:
        problems.append(("count", f"sample_worlds gave {len(worlds)} worlds for {samples}"))
    if can_list:
        listed = list(game.worlds(state, player))
        total = sum(p for _, p in listed)
        if any(p <= 0 for _, p in listed) or abs(total - 1) > 1e-9:
            problems.append(("odds", f"worlds' probabilities sum to {total}, not 1 (or one <= 0)"))
        if all(w != state for w, _ in listed):
            problems.append(("truth", f"the true state {state!r} is not among P{player}'s worlds"))
        worlds += [w for w, _ in listed]
    for world in worlds:
        if game.information_set(world, player) != seen:
            problems.append(("set", f"P{player} can tell world {world!r} from {state!r}"))
            break
        if actions is not None and list(game.actions(world)) != actions:
            problems.append(("actions", f"P{player}'s actions differ in world {world!r}"))
            break
    return problems
