"""The checks of GDL's restrictions that read the graph of which relation uses which.

:class:`DependencyGraph` has an edge from each rule's head relation to every relation of
its body.  On it: :func:`stratification` (no rule depends on its own negation; a cycle
through ``not`` over relation names only is looked at rule by rule with
:mod:`plies.gdl.strata`), :func:`recursion` (the recursion restriction, Definition 15
of the GDL specification) and :func:`keyword_dependencies` (``init``, ``base``,
``input``, ``legal``, ``goal`` and ``terminal`` do not depend on what they must not).
Each yields :class:`~plies.gdl.diagnostic.Diagnostic` s; the list of checks is in
:mod:`plies.gdl.validator`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping, Sequence

from plies.gdl.diagnostic import Diagnostic, arguments_of, body_atoms, diagnostic, name_of
from plies.gdl.strata import NotStratifiedError, RuleShape, describe, rule_order, strongly_connected
from plies.gdl.terms import Rule, Term, is_ground, to_kif

# (relation, relations it must not depend on), from the GDL specification and griddle.
_FORBIDDEN_DEPENDENCIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("init", ("true", "does", "legal", "goal", "terminal")),
    ("base", ("true", "does")),
    ("input", ("true", "does")),
    ("legal", ("does",)),
    ("goal", ("does",)),
    ("terminal", ("does",)),
)


class DependencyGraph:
    """Relation names with an edge head -> body relation (negative under ``not``)."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        self.edges: dict[str, set[str]] = {}
        for rule in rules:
            head = name_of(rule.head)
            if head is None:
                continue
            targets = self.edges.setdefault(head, set())
            for atom, _negative in body_atoms(rule):
                body = name_of(atom)
                if body is not None:
                    targets.add(body)
                    self.edges.setdefault(body, set())
        self.component = _strongly_connected_components(self.edges)

    def in_cycle(self, p: str, q: str) -> bool:
        """Whether q is p or p and q lie on a common cycle."""
        return p == q or self.component.get(p, p) == self.component.get(q, q)

    def toward(self, goals: set[str]) -> dict[str, tuple[str | None, str, int]]:
        """For every relation from which one in ``goals`` can be reached: the next relation
        on a shortest path there (None for the goals themselves), the goal it leads to
        and the path's length.  One backward search."""
        reverse: dict[str, list[str]] = {}
        for head, bodies in self.edges.items():
            for body in sorted(bodies):
                reverse.setdefault(body, []).append(head)
        step: dict[str, tuple[str | None, str, int]] = {g: (None, g, 0) for g in sorted(goals)}
        queue = deque(step)
        while queue:
            node = queue.popleft()
            _, goal, length = step[node]
            for up in reverse.get(node, ()):
                if up not in step:
                    step[up] = (node, goal, length + 1)
                    queue.append(up)
        return step

    def path(self, start: str, goals: set[str]) -> list[str] | None:
        """A shortest dependency path from ``start`` to a relation in ``goals``, if any."""
        parent: dict[str, str | None] = {start: None}
        queue = deque([start])
        while queue:
            node = queue.popleft()
            for nxt in sorted(self.edges.get(node, ())):
                if nxt in parent:
                    continue
                parent[nxt] = node
                if nxt in goals:
                    path = [nxt]
                    back = parent[nxt]
                    while back is not None:
                        path.append(back)
                        back = parent[back]
                    return path[::-1]
                queue.append(nxt)
        return None


def _strongly_connected_components(edges: Mapping[str, set[str]]) -> dict[str, int]:
    """Node -> the number of its strongly connected component (Tarjan's, in
    :mod:`plies.gdl.strata`)."""
    return {
        node: number
        for number, members in enumerate(strongly_connected(edges, edges))
        for node in members
    }


