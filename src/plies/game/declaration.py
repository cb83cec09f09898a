"""What a game declares to the loader: its name, a description and its options.

A game class (or a factory that returns a game) says how people choose it and set it up
with three optional attributes, read by every front end (``plies games``, the command
line's ``-o``, the web app's form, tournaments)::

    class Kalah(plies.Game[KalahState, int]):
        name = "kalah"
        description = "Kalah: sow seeds counter-clockwise; the larger store wins"
        options = (
            Option("pits", INT, 6, "pits on each side", bounds=(1, 12)),
            Option("seeds", INT, 4, "seeds in each pit at the start", bounds=(1, 12)),
        )

        def __init__(self, pits: int = 6, seeds: int = 4) -> None: ...

``options`` are keywords of the class's ``__init__`` (or of the factory), with their
types (:mod:`plies.game.options`), defaults and the bounds the game accepts.  A factory
declares the same with :func:`declare`.  Without ``options`` they are read from the
signature: each keyword with a default and an annotation of ``int``, ``bool``, ``float``,
``str``, ``tuple[int, ...]``, ``int | None`` or a ``Literal`` of words becomes an option of
that type (any other is read as a Python literal), with no bounds.  Without
``description`` the first line of the docstring serves; without ``name`` the class's (or
factory's) own name.

:func:`game_info` reads a declaration into a :class:`GameInfo`, the loader's view of a
game.  A :class:`Source` is the other thing the loader reads: a kind of spec besides a
name (a file format, a scheme such as ``openspiel:``), see :mod:`plies.sources`.

>>> from plies.game.options import INT
>>> def stones(count: int = 5, greedy: bool = False) -> Any:
...     "Stones: a heap, take one or two."
>>> info = game_info("stones", stones)
>>> info.description
'Stones: a heap, take one or two.'
>>> info.accepted()
'options: count (int, default 5), greedy (bool, default false)'
>>> info.parse(["count=7"])
{'count': 7}
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeVar, Union

from plies.budget import Budget
from plies.errors import GameFormatError, quoted
from plies.game.model import Game
from plies.game.options import (
    BOOL,
    FLOAT,
    INT,
    INTS,
    LITERAL,
    OPTIONAL_INT,
    TEXT,
    Option,
    OptionType,
    TooLong,
    choice,
)

F = TypeVar("F", bound=Callable[..., Any])


def declare(
    *, name: str | None = None, description: str | None = None,
    options: Sequence[Option] | None = None,
) -> Callable[[F], F]:
    """Declare a factory's ``name``, ``description`` and ``options`` (what a class writes
    as class attributes).

    >>> @declare(description="Ten sticks", options=())
    ... def ten() -> Any: ...
    >>> game_info("ten", ten).description
    'Ten sticks'
    """

    def mark(factory: F) -> F:
        for attribute, value in (("name", name), ("description", description)):
            if value is not None:
                setattr(factory, attribute, value)
        if options is not None:
            factory.options = tuple(options)  # type: ignore[attr-defined]
        return factory

    return mark


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game as the loader knows it: a name, a one-line description, a factory and the
    options the factory takes.

    ``open`` marks options read from a signature rather than declared: an option not
    among them is still passed on (as a Python literal when given as text), and the
    factory's own signature decides whether it is taken.
    """

    name: str
    description: str
    factory: Callable[..., Any]
    options: tuple[Option, ...] = ()
    open: bool = field(default=False, kw_only=True)

    def option(self, name: str) -> Option:
        """The option called ``name``; :class:`GameFormatError` if there is none."""
        for option in self.options:
            if option.name == name:
                return option
        raise GameFormatError(f"unknown option {name!r} for {self.name}; {self.accepted()}")

    def accepted(self) -> str:
        """One line listing the accepted options."""
        if not self.options:
            return f"{self.name} takes no options"
        return "options: " + ", ".join(option.describe() for option in self.options)

    def defaults(self) -> dict[str, Any]:
        """Each option's default, by name."""
        return {option.name: option.default for option in self.options}

    def options_help(self) -> str:
        """The options with their defaults, as typed: ``"goal=7 max_turns=4"``."""
        return " ".join(f"{o.name}={o.type.show(o.default)}" for o in self.options)

    def parse(self, items: Iterable[str]) -> dict[str, Any]:
        """Typed keyword arguments from ``"key=value"`` texts, each held to its bounds.

        Raises:
            GameFormatError: an item without ``=``, an unknown or repeated option, or a
                value that does not read as the option's type or lies out of its bounds.
                The message names the option and lists the accepted ones.
        """
        texts = option_texts(items, self.accepted())
        return {key: self.typed(key, text) for key, text in texts.items()}

    def typed(self, key: str, value: Any) -> Any:
        """The value of option ``key`` as the factory takes it.

        Text is read by the option's type and held to its bounds (text comes from people);
        a typed Python value must be of the type, and may lie beyond the bounds (the
        factory still refuses what the game cannot play).

        Raises:
            GameFormatError: an unknown option, or a value that is not of its type or (as
                text) out of its bounds.
        """
        if self.open and all(option.name != key for option in self.options):
            return LITERAL.parse(value) if isinstance(value, str) else value
        option = self.option(key)
        if isinstance(value, str):
            try:
                typed = option.type.parse(value)
            except TooLong:
                raise GameFormatError(
                    f"option {option.name}={quoted(value)} is out of range: {self.name} "
                    f"accepts {option.accepted_range()}"
                ) from None
            except ValueError:
                pass
            else:
                option.check(typed, self.name)
                return typed
        elif option.type.accepts(value):
            return tuple(value) if option.type is INTS else value
        shown = quoted(value) if isinstance(value, str) else repr(value)
        raise GameFormatError(
            f"option {option.name}={shown} is not a valid {option.type.name}; {self.accepted()}"
        )

    def make(self, options: Mapping[str, Any] = {}) -> Any:
        """A new game from the factory: the declared defaults, then ``options`` (typed
        values or text, see :meth:`typed`)."""
        kwargs = {} if self.open else self.defaults()
        kwargs.update((key, self.typed(key, value)) for key, value in options.items())
        return self.factory(**kwargs)


