"""Several moves per turn: the "Civilization" formulation as a wrapper of the rules.

:class:`MultiMoveRules` say what any agent may do; :class:`MultiMoveTurns` decides whose
turn it is and how many moves it has, keeping the agent index, the move count and the
round counter in a :class:`MultiMoveState`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from typing import Generic, NamedTuple, Protocol, TypeVar

from plies.errors import GameDefinitionError
from plies.game import Game, default_evaluate

S = TypeVar("S")
A = TypeVar("A")


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
