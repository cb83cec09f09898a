"""The game model: the tuple the literature uses, for N players, chance and simultaneous moves.

A game is an object with ``num_players``, ``initial_state``, ``to_move``, ``actions``,
``result``, ``is_terminal`` and ``utility`` (AIMA's formulation, for any number of
players).  Everything else is optional and has a documented default, which a class gets
by subclassing :class:`Game`; a duck-typed object works too, because the searches read the
optional members through :func:`game_ops`.

Two wrappers change *who moves*, leaving the rules alone:

- :class:`MultiMoveTurns` gives every player several moves per turn, exactly as the
  "Civilization" formulation does it (agent index, move count, round counter).
- :class:`OpponentsAsChance` turns chosen players into chance nodes (uniformly random or
  a given policy), as in expectimax Pacman.
"""

from __future__ import annotations

import inspect
import math
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Generic, NamedTuple, Protocol, TypeVar

from plies.errors import GameDefinitionError, IllegalActionError, UnsupportedGameError

S = TypeVar("S")
A = TypeVar("A")

CHANCE: Final = -1
"""``to_move`` returns this at chance nodes; ``chance_outcomes`` then gives the odds."""

SIMULTANEOUS: Final = -2
"""``to_move`` returns this where several players choose at once; ``result`` then takes a
joint action (a tuple with one action per player, in player order)."""


# --- the game model -------------------------------------------------------------------------

#: The members every game defines (AIMA's formulation for N players).
REQUIRED: Final = (
    "num_players", "initial_state", "to_move", "actions", "result", "is_terminal", "utility",
)

if TYPE_CHECKING:
    _ProtocolMeta = type
else:  # typing's own metaclass of protocols, reached without naming a private class
    _ProtocolMeta = type(Protocol)


