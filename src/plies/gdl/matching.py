"""Terms under a binding: substitution, one-way matching, and their compiled forms.

A *binding* maps variables (``"?x"``) to ground terms.  :func:`subst` and :func:`match`
are the plain recursive definitions; :func:`builder` and :func:`matcher` compile the
same operations for one term into a Python function, cached by term, which is what the
joins of grounding (:mod:`plies.gdl.bottomup`) run in their innermost loop.  Terms
nested deeper than the Python compiler allows fall back to the plain definitions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from plies.gdl.terms import Term

Binding = dict[str, Term]


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
        if term_depth(t) > _COMPILE_DEPTH:
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
    if term_depth(pattern) > _COMPILE_DEPTH:
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


def term_depth(t: Term) -> int:
    """How deep ``t`` nests: 0 for a symbol, 1 for ``(f a)``, ..."""
    return 0 if isinstance(t, str) else 1 + max(map(term_depth, t), default=-1)
