"""The checks of GDL's restrictions that read one rule, or names across rules.

Each rule alone: its shape (:func:`rule_shape`: keywords where they may be and with their
number of arguments, what ``not`` may wrap, goal values, ``(name)`` with parentheses and
no arguments, nested ``or``) and its safety (:func:`safety`).  Names across the rules:
the roles (:func:`roles`), the keywords every game defines (:func:`missing`), one name
with two arities (:func:`arities`) or two spellings (:func:`capitalization`).  Each
check yields :class:`~plies.gdl.diagnostic.Diagnostic` s; the list of checks, with what
is an error and what a warning, is in :mod:`plies.gdl.validator`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from plies.gdl.diagnostic import (
    Diagnostic,
    arguments_of,
    diagnostic,
    name_of,
    nested_literals,
    subterms,
)
from plies.gdl.terms import Rule, Term, is_ground, iter_variables, to_kif

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


# --- per-rule shape: keywords, negation, goal values, parentheses ------------------------


def rule_shape(rule: Rule) -> Iterator[Diagnostic]:
    """Keywords, negation, goal values, parentheses and nested ``or`` in ``rule``."""
    head_name = name_of(rule.head)
    if head_name in _NEVER_DEFINED:
        yield diagnostic(
            "error",
            "keyword-placement",
            f"{head_name} is never defined by the game: it may appear only in rule bodies",
            rule,
        )
    if rule.written_as_rule and not rule.body:
        yield diagnostic(
            "warning",
            "empty-body",
            f"rule with an empty body: it can be written as the fact {to_kif(rule.head)} instead",
            rule,
        )
    if head_name == "goal" and isinstance(rule.head, tuple) and len(rule.head) == 3:
        value = rule.head[2]
        if is_ground(value) and not _is_goal_value(value):
            shown = to_kif(value)
            shown = shown if len(shown) <= 40 else f"{shown[:20]}... ({len(shown):,} characters)"
            yield diagnostic(
                "warning",
                "goal-value",
                f"the goal value {shown} is not an integer from 0 to 100: asking for the "
                "goal in a state where this rule holds is an error",
                rule,
            )
    literals = [(rule.head, True)] + [
        (literal, False) for top in rule.body for literal in nested_literals(top)
    ]
    for literal, is_head in literals:
        yield from _literal_shape(rule, literal, is_head)
    for literal in rule.body:
        if name_of(literal) == "or":
            for inner in literal[1:]:
                if any(name_of(nested) == "or" for nested in nested_literals(inner)):
                    yield diagnostic(
                        "warning",
                        "nested-or",
                        f"(or ...) nested inside {to_kif(literal)}: some players cannot read "
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
    name = name_of(literal)
    if name is None:
        yield diagnostic("error", "keyword-placement", f"{to_kif(literal)} is not a sentence", rule)
        return
    count = len(literal) - 1 if isinstance(literal, tuple) else 0
    if name == "or":
        if count == 0:
            yield diagnostic("error", "keyword-arity", "(or) needs at least one disjunct", rule)
    elif name in KEYWORD_ARITY:
        expected = KEYWORD_ARITY[name]
        if name == "terminal" and isinstance(literal, tuple):
            yield diagnostic(
                "error",
                "keyword-arity",
                f"{to_kif(literal)}: terminal takes no arguments and is written without "
                "parentheses",
                rule,
            )
        elif count != expected:
            yield diagnostic(
                "error",
                "keyword-arity",
                f"{name} takes {_count(expected, 'argument')}, but {to_kif(literal)} has {count}",
                rule,
            )
    elif isinstance(literal, tuple) and count == 0:
        yield _parentheses_warning(rule, literal, "sentence")
    if name == "not" and count == 1:
        inner = literal[1]
        inner_name = name_of(inner)
        if inner_name in _LITERAL_KEYWORDS:
            yield diagnostic(
                "error",
                "negation",
                f"only a sentence can be negated, but {to_kif(literal)} negates "
                f"a ({inner_name} ...) literal",
                rule,
            )
    if not is_head and name in _HEADS_ONLY:
        yield diagnostic(
            "error",
            "keyword-placement",
            f"{name} may appear only in rule heads, but {to_kif(literal)} is in a body",
            rule,
        )
    if name != "distinct" and name not in ("not", "or"):
        for sub in subterms(literal):
            yield from _term_shape(rule, sub)
    elif name == "distinct":
        for arg in arguments_of(literal):
            yield from _term_shape(rule, arg)
            for sub in subterms(arg):
                yield from _term_shape(rule, sub)


def _term_shape(rule: Rule, term: Term) -> Iterator[Diagnostic]:
    if isinstance(term, str):
        if term in _LITERAL_KEYWORDS:
            yield diagnostic(
                "error",
                "keyword-as-term",
                f"the keyword {term} cannot be used as an object constant",
                rule,
            )
        return
    name = name_of(term)
    if name in KEYWORD_ARITY or name == "or":
        yield diagnostic(
            "error",
            "keyword-as-term",
            f"the keyword {name} cannot be used as a function name, as in {to_kif(term)}",
            rule,
        )
    elif len(term) == 1:
        yield _parentheses_warning(rule, term, "term")


def _parentheses_warning(rule: Rule, t: Term, kind: str) -> Diagnostic:
    return diagnostic(
        "warning",
        "parentheses",
        f"the {kind} {to_kif(t)} has parentheses but no arguments; ggp-base reads it as "
        f"different from {name_of(t)}",
        rule,
    )


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


# --- safety ------------------------------------------------------------------------------


def _bound(literal: Term) -> set[str]:
    """Variables a body literal binds: all of a positive atom's, the intersection of an
    ``or``'s disjuncts, none for ``not`` and ``distinct``."""
    name = name_of(literal)
    if name in ("not", "distinct"):
        return set()
    if name == "or":
        disjuncts = [_bound(inner) for inner in literal[1:]]
        return set.intersection(*disjuncts) if disjuncts else set()
    return set(iter_variables(literal))


