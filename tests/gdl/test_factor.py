"""Factoring a game into independent parts (plies.gdl.factor): which parts the rules
give, and that a part's subgame plays exactly as the whole game does on its own
fluents while the others stand still."""

from __future__ import annotations

import random
from typing import Any

import pytest

from plies.gdl.factor import EXHAUSTED, Factor, factor_of, find_factors, subgame
from plies.gdl.gatenet import GateNet
from plies.gdl.parser import parse
from plies.gdl.reasoner import Reasoner
from tests.ggp.helpers import rules

C4S = "factored/connectFourSimultaneous"


def reasoner(name: str) -> Reasoner:
    return Reasoner(parse(rules(name)))


def board_of_move(r: Reasoner, k: int) -> str:
    role = max(i for i, off in enumerate(r._offsets) if off <= k)
    return str(r.move_table[role][k - r._offsets[role]][2])


def test_two_boards_played_at_once_come_apart_into_one_part_per_board() -> None:
    r = reasoner(C4S)
    factors = find_factors(r.network)
    assert len(factors) == 2
    boards = []
    for part in factors:
        assert len(part.moves) == 16  # 8 columns, both roles
        board = {board_of_move(r, k) for k in part.moves}
        assert len(board) == 1
        cells = {r.fluent_table[j] for j in part.fluents}
        assert cells == {f for f in r.fluent_table if f[0] == "cell" and f[3] in board}
        boards.extend(board)
    assert sorted(boards) == ["1", "2"]


@pytest.mark.parametrize("name", ["connectFour", "ticTacToe", "breakthrough", "roshambo2",
                                  "tictactoe_3player", "pentago", "gt_prisoner"])
def test_games_of_one_board_do_not_come_apart(name: str) -> None:
    """One board: every move reaches the goals' lines through the others' cells (in
    Connect Four a drop only changes its own column, but the lines join the columns)."""
    assert len(find_factors(reasoner(name).network)) <= 1


def test_two_boards_with_a_choice_of_board_come_apart_but_no_step_is_within_one() -> None:
    """dualConnect4: the player in control drops on either board (or passes, ``noop``,
    a move that changes nothing); its moves at a step are in both parts, so no part
    holds them."""
    r = reasoner("factored/dualConnect4")
    factors = find_factors(r.network)
    assert len(factors) == 2
    state = r.initial_state()
    legal = [r._offsets[0] + i for i in r.legal_indices(state)[0]]
    assert factor_of(factors, legal) is None
    assert {factor_of(factors, [k]) for k in legal} == {0, 1, None}


def test_a_move_that_changes_nothing_is_in_no_part() -> None:
    r = reasoner("ticTacToe")
    (part,) = find_factors(r.network)
    noops = [r._offsets[role] + r.move_table[role].index("noop") for role in (0, 1)]
    assert not any(k in part.moves for k in noops)


