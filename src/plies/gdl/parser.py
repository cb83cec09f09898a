"""A KIF reader for GDL game descriptions and GGP messages.

:func:`parse` reads a game description into a :class:`~plies.gdl.terms.Description`:
top-level sentences are facts (``(cell 1 1 b)``, ``terminal``) or rules
``(<= head body...)``; ``;`` starts a comment that runs to the end of the line.  GDL
keywords (``role init true next legal does goal terminal distinct not or base input``)
are case-insensitive and come out in lower case; every other symbol keeps its spelling.

Syntax errors raise :class:`~plies.errors.GameFormatError` with the 1-based line and
column of the offending token and what was expected there:

>>> desc = parse("(role white) ; the only player\\n(<= (legal white (push ?x)) (TRUE (pos ?x)))")
>>> desc.roles
('white',)
>>> desc.rules[1]
Rule(head=('legal', 'white', ('push', '?x')), body=(('true', ('pos', '?x')),), line=2, column=1)
>>> parse("(role white)\\n(<= (?r x) (true x))")
Traceback (most recent call last):
...
plies.errors.GameFormatError: <string>:2:6: a variable (?r) cannot be a relation name: ...

:func:`parse_terms` reads the s-expressions of a GGP message without imposing the
sentence structure:

>>> parse_terms("(PLAY match.17 ((mark 1 1) noop))")
[('PLAY', 'match.17', (('mark', '1', '1'), 'noop'))]
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_right
from collections.abc import Iterable
from pathlib import Path
from typing import NoReturn, TypeAlias

from plies.budget import read_text
from plies.errors import GameFormatError
from plies.gdl.terms import KEYWORDS, RULE_ARROW, Description, Rule, Term, to_kif

__all__ = ["MAX_NESTING", "description_from_terms", "load", "parse", "parse_term", "parse_terms"]

# A comment, a parenthesis, or a symbol (a maximal run of anything else but whitespace).
_TOKEN = re.compile(r";[^\n]*|[()]|[^\s();]+")
# Characters KIF reserves for strings, quoting and escapes, and control characters:
# no GDL game uses them, so they are far more likely to be a typo or an encoding problem.
_BAD_CHAR = re.compile(r"[\"'`,\\#|\x00-\x08\x0e-\x1b\x7f]")
_LITERAL_KEYWORDS = frozenset({"not", "or", "distinct"})

MAX_NESTING = 256
"""The deepest nesting of parentheses the reader accepts.  No game nests deeper than
about ten; the limit keeps every later stage (the validator, grounding, printing) well
inside Python's recursion limit, and makes a description nested 100,000 deep a one-line
:class:`~plies.errors.GameFormatError` rather than a crash."""
_NOT_A_RELATION = frozenset({"not", "or", RULE_ARROW})


class _List:
    """A parenthesised list read from the text, with the offset of its ``(``."""

    __slots__ = ("items", "offset")

    def __init__(self, offset: int) -> None:
        self.offset = offset
        self.items: list[_Node] = []


class _Symbol:
    """A symbol token (already keyword-normalised and interned) with its offset."""

    __slots__ = ("offset", "text")

    def __init__(self, text: str, offset: int) -> None:
        self.text = text
        self.offset = offset


_Node: TypeAlias = _List | _Symbol


class _Reader:
    """Turns text into a forest of :class:`_List` / :class:`_Symbol` nodes.

    Keeps the text so that errors can be located (line and column are computed only
    when an error or a rule needs them).
    """

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self._line_starts: list[int] | None = None

    def position(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a character offset."""
        if self._line_starts is None:
            starts = [0]
            starts.extend(m.end() for m in re.finditer("\n", self.text))
            self._line_starts = starts
        line = bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1

    def fail(self, message: str, offset: int) -> NoReturn:
        line, column = self.position(offset)
        raise GameFormatError(message, source=self.source, line=line, column=column)

    def read(self) -> list[_Node]:
        """All top-level nodes of the text."""
        top: list[_Node] = []
        stack: list[_List] = []
        items = top
        symbols: dict[str, str] = {}
        for match in _TOKEN.finditer(self.text):
            token = match.group()
            first = token[0]
            if first == "(":
                node = _List(match.start())
                items.append(node)
                stack.append(node)
                items = node.items
                if len(stack) > MAX_NESTING:
                    self.fail(
                        f"terms are nested too deeply: more than {MAX_NESTING} levels of "
                        f"parentheses (at most {MAX_NESTING} are accepted)",
                        match.start(),
                    )
            elif first == ")":
                if not stack:
                    self.fail("unexpected ')': there is no open '(' for it to close", match.start())
                closed = stack.pop()
                if not closed.items:
                    self.fail(
                        "empty list '()': expected a relation or function name after '('",
                        closed.offset,
                    )
                items = stack[-1].items if stack else top
            elif first == ";":
                continue
            else:
                text = symbols.get(token)
                if text is None:
                    text = symbols[token] = self._symbol(token, match.start())
                items.append(_Symbol(text, match.start()))
        if stack:
            self.fail(
                "this '(' is never closed: expected ')' before the end of the text",
                stack[0].offset,
            )
        return top

    def _symbol(self, token: str, offset: int) -> str:
        """The normalised, interned spelling of a symbol token (checked once per spelling)."""
        bad = _BAD_CHAR.search(token)
        if bad is not None:
            self.fail(
                f"unexpected character {bad.group()!r} in {token!r}: expected a symbol made "
                "of letters, digits and punctuation other than ( ) ; \" ' ` , \\ # |",
                offset + bad.start(),
            )
        if token == "?":
            self.fail("expected a variable name after '?'", offset)
        lowered = token.lower()
        if lowered in KEYWORDS:
            token = lowered
        return sys.intern(token)

    # --- sentences --------------------------------------------------------------------

    def rules(self, nodes: Iterable[_Node]) -> tuple[Rule, ...]:
        """The top-level nodes read as facts and rules."""
        rules: list[Rule] = []
        for node in nodes:
            line, column = self.position(node.offset)
            if isinstance(node, _List) and _is_symbol(node.items[0], RULE_ARROW):
                if len(node.items) < 2:
                    self.fail("expected a rule head after '<='", node.offset)
                head = self.atom(node.items[1], "a rule head")
                body = tuple(self.literal(item) for item in node.items[2:])
                rules.append(Rule(head, body, line, column, written_as_rule=True))
            else:
                rules.append(Rule(self.atom(node, "a sentence"), (), line, column))
        return tuple(rules)

    def atom(self, node: _Node, what: str) -> Term:
        """A relational atom (``p`` or ``(p t...)``): heads, facts and body atoms."""
        if isinstance(node, _Symbol):
            text = node.text
            if text.startswith("?"):
                self.fail(f"expected {what}, found the variable {text}", node.offset)
            if text in _NOT_A_RELATION:
                self.fail(f"expected {what}, found the bare keyword {text!r}", node.offset)
            return text
        head = node.items[0]
        if isinstance(head, _List):
            self.fail(f"expected {what} starting with a relation name, found a list", head.offset)
        name = head.text
        if name.startswith("?"):
            self.fail(
                f"a variable ({name}) cannot be a relation name: expected {what} "
                "starting with a constant",
                head.offset,
            )
        if name == RULE_ARROW:
            self.fail(
                f"expected {what}, found a rule '(<= ...)': rules cannot be nested", head.offset
            )
        if name in _NOT_A_RELATION:
            self.fail(
                f"expected {what}, found a '({name} ...)' literal: {what} must be an atom",
                head.offset,
            )
        return (name, *[self.term(item) for item in node.items[1:]])

    def literal(self, node: _Node) -> Term:
        """A body literal: an atom, ``(not l)``, ``(or l...)`` or ``(distinct t t)``."""
        if isinstance(node, _List):
            head = node.items[0]
            if isinstance(head, _Symbol) and head.text in _LITERAL_KEYWORDS:
                name = head.text
                rest = node.items[1:]
                if name == "distinct":
                    return (name, *[self.term(item) for item in rest])
                return (name, *[self.literal(item) for item in rest])
        return self.atom(node, "a literal")

    def term(self, node: _Node) -> Term:
        """An argument: a constant, a variable or a function term ``(f t...)``."""
        if isinstance(node, _Symbol):
            if node.text == RULE_ARROW:
                self.fail("expected a term, found '<='", node.offset)
            return node.text
        head = node.items[0]
        if isinstance(head, _List):
            self.fail("expected a function name after '(', found a list", head.offset)
        if head.text.startswith("?"):
            self.fail(
                f"a variable ({head.text}) cannot be a function name: expected a constant",
                head.offset,
            )
        if head.text == RULE_ARROW:
            self.fail("expected a term, found a rule '(<= ...)' inside a sentence", head.offset)
        return (head.text, *[self.term(item) for item in node.items[1:]])

    # --- free-form terms (GGP messages) -----------------------------------------------

    def data(self, node: _Node) -> Term:
        """Any s-expression as a term: lists become tuples, whatever their first item."""
        if isinstance(node, _Symbol):
            return node.text
        head = node.items[0]
        if isinstance(head, _Symbol) and head.text.startswith("?"):
            self.fail(
                f"a variable ({head.text}) cannot be a relation or function name",
                head.offset,
            )
        return tuple([self.data(item) for item in node.items])


def _is_symbol(node: _Node, text: str) -> bool:
    return isinstance(node, _Symbol) and node.text == text


def parse(text: str, source: str = "<string>") -> Description:
    """Read a GDL game description.

    Raises :class:`~plies.errors.GameFormatError` naming the line and column (1-based)
    and what was expected, for unbalanced parentheses, an empty ``()``, a rule whose
    head is not an atom, a variable used as a relation or function name, a literal that
    is not an atom, or a token with a character KIF reserves (``" ' ` , \\ # |``).
    The GDL restrictions (safety, stratification, ...) are checked separately by
    :func:`plies.gdl.validator.validate`.
    """
    reader = _Reader(text, source)
    nodes = reader.read()
    try:
        return Description(reader.rules(nodes), source)
    except RecursionError:
        raise _too_deep(source) from None


def parse_terms(text: str, source: str = "<string>") -> list[Term]:
    """Read a sequence of s-expressions as terms (GGP messages, moves a user types).

    Lists become tuples whatever their first element, so ``((mark 1 1) noop)`` reads as
    ``(("mark", "1", "1"), "noop")`` and a whole game description inside a START message
    reads as a tuple of sentences (turn it into a :class:`Description` with
    :func:`description_from_terms`).  GDL keywords are lower-cased wherever they occur,
    as ggp-base does; other symbols, such as message names ``START`` or ``PLAY`` and match
    ids like ``local.17``, are returned as written.

    >>> parse_terms("( START local.17 xplayer (( ROLE xplayer ) terminal) 10 2)")
    [('START', 'local.17', 'xplayer', (('role', 'xplayer'), 'terminal'), '10', '2')]
    """
    reader = _Reader(text, source)
    nodes = reader.read()
    try:
        return [reader.data(node) for node in nodes]
    except RecursionError:
        raise _too_deep(source) from None


def _too_deep(source: str) -> GameFormatError:
    return GameFormatError("terms are nested too deeply to read", source=source)


def parse_term(text: str, source: str = "<string>") -> Term:
    """Read exactly one term (see :func:`parse_terms`).

    >>> parse_term(" (mark 1 3) ")
    ('mark', '1', '3')
    >>> parse_term("(mark 1 3) noop")
    Traceback (most recent call last):
    ...
    plies.errors.GameFormatError: <string>: expected exactly one term, found 2
    """
    terms = parse_terms(text, source)
    if len(terms) != 1:
        raise GameFormatError(f"expected exactly one term, found {len(terms)}", source=source)
    return terms[0]


def description_from_terms(terms: Iterable[Term], source: str = "<string>") -> Description:
    """A :class:`Description` from sentences read with :func:`parse_terms` (e.g. START).

    Each sentence is placed on its own line, so a syntax error names the sentence's
    1-based index as its line.
    """
    return parse("\n".join(to_kif(term) for term in terms), source)


def load(path: str | Path) -> Description:
    """Read a ``.kif`` file; unreadable files raise :class:`~plies.errors.GameFormatError`.

    The file is read by :func:`plies.budget.read_text`: a regular file of at most
    :data:`~plies.budget.MAX_INPUT_BYTES` (a FIFO, a device or a directory is refused, a
    larger file raises :class:`~plies.budget.InputTooLarge`).
    """
    try:
        text = read_text(path, encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise GameFormatError(f"cannot read GDL file: {reason}", source=str(path)) from exc
    return parse(text, str(path))
