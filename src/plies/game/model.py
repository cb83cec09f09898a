"""The game model: the tuple the literature uses, for N players, chance and simultaneous moves.

A game is an object with ``num_players``, ``initial_state``, ``to_move``, ``actions``,
``result``, ``is_terminal`` and ``utility`` (AIMA's formulation, for any number of
players).  Everything else is optional and has a documented default, which a class gets
by subclassing :class:`Game`; a duck-typed object works too, because the searches read the
optional members through :func:`~plies.game.ops.game_ops`.

:func:`play` is the checked step for people: it refuses an illegal move, where
``result`` trusts its caller.
"""

from __future__ import annotations

import inspect
import math
import random
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar

from plies.errors import GameDefinitionError, IllegalActionError
from plies.game.actions import format_action, legal_actions, match_action, parse_action

if TYPE_CHECKING:
    from plies.game.board import Board
    from plies.game.knowledge import CompiledEngine, PlayDefaults, PositionText, Solver

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

    ========================  =========  ==================================================
    member                    kind       default (= what leaving it out means)
    ========================  =========  ==================================================
    ``num_players``           required   (an int >= 1)
    ``initial_state``         required
    ``to_move``               required   (a player, :data:`CHANCE` or :data:`SIMULTANEOUS`)
    ``actions``               required   (joint actions at SIMULTANEOUS nodes)
    ``result``                required   (must not mutate the state)
    ``is_terminal``           required
    ``utility``               required   (payoff of a player at a terminal state)
    ``utility_range``         fact       ``(-inf, inf)``: no known bounds
    ``zero_sum``              fact       False: utilities need not sum to a constant
    ``has_chance``            fact       False: no CHANCE nodes
    ``has_simultaneous``      fact       False: no SIMULTANEOUS nodes
    ``name``                  fact       ``"game"``
    ``evaluate``              method     utility at terminals, else the middle of a finite
                                         ``utility_range``, else 0.0
    ``chance_outcomes``       method     uniform over ``actions`` (at CHANCE nodes)
    ``player_actions``        method     the player's components of the joint actions
    ``key``                   method     the state itself (transposition key)
    ``format_action``         method     ``str(action)``
    ``format_player_action``  method     ``str(action)`` (one player's own action)
    ``parse_action``          method     the legal action whose ``format_action`` text
                                         matches, ignoring case and blanks
    ``split_moves``           method     split a move list at blanks and commas
    ``render``                method     ``str(state)``
    ``player_name``           method     ``"P0"``, ``"P1"``, ...
    ``order_hint``            hook       absent: no move-ordering hint (engine craft)
    ``value_bounds``          hook       absent: no bounds on exact values (exact engines)
    ``sufficient_actions``    hook       absent: every action may be best (exact engines)
    ``noisy_actions``         hook       absent: no quiescence search
    ``extension``             hook       absent: no extensions (``extensions`` craft)
    ``null_move``             hook       absent: no null-move pruning
    ``is_quiet``              hook       absent: no late-move reductions
    ``turn_progress``         hook       absent: turns are not narrated as move counts
    ``label``                 hook       absent: nodes carry no label (tree pictures)
    ``pass_turn_to``          hook       absent: no out-of-turn moves (``brs`` refuses
                                         games of 3+ players; ``brs+`` needs none)
    ``random_playout``        hook       absent: playouts call ``actions`` and ``result``
                                         per ply (:func:`default_random_playout`)
    ``random_playouts``       hook       absent: MCTS plays one playout per iteration
                                         (no batched iterations)
    ``board``                 hook       absent: front ends show ``render``'s text (no
                                         board to draw or click)
    ``read_position``         hook       absent: a position is written as moves from the
                                         start only
    ``write_position``        hook       absent: a position is written as its moves
    ``play_defaults``         hook       absent: people's searches are the plain request
                                         (no time a move, no craft, values without a unit)
    ``solver``                hook       absent: an exact request runs the generic search
    ``unclaimed``             hook       absent: a terminal state is the end of the game (no
                                         draw is a claim a player may decline)
    ``compiled_search``       hook       absent: engine requests run the generic engine
    ========================  =========  ==================================================

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
    it),
    ``random_playouts(states, rng, limit) -> [utilities | None per state]`` (a batch of
    random playouts at once, one from each of ``states``, for MCTS's batched iterations,
    :class:`plies.search.mcts.MctsTree` with ``batch`` > 1: for each state, the tuple of
    every player's ``utility`` at the terminal state its playout reached, or None where
    the playout did not end within ``limit`` plies; it draws its own moves, seeded
    from ``rng`` (not the draws of ``random_playout``), uniformly or by a policy of the
    game's, and a wrapper that changes moves or states must not forward it).

    The knowledge front ends read (the web app, the terminal, a notebook, the policy
    layer), each returning plain data of :mod:`plies.game.board` or
    :mod:`plies.game.knowledge`:
    ``board(state, last=None) -> Board`` (the position as a grid to draw and click,
    :class:`~plies.game.board.Board`; ``last`` is the action that led to ``state``, to
    highlight, None when not known),
    ``read_position(text) -> PositionText | None`` (the position ``text`` writes in the
    game's own notation, such as a chess FEN or EPD line, as a
    :class:`~plies.game.knowledge.PositionText`; None when ``text`` is not in that
    notation, so it is read as moves; :class:`~plies.errors.GameFormatError` when it is
    but is malformed), ``write_position(state) -> str`` (``state`` in that notation,
    which ``read_position`` reads back as the same position, a state of the same key:
    the notation need not hold the history, as a FEN does not),
    ``play_defaults() -> PlayDefaults`` (what people's searches need: a time a move,
    engine craft, mate scores, the unit of values, how a move is written, when to solve
    exactly; :class:`~plies.game.knowledge.PlayDefaults`),
    ``solver(backend="auto") -> Solver`` (the game's exact solver,
    :class:`~plies.game.knowledge.Solver`, which the policy layer runs for an exact
    request; ``backend`` picks an implementation where the solver has several, and an
    unknown one raises :class:`~plies.errors.OptionError`),
    ``unclaimed(state) -> state`` (``state`` with the draws its player to move may claim,
    such as chess's threefold repetition and fifty-move rule, left unclaimed: the same
    position, not terminal when it has legal moves, its descendants scored as usual; a
    playing engine searches from it, since a claim is the player's choice and not the end
    of the game; ``state`` itself where nothing is claimable).
    ``compiled_search(backend="auto") -> CompiledEngine | None`` (a compiled engine for
    the game's engine requests with a limit, :class:`~plies.game.knowledge.CompiledEngine`,
    which the policy layer runs in place of the generic engine; None when no compiled
    backend can run, e.g. without Numba under ``"auto"``).
    A wrapper forwards these to the game it wraps, except ``solver`` and ``compiled_search``
    (a wrapper changes the game they would search) and, in a wrapper whose states are not
    the wrapped game's, the ones that read or make states.

    Read any optional member with :func:`hook`, which
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
        random_playouts: Callable[
            [Sequence[S], random.Random, int], Sequence[Sequence[float] | None]
        ] | None = None
        board: Callable[..., Board] | None = None
        read_position: Callable[[str], PositionText | None] | None = None
        write_position: Callable[[S], str] | None = None
        play_defaults: Callable[[], PlayDefaults] | None = None
        solver: Callable[..., Solver] | None = None
        unclaimed: Callable[[S], S] | None = None
        compiled_search: Callable[..., CompiledEngine | None] | None = None
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
        random_playouts = _Hook()
        board = _Hook()
        read_position = _Hook()
        write_position = _Hook()
        play_defaults = _Hook()
        solver = _Hook()
        unclaimed = _Hook()
        compiled_search = _Hook()

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
#: Hooks: absent unless the game provides one, because one changes what a search does
#: (or, for ``board`` to ``solver``, what a front end shows and runs; for ``unclaimed``,
#: where a playing engine's search starts).
HOOKS: Final = (
    "order_hint", "value_bounds", "sufficient_actions", "noisy_actions", "extension",
    "null_move", "is_quiet", "turn_progress", "label", "pass_turn_to",
    "random_playout", "random_playouts", "board", "read_position", "write_position",
    "play_defaults", "solver",
    "unclaimed",
    "compiled_search",
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
