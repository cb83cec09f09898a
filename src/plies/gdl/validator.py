"""The restrictions that make a parsed description valid GDL.

:func:`validate` returns every problem as a :class:`Diagnostic`; :func:`check` raises
:class:`~plies.errors.GdlValidationError` for the first error and returns the warnings.

Errors (the description has no well-defined meaning, or breaks the GDL specification):

* ``safety``: every variable in the head, in a negated literal or in a ``distinct`` must
  occur in a positive relational literal of the same body; inside ``(or ...)`` a
  variable counts only if every disjunct binds it.
* ``stratification``: no rule depends on its own negation: no cycle through a ``not``
  in the graph of rules, where a rule depends on every rule whose head unifies with one
  of its body literals (:mod:`plies.gdl.strata`).  A cycle through negation over
  relation *names* only, such as ``(<= (goal p 100) (not (goal p 0)))``, is a warning:
  the specification forbids it, ggp-base accepts and plays it, and so does plies.
* ``recursion``: the recursion restriction (Definition 15 of the GDL specification):
  in a rule with head ``p(t...)``, every argument of a positive body literal whose
  relation is in a cycle with ``p`` is ground, or one of the ``t``, or an argument of a
  positive body literal whose relation is not in a cycle with ``p``.
* ``keyword-placement``: ``true``, ``does``, ``distinct``, ``not``, ``or`` are never
  defined (never in a head); ``init``, ``next``, ``base``, ``input`` appear only in heads.
* ``keyword-dependency``: ``init``, ``base`` and ``input`` do not depend on ``true`` or
  ``does`` (``init`` also not on ``legal``, ``goal``, ``terminal``); ``legal``, ``goal``
  and ``terminal`` do not depend on ``does``.
* ``keyword-arity``: ``role``, ``init``, ``true``, ``next``, ``base``, ``not`` take one
  argument, ``legal``, ``does``, ``goal``, ``input``, ``distinct`` two, ``terminal`` none,
  ``or`` at least one.
* ``keyword-as-term``: a GDL keyword used as a function name, or ``not``/``or``/
  ``distinct`` as an object constant.
* ``negation``: ``not`` wraps a sentence, never ``distinct``, ``or`` or another ``not``.
* ``role``: roles are distinct ground facts ``(role r)`` with a constant ``r``.
* ``missing-keyword``: ``role``, ``legal``, ``goal`` and ``terminal`` are all defined.

Warnings (legal GDL that often hides a mistake, after griddle's checks):

* ``arity``: one relation or function name used with two numbers of arguments;
* ``empty-body``: a rule ``(<= head)`` with no body (write the fact ``head``);
* ``parentheses``: ``(name)`` with no arguments, which ggp-base reads as a different
  sentence or term from ``name``;
* ``nested-or``: an ``or`` inside an ``or``;
* ``capitalization``: one name written in two cases (``nextRank`` and ``nextrank``), or
  one variable in two cases within a rule: plies reads them as different, as
  ggp-base's prover does, but players that ignore case read one (ggp-base's validator
  rejects the game for it);
* ``goal-value``: a goal value written in a rule head that is not an integer from 0 to
  100: harmless until a state where the rule holds is reached; the reasoners then raise
  :class:`~plies.gdl.reasoner.GoalDefinitionError` when asked for that goal, as ggp-base
  does (a ``stratification`` warning is described above).

>>> from plies.gdl.parser import parse
>>> desc = parse('''(role robot) (legal robot x) (goal robot 100) terminal
... (<= (test ?x) (test2 ?x) (not (test3 ?y)))''')
>>> for diagnostic in validate(desc):
...     print(diagnostic)
2:1: error [safety]: unsafe rule: the variable ?y in the negated literal (not (test3 ?y))
    does not occur in a positive relational literal of the body:
    (<= (test ?x) (test2 ?x) (not (test3 ?y)))
"""

from __future__ import annotations

from plies.errors import GdlValidationError, bounded
from plies.gdl.diagnostic import Diagnostic, Level
from plies.gdl.graphcheck import DependencyGraph, keyword_dependencies, recursion, stratification
from plies.gdl.rulecheck import (
    KEYWORD_ARITY,
    arities,
    capitalization,
    missing,
    roles,
    rule_shape,
    safety,
)
from plies.gdl.terms import Description

__all__ = ["KEYWORD_ARITY", "Diagnostic", "GdlValidationError", "Level", "check", "validate"]


def check(desc: Description) -> list[Diagnostic]:
    """Validate ``desc``: raise for the first error, return the warnings.

    Raises :class:`~plies.errors.GdlValidationError` whose message names the check that
    failed, the offending sentence in KIF and its line (and how many more errors there
    are); its ``diagnostics`` attribute lists them all.
    """
    diagnostics = validate(desc)
    errors = [d for d in diagnostics if d.level == "error"]
    if errors:
        first = errors[0]
        more = f" (and {len(errors) - 1} more errors)" if len(errors) > 1 else ""
        # the message stays one readable line, whatever the rule and the terms it quotes
        shown = f": {bounded(first.sentence, 120)}" if first.sentence else ""
        raise GdlValidationError(
            f"invalid GDL [{first.check}]: {bounded(first.message, 200)}{shown}{more}",
            source=desc.source,
            line=first.line or None,
            column=first.column or None,
            diagnostics=diagnostics,
        )
    return diagnostics


def validate(desc: Description) -> list[Diagnostic]:
    """Every error and warning in ``desc``, in source order (whole-description first)."""
    found: list[Diagnostic] = []
    rules = desc.rules
    for rule in rules:
        found.extend(rule_shape(rule))
        found.extend(safety(rule))
    graph = DependencyGraph(rules)
    found.extend(stratification(rules, graph))
    found.extend(recursion(rules, graph))
    found.extend(keyword_dependencies(rules, graph))
    found.extend(roles(rules))
    found.extend(missing(rules))
    found.extend(arities(rules))
    found.extend(capitalization(rules))
    # dict.fromkeys: one literal repeated in a rule would otherwise repeat its diagnostic.
    return sorted(dict.fromkeys(found), key=lambda d: (d.line, d.column))
