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

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import product
from typing import Any, Final, NamedTuple

from plies.budget import LOOK_EVERY, Budget, Meter
from plies.errors import GameFormatError
from plies.gdl.strata import NotStratifiedError, rule_order, strongly_connected
from plies.gdl.terms import Description, Pred, Rule, Term, pred_name, pred_of, to_kif

Binding = dict[str, Term]

TRUE: Final[Pred] = ("true", 1)
DOES: Final[Pred] = ("does", 2)
NEXT: Final[Pred] = ("next", 1)
INIT: Final[Pred] = ("init", 1)
LEGAL: Final[Pred] = ("legal", 2)
GOAL: Final[Pred] = ("goal", 2)
ROLE: Final[Pred] = ("role", 1)
TERMINAL: Final[Pred] = "terminal"

MAX_ATOMS: Final = 2_000_000
"""Grounding gives up (with :class:`GroundingError`) beyond this many atoms or instances."""

MAX_LITERALS: Final = 8_000_000
"""... or beyond this many literals in all ground rule instances together (memory: quarto,
the largest game in the shared data, has 1.4 million)."""

MAX_DEPTH: Final = 32
"""... or when a derived atom nests function terms this much deeper than the deepest term
written in the description (a rule that builds ever deeper terms: a head written 40
deep is fine, a term built more than 32 levels deeper than anything written is not)."""

MAX_BODY: Final = 256
"""The most literals a rule body may have (after expanding ``or``); no game comes close,
and a join that deep would exhaust Python's stack."""

DEFAULT_BUDGET: Final = Budget(seconds=180.0, steps=250_000_000)
"""The budget of building a GDL reasoner when none is given.

A step is one step of a join while grounding (one candidate fact tried), one literal
of a ground rule instance, one disjunct looked at while simplifying the network, one
formula node or line of generated code.  The largest game in the shared data that loads
(quarto) takes 25 million steps and about 13 s on a busy two-core machine, checkers 8
million and 6 s, every other one under a million: the default is ten times quarto's
work, and the seconds a backstop.  Pass a smaller :class:`~plies.budget.Budget` for a
server (with a ``stop`` signal), or :data:`plies.budget.UNLIMITED`.
"""


class GroundingError(GameFormatError):
    """A description that cannot be grounded: unsafe, unstratified, or infinite."""


class GroundRule(NamedTuple):
    """A ground rule instance: ``head`` holds if every literal of ``body`` holds.

    ``body`` holds ``(positive, atom)`` pairs over dynamic relations only (``true``,
    ``does`` and relations derived from them); an empty body is a fact.
    """

    head: Term
    body: tuple[tuple[bool, Term], ...]


# --- terms: substitution and matching ----------------------------------------------------


def subst(t: Term, b: Binding) -> Term:
    """``t`` with the variables bound in ``b`` replaced (unbound ones stay)."""
    if isinstance(t, str):
        return b.get(t, t) if t[:1] == "?" else t
    return tuple([subst(x, b) for x in t])


def match(pattern: Term, ground: Term, b: Binding) -> bool:
    """Extend ``b`` so that ``pattern`` equals the ground term ``ground``; False if impossible.

    ``b`` may be partly extended when the answer is False: callers pass a copy.
    """
    if isinstance(pattern, str):
        if pattern[:1] == "?":
            old = b.get(pattern)
            if old is None:
                b[pattern] = ground
                return True
            return bool(old == ground)
        return pattern == ground
    if not isinstance(ground, tuple) or len(ground) != len(pattern):
        return False
    return all(match(p, g, b) for p, g in zip(pattern, ground, strict=True))


Builder = Callable[[Binding], Term]
_CODE_CACHE_LIMIT: Final = 50_000  # compiled builders and matchers kept between groundings
_BUILDERS: dict[Term, Builder] = {}


_CHUNK: Final = LOOK_EVERY  # candidates of a scan between two looks at the budget

_COMPILE_DEPTH: Final = 40
"""Terms nested deeper than this are matched and built by plain recursion: compiled code
for them would hit the Python compiler's nesting limits."""


def _source(t: Term) -> str:
    if isinstance(t, str):
        return f"b[{t!r}]" if t[:1] == "?" else repr(t)
    return "(" + "".join(_source(x) + ", " for x in t) + ")"


def builder(t: Term) -> Builder:
    """A compiled ``subst(t, b)`` for bindings ``b`` that bind every variable of ``t``.

    >>> builder(("cell", "?x", ("f", "?x")))({"?x": "1"})
    ('cell', '1', ('f', '1'))
    """
    fn = _BUILDERS.get(t)
    if fn is None:
        if len(_BUILDERS) > _CODE_CACHE_LIMIT:  # a long-lived process grounding many games
            _BUILDERS.clear()
        if _depth(t) > _COMPILE_DEPTH:
            fn = _BUILDERS[t] = lambda b: subst(t, b)
        else:
            fn = _BUILDERS[t] = eval(f"lambda b: {_source(t)}")
    return fn