def stratification(rules: Sequence[Rule], graph: DependencyGraph) -> Iterator[Diagnostic]:
    """No rule depends on its own negation (an error); by relation name only, a warning."""
    by_name: list[tuple[Rule, str]] = []
    for rule in rules:
        head = name_of(rule.head)
        if head is None:
            continue
        for atom, negative in body_atoms(rule):
            body = name_of(atom)
            if not negative or body is None or not graph.in_cycle(head, body):
                continue
            if body == head:
                how = f"{head} depends on its own negation (not {to_kif(atom)})"
            else:
                cycle = " -> ".join([head, *(graph.path(body, {head}) or [])])
                how = (
                    f"{head} depends on (not {to_kif(atom)}), and {body} depends on {head} "
                    f"again (cycle {cycle})"
                )
            by_name.append((rule, how))
    if not by_name:
        return
    # A cycle through negation by relation name: look closer, at the rules themselves.
    shapes: list[RuleShape] = []
    owners: list[Rule] = []
    for rule in rules:
        if name_of(rule.head) is not None:
            atoms = [(not neg, atom) for atom, neg in body_atoms(rule) if name_of(atom) is not None]
            shapes.append((rule.head, atoms))
            owners.append(rule)
    try:
        rule_order(shapes)
    except NotStratifiedError as error:
        for where in error.cycles:
            yield diagnostic(
                "error", "stratification", describe(shapes, where), owners[where.rule]
            )
        return
    for rule, how in by_name:
        yield diagnostic(
            "warning",
            "stratification",
            f"negation in a cycle of relation names: {how}; the GDL specification asks for "
            "stratification by relation name, but no instance of this rule depends on its "
            "own negation, so the game is played (as by ggp-base)",
            rule,
        )


def recursion(rules: Sequence[Rule], graph: DependencyGraph) -> Iterator[Diagnostic]:
    """The recursion restriction (see :mod:`plies.gdl.validator`)."""
    for rule in rules:
        head = name_of(rule.head)
        if head is None or not rule.body:
            continue
        head_args = set(arguments_of(rule.head))
        allowed = _nonrecursive_arguments(rule.body, head, graph)
        problems: list[str] = []
        for atom in _positive_atoms(rule.body):
            name = name_of(atom)
            if name is None or not graph.in_cycle(head, name):
                continue
            for arg in arguments_of(atom):
                if is_ground(arg) or arg in head_args or arg in allowed:
                    continue
                problems.append(f"{to_kif(arg)} in {to_kif(atom)}")
        if problems:
            yield diagnostic(
                "error",
                "recursion",
                f"the recursion restriction is violated by {', '.join(problems)}: an argument "
                f"of a body literal in a cycle with {head} must be ground, an argument of the "
                f"head {to_kif(rule.head)}, or an argument of a positive body literal outside "
                "the cycle",
                rule,
            )


def _positive_atoms(body: Sequence[Term]) -> Iterator[Term]:
    """Positive atoms of a body, including those that are disjuncts of an ``or``."""
    for literal in body:
        name = name_of(literal)
        if name == "or":
            yield from _positive_atoms(literal[1:])
        elif name not in ("not", "distinct"):
            yield literal


def _nonrecursive_arguments(body: Sequence[Term], head: str, graph: DependencyGraph) -> set[Term]:
    """Arguments of positive body literals outside ``head``'s cycle; an ``or`` contributes
    the arguments common to all its disjuncts, and only if none is in the cycle."""
    allowed: set[Term] = set()
    for literal in body:
        name = name_of(literal)
        if name == "or":
            common: set[Term] | None = None
            for inner in literal[1:]:
                inner_args = _nonrecursive_arguments((inner,), head, graph)
                if name_of(inner) in ("not", "distinct"):
                    inner_args = set()
                common = inner_args if common is None else common & inner_args
            allowed |= common or set()
        elif (
            name is not None and name not in ("not", "distinct") and not graph.in_cycle(head, name)
        ):
            allowed.update(arguments_of(literal))
    return allowed


def keyword_dependencies(rules: Sequence[Rule], graph: DependencyGraph) -> Iterator[Diagnostic]:
    """``init``, ``base``, ``input``, ``legal``, ``goal`` and ``terminal`` do not depend on
    the relations the specification forbids them."""
    for keyword, forbidden in _FORBIDDEN_DEPENDENCIES:
        # Which relations reach a forbidden one, and how, in one backward search (a
        # search per rule would be quadratic in a big game).
        step = graph.toward(set(forbidden))
        for rule in rules:
            if name_of(rule.head) != keyword:
                continue
            for body in dict.fromkeys(name_of(atom) for atom, _ in body_atoms(rule)):
                if body is None or body not in step:
                    continue
                path = [body]
                following, goal, length = step[body]
                while following is not None and len(path) < 4:  # one readable line
                    path.append(following)
                    following = step[following][0]
                if following is not None:
                    path += ["...", goal] if length > 4 else [goal]
                chain = " -> ".join([keyword, *path])
                yield diagnostic(
                    "error",
                    "keyword-dependency",
                    f"{keyword} must not depend on {path[-1]}, but it does ({chain})",
                    rule,
                )
                break
