"""The GGP player's UCT: metagaming's choice, the match tree kept across moves, mixed
play at simultaneous steps, and whole matches over HTTP in MCTS mode."""

from __future__ import annotations

import functools
import logging
import random
import re
import time
from typing import Any

import pytest

from plies.gdl.game import GdlGame
from plies.gdl.parser import parse
from plies.gdl.reasoner import Reasoner
from plies.gdl.terms import Term, to_kif
from plies.ggp.player import GgpPlayer
from plies.ggp.strategy import choose_move, profile_game
from plies.ggp.thinker import Choice, Clock, Profile, Thinker
from plies.ggp.uct import (
    BATCH,
    GREEDY,
    GREEDY_COST,
    MatchTree,
    choose_method,
    describe,
    greedy_level,
)
from plies.ggp.uctnative import NativeTree, ready
from plies.search import Limit
from tests.ggp.helpers import FAST, rules, serving
from tests.ggp.manager import GameManager, HttpSeat, RandomSeat
from tests.ggp.test_matches import PLAY_CLOCK, check


@functools.cache
def reasoner_of(name: str) -> Reasoner:
    return Reasoner(parse(rules(name)))


def far() -> Clock:
    return Clock(time.perf_counter() + 60.0)


def soon(seconds: float = 0.3) -> Clock:
    return Clock(time.perf_counter() + seconds)


def thinker(name: str, role: int = 0, seed: int = 1) -> Thinker:
    reasoner = reasoner_of(name)
    rng = random.Random(seed)
    profile = profile_game(reasoner, reasoner.initial_state(), far(), rng, max_playouts=30)
    return Thinker(GdlGame(reasoner), reasoner, role, profile, rng, mode="mcts")


def move(t: Thinker, state: Any, clock: Clock | None = None) -> tuple[Term, str, str]:
    choice = Choice(t.reasoner.legal(state, t.role)[0])
    choose_move(t, state, clock or soon(), choice)
    assert choice.done.is_set()
    return choice.read()


# --- metagaming's choice --------------------------------------------------------------------

BASE = {"playouts": 100, "speed": 10_000.0, "branching": 8.0, "length": 40.0, "roles": 2,
        "zero_sum": True, "informative": True}


@pytest.mark.parametrize(("changes", "method", "why"), [
    ({}, "alphabeta", "informative goals; depth 5.9"),
    ({"length": 5.0}, "alphabeta", "covers the game"),
    ({"roles": 3, "zero_sum": False}, "mcts", "not zero-sum, 3 roles"),
    ({"simultaneous": 0.5}, "mcts", "simultaneous 50%"),
    ({"zero_sum": False}, "mcts", "not zero-sum"),
    ({"informative": False}, "mcts", "uninformative goals"),
    ({"branching": 30.0}, "mcts", "depth 3.6 < 4"),
    ({"playouts": 0}, "alphabeta", "nothing measured"),
])
def test_metagaming_chooses_the_method_from_the_profile(
    changes: dict[str, Any], method: str, why: str
) -> None:
    profile = Profile(**{**BASE, **changes})
    chosen, reason = choose_method(profile, 1.0)
    assert chosen == method
    assert why in reason


def test_the_choice_is_explained_with_the_profiles_facts() -> None:
    profile = Profile(playouts=9, speed=8000.0, branching=31.0, length=60.0, roles=2)
    assert describe(profile) == "branching 31, length 60, 8000 states/s, not zero-sum"
    assert describe(Profile(speed=81_234.0, roles=3, zero_sum=True)).split(", ")[2:] == [
        "81k states/s", "zero-sum", "3 roles",
    ]


@pytest.mark.parametrize(("name", "roles", "simultaneous", "zero_sum"), [
    ("ticTacToe", 2, False, True),
    ("roshambo2", 2, True, True),
    ("alquerque", 2, False, False),  # scores, not zero-sum
    ("tictactoe_3player", 3, False, False),  # 100/66/33/0: the sum varies
])
def test_profile_counts_roles_simultaneous_steps_and_constant_sums(
    name: str, roles: int, simultaneous: bool, zero_sum: bool
) -> None:
    reasoner = reasoner_of(name)
    profile = profile_game(reasoner, reasoner.initial_state(), far(), random.Random(0),
                           max_playouts=40)
    assert profile.roles == roles
    assert (profile.simultaneous > 0) == simultaneous
    assert profile.zero_sum == zero_sum


