"""The GGP match protocol's messages: reading what a game manager sends, writing replies.

A message is one KIF s-expression (see ``docs/ggp-protocol.md``).  Its keyword is
case-insensitive; everything else (match ids, role names, moves) keeps its spelling,
because a manager may scramble symbols and compares moves case-sensitively.

=========================================  ==================================================
message                                    :class:`Message` fields
=========================================  ==================================================
``(info)``, ``(ping)``, ``INFO``           ``kind="info"`` (any arguments are ignored)
``(preview <rules> <clock>)``              ``kind="preview"``
``(start <id> <role> (<rules>) <sc> <pc>)``  ``kind="start"``, ``match_id``, ``role``,
                                           ``rules``, ``start_clock``, ``play_clock``
``(play <id> nil)`` / ``(play <id> (m…))``   ``kind="play"``, ``match_id``, ``moves``
``(stop <id> nil)`` / ``(stop <id> (m…))``   ``kind="stop"``, ``match_id``, ``moves``
``(abort <id>)``                           ``kind="abort"``, ``match_id``
=========================================  ==================================================

>>> m = parse_message("( PLAY local.17 (( mark 1 1 ) noop ) )")
>>> m.kind, m.match_id, [to_kif(t) for t in m.moves]
('play', 'local.17', ['(mark 1 1)', 'noop'])
>>> parse_message("(play m1 NIL)").moves is None
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from plies.errors import GameFormatError, PliesError
from plies.gdl.parser import parse_terms
from plies.gdl.terms import Term, to_kif

Kind = Literal["info", "preview", "start", "play", "stop", "abort"]

KEYWORDS: dict[str, Kind] = {
    "info": "info",
    "ping": "info",  # the oldest Stanford name of the liveness check
    "preview": "preview",
    "start": "start",
    "play": "play",
    "stop": "stop",
    "abort": "abort",
}

# Replies.  Lower case, as ggp-base's players send them (the manager ignores case here).
READY = "ready"
DONE = "done"
ABORTED = "aborted"
BUSY = "busy"
AVAILABLE = "available"


MAX_CLOCK = 3600.0
"""The longest clock accepted, in seconds (an hour; GGP's clocks are seconds to minutes).
A START with a longer, non-finite, zero or negative clock is answered 400 before any
work."""


class ProtocolError(PliesError):
    """A request that is not a well-formed GGP message (the reply is HTTP 400)."""


@dataclass(frozen=True, slots=True)
class Message:
    """One decoded message from a game manager.

    ``moves`` is the joint move of a PLAY or STOP (one term per role, in the order of
    the ``(role ...)`` facts), or None for ``nil``; a bare symbol other than ``nil``
    is read as a joint move of that one move.  ``rules`` are the sentences of a
    START (or PREVIEW) as terms.  Clocks are in seconds.  ``keyword`` is the message's
    keyword in lower case (``"ping"`` or ``"info"`` for ``kind="info"``).
    """

    kind: Kind
    match_id: str | None = None
    role: str | None = None
    rules: tuple[Term, ...] = ()
    start_clock: float | None = None
    play_clock: float | None = None
    moves: tuple[Term, ...] | None = None
    keyword: str = ""


def parse_message(text: str) -> Message:
    """Decode one GGP message.

    Raises:
        ProtocolError: not exactly one s-expression, an unknown keyword, the wrong number
            of arguments, or an argument of the wrong kind; the message says which.
    """
    try:
        terms = parse_terms(text, source="<message>")
    except GameFormatError as err:
        raise ProtocolError(f"unreadable message: {err}") from None
    if not terms:
        raise ProtocolError("empty message; expected e.g. (info) or (play <id> nil)")
    if len(terms) > 1:
        raise ProtocolError(f"expected one message, got {len(terms)} s-expressions")
    term = terms[0]
    head, args = (term, ()) if isinstance(term, str) else (term[0], term[1:])
    if not isinstance(head, str) or head.lower() not in KEYWORDS:
        shown = to_kif(head) if isinstance(head, str | tuple) else repr(head)
        raise ProtocolError(
            f"unknown message {shown!r}; expected one of: info, ping, preview, start, "
            "play, stop, abort"
        )
    kind = KEYWORDS[head.lower()]
    if kind == "info":
        return Message("info", keyword=head.lower())
    if kind == "preview":
        _arity(kind, args, 2, "(preview <rules> <clock>)")
        clock = _clock(args[1], "preview clock", positive=False)
        return Message("preview", rules=_rules(args[0]), start_clock=clock)
    if kind == "start":
        _arity(kind, args, 5, "(start <id> <role> (<rules>) <startclock> <playclock>)")
        return Message(
            "start",
            match_id=_symbol(args[0], "match id"),
            role=_symbol(args[1], "role"),
            rules=_rules(args[2]),
            start_clock=_clock(args[3], "start clock"),
            play_clock=_clock(args[4], "play clock"),
        )
    if kind == "abort":
        _arity(kind, args, 1, "(abort <id>)")
        return Message("abort", match_id=_symbol(args[0], "match id"))
    if len(args) == 4:
        raise ProtocolError(
            f"({kind} <id> <turn> <move> <percepts>) is GDL-II, which this player does not "
            f"play; expected ({kind} <id> nil) or ({kind} <id> (<move> ...))"
        )
    _arity(kind, args, 2, f"({kind} <id> nil) or ({kind} <id> (<move> ...))")
    return Message(kind, match_id=_symbol(args[0], "match id"), moves=_joint(args[1]))


_SPECIAL = re.compile(rb"[();]")


class MessageScanner:
    """Follows a message's parentheses as its bytes arrive, in linear time.

    Feed it every chunk once (:meth:`feed`); ``complete`` turns True once a whole
    parenthesised s-expression has been seen (``;`` comments ignored), and ``max_depth``
    is the deepest nesting so far.  Each byte is looked at once, however the message is
    cut into chunks: a body without ``Content-Length`` is read until it closes in time
    proportional to its length (re-scanning the whole body after every chunk, as before,
    took time quadratic in the number of chunks).

    >>> scanner = MessageScanner()
    >>> scanner.feed(b"( PLAY m1 ((mark 1 ; a comment )\\n 1) noop")
    >>> scanner.complete, scanner.depth
    (False, 2)
    >>> scanner.feed(b"))")
    >>> scanner.complete, scanner.max_depth, scanner.scanned
    (True, 3, 43)
    """

    __slots__ = ("_in_comment", "_opened", "complete", "depth", "max_depth", "scanned")

    def __init__(self) -> None:
        self.complete = False
        self.depth = 0
        self.max_depth = 0
        self.scanned = 0  # bytes fed so far
        self._in_comment = False
        self._opened = False

    def feed(self, data: bytes) -> None:
        """Scan the next chunk (bytes after the message closed are counted, not scanned)."""
        self.scanned += len(data)
        pos, end = 0, len(data)
        while pos < end and not self.complete:
            if self._in_comment:
                newline = data.find(b"\n", pos)
                if newline < 0:
                    return
                self._in_comment = False
                pos = newline + 1
                continue
            found = _SPECIAL.search(data, pos)
            if found is None:
                return
            pos = found.end()
            byte = data[found.start()]
            if byte == 0x3B:  # ;
                self._in_comment = True
            elif byte == 0x28:  # (
                self.depth += 1
                self._opened = True
                if self.depth > self.max_depth:
                    self.max_depth = self.depth
            else:  # )
                self.depth -= 1
                if self.depth <= 0 and self._opened:
                    self.complete = True


def peek_keyword(text: str) -> str:
    """The message's keyword in lower case, read without parsing the message (the first
    word after an optional opening parenthesis); "" if there is none.

    >>> peek_keyword("( START m1 robot (...) 10 5)"), peek_keyword("info"), peek_keyword("((")
    ('start', 'info', '')
    """
    found = re.match(r"\s*\(?\s*([^\s();]+)", text[:256])
    return found.group(1).lower() if found else ""


def format_reply(term: Term) -> str:
    """The reply text of a move (KIF, spelled exactly as the rules spell it).

    >>> format_reply(("mark", "1", "1")), format_reply("noop")
    ('(mark 1 1)', 'noop')
    """
    return to_kif(term)


def info_reply(name: str, busy: bool) -> str:
    """The INFO reply in ggp-base's form: ``((name plies) (status available))``.

    >>> info_reply("plies", busy=True)
    '((name plies) (status busy))'
    """
    return f"((name {name}) (status {BUSY if busy else AVAILABLE}))"


# --- argument checks -------------------------------------------------------------------


def _arity(kind: str, args: Sequence[Term], n: int, form: str) -> None:
    if len(args) != n:
        raise ProtocolError(f"{kind} takes {n} argument(s), got {len(args)}; expected {form}")


def _symbol(term: Term, what: str) -> str:
    if not isinstance(term, str) or term.startswith("?"):
        raise ProtocolError(f"the {what} must be a symbol, got {to_kif(term)!r}")
    return term


def _is_nil(term: Term) -> bool:
    return isinstance(term, str) and term.lower() == "nil"


def _rules(term: Term) -> tuple[Term, ...]:
    if isinstance(term, str):
        if _is_nil(term):
            return ()
        raise ProtocolError(f"the rules must be a list of sentences, got {term!r}")
    return tuple(term)


def _clock(term: Term, what: str, *, positive: bool = True) -> float:
    """A clock in seconds: a number above 0 (at least 0 for a preview) and at most
    :data:`MAX_CLOCK`; anything else (``NaN``, ``1e300``, ``-1``) is refused here, before
    any work is sized by it."""
    text = term if isinstance(term, str) else ""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    low_ok = value > 0 if positive else value >= 0
    if not (low_ok and value <= MAX_CLOCK):  # NaN fails both comparisons
        shown = to_kif(term)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        low = "above 0" if positive else "at least 0"
        raise ProtocolError(
            f"the {what} must be a number of seconds {low} and at most {MAX_CLOCK:g}, "
            f"got {shown!r}"
        )
    return value


def _joint(term: Term) -> tuple[Term, ...] | None:
    if _is_nil(term):
        return None
    if isinstance(term, str):
        # Not the protocol's form, but refusing it would put the player a step behind
        # the manager: read it as one move (right for a one-role game; otherwise the
        # player sees a joint move of the wrong length and guesses, see plies.ggp.sync).
        return (term,)
    return tuple(term)
