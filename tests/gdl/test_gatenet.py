"""The Numba-compiled gates (plies.gdl.gatenet) against the reasoner's Python functions
and the naive prover, state by state, on every game of the test data that grounds."""

from __future__ import annotations

import importlib.util
import math
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.errors import OptionError
from plies.gdl import GroundingError, Prover, Reasoner, load, parse
from plies.gdl.gatenet import STATUS, GateNet, Mast
from tests.data import GDL_DATA

# Every game of the test data the reasoner grounds within the default budget, but hexPie
# (a minute to ground) and the large ones (benchmarks/gdl_playouts.py plays checkers).
PATHS = sorted(
    p for folder in ("", "nim", "reference", "prover_cases")
    for p in (GDL_DATA / folder).glob("*.kif") if p.stem != "hexPie"
)

# A recursive view: cells reachable from the start through open cells, on a cycle of
# four (reach is defined through itself, so its ground atoms form one component).
CYCLE = """
(role opener) (role closer)
(succ a b) (succ b c) (succ c d) (succ d a)
(<= (edge ?x ?y) (succ ?x ?y)) (<= (edge ?x ?y) (succ ?y ?x))
(init (open a)) (init (control opener)) (init (step 0))
(count 0 1) (count 1 2) (count 2 3) (count 3 4) (count 4 5) (count 5 6)
(cell a) (cell b) (cell c) (cell d)
(<= (reach a) (true (open a)))
(<= (reach ?y) (reach ?x) (edge ?x ?y) (true (open ?y)))
(<= (legal ?r (flip ?x)) (role ?r) (true (control ?r)) (cell ?x))
(<= (legal ?r noop) (role ?r) (not (true (control ?r))))
(<= (next (open ?x)) (true (open ?x)) (not (does opener (flip ?x))) (not (does closer (flip ?x))))
(<= (next (open ?x)) (cell ?x) (not (true (open ?x))) (does ?r (flip ?x)))
(<= (next (control closer)) (true (control opener)))
(<= (next (control opener)) (true (control closer)))
(<= (next (step ?y)) (true (step ?x)) (count ?x ?y))
(<= terminal (reach c)) (<= terminal (true (step 6)))
(<= (goal opener 100) (reach c)) (<= (goal opener 0) (not (reach c)))
(<= (goal closer 0) (reach c)) (<= (goal closer 100) (not (reach c)))
"""


@cache
def reasoner(name: str) -> Reasoner:
    """The reasoner of a test game (``cycle``: :data:`CYCLE`), its gates compiled once."""
    if name == "cycle":
        return Reasoner(parse(CYCLE), backend="numba")
    return Reasoner(load(GDL_DATA / f"{name}.kif"), backend="numba")


def grounded(path: Path) -> str | None:
    name = str(path.relative_to(GDL_DATA).with_suffix(""))
    try:
        reasoner(name)
    except GroundingError:
        return None
    return name


def native(r: Reasoner) -> GateNet:
    net = r.native
    assert net is not None
    return net


def agree(r: Reasoner, state: int, joints: list[list[int]]) -> None:
    """The gates answer as the reasoner's functions do in ``state``, for each joint."""
    net = native(r)
    where = r.format_state(state)
    assert net.is_terminal(state) == r.is_terminal(state), where
    assert net.legal(state) == tuple(r.legal_indices(state)), where
    assert [sorted(v) for v in net.goals(state)] == [sorted(v) for v in r.compiled.goals(state)]
    for joint in joints:
        assert net.next_state(state, joint) == r.next_state_indices(state, joint), where


def walk(r: Reasoner, rng: random.Random, playouts: int) -> None:
    """Random playouts, every state checked with the joint played and one more."""
    for _ in range(playouts):
        state = r.initial_state()
        for _ in range(200):
            legal = r.legal_indices(state)
            if r.is_terminal(state) or not all(legal):
                agree(r, state, [])
                break
            joints = [[rng.choice(moves) for moves in legal] for _ in range(2)]
            agree(r, state, joints)
            state = r.next_state_indices(state, joints[0])


