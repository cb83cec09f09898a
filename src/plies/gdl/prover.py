"""A slow, obviously correct GDL reasoner: the reference the fast one is tested against.

:class:`Prover` follows GDL's semantics to the letter and shares no code with
:class:`~plies.gdl.reasoner.Reasoner` beyond the term representation.  For every
question it builds the model of the rules from the facts ``true(f)`` for the fluents
of the state and ``does(r, m)`` for the joint move, bottom-up, stratum by stratum
(negation as failure over lower strata), with naive fixpoint iteration and nested-loop
joins.  Strata are made of rules, not relation names (a rule above every rule whose head
unifies with one of its negated literals), so a relation that is stratified only once
ground, as ``goal`` in futoshiki, is evaluated in the right order.  Static relations
are computed once.  States are ``frozenset`` s of ground fluents.

It is a few hundred times slower than the compiled reasoner; use it to check a reasoner,
or to debug a description (there is nothing compiled to read).

>>> from plies.gdl.parser import parse
>>> p = Prover(parse('''(role a) (init on) (legal a flip)
...     (<= (next on) (not (true on))) (<= terminal (true on)) (goal a 50)'''))
>>> s = p.next_state(p.initial_state(), ["flip"])
>>> sorted(s), p.is_terminal(s), p.legal(s, 0)
([], False, ('flip',))
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from itertools import product
from typing import Any

from plies.errors import GameFormatError
from plies.gdl.ground import natural_key
from plies.gdl.reasoner import is_goal_value, single_goal
from plies.gdl.terms import Description, Rule, Term, to_kif

Binding = dict[str, Term]

MAX_BODY = 256
"""The most literals a rule body may have (as for the grounder)."""


def _key(atom: Term) -> Hashable:
    return atom if isinstance(atom, str) else (atom[0], len(atom) - 1)


def _subst(t: Term, b: Binding) -> Term:
    if isinstance(t, str):
        return b.get(t, t)
    return tuple(_subst(x, b) for x in t)


def _unify(pattern: Term, ground: Term, b: Binding) -> Binding | None:
    """``b`` extended so that ``pattern`` becomes ``ground``, or None."""
    if isinstance(pattern, str):
        if pattern.startswith("?"):
            if pattern in b:
                return b if b[pattern] == ground else None
            return {**b, pattern: ground}
        return b if pattern == ground else None
    if not isinstance(ground, tuple) or len(ground) != len(pattern):
        return None
    out: Binding = b
    for p, g in zip(pattern, ground, strict=True):
        found = _unify(p, g, out)
        if found is None:
            return None
        out = found
    return out


def _unifiable(a: Term, b: Term) -> bool:
    """Whether atoms ``a`` and ``b`` have a common instance, ``b``'s variables renamed
    apart from ``a``'s (with the occurs check)."""
    return _unify_both(a, _rename(b), {})


def _rename(t: Term) -> Term:
    if isinstance(t, str):
        return t + "\0" if t.startswith("?") else t
    return tuple(_rename(x) for x in t)


def _resolve(t: Term, b: Binding) -> Term:
    while isinstance(t, str) and t in b:
        t = b[t]
    return t


def _unify_both(x: Term, y: Term, b: Binding) -> bool:
    """Unify two terms that both may hold variables, extending ``b`` in place."""
    x, y = _resolve(x, b), _resolve(y, b)
    if x == y:
        return True
    for var, other in ((x, y), (y, x)):
        if isinstance(var, str) and var.startswith("?"):
            if _occurs(var, other, b):
                return False
            b[var] = other
            return True
    if isinstance(x, str) or isinstance(y, str) or len(x) != len(y):
        return False
    return all(_unify_both(p, q, b) for p, q in zip(x, y, strict=True))


def _occurs(var: str, t: Term, b: Binding) -> bool:
    t = _resolve(t, b)
    if isinstance(t, str):
        return t == var
    return any(_occurs(var, x, b) for x in t)


def _expand_or(body: tuple[Term, ...]) -> list[tuple[Term, ...]]:
    """One body per choice of a disjunct from each ``(or ...)``."""
    options: list[list[Term]] = []
    for lit in body:
        if isinstance(lit, tuple) and lit[0] == "or":
            flat: list[Term] = []
            for part in lit[1:]:
                flat.extend(part[1:] if isinstance(part, tuple) and part[0] == "or" else [part])
            options.append(flat)
        else:
            options.append([lit])
    return [tuple(choice) for choice in product(*options)]


