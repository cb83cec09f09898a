"""The game model: defaults, the multi-move wrapper and opponents as chance."""

from __future__ import annotations

import copy
import dataclasses
import math
import pickle
import re
from collections.abc import Sequence
from typing import Protocol

import pytest

import plies
from plies.errors import GameDefinitionError
from plies.game import (
    CHANCE,
    FACTS,
    HOOKS,
    METHODS,
    REQUIRED,
    check_definition,
    format_player_action,
    game_ops,
    hook,
    parse_action,
)
from plies.search.mate import MateDistance
from plies.search.quiescence import Quiescent
from plies.wrappers import (
    GameWrapper,
    MultiMoveState,
    MultiMoveTurns,
    OpponentsAsChance,
    Sequentialized,
)


class Counter:
    """Rules where any agent may add 1 or 2 to its own counter; ends at a move budget."""

    num_players = 3
    utility_range = (-20.0, 20.0)

    def __init__(self, total_moves: int = 9) -> None:
        self.total_moves = total_moves

    def initial_state(self) -> tuple[int, ...]:
        return (0, 0, 0, 0)  # three counters and the number of moves made

    def actions(self, state: tuple[int, ...], agent: int) -> Sequence[int]:
        return (1, 2)

    def result(self, state: tuple[int, ...], agent: int, action: int) -> tuple[int, ...]:
        out = list(state)
        out[agent] += action
        out[3] += 1
        return tuple(out)

    def is_terminal(self, state: tuple[int, ...]) -> bool:
        return state[3] >= self.total_moves

    def utility(self, state: tuple[int, ...], player: int) -> float:
        return float(state[player] - max(state[p] for p in range(3) if p != player))


def test_multimove_bookkeeping_follows_the_tutorial() -> None:
    game = MultiMoveTurns(Counter(), moves=3)
    s = game.initial_state()
    seen = []
    for _ in range(10):
        seen.append((s.agent, s.move_count, s.round))
        s = game.result(s, 1)
    assert seen == [
        (0, 0, 0), (0, 1, 0), (0, 2, 0),
        (1, 0, 0), (1, 1, 0), (1, 2, 0),
        (2, 0, 0), (2, 1, 0), (2, 2, 0),
        (0, 0, 1),
    ]
    assert game.turn_progress(MultiMoveState(s.base, 0, 1, 0)) == (1, 3)


def test_multimove_counts_come_from_get_move_count() -> None:
    game = MultiMoveTurns(Counter(total_moves=6), moves=lambda base, agent: agent + 1)
    s = game.initial_state()
    movers = []
    while not game.is_terminal(s):
        movers.append(game.to_move(s))
        s = game.result(s, 1)
    assert movers == [0, 1, 1, 2, 2, 2]


class UpkeepCounter(Counter):
    """Counter whose rules log each end of turn in a fifth slot (as a digit per agent)."""

    def initial_state(self) -> tuple[int, ...]:
        return (0, 0, 0, 0, 0)

    def end_turn(self, state: tuple[int, ...], agent: int) -> tuple[int, ...]:
        return (*state[:4], state[4] * 10 + agent + 1)


def test_multimove_runs_the_end_of_turn_upkeep_and_skips_agents_without_moves() -> None:
    # Agent 1 has 0 moves: it is out from the start.
    game = MultiMoveTurns(UpkeepCounter(total_moves=6), moves=lambda b, a: 0 if a == 1 else 2)
    s = game.initial_state()
    movers = []
    while not game.is_terminal(s):
        movers.append(game.to_move(s))
        s = game.result(s, 1)
    assert movers == [0, 0, 2, 2, 0, 0]
    # Every turn ended with its upkeep, the skipped agent 1's too; after the last move
    # the walk stops at the end of the game, on agent 1, without skipping it again.
    assert s.base[4] == 1231
    assert (s.agent, s.round) == (1, 1)


def test_multimove_skips_agent_zero_at_the_start_if_it_has_no_move() -> None:
    game = MultiMoveTurns(UpkeepCounter(), moves=lambda b, a: 0 if a == 0 else 1)
    s = game.initial_state()
    assert (s.agent, s.round, s.base[4]) == (1, 0, 0)  # no upkeep: no turn has ended


