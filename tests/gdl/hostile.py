"""Generated GDL descriptions that stress the reasoner: join bombs, huge boards, deep terms.

Shared by the tests of bounded GDL work and the fuzz test.
"""

from __future__ import annotations

VARIABLES = tuple(f"?{c}" for c in "abcdefgh")

GAME = "(role p) (init s) (legal p go) (next s) (goal p 100)"
"""A one-role game whose ``terminal`` each bomb defines."""


def join_bomb(head: str = "big", facts: int = 30, arity: int = 8) -> str:
    """The 435-byte bomb: ``facts`` facts ``(n i)`` and ``(<= head (n ?a) ... (n ?h))``,
    a join of ``facts ** arity`` bindings; ``terminal`` depends on the head."""
    body = " ".join(f"(n {v})" for v in VARIABLES[:arity])
    ground = head
    for v in VARIABLES:
        ground = ground.replace(v, "0")
    return "\n".join([
        GAME,
        f"(<= terminal {ground})",
        " ".join(f"(n {i})" for i in range(facts)),
        f"(<= {head} {body})",
    ])


def state_join_bomb(facts: int = 30, arity: int = 8) -> str:
    """The same join over the state: ``(true (n ?a)) ... (true (n ?h))``.  Every binding is
    a ground rule instance of the network, so no shortcut applies: only a budget (or the
    grounding's size caps) ends it."""
    body = " ".join(f"(true (n {v}))" for v in VARIABLES[:arity])
    return "\n".join([
        "(role p) (legal p go) (<= (next (n ?x)) (true (n ?x))) (<= terminal big) (goal p 100)",
        " ".join(f"(init (n {i}))" for i in range(facts)),
        f"(<= big {body})",
    ])


def board_game(n: int) -> str:
    """Two roles take turns marking a blank cell of an ``n`` x ``n`` board; ``3 n^2 + 2``
    fluents ``(cell x y b|white|black)`` and ``(control r)``; it ends when white has
    marked the last corner or the board is full, 50 each."""
    lines = ["(role white) (role black) (init (control white))"]
    lines += [f"(init (cell {x} {y} b))" for x in range(1, n + 1) for y in range(1, n + 1)]
    lines += [
        "(<= (legal ?p (mark ?x ?y)) (true (control ?p)) (true (cell ?x ?y b)))",
        "(<= (legal white noop) (true (control black)))",
        "(<= (legal black noop) (true (control white)))",
        "(<= (next (cell ?x ?y ?p)) (does ?p (mark ?x ?y)))",
        "(<= (next (cell ?x ?y ?c)) (true (cell ?x ?y ?c)) (distinct ?c b))",
        "(<= (next (cell ?x ?y b)) (true (cell ?x ?y b)) (not (marked ?x ?y)))",
        "(<= (marked ?x ?y) (does ?p (mark ?x ?y)))",
        "(<= (next (control white)) (true (control black)))",
        "(<= (next (control black)) (true (control white)))",
        f"(<= terminal (true (cell {n} {n} white)))",
        "(<= terminal (not open))",
        "(<= open (true (cell ?x ?y b)))",
        "(goal white 50) (goal black 50)",
    ]
    return "\n".join(lines)


def nested(depth: int, inner: str = "x") -> str:
    """A term nested ``depth`` deep: ``(f0 (f1 (f2 (f0 ... x))))``."""
    opening = "".join(f"(f{(depth - 1 - i) % 3} " for i in range(depth))
    return opening + inner + ")" * depth
