"""The conformance check: does a game keep the promises the game model makes to searches?

After OpenSpiel's shared game tests.  :func:`check_game` plays seeded random games and
checks, at every state it meets, what :class:`~plies.game.Game` promises: a movers in
range, stable non-empty action lists, a pure and deterministic ``result``, hashable states
and stable keys, utilities within ``utility_range`` (with a constant sum when the game
declares ``zero_sum``), chance odds that sum to 1, per-player actions at simultaneous
nodes that match the joint actions, a finite ``evaluate`` within range, declared facts
(``has_chance``, ``has_simultaneous``) that agree with what the playouts meet, text that
reads back as the same action, and a ``render``.  A game with information sets (hidden
cards, :mod:`plies.imperfect`) gets one more line, ``information sets``: the worlds it
samples (and lists) are states the player cannot tell from the true one, with the same
legal actions, and listed odds sum to 1 (:func:`plies.imperfect.check_worlds`).

The answer is a :class:`CheckReport`: one line per check, passed or failed with the
reason, the first failure naming the playout, the step and the state.  A game method that
raises fails the check that called it.  ``plies check GAME`` prints the same report.

>>> import plies
>>> report = plies.check_game(plies.games.load("nim"), playouts=5)
>>> report.ok, report.playouts, report.terminals
(True, 5, 5)
>>> print(report.checks[3])
pass  to_move: a player 0..1, CHANCE or SIMULTANEOUS at 31 states
"""

from __future__ import annotations

import copy
import itertools
import math
import random
import reprlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from plies.game import (
    CHANCE,
    SIMULTANEOUS,
    Board,
    Game,
    GameOps,
    default_player_actions,
    format_action,
    format_player_action,
    game_ops,
    hook,
    missing_members,
    parse_action,
)
from plies.imperfect import REQUIRED_IMPERFECT, check_worlds
from plies.wrappers import GameWrapper

Status = Literal["pass", "warn", "fail", "skip"]

_TOLERANCE: Final = 1e-9

#: The checks, in report order, each with what it verifies.
CHECKS: Final = {
    "model": "num_players, utility_range, the declared facts and player names are well-formed",
    "initial state": "initial_state() gives equal states on every call",
    "playouts": "random playouts run (to a terminal state or the step cap)",
    "to_move": "a player 0..n-1, CHANCE or SIMULTANEOUS at every non-terminal state",
    "actions": "non-empty at non-terminal states and the same on every call",
    "result is pure": "result() does not mutate its state and gives equal states every call",
    "hashing and keys": "states and keys are hashable; equal states have equal keys",
    "utilities": "numbers within utility_range; evaluate equals utility at terminal states",
    "zero_sum": "a declared zero_sum holds: every terminal's utilities sum to one constant",
    "chance odds": "outcomes among actions(), each with probability > 0, summing to 1",
    "simultaneous moves": "joint actions are every combination of the player_actions",
    "evaluate": "a finite number within utility_range at non-terminal states",
    "has_chance": "the declared has_chance agrees with the CHANCE nodes met",
    "has_simultaneous": "the declared has_simultaneous agrees with the SIMULTANEOUS nodes met",
    "action text": "format_action gives non-empty text that parse_action reads back",
    "render": "render() returns a str",
    "board": "a declared board names only legal moves, and every legal move if it names any",
    "positions": "a position written in the game's notation reads back as the same position",
    "claims": "a declared unclaimed keeps the position, and leaves over only what is over",
}

KNOWLEDGE_STATES: Final = 200
"""The board and the position text are checked at the first this many states (a board
can be slow to draw: chess writes every move in SAN)."""


@dataclass(frozen=True, slots=True)
class Check:
    """One line of a :class:`CheckReport`.

    ``status``: ``"pass"``; ``"warn"`` (passed, with something worth a look: a declared
    fact the playouts never met, or one the game leaves at its default); ``"fail"``
    (``reason`` names the first broken state); ``"skip"`` (not run: the model is broken,
    or the playouts never reached what the check tests; ``reason`` names the likely cause).
    """

    name: str
    status: Status
    reason: str

    @property
    def passed(self) -> bool:
        """True unless the check failed (a warning passes)."""
        return self.status != "fail"

    def __str__(self) -> str:
        return f"{self.status:<5} {self.name}: {self.reason}"


