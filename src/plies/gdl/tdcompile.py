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

The patterns, what the code knows of a rule's variables, and a rule's head unified with
a pattern as code are in :mod:`plies.gdl.tdunify`; this module holds the compiler
(:class:`Program`) that writes and runs the solvers.

Relations on a cycle of the dependency graph are *tabled* (:mod:`plies.gdl.tabling`): a
call that meets itself, or an ancestor still being computed, uses the answers found so
far, and the lowest such call (the leader of the strongly connected set of calls)
repeats its rules until a pass adds no answer anywhere.  Calls evaluated in that last
pass are complete; the others are forgotten.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from plies.budget import UNLIMITED, Meter
from plies.gdl.matching import match
from plies.gdl.normal import (
    GroundingError,
    Literal,
    NormalRule,
    alternatives,
    normalise,
    reaching,
    term_vars,
)
from plies.gdl.strata import strongly_connected
from plies.gdl.tabling import MAX_ANSWERS, Tabling, no_step
from plies.gdl.tdunify import (
    Env,
    Head,
    Pattern,
    instantiate,
    key_expr,
    names_in,
    rename,
    runtime_match,
    template_vars,
)
from plies.gdl.terms import (
    DOES,
    INIT,
    ROLE,
    TRUE,
    Description,
    Pred,
    Rule,
    Term,
    pred_name,
    pred_of,
    to_kif,
)

__all__ = ["MAX_ANSWERS", "Program", "Tabling", "compile_program"]  # with tabling's names

_MAX_NEST: Final = 14
"""Nested loops in one generated function before the rest of a rule body goes into a
continuation function (CPython allows 20 nested blocks)."""

_MAX_CHOICES: Final = 64
"""Rules whose ``or`` s make more choices than this keep them as relations of their own."""

_CHUNK: Final = 2000
"""Lines of generated code compiled at once (Python compiles them in a few tens of
milliseconds)."""

MAX_SPECIALISED: Final = 16
"""Call patterns of one relation that may fix constants a rule's head unification
found (``(p ?b0 0)`` and ``(p ?b0 1)`` are two patterns).  A relation past this many gets
the values as parameters instead (one pattern ``(p ?b0 ?b1)``): without the bound, a
relation whose rules call the next one with each bit appended
(``ruleDepthExponential``) makes 2^depth patterns, and compiling them never ends."""