def test_the_recursive_game_has_a_cyclic_block() -> None:
    r = reasoner("cycle")
    assert r.network.cyclic
    assert native(r).k[8] > 0  # NB: the recursive block compiled as one


@pytest.mark.parametrize("path", PATHS, ids=lambda p: str(p.relative_to(GDL_DATA)))
def test_gates_agree_with_the_reasoner_along_random_playouts(path: Path) -> None:
    name = grounded(path)
    if name is None:
        assert path.stem in ("test_case_3b", "test_case_3e", "test_case_3f")
        return
    walk(reasoner(name), random.Random(path.stem), 4)


def test_gates_agree_with_the_reasoner_on_the_recursive_game() -> None:
    walk(reasoner("cycle"), random.Random(5), 40)


@pytest.mark.parametrize("name", ["ticTacToe", "buttons", "nim1", "cycle", "roshambo2"])
def test_gates_agree_with_the_naive_prover(name: str) -> None:
    r = reasoner(name)
    net = native(r)
    p = Prover(r.description)
    rng = random.Random(11)
    for _ in range(3):
        state = r.initial_state()
        while True:
            fs = r.fluents(state)
            assert net.is_terminal(state) == p.is_terminal(fs)
            legal = net.legal(state)
            for role in range(len(r.roles)):
                terms = sorted((r.move_table[role][i] for i in legal[role]), key=str)
                assert terms == list(p.legal(fs, role))
                values = [v for v in net.goals(state)[role] if v >= 0]
                assert sorted(values) == p.goal_values(fs, role)
            if p.is_terminal(fs):
                break
            joint = [rng.choice(moves) for moves in legal]
            terms_joint = [r.move_table[role][i] for role, i in enumerate(joint)]
            state = net.next_state(state, joint)
            assert r.fluents(state) == p.next_state(fs, terms_joint)


def replay_ends(r: Reasoner, state: int, end: int, limit: int) -> bool:
    """Whether some sequence of at most ``limit`` legal joint moves leads from ``state``
    to ``end`` (a search through the reasoner, for small games)."""
    frontier = {state}
    for _ in range(limit + 1):
        if end in frontier:
            return True
        following = set()
        for s in frontier:
            if r.is_terminal(s):
                continue
            legal = r.legal_indices(s)
            joints: list[list[int]] = [[]]
            for moves in legal:
                joints = [[*j, m] for j in joints for m in moves]
            following.update(r.next_state_indices(s, j) for j in joints)
        frontier = following
    return False


@settings(max_examples=25, deadline=None)
@given(
    name=st.sampled_from(["ticTacToe", "nim1", "buttons", "cycle", "maze", "connectFour"]),
    seed=st.integers(0, 2**32 - 1),
    limit=st.integers(0, 12),
    start=st.integers(0, 6),
)
def test_a_compiled_playout_is_a_legal_game_of_the_reasoner(
    name: str, seed: int, limit: int, start: int
) -> None:
    r = reasoner(name)
    net = native(r)
    rng = random.Random(seed)
    state = r.initial_state()
    for _ in range(start):  # from a state part-way through, as a tree's leaf
        if r.is_terminal(state):
            break
        state = r.next_state_indices(state, [rng.choice(m) for m in r.legal_indices(state)])
    end, status, visited = net.playout(state, seed=seed, limit=limit)
    assert status in STATUS
    assert 1 <= visited <= limit + 1
    if status == "terminal":
        assert r.is_terminal(end)
        goals = [r.goal_values(end, role) for role in range(len(r.roles))]
        assert [v[0] if len(v) == 1 else -1 for v in goals] == list(net.last_goals)
    else:
        assert status == "limit" and visited == limit + 1 and not r.is_terminal(end)
    if name != "connectFour":
        assert replay_ends(r, state, end, visited - 1)
    # The same seed, the same playout, whatever the net computed in between.
    net.playout(r.initial_state(), seed=seed + 1, limit=limit)
    assert net.playout(state, seed=seed, limit=limit) == (end, status, visited)


