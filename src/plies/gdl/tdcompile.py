"""The compiler behind :class:`~plies.gdl.topdown.TopDown`: GDL rules to Python solvers.

A **call pattern** is a body literal seen from its call site: its constants, which of its
variables are already bound there (``?b0``, ``?b1``, ... the *parameters*, numbered by
first occurrence) and which are still free (``?f0``, ``?f1``, ...).  For example
``(true (cell ?x ?y b))`` called with ``?x`` bound is the pattern
``(true (cell ?b0 ?f0 b))``.  Each pattern gets one solver, a Python function of its
parameters that returns every answer: the values of its free variables (a value when
there is one, a tuple when several), or a ``bool`` when there is none.  Specialising
every rule to every pattern it can be called with is the partial evaluation a Prolog
compiler does with modes; since patterns come from the text of the rules there are
finitely many.

The solver of a pattern is, per rule of its relation: the unification of the rule's
head with the pattern (checks on the parameters, variables bound from them), then the
body as nested loops over the answers of the patterns its literals call, left to right
except that a literal whose variables are all bound (a check, a negation, a
``distinct``) moves to the first place where it can run.  Memo tables key the answers
on the parameters; there is one per pattern, kept for good for static relations,
cleared when the state changes for relations that read ``true``, and when the joint
move changes for those that read ``does``.  ``true`` patterns are hash indexes built
from the state's fluents on first use; facts are hash indexes built once.

Relations on a cycle of the dependency graph are *tabled* (:class:`Tabling`): a call
that meets itself, or an ancestor still being computed, uses the answers found so far,
and the lowest such call (the leader of the strongly connected set of calls) repeats
its rules until a pass adds no answer anywhere.  Calls evaluated in that last pass are
complete; the others are forgotten.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from plies.gdl.ground import (
    DOES,
    INIT,
    ROLE,
    TRUE,
    GroundingError,
    Literal,
    NormalRule,
    _literal,
    match,
    normalise,
    reaching,
)
from plies.gdl.reasoner import GdlRulesError
from plies.gdl.strata import strongly_connected
from plies.gdl.terms import Description, Pred, Rule, Term, pred_name, pred_of, to_kif

MAX_ANSWERS: Final = 2_000_000
"""The most answers one tabled call may have: more means a recursive relation that
builds ever new terms (an infinite relation), which no game needs."""

_MAX_NEST: Final = 14
"""Nested loops in one generated function before the rest of a rule body goes into a
continuation function (CPython allows 20 nested blocks)."""

_INF: Final = 1 << 60

_MAX_CHOICES: Final = 64
"""Rules whose ``or`` s make more choices than this keep them as relations of their own."""


def _no_step() -> None:
    """What :attr:`Tabling.step` and ``TICK`` do without a budget."""


class _Entry:
    """A tabled call still being computed: its answers so far."""

    __slots__ = ("answers", "dep", "depth", "evaluated", "low", "pass_start", "seen", "tab")

    def __init__(self, tab: Tabling) -> None:
        self.answers: list[Any] = []
        self.seen: set[Any] = set()
        self.tab = tab
        self.depth = -1
        self.low = _INF
        self.dep: _Entry | None = None
        self.evaluated = 0
        self.pass_start = 0

    def add(self, answer: Any) -> None:
        if answer not in self.seen:
            self.seen.add(answer)
            self.answers.append(answer)
            self.tab.added += 1
            self.tab.step()
            if len(self.answers) > MAX_ANSWERS:
                raise GdlRulesError(
                    f"a recursive relation has more than {MAX_ANSWERS:,} answers to one "
                    "call: the rules build ever new terms"
                )


class Tabling:
    """The fixpoint of recursive calls (see the module docstring).

    ``stack`` holds the tabled calls being computed, innermost last; ``low`` is the
    lowest stack position a pass of the innermost call has used the answers of;
    ``added`` counts answers ever added, so "a pass added nothing" is one comparison.
    """

    def __init__(self) -> None:
        #: Called once per answer found (a budget's ``Meter.tick``).
        self.step: Callable[[], None] = _no_step
        self.reset()

    def reset(self) -> None:
        self.stack: list[_Entry] = []
        self.pending: list[tuple[dict[Any, Any], Any, _Entry]] = []
        self.low = _INF
        self.added = 0
        self.tick = 0

    def call(
        self,
        memo: dict[Any, Any],
        key: Any,
        entry: _Entry | None,
        body: Callable[..., Any],
        args: tuple[Any, ...],
    ) -> list[Any]:
        """The answers of the call ``key`` whose memo holds ``entry`` (not complete)."""
        if entry is not None:
            if entry.depth >= 0:  # an ancestor: use what it has so far
                if entry.depth < self.low:
                    self.low = entry.depth
                return entry.answers
            d = entry.low
            dep = entry.dep
            if d < len(self.stack) and self.stack[d] is dep and dep is not None and (
                entry.evaluated > dep.pass_start
            ):  # evaluated already in this pass of the call it depends on
                if d < self.low:
                    self.low = d
                return entry.answers
        else:
            entry = _Entry(self)
            memo[key] = entry
        return self._evaluate(memo, key, entry, body, args)

    def _evaluate(
        self,
        memo: dict[Any, Any],
        key: Any,
        entry: _Entry,
        body: Callable[..., Any],
        args: tuple[Any, ...],
    ) -> list[Any]:
        stack = self.stack
        d = entry.depth = len(stack)
        stack.append(entry)
        outer_low = self.low
        mark = len(self.pending)
        add = entry.add
        try:
            while True:
                self.tick += 1
                entry.pass_start = self.tick
                before = self.added
                self.low = _INF
                body(add, *args)
                low = self.low
                if low != d or self.added == before:
                    break
        finally:
            stack.pop()
            entry.depth = -1
        if low < d:  # part of a cycle through an ancestor: its leader finishes it
            entry.low = low
            entry.dep = stack[low]
            self.tick += 1
            entry.evaluated = self.tick
            self.pending.append((memo, key, entry))
            self.low = min(outer_low, low)
            return entry.answers
        memo[key] = entry.answers
        if len(self.pending) > mark:
            final = entry.pass_start
            for m, k, e in self.pending[mark:]:
                if m.get(k) is e:
                    if e.evaluated > final:
                        m[k] = e.answers
                    else:
                        del m[k]
            del self.pending[mark:]
        self.low = outer_low
        return entry.answers

    @staticmethod
    def check_closed(memo: dict[Any, Any], key: Any, what: str) -> None:
        """Raise unless the negated call ``key`` is complete (else: a negative cycle)."""
        if memo.get(key).__class__ is not list:
            raise GdlRulesError(
                f"{what} depends on its own negation in this state: the rules are not "
                "stratified"
            )


# --- patterns --------------------------------------------------------------------------


@dataclass
class _Pattern:
    id: int
    pred: Pred
    template: Term
    nparams: int
    nfree: int
    kind: str  # "true", "does", "facts", "none", "rules"
    tabled: bool = False
    level: str = "static"  # "static", "state" or "move"

    @property
    def boolean(self) -> bool:
        return self.nfree == 0


def _template_vars(t: Term, prefix: str, out: list[str]) -> list[str]:
    if isinstance(t, str):
        if t.startswith(prefix) and t not in out:
            out.append(t)
    else:
        for x in t:
            _template_vars(x, prefix, out)
    return out


def _key_expr(params: list[str]) -> str:
    if not params:
        return "()"
    if len(params) == 1:
        return params[0]
    return "(" + ", ".join(params) + ",)"


class _Env:
    """What a rule's compiled code knows of its variables at a point of the body."""

    def __init__(self) -> None:
        self.expr: dict[str, str] = {}  # variable -> a Python expression of its value
        self.const: dict[str, Term] = {}  # variable -> its value, known when compiling

    def copy(self) -> _Env:
        env = _Env()
        env.expr = dict(self.expr)
        env.const = dict(self.const)
        return env

    def bound(self, var: str) -> bool:
        return var in self.expr

    def build(self, t: Term) -> str:
        """A Python expression of the ground term ``t`` (every variable bound)."""
        if isinstance(t, str):
            if t[:1] == "?":
                return self.expr[t]
            return repr(t)
        return "(" + "".join(self.build(x) + ", " for x in t) + ")"


