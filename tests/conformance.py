"""The conformance check every game's tests call (after OpenSpiel's shared game tests).

:func:`check_game` plays seeded random games and checks, at every state it meets, the
promises the :class:`~plies.game.Game` protocol makes to searches: legal movers, stable
non-empty action lists, a pure ``result``, hashable states and keys, proper chance
odds, utilities within ``utility_range`` (and with a constant sum when ``zero_sum``),
a finite ``evaluate``, text that reads back as the same action, and a ``render``.
A broken promise fails an ``assert`` whose message names the game, the playout, the step,
the state and the property.
"""

from __future__ import annotations

import copy
import math
import random
from dataclasses import dataclass
from typing import Any

from plies.game import CHANCE, SIMULTANEOUS, format_action, game_ops, parse_action

_TOLERANCE = 1e-9


@dataclass
class ConformanceReport:
    """What a :func:`check_game` run saw."""

    playouts: int = 0
    states: int = 0
    terminals: int = 0
    chance_nodes: int = 0
    unfinished: int = 0  # playouts cut off by max_steps


def check_game(
    game: Any, *, playouts: int = 50, seed: int = 0, max_steps: int = 500
) -> ConformanceReport:
    """Check ``game`` along ``playouts`` random games (seeded); raise AssertionError if broken.

    A playout stops at a terminal state or after ``max_steps`` actions (games without a
    cap, such as Pig with ``max_turns=None``, need not end).
    """
    rng = random.Random(seed)
    name = getattr(game, "name", type(game).__name__)
    n = game.num_players
    assert isinstance(n, int) and n >= 1, f"{name}: num_players must be an int >= 1, got {n!r}"
    ops = game_ops(game)
    lo, hi = ops.utility_range
    assert lo <= hi, f"{name}: utility_range {ops.utility_range} is empty"
    player_name = getattr(game, "player_name", None)
    if player_name is not None:
        for p in range(n):
            assert isinstance(player_name(p), str), f"{name}: player_name({p}) is not a str"
    first = game.initial_state()
    assert first == game.initial_state(), f"{name}: initial_state() differs between calls"

    report = ConformanceReport()
    zero_sum_total: list[float] = []
    for playout in range(playouts):
        state = game.initial_state()
        for step in range(max_steps + 1):
            where = f"{name}, playout {playout}, step {step}, state {state!r}"
            report.states += 1
            _check_common(game, ops, state, where)
            if ops.is_terminal(state):
                report.terminals += 1
                _check_terminal(game, ops, state, where, zero_sum_total)
                break
            if step == max_steps:
                report.unfinished += 1
                break
            actions = _check_inner(game, ops, state, where)
            if ops.to_move(state) == CHANCE:
                report.chance_nodes += 1
                state = game.result(state, _sample(rng, list(ops.chance_outcomes(state))))
            else:
                state = game.result(state, rng.choice(actions))
        report.playouts += 1
    return report


def _check_common(game: Any, ops: Any, state: Any, where: str) -> None:
    try:
        hash(state)
    except TypeError as exc:
        raise AssertionError(f"{where}: state is not hashable ({exc})") from None
    key = ops.key(state)
    try:
        hash(key)
    except TypeError as exc:
        raise AssertionError(f"{where}: key {key!r} is not hashable ({exc})") from None
    twin = copy.deepcopy(state)
    assert twin == state, f"{where}: a deep copy of the state is not equal to it"
    assert ops.key(twin) == key, f"{where}: equal states have different keys"
    assert isinstance(ops.is_terminal(state), bool), f"{where}: is_terminal is not a bool"
    render = getattr(game, "render", None)
    if render is not None:
        picture = render(state)
        assert isinstance(picture, str), f"{where}: render returned {type(picture).__name__}"


