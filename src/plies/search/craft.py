"""Engine craft for alpha-beta: the switches, the transposition table, move ordering.

Every switch here is an option of :func:`plies.alphabeta`, gathered in one frozen
dataclass, :class:`Craft`, and none changes the value plain alpha-beta returns at the same
depth (nor the action under ``tie="first"``).  The search itself is the one alpha-beta
core, :func:`plies.search.alphabeta.core.alphabeta_kernel`; this module holds what it is
given:

- **Transposition table** (``tt=True`` or a number of slots): slot ``stable_hash(key) % p``
  with ``p`` the largest prime up to the size (bounded memory; a prime, as in Pons' solver,
  because an int key hashes to itself and a power of two would keep only its low bits: on
  Connect Four, the first three columns), entries ``(key, remaining depth, flag, value,
  best action, age)`` with the flag EXACT, LOWER (the value is a lower bound: the node
  failed high) or UPPER.  :func:`stable_hash` makes the slots, and so the node counts, the
  same in every process whatever ``PYTHONHASHSEED`` says.
  Replacement is depth-preferred: a slot keeps the entry searched deeper, unless it comes
  from an older search.  A stored value is reused only at the same remaining depth (or
  when both are unlimited), so a depth-limited value is never mixed with a deeper one;
  the stored action orders the moves at any depth.
- **Move ordering** (``ordering=True``): the table's move, then the two killer moves of
  the ply (moves that caused a cutoff in a sibling), then the history heuristic (moves
  that caused cutoffs anywhere, weighted by the depth left), after the game's own
  ``order_hint(state, actions)`` if it has one.  In an exact search (no depth limit) a
  game's hint orders alone after the table move: there killers and history cost Connect
  Four 7x more nodes, while under a depth limit they save up to 5x; there the hint is
  asked only at least :data:`HINT_DEPTH` plies from the limit.  The table's move is
  searched before anything else is ordered, so a node it cuts off costs no ordering.
- **Principal variation search** (``pvs=True``): the first child gets the full window,
  the others a null window ``(alpha, alpha + 1 ulp)`` that only asks "is it better?", and
  are searched again with the full window when the answer is yes.  Chosen over MTD(f)
  because it needs no tuning of a first guess and its cost is measured per node here,
  not per pass (see ``docs/explanation/performance.md``).
- The root drivers (aspiration windows, MTD-bi bisection, weak solving) are in
  :class:`plies.search.alphabeta.CraftSearcher`; mate-distance scores in
  :mod:`plies.search.mate`.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final

from plies.errors import OptionError

EXACT, LOWER, UPPER = 0, 1, 2
UNLIMITED = -1  # the remaining depth of a search without a depth limit
HINT_DEPTH = 4
"""Under a depth limit, ``ordering`` asks the game's ``order_hint`` only at nodes with at
least this many plies left; nearer the limit killers and history order alone.  On Connect
Four from the empty board the hint costs as much as three evaluations and saved nothing
there: depth 12 with table, ordering and PVS took 2.7 s with the hint at every node but
the last before the limit, 2.1 s with it from 4 plies up, 1.9 s without it (416,374,
417,042 and 400,996 nodes).  It is kept where the search is deep because a game's hint
can know what killers and history cannot (captures first, in chess)."""

MAX_TABLE_SLOTS: Final = 1 << 28
"""The most slots a :class:`TranspositionTable` may have.  Slots are filled on demand,
so the size bounds memory rather than allocating it; a full table of this size takes
about 60 GiB (:data:`ENTRY_BYTES` an entry), more than a search should ever be allowed
to grow to, and a larger size can only be a mistake (``tt=10**18``)."""
ENTRY_BYTES: Final = 230
"""Bytes a filled slot costs in CPython 3.12 with a small int key (measured with
tracemalloc over 200,000 entries: the dict slot, the entry tuple and its numbers)."""

Entry = tuple[Hashable, int, int, float, Any, int]  # key, remaining, flag, value, move, age
Order = Callable[[Any, Sequence[Any]], Sequence[Any]]
"""A move-ordering function: ``order(state, actions)`` returns the actions to try, best first."""


def check_table_size(size: int) -> None:
    """Refuse a table of more than :data:`MAX_TABLE_SLOTS` slots, at once.

    Raises:
        OptionError: ``size`` is over the cap; the message names the cap.
    """
    if size > MAX_TABLE_SLOTS:
        raise OptionError(
            f"a transposition table of {size:.3g} slots is more than the cap of "
            f"{MAX_TABLE_SLOTS:,} slots (2**28, about {MAX_TABLE_SLOTS * ENTRY_BYTES / 2**30:.0f} "
            f"GiB when full)"
        )


def stable_hash(key: Hashable) -> int:
    """``hash(key)``, but the same in every process for the usual kinds of keys.

    Python salts the hash of ``str`` and ``bytes`` per process (``PYTHONHASHSEED``), so a
    table slotted by ``hash(key)`` would collide differently, and a search count different
    nodes, from one run to the next.  Here ints, floats, bools and None hash as Python
    hashes them (never salted), ``str`` and ``bytes`` by their bytes, enums by their value,
    and tuples (named tuples included) and frozensets element by element.  Any other key
    uses its own ``__hash__``; make it from these kinds for reproducible node counts.

    >>> stable_hash(12345), stable_hash(("x", 1)) == stable_hash(("x", 1))
    (12345, True)
    """
    if type(key) is int:
        return hash(key)
    if isinstance(key, str):
        return hash(int.from_bytes(key.encode("utf-8", "surrogatepass"), "little"))
    if isinstance(key, tuple):
        return hash(tuple([stable_hash(k) for k in key]))
    if key is None:
        return 0x5EED  # hash(None) is the object's address before Python 3.12
    if isinstance(key, bytes):
        return hash(int.from_bytes(key, "little"))
    if isinstance(key, frozenset):
        return hash(frozenset([stable_hash(k) for k in key]))
    if isinstance(key, Enum):
        return stable_hash(key.value)
    return hash(key)


@dataclass
class TranspositionTable:
    """A transposition table: at most ``size`` slots, depth-preferred replacement.

    Pass one as ``tt=`` to :func:`plies.alphabeta` (or ``analyze``) and keep it between
    searches of **one game**: a search reuses the entries of the earlier ones (the values
    of the same remaining depth, and every stored move for ordering).  Entries hold values
    from the searching player's point of view, so they are dropped when a search for
    another player starts (:meth:`new_search`).  The slots live in a dict filled on
    demand, so a small search pays nothing for a large table; ``len(table)`` is the
    number of entries, :meth:`clear` drops them all.  Slots come from :func:`stable_hash`,
    so a search counts the same nodes in every process.

    >>> import plies
    >>> ttt = plies.games.load("tictactoe")
    >>> table = TranspositionTable()
    >>> first = plies.alphabeta(ttt, ttt.initial_state(), tt=table)
    >>> again = plies.alphabeta(ttt, ttt.initial_state(), tt=table)
    >>> len(table) > 0, again.stats.nodes < first.stats.nodes
    (True, True)
    """

    size: int = 1 << 20
    slots: dict[int, Entry] = field(init=False, default_factory=dict, repr=False)
    age: int = field(init=False, default=0)
    player: int | None = field(init=False, default=None)
    """Whose point of view the stored values take (None before the first search)."""
    modulus: int = field(init=False)
    """The number of slots used: the largest prime up to ``size`` (1 for size 1)."""

    def __post_init__(self) -> None:
        if isinstance(self.size, bool) or not isinstance(self.size, int) or self.size < 1:
            raise OptionError(f"a transposition table needs at least 1 slot, got {self.size!r}")
        check_table_size(self.size)
        self.modulus = largest_prime_at_most(self.size)

    def __len__(self) -> int:
        return len(self.slots)

    def clear(self) -> None:
        """Drop every entry (the table is then as new)."""
        self.slots.clear()
        self.player = None

    def slot(self, key: Hashable) -> int:
        """The slot of ``key``.

        >>> table = TranspositionTable(1 << 20)
        >>> table.modulus, table.slot(1 << 40) != table.slot(0)
        (1048573, True)
        """
        return stable_hash(key) % self.modulus

    def new_search(self, player: int) -> None:
        """Start a search for ``player``: older entries may be replaced by shallower ones.

        A table passed from one search to the next (same game) keeps its entries; they
        are dropped when the searching player changes, because values are stored from
        the searching player's point of view.
        """
        if self.player != player:
            self.slots.clear()
            self.player = player
        self.age += 1


_WITNESSES: Final = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
PRIME_TEST_LIMIT: Final = 3_317_044_064_679_887_385_961_981
"""Miller-Rabin with the first twelve primes as witnesses is exact below this bound
(Sorenson and Webster, 2015)."""


def is_prime(n: int) -> bool:
    """Whether ``n`` is prime: Miller-Rabin, exact for ``n <`` :data:`PRIME_TEST_LIMIT`.

    >>> [p for p in range(30) if is_prime(p)], is_prime(2**61 - 1)
    ([2, 3, 5, 7, 11, 13, 17, 19, 23, 29], True)
    """
    if n < 2:
        return False
    for p in _WITNESSES:
        if n % p == 0:
            return n == p
    if n >= PRIME_TEST_LIMIT:
        raise ValueError(f"is_prime is exact below {PRIME_TEST_LIMIT:,} only")
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in _WITNESSES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def largest_prime_at_most(n: int) -> int:
    """The largest prime ``p <= n`` (1 when ``n < 2``).

    Each candidate costs twelve modular powers (:func:`is_prime`), and primes near ``n``
    are about ``ln n`` apart, so this is quick for any ``n`` the test is exact for (trial
    division took minutes near 10**18).

    >>> [largest_prime_at_most(n) for n in (1, 2, 10, 1 << 20, 10**18)]
    [1, 2, 7, 1048573, 999999999999999989]
    """
    for candidate in range(n, 1, -1):
        if (candidate % 2 or candidate == 2) and is_prime(candidate):
            return candidate
    return 1


@dataclass
class Ordering:
    """Killer moves per ply and history scores, kept across the iterations of a search.

    ``history[mover]`` maps a move to minus its score (a missing move scores 0), so that
    sorting by it puts the moves that cut most often first.
    """

    killers: dict[int, list[Any]] = field(default_factory=dict)
    history: dict[int, defaultdict[Any, int]] = field(default_factory=dict)

    def remember(self, mover: int, action: Any, ply: int, remaining: int) -> None:
        """``action`` of ``mover`` caused a cutoff at ``ply`` with ``remaining`` depth left."""
        killers = self.killers.setdefault(ply, [])
        if action not in killers:
            killers.insert(0, action)
            del killers[2:]
        scores = self.history.get(mover)
        if scores is None:
            scores = self.history[mover] = defaultdict(int)
        scores[action] -= 1 if remaining == UNLIMITED else remaining * remaining


class Staged:
    """Moves to search: the table's move first, the rest ordered only if it is needed.

    Ordering costs a game's ``order_hint`` call per node (on Connect Four three times
    what the rest of a node costs); after a table move that cuts off it is never paid.
    ``len()`` is the number of moves, as for a list.
    """

    __slots__ = ("count", "first", "rest")

    def __init__(self, count: int, first: Any, rest: Callable[[], list[Any]]) -> None:
        self.count, self.first, self.rest = count, first, rest

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Any]:
        yield self.first
        yield from self.rest()


MoveOrder = Callable[[Any, int, Sequence[Any], Any, int, bool], Sequence[Any] | Staged]
"""``order(state, mover, actions, table_move, ply, near)``: the moves to search, in order.

