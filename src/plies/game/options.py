"""Typed game options: how a game declares the keywords its factory accepts.

Options arrive from people as text (``--option piles=3,4,5`` on the command line, a form in
the web app), so every option declares an :class:`OptionType` that knows how to read
itself, check a Python value and show it; an :class:`Option` adds its name, default and
the bounds plies accepts.  The built-in types are :data:`INT`, :data:`BOOL`, :data:`INTS`,
:data:`OPTIONAL_INT`, :data:`FLOAT`, :data:`TEXT`, :func:`choice`, and :data:`LITERAL` for
an option whose type is not known (read from a signature without a usable annotation).
A game declares its options with them (:mod:`plies.game.declaration`).

>>> Option("piles", INTS, (3, 4, 5), bounds=(0, 64), count=(1, 8)).describe()
'piles (comma-separated ints 0..64, 1..8 of them, default 3,4,5)'
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from plies.errors import GameFormatError

_TRUE: Final = frozenset({"true", "yes", "on", "1"})
_FALSE: Final = frozenset({"false", "no", "off", "0"})
_NONE: Final = frozenset({"none", "null", ""})


@dataclass(frozen=True, slots=True)
class OptionType:
    """How an option's value is read from text, checked, and shown."""

    name: str  # as shown to people: "int", "bool", ...
    parse: Callable[[str], Any]  # text -> value; raises ValueError
    accepts: Callable[[Any], bool]  # is this Python value of the type?
    show: Callable[[Any], str] = str


def _parse_bool(text: str) -> bool:
    word = text.strip().lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise ValueError(text)


MAX_DIGITS: Final = 30
"""More digits than this is out of range of every option (and ``int()`` of 4,301 or more
raises a ValueError of its own, Python's limit on integer string conversion)."""


class TooLong(ValueError):
    """A number with more than :data:`MAX_DIGITS` digits."""


def _parse_int(text: str) -> int:
    digits = text.strip().lstrip("+-")
    if len(digits) > MAX_DIGITS and digits.isdigit():
        raise TooLong(text)
    return int(text)


def _parse_ints(text: str) -> tuple[int, ...]:
    parts = [part for part in text.replace(" ", ",").split(",") if part]
    if not parts:
        raise ValueError(text)
    return tuple(_parse_int(part) for part in parts)


def _parse_optional_int(text: str) -> int | None:
    return None if text.strip().lower() in _NONE else _parse_int(text)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


INT: Final = OptionType("int", _parse_int, _is_int)
BOOL: Final = OptionType(
    "bool", _parse_bool, lambda v: isinstance(v, bool), lambda v: str(v).lower()
)
INTS: Final = OptionType(
    "comma-separated ints",
    _parse_ints,
    lambda v: isinstance(v, Sequence) and not isinstance(v, str) and all(map(_is_int, v)),
    lambda v: ",".join(map(str, v)),
)
OPTIONAL_INT: Final = OptionType(
    "int or none",
    _parse_optional_int,
    lambda v: v is None or _is_int(v),
    lambda v: "none" if v is None else str(v),
)

FLOAT: Final = OptionType(
    "number", lambda text: float(text.strip()), lambda v: _is_int(v) or isinstance(v, float)
)
TEXT: Final = OptionType("text", str, lambda v: isinstance(v, str))


def _literal(text: str) -> Any:
    """A Python literal if ``text`` is one (``5``, ``3,4``, ``True``, ``'x'``), else the
    text itself."""
    try:
        return ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return text


LITERAL: Final = OptionType("Python literal or text", _literal, lambda v: True, repr)
"""An option of unknown type: a value that reads as a Python literal is one, any other
stays text."""


def choice(*words: str) -> OptionType:
    """An option type whose value is one of ``words`` (read case-insensitively)."""

    def parse(text: str) -> str:
        word = text.strip().lower()
        if word not in words:
            raise ValueError(text)
        return word

    return OptionType(" or ".join(words), parse, lambda v: isinstance(v, str) and v in words)


@dataclass(frozen=True, slots=True)
class Option:
    """One keyword a game's factory accepts.

    ``bounds`` (``low, high``, both included) is the range every number of the value
    must lie in, and ``count`` the range of how many numbers a list option holds: what
    plies accepts from people, so that a request it could never finish (a 100-column
    Connect Four to solve) is refused when its options are read, not after minutes.
    :func:`~plies.games.parse_options` checks them; :func:`~plies.games.load` checks
    options given as text, and lets Python callers pass typed values beyond them (the
    game's constructor still refuses what it cannot play).  ``None`` (an ``OPTIONAL_INT``
    left open) is in range.
    """

    name: str
    type: OptionType
    default: Any
    help: str = ""
    bounds: tuple[int, int] | None = None
    count: tuple[int, int] | None = None

    def describe(self) -> str:
        """``name (type, default d)``, with the range when there is one: ``int 4..16``,
        ``int 1..64 or none``, ``comma-separated ints 0..64, 1..8 of them``."""
        kind = self.type.name
        if self.bounds is not None:
            span = f"{self.bounds[0]}..{self.bounds[1]}"
            kind = f"int {span} or none" if self.type is OPTIONAL_INT else f"{kind} {span}"
        if self.count is not None:
            kind = f"{kind}, {self.count[0]}..{self.count[1]} of them"
        return f"{self.name} ({kind}, default {self.type.show(self.default)})"

    def check(self, value: Any, game: str) -> None:
        """Raise :class:`GameFormatError` unless the typed ``value`` is within the bounds.

        >>> Option("width", INT, 7, bounds=(4, 16)).check(100, "connect4")
        Traceback (most recent call last):
        ...
        plies.errors.GameFormatError: option width=100 is out of range: connect4 accepts width 4..16
        """
        numbers = list(value) if isinstance(value, tuple | list) else [value]
        shown = f"option {self.name}={self.type.show(value)}"
        if self.count is not None and not self.count[0] <= len(numbers) <= self.count[1]:
            raise GameFormatError(
                f"{shown} has {len(numbers)} numbers: {game} accepts {self.accepted_range()}"
            )
        if self.bounds is not None and any(
            _is_int(n) and not self.bounds[0] <= n <= self.bounds[1] for n in numbers
        ):
            raise GameFormatError(
                f"{shown} is out of range: {game} accepts {self.accepted_range()}"
            )

    def accepted_range(self) -> str:
        """The accepted range in words: ``width 4..16``, ``piles as 1..8 numbers of 0..64
        each``; just the name when the option has no bounds."""
        each = "" if self.bounds is None else f"{self.bounds[0]}..{self.bounds[1]}"
        if self.count is None:
            none = " or none" if self.type is OPTIONAL_INT and each else ""
            return f"{self.name} {each}{none}".rstrip()
        numbers = f"{self.name} as {self.count[0]}..{self.count[1]} numbers"
        return f"{numbers} of {each} each" if each else numbers