def test_playouts_count_the_states_they_visit() -> None:
    r = reasoner("ticTacToe")
    net = native(r)
    visited = net.playouts(r.initial_state(), 50, seed=3, limit=100)
    assert 5 * 50 + 50 <= visited <= 10 * 50  # 5 to 9 moves a game, and the first state


def test_mast_learns_from_the_goals_of_its_playouts() -> None:
    r = reasoner("ticTacToe")
    net = native(r)
    mast = Mast(net, tau=10.0)
    for seed in range(200):
        end, status, _ = net.playout(r.initial_state(), seed=seed, limit=100, mast=mast)
        assert status == "terminal" and r.is_terminal(end)
    assert mast.counts.sum() > 0
    seen = mast.counts > 0
    means = mast.sums[seen] / mast.counts[seen]
    assert ((means >= 0) & (means <= 100)).all()
    assert list(mast.weights[seen]) == pytest.approx([math.exp(m / 10.0) for m in means])
    assert list(mast.weights[~seen]) == pytest.approx([math.exp(10.0)] * int((~seen).sum()))
    noop = r.move_table[1].index("noop") + len(r.move_table[0])
    assert mast.counts[noop] == 0  # a forced move is not a choice


def test_a_role_without_a_legal_move_stops_the_playout() -> None:
    r = Reasoner(parse("(role a) (role b) (init s) (legal a go) (<= (next s) (true s))"
                       " (goal a 0) (goal b 0)"), backend="numba")
    end, status, visited = native(r).playout(r.initial_state(), seed=1, limit=10)
    assert (status, visited, end) == ("no legal move", 1, r.initial_state())
    assert native(r).last_goals[0] == 1  # role b


def test_the_python_backend_has_no_native_net() -> None:
    r = Reasoner(load(GDL_DATA / "buttons.kif"), backend="python")
    assert r.backend == "python" and r.native is None


def test_build_native_publishes_the_net_with_every_player_kernel_compiled() -> None:
    # A player's search reads native_built() and must never wait for a compilation.
    from plies.gdl import gatebits, gatejit

    r = Reasoner(load(GDL_DATA / "buttons.kif"), backend="numba")
    assert r.native_built() is None
    net = r.build_native()
    assert net is not None and r.native_built() is net
    assert r.build_native() is net  # made once
    for kernel in (gatejit.play, gatebits.playouts):
        assert kernel.signatures, kernel  # compiled (or loaded from the cache)
    assert Reasoner(load(GDL_DATA / "buttons.kif"), backend="python").build_native() is None


def test_auto_is_numba_when_numba_is_installed() -> None:
    r = Reasoner(load(GDL_DATA / "buttons.kif"))
    assert r.backend == ("numba" if importlib.util.find_spec("numba") else "python")


def test_unknown_backend_is_a_one_line_error() -> None:
    with pytest.raises(OptionError, match=r"^unknown reasoner backend 'fast'; use one of: "
                                          r"auto, numba, python$"):
        Reasoner(load(GDL_DATA / "buttons.kif"), backend="fast")


def test_numba_without_numba_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import plies.compiled

    monkeypatch.setattr(plies.compiled, "numba_available", lambda: False)
    with pytest.raises(OptionError, match=r"pip install 'plies\[fast\]'"):
        Reasoner(load(GDL_DATA / "buttons.kif"), backend="numba")
    assert Reasoner(load(GDL_DATA / "buttons.kif")).backend == "python"


# --- bit-parallel playouts (plies.gdl.gatebits) ----------------------------------------------