Matcher = Callable[[Term, Binding], "Binding | None"]
_MATCHERS: dict[tuple[Term, frozenset[str]], Matcher] = {}


def matcher(pattern: Term, bound: frozenset[str]) -> Matcher:
    """A compiled :func:`match` of ``pattern`` against atoms of its own relation.

    ``bound`` are the variables that every binding passed in already binds.  The result
    returns the extended binding (a new dict), or None when the atom does not match.

    >>> m = matcher(("does", "?r", ("move", "?x", "?x")), frozenset({"?r"}))
    >>> m(("does", "white", ("move", "1", "1")), {"?r": "white"})
    {'?r': 'white', '?x': '1'}
    >>> m(("does", "white", ("move", "1", "2")), {"?r": "white"}) is None
    True
    """
    cache_key = (pattern, bound)
    fn = _MATCHERS.get(cache_key)
    if fn is not None:
        return fn
    if len(_MATCHERS) > _CODE_CACHE_LIMIT:
        _MATCHERS.clear()
    if _depth(pattern) > _COMPILE_DEPTH:
        made_plain = _MATCHERS[cache_key] = _plain_matcher(pattern)
        return made_plain
    tests: list[str] = []
    assigned: dict[str, str] = {}

    def walk(p: Term, path: str, top: bool) -> None:
        if isinstance(p, str):
            if p[:1] != "?":
                if not top:
                    tests.append(f"{path} == {p!r}")
            elif p in bound:
                tests.append(f"{path} == b[{p!r}]")
            elif p in assigned:
                tests.append(f"{path} == {assigned[p]}")
            else:
                assigned[p] = path
            return
        if not top:  # the relation (name and arity) is already known at the top
            tests.append(f"type({path}) is tuple and len({path}) == {len(p)}")
            tests.append(f"{path}[0] == {p[0]!r}")
        for i in range(1, len(p)):
            walk(p[i], f"{path}[{i}]", False)

    walk(pattern, "f", True)
    lines = ["def m(f, b):"]
    lines += [f"    if not ({test}): return None" for test in tests]
    if assigned:
        lines.append("    nb = dict(b)")
        lines += [f"    nb[{var!r}] = {path}" for var, path in assigned.items()]
        lines.append("    return nb")
    else:
        lines.append("    return b")
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), namespace)
    made: Matcher = namespace["m"]
    _MATCHERS[cache_key] = made
    return made


def _plain_matcher(pattern: Term) -> Matcher:
    def m(f: Term, b: Binding) -> Binding | None:
        nb = dict(b)
        return nb if match(pattern, f, nb) else None

    return m


def _depth(t: Term) -> int:
    """How deep ``t`` nests: 0 for a symbol, 1 for ``(f a)``, ..."""
    return 0 if isinstance(t, str) else 1 + max(map(_depth, t), default=-1)


def deepest(desc: Description) -> int:
    """The nesting depth of the deepest atom or literal written in ``desc``."""
    parts = (part for rule in desc.rules for part in (rule.head, *rule.body))
    return max(map(_depth, parts), default=0)


def _vars(t: Term, out: set[str]) -> set[str]:
    if isinstance(t, str):
        if t[:1] == "?":
            out.add(t)
    else:
        for x in t:
            _vars(x, out)
    return out


def _where(rule: Rule) -> str:
    """The rule for a message: its line and its text (cut short: one line, whatever the rule)."""
    return _short(f"line {rule.line}: {rule}" if rule.line else str(rule))


def _short(text: str, limit: int = 200) -> str:
    """``text`` cut to about ``limit`` characters: an error message stays one short line."""
    return text if len(text) <= limit else text[: limit - 5] + " ..."


# --- rules in a normal form ---------------------------------------------------------------


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
            _vars(a, found)
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


def _literal(lit: Term, rule: Rule) -> list[list[Literal]]:
    """The alternatives (each a conjunction) that the body literal ``lit`` stands for."""
    if isinstance(lit, tuple) and lit and lit[0] == "or":
        alternatives: list[list[Literal]] = []
        for part in lit[1:]:
            alternatives.extend(_literal(part, rule))
        return alternatives
    if isinstance(lit, tuple) and lit and lit[0] == "distinct":
        if len(lit) != 3:
            raise GroundingError(f"distinct takes two arguments in {_where(rule)}")
        return [[Literal.make("distinct", lit[1:], "distinct")]]
    if isinstance(lit, tuple) and lit and lit[0] == "not":
        if len(lit) != 2:
            raise GroundingError(f"not takes one literal in {_where(rule)}")
        inner = lit[1]
        if isinstance(inner, tuple) and inner and inner[0] == "distinct" and len(inner) == 3:
            return [[Literal.make("same", inner[1:], "same")]]
        if isinstance(inner, tuple) and inner and inner[0] in ("not", "or", "distinct"):
            raise GroundingError(f"only an atom can be negated, in {_where(rule)}")
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
        choices = [_literal(lit, rule) for lit in rule.body]
        for combo in product(*choices):
            body = tuple(lit for part in combo for lit in part)
            if meter is not None:
                meter.tick(1 + len(body))
            if len(body) > MAX_BODY:
                raise GroundingError(
                    f"a rule body of {len(body):,} literals; at most {MAX_BODY} are accepted, "
                    f"in {_where(rule)}"
                )
            bound: set[str] = set()
            for lit in body:
                if lit.kind == "pos":
                    bound |= lit.vars
            head_vars = frozenset(_vars(rule.head, set()))
            loose = set(head_vars)
            for lit in body:
                if lit.kind != "pos":
                    loose |= lit.vars
            unsafe = sorted(loose - bound)
            if unsafe:
                raise GroundingError(
                    f"unsafe rule: {', '.join(unsafe)} must occur in a positive literal "
                    f"of the body, in {_where(rule)}"
                )
            out.append(NormalRule(rule.head, body, rule, head_vars))
    return out


