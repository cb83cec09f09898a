"""Keeping the player's state in step with the game manager's, whatever it sends.

The manager is authoritative: the joint move of a PLAY or STOP is what *was played*
(``docs/ggp-protocol.md`` section 3: a late or illegal reply is replaced by a
random legal move, and the next PLAY carries the move actually applied).  A player that
refuses a joint move, or drops it, plays one step behind for the rest of the match: in a
turn-taking game every later reply is then made for the wrong side.  So:

* A move the rules know (one of the role's moves in the propnet's
  :attr:`~plies.gdl.reasoner.Reasoner.move_table`; on a machine without a move table, such
  as the top-down prover, any ground move) is applied as sent through the machine's
  ``next_state``, even if it is not legal in the player's view (the manager may know
  better, or break the rules; either way the step happened).  A move spelled in another
  case (``(MARK 1 1)``, from a manager that ignores case) is read as the rules spell it.
* A move the rules do not know at all (``(mark 9 9)``, a variable, a term of the wrong
  shape), or a joint move with the wrong number of moves, cannot be applied.  The step is
  still counted (so the turn order stays right): each such move is replaced by the
  player's best guess of what was played, the move this player answered for its own
  role if it is legal, else the role's first legal move (its only one, ``noop``, in a
  turn-taking game when it is not its turn).  Every such decision is logged as a warning.

:func:`always_legal` finds moves that are legal in every state, which the player can
answer before any reasoner has answered; :func:`likely_legal` guesses a move from the
legal moves of earlier states when the current state's are not known in time, and
:func:`rule_moves` names the moves the rules mention when nothing else is known.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from plies.gdl.machine import StateMachine
from plies.gdl.terms import Description, Term, is_ground, is_variable, to_kif

log = logging.getLogger("plies.ggp")


@dataclass(frozen=True, slots=True)
class Applied:
    """The result of :func:`apply_joint`: the successor state, the joint move that led
    there (as the rules spell it, guesses included) and what was wrong with the one sent
    (empty when it was applied exactly)."""

    state: Any
    joint: tuple[Term, ...]
    problems: tuple[str, ...] = ()


def move_table(machine: StateMachine[Any], role: int) -> tuple[Term, ...] | None:
    """Every move ``role`` can ever make, if ``machine`` knows them (the propnet's
    ``move_table``); None for a machine that does not enumerate them."""
    table = getattr(machine, "move_table", None)
    return None if table is None else tuple(table[role])


def canonical_move(
    reasoner: StateMachine[Any], role: int, move: Term, state: Any = None
) -> Term | None:
    """``move`` as the rules spell it among every move ``role`` can ever make, comparing
    case-insensitively if there is no exact match; None if the rules do not know it.

    On a machine without a move table the moves legal in ``state`` stand in for the
    table when the move is not ground or is written with capitals; any other ground move
    is taken as known (it is applied as sent)."""
    table = move_table(reasoner, role)
    if table is None:
        if is_ground(move) and to_kif(move) == to_kif(move).lower():
            return move
        table = reasoner.legal(state, role) if state is not None else ()
    if move in table:
        return move
    text = to_kif(move).lower()
    for candidate in table:
        if to_kif(candidate).lower() == text:
            return candidate
    return None


def guess_move(
    reasoner: StateMachine[Any], state: Any, role: int, mine: int, replied: Term | None
) -> Term:
    """What ``role`` most probably played in ``state`` when the manager's word for it
    cannot be read: our own reply for our role ``mine`` if it is legal, else the role's
    first legal move, else (no legal move at all) the first move it can ever make (our
    reply, or ``noop``, on a machine that does not enumerate them)."""
    legal = reasoner.legal(state, role)
    if role == mine and replied is not None and replied in legal:
        return replied
    if legal:
        return legal[0]
    table = move_table(reasoner, role)
    if table:
        return table[0]
    return replied if role == mine and replied is not None else "noop"


def apply_joint(
    reasoner: StateMachine[Any],
    state: Any,
    sent: Sequence[Term],
    *,
    mine: int,
    replied: Term | None = None,
) -> Applied:
    """Apply the joint move ``sent`` by the manager to ``state`` (see the module
    docstring): known moves as sent, unknown ones replaced by :func:`guess_move`.

    ``mine`` is this player's role number and ``replied`` the move it answered for this
    step (None if it did not answer).  Never raises for anything the manager sends.
    A move that is not legal is only reported on a machine with a move table (the
    propnet, where the check is cheap); a slow machine would pay a legal-move query per
    role for a warning.
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
    checked = move_table(reasoner, 0) is not None  # legality is cheap to check: warn
    for r, move in enumerate(sent):
        known = canonical_move(reasoner, r, move, state)
        if known is None:
            guess = guess_move(reasoner, state, r, mine, replied)
            problems.append(
                f"{roles[r]} played {to_kif(move)}, which the rules do not know; "
                f"taken as {to_kif(guess)}"
            )
            moves.append(guess)
            continue
        if checked and known not in reasoner.legal(state, r):
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


def likely_legal(
    history: dict[int, tuple[Term, ...]], joints: Sequence[Sequence[Term]]
) -> Term | None:
    """A guess at a legal move of ours in the current state, the one after ``joints``,
    when its legal moves are not known in time; None without any earlier state's.

    ``history`` maps a step ``i`` to our legal moves in the state after ``i`` joint
    moves.  The guess comes from the latest such state, except in a turn-taking rhythm
    (two consecutive states of which exactly one gave us a single move, such as
    ``noop``): then from the latest state of the same parity as the current one, where
    the same side was to move.  Moves played since that state (a cell just marked, a
    piece just moved) are avoided if another remains.
    """
    now = len(joints)
    known = sorted(i for i in history if i < now)
    if not known:
        return None
    rhythm = any(
        i + 1 in history and (len(history[i]) == 1) != (len(history[i + 1]) == 1)
        for i in known
    )
    same_side = [i for i in known if (now - i) % 2 == 0]
    since = same_side[-1] if rhythm and same_side else known[-1]
    source = history[since]
    if not source:
        return None
    played = {move for joint in joints[since:] for move in joint}
    fresh = [move for move in source if move not in played]
    return (fresh or list(source))[0]


def rule_moves(desc: Description, role: str) -> tuple[Term, ...]:
    """The ground moves ``legal`` rules name for ``role`` (or for any role), whatever
    their conditions: the last resort when no state's legal moves are known at all."""
    found: list[Term] = []
    for rule in desc.rules:
        head = rule.head
        if not (isinstance(head, tuple) and len(head) == 3 and head[0] == "legal"):
            continue
        ours = head[1] == role or is_variable(head[1])
        if ours and is_ground(head[2]) and head[2] not in found:
            found.append(head[2])
    return tuple(found)