# --- moves ------------------------------------------------------------------------------------


def _ttt(*marks: str) -> Any:
    """Tic-tac-toe after alternate marks by x and o ("1 1", "2 2", ...)."""
    reasoner = reasoner_of("ticTacToe")
    state = reasoner.initial_state()
    for k, cell in enumerate(marks):
        mark: Term = ("mark", *cell.split())
        joint = [mark, "noop"] if k % 2 == 0 else ["noop", mark]
        state = reasoner.next_state(state, joint)
    return state


def test_uct_takes_the_win_and_proves_it() -> None:
    t = thinker("ticTacToe")
    state = _ttt("1 1", "2 2", "1 2", "3 3")  # x to play (mark 1 3) and win
    played, source, detail = move(t, state, far())
    assert (to_kif(played), source) == ("(mark 1 3)", "mcts")
    assert "value 100.0 (exact)" in detail


def test_the_tree_is_kept_and_rerooted_across_the_moves_of_a_match() -> None:
    t = thinker("ticTacToe")
    state = _ttt()
    first, _, _ = move(t, state)
    tree: MatchTree = t.tree
    root = tree.tree.root
    after = t.reasoner.next_state(state, [first, "noop"])
    child = next(c for c in root.children.values() if c.state == after)
    visits = child.visits
    assert visits > 0
    forced = move(t, after)  # o moves; x's forced noop is answered and the tree grows
    assert forced[:2] == ("noop", "forced")
    assert tree.tree.root is child and child.visits > visits
    reply = t.reasoner.legal(after, 1)[0]
    later = t.reasoner.next_state(after, ["noop", reply])
    kept = child.children
    assert any(c.state == later for c in kept.values())
    _, source, detail = move(t, later)
    assert source == "mcts" and tree.kept == 3 and tree.moves == 3
    assert " 0 kept" not in detail


def test_a_state_not_in_the_tree_starts_a_fresh_root() -> None:
    t = thinker("ticTacToe")
    move(t, _ttt())
    far_away = _ttt("1 1", "2 2", "3 3", "1 3", "3 1")  # five marks later
    move(t, far_away)
    tree: MatchTree = t.tree
    assert tree.tree.state == far_away and (tree.moves, tree.kept) == (2, 1)


def test_roshambo_in_mcts_mode_plays_mixed_not_one_move_every_round() -> None:
    # The regression: alpha-beta's sequentialisation played paper in all 8
    # rounds of roshambo2.  Decoupled UCT samples its move from its visit frequencies.
    t = thinker("roshambo2", seed=4)
    reasoner = t.reasoner
    state = reasoner.initial_state()
    played = []
    other = random.Random(9)
    while not reasoner.is_terminal(state) and len(played) < 8:
        mine, source, _ = move(t, state, soon(0.15))
        assert source == "mcts" and mine in reasoner.legal(state, 0)
        played.append(mine)
        state = reasoner.next_state(state, [mine, other.choice(reasoner.legal(state, 1))])
    assert len(set(played)) >= 2, played


def test_three_roles_each_maximise_their_own_goal() -> None:
    t = thinker("tictactoe_3player", role=1)
    reasoner = t.reasoner
    state = reasoner.next_state(reasoner.initial_state(),
                                [reasoner.legal(reasoner.initial_state(), 0)[0], "noop", "noop"])
    played, source, _ = move(t, state)
    assert source == "mcts" and played in reasoner.legal(state, 1)


# --- whole matches over HTTP ---------------------------------------------------------------------


@functools.cache
def manager_of(game: str) -> GameManager:
    return GameManager(rules(game))


def seat(server: Any) -> HttpSeat:
    return HttpSeat(server.host, server.port)