def test_multimove_refuses_rules_in_which_no_agent_ever_moves() -> None:
    game = MultiMoveTurns(Counter(), moves=lambda b, a: 0)
    with pytest.raises(GameDefinitionError, match="every agent 0 moves"):
        game.initial_state()


def test_pass_turn_to_lets_a_player_move_out_of_turn() -> None:
    game = MultiMoveTurns(UpkeepCounter(total_moves=30), moves=2)
    s = game.result(game.initial_state(), 1)  # agent 0 has one move left
    assert game.pass_turn_to(game.initial_state(), 0) == game.initial_state()
    two = game.pass_turn_to(s, 2)
    assert (two.agent, two.move_count, two.round, two.base[4]) == (2, 0, 0, 12)
    zero = game.pass_turn_to(two, 0)
    assert (zero.agent, zero.round, zero.base[4]) == (0, 1, 123)
    assert game.pass_turn_to(zero, 0) is zero
    again = game.pass_turn_to(game.result(zero, 2), 0)  # mid-turn: a whole round later
    assert (again.agent, again.round, again.base[:4]) == (0, 2, (3, 0, 0, 2))
    with pytest.raises(ValueError, match="no player 3"):
        game.pass_turn_to(s, 3)
    short = MultiMoveTurns(UpkeepCounter(total_moves=30), moves=2, rounds=1)
    ended = short.pass_turn_to(short.pass_turn_to(short.initial_state(), 2), 1)
    assert short.is_terminal(ended) and (ended.agent, ended.round) == (0, 1)  # `rounds` ends it
    out = MultiMoveTurns(Counter(), moves=lambda b, a: 0 if a == 1 else 1)
    with pytest.raises(ValueError, match="player 1 has no move"):
        out.pass_turn_to(out.initial_state(), 1)


def test_multimove_rejects_zero_moves() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        MultiMoveTurns(Counter(), moves=0)


def test_rounds_count_whole_turns_of_every_player() -> None:
    game = MultiMoveTurns(Counter(total_moves=30), moves=3)
    r = plies.minimax(game, game.initial_state(), plies.Limit(depth=1, unit="round"))
    # one round is 9 binary decisions: 2**9 leaves, 2**10 - 1 nodes
    assert r.stats.leaves == 2**9
    assert r.stats.nodes == 2**10 - 1
    assert len(r.pv) == 9


def test_stacked_max_layers_take_the_best_of_each_own_move() -> None:
    game = MultiMoveTurns(Counter(total_moves=9), moves=3)
    r = plies.alphabeta(game, game.initial_state())
    # everyone adds 2 three times: 6 - 6 = 0 for player 0; the first move is 2.
    assert r.value == 0.0
    assert r.pv[:3] == (2, 2, 2)
    assert r.value == plies.minimax(game, game.initial_state()).value


def test_opponents_as_chance_average_uniformly() -> None:
    base = MultiMoveTurns(Counter(total_moves=2), moves=1)
    game = OpponentsAsChance(base, players=[1, 2])
    s = game.initial_state()
    assert game.to_move(game.result(s, 1)) == CHANCE
    r = plies.expectiminimax(game, s)
    # player 0 adds 2; player 1 adds 1 or 2 with odds 1/2: value (1 + 0) / 2
    assert r.value == pytest.approx(0.5)
    assert r.action == 2


def test_opponents_as_chance_follow_a_policy() -> None:
    base = MultiMoveTurns(Counter(total_moves=2), moves=1)
    game = OpponentsAsChance(base, players=1, policy=lambda state: {1: 0.25, 2: 0.75})
    r = plies.expectiminimax(game, game.initial_state())
    assert r.value == pytest.approx(0.25 * 1 + 0.75 * 0)


def test_opponents_as_chance_checks_its_arguments() -> None:
    base = MultiMoveTurns(Counter(), moves=1)
    with pytest.raises(ValueError, match="no such player"):
        OpponentsAsChance(base, players=5)
    bad = OpponentsAsChance(base, players=1, policy=lambda state: {1: 0.5})
    with pytest.raises(ValueError, match=r"sum to 0\.5"):
        bad.chance_outcomes(bad.result(bad.initial_state(), 1))