def _vars(t: Term, out: set[str]) -> set[str]:
    if isinstance(t, str):
        if t[:1] == "?":
            out.add(t)
    else:
        for x in t:
            _vars(x, out)
    return out


class Program:
    """The compiled solvers of one description, and the state they read.

    :meth:`query` gives the function of a pattern; :meth:`set_state` and
    :meth:`set_joint` say which state and joint move the ``true`` and ``does`` facts
    come from (and clear what depended on the old ones); :meth:`reset` forgets
    everything (after an exception left half-computed tables).
    """

    def __init__(self, desc: Description) -> None:
        self.or_preds: set[Pred] = set()
        self.rules = self._normalise(desc.rules)
        self.by_pred: dict[Pred, list[NormalRule]] = {}
        for rule in self.rules:
            pred = pred_of(rule.head)
            if pred in (TRUE, DOES):
                raise GroundingError(f"true and does cannot be defined, in rule {rule.source}")
            self.by_pred.setdefault(pred, []).append(rule)
        edges: dict[Pred, set[Pred]] = {}
        for rule in self.rules:
            targets = edges.setdefault(pred_of(rule.head), set())
            for lit in rule.body:
                if lit.kind in ("pos", "neg"):
                    targets.add(lit.pred)
        self.level: dict[Pred, str] = {}
        move = reaching(edges, {DOES})
        state = reaching(edges, {TRUE})
        for pred in (ROLE, INIT):
            if pred in move or pred in state:
                raise GroundingError(f"{pred_name(pred)} must not depend on true or does")
        for pred in edges:
            self.level[pred] = "move" if pred in move else "state" if pred in state else "static"
        self.recursive: set[Pred] = set()
        for component in strongly_connected(list(edges), edges):
            if len(component) > 1 or component[0] in edges.get(component[0], ()):
                self.recursive.update(component)
        self.facts: dict[Pred, list[Term]] = {}
        for pred, rules in self.by_pred.items():
            self.facts[pred] = [r.head for r in rules if not r.body]
        self.tab = Tabling()
        self.ns: dict[str, Any] = {
            "S": frozenset(),
            "G": {},
            "D": (),
            "ONE": (None,),
            "TAB": self.tab,
            "check_closed": Tabling.check_closed,
            "TICK": _no_step,
        }
        self.patterns: dict[tuple[Pred, Term], _Pattern] = {}
        self.todo: list[_Pattern] = []
        self.memos: dict[str, list[dict[Any, Any]]] = {"static": [], "state": [], "move": []}
        self._names = 0
        self._source: list[str] = []
        self.queries: dict[Term, Callable[..., Any]] = {}

    def _normalise(self, rules: tuple[Rule, ...]) -> list[NormalRule]:
        """The rules without ``or``: expanded into one rule per choice of disjuncts when
        that makes few rules, else each ``(or ...)`` becomes a call of a relation of its
        own (``or~1``), one rule per disjunct: sixty ``or`` s of two make 2^60 choices."""
        out: list[NormalRule] = []
        for rule in rules:
            choices = 1
            for lit in rule.body:
                if isinstance(lit, tuple) and lit and lit[0] == "or":
                    choices *= max(len(lit) - 1, 1)
            if choices <= _MAX_CHOICES:
                out += normalise([rule])
                continue
            body: list[Term] = []
            for lit in rule.body:
                if not (isinstance(lit, tuple) and lit and lit[0] == "or"):
                    body.append(lit)
                    continue
                pred = f"or~{len(self.or_preds) + 1}"
                found: set[str] = set()
                aux: Term = (pred, *sorted(_vars(lit, found)))
                self.or_preds.add(pred_of(aux))
                body.append(aux)
                for part in lit[1:]:
                    source = Rule(aux, (part,), rule.line, rule.column)
                    for conjunction in _literal(part, source):
                        out.append(NormalRule(aux, tuple(conjunction), source,
                                              frozenset(_vars(aux, set()))))
            out += normalise([Rule(rule.head, tuple(body), rule.line, rule.column)])
        return out

    # --- the state the solvers read ----------------------------------------------------

    def set_state(self, state: frozenset[Term]) -> None:
        groups: dict[Any, list[Term]] = {}
        for f in state:
            key = f if isinstance(f, str) else (f[0], len(f) - 1)
            found = groups.get(key)
            if found is None:
                groups[key] = [f]
            else:
                found.append(f)
        self.ns["S"] = state
        self.ns["G"] = groups
        self.ns["D"] = ()
        for memo in self.memos["state"]:
            memo.clear()
        for memo in self.memos["move"]:
            memo.clear()

    def set_joint(self, pairs: tuple[tuple[str, Term], ...]) -> None:
        self.ns["D"] = pairs
        for memo in self.memos["move"]:
            memo.clear()

    def set_step(self, step: Callable[[], None]) -> None:
        """Call ``step`` once per call computed and per answer found (a budget)."""
        self.ns["TICK"] = step
        self.tab.step = step

    def reset(self) -> None:
        for memos in self.memos.values():
            for memo in memos:
                memo.clear()
        self.tab.reset()
        self.ns["S"] = frozenset()
        self.ns["G"] = {}
        self.ns["D"] = ()

    @property
    def source(self) -> str:
        """The Python source of every solver compiled so far."""
        return "\n".join(self._source)

    def query(self, atom: Term) -> Callable[..., Any]:
        """The function of the pattern ``atom`` (variables ``?b0``... are its parameters,
        ``?f0``... what it finds): called with the parameters, it returns the answers
        (a list) or, without free variables, a ``bool``."""
        found = self.queries.get(atom)
        if found is not None:
            return found
        env = _Env()
        params = _template_vars(atom, "?b", [])
        for i, p in enumerate(params):
            env.expr[p] = f"p{i}"
        _, call, _, _ = self._call(atom, env)
        name = f"q_{len(self.queries)}"
        lines = [f"def {name}({', '.join(f'p{i}' for i in range(len(params)))}):"]
        lines.append(f"    return {call}")
        self._flush(lines)
        fn: Callable[..., Any] = self.ns[name]
        self.queries[atom] = fn
        return fn

    # --- compiling ---------------------------------------------------------------------

    def _fresh(self, stem: str) -> str:
        self._names += 1
        return f"{stem}{self._names}"

    def _pattern(self, pred: Pred, template: Term) -> _Pattern:
        found = self.patterns.get((pred, template))
        if found is not None:
            return found
        nparams = len(_template_vars(template, "?b", []))
        nfree = len(_template_vars(template, "?f", []))
        if pred == TRUE:
            kind, level = "true", "state"
        elif pred == DOES:
            kind, level = "does", "move"
        elif pred not in self.by_pred:
            kind, level = "none", "static"
        elif all(not r.body for r in self.by_pred[pred]):
            kind, level = "facts", "static"
        else:
            kind, level = "rules", self.level.get(pred, "static")
        p = _Pattern(len(self.patterns), pred, template, nparams, nfree, kind,
                     tabled=kind == "rules" and pred in self.recursive, level=level)
        self.patterns[(pred, template)] = p
        if kind in ("true", "rules"):
            memo: dict[Any, Any] = {}
            self.ns[f"M_{p.id}"] = memo
            self.memos[level].append(memo)
        if kind in ("facts", "rules"):
            self._index_facts(p)
        self.todo.append(p)
        return p

    def _index_facts(self, p: _Pattern) -> None:
        index: dict[Any, list[Any]] = {}
        keys: set[Any] = set()
        params = _template_vars(p.template, "?b", [])
        frees = _template_vars(p.template, "?f", [])
        for fact in self.facts.get(p.pred, ()):
            b: dict[str, Term] = {}
            if not match(p.template, fact, b):
                continue
            key = _value([b[v] for v in params])
            if p.boolean:
                keys.add(key)
            else:
                answers = index.setdefault(key, [])
                answer = _value([b[v] for v in frees])
                if answer not in answers:
                    answers.append(answer)
        self.ns[f"F_{p.id}"] = keys if p.boolean else index

    def _call(self, atom: Term, env: _Env) -> tuple[_Pattern, str, list[str], str]:
        """The pattern of ``atom`` at a point where ``env`` is known, the Python
        expression of its answers (or truth), and the free variables it binds, in the
        order of the answer tuples."""
        bmap: dict[str, str] = {}
        fmap: dict[str, str] = {}
        params: list[str] = []
        frees: list[str] = []

        def walk(t: Term) -> Term:
            if isinstance(t, str):
                if t[:1] != "?":
                    return t
                if t in env.const:
                    return env.const[t]
                if t in env.expr:
                    if t not in bmap:
                        bmap[t] = f"?b{len(bmap)}"
                        params.append(env.expr[t])
                    return bmap[t]
                if t not in fmap:
                    fmap[t] = f"?f{len(fmap)}"
                    frees.append(t)
                return fmap[t]
            return tuple([walk(x) for x in t])

        template = walk(atom)
        p = self._pattern(pred_of(atom), template)
        key = _key_expr(params)
        if p.kind == "true":
            expr = f"({env.build(atom[1])} in S)" if p.boolean else f"s_{p.id}({key})"
        elif p.kind == "none":
            expr = "False" if p.boolean else "()"
        elif p.kind == "facts":
            expr = f"({key} in F_{p.id})" if p.boolean else f"F_{p.id}.get({key}, ())"
        else:
            expr = f"s_{p.id}({', '.join(params)})"
        return p, expr, frees, key

    def _flush(self, extra: list[str]) -> None:
        """Compile every pattern waiting in ``todo``, then ``extra``; run the code."""
        lines: list[str] = []
        while self.todo:
            p = self.todo.pop()
            if p.kind == "true" and not p.boolean:
                lines += self._true_solver(p)
            elif p.kind == "does":
                lines += self._does_solver(p)
            elif p.kind == "rules":
                lines += self._rules_solver(p)
        lines += extra
        text = "\n".join(lines)
        self._source.append(text)
        exec(compile(text, "<gdl topdown>", "exec"), self.ns)

    # --- solvers for true and does -----------------------------------------------------

    def _true_solver(self, p: _Pattern) -> list[str]:
        fluent = p.template[1]
        if isinstance(fluent, str) and fluent[:1] == "?":
            source = "S"
        else:
            group = fluent if isinstance(fluent, str) else (fluent[0], len(fluent) - 1)
            source = f"G.get({group!r}, ())"
        conds: list[str] = []
        values: dict[str, str] = {}
        _runtime_match(fluent, "f", conds, values)
        params = _template_vars(p.template, "?b", [])
        frees = _template_vars(p.template, "?f", [])
        key = _key_expr([values[v] for v in params])
        answer = _key_expr([values[v] for v in frees])
        i = p.id
        return [
            f"def s_{i}(k):",
            f"    idx = M_{i}.get(None)",
            "    if idx is None:",
            "        TICK()",
            f"        idx = M_{i}[None] = x_{i}()",
            "    return idx.get(k, ())",
            f"def x_{i}():",
            "    idx = {}",
            f"    for f in {source}:",
            *([f"        if not ({' and '.join(conds)}): continue"] if conds else []),
            f"        k = {key}",
            "        found = idx.get(k)",
            "        if found is None:",
            f"            idx[k] = [{answer}]",
            "        else:",
            f"            found.append({answer})",
            "    return idx",
        ]

    def _does_solver(self, p: _Pattern) -> list[str]:
        conds: list[str] = []
        values: dict[str, str] = {}
        _runtime_match(p.template[1], "r", conds, values)
        _runtime_match(p.template[2], "m", conds, values)
        params = _template_vars(p.template, "?b", [])
        frees = _template_vars(p.template, "?f", [])
        args = ", ".join(f"p{j}" for j in range(len(params)))
        for j, v in enumerate(params):
            conds.append(f"{values[v]} == p{j}")
        lines = [f"def s_{p.id}({args}):"]
        if not p.boolean:
            lines.append("    out = []")
        lines.append("    for r, m in D:")
        if conds:
            lines.append(f"        if not ({' and '.join(conds)}): continue")
        if p.boolean:
            lines += ["        return True", "    return False"]
        else:
            answer = _key_expr([values[v] for v in frees])
            lines += [f"        out.append({answer})", "    return out"]
        return lines

    # --- solvers for derived relations -------------------------------------------------

    def _rules_solver(self, p: _Pattern) -> list[str]:
        i = p.id
        params = [f"p{j}" for j in range(p.nparams)]
        args = ", ".join(params)
        key = _key_expr(params)
        has_facts = bool(self.facts.get(p.pred))
        rules = [r for r in self.by_pred[p.pred] if r.body]
        lines: list[str] = []
        if p.tabled:
            ret = "bool(r)" if p.boolean else "r"
            called = f"TAB.call(M_{i}, k, r, b_{i}, ({args}{',' if params else ''}))"
            lines += [
                f"def s_{i}({args}):",
                f"    k = {key}",
                f"    r = M_{i}.get(k)",
                "    if r.__class__ is not list:",
                "        TICK()",
                f"        r = {called}",
                f"    return {ret}",
                f"def b_{i}(add{', ' if params else ''}{args}):",
            ]
            if has_facts:
                lines.append(f"    k = {key}")
                if p.boolean:
                    lines.append(f"    if k in F_{i}:")
                    lines += ["        add(())", "        return"]
                else:
                    lines.append(f"    for a in F_{i}.get(k, ()): add(a)")
            sink = "tbool" if p.boolean else "tlist"
        elif p.boolean:
            lines += [
                f"def s_{i}({args}):",
                f"    k = {key}",
                f"    r = M_{i}.get(k)",
                "    if r is None:",
                "        TICK()",
                f"        r = M_{i}[k] = b_{i}({args})",
                "    return r",
                f"def b_{i}({args}):",
            ]
            if has_facts:
                lines.append(f"    if {key} in F_{i}: return True")
            sink = "bool"
        else:
            lines += [
                f"def s_{i}({args}):",
                f"    k = {key}",
                f"    r = M_{i}.get(k)",
                "    if r is not None: return r",
                "    TICK()",
                f"    out = list(F_{i}.get(k, ()))" if has_facts else "    out = []",
                "    seen = set(out)",
            ]
            sink = "list"
        extra: list[str] = []
        for rule in rules:
            lines += self._rule(p, rule, sink, extra)
        if p.tabled:
            lines.append("    return")
        elif p.boolean:
            lines.append("    return False")
        else:
            lines += [f"    M_{i}[k] = out", "    return out"]
        return lines + extra

    def _rule(self, p: _Pattern, rule: NormalRule, sink: str, extra: list[str]) -> list[str]:
        """The code of one rule inside the solver of ``p`` (at indent 1)."""
        renamed = _rename(rule)
        env = _Env()
        for j in range(p.nparams):
            env.expr[f"?b{j}"] = f"p{j}"
        head = _Head(self, env)
        if not head.unify(renamed.head, p.template):
            return []
        # ?b variables are the solver's parameters: the rule's own variables were
        # renamed to ?v..., so the two never meet.
        lines = ["    for _ in ONE:"]
        lines += ["        " + line for line in head.pre]
        body = list(renamed.body)
        self._body(p, body, head, env, sink, lines, 2, 1, extra)
        return lines

    def _body(
        self,
        p: _Pattern,
        body: list[Literal],
        head: _Head,
        env: _Env,
        sink: str,
        lines: list[str],
        indent: int,
        depth: int,
        extra: list[str],
    ) -> None:
        pad = "    " * indent
        while True:
            progress = True
            while progress:
                progress = False
                for lit in list(body):
                    if all(env.bound(v) or v in env.const for v in lit.vars):
                        body.remove(lit)
                        lines += [pad + line for line in self._check(lit, env)]
                        progress = True
                        break
            if not body:
                break
            # An (or ...) made a relation waits until the other literals bound what they
            # can: its disjuncts may be filters (distinct, not) that bind nothing.
            first = next((x for x in body if x.kind == "pos" and x.pred not in self.or_preds),
                         None) or next((x for x in body if x.kind == "pos"), None)
            if first is None:  # safety guarantees a positive literal binds the rest
                raise GroundingError("unsafe rule: a variable occurs in no positive literal")
            lit = first
            if sink in ("list", "tlist") and all(env.bound(v) for v in head.needs()):
                # The answer is known: the rest of the body need only hold once (without
                # this cut, (<= (next (big ?a)) (n ?a) (n ?b) ... (n ?f)) runs through
                # every binding of ?b ... ?f for each ?a).
                exists = self._continuation(p, body, head, env, "bool", [], indent, extra)
                finish = head.finish(env, sink)
                if sink == "list":  # a known answer needs no proof
                    lines += [pad + line for line in finish[:-5]]
                    lines += [pad + finish[-5], pad + "if a in seen: continue"]
                else:
                    lines += [pad + line for line in finish[:-1]]
                lines.append(f"{pad}if not {exists}: continue")
                lines += [pad + line for line in finish[-4:] if sink == "list"] or [
                    pad + finish[-1]]
                return
            if depth >= _MAX_NEST:
                call = self._continuation(p, body, head, env, sink, [], indent, extra)
                if sink in ("bool", "tbool"):
                    lines.append(f"{pad}if {call}: return" + (" True" if sink == "bool" else ""))
                else:
                    lines.append(f"{pad}{call}")
                return
            body.remove(lit)
            _, call, frees, _ = self._call(lit.args[0], env)
            names = [self._fresh("v") for _ in frees]
            for var, name in zip(frees, names, strict=True):
                env.expr[var] = name
            target = names[0] if len(names) == 1 else "(" + ", ".join(names) + ",)"
            lines.append(f"{pad}for {target} in {call}:")
            indent += 1
            depth += 1
            pad = "    " * indent
        lines += [pad + line for line in head.finish(env, sink)]

    def _continuation(
        self,
        p: _Pattern,
        body: list[Literal],
        head: _Head,
        env: _Env,
        sink: str,
        lines: list[str],
        indent: int,
        extra: list[str],
    ) -> str:
        """Compile the rest of ``body`` into a function of its own; the call's text.

        For a ``bool`` or ``tbool`` sink the function returns whether it proved the
        head (for ``bool``: at its first proof)."""
        name = self._fresh("k_")
        names = sorted(_names_in(env))
        sinks = {"bool": [], "list": ["out", "seen"], "tbool": ["add"], "tlist": ["add"]}[sink]
        args = ", ".join(sinks + names)
        inner = [f"def {name}({args}):", "    for _ in ONE:"]
        sub_env = env.copy()
        self._body(p, list(body), head, sub_env, sink, inner, 2, 1, extra)
        if sink in ("bool", "tbool"):
            inner.append("    return False")
        extra += inner
        return f"{name}({args})"

    def _check(self, lit: Literal, env: _Env) -> list[str]:
        """Lines that skip to the next binding unless ``lit`` holds (all bound)."""
        if lit.kind == "distinct":
            return [f"if {env.build(lit.args[0])} == {env.build(lit.args[1])}: continue"]
        if lit.kind == "same":
            return [f"if {env.build(lit.args[0])} != {env.build(lit.args[1])}: continue"]
        p, call, _, key = self._call(lit.args[0], env)
        if lit.kind == "pos":
            return [f"if not {call}: continue"]
        if p.tabled:  # a negated call must be complete: else a cycle through negation
            what = to_kif(lit.args[0])
            return [f"if {call}: continue", f"check_closed(M_{p.id}, {key}, {what!r})"]
        return [f"if {call}: continue"]


