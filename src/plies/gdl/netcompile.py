"""A propositional network written out as Python functions over integer bit sets.

:func:`compile_network` writes the :class:`~plies.gdl.formula.Network` that
:mod:`plies.gdl.propnet` built as the source of four Python functions (their contract
is in :mod:`plies.gdl.propnet`) and compiles it once with :func:`exec`.

Literals become mask tests on ``s`` and ``d`` (``s & 0b101 == 0b101``, ``not s & m``,
``d & m``), and a test shared by several statements is made once, around all of them
(nested ``if`` s, chosen greedily: for a board game's legal moves, first whose turn it
is, then which cell holds a piece).  The common shapes of ``next`` rules skip the tests
altogether: a fluent that some move *adds*, one that *persists* unless some move is made
(the frame axiom), and one that some move sets when the state matches two masks, become
per-move tables ``ADD[k]``, ``KEEP[k]`` and ``COND[k]``, so a board game's frame axioms
cost one table look-up per role instead of one test per cell.  Views used more than once
are computed once per call into local variables; recursive views (a positive cycle
through the state, such as a path on a board) are computed by a small fixpoint loop.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any, Final

from plies.budget import Meter
from plies.gdl.formula import (
    Formula,
    Network,
    bitset,
    conjuncts,
    current_meter,
    make_and,
    make_or,
    metered,
    view_refs,
)

_INLINE_DEPTH: Final = 24  # beyond this nesting, an inlined view becomes a local variable
_FACTOR_DEPTH: Final = 40  # nested ifs at most (Python allows 100 levels of indentation)

_PART_LINES: Final = 1000
"""Lines of a function's tests compiled as one statement at most: more are split into
helper functions (``legal_0``, ``legal_1``, ...), because Python compiles a statement in
one go, which no stop signal can interrupt (a 120x120 board's ``legal`` took 0.7 s)."""

_TABLE_CHARS: Final = 20_000
"""Tables of ``next`` written out in the source when they take at most this many
characters; larger ones (a megabyte for checkers) are in the namespace: Python compiles
a literal in one go too."""

_LITERAL_BITS: Final = 256
"""Masks narrower than this are written into the generated code as literals; wider ones
are named constants of its namespace (a decimal literal of a mask beyond about 14,000
bits is more than Python will convert, and would bloat the source anyway)."""


def _mask(bits: Iterable[int]) -> int:
    return bitset(bits)


class _Constants:
    """How masks appear in the generated code: narrow ones as decimal literals, wide ones
    (see :data:`_LITERAL_BITS`) as named constants ``M0``, ``M1``, ... of its namespace."""

    def __init__(self) -> None:
        self.names: dict[int, str] = {}

    def __call__(self, m: int) -> str:
        if m.bit_length() < _LITERAL_BITS:
            return str(m)
        name = self.names.get(m)
        if name is None:
            name = self.names[m] = f"M{len(self.names)}"
        return name

    def namespace(self) -> dict[str, Any]:
        return {name: m for m, name in self.names.items()}


class _Writer:
    """Writes the source of one function; decides which views become local variables."""

    def __init__(self, net: Network, outputs: Sequence[Formula], const: _Constants) -> None:
        self.net = net
        self.const = const
        self.meter = current_meter()
        self.lines: list[str] = []
        self.order: list[str] = []  # the actions of guarded(), in the order written
        # The cone of the outputs: every view they (transitively) use.
        cone: set[int] = set()
        todo = [n for f in outputs for n in view_refs(f, [])]
        while todo:
            n = todo.pop()
            if n not in cone:
                cone.add(n)
                todo.extend(view_refs(net.views[n], []))
        self.cone = cone
        uses: Counter[int] = Counter()
        for f in outputs:
            uses.update(view_refs(f, []))
        for n in cone:
            uses.update(view_refs(net.views[n], []))
        # Views used more than once or recursive are locals; others are inlined, unless
        # inlining would nest too deeply.  A view that is one or two mask tests is always
        # inlined: a local would cost as much, and be computed even where not needed.
        self.local: set[int] = {
            n for n in cone if n in net.cyclic or (uses[n] > 1 and not _cheap(net.views[n]))
        }
        depth: dict[int, int] = {}
        for comp in net.order:
            for n in comp:
                if n in cone:
                    d = self._depth(net.views[n], depth)
                    if d > _INLINE_DEPTH:
                        self.local.add(n)
                    depth[n] = 0 if n in self.local else d

    def _depth(self, f: Formula, depth: dict[int, int]) -> int:
        if not isinstance(f, tuple):
            return 0
        if f[0] in ("and", "or"):
            self.meter.tick(len(f[1]))
            return 1 + max(self._depth(p, depth) for p in f[1])
        if f[0] in ("v", "!v"):
            return 1 + depth.get(f[1], 0)
        return 0

    # expressions

    def expr(self, f: Formula) -> str:
        """Python source for ``f`` (truthy when ``f`` holds)."""
        self.meter.tick()  # one line can hold a formula of millions of literals
        if f is True or f is False:
            return str(f)
        tag = f[0]
        if tag == "s":
            return f"s & {self.const(1 << f[1])}"
        if tag == "!s":
            return f"not s & {self.const(1 << f[1])}"
        if tag == "d":
            return f"d & {self.const(1 << f[1])}"
        if tag == "!d":
            return f"not d & {self.const(1 << f[1])}"
        if tag == "v":
            return f"v{f[1]}" if f[1] in self.local else f"({self.expr(self.net.views[f[1]])})"
        if tag == "!v":
            inner = f"v{f[1]}" if f[1] in self.local else f"({self.expr(self.net.views[f[1]])})"
            return f"not {inner}"
        if tag == "and":
            return self._and(f[1])
        return self._or(f[1])

    def _split(
        self, parts: Sequence[Formula], nested: str
    ) -> tuple[dict[str, list[int]], dict[str, list[int]], list[str]]:
        """Plain and negated state/move bits apart from other formulas (``nested`` ones
        in parentheses): what both ``and`` and ``or`` turn into mask tests."""
        self.meter.tick(len(parts))
        pos: dict[str, list[int]] = {"s": [], "d": []}
        neg: dict[str, list[int]] = {"s": [], "d": []}
        other: list[str] = []
        for p in parts:
            tag = p[0]
            if tag in ("s", "d"):
                pos[tag].append(p[1])
            elif tag in ("!s", "!d"):
                neg[tag[1]].append(p[1])
            else:
                text = self.expr(p)
                other.append(f"({text})" if tag == nested else text)
        return pos, neg, other

    def _and(self, parts: Sequence[Formula]) -> str:
        pos, neg, other = self._split(parts, "or")
        out: list[str] = []
        for var in ("s", "d"):
            if pos[var]:
                m = self.const(_mask(pos[var]))
                out.append(f"{var} & {m}" if len(pos[var]) == 1 else f"{var} & {m} == {m}")
            if neg[var]:
                out.append(f"not {var} & {self.const(_mask(neg[var]))}")
        return " and ".join(out + other)

    def _or(self, parts: Sequence[Formula]) -> str:
        pos, neg, other = self._split(parts, "and")
        out: list[str] = []
        for var in ("s", "d"):
            if pos[var]:
                out.append(f"{var} & {self.const(_mask(pos[var]))}")
            if neg[var]:
                m = self.const(_mask(neg[var]))
                out.append(f"not {var} & {m}" if len(neg[var]) == 1 else f"{var} & {m} != {m}")
        return " or ".join(out + other)

    # statements

    def emit(self, line: str, indent: int) -> None:
        self.meter.tick()
        self.lines.append("    " * indent + line)

    def prologue(self, indent: int = 1) -> None:
        """Compute the local views, dependencies first (fixpoint loops for cycles)."""
        for comp in self.net.order:
            members = [n for n in comp if n in self.local]
            if not members:
                continue
            if not any(n in self.net.cyclic for n in members):
                for n in members:
                    self.emit(f"v{n} = {self.expr(self.net.views[n])}", indent)
                continue
            self.emit(" = ".join(f"v{n}" for n in members) + " = False", indent)
            self.emit("while True:", indent)
            self.emit("c = False", indent + 1)
            for n in members:
                self.emit(f"if not v{n} and ({self.expr(self.net.views[n])}):", indent + 1)
                self.emit(f"v{n} = c = True", indent + 2)
            self.emit("if not c:", indent + 1)
            self.emit("break", indent + 2)

    def guarded(self, items: list[tuple[tuple[Formula, ...], str]], indent: int) -> None:
        """Emit ``if conds: action`` for each item, sharing tests under nested ifs.

        The conjunct that most items test is tested once, around all of them
        (recursively); what remains is tested item by item.
        """
        while items:
            self.meter.tick(len(items))
            counts: Counter[Formula] = Counter(chain.from_iterable(parts for parts, _ in items))
            best, count = counts.most_common(1)[0] if counts else (None, 0)
            if count < 2 or indent >= _FACTOR_DEPTH:
                for parts, action in items:
                    if parts:
                        self.emit(f"if {self.expr(make_and(parts))}:", indent)
                        self.emit(action, indent + 1)
                        self.order.append(action)
                    else:
                        self.emit(action, indent)
                        self.order.append(action)
                return
            chosen = [(parts, a) for parts, a in items if best in parts]
            items = [(parts, a) for parts, a in items if best not in parts]
            common = [p for p in chosen[0][0] if all(p in parts for parts, _ in chosen)]
            group = [(tuple(p for p in parts if p not in common), a) for parts, a in chosen]
            self.emit(f"if {self.expr(make_and(common))}:", indent)
            self.guarded(group, indent + 1)


def _cheap(f: Formula) -> bool:
    """Whether ``f`` compiles to at most two mask tests (literals on ``s`` and ``d`` only)."""
    if not isinstance(f, tuple):
        return True
    if f[0] in ("and", "or"):
        kinds = {p[0] for p in f[1]}
        return kinds <= {"s", "!s", "d", "!d"} and len(kinds) <= 2
    return f[0] in ("s", "!s", "d", "!d")


def _items(pairs: Iterable[tuple[Formula, str]]) -> list[tuple[tuple[Formula, ...], str]]:
    """(formula, action) pairs as guarded items; an ``or`` of several parts stays whole."""
    out: list[tuple[tuple[Formula, ...], str]] = []
    for f, action in pairs:
        if f is False:
            continue
        out.append((conjuncts(f), action))
    return out


def _pure_does(f: Formula) -> list[int] | None:
    """The move bits of ``f`` if ``f`` is one positive move literal or an ``or`` of them."""
    if isinstance(f, tuple) and f[0] == "d":
        return [f[1]]
    if isinstance(f, tuple) and f[0] == "or" and all(p[0] == "d" for p in f[1]):
        return [p[1] for p in f[1]]
    return None


def generate(net: Network) -> tuple[str, dict[str, Any]]:
    """The Python source of the four functions (see the module docstring), and the
    constants it names (wide masks and per-move tables) for its namespace."""
    roles = range(len(net.moves))
    out: list[str] = []
    const = _Constants()

    w = _Writer(net, [net.terminal], const)
    w.prologue()
    w.emit(f"return True if {w.expr(net.terminal)} else False", 1)
    out += ["def terminal(s):", *w.lines, ""]

    legal_outputs = [f for role in net.legal for _, f in role]
    w = _Writer(net, legal_outputs, const)
    for r in roles:
        w.emit(f"l{r} = []", 1)
    w.prologue()
    items = _items((f, f"l{r}.append({i})") for r in roles for i, f in net.legal[r])
    start = len(w.lines)
    w.guarded(items, 1)
    helpers = _spill(w.lines, start, "legal", ["s", *(f"l{r}" for r in roles)], None)
    for r in roles:
        written = [a for a in w.order if a.startswith(f"l{r}.")]
        if written != [f"l{r}.append({i})" for i, f in net.legal[r] if f is not False]:
            w.emit(f"l{r}.sort()", 1)
    w.emit("return (" + "".join(f"l{r}, " for r in roles) + ")", 1)
    out += [*helpers, "def legal(s):", *w.lines, ""]

    w = _Writer(net, [f for role in net.goals for _, f in role], const)
    for r in roles:
        w.emit(f"g{r} = []", 1)
    w.prologue()
    start = len(w.lines)
    w.guarded(_items((f, f"g{r}.append({v})") for r in roles for v, f in net.goals[r]), 1)
    helpers = _spill(w.lines, start, "goals", ["s", *(f"g{r}" for r in roles)], None)
    w.emit("return (" + "".join(f"g{r}, " for r in roles) + ")", 1)
    out += [*helpers, "def goals(s):", *w.lines, ""]

    tables: dict[str, Any] = {}
    out += _generate_next(net, const, tables)
    return "\n".join(out) + "\n", {**const.namespace(), **tables}


def _state_masks(parts: Iterable[Formula]) -> tuple[int, int] | None:
    """``(positive, negative)`` state masks if every part is a state literal, else None."""
    pos = neg = 0
    for p in parts:
        if p[0] == "s":
            pos |= 1 << p[1]
        elif p[0] == "!s":
            neg |= 1 << p[1]
        else:
            return None
    return pos, neg


def _generate_next(net: Network, const: _Constants, tables: dict[str, Any]) -> list[str]:
    """The source of ``next``: per-move tables where the rules allow, tests elsewhere.

    Each disjunct of a fluent's ``next`` formula is classified: ``True`` (always set),
    ``true(f)`` of the fluent itself (copied), a disjunction of moves (``ADD[k]``), the
    fluent itself and a disjunction of moves (``KEEP[k]``, the frame axiom), state
    literals and a disjunction of moves (``COND[k]``: set when the state masks match);
    anything else becomes a test.
    """
    always = copy = 0
    n_moves = sum(len(m) for m in net.moves)
    add = [0] * n_moves
    keep = [0] * n_moves
    cond: list[dict[tuple[int, int], int]] = [{} for _ in range(n_moves)]
    when: dict[Formula, int] = {}  # formula -> bits set when it holds
    when_kept: dict[Formula, int] = {}  # formula -> bits kept (if set in s) when it holds
    for j, f in net.next:
        bit = 1 << j
        if f is False:
            continue
        if f is True:
            always |= bit
            continue
        rest: list[Formula] = []
        for part in f[1] if f[0] == "or" else (f,):
            if part == ("s", j):
                copy |= bit
                continue
            ks = _pure_does(part)
            if ks is not None:
                for k in ks:
                    add[k] |= bit
                continue
            parts = conjuncts(part)
            moves = [p for p in parts if _pure_does(p) is not None]
            if len(moves) == 1:
                ks = _pure_does(moves[0])
                assert ks is not None
                others = [p for p in parts if p is not moves[0]]
                if others == [("s", j)]:
                    for k in ks:
                        keep[k] |= bit
                    continue
                masks = _state_masks(others)
                if masks is not None:
                    for k in ks:
                        cond[k][masks] = cond[k].get(masks, 0) | bit
                    continue
            rest.append(part)
        if not rest:
            continue
        g = make_or(rest)
        parts = conjuncts(g)
        if ("s", j) in parts:
            kept = make_and(p for p in parts if p != ("s", j))
            when_kept[kept] = when_kept.get(kept, 0) | bit
        else:
            when[g] = when.get(g, 0) | bit

    generic = list(when) + list(when_kept)
    w = _Writer(net, generic, const)
    w.prologue()
    if copy:
        kept = f"s & {const(copy)}"
        w.emit(f"n = {const(always)} | {kept}" if always else f"n = {kept}", 1)
    else:
        w.emit(f"n = {const(always)}", 1)
    conds = [tuple((p, q, b) for (p, q), b in c.items()) for c in cond]
    updates = []
    if any(add):
        updates.append("ADD[k]")
    if any(keep):
        updates.append("s & KEEP[k]")
    if updates or any(conds):
        w.emit("for k in ks:", 1)
        if updates:
            w.emit("n |= " + " | ".join(updates), 2)
        if any(conds):
            w.emit("for p, q, b in COND[k]:", 2)
            w.emit("if s & p == p and not s & q:", 3)
            w.emit("n |= b", 4)
    items = _items((f, f"n |= {const(bits)}") for f, bits in when.items())
    items += _items((f, f"n |= s & {const(bits)}") for f, bits in when_kept.items())
    start = len(w.lines)
    w.guarded(items, 1)
    helpers = _spill(w.lines, start, "next", ["s", "d", "n"], "n")
    w.emit("return n", 1)
    widest = max([*add, *keep, *(b for c in conds for p, q, b in c), 0]).bit_length()
    head = []  # small tables are written out, for people to read
    if widest < _LITERAL_BITS:
        head = [f"ADD = {tuple(add)!r}", f"KEEP = {tuple(keep)!r}", f"COND = {tuple(conds)!r}"]
    if not head or sum(map(len, head)) > _TABLE_CHARS:
        tables.update(ADD=tuple(add), KEEP=tuple(keep), COND=tuple(conds))
        head = [f"# ADD, KEEP, COND: per-move tables of {n_moves} masks, in the namespace"]
    return [*head, "", *helpers, "def next(s, d, ks):", *w.lines, ""]


def _spill(
    lines: list[str], start: int, name: str, params: list[str], result: str | None
) -> list[str]:
    """Move the statements ``lines[start:]`` of a function into helper functions of at
    most about :data:`_PART_LINES` lines each, called in their place; the helpers' source.

    The statements read ``params`` (mutating lists in place) and the function's local
    views (``v12``), which each helper takes as arguments; ``result`` names the one
    variable they assign (``n |= ...``), which each helper returns.  An ``if`` block
    longer than a part keeps its test, and its body is split in the same way.
    """
    body = lines[start:]
    if len(body) <= _PART_LINES:
        return []
    helpers: list[str] = []

    def helper(part: list[str], level: int) -> str:
        """The call, at ``level``, of a new helper holding ``part`` (at ``level``)."""
        fn = f"{name}_{sum(1 for h in helpers if h.startswith('def '))}"
        views = sorted(set(re.findall(r"\bv\d+\b", "\n".join(part))), key=lambda v: int(v[1:]))
        args = ", ".join([*params, *views])
        cut = 4 * (level - 1)
        helpers.extend([f"def {fn}({args}):", *(line[cut:] for line in part)])
        if result is None:
            helpers.append("")
            return f"{'    ' * level}{fn}({args})"
        helpers.extend([f"    return {result}", ""])
        return f"{'    ' * level}{result} = {fn}({args})"

    def split(block: list[str], level: int) -> list[str]:
        statements: list[list[str]] = []
        for line in block:
            if line[4 * level : 4 * level + 1] != " " or not statements:
                statements.append([line])
            else:
                statements[-1].append(line)
        out: list[str] = []
        part: list[str] = []
        for statement in statements:
            if len(statement) > _PART_LINES and statement[0].lstrip().startswith("if "):
                if part:
                    out.append(helper(part, level))
                    part = []
                out.append(statement[0])
                out += split(statement[1:], level + 1)
                continue
            if part and len(part) + len(statement) > _PART_LINES:
                out.append(helper(part, level))
                part = []
            part += statement
        if part:
            out.append(helper(part, level))
        return out

    lines[start:] = split(body, 1)
    return helpers



@dataclass(frozen=True)
class Compiled:
    """The compiled functions of a network (see the module docstring) and their source."""

    terminal: Callable[[int], bool]
    legal: Callable[[int], tuple[list[int], ...]]
    goals: Callable[[int], tuple[list[int], ...]]
    next: Callable[[int, int, Sequence[int]], int]
    source: str


def compile_network(net: Network, meter: Meter | None = None) -> Compiled:
    """Generate and compile the network's functions, counting the work on ``meter``
    (a step per line of code).

    Raises:
        plies.budget.BudgetExceeded: the meter's budget ran out.
    """
    with metered(meter, "compiling the propositional network"):
        source, namespace = generate(net)
        # Python's compiler cannot be interrupted (the lines were paid for as they were
        # written): the top-level statements are compiled one by one, and a stop that
        # comes meanwhile is honoured between two of them.
        for statement in re.split(r"\n(?=\S)", source):
            current_meter().look()
            exec(compile(statement, "<gdl propnet>", "exec"), namespace)
    return Compiled(
        terminal=namespace["terminal"],
        legal=namespace["legal"],
        goals=namespace["goals"],
        next=namespace["next"],
        source=source,
    )
