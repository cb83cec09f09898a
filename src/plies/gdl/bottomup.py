"""Semi-naive bottom-up evaluation: the joins that grounding runs.

A :class:`FactBase` holds ground atoms by relation, with hash indexes built on demand on
the argument positions a join binds.  An :class:`Evaluator` runs a set of normal rules
(:mod:`plies.gdl.normal`) to their fixpoint, stratum by stratum, with semi-naive
evaluation inside recursive strata: after the first pass, a rule is fired again only
with one literal over the atoms the last pass added (the *delta*).  Each firing is a join
planned by :func:`plan` (cheapest literal first, filters as soon as their variables are
bound) and run as a recursive walk over compiled matchers (:mod:`plies.gdl.matching`).

In *relaxed* mode (the over-approximation of dynamic relations, see
:mod:`plies.gdl.ground`), negations over dynamic relations are assumed to hold and each
binding can be recorded for the network.  Every join step is counted on a budget meter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from plies.budget import LOOK_EVERY, Meter
from plies.gdl.matching import Binding, Builder, Matcher, builder, matcher, term_depth
from plies.gdl.normal import GroundingError, Literal, NormalRule, term_vars, where
from plies.gdl.terms import Pred, Term, pred_name, pred_of, to_kif

_CHUNK: Final = LOOK_EVERY  # candidates of a scan between two looks at the budget


def _shape(t: Term) -> Term:
    """What an index on the shape of an argument keys on: a compound's functor and arity,
    a constant itself (so that ``(true (control ?p))`` does not scan every fluent)."""
    return (t[0], len(t)) if isinstance(t, tuple) else t


def _index_key(atom: Term, positions: tuple[int, ...]) -> tuple[Term, ...]:
    return tuple([atom[i] if i > 0 else _shape(atom[-i]) for i in positions])


class FactBase:
    """Ground atoms by relation, with hash indexes on bound argument positions.

    A position ``i > 0`` keys on the whole argument ``i``; ``-i`` on its shape
    (:func:`_shape`).  Adding more than ``max_atoms`` atoms raises
    :class:`~plies.gdl.normal.GroundingError`.
    """

    def __init__(self, max_atoms: int) -> None:
        self.max_atoms = max_atoms
        self.facts: dict[Pred, set[Term]] = {}
        self._indexes: dict[Pred, dict[tuple[int, ...], dict[tuple[Term, ...], list[Term]]]] = {}
        self.size = 0

    def get(self, pred: Pred) -> set[Term]:
        found = self.facts.get(pred)
        if found is None:
            found = self.facts[pred] = set()
        return found

    def add(self, pred: Pred, atom: Term) -> bool:
        """Add ``atom``; True if it is new."""
        bucket = self.get(pred)
        if atom in bucket:
            return False
        bucket.add(atom)
        self.size += 1
        if self.size > self.max_atoms:
            raise GroundingError(
                f"grounding produced more than {self.max_atoms:,} atoms (last: {to_kif(atom)}); "
                "the description is too large or violates the recursion restriction"
            )
        for positions, index in self._indexes.get(pred, {}).items():
            index.setdefault(_index_key(atom, positions), []).append(atom)
        return True

    def _index(self, pred: Pred, positions: tuple[int, ...]) -> dict[tuple[Term, ...], list[Term]]:
        by_pred = self._indexes.setdefault(pred, {})
        index = by_pred.get(positions)
        if index is None:
            index = by_pred[positions] = {}
            for atom in self.get(pred):
                index.setdefault(_index_key(atom, positions), []).append(atom)
        return index

    def lookup(self, pred: Pred, positions: tuple[int, ...], key: tuple[Term, ...]) -> list[Term]:
        """The atoms of ``pred`` whose arguments (or shapes) at ``positions`` equal ``key``."""
        return self._index(pred, positions).get(key, [])

    def estimate(self, pred: Pred, positions: tuple[int, ...]) -> float:
        """The mean number of atoms of ``pred`` that agree on given values at ``positions``."""
        size = len(self.facts.get(pred, ()))
        if not positions or not size:
            return float(size)
        return size / len(self._index(pred, positions))


# A step of a join plan: (kind, literal, bound positions, index key builder, matcher) where
# kind is "scan", "delta", "check" (all variables bound), "neg", "distinct", "same" or
# "record" (a dynamic negation, kept for the network).
_Step = tuple[str, Literal, tuple[int, ...], Builder | None, Matcher | None]


def plan(
    rule: NormalRule,
    first: int | None,
    estimate: Callable[[Pred, tuple[int, ...]], float],
    dynamic: Callable[[Pred], bool],
    relaxed: bool,
) -> list[_Step]:
    """A join order: the delta literal first, then greedily the cheapest literal.

    A literal whose variables are all bound is a membership test and goes first; among
    the others, the one with the smallest expected number of matches *per new variable*
    (the geometric mean of its fan-out) wins, so a literal that binds many variables at
    once is not put off behind one that binds few but multiplies the work.  Filters
    (negations, ``distinct``) go right after the step that binds their last variable.
    """
    positives = [i for i, lit in enumerate(rule.body) if lit.kind == "pos"]
    filters = [lit for lit in rule.body if lit.kind != "pos"]
    bound: set[str] = set()
    steps: list[_Step] = []

    def place_filters() -> None:
        for lit in list(filters):
            if lit.vars <= bound:
                filters.remove(lit)
                if lit.kind == "neg":
                    kind = "record" if relaxed and dynamic(lit.pred) else "neg"
                else:
                    kind = lit.kind
                steps.append((kind, lit, (), None, None))

    def score(i: int) -> tuple[int, float, int]:
        lit = rule.body[i]
        new = len(lit.vars - bound)
        if new == 0:
            return (0, 0.0, 0)
        fanout = estimate(lit.pred, _bound_positions(lit.args[0], bound))
        # On a tie, bind the head's variables first: the join can then stop early once
        # the head is derived (see Evaluator._fire).
        return (1, fanout ** (1.0 / new), -len(lit.vars & rule.head_vars - bound))

    place_filters()
    while positives:
        pick = first if first is not None and first in positives else min(positives, key=score)
        positives.remove(pick)
        lit = rule.body[pick]
        atom = lit.args[0]
        if pick == first:
            steps.append(("delta", lit, (), None, matcher(atom, frozenset(bound))))
        elif lit.vars <= bound:
            steps.append(("check", lit, (), None, None))
        else:
            positions = _bound_positions(atom, bound)
            key = _key_builder(atom, positions) if positions else None
            steps.append(("scan", lit, positions, key, matcher(atom, frozenset(bound))))
        bound |= lit.vars
        place_filters()
    return steps


def _bound_positions(atom: Term, bound: set[str]) -> tuple[int, ...]:
    """The positions an index can use: bound arguments, then (negated) the positions of
    compound arguments that are not bound, whose shape is known all the same."""
    if isinstance(atom, str):
        return ()
    whole = [i for i in range(1, len(atom)) if term_vars(atom[i], set()) <= bound]
    shaped = [-i for i in range(1, len(atom)) if isinstance(atom[i], tuple) and i not in whole]
    return tuple(whole + shaped)


def _key_builder(atom: Term, positions: tuple[int, ...]) -> Builder:
    """The index key of ``atom`` at ``positions`` (see :func:`_bound_positions`) under a
    binding: the bound arguments built, then the constant shapes."""
    whole = builder(tuple([atom[i] for i in positions if i > 0]))
    shapes = tuple([_shape(atom[-i]) for i in positions if i < 0])
    if not shapes:
        return whole
    return lambda b: whole(b) + shapes  # type: ignore[operator]


def _finished(k: int, b: Binding) -> None:
    """What a join's ``walk`` becomes once the join is over (see :meth:`Evaluator._fire`)."""
    raise AssertionError("a finished join was walked again")


