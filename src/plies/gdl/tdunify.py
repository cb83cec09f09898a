"""Call patterns, and a rule's head unified with one as code: the top-down compiler's parts.

:mod:`plies.gdl.tdcompile` writes one Python solver per call pattern (see its docstring
for what a pattern is).  This module holds what it writes them from: the
:class:`Pattern` itself and the template helpers that read its parameters (``?b0``,
``?b1``, ...) and free variables (``?f0``, ...); :class:`Env`, what the generated code
knows of a rule's variables at a point of its body (a Python expression of each bound
one, or its value when known at compile time); :func:`rename`, which renames a rule's
variables apart from a pattern's; and :class:`Head`, the unification of a rule's head
with a pattern compiled into checks before the body, the source of each answer value,
and checks left for after the body.  :func:`runtime_match` is the one piece of code
generation they share: the test that a runtime value matches a template.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from plies.gdl.normal import Literal, NormalRule, term_vars
from plies.gdl.terms import Pred, Term


@dataclass
class Pattern:
    """A call pattern (see :mod:`plies.gdl.tdcompile`) and how its solver answers it.

    ``template`` is the atom with ``?b`` parameters and ``?f`` free variables; ``kind``
    says where answers come from: the state (``"true"``), the joint move (``"does"``),
    facts only, no rule at all (``"none"``) or rules; ``tabled`` patterns are recursive
    (:mod:`plies.gdl.tabling`); ``level`` says when their memo table is cleared.
    """

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


def template_vars(t: Term, prefix: str, out: list[str]) -> list[str]:
    """``out`` with the variables of ``t`` that start with ``prefix`` appended, in order
    of first occurrence (``"?b"``: the parameters, ``"?f"``: the free variables)."""
    if isinstance(t, str):
        if t.startswith(prefix) and t not in out:
            out.append(t)
    else:
        for x in t:
            template_vars(x, prefix, out)
    return out


def key_expr(params: list[str]) -> str:
    """The Python expression of a memo key or answer made of ``params``: ``()`` for none,
    the one value alone, else a tuple."""
    if not params:
        return "()"
    if len(params) == 1:
        return params[0]
    return "(" + ", ".join(params) + ",)"


MAX_LITERAL_DEPTH: Final = 32
"""The deepest term written out as a nested tuple display in generated code.  CPython's
parser runs out of its stack (a ``MemoryError``) at about 200 nested displays; a deeper
term is a named constant of the program (see :meth:`Env.build`)."""


class Env:
    """What a rule's compiled code knows of its variables at a point of the body.

    ``pool`` names a term for the generated code (a global of the program that holds it):
    a term deeper than :data:`MAX_LITERAL_DEPTH` is never written out (see :meth:`build`).
    """

    def __init__(self, pool: Callable[[Any], str] | None = None) -> None:
        self.expr: dict[str, str] = {}  # variable -> a Python expression of its value
        self.const: dict[str, Term] = {}  # variable -> its value, known when compiling
        self.pool = pool

    def copy(self) -> Env:
        env = Env(self.pool)
        env.expr = dict(self.expr)
        env.const = dict(self.const)
        return env

    def bound(self, var: str) -> bool:
        return var in self.expr

    def build(self, t: Term) -> str:
        """A Python expression of the ground term ``t`` (every variable bound).

        A term nested deeper than :data:`MAX_LITERAL_DEPTH` is a named constant when it
        has no variable, else ``INST(template, values)`` (:func:`instantiate`), whose
        template is one: the text of the code stays shallow however deep the term."""
        if self.pool is not None and not isinstance(t, str) and depth(t) > MAX_LITERAL_DEPTH:
            order: list[str] = []
            template = _placeholders(t, order)
            if not order:
                return self.pool(t)
            values = "".join(self.expr[v] + ", " for v in order)
            return f"INST({self.pool(template)}, ({values}))"
        return self._build(t)

    def _build(self, t: Term) -> str:
        if isinstance(t, str):
            if t[:1] == "?":
                return self.expr[t]
            return repr(t)
        return "(" + "".join(self._build(x) + ", " for x in t) + ")"


def depth(t: Term) -> int:
    """How deep ``t`` is nested: 0 for a constant or variable, 1 for ``(f a)``."""
    if isinstance(t, str):
        return 0
    deepest = 0
    stack: list[tuple[Term, int]] = [(t, 1)]
    while stack:
        u, d = stack.pop()
        deepest = max(deepest, d)
        stack += [(x, d + 1) for x in u if not isinstance(x, str)]
    return deepest


def _placeholders(t: Term, order: list[str]) -> Any:
    """``t`` with each variable replaced by its number in ``order`` (first occurrence)."""
    if isinstance(t, str):
        if t[:1] != "?":
            return t
        if t not in order:
            order.append(t)
        return order.index(t)
    return tuple([_placeholders(x, order) for x in t])


def instantiate(template: Any, values: tuple[Any, ...]) -> Any:
    """The term ``template`` (from :meth:`Env.build`) with each number ``i`` in it replaced
    by ``values[i]``: the runtime side of a deep term with variables."""
    if isinstance(template, int):
        return values[template]
    if isinstance(template, str):
        return template
    return tuple([instantiate(x, values) for x in template])


def names_in(env: Env) -> set[str]:
    """The Python locals that ``env``'s expressions use (``p0``, ``v12``)."""
    out: set[str] = set()
    for expr in env.expr.values():
        if expr.isidentifier():
            out.add(expr)
    return out