class Prover:
    """GDL semantics by bottom-up evaluation per question (see the module docstring).

    A :class:`~plies.gdl.machine.StateMachine` of kind ``"prover"`` whose states are
    ``frozenset`` s of ground fluents.
    """

    kind = "prover"
    """What :class:`~plies.gdl.machine.StateMachine` logs call this implementation."""

    def __init__(self, desc: Description) -> None:
        self.description = desc
        self.roles: tuple[str, ...] = desc.roles
        self.rules: list[Rule] = [
            Rule(rule.head, body) for rule in desc.rules for body in _expand_or(rule.body)
        ]
        for rule in self.rules:  # the join recurses once per literal
            if len(rule.body) > MAX_BODY:
                raise GameFormatError(
                    f"a rule body of {len(rule.body):,} literals; at most {MAX_BODY} are "
                    "accepted"
                )
        self.strata = self._stratify()
        deps: dict[Hashable, set[Hashable]] = {}
        for rule in self.rules:
            deps.setdefault(_key(rule.head), set()).update(
                _key(lit[1] if _is_not(lit) else lit) for lit in rule.body if not _is_distinct(lit)
            )
        dynamic: set[Hashable] = {("true", 1), ("does", 2)}
        changed = True
        while changed:
            changed = False
            for head, body in deps.items():
                if head not in dynamic and body & dynamic:
                    dynamic.add(head)
                    changed = True
        model = self._model([])
        self._static = {a for a in model if _key(a) not in dynamic}
        self._dynamic_rules = [i for i, r in enumerate(self.rules) if _key(r.head) in dynamic]

    def _stratify(self) -> list[int]:
        """The stratum of every rule: a rule sits at or above every rule whose head unifies
        with one of its positive literals, strictly above those whose head unifies with a
        negated one.  Relations are not layered by name: ``(<= (goal p 100) (not (goal p
        0)))`` is fine when no rule for ``(goal p 0)`` depends on ``(goal p 100)``."""
        by_key: dict[Hashable, list[int]] = {}
        for j, rule in enumerate(self.rules):
            by_key.setdefault(_key(rule.head), []).append(j)
        below: list[list[tuple[int, int]]] = []  # per rule: (rule j, 0 or 1 if negated)
        for rule in self.rules:
            edges = []
            for lit in rule.body:
                if _is_distinct(lit):
                    continue
                negated = _is_not(lit)
                atom = lit[1] if negated else lit
                for j in by_key.get(_key(atom), ()):
                    if _unifiable(atom, self.rules[j].head):
                        edges.append((j, int(negated)))
            below.append(edges)
        stratum = [0] * len(self.rules)
        limit = len(self.rules)  # a stratum beyond this means a cycle through negation
        changed = True
        while changed:
            changed = False
            for i, edges in enumerate(below):
                level = max([stratum[j] + step for j, step in edges], default=0)
                if level > stratum[i]:
                    if level > limit:
                        raise GameFormatError(
                            f"the rules are not stratified: {self.rules[i]} depends on its "
                            "own negation"
                        )
                    stratum[i] = level
                    changed = True
        return stratum

    def _model(self, facts: Sequence[Term], rules: list[int] | None = None) -> set[Term]:
        """The stratified model of the rules numbered ``rules`` (default: all) over the
        given facts."""
        model: dict[Hashable, set[Term]] = {}
        for fact in facts:
            model.setdefault(_key(fact), set()).add(fact)
        numbers = range(len(self.rules)) if rules is None else rules
        for level in sorted({self.strata[i] for i in numbers}):
            layer = [self.rules[i] for i in numbers if self.strata[i] == level]
            changed = True
            while changed:
                changed = False
                for rule in layer:
                    for b in list(self._solve(rule.body, model)):
                        atom = _subst(rule.head, b)
                        bucket = model.setdefault(_key(atom), set())
                        if atom not in bucket:
                            bucket.add(atom)
                            changed = True
        return {a for bucket in model.values() for a in bucket}

    def _solve(self, body: tuple[Term, ...], model: dict[Hashable, set[Term]]) -> Iterator[Binding]:
        positives = [lit for lit in body if not _is_not(lit) and not _is_distinct(lit)]
        filters = [lit for lit in body if _is_not(lit) or _is_distinct(lit)]

        def walk(i: int, b: Binding) -> Iterator[Binding]:
            if i == len(positives):
                if all(_holds(f, b, model) for f in filters):
                    yield b
                return
            pattern = _subst(positives[i], b)
            facts = model.get(_key(pattern), set())
            if _is_ground(pattern):  # a membership test, no scan
                if pattern in facts:
                    yield from walk(i + 1, b)
                return
            for fact in list(facts):
                found = _unify(pattern, fact, b)
                if found is not None:
                    yield from walk(i + 1, found)

        yield from walk(0, {})

    def _query(self, state: frozenset[Term], joint: Sequence[Term] = ()) -> set[Term]:
        facts: list[Term] = [("true", f) for f in state]
        facts += [("does", r, m) for r, m in zip(self.roles, joint, strict=False)]
        return self._model([*self._static, *facts], self._dynamic_rules)

    # the GDL questions

    def initial_state(self) -> frozenset[Term]:
        """The ``init`` fluents."""
        return frozenset(a[1] for a in self._static if isinstance(a, tuple) and a[0] == "init")

    def is_terminal(self, state: frozenset[Term]) -> bool:
        """Whether ``terminal`` holds."""
        return "terminal" in self._query(state)

    def legal(self, state: frozenset[Term], role: int) -> tuple[Term, ...]:
        """Legal moves of role number ``role`` (sorted by their KIF text)."""
        name = self.roles[role]
        model = self._query(state)
        found = {
            a[2]
            for a in model
            if isinstance(a, tuple) and a[0] == "legal" and len(a) == 3 and a[1] == name
        }
        return tuple(sorted(found, key=str))

    def next_state(self, state: frozenset[Term], joint: Sequence[Term]) -> frozenset[Term]:
        """The fluents ``next`` makes true after the joint move."""
        model = self._query(state, joint)
        return frozenset(
            a[1] for a in model if isinstance(a, tuple) and a[0] == "next" and len(a) == 2
        )

    def goal_values(self, state: frozenset[Term], role: int) -> list[int]:
        """Every goal value of ``role`` that holds (integers from 0 to 100 only: a rule with
        another value does not give a goal value; :meth:`goal` reports it)."""
        return sorted(int(str(v)) for v in self._goal_terms(state, role) if is_goal_value(v))

    def goal(self, state: frozenset[Term], role: int) -> int:
        """The goal value of ``role`` in ``state``.

        Raises:
            GoalDefinitionError: the role has no goal value or several, or one that is not
                an integer from 0 to 100 (an error only where such a goal holds, as in
                ggp-base's prover).
        """
        terms = self._goal_terms(state, role)
        return single_goal(self.roles[role], terms, lambda: self.format_state(state))

    def _goal_terms(self, state: frozenset[Term], role: int) -> list[Term]:
        name = self.roles[role]
        return [
            a[2]
            for a in self._query(state)
            if isinstance(a, tuple) and a[0] == "goal" and len(a) == 3 and a[1] == name
        ]

    # the rest of the StateMachine protocol

    def legal_all(self, state: frozenset[Term]) -> tuple[tuple[Term, ...], ...]:
        """The legal moves of every role, in role order (one model for all roles)."""
        model = self._query(state)
        found: dict[Term, set[Term]] = {name: set() for name in self.roles}
        for a in model:
            if isinstance(a, tuple) and a[0] == "legal" and len(a) == 3 and a[1] in found:
                found[a[1]].add(a[2])
        return tuple(tuple(sorted(found[name], key=str)) for name in self.roles)

    def goals(self, state: frozenset[Term]) -> tuple[int, ...]:
        """The goal value of every role (see :meth:`goal`)."""
        return tuple(self.goal(state, r) for r in range(len(self.roles)))

    def fluents(self, state: frozenset[Term]) -> frozenset[Term]:
        """The ground fluents of ``state`` (a state *is* its fluents)."""
        return state

    def state_from_fluents(self, fluents: Iterable[Term]) -> frozenset[Term]:
        """The state in which exactly ``fluents`` hold."""
        return frozenset(fluents)

    def format_state(self, state: frozenset[Term]) -> str:
        """``state`` as KIF fluents in a stable order: ``{(cell 1 1 b) (control x)}``."""
        return "{" + " ".join(to_kif(f) for f in sorted(state, key=natural_key)) + "}"


def _is_ground(t: Term) -> bool:
    if isinstance(t, str):
        return not t.startswith("?")
    return all(_is_ground(x) for x in t)


def _is_not(lit: Any) -> bool:
    return isinstance(lit, tuple) and lit[0] == "not"


def _is_distinct(lit: Any) -> bool:
    return isinstance(lit, tuple) and lit[0] == "distinct"


def _holds(lit: Term, b: Binding, model: dict[Hashable, set[Term]]) -> bool:
    if _is_distinct(lit):
        return _subst(lit[1], b) != _subst(lit[2], b)
    inner = lit[1]
    if _is_distinct(inner):  # (not (distinct a b)): equality
        return _subst(inner[1], b) == _subst(inner[2], b)
    atom = _subst(inner, b)
    return atom not in model.get(_key(atom), ())