class Evaluator:
    """Semi-naive bottom-up evaluation of a set of rules, stratum by stratum.

    Derived atoms go into ``db``.  ``dynamic`` are the relations that depend on ``true``
    or ``does``; when ``relaxed``, a negation over one of them is assumed to hold.
    ``record``, if set, is called with the rule and the binding of every complete join
    (the instances of the network).  A derived atom nested deeper than ``max_depth``
    raises :class:`~plies.gdl.normal.GroundingError`; every join step ticks ``meter``.
    """

    def __init__(
        self,
        db: FactBase,
        dynamic: set[Pred],
        relaxed: bool,
        record: Callable[[NormalRule, Binding], None] | None,
        meter: Meter,
        max_depth: int,
    ) -> None:
        self.meter = meter
        self.max_depth = max_depth
        self.db = db
        self.dynamic = dynamic
        self.relaxed = relaxed
        self.record = record

    def run(self, rules: list[NormalRule], components: list[list[Pred]]) -> None:
        by_head: dict[Pred, list[NormalRule]] = {}
        for rule in rules:
            by_head.setdefault(pred_of(rule.head), []).append(rule)
        for component in components:
            members = set(component)
            group = [r for p in component for r in by_head.get(p, [])]
            if group:
                self._stratum(group, members)

    def run_groups(self, groups: list[list[NormalRule]]) -> None:
        """Evaluate groups of rules one after the other, each to its fixpoint.

        The groups come from :func:`plies.gdl.strata.rule_order` (through grounding):
        every atom that a negative literal of a group can match is derived by an earlier
        group (rules whose relation depends on its own negation by name, such as ``goal``
        in futoshiki, are split by rule).
        """
        for group in groups:
            self._stratum(group, {pred_of(rule.head) for rule in group})

    def _stratum(self, rules: list[NormalRule], members: set[Pred]) -> None:
        delta: dict[Pred, set[Term]] = {}
        for rule in rules:
            self._fire(rule, None, delta, {})
        recursive = [
            (rule, i)
            for rule in rules
            for i, lit in enumerate(rule.body)
            if lit.kind == "pos" and lit.pred in members
        ]
        while recursive and any(delta.values()):
            new: dict[Pred, set[Term]] = {}
            for rule, i in recursive:
                if delta.get(rule.body[i].pred):
                    self._fire(rule, i, new, delta)
            delta = new

    def _fire(
        self,
        rule: NormalRule,
        first: int | None,
        out: dict[Pred, set[Term]],
        delta: dict[Pred, set[Term]],
    ) -> None:
        meter = self.meter
        meter.tick(len(rule.body) ** 2)  # planning compares every pair of literals
        steps = plan(rule, first, self.db.estimate, self.dynamic.__contains__, self.relaxed)
        db = self.db
        head = builder(rule.head)
        head_pred = pred_of(rule.head)
        head_facts = db.get(head_pred)
        nests = isinstance(rule.head, tuple) and any(isinstance(a, tuple) for a in rule.head)
        max_depth = self.max_depth
        record = self.record
        n = len(steps)
        # Once the head's variables are bound, a head that is already derived makes the
        # rest of the join useless (unless every instance is recorded for the network):
        # without this cut, (<= big (n ?a) ... (n ?h)) runs through all k^8 bindings.
        cut = n
        if record is None:
            bound: set[str] = set()
            for k, (kind, lit, *_) in enumerate(steps):
                if rule.head_vars <= bound:
                    cut = k
                    break
                if kind in ("scan", "delta"):
                    bound |= lit.vars

        def emit(b: Binding) -> None:
            atom = head(b)
            if db.add(head_pred, atom):
                out.setdefault(head_pred, set()).add(atom)
                if nests and term_depth(atom) > max_depth:
                    raise GroundingError(
                        f"grounding does not terminate: {pred_name(head_pred)} builds ever "
                        f"deeper terms (deeper than {max_depth}: a counter without a bound, "
                        f"which GDL allows, or a broken recursion restriction), in "
                        f"{where(rule.source)}"
                    )
            if record is not None:
                record(rule, b)

        def walk(k: int, b: Binding) -> None:
            meter.count += 1  # meter.tick(), inlined: this is the innermost loop
            if meter.count >= meter.due:
                meter.look()
            if k == n:
                emit(b)
                return
            if k >= cut and head(b) in head_facts:
                return
            kind, lit, positions, key, m = steps[k]
            if kind == "scan":
                assert m is not None
                found = db.get(lit.pred) if key is None else db.lookup(lit.pred, positions, key(b))  # type: ignore[arg-type]
                candidates = tuple(found)  # a copy: the rule may add to it
                for start in range(0, len(candidates), _CHUNK):
                    chunk = candidates[start : start + _CHUNK]
                    meter.count += len(chunk)  # a failed match is work too
                    if meter.count >= meter.due:  # even a scan that matches nothing
                        meter.look()
                    for fact in chunk:
                        nb = m(fact, b)
                        if nb is not None:
                            walk(k + 1, nb)
            elif kind == "delta":
                assert m is not None
                facts = delta.get(lit.pred, ())
                meter.count += len(facts)
                for fact in facts:
                    nb = m(fact, b)
                    if nb is not None:
                        walk(k + 1, nb)
            elif kind == "check":
                if lit.build[0](b) in db.get(lit.pred):
                    walk(k + 1, b)
            elif kind == "neg":
                if lit.build[0](b) not in db.get(lit.pred):
                    walk(k + 1, b)
            elif kind == "distinct":
                if lit.build[0](b) != lit.build[1](b):
                    walk(k + 1, b)
            elif kind == "same":
                if lit.build[0](b) == lit.build[1](b):
                    walk(k + 1, b)
            else:  # "record": a dynamic negation, kept for the network
                walk(k + 1, b)

        try:
            walk(0, {})
        finally:
            # walk refers to itself (a reference cycle through its closure): break it, so
            # that the facts it reaches are freed at once, not by a later full collection
            # (after a grounding stopped mid-join that is millions of atoms, and a pause of
            # seconds in whatever the process does next, e.g. a GGP player's next reply).
            walk = _finished
