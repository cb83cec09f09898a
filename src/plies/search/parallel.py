"""Parallel alpha-beta of one position: Young Brothers Wait along the principal variation.

:func:`parallel_alphabeta` returns what :func:`plies.alphabeta` returns at the same fixed
depth (the same value; the same action under ``tie="first"``), using several processes.
Processes, not threads: the search is pure Python and the GIL would run threads one at a
time.

The algorithm is PV splitting (Marsland and Popowich, 1985), which is Feldmann's *Young
Brothers Wait Concept* applied along the principal variation:

1. At a split node, an **ordering pass** (:func:`plies.analyze` to a third of the
   remaining depth, in this process) values every move; moves are searched best first.
   If that pass is exact (every line it saw ended the game), its values are final.
2. **The eldest brother** (the best move of the ordering pass) is searched first, alone:
   by splitting its own node the same way, down to ``split_plies`` plies below the root,
   and below that by one task.  Its value ``B`` is the bound the other moves must beat.
3. **The young brothers** are then handed out one move per task to a pool of ``workers``
   processes, each searched with the window ``(B, +inf)`` at a max node (``(-inf, B)`` at
   a min node; one ulp wider at the root for a move before the best one in ``actions()``
   order, so that an earlier tie is seen, as the serial root does).  A move that beats
   ``B`` comes back with its exact value and raises ``B`` for the tasks handed out after
   it; a move that fails low comes back as "at most ``B``".
4. The node's value is the best exact value; at the root the action is the first move
   in ``actions()`` order that has it, with the principal variation its task found.

Each task is one :func:`plies.alphabeta` call, with the caller's engine options, on a
*view* of the game whose root offers the task's move behind a virtual move worth ``B``.
The root searches the virtual move first, so the real move gets the window ``(B, +inf)``
from the root's own tie-aware windowing, and its value is exact whenever it beats ``B``.
When the search deepens iteratively (``tt``, ``ordering``), the virtual move leads to a
chain of one-move virtual nodes that the depth cutoff of the ``k``-ply pass scores: with
the final pass's ``B``, and in an earlier pass with the more demanding of ``B`` and the
eldest brother's own ``k``-ply value.  Only the final pass decides the value; the earlier
bounds only make the passes that fill the table and the move ordering cheap.  (On the
empty Connect Four board at depth 10, ``B`` in every pass made the root's young brothers
cost 1.7 times the nodes of the eldest's values; one ply deeper the eldest's values cost
4 times the nodes of ``B``; the more demanding of the two is close to the better at both.)

Why this design (measurements in ``docs/parallel-search.md``, from
``benchmarks/parallel_speedup.py``):

- **Plain root splitting** (each root move in its own process, full window) loses the
  bound the first move gives the others: its processes visit 1.7 (plain alpha-beta) to
  3.7 (with engine craft) times the serial nodes on the empty Connect Four board, and
  are no faster than one process.
- **YBWC at the root only** leaves the other processes idle while the eldest brother is
  searched, which with good move ordering is a third to a half of the serial search;
  splitting the eldest's own node, and its eldest's, shortens that wait.
- **Lazy SMP** gets its speed-up from one transposition table that every thread reads
  and writes; without one its helpers only repeat the main search.  Processes share no
  Python object: a table in shared memory needs fixed-size entries, so hashed keys whose
  collisions may change a value (plies promises serial alpha-beta's exact value),
  lockless entry checks, and a Python-level probe in place of a dict lookup, and its
  node counts and principal variations vary from run to run.

The costs: every task starts its own table and move-ordering memory (killer moves,
history), so with engine craft the processes together can visit more nodes than one
process; each split node's tasks wait for its eldest brother; and the ordering passes
and process start-up (milliseconds with ``fork``) make short searches slower than
serial ones.

``workers=1`` is the serial :func:`plies.alphabeta` in this process.  The game, the
state and an ``order`` function must be picklable (module-level classes and functions);
every built-in game is.  Tasks run in a :class:`concurrent.futures.ProcessPoolExecutor`
with the platform's default start method, or in an executor the caller passes.

>>> from plies.games import load
>>> ttt = load("tictactoe")
>>> r = parallel_alphabeta(ttt, ttt.initial_state(), Limit(depth=4), workers=2)
>>> r.value, r.action, r.pv
(0.0, 4, (4, 0, 1, 6))
"""