def test_mcts_mode_tictactoe_match_never_loses_to_random() -> None:
    manager = manager_of("ticTacToe")
    with serving(seed=3, mode="mcts", **FAST) as plies:
        record = manager.play_match(
            [seat(plies), RandomSeat(random.Random(5))],
            match_id="uct.ttt", start_clock=2, play_clock=PLAY_CLOCK,
        )
        check(record, manager, {0: plies.player})
    assert record.goals is not None and record.goals[0] >= 50


def test_mcts_mode_simultaneous_match_between_two_players() -> None:
    manager = manager_of("roshambo2")
    with serving(seed=1, mode="mcts", **FAST) as white, \
            serving(seed=2, mode="mcts", **FAST) as black:
        record = manager.play_match(
            [seat(white), seat(black)], match_id="uct.rps", play_clock=PLAY_CLOCK
        )
        check(record, manager, {0: white.player, 1: black.player})
    assert record.goals is not None and sum(record.goals) == 100


def test_mcts_mode_three_role_match() -> None:
    manager = manager_of("tictactoe_3player")
    with serving(seed=1, mode="mcts", **FAST) as plies:
        record = manager.play_match(
            [RandomSeat(random.Random(1)), RandomSeat(random.Random(2)), seat(plies)],
            match_id="uct.ttt3", play_clock=PLAY_CLOCK,
        )
        check(record, manager, {2: plies.player})
    assert record.goals is not None and len(record.goals) == 3


def test_auto_mode_logs_its_choice_and_why(caplog: Any) -> None:
    manager = manager_of("connectFour")
    caplog.set_level(logging.INFO, logger="plies.ggp")
    with serving(GgpPlayer(seed=1, **FAST)) as plies:
        record = manager.play_match(
            [seat(plies), RandomSeat(random.Random(3))], match_id="uct.c4",
            start_clock=2, play_clock=PLAY_CLOCK, max_steps=4,
        )
        check(record, manager, {0: plies.player})
    # The choice is made on each machine the match plays on (top-down, then propnet).
    assert re.search(r"match uct\.c4: UCT on (topdown|propnet) \(branching 8, length", caplog.text)
    assert "zero-sum, uninformative goals)" in caplog.text
    assert re.search(r" by mcts on (topdown|propnet), ", caplog.text)


# --- MAST playouts ---------------------------------------------------------------------------

# Three steps, a or b each time; the goal counts the a's (0, 33, 66 or 100).
COUNT_AS = """
(role p) (init (step 0)) (succ 0 1) (succ 1 2) (succ 2 3)
(legal p a) (legal p b)
(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
(<= (next (as ?n)) (does p b) (true (as ?n)))
(<= (next (as ?y)) (does p a) (true (as ?x)) (succ ?x ?y))
(init (as 0))
(<= terminal (true (step 3)))
(<= (goal p 0) (true (as 0))) (<= (goal p 33) (true (as 1)))
(<= (goal p 66) (true (as 2))) (<= (goal p 100) (true (as 3)))
"""


@pytest.mark.parametrize("compiled", [False, True], ids=["python", "numba"])
def test_mast_learns_which_moves_pay_and_plays_them_more(compiled: bool) -> None:
    from plies.ggp.uct import Mast

    reasoner = Reasoner(parse(COUNT_AS), backend="numba" if compiled else "python")
    if compiled:
        assert reasoner.native is not None  # made: the playouts move over to it
    mast = Mast(reasoner)
    rng = random.Random(0)
    a, b = (reasoner.move_table[0].index(m) for m in ("a", "b"))
    for _ in range(300):
        end = mast.playout(reasoner.initial_state(), rng, 100)
        assert reasoner.is_terminal(end)
    assert mast.weights[0][a] > mast.weights[0][b]
    goals = [reasoner.goal(mast.playout(reasoner.initial_state(), rng, 100), 0)
             for _ in range(200)]
    assert sum(goals) / len(goals) > 60  # uniform moves average 50


@pytest.mark.parametrize("compiled", [False, True], ids=["python", "numba"])
def test_mast_playouts_stop_at_the_limit_and_learn_nothing_there(compiled: bool) -> None:
    from plies.ggp.uct import Mast

    reasoner = Reasoner(parse(COUNT_AS), backend="numba" if compiled else "python")
    if compiled:
        assert reasoner.native is not None
    mast = Mast(reasoner)
    state = mast.playout(reasoner.initial_state(), random.Random(1), 2)
    assert not reasoner.is_terminal(state)
    assert mast.stats == [{}]