class Program:
    """The compiled solvers of one description, and the state they read.

    :meth:`query` gives the function of a pattern; :meth:`set_state` and
    :meth:`set_joint` say which state and joint move the ``true`` and ``does`` facts
    come from (and clear what depended on the old ones); :meth:`reset` forgets
    everything (after an exception left half-computed tables).
    """

    def __init__(self, desc: Description, meter: Meter | None = None) -> None:
        self.meter = UNLIMITED.meter("compiling the top-down prover") if meter is None else meter
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
            "TICK": no_step,
            "INST": instantiate,
        }
        self.patterns: dict[tuple[Pred, Term], Pattern] = {}
        self.per_pred: dict[Pred, int] = {}  # patterns made of each relation
        self.pooled: dict[Any, str] = {}  # deep terms of the code, by the name they have
        self.todo: list[Pattern] = []
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
                out += normalise([rule], self.meter)
                continue
            body: list[Term] = []
            for lit in rule.body:
                if not (isinstance(lit, tuple) and lit and lit[0] == "or"):
                    body.append(lit)
                    continue
                pred = f"or~{len(self.or_preds) + 1}"
                found: set[str] = set()
                aux: Term = (pred, *sorted(term_vars(lit, found)))
                self.or_preds.add(pred_of(aux))
                body.append(aux)
                for part in lit[1:]:
                    source = Rule(aux, (part,), rule.line, rule.column)
                    for conjunction in alternatives(part, source):
                        out.append(NormalRule(aux, tuple(conjunction), source,
                                              frozenset(term_vars(aux, set()))))
            out += normalise([Rule(rule.head, tuple(body), rule.line, rule.column)], self.meter)
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
        (a list) or, without free variables, a ``bool``.

        Compiling counts its work on the program's meter (a step per pattern, per
        line of code), which raises :class:`~plies.budget.BudgetExceeded` or
        :class:`~plies.budget.Stopped`; the program is then half compiled and must be
        dropped."""
        found = self.queries.get(atom)
        if found is not None:
            return found
        return self._query(atom)

    def _pool(self, term: Any) -> str:
        """The name of a global that holds ``term`` (a deep term of the code)."""
        name = self.pooled.get(term)
        if name is None:
            name = self.pooled[term] = f"C_{len(self.pooled)}"
            self.ns[name] = term
        return name

    def _query(self, atom: Term) -> Callable[..., Any]:
        env = Env(self._pool)
        params = template_vars(atom, "?b", [])
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

    def _pattern(self, pred: Pred, template: Term) -> Pattern:
        found = self.patterns.get((pred, template))
        if found is not None:
            return found
        self.meter.tick()
        self.per_pred[pred] = self.per_pred.get(pred, 0) + 1
        nparams = len(template_vars(template, "?b", []))
        nfree = len(template_vars(template, "?f", []))
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
        p = Pattern(len(self.patterns), pred, template, nparams, nfree, kind,
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

    def _index_facts(self, p: Pattern) -> None:
        index: dict[Any, list[Any]] = {}
        keys: set[Any] = set()
        params = template_vars(p.template, "?b", [])
        frees = template_vars(p.template, "?f", [])
        facts = self.facts.get(p.pred, ())
        self.meter.tick(len(facts))
        for fact in facts:
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

    def _call(self, atom: Term, env: Env) -> tuple[Pattern, str, list[str], str]:
        """The pattern of ``atom`` at a point where ``env`` is known, the Python
        expression of its answers (or truth), and the free variables it binds, in the
        order of the answer tuples."""
        bmap: dict[str, str] = {}
        fmap: dict[str, str] = {}
        params: list[str] = []
        frees: list[str] = []
        special = self.per_pred.get(pred_of(atom), 0) < MAX_SPECIALISED

        def walk(t: Term) -> Term:
            if isinstance(t, str):
                if t[:1] != "?":
                    return t
                if special and t in env.const:
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
        key = key_expr(params)
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
        meter = self.meter
        while self.todo:
            p = self.todo.pop()
            if p.kind == "true" and not p.boolean:
                made = self._true_solver(p)
            elif p.kind == "does":
                made = self._does_solver(p)
            elif p.kind == "rules":
                made = self._rules_solver(p)
            else:
                made = []
            meter.tick(len(made))
            lines += made
            if len(lines) >= _CHUNK:
                self._run_code(lines)
                lines = []
        self._run_code(lines + extra)

    def _run_code(self, lines: list[str]) -> None:
        """Compile and run ``lines`` (whole functions): at most about :data:`_CHUNK`
        lines, so that a stop waits for one chunk at most (CPython's compiler cannot be
        stopped)."""
        self.meter.look()
        text = "\n".join(lines)
        self._source.append(text)
        exec(compile(text, "<gdl topdown>", "exec"), self.ns)

    # --- solvers for true and does -----------------------------------------------------

    def _true_solver(self, p: Pattern) -> list[str]:
        fluent = p.template[1]
        if isinstance(fluent, str) and fluent[:1] == "?":
            source = "S"
        else:
            group = fluent if isinstance(fluent, str) else (fluent[0], len(fluent) - 1)
            source = f"G.get({group!r}, ())"
        conds: list[str] = []
        values: dict[str, str] = {}
        runtime_match(fluent, "f", conds, values)
        params = template_vars(p.template, "?b", [])
        frees = template_vars(p.template, "?f", [])
        key = key_expr([values[v] for v in params])
        answer = key_expr([values[v] for v in frees])
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

    def _does_solver(self, p: Pattern) -> list[str]:
        conds: list[str] = []
        values: dict[str, str] = {}
        runtime_match(p.template[1], "r", conds, values)
        runtime_match(p.template[2], "m", conds, values)
        params = template_vars(p.template, "?b", [])
        frees = template_vars(p.template, "?f", [])
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
            answer = key_expr([values[v] for v in frees])
            lines += [f"        out.append({answer})", "    return out"]
        return lines

    # --- solvers for derived relations -------------------------------------------------

    def _rules_solver(self, p: Pattern) -> list[str]:
        i = p.id
        params = [f"p{j}" for j in range(p.nparams)]
        args = ", ".join(params)
        key = key_expr(params)
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

    def _rule(self, p: Pattern, rule: NormalRule, sink: str, extra: list[str]) -> list[str]:
        """The code of one rule inside the solver of ``p`` (at indent 1)."""
        renamed = rename(rule)
        env = Env(self._pool)
        for j in range(p.nparams):
            env.expr[f"?b{j}"] = f"p{j}"
        head = Head(self._fresh, env)
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
        p: Pattern,
        body: list[Literal],
        head: Head,
        env: Env,
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
        p: Pattern,
        body: list[Literal],
        head: Head,
        env: Env,
        sink: str,
        lines: list[str],
        indent: int,
        extra: list[str],
    ) -> str:
        """Compile the rest of ``body`` into a function of its own; the call's text.

        For a ``bool`` or ``tbool`` sink the function returns whether it proved the
        head (for ``bool``: at its first proof)."""
        name = self._fresh("k_")
        names = sorted(names_in(env))
        sinks = {"bool": [], "list": ["out", "seen"], "tbool": ["add"], "tlist": ["add"]}[sink]
        args = ", ".join(sinks + names)
        inner = [f"def {name}({args}):", "    for _ in ONE:"]
        sub_env = env.copy()
        self._body(p, list(body), head, sub_env, sink, inner, 2, 1, extra)
        if sink in ("bool", "tbool"):
            inner.append("    return False")
        extra += inner
        return f"{name}({args})"

    def _check(self, lit: Literal, env: Env) -> list[str]:
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


def _value(parts: list[Term]) -> Any:
    """The runtime counterpart of :func:`~plies.gdl.tdunify.key_expr`."""
    if not parts:
        return ()
    if len(parts) == 1:
        return parts[0]
    return tuple(parts)


def compile_program(desc: Description, meter: Meter | None = None) -> Program:
    """The solvers of ``desc``, compiled as its queries first need them; the work is
    counted on ``meter`` (see :meth:`Program.query`)."""
    return Program(desc, meter)