from __future__ import annotations

import dataclasses
import math
import multiprocessing
import pickle
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, cast

from plies._pools import terminate_workers
from plies.errors import OptionError, UnsupportedGameError
from plies.game import Game, game_ops
from plies.search import Limit, SearchResult, SearchStats, alphabeta, analyze
from plies.search.common import check_tie, resolve_player
from plies.search.craft import Craft, TranspositionTable

SPLIT_PLIES = 4
"""How many plies of the principal variation are split by default (0: the root only)."""
SHALLOW_UNLIMITED = 4
"""Depth of the ordering pass when the search itself has no depth limit."""
REFUSED = {
    "trace": "a parallel search cannot be traced; trace plies.alphabeta",
    "on_iteration": "a parallel search has no iterations to report",
    "stop": "a parallel search cannot be stopped from outside yet; use plies.alphabeta",
    "weak": "a weak solution is only a bound; solve it with plies.alphabeta",
    "mate": "mate-distance scores are not split across processes; use plies.alphabeta",
    "strict_cutoffs": (
        "the strict cut rule is there to generate the states a course's alpha-beta "
        "generates, in its order, which a search split across processes does not; use "
        "plies.alphabeta"
    ),
}
"""Options of :func:`plies.alphabeta` that have no parallel meaning, and why."""


# --- the view a task searches ------------------------------------------------------------------


class _Virtual:
    """A virtual state or root action of a view; compared by identity."""

    __slots__ = ("ply",)

    def __init__(self, ply: int = 0) -> None:
        self.ply = ply


_ROOT = _Virtual()  # the root of the view (stands for the real root state)
_FLOOR_MOVE = _Virtual()  # the virtual root action, worth the bound
_CHAIN_MOVE = _Virtual()  # the one action of a virtual chain node


class _View:
    """``game`` whose root offers ``[a virtual move worth the bound,] move`` and no other.

    ``floors[k - 1]`` (value for the searching player) is what the virtual move is worth
    in the pass that searches ``k`` plies deep; the last one is the bound proper.  With
    one floor the virtual move ends the game at once; with more it leads to a chain of
    one-move virtual nodes, ``k`` plies long in the ``k``-ply pass, which the depth
    cutoff scores as ``floors[k - 1]``.  Below the root every member is the game's own.
    The real move is a fresh object on every call of ``actions(root)``: iterative
    deepening tries the previous pass's best root move first, and the real move must
    never overtake the virtual one, whose value is its window.  ``virtual_nodes``,
    ``virtual_leaves`` and ``virtual_evals`` count the virtual nodes' share of the
    statistics, which are to leave them out.
    """

    to_move: Callable[[Any], int]
    actions: Callable[[Any], Sequence[Any]]
    result: Callable[[Any, Any], Any]
    is_terminal: Callable[[Any], bool]
    utility: Callable[[Any, int], float]
    evaluate: Callable[[Any, int], float]
    key: Callable[[Any], Any]

    def __init__(
        self, game: Game[Any, Any], root: Any, move: Any, floors: Sequence[float]
    ) -> None:
        ops = game_ops(game)
        self.num_players = ops.num_players
        lo, hi = ops.utility_range
        self.utility_range = (min([lo, *floors]), max([hi, *floors]))
        self.virtual_nodes = self.virtual_leaves = self.virtual_evals = 0
        to_move, actions, result, key = ops.to_move, ops.actions, ops.result, ops.key
        is_terminal, utility, evaluate = ops.is_terminal, ops.utility, ops.evaluate
        mover = to_move(root)
        chain = [_Virtual(ply) for ply in range(1, len(floors) + 1)]
        last = chain[-1] if chain else None

        def is_virtual(state: Any) -> bool:
            return type(state) is _Virtual

        def view_to_move(state: Any) -> int:
            return mover if is_virtual(state) else to_move(state)

        def view_actions(state: Any) -> Sequence[Any]:
            if not is_virtual(state):
                return actions(state)
            if state is _ROOT:
                return [_FLOOR_MOVE, _Virtual()] if floors else [_Virtual()]
            return [_CHAIN_MOVE]

        def view_result(state: Any, action: Any) -> Any:
            if not is_virtual(state):
                return result(state, action)
            if state is _ROOT:
                return chain[0] if action is _FLOOR_MOVE else result(root, move)
            return chain[state.ply]

        def view_is_terminal(state: Any) -> bool:  # asked once at every node entered
            if not is_virtual(state):
                return is_terminal(state)
            if state is not _ROOT:
                self.virtual_nodes += 1
            return state is last

        def view_utility(state: Any, player: int) -> float:
            if state is last:
                self.virtual_leaves += 1
                return floors[-1]
            return utility(state, player)

        def view_evaluate(state: Any, player: int) -> float:
            if is_virtual(state):
                self.virtual_leaves += 1
                self.virtual_evals += 1
                ply: int = state.ply
                return floors[ply - 1]
            return evaluate(state, player)

        def view_key(state: Any) -> Any:
            return state if is_virtual(state) else key(state)

        self.to_move, self.actions, self.result = view_to_move, view_actions, view_result
        self.is_terminal, self.utility = view_is_terminal, view_utility
        self.evaluate, self.key = view_evaluate, view_key
        # The engine's hooks, which it asks about nodes below the root only.
        for name in ("order_hint", "sufficient_actions"):
            hook = getattr(game, name, None)
            if hook is not None:
                setattr(self, name, _real_only(hook, is_virtual))
        bounds = getattr(game, "value_bounds", None)
        if bounds is not None:
            self.value_bounds = _bounded(bounds, is_virtual, floors)