@dataclass
class CheckReport:
    """What :func:`check_game` found: every check of :data:`CHECKS`, and what it saw."""

    game: str
    checks: list[Check] = field(default_factory=list)
    playouts: int = 0  # playouts run to their end (a terminal state or the step cap)
    states: int = 0
    terminals: int = 0
    chance_nodes: int = 0
    simultaneous_nodes: int = 0
    unfinished: int = 0  # playouts cut off by max_steps
    abandoned: int = 0  # playouts stopped by a failed check

    @property
    def ok(self) -> bool:
        """True when no check failed."""
        return all(check.passed for check in self.checks)

    @property
    def failures(self) -> list[Check]:
        return [check for check in self.checks if not check.passed]

    def check(self, name: str) -> Check:
        """The check called ``name`` (a key of :data:`CHECKS`)."""
        for check in self.checks:
            if check.name == name:
                return check
        raise KeyError(name)

    def __str__(self) -> str:
        return "\n".join(str(check) for check in self.checks)


def check_game(
    game: Game[Any, Any] | Any, *, playouts: int = 50, seed: int = 0, max_steps: int = 500
) -> CheckReport:
    """Check ``game`` along ``playouts`` random games (seeded by ``seed``).

    A playout stops at a terminal state or after ``max_steps`` actions (games without a
    cap, such as Pig with ``max_turns=None``, need not end).  Works for duck-typed games
    as well as :class:`~plies.game.Game` subclasses.  Never raises for a broken game:
    the report says what is broken (``report.ok`` is False).
    """
    if playouts < 1 or max_steps < 1:
        raise ValueError(f"playouts and max_steps must be >= 1, got {playouts}, {max_steps}")
    report = _Checker(game, random.Random(seed), max_steps).run(playouts)
    if any(callable(getattr(game, name, None)) for name in REQUIRED_IMPERFECT):
        report.checks.append(_information_sets(game, playouts, seed, max_steps))
    return report


def _information_sets(game: Any, playouts: int, seed: int, max_steps: int) -> Check:
    """The ``information sets`` line: :func:`~plies.imperfect.check_worlds` as a check."""
    name = "information sets"
    missing = [m for m in REQUIRED_IMPERFECT if not callable(getattr(game, m, None))]
    if missing:
        return Check(name, "fail", f"{', '.join(missing)} missing (a game with information "
                                   f"sets needs {' and '.join(REQUIRED_IMPERFECT)})")
    try:
        problems = check_worlds(game, playouts=playouts, seed=seed, max_steps=max_steps)
    except Exception as exc:  # the game's own bug: report it, do not crash the check
        return Check(name, "fail", f"raised {type(exc).__name__}: {exc}")
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        return Check(name, "fail", problems[0] + more)
    listed = ", and the listed worlds" if callable(getattr(game, "worlds", None)) else ""
    return Check(name, "pass", f"sampled worlds{listed} match every player's information "
                               f"set and actions along {playouts} playouts")


# --- the checker ---------------------------------------------------------------------------


class _Broken(Exception):
    """A failed check that stops the current playout."""


_short = reprlib.Repr()
_short.maxstring = _short.maxother = 60
_short.maxlong = 40


