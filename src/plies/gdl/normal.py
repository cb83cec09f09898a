"""GDL rules in a normal form, and the graph of which relation depends on which.

:func:`normalise` turns a parsed rule into :class:`NormalRule` s: ``(or ...)`` in a body
expanded into one rule per choice of disjuncts, each body literal a :class:`Literal`
that knows its relation, its variables and compiled builders of its arguments, and
``(not (distinct a b))`` read as the equality ``a = b``.  Unsafe rules are refused
here, with :class:`GroundingError`.  :func:`dependencies` and :func:`reaching` give the
predicate dependency graph over normal rules, from which grounding and the top-down
compiler tell static relations from those that depend on ``true`` or ``does``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import product
from typing import Final

from plies.budget import Meter
from plies.errors import GameFormatError
from plies.gdl.matching import Builder, builder
from plies.gdl.terms import Pred, Rule, Term, pred_of

MAX_BODY: Final = 256
"""The most literals a rule body may have (after expanding ``or``); no game comes close,
and a join that deep would exhaust Python's stack."""


class GroundingError(GameFormatError):
    """A description that cannot be grounded: unsafe, unstratified, or infinite."""


def term_vars(t: Term, out: set[str]) -> set[str]:
    """``out`` with the variables of ``t`` added."""
    if isinstance(t, str):
        if t[:1] == "?":
            out.add(t)
    else:
        for x in t:
            term_vars(x, out)
    return out


def where(rule: Rule) -> str:
    """The rule for a message: its line and its text (cut short: one line, whatever the rule)."""
    return _short(f"line {rule.line}: {rule}" if rule.line else str(rule))


def _short(text: str, limit: int = 200) -> str:
    """``text`` cut to about ``limit`` characters: an error message stays one short line."""
    return text if len(text) <= limit else text[: limit - 5] + " ..."


@dataclass(frozen=True, slots=True)
class Literal:
    """One body literal of a normalised rule.

    ``kind`` is ``"pos"`` or ``"neg"`` (a relational atom, maybe negated), ``"distinct"``
    or ``"same"`` (``(not (distinct a b))``); ``args`` is ``(atom,)`` or ``(a, b)``.
    """

    kind: str
    args: tuple[Term, ...]
    pred: Pred
    vars: frozenset[str]
    build: tuple[Builder, ...] = field(default=(), compare=False)

    @staticmethod
    def make(kind: str, args: tuple[Term, ...], pred: Pred) -> Literal:
        found: set[str] = set()
        for a in args:
            term_vars(a, found)
        return Literal(kind, args, pred, frozenset(found), tuple(builder(a) for a in args))


@dataclass(frozen=True, slots=True)
class NormalRule:
    """A rule without ``or``: head, literals, and the source rule for messages."""

    head: Term
    body: tuple[Literal, ...]
    source: Rule
    head_vars: frozenset[str] = field(default=frozenset())

    @property
    def build_head(self) -> Builder:
        return builder(self.head)


def alternatives(lit: Term, rule: Rule) -> list[list[Literal]]:
    """The alternatives (each a conjunction) that the body literal ``lit`` stands for."""
    if isinstance(lit, tuple) and lit and lit[0] == "or":
        out: list[list[Literal]] = []
        for part in lit[1:]:
            out.extend(alternatives(part, rule))
        return out
    if isinstance(lit, tuple) and lit and lit[0] == "distinct":
        if len(lit) != 3:
            raise GroundingError(f"distinct takes two arguments in {where(rule)}")
        return [[Literal.make("distinct", lit[1:], "distinct")]]
    if isinstance(lit, tuple) and lit and lit[0] == "not":
        if len(lit) != 2:
            raise GroundingError(f"not takes one literal in {where(rule)}")
        inner = lit[1]
        if isinstance(inner, tuple) and inner and inner[0] == "distinct" and len(inner) == 3:
            return [[Literal.make("same", inner[1:], "same")]]
        if isinstance(inner, tuple) and inner and inner[0] in ("not", "or", "distinct"):
            raise GroundingError(f"only an atom can be negated, in {where(rule)}")
        return [[Literal.make("neg", (inner,), pred_of(inner))]]
    return [[Literal.make("pos", (lit,), pred_of(lit))]]


def normalise(rules: Iterable[Rule], meter: Meter | None = None) -> list[NormalRule]:
    """The rules with every ``(or ...)`` expanded (one rule per choice of disjuncts).

    Each rule made is counted on ``meter`` (its number of literals, in steps).

    Raises:
        GroundingError: a rule is unsafe (a variable of its head, of a negated literal
            or of a ``distinct`` occurs in no positive literal of the body), or has more
            than :data:`MAX_BODY` literals.
        plies.budget.BudgetExceeded: the meter's budget ran out (``or`` s multiply).
    """
    out: list[NormalRule] = []
    for rule in rules:
        choices = [alternatives(lit, rule) for lit in rule.body]
        for combo in product(*choices):
            body = tuple(lit for part in combo for lit in part)
            if meter is not None:
                meter.tick(1 + len(body))
            if len(body) > MAX_BODY:
                raise GroundingError(
                    f"a rule body of {len(body):,} literals; at most {MAX_BODY} are accepted, "
                    f"in {where(rule)}"
                )
            bound: set[str] = set()
            for lit in body:
                if lit.kind == "pos":
                    bound |= lit.vars
            head_vars = frozenset(term_vars(rule.head, set()))
            loose = set(head_vars)
            for lit in body:
                if lit.kind != "pos":
                    loose |= lit.vars
            unsafe = sorted(loose - bound)
            if unsafe:
                raise GroundingError(
                    f"unsafe rule: {', '.join(unsafe)} must occur in a positive literal "
                    f"of the body, in {where(rule)}"
                )
            out.append(NormalRule(rule.head, body, rule, head_vars))
    return out


# --- predicate dependency graph -----------------------------------------------------------


def dependencies(rules: Iterable[NormalRule]) -> dict[Pred, set[Pred]]:
    """Each relation defined by ``rules`` -> the relations its bodies use."""
    edges: dict[Pred, set[Pred]] = {}
    for rule in rules:
        targets = edges.setdefault(pred_of(rule.head), set())
        for lit in rule.body:
            if lit.kind in ("pos", "neg"):
                targets.add(lit.pred)
    return edges


def reaching(edges: dict[Pred, set[Pred]], targets: set[Pred]) -> set[Pred]:
    """The predicates from which some predicate in ``targets`` can be reached."""
    reverse: dict[Pred, set[Pred]] = {}
    for head, bodies in edges.items():
        for body in bodies:
            reverse.setdefault(body, set()).add(head)
    seen = set(targets)
    todo = list(targets)
    while todo:
        for up in reverse.get(todo.pop(), ()):
            if up not in seen:
                seen.add(up)
                todo.append(up)
    return seen