class _Hook:
    """A hook declared on :class:`Game` that a game has only if it provides it.

    On the class it reads None (the documented default); on a game that leaves it out the
    lookup fails, so ``getattr(game, name, None)`` is None and ``hasattr(game, name)`` is
    False, exactly as for a game that never heard of the hook, and a wrapper's
    ``__getattr__`` can forward it to the wrapped game.  A subclass or an instance that
    sets the member overrides it.
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: object, owner: type | None = None) -> None:
        if instance is None:
            return None
        raise AttributeError(self.name)


class GameMeta(_ProtocolMeta):
    """The metaclass of :class:`Game`: a game is checked for completeness when it is made.

    After ``__init__`` has run (so members set there count, as do a dataclass's fields),
    :func:`check_definition` raises :class:`~plies.errors.GameDefinitionError` naming
    what is missing.  Unpickling and copying do not call the class, so they skip it.
    """

    if not TYPE_CHECKING:  # a typed __call__ would change what mypy infers for Game()

        def __call__(cls, *args, **kwargs):
            game = super().__call__(*args, **kwargs)
            check_definition(game)
            return game

        @property
        def __signature__(cls):
            # inspect.signature(SomeGame) would otherwise show this __call__'s (*args,
            # **kwargs) rather than the parameters of SomeGame.__init__.
            params = list(inspect.signature(cls.__init__).parameters.values())
            return inspect.Signature(params[1:])


class Game(Protocol[S, A], metaclass=GameMeta):
    """The game model every search in plies reads.

    Players are ``0 .. num_players - 1``.  ``to_move`` may return the same player for
    consecutive states (several moves per turn); search handles that with stacked max
    (or min) layers and never flips a sign.

    Subclass it to inherit the defaults below; a subclass that lacks a required member
    fails when it is made, with a :class:`~plies.errors.GameDefinitionError` naming it.
    A duck-typed object (no subclassing) works too: searches and front ends read every
    optional member through :func:`game_ops` or :func:`hook`, where absence means the
    default.  Each default means exactly what leaving the member out means.

    ======================  =========  ==================================================
    member                  kind       default (= what leaving it out means)
    ======================  =========  ==================================================
    ``num_players``         required   (an int >= 1)
    ``initial_state``       required
    ``to_move``             required   (a player, :data:`CHANCE` or :data:`SIMULTANEOUS`)
    ``actions``             required   (joint actions at SIMULTANEOUS nodes)
    ``result``              required   (must not mutate the state)
    ``is_terminal``         required
    ``utility``             required   (payoff of a player at a terminal state)
    ``utility_range``       fact       ``(-inf, inf)``: no known bounds
    ``zero_sum``            fact       False: utilities need not sum to a constant
    ``has_chance``          fact       False: no CHANCE nodes
    ``has_simultaneous``    fact       False: no SIMULTANEOUS nodes
    ``name``                fact       ``"game"``
    ``evaluate``            method     utility at terminals, else the middle of a finite
                                       ``utility_range``, else 0.0
    ``chance_outcomes``     method     uniform over ``actions`` (at CHANCE nodes)
    ``player_actions``      method     the player's components of the joint actions
    ``key``                 method     the state itself (transposition key)
    ``format_action``       method     ``str(action)``
    ``format_player_action`` method    ``str(action)`` (one player's own action)
    ``parse_action``        method     the legal action whose ``format_action`` text
                                       matches, ignoring case and blanks
    ``split_moves``         method     split a move list at blanks and commas
    ``render``              method     ``str(state)``
    ``player_name``         method     ``"P0"``, ``"P1"``, ...
    ``order_hint``          hook       absent: no move-ordering hint (engine craft)
    ``value_bounds``        hook       absent: no bounds on exact values (exact engines)
    ``sufficient_actions``  hook       absent: every action may be best (exact engines)
    ``noisy_actions``       hook       absent: no quiescence search
    ``extension``           hook       absent: no extensions (``extensions`` craft)
    ``null_move``           hook       absent: no null-move pruning
    ``is_quiet``            hook       absent: no late-move reductions
    ``turn_progress``       hook       absent: turns are not narrated as move counts
    ``label``               hook       absent: nodes carry no label (tree pictures)
    ``pass_turn_to``        hook       absent: no out-of-turn moves (``brs`` refuses
                                       games of 3+ players; ``brs+`` needs none)
    ``random_playout``      hook       absent: playouts call ``actions`` and ``result``
                                       per ply (:func:`default_random_playout`)
    ======================  =========  ==================================================

    A *hook* is absent unless the game provides it, because providing one changes what a
    search does (ordering, pruning, extensions): ``getattr(game, "order_hint", None)`` is
    None and ``hasattr(game, "order_hint")`` False for a game without one.  Signatures:
    ``order_hint(state, actions) -> actions reordered``,
    ``value_bounds(state, player) -> (lo, hi)`` on the exact value,
    ``sufficient_actions(state, actions) -> a subset that keeps a best action``,
    ``noisy_actions(state) -> actions``, ``extension(state, action, child) -> plies``
    (extra depth for ``child``, e.g. 1 for a check), ``null_move(state) -> state | None``
    (the position after the mover passes, None where a pass is no sound test),
    ``is_quiet(state, action) -> bool`` (a move late-move reductions may reduce),
    ``turn_progress(state) -> (made, allowed)``,
    ``label(state) -> str | None``,
    ``pass_turn_to(state, player) -> state`` (the state in which ``player`` moves at the
    start of its turn, the players in between, and the rest of the mover's turn,
    skipped; ``state`` itself when ``player`` starts its turn there; the terminal state if
    the game ends on the way; ValueError or None for a player who has no turn to take,
    e.g. one out of the game: Best-Reply Search's out-of-turn reply),
    ``random_playout(state, rng, limit) -> state`` (a fast path for Monte Carlo playouts:
    the state reached after uniformly random legal moves, chance outcomes by their
    probability, until the game ends or ``limit`` plies were played; it must draw from the
    generator exactly as :func:`default_random_playout` does, so that both give the same
    state for the same seed, and a wrapper that changes moves or states must not forward
    it).  Read any optional member with :func:`hook`, which
    answers None for a hook left out and for a method left at its default.
    """

    num_players: int
    #: Known bounds ``(lo, hi)`` of every ``utility``; enables bounded minimax.
    utility_range: tuple[float, float] = (-math.inf, math.inf)
    #: True when the utilities of every terminal state sum to the same constant.
    zero_sum: bool = False
    #: True when the game has CHANCE nodes (searches then need expectiminimax or maxn).
    has_chance: bool = False
    #: True when the game has SIMULTANEOUS nodes (searches then need ``simultaneous``).
    has_simultaneous: bool = False
    #: Short registry-style name, shown by the CLI.
    name: str = "game"

    # Hooks (signatures in the table above): absent unless the game provides one.
    if TYPE_CHECKING:
        order_hint: Callable[[S, Sequence[A]], Sequence[A]] | None = None
        value_bounds: Callable[[S, int], tuple[float, float]] | None = None
        sufficient_actions: Callable[[S, Sequence[A]], Sequence[A]] | None = None
        noisy_actions: Callable[[S], Sequence[A]] | None = None
        extension: Callable[[S, A, S], int] | None = None
        null_move: Callable[[S], S | None] | None = None
        is_quiet: Callable[[S, A], bool] | None = None
        turn_progress: Callable[[S], tuple[int, int]] | None = None
        label: Callable[[S], str | None] | None = None
        pass_turn_to: Callable[[S, int], S | None] | None = None
        random_playout: Callable[[S, random.Random, int], S] | None = None
    else:
        order_hint = _Hook()
        value_bounds = _Hook()
        sufficient_actions = _Hook()
        noisy_actions = _Hook()
        extension = _Hook()
        null_move = _Hook()
        is_quiet = _Hook()
        turn_progress = _Hook()
        label = _Hook()
        pass_turn_to = _Hook()
        random_playout = _Hook()

    def initial_state(self) -> S: ...

    def to_move(self, state: S) -> int:
        """The player to move, or :data:`CHANCE`, or :data:`SIMULTANEOUS`."""
        ...

    def actions(self, state: S) -> Sequence[A]:
        """Legal actions of the mover in a stable order (at SIMULTANEOUS nodes: joint actions)."""
        ...

    def result(self, state: S, action: A) -> S:
        """The state after ``action``; must not mutate ``state``."""
        ...

    def is_terminal(self, state: S) -> bool:
        """True when the game is over; ``to_move`` and ``actions`` are then not asked."""
        ...

    def utility(self, state: S, player: int) -> float:
        """Payoff of ``player`` at a terminal ``state`` (may raise before the end)."""
        ...

    def evaluate(self, state: S, player: int) -> float:
        """Heuristic value of ``state`` for ``player``, used at a depth cutoff.

        At terminal states it should equal ``utility``, and it should lie inside
        ``utility_range`` (bounded minimax relies on that).

        Default: the utility at terminal states, otherwise the midpoint of
        ``utility_range`` when it is finite, otherwise 0.0 (a neutral guess).
        """
        return default_evaluate(self, state, player)

    def chance_outcomes(self, state: S) -> Sequence[tuple[A, float]]:
        """``(outcome, probability)`` pairs at a CHANCE node.  Default: uniform over ``actions``."""
        return uniform(self.actions(state))

    def player_actions(self, state: S, player: int) -> Sequence[A]:
        """One player's own actions at a SIMULTANEOUS node.

        Default: the distinct ``player``-th components of the joint actions from
        ``actions(state)``, in order of first appearance.
        """
        return default_player_actions(self, state, player)

    def key(self, state: S) -> Hashable:
        """Transposition key of ``state``.  Default: the state itself."""
        return state

    def format_action(self, state: S, action: A) -> str:
        """How a person reads and types ``action``.  Default: ``str(action)``."""
        return str(action)

    def format_player_action(self, state: S, player: int, action: Any) -> str:
        """How a person reads ``player``'s own ``action`` at a SIMULTANEOUS node.

        Default: ``str(action)`` (``format_action`` shows joint actions).
        """
        return str(action)

    def parse_action(self, state: S, text: str) -> A:
        """The legal action at ``state`` written as ``text``.

        Default: the legal action whose ``format_action`` text equals ``text``, ignoring
        case and surrounding blanks.  Raises :class:`~plies.errors.IllegalActionError`
        listing the legal actions when none matches.
        """
        return match_action(self, state, text)  # type: ignore[no-any-return]

    def split_moves(self, text: str) -> list[str]:
        """The move tokens of a typed move list.  Default: split at blanks and commas."""
        return text.replace(",", " ").split()

    def render(self, state: S) -> str:
        """A picture of ``state`` for the terminal.  Default: ``str(state)``."""
        return str(state)

    def player_name(self, player: int) -> str:
        """A player's display name.  Default: ``"P0"``, ``"P1"``, ..."""
        return f"P{player}"


#: Optional facts: plain values with a default (see the table in :class:`Game`).
FACTS: Final = ("utility_range", "zero_sum", "has_chance", "has_simultaneous", "name")
#: Optional methods: :class:`Game` implements the default.
METHODS: Final = (
    "evaluate", "chance_outcomes", "player_actions", "key", "format_action",
    "format_player_action", "parse_action", "split_moves", "render", "player_name",
)
#: Hooks: absent unless the game provides one, because one changes what a search does.
HOOKS: Final = (
    "order_hint", "value_bounds", "sufficient_actions", "noisy_actions", "extension",
    "null_move", "is_quiet", "turn_progress", "label", "pass_turn_to",
    "random_playout",
)


def hook(game: Any, name: str) -> Callable[..., Any] | None:
    """``game``'s optional method or hook ``name``; None where the game keeps the default.

    None when the game leaves the member out (a duck-typed game), sets it to None, or
    inherits :class:`Game`'s default method: a caller then does what the default does.
    So ``hook(game, "order_hint")`` is None for every game without a move-ordering hint,
    and searches behave exactly as with no hook at all.

    Raises:
        ValueError: ``name`` is not an optional method or hook of the game model.

    >>> from plies.games import load
    >>> hook(load("connect4"), "order_hint") is not None, hook(load("nim"), "order_hint")
    (True, None)
    >>> hook(load("nim"), "player_name") is None  # Game's default: "P0", "P1"
    True
    """
    if name not in METHODS and name not in HOOKS:
        raise ValueError(
            f"{name!r} is not an optional method or hook of plies.Game; "
            f"those are {', '.join(METHODS + HOOKS)}"
        )
    member = getattr(game, name, None)
    if member is None or not callable(member):
        return None
    if getattr(member, "__func__", None) is Game.__dict__.get(name):
        return None  # Game's own default method
    return member  # type: ignore[no-any-return]


def missing_members(game: Any) -> list[str]:
    """The required members ``game`` lacks (an inherited stub of :class:`Game` is lacking)."""
    missing = []
    for name in REQUIRED:
        member = getattr(game, name, None)
        stub = Game.__dict__.get(name)  # None for num_players, which is only annotated
        if member is None or (stub is not None and getattr(member, "__func__", None) is stub):
            missing.append(name)
    return missing


def check_definition(game: Any) -> None:
    """Raise :class:`~plies.errors.GameDefinitionError` if ``game`` lacks a required member.

    Required: an int ``num_players >= 1`` and the methods ``initial_state``,
    ``to_move``, ``actions``, ``result``, ``is_terminal`` and ``utility``.  Every
    :class:`Game` subclass runs this when an instance is made.
    """
    what = type(game).__name__
    missing = missing_members(game)
    if missing:
        raise GameDefinitionError(
            f"{what} is not a complete game: it lacks {', '.join(missing)}; a game defines "
            f"{', '.join(REQUIRED)} (see plies.Game)"
        )
    n = game.num_players
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise GameDefinitionError(f"{what}.num_players must be an int >= 1, got {n!r}")


def default_evaluate(game: Any, state: Any, player: int) -> float:
    """The default of :meth:`Game.evaluate` (shared with duck-typed games)."""
    if game.is_terminal(state):
        return float(game.utility(state, player))
    lo, hi = getattr(game, "utility_range", (-math.inf, math.inf))
    if math.isfinite(lo) and math.isfinite(hi):
        return (lo + hi) / 2
    return 0.0


def default_player_actions(game: Any, state: Any, player: int) -> list[Any]:
    """The default of :meth:`Game.player_actions`: project the joint actions."""
    seen: dict[Any, None] = {}
    for joint in game.actions(state):
        seen.setdefault(joint[player], None)
    return list(seen)


def uniform(actions: Sequence[A]) -> list[tuple[A, float]]:
    """Equal odds over ``actions``."""
    if not actions:
        return []
    p = 1.0 / len(actions)
    return [(a, p) for a in actions]


# --- reading optional members once, outside the hot loop -------------------------------


def _no_player(state: Any) -> int | None:
    """The default ``chance_player``: every chance node is a true chance event."""
    return None


@dataclass(frozen=True, slots=True)
class GameOps:
    """Bound methods of a game with every optional member resolved to its default.

    Searches build this once per call, so the hot loop never pays for ``getattr``.
    ``chance_player(state)`` names the player a CHANCE node stands for when the game
    models a player as chance (:class:`OpponentsAsChance`), so that its move counts for
    depth; None for a true chance event (default: always None).  ``random_playout`` is
    the game's hook of that name, or :func:`default_random_playout`'s loop over these
    members.
    """

    to_move: Callable[[Any], int]
    actions: Callable[[Any], Sequence[Any]]
    result: Callable[[Any, Any], Any]
    is_terminal: Callable[[Any], bool]
    utility: Callable[[Any, int], float]
    evaluate: Callable[[Any, int], float]
    chance_outcomes: Callable[[Any], Sequence[tuple[Any, float]]]
    key: Callable[[Any], Hashable]
    utility_range: tuple[float, float]
    num_players: int
    chance_player: Callable[[Any], int | None] = _no_player
    random_playout: Callable[[Any, random.Random, int], Any] | None = None


def game_ops(game: Any) -> GameOps:
    """Resolve ``game``'s optional members (see :class:`Game` for the defaults)."""
    actions = game.actions

    def _evaluate(state: Any, player: int) -> float:
        return default_evaluate(game, state, player)

    def _chance(state: Any) -> Sequence[tuple[Any, float]]:
        return uniform(actions(state))

    def _key(state: Any) -> Hashable:
        return state  # type: ignore[no-any-return]

    lo, hi = getattr(game, "utility_range", None) or (-math.inf, math.inf)
    to_move, result, is_terminal = game.to_move, game.result, game.is_terminal
    chance_outcomes = getattr(game, "chance_outcomes", None) or _chance
    players = int(game.num_players)

    def _playout(state: Any, rng: random.Random, limit: int) -> Any:
        return _random_moves(
            game, players, to_move, actions, result, is_terminal, chance_outcomes,
            state, rng, limit,
        )

    return GameOps(
        to_move=to_move,
        actions=actions,
        result=result,
        is_terminal=is_terminal,
        utility=game.utility,
        evaluate=getattr(game, "evaluate", None) or _evaluate,
        chance_outcomes=chance_outcomes,
        key=getattr(game, "key", None) or _key,
        utility_range=(float(lo), float(hi)),
        num_players=players,
        chance_player=getattr(game, "chance_player", None) or _no_player,
        random_playout=hook(game, "random_playout") or _playout,
    )


def default_random_playout(game: Any, state: Any, rng: random.Random, limit: int) -> Any:
    """The state after random moves from ``state``: what ``random_playout`` must match.

    Until the game ends or ``limit`` plies were played: at a CHANCE node the outcome
    ``rng.choices(outcomes, probabilities)[0]``, at a player's node the action
    ``actions[int(rng.random() * len(actions))]`` (uniform, in ``actions()`` order; one
    ``random()`` call is several times cheaper than ``randrange``), at a SIMULTANEOUS
    node the joint action of each player's own action drawn that way from
    ``player_actions(state, p)``, one draw per player in player order.  A game's
    ``random_playout`` hook must consume ``rng`` in this same way (only faster), so that
    both return the same state from the same generator state.

    Raises:
        UnsupportedGameError: a ``to_move`` that is no player, or a non-terminal state
            without legal actions (or a player without one at a SIMULTANEOUS node).

    >>> from plies.games import load
    >>> nim = load("nim")
    >>> end = default_random_playout(nim, nim.initial_state(), random.Random(1), 100)
    >>> nim.is_terminal(end)
    True
    """
    ops = game_ops(game)
    return _random_moves(
        game, ops.num_players, ops.to_move, ops.actions, ops.result, ops.is_terminal,
        ops.chance_outcomes, state, rng, limit,
    )


def _random_moves(
    game: Any,
    players: int,
    to_move: Callable[[Any], int],
    actions: Callable[[Any], Sequence[Any]],
    result: Callable[[Any, Any], Any],
    is_terminal: Callable[[Any], bool],
    chance_outcomes: Callable[[Any], Sequence[tuple[Any, float]]],
    state: Any,
    rng: random.Random,
    limit: int,
) -> Any:
    draw, choices = rng.random, rng.choices
    for _ in range(limit):
        if is_terminal(state):
            return state
        mover = to_move(state)
        if mover == CHANCE:
            outcomes = chance_outcomes(state)
            action = choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        elif mover == SIMULTANEOUS:
            own = getattr(game, "player_actions", None)
            joint = []
            for p in range(players):
                legal = own(state, p) if own else default_player_actions(game, state, p)
                if not legal:
                    raise UnsupportedGameError(
                        f"player {p} has no legal action in the non-terminal state {state!r}"
                    )
                joint.append(legal[int(draw() * len(legal))])
            action = tuple(joint)
        else:
            if not 0 <= mover < players:
                name = getattr(game, "name", None) or type(game).__name__
                raise UnsupportedGameError(
                    f"{name}: a random playout met to_move {mover!r}, which is not a "
                    f"player (0..{players - 1})"
                )
            legal = actions(state)
            if not legal:
                raise UnsupportedGameError(f"non-terminal state without legal actions: {state!r}")
            action = legal[int(draw() * len(legal))]
        state = result(state, action)
    return state



# --- the checked boundary for people ------------------------------------------------------


def format_action(game: Any, state: Any, action: Any) -> str:
    """``game.format_action`` if the game has it, else ``str(action)``."""
    fmt = getattr(game, "format_action", None)
    return str(action) if fmt is None else str(fmt(state, action))


def format_player_action(game: Any, state: Any, player: int, action: Any) -> str:
    """One player's own action at a SIMULTANEOUS node (``format_action`` shows joint ones).

    ``game.format_player_action(state, player, action)`` if the game has it, else
    ``str(action)``.
    """
    fmt = getattr(game, "format_player_action", None)
    return str(action) if fmt is None else str(fmt(state, player, action))


def legal_actions(game: Any, state: Any) -> Sequence[Any]:
    """The actions a person may choose at ``state`` (outcomes at CHANCE nodes)."""
    if game.is_terminal(state):
        return []
    return list(game.actions(state))


def parse_action(game: Any, state: Any, text: str) -> Any:
    """The legal action at ``state`` written as ``text``.

    ``game.parse_action(state, text)`` if the game has it (a duck-typed game may not),
    else :func:`match_action`.

    Raises:
        IllegalActionError: ``text`` names no legal action; the message lists them.
    """
    custom = getattr(game, "parse_action", None)
    if custom is not None:
        return custom(state, text)
    return match_action(game, state, text)


def match_action(game: Any, state: Any, text: str) -> Any:
    """The legal action whose formatted text is ``text`` (case and blanks ignored).

    The default of :meth:`Game.parse_action`.

    Raises:
        IllegalActionError: ``text`` names no legal action; the message lists them.
    """
    legal = legal_actions(game, state)
    wanted = text.strip().lower()
    for action in legal:
        if format_action(game, state, action).lower() == wanted:
            return action
    raise IllegalActionError(text, [format_action(game, state, a) for a in legal])


def play(game: Game[S, A], state: S, move: A | str) -> S:
    """The state after ``move``, checked for legality (unlike ``game.result``).

    ``move`` is an action or its text.  Raises :class:`IllegalActionError` with the legal
    moves in the message.

    >>> from plies.games import load
    >>> ttt = load("tictactoe")
    >>> s = play(ttt, ttt.initial_state(), "5")
    >>> play(ttt, s, "5")
    Traceback (most recent call last):
    ...
    plies.errors.IllegalActionError: illegal move '5'; legal moves: 1, 2, 3, 4, 6, 7, 8, 9
    """
    legal = legal_actions(game, state)
    if isinstance(move, str) and move not in legal:
        action = parse_action(game, state, move)
    else:
        action = move
    if action not in legal:
        raise IllegalActionError(move, [format_action(game, state, a) for a in legal])
    return game.result(state, action)


# --- several moves per turn -----------------------------------------------------------------


class MultiMoveRules(Protocol[S, A]):
    """Rules in which any agent may act in any state (the wrapper decides who acts).

    This is the shape of the "Civilization" formulation: the rules say what agent ``p``
    may do and what happens when it does; :class:`MultiMoveTurns` decides whose turn it
    is and how many moves it has.
    """

    num_players: int

    def initial_state(self) -> S: ...
    def actions(self, state: S, agent: int) -> Sequence[A]: ...
    def result(self, state: S, agent: int, action: A) -> S: ...
    def is_terminal(self, state: S) -> bool: ...
    def utility(self, state: S, player: int) -> float: ...


class MultiMoveState(NamedTuple, Generic[S]):
    """A state of :class:`MultiMoveTurns`: the rules' state plus the turn bookkeeping."""

    base: S
    agent: int  # agent index: whose turn it is
    move_count: int  # moves the agent has made so far in this turn
    round: int  # completed rounds: grows by one when every agent has used its moves


class MultiMoveTurns(Game[MultiMoveState[S], A]):
    """Give every agent ``moves`` moves per turn, agents taking turns 0, 1, ..., N-1.

    ``moves`` is a number or ``Get-Move-Count(s, p)``: a function of the rules' state
    and the agent.  As in the tutorial's pseudocode, the state carries the agent index,
    the move count and the round counter; when the agent has made all its moves the turn
    passes to the next agent, and when agent 0 gets the turn back the round grows by one
    ("each player will use all their allowed number of moves").  With ``rounds`` the
    game also ends after that many complete rounds, whatever the rules say.

    Two optional parts of the rules serve games whose turns have an upkeep (income,
    growth at the end of a turn, as in Civilization):

    - ``rules.end_turn(state, agent) -> state``, if the rules define it, runs when
      ``agent``'s turn is over (after its last move, or when it skips its turn); rules
      without it see exactly the old bookkeeping.
    - A Get-Move-Count that returns 0 for an agent (one who is out of the game) makes that
      agent skip its turns: the turn passes on (``end_turn`` still runs for it), so
      ``to_move`` only ever names an agent with a move.  A fixed ``moves`` never skips.

    :meth:`pass_turn_to` jumps to the start of a chosen agent's turn, the agents in
    between skipping theirs: the hook Best-Reply Search needs to let one opponent reply
    out of turn.

    >>> from plies.games import load
    >>> civ = load("civ")
    >>> s = civ.initial_state()
    >>> [(s := civ.result(s, civ.actions(s)[0])).agent for _ in range(4)]
    [0, 0, 1, 1]
    """

    def __init__(
        self,
        rules: MultiMoveRules[S, A],
        moves: int | Callable[[S, int], int] = 3,
        *,
        rounds: int | None = None,
    ) -> None:
        if isinstance(moves, int) and moves < 1:
            raise ValueError(f"moves per turn must be at least 1, got {moves}")
        if rounds is not None and rounds < 1:
            raise ValueError(f"rounds must be at least 1, got {rounds}")
        self.rules = rules
        self.moves = moves
        self.rounds = rounds
        self.num_players = rules.num_players
        self.utility_range = getattr(rules, "utility_range", (-math.inf, math.inf))
        self.zero_sum = getattr(rules, "zero_sum", False)
        self.name = getattr(rules, "name", "multimove")
        self._has_end_turn = getattr(rules, "end_turn", None) is not None

    def move_limit(self, state: MultiMoveState[S]) -> int:
        """Get-Move-Count(s, p) for the agent to move in ``state``."""
        if isinstance(self.moves, int):
            return self.moves
        return self.moves(state.base, state.agent)

    def turn_progress(self, state: MultiMoveState[S]) -> tuple[int, int]:
        """``(moves made this turn, moves allowed)`` for the agent to move."""
        return state.move_count, self.move_limit(state)

    def initial_state(self) -> MultiMoveState[S]:
        base = self.rules.initial_state()
        if isinstance(self.moves, int) or self.moves(base, 0) > 0:
            return MultiMoveState(base, 0, 0, 0)
        return self._next_turn(base, 0, 0, end=False)

    def _next_turn(
        self, base: S, agent: int, rnd: int, *, end: bool = True
    ) -> MultiMoveState[S]:
        """The state at the start of the turn after ``agent``'s (``end``: whose turn ends).

        ``end_turn`` runs for the agent whose turn ends and for every agent that skips
        (Get-Move-Count 0); the walk stops at the first agent with a move, or where the
        rules say the game is over.
        """
        end_turn = getattr(self.rules, "end_turn", None)
        count_moves = None if isinstance(self.moves, int) else self.moves
        for _ in range(self.num_players + 1):
            if end and end_turn is not None:
                base = end_turn(base, agent)
            end = True
            agent += 1
            if agent == self.num_players:
                agent, rnd = 0, rnd + 1
            if count_moves is None or count_moves(base, agent) > 0:
                return MultiMoveState(base, agent, 0, rnd)
            if self.rules.is_terminal(base):
                return MultiMoveState(base, agent, 0, rnd)
        raise GameDefinitionError(
            "Get-Move-Count gives every agent 0 moves in a state the rules do not end"
        )

    def pass_turn_to(self, state: MultiMoveState[S], player: int) -> MultiMoveState[S]:
        """The state in which ``player`` is to move at the start of its turn.

        The mover's turn ends now (its moves left unused) and every agent between it and
        ``player`` skips its turn, as if it had made no move; ``end_turn`` runs for each
        of them, and rounds are counted as usual.  ``state`` itself comes back when
        ``player`` is already at the start of its turn.  Best-Reply Search uses this to
        let the strongest opponent answer while the others pass.  If the rules end the
        game on the way (a turn limit reached), that terminal state comes back.

        Raises:
            ValueError: ``player`` is not a player, has no move (Get-Move-Count 0), or
                ``state`` is terminal.
        """
        if not 0 <= player < self.num_players:
            raise ValueError(f"no player {player}; players are 0..{self.num_players - 1}")
        if self.is_terminal(state):
            raise ValueError("the game is over: no one has a turn to pass to")
        if state.agent == player and state.move_count == 0:
            return state
        if self.move_limit(MultiMoveState(state.base, player, 0, state.round)) < 1:
            raise ValueError(f"player {player} has no move (Get-Move-Count 0): it skips its turns")
        base, agent, rnd = state.base, state.agent, state.round
        end_turn = getattr(self.rules, "end_turn", None)
        while True:
            if end_turn is not None:
                base = end_turn(base, agent)
            agent += 1
            if agent == self.num_players:
                agent, rnd = 0, rnd + 1
            passed = MultiMoveState(base, agent, 0, rnd)
            if agent == player or self.is_terminal(passed):  # the rules' end or `rounds`
                return passed

    def to_move(self, state: MultiMoveState[S]) -> int:
        return state.agent

    def actions(self, state: MultiMoveState[S]) -> Sequence[A]:
        return self.rules.actions(state.base, state.agent)

    def result(self, state: MultiMoveState[S], action: A) -> MultiMoveState[S]:
        base, agent, count, rnd = state
        limit = self.move_limit(state)
        new_base = self.rules.result(base, agent, action)
        count += 1
        if count >= limit:
            if isinstance(self.moves, int) and not self._has_end_turn:
                agent, count = agent + 1, 0
                if agent == self.num_players:
                    agent, rnd = 0, rnd + 1
            else:
                return self._next_turn(new_base, agent, rnd)
        return MultiMoveState(new_base, agent, count, rnd)

    def is_terminal(self, state: MultiMoveState[S]) -> bool:
        if self.rounds is not None and state.round >= self.rounds:
            return True
        return self.rules.is_terminal(state.base)

    def utility(self, state: MultiMoveState[S], player: int) -> float:
        return self.rules.utility(state.base, player)

    def evaluate(self, state: MultiMoveState[S], player: int) -> float:
        evaluate = getattr(self.rules, "evaluate", None)
        if evaluate is None:
            return default_evaluate(self, state, player)
        return float(evaluate(state.base, player))

    def key(self, state: MultiMoveState[S]) -> Hashable:
        key = getattr(self.rules, "key", None)
        base_key = state.base if key is None else key(state.base)
        return (base_key, state.agent, state.move_count)

    def format_action(self, state: MultiMoveState[S], action: A) -> str:
        fmt = getattr(self.rules, "format_action", None)
        return str(action) if fmt is None else str(fmt(state.base, action))

    def render(self, state: MultiMoveState[S]) -> str:
        render = getattr(self.rules, "render", None)
        board = str(state.base) if render is None else str(render(state.base))
        if self.is_terminal(state):
            return f"{board}\ngame over after {state.round} full round(s)"
        made, limit = self.turn_progress(state)
        who = self.player_name(state.agent)
        return f"{board}\nround {state.round + 1}: {who} to move (move {made + 1} of {limit})"

    def player_name(self, player: int) -> str:
        name = getattr(self.rules, "player_name", None)
        return f"P{player}" if name is None else str(name(player))


# --- wrappers -------------------------------------------------------------------------------


class GameWrapper(Game[S, A]):
    """A game that is ``game`` in every respect a subclass does not override.

    The declared facts (players, utility range, zero-sum, chance, simultaneous moves,
    name) are copied, the optional members are resolved once (:func:`game_ops`), and the
    hooks (``order_hint``, ``noisy_actions``, ...) and any other attribute the wrapper
    lacks are looked up on ``game``, except ``random_playout``: subclasses change moves,
    movers or states (opponents as chance, partial joint moves, mate-distance states),
    which the wrapped game's fast playout knows nothing of, so a wrapper's playouts take
    the generic path unless it defines its own.
    """

    random_playout = None

    def __init__(self, game: Game[S, A]) -> None:
        self.game = game
        self._ops = game_ops(game)
        self.num_players = game.num_players
        self.utility_range = self._ops.utility_range
        self.zero_sum = getattr(game, "zero_sum", False)
        self.has_chance = getattr(game, "has_chance", False)
        self.has_simultaneous = getattr(game, "has_simultaneous", False)
        self.name = getattr(game, "name", "game")

    def __getattr__(self, name: str) -> Any:  # only called for what the wrapper lacks
        if name == "game":  # not set yet: do not recurse
            raise AttributeError(name)
        return getattr(self.game, name)

    def initial_state(self) -> S:
        return self.game.initial_state()

    def to_move(self, state: S) -> int:
        return self.game.to_move(state)

    def actions(self, state: S) -> Sequence[A]:
        return self.game.actions(state)

    def chance_outcomes(self, state: S) -> Sequence[tuple[A, float]]:
        return self._ops.chance_outcomes(state)

    def result(self, state: S, action: A) -> S:
        return self.game.result(state, action)

    def is_terminal(self, state: S) -> bool:
        return self.game.is_terminal(state)

    def utility(self, state: S, player: int) -> float:
        return self.game.utility(state, player)

    def evaluate(self, state: S, player: int) -> float:
        return self._ops.evaluate(state, player)

    def key(self, state: S) -> Hashable:
        return self._ops.key(state)

    def format_action(self, state: S, action: A) -> str:
        return format_action(self.game, state, action)

    def format_player_action(self, state: S, player: int, action: Any) -> str:
        return format_player_action(self.game, state, player, action)

    def parse_action(self, state: S, text: str) -> A:
        custom = hook(self.game, "parse_action")
        action: A = match_action(self, state, text) if custom is None else custom(state, text)
        return action

    def split_moves(self, text: str) -> list[str]:
        custom = hook(self.game, "split_moves")
        return super().split_moves(text) if custom is None else list(custom(text))

    def render(self, state: S) -> str:
        render = getattr(self.game, "render", None)
        return str(state) if render is None else str(render(state))

    def player_name(self, player: int) -> str:
        name = getattr(self.game, "player_name", None)
        return f"P{player}" if name is None else str(name(player))


Policy = Callable[[Any], Sequence[tuple[Any, float]] | Mapping[Any, float]]


class OpponentsAsChance(GameWrapper[S, A]):
    """Model ``players`` as chance: their moves are drawn uniformly, or from ``policy``.

    ``policy(state)`` returns ``(action, probability)`` pairs or a mapping; the
    probabilities must sum to 1.  This is expectimax's model of a random opponent
    (the ghosts of expectimax Pacman).  Everything else is the wrapped game's.

    A modelled player is still a player for depth (:meth:`chance_player`): its move
    counts one ply and completes rounds, so a depth-limited expectimax search cuts off
    exactly where minimax over the unwrapped game does.
    """

    def __init__(
        self, game: Game[S, A], players: int | Sequence[int] = 1, policy: Policy | None = None
    ) -> None:
        super().__init__(game)
        self.players = frozenset([players] if isinstance(players, int) else players)
        bad = [p for p in self.players if not 0 <= p < game.num_players]
        if bad:
            raise ValueError(f"no such player(s) {bad}; players are 0..{game.num_players - 1}")
        self.policy = policy
        self.has_chance = True

    def to_move(self, state: S) -> int:
        mover = self.game.to_move(state)
        return CHANCE if mover in self.players else mover

    def chance_player(self, state: S) -> int | None:
        """The modelled player who moves at ``state``; None at a true chance event."""
        mover = self.game.to_move(state)
        return mover if mover in self.players else None

    def chance_outcomes(self, state: S) -> Sequence[tuple[A, float]]:
        mover = self.game.to_move(state)
        if mover == CHANCE:
            return self._ops.chance_outcomes(state)
        if mover == SIMULTANEOUS:
            raise UnsupportedGameError("OpponentsAsChance cannot wrap a simultaneous node")
        if self.policy is None:
            return uniform(self.game.actions(state))
        odds = self.policy(state)
        pairs = list(odds.items()) if isinstance(odds, Mapping) else list(odds)
        total = sum(p for _, p in pairs)
        if not math.isclose(total, 1.0, abs_tol=1e-9):
            raise ValueError(f"policy probabilities sum to {total}, not 1")
        return pairs


# --- simultaneous moves as turns --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PartialJoint:
    """A SIMULTANEOUS state of the wrapped game in which some players have chosen.

    ``chosen`` holds their actions in the order :class:`Sequentialized` asks them.
    """

    base: Any
    chosen: tuple[Any, ...]


class Sequentialized(GameWrapper[Any, Any]):
    """Every SIMULTANEOUS node becomes a turn per player, so turn-based searches apply.

    Pessimistic (default): ``player`` chooses first, then every other player in turn
    (0, 1, ..., skipping ``player``) answers knowing the choices made so far; once all
    have chosen, the joint action (a tuple in player order) is played.  The opponents
    thus see ``player``'s move, so the paranoid minimax value of the sequentialised game
    (``plies.minimax``, ``plies.alphabeta``) is a **lower bound** for ``player`` of the
    simultaneous game's mixed-strategy value (:func:`plies.search.simultaneous.simultaneous`):
    at every stage it is the pure maximin ``max_a min_b``.  ``optimistic=True`` lets
    ``player`` choose last, knowing everyone's move, which gives the pure minimax
    ``min_b max_a``: an **upper bound**.  The two bounds meet where every stage has a
    saddle point.  ``plies.maxn`` also runs on it (each answer maximises its own utility).

    States are the wrapped game's own, except between the choices of one stage, where they
    are :class:`PartialJoint`.  Each player's actions at a stage are the game's
    ``player_actions`` (default: projected from the joint actions); the joint actions
    must be every combination of them.  Turn nodes, chance nodes, utilities and
    evaluation are the wrapped game's.

    >>> from plies.games import load
    >>> import plies
    >>> rps = load("rps")
    >>> plies.minimax(Sequentialized(rps, 0), rps.initial_state()).value
    -1.0
    >>> plies.minimax(Sequentialized(rps, 0, optimistic=True), rps.initial_state(), player=0).value
    1.0
    """

    def __init__(self, game: Game[Any, Any], player: int, *, optimistic: bool = False) -> None:
        super().__init__(game)
        if not 0 <= player < game.num_players:
            raise ValueError(f"no player {player}; players are 0..{game.num_players - 1}")
        self.player = player
        self.optimistic = optimistic
        self.has_simultaneous = False
        others = [q for q in range(game.num_players) if q != player]
        self.order: tuple[int, ...] = (*others, player) if optimistic else (player, *others)
        custom = getattr(game, "player_actions", None)
        self._player_actions: Callable[[Any, int], Sequence[Any]] = custom or (
            lambda state, p: default_player_actions(game, state, p)
        )

    def _stage(self, state: Any) -> tuple[Any, tuple[Any, ...]] | None:
        """``(base, chosen)`` inside a simultaneous stage, else None."""
        if isinstance(state, PartialJoint):
            return state.base, state.chosen
        if self.game.to_move(state) == SIMULTANEOUS:
            return state, ()
        return None

    def to_move(self, state: Any) -> int:
        if isinstance(state, PartialJoint):
            return self.order[len(state.chosen)]
        mover = self.game.to_move(state)
        return self.order[0] if mover == SIMULTANEOUS else mover

    def actions(self, state: Any) -> Sequence[Any]:
        stage = self._stage(state)
        if stage is None:
            return self.game.actions(state)
        base, chosen = stage
        return self._player_actions(base, self.order[len(chosen)])

    def result(self, state: Any, action: Any) -> Any:
        stage = self._stage(state)
        if stage is None:
            return self.game.result(state, action)
        base, chosen = stage
        chosen = (*chosen, action)
        if len(chosen) < len(self.order):
            return PartialJoint(base, chosen)
        joint: list[Any] = [None] * len(self.order)
        for who, choice in zip(self.order, chosen, strict=True):
            joint[who] = choice
        return self.game.result(base, tuple(joint))

    def is_terminal(self, state: Any) -> bool:
        return False if isinstance(state, PartialJoint) else self.game.is_terminal(state)

    def utility(self, state: Any, player: int) -> float:
        base = state.base if isinstance(state, PartialJoint) else state
        return self.game.utility(base, player)

    def evaluate(self, state: Any, player: int) -> float:
        base = state.base if isinstance(state, PartialJoint) else state
        return self._ops.evaluate(base, player)

    def key(self, state: Any) -> Hashable:
        if isinstance(state, PartialJoint):
            return PartialJoint(self._ops.key(state.base), state.chosen)
        return self._ops.key(state)

    def format_action(self, state: Any, action: Any) -> str:
        if self._stage(state) is not None:  # one player's own action
            return str(action)
        return format_action(self.game, state, action)

    def parse_action(self, state: Any, text: str) -> Any:
        if self._stage(state) is None:
            return parse_action(self.game, state, text)
        legal = list(self.actions(state))
        for action in legal:
            if str(action).lower() == text.strip().lower():
                return action
        raise IllegalActionError(text, [str(a) for a in legal])

    def render(self, state: Any) -> str:
        if not isinstance(state, PartialJoint):
            return super().render(state)
        chosen = ", ".join(
            f"{self.player_name(who)} chose {choice}"
            for who, choice in zip(self.order, state.chosen, strict=False)
        )
        return f"{super().render(state.base)}\n{chosen}"
