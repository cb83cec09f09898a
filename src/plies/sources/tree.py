"""Explicit game trees read from a file: the figures of the lecture notes, typed in.

A :class:`TreeGame` is a finite tree whose leaves carry utilities.  States are node ids
(ints, the root is 0, numbered in preorder) into flat arrays, so searching a tree costs
a list index per step.  Actions are strings: a child's explicit action name, else its
label, else its 1-based position (``"1"``, ``"2"``, ...).  With scalar leaves the tree has
two players, MAX (player 0) and MIN (player 1), a leaf's number is MAX's utility and MIN's
is its negation (zero-sum).  With vector leaves there is one utility per player, and the
tree is zero-sum only when every leaf's values add up to the same constant.

**Text form.**  What a teacher types::

    # AIMA figure 5.2
    A: max(a1 -> B: min(3 12 8)
           a2 -> C: min(2 4 6)
           a3 -> D: min(14 5 2))

Grammar (blanks, newlines and commas separate tokens; ``#`` starts a comment)::

    tree   := node
    node   := [label ":"] body
    body   := NUMBER                        a leaf: MAX's utility (two players)
            | "[" NUMBER+ "]"               a leaf: one utility per player
            | type "(" child+ ")"
    type   := "max" | "min" | "chance" | "p" DIGITS     (max = p0, min = p1)
    child  := [prob ":"] [action "->"] node
    prob   := NUMBER ["/" NUMBER]           only under chance; 1/6 is allowed
    label  := NAME | QUOTED                 NAME: a letter or _, then letters, digits, _, '
    action := NAME | QUOTED | NUMBER        QUOTED: "any text on one line"

Node types are case-insensitive.  Under a ``chance`` node either every child has a
probability or none has (then the outcomes are equally likely); probabilities must be
positive and sum to 1 (within 1e-9).  The number of players is the length of the vector
leaves (every leaf must then be a vector of that length), else 2.

**JSON form.**  ``{"players": 2, "root": NODE}`` (or just ``NODE``) where NODE is a number
(MAX's utility), a list of numbers (one utility per player), a leaf object
``{"value": 3}`` / ``{"values": [1, 2, 3]}``, or an inner node ``{"type": "max" | "min" |
"chance" | "player", "player": k, "children": [...]}``.  Node objects may carry
``"label"``, ``"action"`` (the name of the edge from the parent) and ``"comment"``.
Under ``chance`` each child is ``{"p": 0.5, "node": NODE}`` (``"prob"`` also works).

Errors raise :class:`~plies.errors.GameFormatError` naming the line and column (text) or
the field path, e.g. ``root.children[1].p: expected a number`` (JSON).

**Caps.**  A tree file has at most 1,000,000 nodes, 256 levels below its root and 100
players (:data:`~plies.sources.treeparse.MAX_NODES`, ``MAX_DEPTH``, ``MAX_PLAYERS``);
a larger one is refused with one line (its nodes are counted before any is built).  Reading ticks a
:class:`~plies.budget.Meter` of the ``budget`` given (the loader passes ``--time``'s), so
a budget stops it.

>>> g = TreeGame.from_text("A: max(B: min(3 12 8) C: min(2 4 6) D: min(14 5 2))")
>>> g.actions(0), g.utility_range, g.label(g.result(0, "C"))
(('B', 'C', 'D'), (-14.0, 14.0), 'C')
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from plies.budget import UNLIMITED, Budget, Meter, read_text
from plies.errors import GameFormatError, quoted
from plies.game import CHANCE, Game
from plies.game.declaration import Source
from plies.sources.treeparse import (
    LEAF,
    MAX_PLAYERS,
    PLAYER,
    PLAYERS_CAP,
    RawNode,
    fail,
    parse_json,
    parse_text,
)

_NO_CHILDREN: dict[str, int] = {}
"""The action map of every leaf, shared: nothing is ever added to it (a dict a leaf took
64 bytes of each of up to a million leaves)."""

__all__ = ["SOURCE", "TreeGame"]


class TreeGame(Game[int, str]):
    """A finite game tree given explicitly; build it with :meth:`from_text`,
    :meth:`from_json` or :meth:`from_file`."""

    def __init__(
        self,
        root: RawNode,
        *,
        players: int | None = None,
        source: str | None = None,
        name: str = "tree",
        meter: Meter | None = None,
        consume: bool = False,
    ) -> None:
        """Check ``root`` (as parsed) and flatten it, ticking ``meter`` once per node;
        prefer the ``from_*`` constructors.  With ``consume`` (theirs), ``root`` is emptied
        as it is flattened, so its memory is given back while the game's arrays grow."""
        self.name = name
        self.source = source
        if meter is None:
            meter = UNLIMITED.meter("reading the tree")
        self.num_players = _count_players(root, players, source)
        n = self.num_players
        self._to_move: list[int] = []
        self._actions: list[tuple[str, ...]] = []
        self._next: list[dict[str, int]] = []
        self._outcomes: list[tuple[tuple[str, float], ...]] = []
        self._utilities: list[tuple[float, ...] | None] = []
        self._labels: list[str | None] = []
        self._parent: list[int] = []
        self._via: list[str] = []
        # Preorder with an explicit stack: a tree typed by hand is shallow, one generated
        # by a script need not be, and recursion would cap its depth.
        stack: list[tuple[RawNode, int, str, int]] = [(root, -1, "", 0)]
        while stack:
            raw, parent, via, next_player = stack.pop()
            meter.tick()
            node = len(self._to_move)
            self._parent.append(parent)
            self._via.append(via)
            self._labels.append(raw.label)
            if raw.kind == LEAF:
                assert raw.values is not None
                values = raw.values
                if len(values) != n:  # a scalar: MAX's utility, MIN's is its negation
                    # 0.0 - v, not -v: a 0 leaf should not give MIN a utility of -0.0.
                    values = (values[0], 0.0 - values[0])
                self._to_move.append(next_player)
                self._actions.append(())
                self._next.append(_NO_CHILDREN)
                self._outcomes.append(())
                self._utilities.append(values)
                continue
            if raw.kind == PLAYER and not 0 <= raw.player < n:
                fail(
                    source,
                    raw.where,
                    f"player {raw.player} does not exist: the tree has {n} players (0..{n - 1})",
                )
            if not raw.children:
                fail(source, raw.where, "a node needs at least one child")
            names = _action_names(raw, source)
            self._to_move.append(raw.player)
            self._actions.append(names)
            self._utilities.append(None)
            self._outcomes.append(_probabilities(raw, names, source) if raw.kind != PLAYER else ())
            self._next.append({})  # filled in when the children get their ids
            after = (raw.player + 1) % n if raw.kind == PLAYER else next_player
            for child, action in zip(reversed(raw.children), reversed(names), strict=True):
                stack.append((child, node, action, after))
            if consume:
                raw.children = []
        # A node's children are numbered after the node, in order: fill in the action maps.
        for node, parent in enumerate(self._parent):
            if parent >= 0:
                self._next[parent][self._via[node]] = node
        leaves = [u for u in self._utilities if u is not None]
        self.utility_range = (min(min(u) for u in leaves), max(max(u) for u in leaves))
        total = sum(leaves[0])
        self.zero_sum = all(math.isclose(sum(u), total, abs_tol=1e-9) for u in leaves)
        self.has_chance = CHANCE in self._to_move
        # Trees whose leaves are all (v, -v) are shown with scalar leaves, as typed.
        self._scalar = n == 2 and all(u[0] == -u[1] for u in leaves)

    # --- construction ---------------------------------------------------------------------

    @classmethod
    def from_text(
        cls, text: str, *, source: str | None = None, name: str = "tree",
        budget: Budget | None = None,
    ) -> TreeGame:
        """The tree written in the compact text form (see the module docstring), read
        within ``budget`` (None: no bound but the caps).

        Raises:
            GameFormatError: the text is not a tree, or is past a cap.
            BudgetExceeded: the budget ran out (or was stopped) while reading.
        """
        meter = (budget or UNLIMITED).meter("reading the tree")
        return cls(
            parse_text(text, source, meter), source=source, name=name, meter=meter, consume=True
        )

    @classmethod
    def from_json(
        cls, obj: Any, *, source: str | None = None, name: str = "tree",
        budget: Budget | None = None,
    ) -> TreeGame:
        """The tree in the JSON form, given as decoded JSON or as JSON text, read within
        ``budget`` (None: no bound but the caps).

        Raises:
            GameFormatError: not JSON, not a tree, or past a cap.
            BudgetExceeded: the budget ran out (or was stopped) while reading.
        """
        if isinstance(obj, str):
            try:
                obj = json.loads(obj)
            except json.JSONDecodeError as exc:
                raise GameFormatError(
                    f"invalid JSON: {exc.msg}", source=source, line=exc.lineno, column=exc.colno
                ) from None
            except ValueError:  # int()'s own limit, inside the JSON decoder
                raise GameFormatError(
                    "a number of more than 4,300 digits; a tree's numbers are finite floats "
                    "and its player numbers small integers", source=source,
                ) from None
            except RecursionError:
                raise GameFormatError("JSON nested too deeply", source=source) from None
        meter = (budget or UNLIMITED).meter("reading the tree")
        try:
            root, players = parse_json(obj, source, meter)
        except RecursionError:
            raise GameFormatError("the tree is nested too deeply", source=source) from None
        del obj  # the decoded JSON: the raw tree holds what is needed
        return cls(root, players=players, source=source, name=name, meter=meter, consume=True)

    @classmethod
    def from_file(
        cls, path: str | Path, *, name: str | None = None, budget: Budget | None = None
    ) -> TreeGame:
        """The tree in ``path``: JSON if it ends in ``.json``, else the text form.

        The game is named ``name``, else after the file (``aima-fig-5-2.tree`` gives
        ``aima-fig-5-2``).

        Raises:
            GameFormatError: the file cannot be read (a FIFO, a device or a directory is
                not read), or is not a tree, or is past a cap.
            InputTooLarge: the file is larger than :data:`plies.budget.MAX_INPUT_BYTES`.
            BudgetExceeded: ``budget`` ran out (or was stopped) while reading.
        """
        path = Path(path)
        name = path.stem if name is None else name
        source = str(path)
        try:
            # -sig: Windows editors add a BOM.  At most MAX_INPUT_BYTES are read.
            text = read_text(path, encoding="utf-8-sig")
        except OSError as exc:
            raise GameFormatError(f"cannot read the tree: {exc.strerror}", source=source) from None
        except UnicodeDecodeError:
            raise GameFormatError("the tree file is not UTF-8 text", source=source) from None
        if path.suffix.lower() == ".json":
            return cls.from_json(text, source=source, name=name, budget=budget)
        return cls.from_text(text, source=source, name=name, budget=budget)

    # --- the Game protocol ---------------------------------------------------------------

    def initial_state(self) -> int:
        return 0

    def to_move(self, state: int) -> int:
        """The player at ``state``, or CHANCE.

        At a leaf, which nobody moves from, this is the player after the nearest player
        node above it (so alternation looks natural), or 0.
        """
        return self._to_move[state]

    def actions(self, state: int) -> tuple[str, ...]:
        return self._actions[state]

    def result(self, state: int, action: str) -> int:
        return self._next[state][action]

    def is_terminal(self, state: int) -> bool:
        return self._utilities[state] is not None

    def utility(self, state: int, player: int) -> float:
        values = self._utilities[state]
        if values is None:
            raise ValueError(f"utility of inner node {self._describe(state)}")
        return values[player]

    def chance_outcomes(self, state: int) -> tuple[tuple[str, float], ...]:
        return self._outcomes[state]

    def format_action(self, state: int, action: str) -> str:
        return action

    def player_name(self, player: int) -> str:
        if self.num_players == 2:
            return "MAX" if player == 0 else "MIN"
        return f"P{player}"

    def render(self, state: int) -> str:
        """One line: what the node is, and the path of actions from the root."""
        path = " ".join(self.path(state)) or "(root)"
        values = self._utilities[state]
        if values is not None:
            shown = _numbers(values, "({})", ", ") if not self._scalar else _number(values[0])
            what = f"leaf {self._labels[state]}" if self._labels[state] else "leaf"
            return f"{what} = {shown}; path: {path}"
        mover = self._to_move[state]
        doing = "chance" if mover == CHANCE else f"{self.player_name(mover)} to move"
        return f"{self._describe(state)}: {doing}; path: {path}"

    # --- tree queries --------------------------------------------------------------------

    def label(self, state: int) -> str | None:
        """The label the file gave the node at ``state``, if any."""
        return self._labels[state]

    def path(self, state: int) -> tuple[str, ...]:
        """The actions that lead from the root to ``state``."""
        steps: list[str] = []
        while state > 0:
            steps.append(self._via[state])
            state = self._parent[state]
        return tuple(reversed(steps))

    def parent(self, state: int) -> int | None:
        """The node above ``state`` (None at the root)."""
        parent = self._parent[state]
        return None if parent < 0 else parent

    def __len__(self) -> int:
        """The number of nodes."""
        return len(self._to_move)

    def to_text(self) -> str:
        """The tree in the compact text form (one node per line, indented)."""
        lines: list[str] = []
        self._write(0, "", 0, lines)
        return "\n".join(lines) + "\n"

    # --- helpers -------------------------------------------------------------------------

    def _describe(self, state: int) -> str:
        label = self._labels[state]
        return f"node {label}" if label else f"node #{state}"

    def _write(self, state: int, prefix: str, indent: int, lines: list[str]) -> None:
        label = self._labels[state]
        head = "  " * indent + prefix + (f"{_quote(label)}: " if label else "")
        values = self._utilities[state]
        if values is not None:
            body = _numbers(values, "[{}]", " ") if not self._scalar else _number(values[0])
            lines.append(head + body)
            return
        mover = self._to_move[state]
        if mover == CHANCE:
            kind = "chance"
        elif self.num_players == 2:
            kind = "max" if mover == 0 else "min"
        else:
            kind = f"p{mover}"
        odds = dict(self._outcomes[state])
        entries: list[tuple[str, int]] = []
        for position, action in enumerate(self._actions[state], start=1):
            child = self._next[state][action]
            edge = f"{odds[action]!r}: " if mover == CHANCE else ""
            if action != (self._labels[child] or str(position)):
                edge += f"{_quote(action)} -> "
            entries.append((edge, child))
        if all(self._utilities[child] is not None for _, child in entries):
            # A node over leaves only fits on one line, as people write it.
            inline: list[str] = []
            for edge, child in entries:
                self._write(child, edge, 0, inline)
            lines.append(f"{head}{kind}({'  '.join(inline)})")
            return
        lines.append(head + kind + "(")
        for edge, child in entries:
            self._write(child, edge, indent + 1, lines)
        lines.append("  " * indent + ")")


