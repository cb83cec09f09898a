"""What the reference pages are generated from, read from the code itself.

- :func:`plies_command`: the ``plies`` command as data, every command with its usage and
  its options, read from the parser (:mod:`plies.cli.parsers`, which the shell
  completion scripts read too);
- :func:`endpoints` and :func:`example_answer`: the web app's JSON API, every endpoint of
  the registry (:data:`plies.web.api.ENDPOINTS`) and what it answers to a request;
- :func:`game_members`: the table of the game model's members and hooks, read from the
  :class:`plies.Game` docstring, where it is written once.

``plies_docs.py`` writes ``docs/reference/cli.md`` and ``hooks.md`` from these, and
``tests/test_docs_site.py`` checks with them that every option has a help text and that
the table names every member of the model.  No Sphinx here: the test runs without it.
"""

from __future__ import annotations

import inspect
import json
import re
from dataclasses import dataclass
from typing import Any

from plies.cli.parsers import Command, Option, command, plies_command

__all__ = ["Command", "Option", "command", "plies_command"]  # read from plies.cli.parsers

# --- the game model's members --------------------------------------------------------------


@dataclass
class Member:
    """One row of the table in :class:`plies.Game`'s docstring."""

    name: str
    kind: str  # "required", "fact", "method" or "hook"
    default: str  # what leaving it out means (reST, as written in the docstring)
    signature: str  # "order_hint(state, actions) -> actions reordered", "zero_sum: bool"


_SIGNATURE = re.compile(r"``(\w+)\(([^`]*)\)(?: -> ([^`]*))?``")


def game_members() -> list[Member]:
    """The rows of the member table of :class:`plies.Game`'s docstring, in its order,
    each with its signature: a method's from the code, a hook's from the docstring's
    prose (a hook has no code on :class:`plies.Game`), a fact's type."""
    from plies.game import Game

    doc = inspect.getdoc(Game) or ""
    lines = doc.splitlines()
    borders = [i for i, line in enumerate(lines) if re.fullmatch(r"=+( +=+)+", line)]
    if len(borders) < 3:
        raise ValueError("plies.Game's docstring has no member table (three ==== lines)")
    columns = [m.start() for m in re.finditer(r"=+", lines[borders[0]])]
    prose = {m[1]: m[0].strip("`") for m in _SIGNATURE.finditer(doc)}
    hints = getattr(Game, "__annotations__", {})
    rows: list[list[str]] = []
    for line in lines[borders[1] + 1 : borders[2]]:
        cells = [line[a:b].strip() for a, b in zip(columns, [*columns[1:], None], strict=True)]
        if cells[0]:
            rows.append(cells)
        elif rows and cells[2]:
            rows[-1][2] += " " + cells[2]
    members = []
    for name, kind, default in rows:
        name = name.strip("`")
        member = getattr(Game, name, None)
        if kind == "hook":
            signature = prose.get(name, name)
        elif member is None:  # declared, not defined: num_players
            signature = f"{name}: {hints[name]}" if name in hints else name
        elif callable(member):
            params = list(inspect.signature(member).parameters)[1:]  # without self
            signature = f"{name}({', '.join(params)})"
        else:
            signature = f"{name}: {hints.get(name, type(member).__name__)}"
        members.append(Member(name, kind, default, signature))
    return members


# --- the web API ----------------------------------------------------------------------------

SHOWN_ITEMS = 3  # items of a list shown in an example answer
SHOWN_CHARACTERS = 60  # characters of a string


def endpoints() -> dict[str, Any]:
    """Every POST endpoint of the web API by name, with the function that answers it
    (the modules that add endpoints to the registry imported, as the app imports them)."""
    from plies.web import api, quiz, trees  # noqa: F401  (quiz and trees register theirs)

    return dict(api.ENDPOINTS)


def answerer(name: str) -> Any:
    """The function that answers ``/api/NAME``: ``games`` is ``GET /api/games``."""
    from plies.web import api

    return api.catalogue if name == "games" else endpoints()[name]


def _shortened(value: Any, depth: int) -> Any:
    if isinstance(value, str) and len(value) > SHOWN_CHARACTERS:
        return f"{value[:SHOWN_CHARACTERS - 20]}... ({len(value):,} characters)"
    if isinstance(value, list):
        shown = [_shortened(v, depth + 1) for v in value[:SHOWN_ITEMS]]
        if len(value) > SHOWN_ITEMS:
            shown.append(f"... ({len(value) - SHOWN_ITEMS} more)")
        return shown
    if isinstance(value, dict):
        if depth >= 3 and value:
            return {"...": f"{len(value)} fields: {', '.join(map(str, value))}"}
        return {key: _shortened(v, depth + 1) for key, v in value.items()}
    return value


def example_answer(name: str, body: dict[str, Any]) -> str:
    """The JSON that ``POST /api/NAME`` answers to ``body`` (``GET /api/games`` for
    ``games``), computed now and shortened: long strings and lists cut, deep objects
    named by their fields, and the position (``"state"``) of an answer that is not
    ``/api/state``'s own left out."""
    from plies.web import api

    answer = answerer(name)(body)
    data = json.loads(api.encode(answer))
    if name != "state" and isinstance(data.get("state"), dict):
        data["state"] = "(the answer of POST /api/state for the position)"
    return _json(_shortened(data, 0), 0)


def _json(value: Any, indent: int, width: int = 88) -> str:
    """``value`` as JSON, an object or list on one line where it fits in ``width``."""
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, dict | list) or indent + len(flat) <= width or not value:
        return flat
    inner = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {_json(v, indent + 2, width)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [inner + _json(v, indent + 2, width) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
