"""Grounding: from GDL rules with variables to ground rule instances.

The reasoner works on a propositional network, so the first job is to instantiate every
rule with every binding of its variables that can ever matter.  The method is the usual
one for Datalog with negation (as in ggp-base's propnet factory and in Kissmann and
Edelkamp's instantiator):

1. **Static relations** (those that depend on neither ``true`` nor ``does``) are computed
   *exactly*, bottom-up, one stratum of the predicate dependency graph at a time, with
   semi-naive evaluation inside recursive strata.  Negation over them is then decided at
   grounding time, so it never reaches the network.
2. **Dynamic relations** are over-approximated by a *relaxed* fixpoint: negative literals
   over dynamic relations are assumed satisfiable, ``true(f)`` ranges over every fluent
   that ``init`` or ``next`` can produce, and ``does(r, m)`` over every move that ``legal``
   can produce.  That fixpoint is finite whenever the description obeys GDL's recursion
   restriction.
3. While the relaxed fixpoint is computed, every binding of a dynamic rule is recorded as
   a :class:`GroundRule` whose body keeps only the dynamic literals (static ones are
   already decided).

``(or ...)`` in a body is expanded into one rule per disjunct before anything else, and
``(not (distinct a b))`` is read as the equality ``a = b``.

The pieces live in modules of their own: :mod:`plies.gdl.matching` (substitution and
compiled matchers), :mod:`plies.gdl.normal` (rules in a normal form, the predicate
dependency graph) and :mod:`plies.gdl.bottomup` (the fact base and the semi-naive
joins).  This module puts them together (:func:`ground`), and still offers their names.

>>> from plies.gdl.parser import parse
>>> g = ground(parse('''
...     (role p) (succ 0 1) (succ 1 2) (init (count 0))
...     (<= (next (count ?y)) (true (count ?x)) (succ ?x ?y))
...     (<= (legal p tick) (not (true (count 2))))
...     (<= terminal (true (count 2))) (goal p 100)'''))
>>> sorted(g.fluents)
[('count', '0'), ('count', '1'), ('count', '2')]
>>> g.moves
((('does', 'p', 'tick'),),)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from plies.budget import Budget, Meter
from plies.gdl.bottomup import Evaluator, FactBase
from plies.gdl.matching import (
    Binding,
    Builder,
    Matcher,
    builder,
    match,
    matcher,
    subst,
    term_depth,
)
from plies.gdl.normal import (
    MAX_BODY,
    GroundingError,
    Literal,
    NormalRule,
    dependencies,
    normalise,
    reaching,
    term_vars,
    where,
)
from plies.gdl.strata import NotStratifiedError, rule_order, strongly_connected
from plies.gdl.terms import (
    DOES,
    GOAL,
    INIT,
    LEGAL,
    NEXT,
    ROLE,
    TERMINAL,
    TRUE,
    Description,
    Pred,
    Rule,
    Term,
    pred_name,
    pred_of,
)

__all__ = [  # with the names of the pieces (see the module docstring)
    "DEFAULT_BUDGET",
    "DOES",
    "GOAL",
    "INIT",
    "LEGAL",
    "MAX_ATOMS",
    "MAX_BODY",
    "MAX_DEPTH",
    "MAX_LITERALS",
    "NEXT",
    "ROLE",
    "TERMINAL",
    "TRUE",
    "Binding",
    "Builder",
    "FactBase",
    "GroundRule",
    "Grounding",
    "GroundingError",
    "Literal",
    "Matcher",
    "NormalRule",
    "Pred",
    "builder",
    "deepest",
    "ground",
    "match",
    "matcher",
    "natural_key",
    "normalise",
    "pred_name",
    "pred_of",
    "reaching",
    "strongly_connected",
    "subst",
]

MAX_ATOMS: Final = 2_000_000
"""Grounding gives up (with :class:`GroundingError`) beyond this many atoms or instances."""

MAX_LITERALS: Final = 8_000_000
"""... or beyond this many literals in all ground rule instances together (memory: quarto,
the largest game in the shared data, has 1.4 million)."""

MAX_DEPTH: Final = 32
"""... or when a derived atom nests function terms this much deeper than the deepest term
written in the description (a rule that builds ever deeper terms: a head written 40
deep is fine, a term built more than 32 levels deeper than anything written is not)."""

DEFAULT_BUDGET: Final = Budget(steps=250_000_000)
"""The budget of building a GDL reasoner when none is given: steps, not seconds, so that
the same game gets the same reasoner however busy the computer is.