def option_texts(items: Iterable[str], accepted: str = "") -> dict[str, str]:
    """``{"key": "value"}`` from ``"key=value"`` texts (keys stripped, values as typed).

    Raises:
        GameFormatError: an item without ``=`` or a key, or a key given twice; the message
            ends with ``accepted`` (the options a game takes) when it is given.
    """
    texts: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            tail = f"; {accepted}" if accepted else ""
            raise GameFormatError(f"option {quoted(item)} is not key=value{tail}")
        if key in texts:
            raise GameFormatError(f"option {key!r} given twice")
        texts[key] = value
    return texts


def game_info(name: str, target: Any) -> GameInfo:
    """The :class:`GameInfo` of ``target`` (a game class, a factory, or a ``GameInfo``)
    registered as ``name``: its declared ``description`` and ``options``, else the
    first line of its docstring and the options its signature reads as.

    Raises:
        TypeError: ``target`` is not callable, or declares ``options`` that are not
            :class:`Option` objects, or a ``description`` that is not text.
    """
    if isinstance(target, GameInfo):
        return target
    if not callable(target):
        raise TypeError(f"{name} is {type(target).__name__}: not a game class or factory")
    description = getattr(target, "description", None)
    if description is None:
        description = first_line(target)
    if not isinstance(description, str):
        raise TypeError(f"{name}'s description is {type(description).__name__}, not text")
    declared = getattr(target, "options", None)
    if declared is None:
        return GameInfo(name, description, target, signature_options(target), open=True)
    if not isinstance(declared, tuple | list) or not all(isinstance(o, Option) for o in declared):
        raise TypeError(f"{name}'s options must be a tuple of plies.game.options.Option")
    return GameInfo(name, description, target, tuple(declared))


def declared_name(target: Any) -> str:
    """The name ``target`` declares (a ``name`` attribute that is text), else its own
    ``__name__`` (a class or function), else its class's.  The ``Game`` base class's
    placeholder ``"game"``, inherited, is not a declaration: a subclass that names
    nothing is known by its class's name."""
    name = getattr(target, "name", None)
    if isinstance(name, str) and name and not _placeholder(target):
        return name
    own = getattr(target, "__name__", None)
    return own if isinstance(own, str) else type(target).__name__


def _placeholder(target: Any) -> bool:
    """Whether ``target``'s ``name`` is the one :class:`plies.game.Game` gives every
    subclass (a class attribute it inherits from there, not its own or its instance's)."""
    if not isinstance(target, type) and "name" in getattr(target, "__dict__", {}):
        return False
    cls = target if isinstance(target, type) else type(target)
    owner = next((c for c in cls.__mro__ if "name" in vars(c)), None)
    return owner is Game