def _needs_binding(literal: Term) -> Iterator[tuple[str, Term, str]]:
    """(variable, literal, role) for variables a body literal needs bound elsewhere."""
    name = name_of(literal)
    if name == "not":
        for var in dict.fromkeys(iter_variables(literal)):
            yield var, literal, "the negated literal"
    elif name == "distinct":
        for var in dict.fromkeys(iter_variables(literal)):
            yield var, literal, "the distinct literal"
    elif name == "or":
        for inner in literal[1:]:
            yield from _needs_binding(inner)


def safety(rule: Rule) -> Iterator[Diagnostic]:
    """Every variable of the head, of a negation or of a ``distinct`` is bound by a
    positive relational literal (inside ``or``: by every disjunct)."""
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
        yield diagnostic(
            "error",
            "safety",
            f"a fact must be ground, but {to_kif(rule.head)} contains the variable"
            f"{'s' if len(problems) > 1 else ''} {', '.join(problems)}",
            rule,
        )
        return
    grouped: dict[tuple[str, str], list[str]] = {}
    for var, (where, role) in problems.items():
        grouped.setdefault((role, to_kif(where)), []).append(var)
    parts = [
        f"the variable{'s' if len(names) > 1 else ''} {', '.join(names)} in {role} {where}"
        for (role, where), names in grouped.items()
    ]
    verb = "does" if len(problems) == 1 else "do"
    has_or = any(name_of(literal) == "or" for literal in rule.body)
    hint = " (inside (or ...) a variable counts only if every disjunct binds it)" if has_or else ""
    yield diagnostic(
        "error",
        "safety",
        f"unsafe rule: {'; '.join(parts)} {verb} not occur in a positive relational "
        f"literal of the body{hint}",
        rule,
    )


# --- names across the rules: roles, required keywords, arities, spelling -----------------


def roles(rules: Sequence[Rule]) -> Iterator[Diagnostic]:
    """Roles are distinct ground facts ``(role r)`` with a constant ``r``."""
    seen: set[Term] = set()
    for rule in rules:
        if name_of(rule.head) != "role" or not isinstance(rule.head, tuple) or len(rule.head) != 2:
            continue
        role = rule.head[1]
        if rule.body:
            yield diagnostic(
                "error",
                "role",
                "roles cannot be defined by rules: write each role as a fact (role name)",
                rule,
            )
        elif not isinstance(role, str) or role.startswith("?"):
            yield diagnostic(
                "error", "role", f"a role must be a constant, not {to_kif(role)}", rule
            )
        elif role in seen:
            yield diagnostic("error", "role", f"the role {role} is declared twice", rule)
        seen.add(role)


def missing(rules: Sequence[Rule]) -> Iterator[Diagnostic]:
    """``role``, ``legal``, ``goal`` and ``terminal`` are all defined."""
    defined = {name_of(rule.head) for rule in rules}
    for keyword in _REQUIRED:
        if keyword not in defined:
            yield diagnostic(
                "error",
                "missing-keyword",
                f"the description never defines {keyword}: a game needs role, legal, goal "
                "and terminal",
                None,
            )


def arities(rules: Sequence[Rule]) -> Iterator[Diagnostic]:
    """Warn once per name used with a second arity (relations and functions alike)."""
    first: dict[str, tuple[int, Term]] = {}
    reported: set[str] = set()
    for rule in rules:
        uses: list[Term] = [rule.head]
        for top in rule.body:
            for literal in nested_literals(top):
                if name_of(literal) not in ("not", "or"):
                    uses.append(literal)
        terms = list(uses)
        for use in uses:
            terms.extend(sub for sub in subterms(use) if isinstance(sub, tuple))
        for term in terms:
            name = name_of(term)
            if name is None or name in KEYWORD_ARITY or name in ("or", "<="):
                continue
            count = len(term) - 1 if isinstance(term, tuple) else 0
            if name not in first:
                first[name] = (count, term)
            elif first[name][0] != count and name not in reported:
                reported.add(name)
                yield diagnostic(
                    "warning",
                    "arity",
                    f"{name} is used with {_count(count, 'argument')} in {to_kif(term)} but "
                    f"with {_count(first[name][0], 'argument')} in {to_kif(first[name][1])}",
                    rule,
                )


def capitalization(rules: Sequence[Rule]) -> Iterator[Diagnostic]:
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
            yield diagnostic(
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