class _Checker:
    def __init__(self, game: Any, rng: random.Random, max_steps: int) -> None:
        self.game = game
        self.rng = rng
        self.max_steps = max_steps
        name = getattr(game, "name", None)
        if not isinstance(name, str) or name in ("", Game.name):  # unnamed: say the class
            name = type(game).__name__
        self.report = CheckReport(name)
        self.failed: dict[str, str] = {}
        self.warned: dict[str, str] = {}
        self.where = ""
        self.zero_sum_total: float | None = None
        self.sums: set[float] = set()
        self.boards = self.positions = 0  # states whose board / position text was checked
        self.claims = 0  # states whose unclaimed state was checked
        self.results = self.texts = 0  # actions whose result / text was checked
        self.inner = self.rendered = 0  # non-terminal states checked; states rendered
        self.stopped_by: dict[str, int] = {}  # the failed checks that ended playouts

    # --- recording ---

    def fail(self, name: str, message: str, *, fatal: bool = True) -> None:
        self.failed.setdefault(name, f"{self.where}: {message}" if self.where else message)
        if fatal:
            raise _Broken(name)

    def expect(
        self, name: str, ok: bool, message: Callable[[], str], *, fatal: bool = False
    ) -> None:
        if not ok and name not in self.failed:
            self.fail(name, message(), fatal=fatal)

    @contextmanager
    def guard(self, name: str) -> Iterator[None]:
        """Run game code for check ``name``: an exception it raises fails that check."""
        try:
            yield
        except _Broken:
            raise
        except Exception as exc:  # the game's own bug: report it, do not crash the check
            self.fail(name, f"raised {type(exc).__name__}: {exc}")

    # --- the run ---

    def run(self, playouts: int) -> CheckReport:
        report = self.report
        ops = self.check_model()
        if ops is None:
            report.checks = [
                Check(name, "fail", self.failed[name])
                if name in self.failed
                else Check(name, "skip", "not run: the model is broken")
                for name in CHECKS
            ]
            return report
        try:
            with self.guard("initial state"):
                first = self.game.initial_state()
                again = self.game.initial_state()
                self.expect(
                    "initial state", first == again and _hash(first) == _hash(again),
                    lambda: "initial_state() differs between calls",
                )
        except _Broken:
            pass
        for playout in range(playouts):
            try:
                self.playout(ops, playout)
                report.playouts += 1
            except _Broken as broken:
                report.abandoned += 1
                name = str(broken.args[0]) if broken.args else "?"
                self.stopped_by[name] = self.stopped_by.get(name, 0) + 1
        self.where = ""
        report.checks = [self.verdict(name) for name in CHECKS]
        return report

    def check_model(self) -> GameOps | None:
        game = self.game
        missing = missing_members(game)
        if missing:
            self.failed["model"] = f"the game lacks {', '.join(missing)}"
            return None
        n = game.num_players
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            self.failed["model"] = f"num_players must be an int >= 1, got {n!r}"
            return None
        try:
            ops = game_ops(game)
        except Exception as exc:
            self.failed["model"] = f"game_ops(game) raised {type(exc).__name__}: {exc}"
            return None
        lo, hi = ops.utility_range
        if not lo <= hi:
            self.failed["model"] = f"utility_range {ops.utility_range} is empty"
            return None
        for fact in ("zero_sum", "has_chance", "has_simultaneous"):
            value = getattr(game, fact, False)
            if not isinstance(value, bool):
                self.fail("model", f"{fact} is {value!r}, not a bool", fatal=False)
        try:
            with self.guard("model"):
                namer: Callable[[int], Any] = getattr(game, "player_name", None) or str
                for p in range(n):
                    name = namer(p)
                    if not (isinstance(name, str) and name):
                        self.fail("model", f"player_name({p}) is {name!r}, not a non-empty str")
        except _Broken:
            pass
        return ops

    def playout(self, ops: GameOps, playout: int) -> None:
        game, report = self.game, self.report
        with self.guard("playouts"):
            state = game.initial_state()
        for step in range(self.max_steps + 1):
            self.where = f"playout {playout}, step {step}, state {_short.repr(state)}"
            report.states += 1
            self.check_state(ops, state)
            with self.guard("actions"):
                terminal = ops.is_terminal(state)
            self.expect("actions", isinstance(terminal, bool), lambda: "is_terminal is not a bool")
            if terminal:
                report.terminals += 1
                self.check_terminal(ops, state)
                return
            if step == self.max_steps:
                report.unfinished += 1
                return
            mover, actions = self.check_inner(ops, state)
            with self.guard("playouts"):
                if mover == CHANCE:
                    report.chance_nodes += 1
                    with self.guard("chance odds"):
                        outcomes = list(ops.chance_outcomes(state))
                    state = game.result(state, _sample(self.rng, outcomes))
                else:
                    report.simultaneous_nodes += mover == SIMULTANEOUS
                    state = game.result(state, self.rng.choice(actions))

    def check_state(self, ops: GameOps, state: Any) -> None:
        name = "hashing and keys"
        try:
            hash(state)
        except TypeError as exc:
            # Not fatal: the playout goes on, so that the checks after this one run (a
            # list state's result() often changes its input too) instead of "not run".
            self.fail(name, f"state is not hashable ({exc}; use a tuple, not a list)",
                      fatal=False)
            hashable = False
        else:
            hashable = True
        with self.guard(name):
            key = ops.key(state)
        if hashable or key is not state:  # the state's own failure is said once
            try:
                hash(key)
            except TypeError as exc:
                self.fail(name, f"key {_short.repr(key)} is not hashable ({exc})")
        with self.guard(name):
            twin = copy.deepcopy(state)
            self.expect(name, twin == state, lambda: "a deep copy of the state is not equal to it")
            self.expect(name, ops.key(twin) == key, lambda: "equal states have different keys")
        render = getattr(self.game, "render", None)
        if render is not None and "render" not in self.failed:
            try:
                with self.guard("render"):
                    picture = render(state)
                    self.expect(
                        "render", isinstance(picture, str),
                        lambda: f"render returned {type(picture).__name__}",
                    )
            except _Broken:
                pass  # a picture is for people: the playout goes on
            else:
                self.rendered += 1
        if self.report.states <= KNOWLEDGE_STATES:
            self.check_board(ops, state)
            self.check_positions(ops, state)
            self.check_claims(ops, state)

    def check_board(self, ops: GameOps, state: Any) -> None:
        """The board hook: a Board whose moves are legal, naming them all if any."""
        draw = hook(self.game, "board")
        if draw is None or "board" in self.failed:
            return
        try:
            with self.guard("board"):
                board = draw(state)
                if not isinstance(board, Board):
                    self.fail("board", f"board() returned {type(board).__name__}, not a Board")
                named = board.named_moves()
                if ops.is_terminal(state) or ops.to_move(state) < 0:
                    legal = set() if ops.is_terminal(state) else set(named)
                else:
                    legal = {format_action(self.game, state, a) for a in ops.actions(state)}
                stray = sorted(set(named) - legal)
                self.expect("board", not stray, lambda: f"the board names {stray}, not legal")
                missing = sorted(legal - set(named)) if named else []
                self.expect("board", not missing,
                            lambda: f"the board names moves but not {missing}")
                self.boards += 1
        except _Broken:
            pass  # a board is for people: the playout goes on

    def check_positions(self, ops: GameOps, state: Any) -> None:
        """``read_position(write_position(state))`` is ``state``'s position (its key: a
        notation need not hold the history, as chess's FEN does not)."""
        write, read = hook(self.game, "write_position"), hook(self.game, "read_position")
        if write is None or read is None or "positions" in self.failed:
            return
        try:
            with self.guard("positions"):
                text = write(state)
                back = read(text)
                self.expect("positions", back is not None and ops.key(back.state) == ops.key(state),
                            lambda: f"{text!r} reads back as another position, {_short.repr(back)}")
                self.positions += 1
        except _Broken:
            pass

    def check_claims(self, ops: GameOps, state: Any) -> None:
        """``unclaimed(state)`` is the same position (its key) with the same mover; a state
        that is not over is left as it is (its actions); one it leaves not over has
        actions."""
        unclaimed = hook(self.game, "unclaimed")
        if unclaimed is None or "claims" in self.failed:
            return
        name = "claims"
        try:
            with self.guard(name):
                free = unclaimed(state)
                self.expect(name, ops.key(free) == ops.key(state),
                            lambda: f"unclaimed(state) is another position, {_short.repr(free)}")
                over = ops.is_terminal(free)
                if not ops.is_terminal(state):
                    self.expect(
                        name, not over and list(ops.actions(free)) == list(ops.actions(state)),
                        lambda: "unclaimed(state) changed a state that was not over",
                    )
                elif not over:
                    self.expect(name, ops.to_move(free) == ops.to_move(state)
                                and bool(ops.actions(free)),
                                lambda: "unclaimed(state) is not over but has no actions")
                self.claims += 1
        except _Broken:
            pass

    def check_terminal(self, ops: GameOps, state: Any) -> None:
        lo, hi = ops.utility_range
        with self.guard("utilities"):
            values = [ops.utility(state, p) for p in range(ops.num_players)]
        for p, value in enumerate(values):
            if not (isinstance(value, int | float) and not math.isnan(value)):
                self.fail("utilities", f"utility for player {p} is {value!r}, not a number")
            if not lo - _TOLERANCE <= value <= hi + _TOLERANCE:
                self.fail(
                    "utilities",
                    f"utility {value} for player {p} lies outside utility_range {(lo, hi)}",
                    fatal=False,
                )
            with self.guard("utilities"):
                same = ops.evaluate(state, p) == value
            if not same:
                self.fail(
                    "utilities",
                    f"evaluate at a terminal state differs from the utility for player {p}",
                    fatal=False,
                )
        total = math.fsum(values)
        self.sums.add(round(total, 9))
        if getattr(self.game, "zero_sum", False):
            if self.zero_sum_total is None:
                self.zero_sum_total = total
            first = self.zero_sum_total
            self.expect(
                "zero_sum", math.isclose(total, first, abs_tol=_TOLERANCE),
                lambda: (
                    f"the game says zero_sum but utilities {values} sum to {total}, "
                    f"elsewhere to {first}"
                ),
            )

    def check_inner(self, ops: GameOps, state: Any) -> tuple[int, list[Any]]:
        """Check a non-terminal state; return its mover and actions."""
        n = ops.num_players
        with self.guard("to_move"):
            mover = ops.to_move(state)
        if not (mover in (CHANCE, SIMULTANEOUS) or (isinstance(mover, int) and 0 <= mover < n)):
            self.fail(
                "to_move", f"to_move is {mover!r}, not a player 0..{n - 1}, CHANCE or SIMULTANEOUS"
            )
        with self.guard("actions"):
            actions = list(ops.actions(state))
            if not actions:
                self.fail("actions", "a non-terminal state has no actions")
            if list(ops.actions(state)) != actions:
                self.fail("actions", "actions() changed between two calls")
        self.check_evaluate(ops, state)
        self.inner += 1
        if mover == CHANCE:
            self.check_chance(ops, state, actions)
        elif mover == SIMULTANEOUS:
            self.check_simultaneous(state, actions)
        for action in actions:
            self.check_action(ops, state, action)
        return mover, actions

    def check_evaluate(self, ops: GameOps, state: Any) -> None:
        lo, hi = ops.utility_range
        for p in range(ops.num_players):
            if "evaluate" in self.failed:
                return
            try:
                with self.guard("evaluate"):
                    value = ops.evaluate(state, p)
            except _Broken:
                return
            if not (isinstance(value, int | float) and math.isfinite(value)):
                self.fail(
                    "evaluate", f"evaluate for player {p} is {value!r}, not a finite number",
                    fatal=False,
                )
            elif not lo - _TOLERANCE <= value <= hi + _TOLERANCE:
                self.fail(
                    "evaluate",
                    f"evaluate {value} for player {p} lies outside utility_range {(lo, hi)}",
                    fatal=False,
                )

    def check_chance(self, ops: GameOps, state: Any, actions: list[Any]) -> None:
        name = "chance odds"
        with self.guard(name):
            outcomes = list(ops.chance_outcomes(state))
        if not outcomes:
            self.fail(name, "a chance node has no outcomes")
        for outcome, p in outcomes:
            if not p > 0:
                self.fail(name, f"outcome {outcome!r} has probability {p}, not > 0")
            if outcome not in actions:
                self.fail(name, f"outcome {outcome!r} is not among actions()")
        total = math.fsum(p for _, p in outcomes)
        if not math.isclose(total, 1.0, abs_tol=_TOLERANCE):
            self.fail(name, f"chance probabilities sum to {total}, not 1")

    def check_simultaneous(self, state: Any, actions: list[Any]) -> None:
        name, game = "simultaneous moves", self.game
        n = game.num_players
        for joint in actions:
            if not (isinstance(joint, tuple) and len(joint) == n):
                self.fail(
                    name, f"joint action {joint!r} is not a tuple with one action per player"
                )
        if name in self.failed:
            return
        own = getattr(game, "player_actions", None)
        with self.guard(name):
            mine = [
                list(own(state, p) if own is not None else default_player_actions(game, state, p))
                for p in range(n)
            ]
            for p, choices in enumerate(mine):
                projected = list(dict.fromkeys(joint[p] for joint in actions))
                if len(set(choices)) != len(choices) or set(choices) != set(projected):
                    self.fail(
                        name,
                        f"player_actions(state, {p}) is {choices!r}, but the joint actions "
                        f"give player {p} {projected!r}",
                    )
                for choice in choices:
                    text = format_player_action(game, state, p, choice)
                    if not isinstance(text, str) or not text.strip():
                        self.fail(name, f"format_player_action({p}, {choice!r}) gave {text!r}")
            combos = math.prod(len(choices) for choices in mine)
            if len(set(actions)) != combos or set(actions) != set(itertools.product(*mine)):
                self.fail(
                    name,
                    f"the {len(set(actions))} joint actions are not every combination of the "
                    f"players' actions ({combos})",
                )

    def check_action(self, ops: GameOps, state: Any, action: Any) -> None:
        game = self.game
        if "action text" not in self.failed:
            try:
                with self.guard("action text"):
                    text = format_action(game, state, action)
                    self.expect(
                        "action text", isinstance(text, str) and bool(text.strip()),
                        lambda: f"format_action({action!r}) gave {text!r}, not a non-empty str",
                        fatal=True,
                    )
                    back = parse_action(game, state, text)
                    self.expect(
                        "action text", back == action,
                        lambda: f"format_action({action!r}) = {text!r} parses back as {back!r}",
                    )
            except _Broken:
                pass  # text is for people: the playout goes on
            else:
                self.texts += 1
        name = "result is pure"
        before = copy.deepcopy(state)
        before_hash = _hash(state)
        with self.guard(name):
            child = game.result(state, action)
        if not (state == before and _hash(state) == before_hash):
            self.fail(
                name, f"result(state, {action!r}) mutated the state (now {_short.repr(state)})"
            )
        with self.guard(name):
            again = game.result(state, action)
        if again != child:
            self.fail(name, f"result(state, {action!r}) differs between two calls")
        with self.guard("hashing and keys"):
            if _hash(again) != _hash(child) or ops.key(again) != ops.key(child):
                self.fail(
                    "hashing and keys", f"equal results of {action!r} have different hashes or keys"
                )
        self.results += 1

    # --- verdicts ---

    def verdict(self, name: str) -> Check:
        if name in self.failed:
            return Check(name, "fail", self.failed[name])
        report = self.report
        if name == "playouts":
            return self.playouts_verdict()
        if name in ("has_chance", "has_simultaneous"):
            return self.fact_verdict(name)
        if name == "zero_sum":
            return self.zero_sum_verdict()
        unmet = self.unmet(name)
        if unmet is not None:
            return Check(name, "skip", f"not run: {unmet}{self.likely_cause()}")
        counts = {
            "initial state": "equal on every call",
            "to_move": f"a player 0..{self.game.num_players - 1}, CHANCE or SIMULTANEOUS "
            f"at {report.states - report.terminals} states",
            "actions": f"non-empty and stable at {report.states - report.terminals} states",
            "result is pure": "no mutation, equal results on every call",
            "hashing and keys": f"hashable states and stable keys at {report.states} states",
            "utilities": f"within utility_range at {report.terminals} terminal states",
            "chance odds": f"checked at {report.chance_nodes} chance nodes"
            if report.chance_nodes else "no CHANCE node met",
            "simultaneous moves": f"checked at {report.simultaneous_nodes} simultaneous nodes"
            if report.simultaneous_nodes else "no SIMULTANEOUS node met",
            "evaluate": f"finite and within utility_range at {report.states - report.terminals} "
            "states",
            "action text": "every action's text reads back as the action",
            "render": "a str at every state",
            "board": f"the legal moves at {self.boards} states" if self.boards
            else "no board (render's text instead)",
            "positions": f"read back at {self.positions} states" if self.positions
            else "no position notation (moves instead)",
            "claims": f"checked at {self.claims} states" if self.claims
            else "no draws to claim (no unclaimed hook)",
            "model": "well-formed",
        }
        return Check(name, "pass", counts[name])

    def unmet(self, name: str) -> str | None:
        """Why check ``name`` never ran, or None when the playouts exercised it."""
        r = self.report
        never = {
            "to_move": self.inner == 0, "actions": self.inner == 0,
            "evaluate": self.inner == 0, "result is pure": self.results == 0,
            "action text": self.texts == 0, "utilities": r.terminals == 0,
            "hashing and keys": r.states == 0,
            "render": self.rendered == 0 and getattr(self.game, "render", None) is not None,
        }
        if not never.get(name, False):
            return None
        what = {
            "utilities": "no playout reached a terminal state",
            "result is pure": "no move was played through result()",
            "action text": "no move was checked",
        }
        return what.get(name, "the playouts met no state to check it on")

    def likely_cause(self) -> str:
        """``; the likely cause: ...`` for a check that never ran, from what stopped the
        playouts (empty when nothing did)."""
        if not self.stopped_by:
            r = self.report
            if r.unfinished:
                return (f" (the playouts were cut off after {self.max_steps} steps: give them "
                        "more, --max-steps)")
            return ""
        first = max(self.stopped_by, key=lambda k: self.stopped_by[k])
        why = self.failed.get(first, "")
        if first == "hashing and keys" and "not hashable" in why:
            cause = "an unhashable key (key() must return a hashable value, such as a tuple)"
        elif first == "result is pure":
            cause = "a result() that changes the state it is given"
        else:
            cause = f"the failed check {first!r}"
        return f"; the playouts stopped early, likely cause: {cause}"

    def playouts_verdict(self) -> Check:
        r = self.report
        done = r.playouts
        if done == 0 and r.abandoned:
            return Check("playouts", "skip", f"not run: all {r.abandoned} playouts stopped at a "
                         f"failed check{self.likely_cause()}")
        text = f"{done} playouts: {r.terminals} reached a terminal state"
        if r.unfinished:
            text += f", {r.unfinished} were cut off after {self.max_steps} steps"
        if r.abandoned:
            text += f"; {r.abandoned} stopped at a failed check"
        return Check("playouts", "pass", text)

    def fact_verdict(self, name: str) -> Check:
        met = (
            self.report.chance_nodes if name == "has_chance" else self.report.simultaneous_nodes
        )
        kind = "CHANCE" if name == "has_chance" else "SIMULTANEOUS"
        declared = getattr(self.game, name, False)
        if met and not declared:
            message = f"{name} is False but the playouts met {met} {kind} nodes"
            if _declares(self.game, name):
                return Check(name, "fail", message)
            return Check(
                name, "warn", f"{message}: declare {name} = True so searches can tell up front"
            )
        if declared and not met:
            return Check(
                name, "warn", f"declared True, but the playouts met no {kind} node"
            )
        return Check(name, "pass", f"{name} = {bool(declared)}, and {met} {kind} nodes met")

    def zero_sum_verdict(self) -> Check:
        if getattr(self.game, "zero_sum", False):
            return Check(
                "zero_sum", "pass",
                f"declared; the utilities sum to {self.zero_sum_total} at every terminal state"
                if self.zero_sum_total is not None else "declared; no terminal state met",
            )
        if len(self.sums) == 1 and self.report.terminals > 1:
            return Check(
                "zero_sum", "pass",
                f"not declared; the utilities summed to {next(iter(self.sums))} at all "
                f"{self.report.terminals} terminal states met",
            )
        return Check("zero_sum", "pass", "not declared")


def _declares(game: Any, name: str) -> bool:
    """Whether ``game``'s own definition sets ``name`` (not :class:`Game`'s default).

    A wrapper's copy of the wrapped game's fact does not count: it declares nothing.
    """
    classes = [cls for cls in type(game).__mro__ if cls not in (Game, GameWrapper, object)]
    if any(name in vars(cls) for cls in classes):
        return True
    return not isinstance(game, GameWrapper) and name in getattr(game, "__dict__", {})


def _hash(state: Any) -> int | None:
    """``hash(state)``, or None for an unhashable state (already failed by its own check)."""
    try:
        return hash(state)
    except TypeError:
        return None


def _sample(rng: random.Random, outcomes: list[tuple[Any, float]]) -> Any:
    draw = rng.random()
    for outcome, p in outcomes:
        draw -= p
        if draw < 0:
            return outcome
    return outcomes[-1][0]
