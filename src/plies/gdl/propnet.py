"""A propositional network compiled to Python functions over integer bit sets.

After grounding (:mod:`plies.gdl.ground`), every dynamic atom is a proposition: a
*base* proposition per fluent (bit ``i`` of the state integer ``s``), an *input*
proposition per possible move (bit ``k`` of the move integer ``d``), and a *view*
proposition per derived atom, defined by the disjunction of its ground rule bodies.

:func:`build_network` makes the simplified network of a grounding: constants folded,
views that are a literal or a flat ``and``/``or`` of literals inlined (negated by De
Morgan), views with equal formulas merged, and common conjuncts of a disjunction
factored out (``(a and b) or (a and c)`` becomes ``a and (b or c)``; the formulas and
their simplification are in :mod:`plies.gdl.formula`).  :func:`compile_network`
(:mod:`plies.gdl.netcompile`, which says how) then writes it out as the source of four
Python functions, compiled once with :func:`exec`:

- ``terminal(s) -> bool``;
- ``legal(s) -> tuple[list[int], ...]``: per role, indices into its move table;
- ``goals(s) -> tuple[list[int], ...]``: per role, the goal values that hold (``-k``
  for the ``k``-th value that is not an integer from 0 to 100, see :class:`Network`);
- ``next(s, d, ks) -> int``: the successor state, given the joint move as the bit set
  ``d`` and as the tuple ``ks`` of its bit positions.

This module still offers the names of both.
"""

from __future__ import annotations

from plies.budget import Meter
from plies.gdl.formula import (
    Formula,
    Network,
    bitset,
    conjuncts,
    current_meter,
    factor,
    is_flat,
    is_literal,
    make_and,
    make_or,
    metered,
    negate,
    substitute,
    view_refs,
)
from plies.gdl.ground import Grounding, GroundingError, natural_key
from plies.gdl.netcompile import Compiled, compile_network, generate
from plies.gdl.strata import strongly_connected
from plies.gdl.terms import DOES, GOAL, TERMINAL, TRUE, Term, pred_of

__all__ = [  # with the names of the formulas and of the code (see the module docstring)
    "Compiled",
    "Formula",
    "Network",
    "bitset",
    "build_network",
    "compile_network",
    "conjuncts",
    "factor",
    "generate",
    "make_and",
    "make_or",
    "negate",
]


def build_network(g: Grounding, meter: Meter | None = None) -> Network:
    """Turn the ground rules of ``g`` into simplified formulas over state and move bits.

    The work is counted on ``meter`` (one step per ground literal, per disjunct factored).

    Views are evaluated by strongly connected components of ground atoms, so a relation
    that is stratified only once ground (``goal`` in futoshiki) needs nothing special;
    recursive components are positive, because :func:`~plies.gdl.ground.ground` has
    rejected every rule that depends on its own negation.

    Raises:
        GroundingError: a ``legal``, ``goal`` or ``terminal`` that depends on ``does``.
        plies.budget.BudgetExceeded: the meter's budget ran out.
    """
    with metered(meter, "building the propositional network"):
        return _build_network(g)