A step is one step of a join while grounding (one candidate fact tried), one literal
of a ground rule instance, one disjunct looked at while simplifying the network, one
formula node or line of generated code (and, for the top-down prover, one call pattern
or line of code).  The largest game in the shared data that loads (quarto) takes 25
million steps and about 13 s on a busy two-core machine, checkers 8 million and 6 s,
every other one under a million: the default is ten times quarto's work.  Pass a
smaller :class:`~plies.budget.Budget` for a server (with a ``stop`` signal, and steps
from :func:`plies.gdl.machine.build_steps`), or :data:`plies.budget.UNLIMITED`.
"""


class GroundRule(NamedTuple):
    """A ground rule instance: ``head`` holds if every literal of ``body`` holds.

    ``body`` holds ``(positive, atom)`` pairs over dynamic relations only (``true``,
    ``does`` and relations derived from them); an empty body is a fact.
    """

    head: Term
    body: tuple[tuple[bool, Term], ...]


def deepest(desc: Description) -> int:
    """The nesting depth of the deepest atom or literal written in ``desc``."""
    parts = (part for rule in desc.rules for part in (rule.head, *rule.body))
    return max(map(term_depth, parts), default=0)


# --- the whole grounding ------------------------------------------------------------------


@dataclass
class Grounding:
    """The result of :func:`ground`.

    ``roles`` in ``(role ...)`` order; ``init`` the initial fluents; ``fluents`` every
    fluent that may ever hold (a superset of the reachable ones); ``moves[r]`` the
    ``does`` atoms role ``r`` may ever make (in :func:`natural_key` order); ``static``
    the exact model of the static relations; ``rules`` the ground instances of the
    dynamic rules; ``dynamic`` the set of dynamic relations.
    """

    roles: tuple[str, ...]
    init: frozenset[Term]
    fluents: frozenset[Term]
    moves: tuple[tuple[Term, ...], ...]
    static: dict[Pred, set[Term]]
    rules: list[GroundRule]
    dynamic: set[Pred]


def natural_key(t: Term) -> tuple[Any, ...]:
    """A sort key that orders numbers numerically: ``(cell 2 10)`` after ``(cell 2 9)``.

    Numbers are compared by their digits (shorter first once leading zeros are dropped),
    never converted: a constant of 5,000 digits is as good a name as any.
    """
    if isinstance(t, str):
        if t.isdigit() and t.isascii():
            digits = t.lstrip("0")
            return (0, len(digits), digits, t)
        return (1, 0, t, "")
    return (2, 0, tuple(natural_key(x) for x in t), "")


def ground(
    desc: Description, budget: Budget | Meter = DEFAULT_BUDGET, *, max_atoms: int = MAX_ATOMS
) -> Grounding:
    """Ground ``desc`` (see the module docstring for the method) within ``budget``.

    A step of the budget is one step of a join (a partial binding extended, or a
    candidate fact tried) or one literal of a ground rule instance.  A
    :class:`~plies.budget.Meter` instead of a budget continues its count (the reasoner
    counts grounding and compiling against one budget).

    Raises:
        GroundingError: an unsafe or unstratified rule, a role or ``init`` that depends on
            the state, a rule body longer than :data:`MAX_BODY`, a grounding larger than
            ``max_atoms`` (:data:`MAX_ATOMS`) atoms or rule instances, or terms that grow
            without end (:data:`MAX_DEPTH`).
        plies.budget.BudgetExceeded: the budget ran out (:class:`plies.budget.Stopped`
            when its stop signal was set).
    """
    meter = budget if isinstance(budget, Meter) else budget.meter("grounding the rules")
    max_depth = deepest(desc) + MAX_DEPTH
    rules = normalise(desc.rules, meter)
    edges = dependencies(rules)
    dynamic = reaching(edges, {TRUE, DOES})
    for pred in (ROLE, INIT):
        if pred in dynamic:
            culprit = next(r for r in rules if pred_of(r.head) == pred)
            raise GroundingError(
                f"{pred_name(pred)} must not depend on true or does, in {where(culprit.source)}"
            )
    for rule in rules:
        if pred_of(rule.head) in (TRUE, DOES):
            raise GroundingError(f"true and does cannot be defined, in {where(rule.source)}")
    groups = _stratified_order(rules)

    db = FactBase(max_atoms)
    preds = list(dict.fromkeys([pred_of(r.head) for r in rules]))
    static_preds = [p for p in preds if p not in dynamic]
    static_groups = [[r for r in group if pred_of(r.head) not in dynamic] for group in groups]
    exact = Evaluator(db, dynamic, relaxed=False, record=None, meter=meter, max_depth=max_depth)
    exact.run_groups([group for group in static_groups if group])
    static = {p: set(db.get(p)) for p in static_preds}

    roles = desc.roles
    role_facts = {a[1] for a in db.get(ROLE) if isinstance(a, tuple)}
    if set(roles) != role_facts:
        raise GroundingError("roles must be given as facts (role r), not derived by rules")

    instances: dict[GroundRule, None] = {}
    dyn_body: dict[int, list[Literal]] = {}

    def record(rule: NormalRule, b: Binding) -> None:
        lits = dyn_body.get(id(rule))
        if lits is None:
            lits = dyn_body[id(rule)] = [
                lit for lit in rule.body if lit.kind in ("pos", "neg") and lit.pred in dynamic
            ]
        meter.tick(len(lits))  # an instance costs far more than a join step
        # Equal literals are shared: millions of instances repeat a few thousand of them.
        body = tuple([share(lit.kind == "pos", lit.build[0](b)) for lit in lits])
        instance = GroundRule(rule.build_head(b), body)
        if instance not in instances:
            instances[instance] = None
            size[0] += len(body) + 1
            if len(instances) > max_atoms or size[0] > MAX_LITERALS:
                what = (
                    f"{max_atoms:,} rule instances" if len(instances) > max_atoms
                    else f"{MAX_LITERALS:,} literals in its rule instances"
                )
                raise GroundingError(
                    f"grounding produced more than {what}: the description is too large "
                    "to ground"
                )

    shared: dict[tuple[bool, Term], tuple[bool, Term]] = {}
    size = [0]

    def share(positive: bool, atom: Term) -> tuple[bool, Term]:
        pair = (positive, atom)
        return shared.setdefault(pair, pair)

    bridge = [
        _bridge(("true", "?f"), ("init", "?f")),
        _bridge(("true", "?f"), ("next", "?f")),
        _bridge(("does", "?r", "?m"), ("legal", "?r", "?m")),
    ]
    dyn_rules = [r for r in rules if pred_of(r.head) in dynamic]
    relaxed_edges = dependencies(dyn_rules + bridge)
    dyn_preds = list(dict.fromkeys([TRUE, DOES, *[pred_of(r.head) for r in dyn_rules]]))
    evaluator = Evaluator(db, dynamic, relaxed=True, record=None, meter=meter, max_depth=max_depth)
    by_id = {id(r) for r in dyn_rules}

    def record_dynamic(rule: NormalRule, b: Binding) -> None:
        if id(rule) in by_id:
            record(rule, b)

    evaluator.record = record_dynamic
    evaluator.run(dyn_rules + bridge, strongly_connected(dyn_preds, relaxed_edges))

    role_index = {r: i for i, r in enumerate(roles)}
    moves: list[list[Term]] = [[] for _ in roles]
    for atom in db.get(DOES):
        assert isinstance(atom, tuple)
        if atom[1] in role_index:
            moves[role_index[atom[1]]].append(atom)
    return Grounding(
        roles=roles,
        init=frozenset(a[1] for a in db.get(INIT) if isinstance(a, tuple)),
        fluents=frozenset(a[1] for a in db.get(TRUE) if isinstance(a, tuple)),
        moves=tuple(tuple(sorted(m, key=natural_key)) for m in moves),
        static=static,
        rules=list(instances),
        dynamic=dynamic,
    )


def _stratified_order(rules: list[NormalRule]) -> list[list[NormalRule]]:
    """The rules in groups to evaluate one after the other (:func:`plies.gdl.strata.rule_order`).

    Raises:
        GroundingError: a rule depends on its own negation (checked rule by rule, not
            only by relation name: see :mod:`plies.gdl.strata`).
    """
    shapes = [
        (r.head, [(lit.kind == "pos", lit.args[0]) for lit in r.body if lit.kind in ("pos", "neg")])
        for r in rules
    ]
    try:
        order = rule_order(shapes)
    except NotStratifiedError as error:
        culprit = rules[error.cycles[0].rule].source
        raise GroundingError(f"{error}, in {where(culprit)}") from None
    return [[rules[i] for i in group] for group in order.groups]


def _bridge(head: Term, body: Term) -> NormalRule:
    rule = Rule(head, (body,))
    lit = Literal.make("pos", (body,), pred_of(body))
    return NormalRule(head, (lit,), rule, frozenset(term_vars(head, set())))
