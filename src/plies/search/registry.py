"""The algorithm registry: every search algorithm by name, with what it can do.

Every front end (the CLI, the web catalogue, tournaments, batch analysis, narration,
tree pictures, :func:`plies.analyze`) reads this registry, so an algorithm registered here
once is available everywhere, or refused with a message that says what it cannot do and
what to use instead.

An entry is an :class:`Algorithm`: a ``search`` callable and its capabilities.  The
built-in ones (:mod:`plies.search.builtin`) are registered as :data:`BUILTIN` names them,
exactly as a plug-in declares one: another distribution adds an algorithm with an entry
point of the group ``plies.algorithms`` in its ``pyproject.toml`` (read when the registry
is first used)::

    [project.entry-points."plies.algorithms"]
    negamax = "mypkg.search:NEGAMAX"      # an Algorithm whose name is "negamax"

and a program adds one with :func:`register`.  A plug-in that cannot be used (it fails to
import, names no :class:`Algorithm`, breaks the contract below, or reuses a name) is a
one-line :class:`~plies.plugins.PluginError` when it is asked for, and the others work.

Every ``search`` meets one contract (checked when the :class:`Algorithm` is made):

``search(game, state, limit=None, *, player=None, tie="first", seed=None, trace=None,
stop=None, on_iteration=None, **keywords) -> SearchResult``

- ``game`` follows the :class:`plies.Game` protocol and ``state`` is the root.  A game
  the algorithm cannot search (its declared ``has_chance``, ``has_simultaneous``,
  ``num_players`` against the entry's ``chance``, ``simultaneous``, ``players``) is
  refused with :class:`~plies.errors.UnsupportedGameError` before any node is searched.
- ``limit`` is a :class:`~plies.search.Limit` or None (search to the end: exact when the
  entry is ``exact``).  ``limit.depth`` counts in ``limit.unit``; ``limit.time`` (seconds)
  and ``limit.nodes`` are budgets, under which the search returns the last iteration
  it completed with ``stopped=True``.  A part of a limit the search cannot honour is an
  :class:`~plies.errors.OptionError`.
- ``player``: whose value ``value`` is (None: the mover at ``state``).  ``tie``:
  ``"first"`` (the first best action in ``actions()`` order) or ``"random"``, seeded by
  ``seed``.
- ``trace``: a callable given every :class:`~plies.search.TraceEvent` (only a
  ``traceable`` entry is ever given one).  ``stop``: an object with ``is_set()``; once it
  is set the search returns its last completed iteration (``stopped=True``).
  ``on_iteration``: called with each completed iteration's result (a search that does
  not deepen calls it at most once).
- ``keywords``: the entry's ``switches`` (engine craft) and ``options``, and
  ``all_values=True`` for an ``analyzable`` entry without a ``searcher``: then
  ``action_values`` holds every root action's value, each searched with a full window.
- The result's ``value`` is what the entry's ``value`` says, from ``player``'s point of
  view; ``action`` the mover's choice (None at a terminal root), ``pv`` the principal
  variation, ``exact`` True when no evaluation was used.

>>> from plies.search.registry import ALGORITHMS, algorithm
>>> list(ALGORITHMS)[:3]
['alphabeta', 'minimax', 'bounded']
>>> algorithm("maxn").chance, algorithm("alphabeta").chance
(True, False)
>>> algorithm("nosuch")
Traceback (most recent call last):
...
plies.errors.OptionError: unknown algorithm 'nosuch'; use one of: alphabeta, minimax, ...
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, Final

from plies.errors import AlgorithmDefinitionError, OptionError, UnsupportedGameError
from plies.game import CHANCE, SIMULTANEOUS
from plies.plugins import PluginError, Registry
from plies.search.common import Searcher, SearchResult
from plies.search.craft import Craft

Search = Callable[..., SearchResult]

ENGINE_SWITCHES: Final = tuple(f.name for f in fields(Craft) if f.name != "order")
"""The engine-craft switches of :func:`plies.alphabeta` (see its docstring): the fields
of :class:`~plies.search.craft.Craft`."""

RULES: Final = ("paranoid", "maxn")
"""The decision rules a search follows, as narration and tree pictures tell them:
``"paranoid"``: the searching player is MAX, every other player MIN, minimising MAX's
value; ``"maxn"``: every player maximises its own component of a utility vector."""

SEARCH_KEYWORDS: Final = ("player", "tie", "seed", "trace", "stop", "on_iteration")
"""The keywords every ``search`` takes (the module docstring says what each means)."""

RESERVED: Final = ("auto", "determinize", "policy", "random")
"""Names no algorithm may take: ``auto`` lets the policy layer choose, and tournament
agents (:mod:`plies.tournament.agents`) call their other kinds so."""


@dataclass(frozen=True, slots=True)
class Algorithm:
    """A search algorithm and its capabilities.

    ``search`` meets the contract in the module docstring.  ``summary`` says what it
    does, ``value`` what the result's ``value`` means.

    ``searcher``: the :class:`~plies.search.common.Searcher` class of a depth-first
    search built on plies' searcher (None for one that is not): it declares
    :attr:`chance`, :attr:`simultaneous` and :attr:`players` (which are then read from
    it), refuses a game up front, and gives :func:`plies.analyze` the value of every
    root action with a full window.  Without one, an entry declares those three itself.

    Capabilities: ``exact``: without a limit it returns the game-theoretic value of its
    model (paranoid, expected, max^n, mixed).  ``heuristic``: it takes a depth limit and
    scores the cutoff with ``evaluate``.  ``depth``: it takes a depth limit at all (False
    for ``mcts``, which has only a time or iteration budget; front ends then offer no
    depth).  ``chance`` / ``simultaneous``: it searches CHANCE / SIMULTANEOUS nodes;
    ``players``: the largest number of players it accepts (None: any).  ``traceable``:
    it reports trace events (narration, tree pictures), which tell its decision
    ``rule`` (one of :data:`RULES`).  ``analyzable``: :func:`plies.analyze` can give
    every root action's value with it (through ``searcher``, or ``search`` takes
    ``all_values``).  ``switches``: the engine-craft keywords it takes, and ``engine``
    those of them that engine craft (``--engine``, ``engine=1``) switches on (empty: it
    takes no engine).  ``options``: its other keywords.

    Raises:
        AlgorithmDefinitionError: the entry breaks the contract (the message says how).
    """

    name: str
    search: Search
    searcher: type[Searcher] | None
    summary: str
    value: str
    exact: bool = True
    heuristic: bool = True
    depth: bool = True
    traceable: bool = True
    analyzable: bool = True
    switches: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    engine: tuple[str, ...] = ()
    rule: str = "paranoid"
    chance: bool = False
    simultaneous: bool = False
    players: int | None = None

    def __post_init__(self) -> None:
        if self.searcher is not None:
            if not (isinstance(self.searcher, type) and issubclass(self.searcher, Searcher)):
                raise AlgorithmDefinitionError(
                    f"algorithm {self.name!r}: searcher must be a "
                    f"plies.search.common.Searcher class or None, got {self.searcher!r}"
                )
            object.__setattr__(self, "chance", bool(self.searcher.chance_ok))
            object.__setattr__(self, "simultaneous", bool(self.searcher.simultaneous_ok))
            object.__setattr__(self, "players", self.searcher.max_players)
        check_algorithm(self)

    def takes(self, keyword: str) -> bool:
        """Whether ``search`` accepts the keyword argument ``keyword``."""
        return _takes(self.search, keyword)

    def refusal(self, game: Any, state: Any = None) -> str | None:
        """Why this algorithm cannot search ``game`` (from ``state``), or None.

        Reads the game's declared facts (``has_chance``, ``has_simultaneous``,
        ``num_players``: the searcher's own up-front check) and, when given, the mover
        at ``state``.
        """
        name = getattr(game, "name", None) or type(game).__name__
        if self.searcher is not None:
            try:
                self.searcher.refuse(game)
            except UnsupportedGameError as err:
                return str(err)
        else:
            reason = self._declared_refusal(game, name)
            if reason is not None:
                return reason
        mover = None
        if state is not None and not game.is_terminal(state):
            mover = game.to_move(state)
        if mover == CHANCE and not self.chance:
            return (f"{self.name} cannot search chance nodes (the position in {name} is "
                    f"one); use {_alternatives(lambda a: a.chance)}")
        if mover == SIMULTANEOUS and not self.simultaneous:
            return (f"{self.name} cannot search simultaneous moves (the position in {name} "
                    f"has them); use {_alternatives(lambda a: a.simultaneous)}")
        return None

    def _declared_refusal(self, game: Any, name: str) -> str | None:
        """:meth:`Searcher.refuse`'s check for an entry without a searcher."""
        if getattr(game, "has_simultaneous", False) and not self.simultaneous:
            return (f"{self.name} cannot search simultaneous moves ({name} has simultaneous "
                    f"moves); use {_alternatives(lambda a: a.simultaneous)}")
        if getattr(game, "has_chance", False) and not self.chance:
            return (f"{self.name} cannot search chance nodes ({name} has chance); use "
                    f"{_alternatives(lambda a: a.chance)}")
        players = int(game.num_players)
        if self.players is not None and players > self.players:
            return (f"{self.name} searches games of at most {self.players} players ({name} "
                    f"has {players}); use {_alternatives(lambda a: a.players is None)}")
        return None

    def check(self, game: Any, state: Any = None) -> None:
        """Raise :class:`UnsupportedGameError` if :meth:`refusal` has a reason."""
        reason = self.refusal(game, state)
        if reason is not None:
            raise UnsupportedGameError(reason)


