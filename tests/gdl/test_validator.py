"""The GDL validator: the shared valid and invalid files, each check alone, and the
graph checks against a brute-force oracle on random rule sets."""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from plies.errors import GameFormatError, GdlValidationError
from plies.gdl.parser import load, parse
from plies.gdl.terms import Description, Rule, Term, is_ground, to_kif, variables
from plies.gdl.validator import Diagnostic, check, validate
from tests.gdl.test_parser import GDL_DATA, file_id, gdl_files

H = TypeVar("H")

# file -> (check of the first error, its line, the offending sentence as printed back)
MUST_REJECT: dict[str, tuple[str, int, str]] = {
    "invalid/base_depen.kif": ("keyword-dependency", 5, "(<= (base ?x) (true ?x) (does robot ?x))"),
    "invalid/init_depen.kif": ("keyword-dependency", 5, "(<= (init ?x) (true ?x) (does robot ?x))"),
    "invalid/input_depen.kif": (
        "keyword-dependency",
        5,
        "(<= (input robot ?x) (true ?x) (does robot ?x))",
    ),
    "invalid/legal_depen.kif": (
        "keyword-dependency",
        5,
        "(<= (legal robot ?x) (true ?x) (does robot ?x))",
    ),
    "invalid/headsafe.kif": ("safety", 5, "(<= (test ?x) (test ?y))"),
    "invalid/notsafe.kif": ("safety", 5, "(<= (test ?x) (test2 ?x) (not (test3 ?y)))"),
    "invalid/orsafe.kif": ("safety", 5, "(<= (test ?x) (or (test2 ?x) (test3 ?y)))"),
    "invalid/notunstrat.kif": ("stratification", 5, "(<= (test ?x) (not (test2 ?x)) (test3 ?x))"),
    "invalid/unstratrec.kif": ("stratification", 5, "(<= (test ?x) (not (test2 ?x)) (test3 ?x))"),
    "invalid/recurseunstrat.kif": ("recursion", 6, "(<= (test (fun ?x)) (test ?x))"),
    "invalid/ndef_goal.kif": ("missing-keyword", 0, ""),
    "invalid/ndef_legal.kif": ("missing-keyword", 0, ""),
    "invalid/ndef_role.kif": ("missing-keyword", 0, ""),
    "invalid/ndef_terminal.kif": ("missing-keyword", 0, ""),
    "prover_cases/test_case_3b.kif": (
        "safety",
        13,
        "(<= (distinctCell ?x ?y ?m ?n) (distinct ?y ?n))",
    ),
    "prover_cases/test_case_3e.kif": ("safety", 8, "(<= (legal ?p ?p) (cell 1 1))"),
    "prover_cases/test_case_3f.kif": ("safety", 11, "(<= (legal ?p ?p) (cell 1 1))"),
    "prover_cases/test_clean_not_distinct.kif": ("negation", 11, "(<= a (not (distinct p p)))"),
}

# Files that are valid but deserve warnings.  The README lists test_case_1a, 3a and the two
# arity files; test_case_5d and alquerque contain the same empty-body rule as 1a, e.g.
# (<= (goal you 100)) and (<= (base (step 1))), and griddle warns about those as well.
WARNINGS: dict[str, set[str]] = {
    "prover_cases/test_case_1a.kif": {"empty-body"},
    "prover_cases/test_case_5d.kif": {"empty-body"},
    "alquerque.kif": {"empty-body"},
    "prover_cases/test_case_3a.kif": {"parentheses"},
    "prover_cases/test_invalid_function_arities_differ.kif": {"arity"},
    "prover_cases/test_invalid_sentence_arities_differ.kif": {"arity"},
}

REJECTED = [GDL_DATA / name for name in MUST_REJECT]
ACCEPTED = [
    path
    for path in gdl_files("*.kif") + gdl_files("prover_cases/*.kif")
    if file_id(path) not in MUST_REJECT
]


def test_every_invalid_file_is_classified() -> None:
    assert {file_id(path) for path in gdl_files("invalid/*.kif")} <= set(MUST_REJECT)
    assert len(ACCEPTED) == 12 + 22 - 4