def _real_only(
    hook: Callable[[Any, Sequence[Any]], Sequence[Any]], is_virtual: Callable[[Any], bool]
) -> Callable[[Any, Sequence[Any]], Sequence[Any]]:
    """``hook(state, actions)`` for real states; virtual ones keep their actions."""

    def wrapped(state: Any, actions: Sequence[Any]) -> Sequence[Any]:
        return actions if is_virtual(state) else hook(state, actions)

    return wrapped


def _bounded(
    bounds: Callable[[Any, int], tuple[float, float]],
    is_virtual: Callable[[Any], bool],
    floors: Sequence[float],
) -> Callable[[Any, int], tuple[float, float]]:
    """``value_bounds`` for real states; a virtual node is worth the bound."""

    def wrapped(state: Any, player: int) -> tuple[float, float]:
        if is_virtual(state):
            return floors[-1], floors[-1]
        return bounds(state, player)

    return wrapped


# --- tasks ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Task:
    """Search ``move`` at ``root`` for ``player`` against ``floors`` (empty: exactly).

    ``passes``: record the root value of every iteration (the search deepens).
    """

    game: Game[Any, Any]
    root: Any
    move: Any
    floors: tuple[float, ...]
    limit: Limit | None
    player: int
    craft: Craft
    passes: bool


@dataclass(frozen=True)
class _Outcome:
    """What a task found, values for the searching player.

    ``value`` is the move's exact value, or None when the move did not beat the bound
    (at a max node it is then <= the bound, at a min node >= it).  ``passes[k - 1]`` is
    the view's root value in the ``k``-ply pass: the better of the floor and the move.
    """

    value: float | None
    pv: tuple[Any, ...]
    stats: SearchStats
    exact: bool
    passes: tuple[float, ...] | None


@dataclass(frozen=True)
class _Failure:
    """An exception raised by a task, in a form that survives pickling.

    Exceptions whose constructor takes other arguments than their message (such as
    :class:`~plies.errors.IllegalActionError`) cannot be unpickled, which would break the
    pool; this carries the class, ``args`` and attributes and rebuilds the exception
    without calling its constructor.
    """

    kind: type[BaseException]
    args: tuple[Any, ...]
    attributes: dict[str, Any]

    @classmethod
    def of(cls, error: Exception) -> _Failure:
        failure = cls(type(error), error.args, dict(vars(error)))
        try:
            pickle.dumps(failure)
        except Exception:  # an attribute or the class itself does not pickle
            failure = cls(RuntimeError, (f"{type(error).__name__}: {error}",), {})
        return failure

    def rebuild(self) -> BaseException:
        error = self.kind.__new__(self.kind)
        error.args = self.args
        vars(error).update(self.attributes)
        return error


