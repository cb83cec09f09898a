"""Stratified negation, checked rule by rule: the order in which GDL rules are evaluated.

GDL's specification asks that no cycle of the dependency graph over *relation names*
go through a negative edge.  Real games break that letter and keep its meaning:
futoshiki and hidato write ``(<= (goal robot 100) (not (goal robot 0)))``, which is
a cycle ``goal -> not goal`` by name, yet no goal atom depends on its own negation: the
value 0 is decided first, then 100.  ggp-base's validator accepts such games (its
stratification check never fires) and its prover plays them; so does plies.

The finer graph used here has the *rules* as nodes: rule ``i`` depends on rule ``j``
when a literal of ``i``'s body unifies with ``j``'s head (the variables of the two
rules renamed apart), negatively if the literal is under ``not``.  Every dependency
between ground atoms is an instance of such an edge, so when no cycle of this graph
goes through a negative edge, the rules are stratified once ground (locally
stratified), and evaluating the strongly connected components of rules in dependency
order computes the one model GDL gives them.  The graph is built only inside the
components of relation names that need it, so games stratified by name cost nothing.

Both graphs are ordered by :func:`strongly_connected` (Tarjan), which grounding and the
other reasoners use for their own dependency graphs too.

A cycle through negation in this graph is an error; ``notunstrat.kif``'s
``(<= (test ?x) (not (test2 ?x)) (test3 ?x))`` with ``(<= (test2 ?x) (test ?x))`` is
one (whether or not ``test3`` ever holds).  What the graph cannot tell apart (a cycle
that only specific constants break, such as ``(<= (p ?x) (succ ?x ?y) (not (p ?y)))``)
is rejected, as by the specification.

>>> rules = [
...     (("goal", "p", "0"), ((True, ("true", "s")),)),
...     (("goal", "p", "100"), ((False, ("goal", "p", "0")),)),
... ]
>>> order = rule_order(rules)
>>> order.groups, order.split
([[0], [1]], True)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias, TypeVar

from plies.errors import GameFormatError
from plies.gdl.terms import Pred, Term, pred_of, to_kif

H = TypeVar("H", bound=Hashable)

RuleShape: TypeAlias = tuple[Term, Sequence[tuple[bool, Term]]]
"""A rule as this module sees it: its head and its relational body literals, each with
``True`` when positive (``distinct`` left out, ``or`` expanded or flattened)."""

MAX_PAIRS = 4_000_000
"""The most (literal, head) unifications one component of relation names may need; a
game beyond it is checked by relation name only (an error, as the specification says)."""


@dataclass(frozen=True)
class NegativeCycle:
    """A cycle through negation among the rules (indices into the rules given).

    ``rule`` holds the negated literal ``literal``; ``path`` starts at a rule whose head
    unifies with ``literal`` and follows dependencies back to ``rule``.  ``by_name`` is
    True when the cycle was found on relation names only (:data:`MAX_PAIRS` exceeded).
    """

    rule: int
    literal: Term
    path: tuple[int, ...]
    by_name: bool = False


class NotStratifiedError(GameFormatError):
    """Rules whose negation is not stratified (``cycles`` lists where)."""

    def __init__(self, message: str, cycles: Sequence[NegativeCycle]) -> None:
        super().__init__(message)
        self.cycles = tuple(cycles)


@dataclass(frozen=True)
class RuleOrder:
    """The result of :func:`rule_order`.

    ``groups``: the rules (indices) as strongly connected components, each after every
    group it depends on; a group's rules are evaluated together (a fixpoint when
    recursive).  ``split``: whether some component of relation names had to be split
    by rules (the description is stratified only at the finer level).  ``by_name``: the
    rules (indices) with a negative literal in a cycle of relation names, empty when
    ``split`` is False.
    """

    groups: list[list[int]]
    split: bool
    by_name: tuple[int, ...]


def strongly_connected(nodes: Iterable[H], edges: Mapping[H, Iterable[H]]) -> list[list[H]]:
    """Tarjan's SCCs, each after every SCC it depends on (edges point at dependencies)."""
    index: dict[H, int] = {}
    low: dict[H, int] = {}
    on_stack: set[H] = set()
    stack: list[H] = []
    result: list[list[H]] = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work: list[tuple[H, Iterator[H]]] = [(root, iter(edges.get(root, ())))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges.get(child, ()))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[H] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                result.append(component)
    return result


def rule_order(rules: Sequence[RuleShape]) -> RuleOrder:
    """The evaluation order of ``rules``, or :class:`NotStratifiedError` naming every
    rule that depends on its own negation (see the module docstring)."""
    heads: dict[Pred, list[int]] = {}
    edges: dict[Pred, set[Pred]] = {}
    for i, (head, body) in enumerate(rules):
        p = pred_of(head)
        heads.setdefault(p, []).append(i)
        edges.setdefault(p, set()).update(pred_of(atom) for _, atom in body)
    component: dict[Pred, int] = {}
    pred_groups = strongly_connected(list(heads), edges)
    for number, members in enumerate(pred_groups):
        for p in members:
            component[p] = number
    groups: list[list[int]] = []
    by_name: list[int] = []
    cycles: list[NegativeCycle] = []
    for number, members in enumerate(pred_groups):
        indices = [i for p in members for i in heads.get(p, ())]
        if not indices:
            continue
        inside = [
            i
            for i in indices
            if any(not pos and component.get(pred_of(a)) == number for pos, a in rules[i][1])
        ]
        if not inside:
            groups.append(indices)
            continue
        by_name.extend(inside)
        split, found = _split(rules, indices, heads, inside)
        groups.extend(split)
        cycles.extend(found)
    if cycles:
        raise NotStratifiedError(describe(rules, cycles[0]), cycles)
    return RuleOrder(groups, bool(by_name), tuple(sorted(by_name)))


