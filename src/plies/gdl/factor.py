"""Independent parts of a game: factoring a propositional network into subgames.

Some games are several games played at once: connectFourSimultaneous is two boards of
Connect Four, each player dropping a piece on one board at every step.  A search over
the whole game branches on every joint move (64 at each step there) where each part
alone is an ordinary game taking turns (8 moves a step).  Factoring finds the parts
from the rules (Günther, Schiffel and Thielscher 2007; Sancho, the 2014 champion,
searches factored games this way) and :func:`subgame` gives the network of one part,
the others frozen, for a search of its own.

**The factors** (:func:`find_factors`).  A move *changes* the fluents whose ``next``
reads it, and every fluent whose ``next`` reads one of those, and so on (the forward
closure over the network).  Two moves belong to one factor when one changes a fluent
that the other changes or whose legality reads it, or when the goals or the terminal
test read their fluents in one conjunction (a line of four cells joins the columns of
a board; the disjunction "a line on either board" does not join the boards).  Moves
that change nothing (a ``noop``) belong to no factor.  Fluents no move changes (whose
turn it is on each board) belong to no factor either: they run by themselves in every
subgame.

**A subgame** (:func:`subgame`): the same fluents and moves; the fluents that other
factors' moves change keep their values (``next`` is the fluent itself), and each
role's moves outside the factor are replaced by one *pass*, legal exactly when the role
has no move in the factor (its first move outside the factor stands for it).  It ends
where the game ends, with the game's goals, or where no role has a move left in the
factor, a draw (:data:`EXHAUSTED`).  At a step where one player moves on the first
board and the other on the second, the first board's subgame is a decision for the
first player, the other passing: Connect Four on that board, with the rest of the game
as it stands.  A factored search does not see the race between the parts (a line the
other side completes first on the other board).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from plies.bits import members
from plies.gdl.formula import Formula, Network, bitset, make_and, make_or
from plies.gdl.strata import strongly_connected
from plies.gdl.terms import Term


@dataclass(frozen=True)
class Factor:
    """One independent part of a game: its ``moves`` (global move indices, every role's
    in one numbering, as the network's move bits) and the ``fluents`` they change."""

    moves: frozenset[int]
    fluents: frozenset[int]


def _literals(f: Formula, state: set[int], moves: set[int], views: set[int]) -> None:
    """Add the state bits, move bits and views that ``f`` reads directly."""
    stack = [f]
    while stack:
        g = stack.pop()
        if not isinstance(g, tuple):
            continue
        tag = g[0]
        if tag in ("and", "or"):
            stack.extend(g[1])
        elif tag in ("s", "!s"):
            state.add(g[1])
        elif tag in ("d", "!d"):
            moves.add(g[1])
        else:
            views.add(g[1])


class _Support:
    """What each formula of a network reads, through its views: fluents and moves, as
    bit sets (Python integers), each view's computed once in the network's order."""

    def __init__(self, net: Network) -> None:
        self.state: dict[int, int] = {}
        self.moves: dict[int, int] = {}
        for comp in net.order:  # each component after the views it reads
            s: set[int] = set()
            d: set[int] = set()
            refs: set[int] = set()
            for n in comp:
                _literals(net.views[n], s, d, refs)
            s_bits, d_bits = bitset(s), bitset(d)
            for n in refs.difference(comp):
                s_bits |= self.state[n]
                d_bits |= self.moves[n]
            for n in comp:
                self.state[n], self.moves[n] = s_bits, d_bits

    def of(self, f: Formula) -> tuple[int, int]:
        """The fluents and moves ``f`` reads, as bit sets."""
        s: set[int] = set()
        d: set[int] = set()
        refs: set[int] = set()
        _literals(f, s, d, refs)
        s_bits, d_bits = bitset(s), bitset(d)
        for n in refs:
            s_bits |= self.state[n]
            d_bits |= self.moves[n]
        return s_bits, d_bits


MAX_READS: Final = 2_000_000
"""The most (fluent, fluent its next reads) pairs :func:`find_factors` looks at: a
network where every fluent's next reads thousands of others (a Hex board's paths)
does not come apart, and following all of them takes minutes."""


def find_factors(net: Network) -> tuple[Factor, ...]:
    """The independent parts of ``net``'s game (see the module docstring), most moves
    first; one factor, or none, when the game does not come apart (or its network is
    too dense to look at, :data:`MAX_READS`)."""
    support = _Support(net)
    nf = len(net.fluents)
    nm = sum(len(role) for role in net.moves)
    # A graph over the fluents (and one node per group of fluents the goals or the
    # terminal test read together): an edge from a fluent to every fluent whose next
    # reads it, and both ways between a group and its fluents.
    graph: list[list[int]] = [[] for _ in range(nf)]
    read_by_next = [0] * nm  # the fluents whose next reads move k
    reads = [(j, *support.of(f)) for j, f in net.next]
    if sum(s_bits.bit_count() for _, s_bits, _ in reads) > MAX_READS:
        return ()
    for j, s_bits, d_bits in reads:
        for i in members(s_bits & ~(1 << j)):  # a frame axiom reads its own fluent
            graph[i].append(j)
        for k in members(d_bits):
            read_by_next[k] |= 1 << j
    for group in _together(net):
        node = len(graph)
        graph.append(group)
        for i in group:
            graph[i].append(node)
    reach = _reach(graph)
    legal_reads = [0] * nm
    first = 0
    for r, role in enumerate(net.legal):
        for i, f in role:
            legal_reads[first + i] = support.of(f)[0]
        first += len(net.moves[r])
    fluents = (1 << nf) - 1
    groups: list[tuple[int, int, set[int]]] = []  # changes, legality reads, moves
    for k in range(nm):
        changes = 0
        for j in members(read_by_next[k]):
            changes |= reach[j]
        if not changes:
            continue  # a move that changes nothing: a pass
        reads_k = legal_reads[k]
        merged = (changes, reads_k, {k})
        rest = []
        for g in groups:
            if g[0] & (changes | reads_k) or g[1] & changes:
                merged = (merged[0] | g[0], merged[1] | g[1], merged[2] | g[2])
            else:
                rest.append(g)
        groups = [*rest, merged]
    factors = [Factor(frozenset(m), frozenset(members(c & fluents))) for c, _, m in groups]
    return tuple(sorted(factors, key=lambda fa: (-len(fa.moves), min(fa.moves))))


def _together(net: Network) -> list[list[int]]:
    """The groups of fluents that the goals and the terminal test read together: those
    in one conjunction of a formula's own tree (a line of four cells), joined where
    they overlap; a disjunction's parts and the views a formula names are not joined
    to each other (a line on either board)."""
    parent = list(range(len(net.fluents)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def link(f: Formula) -> list[int]:
        """The fluents of ``f``'s tree (views not followed), joined where a conjunction
        holds them; one representative per joined group is returned."""
        if not isinstance(f, tuple):
            return []
        tag = f[0]
        if tag in ("s", "!s"):
            return [f[1]]
        if tag not in ("and", "or"):
            return []
        found = [i for p in f[1] for i in link(p)]
        if tag == "and" and found:
            root = find(found[0])
            for i in found[1:]:
                parent[find(i)] = root
            return [root]
        return found

    roots = [net.terminal, *(f for role in net.goals for _, f in role)]
    cone: set[int] = set()
    todo = list(roots)
    while todo:
        f = todo.pop()
        refs: set[int] = set()
        _literals(f, set(), set(), refs)
        for n in refs - cone:
            cone.add(n)
            todo.append(net.views[n])
    for f in roots:
        link(f)
    for n in sorted(cone):
        link(net.views[n])
    groups: dict[int, list[int]] = {}
    for i in range(len(parent)):
        groups.setdefault(find(i), []).append(i)
    return [g for g in groups.values() if len(g) > 1]


def _reach(graph: list[list[int]]) -> list[int]:
    """Per node, itself and every node reachable from it (bit sets), over the strongly
    connected components, each computed once."""
    reach = [0] * len(graph)
    edges = dict(enumerate(graph))
    for comp in strongly_connected(range(len(graph)), edges):  # successors first
        bits = 0
        for i in comp:
            bits |= 1 << i
        for i in comp:
            for j in graph[i]:
                bits |= reach[j]
        for i in comp:
            reach[i] = bits
    return reach


EXHAUSTED: Final = 50
"""The goal of every role at the end of a subgame where no role has a move left in the
part (a full board without a line, the other board still open): a draw of the part."""


def subgame(net: Network, factors: tuple[Factor, ...], index: int) -> Network:
    """The network of ``factors[index]``'s part of the game, the others frozen, each
    role's moves outside it one pass (see the module docstring).  The fluents and moves
    are ``net``'s: states and moves carry over unchanged.  It ends where the game does,
    with the game's goals, or where no role has a move left in the part, each role
    then scoring :data:`EXHAUSTED` (the whole game goes on elsewhere)."""
    part = factors[index]
    frozen: set[int] = set()
    for i, other in enumerate(factors):
        if i != index:
            frozen |= other.fluents
    nxt = [(j, ("s", j) if j in frozen else f) for j, f in net.next]
    views = list(net.views)
    atoms = list(net.atoms)
    order = [list(comp) for comp in net.order]

    def view(f: Formula, name: Term) -> int:
        views.append(f)
        atoms.append(name)
        order.append([len(views) - 1])
        return len(views) - 1

    legal: list[list[tuple[int, Formula]]] = []
    stuck: list[Formula] = []  # per role: it has no move in the part
    first = 0
    for r, role in enumerate(net.legal):
        inside = [f for i, f in role if first + i in part.moves]
        outside = [i for i, _ in role if first + i not in part.moves]
        has_move = view(make_or(inside), ("plies_part_moves", str(r)))
        stuck.append(("!v", has_move))
        new_role: list[tuple[int, Formula]] = []
        for i, f in role:
            if first + i in part.moves:
                new_role.append((i, f))
            elif i == outside[0]:  # the pass
                new_role.append((i, ("!v", has_move)))
            else:
                new_role.append((i, False))
        legal.append(new_role)
        first += len(net.moves[r])
    ended = view(net.terminal, ("plies_part_game_over",))
    exhausted = make_and([("!v", ended), *stuck])
    goals = [[(v, make_and([("v", ended), f])) for v, f in role] + [(EXHAUSTED, exhausted)]
             for role in net.goals]
    return replace(net, atoms=atoms, views=views, order=order, legal=legal, next=nxt,
                   terminal=make_or([("v", ended), exhausted]), goals=goals)


def factor_of(factors: tuple[Factor, ...], moves: list[int]) -> int | None:
    """The factor that holds every one of ``moves`` (global indices), or None."""
    for i, part in enumerate(factors):
        if all(m in part.moves for m in moves):
            return i
    return None