def _check_terminal(
    game: Any, ops: Any, state: Any, where: str, zero_sum_total: list[float]
) -> None:
    lo, hi = ops.utility_range
    values = [ops.utility(state, p) for p in range(ops.num_players)]
    for p, value in enumerate(values):
        assert isinstance(value, int | float) and not math.isnan(value), (
            f"{where}: utility for player {p} is {value!r}, not a number"
        )
        assert lo - _TOLERANCE <= value <= hi + _TOLERANCE, (
            f"{where}: utility {value} for player {p} lies outside utility_range {(lo, hi)}"
        )
        assert ops.evaluate(state, p) == value, (
            f"{where}: evaluate at a terminal state differs from the utility for player {p}"
        )
    if getattr(game, "zero_sum", False):
        total = math.fsum(values)
        if not zero_sum_total:
            zero_sum_total.append(total)
        assert math.isclose(total, zero_sum_total[0], abs_tol=_TOLERANCE), (
            f"{where}: the game says zero_sum but utilities {values} sum to {total}, "
            f"elsewhere to {zero_sum_total[0]}"
        )


def _check_inner(game: Any, ops: Any, state: Any, where: str) -> list[Any]:
    """Check a non-terminal state; return its actions."""
    n = ops.num_players
    mover = ops.to_move(state)
    assert mover in (CHANCE, SIMULTANEOUS) or (isinstance(mover, int) and 0 <= mover < n), (
        f"{where}: to_move is {mover!r}, not a player 0..{n - 1}, CHANCE or SIMULTANEOUS"
    )
    actions = list(ops.actions(state))
    assert actions, f"{where}: a non-terminal state has no actions"
    assert list(ops.actions(state)) == actions, f"{where}: actions() changed between two calls"
    lo, hi = ops.utility_range
    for p in range(n):
        value = ops.evaluate(state, p)
        assert isinstance(value, int | float) and math.isfinite(value), (
            f"{where}: evaluate for player {p} is {value!r}, not a finite number"
        )
        assert lo - _TOLERANCE <= value <= hi + _TOLERANCE, (
            f"{where}: evaluate {value} for player {p} lies outside utility_range {(lo, hi)}"
        )
    if mover == CHANCE:
        outcomes = list(ops.chance_outcomes(state))
        assert outcomes, f"{where}: a chance node has no outcomes"
        for outcome, p in outcomes:
            assert p > 0, f"{where}: outcome {outcome!r} has probability {p}, not > 0"
            assert outcome in actions, f"{where}: outcome {outcome!r} is not among actions()"
        total = math.fsum(p for _, p in outcomes)
        assert math.isclose(total, 1.0, abs_tol=_TOLERANCE), (
            f"{where}: chance probabilities sum to {total}, not 1"
        )
    if mover == SIMULTANEOUS:
        for joint in actions:
            assert isinstance(joint, tuple) and len(joint) == n, (
                f"{where}: joint action {joint!r} is not a tuple with one action per player"
            )
    for action in actions:
        _check_action(game, ops, state, action, where)
    return actions


def _check_action(game: Any, ops: Any, state: Any, action: Any, where: str) -> None:
    text = format_action(game, state, action)
    assert isinstance(text, str) and text.strip(), (
        f"{where}: format_action({action!r}) gave {text!r}, not a non-empty str"
    )
    back = parse_action(game, state, text)
    assert back == action, f"{where}: format_action({action!r}) = {text!r} parses back as {back!r}"
    before = copy.deepcopy(state)
    before_hash = hash(state)
    child = game.result(state, action)
    assert state == before and hash(state) == before_hash, (
        f"{where}: result(state, {action!r}) mutated the state (now {state!r})"
    )
    again = game.result(state, action)
    assert again == child, f"{where}: result(state, {action!r}) differs between two calls"
    assert hash(again) == hash(child) and ops.key(again) == ops.key(child), (
        f"{where}: equal results of {action!r} have different hashes or keys"
    )


def _sample(rng: random.Random, outcomes: list[tuple[Any, float]]) -> Any:
    draw = rng.random()
    for outcome, p in outcomes:
        draw -= p
        if draw < 0:
            return outcome
    return outcomes[-1][0]