def _names_in(env: _Env) -> set[str]:
    """The Python locals that ``env``'s expressions use (``p0``, ``v12``)."""
    out: set[str] = set()
    for expr in env.expr.values():
        if expr.isidentifier():
            out.add(expr)
    return out


def _value(parts: list[Term]) -> Any:
    if not parts:
        return ()
    if len(parts) == 1:
        return parts[0]
    return tuple(parts)


def _runtime_match(t: Term, expr: str, conds: list[str], values: dict[str, str]) -> None:
    """Conditions under which the runtime value ``expr`` matches the template ``t``;
    ``values`` gets the expression of each template variable at its first occurrence."""
    if isinstance(t, str):
        if t[:1] == "?":
            if t in values:
                conds.append(f"{expr} == {values[t]}")
            else:
                values[t] = expr
        else:
            conds.append(f"{expr} == {t!r}")
        return
    conds.append(f"{expr}.__class__ is tuple and len({expr}) == {len(t)}")
    for j, part in enumerate(t):
        _runtime_match(part, f"{expr}[{j}]", conds, values)


def _renamed(lit: Literal, walk: Callable[[Term], Term], mapping: dict[str, str]) -> Literal:
    args = tuple(walk(a) for a in lit.args)
    return Literal(lit.kind, args, lit.pred, frozenset(mapping[v] for v in lit.vars))


