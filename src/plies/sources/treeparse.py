"""Readers for the two tree formats of :mod:`plies.sources.tree` (grammar documented there).

Both produce the same raw tree of :class:`RawNode` with positions for error messages;
:class:`~plies.sources.tree.TreeGame` checks it as a whole and flattens it.  Syntax errors
are raised here, at the offending token (text) or field (JSON).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final, NamedTuple, NoReturn

from plies.errors import GameFormatError
from plies.game import CHANCE

LEAF: Final = "leaf"
PLAYER: Final = "player"
CHANCE_NODE: Final = "chance"


class Where(NamedTuple):
    """Where a node or field was written: a JSON field path, or a 1-based line and column."""

    path: str | None = None
    line: int | None = None
    column: int | None = None


def fail(source: str | None, where: Where, message: str) -> NoReturn:
    """Raise the :class:`GameFormatError` for ``message`` at ``where``."""
    if where.path is not None:
        message = f"{where.path}: {message}"
    raise GameFormatError(message, source=source, line=where.line, column=where.column)


@dataclass(slots=True)
class RawNode:
    """A node as written, before the tree is checked as a whole."""

    kind: str  # LEAF, PLAYER or CHANCE_NODE
    where: Where  # the node itself (its label, type or value)
    player: int = -1  # PLAYER: the player; CHANCE_NODE: CHANCE
    label: str | None = None
    values: tuple[float, ...] | None = None  # LEAF: one number (scalar) or one per player
    scalar: bool = False
    written: str = "leaf"  # the node type as the file wrote it: "max", "p2", ...
    children: list[RawNode] = field(default_factory=list)
    # Set by the parent: the edge into this node, and where that child entry was written.
    action: str | None = None
    prob: float | None = None
    entry: Where = field(default_factory=Where)
    prob_where: Where = field(default_factory=Where)

    def describe(self) -> str:
        return f"node {self.label!r}" if self.label else f"this {self.written} node"


# --- the text form ------------------------------------------------------------------------

_TOKEN = re.compile(
    r"""
    (?P<blank>[ \t\r\f\v,]+ | \#[^\n]*)
  | (?P<newline>\n)
  | (?P<arrow>->)
  | (?P<number>[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)
  | (?P<name>[A-Za-z_][A-Za-z0-9_']*)
  | (?P<quoted>"[^"\n]*")
  | (?P<punct>[()\[\]:/])
    """,
    re.VERBOSE,
)
_PLAYER_TYPE = re.compile(r"p(\d+)")


class _Token(NamedTuple):
    kind: str  # number, name, quoted, end, or the symbol itself: ( ) [ ] : / ->
    text: str
    where: Where


def _tokenize(text: str, source: str | None) -> list[_Token]:
    tokens: list[_Token] = []
    line, line_start, pos = 1, 0, 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        where = Where(None, line, pos - line_start + 1)
        if match is None:
            char = text[pos]
            if char == '"':
                fail(source, where, "unterminated quoted name (a name ends on its line)")
            fail(source, where, f"unexpected character {char!r}")
        kind = match.lastgroup
        assert kind is not None
        if kind == "newline":
            line, line_start = line + 1, match.end()
        elif kind == "quoted":
            tokens.append(_Token("quoted", match.group()[1:-1].strip(), where))
        elif kind in ("punct", "arrow"):
            tokens.append(_Token(match.group(), match.group(), where))
        elif kind != "blank":
            tokens.append(_Token(kind, match.group(), where))
        pos = match.end()
    tokens.append(_Token("end", "", Where(None, line, pos - line_start + 1)))
    return tokens


def _shown(token: _Token) -> str:
    if token.kind == "end":
        return "the end of the input"
    return f"{token.text!r}" if token.kind != "quoted" else f'"{token.text}"'


class _TextParser:
    """Recursive descent over the token list; one method per grammar rule."""

    def __init__(self, text: str, source: str | None) -> None:
        self.source = source
        self.tokens = _tokenize(text, source)
        self.pos = 0

    def peek(self, ahead: int = 0) -> _Token:
        return self.tokens[min(self.pos + ahead, len(self.tokens) - 1)]

    def take(self) -> _Token:
        token = self.peek()
        self.pos += 1
        return token

    def fail(self, token: _Token, message: str) -> NoReturn:
        fail(self.source, token.where, message)

    def tree(self) -> RawNode:
        if self.peek().kind == "end":
            self.fail(self.peek(), "the tree is empty")
        root = self.node()
        if self.peek().kind != "end":
            self.fail(self.peek(), f"expected the end of the tree, found {_shown(self.peek())}")
        return root

    def node(self) -> RawNode:
        first = self.peek()
        label = None
        if first.kind in ("name", "quoted") and self.peek(1).kind == ":":
            label = self.take().text
            self.take()
            if not label:
                self.fail(first, "a label cannot be empty")
        token = self.take()
        if token.kind == "number":
            value = self.number(token)
            return RawNode(LEAF, first.where, label=label, values=(value,), scalar=True)
        if token.kind == "[":
            values: list[float] = []
            while self.peek().kind == "number":
                values.append(self.number(self.take()))
            if self.peek().kind != "]":
                self.fail(
                    self.peek(),
                    f"expected a number or ']' in the leaf opened at "
                    f"{_at(token)}, found {_shown(self.peek())}",
                )
            self.take()
            if not values:
                self.fail(token, "a leaf needs at least one value")
            return RawNode(LEAF, first.where, label=label, values=tuple(values))
        if token.kind == "name" and self.peek().kind == "(":
            return self.inner(token, first, label)
        if token.kind == "name":
            self.fail(
                token,
                f"expected a node, found {_shown(token)}: a label is followed by "
                "':' and a node type by '('",
            )
        self.fail(
            token, f"expected a node (a number, [values] or type(...)), found {_shown(token)}"
        )

    def inner(self, token: _Token, first: _Token, label: str | None) -> RawNode:
        kind = token.text.lower()
        if kind == "chance":
            node = RawNode(CHANCE_NODE, first.where, player=CHANCE)
        elif kind in ("max", "min"):
            node = RawNode(PLAYER, first.where, player=0 if kind == "max" else 1)
        elif match := _PLAYER_TYPE.fullmatch(kind):
            node = RawNode(PLAYER, first.where, player=int(match.group(1)))
        else:
            self.fail(
                token, f"unknown node type {token.text!r}; expected max, min, chance or p0, p1, ..."
            )
        node.label, node.written = label, kind
        self.take()  # the "("
        while self.peek().kind != ")":
            if self.peek().kind == "end":
                self.fail(
                    self.peek(), f"missing ')' to close the {kind} node opened at {_at(token)}"
                )
            node.children.append(self.child(node))
        self.take()
        if not node.children:
            self.fail(token, f"a {kind} node needs at least one child")
        return node

    def child(self, parent: RawNode) -> RawNode:
        entry = self.peek()
        prob = None
        if entry.kind == "number" and self.peek(1).kind in (":", "/"):
            if parent.kind != CHANCE_NODE:
                self.fail(entry, "a probability 'p:' is only allowed under a chance node")
            prob = self.probability()
        action = None
        if self.peek().kind in ("name", "quoted", "number") and self.peek(1).kind == "->":
            action_token = self.take()
            self.take()
            action = action_token.text
            if not action:
                self.fail(action_token, "an action name cannot be empty")
        node = self.node()
        node.action, node.prob = action, prob
        node.entry, node.prob_where = entry.where, entry.where
        return node

    def probability(self) -> float:
        token = self.take()
        value = Fraction(token.text)
        if self.peek().kind == "/":
            self.take()
            denominator = self.take()
            if denominator.kind != "number":
                self.fail(denominator, f"expected a number after '/', found {_shown(denominator)}")
            if Fraction(denominator.text) == 0:
                self.fail(denominator, "division by zero in a probability")
            value /= Fraction(denominator.text)
        if self.peek().kind != ":":
            self.fail(
                self.peek(), f"expected ':' after the probability, found {_shown(self.peek())}"
            )
        self.take()
        return float(value)

    def number(self, token: _Token) -> float:
        value = float(token.text)
        if not math.isfinite(value):
            self.fail(token, f"number {token.text} is out of range")
        return value


def _at(token: _Token) -> str:
    return f"line {token.where.line}, column {token.where.column}"


def parse_text(text: str, source: str | None = None) -> RawNode:
    """Parse the text form into a raw tree."""
    try:
        return _TextParser(text, source).tree()
    except RecursionError:
        raise GameFormatError("the tree is nested too deeply", source=source) from None


# --- the JSON form ------------------------------------------------------------------------

_INNER_KEYS: Final = frozenset({"type", "player", "children", "label", "action", "comment"})
_LEAF_KEYS: Final = frozenset({"value", "values", "label", "action", "comment"})
_OUTCOME_KEYS: Final = frozenset({"p", "prob", "node", "comment"})
_TOP_KEYS: Final = frozenset({"players", "root", "name", "comment"})
_TYPES: Final = ("max", "min", "chance", "player")


class _JsonReader:
    def __init__(self, source: str | None) -> None:
        self.source = source

    def fail(self, path: str, message: str) -> NoReturn:
        fail(self.source, Where(path), message)

    def number(self, value: Any, path: str) -> float:
        # bool is an int in Python but never a utility or a probability in a tree file.
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.fail(path, f"expected a number, found {_json_type(value)}")
        if not math.isfinite(value):
            self.fail(path, "expected a finite number")
        return float(value)

    def string(self, value: Any, path: str) -> str:
        if not isinstance(value, str):
            self.fail(path, f"expected a string, found {_json_type(value)}")
        if not value.strip():
            self.fail(path, "expected a non-empty string")
        return value.strip()

    def check_keys(self, obj: dict[str, Any], allowed: frozenset[str], path: str) -> None:
        for key in obj:
            if key not in allowed:
                self.fail(path, f"unknown field {key!r} (expected {', '.join(sorted(allowed))})")

    def vector(self, value: Any, path: str) -> tuple[float, ...]:
        if not isinstance(value, list) or not value:
            self.fail(path, "expected a non-empty list of numbers (one per player)")
        return tuple(self.number(v, f"{path}[{i}]") for i, v in enumerate(value))

    def node(self, obj: Any, path: str) -> RawNode:
        where = Where(path)
        if isinstance(obj, list):
            return RawNode(LEAF, where, values=self.vector(obj, path))
        if not isinstance(obj, dict):
            return RawNode(LEAF, where, values=(self.number(obj, path),), scalar=True)
        if "type" not in obj:
            return self.leaf(obj, path)
        self.check_keys(obj, _INNER_KEYS, path)
        kind = obj["type"]
        if kind not in _TYPES:
            self.fail(
                f"{path}.type", f"expected one of {', '.join(map(repr, _TYPES))}, found {kind!r}"
            )
        if kind == "player":
            player = obj.get("player")
            if isinstance(player, bool) or not isinstance(player, int) or player < 0:
                self.fail(f"{path}.player", "expected the player number, an integer >= 0")
        elif "player" in obj:
            self.fail(
                f"{path}.player",
                "only a node of type 'player' takes a player; "
                "a 'max' node is player 0 and a 'min' node player 1",
            )
        else:
            player = {"max": 0, "min": 1, "chance": CHANCE}[kind]
        node = RawNode(
            CHANCE_NODE if kind == "chance" else PLAYER, where, player=player, written=kind
        )
        self.named(node, obj, path)
        children = obj.get("children")
        if not isinstance(children, list) or not children:
            self.fail(f"{path}.children", "expected a non-empty list of children")
        for i, child in enumerate(children):
            entry = f"{path}.children[{i}]"
            node.children.append(
                self.outcome(child, entry) if kind == "chance" else self.node(child, entry)
            )
            node.children[-1].entry = Where(entry)
        return node

    def leaf(self, obj: dict[str, Any], path: str) -> RawNode:
        self.check_keys(obj, _LEAF_KEYS, path)
        if ("value" in obj) == ("values" in obj):
            self.fail(path, 'expected a leaf with "value" or "values", or a node with "type"')
        if "value" in obj:
            node = RawNode(
                LEAF, Where(path), values=(self.number(obj["value"], f"{path}.value"),), scalar=True
            )
        else:
            node = RawNode(LEAF, Where(path), values=self.vector(obj["values"], f"{path}.values"))
        self.named(node, obj, path)
        return node

    def named(self, node: RawNode, obj: dict[str, Any], path: str) -> None:
        if "label" in obj:
            node.label = self.string(obj["label"], f"{path}.label")
        if "action" in obj:
            node.action = self.string(obj["action"], f"{path}.action")

    def outcome(self, obj: Any, path: str) -> RawNode:
        if not isinstance(obj, dict):
            self.fail(path, 'expected an outcome {"p": probability, "node": NODE}')
        self.check_keys(obj, _OUTCOME_KEYS, path)
        key = "p" if "p" in obj else "prob"
        if key not in obj:
            self.fail(path, 'missing the probability "p"')
        if "node" not in obj:
            self.fail(path, 'missing the "node"')
        node = self.node(obj["node"], f"{path}.node")
        node.prob = self.number(obj[key], f"{path}.{key}")
        node.prob_where = Where(f"{path}.{key}")
        return node


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return "a string" if isinstance(value, str) else repr(value)


def parse_json(obj: Any, source: str | None = None) -> tuple[RawNode, int | None]:
    """Read decoded JSON into a raw tree and the declared number of players (if any)."""
    reader = _JsonReader(source)
    players = None
    if isinstance(obj, dict) and not obj.keys() & {"type", "value", "values"}:
        reader.check_keys(obj, _TOP_KEYS, "(top level)")
        if "root" not in obj:
            reader.fail("(top level)", 'missing the "root" node')
        if "players" in obj:
            players = obj["players"]
            if isinstance(players, bool) or not isinstance(players, int) or players < 1:
                reader.fail("players", "expected the number of players, an integer >= 1")
        return reader.node(obj["root"], "root"), players
    return reader.node(obj, "root"), players
