"""Empire's maps: the built-in ones and the reader of maps given as text.

A map is rows of equal length (4 to 16 rows of 4 to 16 squares): ``.`` plain, ``^``
hills, ``~`` water, and the digits ``1``..``6`` marking the capitals of players 0..5 (a
digit square is plain land).  With N players the capitals 1..N are used.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from plies.errors import GameFormatError

PLAIN: Final = "."
HILLS: Final = "^"
WATER: Final = "~"

MAPS: Final = {
    "small": (
        ".......",
        ".1...3.",
        "...^...",
        "..^~^..",
        "...^...",
        ".4...2.",
        ".......",
    ),
    "continent": (
        ".........",
        ".1..^..3.",
        "...~.~...",
        ".^.....^.",
        "5..~^~..6",
        ".^.....^.",
        "...~.~...",
        ".4..^..2.",
        ".........",
    ),
    "large": (
        "............",
        ".1...^^...3.",
        "...~....~...",
        "..^......^..",
        ".....~~.....",
        "5...^..^...6",
        "............",
        ".....~~.....",
        "..^......^..",
        "...~....~...",
        ".4...^^...2.",
        "............",
    ),
}
"""The built-in maps: ``.`` plain, ``^`` hills, ``~`` water, ``1``..``6`` the capitals of
players 0..5 (with N players, capitals 1..N are used; the others are plain)."""

DEFAULT_MAP: Final = "continent"
MAP_SIDES: Final = (4, 16)


def parse_map(text: str | Sequence[str]) -> tuple[str, ...]:
    """The rows of a map given by built-in name, as ``/``-separated text, or as rows.

    Raises:
        GameFormatError: an unknown name, ragged rows, a size outside 4..16, an unknown
            character, or capitals that are not numbered 1, 2, ... without gaps.
    """
    if isinstance(text, str):
        if text.strip().lower() in MAPS:
            return MAPS[text.strip().lower()]
        if "/" not in text and "\n" not in text:
            raise GameFormatError(
                f"unknown map {text!r}; built-in maps are {', '.join(MAPS)}, "
                "or give rows split at / (. plain ^ hills ~ water 1-6 capitals)"
            )
        rows = tuple(r.strip() for r in text.replace("\n", "/").split("/") if r.strip())
    else:
        rows = tuple(text)
    lo, hi = MAP_SIDES
    if not lo <= len(rows) <= hi or any(len(r) != len(rows[0]) for r in rows):
        raise GameFormatError(f"a map has {lo}..{hi} rows of equal length {lo}..{hi}")
    if not lo <= len(rows[0]) <= hi:
        raise GameFormatError(f"a map has {lo}..{hi} rows of equal length {lo}..{hi}")
    bad = sorted({ch for r in rows for ch in r} - set(PLAIN + HILLS + WATER + "123456"))
    if bad:
        raise GameFormatError(
            f"unknown map character(s) {''.join(bad)!r}; use . plain ^ hills ~ water 1-6 capitals"
        )
    digits = sorted(ch for r in rows for ch in r if ch.isdigit())
    if digits != [str(i) for i in range(1, len(digits) + 1)]:
        raise GameFormatError(f"capitals must be numbered 1, 2, ... once each, got {digits}")
    return rows