def test_duck_typed_games_get_the_documented_defaults() -> None:
    class Bare:
        num_players = 2

        def actions(self, state: int) -> list[int]:
            return [1, 2]

        def is_terminal(self, state: int) -> bool:
            return state > 3

        def utility(self, state: int, player: int) -> float:
            return 1.0

        def to_move(self, state: int) -> int:
            return 0

        def result(self, state: int, action: int) -> int:
            return state + action

    ops = game_ops(Bare())
    assert ops.utility_range == (-math.inf, math.inf)
    assert ops.evaluate(0, 0) == 0.0
    assert ops.evaluate(5, 0) == 1.0
    assert ops.chance_outcomes(0) == [(1, 0.5), (2, 0.5)]
    assert ops.key(7) == 7


def test_multimove_can_end_after_a_number_of_rounds() -> None:
    game = MultiMoveTurns(Counter(total_moves=100), moves=2, rounds=2)
    s = game.initial_state()
    plies_played = 0
    while not game.is_terminal(s):
        s = game.result(s, 1)
        plies_played += 1
    assert plies_played == 2 * 3 * 2
    assert "game over after 2 full round(s)" in game.render(s)
    with pytest.raises(ValueError, match="rounds must be at least 1"):
        MultiMoveTurns(Counter(), rounds=0)


# --- declared hooks (issue 10, section 6) -------------------------------------------------


class Sticks(plies.Game[int, int]):
    """Take 1 or 2 sticks from 7; whoever takes the last one wins.  No optional member."""

    num_players = 2

    def initial_state(self) -> int:
        return 7

    def to_move(self, state: int) -> int:
        return (7 - state) % 2  # not exact, but a fixed function of the state

    def actions(self, state: int) -> Sequence[int]:
        return [n for n in (1, 2) if n <= state]

    def result(self, state: int, action: int) -> int:
        return state - action

    def is_terminal(self, state: int) -> bool:
        return state == 0

    def utility(self, state: int, player: int) -> float:
        return 1.0 if player == 0 else -1.0


class DuckSticks:
    """The same rules, duck-typed: no ``plies.Game`` in its bases."""

    num_players = 2
    initial_state = Sticks.initial_state
    to_move = Sticks.to_move
    actions = Sticks.actions
    result = Sticks.result
    is_terminal = Sticks.is_terminal
    utility = Sticks.utility


def _table_members() -> list[str]:
    """The member names in the table of ``plies.Game``'s docstring."""
    doc = plies.Game.__doc__ or ""
    return re.findall(r"^    ``(\w+)``", doc, flags=re.MULTILINE)  # continuations go deeper


def test_the_game_docstring_table_lists_every_member() -> None:
    listed = _table_members()
    assert listed == [*REQUIRED, *FACTS, *METHODS, *HOOKS]
    for name in listed:  # each is declared on the model: an annotation or a default
        assert name in plies.Game.__annotations__ or name in vars(plies.Game), name
    public = {n for n in vars(plies.Game) if not n.startswith("_")} | set(
        n for n in plies.Game.__annotations__ if not n.startswith("_")
    )
    assert public == set(listed)


@pytest.mark.parametrize("name", HOOKS)
def test_a_hook_left_out_reads_as_absent(name: str) -> None:
    # Searches look hooks up with getattr(game, name, None): a subclass must look exactly
    # like a duck-typed game that has no such member.
    assert getattr(Sticks(), name, None) is None
    assert not hasattr(Sticks(), name)  # some front ends test for the member itself
    assert getattr(plies.Game, name) is None  # the documented default, on the class
    assert hook(Sticks(), name) is None and hook(DuckSticks(), name) is None


@pytest.mark.parametrize("name", METHODS)
def test_a_default_method_reads_as_absent_through_hook(name: str) -> None:
    assert callable(getattr(Sticks(), name))
    assert hook(Sticks(), name) is None and hook(DuckSticks(), name) is None


def test_hook_returns_what_a_game_provides() -> None:
    connect4 = plies.games.load("connect4")
    for name in ("order_hint", "value_bounds", "sufficient_actions", "noisy_actions"):
        assert hook(connect4, name) == getattr(connect4, name)
    assert hook(connect4, "split_moves") == connect4.split_moves
    assert hook(plies.games.load("civ"), "turn_progress") is not None
    assert hook(plies.games.load("aima-5-2"), "label") is not None
    with pytest.raises(ValueError, match="'order' is not an optional method or hook"):
        hook(connect4, "order")


