"""The board a game draws: what its ``board(state, last)`` hook returns.

A :class:`Board` is a grid of cells, numbered row by row from the top left, each holding
a *mark* (``"X"``, ``"K"``, ``"W"``...) or nothing, plus what a front end needs to draw
it and to play on it: how each mark looks (:class:`Mark`), labels (the coordinates of
the columns and rows, a short text per cell), highlights (the last move, an alert such as
a king in check), where a move is made (a click on a cell, in a column, on two cells in
turn, or a button beside the board) and a caption.  It is plain, frozen data that
:meth:`Board.as_dict` turns into JSON, so every front end draws the same model:

- the web app (``plies web``) draws it in the page and plays the moves it names;
- the terminal (``plies play``, ``plies solve``) prints it with Rich
  (:meth:`Board.__rich_console__`): glyphs and colours in a colour terminal, the marks'
  plain letters elsewhere;
- a notebook shows it as a picture (:meth:`Board._repr_svg_`, :func:`board_svg`).

>>> from plies.games import load
>>> othello = load("othello")
>>> svg = board_svg(othello.board(othello.initial_state()))
>>> svg.startswith("<svg") and svg.count("<circle") == 4
True

A game without a board is drawn by its ``render`` text, everywhere.

>>> from plies.games import load
>>> ttt = load("tictactoe")
>>> board = ttt.board(ttt.result(ttt.initial_state(), 4), last=4)
>>> board.cells[3:6], board.cell_moves[3:6], board.last
(('', 'X', ''), ('4', None, '6'), (4,))
>>> print(board.text())
1 2 3
4 X 6
7 8 9
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from html import escape
from typing import TYPE_CHECKING, Any, Final, Literal

from plies.errors import GameDefinitionError

if TYPE_CHECKING:  # Rich is an optional extra, imported when a board is printed with it
    from rich.console import Console, ConsoleOptions, RenderResult
    from rich.text import Text

Shape = Literal["text", "disc", "dot", "block", "square"]
SHAPES: Final = ("text", "disc", "dot", "block", "square")


@dataclass(frozen=True, slots=True)
class Mark:
    """How a mark is drawn.

    ``shape``: ``"text"`` (``text`` written in the cell: a letter or a glyph such as
    ``"♚"``), ``"disc"`` (a stone filling the cell), ``"dot"`` (a small disc, a
    pellet), ``"block"`` (the whole cell, a wall or water) or ``"square"`` (a square
    inside the cell, a building or a city).  ``color``: a CSS colour (``"#e03131"``);
    ``""`` is the front end's ink.  ``plain``: the mark as text where nothing is drawn
    in colour (a terminal without colour, a text copy), such as ``"%"`` for a wall;
    ``""`` is the mark itself.  ``inner``: the colour of a small disc drawn inside the
    mark (a unit standing in its city), ``""`` for none.
    """

    shape: Shape = "text"
    text: str = ""
    color: str = ""
    plain: str = ""
    inner: str = ""

    def __post_init__(self) -> None:
        if self.shape not in SHAPES:
            raise GameDefinitionError(
                f"a board mark's shape is one of {', '.join(SHAPES)}, not {self.shape!r}"
            )


@dataclass(frozen=True, slots=True)
class FromTo:
    """A move made by clicking two cells in turn, a piece and its target (chess).

    ``promotion``: what a pawn becomes (``"q"``, ``"n"``...), None for other moves; the
    moves of one pair of cells differ only by it.
    """

    source: int
    target: int
    move: str
    promotion: str | None = None


@dataclass(frozen=True, slots=True)
class Board:
    """A position as a grid that front ends draw and play on (see the module docstring).

    ``rows`` x ``columns`` cells, numbered row by row from the top left; ``cells[i]`` is
    the mark on cell ``i`` or ``""``.  ``marks`` says how each mark is drawn (a mark
    left out is written as its own text).  ``kind`` names a look the web page has a
    stylesheet for (``"tictactoe"``, ``"connect4"``, ``"othello"``, ``"chess"``,
    ``"pacman"``); ``""``, any other board, is drawn from its marks alone.
    ``background`` is the board's colour (``""``: the front end's).

    Labels: ``labels[i]`` a short text on cell ``i`` (a city's size, a move's value;
    empty: none); ``files`` the columns' names left to right and ``ranks`` the rows'
    top down (coordinates; empty: none).

    Moves, as the game writes them (``format_action``): ``cell_moves[i]`` the move a
    click on cell ``i`` plays (None: none); ``column_moves[c]`` the move a click in
    column ``c`` plays (Connect Four); ``from_to`` the moves made by two clicks, a
    piece and its target; ``extra_moves`` the moves on no cell (Othello's ``pass``),
    offered beside the board.  A cell may have a move of its own and start from-to
    moves too: the web page then picks it on the first click (showing its targets), and
    a second click on it plays its own move.  A board that names no move at all leaves
    playing to the front end's list of legal moves.

    Highlights: ``last`` the cells of the move that led here, ``alert`` cells to flag
    (a king in check).  ``caption``: text under the board (a disc count, "White is in
    check"; lines split at newlines).  ``checkered``: light and dark squares.
    ``rotatable``: a front end may turn the board round for the second player.
    ``blank``: an empty cell as plain text (``"."``; a maze's floor may be ``" "``).

    Map colours: ``grounds[i]`` the colour of cell ``i``'s ground (terrain: plains,
    hills, water; ``""``: the board's background) and ``tints[i]`` a colour laid
    thinly over it (a region, such as the territory of an empire; ``""``: none);
    ``ground_text[i]`` the ground of an empty cell as plain text (``"^"`` hills); each
    may be empty.

    ``player_marks[p]``: the mark that stands for player ``p`` (Connect Four's red
    stone for X), drawn beside the player's name; empty: none.
    """

    rows: int
    columns: int
    cells: tuple[str, ...]
    kind: str = ""
    marks: Mapping[str, Mark] = field(default_factory=dict)
    background: str = ""
    labels: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    ranks: tuple[str, ...] = ()
    cell_moves: tuple[str | None, ...] = ()
    column_moves: tuple[str | None, ...] = ()
    from_to: tuple[FromTo, ...] = ()
    extra_moves: tuple[str, ...] = ()
    last: tuple[int, ...] = ()
    alert: tuple[int, ...] = ()
    caption: str = ""
    checkered: bool = False
    rotatable: bool = False
    blank: str = "."
    grounds: tuple[str, ...] = ()
    tints: tuple[str, ...] = ()
    ground_text: tuple[str, ...] = ()
    player_marks: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        size = self.rows * self.columns
        problems = []
        if self.rows < 1 or self.columns < 1:
            problems.append(f"it has {self.rows} rows and {self.columns} columns")
        for name, length in (("cells", size), ("labels", size), ("cell_moves", size),
                             ("grounds", size), ("tints", size), ("ground_text", size),
                             ("column_moves", self.columns), ("files", self.columns),
                             ("ranks", self.rows)):
            have = len(getattr(self, name))
            if (have or name == "cells") and have != length:
                problems.append(f"{name} has {have} entries, not {length}")
        cells = [*self.last, *self.alert, *(m.source for m in self.from_to),
                 *(m.target for m in self.from_to)]
        if any(not 0 <= i < size for i in cells):
            problems.append(f"a highlight or a move names a cell outside 0..{size - 1}")
        if problems:
            raise GameDefinitionError(f"not a board: {'; '.join(problems)}")

    @property
    def playable(self) -> bool:
        """True when the board names moves (clicks or buttons beside it)."""
        return bool(self.named_moves())

    def cells_of(self, move: str) -> tuple[int, ...]:
        """The cells a click on which plays ``move``: its cell, its column's top cell, or
        a from-to move's two cells (empty when the board does not name it)."""
        found = [i for i, m in enumerate(self.cell_moves) if m == move]
        found += [c for c, m in enumerate(self.column_moves) if m == move]
        for pair in self.from_to:
            if pair.move == move:
                found += [pair.source, pair.target]
        return tuple(dict.fromkeys(found))

    def named_moves(self) -> list[str]:
        """Every move the board names: on cells, in columns, as from-to pairs, beside it."""
        cells = [m for m in (*self.cell_moves, *self.column_moves) if m is not None]
        return [*cells, *(pair.move for pair in self.from_to), *self.extra_moves]

    def with_labels(self, texts: Mapping[str, str]) -> Board:
        """This board with ``texts[move]`` written on the cell where ``move`` is made (a
        from-to move's target), such as the value of every move of an analysis."""
        labels = list(self.labels or [""] * len(self.cells))
        for move, text in texts.items():
            where = self.cells_of(move)
            if where:
                labels[where[-1]] = text
        return replace(self, labels=tuple(labels))

    def as_dict(self) -> dict[str, Any]:
        """The board as JSON-ready data (what the web app draws): every field, ``from_to``
        pairs as ``{"from", "to", "move", "promotion"}``, ``marks`` as ``{mark: {"shape",
        "text", "color", "plain"}}``."""
        return {
            "kind": self.kind,
            "rows": self.rows,
            "columns": self.columns,
            "cells": list(self.cells),
            "marks": {
                name: {"shape": m.shape, "text": m.text or name, "color": m.color,
                       "plain": m.plain or name, "inner": m.inner}
                for name, m in self.marks.items()
            },
            "background": self.background,
            "labels": list(self.labels),
            "files": list(self.files),
            "ranks": list(self.ranks),
            "cell_moves": list(self.cell_moves),
            "column_moves": list(self.column_moves),
            "from_to": [
                {"from": m.source, "to": m.target, "move": m.move, "promotion": m.promotion}
                for m in self.from_to
            ],
            "extra_moves": list(self.extra_moves),
            "last": list(self.last),
            "alert": list(self.alert),
            "caption": self.caption,
            "checkered": self.checkered,
            "rotatable": self.rotatable,
            "blank": self.blank,
            "grounds": list(self.grounds),
            "tints": list(self.tints),
            "ground_text": list(self.ground_text),
            "player_marks": list(self.player_marks),
        }

    # --- pictures ----------------------------------------------------------------------------

    def plain(self, i: int) -> str:
        """What cell ``i`` shows as plain text: its label, else its mark's plain text;
        an empty cell shows the move a click there plays if it is one character (the
        numbers of tic-tac-toe's squares), else :attr:`blank`."""
        if self.labels and self.labels[i]:
            return self.labels[i]
        mark = self.cells[i]
        if mark:
            look = self.marks.get(mark)
            return (look.plain if look is not None and look.plain else mark)
        if self.ground_text and self.ground_text[i]:
            return self.ground_text[i]
        move = self.cell_moves[i] if self.cell_moves else None
        return move if move is not None and len(move) == 1 else self.blank

    def text(self) -> str:
        """The board as plain text: the plain text of every cell, the coordinates, the
        caption (what a terminal without colour prints)."""
        return "\n".join(_text_lines(self))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """Rich prints the board: in colour with glyphs and highlights on a colour
        terminal, else as :meth:`text`."""
        if console.color_system is None:
            from rich.text import Text

            yield Text(self.text())
            return
        yield rich_board(self)

    def _repr_svg_(self) -> str:
        """A notebook shows the board as a picture."""
        return board_svg(self)

    def _repr_html_(self) -> str:
        """The picture inline (an HTML page cannot hold an XML declaration)."""
        return f'<div class="plies-board">{self._repr_svg_()}</div>'


def _text_lines(board: Board) -> Iterator[str]:
    columns = board.columns
    shown = [board.plain(i) for i in range(len(board.cells))]
    width = max(1, *(len(s) for s in shown), *(len(f) for f in board.files))
    left = max((len(r) for r in board.ranks), default=0)
    for r in range(board.rows):
        row = " ".join(s.center(width) if width > 1 else s
                       for s in shown[r * columns:(r + 1) * columns])
        yield f"{board.ranks[r].rjust(left)} {row}".rstrip() if left else row.rstrip()
    if board.files:
        files = " ".join(f.center(width) if width > 1 else f for f in board.files)
        yield (" " * (left + 1) if left else "") + files.rstrip()
    if board.caption:
        yield board.caption


# --- pictures: an SVG for notebooks and pages, Rich for colour terminals ---------------------
#
# Both draw what the board says and nothing per game: cells (checkered, or on the board's
# background), each mark by its Mark (a glyph, a disc, a dot, a block), per-cell labels,
# the last move and alerts, the coordinates and the caption.

CELL: Final = 40
"""Pixels a cell of the SVG picture is wide and high."""

LIGHT: Final = "#f0d9b5"
DARK: Final = "#b58863"
GROUND: Final = "#f7f5ef"
LINES: Final = "#b9b2a3"
LAST: Final = "#f2c94c"
ALERT: Final = "#e03131"
INK: Final = "#222222"


def luminance(color: str) -> float | None:
    """The relative lightness 0..1 of a ``#rrggbb`` colour (None for other notations)."""
    if len(color) != 7 or not color.startswith("#"):
        return None
    try:
        r, g, b = (int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    except ValueError:
        return None
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


TINT: Final = 0.35
"""How strongly a cell's tint covers its ground."""


def _cell_ground(board: Board, i: int) -> str:
    """The colour under cell ``i`` (before highlights): its ground with its tint."""
    if board.checkered:
        row, column = divmod(i, board.columns)
        return DARK if (row + column) % 2 else LIGHT
    ground = (board.grounds[i] if board.grounds else "") or board.background or GROUND
    tint = board.tints[i] if board.tints else ""
    return blend(ground, tint, TINT) if tint else ground


def blend(under: str, over: str, amount: float) -> str:
    """``over`` laid on ``under`` with opacity ``amount`` (``#rrggbb`` colours; another
    notation of either leaves ``under``)."""
    if luminance(under) is None or luminance(over) is None:
        return under
    mixed = (round(int(under[k:k + 2], 16) * (1 - amount) + int(over[k:k + 2], 16) * amount)
             for k in (1, 3, 5))
    return "#" + "".join(f"{c:02x}" for c in mixed)


def _ink_on(ground: str) -> str:
    light = luminance(ground)
    return "#ffffff" if light is not None and light < 0.45 else INK


def board_svg(board: Board) -> str:
    """The board as a self-contained SVG picture (no XML declaration, so it also goes
    inline into HTML)."""
    c = CELL
    left = 18 if board.ranks else 0
    bottom = 20 if board.files else 0
    pad = 4 if board.background else 0
    width = left + 2 * pad + board.columns * c
    grid_h = board.rows * c + 2 * pad
    height = grid_h + bottom + 17 * len(board.caption.splitlines()) + (7 if board.caption else 0)
    width = max(width, left + 7 * max((len(line) for line in board.caption.splitlines()),
                                      default=0))
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Segoe UI Symbol, '
        f'sans-serif">'
    ]
    if board.background:
        out.append(f'<rect x="{left}" y="0" width="{width - left}" height="{grid_h}" '
                   f'rx="6" fill="{escape(board.background)}"/>')
    last, alert = set(board.last), set(board.alert)
    for i, mark in enumerate(board.cells):
        row, column = divmod(i, board.columns)
        x, y = left + pad + column * c, pad + row * c
        ground = _cell_ground(board, i)
        if board.checkered or not board.background or board.grounds or board.tints:
            stroke = "" if board.checkered else f' stroke="{LINES}"'
            out.append(f'<rect x="{x}" y="{y}" width="{c}" height="{c}" '
                       f'fill="{escape(ground)}"{stroke}/>')
        else:
            out.append(f'<rect x="{x + 1}" y="{y + 1}" width="{c - 2}" height="{c - 2}" '
                       f'fill="none" stroke="#00000022"/>')
        if i in last:
            out.append(f'<rect x="{x}" y="{y}" width="{c}" height="{c}" fill="{LAST}" '
                       f'fill-opacity="0.55"/>')
        if i in alert:
            out.append(f'<circle cx="{x + c / 2}" cy="{y + c / 2}" r="{c * 0.46}" '
                       f'fill="{ALERT}" fill-opacity="0.75"/>')
        if mark:
            out.append(_mark_svg(board.marks.get(mark, Mark()), mark, x, y, ground))
        if board.labels and board.labels[i]:
            ink = _ink_on(ground)
            out.append(f'<text x="{x + c - 3}" y="{y + c - 4}" font-size="11" '
                       f'text-anchor="end" fill="{ink}">{escape(board.labels[i])}</text>')
    for r, rank in enumerate(board.ranks):
        out.append(f'<text x="{left - 5}" y="{pad + r * c + c / 2 + 4}" font-size="12" '
                   f'text-anchor="end" fill="#555">{escape(rank)}</text>')
    for col, file in enumerate(board.files):
        out.append(f'<text x="{left + pad + col * c + c / 2}" y="{grid_h + 14}" '
                   f'font-size="12" text-anchor="middle" fill="#555">{escape(file)}</text>')
    for n, line in enumerate(board.caption.splitlines()):
        out.append(f'<text x="{left}" y="{grid_h + bottom + 16 + 17 * n}" font-size="13" '
                   f'fill="#333">{escape(line)}</text>')
    out.append("</svg>")
    return "".join(out)


def _mark_svg(look: Mark, mark: str, x: float, y: float, ground: str) -> str:
    c = CELL
    cx, cy = x + c / 2, y + c / 2
    color = escape(look.color or INK)
    if look.shape == "disc":
        return (f'<circle cx="{cx}" cy="{cy}" r="{c * 0.4}" fill="{color}" '
                f'stroke="#00000055"/>')
    if look.shape == "dot":
        return f'<circle cx="{cx}" cy="{cy}" r="{c * 0.12}" fill="{color}"/>'
    if look.shape == "block":
        return f'<rect x="{x}" y="{y}" width="{c}" height="{c}" fill="{color}"/>'
    if look.shape == "square":
        inner = (f'<circle cx="{cx}" cy="{cy}" r="{c * 0.17}" fill="{escape(look.inner)}" '
                 f'stroke="#00000055"/>' if look.inner else "")
        return (f'<rect x="{x + c * 0.14}" y="{y + c * 0.14}" width="{c * 0.72}" '
                f'height="{c * 0.72}" rx="3" fill="{color}" stroke="#00000055"/>{inner}')
    text = look.text or mark
    light = luminance(look.color) if look.color else None
    outline = (' stroke="#333333" stroke-width="0.8" paint-order="stroke"'
               if light is not None and light > 0.75 else "")
    size = c * 0.72 if len(text) == 1 else c * 0.9 / max(len(text), 1) * 1.6
    return (f'<text x="{cx}" y="{cy + size * 0.35}" font-size="{size:.1f}" '
            f'text-anchor="middle" fill="{color}"{outline}>{escape(text)}</text>')


def rich_board(board: Board) -> Text:
    """The board for a colour terminal: each cell a few columns wide on its ground colour,
    marks as glyphs or coloured stones, the last move and alerts highlighted."""
    from rich.text import Text

    shown = [_rich_cell(board, i) for i in range(len(board.cells))]
    width = max(1, *(len(s) for s, _, _ in shown), *(len(f) for f in board.files))
    left = max((len(r) for r in board.ranks), default=0)
    text = Text()
    for r in range(board.rows):
        if left:
            text.append(board.ranks[r].rjust(left) + " ", style="dim")
        for col in range(board.columns):
            i = r * board.columns + col
            content, fg, fill = shown[i]
            ground = fill or _cell_ground(board, i)
            if i in board.alert:
                ground = ALERT
            elif i in board.last:
                ground = LAST
            text.append(f" {content.center(width)} ", style=f"bold {fg} on {ground}")
        text.append("\n")
    if board.files:
        text.append(" " * (left + 1 if left else 0)
                    + "".join(f" {f.center(width)} " for f in board.files) + "\n", style="dim")
    if board.caption:
        text.append(board.caption + "\n")
    text.rstrip()
    return text


def _rich_cell(board: Board, i: int) -> tuple[str, str, str | None]:
    """What cell ``i`` shows in colour, the colour it is written in, and the colour of
    the whole cell when its mark fills it (a block), else None."""
    ground = _cell_ground(board, i)
    mark = board.cells[i]
    look = board.marks.get(mark, Mark()) if mark else None
    own = look.color if look is not None and look.color.startswith("#") else ""
    color = own or _ink_on(ground)
    if board.labels and board.labels[i]:
        if look is not None and look.shape == "block" and own:
            return board.labels[i], _ink_on(own), own
        return board.labels[i], color, None
    if look is None:
        plain = board.plain(i)
        return ("" if plain == board.blank else plain), "#8a8a8a", None
    if look.shape == "disc":
        return "\u25cf", color, None  # a black circle
    if look.shape == "dot":
        return "\u2022", color, None  # a bullet
    if look.shape == "block":
        return "", color, own or INK
    if look.shape == "square":
        return ("\u25a3" if look.inner else "\u25a0"), color, None  # a square (with a dot)
    return look.text or mark, color, None


__all__ = [
    "CELL", "SHAPES", "Board", "FromTo", "Mark", "Shape", "blend", "board_svg", "luminance",
    "rich_board",
]