def _number(value: float) -> str:
    # Integers as integers (3, not 3.0); anything else exactly, so to_text() round-trips.
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


def _numbers(values: Sequence[float], frame: str, sep: str) -> str:
    return frame.format(sep.join(map(_number, values)))


def _quote(name: str) -> str:
    bare = name[:1].isalpha() or name[:1] == "_"
    return name if bare and all(ch.isalnum() or ch in "_'" for ch in name) else f'"{name}"'


def _count_players(root: RawNode, declared: int | None, source: str | None) -> int:
    """The number of players: declared, else the vector leaves' length, else 2."""
    leaves: list[RawNode] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.kind == LEAF:
            leaves.append(node)
        stack.extend(reversed(node.children))
    n = declared
    if n is None:
        vectors = [leaf for leaf in leaves if not leaf.scalar]
        n = len(vectors[0].values or ()) if vectors else 2
    if n > MAX_PLAYERS:  # the readers check this; a RawNode built by hand may not be
        fail(source, root.where, f"{n:,} players: {PLAYERS_CAP}")
    for leaf in leaves:
        size = len(leaf.values or ())
        if leaf.scalar and n != 2:
            example = " ".join(["0"] * n) if n <= 8 else "0 0 ... 0"
            fail(
                source,
                leaf.where,
                f"a single number is a two-player leaf, but this tree has "
                f"{n} players: write one value per player, like [{example}]",
            )
        if not leaf.scalar and size != n:
            fail(source, leaf.where, f"leaf has {size} values but the tree has {n} players")
    return n