def _search_move(task: _Task) -> _Outcome | _Failure:
    """Run one task (in a worker process); an exception comes back as a value."""
    try:
        return _search(task)
    except Exception as error:
        return _Failure.of(error)


def _search(task: _Task) -> _Outcome:
    view = _View(task.game, task.root, task.move, task.floors)
    values: dict[int, float] = {}

    def record(result: SearchResult) -> None:
        values[result.stats.depth] = result.value

    game = cast("Game[Any, Any]", view)  # duck-typed: it has every member alphabeta reads
    r = alphabeta(
        game, _ROOT, task.limit, player=task.player, tie="first",
        on_iteration=record if task.passes else None, craft=task.craft,
    )
    stats = r.stats
    stats.nodes -= view.virtual_nodes
    stats.leaves -= view.virtual_leaves
    stats.evals -= view.virtual_evals
    passes = None
    if task.passes and task.limit is not None and task.limit.depth is not None:
        known, value = [], r.value
        for depth in range(task.limit.depth, 0, -1):  # an exact pass ends the deepening
            value = values.get(depth, value)
            known.append(value)
        passes = tuple(reversed(known))
    if r.action is _FLOOR_MOVE:
        return _Outcome(None, (), stats, r.exact, passes)
    return _Outcome(r.value, (task.move, *r.pv[1:]), stats, r.exact, passes)


# --- the search ------------------------------------------------------------------------------


