"""Agents for tournaments: a search algorithm with its limits, written as one short spec.

A spec is ``ALGORITHM`` or ``ALGORITHM:KEY=VALUE,KEY=VALUE``::

    alphabeta:depth=4          alpha-beta, 4 plies deep
    expectiminimax:depth=3     for games with chance nodes
    alphabeta:time=0.1,engine=1   engine craft under a 0.1 s budget per move
    random                     a uniformly random legal move

Algorithms: every algorithm of the registry (:func:`agent_algorithms`;
:mod:`plies.search.registry`, plug-ins included), such as ``simultaneous`` (mixed
strategies at simultaneous-move nodes, drawn at random), ``mcts`` (Monte Carlo tree
search: an algorithm without a depth takes ``time`` or ``nodes``, which counts its
iterations) or ``brs`` and ``brs+`` (Best-Reply Search, whose ``depth`` counts layers:
the searcher's turn, then one opponents' reply; ``unit=round`` counts both as one); and
the agents :data:`KINDS`: ``determinize``, ``policy`` and ``random``.  For example
``brs+:time=0.5`` or ``maxn:depth=2``.  Keys: ``depth`` (an int >= 1), ``unit`` (``ply``
or ``round``), ``time`` (seconds > 0 per move), ``nodes`` (an int >= 1 per move),
``engine`` (``1``/``0``: engine craft, for an algorithm whose registry entry has
``engine`` switches: transposition table, move ordering and PVS for alpha-beta, Star1
pruning for expectiminimax; for chess and Othello the engine's search of
:class:`plies.policy.SearchSession`, with quiescence and mate scores for chess),
``weights`` (a weights file of ``plies learn``: the agent evaluates with those feature
weights, so learned and hand-set weights meet on the same game; see
:mod:`plies.linear`), ``worlds`` and ``name`` (below).  A search agent without depth,
time or nodes searches to the end, which chess and Othello refuse (no game would ever
finish).

Hidden information (games with information sets, :mod:`plies.imperfect`): every search
above searches the referee's full state, so on Kuhn or Leduc poker it sees the other
player's card (a "face-up" agent, an upper bound, not a fair player).  ``determinize``
plays fairly: :func:`plies.determinize` samples ``worlds`` states consistent with what
the player sees (an int >= 1, default 20, or ``all``: the exact list, weighted) and
searches each with expectiminimax under the agent's ``depth``/``nodes`` limit (a ``time``
budget is the move's, shared equally by the worlds).  ``policy:name=NAME`` plays the game's fixed
policy ``NAME`` (a game lists them in ``game.policies``, a mapping from a name to a
function ``(state, player) -> action`` that reads only what ``player`` sees).

Agents play with the ``"random"`` tie rule and a per-move seed, so two games between the
same agents differ while every game stays a pure function of its seed.  Budgets by
``time`` are the exception: how deep a search gets in 0.1 s depends on the machine and
its load, so such games are not reproducible; ``nodes`` is the reproducible budget.

>>> spec = parse_agent("alphabeta:depth=4,engine=yes")
>>> spec.algorithm, spec.limit, spec.engine
('alphabeta', Limit(depth=4, unit='ply', time=None, nodes=None), True)
>>> spec.label
'alphabeta:depth=4,engine=1'
>>> parse_agent("alphabeta:dept=4")
Traceback (most recent call last):
...
plies.errors.OptionError: unknown key 'dept' in agent 'alphabeta:dept=4'; keys: depth, ...
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from plies.errors import IllegalActionError, OptionError, UnsupportedGameError
from plies.game import SIMULTANEOUS, default_player_actions, format_action
from plies.imperfect import check_imperfect
from plies.linear import load_weights, weighted
from plies.policy import ALGORITHMS as REGISTRY
from plies.policy import SearchRequest, SearchSession, plan, play_defaults
from plies.search import Limit, determinize
from plies.search.registry import names as algorithm_names

KINDS: Final = ("determinize", "policy", "random")
"""The agents that are not an algorithm of the registry (whose names reserve these)."""
KEYS: Final = ("depth", "unit", "time", "nodes", "engine", "weights", "worlds", "name")
DEFAULT_WORLDS: Final = 20
"""The worlds ``determinize`` samples per move unless ``worlds=`` says otherwise."""


def agent_algorithms() -> list[str]:
    """The algorithms an agent may use: the registry's (read when called, so plug-ins
    are in), then :data:`KINDS`."""
    return [*REGISTRY, *KINDS]


def __getattr__(name: str) -> Any:
    if name == "ALGORITHMS":  # a tuple once; the registry is open now, so it is read live
        return tuple(agent_algorithms())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_TRUE: Final = frozenset({"1", "true", "yes", "on"})
_FALSE: Final = frozenset({"0", "false", "no", "off"})


@dataclass(frozen=True, slots=True)
class AgentSpec:
    """A parsed agent: an algorithm, its per-move :class:`Limit` and the engine switch.

    ``limit`` is None for ``random`` and for a search without any limit (to the end).
    ``weights``: the feature weights the agent evaluates with (read from
    ``weights_file``), or empty for the game's own.  ``worlds``: ``determinize``'s worlds
    per move (None: all of them, listed exactly); ``policy``: the name of the game's fixed
    policy for ``policy``.  ``label`` is the canonical spec text (keys in the order of
    :data:`KEYS`).
    """

    algorithm: str
    limit: Limit | None = None
    engine: bool = False
    weights: tuple[tuple[str, float], ...] = ()
    weights_file: str = ""
    worlds: int | None = None
    policy: str | None = None

    @property
    def label(self) -> str:
        parts: list[str] = []
        if self.limit is not None:
            lim = self.limit
            if lim.depth is not None:
                parts.append(f"depth={lim.depth}")
            if lim.unit != "ply":
                parts.append(f"unit={lim.unit}")
            if lim.time is not None:
                parts.append(f"time={lim.time:g}")
            if lim.nodes is not None:
                parts.append(f"nodes={lim.nodes}")
        if self.engine:
            parts.append("engine=1")
        if self.weights_file:
            parts.append(f"weights={self.weights_file}")
        if self.algorithm == "determinize":
            parts.append(f"worlds={'all' if self.worlds is None else self.worlds}")
        if self.policy is not None:
            parts.append(f"name={self.policy}")
        return self.algorithm + (":" + ",".join(parts) if parts else "")

    @property
    def reproducible(self) -> bool:
        """False when a clock limits the search (its depth then depends on the machine)."""
        return self.limit is None or self.limit.time is None

    def check(self, game: Any) -> None:
        """Refuse a game this agent cannot play, before any game starts.

        Raises:
            UnsupportedGameError: the game has chance (or simultaneous-move) nodes and
                the algorithm cannot search them; the message says which can.
        """
        if self.algorithm == "random":
            return
        if self.algorithm == "policy":
            self._policy(game)
            return
        if self.weights_file:
            load_weights(self.weights_file, game)  # the file is for this game's features
            game = self.evaluating(game)
        if self.algorithm == "determinize":
            check_imperfect(game)
            if self.worlds is None and not callable(getattr(game, "worlds", None)):
                raise OptionError(
                    f"agent {self.label!r}: {game.name} cannot list its worlds; give "
                    f"worlds=N to sample them"
                )
        reason = REGISTRY[_searched(self.algorithm)].refusal(game)
        if reason is not None:
            name = getattr(game, "name", "this game")
            raise UnsupportedGameError(f"agent {self.label!r} cannot play {name}: {reason}")
        if self.limit is None and play_defaults(game) is not None:
            name = getattr(game, "name", "this game")
            raise OptionError(
                f"agent {self.label!r} has no limit, and {name} cannot be searched to the "
                f"end: give it depth=, time= or nodes= (e.g. {self.algorithm}:depth=2)"
            )
        if self.engine:
            plan(game, game.initial_state(), self.request(player=None, seed=0))

    def evaluating(self, game: Any) -> Any:
        """``game`` evaluating with this agent's weights (``game`` itself without any).

        Raises:
            OptionError: the game has no linear evaluation or not these features.
        """
        if not self.weights:
            return game
        cached = _WEIGHTED.get(self.weights)
        if cached is None or cached[0] is not game:
            cached = (game, weighted(game, dict(self.weights)))
            _WEIGHTED[self.weights] = cached
        return cached[1]

    def request(self, player: int | None, seed: int) -> SearchRequest:
        """The policy layer's request for one move of this agent."""
        return SearchRequest(
            self.algorithm, self.limit, player=player, tie="random", seed=seed,
            engine=self.engine,
        )

    def choose(self, game: Any, state: Any, player: int, seed: int) -> tuple[Any, int]:
        """``player``'s action at ``state`` and the nodes searched for it.

        At a SIMULTANEOUS node the action is ``player``'s own component (the caller
        assembles the joint action); ``simultaneous`` draws it from its mixed strategy.
        ``seed`` makes the choice (ties, random moves, mixed strategies) reproducible.
        """
        mover = game.to_move(state)
        if self.algorithm == "policy":
            return self._policy(game)(state, player), 0
        game = self.evaluating(game)
        if self.algorithm == "determinize":
            return self._determinize(game, state, player, seed)
        if self.algorithm == "random":
            rng = random.Random(seed)
            if mover == SIMULTANEOUS:
                return rng.choice(list(_own_actions(game, state, player))), 0
            return rng.choice(list(game.actions(state))), 0
        if self.engine and play_defaults(game) is not None and mover >= 0:
            # Chess and Othello: the engine's search (quiescence and mate scores for
            # chess), as plies play and plies analyze --file search them.
            session = SearchSession(game)
            lim = self.limit
            limit = None if lim is None else session.limit(lim.depth, lim.time, lim.nodes, lim.unit)
            result = session.run(
                state, limit, algorithm=self.algorithm, player=player, tie="random", seed=seed
            )
        else:
            result = plan(game, state, self.request(player, seed)).run(game, state)
        if mover == SIMULTANEOUS:
            strategy = result.strategy or {}
            if not strategy:
                raise UnsupportedGameError(
                    f"agent {self.label!r} found no strategy at a simultaneous-move node"
                )
            moves = list(strategy)
            action = random.Random(seed).choices(moves, [strategy[a] for a in moves])[0]
            return action, result.stats.nodes
        if result.action is None:
            raise UnsupportedGameError(f"agent {self.label!r} chose no move at {state!r}")
        return result.action, result.stats.nodes

    def _policy(self, game: Any) -> Any:
        """The game's fixed policy this agent plays."""
        policies = getattr(game, "policies", None) or {}
        if self.policy not in policies:
            name = getattr(game, "name", "this game")
            known = ", ".join(policies) or "none"
            raise OptionError(
                f"agent {self.label!r}: {name} has no policy {self.policy!r}; its policies: "
                f"{known}"
            )
        return policies[self.policy]

    def _determinize(self, game: Any, state: Any, player: int, seed: int) -> tuple[Any, int]:
        # determinize shares a time budget equally among the worlds itself.
        result = determinize(game, state, self.worlds, self.limit, player=player, seed=seed)
        return result.action, result.stats.nodes


