"""The UCI engine's options: one table that the ``uci`` reply and ``setoption`` both read.

An option is a :class:`Spin` (a whole number in bounds), a :class:`Check` (true or
false), a :class:`Combo` (one of a few words) or a :class:`Button` (no value: pressing
it acts).  :data:`OPTIONS` lists them in
the order the ``uci`` reply declares them; :func:`find` looks a name up as UCI asks
(case does not matter, a name may hold spaces, as ``Clear Hash`` and ``Move Overhead``
do), and :meth:`Spin.read` / :meth:`Check.read` turn ``setoption``'s text into a value
or raise :class:`~plies.errors.OptionError` with a one-line reason.

>>> find("move overhead").line()
'option name Move Overhead type spin default 10 min 0 max 5000'
>>> find("MultiPV").read("0")
Traceback (most recent call last):
...
plies.errors.OptionError: MultiPV must be 1..64, got 0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from plies.compiled import BACKENDS
from plies.errors import OptionError
from plies.policy import QUIESCENCE
from plies.search.craft import ENTRY_BYTES, MAX_TABLE_SLOTS
from plies.uci.strength import ELO_DEFAULT, ELO_MAX, ELO_MIN

HASH_DEFAULT: Final = 16
HASH_MAX: Final = MAX_TABLE_SLOTS * ENTRY_BYTES >> 20
"""The largest ``Hash`` (MB): the transposition table's cap of slots at the measured
bytes of an entry."""
QUIESCENCE_MAX: Final = 16
MULTIPV_MAX: Final = 64
OVERHEAD_DEFAULT: Final = 10
"""Milliseconds the ``Move Overhead`` option keeps back from every move's time by
default: the GUI's and the pipe's share (Stockfish's default)."""
OVERHEAD_MAX: Final = 5000
SWITCHES: Final = {
    "CheckExtensions": "extensions", "SingularExtensions": "singular",
    "NullMove": "null_move", "LateMoveReductions": "reductions",
}
"""The ``check`` options, each a selective switch of the search (all on by default)."""


@dataclass(frozen=True)
class Spin:
    """A whole number from ``low`` to ``high``."""

    name: str
    default: int
    low: int
    high: int

    def line(self) -> str:
        return (
            f"option name {self.name} type spin default {self.default} "
            f"min {self.low} max {self.high}"
        )

    def read(self, text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise OptionError(f"{self.name} takes a whole number, got {text!r}") from None
        if not self.low <= number <= self.high:
            raise OptionError(f"{self.name} must be {self.low}..{self.high}, got {number}")
        return number


@dataclass(frozen=True)
class Check:
    """``true`` or ``false``."""

    name: str
    default: bool

    def line(self) -> str:
        return f"option name {self.name} type check default {str(self.default).lower()}"

    def read(self, text: str) -> bool:
        if text.lower() not in ("true", "false"):
            raise OptionError(f"{self.name} takes true or false, got {text!r}")
        return text.lower() == "true"


@dataclass(frozen=True)
class Button:
    """An action without a value."""

    name: str

    def line(self) -> str:
        return f"option name {self.name} type button"

    def read(self, text: str) -> None:
        if text:
            raise OptionError(f"{self.name} is a button: it takes no value, got {text!r}")


@dataclass(frozen=True)
class Combo:
    """One of the words ``choices``."""

    name: str
    default: str
    choices: tuple[str, ...]

    def line(self) -> str:
        words = " ".join(f"var {choice}" for choice in self.choices)
        return f"option name {self.name} type combo default {self.default} {words}"

    def read(self, text: str) -> str:
        for choice in self.choices:
            if text.lower() == choice.lower():
                return choice
        raise OptionError(f"{self.name} takes one of {', '.join(self.choices)}, got {text!r}")


Option = Spin | Check | Button | Combo

OPTIONS: Final[tuple[Option, ...]] = (
    Spin("Hash", HASH_DEFAULT, 1, HASH_MAX),
    Button("Clear Hash"),
    Spin("Quiescence", QUIESCENCE, 0, QUIESCENCE_MAX),
    *(Check(name, True) for name in SWITCHES),
    Spin("MultiPV", 1, 1, MULTIPV_MAX),
    Spin("Move Overhead", OVERHEAD_DEFAULT, 0, OVERHEAD_MAX),
    Check("Ponder", False),
    Check("UCI_LimitStrength", False),
    Spin("UCI_Elo", ELO_DEFAULT, ELO_MIN, ELO_MAX),
    Combo("Backend", "auto", BACKENDS),
)
"""Every option, in the order of the ``uci`` reply."""


def find(name: str) -> Option:
    """The option called ``name`` (any case).

    Raises:
        OptionError: no option has that name (the message lists them).
    """
    for option in OPTIONS:
        if option.name.lower() == name.lower():
            return option
    names = ", ".join(option.name for option in OPTIONS)
    raise OptionError(f"unknown option {name!r}; the options are: {names}")


def defaults() -> dict[str, int | bool | str]:
    """Each option's default value, by name (buttons have none)."""
    return {o.name: o.default for o in OPTIONS if not isinstance(o, Button)}


__all__ = [
    "HASH_DEFAULT", "HASH_MAX", "MULTIPV_MAX", "OPTIONS", "OVERHEAD_DEFAULT", "OVERHEAD_MAX",
    "QUIESCENCE_MAX", "SWITCHES", "Button", "Check", "Combo", "Option", "Spin", "defaults", "find",
]
