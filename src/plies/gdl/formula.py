"""Propositional formulas over state, move and view bits, and the network made of them.

A formula is ``True``, ``False``, a literal (``("s", i)`` / ``("!s", i)`` on state bit
``i``, ``("d", k)`` / ``("!d", k)`` on move bit ``k``, ``("v", n)`` / ``("!v", n)`` on
view ``n``), or ``("and", parts)`` / ``("or", parts)``.  :func:`make_and` and
:func:`make_or` build them simplified (flattened, constants folded, duplicates dropped)
and :func:`factor` takes common conjuncts out of a disjunction; :func:`substitute`
inlines views.  :class:`Network` is what :mod:`plies.gdl.propnet` builds from a
grounding and :mod:`plies.gdl.netcompile` writes out as code.

The work of both is counted on the budget meter of the build under way in this thread
(:func:`metered`, :func:`current_meter`): factoring ticks it deep inside helpers that
would otherwise all need it passed along.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from itertools import chain
from typing import Any, Final, TypeAlias

from plies.budget import UNLIMITED, Meter
from plies.gdl.terms import Term

# A formula is True, False, a literal ("s", i) / ("!s", i) on state bit i, ("d", k) /
# ("!d", k) on move bit k, ("v", n) / ("!v", n) on view n, or ("and", parts) / ("or", parts).
Formula: TypeAlias = Any

_NEGATE: Final = {"s": "!s", "!s": "s", "d": "!d", "!d": "d", "v": "!v", "!v": "v"}

# The meter of the network being built or compiled in this thread (or task): factoring
# and code generation tick it, deep inside helpers that would otherwise all need it.
_METER: ContextVar[Meter | None] = ContextVar("plies_gdl_propnet_meter", default=None)


_NO_METER: Final = UNLIMITED.meter("building a network")  # counts, never looks


def current_meter() -> Meter:
    """The meter of this thread's build (one that never stops when there is none)."""
    return _METER.get() or _NO_METER


@contextmanager
def metered(meter: Meter | None, what: str) -> Iterator[None]:
    """Make ``meter`` this thread's meter while the block runs, doing ``what`` (no
    change without one)."""
    if meter is None:
        yield
        return
    meter.what = what
    meter.look()  # a stop that came between two phases ends the build at once
    token = _METER.set(meter)
    try:
        yield
    finally:
        _METER.reset(token)


def negate(f: Formula) -> Formula:
    """The negation of a literal or constant (views are negated by reference)."""
    if f is True or f is False:
        return not f
    return (_NEGATE[f[0]], f[1])


def conjuncts(f: Formula) -> tuple[Formula, ...]:
    """The parts of a conjunction (a formula that is no ``and`` is its only part)."""
    if f is True:
        return ()
    return f[1] if isinstance(f, tuple) and f[0] == "and" else (f,)


def make_and(parts: Iterable[Formula]) -> Formula:
    """A simplified conjunction: flattened, without duplicates or ``True``, ``False`` wins."""
    out: dict[Formula, None] = {}
    for p in parts:
        if p is True:
            continue
        if p is False:
            return False
        for q in conjuncts(p):
            out[q] = None
    for q in out:
        if q[0] in _NEGATE and (_NEGATE[q[0]], q[1]) in out:
            return False
    if not out:
        return True
    if len(out) == 1:
        return next(iter(out))
    return ("and", tuple(out))


def make_or(parts: Iterable[Formula]) -> Formula:
    """A simplified, factored disjunction.

    Flattened, without duplicates or ``False``; ``True`` wins; then common conjuncts are
    factored out greedily (:func:`factor`).
    """
    out: dict[Formula, None] = {}
    for p in parts:
        if p is False:
            continue
        if p is True:
            return True
        if isinstance(p, tuple) and p[0] == "or":
            for q in p[1]:
                out[q] = None
        else:
            out[p] = None
    if not out:
        return False
    if len(out) == 1:
        return next(iter(out))
    return factor([conjuncts(p) for p in out])