def check_algorithm(entry: Algorithm) -> None:
    """Check that ``entry`` meets the registry's contract (the module docstring).

    Raises:
        AlgorithmDefinitionError: the first thing wrong with it, and what is accepted.
    """
    name = entry.name

    def wrong(what: str) -> AlgorithmDefinitionError:
        return AlgorithmDefinitionError(f"algorithm {name!r}: {what}")

    if not isinstance(name, str) or not name or any(c in name for c in ":,= \t\n"):
        raise AlgorithmDefinitionError(
            f"an algorithm's name must be a non-empty word without ':', ',', '=' or "
            f"spaces (agent specs read it), got {name!r}"
        )
    if name != name.lower():
        raise wrong("its name must be lower case (agent specs are read in lower case)")
    if name in RESERVED:
        raise wrong(f"the name is reserved ({', '.join(RESERVED)})")
    for text in ("summary", "value"):
        if not isinstance(getattr(entry, text), str) or not getattr(entry, text):
            raise wrong(f"{text} must say in words {_SAYS[text]}")
    for flag in ("exact", "heuristic", "depth", "traceable", "analyzable", "chance",
                 "simultaneous"):
        if not isinstance(getattr(entry, flag), bool):
            raise wrong(f"{flag} must be True or False, got {getattr(entry, flag)!r}")
    for group in ("switches", "options", "engine"):
        words = getattr(entry, group)
        if not isinstance(words, tuple) or not all(isinstance(w, str) for w in words):
            raise wrong(f"{group} must be a tuple of keyword names, got {words!r}")
    if entry.players is not None and (
        isinstance(entry.players, bool) or not isinstance(entry.players, int)
        or entry.players < 1
    ):
        raise wrong(f"players must be None (any) or an int >= 1, got {entry.players!r}")
    if entry.rule not in RULES:
        raise wrong(f"unknown rule {entry.rule!r}; use one of: {', '.join(RULES)}")
    if not set(entry.engine) <= set(entry.switches):
        extra = ", ".join(sorted(set(entry.engine) - set(entry.switches)))
        raise wrong(f"engine switches on {extra}, which are not among its switches")
    _check_search(entry, wrong)