def _action_names(raw: RawNode, source: str | None) -> tuple[str, ...]:
    """Each child's action: explicit name, else label, else 1-based position."""
    names: list[str] = []
    seen: dict[str, int] = {}
    for position, child in enumerate(raw.children, start=1):
        name = child.action or child.label or str(position)
        # parse_action matches case-insensitively, so "a" and "A" would be one action.
        folded = name.lower()
        if folded in seen:
            fail(
                source,
                child.entry,
                f"two children of {raw.describe()} are both reached by "
                f"action {quoted(name)} (children {seen[folded]} and {position}); "
                f"give them distinct labels",
            )
        seen[folded] = position
        names.append(name)
    return tuple(names)


def _probabilities(
    raw: RawNode, names: Sequence[str], source: str | None
) -> tuple[tuple[str, float], ...]:
    probs = [child.prob for child in raw.children]
    if all(p is None for p in probs):
        return tuple((name, 1.0 / len(names)) for name in names)
    for child in raw.children:
        if child.prob is None:
            fail(
                source,
                child.entry,
                "give every child of a chance node a probability, or none (equally likely)",
            )
        elif not 0.0 < child.prob <= 1.0:
            fail(source, child.prob_where, f"probability {child.prob:g} is not in (0, 1]")
    total = math.fsum(p for p in probs if p is not None)
    if not math.isclose(total, 1.0, rel_tol=0.0, abs_tol=1e-9):
        fail(source, raw.where, f"the probabilities of {raw.describe()} sum to {total:.12g}, not 1")
    return tuple((name, float(p)) for name, p in zip(names, probs, strict=True) if p is not None)


# --- the source of .tree and .json specs ------------------------------------------------------


def _load(spec: str, options: Mapping[str, Any], budget: Budget | None) -> TreeGame:
    return TreeGame.from_file(spec, budget=budget)


def _from_text(text: str, name: str, budget: Budget | None) -> TreeGame:
    """The tree a file's text holds (JSON when it starts with ``{`` or ``[``), named after
    the file ``name`` without its folders and suffix."""
    stem = name.replace("\\", "/").rsplit("/", 1)[-1]
    for suffix in (".tree", ".json"):
        stem = stem.removesuffix(suffix)
    if text.lstrip().startswith(("{", "[")):
        return TreeGame.from_json(text, source=name, name=stem or "tree", budget=budget)
    try:
        return TreeGame.from_text(text, source=name, name=stem or "tree", budget=budget)
    except RecursionError:
        raise GameFormatError("the tree is nested too deeply", source=name) from None


SOURCE = Source(
    "a tree file", _load, from_text=_from_text, resolve=lambda spec: str(Path(spec).resolve()),
    takes_options=False,
)
"""``.tree`` and ``.json`` files (:mod:`plies.sources`)."""
