"""Bit-parallel playouts: 64 random playouts at once over the compiled gates.

This module imports Numba: :mod:`plies.gdl.gatenet` imports it only when a batch of
playouts is first asked for.  It reads the layout of :mod:`plies.gdl.gatejit` (the
``k`` array: the sections ``LEGAL``, ``NEXT``, ``GOAL``, ... and the gate groups) and
a *word view* of its gates, made by :meth:`plies.gdl.gatenet.GateNet.words`:

- every node (fluent, move, constant, gate) holds one ``uint64`` *word*: bit ``l`` is
  its value in *lane* ``l``, one playout of 64;
- gate ``g`` is the ``or`` of the words ``w[wnode[i]] ^ wmask[i]`` for ``i`` in
  ``wfirst[g]:wfirst[g + 1]`` (``wmask`` all ones for a negated input) and of its
  plain move inputs, the result xored with ``kmask[g]`` (all ones for an ``and``,
  whose inputs are stored negated): one word operation evaluates a gate in 64 states.
  A gate's move inputs are read from the move nodes' words (bit ``l`` set when lane
  ``l`` chose the move), not counted as the scalar kernels do; its plain ones are
  listed by move (``wmove``), and only the moves some lane chose are read: a step
  reads tens of moves, not the hundreds of move inputs of a board game's frame
  axioms.

A step evaluates the state gates of every lane, tests ``terminal``, lets each lane's
roles draw a uniformly random legal move (per role: the lane's legal moves counted,
one index drawn, the move found again), sets the move words, evaluates the gates that
read moves, and reads ``next``.  A lane whose playout ended (a terminal state, the step
limit, a role without a legal move) records it and starts the next playout of the batch
from the start state, so that the lanes stay busy until the last 63 playouts.  The
random numbers are Numba's generator (seeded by :func:`plies.gdl.gatejit.seed`): the
same seed, the same batch.  Greedy playouts (:func:`playouts`' ``greedy``) try, once
the moves are drawn, each move that has ended a playout before in every lane where it
is legal at once, and step a lane back by restoring its bits of the state before.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from plies.gdl.gatejit import (
    BASE,
    N0,
    N1,
    NB,
    NGOALS,
    O_GOAL,
    O_GOAL_ROLE,
    O_GOAL_VALUE,
    O_LEGAL,
    O_LOOP_HI,
    O_LOOP_LO,
    O_NEXT,
    O_ROLE_FIRST,
    TERMINAL,
    F,
    G,
    M,
    R,
    evaluate_word_gates,
)
from plies.gdl.gatelayout import BATCH_LANES

LANES = BATCH_LANES
"""Playouts played at once: the bits of a word."""

_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit(cache=True, nogil=True, inline="always")
def _low(x):  # type: ignore[no-untyped-def]
    """The index of the lowest set bit of the non-zero word ``x`` (one instruction,
    LLVM's ``cttz``: a lane from its bit costs less than the bits it is found among)."""
    return trailing_zeros(x)  # type: ignore[call-arg]


@njit(cache=True, nogil=True, inline="always")
def _count(x):  # type: ignore[no-untyped-def]
    """The number of set bits of ``x``."""
    x = x - ((x >> _ONE) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return int((x * _H01) >> np.uint64(56))


@njit(cache=True, nogil=True, inline="always")
def _word(w, ref):  # type: ignore[no-untyped-def]
    """The lanes where the reference ``ref`` (``2 * node + negated``) holds."""
    v = w[ref >> 1]
    if ref & 1:
        v = ~v
    return v


_evaluate = evaluate_word_gates  # the gates on words, one place for both


@njit(cache=True, nogil=True)
def evaluate(k, wfirst, wnode, wmask, kmask, wmove, states, joint, legal_out, goal_out, next_out):  # type: ignore[no-untyped-def]
    """The network in every lane at once, for tests: ``states`` (one word per fluent)
    gives each lane's state and ``joint`` (one word per global move) its joint move;
    fills the words of the legal moves, the goal entries and the successors, and returns
    the word of ``terminal``."""
    nf, nm, base = k[F], k[M], k[BASE]
    loop_lo = k[k[O_LOOP_LO]:k[O_LOOP_LO] + k[NB]]
    loop_hi = k[k[O_LOOP_HI]:k[O_LOOP_HI] + k[NB]]
    w = np.zeros(base + k[G], np.uint64)
    w[nf + nm + 1] = _ALL
    w[:nf] = states
    w[nf:nf + nm] = joint
    _evaluate(w, wfirst, wnode, wmask, kmask, wmove, base, 0, k[G], loop_lo, loop_hi)
    for m in range(nm):
        legal_out[m] = _word(w, k[k[O_LEGAL] + m])
    for e in range(k[NGOALS]):
        goal_out[e] = _word(w, k[k[O_GOAL] + e])
    for j in range(nf):
        next_out[j] = _word(w, k[k[O_NEXT] + j])
    return _word(w, k[TERMINAL])


@njit(cache=True, nogil=True)
def _restart(state, starts, each, lane_id, lanes):  # type: ignore[no-untyped-def]
    """Set the lanes ``lanes`` of ``state`` to the start states of their playouts."""
    nf = state.shape[0]
    if starts.shape[0] == 1:  # one start state: word by word
        for j in range(nf):
            state[j] = (state[j] & ~lanes) | (lanes if starts[0, j] else _ZERO)
        return
    x = lanes
    while x != _ZERO:
        lane = _low(x)
        x &= x - _ONE
        bit = _ONE << np.uint64(lane)
        row = starts[lane_id[lane] // each]
        for j in range(nf):
            state[j] = (state[j] | bit) if row[j] else (state[j] & ~bit)


_DREW = 64
"""The draws of a playout recorded in order, for MAST to learn from (from a longer
playout, by reading every move's count)."""


@njit(cache=True, nogil=True, inline="always")
def _drawn(played, drew, ndrew, lane, move):  # type: ignore[no-untyped-def]
    """Count a draw of ``move`` in ``lane``'s playout, and record it among the
    lane's first :data:`_DREW` draws."""
    played[lane, move] += 1
    n = ndrew[lane]
    if n < _DREW:
        drew[lane, n] = move
    ndrew[lane] = n + 1


TRIES = 8
"""The most moves an anti-decisive playout tries in order at one step (from a random
one on) before it lets the opponent win: all of them where there are fewer (Connect
Four's columns), a bounded cost where there are many (breakthrough's 25 or so, each a
step and a lookahead)."""


@njit(cache=True, nogil=True, inline="always")
def _winning(look, over, r, goal, goal_role, goal_value, best):  # type: ignore[no-untyped-def]
    """The lanes of ``over`` (terminal in ``look``) where role ``r`` has its best goal."""
    wins = _ZERO
    for e in range(goal.shape[0]):
        if goal_role[e] == r and goal_value[e] == best[r]:
            wins |= _word(look, goal[e])
    return wins & over


@njit(cache=True, nogil=True, inline="always")
def _lookahead(w, look, look0, g1, bnext, bch, nb, fmark, changed, gmark, cones,  # type: ignore[no-untyped-def]
               m, lanes, r, nf, base, n0, ng, nxt, wfirst, wnode, wmask, kmask, terminal, goal,
               goal_role, goal_value, best):
    """The lanes of ``lanes`` where role ``r`` playing move ``m`` wins at once, evaluating
    only the gates the move can change.  ``w`` holds the step's move gates evaluated
    without any move of ``r`` (``g1`` a copy of them, ``bnext`` the successor then,
    ``bch[:nb]`` the fluents it changes in ``r``'s lanes); ``look0`` (and ``look``,
    left as it is found) the state's gates.  A move gate that does not read ``m`` has the same value
    whether ``r`` plays ``m`` or nothing, as it reads none of ``r``'s moves that hold."""
    mcf, mcg, mff, mfl = cones[3], cones[4], cones[5], cones[6]
    fcf, fcg, gmf, gmm = cones[7], cones[8], cones[9], cones[10]
    w[nf + m] = lanes
    for i in range(cones[mcf + m], cones[mcf + m + 1]):
        g = cones[mcg + i]
        acc = _ZERO
        for t in range(np.uint64(wfirst[g]), np.uint64(wfirst[g + 1])):
            acc |= w[np.uint64(wnode[t])] ^ wmask[t]
        for t in range(cones[gmf + g], cones[gmf + g + 1]):
            acc |= w[nf + cones[gmm + t]]
        w[base + g] = acc ^ kmask[g]
    nc = 0
    for t in range(nb):
        j = bch[t]
        look[j] = bnext[j]
        fmark[j] = 1
        changed[nc] = j
        nc += 1
    for t in range(cones[mff + m], cones[mff + m + 1]):
        j = cones[mfl + t]
        v = _word(w, nxt[j])
        if fmark[j] == 0:
            if (v ^ look0[j]) & lanes == _ZERO:  # only the move's lanes are read
                continue
            fmark[j] = 1
            changed[nc] = j
            nc += 1
        look[j] = v
    lo, hi = ng, 0  # the gates to evaluate are marked, then taken in order
    for t in range(nc):
        j = changed[t]
        for i in range(cones[fcf + j], cones[fcf + j + 1]):
            g = cones[fcg + i]
            gmark[g] = 1
            lo = min(lo, g)
            hi = max(hi, g + 1)
    for g in range(lo, hi):
        if gmark[g]:
            acc = _ZERO
            for t in range(np.uint64(wfirst[g]), np.uint64(wfirst[g + 1])):
                acc |= look[np.uint64(wnode[t])] ^ wmask[t]
            look[base + g] = acc ^ kmask[g]
    over = _word(look, terminal) & lanes
    wins = _winning(look, over, r, goal, goal_role, goal_value, best) if over else _ZERO
    for g in range(lo, hi):  # back to the state's gates, and the move gates without r's move
        if gmark[g]:
            look[base + g] = look0[base + g]
            gmark[g] = 0
    for t in range(nc):
        j = changed[t]
        look[j] = look0[j]
        fmark[j] = 0
    for i in range(cones[mcf + m], cones[mcf + m + 1]):
        g = cones[mcg + i]
        w[base + g] = g1[g - n0]
    w[nf + m] = _ZERO
    return wins


@njit(cache=True, nogil=True)
def playouts(k, wfirst, wnode, wmask, kmask, wmove, starts, each, limit, goals_out, status_out,  # type: ignore[no-untyped-def]
             mast, weights, sums, counts, tau, greedy, ends, cones):
    """``each`` uniformly random playouts from every row of ``starts`` (a state as one
    byte per fluent; playout ``p`` starts from row ``p // each``), 64 at a time;
    returns the states visited in all.

    Playout ``p`` ends with ``status_out[p]`` 0 at a terminal state (``goals_out[p, r]``
    is role ``r``'s goal value there, -1 where it has none or several), 1 after
    ``limit`` joint moves (goals -1), or 2 when a role had no legal move (its number in
    ``goals_out[p, 0]``, the other entries -1).

    With ``mast`` a role with a choice draws its move with probability proportional to
    ``weights[m]`` (MAST's Gibbs sampling, as :func:`plies.gdl.gatejit.playout` does),
    and a playout that ends at a terminal state adds its role's goal (0 where it has
    none) to ``sums`` and ``counts`` of every move chosen in it and renews their
    ``weights`` (``exp(mean goal / tau)``): the later playouts of the batch draw with
    what the earlier ones taught.

    ``greedy`` 1 or 2 makes the playouts *greedy* where one role alone has a choice
    (Sancho's greedy rollouts; Teytaud and Teytaud 2010's decisive moves): ``ends[m]``
    is 1 for the moves that have ended a playout (the kernel sets it, and the array
    keeps what it learnt for the next call), and among those legal the first that
    reaches a terminal state with the role's highest goal is played instead of the
    drawn move (a *decisive* move).  With ``greedy`` 2, a lane whose chooser has a
    decisive move steps back to the state before the other role's last move when
    that role had another choice, and that role tries its legal moves in order
    (from a random one on, :data:`TRIES` at most) instead of its draw, each once
    (*anti-decisive*: a move that hands the opponent a win at once is avoided where
    another is tried first).  With ``cones``
    (:meth:`plies.gdl.gatenet.GateNet.lookahead`, not empty) a move is tried by
    evaluating only the gates it can change; empty, every gate.  ``greedy`` 0
    consumes the random numbers as before it existed: the same seed, the same
    batch."""
    nf, nm, nr, base, n0, n1, ng = k[F], k[M], k[R], k[BASE], k[N0], k[N1], k[G]
    legal = k[k[O_LEGAL]:k[O_LEGAL] + nm]
    nxt = k[k[O_NEXT]:k[O_NEXT] + nf]
    ne = k[NGOALS]
    goal = k[k[O_GOAL]:k[O_GOAL] + ne]
    goal_role = k[k[O_GOAL_ROLE]:k[O_GOAL_ROLE] + ne]
    goal_value = k[k[O_GOAL_VALUE]:k[O_GOAL_VALUE] + ne]
    role_first = k[k[O_ROLE_FIRST]:k[O_ROLE_FIRST] + nr + 1]
    loop_lo = k[k[O_LOOP_LO]:k[O_LOOP_LO] + k[NB]]
    loop_hi = k[k[O_LOOP_HI]:k[O_LOOP_HI] + k[NB]]
    terminal = k[TERMINAL]
    w = np.zeros(base + ng, np.uint64)
    w[nf + nm + 1] = _ALL
    state = np.zeros(nf, np.uint64)
    lane_id = np.full(LANES, -1, np.int64)  # the playout a lane plays
    steps = np.zeros(LANES, np.int64)
    cnt = np.zeros(LANES, np.int64)  # the lane's legal moves
    pick = np.zeros(LANES, np.int64)  # uniform: the legal moves to pass before its own
    lmove = np.zeros(nm, np.int64)  # the roles' moves legal in some lane, role by role
    lword = np.zeros(nm, np.uint64)  # ... and the lanes where each is
    lfirst = np.zeros(nr + 1, np.int64)  # role r's in lmove[lfirst[r]:lfirst[r + 1]]
    rmore = np.zeros(nr, np.uint64)  # the lanes where role r has a choice
    wsum = np.zeros(LANES, np.float64)  # mast: the weights of a lane's legal moves
    draw = np.zeros(LANES, np.float64)  # mast: what is left of the lane's draw
    played = np.zeros((LANES, nm if mast else 0), np.int64)  # mast: moves drawn
    # mast: the first _DREW draws of a lane's playout, in order (its moves to learn
    # from without reading its whole row of ``played``), and its number of draws
    drew = np.zeros((LANES, _DREW if mast else 0), np.int64)
    ndrew = np.zeros(LANES, np.int64)
    role_of = np.zeros(nm if mast else 0, np.int64)
    for r in range(nr if mast else 0):
        role_of[role_first[r]:role_first[r + 1]] = r
    # greedy: the state of the lookahead, the best goal of each role, a role's move
    # words kept while its candidates are tried; anti-decisive: each lane's state
    # before its last step, that step's chooser (-1: none alone) and its number of
    # choices, this step's, the move each recorded for MAST, the tries at the level
    # stepped back to, and the lanes that step back
    look = np.zeros(base + ng if greedy else 0, np.uint64)
    if greedy:
        look[nf + nm + 1] = _ALL
    best = np.full(nr, -1, np.int64)
    for e in range(ne):
        if goal_value[e] > best[goal_role[e]]:
            best[goal_role[e]] = goal_value[e]
    keep = np.zeros(nm, np.uint64)
    prev = np.zeros(nf, np.uint64)
    chooser = np.full(LANES, -1, np.int64)
    before = np.full(LANES, -1, np.int64)
    nbefore = np.zeros(LANES, np.int64)
    nchoice = np.zeros(LANES, np.int64)
    drawn_now = np.full(LANES, -1, np.int64)
    drawn_before = np.full(LANES, -1, np.int64)
    tries = np.zeros(LANES, np.int64)
    first = np.zeros(LANES, np.int64)  # the first of the moves tried in order
    level = np.full(LANES, -1, np.int64)
    cycling = _ZERO  # the lanes that stepped back: their chooser tries in order
    # the lookahead that evaluates only what a move can change (``cones``, see
    # :meth:`plies.gdl.gatenet.GateNet.lookahead`): the state's gates (``look0``; a
    # step makes them when a role first tries a move), the move gates and successor
    # without the trying role's move, the fluents that successor changes, marks
    quick = greedy > 0 and cones.shape[0] > 0
    look0 = np.zeros(base + ng if quick else 0, np.uint64)
    g1 = np.zeros(n1 - n0 if quick else 0, np.uint64)
    bnext = np.zeros(nf if quick else 0, np.uint64)
    bch = np.zeros(nf if quick else 0, np.int64)
    changed = np.zeros(nf if quick else 0, np.int64)
    fmark = np.zeros(nf if quick else 0, np.uint8)
    gmark = np.zeros(ng if quick else 0, np.uint8)
    nb = 0
    count = starts.shape[0] * each
    goals_out[:count] = -1
    started = 0
    restart = _ZERO
    while started < count and started < LANES:
        restart |= _ONE << np.uint64(started)
        lane_id[started] = started
        started += 1
    active = restart
    _restart(state, starts, each, lane_id, restart)
    nl = 0
    visited = 0
    while active != _ZERO:
        w[:nf] = state
        _evaluate(w, wfirst, wnode, wmask, kmask, wmove, base, 0, n0, loop_lo, loop_hi)
        visited += _count(active)
        ended = _word(w, terminal) & active
        if ended != _ZERO:
            if greedy:  # the moves of the last step of a lane that ended have ended one
                x = ended
                moved = _ZERO
                while x != _ZERO:
                    lane = _low(x)
                    x &= x - _ONE
                    if steps[lane] > 0:
                        moved |= _ONE << np.uint64(lane)
                for i in range(nl):
                    if w[nf + lmove[i]] & moved != _ZERO:
                        ends[lmove[i]] = 1
            _evaluate(w, wfirst, wnode, wmask, kmask, wmove, base, n1, ng, loop_lo, loop_hi)
            x = ended
            while x != _ZERO:
                lane = _low(x)
                x &= x - _ONE
                p = lane_id[lane]
                status_out[p] = 0
                goals_out[p, :] = -2
            for e in range(ne):
                if goal_value[e] < 0:
                    continue
                x = _word(w, goal[e]) & ended
                while x != _ZERO:
                    lane = _low(x)
                    x &= x - _ONE
                    p = lane_id[lane]
                    r = goal_role[e]
                    goals_out[p, r] = goal_value[e] if goals_out[p, r] == -2 else -1
            x = ended
            while x != _ZERO:
                lane = _low(x)
                x &= x - _ONE
                p = lane_id[lane]
                for r in range(nr):
                    if goals_out[p, r] == -2:
                        goals_out[p, r] = -1
                if mast:  # from its record of draws, or its whole row if too long
                    short = ndrew[lane] <= _DREW
                    for i in range(ndrew[lane] if short else nm):
                        m = drew[lane, i] if short else i
                        times = played[lane, m]
                        if times > 0:  # learnt once, however often drawn
                            reached = max(goals_out[p, role_of[m]], 0)
                            sums[m] += reached * times
                            counts[m] += times
                            weights[m] = np.exp(sums[m] / counts[m] / tau)
                            played[lane, m] = 0
        live = active & ~ended
        x = live
        while x != _ZERO:
            lane = _low(x)
            x &= x - _ONE
            if steps[lane] == limit:
                status_out[lane_id[lane]] = 1
                ended |= _ONE << np.uint64(lane)
        live = active & ~ended
        w[nf:nf + nm] = _ZERO
        nl = 0
        for r in range(nr):
            lo, hi = role_first[r], role_first[r + 1]
            lfirst[r] = nl
            once = _ZERO  # the lanes where the role has a legal move
            more = _ZERO  # ... two or more: they draw one
            for m in range(lo, hi):
                x = _word(w, legal[m]) & live
                if x != _ZERO:
                    more |= once & x
                    once |= x
                    lmove[nl] = m
                    lword[nl] = x
                    nl += 1
            x = live & ~once  # none: the playout ends
            while x != _ZERO:
                lane = _low(x)
                x &= x - _ONE
                p = lane_id[lane]
                status_out[p] = 2
                goals_out[p, 0] = r
            ended |= live & ~once
            live &= once
            more &= live
            rmore[r] = more
            single = once & ~more  # the lanes with one legal move play it
            ordered = more & cycling  # they try the moves in order (anti-decisive)
            # a lane's moves' weights (or their number) in order, then its draw, the
            # lanes in order: the draws of one seed are those of one lane at a time
            for i in range(lfirst[r], nl):
                x = lword[i] & more
                m = lmove[i]
                while x != _ZERO:
                    lane = _low(x)
                    x &= x - _ONE
                    if mast:
                        wsum[lane] += weights[m]
                    cnt[lane] += 1
            x = more
            while x != _ZERO:
                lane = _low(x)
                x &= x - _ONE
                if ordered & (_ONE << np.uint64(lane)) != _ZERO:
                    pick[lane] = (first[lane] + tries[lane] - 1) % cnt[lane]
                elif mast:
                    draw[lane] = np.random.random() * wsum[lane]
                else:
                    pick[lane] = np.random.randint(cnt[lane])
                nchoice[lane] = cnt[lane]
                wsum[lane] = 0.0
                cnt[lane] = 0
            drawing = more  # the lanes that have not reached their draw yet
            for i in range(lfirst[r], nl):
                word = lword[i]
                m = lmove[i]
                chosen = word & single
                x = word & drawing
                while x != _ZERO:
                    lane = _low(x)
                    x &= x - _ONE
                    bit = _ONE << np.uint64(lane)
                    if mast and ordered & bit == _ZERO:
                        draw[lane] -= weights[m]
                        reached = draw[lane] < 0.0
                    else:
                        reached = pick[lane] == 0
                        pick[lane] -= 1
                    if reached:
                        chosen |= bit
                        drawing &= ~bit
                        drawn_now[lane] = m
                        if mast:
                            _drawn(played, drew, ndrew, lane, m)
                w[nf + m] = chosen
            x = drawing  # rounding left a draw: the last legal move, as in Python
            while x != _ZERO:
                lane = _low(x)
                x &= x - _ONE
                bit = _ONE << np.uint64(lane)
                i = nl - 1
                while lword[i] & bit == _ZERO:
                    i -= 1
                w[nf + lmove[i]] |= bit
                drawn_now[lane] = lmove[i]
                if mast:
                    _drawn(played, drew, ndrew, lane, lmove[i])
        lfirst[nr] = nl
        back = _ZERO  # the lanes that step back (anti-decisive)
        if greedy:
            some = _ZERO
            twice = _ZERO
            for r in range(nr):
                twice |= some & rmore[r]
                some |= rmore[r]
            alone = some & ~twice  # one role alone has a choice
            ready = False  # look0 made at this step
            x = live
            while x != _ZERO:
                lane = _low(x)
                x &= x - _ONE
                chooser[lane] = -1
            for r in range(nr):
                solo = rmore[r] & alone
                if solo == _ZERO:
                    continue
                x = solo
                while x != _ZERO:
                    lane = _low(x)
                    x &= x - _ONE
                    chooser[lane] = r
                lo, hi = role_first[r], role_first[r + 1]
                kept = False
                won = _ZERO
                for i in range(lfirst[r], lfirst[r + 1]):
                    m = lmove[i]
                    if ends[m] == 0:
                        continue
                    lanes = lword[i] & solo & ~won
                    if lanes == _ZERO:
                        continue
                    if not kept:
                        for mm in range(lo, hi):
                            keep[mm] = w[nf + mm]
                        kept = True
                        if quick:  # the move gates without the role's move, once
                            if not ready:
                                look[:] = w
                                _evaluate(look, wfirst, wnode, wmask, kmask, wmove, base, n1, ng,
                                          loop_lo, loop_hi)
                                look0[:] = look
                                ready = True
                            for mm in range(lo, hi):
                                w[nf + mm] = _ZERO
                            _evaluate(w, wfirst, wnode, wmask, kmask, wmove, base, n0, n1,
                                      loop_lo, loop_hi)
                            g1[:] = w[base + n0:base + n1]
                            nb = 0
                            for j in range(nf):
                                v = _word(w, nxt[j])
                                bnext[j] = v
                                if (v ^ state[j]) & solo != _ZERO:  # in r's lanes
                                    bch[nb] = j
                                    nb += 1
                    if quick:
                        wins = _lookahead(w, look, look0, g1, bnext, bch, nb, fmark, changed, gmark,
                                          cones, m, lanes, r, nf, base, n0, ng, nxt, wfirst, wnode,
                                          wmask, kmask, terminal, goal, goal_role, goal_value, best)
                    else:
                        for mm in range(lo, hi):
                            w[nf + mm] = keep[mm] & ~lanes
                        w[nf + m] |= lanes
                        _evaluate(w, wfirst, wnode, wmask, kmask, wmove, base, n0, n1,
                                  loop_lo, loop_hi)
                        for j in range(nf):
                            look[j] = _word(w, nxt[j])
                        _evaluate(look, wfirst, wnode, wmask, kmask, wmove, base, 0, n0,
                                  loop_lo, loop_hi)
                        over = _word(look, terminal) & lanes
                        if over == _ZERO:
                            continue
                        _evaluate(look, wfirst, wnode, wmask, kmask, wmove, base, n1, ng,
                                  loop_lo, loop_hi)
                        wins = _winning(look, over, r, goal, goal_role, goal_value, best)
                    if wins == _ZERO:
                        continue
                    won |= wins
                    for mm in range(lo, hi):
                        keep[mm] &= ~wins
                    keep[m] |= wins
                    x = wins
                    while x != _ZERO:
                        lane = _low(x)
                        x &= x - _ONE
                        if mast:  # the decisive move is recorded, not the draw
                            played[lane, drawn_now[lane]] -= 1
                            _drawn(played, drew, ndrew, lane, m)
                        drawn_now[lane] = m
                if kept:
                    for mm in range(lo, hi):
                        w[nf + mm] = keep[mm]
                if greedy < 2:
                    continue
                x = won
                while x != _ZERO:
                    lane = _low(x)
                    x &= x - _ONE
                    if before[lane] < 0 or before[lane] == r or nbefore[lane] < 2:
                        continue
                    if level[lane] != steps[lane] - 1:
                        level[lane] = steps[lane] - 1
                        tries[lane] = 0
                        first[lane] = np.random.randint(nbefore[lane])
                    if tries[lane] < min(nbefore[lane], TRIES):
                        tries[lane] += 1
                        back |= _ONE << np.uint64(lane)
                        if mast:  # neither this step's move nor the last is kept
                            played[lane, drawn_now[lane]] -= 1
                            played[lane, drawn_before[lane]] -= 1
        _evaluate(w, wfirst, wnode, wmask, kmask, wmove, base, n0, n1, loop_lo, loop_hi)
        if greedy:
            for j in range(nf):
                now = state[j]
                state[j] = (_word(w, nxt[j]) & ~back) | (prev[j] & back)
                prev[j] = now
        else:
            for j in range(nf):
                state[j] = _word(w, nxt[j])
        x = live
        while x != _ZERO:
            lane = _low(x)
            x &= x - _ONE
            if back & (_ONE << np.uint64(lane)) != _ZERO:
                steps[lane] -= 1
                before[lane] = -1  # one step back at most: the state before is gone
            else:
                steps[lane] += 1
                before[lane] = chooser[lane]
                nbefore[lane] = nchoice[lane]
                drawn_before[lane] = drawn_now[lane]
        cycling = back
        restart = _ZERO
        x = ended
        while x != _ZERO:
            lane = _low(x)
            x &= x - _ONE
            if mast:  # its row of ``played`` back to zeros (learning did it at the end)
                if status_out[lane_id[lane]] != 0:
                    short = ndrew[lane] <= _DREW
                    for i in range(ndrew[lane] if short else nm):
                        played[lane, drew[lane, i] if short else i] = 0
                ndrew[lane] = 0
            before[lane] = -1
            level[lane] = -1
            if started < count:
                lane_id[lane] = started
                started += 1
                steps[lane] = 0
                restart |= _ONE << np.uint64(lane)
            else:
                active &= ~(_ONE << np.uint64(lane))
        if restart != _ZERO:
            _restart(state, starts, each, lane_id, restart)
    return visited