def test_the_default_methods_do_what_absence_does() -> None:
    game, duck, s = Sticks(), DuckSticks(), 7
    for g in (game, duck):
        assert format_player_action(g, s, 0, 2) == "2"
        assert parse_action(g, s, " 2 ") == 2
    assert game.split_moves("1, 2 1") == ["1", "2", "1"]
    with pytest.raises(plies.IllegalActionError, match="legal moves: 1, 2"):
        game.parse_action(s, "3")


def test_default_hooks_do_not_change_a_search() -> None:
    game, duck = Sticks(), DuckSticks()
    for options in ({}, {"ordering": True, "tt": True}):
        mine = plies.alphabeta(game, 7, **options)  # type: ignore[arg-type]
        theirs = plies.alphabeta(duck, 7, **options)  # type: ignore[arg-type]
        assert (mine.value, mine.pv) == (theirs.value, theirs.pv)
        assert mine.stats.nodes == theirs.stats.nodes
    quiet = Quiescent(game)
    assert quiet.evaluate(7, 0) == 0.0 and quiet.nodes == 1


def test_wrappers_read_hooks_through_to_the_game() -> None:
    connect4 = plies.games.load("connect4")
    quiet = Quiescent(connect4)
    assert quiet.order_hint == connect4.order_hint
    assert quiet.split_moves("4453") == ["4", "4", "5", "3"]
    assert getattr(Quiescent(Sticks()), "order_hint", None) is None
    assert type(quiet).order_hint is None  # the declared default, on the class
    # A wrapper can still hide a hook that does not hold for it (mate scores values).
    mate = MateDistance(connect4)
    assert getattr(mate, "value_bounds", None) is None
    assert getattr(mate, "order_hint", None) is not None
    civ = plies.games.load("civ")
    chancy = OpponentsAsChance(civ, players=[1, 2])
    assert chancy.turn_progress == civ.turn_progress
    assert chancy.has_simultaneous is False
    rps = plies.games.load("rps")
    assert Quiescent(rps).has_simultaneous is True


def test_wrappers_keep_the_games_own_text() -> None:
    connect4 = plies.games.load("connect4")
    s = connect4.initial_state()
    wrapped = Quiescent(connect4)
    assert wrapped.parse_action(s, "4") == 3
    assert parse_action(wrapped, s, "4") == 3
    assert wrapped.format_player_action(s, 0, 3) == "3"


# --- a game lacking a required member fails when it is made ---------------------------------


def test_a_game_without_num_players_fails_when_made() -> None:
    # The bug: a missing num_players gave "TypeError: int() argument must be ... not
    # 'NoneType'" deep inside a search.
    class NoPlayers(plies.Game[int, int]):
        initial_state = Sticks.initial_state
        to_move = Sticks.to_move
        actions = Sticks.actions
        result = Sticks.result
        is_terminal = Sticks.is_terminal
        utility = Sticks.utility

    with pytest.raises(GameDefinitionError) as caught:
        NoPlayers()  # type: ignore[abstract]
    message = str(caught.value)
    assert message.startswith("NoPlayers is not a complete game: it lacks num_players; ")
    assert "a game defines num_players, initial_state, to_move, actions, result" in message
    assert isinstance(caught.value, plies.PliesError) and isinstance(caught.value, TypeError)


def test_the_error_names_every_missing_member() -> None:
    class Half(plies.Game[int, int]):
        num_players = 2

        def initial_state(self) -> int:
            return 0

        def actions(self, state: int) -> Sequence[int]:
            return [1]

    with pytest.raises(GameDefinitionError, match="lacks to_move, result, is_terminal, utility;"):
        Half()  # type: ignore[abstract]


@pytest.mark.parametrize("value", [0, -1, 2.0, True, "2"])
def test_num_players_must_be_a_positive_int(value: object) -> None:
    class Odd(Sticks):
        num_players = value  # type: ignore[assignment]

    with pytest.raises(GameDefinitionError, match=r"Odd.num_players must be an int >= 1, got "):
        Odd()