def first_line(target: Any) -> str:
    """The first line of ``target``'s own docstring ('' without one).  A dataclass's
    generated ``Name(field, ...)`` docstring is not a description."""
    doc = target.__doc__ if isinstance(target, type | types.FunctionType) else None
    doc = (doc or "").strip()
    if not doc or doc.startswith(f"{getattr(target, '__name__', '')}("):
        return ""
    return doc.splitlines()[0].strip()


# --- options read from a signature ----------------------------------------------------------


def signature_options(target: Callable[..., Any]) -> tuple[Option, ...]:
    """The options a class's ``__init__`` or a factory's signature reads as: one per
    keyword with a default (the others stay the caller's to give), typed by its
    annotation, else by its default."""
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):  # a builtin without a signature: nothing to read
        return ()
    hints = _hints(target)
    options = []
    for parameter in signature.parameters.values():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD,
                              parameter.POSITIONAL_ONLY) or parameter.default is parameter.empty:
            continue
        annotation = hints.get(parameter.name, parameter.annotation)
        kind = _option_type(annotation, parameter.default)
        default = parameter.default
        if kind is INTS and isinstance(default, list):
            default = tuple(default)
        options.append(Option(parameter.name, kind, default))
    return tuple(options)


def _hints(target: Callable[..., Any]) -> dict[str, Any]:
    """The resolved annotations of a factory or of a class's ``__init__`` (none that
    cannot be resolved: the raw annotation strings are read then)."""
    function = target.__init__ if isinstance(target, type) else target  # type: ignore[misc]
    try:
        return typing.get_type_hints(function)
    except Exception:  # an annotation naming what is not importable here
        return {}


_NAMED: Final[Mapping[str, OptionType]] = {
    "int": INT, "bool": BOOL, "float": FLOAT, "str": TEXT,
    "int | None": OPTIONAL_INT, "None | int": OPTIONAL_INT, "Optional[int]": OPTIONAL_INT,
    "tuple[int, ...]": INTS, "Sequence[int]": INTS, "list[int]": INTS,
}


def _option_type(annotation: Any, default: Any) -> OptionType:
    if isinstance(annotation, str):
        return _NAMED.get(annotation.replace("typing.", "").strip(), _by_default(default))
    if annotation in (bool, int, float, str):
        return {bool: BOOL, int: INT, float: FLOAT, str: TEXT}[annotation]
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is Literal and args and all(isinstance(a, str) for a in args):
        return choice(*args)
    if origin in (Union, types.UnionType) and set(args) == {int, type(None)}:
        return OPTIONAL_INT
    if origin in (tuple, list, Sequence, typing.Sequence) and args in ((int, ...), (int,)):
        return INTS
    return _by_default(default)


def _by_default(default: Any) -> OptionType:
    if isinstance(default, bool):
        return BOOL
    if isinstance(default, int):
        return INT
    if isinstance(default, float):
        return FLOAT
    if isinstance(default, str):
        return TEXT
    if isinstance(default, tuple) and default and all(
        isinstance(n, int) and not isinstance(n, bool) for n in default
    ):
        return INTS
    return LITERAL


# --- sources ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Source:
    """A kind of game spec besides a registered name: a file format or a scheme.

    A source is registered in the group ``plies.sources`` (:mod:`plies.sources`) under a
    file suffix (``.kif``: a spec ending with it) or a scheme (``openspiel``: a spec
    ``openspiel:NAME``).

    - ``noun``: what such a spec names, for messages (``"a GDL file"``).
    - ``load(spec, options, budget)``: the game; ``options`` are typed values or text by
      name (empty when ``takes_options`` is false), ``budget`` bounds the building (None:
      the source's default).
    - ``info(spec)``: the spec's :class:`GameInfo` (name, description, options) without
      building the game, for a source whose specs declare options; None otherwise.
    - ``from_text(text, name, budget)``: the game a text of the format describes (an
      uploaded file; ``name`` is the file's name), for a file format; None otherwise.
    - ``resolve(spec)``: the spec as another process in another directory reads it (a
      path made absolute); None keeps the spec as it is.
    - ``takes_options``: false for a format whose files hold the whole game (a tree, GDL):
      options given for it are refused before anything is read.
    """

    noun: str
    load: Callable[[str, Mapping[str, Any], Budget | None], Any]
    info: Callable[[str], GameInfo] | None = None
    from_text: Callable[[str, str, Budget | None], Any] | None = None
    resolve: Callable[[str], str] | None = None
    takes_options: bool = True


__all__ = [
    "GameInfo", "Source", "declare", "declared_name", "first_line", "game_info",
    "option_texts", "signature_options",
]