def lane_states(r: Reasoner, rng: random.Random, lanes: int) -> list[int]:
    """States met along random playouts (terminal ones and the start state included)."""
    out: list[int] = []
    while len(out) < lanes:
        state = r.initial_state()
        for _ in range(200):
            out.append(state)
            if r.is_terminal(state) or not all(r.legal_indices(state)):
                break
            state = r.next_state_indices(state, [rng.choice(m) for m in r.legal_indices(state)])
    rng.shuffle(out)
    return out[:lanes]


def words_agree(r: Reasoner, rng: random.Random) -> None:
    """64 states in the 64 lanes of one word evaluation: every lane's terminal, legal
    moves, goals and successor (for a random legal joint move) are the reasoner's."""
    import numpy as np

    from plies.gdl import gatebits

    net = native(r)
    states = lane_states(r, rng, gatebits.LANES)
    words = np.zeros(net.fluents, dtype=np.uint64)
    joint = np.zeros(net.moves, dtype=np.uint64)
    joints: list[list[int] | None] = []
    for lane, state in enumerate(states):
        bit = np.uint64(1 << lane)
        words[net.to_array(state) == 1] |= bit
        legal = r.legal_indices(state)
        if r.is_terminal(state) or not all(legal):
            joints.append(None)
            continue
        chosen = [rng.choice(m) for m in legal]
        joints.append(chosen)
        for role, i in enumerate(chosen):
            joint[net.role_first[role] + i] |= bit
    legal_w = np.zeros(net.moves, dtype=np.uint64)
    goal_w = np.zeros(len(net._goal_role), dtype=np.uint64)
    next_w = np.zeros(net.fluents, dtype=np.uint64)
    term = int(gatebits.evaluate(net.k, *net.words(), words, joint, legal_w, goal_w, next_w))

    def lane_of(word: Any, lane: int) -> Any:
        return (word >> np.uint64(lane)) & np.uint64(1)

    for lane, state in enumerate(states):
        where = r.format_state(state)
        assert bool(term >> lane & 1) == r.is_terminal(state), where
        on = lane_of(legal_w, lane)
        legal = tuple([m - lo for m in range(lo, hi) if on[m]]
                      for lo, hi in zip(net.role_first, net.role_first[1:], strict=False))
        assert legal == tuple(r.legal_indices(state)), where
        held: list[list[int]] = [[] for _ in r.roles]
        for e, holds in enumerate(lane_of(goal_w, lane)):
            if holds:
                held[net._goal_role[e]].append(net._goal_value[e])
        assert [sorted(v) for v in held] == [sorted(v) for v in r.compiled.goals(state)], where
        chosen = joints[lane]
        if chosen is not None:
            successor = net.from_array(lane_of(next_w, lane).astype(np.uint8))
            assert successor == r.next_state_indices(state, chosen), where


@pytest.mark.parametrize("path", PATHS, ids=lambda p: str(p.relative_to(GDL_DATA)))
def test_bit_parallel_gates_agree_with_the_reasoner_in_every_lane(path: Path) -> None:
    name = grounded(path)
    if name is None:
        assert path.stem in ("test_case_3b", "test_case_3e", "test_case_3f")
        return
    words_agree(reasoner(name), random.Random(path.stem))


def test_bit_parallel_gates_agree_on_the_recursive_game() -> None:
    for seed in range(3):
        words_agree(reasoner("cycle"), random.Random(seed))


@pytest.mark.parametrize("name", ["ticTacToe", "buttons", "cycle", "nim1", "maze"])
def test_a_batch_is_reproducible_and_ends_its_playouts(name: str) -> None:
    r = reasoner(name)
    net = native(r)
    start = r.initial_state()
    batch = net.batch(start, 150, seed=7, limit=100)  # more playouts than lanes
    assert list(batch.status) == [0] * 150  # every playout reached a terminal state
    terminal_goals = {tuple(v[0] if len(v) == 1 else -1 for v in
                            (r.goal_values(s, role) for role in range(len(r.roles))))
                      for s in reachable_terminals(r, start)}
    assert {tuple(g) for g in batch.goals.tolist()} <= terminal_goals
    again = net.batch(start, 150, seed=7, limit=100)
    assert (again.goals == batch.goals).all() and again.visited == batch.visited
    assert net.playouts(start, 150, seed=7, limit=100) == batch.visited


