"""The restrictions that make a parsed description valid GDL.

:func:`validate` returns every problem as a :class:`Diagnostic`; :func:`check` raises
:class:`~plies.errors.GdlValidationError` for the first error and returns the warnings.

Errors (the description has no well-defined meaning, or breaks the GDL specification):

* ``safety``: every variable in the head, in a negated literal or in a ``distinct`` must
  occur in a positive relational literal of the same body; inside ``(or ...)`` a
  variable counts only if every disjunct binds it.
* ``stratification``: no rule depends on its own negation: no cycle through a ``not``
  in the graph of rules, where a rule depends on every rule whose head unifies with one
  of its body literals (:mod:`plies.gdl.strata`).  A cycle through negation over
  relation *names* only, such as ``(<= (goal p 100) (not (goal p 0)))``, is a warning:
  the specification forbids it, ggp-base accepts and plays it, and so does plies.
* ``recursion``: the recursion restriction (Definition 15 of the GDL specification):
  in a rule with head ``p(t...)``, every argument of a positive body literal whose
  relation is in a cycle with ``p`` is ground, or one of the ``t``, or an argument of a
  positive body literal whose relation is not in a cycle with ``p``.
* ``keyword-placement``: ``true``, ``does``, ``distinct``, ``not``, ``or`` are never
  defined (never in a head); ``init``, ``next``, ``base``, ``input`` appear only in heads.
* ``keyword-dependency``: ``init``, ``base`` and ``input`` do not depend on ``true`` or
  ``does`` (``init`` also not on ``legal``, ``goal``, ``terminal``); ``legal``, ``goal``
  and ``terminal`` do not depend on ``does``.
* ``keyword-arity``: ``role``, ``init``, ``true``, ``next``, ``base``, ``not`` take one
  argument, ``legal``, ``does``, ``goal``, ``input``, ``distinct`` two, ``terminal`` none,
  ``or`` at least one.
* ``keyword-as-term``: a GDL keyword used as a function name, or ``not``/``or``/
  ``distinct`` as an object constant.
* ``negation``: ``not`` wraps a sentence, never ``distinct``, ``or`` or another ``not``.
* ``role``: roles are distinct ground facts ``(role r)`` with a constant ``r``.
* ``missing-keyword``: ``role``, ``legal``, ``goal`` and ``terminal`` are all defined.

Warnings (legal GDL that often hides a mistake, after griddle's checks):

* ``arity``: one relation or function name used with two numbers of arguments;
* ``empty-body``: a rule ``(<= head)`` with no body (write the fact ``head``);
* ``parentheses``: ``(name)`` with no arguments, which ggp-base reads as a different
  sentence or term from ``name``;
* ``nested-or``: an ``or`` inside an ``or``;
* ``capitalization``: one name written in two cases (``nextRank`` and ``nextrank``), or
  one variable in two cases within a rule: plies reads them as different, as
  ggp-base's prover does, but players that ignore case read one (ggp-base's validator
  rejects the game for it);
* ``goal-value``: a goal value written in a rule head that is not an integer from 0 to
  100: harmless until a state where the rule holds is reached; the reasoners then raise
  :class:`~plies.gdl.reasoner.GoalDefinitionError` when asked for that goal, as ggp-base
  does (a ``stratification`` warning is described above).

>>> from plies.gdl.parser import parse
>>> desc = parse('''(role robot) (legal robot x) (goal robot 100) terminal
... (<= (test ?x) (test2 ?x) (not (test3 ?y)))''')
>>> for diagnostic in validate(desc):
...     print(diagnostic)
2:1: error [safety]: unsafe rule: the variable ?y in the negated literal (not (test3 ?y))
    does not occur in a positive relational literal of the body:
    (<= (test ?x) (test2 ?x) (not (test3 ?y)))
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from plies.errors import GdlValidationError
from plies.gdl.strata import (
    NotStratifiedError,
    RuleShape,
    describe,
    rule_order,
    strongly_connected,
)
from plies.gdl.terms import Description, Rule, Term, is_ground, iter_variables, to_kif

__all__ = ["Diagnostic", "GdlValidationError", "check", "validate"]

Level = Literal["error", "warning"]

KEYWORD_ARITY: Mapping[str, int] = {
    "role": 1,
    "init": 1,
    "true": 1,
    "next": 1,
    "legal": 2,
    "does": 2,
    "goal": 2,
    "terminal": 0,
    "distinct": 2,
    "not": 1,
    "base": 1,
    "input": 2,
}
"""The number of arguments of each GDL keyword (``or`` takes one or more)."""

_NEVER_DEFINED = ("true", "does", "distinct", "not", "or")
_HEADS_ONLY = frozenset({"init", "next", "base", "input"})
_LITERAL_KEYWORDS = frozenset({"not", "or", "distinct"})
_REQUIRED = ("role", "legal", "goal", "terminal")
# (relation, relations it must not depend on), from the GDL specification and griddle.
_FORBIDDEN_DEPENDENCIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("init", ("true", "does", "legal", "goal", "terminal")),
    ("base", ("true", "does")),
    ("input", ("true", "does")),
    ("legal", ("does",)),
    ("goal", ("does",)),
    ("terminal", ("does",)),
)


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in a description.

    ``check`` names the restriction (``"safety"``, ``"stratification"``, ...; see the
    module docstring); ``sentence`` is the offending rule in KIF, and ``line``/``column``
    its 1-based position, or 0 and ``""`` for a problem of the whole description.
    """

    level: Level
    check: str
    message: str
    line: int
    column: int
    sentence: str

    def __str__(self) -> str:
        where = f"{self.line}:{self.column}: " if self.line else ""
        shown = f": {self.sentence}" if self.sentence else ""
        return f"{where}{self.level} [{self.check}]: {self.message}{shown}"