_SAYS: Final = {
    "summary": "what the algorithm does",
    "value": "what the result's value means, for whom",
}


def _check_search(entry: Algorithm, wrong: Callable[[str], AlgorithmDefinitionError]) -> None:
    """``entry.search`` takes what every search is called with (the module docstring)."""
    search = entry.search
    if not callable(search):
        raise wrong(f"search must be callable, got {search!r}")
    try:
        signature = inspect.signature(search)
    except (TypeError, ValueError):
        return  # a builtin without a signature: nothing to check
    params = list(signature.parameters.values())
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    varargs = any(p.kind is p.VAR_POSITIONAL for p in params)
    shape = ("search(game, state, limit=None, *, player=None, tie='first', seed=None, "
             "trace=None, stop=None, on_iteration=None, ...)")
    if len(positional) < 3 and not varargs:
        raise wrong(f"search must take game, state and limit by position: {shape}")
    late = [p.name for p in positional[2:] if p.default is p.empty]
    if late:
        raise wrong(f"search requires {', '.join(late)}; everything after game and state "
                    f"must have a default: {shape}")
    required = [p.name for p in params if p.kind is p.KEYWORD_ONLY and p.default is p.empty]
    if required:
        raise wrong(f"search requires the keywords {', '.join(required)}; a search is "
                    f"called with only these: {shape}")
    wanted = [*SEARCH_KEYWORDS, *entry.switches, *entry.options]
    if entry.analyzable and entry.searcher is None:
        wanted.append("all_values")
    missing = [word for word in dict.fromkeys(wanted) if not _takes(search, word)]
    if missing:
        why = (" (an analyzable entry without a searcher gives every root action's value "
               "with all_values=True)" if missing == ["all_values"] else "")
        raise wrong(f"search does not take the keyword {', '.join(missing)}{why}: {shape}")


def _takes(search: Callable[..., Any], keyword: str) -> bool:
    try:
        params = inspect.signature(search).parameters
    except (TypeError, ValueError):
        return True  # no signature to read: assume it takes keywords
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return True
    param = params.get(keyword)
    return param is not None and param.kind in (param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY)


def _alternatives(fits: Callable[[Algorithm], bool]) -> str:
    found = names(fits)
    return " or ".join(found) if found else "another algorithm"