def reachable_terminals(r: Reasoner, start: int) -> set[int]:
    """Every terminal state reachable from ``start`` (small games only)."""
    seen, todo, ends = {start}, [start], set()
    while todo:
        s = todo.pop()
        if r.is_terminal(s):
            ends.add(s)
            continue
        joints: list[list[int]] = [[]]
        for moves in r.legal_indices(s):
            joints = [[*j, m] for j in joints for m in moves]
        for j in joints:
            t = r.next_state_indices(s, j)
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return ends


def test_a_batch_counts_states_as_single_playouts_do() -> None:
    # buttons ends after exactly 6 joint moves: 7 states a playout, in every lane.
    r = reasoner("buttons")
    net = native(r)
    assert net.batch(r.initial_state(), 100, seed=1, limit=50).visited == 700
    cut = net.batch(r.initial_state(), 70, seed=1, limit=3)
    assert cut.visited == 70 * 4 and list(cut.status) == [STATUS.index("limit")] * 70
    assert (cut.goals == -1).all()
    assert net.batch(r.initial_state(), 0, seed=1, limit=3).visited == 0


def test_a_batch_playout_meets_every_outcome_of_tic_tac_toe() -> None:
    # Uniform play from the empty board: xplayer wins about 58%, oplayer 29%, draws 13%.
    r = reasoner("ticTacToe")
    goals = native(r).batch(r.initial_state(), 6400, seed=3, limit=100).goals
    wins = (goals[:, 0] == 100).mean()
    losses = (goals[:, 0] == 0).mean()
    assert 0.55 < wins < 0.62 and 0.26 < losses < 0.32
    assert ((goals[:, 0] + goals[:, 1]) == 100).all()


def test_a_batch_stops_at_a_role_without_a_legal_move() -> None:
    r = Reasoner(parse("(role a) (role b) (init s) (legal a go) (<= (next s) (true s))"
                       " (goal a 0) (goal b 0)"), backend="numba")
    batch = native(r).batch(r.initial_state(), 3, seed=1, limit=10)
    assert list(batch.status) == [STATUS.index("no legal move")] * 3
    assert list(batch.goals[:, 0]) == [1, 1, 1] and batch.visited == 3


def counter_game(length: int) -> Reasoner:
    """One role that chooses ``left`` or ``right`` at each of ``length`` steps (goal 100
    for both roles at the end); a second role only waits (``noop``, never a choice)."""
    steps = " ".join(f"(succ {i} {i + 1})" for i in range(length))
    return Reasoner(parse(f"""
        (role chooser) (role waiter) (init (step 0)) {steps}
        (legal chooser left) (legal chooser right) (legal waiter noop)
        (<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
        (<= (next (went ?m)) (does chooser ?m))
        (<= terminal (true (step {length})))
        (goal chooser 100) (goal waiter 100)"""), backend="numba")


def after(r: Reasoner, steps: int) -> int:
    state = r.initial_state()
    for _ in range(steps):
        state = r.next_state_indices(state, [0, 0])
    return state