def check(desc: Description) -> list[Diagnostic]:
    """Validate ``desc``: raise for the first error, return the warnings.

    Raises :class:`~plies.errors.GdlValidationError` whose message names the check that
    failed, the offending sentence in KIF and its line (and how many more errors there
    are); its ``diagnostics`` attribute lists them all.
    """
    diagnostics = validate(desc)
    errors = [d for d in diagnostics if d.level == "error"]
    if errors:
        first = errors[0]
        more = f" (and {len(errors) - 1} more errors)" if len(errors) > 1 else ""
        shown = f": {first.sentence}" if first.sentence else ""
        if len(shown) > 200:  # the message stays one readable line, whatever the rule
            shown = shown[:195] + " ..."
        raise GdlValidationError(
            f"invalid GDL [{first.check}]: {first.message}{shown}{more}",
            source=desc.source,
            line=first.line or None,
            column=first.column or None,
            diagnostics=diagnostics,
        )
    return diagnostics


def validate(desc: Description) -> list[Diagnostic]:
    """Every error and warning in ``desc``, in source order (whole-description first)."""
    found: list[Diagnostic] = []
    rules = desc.rules
    for rule in rules:
        found.extend(_rule_shape(rule))
        found.extend(_safety(rule))
    graph = _DependencyGraph(rules)
    found.extend(_stratification(rules, graph))
    found.extend(_recursion(rules, graph))
    found.extend(_dependencies(rules, graph))
    found.extend(_roles(rules))
    found.extend(_missing(rules))
    found.extend(_arities(rules))
    found.extend(_capitalization(rules))
    # dict.fromkeys: one literal repeated in a rule would otherwise repeat its diagnostic.
    return sorted(dict.fromkeys(found), key=lambda d: (d.line, d.column))


def _diagnostic(level: Level, check: str, message: str, rule: Rule | None) -> Diagnostic:
    if rule is None:
        return Diagnostic(level, check, message, 0, 0, "")
    return Diagnostic(level, check, message, rule.line, rule.column, str(rule))


# --- walking terms and literals -----------------------------------------------------------


def _name(t: Term) -> str | None:
    """The relation/function name of ``t``, or None for a variable or a nameless tuple."""
    name = t if isinstance(t, str) else (t[0] if t else None)
    if isinstance(name, str) and not name.startswith("?"):
        return name
    return None


def _atoms(literal: Term, negative: bool = False) -> Iterator[tuple[Term, bool]]:
    """The relational atoms inside a body literal, each with whether it is under ``not``."""
    name = _name(literal)
    if name == "not":
        for inner in literal[1:]:
            yield from _atoms(inner, True)
    elif name == "or":
        for inner in literal[1:]:
            yield from _atoms(inner, negative)
    elif name != "distinct":
        yield literal, negative