def test_an_init_that_forgets_num_players_fails() -> None:
    class Forgetful(plies.Game[int, int]):
        def __init__(self, players: int) -> None:
            self.players = players  # the bug: num_players is never set

        initial_state = Sticks.initial_state
        to_move = Sticks.to_move
        actions = Sticks.actions
        result = Sticks.result
        is_terminal = Sticks.is_terminal
        utility = Sticks.utility

    with pytest.raises(GameDefinitionError, match="lacks num_players"):
        Forgetful(2)  # type: ignore[abstract]

    class Unset(Sticks):
        num_players = None  # type: ignore[assignment]

    with pytest.raises(GameDefinitionError, match="lacks num_players"):
        Unset()


def test_members_set_in_init_count() -> None:
    class Late(Sticks):
        num_players = None  # type: ignore[assignment]

        def __init__(self, n: int) -> None:
            self.num_players = n

    assert Late(2).num_players == 2
    with pytest.raises(TypeError):  # the usual Python error for bad arguments
        Sticks(3)  # type: ignore[call-arg]


def test_abstract_intermediate_classes_are_checked_only_when_made() -> None:
    class Base(plies.Game[int, int]):  # shared helpers, not a game on its own
        num_players = 2

        def is_terminal(self, state: int) -> bool:
            return state == 0

    class Complete(Base):
        initial_state = Sticks.initial_state
        to_move = Sticks.to_move
        actions = Sticks.actions
        result = Sticks.result
        utility = Sticks.utility

    class Proto(plies.Game[int, int], Protocol):  # a narrower protocol is fine too
        def extra(self) -> int: ...

    assert plies.alphabeta(Complete(), 7).value == Sticks().utility(0, 0)
    with pytest.raises(GameDefinitionError, match="lacks initial_state, to_move, actions"):
        Base()  # type: ignore[abstract]
    with pytest.raises(TypeError, match="Protocols cannot be instantiated"):
        Proto()  # type: ignore[misc]
    with pytest.raises(TypeError, match="Protocols cannot be instantiated"):
        plies.Game()  # type: ignore[misc]


def test_dataclass_games_are_checked_after_their_fields_are_set() -> None:
    @dataclasses.dataclass
    class Sized(Sticks):
        num_players: int = 2
        start: int = 7

    assert Sized().num_players == 2 and Sized(start=3).start == 3
    with pytest.raises(GameDefinitionError, match=r"Sized\.num_players must be an int >= 1, got 0"):
        Sized(num_players=0)


def test_wrappers_and_library_games_are_complete() -> None:
    ttt = plies.games.load("tictactoe")
    for game in (
        GameWrapper(ttt), Quiescent(ttt), OpponentsAsChance(ttt), MateDistance(ttt),
        Sequentialized(plies.games.load("rps"), 0), MultiMoveTurns(Counter()),
        *(plies.games.load(name) for name in plies.games.names()),
    ):
        check_definition(game)
    copied = copy.deepcopy(Sticks())  # copies and pickles do not call the class
    assert pickle.loads(pickle.dumps(ttt)).num_players == 2 and copied.num_players == 2
    assert game_ops(DuckSticks()).num_players == 2  # duck typing is untouched


def test_a_game_class_shows_the_signature_of_its_init() -> None:
    # The completeness check runs in the metaclass; introspection must still see __init__.
    import inspect

    assert str(inspect.signature(MultiMoveTurns)) == (
        "(rules: 'MultiMoveRules[S, A]', moves: 'int | Callable[[S, int], int]' = 3, *, "
        "rounds: 'int | None' = None)"
    )
def test_opponents_as_chance_name_the_player_a_chance_node_stands_for() -> None:
    game = OpponentsAsChance(MultiMoveTurns(Counter(), moves=1), players=[1, 2])
    s = game.initial_state()
    seen = []
    for _ in range(4):
        seen.append((game.to_move(s), game.chance_player(s)))
        s = game.result(s, 1)
    assert seen == [(0, None), (CHANCE, 1), (CHANCE, 2), (0, None)]
    assert game_ops(game).chance_player(game.result(game.initial_state(), 1)) == 1


def test_a_die_roll_stands_for_no_player() -> None:
    pig = plies.games.load("pig")
    game = OpponentsAsChance(pig, players=[1])
    rolling = game.result(game.initial_state(), "roll")
    assert game.to_move(rolling) == CHANCE and game.chance_player(rolling) is None
    assert game_ops(pig).chance_player(rolling) is None  # default: every chance is dice