# --- batched iterations ----------------------------------------------------------------------


def _view(name: str, backend: str, mast: bool = False) -> tuple[Reasoner, Any]:
    from plies.ggp.uct import Mast, UctView

    reasoner = Reasoner(parse(rules(name)), backend=backend)
    if backend == "numba":
        assert reasoner.native is not None  # compiled: the batches move over to it
    rng = random.Random(0)
    profile = profile_game(reasoner, reasoner.initial_state(), far(), rng, max_playouts=30)
    view = UctView(GdlGame(reasoner), reasoner, profile, Mast(reasoner) if mast else None)
    return reasoner, view


@pytest.mark.parametrize("name", ["ticTacToe", "connectFour", "roshambo2"])
def test_one_lane_of_the_gdl_view_is_the_sequential_uct(name: str) -> None:
    # Before the network is compiled the view's batch plays its playouts one at a time
    # with the game's own random playout: the draws of the sequential iteration.
    from plies.search.mcts import MctsTree
    from tests.search.test_mcts_batch import shape

    reasoner, view = _view(name, "python")
    state = reasoner.initial_state()
    plain = MctsTree(GdlGame(reasoner), state, seed=4)
    lanes = MctsTree(view, state, seed=4)
    for tree in (plain, lanes):
        tree.tree.scan_root()
    for _ in range(300):
        plain.tree.iterate()
        lanes.tree.iterate_batch(1)
    assert shape(lanes.root) == shape(plain.root)


@pytest.mark.parametrize("mast", [False, True], ids=["uniform", "mast"])
@pytest.mark.parametrize("name", ["ticTacToe", "connectFour", "roshambo2", "tictactoe_3player",
                                  "breakthrough"])
def test_compiled_batches_give_each_state_the_goals_of_a_finished_playout(
    name: str, mast: bool
) -> None:
    reasoner, view = _view(name, "numba", mast)
    state = reasoner.initial_state()
    states = [state]
    while len(states) < 70 and not reasoner.is_terminal(states[-1]):
        moves = [random.Random(len(states)).choice(m) for m in reasoner.legal_indices(states[-1])]
        states.append(reasoner.next_state_indices(states[-1], moves))
    states = [s for s in states if not reasoner.is_terminal(s)] * 3
    ends = view.random_playouts(states, random.Random(1), 1000)
    assert len(ends) == len(states)
    zero_sum = name in ("ticTacToe", "connectFour", "roshambo2", "breakthrough")
    for end in ends:
        assert end is not None and len(end) == len(reasoner.roles)
        assert all(0.0 <= g <= 100.0 and g == int(g) for g in end)
        assert sum(end) == 100 or not zero_sum
    if not mast:  # MAST's batches learn, so a second batch draws differently
        assert view.random_playouts(states, random.Random(1), 1000) == ends
    assert view.random_playouts(states[:5], random.Random(1), 0) == [None] * 5


def test_compiled_uct_runs_in_batches_and_still_takes_and_proves_the_win() -> None:
    reasoner = Reasoner(parse(rules("ticTacToe")), backend="numba")
    net = reasoner.native
    assert net is not None
    while not ready(reasoner, net):  # the compiled tree's kernels, in the background
        time.sleep(0.01)
    rng = random.Random(1)
    profile = profile_game(reasoner, reasoner.initial_state(), far(), rng, max_playouts=30)
    t = Thinker(GdlGame(reasoner), reasoner, 0, profile, rng, mode="mcts")
    state = _ttt("1 1", "2 2", "1 2", "3 3")
    choice = Choice(t.reasoner.legal(state, t.role)[0])
    choose_move(t, state, far(), choice)
    played, source, detail = choice.read()
    tree: MatchTree = t.tree
    assert isinstance(tree.tree, NativeTree)  # the compiled tree, once the network is
    assert tree.tree.batch == BATCH
    assert (to_kif(played), source) == ("(mark 1 3)", "mcts")
    assert "value 100.0 (exact)" in detail