def factor(disjuncts: list[tuple[Formula, ...]]) -> Formula:
    """``or`` over conjunctions, with the most frequent conjunct factored out, recursively.

    ``(a and b) or (a and c) or d`` becomes ``(a and (b or c)) or d``; a disjunct that is
    the factor alone absorbs its group (``a or (a and b)`` is ``a``).
    """
    current_meter().tick(len(disjuncts))
    # One count over all parts at C speed (an update() per disjunct cost half the build of
    # a big game); the order of first occurrence, hence the choice among ties, is the same.
    counts: Counter[Formula] = Counter(chain.from_iterable(disjuncts))
    best, count = counts.most_common(1)[0] if counts else (None, 0)
    if count < 2:
        flat = [make_and(parts) for parts in disjuncts]
        return flat[0] if len(flat) == 1 else ("or", tuple(flat))
    group = [parts for parts in disjuncts if best in parts]
    rest = [parts for parts in disjuncts if best not in parts]
    inner = [tuple(p for p in parts if p != best) for parts in group]
    if any(not parts for parts in inner):
        factored: Formula = best
    else:
        factored = make_and([best, factor(inner)])
    if not rest:
        return factored
    tail = factor(rest)
    items = [factored, *(tail[1] if isinstance(tail, tuple) and tail[0] == "or" else [tail])]
    return ("or", tuple(items))


def view_refs(f: Formula, out: list[int]) -> list[int]:
    """``out`` with the views that ``f`` uses appended (with repeats)."""
    if isinstance(f, tuple):
        if f[0] in ("and", "or"):
            current_meter().tick(len(f[1]))
            for p in f[1]:
                view_refs(p, out)
        elif f[0] in ("v", "!v"):
            out.append(f[1])
    return out


def substitute(f: Formula, value: Callable[[int], Formula | None]) -> Formula:
    """``f`` with every view reference ``n`` for which ``value(n)`` is not None replaced."""
    if not isinstance(f, tuple):
        return f
    tag = f[0]
    if tag in ("and", "or"):
        parts = [substitute(p, value) for p in f[1]]
        return make_and(parts) if tag == "and" else make_or(parts)
    if tag in ("v", "!v"):
        found = value(f[1])
        if found is None:
            return f
        return found if tag == "v" else negation(found, f[1])
    return f


def negation(f: Formula, view: int) -> Formula:
    """The negation of view ``view`` whose formula is ``f`` (De Morgan for flat ones)."""
    if f is True or f is False or f[0] not in ("and", "or"):
        return negate(f)
    if is_flat(f):
        parts = [negate(p) for p in f[1]]
        return make_or(parts) if f[0] == "and" else make_and(parts)
    return ("!v", view)


def is_flat(f: Formula) -> bool:
    """An ``and`` or ``or`` of input literals only: a few mask tests, inlined everywhere."""
    return (
        isinstance(f, tuple)
        and f[0] in ("and", "or")
        and all(p[0] in ("s", "!s", "d", "!d") for p in f[1])
    )


def is_literal(f: Formula) -> bool:
    """A constant or one literal."""
    return f is True or f is False or f[0] in _NEGATE


@dataclass
class Network:
    """The simplified propositional network of a grounding.

    ``views[n]`` is the formula of view ``n`` (named ``atoms[n]``); ``order`` lists the
    views' strongly connected components, each after those it depends on.  ``goals``
    pairs each goal value with its formula; a value that is not an integer from 0 to 100
    is there as ``-k``, and is ``bad_goals[k - 1]`` (a term).
    """

    fluents: tuple[Term, ...]
    moves: tuple[tuple[Term, ...], ...]
    init: int
    atoms: list[Term]
    views: list[Formula]
    order: list[list[int]]
    cyclic: set[int]
    terminal: Formula
    legal: list[list[tuple[int, Formula]]]
    goals: list[list[tuple[int, Formula]]]
    next: list[tuple[int, Formula]]
    bad_goals: tuple[Term, ...] = ()


def bitset(bits: Iterable[int]) -> int:
    """The integer with exactly the given bits set, in time linear in its size (setting
    one bit at a time in an ``int`` copies it each time: quadratic for a big board)."""
    buf = bytearray()
    for b in bits:
        byte = b >> 3
        if byte >= len(buf):
            buf.extend(bytes(byte + 1 - len(buf)))
        buf[byte] |= 1 << (b & 7)
    return int.from_bytes(buf, "little")
