"""The narration of a search: the decision rule it teaches, chance nodes, and its line limit."""

from __future__ import annotations

import threading

import pytest

import plies
from plies.errors import OptionError
from plies.games import load
from plies.search.narrate import RULES, Narrator, format_number, narration_rule
from plies.wrappers import OpponentsAsChance
from tests.search.randomtree import PassingTree, TreeNode


def narrate(name: str, search: str, rule: str, limit: plies.Limit | None = None,
            **options: object) -> plies.Narrator:
    game = load(name, **options)
    state = game.initial_state()
    narrator = plies.Narrator(game, state, game.to_move(state), rule=rule)
    getattr(plies, search)(game, state, limit, trace=narrator)
    return narrator


def test_maxn_narration_does_not_teach_the_paranoid_rule() -> None:
    # `plies trace aima-5-4 --algorithm maxn` said "MIN (P1) moves: it minimises MAX's value"
    narrator = narrate("aima-5-4", "maxn", "maxn")
    text = "\n".join(narrator.lines)
    assert "MIN" not in text and "MAX" not in text and "minimises" not in text
    assert narrator.lines[0] == (
        "Go to P0 at the root (depth 0). Terminal and cutoff tests not met. "
        "P0 moves: it maximises its own utility (component 0 of the vector)."
    )
    assert narrator.lines[1].endswith(
        "P1 moves: it maximises its own utility (component 1 of the vector)."
    )
    assert narrator.lines[2].endswith(
        "P2 moves: it maximises its own utility (component 2 of the vector)."
    )


def test_maxn_narration_reports_vectors_at_leaves_and_backups() -> None:
    lines = [line.strip() for line in narrate("aima-5-4", "maxn", "maxn").lines]
    assert "Go to leaf B1 C1 1 (depth 3). Terminal test met: utilities (1, 2, 6)." in lines
    assert "P2 at B1 C1 backs up (1, 2, 6), the child best for P2 (component 2 = 6)." in lines
    assert "P1 at B2 backs up (1, 5, 2), the child best for P1 (component 1 = 5)." in lines
    assert lines[-1] == (
        "P0 at the root backs up (1, 2, 6), the child best for P0 (component 0 = 1)."
    )


def test_maxn_narration_of_two_players_has_no_min_either() -> None:
    # two players under max^n still each maximise their own component
    narrator = narrate("nim", "maxn", "maxn", piles=(1, 2))
    goals = [line for line in narrator.lines if "moves:" in line]
    assert goals and all("maximises its own utility" in line for line in goals)
    assert any("P1 moves: it maximises its own utility (component 1" in line for line in goals)


def test_maxn_narration_of_several_moves_per_turn_says_the_goal_at_the_turn_start() -> None:
    narrator = narrate("civ", "maxn", "maxn", plies.Limit(depth=1, unit="round"))
    starts = [line.strip() for line in narrator.lines if "starts its turn" in line]
    assert starts[0].endswith(
        "Rome starts its turn (move 1 of 3); it maximises its own utility "
        "(component 0 of the vector)."
    )
    assert any(line.endswith(
        "Egypt starts its turn (move 1 of 3); it maximises its own utility "
        "(component 1 of the vector)."
    ) for line in starts)
    assert any("evaluations (" in line for line in narrator.lines)


def test_paranoid_narration_of_three_players_has_both_opponents_minimise() -> None:
    narrator = narrate("aima-5-4", "alphabeta", "paranoid")
    lines = [line.strip() for line in narrator.lines]
    assert lines[0].endswith("MAX (P0) moves: it maximises MAX's value.")
    assert lines[1].endswith("MIN (P1) moves: it minimises MAX's value.")
    assert lines[2].endswith("MIN (P2) moves: it minimises MAX's value.")
    assert "Terminal test met: utility 1." in lines[3]
    assert "MIN (P2) at B1 C1 backs up 1." in lines


def test_chance_nodes_average_under_either_rule() -> None:
    paranoid = narrate("chance-demo", "expectiminimax", "expectiminimax")
    assert paranoid.rule == "paranoid"
    assert any(line.strip().startswith("Go to CHANCE at a1 (depth 1).") and line.endswith(
        "Chance moves: average the outcomes by probability.") for line in paranoid.lines)
    assert "CHANCE at a1 backs up 2.1." in [line.strip() for line in paranoid.lines]
    vectors = narrate("chance-demo", "maxn", "maxn")
    assert any(line.endswith("Chance moves: average the outcome vectors by probability.")
               for line in vectors.lines)
    backup = next(line.strip() for line in vectors.lines
                  if line.strip().startswith("CHANCE at a1 backs up"))
    assert backup == "CHANCE at a1 backs up (2.1, -2.1), the average by probability."