BUILTIN: Final = {
    "alphabeta": "plies.search.builtin:ALPHABETA",
    "minimax": "plies.search.builtin:MINIMAX",
    "bounded": "plies.search.builtin:BOUNDED",
    "expectiminimax": "plies.search.builtin:EXPECTIMINIMAX",
    "maxn": "plies.search.builtin:MAXN",
    "simultaneous": "plies.search.builtin:SIMULTANEOUS",
    "mcts": "plies.search.builtin:MCTS",
    "paranoid": "plies.search.builtin:PARANOID",
    "brs": "plies.search.builtin:BRS",
    "brs+": "plies.search.builtin:BRS_PLUS",
}
"""The built-in algorithms (:mod:`plies.search.builtin`), as entry points name theirs, in
the order listings show them (plug-ins follow)."""


def _adapt(name: str, obj: Any) -> Algorithm:
    """The registry's check of an entry point's object: an :class:`Algorithm` of that name."""
    if not isinstance(obj, Algorithm):
        raise AlgorithmDefinitionError(
            f"algorithm {name!r}: an entry point of plies.algorithms names a "
            f"plies.search.registry.Algorithm, not {type(obj).__name__}"
        )
    if obj.name != name:
        raise AlgorithmDefinitionError(
            f"algorithm {name!r}: the entry point names the algorithm {obj.name!r}; the "
            f"two names must agree"
        )
    return obj


def _unknown(name: str, known: list[str]) -> Exception:
    return OptionError(f"unknown algorithm {name!r}; use one of: {', '.join(known)}")


REGISTRY: Final[Registry[Algorithm]] = Registry(
    "plies.algorithms", BUILTIN, kind="algorithm", adapt=_adapt, unknown=_unknown
)
"""The algorithms: the built-ins, the entry points of the group ``plies.algorithms`` (read
when first used) and those added with :func:`register`."""

ALGORITHMS: Final[Mapping[str, Algorithm]] = REGISTRY.view()
"""Every search algorithm by the name the CLI, the web app and agent specs use: a
read-only mapping that imports an entry when it is read."""


def algorithm(name: str) -> Algorithm:
    """The algorithm called ``name``.

    Raises:
        OptionError: no algorithm has that name (the message lists them all).
        PluginError: a plug-in that cannot be used (the message says why, and which
            distribution it comes from).
    """
    return REGISTRY.load(name)


def available() -> dict[str, Algorithm]:
    """Every algorithm that can be used, by name, in the order listings show them: a
    plug-in that fails to load is left out (:func:`problems` says why)."""
    return REGISTRY.load_all()[0]


def problems() -> list[PluginError]:
    """What is wrong with the algorithm plug-ins: those that fail to load (all are tried)
    and those whose names clash."""
    REGISTRY.load_all()
    return REGISTRY.problems()


def names(fits: Callable[[Algorithm], bool] | None = None) -> list[str]:
    """The names of the registered algorithms, in the order listings show them (nothing
    is imported); with ``fits``, of the usable ones for which ``fits(entry)`` is true
    (e.g. ``lambda a: a.traceable``).
    """
    if fits is None:
        return REGISTRY.names()
    return [name for name, entry in available().items() if fits(entry)]


def register(entry: Algorithm, *, replace: bool = False) -> None:
    """Add ``entry`` at run time, under its name (see the module docstring for how a
    distribution adds one by entry point).

    Raises:
        AlgorithmDefinitionError: the name is taken (unless ``replace``), or ``entry`` is
            not an :class:`Algorithm`.
    """
    if not isinstance(entry, Algorithm):
        raise AlgorithmDefinitionError(
            f"register() takes a plies.search.registry.Algorithm, not {type(entry).__name__}"
        )
    try:
        REGISTRY.register(entry.name, entry, replace=replace)
    except ValueError as err:
        raise AlgorithmDefinitionError(str(err)) from None


def unregister(name: str) -> None:
    """Remove an algorithm added with :func:`register` (built-ins and plug-ins stay).

    Raises:
        KeyError: no algorithm of that name was registered at run time.
    """
    REGISTRY.unregister(name)


def auto_algorithm(game: Any, state: Any = None) -> Algorithm:
    """The algorithm ``auto`` picks: simultaneous for simultaneous moves, expectiminimax
    for chance, else alpha-beta."""
    mover = None if state is None or game.is_terminal(state) else game.to_move(state)
    if getattr(game, "has_simultaneous", False) or mover == SIMULTANEOUS:
        return ALGORITHMS["simultaneous"]
    if getattr(game, "has_chance", False) or mover == CHANCE:
        return ALGORITHMS["expectiminimax"]
    return ALGORITHMS["alphabeta"]


__all__ = [
    "ALGORITHMS", "BUILTIN", "ENGINE_SWITCHES", "REGISTRY", "RESERVED", "RULES",
    "SEARCH_KEYWORDS", "Algorithm", "algorithm", "auto_algorithm", "available",
    "check_algorithm", "names", "problems", "register", "unregister",
]
