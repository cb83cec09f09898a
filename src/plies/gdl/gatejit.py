"""Numba kernels over a propositional network laid out as arrays of gates.

This module imports Numba: :mod:`plies.gdl.gatenet` imports it only when a compiled
network is first used.  The layout (built by :func:`plies.gdl.gatenet.build_gates`) is
one int64 array ``k``: a header of sizes (:data:`~plies.gdl.gatelayout.SIZES`), then the
offsets and contents of its sections (:data:`~plies.gdl.gatelayout.SECTIONS`, read with
``k[k[O_NAME] + i]``):

- node values (one byte each): nodes ``0 .. F-1`` are the state's fluents,
  ``F .. F+M-1`` the moves of every role (one global index per move, never read:
  see below), ``F+M`` is false, ``F+M+1`` true, and gate ``g`` is node ``BASE + g``;
- a *reference* to a node is ``2 * node + negated``: it holds when
  ``vals[ref >> 1] != (ref & 1)``;
- gate ``g`` is an ``and`` (``KIND[g] == 0``) or an ``or`` of the references
  ``INPUTS[FIRST[g]:FIRST[g + 1]]`` (an ``and``'s stored negated: it is evaluated as
  the negation of an ``or``, with no branch on the kind) and of its move inputs, of
  which ``NPOS[g]`` are plain and ``NNEG[g]`` negated.  One move per role is chosen,
  so move inputs are not read one by one (a board game's frame axiom is an ``or`` of
  hundreds of moves): each chosen move counts itself in the gates it feeds
  (``TOUCH``), in ``hits``;
- the gates are in three groups, each in an order where a gate's inputs come first:
  ``[0, N0)`` read the state only and answer ``terminal``, ``legal`` and the state part
  of ``next``; ``[N0, N1)`` read the joint move (the rest of ``next``); ``[N1, G)`` are
  needed by the goals only;
- ``LOOP_LO[b]:LOOP_HI[b]`` are the gates of a recursive component (views defined
  through each other, such as a path on a board): their least fixpoint is computed by
  evaluating them from false until nothing changes (the cycle is positive: the rules
  are stratified).

Every gate of a group is evaluated at every step, in order, without a branch on its
kind or its value: in turn-taking games a third to a half of the network changes at
every step (whose turn it is feeds every legal move), where propagating only the
changes cost more than it saved (``benchmarks/results/gdl_playouts.md``).  A thread's
*machine* is its node values ``vals`` and move counts ``hits`` (``2 * g`` plain,
``2 * g + 1`` negated), made once and reused.

A playout's random numbers are Numba's own generator (:func:`seed`): the same seed
gives the same playout.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.gdl.gatelayout import HEADER, SECTIONS, SIZES

# Every array is one, and every call passes few: a call with array arguments, even an
# inlined one, counts references to each of them, which costs more than a gate.
(F, M, R, BASE, N0, N1, G, TERMINAL, NB, NGOALS) = range(len(SIZES))
(O_KIND, O_FIRST, O_INPUTS, O_LOOP_LO, O_LOOP_HI, O_LEGAL, O_NEXT, O_GOAL, O_GOAL_ROLE,
 O_GOAL_VALUE, O_ROLE_FIRST, O_NPOS, O_NNEG, O_TOUCH_FIRST, O_TOUCH) = range(
    HEADER, HEADER + len(SECTIONS))


@njit(cache=True, nogil=True)
def new_machine(k):  # type: ignore[no-untyped-def]
    """Node values (all false but the node that is always true) and move counts (none):
    ``(vals, hits)``."""
    vals = np.zeros(k[BASE] + k[G], np.uint8)
    vals[k[F] + k[M] + 1] = 1
    return vals, np.zeros(2 * k[G], np.int64)


@njit(cache=True, nogil=True, inline="always")
def holds(vals, ref):  # type: ignore[no-untyped-def]
    """Whether the reference ``ref`` (``2 * node + negated``) is true in ``vals``."""
    return vals[ref >> 1] != (ref & 1)


@njit(cache=True, nogil=True, inline="always")
def _section(k, offset, length):  # type: ignore[no-untyped-def]
    """A view of one section: read through a view, not ``k[k[offset] + i]``, an array
    is indexed several times faster."""
    return k[k[offset]:k[offset] + length]


@njit(cache=True, nogil=True)
def touch(k, hits, move, delta):  # type: ignore[no-untyped-def]
    """Count the chosen ``move`` in (``delta`` 1) or out (-1) of the gates it feeds."""
    touch_first = _section(k, O_TOUCH_FIRST, k[M] + 1)
    touches = _section(k, O_TOUCH, touch_first[-1])
    for i in range(touch_first[move], touch_first[move + 1]):
        hits[touches[i]] += delta


@njit(cache=True, nogil=True)
def evaluate_gates(k, vals, hits, state, lo, hi):  # type: ignore[no-untyped-def]
    """Set the fluents to ``state`` when it is not empty, then evaluate the gates
    ``[lo, hi)`` in order; a recursive block again and again, from false, until nothing
    changes (its least fixpoint).

    Every gate is an ``or`` of its (stored) literals and of its moves' part, negated
    for an ``and`` (whose literals are stored negated): no branch on the kind of gate,
    which costs more than the gate where half of them are of each kind."""
    ng = k[G]
    base = k[BASE]
    kind = _section(k, O_KIND, ng)
    first = _section(k, O_FIRST, ng + 1)
    inputs = _section(k, O_INPUTS, first[-1])
    npos = _section(k, O_NPOS, ng)
    nneg = _section(k, O_NNEG, ng)
    loop_lo = _section(k, O_LOOP_LO, k[NB])
    loop_hi = _section(k, O_LOOP_HI, k[NB])
    for j in range(state.shape[0]):
        vals[j] = state[j]
    nb = loop_lo.shape[0]
    b = 0
    while b < nb and loop_lo[b] < lo:
        b += 1
    block_lo = loop_lo[b] if b < nb else hi
    block_hi = loop_hi[b] if b < nb else hi
    changed = False
    again = False  # in a block's second or later round
    g = lo
    while g < hi:
        if g == block_lo and not again:
            vals[base + block_lo:base + block_hi] = 0
        inv = 1 - kind[g]
        hp = hits[2 * g]
        hn = hits[2 * g + 1]
        moved_and = int(hp != npos[g]) | int(hn > 0)
        moved_or = int(hp > 0) | int(hn < nneg[g])
        v = (moved_and & inv) | (moved_or & (1 - inv))
        for i in range(first[g], first[g + 1]):
            r = inputs[i]
            v |= vals[r >> 1] ^ (r & 1)
        v ^= inv
        if block_lo <= g < block_hi and v != vals[base + g]:
            changed = True
        vals[base + g] = v
        g += 1
        if g == block_hi and g > block_lo:
            if changed:  # another round
                changed = False
                again = True
                g = block_lo
                continue
            again = False
            b += 1
            block_lo = loop_lo[b] if b < nb else hi
            block_hi = loop_hi[b] if b < nb else hi


@njit(cache=True, nogil=True)
def inspect(k, vals, hits, state, joint, legal_out, goal_out, next_out):  # type: ignore[no-untyped-def]
    """Everything the network says about ``state`` (one byte per fluent): whether it is
    terminal (returned), which moves are legal (``legal_out``, one byte per global
    move), which goal entries hold (``goal_out``) and, when ``joint`` (global move
    indices, one per role) is not empty, the successor (``next_out``)."""
    nothing = state[:0]
    evaluate_gates(k, vals, hits, state, 0, k[N0])
    evaluate_gates(k, vals, hits, nothing, k[N1], k[G])
    for m in range(k[M]):
        legal_out[m] = holds(vals, k[k[O_LEGAL] + m])
    for e in range(k[NGOALS]):
        goal_out[e] = holds(vals, k[k[O_GOAL] + e])
    if joint.shape[0] > 0:
        for i in range(joint.shape[0]):
            touch(k, hits, joint[i], 1)
        evaluate_gates(k, vals, hits, nothing, k[N0], k[N1])
        for j in range(k[F]):
            next_out[j] = holds(vals, k[k[O_NEXT] + j])
        for i in range(joint.shape[0]):
            touch(k, hits, joint[i], -1)
    return holds(vals, k[TERMINAL])


@njit(cache=True, nogil=True)
def playout(k, vals, hits, state, limit, mast, weights, sums, counts, tau, goals_out):  # type: ignore[no-untyped-def]
    """Play from ``state`` (changed in place) for at most ``limit`` joint moves, or until
    a terminal state; returns ``(status, states)``: status 0 at a terminal state (then
    ``goals_out[r]`` is role ``r``'s goal value, -1 where it has none or several), 1
    after ``limit`` moves, 2 when a role had no legal move (its number in
    ``goals_out[0]``); ``states`` counts the states visited.

    Each role with a choice plays a uniformly random legal move; with ``mast``, a move
    drawn with probability proportional to ``weights[m]`` (MAST's Gibbs sampling), and a
    playout that ends updates ``sums``, ``counts`` and ``weights`` of the moves chosen
    (``exp(mean goal / tau)``)."""
    nf, nm, nr = k[F], k[M], k[R]
    n0, n1 = k[N0], k[N1]
    legal = _section(k, O_LEGAL, nm)
    nxt_ref = _section(k, O_NEXT, nf)
    role_first = _section(k, O_ROLE_FIRST, nr + 1)
    moves = np.empty(nm, np.int64)
    joint = np.empty(nr, np.int64)
    played = np.zeros(nm if mast else 0, np.int64)
    nothing = state[:0]
    fluents = state.copy()
    states = 0
    status = 1
    steps = 0
    while True:
        states += 1
        evaluate_gates(k, vals, hits, fluents, 0, n0)
        if holds(vals, k[TERMINAL]):
            status = 0
            break
        if steps == limit:
            break
        steps += 1
        for r in range(nr):
            n = 0
            for m in range(role_first[r], role_first[r + 1]):
                if holds(vals, legal[m]):
                    moves[n] = m
                    n += 1
            if n == 0:
                for q in range(r):
                    touch(k, hits, joint[q], -1)
                goals_out[0] = r
                state[:] = vals[:nf]
                return 2, states
            if n == 1:
                pick = moves[0]
            elif mast:
                total = 0.0
                for i in range(n):
                    total += weights[moves[i]]
                x = np.random.random() * total
                pick = moves[n - 1]
                for i in range(n):
                    x -= weights[moves[i]]
                    if x < 0.0:
                        pick = moves[i]
                        break
                played[pick] += 1
            else:
                pick = moves[np.random.randint(n)]
            joint[r] = pick
            touch(k, hits, pick, 1)
        evaluate_gates(k, vals, hits, nothing, n0, n1)
        for j in range(nf):
            fluents[j] = holds(vals, nxt_ref[j])
        for r in range(nr):
            touch(k, hits, joint[r], -1)
    state[:] = vals[:nf]
    if status == 0:
        evaluate_gates(k, vals, hits, nothing, n1, k[G])
        goal, goal_role, goal_value = k[O_GOAL], k[O_GOAL_ROLE], k[O_GOAL_VALUE]
        for r in range(nr):
            goals_out[r] = -2
        for e in range(k[NGOALS]):
            if k[goal_value + e] >= 0 and holds(vals, k[goal + e]):
                r = k[goal_role + e]
                goals_out[r] = k[goal_value + e] if goals_out[r] == -2 else -1
        for r in range(nr):
            if goals_out[r] == -2:
                goals_out[r] = -1
        if mast:
            for r in range(nr):
                reached = max(goals_out[r], 0)
                for m in range(role_first[r], role_first[r + 1]):
                    if played[m] > 0:
                        sums[m] += reached * played[m]
                        counts[m] += played[m]
                        weights[m] = np.exp(sums[m] / counts[m] / tau)
    return status, states


@njit(cache=True, nogil=True)
def play(k, vals, hits, packed, limit, seed, mast, weights, sums, counts, tau, goals_out):  # type: ignore[no-untyped-def]
    """:func:`playout` from the state packed in ``packed`` (bit ``j`` of the bytes,
    little-endian, is fluent ``j``; the final state is packed there), the generator
    seeded with ``seed`` first: one call per playout, no conversion in Python."""
    np.random.seed(seed)
    nf = k[F]
    state = np.empty(nf, np.uint8)
    for j in range(nf):
        state[j] = (packed[j >> 3] >> (j & 7)) & 1
    status, states = playout(k, vals, hits, state, limit, mast, weights, sums, counts, tau,
                             goals_out)
    packed[:] = 0
    for j in range(nf):
        if state[j]:
            packed[j >> 3] |= np.uint8(1 << (j & 7))
    return status, states


@njit(cache=True, nogil=True)
def seed(value):  # type: ignore[no-untyped-def]
    """Seed the generator the playouts draw from (Numba's own, one per thread)."""
    np.random.seed(value)


@njit(cache=True, nogil=True)
def evaluate_words(k, w, wfirst, wnode, wmask, kmask, wmove, lo, hi):  # type: ignore[no-untyped-def]
    """The gates ``[lo, hi)`` in 64 states at once, on the word view of
    :meth:`plies.gdl.gatenet.GateNet.words` (``w[node]`` one ``uint64`` a node, bit
    ``l`` its value in lane ``l``; the move nodes' words say which lanes chose each
    move): gate ``g`` becomes the ``or`` of ``w[wnode[i]] ^ wmask[i]`` for ``i`` in
    ``wfirst[g]:wfirst[g + 1]`` and of the words of the moves ``wmove`` lists for it,
    xored with ``kmask[g]``, in order; a recursive block from false again and again
    until no word changes (its least fixpoint in every lane).  The word form of
    :func:`evaluate_gates`, as :mod:`plies.gdl.gatebits`' playouts evaluate the
    gates."""
    evaluate_word_gates(
        w, wfirst, wnode, wmask, kmask, wmove, k[BASE], lo, hi,
        _section(k, O_LOOP_LO, k[NB]), _section(k, O_LOOP_HI, k[NB]),
    )


@njit(cache=True, nogil=True)
def evaluate_word_gates(w, wfirst, wnode, wmask, kmask, wmove, base, lo, hi, loop_lo, loop_hi):  # type: ignore[no-untyped-def]
    """Evaluate the gates ``[lo, hi)`` in order on words (gate ``g``'s word at
    ``w[base + g]``); a recursive block (its gates ``[loop_lo[b], loop_hi[b])``) from
    false again and again until no word changes: its least fixpoint in every lane at
    once.  What :func:`evaluate_words` and :mod:`plies.gdl.gatebits`' playouts run.

    A gate's plain move inputs (``wmove``, see
    :meth:`plies.gdl.gatenet.GateNet.words`) are gathered first: its word starts as
    the ``or`` of the moves chosen in some lane that feed it (a move no lane chose, a
    zero word, is not read), then its other inputs are added."""
    # Indices as unsigned: an int64 index costs a test for a negative one at every
    # access, which made the gates' loop half as fast again.
    zero = np.uint64(0)
    nm = wmove[0]
    mlo = max(lo, wmove[1])  # the gates of [lo, hi) that moves feed
    mhi = min(hi, wmove[2])
    if mlo < mhi:
        for g in range(mlo, mhi):
            w[base + g] = zero
        moves = base - 2 - nm  # the first move's node
        for m in range(nm):
            x = w[moves + m]
            if x != zero:
                for i in range(np.uint64(wmove[3 + m]), np.uint64(wmove[4 + m])):
                    g = wmove[i]
                    if mlo <= g < mhi:
                        w[base + g] |= x
    nb = loop_lo.shape[0]
    b = 0
    while b < nb and loop_lo[b] < lo:
        b += 1
    g = lo
    while g < hi:
        if b < nb and g == loop_lo[b]:  # no moves in wmove feed a recursive block
            end = loop_hi[b]
            for x in range(g, end):
                w[base + x] = zero
            changed = True
            while changed:
                changed = False
                for x in range(g, end):
                    acc = zero
                    for i in range(np.uint64(wfirst[x]), np.uint64(wfirst[x + 1])):
                        acc |= w[np.uint64(wnode[i])] ^ wmask[i]
                    acc ^= kmask[x]
                    if acc != w[base + x]:
                        changed = True
                        w[base + x] = acc
            g = end
            b += 1
            continue
        # up to the next block, or where the gates that moves feed begin or end
        stop = loop_lo[b] if b < nb and loop_lo[b] < hi else hi
        fed = mlo <= g < mhi
        stop = min(stop, mhi if fed else (mlo if g < mlo else hi))
        for x in range(g, stop):
            acc = w[base + x] if fed else zero
            for i in range(np.uint64(wfirst[x]), np.uint64(wfirst[x + 1])):
                acc |= w[np.uint64(wnode[i])] ^ wmask[i]
            w[base + x] = acc ^ kmask[x]
        g = stop
