"""What ``go`` asks for, and how long to think: the UCI engine's time manager.

:func:`parse_go` reads the arguments of a ``go`` command into a :class:`Go`;
:func:`think_time` turns a clock (``wtime``/``btime``, increments, ``movestogo``) into
the seconds one move may take.  The rule is the simple one most engines start from:
spend an equal share of what is left (``remaining / movestogo``, or ``remaining / 30``
when the GUI does not say how many moves the clock must last), plus most of the
increment, and never come within a safety margin of the flag.

>>> go = parse_go("wtime 60000 btime 60000 winc 1000 binc 1000".split())
>>> round(think_time(go, white=True), 3)
2.8
"""

from __future__ import annotations

from dataclasses import dataclass, field

from plies.errors import OptionError

MOVES_LEFT = 30
"""Moves the remaining time must last when ``go`` gives no ``movestogo``."""
INCREMENT_SHARE = 0.8
"""The share of the increment spent on this move (the rest builds a reserve)."""
SAFETY = 0.05
"""Seconds always kept back from the clock: the answer's way through pipes and the GUI."""
MOVETIME_SHARE = 0.95
"""The share of a fixed ``movetime`` the search may use (the rest: winding down, the
``bestmove`` line)."""
SHORTEST = 0.005
"""The least time a search is given, in seconds, however little is left."""

_INT_ARGS = ("depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo", "mate")
_FLAGS = ("infinite", "ponder")


@dataclass
class Go:
    """The arguments of one ``go`` command (times in milliseconds, as UCI sends them).

    ``problems`` lists what was wrong in the command (unknown words, missing or bad
    numbers); the engine reports each as an ``info string`` and searches anyway with
    what it understood.
    """

    depth: int | None = None
    nodes: int | None = None
    movetime: int | None = None
    wtime: int | None = None
    btime: int | None = None
    winc: int | None = None
    binc: int | None = None
    movestogo: int | None = None
    mate: int | None = None
    infinite: bool = False
    ponder: bool = False
    searchmoves: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def parse_go(words: list[str]) -> Go:
    """The :class:`Go` of the words after ``go``; never raises (problems are collected)."""
    go = Go()
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if word in _FLAGS:
            setattr(go, word, True)
        elif word in _INT_ARGS:
            if i >= len(words):
                go.problems.append(f"go {word} needs a number")
                break
            text = words[i]
            i += 1
            try:
                value = int(text)
            except ValueError:
                go.problems.append(f"go {word}: {text!r} is not a whole number")
                continue
            if value < 0 and word not in ("wtime", "btime"):  # a flagged clock is < 0
                go.problems.append(f"go {word}: {value} is negative; ignored")
                continue
            setattr(go, word, value)
        elif word == "searchmoves":
            while i < len(words) and words[i] not in _INT_ARGS + _FLAGS:
                go.searchmoves.append(words[i])
                i += 1
        else:
            go.problems.append(f"go: unknown argument {word!r}")
    return go


def think_time(go: Go, *, white: bool, overhead: float = 0.0) -> float | None:
    """Seconds the search may take for ``go`` when the side to move is ``white``.

    ``movetime`` wins over a clock; the mover's clock over the other side's (used when
    the GUI sent only that one); None means no time limit (``depth``, ``nodes`` or
    ``infinite`` alone).  ``overhead`` (seconds, the ``Move Overhead`` option) is what
    the GUI, the pipe and the operating system take of every move: it is subtracted from
    the time planned.
    """
    if go.movetime is not None:
        return max(SHORTEST, go.movetime / 1000 * MOVETIME_SHARE - 0.002 - overhead)
    remaining = go.wtime if white else go.btime
    increment = (go.winc if white else go.binc) or 0
    if remaining is None:  # a clock for the other side only: better than no limit at all
        remaining = go.btime if white else go.wtime
        increment = (go.binc if white else go.winc) or 0
    if remaining is None:
        return None
    left = max(0.0, remaining / 1000)
    moves = go.movestogo if go.movestogo else MOVES_LEFT
    share = left / moves + increment / 1000 * INCREMENT_SHARE
    # Never plan past the flag: keep the safety margin, and a tenth of a short clock.
    ceiling = left - max(SAFETY, left / 10) if moves > 1 else left - SAFETY
    return max(SHORTEST, min(share, ceiling) - overhead)


def table_slots(megabytes: int, entry_bytes: int, most: int) -> int:
    """Transposition-table slots that fit in ``megabytes`` at ``entry_bytes`` an entry,
    at least one and at most ``most``.

    Raises:
        OptionError: ``megabytes`` is below 1.
    """
    if megabytes < 1:
        raise OptionError(f"Hash must be at least 1 MB, got {megabytes}")
    return max(1, min(most, megabytes * (1 << 20) // entry_bytes))


__all__ = ["Go", "parse_go", "table_slots", "think_time"]