def _body_atoms(rule: Rule) -> Iterator[tuple[Term, bool]]:
    for literal in rule.body:
        yield from _atoms(literal)


def _literals(literal: Term) -> Iterator[Term]:
    """``literal`` and every literal nested in it through ``not`` and ``or``."""
    yield literal
    if _name(literal) in ("not", "or"):
        for inner in literal[1:]:
            yield from _literals(inner)


def _arguments(t: Term) -> tuple[Term, ...]:
    return () if isinstance(t, str) else tuple(t[1:])


def _subterms(t: Term) -> Iterator[Term]:
    """Every argument of ``t`` and, recursively, of its compound arguments."""
    for arg in _arguments(t):
        yield arg
        if isinstance(arg, tuple):
            yield from _subterms(arg)


def _kif(t: Term) -> str:
    return to_kif(t)


# --- per-rule shape: keywords, negation, goal values, parentheses ------------------------


def _rule_shape(rule: Rule) -> Iterator[Diagnostic]:
    head_name = _name(rule.head)
    if head_name in _NEVER_DEFINED:
        yield _diagnostic(
            "error",
            "keyword-placement",
            f"{head_name} is never defined by the game: it may appear only in rule bodies",
            rule,
        )
    if rule.written_as_rule and not rule.body:
        yield _diagnostic(
            "warning",
            "empty-body",
            f"rule with an empty body: it can be written as the fact {_kif(rule.head)} instead",
            rule,
        )
    if head_name == "goal" and isinstance(rule.head, tuple) and len(rule.head) == 3:
        value = rule.head[2]
        if is_ground(value) and not _is_goal_value(value):
            shown = _kif(value)
            shown = shown if len(shown) <= 40 else f"{shown[:20]}... ({len(shown):,} characters)"
            yield _diagnostic(
                "warning",
                "goal-value",
                f"the goal value {shown} is not an integer from 0 to 100: asking for the "
                "goal in a state where this rule holds is an error",
                rule,
            )
    literals = [(rule.head, True)] + [
        (literal, False) for top in rule.body for literal in _literals(top)
    ]
    for literal, is_head in literals:
        yield from _literal_shape(rule, literal, is_head)
    for literal in rule.body:
        if _name(literal) == "or":
            for inner in literal[1:]:
                if any(_name(nested) == "or" for nested in _literals(inner)):
                    yield _diagnostic(
                        "warning",
                        "nested-or",
                        f"(or ...) nested inside {_kif(literal)}: some players cannot read "
                        "nested disjunctions",
                        rule,
                    )
                    break


def _is_goal_value(value: Term) -> bool:
    """An integer from 0 to 100 (its length is checked first: ``int()`` refuses 4,301
    digits and more, and ``"²".isdigit()`` is true)."""
    return (
        isinstance(value, str) and len(value) <= 3 and value.isascii() and value.isdigit()
        and int(value) <= 100
    )


def _literal_shape(rule: Rule, literal: Term, is_head: bool) -> Iterator[Diagnostic]:
    name = _name(literal)
    if name is None:
        yield _diagnostic("error", "keyword-placement", f"{_kif(literal)} is not a sentence", rule)
        return
    count = len(literal) - 1 if isinstance(literal, tuple) else 0
    if name == "or":
        if count == 0:
            yield _diagnostic("error", "keyword-arity", "(or) needs at least one disjunct", rule)
    elif name in KEYWORD_ARITY:
        expected = KEYWORD_ARITY[name]
        if name == "terminal" and isinstance(literal, tuple):
            yield _diagnostic(
                "error",
                "keyword-arity",
                f"{_kif(literal)}: terminal takes no arguments and is written without parentheses",
                rule,
            )
        elif count != expected:
            yield _diagnostic(
                "error",
                "keyword-arity",
                f"{name} takes {_count(expected, 'argument')}, but {_kif(literal)} has {count}",
                rule,
            )
    elif isinstance(literal, tuple) and count == 0:
        yield _parentheses_warning(rule, literal, "sentence")
    if name == "not" and count == 1:
        inner = literal[1]
        inner_name = _name(inner)
        if inner_name in _LITERAL_KEYWORDS:
            yield _diagnostic(
                "error",
                "negation",
                f"only a sentence can be negated, but {_kif(literal)} negates "
                f"a ({inner_name} ...) literal",
                rule,
            )
    if not is_head and name in _HEADS_ONLY:
        yield _diagnostic(
            "error",
            "keyword-placement",
            f"{name} may appear only in rule heads, but {_kif(literal)} is in a body",
            rule,
        )
    if name != "distinct" and name not in ("not", "or"):
        for sub in _subterms(literal):
            yield from _term_shape(rule, sub)
    elif name == "distinct":
        for arg in _arguments(literal):
            yield from _term_shape(rule, arg)
            for sub in _subterms(arg):
                yield from _term_shape(rule, sub)