def _searched(algorithm: str) -> str:
    """The registry algorithm that searches for ``algorithm`` (determinize: each world)."""
    return "expectiminimax" if algorithm == "determinize" else algorithm


# The weighted game of each weight vector, with the game it was made from: made once per
# process (an Othello of other weights is cheap, a game that precomputes tables is not).
_WEIGHTED: dict[tuple[tuple[str, float], ...], tuple[Any, Any]] = {}


def _own_actions(game: Any, state: Any, player: int) -> Sequence[Any]:
    custom = getattr(game, "player_actions", None)
    return custom(state, player) if custom is not None else default_player_actions(
        game, state, player
    )


def joint_action(game: Any, state: Any, own: Sequence[Any]) -> Any:
    """The joint action of ``actions(state)`` whose components are ``own`` (player order)."""
    wanted = tuple(own)
    for joint in game.actions(state):
        if tuple(joint) == wanted:
            return joint
    legal = [format_action(game, state, a) for a in game.actions(state)]
    raise IllegalActionError(wanted, legal, context="(no such joint action)")


def parse_agent(text: str) -> AgentSpec:
    """The agent written as ``text`` (see the module docstring).

    Raises:
        OptionError: an empty spec, an unknown algorithm, an unknown or repeated key, an
            item that is not ``key=value``, or a value of the wrong kind.  The message
            quotes the spec and lists what is accepted.
    """
    spec = text.strip()
    name, _, rest = spec.partition(":")
    name = name.strip().lower()
    if not name:
        raise OptionError(
            f"empty agent spec {text!r}; write ALGORITHM[:KEY=VALUE,...], "
            f"e.g. alphabeta:depth=4"
        )
    if name not in REGISTRY and name not in KINDS:
        known = ", ".join(agent_algorithms())
        raise OptionError(f"unknown algorithm {name!r} in agent {spec!r}; use one of: {known}")
    values: dict[str, str] = {}
    for item in (part.strip() for part in rest.split(",")) if rest.strip() else ():
        key, sep, value = item.partition("=")
        key = key.strip().lower()
        if not sep or not key:
            raise OptionError(f"{item!r} is not key=value in agent {spec!r}")
        if key not in KEYS:
            raise OptionError(f"unknown key {key!r} in agent {spec!r}; keys: {', '.join(KEYS)}")
        if key in values:
            raise OptionError(f"key {key!r} given twice in agent {spec!r}")
        values[key] = value.strip()
    if name == "random":
        if values:
            raise OptionError(f"agent {spec!r}: random takes no keys")
        return AgentSpec("random")
    if name == "policy":
        if set(values) != {"name"}:
            raise OptionError(f"agent {spec!r}: policy takes one key, name=NAME")
        return AgentSpec("policy", policy=values["name"])
    if "name" in values:
        raise OptionError(f"agent {spec!r}: name= is for policy agents only")
    worlds = _worlds(values, name, spec)
    depth = _int(values, "depth", spec)
    nodes = _int(values, "nodes", spec)
    time = _seconds(values, spec)
    unit = values.get("unit", "ply").lower()
    if unit not in ("ply", "round"):
        raise OptionError(f"bad value {unit!r} for unit in agent {spec!r}: use ply or round")
    engine = _flag(values, spec)
    path = values.get("weights", "")
    if "weights" in values and not path:
        raise OptionError(f"agent {spec!r}: weights= needs a file written by plies learn")
    weights = tuple(load_weights(path).items()) if path else ()
    searched = REGISTRY.get(name)
    if engine and (searched is None or not searched.engine):
        able = " and ".join(sorted(algorithm_names(lambda a: bool(a.engine))))
        raise OptionError(f"agent {spec!r}: engine=1 applies to {able} only")
    if depth is not None and searched is not None and not searched.depth:
        raise OptionError(
            f"agent {spec!r}: {name} takes no depth (a time or node budget only)"
        )
    limited = depth is not None or time is not None or nodes is not None or unit != "ply"
    limit = Limit(depth, "round" if unit == "round" else "ply", time, nodes) if limited else None
    return AgentSpec(name, limit, engine, weights, path, worlds)


def _worlds(values: dict[str, str], name: str, spec: str) -> int | None:
    if name != "determinize":
        if "worlds" in values:
            raise OptionError(f"agent {spec!r}: worlds= is for determinize agents only")
        return None
    text = values.get("worlds", str(DEFAULT_WORLDS))
    if text.lower() == "all":
        return None
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1:
        raise OptionError(
            f"bad value {text!r} for worlds in agent {spec!r}: use an int >= 1 or all"
        )
    return number


def _int(values: dict[str, str], key: str, spec: str) -> int | None:
    if key not in values:
        return None
    text = values[key]
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1:
        raise OptionError(f"bad value {text!r} for {key} in agent {spec!r}: use an int >= 1")
    return number


def _seconds(values: dict[str, str], spec: str) -> float | None:
    if "time" not in values:
        return None
    text = values["time"]
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not (seconds > 0 and math.isfinite(seconds)):
        raise OptionError(
            f"bad value {text!r} for time in agent {spec!r}: use seconds > 0, e.g. 0.1"
        )
    return seconds


def _flag(values: dict[str, str], spec: str) -> bool:
    text = values.get("engine", "0").lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise OptionError(f"bad value {text!r} for engine in agent {spec!r}: use 1 or 0")