@pytest.mark.parametrize("path", REJECTED, ids=file_id)
def test_invalid_descriptions_are_rejected_naming_rule_and_sentence(path: Path) -> None:
    expected_check, line, sentence = MUST_REJECT[file_id(path)]
    with pytest.raises(GdlValidationError) as info:
        check(load(path))
    error = info.value
    message = str(error)
    assert isinstance(error, GameFormatError)
    assert f"[{expected_check}]" in message
    assert error.source == str(path)
    if line:
        assert error.line == line and error.column == 1
        assert message.startswith(f"{path}:{line}:1: invalid GDL [{expected_check}]: ")
        assert message.endswith(sentence) or f"{sentence} (and " in message
        # The sentence printed back is the rule that starts on that line of the file.
        assert str(parse_rule_at(path, line)) == sentence
    else:
        assert error.line is None
        assert "never defines" in message
    first = next(d for d in error.diagnostics if isinstance(d, Diagnostic) and d.level == "error")
    assert (first.check, first.line, first.sentence) == (expected_check, line, sentence)


def test_missing_keywords_are_named() -> None:
    for keyword in ("role", "legal", "goal", "terminal"):
        with pytest.raises(GdlValidationError, match=f"never defines {keyword}:"):
            check(load(GDL_DATA / "invalid" / f"ndef_{keyword}.kif"))


@pytest.mark.parametrize("path", ACCEPTED, ids=file_id)
def test_valid_descriptions_are_accepted(path: Path) -> None:
    warnings = check(load(path))
    assert all(d.level == "warning" for d in warnings)
    assert {d.check for d in warnings} == WARNINGS.get(file_id(path), set())
    for d in warnings:
        assert d.line > 0 and d.sentence == str(parse_rule_at(path, d.line))


# --- ggp-base's verdicts (tests/data/gdl/reference_validator.json, see its README) ----------

REFERENCE = json.loads((GDL_DATA / "reference_validator.json").read_text())

# Copies in tests/data/gdl/reference/ of repository games (ggp-org/ggp-repository paths).
COPIES = {
    "reference/futoshiki4.kif": "war/root/games/futoshiki4/futoshiki.kif",
    "reference/hexPie.kif": "war/root/games/hexPie/hex.kif",
    "reference/hidato19.kif": "war/root/games/hidato19/hidato.kif",
    "reference/queens06ug.kif": "war/root/games/queens06ug/queens.kif",
    "reference/nineBoardTicTacToePie.kif": (
        "war/root/games/nineBoardTicTacToePie/nineBoardTicTacToe.kif"
    ),
    "reference/wargame01.kif": "war/root/games/wargame01/wargame01.kif",
}


BY_HASH = {
    entry["sha256"]: entry["verdict"]
    for section in ("repository", "local")
    for entry in REFERENCE[section].values()
}


def reference_verdict(path: Path) -> str:
    """ggp-base's verdict on a test file: recorded under its name, or on an identical file."""
    entry = REFERENCE["local"].get(file_id(path))
    if entry is not None:
        return str(entry["verdict"])
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest not in BY_HASH:
        pytest.fail(
            f"no ggp-base verdict recorded for {file_id(path)}: run "
            "benchmarks/gdl_validate_sweep.py --reference (see tests/data/gdl/README.md)"
        )
    return BY_HASH[digest]


@pytest.mark.parametrize("path", gdl_files("**/*.kif"), ids=file_id)
def test_every_file_gets_ggp_base_s_verdict_or_a_stated_reason(path: Path) -> None:
    name = file_id(path)
    reference = reference_verdict(path)
    mine = "reject" if any(d.level == "error" for d in validate(load(path))) else "accept"
    reason = REFERENCE["disagreements"].get(name)
    if reason is None:
        assert mine == reference, f"ggp-base {reference}s {name}, plies does not"
    else:
        assert mine != reference, f"plies now agrees on {name}: drop the stated reason"