# --- predicate dependency graph -----------------------------------------------------------


def _dependencies(rules: Iterable[NormalRule]) -> dict[Pred, set[Pred]]:
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


# --- bottom-up evaluation -----------------------------------------------------------------


def _shape(t: Term) -> Term:
    """What an index on the shape of an argument keys on: a compound's functor and arity,
    a constant itself (so that ``(true (control ?p))`` does not scan every fluent)."""
    return (t[0], len(t)) if isinstance(t, tuple) else t


def _index_key(atom: Term, positions: tuple[int, ...]) -> tuple[Term, ...]:
    return tuple([atom[i] if i > 0 else _shape(atom[-i]) for i in positions])


class FactBase:
    """Ground atoms by relation, with hash indexes on bound argument positions.

    A position ``i > 0`` keys on the whole argument ``i``; ``-i`` on its shape
    (:func:`_shape`).
    """

    def __init__(self, max_atoms: int = MAX_ATOMS) -> None:
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


def _plan(
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
        # the head is derived (see _Evaluator._fire).
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
    whole = [i for i in range(1, len(atom)) if _vars(atom[i], set()) <= bound]
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
    """What a join's ``walk`` becomes once the join is over (see :meth:`_Evaluator._fire`)."""
    raise AssertionError("a finished join was walked again")


class _Evaluator:
    """Semi-naive bottom-up evaluation of a set of rules, stratum by stratum."""

    def __init__(
        self,
        db: FactBase,
        dynamic: set[Pred],
        relaxed: bool,
        record: Callable[[NormalRule, Binding], None] | None,
        meter: Meter,
        max_depth: int = MAX_DEPTH,
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

        The groups come from :func:`_stratified_order`: every atom that a negative literal
        of a group can match is derived by an earlier group (rules whose relation depends
        on its own negation by name, such as ``goal`` in futoshiki, are split by rule).
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
        steps = _plan(rule, first, self.db.estimate, self.dynamic.__contains__, self.relaxed)
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
                if nests and _depth(atom) > max_depth:
                    raise GroundingError(
                        f"grounding does not terminate: {pred_name(head_pred)} builds ever "
                        f"deeper terms (deeper than {max_depth}: a counter without a bound, "
                        f"which GDL allows, or a broken recursion restriction), in "
                        f"{_where(rule.source)}"
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
    edges = _dependencies(rules)
    dynamic = reaching(edges, {TRUE, DOES})
    for pred in (ROLE, INIT):
        if pred in dynamic:
            culprit = next(r for r in rules if pred_of(r.head) == pred)
            raise GroundingError(
                f"{pred_name(pred)} must not depend on true or does, in {_where(culprit.source)}"
            )
    for rule in rules:
        if pred_of(rule.head) in (TRUE, DOES):
            raise GroundingError(f"true and does cannot be defined, in {_where(rule.source)}")
    groups = _stratified_order(rules)

    db = FactBase(max_atoms)
    preds = list(dict.fromkeys([pred_of(r.head) for r in rules]))
    static_preds = [p for p in preds if p not in dynamic]
    static_groups = [[r for r in group if pred_of(r.head) not in dynamic] for group in groups]
    exact = _Evaluator(db, dynamic, relaxed=False, record=None, meter=meter, max_depth=max_depth)
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
    relaxed_edges = _dependencies(dyn_rules + bridge)
    dyn_preds = list(dict.fromkeys([TRUE, DOES, *[pred_of(r.head) for r in dyn_rules]]))
    evaluator = _Evaluator(db, dynamic, relaxed=True, record=None, meter=meter, max_depth=max_depth)
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
        raise GroundingError(f"{error}, in {_where(culprit)}") from None
    return [[rules[i] for i in group] for group in order.groups]


def _bridge(head: Term, body: Term) -> NormalRule:
    rule = Rule(head, (body,))
    lit = Literal.make("pos", (body,), pred_of(body))
    return NormalRule(head, (lit,), rule, frozenset(_vars(head, set())))
