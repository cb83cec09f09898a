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
an exact distribution (probabilities sum to 1), for games small enough to list it.

:class:`Observable` makes any perfect-information game an :class:`ImperfectInformation`
game whose players see everything (one world: the state itself).  Determinization, the
search that averages over sampled worlds, is :func:`plies.search.determinize.determinize`.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from plies.errors import UnsupportedGameError
from plies.game import GameWrapper

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
