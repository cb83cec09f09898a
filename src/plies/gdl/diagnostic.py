"""A problem found in a GDL description, and the walks over rules that the checks share.

:class:`Diagnostic` is what :func:`plies.gdl.validator.validate` returns, one per
problem; :func:`diagnostic` makes one for a rule.  The walks read parsed rules as the
checks of :mod:`plies.gdl.rulecheck` and :mod:`plies.gdl.graphcheck` see them: the name
of a sentence or term, the relational atoms of a body (each with whether it is under
``not``), the literals nested in ``not`` and ``or``, the arguments and subterms of a term.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from plies.gdl.terms import Rule, Term

Level = Literal["error", "warning"]


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in a description.

    ``check`` names the restriction (``"safety"``, ``"stratification"``, ...; see
    :mod:`plies.gdl.validator`); ``sentence`` is the offending rule in KIF, and
    ``line``/``column`` its 1-based position, or 0 and ``""`` for a problem of the whole
    description.
    """

    level: Level
    check: str
    message: str
    line: int
    column: int
    sentence: str

    def __str__(self) -> str:
        where = f"{self.line}:{self.column}: " if self.line else ""
        shown = f": {self.sentence}" if self.sentence else ""
        return f"{where}{self.level} [{self.check}]: {self.message}{shown}"


def diagnostic(level: Level, check: str, message: str, rule: Rule | None) -> Diagnostic:
    """A :class:`Diagnostic` about ``rule`` (None: about the whole description)."""
    if rule is None:
        return Diagnostic(level, check, message, 0, 0, "")
    return Diagnostic(level, check, message, rule.line, rule.column, str(rule))


# --- walking terms and literals -----------------------------------------------------------


def name_of(t: Term) -> str | None:
    """The relation/function name of ``t``, or None for a variable or a nameless tuple."""
    name = t if isinstance(t, str) else (t[0] if t else None)
    if isinstance(name, str) and not name.startswith("?"):
        return name
    return None


def atoms_in(literal: Term, negative: bool = False) -> Iterator[tuple[Term, bool]]:
    """The relational atoms inside a body literal, each with whether it is under ``not``."""
    name = name_of(literal)
    if name == "not":
        for inner in literal[1:]:
            yield from atoms_in(inner, True)
    elif name == "or":
        for inner in literal[1:]:
            yield from atoms_in(inner, negative)
    elif name != "distinct":
        yield literal, negative


def body_atoms(rule: Rule) -> Iterator[tuple[Term, bool]]:
    """The relational atoms of ``rule``'s body, each with whether it is under ``not``."""
    for literal in rule.body:
        yield from atoms_in(literal)


def nested_literals(literal: Term) -> Iterator[Term]:
    """``literal`` and every literal nested in it through ``not`` and ``or``."""
    yield literal
    if name_of(literal) in ("not", "or"):
        for inner in literal[1:]:
            yield from nested_literals(inner)


def arguments_of(t: Term) -> tuple[Term, ...]:
    """The arguments of ``t`` (none for a constant or a variable)."""
    return () if isinstance(t, str) else tuple(t[1:])


def subterms(t: Term) -> Iterator[Term]:
    """Every argument of ``t`` and, recursively, of its compound arguments."""
    for arg in arguments_of(t):
        yield arg
        if isinstance(arg, tuple):
            yield from subterms(arg)