def test_a_player_modelled_as_chance_is_named() -> None:
    ttt = load("tictactoe")
    game = OpponentsAsChance(ttt, players=[1])
    state = ttt.initial_state()
    narrator = plies.Narrator(game, state, 0, limit=3)
    plies.expectiminimax(game, state, plies.Limit(depth=2), trace=narrator)
    assert narrator.lines[1].endswith(
        "O is modelled as chance: average its moves' outcomes by probability."
    )


def test_paranoid_rule_refuses_the_vectors_of_a_maxn_search() -> None:
    game = load("aima-5-4")
    state = game.initial_state()
    with pytest.raises(OptionError, match="rule='maxn'"):
        plies.maxn(game, state, trace=plies.Narrator(game, state, 0))


def test_rules_are_named_by_rule_or_by_search() -> None:
    assert RULES == ("paranoid", "maxn")
    assert [narration_rule(n) for n in ("minimax", "alphabeta", "bounded", "expectiminimax",
                                        "maxn", "paranoid", "simultaneous")] == [
        "paranoid", "paranoid", "paranoid", "paranoid", "maxn", "paranoid", "paranoid"]
    with pytest.raises(OptionError, match="no narration for 'negamax'; use one of"):
        narration_rule("negamax")
    game = load("aima-5-2")
    with pytest.raises(OptionError, match="line limit must be >= 0"):
        plies.Narrator(game, game.initial_state(), 0, limit=-1)


def test_opening_and_closing_lines_follow_the_rule() -> None:
    game = load("aima-5-4")
    state = game.initial_state()
    maxn = plies.Narrator(game, state, 0, rule="maxn")
    result = plies.maxn(game, state, trace=maxn)
    assert maxn.opening("maxn") == (
        "Tracing maxn on aima-5-4: every player maximises its own utility; "
        "vectors list (P0, P1, P2)."
    )
    assert maxn.closing(result) == (
        "Result: values (1, 2, 6), P0 gets 1; best move B1, 15 nodes."
    )
    paranoid = plies.Narrator(game, state, 0)
    result = plies.alphabeta(game, state, trace=paranoid)
    assert paranoid.opening("alphabeta") == "Tracing alphabeta on aima-5-4; MAX is P0."
    assert paranoid.closing(result).startswith("Result: value 1 for MAX, best move B1, ")


class Enough(Exception):
    """Ends a test's search once the narration is past its limit."""


def test_narrator_sets_done_when_its_line_limit_is_reached() -> None:
    # `plies trace pig --max-lines 5` printed 5 lines and then searched for minutes: the
    # narrator's `done` event is the stop signal a search can take (stop=narrator.done)
    game = load("pig")
    state = game.initial_state()
    said: list[str] = []
    narrator = plies.Narrator(game, state, 0, echo=said.append, limit=5)
    assert isinstance(narrator.done, threading.Event) and not narrator.done.is_set()
    seen: list[tuple[str, int, bool]] = []  # (event kind, lines before it, done after it)

    def trace(event: plies.TraceEvent) -> None:
        before = len(narrator.lines)
        narrator(event)
        seen.append((event.kind, before, narrator.done.is_set()))
        if len(seen) > 40:
            raise Enough

    with pytest.raises(Enough):
        plies.expectiminimax(game, state, plies.Limit(depth=6), trace=trace)
    assert len(narrator.lines) == 5 and said == narrator.lines
    first = next(i for i, (_, _, done) in enumerate(seen) if done)
    kind, before, _ = seen[first]
    # set by the first event that no longer fits (an event that would have been said)
    assert before == 5 and kind != "enter"
    assert all(lines < 5 or kind == "enter" for kind, lines, _ in seen[:first])
    assert all(done for _, _, done in seen[first:])
    assert narrator.truncated == sum(1 for kind, _, _ in seen[first:] if kind != "enter")