def _term_shape(rule: Rule, term: Term) -> Iterator[Diagnostic]:
    if isinstance(term, str):
        if term in _LITERAL_KEYWORDS:
            yield _diagnostic(
                "error",
                "keyword-as-term",
                f"the keyword {term} cannot be used as an object constant",
                rule,
            )
        return
    name = _name(term)
    if name in KEYWORD_ARITY or name == "or":
        yield _diagnostic(
            "error",
            "keyword-as-term",
            f"the keyword {name} cannot be used as a function name, as in {_kif(term)}",
            rule,
        )
    elif len(term) == 1:
        yield _parentheses_warning(rule, term, "term")


def _parentheses_warning(rule: Rule, t: Term, kind: str) -> Diagnostic:
    return _diagnostic(
        "warning",
        "parentheses",
        f"the {kind} {_kif(t)} has parentheses but no arguments; ggp-base reads it as "
        f"different from {_name(t)}",
        rule,
    )


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


# --- safety ------------------------------------------------------------------------------


def _bound(literal: Term) -> set[str]:
    """Variables a body literal binds: all of a positive atom's, the intersection of an
    ``or``'s disjuncts, none for ``not`` and ``distinct``."""
    name = _name(literal)
    if name in ("not", "distinct"):
        return set()
    if name == "or":
        disjuncts = [_bound(inner) for inner in literal[1:]]
        return set.intersection(*disjuncts) if disjuncts else set()
    return set(iter_variables(literal))


def _needs_binding(literal: Term) -> Iterator[tuple[str, Term, str]]:
    """(variable, literal, role) for variables a body literal needs bound elsewhere."""
    name = _name(literal)
    if name == "not":
        for var in dict.fromkeys(iter_variables(literal)):
            yield var, literal, "the negated literal"
    elif name == "distinct":
        for var in dict.fromkeys(iter_variables(literal)):
            yield var, literal, "the distinct literal"
    elif name == "or":
        for inner in literal[1:]:
            yield from _needs_binding(inner)


def _safety(rule: Rule) -> Iterator[Diagnostic]:
    bound: set[str] = set()
    for literal in rule.body:
        bound |= _bound(literal)
    needed: list[tuple[str, Term, str]] = [
        (var, rule.head, "the head") for var in dict.fromkeys(iter_variables(rule.head))
    ]
    for literal in rule.body:
        needed.extend(_needs_binding(literal))
    problems: dict[str, tuple[Term, str]] = {}
    for var, where, role in needed:
        if var not in bound and var not in problems:
            problems[var] = (where, role)
    if not problems:
        return
    if not rule.body:
        yield _diagnostic(
            "error",
            "safety",
            f"a fact must be ground, but {_kif(rule.head)} contains the variable"
            f"{'s' if len(problems) > 1 else ''} {', '.join(problems)}",
            rule,
        )
        return
    grouped: dict[tuple[str, str], list[str]] = {}
    for var, (where, role) in problems.items():
        grouped.setdefault((role, _kif(where)), []).append(var)
    parts = [
        f"the variable{'s' if len(names) > 1 else ''} {', '.join(names)} in {role} {where}"
        for (role, where), names in grouped.items()
    ]
    verb = "does" if len(problems) == 1 else "do"
    has_or = any(_name(literal) == "or" for literal in rule.body)
    hint = " (inside (or ...) a variable counts only if every disjunct binds it)" if has_or else ""
    yield _diagnostic(
        "error",
        "safety",
        f"unsafe rule: {'; '.join(parts)} {verb} not occur in a positive relational "
        f"literal of the body{hint}",
        rule,
    )


# --- the dependency graph: stratification, recursion, keyword dependencies ---------------


