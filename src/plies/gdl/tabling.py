"""Tabling: the fixpoint of recursive calls in the top-down prover's compiled solvers.

Relations on a cycle of the dependency graph are *tabled* (:class:`Tabling`): a call
that meets itself, or an ancestor still being computed, uses the answers found so far,
and the lowest such call (the leader of the strongly connected set of calls) repeats
its rules until a pass adds no answer anywhere.  Calls evaluated in that last pass are
complete; the others are forgotten.

The solvers that :mod:`plies.gdl.tdcompile` generates for a tabled pattern call
:meth:`Tabling.call` with their memo table; an unfinished call is an ``_Entry`` in
that table, a finished one the list of its answers.  A negated call must be complete
(:meth:`Tabling.check_closed`): otherwise the rules are not stratified in this state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from plies.gdl.reasoner import GdlRulesError

MAX_ANSWERS: Final = 2_000_000
"""The most answers one tabled call may have: more means a recursive relation that
builds ever new terms (an infinite relation), which no game needs."""

_INF: Final = 1 << 60


def no_step() -> None:
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
        #: Called once per answer found and per pass (a budget's ``Meter.tick``).
        self.step: Callable[[], None] = no_step
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
                self.step()  # a pass that only finds known answers is work too
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