def test_a_slice_that_found_no_move_does_not_end_the_thinking(monkeypatch: Any) -> None:
    """Under load the first slices of a move can end before their first iteration; the
    move is still thought about until the clock (not answered with the first legal
    move at once)."""
    reasoner = Reasoner(parse(rules("connectFour")), backend="numba")
    net = reasoner.native
    assert net is not None
    while not ready(reasoner, net):
        time.sleep(0.01)
    rng = random.Random(1)
    profile = profile_game(reasoner, reasoner.initial_state(), far(), rng, max_playouts=30)
    t = Thinker(GdlGame(reasoner), reasoner, 0, profile, rng, mode="mcts")
    search, slices = NativeTree.search, []

    def late(self: NativeTree, limit: Limit | None = None, **options: Any) -> Any:
        slices.append(limit)  # the first three slices: their time gone before they start
        return search(self, Limit(time=1e-9) if len(slices) <= 3 else limit, **options)

    monkeypatch.setattr(NativeTree, "search", late)
    _, source, detail = move(t, reasoner.initial_state(), soon(0.5))
    assert isinstance(t.tree.tree, NativeTree)
    assert len(slices) > 3
    assert source == "mcts"
    assert int(detail.split()[0]) > 0  # iterations


def test_compiled_batched_uct_keeps_the_invariants_on_connect_four() -> None:
    from plies.search.mcts import MctsTree
    from tests.search.test_mcts_batch import check_invariants

    reasoner, view = _view("connectFour", "numba", mast=True)
    tree = MctsTree(view, reasoner.initial_state(), seed=2, batch=64)
    result = tree.search(Limit(nodes=3000), player=0)
    assert result.stats.nodes == 3000
    check_invariants(tree)


def test_mast_in_compiled_batches_learns_which_moves_pay_and_plays_them_more() -> None:
    from plies.gdl.gatenet import Mast as NativeMast

    reasoner = Reasoner(parse(COUNT_AS), backend="numba")
    net = reasoner.native
    assert net is not None
    a, b = (reasoner.move_table[0].index(m) for m in ("a", "b"))
    start = reasoner.initial_state()
    uniform = net.batch(start, 256, seed=1, limit=100)
    assert abs(uniform.goals[:, 0].mean() - 50) < 8
    mast = NativeMast(net, 10.0)
    learnt = net.batch(start, 512, seed=1, limit=100, mast=mast)
    assert (learnt.status == 0).all()
    assert mast.counts.sum() == 3 * 512  # three choices a playout, each learnt once
    assert mast.weights[a] > mast.weights[b]
    assert learnt.goals[256:, 0].mean() > 60  # the later playouts draw what paid
    again = NativeMast(net, 10.0)
    assert (net.batch(start, 512, seed=1, limit=100, mast=again).goals == learnt.goals).all()
    stopped = NativeMast(net, 10.0)
    net.batch(start, 64, seed=1, limit=2, mast=stopped)  # no playout ends: nothing learnt
    assert stopped.counts.sum() == 0


# --- a game that comes apart: searched by part ---------------------------------------------

C4S = "factored/connectFourSimultaneous"


@functools.cache
def _parted() -> Reasoner:
    reasoner = Reasoner(parse(rules(C4S)), backend="numba")
    net = reasoner.build_native()
    assert net is not None and len(reasoner.build_parts()) == 2
    while not ready(reasoner, net):
        time.sleep(0.01)
    return reasoner


def _c4s_after(*steps: tuple[str, str]) -> Any:
    """Connect Four Simultaneous after ``steps`` (red's and black's drops as ``x b``)."""
    reasoner = _parted()
    state = reasoner.initial_state()
    for red, black in steps:
        joint = [("drop", *red.split()), ("drop", *black.split())]
        state = reasoner.next_state(state, joint)
    return state


# Red three on board 1's bottom row (columns 1-3), black three on board 2's; red moves
# on board 2 next (black on board 1), then on board 1 again.
THREES = [("1 1", "1 2"), ("8 2", "8 1"), ("2 1", "2 2"), ("7 2", "8 1"), ("3 1", "3 2")]


