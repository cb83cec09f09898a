"""A seeded mutation fuzzer over the test games' ``.kif`` files, through every stage.

Each case takes a description from ``tests/data/gdl``, applies one to three mutations
(tokens and parentheses deleted, duplicated, swapped or inserted; a constant replaced by
a 5,000-digit number, a term nested a few hundred deep or an odd number; a rule
duplicated with its variables renamed; a join bomb added), then parses, validates,
builds the game within a small budget, plays a few random moves and runs a short
depth-limited search.  Any exception that is not plies' own (:class:`PliesError`) fails
the test, and so does a case that takes more than ten times its budget.  Speed is not
asserted otherwise.  Everything is seeded: a failure names its file and case, and
``mutant(path, case)`` rebuilds the text that caused it.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest

from plies.budget import Budget
from plies.errors import PliesError
from plies.game import CHANCE, SIMULTANEOUS
from plies.gdl import GdlGame, parse
from plies.gdl.validator import check, validate
from plies.search import Limit, alphabeta, maxn
from tests.data import GDL_DATA
from tests.gdl.hostile import VARIABLES, nested

BUDGET = Budget(seconds=2.0, steps=2_000_000)
TIME_CAP = 10 * 2.0  # a case over ten times its budget fails
CASES_PER_FILE = 7
SOURCES = sorted(GDL_DATA.glob("*.kif")) + sorted((GDL_DATA / "prover_cases").glob("*.kif"))

_TOKEN = re.compile(r"[()]|[^\s();]+")
_KEYWORDS = {"role", "init", "true", "next", "legal", "does", "goal", "terminal",
             "distinct", "not", "or", "base", "input", "<="}
_ODD = ["9" * 5000, "1" + "0" * 4300, "²", "-1", "007", "101", "0x10", "?", "<="]


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(re.sub(r";[^\n]*", "", text))


def _sentences(tokens: list[str]) -> list[list[str]]:
    """The top-level sentences (a balanced run of tokens each; stray ones stand alone)."""
    out: list[list[str]] = []
    depth = 0
    current: list[str] = []
    for token in tokens:
        current.append(token)
        depth += {"(": 1, ")": -1}.get(token, 0)
        if depth <= 0:
            out.append(current)
            current, depth = [], 0
    if current:
        out.append(current)
    return out


def _constants(tokens: list[str]) -> list[int]:
    return [i for i, t in enumerate(tokens)
            if t not in "()" and not t.startswith("?") and t.lower() not in _KEYWORDS]


def mutate(tokens: list[str], rng: random.Random) -> list[str]:
    """One random mutation of a token list (a new list)."""
    tokens = list(tokens)
    # Mutations that keep the text valid GDL are weighted up: they reach the later stages.
    kind = rng.choice(["delete", "duplicate", "swap", "paren", "constant", "constant",
                       "deep", "rule", "rule", "rule", "bomb", "bomb"])
    i = rng.randrange(len(tokens))
    if kind == "delete":
        del tokens[i]
    elif kind == "duplicate":
        tokens.insert(i, tokens[i])
    elif kind == "swap":
        j = rng.randrange(len(tokens))
        tokens[i], tokens[j] = tokens[j], tokens[i]
    elif kind == "paren":
        tokens.insert(i, rng.choice("()"))
    elif kind in ("constant", "deep"):
        spots = _constants(tokens) or [i]
        k = rng.choice(spots)
        if kind == "constant":
            tokens[k] = rng.choice(_ODD)
        else:
            tokens[k : k + 1] = _tokens(nested(rng.choice([33, 60, 250, 300]), tokens[k]))
    elif kind == "rule":
        sentences = _sentences(tokens)
        chosen = rng.choice(sentences)
        suffix = f"_{rng.randrange(100)}"
        renamed = [t + suffix if t.startswith("?") else t for t in chosen]
        tokens += renamed
    else:  # a join bomb on a relation of the game, or on a fresh one
        names = [tokens[j + 1] for j in range(len(tokens) - 1)
                 if tokens[j] == "(" and tokens[j + 1] not in "()"
                 and tokens[j + 1].lower() not in _KEYWORDS and tokens[j + 1][:1] != "?"]
        name = rng.choice(names) if names else "n"
        arity = rng.randint(3, 8)
        body = " ".join(f"({name} {v})" for v in VARIABLES[:arity])
        head = rng.choice(["big", "(big ?a)", "(big ?a ?b ?c)", "terminal", "(next (big ?a))"])
        facts = " ".join(f"({name} {j})" for j in range(rng.randint(5, 30)))
        tokens += _tokens(f"{facts} (<= {head} {body}) (<= terminal big)")
    return tokens


def mutant(path: Path, case: int) -> str:
    """The description of fuzz case ``case`` of ``path`` (deterministic)."""
    rng = random.Random(f"{path.name}:{case}")
    tokens = _tokens(path.read_text())
    for _ in range(rng.randint(1, 3)):
        if tokens:
            tokens = mutate(tokens, rng)
    return " ".join(tokens)


def run_every_stage(text: str, rng: random.Random) -> str:
    """Parse, validate, build, play and search ``text``; the stage it got to."""
    try:
        desc = parse(text)
        validate(desc)
        check(desc)
    except PliesError:
        return "parse or validate"
    try:
        game = GdlGame(desc, budget=BUDGET)
        state = game.initial_state()
        for _ in range(rng.randint(0, 6)):
            if game.is_terminal(state):
                break
            action = rng.choice(list(game.actions(state)))
            # What a person reads is what they can type back.
            assert game.parse_action(state, game.format_action(state, action)) == action
            state = game.result(state, action)
            game.render(state)
        if game.is_terminal(state):
            for player in range(game.num_players):
                game.utility(state, player)
            return "play"
        limit = Limit(depth=2, nodes=2000)
        mover = game.to_move(state)
        if mover in (SIMULTANEOUS, CHANCE):
            return "play"
        search = alphabeta if game.num_players == 2 else maxn
        search(game, state, limit)
    except PliesError:
        return "build, play or search"
    return "search"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_fuzzed_descriptions_end_in_plies_errors_within_their_budget(path: Path) -> None:
    reached: dict[str, int] = {}
    for case in range(CASES_PER_FILE):
        text = mutant(path, case)
        started = time.monotonic()
        try:
            stage = run_every_stage(text, random.Random(case))
        except Exception as exc:  # the point: nothing but a PliesError may escape
            pytest.fail(
                f"case {case} of {path.name} raised {type(exc).__name__}: {str(exc)[:300]}"
            )
        elapsed = time.monotonic() - started
        assert elapsed < TIME_CAP, f"case {case} of {path.name} took {elapsed:.1f} s"
        reached[stage] = reached.get(stage, 0) + 1
    assert sum(reached.values()) == CASES_PER_FILE


def test_the_mutator_is_deterministic_and_changes_the_text() -> None:
    path = SOURCES[0]
    assert mutant(path, 3) == mutant(path, 3)
    original = " ".join(_tokens(path.read_text()))
    assert sum(mutant(path, case) != original for case in range(10)) >= 9