``near`` says that the node is fewer than :data:`HINT_DEPTH` plies from the depth limit."""


def move_order(hint: Order | None, memory: Ordering | None, exact: bool) -> MoveOrder:
    """The engine's move ordering (see the module doc) as one function.

    ``hint`` is the game's ``order_hint`` (or the caller's ``order``), ``memory`` the
    killers and history (None without ``ordering``), ``exact`` whether the search has no
    depth limit (then a hint orders alone).  Near the depth limit (``near``, see
    :data:`HINT_DEPTH`) the hint is not asked when killers and history are there.
    """
    alone = hint is not None and exact
    killers = None if memory is None or alone else memory.killers
    history = None if memory is None or alone else memory.history

    def rest(
        state: Any, mover: int, moves: Sequence[Any], first: Any, ply: int, near: bool
    ) -> list[Any]:
        """The moves in order (``first`` first), without ``first`` when it is given."""
        if hint is None or (near and history is not None):
            out = list(moves)
        else:
            out = list(hint(state, moves))
        if history is not None:
            scores = history.get(mover)
            if scores:
                out.sort(key=scores.__getitem__)
        if killers is not None:
            front = [] if first is None else [first]
            for killer in killers.get(ply, ()):
                if killer not in front and killer in out:
                    front.append(killer)
            if len(front) > (first is not None):
                out = front + [a for a in out if a not in front]
            elif first is not None:
                out.remove(first)
                return out
        elif first is not None:
            out.remove(first)
            return out
        return out if first is None else out[1:]

    def order(
        state: Any, mover: int, moves: Sequence[Any], first: Any, ply: int, near: bool
    ) -> Sequence[Any] | Staged:
        if first is not None and first in moves:
            return Staged(len(moves), first, lambda: rest(state, mover, moves, first, ply, near))
        return rest(state, mover, moves, None, ply, near)

    return order


@dataclass(frozen=True)
class Craft:
    """The engine switches of :func:`plies.alphabeta`, in one value.

    ``order``: the caller's move ordering ``order(state, actions)`` (plain alpha-beta
    too).  ``tt``: a transposition table (True, a number of slots, or a
    :class:`TranspositionTable` kept between searches of one game).  ``ordering``: table
    move, killers, history and the game's ``order_hint``.  ``pvs``: principal variation
    search.  ``aspiration``: a half-width of the root window around the last iteration's
    value.  ``bisection``: MTD-bi.  ``weak``: win, draw or loss only.  ``mate``:
    mate-distance scores.  See :func:`plies.alphabeta` for each one's contract.

    The selective switches (depth-limited searches only; see :data:`SELECTIVE`):
    ``quiescence`` (noisy plies searched past the depth limit, inside the search's window),
    ``extensions`` (the game's ``extension`` hook, e.g. checks), ``singular`` (a margin:
    singular extensions), ``null_move`` (the depth reduction R of null-move pruning) and
    ``reductions`` (late-move reductions).  The first two change which tree is searched
    but not how; the last three are forward pruning and change values.

    >>> Craft.from_kwargs(tt=True, pvs=True).switches
    ('tt', 'pvs')
    """

    order: Order | None = None
    tt: bool | int | TranspositionTable = False
    ordering: bool = False
    pvs: bool = False
    aspiration: float | None = None
    bisection: bool = False
    weak: bool = False
    mate: bool = False
    quiescence: int | None = None
    extensions: bool = False
    singular: float | None = None
    null_move: int | None = None
    reductions: bool = False

    def __post_init__(self) -> None:
        for name in ("quiescence", "null_move"):
            n = getattr(self, name)
            low = 0 if name == "quiescence" else 1
            if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < low):
                raise OptionError(f"{name} must be a whole number >= {low} or None, got {n!r}")
        if self.singular is not None and not (
            isinstance(self.singular, int | float) and not isinstance(self.singular, bool)
            and self.singular > 0
        ):
            raise OptionError(f"singular must be a positive margin, got {self.singular!r}")
        if self.aspiration is not None and not (
            isinstance(self.aspiration, int | float) and self.aspiration > 0
        ):
            raise OptionError(
                f"aspiration must be a positive half-width, got {self.aspiration!r}"
            )
        tt = self.tt
        if not isinstance(tt, bool | TranspositionTable) and not (
            isinstance(tt, int) and tt >= 1
        ):
            raise OptionError(
                f"tt must be True, a number of slots >= 1 or a TranspositionTable, got {tt!r}"
            )
        if isinstance(tt, int) and not isinstance(tt, bool):
            check_table_size(tt)
        if self.order is not None and not callable(self.order):
            raise OptionError(f"order must be a function order(state, actions), got {self.order!r}")

    @classmethod
    def from_kwargs(cls, **options: Any) -> Craft:
        """A :class:`Craft` from keyword switches; an unknown name lists the known ones."""
        known = [f.name for f in dataclasses.fields(cls)]
        for name in options:
            if name not in known:
                raise OptionError(f"unknown engine option {name!r}; use one of: {', '.join(known)}")
        return cls(**options)

    @property
    def switches(self) -> tuple[str, ...]:
        """The names of the engine switches that are on (``order`` is not one)."""
        return tuple(
            f.name for f in dataclasses.fields(self)
            if f.name != "order" and _on(getattr(self, f.name))
        )

    @property
    def engine(self) -> bool:
        """True when any switch is on beyond plain alpha-beta (with or without ``order``)."""
        return bool(self.switches)

    @property
    def selective(self) -> tuple[str, ...]:
        """The selective switches that are on (see :data:`SELECTIVE`)."""
        return tuple(name for name in SELECTIVE if _on(getattr(self, name)))

    @property
    def deepens(self) -> bool:
        """True when a depth-limited search deepens iteratively to fill table and ordering."""
        return self.tt is not False or self.ordering or self.aspiration is not None

    def table(self) -> TranspositionTable | None:
        """The table to search with: the caller's, a new one of the asked size, or None."""
        if isinstance(self.tt, TranspositionTable):
            return self.tt
        if self.tt is False:
            return None
        return TranspositionTable() if self.tt is True else TranspositionTable(int(self.tt))

    def as_kwargs(self) -> dict[str, Any]:
        """The switches that are not at their default, as keyword arguments."""
        return {
            f.name: getattr(self, f.name) for f in dataclasses.fields(self)
            if getattr(self, f.name) != f.default
        }


def _on(value: Any) -> bool:
    """Whether a switch's value turns it on (``quiescence=0`` does: a stand-pat leaf)."""
    return value is not None and value is not False


PLAIN = Craft()
"""Plain alpha-beta: every switch off."""

SELECTIVE: Final = ("quiescence", "extensions", "singular", "null_move", "reductions")
"""The switches that shape a depth-limited tree.  An exact search (no depth limit) has
no horizon to extend or reduce, so they are ignored there: it stays exact."""
FORWARD_PRUNING: Final = ("singular", "null_move", "reductions")
"""The selective switches that decide from shallower searches what to search deeper
or not at all: their values are no longer minimax values of one fixed tree."""

NULL_DEPTH: Final = 3
"""Null-move pruning is tried at nodes with at least this many plies left."""
NULL_DEEP: Final = 6
"""... and passes with one ply more of reduction (R + 1) with at least this many left."""
LMR_MOVES: Final = 3
"""Late-move reductions start with the fourth move (after table move and two killers)."""
LMR_DEPTH: Final = 3
"""... at nodes with at least this many plies left."""
LMR_LATE: Final = 6
"""From this move on (the seventh), at nodes with at least :data:`LMR_DEEP` plies left,
the reduction is two plies."""
LMR_DEEP: Final = 5
SINGULAR_DEPTH: Final = 3
"""Singular extensions are tested at nodes with at least this many plies left."""
EXTENSION_REACH: Final = 2
"""Extensions stop at ``EXTENSION_REACH`` times the depth limit (a series of checks
could otherwise extend a line without end)."""