def _build_network(g: Grounding) -> Network:
    meter = current_meter()
    fluents = tuple(sorted(g.fluents, key=natural_key))
    fbit = {f: i for i, f in enumerate(fluents)}
    dbit: dict[Term, int] = {}
    for role_moves in g.moves:
        for atom in role_moves:
            dbit[atom] = len(dbit)

    bodies: dict[Term, list[tuple[tuple[bool, Term], ...]]] = {}
    for rule in g.rules:
        meter.tick(1 + len(rule.body))
        bodies.setdefault(rule.head, []).append(rule.body)
    atoms = list(bodies)
    view_of = {a: n for n, a in enumerate(atoms)}

    def leaf(positive: bool, atom: Term) -> Formula:
        p = pred_of(atom)
        if p == TRUE:
            i = fbit.get(atom[1])
            lit: Formula = False if i is None else ("s", i)
        elif p == DOES:
            k = dbit.get(atom)
            lit = False if k is None else ("d", k)
        else:
            n = view_of.get(atom)
            lit = False if n is None else ("v", n)
        return lit if positive else negate(lit)

    raw = [make_or(make_and(leaf(pos, a) for pos, a in body) for body in bodies[a]) for a in atoms]
    edges = {n: set(view_refs(f, [])) for n, f in enumerate(raw)}
    order = strongly_connected(range(len(atoms)), edges)
    cyclic = {n for comp in order if len(comp) > 1 for n in comp} | {
        n for n in range(len(atoms)) if n in edges[n]
    }

    # Fold constants, inline views that are literals or flat, and merge views with equal
    # formulas, dependencies first.
    views: list[Formula] = list(raw)
    known: dict[int, Formula] = {}
    first_with: dict[Formula, int] = {}
    for comp in order:
        meter.tick(len(comp))
        for n in comp:
            views[n] = substitute(views[n], known.get)
        if len(comp) == 1 and comp[0] not in cyclic:
            n = comp[0]
            if is_literal(views[n]) or is_flat(views[n]):
                known[n] = views[n]
            elif views[n] in first_with:
                known[n] = ("v", first_with[views[n]])
            else:
                first_with[views[n]] = n

    referenced = {m for f in views for m in view_refs(f, [])}

    def formula(atom: Term) -> Formula:
        """The formula of a query atom: static facts are True, unknown atoms False.

        A view that no other view uses is unwrapped, so that the code for the query
        tests its body directly.
        """
        if atom in g.static.get(pred_of(atom), ()):
            return True
        n = view_of.get(atom)
        if n is None:
            return False
        f = substitute(("v", n), known.get)
        if isinstance(f, tuple) and f[0] == "v" and f[1] not in cyclic | referenced:
            return views[f[1]]
        return f

    roles = g.roles
    legal: list[list[tuple[int, Formula]]] = []
    for r, role_moves in enumerate(g.moves):
        legal.append([(i, formula(("legal", roles[r], m[2]))) for i, m in enumerate(role_moves)])
    goals: list[list[tuple[int, Formula]]] = [[] for _ in roles]
    role_index = {r: i for i, r in enumerate(roles)}
    candidates = set(g.static.get(GOAL, ())) | {a for a in atoms if pred_of(a) == GOAL}
    bad_goals: list[Term] = []
    for atom in sorted(candidates, key=natural_key):
        if atom[1] not in role_index:
            continue
        value = atom[2]
        if (  # the length first: int() of 5,000 digits is a ValueError
            isinstance(value, str) and len(value) <= 3 and value.isascii()
            and value.isdigit() and int(value) <= 100
        ):
            code = int(value)
        else:  # an error only where it holds: the rule may never be reached (ggp-base's way)
            bad_goals.append(value)
            code = -len(bad_goals)
        goals[role_index[atom[1]]].append((code, formula(atom)))
    nxt = [(i, formula(("next", f))) for i, f in enumerate(fluents)]
    net = Network(
        fluents=fluents,
        moves=g.moves,
        init=bitset(fbit[f] for f in g.init),
        atoms=atoms,
        views=views,
        order=order,
        cyclic=cyclic,
        terminal=formula(TERMINAL),
        legal=legal,
        goals=goals,
        next=nxt,
        bad_goals=tuple(bad_goals),
    )
    _check_no_does(net)
    return net


def _check_no_does(net: Network) -> None:
    """``legal``, ``goal`` and ``terminal`` must not depend on ``does`` (GDL's rule)."""
    memo: dict[int, bool] = {}

    def uses(f: Formula) -> bool:
        if not isinstance(f, tuple):
            return False
        tag = f[0]
        if tag in ("d", "!d"):
            return True
        if tag in ("and", "or"):
            return any(uses(p) for p in f[1])
        if tag in ("v", "!v"):
            n = f[1]
            if n not in memo:
                memo[n] = False  # cycles: assume not while looking
                memo[n] = uses(net.views[n])
            return memo[n]
        return False

    queries = [("terminal", net.terminal)]
    queries += [("legal", f) for role in net.legal for _, f in role]
    queries += [("goal", f) for role in net.goals for _, f in role]
    for name, f in queries:
        if uses(f):
            raise GroundingError(f"{name} must not depend on does")
