"""Keeping the player's state in step with the game manager's, whatever it sends.

The manager is authoritative: the joint move of a PLAY or STOP is what *was played*
(``shared/docs/ggp_protocol.md`` section 3: a late or illegal reply is replaced by a
random legal move, and the next PLAY carries the move actually applied).  A player that
refuses a joint move, or drops it, plays one step behind for the rest of the match: in a
turn-taking game every later reply is then made for the wrong side.  So:

* A move the rules know (one of the role's moves in :attr:`Reasoner.move_table`) is
  applied as sent through :meth:`Reasoner.next_state`, even if it is not legal in the
  player's view (the manager may know better, or break the rules; either way the step
  happened).  A move spelled in another case (``(MARK 1 1)``, from a manager that ignores
  case) is read as the rules spell it.
* A move the rules do not know at all (``(mark 9 9)``, a variable, a term of the wrong
  shape), or a joint move with the wrong number of moves, cannot be applied.  The step is
  still counted (so the turn order stays right): each such move is replaced by the
  player's best guess of what was played, the move this player answered for its own
  role if it is legal, else the role's first legal move (its only one, ``noop``, in a
  turn-taking game when it is not its turn).  Every such decision is logged as a warning.

:func:`always_legal` finds moves that are legal in every state, which the player can
answer before its reasoner is built.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from plies.gdl.reasoner import Reasoner, State
from plies.gdl.terms import Description, Term, is_ground, is_variable, to_kif

log = logging.getLogger("plies.ggp")


@dataclass(frozen=True, slots=True)
class Applied:
    """The result of :func:`apply_joint`: the successor state, the joint move that led
    there (as the rules spell it, guesses included) and what was wrong with the one sent
    (empty when it was applied exactly)."""

    state: State
    joint: tuple[Term, ...]
    problems: tuple[str, ...] = ()


def canonical_move(reasoner: Reasoner, role: int, move: Term) -> Term | None:
    """``move`` as the rules spell it among every move ``role`` can ever make, comparing
    case-insensitively if there is no exact match; None if the rules do not know it."""
    table = reasoner.move_table[role]
    if move in table:
        return move
    text = to_kif(move).lower()
    for candidate in table:
        if to_kif(candidate).lower() == text:
            return candidate
    return None


def guess_move(
    reasoner: Reasoner, state: State, role: int, mine: int, replied: Term | None
) -> Term:
    """What ``role`` most probably played in ``state`` when the manager's word for it
    cannot be read: our own reply for our role ``mine`` if it is legal, else the role's
    first legal move, else (no legal move at all) the first move it can ever make."""
    legal = reasoner.legal(state, role)
    if role == mine and replied is not None and replied in legal:
        return replied
    if legal:
        return legal[0]
    return reasoner.move_table[role][0]


def apply_joint(
    reasoner: Reasoner,
    state: State,
    sent: Sequence[Term],
    *,
    mine: int,
    replied: Term | None = None,
) -> Applied:
    """Apply the joint move ``sent`` by the manager to ``state`` (see the module
    docstring): known moves as sent, unknown ones replaced by :func:`guess_move`.

    ``mine`` is this player's role number and ``replied`` the move it answered for this
    step (None if it did not answer).  Never raises for anything the manager sends.
    """
    roles = reasoner.roles
    problems: list[str] = []
    if len(sent) != len(roles):
        problems.append(
            f"the joint move ({' '.join(to_kif(m) for m in sent)}) has {len(sent)} move(s) "
            f"for {len(roles)} role(s) ({', '.join(roles)}); every move is guessed"
        )
        joint = tuple(guess_move(reasoner, state, r, mine, replied) for r in range(len(roles)))
        return Applied(reasoner.next_state(state, joint), joint, tuple(problems))
    moves: list[Term] = []
    for r, move in enumerate(sent):
        known = canonical_move(reasoner, r, move)
        if known is None:
            guess = guess_move(reasoner, state, r, mine, replied)
            problems.append(
                f"{roles[r]} played {to_kif(move)}, which the rules do not know; "
                f"taken as {to_kif(guess)}"
            )
            moves.append(guess)
            continue
        if known not in reasoner.legal(state, r):
            problems.append(f"{roles[r]} played {to_kif(known)}, which is not legal here; applied")
        moves.append(known)
    joint = tuple(moves)
    return Applied(reasoner.next_state(state, joint), joint, tuple(problems))


def always_legal(desc: Description, role: str) -> tuple[Term, ...]:
    """Moves of ``role`` that are legal in every state, read off the rules alone: ground
    ``(legal <role> <move>)`` facts and rules whose body only names roles, such as
    ``(<= (legal ?r noop) (role ?r))``.

    Cheap (one pass over the rules, no grounding), so the player can answer one of them
    while its reasoner is still being built.  May be empty: most games' moves depend on
    the state.
    """
    roles = set(desc.roles)
    found: list[Term] = []
    for rule in desc.rules:
        head = rule.head
        if not (isinstance(head, tuple) and len(head) == 3 and head[0] == "legal"):
            continue
        who, move = head[1], head[2]
        if not is_ground(move) or move in found:
            continue
        bound: set[str] = set()
        only_roles = True
        for literal in rule.body:
            if (
                isinstance(literal, tuple) and len(literal) == 2 and literal[0] == "role"
                and isinstance(literal[1], str)
            ):
                if is_variable(literal[1]):
                    bound.add(literal[1])
                elif literal[1] not in roles:
                    only_roles = False  # never true: the rule never fires
            else:
                only_roles = False
        if only_roles and (who == role or (is_variable(who) and who in bound)):
            found.append(move)
    return tuple(found)