def _split(
    rules: Sequence[RuleShape], indices: list[int], heads: dict[Pred, list[int]], inside: list[int]
) -> tuple[list[list[int]], list[NegativeCycle]]:
    """The rule components of one component of relation names, and its negative cycles."""
    members = set(indices)
    work = sum(
        len(heads.get(pred_of(atom), ())) for i in indices for _, atom in rules[i][1]
    )
    if work > MAX_PAIRS:  # too big to look closer: judge by name, as the specification does
        names = {pred_of(rules[j][0]) for j in indices}
        return [], [
            NegativeCycle(i, atom, (), by_name=True)
            for i in inside
            for pos, atom in rules[i][1]
            if not pos and pred_of(atom) in names
        ]
    graph: dict[int, list[tuple[int, bool, Term]]] = {i: [] for i in indices}
    for i in indices:
        for pos, atom in rules[i][1]:
            for j in heads.get(pred_of(atom), ()):
                if j in members and unifiable(atom, rules[j][0]):
                    graph[i].append((j, pos, atom))
    plain = {i: [j for j, _, _ in targets] for i, targets in graph.items()}
    found = strongly_connected(indices, plain)
    where = {i: n for n, comp in enumerate(found) for i in comp}
    cycles = [
        NegativeCycle(i, atom, _path(plain, j, i, where))
        for i in indices
        for j, pos, atom in graph[i]
        if not pos and where[j] == where[i]
    ]
    return found, cycles


def _path(
    edges: dict[int, list[int]], start: int, goal: int, where: dict[int, int]
) -> tuple[int, ...]:
    """A shortest path of rules from ``start`` to ``goal`` inside their component."""
    parent: dict[int, int | None] = {start: None}
    todo = [start]
    for node in todo:  # breadth first: todo grows while it is read
        if node == goal:
            break
        for nxt in edges[node]:
            if nxt not in parent and where[nxt] == where[start]:
                parent[nxt] = node
                todo.append(nxt)
    path = [goal]
    back = parent.get(goal)
    while back is not None:
        path.append(back)
        back = parent[back]
    return tuple(reversed(path))


def describe(rules: Sequence[RuleShape], cycle: NegativeCycle) -> str:
    """One line saying how the rule of ``cycle`` depends on its own negation."""
    head = rules[cycle.rule][0]
    name = _name(head)
    literal = f"(not {to_kif(cycle.literal)})"
    if cycle.by_name:
        return (
            f"negation in a recursive cycle: {name} depends on {literal} by relation name, "
            "so the rules are not stratified"
        )
    if cycle.path == (cycle.rule,):
        how = f"{name} depends on its own negation {literal}"
    else:
        chain = " -> ".join([name, *(_name(rules[i][0]) for i in cycle.path)])
        body = _name(cycle.literal)
        how = f"{name} depends on {literal}, and {body} depends on {name} again (cycle {chain})"
    return f"negation in a recursive cycle: {how}, so the rules are not stratified"


def _name(atom: Term) -> str:
    return atom if isinstance(atom, str) else str(atom[0])


# --- unification of two atoms, their variables renamed apart ------------------------------

_Var: TypeAlias = tuple[int, str]  # (side, name): side 0 is the literal, 1 the head


def unifiable(a: Term, b: Term) -> bool:
    """Whether atoms ``a`` and ``b`` have a common instance once their variables are
    renamed apart (with the occurs check: ``?x`` never unifies with ``(f ?x)``).

    >>> unifiable(("goal", "?r", "100"), ("goal", "robot", "?v"))
    True
    >>> unifiable(("goal", "?r", "100"), ("goal", "?r", "0"))
    False
    >>> unifiable(("p", "?x", "?x"), ("p", "?y", ("f", "?y")))
    False
    """
    binding: dict[_Var, tuple[int, Term]] = {}
    todo: list[tuple[int, Term, int, Term]] = [(0, a, 1, b)]
    while todo:
        side_x, x, side_y, y = todo.pop()
        side_x, x = _walk(side_x, x, binding)
        side_y, y = _walk(side_y, y, binding)
        x_var = isinstance(x, str) and x[:1] == "?"
        y_var = isinstance(y, str) and y[:1] == "?"
        if x_var and y_var and (side_x, x) == (side_y, y):
            continue
        if x_var:
            var: _Var = (side_x, str(x))
            if _occurs(var, side_y, y, binding):
                return False
            binding[var] = (side_y, y)
        elif y_var:
            var = (side_y, str(y))
            if _occurs(var, side_x, x, binding):
                return False
            binding[var] = (side_x, x)
        elif isinstance(x, str) or isinstance(y, str):
            if x != y:
                return False
        elif len(x) != len(y):
            return False
        else:
            todo.extend((side_x, p, side_y, q) for p, q in zip(x, y, strict=True))
    return True


def _walk(side: int, t: Term, binding: dict[_Var, tuple[int, Term]]) -> tuple[int, Term]:
    while isinstance(t, str) and t[:1] == "?" and (side, t) in binding:
        side, t = binding[(side, t)]
    return side, t


def _occurs(var: _Var, side: int, t: Term, binding: dict[_Var, tuple[int, Term]]) -> bool:
    return any((s, u) == var for s, u in _subterms(side, t, binding))


def _subterms(
    side: int, t: Term, binding: dict[_Var, tuple[int, Term]]
) -> Iterator[tuple[int, Hashable]]:
    todo = [(side, t)]
    while todo:
        s, u = _walk(*todo.pop(), binding)
        if isinstance(u, str):
            yield s, u
        else:
            todo.extend((s, part) for part in u)
