"""Numba kernels of the compiled UCT tree (:mod:`plies.ggp.uctnative`): whole batches of
iterations (selection, expansion, the playouts, backpropagation) over a tree kept in
numpy arrays, on the compiled network's kernels (:mod:`plies.gdl.gatejit` for a node's
legal moves, terminal test, goals and successor, one state at a time or, for the
children of a node (a decision node's moves, a simultaneous node's joint moves), 64 at
a time on words; :mod:`plies.gdl.gatebits` for the
batch of playouts).

This module imports Numba: :mod:`plies.ggp.uctnative` imports it only when a compiled
tree is first made.  The tree's arrays (``C`` nodes, ``E`` edges, ``R`` roles):

- ``ns[n]``: node ``n``'s state, one byte per fluent;
- ``ni[n, c]``: its integer fields, the columns below (``RFIRST + r`` to
  ``RFIRST + R``: role ``r``'s legal moves are the edges ``ni[n, RFIRST + r]`` up to
  ``ni[n, RFIRST + r + 1]``, in move-table order);
- ``nf[n, r]``: role ``r``'s reward sum, ``nf[n, R + r]`` its proven reward once the node
  is solved;
- ``ei[e, c]``: edge ``e``'s global move index, its child (at a decision node; -1 not
  expanded yet, -2 left out by the root's anti-decisive scan) and its visits (at a
  simultaneous node: the role's visits of its own move); ``ef[e]`` the reward sum of
  those own visits;
- ``meta``: the nodes and edges in use, whether the tree is full (no expansion), the
  error (a role without a legal move: its number + 1) and the iterations that ended
  at a terminal or solved node.

A decision node's children hang off its mover's edges; a simultaneous node's are a
list (``KIDS``, then each child's ``SIB``) keyed by the joint move (``KEY``, the own
move indices read as one number, as :func:`plies.search.mcts_tree.joint_key` does).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from plies.gdl.gatebits import playouts
from plies.gdl.gatejit import (
    BASE,
    N0,
    N1,
    NGOALS,
    O_GOAL,
    O_GOAL_ROLE,
    O_GOAL_VALUE,
    O_LEGAL,
    O_NEXT,
    O_ROLE_FIRST,
    TERMINAL,
    F,
    G,
    M,
    R,
    evaluate_gates,
    evaluate_words,
    holds,
    inspect,
    touch,
)

(MOVER, VISITS, TERM, SOLVED, BEST, UNTRIED, KIDS, SIB, KEY, SCANNED, RFIRST) = range(11)
(MOVE, CHILD, EVISITS) = range(3)
(NODES, EDGES, FULL, ERROR, LEAVES) = range(5)
SIM = -2  # the mover of a simultaneous node (plies.game.SIMULTANEOUS)
UCB_MIX = 0.05  # plies.search.mcts_tree.UCB_MIX
MAX_DEPTH = 2048  # a lane that reaches this depth plays out from there


@njit(cache=True, nogil=True)
def _goals(k, goal_out, out):  # type: ignore[no-untyped-def]
    """Per role, its goal value among the goal entries ``goal_out`` holds (-1 where it
    has none or several)."""
    nr = k[R]
    ne = k[NGOALS]
    for r in range(nr):
        out[r] = -2
    for e in range(ne):
        v = k[k[O_GOAL_VALUE] + e]
        if v >= 0 and goal_out[e]:
            r = k[k[O_GOAL_ROLE] + e]
            out[r] = v if out[r] == -2 else -1
    for r in range(nr):
        if out[r] == -2:
            out[r] = -1


@njit(cache=True, nogil=True)
def _reward(g):  # type: ignore[no-untyped-def]
    """A goal value (0..100; -1 for none) as a reward in [0, 1]."""
    x = max(0, g) / 100.0
    return min(1.0, max(0.0, x))


@njit(cache=True, nogil=True)
def make_node(k, vals, hits, ns, ni, nf, ei, meta, n, legal, goal_out, nxt, goals):  # type: ignore[no-untyped-def]
    """Fill node ``n`` (its state already in ``ns[n]``): terminal with its proof, or its
    roles' legal moves as edges and its mover.  False when a role has no legal move in
    a non-terminal state (``meta[ERROR]`` is set)."""
    nothing = ns[n, :0]
    evaluate_gates(k, vals, hits, ns[n], 0, k[N0])
    terminal = holds(vals, k[TERMINAL])
    if terminal:
        evaluate_gates(k, vals, hits, nothing, k[N1], k[G])
        for e in range(k[NGOALS]):
            goal_out[e] = holds(vals, k[k[O_GOAL] + e])
    else:
        for m in range(k[M]):
            legal[m] = holds(vals, k[k[O_LEGAL] + m])
    return _fill(k, ni, nf, ei, meta, n, terminal, legal, goal_out, goals)


@njit(cache=True, nogil=True)
def _fill(k, ni, nf, ei, meta, n, terminal, legal, goal_out, goals):  # type: ignore[no-untyped-def]
    """Node ``n``'s fields from what the network says of its state: with ``terminal``
    its proof from the goal entries ``goal_out``, else its edges from ``legal`` (one
    byte per global move) and its mover; False when a role has no legal move
    (``meta[ERROR]`` is set)."""
    nr = k[R]
    ni[n, :] = 0
    ni[n, BEST] = -1
    ni[n, KIDS] = -1
    ni[n, SIB] = -1
    nf[n, :] = 0.0
    e0 = meta[EDGES]
    for r in range(nr + 1):
        ni[n, RFIRST + r] = e0
    if terminal:
        _goals(k, goal_out, goals)
        ni[n, TERM] = 1
        ni[n, SOLVED] = 1
        ni[n, MOVER] = -1
        for r in range(nr):
            nf[n, nr + r] = _reward(goals[r])
        return True
    e = e0
    choosers = 0
    mover = 0
    for r in range(nr):
        ni[n, RFIRST + r] = e
        lo = k[k[O_ROLE_FIRST] + r]
        hi = k[k[O_ROLE_FIRST] + r + 1]
        count = 0
        for m in range(lo, hi):
            if legal[m]:
                ei[e, MOVE] = m
                ei[e, CHILD] = -1
                ei[e, EVISITS] = 0
                e += 1
                count += 1
        if count == 0:
            meta[ERROR] = r + 1
            return False
        if count > 1:
            choosers += 1
            mover = r
    ni[n, RFIRST + nr] = e
    meta[EDGES] = e
    if choosers > 1:
        mover = SIM
    ni[n, MOVER] = mover
    if mover != SIM:
        ni[n, UNTRIED] = ni[n, RFIRST + mover + 1] - ni[n, RFIRST + mover]
    return True


@njit(cache=True, nogil=True)
def _successor(k, vals, hits, state, joint, out):  # type: ignore[no-untyped-def]
    """The state after ``joint`` (global move indices, one per role) into ``out``: the
    state's gates and the move gates only (not the goals' that :func:`inspect` adds)."""
    evaluate_gates(k, vals, hits, state, 0, k[N0])
    for i in range(joint.shape[0]):
        touch(k, hits, joint[i], 1)
    evaluate_gates(k, vals, hits, state[:0], k[N0], k[N1])
    for j in range(k[F]):
        out[j] = holds(vals, k[k[O_NEXT] + j])
    for i in range(joint.shape[0]):
        touch(k, hits, joint[i], -1)


@njit(cache=True, nogil=True)
def _child(k, vals, hits, ns, ni, nf, ei, meta, parent, joint, legal, goal_out, goals):  # type: ignore[no-untyped-def]
    """A new node for the state after ``joint`` at ``parent``; -1 on an error."""
    c = meta[NODES]
    meta[NODES] = c + 1
    _successor(k, vals, hits, ns[parent], joint, ns[c])
    if not make_node(k, vals, hits, ns, ni, nf, ei, meta, c, legal, goal_out, ns[c], goals):
        return -1
    return c


_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_ZERO = np.uint64(0)
_ONE = np.uint64(1)


@njit(cache=True, nogil=True)
def block_width(k):  # type: ignore[no-untyped-def]
    """The words of one block of the children cache (see :func:`_block`)."""
    return k[F] + k[M] + k[NGOALS] + 1


@njit(cache=True, nogil=True)
def _block(k, vals, hits, w, wfirst, wnode, wmask, kmask, wmove, ns, ni, ei, n, e0, e1, joint,  # type: ignore[no-untyped-def]
           out):
    """The children of the decision node ``n`` by its mover's edges ``[e0, e1)`` (at
    most 64), all in one pass of the network on words (lane ``l`` is edge ``e0 + l``),
    into ``out``: the successor states' fluents (``F`` words), their legal moves (``M``),
    goal entries (``NGOALS``, evaluated only when a lane is terminal) and terminal test
    (one word), as :func:`_successor` and :func:`make_node` find them one at a time.
    ``w`` is a word per node of the network, :func:`plies.gdl.gatejit.evaluate_words`'
    machine."""
    nf, nr = k[F], k[R]
    mover = ni[n, MOVER]
    _block_parent(k, vals, hits, w, ns, n)
    _forced(ni, ei, n, nr, joint)
    for r in range(nr):
        if r != mover:
            w[nf + joint[r]] = _ALL
    lanes = _ZERO
    for e in range(e0, e1):
        bit = _ONE << np.uint64(e - e0)
        w[nf + ei[e, MOVE]] |= bit
        lanes |= bit
    _block_children(k, w, wfirst, wnode, wmask, kmask, wmove, lanes, out)


@njit(cache=True, nogil=True)
def _joint_block(k, vals, hits, w, wfirst, wnode, wmask, kmask, wmove, ns, ni, ei, n, b,  # type: ignore[no-untyped-def]
                 out):
    """The children of the simultaneous node ``n`` by the joint moves of keys ``64 b``
    to ``64 b + 63`` (lane ``l`` is key ``64 b + l``; a key numbers a joint move as
    :func:`iterate` does, the first role's pick most significant), as :func:`_block`
    computes a decision node's."""
    nf, nr = k[F], k[R]
    _block_parent(k, vals, hits, w, ns, n)
    total = _joint_count(ni, n, nr)
    lanes = _ZERO
    for key in range(64 * b, min(total, 64 * b + 64)):
        bit = _ONE << np.uint64(key - 64 * b)
        rest = key
        for r in range(nr - 1, -1, -1):
            lo = ni[n, RFIRST + r]
            count = ni[n, RFIRST + r + 1] - lo
            w[nf + ei[lo + rest % count, MOVE]] |= bit
            rest //= count
        lanes |= bit
    _block_children(k, w, wfirst, wnode, wmask, kmask, wmove, lanes, out)


@njit(cache=True, nogil=True, inline="always")
def _joint_count(ni, n, nr):  # type: ignore[no-untyped-def]
    """The joint moves of the simultaneous node ``n``."""
    total = 1
    for r in range(nr):
        total *= ni[n, RFIRST + r + 1] - ni[n, RFIRST + r]
    return total


@njit(cache=True, nogil=True)
def _block_parent(k, vals, hits, w, ns, n):  # type: ignore[no-untyped-def]
    """The state of node ``n`` and its state gates in every lane of ``w``, no move chosen."""
    nf, nm, base, n0 = k[F], k[M], k[BASE], k[N0]
    evaluate_gates(k, vals, hits, ns[n], 0, n0)  # the parent's state, in every lane
    for j in range(nf):
        w[j] = _ALL if ns[n, j] else _ZERO
    for g in range(n0):
        w[base + g] = _ALL if vals[base + g] else _ZERO
    for m in range(nm):
        w[nf + m] = _ZERO


@njit(cache=True, nogil=True)
def _block_children(k, w, wfirst, wnode, wmask, kmask, wmove, lanes, out):  # type: ignore[no-untyped-def]
    """From the parent's state and each lane's joint move in ``w``: the successors into
    ``out`` (see :func:`_block`)."""
    nf, nm, n0, n1 = k[F], k[M], k[N0], k[N1]
    ngoal = k[NGOALS]
    evaluate_words(k, w, wfirst, wnode, wmask, kmask, wmove, n0, n1)
    for j in range(nf):
        ref = k[k[O_NEXT] + j]
        x = w[ref >> 1]
        out[j] = ~x if ref & 1 else x
    for j in range(nf):
        w[j] = out[j]
    evaluate_words(k, w, wfirst, wnode, wmask, kmask, wmove, 0, n0)
    for m in range(nm):
        ref = k[k[O_LEGAL] + m]
        x = w[ref >> 1]
        out[nf + m] = ~x if ref & 1 else x
    ref = k[TERMINAL]
    x = w[ref >> 1]
    term = ~x if ref & 1 else x
    out[nf + nm + ngoal] = term
    if term & lanes:
        evaluate_words(k, w, wfirst, wnode, wmask, kmask, wmove, n1, k[G])
        for e in range(ngoal):
            ref = k[k[O_GOAL] + e]
            x = w[ref >> 1]
            out[nf + nm + e] = ~x if ref & 1 else x


@njit(cache=True, nogil=True)
def _expand(k, vals, hits, w, wfirst, wnode, wmask, kmask, wmove, cw, ctag, ns, ni, nf, ei, meta,  # type: ignore[no-untyped-def]
            n, pick, joint, legal, goal_out, goals):
    """The new child of the decision node ``n`` by its edge ``pick`` (:func:`_child`'s
    node, the same fields): from the children cache when its block is there, else a
    block of up to 64 of ``n``'s children computed at once (:func:`_block`) when two or
    more of them are still untried, else alone.  The cache is direct-mapped: block
    ``b`` (the edges ``64 b`` to ``64 b + 63`` of the mover's) of node ``n`` lives in
    row ``(n + 7919 b) % S`` of ``cw`` with the tag ``n * 2**16 + b`` in ``ctag``
    (-1: empty), so a block pushed out is computed again; the tree is the same with
    any cache (``S`` 0: none).  -1 on an error."""
    mover = ni[n, MOVER]
    lo = ni[n, RFIRST + mover]
    size = ctag.shape[0]
    off = pick - lo
    b = off >> 6
    s = (n + 7919 * b) % size if size else 0
    tag = n * 65536 + b
    if size == 0 or ctag[s] != tag:
        e0 = lo + 64 * b
        e1 = min(ni[n, RFIRST + mover + 1], e0 + 64)
        untried = 0
        for e in range(e0, e1):
            if ei[e, CHILD] == -1:
                untried += 1
        if size == 0 or untried < 2:
            _forced(ni, ei, n, k[R], joint)
            joint[mover] = ei[pick, MOVE]
            return _child(k, vals, hits, ns, ni, nf, ei, meta, n, joint, legal, goal_out,
                          goals)
        _block(k, vals, hits, w, wfirst, wnode, wmask, kmask, wmove, ns, ni, ei, n, e0, e1, joint,
               cw[s])
        ctag[s] = tag
    return _cached_child(k, ns, ni, nf, ei, meta, cw[s], off & 63, legal, goal_out, goals)


@njit(cache=True, nogil=True)
def _expand_joint(k, vals, hits, w, wfirst, wnode, wmask, kmask, wmove, cw, ctag, ns, ni, nf, ei,  # type: ignore[no-untyped-def]
                  meta, n, key, joint, legal, goal_out, goals):
    """The new child of the simultaneous node ``n`` by the joint move numbered ``key``
    (``joint``: its moves), as :func:`_expand` makes a decision node's: from the
    children cache, else with the 63 joint moves around it (:func:`_joint_block`), else
    alone (:func:`_child`: no cache, or too many joint moves to tag)."""
    size = ctag.shape[0]
    b = key >> 6
    if size == 0 or b >= 65536:
        return _child(k, vals, hits, ns, ni, nf, ei, meta, n, joint, legal, goal_out, goals)
    s = (n + 7919 * b) % size
    tag = n * 65536 + b
    if ctag[s] != tag:
        _joint_block(k, vals, hits, w, wfirst, wnode, wmask, kmask, wmove, ns, ni, ei, n, b,
                     cw[s])
        ctag[s] = tag
    return _cached_child(k, ns, ni, nf, ei, meta, cw[s], key & 63, legal, goal_out, goals)


@njit(cache=True, nogil=True)
def _cached_child(k, ns, ni, nf, ei, meta, row, lane, legal, goal_out, goals):  # type: ignore[no-untyped-def]
    """A new node for the child in lane ``lane`` of the cache row ``row``; -1 on an error."""
    nfl, nm, ngoal = k[F], k[M], k[NGOALS]
    lane = np.uint64(lane)
    c = meta[NODES]
    meta[NODES] = c + 1
    for j in range(nfl):
        ns[c, j] = (row[j] >> lane) & _ONE
    terminal = ((row[nfl + nm + ngoal] >> lane) & _ONE) != _ZERO
    if terminal:
        for e in range(ngoal):
            goal_out[e] = (row[nfl + nm + e] >> lane) & _ONE
    else:
        for m in range(nm):
            legal[m] = (row[nfl + m] >> lane) & _ONE
    if not _fill(k, ni, nf, ei, meta, c, terminal, legal, goal_out, goals):
        return -1
    return c


@njit(cache=True, nogil=True)
def _forced(ni, ei, n, nr, joint):  # type: ignore[no-untyped-def]
    """Every role's first legal move at ``n`` (the moves of the roles without a choice)."""
    for r in range(nr):
        joint[r] = ei[ni[n, RFIRST + r], MOVE]


@njit(cache=True, nogil=True)
def prove(ni, nf, ei, n, nr, shortcut):  # type: ignore[no-untyped-def]
    """MCTS-Solver's backup at a decision node (:meth:`plies.search.mcts_tree.Tree.prove`)."""
    mover = ni[n, MOVER]
    if mover < 0:
        return False
    best = -1
    top = -math.inf
    complete = ni[n, UNTRIED] == 0
    settled = False
    prefix = True
    for e in range(ni[n, RFIRST + mover], ni[n, RFIRST + mover + 1]):
        c = ei[e, CHILD]
        if c < 0 or ni[c, SOLVED] == 0:
            complete = False
            prefix = False
            continue
        if nf[c, nr + mover] > top:
            best = e
            top = nf[c, nr + mover]
        if top >= 1.0 and (shortcut or prefix):
            settled = True
            break
    if best < 0 or not (complete or settled):
        return False
    c = ei[best, CHILD]
    ni[n, BEST] = best
    ni[n, SOLVED] = 1
    for r in range(nr):
        nf[n, nr + r] = nf[c, nr + r]
    return True


@njit(cache=True, nogil=True)
def _select(ni, nf, ei, n, nr, c_explore):  # type: ignore[no-untyped-def]
    """UCB1 for a decision node's mover (solved children by their proof); the edge."""
    mover = ni[n, MOVER]
    log_n = math.log(ni[n, VISITS])
    best = -1
    best_score = -math.inf
    for e in range(ni[n, RFIRST + mover], ni[n, RFIRST + mover + 1]):
        c = ei[e, CHILD]
        if c < 0:
            continue
        if ni[c, SOLVED]:
            score = nf[c, nr + mover]
        else:
            v = ni[c, VISITS]
            score = nf[c, mover] / v + c_explore * math.sqrt(log_n / v)
        if score > best_score:
            best = e
            best_score = score
    return best


@njit(cache=True, nogil=True)
def _select_joint(ni, nf, ei, ef, n, nr, c_explore, det, picks):  # type: ignore[no-untyped-def]
    """Decoupled UCT at a simultaneous node: each role's own edge into ``picks``
    (:meth:`plies.search.mcts_tree.Tree.select_ucb`; with ``det`` every random choice
    takes the first candidate and the uniform mix is never drawn)."""
    visits = ni[n, VISITS]
    log_n = math.log(visits) if visits else 0.0
    for r in range(nr):
        lo = ni[n, RFIRST + r]
        hi = ni[n, RFIRST + r + 1]
        count = hi - lo
        if count == 1:
            picks[r] = lo
            continue
        if not det and np.random.random() < UCB_MIX:
            picks[r] = lo + np.random.randint(count)
            continue
        fresh = 0
        for e in range(lo, hi):
            if ei[e, EVISITS] == 0:
                fresh += 1
        if fresh:
            want = 0 if det or fresh == 1 else np.random.randint(fresh)
            for e in range(lo, hi):
                if ei[e, EVISITS] == 0:
                    if want == 0:
                        picks[r] = e
                        break
                    want -= 1
            continue
        best_score = -math.inf
        ties = 0
        for e in range(lo, hi):
            v = ei[e, EVISITS]
            score = ef[e] / v + c_explore * math.sqrt(log_n / v)
            if score > best_score:
                best_score = score
                ties = 1
            elif score == best_score:
                ties += 1
        want = 0 if det or ties == 1 else np.random.randint(ties)
        for e in range(lo, hi):
            v = ei[e, EVISITS]
            score = ef[e] / v + c_explore * math.sqrt(log_n / v)
            if score == best_score:
                if want == 0:
                    picks[r] = e
                    break
                want -= 1


@njit(cache=True, nogil=True)
def _room(ns, ei, meta, nm):  # type: ignore[no-untyped-def]
    """Whether one more node (and its edges) fits in the arrays."""
    return meta[NODES] < ns.shape[0] and meta[EDGES] + nm <= ei.shape[0]


@njit(cache=True, nogil=True)
def fixed_goal(state, r):  # type: ignore[no-untyped-def]
    """A goal value (0..100) that depends on ``state`` only: the deterministic playout
    of the contract tests (the compiled and the Python tree see the same results)."""
    h = 0
    for j in range(state.shape[0]):
        if state[j]:
            h = (h * 31 + j + 7) % 1000003
    return (h * (r + 3) + 11 * r) % 101


@njit(cache=True, nogil=True)
def scan_root(k, vals, hits, ns, ni, nf, ei, meta, root, anti, shortcut):  # type: ignore[no-untyped-def]
    """Decisive and anti-decisive moves at a decision root, once per root node
    (:meth:`plies.search.mcts_tree.Tree.scan_root`); False on an error."""
    nr, nm, nfl = k[R], k[M], k[F]
    if ni[root, SCANNED] or ni[root, MOVER] < 0 or ni[root, TERM]:
        return True
    ni[root, SCANNED] = 1
    me = ni[root, MOVER]
    legal = np.zeros(nm, np.uint8)
    legal2 = np.zeros(nm, np.uint8)
    goal_out = np.zeros(k[NGOALS], np.uint8)
    goals = np.zeros(nr, np.int64)
    after = np.zeros(nfl, np.uint8)
    after2 = np.zeros(nfl, np.uint8)
    joint = np.zeros(nr, np.int64)
    joint2 = np.zeros(nr, np.int64)
    lo = ni[root, RFIRST + me]
    hi = ni[root, RFIRST + me + 1]
    losing = np.zeros(hi - lo, np.uint8)
    nothing = np.empty(0, np.int64)
    lost = 0
    for e in range(lo, hi):
        if ei[e, CHILD] != -1:
            continue
        _forced(ni, ei, root, nr, joint)
        joint[me] = ei[e, MOVE]
        inspect(k, vals, hits, ns[root], joint, legal, goal_out, after)
        if not inspect(k, vals, hits, after, nothing, legal, goal_out, after2):
            if anti and _loses_at_once(k, vals, hits, after, me, legal, legal2, goal_out,
                                       goals, after2, joint2, nothing):
                losing[e - lo] = 1
                lost += 1
            continue
        c = meta[NODES]
        meta[NODES] = c + 1
        ns[c, :] = after
        if not make_node(k, vals, hits, ns, ni, nf, ei, meta, c, legal, goal_out, after2,
                         goals):
            return False
        ei[e, CHILD] = c
        ni[root, UNTRIED] -= 1
        ni[c, VISITS] = 1
        ni[root, VISITS] += 1
        for r in range(nr):
            nf[c, r] = nf[c, nr + r]
            nf[root, r] += nf[c, nr + r]
        meta[LEAVES] += 1
    if lost:
        children = 0
        for e in range(lo, hi):
            if ei[e, CHILD] >= 0:
                children += 1
        if children + ni[root, UNTRIED] > lost:
            for e in range(lo, hi):
                if losing[e - lo]:
                    ei[e, CHILD] = -2
                    ni[root, UNTRIED] -= 1
    prove(ni, nf, ei, root, nr, shortcut)
    return True


@njit(cache=True, nogil=True)
def _loses_at_once(k, vals, hits, state, me, legal, legal2, goal_out, goals, after, joint,  # type: ignore[no-untyped-def]
                   nothing):
    """Whether the opponent, to move at ``state`` (its legal moves in ``legal``), can end
    the game with ``me``'s lowest reward."""
    nr = k[R]
    choosers = 0
    mover = 0
    for r in range(nr):
        count = 0
        for m in range(k[k[O_ROLE_FIRST] + r], k[k[O_ROLE_FIRST] + r + 1]):
            if legal[m]:
                if count == 0:
                    joint[r] = m
                count += 1
        if count > 1:
            choosers += 1
            mover = r
    if choosers > 1 or mover != 1 - me:
        return False
    for m in range(k[k[O_ROLE_FIRST] + mover], k[k[O_ROLE_FIRST] + mover + 1]):
        if not legal[m]:
            continue
        first = joint[mover]
        joint[mover] = m
        inspect(k, vals, hits, state, joint, legal2, goal_out, after)
        joint[mover] = first
        if inspect(k, vals, hits, after, nothing, legal2, goal_out, after):
            _goals(k, goal_out, goals)
            if _reward(goals[me]) <= 0.0:
                return True
    return False


@njit(cache=True, nogil=True)
def iterate(k, vals, hits, wfirst, wnode, wmask, kmask, wmove, cw, ctag, ns, ni, nf, ei, ef, meta,  # type: ignore[no-untyped-def]
            root, lanes, batches, seed, c_explore, shortcut, det, fixed, limit,
            mast, weights, sums, counts, tau, greedy, ends, cones):
    """Up to ``batches`` batches of ``lanes`` UCT iterations from ``root``, as
    :meth:`plies.search.mcts_tree.Tree.iterate_batch` runs them (a virtual loss per
    lane, MCTS-Solver's proofs at once, one batch of playouts, then the backups); the
    iterations done.  Stops early when the root is solved or on an error
    (``meta[ERROR]``).  Playouts are :func:`plies.gdl.gatebits.playouts` (MAST's with
    ``mast``, greedy with ``greedy``, learning in ``ends``, looking ahead with
    ``cones``), or with ``fixed`` :func:`fixed_goal` of the leaf; one that reaches
    ``limit`` steps scores 0.5 for every role.  ``det`` takes the first candidate
    wherever the search would draw at random (for the contract tests).  When the
    arrays hold no more node (``meta[FULL]`` is set) or at :data:`MAX_DEPTH`, a lane
    plays out from where it would have expanded a node.  A decision node's new child
    comes from :func:`_expand` (the children cache ``cw``, ``ctag``: its siblings
    computed with it, bit-parallel), a simultaneous node's from :func:`_expand_joint`
    (the same cache, blocks of 64 joint moves)."""
    np.random.seed(seed)
    nr, nm, nfl = k[R], k[M], k[F]
    legal = np.zeros(nm, np.uint8)
    goal_out = np.zeros(k[NGOALS], np.uint8)
    goals = np.zeros(nr, np.int64)
    joint = np.zeros(nr, np.int64)
    picks = np.zeros(nr, np.int64)
    path = np.zeros((lanes, MAX_DEPTH + 1), np.int64)
    plen = np.zeros(lanes, np.int64)
    jnode = np.zeros((lanes, MAX_DEPTH + 1), np.int64)
    jpick = np.zeros((lanes, MAX_DEPTH + 1, nr), np.int64)
    jlen = np.zeros(lanes, np.int64)
    rewards = np.zeros((lanes, nr), np.float64)
    waiting = np.zeros(lanes, np.int64)
    starts = np.zeros((lanes, nfl), np.uint8)
    pgoals = np.zeros((lanes, nr), np.int64)
    pstatus = np.zeros(lanes, np.int8)
    w = np.zeros(k[BASE] + k[G], np.uint64)
    w[nfl + nm + 1] = _ALL
    done = 0
    for _ in range(batches):
        if ni[root, SOLVED]:
            break
        used = 0
        for lane in range(lanes):
            if ni[root, SOLVED]:
                break
            used += 1
            n = root
            path[lane, 0] = n
            length = 1
            nj = 0
            while ni[n, SOLVED] == 0:
                if length > MAX_DEPTH - 1:
                    break
                mover = ni[n, MOVER]
                if mover == SIM:
                    _select_joint(ni, nf, ei, ef, n, nr, c_explore, det, picks)
                    jnode[lane, nj] = n
                    key = 0
                    for r in range(nr):
                        jpick[lane, nj, r] = picks[r]
                        lo = ni[n, RFIRST + r]
                        key = key * (ni[n, RFIRST + r + 1] - lo) + picks[r] - lo
                        joint[r] = ei[picks[r], MOVE]
                    nj += 1
                    c = ni[n, KIDS]
                    while c >= 0 and ni[c, KEY] != key:
                        c = ni[c, SIB]
                    if c < 0:
                        if not _room(ns, ei, meta, nm):
                            meta[FULL] = 1
                            break
                        c = _expand_joint(k, vals, hits, w, wfirst, wnode, wmask, kmask, wmove,
                                          cw, ctag, ns, ni, nf, ei, meta, n, key, joint, legal,
                                          goal_out, goals)
                        if c < 0:
                            return done
                        ni[c, KEY] = key
                        ni[c, SIB] = ni[n, KIDS]
                        ni[n, KIDS] = c
                        path[lane, length] = c
                        length += 1
                        break
                    n = c
                elif ni[n, UNTRIED] > 0:
                    if not _room(ns, ei, meta, nm):
                        meta[FULL] = 1
                        break
                    count = ni[n, UNTRIED]
                    want = 0 if det or count == 1 else np.random.randint(count)
                    pick = -1
                    for e in range(ni[n, RFIRST + mover], ni[n, RFIRST + mover + 1]):
                        if ei[e, CHILD] == -1:
                            if want == 0:
                                pick = e
                                break
                            want -= 1
                    c = _expand(k, vals, hits, w, wfirst, wnode, wmask, kmask, wmove, cw, ctag,
                                ns, ni, nf, ei, meta, n, pick, joint, legal, goal_out, goals)
                    if c < 0:
                        return done
                    ei[pick, CHILD] = c
                    ni[n, UNTRIED] -= 1
                    path[lane, length] = c
                    length += 1
                    break
                else:
                    n = ei[_select(ni, nf, ei, n, nr, c_explore), CHILD]
                path[lane, length] = n
                length += 1
            plen[lane] = length
            jlen[lane] = nj
            for i in range(length):
                ni[path[lane, i], VISITS] += 1
            for j in range(nj):
                for r in range(nr):
                    ei[jpick[lane, j, r], EVISITS] += 1
            leaf = path[lane, length - 1]
            waiting[lane] = 0 if ni[leaf, SOLVED] else 1
            if ni[leaf, SOLVED]:
                for r in range(nr):
                    rewards[lane, r] = nf[leaf, nr + r]
                for i in range(length - 2, -1, -1):
                    if not prove(ni, nf, ei, path[lane, i], nr, shortcut):
                        break
        count = 0
        for lane in range(used):
            if waiting[lane]:
                starts[count, :] = ns[path[lane, plen[lane] - 1]]
                count += 1
            else:
                meta[LEAVES] += 1
        if count:
            if fixed:
                for i in range(count):
                    pstatus[i] = 0
                    for r in range(nr):
                        pgoals[i, r] = fixed_goal(starts[i], r)
            else:
                playouts(k, wfirst, wnode, wmask, kmask, wmove, starts[:count], 1, limit,
                         pgoals, pstatus, mast, weights, sums, counts, tau, greedy, ends,
                         cones)
            i = 0
            for lane in range(used):
                if not waiting[lane]:
                    continue
                if pstatus[i] == 2:
                    meta[ERROR] = pgoals[i, 0] + 1
                    return done
                for r in range(nr):
                    if pstatus[i] == 0:
                        rewards[lane, r] = _reward(pgoals[i, r])
                    else:
                        rewards[lane, r] = 0.5
                if pstatus[i] == 0:
                    meta[LEAVES] += 1
                i += 1
        for lane in range(used):
            for i in range(plen[lane]):
                n = path[lane, i]
                for r in range(nr):
                    nf[n, r] += rewards[lane, r]
            for j in range(jlen[lane]):
                for r in range(nr):
                    ef[jpick[lane, j, r]] += rewards[lane, r]
        done += used
    return done


@njit(cache=True, nogil=True)
def find(ns, ni, ei, root, nr, target, depth):  # type: ignore[no-untyped-def]
    """The shallowest node at most ``depth`` moves below ``root`` whose state is
    ``target`` (-1 if none), level by level."""
    level = np.zeros(1, np.int64)
    level[0] = root
    for _ in range(depth + 1):
        for n in level:
            same = True
            for j in range(target.shape[0]):
                if ns[n, j] != target[j]:
                    same = False
                    break
            if same:
                return n
        size = 0
        for n in level:
            size += _kid_count(ni, ei, n, nr)
        nxt = np.zeros(size, np.int64)
        i = 0
        for n in level:
            i = _kids(ni, ei, n, nr, nxt, i)
        level = nxt
    return -1


@njit(cache=True, nogil=True)
def _kid_count(ni, ei, n, nr):  # type: ignore[no-untyped-def]
    mover = ni[n, MOVER]
    count = 0
    if mover == SIM:
        c = ni[n, KIDS]
        while c >= 0:
            count += 1
            c = ni[c, SIB]
    elif mover >= 0:
        for e in range(ni[n, RFIRST + mover], ni[n, RFIRST + mover + 1]):
            if ei[e, CHILD] >= 0:
                count += 1
    return count


@njit(cache=True, nogil=True)
def _kids(ni, ei, n, nr, out, i):  # type: ignore[no-untyped-def]
    mover = ni[n, MOVER]
    if mover == SIM:
        c = ni[n, KIDS]
        while c >= 0:
            out[i] = c
            i += 1
            c = ni[c, SIB]
    elif mover >= 0:
        for e in range(ni[n, RFIRST + mover], ni[n, RFIRST + mover + 1]):
            if ei[e, CHILD] >= 0:
                out[i] = ei[e, CHILD]
                i += 1
    return i


@njit(cache=True, nogil=True)
def compact(ns, ni, nf, ei, ef, meta, root, nr, ns2, ni2, nf2, ei2, ef2):  # type: ignore[no-untyped-def]
    """Copy the subtree of ``root`` into the second arrays, its nodes renumbered from 0
    (the root) in breadth-first order, its edges after them; sets ``meta``'s counts."""
    nodes = meta[NODES]
    new = np.full(nodes, -1, np.int64)
    order = np.zeros(nodes, np.int64)
    order[0] = root
    new[root] = 0
    size = 1
    head = 0
    while head < size:
        n = order[head]
        head += 1
        mover = ni[n, MOVER]
        if mover == SIM:
            c = ni[n, KIDS]
            while c >= 0:
                new[c] = size
                order[size] = c
                size += 1
                c = ni[c, SIB]
        elif mover >= 0:
            for e in range(ni[n, RFIRST + mover], ni[n, RFIRST + mover + 1]):
                c = ei[e, CHILD]
                if c >= 0:
                    new[c] = size
                    order[size] = c
                    size += 1
    edges = 0
    for i in range(size):
        n = order[i]
        ns2[i, :] = ns[n]
        ni2[i, :] = ni[n]
        nf2[i, :] = nf[n]
        for col in (KIDS, SIB):
            if ni[n, col] >= 0:
                ni2[i, col] = new[ni[n, col]]
        e0 = ni[n, RFIRST]
        shift = edges - e0
        for r in range(nr + 1):
            ni2[i, RFIRST + r] = ni[n, RFIRST + r] + shift
        for e in range(e0, ni[n, RFIRST + nr]):
            ei2[edges, :] = ei[e]
            ef2[edges] = ef[e]
            if ei[e, CHILD] >= 0:
                ei2[edges, CHILD] = new[ei[e, CHILD]]
            edges += 1
        if ni[n, BEST] >= 0:
            ni2[i, BEST] = ni[n, BEST] + shift
    meta[NODES] = size
    meta[EDGES] = edges
