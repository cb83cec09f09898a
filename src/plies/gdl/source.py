"""GDL as a source of games: ``.kif`` and ``.gdl`` specs reach the core only through this.

plies' own ``pyproject.toml`` declares :data:`SOURCE` as the entry points ``.kif`` and
``.gdl`` of the group ``plies.sources``, as a plug-in would, so :func:`plies.games.load`
reads a GDL file without the core naming :mod:`plies.gdl`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from plies.budget import Budget, read_text
from plies.errors import GameFormatError
from plies.game.declaration import Source
from plies.gdl.game import GdlGame
from plies.gdl.ground import DEFAULT_BUDGET
from plies.gdl.parser import parse
from plies.gdl.validator import check

SUFFIXES: Final = (".kif", ".gdl")
"""File suffixes read as General Game Playing descriptions."""


def is_gdl_path(spec: str) -> bool:
    """True when ``spec`` names a GDL file (by its suffix)."""
    return spec.strip().lower().endswith(SUFFIXES)


def load(spec: str, options: Mapping[str, Any], budget: Budget | None) -> GdlGame:
    """The GDL game in the file ``spec``, read under the size cap
    (:data:`plies.budget.MAX_INPUT_BYTES`), validated and built within ``budget`` (None:
    :data:`~plies.gdl.ground.DEFAULT_BUDGET`).

    Raises:
        GameFormatError: the file cannot be read, or is not KIF.
        GdlValidationError: the description breaks a GDL restriction.
        InputTooLarge: the file is larger than the cap.
        BudgetExceeded: the budget ran out while the game was being built.
    """
    try:
        text = read_text(spec, encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise GameFormatError(f"cannot read GDL file: {reason}", source=spec) from None
    description = parse(text, spec)
    check(description)
    return GdlGame(description, budget=DEFAULT_BUDGET if budget is None else budget)


def from_text(text: str, name: str, budget: Budget | None) -> GdlGame:
    """The GDL game ``text`` describes (an uploaded file called ``name``): the same steps
    as :func:`load`, the game named after the file's stem."""
    description = parse(text, name)
    check(description)
    stem = name.replace("\\", "/").rsplit("/", 1)[-1].removesuffix(".kif").removesuffix(".gdl")
    return GdlGame(description, name=stem or "gdl",
                   budget=DEFAULT_BUDGET if budget is None else budget)


SOURCE: Final = Source(
    "a GDL file", load, from_text=from_text, resolve=lambda spec: str(Path(spec).resolve()),
    takes_options=False,
)
"""``.kif`` and ``.gdl`` files (declared as entry points in plies' ``pyproject.toml``)."""

__all__ = ["SOURCE", "SUFFIXES", "from_text", "is_gdl_path", "load"]