def parallel_alphabeta(
    game: Game[Any, Any],
    state: Any,
    limit: Limit | None = None,
    *,
    workers: int = 2,
    player: int | None = None,
    tie: str = "first",
    seed: int | None = None,
    split_plies: int = SPLIT_PLIES,
    executor: Executor | None = None,
    craft: Craft | None = None,
    **engine_options: Any,
) -> SearchResult:
    """Alpha-beta in ``workers`` processes: :func:`plies.alphabeta`'s result, sooner.

    ``value`` is the value :func:`plies.alphabeta` returns with the same ``limit`` and
    options: ``player``'s (default: the player to move) paranoid minimax value of the
    tree cut at ``limit.depth`` and scored by ``game.evaluate`` (exact when
    ``result.exact``).  Under ``tie="first"`` ``action`` is alpha-beta's too: the first
    best action in ``actions()`` order.  Under ``tie="random"`` it is a seeded random
    choice among every best action (one of those alpha-beta might pick, not
    necessarily the same one).  ``pv`` is a principal variation of that action.
    ``stats`` add up the counters of every process, the ordering passes included;
    ``elapsed`` and ``nps`` are wall time.

    ``engine_options`` (``order``, ``tt``, ``ordering``, ``pvs``, ...) are
    :func:`plies.alphabeta`'s and apply to every task, as does ``craft`` (the same
    switches as one :class:`~plies.search.craft.Craft`); a transposition table object
    given as ``tt`` is copied to the processes, not filled.  ``split_plies`` is how many
    plies of the principal variation are split (0: the root only; ``unit="round"``
    splits the root only).

    The tasks run in a new :class:`~concurrent.futures.ProcessPoolExecutor` of
    ``workers`` processes (the platform's default start method: ``fork`` on Linux with
    Python 3.11, so it starts in milliseconds), or in ``executor``, a pool of the
    caller's that is left open: reuse one over many searches, or give a program that
    runs threads a ``spawn`` or ``forkserver`` pool.  ``workers`` is then how many tasks
    run at once, which should be its number of processes.

    Raises:
        OptionError: ``workers`` is not an integer >= 1, or ``split_plies`` not one >=
            0; ``limit`` has a time or node budget (only fixed-depth or unlimited
            searches split); an unknown option, or one without a parallel meaning
            (``trace``, ``on_iteration``, ``stop``, ``weak``, ``mate``); ``order`` cannot be
            pickled.
        UnsupportedGameError: the game or the state cannot be pickled, or alpha-beta
            refuses the game (chance or simultaneous nodes).
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise OptionError(f"workers must be an integer >= 1, got {workers!r}")
    if isinstance(split_plies, bool) or not isinstance(split_plies, int) or split_plies < 0:
        raise OptionError(f"split_plies must be an integer >= 0, got {split_plies!r}")
    for name, why in REFUSED.items():
        if engine_options.get(name) or getattr(craft, name, False):
            raise OptionError(f"{name}: {why}")
    switches = {k: v for k, v in engine_options.items() if k not in REFUSED}
    if craft is None:
        craft = Craft.from_kwargs(**switches)  # an unknown option is refused here
    elif switches:
        raise OptionError("give the engine switches either as craft= or as keywords, not both")
    check_tie(tie)
    if limit is not None and limit.anytime:
        raise OptionError(
            "parallel_alphabeta searches to a fixed depth (Limit(depth=...)) or to the end; "
            "a time or node budget is not supported"
        )
    who = resolve_player(game, state, player)
    if (
        workers == 1
        or (limit is not None and limit.depth == 0)
        or game.is_terminal(state)
        or game.to_move(state) < 0  # chance or simultaneous root: alphabeta says why not
        or len(game.actions(state)) < 2
    ):
        return alphabeta(game, state, limit, player=who, tie=tie, seed=seed, craft=craft)
    _check_picklable(game, state, craft.order)
    if isinstance(craft.tt, TranspositionTable):  # a table object: one of its size each
        craft = dataclasses.replace(craft, tt=craft.tt.size)
    plies = 0 if limit is not None and limit.unit == "round" else split_plies
    return _Split(game, limit, who, workers, tie, seed, craft, plies, executor).run(state)


def _check_picklable(game: Any, state: Any, order: Any) -> None:
    """Refuse, with the reason, what cannot be sent to a worker process."""
    for what, obj in (("game", game), ("state", state), ("order function", order)):
        try:
            pickle.dumps(obj)
        except Exception as exc:
            message = (
                f"parallel search sends the {what} to worker processes, but "
                f"{type(obj).__name__} cannot be pickled ({exc}); make it picklable "
                "(a module-level class or function, no lambdas or open files) "
                "or search with plies.alphabeta"
            )
            if what == "order function":
                raise OptionError(message) from exc
            raise UnsupportedGameError(message) from exc


def _deepens(limit: Limit | None, craft: Craft) -> bool:
    """Whether alphabeta deepens iteratively with these switches (``Craft.deepens``).

    Only the cost depends on this: with it, tasks get a bound for every pass.
    """
    if limit is None or limit.depth is None or limit.unit != "ply":
        return False
    return craft.deepens


@dataclass
class _Brothers:
    """What is known about the moves of one split node; values *oriented* by ``sign``.

    Oriented values are multiplied by ``sign`` (+1 where ``player`` moves, -1 at a min
    node), so the node always maximises.  ``strict`` says where a move must be known to
    be strictly worse than the best: ``"first"`` (the root, ``tie="first"``) before the
    best move in ``actions()`` order, where a tie would be chosen; ``"all"`` (the root,
    ``tie="random"``) everywhere; ``"none"`` below the root, where only the value counts.
    ``steps[k - 1]`` is the best oriented value known for the node's ``k``-ply pass.
    """

    sign: float
    strict: str
    steps: list[float]
    exact: dict[int, float] = field(default_factory=dict)  # move -> oriented value
    upper: dict[int, float] = field(default_factory=dict)  # move -> oriented value <= this
    pvs: dict[int, tuple[Any, ...]] = field(default_factory=dict)  # move -> its line

    def best(self) -> tuple[float, int] | None:
        """The best oriented value so far and the first move that has it."""
        if not self.exact:
            return None
        value = max(self.exact.values())
        return value, min(i for i, v in self.exact.items() if v == value)

    def floor(self, i: int) -> float | None:
        """The oriented bound move ``i`` must beat to matter (None: search it exactly)."""
        best = self.best()
        if best is None:
            return None
        value, first = best
        if self.strict == "all" or (self.strict == "first" and i < first):
            return math.nextafter(value, -math.inf)  # a tie here would be chosen
        return value

    def floors(self, i: int) -> tuple[float, ...]:
        """The bounds (for the searching player) of every pass of move ``i``'s task.

        The last is :meth:`floor`; an earlier pass gets the more demanding of that and
        the node's best value at that depth (see the module doc).
        """
        floor = self.floor(i)
        if floor is None:
            return ()
        return tuple(self.sign * max(v, floor) for v in (*self.steps, floor))

    def settled(self, i: int) -> bool:
        if i in self.exact:
            return True
        floor = self.floor(i)
        return i in self.upper and floor is not None and self.upper[i] <= floor

    def learn(self, i: int, floors: tuple[float, ...], outcome: _Outcome) -> None:
        """Record what a task found about move ``i``."""
        if outcome.value is None:
            self.upper[i] = min(self.upper.get(i, math.inf), self.sign * floors[-1])
        else:
            self.exact[i] = self.sign * outcome.value
            self.pvs[i] = outcome.pv
        if outcome.passes is not None and not floors:  # the eldest's values by depth
            for k, v in enumerate(outcome.passes[: len(self.steps)]):
                self.steps[k] = self.sign * v


@dataclass(frozen=True)
class _Found:
    """A split node's exact value (``player``'s view), its best move and line.

    ``profile[k]`` is its value (or a bound) searched ``k`` plies deep, for ``k`` up to
    the node's remaining depth; empty when the search does not deepen.
    """

    value: float
    index: int
    pv: tuple[Any, ...]
    profile: tuple[float, ...]


@dataclass
class _Split:
    """One parallel search (see the module doc)."""

    game: Game[Any, Any]
    limit: Limit | None
    player: int
    workers: int
    tie: str
    seed: int | None
    craft: Craft
    split_plies: int
    executor: Executor | None = None  # the caller's, or None: one of our own per search
    pool: Executor | None = field(init=False, default=None)
    stats: SearchStats = field(init=False, default_factory=SearchStats)
    heuristic: bool = field(init=False, default=False)
    depth: int = field(init=False, default=0)

    def run(self, state: Any) -> SearchResult:
        start = time.perf_counter()
        own = self.executor is None
        self.pool = self.executor or ProcessPoolExecutor(
            self.workers, mp_context=multiprocessing.get_context()
        )
        try:
            found = self._node(state, 0)
        except BaseException:
            if own:
                terminate_workers(self.pool)
            raise
        finally:
            if own:
                self.pool.shutdown(wait=True, cancel_futures=True)
        limit_depth = None if self.limit is None else self.limit.depth
        self.stats.depth = self.depth if limit_depth is None else limit_depth
        self.stats.elapsed = time.perf_counter() - start
        action = self.game.actions(state)[found.index]
        return SearchResult(
            found.value, action, found.pv, self.stats, self.player, not self.heuristic
        ).about(self.game, state)

    def _limit(self, ply: int) -> Limit | None:
        """The limit of a search that starts ``ply`` plies below the root."""
        if self.limit is None or self.limit.depth is None:
            return self.limit
        return Limit(depth=self.limit.depth - ply, unit=self.limit.unit)

    def _node(self, state: Any, ply: int) -> _Found:
        """The exact value of ``state``, ``ply`` plies below the root, and its best move."""
        game, root = self.game, ply == 0
        actions = list(game.actions(state))
        limit = self._limit(ply)
        depth = None if limit is None else limit.depth
        shallow = analyze(
            game, state, Limit(depth=_shallow_depth(depth), unit=limit.unit if limit else "ply"),
            player=self.player, tie=self.tie if root else "first", seed=self.seed,
        )
        _add(self.stats, shallow.stats)
        deepens = _deepens(limit, self.craft)
        here = game_ops(game).evaluate(state, self.player) if deepens else 0.0
        if shallow.exact:  # every line it saw ended: its values are final at any depth
            self.depth = max(self.depth, ply + shallow.stats.depth)
            profile = (here, *[shallow.value] * depth) if deepens and depth else ()
            return _Found(shallow.value, actions.index(shallow.action), shallow.pv, profile)
        sign = 1.0 if game.to_move(state) == self.player else -1.0
        strict = "none" if not root else "first" if self.tie == "first" else "all"
        steps = [-math.inf] * (depth - 1) if deepens and depth else []
        known = _Brothers(sign, strict, steps)
        guess = shallow.action_values or {}
        by_guess = sorted(range(len(actions)), key=lambda i: (-sign * guess[actions[i]], i))
        eldest = by_guess[0]
        child = game.result(state, actions[eldest])
        if (
            ply < self.split_plies
            and not game.is_terminal(child)
            and game.to_move(child) >= 0
            and len(game.actions(child)) >= 2
            and (depth is None or depth >= 3)
        ):
            below = self._node(child, ply + 1)
            known.exact[eldest] = sign * below.value
            known.pvs[eldest] = (actions[eldest], *below.pv)
            for k, v in enumerate(below.profile[: len(steps)]):  # its k-ply value: ours at k+1
                steps[k] = max(steps[k], sign * v)
        self._brothers(state, ply, actions, limit, known, by_guess, deepens)
        best = known.best()
        assert best is not None
        value, index = best
        if root and self.tie == "random":
            ties = sorted(i for i, v in known.exact.items() if v == value)
            index = random.Random(self.seed).choice(ties)
        profile = (here, *(sign * v for v in steps), sign * value) if steps or deepens else ()
        return _Found(sign * value, index, known.pvs[index], profile)

    def _brothers(
        self, state: Any, ply: int, actions: list[Any], limit: Limit | None,
        known: _Brothers, by_guess: list[int], deepens: bool,
    ) -> None:
        """Search the moves of ``state`` in the pool until every one is settled.

        Moves are handed out in ``by_guess`` order, one per task, each against the best
        value known when it is handed out.  While no move has an exact value, only one
        task runs: the young brothers wait for the eldest.
        """
        running: dict[Future[_Outcome | _Failure], tuple[int, tuple[float, ...]]] = {}
        try:
            self._hand_out(state, ply, actions, limit, known, by_guess, deepens, running)
        except BaseException:
            for future in running:  # a caller's pool goes on: leave it no work of ours
                future.cancel()
            raise

    def _hand_out(
        self, state: Any, ply: int, actions: list[Any], limit: Limit | None,
        known: _Brothers, by_guess: list[int], deepens: bool,
        running: dict[Future[_Outcome | _Failure], tuple[int, tuple[float, ...]]],
    ) -> None:
        assert self.pool is not None
        while True:
            busy = {i for i, _ in running.values()}
            for i in by_guess:
                if len(running) >= self.workers or (known.best() is None and running):
                    break
                if i in busy or known.settled(i):
                    continue
                floors = known.floors(i)
                if not deepens:
                    floors = floors[-1:]
                task = _Task(
                    self.game, state, actions[i], floors, limit, self.player, self.craft,
                    deepens and not floors,
                )
                running[self.pool.submit(_search_move, task)] = (i, floors)
            if not running:
                return  # nothing runs and nothing is left to hand out: all settled
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                i, floors = running.pop(future)
                outcome = future.result()
                if isinstance(outcome, _Failure):
                    raise outcome.rebuild()
                _add(self.stats, outcome.stats)
                self.heuristic = self.heuristic or not outcome.exact
                self.depth = max(self.depth, ply + outcome.stats.depth)
                known.learn(i, floors, outcome)


def _shallow_depth(depth: int | None) -> int:
    """The depth of the ordering pass before a search to ``depth``: a third of it.

    (On Connect Four at depth 9 and 10 a third orders as well as a half, for a tenth of
    the nodes; a quarter often picks a worse eldest brother.)
    """
    if depth is None:
        return SHALLOW_UNLIMITED
    return max(1, depth // 3)


def _add(total: SearchStats, part: SearchStats) -> None:
    total.nodes += part.nodes
    total.leaves += part.leaves
    total.evals += part.evals
    total.cutoffs += part.cutoffs
    total.tt_hits += part.tt_hits