@pytest.mark.parametrize("length", [10, 200])  # fewer and more draws than a lane records
def test_a_mast_batch_learns_every_draw_of_the_playouts_that_end_once(length: int) -> None:
    r = counter_game(length)
    net = native(r)
    mast = Mast(net, tau=10.0)
    # 150 playouts from the start that the limit cuts (nothing learnt), then 150 that
    # end: the lanes are reused, so a cut playout's draws must not be learnt later.
    start, late = r.initial_state(), after(r, length // 2)
    batch = net.batch([start, late], 150, seed=5, limit=length - length // 2)
    assert list(batch.status) == [STATUS.index("limit")] * 150 + [0] * 150
    left, right = range(2)
    assert mast.counts.sum() == 0
    batch = net.batch([start, late], 150, seed=5, limit=length - length // 2, mast=mast)
    assert list(batch.status) == [STATUS.index("limit")] * 150 + [0] * 150
    drawn = mast.counts[left] + mast.counts[right]
    assert drawn == 150 * (length - length // 2)  # every draw of the 150 that ended
    assert mast.counts[2] == 0  # waiter's noop: forced, not drawn
    assert list(mast.sums[:2]) == [100 * mast.counts[left], 100 * mast.counts[right]]
    assert list(mast.weights[:2]) == pytest.approx([math.exp(10.0)] * 2)
    # a fair coin: each side about half of the draws
    assert abs(mast.counts[left] - drawn / 2) < 4 * math.sqrt(drawn / 4)


def test_the_move_gates_on_words_agree_with_the_reasoner_after_the_state_gates() -> None:
    """The move group evaluated alone after the state group, as a playout's step and the
    compiled tree's block expansion run it: each lane's successor is the reasoner's."""
    import numpy as np

    from plies.gdl import gatebits, gatejit

    for name in ("ticTacToe", "pentago", "roshambo2", "cycle"):
        r = reasoner(name)
        net = native(r)
        rng = random.Random(name)
        k = net.k
        nf, nm, base = int(k[gatejit.F]), int(k[gatejit.M]), int(k[gatejit.BASE])
        w = np.zeros(base + int(k[gatejit.G]), dtype=np.uint64)
        w[nf + nm + 1] = np.uint64(0xFFFFFFFFFFFFFFFF)
        states = [s for s in lane_states(r, rng, 4 * gatebits.LANES)
                  if not r.is_terminal(s) and all(r.legal_indices(s))][:gatebits.LANES]
        joints = []
        for lane, state in enumerate(states):
            bit = np.uint64(1 << lane)
            w[:nf][net.to_array(state) == 1] |= bit
            joint = [rng.choice(m) for m in r.legal_indices(state)]
            joints.append(joint)
            for role, i in enumerate(joint):
                w[nf + net.role_first[role] + i] |= bit
        words = net.words()
        gatejit.evaluate_words(k, w, *words, 0, int(k[gatejit.N0]))
        gatejit.evaluate_words(k, w, *words, int(k[gatejit.N0]), int(k[gatejit.N1]))
        nxt = [int(x) for x in net._section("NEXT", nf)]
        for lane, state in enumerate(states):
            bits = np.array([(int(w[ref >> 1]) >> lane & 1) ^ (ref & 1) for ref in nxt],
                            dtype=np.uint8)
            assert net.from_array(bits) == r.next_state_indices(state, joints[lane]), name


def dropped(r: Reasoner, columns: str) -> int:
    """Connect Four after red and black drop in ``columns`` in turn (red first)."""
    state = r.initial_state()
    for i, column in enumerate(columns):
        drop, noop = ("drop", column), "noop"
        state = r.next_state(state, [drop, noop] if i % 2 == 0 else [noop, drop])
    return state


def every_move_ends(net: GateNet) -> None:
    """Let a greedy batch try every move for a decisive one (they are learnt otherwise)."""
    net.ends[:] = 1


def test_a_greedy_batch_plays_the_winning_move_where_there_is_one() -> None:
    # Red has three in column 1 and is to move: dropping there wins at once.
    r = reasoner("connectFour")
    net = native(r)
    state = dropped(r, "121312")
    win = r.next_state(state, [("drop", "1"), "noop"])
    assert r.is_terminal(win) and r.goal(win, 0) == 100 and not r.is_terminal(state)
    every_move_ends(net)
    for greedy in (1, 2):
        batch = net.batch(state, 200, seed=3, limit=100, greedy=greedy)
        assert (batch.goals[:, 0] == 100).all() and batch.visited == 2 * 200
    uniform = net.batch(state, 200, seed=3, limit=100)
    assert (uniform.goals[:, 0] == 0).any()  # the uniform draw misses the win, at times


def test_an_anti_decisive_batch_never_hands_the_opponent_a_win_it_can_stop() -> None:
    # Black has three in column 8; red, to move, has no win: only dropping in column 8
    # keeps black from winning at its next move.
    r = reasoner("connectFour")
    net = native(r)
    state = dropped(r, "181838")
    every_move_ends(net)
    limit = STATUS.index("limit")
    blocked = net.batch(state, 300, seed=4, limit=2, greedy=2)
    assert list(blocked.status) == [limit] * 300  # red blocked in every playout
    greedy = net.batch(state, 300, seed=4, limit=2, greedy=1)  # black wins, red never sees it
    lost = greedy.status == 0
    assert lost.mean() > 0.7 and (greedy.goals[lost, 1] == 100).all()
    uniform = net.batch(state, 300, seed=4, limit=2)
    assert 0 < (uniform.status == 0).mean() < 1  # black wins only where it drew column 8


def test_a_greedy_batch_learns_the_moves_that_end_games_and_counts_mast_draws_once() -> None:
    r = reasoner("ticTacToe")
    net = native(r)
    net.ends[:] = 0
    start = r.initial_state()
    net.batch(start, 200, seed=1, limit=100)
    assert net.ends.sum() == 0  # a plain batch learns nothing
    mast = Mast(net, tau=10.0)
    batch = net.batch(start, 640, seed=1, limit=100, greedy=2, mast=mast)
    assert list(batch.status) == [0] * 640
    # every mark ends some game; the waiting role's noop is learnt too (harmless: it is
    # never a choice of a role alone)
    marks = [net.role_first[role] + i for role, table in enumerate(r.move_table)
             for i, m in enumerate(table) if m != "noop"]
    assert all(net.ends[marks])
    # a stepped-back draw is taken back: each playout learns its moves that stand
    assert (mast.counts >= 0).all() and mast.counts.sum() <= 9 * 640
    assert (mast.sums <= 100 * mast.counts).all()
    # the greedy players defend: more draws than uniform play's 13%
    draws = (batch.goals[:, 0] == 50).mean()
    assert draws > 0.2


@pytest.mark.parametrize(
    "name", ["connectFour", "breakthrough", "ticTacToe", "pentago", "alquerque"])
def test_the_greedy_lookahead_of_changed_gates_plays_as_evaluating_every_gate(name: str) -> None:
    """A greedy batch tries a move by evaluating only the gates it can change
    (``GateNet.lookahead``): the same playouts, seed for seed, as evaluating them all."""
    import numpy as np

    r = reasoner(name)
    start = r.initial_state()
    rng = random.Random(name)
    states = [start]
    for _ in range(3):  # and from a few states along a random game
        state = start
        for _ in range(rng.randrange(1, 12)):
            if r.is_terminal(state):
                break
            state = r.next_state_indices(state, [rng.choice(m) for m in r.legal_indices(state)])
        states.append(state)
    quick, full = GateNet(r.network), GateNet(r.network)
    assert quick.lookahead().size > 0
    full._lookahead = np.empty(0, dtype=np.int64)  # every gate, as without the lists
    for greedy in (1, 2):
        quick.ends[:] = full.ends[:] = 0
        for seed in range(3):
            a = quick.batch(states, 40, seed=seed, limit=200, greedy=greedy)
            b = full.batch(states, 40, seed=seed, limit=200, greedy=greedy)
            assert (a.goals == b.goals).all() and (a.status == b.status).all()
            assert a.visited == b.visited and (quick.ends == full.ends).all()