def _c4s_thinker() -> Thinker:
    reasoner = _parted()
    rng = random.Random(1)
    profile = profile_game(reasoner, reasoner.initial_state(), far(), rng, max_playouts=30)
    return Thinker(GdlGame(reasoner), reasoner, 0, profile, rng, mode="mcts")


def test_two_boards_at_once_are_searched_on_the_board_we_move_on() -> None:
    """Black threatens four on board 2, where red moves now: red's search on that
    board's subgame blocks it (the whole game's tree branches on 64 joint moves)."""
    t = _c4s_thinker()
    played, source, detail = move(t, _c4s_after(*THREES), soon(1.0))
    assert (to_kif(played), source) == ("(drop 4 2)", "mcts")
    assert re.match(r"part [12] of 2, \d+ iterations", detail), detail


def test_a_part_takes_its_win_and_its_tree_is_kept_across_the_other_parts_moves() -> None:
    t = _c4s_thinker()
    state = _c4s_after(*THREES)
    move(t, state, soon(0.5))  # board 2's part
    played, source, detail = move(t, _c4s_after(*THREES, ("4 2", "6 1")), soon(1.0))
    assert (to_kif(played), source) == ("(drop 4 1)", "mcts")
    assert "value 100.0 (exact)" in detail
    before = _c4s_after(*THREES[:-1])
    t2 = _c4s_thinker()
    move(t2, before, soon(0.5))  # board 1's part, red to move there
    match_tree = t2.tree
    assert match_tree is not None
    _, _, detail = move(t2, _c4s_after(*THREES, ("4 2", "6 1")), soon(0.3))
    kept = int(re.search(r"(\d+) kept", detail).group(1))  # type: ignore[union-attr]
    assert kept > 0  # two steps later, board 2 changed meanwhile: found all the same
    tree = next(iter(match_tree.parts.values()))
    assert bytes(tree.ns[tree.root]) == bytes(tree.net.to_array(
        _c4s_after(*THREES, ("4 2", "6 1"))))  # the kept root has board 2 as it is now


def test_a_step_with_moves_in_both_parts_is_searched_whole() -> None:
    """dualConnect4: the player in control drops on either board, so its moves are in
    both parts and the whole game's tree answers."""
    reasoner = Reasoner(parse(rules("factored/dualConnect4")), backend="numba")
    net = reasoner.build_native()
    assert net is not None and len(reasoner.build_parts()) == 2
    while not ready(reasoner, net):
        time.sleep(0.01)
    rng = random.Random(1)
    profile = profile_game(reasoner, reasoner.initial_state(), far(), rng, max_playouts=30)
    t = Thinker(GdlGame(reasoner), reasoner, 0, profile, rng, mode="mcts")
    _, source, detail = move(t, reasoner.initial_state(), soon(0.3))
    assert source == "mcts" and not detail.startswith("part")
    assert t.tree is not None and not t.tree.parts


def test_greedy_playouts_where_they_cost_little_and_two_roles_at_most() -> None:
    from plies.gdl.gatenet import GateNet

    two = reasoner_of("connectFour")
    net = GateNet(two.network)
    assert greedy_level(net) == 0  # not measured yet
    cost = net.measure_greedy(two.initial_state(), 0.02)
    assert net.greedy_cost == cost and 1.0 < cost < GREEDY_COST
    assert greedy_level(net) == GREEDY
    assert net.ends.any()  # the first batch learnt moves that end games
    net.greedy_cost = 2 * GREEDY_COST
    assert greedy_level(net) == 0
    three = GateNet(reasoner_of("tictactoe_3player").network)
    three.greedy_cost = 1.0
    assert greedy_level(three) == 0


def test_the_compiled_tree_of_a_match_plays_greedy_playouts() -> None:
    reasoner = reasoner_of("connectFour")
    net = reasoner.build_native()
    while not ready(reasoner, net):
        time.sleep(0.05)
    assert net.greedy_cost is not None and net.greedy_cost < GREEDY_COST
    match_tree = MatchTree(thinker("connectFour"), reasoner.initial_state())
    match_tree.compiled(reasoner.initial_state())  # if the tree did not start compiled
    assert isinstance(match_tree.tree, NativeTree) and match_tree.tree.greedy == GREEDY
