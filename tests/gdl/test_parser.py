"""The KIF reader: every shared game, syntax errors with positions, GGP messages, round trips."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plies.errors import GameFormatError
from plies.gdl.parser import description_from_terms, load, parse, parse_term, parse_terms
from plies.gdl.terms import (
    KEYWORDS,
    Description,
    Rule,
    Term,
    arity,
    functor,
    is_ground,
    is_variable,
    rule_to_kif,
    to_kif,
    variables,
)
from tests.data import GDL_DATA


def gdl_files(pattern: str) -> list[Path]:
    """Shared GDL files matching ``pattern`` (relative to tests/data/gdl), sorted."""
    return sorted(GDL_DATA.glob(pattern))


def file_id(path: Path) -> str:
    return path.relative_to(GDL_DATA).as_posix()


ALL_FILES = gdl_files("**/*.kif")
GAMES = gdl_files("*.kif")

# From tests/data/gdl/README.md.
ROLES = {
    "ticTacToe.kif": ("xplayer", "oplayer"),
    "connectFour.kif": ("red", "black"),
    "nim1.kif": ("player1", "player2"),
    "buttons.kif": ("robot",),
    "maze.kif": ("robot",),
    "hunter.kif": ("robot",),
    "breakthrough.kif": ("white", "black"),
    "pentago.kif": ("red", "black"),
    "alquerque.kif": ("red", "black"),
    "tictactoe_3player.kif": ("xplayer", "oplayer", "zplayer"),
    "roshambo2.kif": ("white", "black"),
    "gt_prisoner.kif": ("white", "black"),
}


def test_shared_data_is_present() -> None:
    """Without this, the parametrized tests over the shared files would silently vanish."""
    if not GDL_DATA.is_dir():
        pytest.fail(
            f"GDL data directory {GDL_DATA} is missing: it is part of the repository "
            "(tests/data/gdl); restore it from git",
            pytrace=False,
        )
    assert {path.name for path in GAMES} == set(ROLES)
    assert len(gdl_files("invalid/*.kif")) == 14
    assert len(gdl_files("prover_cases/*.kif")) == 22


# --- an independent reader to cross-check against ----------------------------------------


def plain_read(text: str) -> list[Any]:
    """The textbook s-expression reader (pad parentheses, split, recurse), keywords lowered."""
    tokens = re.sub(r";[^\n]*", " ", text).replace("(", " ( ").replace(")", " ) ").split()
    position = 0

    def read() -> Any:
        nonlocal position
        token = tokens[position]
        position += 1
        if token != "(":
            return token.lower() if token.lower() in KEYWORDS else token
        items = []
        while tokens[position] != ")":
            items.append(read())
        position += 1
        return items

    forest = []
    while position < len(tokens):
        forest.append(read())
    return forest


@pytest.mark.parametrize("path", ALL_FILES, ids=file_id)
def test_every_shared_file_parses_to_what_the_plain_reader_sees(path: Path) -> None:
    desc = load(path)
    assert desc.source == str(path)
    assert len(desc.rules) > 0
    # to_kif prints a rule with an empty body, (<= head), as the fact head.
    source = [
        item[1] if isinstance(item, list) and len(item) == 2 and item[0] == "<=" else item
        for item in plain_read(path.read_text())
    ]
    assert plain_read(desc.to_kif()) == source
    # Printing and reading back gives the same rules, and the positions are real.
    assert parse(desc.to_kif()).rules == desc.rules
    # Lines end at "\n" only: splitlines() would also split at the form feeds of chess.kif.
    lines = path.read_text().split("\n")
    for rule in desc.rules:
        assert lines[rule.line - 1][rule.column - 1] in "(abcdefghijklmnopqrstuvwxyz"


@pytest.mark.parametrize("path", GAMES, ids=file_id)
def test_roles_are_read_in_order(path: Path) -> None:
    assert load(path).roles == ROLES[path.name]


def test_tictactoe_sentences() -> None:
    desc = load(GDL_DATA / "ticTacToe.kif")
    assert ("init", ("cell", "1", "1", "b")) in [rule.head for rule in desc.rules]
    assert Rule("terminal", ("open",)) not in desc.rules
    legal_mark = next(
        rule for rule in desc.rules if rule.head == ("legal", "?w", ("mark", "?x", "?y"))
    )
    assert legal_mark.body == (("true", ("cell", "?x", "?y", "b")), ("true", ("control", "?w")))


# --- the grammar --------------------------------------------------------------------------


def test_facts_rules_and_positions() -> None:
    text = "; a comment with ( and )\n(role robot)\n  (<= (p ?x)\n      (q ?x)) terminal"
    desc = parse(text, "demo.kif")
    assert desc.source == "demo.kif"
    assert desc.rules == (
        Rule(("role", "robot")),
        Rule(("p", "?x"), (("q", "?x"),)),
        Rule("terminal"),
    )
    assert [(rule.line, rule.column) for rule in desc.rules] == [(2, 1), (3, 3), (4, 15)]
    assert [rule.written_as_rule for rule in desc.rules] == [False, True, False]
    assert len(desc) == 3 and list(desc) == list(desc.rules)


def test_body_literal_forms() -> None:
    (rule,) = parse(
        "(<= (p ?x) (q ?x) (not (r ?x)) (or (s ?x) (not t) (distinct ?x a)) (distinct ?x b) u)"
    ).rules
    assert rule.body == (
        ("q", "?x"),
        ("not", ("r", "?x")),
        ("or", ("s", "?x"), ("not", "t"), ("distinct", "?x", "a")),
        ("distinct", "?x", "b"),
        "u",
    )


def test_keywords_are_case_insensitive_other_symbols_keep_their_case() -> None:
    desc = parse("(ROLE White) (Init (Cell 1 A)) (<= (LEGAL White Noop) (TRUE (Cell 1 A)))")
    assert [rule.head for rule in desc.rules] == [
        ("role", "White"),
        ("init", ("Cell", "1", "A")),
        ("legal", "White", "Noop"),
    ]
    assert desc.rules[2].body == (("true", ("Cell", "1", "A")),)
    assert parse("(<= Terminal (NOT (Distinct a b)))").rules[0] == Rule(
        "terminal", (("not", ("distinct", "a", "b")),)
    )


def test_empty_argument_list_is_kept_apart_from_the_bare_constant() -> None:
    (rule,) = parse("(<= (open2) (true (cell ?x ?y b)))").rules
    assert rule.head == ("open2",)
    assert to_kif(rule.head) == "(open2)"
    assert parse("(<= open2 (true (cell ?x ?y b)))").rules[0].head == "open2"
    assert Rule(("open2",)) != Rule("open2")


def test_comment_at_end_of_text_and_crlf_line_ends() -> None:
    desc = parse("(role a)\r\n(role b) ; last line, no newline")
    assert desc.roles == ("a", "b")
    assert (desc.rules[1].line, desc.rules[1].column) == (2, 1)


SYNTAX_ERRORS = [
    ("(role a", 1, 1, "never closed: expected ')'"),
    ("(role a)\n(init (cell 1)", 2, 1, "never closed"),
    ("(role a))", 1, 9, "unexpected ')'"),
    (")", 1, 1, "unexpected ')'"),
    ("()", 1, 1, "empty list '()': expected a relation or function name"),
    ("(role a)\n  (init (f ( )))", 2, 12, "empty list"),
    ("(<= ?x (p))", 1, 5, "expected a rule head, found the variable ?x"),
    ("(<= (not p) q)", 1, 6, "a rule head must be an atom"),
    ("(<= (p) ?x)", 1, 9, "expected a literal, found the variable ?x"),
    ("(<= (p) (?x a))", 1, 10, "a variable (?x) cannot be a relation name"),
    ("(?r a)", 1, 2, "a variable (?r) cannot be a relation name"),
    ("(p (?f a))", 1, 5, "a variable (?f) cannot be a function name"),
    ("(p ?)", 1, 4, "expected a variable name after '?'"),
    ('(p "a")', 1, 4, "unexpected character '\"'"),
    ("(p\ta#b)", 1, 5, "unexpected character '#'"),
    ("(<=)", 1, 1, "expected a rule head after '<='"),
    ("(p (<= a b))", 1, 5, "rule '(<= ...)' inside a sentence"),
    ("(<= (p) (<= q r))", 1, 10, "rules cannot be nested"),
    ("(<= (p) <=)", 1, 9, "found the bare keyword '<='"),
    ("?x", 1, 1, "expected a sentence, found the variable ?x"),
    ("((p) a)", 1, 2, "starting with a relation name, found a list"),
    ("(p ((f) a))", 1, 5, "expected a function name after '(', found a list"),
    ("; ( comment\n  (p", 2, 3, "never closed"),
]


@pytest.mark.parametrize(("text", "line", "column", "fragment"), SYNTAX_ERRORS)
def test_syntax_errors_name_line_column_and_what_was_expected(
    text: str, line: int, column: int, fragment: str
) -> None:
    with pytest.raises(GameFormatError) as info:
        parse(text, "bad.kif")
    error = info.value
    assert (error.source, error.line, error.column) == ("bad.kif", line, column)
    assert fragment in str(error)
    assert str(error).startswith(f"bad.kif:{line}:{column}: ")


def test_load_reports_unreadable_files(tmp_path: Path) -> None:
    missing = tmp_path / "missing.kif"
    with pytest.raises(GameFormatError, match=r"missing\.kif: cannot read GDL file"):
        load(missing)
    binary = tmp_path / "binary.kif"
    binary.write_bytes(b"(role \xff)")
    with pytest.raises(GameFormatError, match="cannot read GDL file"):
        load(binary)


# --- GGP messages -------------------------------------------------------------------------


def test_start_message() -> None:
    text = (
        "( START local.17 xplayer (( role xplayer ) ( ROLE oplayer ) "
        "(<= (legal ?w noop) (true (control ?w))) terminal) 10 2)"
    )
    (message,) = parse_terms(text)
    assert message[:3] == ("START", "local.17", "xplayer")
    assert message[4:] == ("10", "2")
    rules = message[3]
    assert rules[1] == ("role", "oplayer")
    desc = description_from_terms(rules, "START")
    assert desc.roles == ("xplayer", "oplayer")
    assert desc.rules[2] == Rule(("legal", "?w", "noop"), (("true", ("control", "?w")),))
    assert desc.rules[3] == Rule("terminal")


def test_play_and_stop_messages() -> None:
    assert parse_terms("(play m1 ((mark 1 1) noop))") == [
        ("play", "m1", (("mark", "1", "1"), "noop"))
    ]
    assert parse_terms("(PLAY Base.ticTacToe.1414151234 NIL)") == [
        ("PLAY", "Base.ticTacToe.1414151234", "NIL")
    ]
    assert parse_terms("(INFO) (ABORT m-2)") == [("INFO",), ("ABORT", "m-2")]


def test_parse_term_reads_exactly_one_term() -> None:
    assert parse_term("noop") == "noop"
    assert parse_term(" (mark 1 3) ; typed by a user") == ("mark", "1", "3")
    for text in ("", "; nothing", "a b"):
        with pytest.raises(GameFormatError, match="expected exactly one term"):
            parse_term(text)
    with pytest.raises(GameFormatError, match=r"<string>:1:6: unexpected '\)'"):
        parse_term("(a b))")


def test_deep_nesting_is_a_format_error_not_a_crash() -> None:
    deep = "(p " + "(f " * 5000 + "a" + ")" * 5001
    with pytest.raises(GameFormatError, match="nested too deeply"):
        parse(deep)
    with pytest.raises(GameFormatError, match="nested too deeply"):
        parse_terms(deep)


def test_description_from_terms_reports_the_sentence_index() -> None:
    with pytest.raises(GameFormatError) as info:
        description_from_terms([("role", "a"), ("?r", "b")])
    assert (info.value.line, info.value.column) == (2, 2)


# --- term helpers -------------------------------------------------------------------------


def test_term_helpers() -> None:
    term = ("does", "?r", ("mark", "?x", "1"))
    assert functor(term) == "does" and functor("terminal") == "terminal"
    assert arity(term) == 2 and arity("noop") == 0 and arity(("open2",)) == 0
    assert variables(term) == {"?r", "?x"} and not is_ground(term)
    assert is_ground(("cell", "1", ("f", "b"))) and is_variable("?x") and not is_variable("x")
    with pytest.raises(ValueError, match="no relation or function name"):
        functor("?x")
    rule = Rule(("next", ("step", "?n")), (("true", ("step", "?m")), ("succ", "?m", "?n")))
    assert rule_to_kif(rule) == "(<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))"
    assert to_kif(rule) == str(rule) == rule_to_kif(rule)
    assert to_kif(Rule(("role", "a"))) == "(role a)"
    # Positions take no part in equality.
    assert Rule("terminal", (), 3, 4) == Rule("terminal")
    assert len({rule, Rule(rule.head, rule.body, line=9, column=2)}) == 1


def test_description_to_kif_round_trip() -> None:
    desc = parse("(role a)\n(<= (goal a 100) (not (p ?x)) (q ?x))")
    assert desc.to_kif() == "(role a)\n(<= (goal a 100) (not (p ?x)) (q ?x))\n"
    assert parse(desc.to_kif()) == Description(desc.rules)


# --- round-trip properties ----------------------------------------------------------------

SETTINGS = settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)

_SYMBOL_CHARS = "abcXYZ019+-_.<>=*/!@$%^&~:"


def _plain_symbol(text: str) -> bool:
    lowered = text.lower()
    return not (lowered in KEYWORDS and text != lowered)


symbols = st.text(_SYMBOL_CHARS, min_size=1, max_size=6).filter(
    lambda s: _plain_symbol(s) and s != "<="
)
keywords = st.sampled_from(sorted(KEYWORDS))
constants = st.one_of(symbols, keywords)
variables_ = st.text(_SYMBOL_CHARS + "?", min_size=1, max_size=5).map(lambda s: "?" + s)


def compound(args: st.SearchStrategy[Term]) -> st.SearchStrategy[Term]:
    return st.builds(lambda f, a: (f, *a), constants, st.lists(args, max_size=3))


terms = st.recursive(st.one_of(constants, variables_), compound, max_leaves=12)


@SETTINGS
@given(terms)
def test_printing_then_reading_a_term_gives_it_back(term: Term) -> None:
    assert parse_term(to_kif(term)) == term
    assert parse_terms(to_kif(term) + " " + to_kif(term)) == [term, term]


relation_names = constants.filter(lambda s: s not in ("not", "or"))
small_terms = st.recursive(st.one_of(constants, variables_), compound, max_leaves=4)
atoms = st.one_of(
    relation_names,
    st.builds(lambda f, a: (f, *a), relation_names, st.lists(small_terms, max_size=3)),
)


def literals(depth: int = 2) -> st.SearchStrategy[Term]:
    choices = [
        atoms,
        st.builds(lambda a: ("not", a), atoms),
        st.builds(lambda a, b: ("distinct", a, b), small_terms, small_terms),
    ]
    if depth > 0:
        choices.append(
            st.builds(lambda ls: ("or", *ls), st.lists(literals(depth - 1), min_size=1, max_size=3))
        )
    return st.one_of(choices)


rules = st.builds(Rule, atoms, st.lists(literals(), max_size=4).map(tuple))


@settings(SETTINGS, max_examples=150)
@given(st.lists(rules, min_size=1, max_size=3))
def test_printing_then_parsing_rules_gives_them_back(rule_list: list[Rule]) -> None:
    text = "\n".join(rule_to_kif(rule) for rule in rule_list)
    desc = parse(text)
    assert desc.rules == tuple(rule_list)
    assert [rule.line for rule in desc.rules] == list(range(1, len(rule_list) + 1))
