"""Readers for the two tree formats of :mod:`plies.sources.tree` (grammar documented there).

Both produce the same raw tree of :class:`RawNode` with positions for error messages;
:class:`~plies.sources.tree.TreeGame` checks it as a whole and flattens it.  Syntax errors
are raised here, at the offending token (text) or field (JSON).

Every number that sizes the work is held to a cap as it is read, before the work it would
size: at most :data:`MAX_NODES` nodes, :data:`MAX_DEPTH` levels and :data:`MAX_PLAYERS`
players, so a small file cannot ask for hours of parsing or gigabytes of memory (decoded
JSON's nodes are counted before any is read).  Both readers tick a
:class:`~plies.budget.Meter` for every node they count or read, so a budget's time or stop
signal (``--time``) ends a large read.  Messages quote what the file wrote cut short
(:func:`plies.errors.quoted`), never a whole 15 MiB line.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final, NamedTuple, NoReturn

from plies.budget import UNLIMITED, Meter
from plies.errors import GameFormatError, quoted
from plies.game import CHANCE

LEAF: Final = "leaf"
PLAYER: Final = "player"
CHANCE_NODE: Final = "chance"

MAX_NODES: Final = 1_000_000
"""The most nodes a tree file may have: far past a figure typed by hand or a test tree a
script writes, and small enough to read in seconds and a few hundred MB."""

MAX_DEPTH: Final = 256
"""The most levels a tree file may have below its root (as GDL's nesting cap): deeper
trees would overflow Python's stack in the parser or in a recursive search."""

MAX_PLAYERS: Final = 100
"""The most players a tree file may declare (``"players"``, ``pN``, the length of its
vector leaves)."""

_MAX_EXACT: Final = 60
"""The longest probability text read exactly (as a fraction); a longer one, or one whose
exponent is past :data:`_MAX_EXPONENT`, is refused: ``Fraction("1e-99999999")`` would
compute a 100-million-digit integer."""

_MAX_EXPONENT: Final = 400


def too_many_nodes() -> str:
    return f"the tree has more than {MAX_NODES:,} nodes, the most a tree file may have"


def too_deep() -> str:
    return (
        f"the tree is nested too deeply: more than {MAX_DEPTH} levels, the most a tree file "
        "may have"
    )


PLAYERS_CAP: Final = f"a tree file has at most {MAX_PLAYERS} players"


class Where(NamedTuple):
    """Where a node or field was written: a JSON field path, or a 1-based line and column."""

    path: str | JsonPath | None = None
    line: int | None = None
    column: int | None = None


NOWHERE: Final = Where()
"""No position: the default of a node's entry and probability."""


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
    entry: Where = NOWHERE  # a shared immutable default: a tuple per node is 64 bytes
    prob_where: Where = NOWHERE

    def describe(self) -> str:
        return f"node {quoted(self.label)}" if self.label else f"this {self.written} node"


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


def _tokenize(text: str, source: str | None) -> Iterator[_Token]:
    """The tokens of ``text``, one at a time: a list of them all would take ~250 bytes a
    token before the first node is checked."""
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
            yield _Token("quoted", match.group()[1:-1].strip(), where)
        elif kind in ("punct", "arrow"):
            yield _Token(match.group(), match.group(), where)
        elif kind != "blank":
            yield _Token(kind, match.group(), where)
        pos = match.end()
    while True:  # the end, as often as the parser looks
        yield _Token("end", "", Where(None, line, pos - line_start + 1))


def _shown(token: _Token) -> str:
    if token.kind == "end":
        return "the end of the input"
    return quoted(token.text) if token.kind != "quoted" else f'"{quoted(token.text)[1:-1]}"'


class _TextParser:
    """Recursive descent over the token list; one method per grammar rule."""

    def __init__(self, text: str, source: str | None, meter: Meter) -> None:
        self.source = source
        self.tokens = _tokenize(text, source)
        self.ahead: list[_Token] = []  # tokens peeked at, not yet taken (at most 2)
        self.meter = meter
        self.nodes = 0

    def peek(self, ahead: int = 0) -> _Token:
        while len(self.ahead) <= ahead:
            self.ahead.append(next(self.tokens))
        return self.ahead[ahead]

    def take(self) -> _Token:
        token = self.peek()
        del self.ahead[0]
        return token

    def fail(self, token: _Token, message: str) -> NoReturn:
        fail(self.source, token.where, message)

    def tree(self) -> RawNode:
        if self.peek().kind == "end":
            self.fail(self.peek(), "the tree is empty")
        root = self.node(0)
        if self.peek().kind != "end":
            self.fail(self.peek(), f"expected the end of the tree, found {_shown(self.peek())}")
        return root

    def node(self, depth: int) -> RawNode:
        first = self.peek()
        self.nodes += 1
        if self.nodes > MAX_NODES:
            self.fail(first, too_many_nodes())
        if depth > MAX_DEPTH:
            self.fail(first, too_deep())
        self.meter.tick()
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
                if len(values) == MAX_PLAYERS:
                    self.fail(self.peek(), f"a leaf of more than {MAX_PLAYERS} values (one per "
                              f"player): {PLAYERS_CAP}")
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
            return self.inner(token, first, label, depth)
        if token.kind == "name":
            self.fail(
                token,
                f"expected a node, found {_shown(token)}: a label is followed by "
                "':' and a node type by '('",
            )
        self.fail(
            token, f"expected a node (a number, [values] or type(...)), found {_shown(token)}"
        )

    def inner(self, token: _Token, first: _Token, label: str | None, depth: int) -> RawNode:
        kind = token.text.lower()
        if kind == "chance":
            node = RawNode(CHANCE_NODE, first.where, player=CHANCE)
        elif kind in ("max", "min"):
            node = RawNode(PLAYER, first.where, player=0 if kind == "max" else 1)
        elif match := _PLAYER_TYPE.fullmatch(kind):
            digits = match.group(1)  # int() of 4,301 digits raises; a billion is no player
            if len(digits) > 6 or int(digits) >= MAX_PLAYERS:
                self.fail(token, f"no player {quoted(digits, 20)}: {PLAYERS_CAP} "
                          f"(p0..p{MAX_PLAYERS - 1})")
            node = RawNode(PLAYER, first.where, player=int(digits))
        else:
            self.fail(
                token,
                f"unknown node type {quoted(token.text)}; expected max, min, chance or p0, p1, ...",
            )
        node.label, node.written = label, kind
        self.take()  # the "("
        while self.peek().kind != ")":
            if self.peek().kind == "end":
                self.fail(
                    self.peek(), f"missing ')' to close the {kind} node opened at {_at(token)}"
                )
            node.children.append(self.child(node, depth + 1))
        self.take()
        if not node.children:
            self.fail(token, f"a {kind} node needs at least one child")
        return node

    def child(self, parent: RawNode, depth: int) -> RawNode:
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
        node = self.node(depth)
        node.action, node.prob = action, prob
        node.entry, node.prob_where = entry.where, entry.where
        return node

    def probability(self) -> float:
        token = self.take()
        value = self.exact(token)
        if self.peek().kind == "/":
            self.take()
            denominator = self.take()
            if denominator.kind != "number":
                self.fail(denominator, f"expected a number after '/', found {_shown(denominator)}")
            divisor = self.exact(denominator)
            if divisor == 0:
                self.fail(denominator, "division by zero in a probability")
            value /= divisor
        if self.peek().kind != ":":
            self.fail(
                self.peek(), f"expected ':' after the probability, found {_shown(self.peek())}"
            )
        self.take()
        return float(value)

    def exact(self, token: _Token) -> Fraction:
        """A probability's number read exactly (``1/3`` sums to 1 with its siblings)."""
        exponent = token.text.lower().partition("e")[2]
        if len(token.text) > _MAX_EXACT or (exponent and abs(int(exponent)) > _MAX_EXPONENT):
            self.fail(token, f"number {quoted(token.text, 20)} is out of range for a "
                      f"probability (at most {_MAX_EXACT} characters, exponent within "
                      f"+-{_MAX_EXPONENT})")
        return Fraction(token.text)

    def number(self, token: _Token) -> float:
        value = float(token.text)  # float() reads any number of digits, in linear time
        if not math.isfinite(value):
            self.fail(token, f"number {quoted(token.text, 20)} is out of range")
        return value


def _at(token: _Token) -> str:
    return f"line {token.where.line}, column {token.where.column}"


_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
_QUOTED_OR_COMMENT = re.compile(r'"[^"\n]*"|\#[^\n]*')
# A probability "p:" or "1/6:", or an action named by a number "2 ->": never a leaf.  (A
# digit this takes from the end of a name, as in "a1:", was not a number anyway.)
_NOT_LEAVES = re.compile(rf"{_NUMBER}\s*(?:/\s*{_NUMBER}\s*)?(?::|->)")
_VECTOR = re.compile(r"\[[^\]]*\]")
_LEAF_START = re.compile(r"(?<![\w'.+-])[+-]?[\d.]")


def _text_nodes(text: str) -> int:
    """The number of nodes the text form ``text`` writes, counted with regular
    expressions before it is parsed (about 1 s of CPU for 15 MiB of leaves): every ``(``
    opens a node; every number is a leaf once quoted names, comments, probabilities and
    numbered actions are taken out, and so is every vector leaf.  Exact for a tree; for a
    text that is not one, a count of its would-be nodes."""
    if '"' in text or "#" in text:  # a name stays a name: "3 'x' -> 4" is not "3 -> 4"
        text = _QUOTED_OR_COMMENT.sub(lambda m: " " if m.group()[0] == "#" else " q ", text)
    if ":" in text or "->" in text:
        text = _NOT_LEAVES.sub(" ", text)
    vectors = 0
    if "[" in text:
        text, vectors = _VECTOR.subn(" ", text)
    return text.count("(") + vectors + len(_LEAF_START.findall(text))


def parse_text(text: str, source: str | None = None, meter: Meter | None = None) -> RawNode:
    """Parse the text form into a raw tree, ticking ``meter`` once per node.

    Raises:
        GameFormatError: the text is not a tree, or is past a cap (:data:`MAX_NODES`,
            :data:`MAX_DEPTH`, :data:`MAX_PLAYERS`).
        BudgetExceeded: ``meter``'s budget ran out (or was stopped).
    """
    meter = UNLIMITED.meter("reading the tree") if meter is None else meter
    if _text_nodes(text) > MAX_NODES:  # counted before any node is built
        fail(source, Where(), too_many_nodes())
    try:
        return _TextParser(text, source, meter).tree()
    except RecursionError:
        raise GameFormatError("the tree is nested too deeply", source=source) from None


# --- the JSON form ------------------------------------------------------------------------

_INNER_KEYS: Final = frozenset({"type", "player", "children", "label", "action", "comment"})
_LEAF_KEYS: Final = frozenset({"value", "values", "label", "action", "comment"})
_OUTCOME_KEYS: Final = frozenset({"p", "prob", "node", "comment"})
_TOP_KEYS: Final = frozenset({"players", "root", "name", "comment"})
_TYPES: Final = ("max", "min", "chance", "player")


class JsonPath:
    """Where a JSON field is, as ``root.children[1].p``: a link to the parent's path and
    this field's step, written out only for a message.  (A string per node would take
    memory in proportion to the depth, for every node.)"""

    __slots__ = ("parent", "step")

    def __init__(self, step: str, parent: JsonPath | None = None) -> None:
        self.parent = parent
        self.step = step

    def __truediv__(self, step: str) -> JsonPath:
        return JsonPath(step, self)

    def __str__(self) -> str:
        steps: list[str] = []
        at: JsonPath | None = self
        while at is not None:
            steps.append(at.step)
            at = at.parent
        text = "".join(reversed(steps))
        # A path 256 levels deep is 4,000 characters: keep its start and its end.
        return text if len(text) <= 100 else f"{text[:30]}...{text[-60:]}"


class _JsonReader:
    def __init__(self, source: str | None, meter: Meter) -> None:
        self.source = source
        self.meter = meter
        self.nodes = 0

    def fail(self, path: JsonPath, message: str) -> NoReturn:
        fail(self.source, Where(str(path)), message)

    def number(self, value: Any, path: JsonPath) -> float:
        # bool is an int in Python but never a utility or a probability in a tree file.
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.fail(path, f"expected a number, found {_json_type(value)}")
        try:
            number = float(value)  # an int past a float's range raises
        except OverflowError:
            number = math.inf
        if not math.isfinite(number):
            self.fail(path, "expected a finite number")
        return number

    def string(self, value: Any, path: JsonPath) -> str:
        if not isinstance(value, str):
            self.fail(path, f"expected a string, found {_json_type(value)}")
        if not value.strip():
            self.fail(path, "expected a non-empty string")
        return value.strip()

    def check_keys(self, obj: dict[str, Any], allowed: frozenset[str], path: JsonPath) -> None:
        for key in obj:
            if key not in allowed:
                self.fail(
                    path, f"unknown field {quoted(key)} (expected {', '.join(sorted(allowed))})"
                )

    def vector(self, value: Any, path: JsonPath) -> tuple[float, ...]:
        if not isinstance(value, list) or not value:
            self.fail(path, "expected a non-empty list of numbers (one per player)")
        if len(value) > MAX_PLAYERS:
            self.fail(path, f"a leaf of {len(value):,} values (one per player): {PLAYERS_CAP}")
        return tuple(self.number(v, path / f"[{i}]") for i, v in enumerate(value))

    def node(self, obj: Any, path: JsonPath, depth: int) -> RawNode:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            self.fail(path, too_many_nodes())
        if depth > MAX_DEPTH:
            self.fail(path, too_deep())
        self.meter.tick()
        where = Where(path)  # the path is written out by fail() only
        if isinstance(obj, list):
            return RawNode(LEAF, where, values=self.vector(obj, path))
        if not isinstance(obj, dict):
            return RawNode(LEAF, where, values=(self.number(obj, path),), scalar=True)
        if "type" not in obj:
            return self.leaf(obj, path)
        self.check_keys(obj, _INNER_KEYS, path)
        kind = obj["type"]
        if kind not in _TYPES:
            shown = quoted(kind) if isinstance(kind, str) else _json_type(kind)
            expected = ", ".join(map(repr, _TYPES))
            self.fail(path / ".type", f"expected one of {expected}, found {shown}")
        if kind == "player":
            player = obj.get("player")
            if isinstance(player, bool) or not isinstance(player, int) or player < 0:
                self.fail(path / ".player", "expected the player number, an integer >= 0")
            if player >= MAX_PLAYERS:
                self.fail(path / ".player", f"no player {player:,}: {PLAYERS_CAP} "
                          f"(0..{MAX_PLAYERS - 1})")
        elif "player" in obj:
            self.fail(
                path / ".player",
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
            self.fail(path / ".children", "expected a non-empty list of children")
        if self.nodes + len(children) > MAX_NODES:  # before reading any of them
            self.fail(path / ".children", f"{len(children):,} children: {too_many_nodes()}")
        for i, child in enumerate(children):
            entry = path / f".children[{i}]"
            node.children.append(
                self.outcome(child, entry, depth + 1) if kind == "chance"
                else self.node(child, entry, depth + 1)
            )
            node.children[-1].entry = Where(entry)
        return node

    def leaf(self, obj: dict[str, Any], path: JsonPath) -> RawNode:
        self.check_keys(obj, _LEAF_KEYS, path)
        if ("value" in obj) == ("values" in obj):
            self.fail(path, 'expected a leaf with "value" or "values", or a node with "type"')
        where = Where(path)
        if "value" in obj:
            node = RawNode(LEAF, where, values=(self.number(obj["value"], path / ".value"),),
                           scalar=True)
        else:
            node = RawNode(LEAF, where, values=self.vector(obj["values"], path / ".values"))
        self.named(node, obj, path)
        return node

    def named(self, node: RawNode, obj: dict[str, Any], path: JsonPath) -> None:
        if "label" in obj:
            node.label = self.string(obj["label"], path / ".label")
        if "action" in obj:
            node.action = self.string(obj["action"], path / ".action")

    def outcome(self, obj: Any, path: JsonPath, depth: int) -> RawNode:
        if not isinstance(obj, dict):
            self.fail(path, 'expected an outcome {"p": probability, "node": NODE}')
        self.check_keys(obj, _OUTCOME_KEYS, path)
        key = "p" if "p" in obj else "prob"
        if key not in obj:
            self.fail(path, 'missing the probability "p"')
        if "node" not in obj:
            self.fail(path, 'missing the "node"')
        node = self.node(obj["node"], path / ".node", depth)
        node.prob = self.number(obj[key], path / f".{key}")
        node.prob_where = Where(path / f".{key}")
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


def _more_nodes_than(obj: Any, limit: int, meter: Meter) -> bool:
    """Whether decoded JSON holds more than ``limit`` tree nodes, counted the way
    :class:`_JsonReader` reads them (anything but a node object with children is one
    node), without checking them: about a microsecond a node, ``meter`` ticked for each."""
    count = 0
    stack = [obj]
    while stack:
        item = stack.pop()
        meter.tick()
        count += 1
        if count > limit:
            return True
        if isinstance(item, dict):
            if "root" in item and "type" not in item:
                count -= 1  # the top level object, not a node
                stack.append(item["root"])
                continue
            children = item.get("children")
            if isinstance(children, list):
                for child in children:
                    stack.append(child.get("node") if isinstance(child, dict) and "node" in child
                                 else child)
    return False


def parse_json(
    obj: Any, source: str | None = None, meter: Meter | None = None
) -> tuple[RawNode, int | None]:
    """Read decoded JSON into a raw tree and the declared number of players (if any),
    ticking ``meter`` once per node.

    Raises:
        GameFormatError: ``obj`` is not a tree, or is past a cap (:data:`MAX_NODES`,
            :data:`MAX_DEPTH`, :data:`MAX_PLAYERS`).
        BudgetExceeded: ``meter``'s budget ran out (or was stopped).
    """
    reader = _JsonReader(source, UNLIMITED.meter("reading the tree") if meter is None else meter)
    # A cheap count first: no node is built past the cap.
    if _more_nodes_than(obj, MAX_NODES, reader.meter):
        fail(source, Where(), too_many_nodes())
    players = None
    top = JsonPath("(top level)")
    if isinstance(obj, dict) and not obj.keys() & {"type", "value", "values"}:
        reader.check_keys(obj, _TOP_KEYS, top)
        if "root" not in obj:
            reader.fail(top, 'missing the "root" node')
        if "players" in obj:
            players = obj["players"]
            if isinstance(players, bool) or not isinstance(players, int) or players < 1:
                reader.fail(JsonPath("players"), "expected the number of players, an integer >= 1")
            if players > MAX_PLAYERS:  # checked before any node is read
                reader.fail(JsonPath("players"), f"{players:,} is too many: {PLAYERS_CAP}")
        return reader.node(obj["root"], JsonPath("root"), 0), players
    return reader.node(obj, JsonPath("root"), 0), players