def test_the_reference_data_covers_every_file_and_explains_itself() -> None:
    for path in gdl_files("**/*.kif"):
        entry = REFERENCE["local"].get(file_id(path))
        if entry is not None:  # the file recorded is this one
            assert entry["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert len(REFERENCE["repository"]) == 371
    assert REFERENCE["provenance"]["repository_commit"].startswith("d6e0610ff83c")
    for name, reason in REFERENCE["disagreements"].items():
        assert name in REFERENCE["local"] or name in REFERENCE["repository"]
        assert len(reason) > 40
    for copy, source in COPIES.items():
        assert REFERENCE["local"][copy]["verdict"] == REFERENCE["repository"][source]["verdict"]
        # ... and ggp-base's prover played every one of them to the end.
        assert REFERENCE["prover"][source]["prover"] == "terminal"


@pytest.mark.parametrize(
    "name", ["futoshiki4", "hexPie", "hidato19", "queens06ug", "nineBoardTicTacToePie"]
)
def test_games_stratified_once_ground_are_accepted_with_a_warning(name: str) -> None:
    # ggp-base accepts them (its stratification check never fires) and its prover plays
    # them; by relation name they break the specification, atom by atom they do not.
    warnings = check(load(GDL_DATA / "reference" / f"{name}.kif"))
    assert "stratification" in {d.check for d in warnings}
    assert all(
        "no instance of this rule depends on its own negation" in d.message
        for d in warnings
        if d.check == "stratification"
    )


def test_a_peano_counter_is_valid_gdl() -> None:
    # A counter (c (s (s ...))) the game stops after three moves: the recursion
    # restriction holds (next is in no cycle), the grounding alone is infinite.
    text = """(role p) (init (c 0)) (legal p go)
    (<= (next (c (s ?x))) (does p go) (true (c ?x)))
    (<= terminal (true (c (s (s (s 0)))))) (<= (goal p 100) terminal)
    (<= (goal p 0) (not terminal))"""
    assert check(parse(text)) == []


def test_an_unreached_bad_goal_value_is_a_warning_not_a_rejection() -> None:
    text = """(role p) (init (s 0)) (legal p go) (<= (next (s 1)) (does p go))
    (<= terminal (true (s 1))) (<= (goal p 100) (true (s 1))) (<= (goal p 0) (true (s 0)))
    (<= (goal p 200) (true (s 7))) (<= (goal p lots) (true (s 8)))"""
    warnings = check(parse(text))
    assert [(d.check, d.line) for d in warnings] == [("goal-value", 3), ("goal-value", 3)]


def parse_rule_at(path: Path, line: int) -> Rule:
    return next(rule for rule in load(path).rules if rule.line == line)


def test_check_counts_further_errors() -> None:
    with pytest.raises(GdlValidationError, match=r"\(and 2 more errors\)$") as info:
        check(load(GDL_DATA / "invalid" / "recurseunstrat.kif"))
    diagnostics = [d for d in info.value.diagnostics if isinstance(d, Diagnostic)]
    assert [(d.check, d.line) for d in diagnostics] == [
        ("recursion", 6),
        ("recursion", 8),
        ("recursion", 11),
    ]


# --- each check on a small rule set -------------------------------------------------------

GAME = "(role r) (legal r a) (goal r 100) terminal\n"

ERRORS = [
    # safety
    ("(<= (p ?x) (q ?y))", "safety", "?x in the head (p ?x)"),
    ("(<= p (q ?x) (not (s ?y)))", "safety", "?y in the negated literal (not (s ?y))"),
    ("(<= p (q ?x) (distinct ?x ?y))", "safety", "?y in the distinct literal"),
    ("(<= (p ?x) (or (q ?x) (s ?y)))", "safety", "every disjunct binds it"),
    ("(<= p (or (q ?x) (not (s ?x))))", "safety", "?x in the negated literal"),
    ("(<= (p ?x ?y) (distinct ?x ?y))", "safety", "the variables ?x, ?y in the head"),
    ("(p ?x)", "safety", "a fact must be ground, but (p ?x) contains the variable ?x"),
    # stratification
    ("(<= (p ?x) (q ?x) (not (p ?x)))", "stratification", "p depends on its own negation"),
    (
        "(<= (p ?x) (q ?x) (not (s ?x))) (<= (s ?x) (t ?x)) (<= (t ?x) (p ?x))",
        "stratification",
        "cycle p -> s -> t -> p",
    ),
    ("(<= (p ?x) (q ?x) (or (u ?x) (not (p ?x))))", "stratification", "own negation"),
    # ... rule by rule: (p ?x) can be (p 1), which depends on its own negation
    ("(<= (p 0) q) (<= (p 1) (r ?x) (not (p ?x)))", "stratification", "own negation (not (p ?x))"),
    # recursion restriction
    ("(<= (p (f ?x)) (p ?x))", "recursion", "?x in (p ?x)"),
    ("(<= (p ?x) (q ?x)) (<= (q (f ?x)) (p ?x))", "recursion", "in a cycle with q"),
    ("(<= (p ?y) (s ?y)) (<= (p (f ?x)) (p ?x) (or (q ?x) (t ?z)))", "recursion", "?x in (p ?x)"),
    ("(<= (p ?y) (s ?y)) (<= (p (f ?x)) (or (p ?x) (s ?x)))", "recursion", "?x in (p ?x)"),
    # keyword placement
    ("(<= (true x) (p))", "keyword-placement", "true is never defined"),
    ("(does r a)", "keyword-placement", "does is never defined"),
    ("(<= (distinct a b) p)", "keyword-placement", "distinct is never defined"),
    ("(<= p (init x))", "keyword-placement", "init may appear only in rule heads"),
    ("(<= p (not (next x)))", "keyword-placement", "next may appear only in rule heads"),
    ("(<= p (or q (base x)))", "keyword-placement", "base may appear only in rule heads"),
    ("(<= p (input r a))", "keyword-placement", "input may appear only in rule heads"),
    # keyword dependencies, direct and through other relations
    ("(<= (init ?x) (q ?x)) (<= (q ?x) (true ?x))", "keyword-dependency", "(init -> q -> true)"),
    ("(<= (init x) (legal r a))", "keyword-dependency", "init must not depend on legal"),
    ("(<= (base ?x) (does r ?x))", "keyword-dependency", "base must not depend on does"),
    ("(<= (input r ?x) (true ?x))", "keyword-dependency", "input must not depend on true"),
    ("(<= terminal q) (<= q (does r a))", "keyword-dependency", "(terminal -> q -> does)"),
    ("(<= (goal r 0) (not (does r a)))", "keyword-dependency", "goal must not depend on does"),
    ("(<= (legal r b) (does r a))", "keyword-dependency", "legal must not depend on does"),
    # keyword arity and use
    ("(legal r)", "keyword-arity", "legal takes 2 arguments, but (legal r) has 1"),
    ("(<= p (not))", "keyword-arity", "not takes 1 argument"),
    ("(<= p (not q s))", "keyword-arity", "not takes 1 argument"),
    ("(<= p (or))", "keyword-arity", "(or) needs at least one disjunct"),
    ("(<= (p ?x) (q ?x) (distinct ?x a b))", "keyword-arity", "distinct takes 2 arguments"),
    ("(<= (terminal) p)", "keyword-arity", "written without parentheses"),
    ("(p (true x))", "keyword-as-term", "true cannot be used as a function name"),
    ("(p not)", "keyword-as-term", "not cannot be used as an object constant"),
    ("(<= p (q ?x) (distinct ?x (does r a)))", "keyword-as-term", "does cannot be used"),
    # negation
    ("(<= p (q ?x) (not (distinct ?x a)))", "negation", "negates a (distinct ...) literal"),
    ("(<= p (not (or q s)))", "negation", "negates a (or ...) literal"),
    ("(<= p q (not (not q)))", "negation", "negates a (not ...) literal"),
    # roles, goal values
    ("(<= (role b) p)", "role", "roles cannot be defined by rules"),
    ("(role r)", "role", "the role r is declared twice"),
    ("(role (f a))", "role", "a role must be a constant"),
]


@pytest.mark.parametrize(("rules", "expected_check", "fragment"), ERRORS)
def test_each_error_check(rules: str, expected_check: str, fragment: str) -> None:
    diagnostics = validate(parse(GAME + rules))
    errors = [d for d in diagnostics if d.level == "error"]
    assert [d.check for d in errors if d.check == expected_check], diagnostics
    assert any(fragment in d.message for d in errors if d.check == expected_check), errors
    assert all(d.line == 2 and d.sentence for d in errors)
    with pytest.raises(GdlValidationError, match=f"invalid GDL \\[{expected_check}\\]"):
        check(parse(GAME + rules))


VALID = [
    "(<= (p ?x) (or (q ?x) (s ?x)) (not (t ?x)))",  # bound in every disjunct
    "(<= (p ?x) (q ?x) (or (distinct ?x a) (distinct ?x b)))",
    "(<= (p ?x) (q ?x) (not (s ?x))) (<= (s ?x) (t ?x))",  # negation, no cycle
    "(<= (p ?x) (q ?x)) (<= (q ?x) (p ?x)) (<= (q ?x) (t ?x))",  # positive cycle
    "(r 0 0) (q 0) (<= (r ?v1 (f ?v1)) (r ?v2 ?v1) (q ?v2))",  # test_case_5a's recursion
    "(<= (p ?y) (s ?y)) (<= (p (f ?x)) (p ?x) (or (q ?x) (t ?x)))",  # via a whole or
    "(<= (p a) (p b))",  # ground arguments
    "(<= any (legal r ?m)) (<= (goal r 0) (role r) (not any))",  # legal/role in bodies
    "(<= (next (s ?x)) (does r ?x) (true (t ?x)))",  # next may use true and does
    "(<= (init (s ?x)) (q ?x)) (base (s 1)) (<= (input r ?m) (q ?m))",
    "(<= (goal r ?v) (score ?v))",  # a goal value computed elsewhere
]


@pytest.mark.parametrize("rules", VALID)
def test_valid_rule_sets_have_no_diagnostics(rules: str) -> None:
    assert validate(parse(GAME + rules)) == []


WARNING_CASES = [
    ("(<= (p a))", "empty-body", "it can be written as the fact (p a) instead"),
    ("(<= (p) q)", "parentheses", "the sentence (p) has parentheses but no arguments"),
    ("(p (f))", "parentheses", "the term (f) has parentheses"),
    ("(p a) (<= (q ?x) (p ?x ?x))", "arity", "p is used with 2 arguments in (p ?x ?x)"),
    ("(p (f a)) (s (f a b))", "arity", "f is used with 2 arguments"),
    ("(<= (p ?x) (q ?x) (or (s ?x) (or (t ?x) u)))", "nested-or", "nested inside"),
    # a goal value is checked where it holds (GoalDefinitionError), as ggp-base does
    ("(goal r 101)", "goal-value", "101 is not an integer from 0 to 100"),
    ("(goal r win)", "goal-value", "win is not an integer"),
    ("(p a) (<= (q ?x) (P ?x))", "capitalization", "the name P is also written p"),
    ("(<= (q ?x ?X) (s ?X ?x))", "capitalization", "the variable ?X is also written ?x in this"),
    # stratified once ground, not by relation name: the issue's example
    ("q (<= (s 1) q) (<= (s 2) (not (s 1)))", "stratification", "own negation (not (s 1))"),
    (
        "(<= (goal r 0) (true (s 0))) (<= (goal r 100) (not (goal r 0)))",
        "stratification",
        "goal depends on its own negation (not (goal r 0)); the GDL specification",
    ),
]


@pytest.mark.parametrize(("rules", "expected_check", "fragment"), WARNING_CASES)
def test_each_warning_check(rules: str, expected_check: str, fragment: str) -> None:
    warnings = check(parse(GAME + rules))
    assert [d.check for d in warnings] == [expected_check]
    assert fragment in warnings[0].message
    assert str(warnings[0]).startswith(f"2:{warnings[0].column}: warning [{expected_check}]: ")


def test_diagnostics_come_in_source_order_without_repeats() -> None:
    diagnostics = validate(parse("(<= p (q) (not (not (q))))\n(<= (s ?x) (t))\n"))
    assert [d.line for d in diagnostics] == sorted(d.line for d in diagnostics)
    assert len(diagnostics) == len(set(diagnostics))
    assert [d.check for d in diagnostics if d.line == 0] == ["missing-keyword"] * 4
    assert str(diagnostics[0]).startswith("error [missing-keyword]: ")


# --- stratification, safety and the recursion restriction against brute force -------------

RELATIONS = ("p", "q", "s")
arg_terms = st.sampled_from(["?x", "?y", "?z", "a", "b", ("f", "?x"), ("f", "a")])
atom_s = st.builds(
    lambda name, a: (name, *a), st.sampled_from(RELATIONS), st.lists(arg_terms, max_size=2)
)


def _literal(depth: int) -> st.SearchStrategy[Term]:
    options = [
        atom_s,
        st.builds(lambda a: ("not", a), atom_s),
        st.builds(lambda a, b: ("distinct", a, b), arg_terms, arg_terms),
    ]
    if depth:
        options.append(
            st.builds(lambda ls: ("or", *ls), st.lists(_literal(depth - 1), min_size=1, max_size=3))
        )
    return st.one_of(options)


programs = st.lists(
    st.builds(lambda head, body: (head, tuple(body)), atom_s, st.lists(_literal(2), max_size=3)),
    min_size=1,
    max_size=6,
)


def expansions(body: Sequence[Term]) -> list[list[Term]]:
    """The conjunctive bodies an ``or`` stands for (one choice of disjunct per ``or``)."""

    def alternatives(literal: Term) -> list[list[Term]]:
        if literal[0] == "or":
            return [alt for inner in literal[1:] for alt in alternatives(inner)]
        return [[literal]]

    return [
        [lit for part in choice for lit in part]
        for choice in itertools.product(*(alternatives(lit) for lit in body))
    ]


def reaches(edges: Mapping[H, Iterable[H]], start: H, goal: H) -> bool:
    seen, todo = set(), [start]
    while todo:
        node = todo.pop()
        for nxt in edges.get(node, ()):
            if nxt == goal:
                return True
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False


UNIVERSE: tuple[Term, ...] = ("a", "b")
for _ in range(3):  # terms up to depth 3: enough to unify two atoms of these programs
    UNIVERSE = tuple(dict.fromkeys([*UNIVERSE, *(("f", t) for t in UNIVERSE)]))


def put(t: Term, binding: dict[str, Term]) -> Term:
    return binding.get(t, t) if isinstance(t, str) else tuple(put(x, binding) for x in t)


def instances(atom: Term) -> set[Term]:
    """Every ground instance of ``atom`` over :data:`UNIVERSE`.  Two atoms unify (their
    variables renamed apart) exactly when they share one."""
    names = sorted(variables(atom))
    found: set[Term] = set()
    for values in itertools.product(UNIVERSE, repeat=len(names)):
        found.add(put(atom, dict(zip(names, values, strict=True))))
    return found


def cyclic_rules(edges: Mapping[int, Iterable[int]], i: int, j: int) -> bool:
    return reaches(edges, i, j) and reaches(edges, j, i)


def atoms_of(literal: Term, negative: bool = False) -> list[tuple[Term, bool]]:
    if literal[0] == "not":
        return atoms_of(literal[1], True)
    if literal[0] == "or":
        return [pair for inner in literal[1:] for pair in atoms_of(inner, negative)]
    return [] if literal[0] == "distinct" else [(literal, negative)]


@settings(
    max_examples=250, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(programs)
def test_graph_checks_agree_with_brute_force(program: list[tuple[Term, tuple[Term, ...]]]) -> None:
    rules = tuple(Rule(head, body, line, 1) for line, (head, body) in enumerate(program, 1))
    kinds = ("safety", "stratification", "recursion", "stratification-by-name")
    found: dict[str, set[int]] = {kind: set() for kind in kinds}
    for d in validate(Description(rules)):
        if d.check == "stratification" and d.level == "warning":
            found["stratification-by-name"].add(d.line)
        elif d.check in found:
            found[d.check].add(d.line)

    edges: dict[str, set[str]] = {}
    for rule in rules:
        edges.setdefault(rule.head[0], set()).update(
            atom[0] for lit in rule.body for atom, _ in atoms_of(lit)
        )

    def cyclic(p: str, q: str) -> bool:
        return p == q or (reaches(edges, p, q) and reaches(edges, q, p))

    expected: dict[str, set[int]] = {kind: set() for kind in kinds}
    # Rule i depends on rule j when one of its literals and j's head have a common ground
    # instance (over terms up to depth 3, enough for these atoms): the rules' own graph.
    rule_edges = {
        i: {
            (j, neg)
            for lit in rule.body
            for atom, neg in atoms_of(lit)
            for j, other in enumerate(rules)
            if instances(atom) & instances(other.head)
        }
        for i, rule in enumerate(rules)
    }
    targets = {i: {j for j, _ in out} for i, out in rule_edges.items()}
    for i, out in rule_edges.items():
        if any(neg and (j == i or cyclic_rules(targets, i, j)) for j, neg in out):
            expected["stratification"].add(rules[i].line)
    for rule in rules:
        head = rule.head[0]
        if not expected["stratification"] and any(
            neg and cyclic(head, atom[0]) for lit in rule.body for atom, neg in atoms_of(lit)
        ):
            expected["stratification-by-name"].add(rule.line)
        for body in expansions(rule.body):
            positive = [lit for lit in body if lit[0] not in ("not", "distinct")]
            bound = set().union(*(variables(lit) for lit in positive))
            needed = variables(rule.head).union(
                *(variables(lit) for lit in body if lit[0] in ("not", "distinct"))
            )
            if not needed <= bound:
                expected["safety"].add(rule.line)
            allowed = {
                arg for lit in positive if not cyclic(head, lit[0]) for arg in lit[1:]
            } | set(rule.head[1:])
            for lit in positive:
                if cyclic(head, lit[0]) and any(
                    not is_ground(arg) and arg not in allowed for arg in lit[1:]
                ):
                    expected["recursion"].add(rule.line)
    assert found == expected, [to_kif(rule) for rule in rules]
    for kind, lines in found.items():
        event(f"{kind}: {'some' if lines else 'none'}")