class _DependencyGraph:
    """Relation names with an edge head -> body relation (negative under ``not``)."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        self.edges: dict[str, set[str]] = {}
        for rule in rules:
            head = _name(rule.head)
            if head is None:
                continue
            targets = self.edges.setdefault(head, set())
            for atom, _negative in _body_atoms(rule):
                body = _name(atom)
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
    """Node -> the number of its strongly connected component (Tarjan's, in ground.py)."""
    return {
        node: number
        for number, members in enumerate(strongly_connected(edges, edges))
        for node in members
    }


def _stratification(rules: Sequence[Rule], graph: _DependencyGraph) -> Iterator[Diagnostic]:
    by_name: list[tuple[Rule, str]] = []
    for rule in rules:
        head = _name(rule.head)
        if head is None:
            continue
        for atom, negative in _body_atoms(rule):
            body = _name(atom)
            if not negative or body is None or not graph.in_cycle(head, body):
                continue
            if body == head:
                how = f"{head} depends on its own negation (not {_kif(atom)})"
            else:
                cycle = " -> ".join([head, *(graph.path(body, {head}) or [])])
                how = (
                    f"{head} depends on (not {_kif(atom)}), and {body} depends on {head} "
                    f"again (cycle {cycle})"
                )
            by_name.append((rule, how))
    if not by_name:
        return
    # A cycle through negation by relation name: look closer, at the rules themselves.
    shapes: list[RuleShape] = []
    owners: list[Rule] = []
    for rule in rules:
        if _name(rule.head) is not None:
            atoms = [(not neg, atom) for atom, neg in _body_atoms(rule) if _name(atom) is not None]
            shapes.append((rule.head, atoms))
            owners.append(rule)
    try:
        rule_order(shapes)
    except NotStratifiedError as error:
        for where in error.cycles:
            yield _diagnostic(
                "error", "stratification", describe(shapes, where), owners[where.rule]
            )
        return
    for rule, how in by_name:
        yield _diagnostic(
            "warning",
            "stratification",
            f"negation in a cycle of relation names: {how}; the GDL specification asks for "
            "stratification by relation name, but no instance of this rule depends on its "
            "own negation, so the game is played (as by ggp-base)",
            rule,
        )


def _recursion(rules: Sequence[Rule], graph: _DependencyGraph) -> Iterator[Diagnostic]:
    for rule in rules:
        head = _name(rule.head)
        if head is None or not rule.body:
            continue
        head_args = set(_arguments(rule.head))
        allowed = _nonrecursive_arguments(rule.body, head, graph)
        problems: list[str] = []
        for atom in _positive_atoms(rule.body):
            name = _name(atom)
            if name is None or not graph.in_cycle(head, name):
                continue
            for arg in _arguments(atom):
                if is_ground(arg) or arg in head_args or arg in allowed:
                    continue
                problems.append(f"{_kif(arg)} in {_kif(atom)}")
        if problems:
            yield _diagnostic(
                "error",
                "recursion",
                f"the recursion restriction is violated by {', '.join(problems)}: an argument "
                f"of a body literal in a cycle with {head} must be ground, an argument of the "
                f"head {_kif(rule.head)}, or an argument of a positive body literal outside "
                "the cycle",
                rule,
            )


def _positive_atoms(body: Sequence[Term]) -> Iterator[Term]:
    """Positive atoms of a body, including those that are disjuncts of an ``or``."""
    for literal in body:
        name = _name(literal)
        if name == "or":
            yield from _positive_atoms(literal[1:])
        elif name not in ("not", "distinct"):
            yield literal


def _nonrecursive_arguments(body: Sequence[Term], head: str, graph: _DependencyGraph) -> set[Term]:
    """Arguments of positive body literals outside ``head``'s cycle; an ``or`` contributes
    the arguments common to all its disjuncts, and only if none is in the cycle."""
    allowed: set[Term] = set()
    for literal in body:
        name = _name(literal)
        if name == "or":
            common: set[Term] | None = None
            for inner in literal[1:]:
                inner_args = _nonrecursive_arguments((inner,), head, graph)
                if _name(inner) in ("not", "distinct"):
                    inner_args = set()
                common = inner_args if common is None else common & inner_args
            allowed |= common or set()
        elif (
            name is not None and name not in ("not", "distinct") and not graph.in_cycle(head, name)
        ):
            allowed.update(_arguments(literal))
    return allowed


def _dependencies(rules: Sequence[Rule], graph: _DependencyGraph) -> Iterator[Diagnostic]:
    for keyword, forbidden in _FORBIDDEN_DEPENDENCIES:
        # Which relations reach a forbidden one, and how, in one backward search (a
        # search per rule would be quadratic in a big game).
        step = graph.toward(set(forbidden))
        for rule in rules:
            if _name(rule.head) != keyword:
                continue
            for body in dict.fromkeys(_name(atom) for atom, _ in _body_atoms(rule)):
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
                yield _diagnostic(
                    "error",
                    "keyword-dependency",
                    f"{keyword} must not depend on {path[-1]}, but it does ({chain})",
                    rule,
                )
                break


def _roles(rules: Sequence[Rule]) -> Iterator[Diagnostic]:
    seen: set[Term] = set()
    for rule in rules:
        if _name(rule.head) != "role" or not isinstance(rule.head, tuple) or len(rule.head) != 2:
            continue
        role = rule.head[1]
        if rule.body:
            yield _diagnostic(
                "error",
                "role",
                "roles cannot be defined by rules: write each role as a fact (role name)",
                rule,
            )
        elif not isinstance(role, str) or role.startswith("?"):
            yield _diagnostic("error", "role", f"a role must be a constant, not {_kif(role)}", rule)
        elif role in seen:
            yield _diagnostic("error", "role", f"the role {role} is declared twice", rule)
        seen.add(role)


def _missing(rules: Sequence[Rule]) -> Iterator[Diagnostic]:
    defined = {_name(rule.head) for rule in rules}
    for keyword in _REQUIRED:
        if keyword not in defined:
            yield _diagnostic(
                "error",
                "missing-keyword",
                f"the description never defines {keyword}: a game needs role, legal, goal "
                "and terminal",
                None,
            )


def _arities(rules: Sequence[Rule]) -> Iterator[Diagnostic]:
    """Warn once per name used with a second arity (relations and functions alike)."""
    first: dict[str, tuple[int, Term]] = {}
    reported: set[str] = set()
    for rule in rules:
        uses: list[Term] = [rule.head]
        for top in rule.body:
            for literal in _literals(top):
                if _name(literal) not in ("not", "or"):
                    uses.append(literal)
        terms = list(uses)
        for use in uses:
            terms.extend(sub for sub in _subterms(use) if isinstance(sub, tuple))
        for term in terms:
            name = _name(term)
            if name is None or name in KEYWORD_ARITY or name in ("or", "<="):
                continue
            count = len(term) - 1 if isinstance(term, tuple) else 0
            if name not in first:
                first[name] = (count, term)
            elif first[name][0] != count and name not in reported:
                reported.add(name)
                yield _diagnostic(
                    "warning",
                    "arity",
                    f"{name} is used with {_count(count, 'argument')} in {_kif(term)} but "
                    f"with {_count(first[name][0], 'argument')} in {_kif(first[name][1])}",
                    rule,
                )


def _capitalization(rules: Sequence[Rule]) -> Iterator[Diagnostic]:
    """Warn once per name written in a second case, and per rule for variables."""
    first: dict[str, str] = {}
    reported: set[str] = set()
    for rule in rules:
        variables: dict[str, str] = {}
        reported_here: set[str] = set()
        for symbol in _symbols((rule.head, *rule.body)):
            lower = symbol.lower()
            if lower in KEYWORD_ARITY or lower == "or":
                continue
            is_variable = symbol[:1] == "?"
            seen = variables if is_variable else first
            spelled = seen.setdefault(lower, symbol)
            done = reported_here if is_variable else reported
            if spelled == symbol or symbol in done:
                continue
            done.add(symbol)
            kind, where = ("variable", " in this rule") if is_variable else ("name", "")
            yield _diagnostic(
                "warning",
                "capitalization",
                f"the {kind} {symbol} is also written {spelled}{where}: plies reads them as two "
                f"different {kind}s, as ggp-base's prover does, but players that ignore "
                "case read one",
                rule,
            )


def _symbols(terms: Sequence[Term]) -> Iterator[str]:
    for t in terms:
        if isinstance(t, str):
            yield t
        else:
            yield from _symbols(t)