def _random_states(r: Reasoner, count: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = r.initial_state()
        while not r.is_terminal(state):
            out.append(state)
            state = r.next_state_indices(state, [rng.choice(m) for m in r.legal_indices(state)])
    return out[:count]


def _bits(fluents: frozenset[int]) -> int:
    out = 0
    for j in fluents:
        out |= 1 << j
    return out


def test_a_part_plays_as_the_whole_game_on_its_fluents_the_others_stand_still() -> None:
    """Connect Four Simultaneous, 300 states of random play, each part's compiled
    subgame against the whole game's reasoner: the same terminal test (and the end
    of the part where no role has a move left in it, a draw); the
    same next state on the part's fluents (and the fluents no move changes) for every
    joint move the game allows, the other parts' unchanged; each role's legal moves in
    the part are the game's, and a role with none there has one pass."""
    r = reasoner(C4S)
    factors = find_factors(r.network)
    nets = [GateNet(subgame(r.network, factors, i)) for i in range(len(factors))]
    for state in _random_states(r, 300, seed=3):
        legal = r.legal_indices(state)
        for i, (part, net) in enumerate(zip(factors, nets, strict=True)):
            frozen = _bits(frozenset().union(*(f.fluents for f in factors if f is not part)))
            exhausted = not any(r._offsets[role] + m in part.moves
                                for role, moves in enumerate(legal) for m in moves)
            assert net.is_terminal(state) == (r.is_terminal(state) or exhausted)
            if exhausted:
                assert [g[0] for g in net.goals(state)] == [EXHAUSTED, EXHAUSTED]
                continue
            sub_legal = net.legal(state)
            for role, moves in enumerate(legal):
                inside = [m for m in moves if r._offsets[role] + m in part.moves]
                if inside:
                    assert sub_legal[role] == inside
                else:
                    assert len(sub_legal[role]) == 1
                    assert r._offsets[role] + sub_legal[role][0] not in part.moves
            joint = [random.Random(i).choice(m) for m in legal]
            whole = r.next_state_indices(state, joint)
            assert net.next_state(state, joint) == (whole & ~frozen) | (state & frozen), i


def test_a_part_keeps_the_goals_of_the_whole_game() -> None:
    r = reasoner(C4S)
    factors = find_factors(r.network)
    net = GateNet(subgame(r.network, factors, 0))
    ended = [s for s in _random_states(r, 3000, seed=4)
             if r.is_terminal(r.next_state_indices(s, [m[0] for m in r.legal_indices(s)]))]
    assert ended
    for state in ended:
        end = r.next_state_indices(state, [m[0] for m in r.legal_indices(state)])
        assert net.is_terminal(end)
        assert [g[0] for g in net.goals(end)] == [r.goal(end, role) for role in (0, 1)]


def test_factor_of_names_the_part_that_holds_every_move() -> None:
    a, b = Factor(frozenset({0, 1}), frozenset({0})), Factor(frozenset({2}), frozenset({1}))
    assert factor_of((a, b), [0, 1]) == 0
    assert factor_of((a, b), [2]) == 1
    assert factor_of((a, b), [1, 2]) is None
    assert factor_of((a, b), [3]) is None


def test_a_part_with_no_move_left_ends_in_a_draw() -> None:
    """Board 1 full without a line, board 2 open: the whole game goes on (red must
    still move on board 1, where it has no move: the rules break there), the first
    board's subgame ends with 50 each rather than passing to its step cap."""
    r = reasoner(C4S)
    factors = find_factors(r.network)
    part = next(i for i, f in enumerate(factors)
                if any(r.fluent_table[j][3] == "1" for j in f.fluents))
    net = GateNet(subgame(r.network, factors, part))
    # Board 1 filled without four in a line: each row in pairs (RRBBRRBB), shifted by
    # one colour a row, so columns alternate and diagonals change every two cells.
    cells = []
    for x in range(1, 9):
        for y in range(1, 7):
            who = "red" if ((x - 1) // 2 + y - 1) % 2 == 0 else "black"
            cells.append(("cell", str(x), str(y), "1", who))
    fluents = [*cells, ("control", "red", "1"), ("control", "black", "2")]
    state = r.state_from_fluents(fluents)
    assert [r.goal(state, role) for role in (0, 1)] == [0, 0]  # no line, not over
    assert not r.is_terminal(state)
    assert net.is_terminal(state)
    assert [g[0] for g in net.goals(state)] == [EXHAUSTED, EXHAUSTED]


def test_a_network_too_dense_to_look_at_is_not_factored(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past :data:`MAX_READS` pairs of (fluent, fluent its next reads) the analysis
    gives up at once (a Hex board's paths took minutes): no parts."""
    from plies.gdl import factor

    network = reasoner(C4S).network
    reads = 196  # at least one per fluent: every cell's frame axiom reads the cell
    monkeypatch.setattr(factor, "MAX_READS", reads)
    assert find_factors(network) == ()
    monkeypatch.setattr(factor, "MAX_READS", 10 * reads)
    assert len(find_factors(network)) == 2