def test_narrator_under_its_limit_is_never_done() -> None:
    game = load("aima-5-2")
    state = game.initial_state()
    narrator = plies.Narrator(game, state, 0, limit=100)
    plies.alphabeta(game, state, trace=narrator)
    assert not narrator.done.is_set() and narrator.truncated == 0
    exact = plies.Narrator(game, state, 0, limit=len(narrator.lines))
    plies.alphabeta(game, state, trace=exact)
    assert exact.lines == narrator.lines and not exact.done.is_set()


def test_format_number_writes_round_off_as_zero() -> None:
    assert [format_number(v) for v in (3.0, -0.5, 1 / 3, float("inf"), None)] == [
        "3", "-0.5", "0.3333", "+inf", "?"]
    # an LP's 2.2e-16 or a -0.0 is a draw, not a win or a loss
    assert [format_number(v) for v in (2.220446049250313e-16, -1e-12, -0.0, 1e-6)] == [
        "0", "0", "0", "1e-06"]


def test_simultaneous_stages_are_not_narrated_as_a_minimising_player() -> None:
    # `plies trace rps --player 0` said "Go to MIN (P-2) ... MIN (P-2) moves: it minimises"
    game = load("rps")
    state = game.initial_state()
    narrator = plies.Narrator(game, state, 0, rule="simultaneous")
    plies.simultaneous(game, state, player=0, trace=narrator)
    text = "\n".join(narrator.lines)
    assert "P-2" not in text and "MIN" not in text
    assert narrator.lines[0] == (
        "Go to SIMULTANEOUS at the root (depth 0). Terminal and cutoff tests not met. "
        "Everyone moves at once: the joint actions make a matrix game, worth its value for "
        "MAX in mixed strategies (solved by linear programming)."
    )
    assert narrator.lines[-1] == "SIMULTANEOUS at the root backs up 0 (its matrix game's value)."


# --- what the engine craft does ------------------------------------------------------------


def reversed_order(state: object, actions: list[object]) -> list[object]:
    return list(reversed(actions))


def narrate_engine(game: plies.Game, **options: object) -> list[str]:
    root = game.initial_state()
    narrator = Narrator(game, root, game.to_move(root))
    result = plies.alphabeta(game, root, trace=narrator, **options)  # type: ignore[arg-type]
    return [*narrator.lines, narrator.closing(result)]


def test_a_null_window_test_and_its_re_search_are_narrated() -> None:
    lines = narrate_engine(load("aima-5-2"), order=reversed_order, pvs=True)
    assert "  Try the moves in the order b3, b2, b1." in lines
    test = "    Go to leaf a1 b1 (depth 2, a null window at 8). Terminal test met: utility 3."
    assert test in lines
    assert "  b1 returned 3, which may be better: search it again with alpha=-inf, beta=8." in lines
    assert lines[-1] == "Result: value 3 for MAX, best move a1, 13 nodes."


def test_the_table_and_its_move_are_narrated() -> None:
    said = "\n".join(narrate_engine(load("tictactoe"), tt=True, ordering=True))
    assert "The table holds" in said and "searched as deep: no search." in said
    assert "Try the table's move" in said


def test_mtd_bi_tests_are_narrated() -> None:
    lines = narrate_engine(load("nim", piles=(1, 2)), tt=True, bisection=True)
    assert any(line.startswith("Test the root: is its value above ") for line in lines)


def full_tree(height: int) -> PassingTree:
    """A complete binary tree, players alternating, with varied evaluations and utilities."""
    inner = 2**height - 1
    nodes = [
        TreeNode((i.bit_length() - 1) % 2, children=[2 * i + 1, 2 * i + 2],
                 heuristic=(float(i % 5), -float(i % 5)))
        for i in range(inner)
    ]
    nodes += [TreeNode(0, utilities=(float(i % 7 - 3), -float(i % 7 - 3)))
              for i in range(inner + 1)]
    return PassingTree(nodes, 2, True)


def test_quiescence_null_moves_and_extensions_are_narrated() -> None:
    tree = full_tree(6)
    narrator = Narrator(tree, 0, 0)
    plies.alphabeta(tree, 0, plies.Limit(depth=4), trace=narrator, quiescence=1,
                    extensions=True, null_move=1, tt=True, ordering=True)
    said = "\n".join(narrator.lines)
    assert "Past the depth limit: quiescence search. Standing pat is worth the evaluation" in said
    assert "Extend " in said
    assert "pass (null move)" in said and " (pass) " in said
