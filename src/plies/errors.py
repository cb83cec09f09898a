"""One exception tree for plies.

Library code raises these; only the CLI's ``main`` turns them into a one-line message
and an exit code.  Every error a user can cause by bad input is a :class:`PliesError`.
"""

from __future__ import annotations

from collections.abc import Iterable


def quoted(text: str, width: int = 40) -> str:
    """``text`` quoted for an error message, cut to ``width`` characters when longer, so
    that a message about a 5,000-character argument stays one short line.

    >>> quoted("nim"), quoted("7" * 5000, 8)
    ("'nim'", "'77777777...' (5,000 characters)")
    """
    if len(text) <= width:
        return repr(text)
    return f"{text[:width]!r}"[:-1] + f"...' ({len(text):,} characters)"


def bounded(text: str, limit: int = 200) -> str:
    """``text`` for a message on one line, cut to ``limit`` characters when longer, with its
    length, so that a message about a 16 MiB input (or one listing a value per player of a
    billion) stays one short line.  Runs of white space, newlines included, become one
    space; only the first ``4 * limit`` characters are looked at.

    >>> bounded("[1,\\n 2]"), bounded("x" * 5000, 8)
    ('[1, 2]', 'xxxxxxxx... (5,000 characters)')
    """
    line = " ".join(text[: 4 * limit].split())
    if len(line) <= limit and len(text) <= 4 * limit:
        return line
    return f"{line[:limit]}... ({len(text):,} characters)"


class PliesError(Exception):
    """Base class of every error plies raises on purpose."""


class IllegalActionError(PliesError, ValueError):
    """An action that is not legal in the given state.

    The message names the action and lists the legal ones.
    """

    def __init__(self, action: object, legal: Iterable[str], *, context: str = "") -> None:
        self.action = action
        self.legal = list(legal)
        where = f" {context}" if context else ""
        shown = ", ".join(self.legal) if self.legal else "(none: the game is over)"
        super().__init__(f"illegal move {action!r}{where}; legal moves: {shown}")


class UnknownGameError(PliesError, LookupError):
    """A game name that is not in the registry.

    The message lists the registered games; ``hint`` (a likely fix) and ``accepts`` (what
    else a spec may be) add to it.
    """

    def __init__(
        self, name: str, known: Iterable[str], *, hint: str = "", accepts: str = ""
    ) -> None:
        self.name = name
        self.known = sorted(known)
        aside = f" ({hint})" if hint else ""
        more = f"; {accepts}" if accepts else ""
        super().__init__(
            f"unknown game {quoted(name, 60)}{aside}; available games: "
            f"{', '.join(self.known)}{more}"
        )


class GameSpecError(PliesError, LookupError):
    """A ``module:attribute`` game spec that names no game.

    The message says what failed (the module, the attribute, or what it names) and what a
    spec may name: a game class, a factory that returns a game, or a game instance.
    """


class GameFormatError(PliesError, ValueError):
    """A malformed game description (tree file, option value, ...).

    ``line`` and ``column`` are 1-based when known.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.source = source
        self.line = line
        self.column = column
        where = ""
        if source is not None:  # compiler style: file:line:column
            shown = bounded(source, 120)  # a path given on the command line may be any length
            where = ":".join(str(part) for part in (shown, line, column) if part is not None)
        elif line is not None:
            where = f"line {line}" if column is None else f"line {line}, column {column}"
        super().__init__(f"{where}: {message}" if where else message)


class UnsupportedGameError(PliesError, TypeError):
    """An algorithm was given a game (or a node type) it cannot search correctly."""


class MissingExtraError(UnsupportedGameError):
    """What was asked for needs an optional dependency that is not installed.

    The message names the package and the line that installs it
    (``chess needs python-chess: pip install 'plies[chess]'``); ``extra`` is the name of
    plies' extra, ``package`` the distribution it brings.
    """

    def __init__(self, what: str, package: str, extra: str) -> None:
        super().__init__(f"{what} needs {package}: {install_line(extra)}")
        self.what, self.package, self.extra = what, package, extra


def install_line(extra: str) -> str:
    """The command that installs plies with ``extra``: ``pip install 'plies[chess]'``."""
    return f"pip install 'plies[{extra}]'"


class GameDefinitionError(PliesError, TypeError):
    """A game class that does not define what the game model requires.

    Raised when such a game is made (not deep inside a search); the message names the
    class, the missing or ill-typed members and what a game needs.
    """


class AlgorithmDefinitionError(PliesError, TypeError):
    """An algorithm entry that does not meet the registry's contract (its ``search`` does
    not take the keywords every search takes, a capability of the wrong kind, a name that
    is taken or reserved).

    Raised when the entry is made or registered; the message names the algorithm, what
    is wrong and what is accepted (see :mod:`plies.search.registry`).
    """


class SearchLimitError(PliesError):
    """A search could not finish a single useful iteration within its limit."""


class OptionError(PliesError, ValueError):
    """A search option with a value that is not accepted (the message lists what is)."""


class UsageError(PliesError):
    """A command-line argument that argparse accepted but plies cannot use."""


class WeightsFileError(PliesError, ValueError):
    """A weights file (:mod:`plies.linear`) that is missing, unreadable, malformed, or
    for another game; the message names the file, what was wrong and what is expected."""


class OutputFileError(PliesError):
    """A file plies cannot or may not write (:mod:`plies.outputs`): a directory, a missing
    or unwritable directory, not a regular file, a file that is not plies' own output
    (without ``--force``), or a write that failed (the existing file is then unchanged)."""


class GdlValidationError(GameFormatError):
    """A GDL description that parses but breaks a restriction of the language.

    The message names the check (e.g. ``safety``), the offending sentence in KIF and its
    line; ``diagnostics`` holds every problem found (errors and warnings).
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
        diagnostics: Iterable[object] = (),
    ) -> None:
        super().__init__(message, source=source, line=line, column=column)
        self.diagnostics = list(diagnostics)