def runtime_match(t: Term, expr: str, conds: list[str], values: dict[str, str]) -> None:
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
        runtime_match(part, f"{expr}[{j}]", conds, values)


def _renamed(lit: Literal, walk: Callable[[Term], Term], mapping: dict[str, str]) -> Literal:
    args = tuple(walk(a) for a in lit.args)
    return Literal(lit.kind, args, lit.pred, frozenset(mapping[v] for v in lit.vars))


def rename(rule: NormalRule) -> NormalRule:
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
class Head:
    """The unification of a rule's head with a call pattern, as code.

    ``pre`` are lines run before the body (checks on the parameters, variables bound
    from them); ``free`` says how each of the pattern's free variables gets its value;
    ``post`` are checks that need variables only the body binds.
    """

    fresh: Callable[[str], str]  # a new Python name from a stem
    env: Env
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
            elif not template_vars(t, "?f", []):  # known in full: build it
                name = self.fresh("v")
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
                    name = self.fresh("v")
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
        runtime_match(t, expr, conds, values)
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
                term_vars(value, out)
        for kind, a, b in self.post:
            if kind == "eq":
                for side in (a, b):
                    if side[0] == "term":
                        term_vars(side[1], out)
            else:
                out.add(a)
        return out

    def finish(self, env: Env, sink: str) -> list[str]:
        """The lines that deliver one answer, once the body has bound every variable."""
        conds: list[str] = []
        free = dict(self.free)
        for kind, a, b in self.post:
            if kind == "eq":
                conds.append(f"{_side(env, a)} == {_side(env, b)}")
            else:  # "tmatch": a head variable against a template part
                values: dict[str, str] = {}
                runtime_match(b, env.build(a), conds, values)
                for var, value in values.items():
                    if var.startswith("?b"):
                        conds.append(f"{value} == {env.expr[var]}")
                    elif var in free:
                        conds.append(f"{value} == {_side(env, free[var])}")
                    else:
                        free[var] = ("expr", value)
        frees = sorted(free, key=lambda v: int(v[2:]))
        answer = key_expr([_side(env, free[v]) for v in frees])
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


def _side(env: Env, side: tuple[str, Any]) -> str:
    kind, value = side
    return env.build(value) if kind == "term" else str(value)