def _rename(rule: NormalRule) -> NormalRule:
    """``rule`` with its variables renamed ``?v0``, ``?v1``... (apart from patterns)."""
    mapping: dict[str, str] = {}

    def walk(t: Term) -> Term:
        if isinstance(t, str):
            if t[:1] == "?":
                if t not in mapping:
                    mapping[t] = f"?v{len(mapping)}"
                return mapping[t]
            return t
        return tuple([walk(x) for x in t])

    head = walk(rule.head)
    body = tuple(
        _renamed(lit, walk, mapping) for lit in rule.body
    )
    return NormalRule(head, body, rule.source, frozenset(mapping[v] for v in rule.head_vars))


@dataclass
class _Head:
    """The unification of a rule's head with a call pattern, as code.

    ``pre`` are lines run before the body (checks on the parameters, variables bound
    from them); ``free`` says how each of the pattern's free variables gets its value;
    ``post`` are checks that need variables only the body binds.
    """

    program: Program
    env: _Env
    pre: list[str] = field(default_factory=list)
    free: dict[str, tuple[str, Any]] = field(default_factory=dict)
    post: list[tuple[str, Any, Any]] = field(default_factory=list)

    def unify(self, h: Term, t: Term) -> bool:
        """Compile the unification of head term ``h`` with template term ``t``; False if
        they can never unify."""
        env = self.env
        if isinstance(t, str) and t[:1] == "?" and t.startswith("?b"):
            self._match_value(h, env.expr[t])
            return True
        if isinstance(t, str) and t.startswith("?f"):
            if t in self.free:
                self.post.append(("eq", self.free[t], ("term", h)))
            else:
                self.free[t] = ("term", h)
            return True
        if isinstance(t, str):  # a constant
            if isinstance(h, str) and h[:1] == "?":
                if h in env.const:
                    return bool(env.const[h] == t)
                if h in env.expr:
                    self.pre.append(f"if {env.expr[h]} != {t!r}: continue")
                else:
                    env.const[h] = t
                    env.expr[h] = repr(t)
                return True
            return h == t
        # t is compound
        if isinstance(h, str) and h[:1] == "?":
            if h in env.expr:
                self._match_template(env.expr[h], t)
            elif not _template_vars(t, "?f", []):  # known in full: build it
                name = self.program._fresh("v")
                self.pre.append(f"{name} = {env.build(t)}")
                env.expr[h] = name
            else:
                self.post.append(("tmatch", h, t))
            return True
        if isinstance(h, str) or len(h) != len(t):
            return False
        return all(self.unify(x, y) for x, y in zip(h, t, strict=True))

    def _match_value(self, h: Term, expr: str) -> None:
        """The runtime value ``expr`` (a parameter or part of one) must match ``h``."""
        env = self.env
        if isinstance(h, str):
            if h[:1] == "?":
                if h in env.expr:
                    self.pre.append(f"if {env.expr[h]} != {expr}: continue")
                elif expr.isidentifier():
                    env.expr[h] = expr
                else:
                    name = self.program._fresh("v")
                    self.pre.append(f"{name} = {expr}")
                    env.expr[h] = name
            else:
                self.pre.append(f"if {expr} != {h!r}: continue")
            return
        self.pre.append(
            f"if not ({expr}.__class__ is tuple and len({expr}) == {len(h)}): continue"
        )
        for j, part in enumerate(h):
            self._match_value(part, f"{expr}[{j}]")

    def _match_template(self, expr: str, t: Term) -> None:
        """The runtime value ``expr`` of a head variable must match the template ``t``."""
        conds: list[str] = []
        values: dict[str, str] = {}
        _runtime_match(t, expr, conds, values)
        for var, value in values.items():
            if var.startswith("?b"):
                conds.append(f"{value} == {self.env.expr[var]}")
            elif var in self.free:
                self.post.append(("eq", self.free[var], ("expr", value)))
            else:
                self.free[var] = ("expr", value)
        if conds:
            self.pre.append(f"if not ({' and '.join(conds)}): continue")

    def needs(self) -> set[str]:
        """The rule variables the answer (and the checks at its end) are made of."""
        out: set[str] = set()
        for kind, value in self.free.values():
            if kind == "term":
                _vars(value, out)
        for kind, a, b in self.post:
            if kind == "eq":
                for side in (a, b):
                    if side[0] == "term":
                        _vars(side[1], out)
            else:
                out.add(a)
        return out

    def finish(self, env: _Env, sink: str) -> list[str]:
        """The lines that deliver one answer, once the body has bound every variable."""
        conds: list[str] = []
        free = dict(self.free)
        for kind, a, b in self.post:
            if kind == "eq":
                conds.append(f"{_side(env, a)} == {_side(env, b)}")
            else:  # "tmatch": a head variable against a template part
                values: dict[str, str] = {}
                _runtime_match(b, env.build(a), conds, values)
                for var, value in values.items():
                    if var.startswith("?b"):
                        conds.append(f"{value} == {env.expr[var]}")
                    elif var in free:
                        conds.append(f"{value} == {_side(env, free[var])}")
                    else:
                        free[var] = ("expr", value)
        frees = sorted(free, key=lambda v: int(v[2:]))
        answer = _key_expr([_side(env, free[v]) for v in frees])
        out = [f"if not ({' and '.join(conds)}): continue"] if conds else []
        if sink == "bool":
            out.append("return True")
        elif sink == "tbool":
            out += ["add(())", "return True"]
        elif sink == "tlist":
            out.append(f"add({answer})")
        else:
            out += [f"a = {answer}", "if a not in seen:", "    seen.add(a)", "    out.append(a)",
                    "    TICK()"]
        return out


def _side(env: _Env, side: tuple[str, Any]) -> str:
    kind, value = side
    return env.build(value) if kind == "term" else str(value)


def compile_program(desc: Description) -> Program:
    """The solvers of ``desc``, compiled as its queries first need them."""
    return Program(desc)

