"""GDL terms as plain Python values, and the KIF printer.

The representation is deliberately bare, so that a reasoner can hash, compare and
unify terms at the speed of built-in types:

* a **constant** is a ``str`` that does not start with ``"?"``, spelled as in the source
  (GDL keywords such as ``role`` or ``true`` are normalised to lower case by the parser,
  every other symbol keeps its case);
* a **variable** is a ``str`` that starts with ``"?"``, e.g. ``"?x"``;
* a **compound** term or atom with arguments is a tuple ``(functor, *args)``, e.g.
  ``("cell", "1", "1", "b")`` or ``("true", ("control", "xplayer"))``;
* a 0-ary relation such as ``terminal`` is the bare ``str``.  ``(open2)`` written with
  parentheses and no arguments is the 1-tuple ``("open2",)``: ggp-base treats it as a
  different sentence from ``open2``, and so does plies;
* body literals are atoms, ``("not", atom)``, ``("or", lit, ...)`` and
  ``("distinct", t1, t2)``.

An atom belongs to a relation, identified by its name and arity (:data:`Pred`,
:func:`pred_of`).

>>> term = ("cell", "1", "?y", ("mark", "x"))
>>> to_kif(term), functor(term), arity(term), sorted(variables(term)), is_ground(term)
('(cell 1 ?y (mark x))', 'cell', 3, ['?y'], False)
>>> rule = Rule(("legal", "?r", "noop"), (("role", "?r"), ("not", ("true", ("control", "?r")))))
>>> print(rule)
(<= (legal ?r noop) (role ?r) (not (true (control ?r))))
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeAlias

Term: TypeAlias = str | tuple[Any, ...]
"""A constant, a variable (``"?x"``) or a compound ``(functor, *args)``."""

KEYWORDS: frozenset[str] = frozenset(
    {
        "role",
        "init",
        "true",
        "next",
        "legal",
        "does",
        "goal",
        "terminal",
        "distinct",
        "not",
        "or",
        "base",
        "input",
    }
)
"""The GDL keywords; case-insensitive in the source, always lower case in a :data:`Term`."""

RULE_ARROW = "<="


def is_variable(t: object) -> bool:
    """Whether ``t`` is a variable (a ``str`` starting with ``"?"``)."""
    return isinstance(t, str) and t.startswith("?")


def is_constant(t: object) -> bool:
    """Whether ``t`` is a constant (a ``str`` not starting with ``"?"``)."""
    return isinstance(t, str) and not t.startswith("?")


def variables(t: Term) -> set[str]:
    """The set of variables occurring anywhere in ``t`` (a term, atom or literal)."""
    found: set[str] = set()
    _collect_variables(t, found)
    return found


def _collect_variables(t: Term, found: set[str]) -> None:
    if isinstance(t, str):
        if t.startswith("?"):
            found.add(t)
        return
    for part in t:
        _collect_variables(part, found)


def iter_variables(t: Term) -> Iterator[str]:
    """The variables of ``t`` in left-to-right order of occurrence, with repeats."""
    if isinstance(t, str):
        if t.startswith("?"):
            yield t
        return
    for part in t:
        yield from iter_variables(part)


def is_ground(t: Term) -> bool:
    """Whether ``t`` contains no variable."""
    if isinstance(t, str):
        return not t.startswith("?")
    return all(is_ground(part) for part in t)


def functor(t: Term) -> str:
    """The name of a relation or function: ``t`` itself for a constant, else ``t[0]``.

    Raises :class:`ValueError` for a variable or a tuple whose head is not a constant,
    which have no name.
    """
    name = t if isinstance(t, str) else (t[0] if t else None)
    if not isinstance(name, str) or name.startswith("?"):
        raise ValueError(f"{to_kif(t) if t else '()'} has no relation or function name")
    return name


def arity(t: Term) -> int:
    """The number of arguments: 0 for a constant, ``len(t) - 1`` for a compound."""
    return 0 if isinstance(t, str) else len(t) - 1


def args(t: Term) -> tuple[Any, ...]:
    """The arguments of ``t`` (empty for a constant)."""
    return () if isinstance(t, str) else t[1:]


Pred: TypeAlias = str | tuple[str, int]
"""A relation's identity: the bare name of a 0-ary atom, else ``(name, arity)``."""


def pred_of(atom: Term) -> Pred:
    """The relation an atom belongs to: ``"terminal"``, ``("cell", 3)``, ``("open2", 0)``."""
    return atom if isinstance(atom, str) else (atom[0], len(atom) - 1)


def pred_name(pred: Pred) -> str:
    """A relation as people write it: ``terminal``, ``cell/3``."""
    return pred if isinstance(pred, str) else f"{pred[0]}/{pred[1]}"


def to_kif(t: Term | Rule) -> str:
    """``t`` printed in KIF prefix syntax: ``(cell 1 1 b)``, ``noop``, ``?x``.

    A :class:`Rule` is printed with :func:`rule_to_kif`.  The parser reads the output back
    to an equal term (for any term whose constants are valid KIF symbols).
    """
    if isinstance(t, Rule):
        return rule_to_kif(t)
    if isinstance(t, str):
        return t
    return "(" + " ".join([to_kif(part) for part in t]) + ")"


def rule_to_kif(rule: Rule) -> str:
    """A rule as ``(<= head body...)``, a fact as its head alone."""
    if not rule.body:
        return to_kif(rule.head)
    return "(<= " + " ".join([to_kif(part) for part in (rule.head, *rule.body)]) + ")"


@dataclass(frozen=True)
class Rule:
    """A rule ``head <= body_1, ..., body_n``; a fact is a rule with an empty body.

    ``line`` and ``column`` (1-based) locate the rule's first token in the source, 0 when
    the rule was not read from text.  ``written_as_rule`` records that the source used
    ``(<= head ...)`` even if the body is empty (the validator warns about ``(<= head)``).
    These three take no part in equality or hashing.
    """

    head: Term
    body: tuple[Term, ...] = ()
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)
    written_as_rule: bool = field(default=False, compare=False, repr=False)

    @property
    def is_fact(self) -> bool:
        """Whether the body is empty."""
        return not self.body

    def __str__(self) -> str:
        return rule_to_kif(self)


@dataclass(frozen=True)
class Description:
    """A parsed GDL game description: its rules in source order.

    ``source`` names where the text came from (a file path, ``"<string>"``).
    """

    rules: tuple[Rule, ...]
    source: str = "<string>"

    @cached_property
    def roles(self) -> tuple[str, ...]:
        """The roles in the order of their ``(role r)`` facts (the order of GGP moves)."""
        return tuple(
            rule.head[1]
            for rule in self.rules
            if not rule.body
            and isinstance(rule.head, tuple)
            and len(rule.head) == 2
            and rule.head[0] == "role"
            and isinstance(rule.head[1], str)
        )

    def __iter__(self) -> Iterator[Rule]:
        return iter(self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def to_kif(self) -> str:
        """The whole description as KIF text, one rule per line (comments are lost)."""
        return "\n".join(rule_to_kif(rule) for rule in self.rules) + "\n"
