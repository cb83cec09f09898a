"""Connect Four: conformance, perft, win detection against a plain grid, the benchmark scores."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

import plies
from plies.errors import GameFormatError, IllegalActionError
from plies.game import play
from plies.games import load, parse_options
from plies.games.connect4 import (
    DATA_FILES,
    DRAW,
    UNDECIDED,
    Connect4,
    Connect4State,
    load_positions,
    moves_from_string,
)
from tests.conformance import check_game
from tests.data import CONNECT4_DATA

C4 = Connect4()
PONS = Connect4(scoring="pons")


# A full 7x6 board without a four, found by random play and checked below.
DRAWN_GAME = "472424756645422154157737216635626711335331"


def data_file(name: str) -> Path:
    path = CONNECT4_DATA / name
    if not path.is_file():
        pytest.fail(
            f"Connect Four benchmark file {path} is missing: it is part of the repository "
            "(tests/data/connect4); restore it from git",
            pytrace=False,
        )
    return path


def picture(text: str, game: Connect4 = C4) -> Connect4State:
    """The position drawn in ``text`` (rows top first; X, O, '.'), in the documented layout."""
    rows = text.split()
    assert len(rows) == game.height and all(len(row) == game.width for row in rows), text
    xs = os = 0
    for r, line in enumerate(reversed(rows)):
        for c, ch in enumerate(line):
            bit = 1 << (c * (game.height + 1) + r)
            if ch == "X":
                xs |= bit
            elif ch == "O":
                os |= bit
    mask = xs | os
    for c in range(game.width):  # gravity: no stone above an empty cell
        column = (mask >> (c * (game.height + 1))) & ((1 << game.height) - 1)
        assert column & (column + 1) == 0, f"a floating stone in column {c + 1}"
    moves = mask.bit_count()
    assert xs.bit_count() - os.bit_count() in (0, 1), "X moves first"
    return Connect4State(xs if moves % 2 == 0 else os, mask, moves, UNDECIDED)


# --- a plain reference: a list of columns and a scan of every line --------------------------


class Grid:
    """Connect Four the obvious way, to check the bitboards against."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.columns: list[list[int]] = [[] for _ in range(width)]
        self.moves = 0

    def drop(self, col: int) -> None:
        self.columns[col].append(self.moves % 2)
        self.moves += 1

    def at(self, col: int, row: int) -> int | None:
        if 0 <= col < self.width and 0 <= row < len(self.columns[col]):
            return self.columns[col][row]
        return None

    def winner(self) -> int | None:
        for col in range(self.width):
            for row in range(self.height):
                who = self.at(col, row)
                if who is None:
                    continue
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    if all(self.at(col + i * dc, row + i * dr) == who for i in range(1, 4)):
                        return who
        return None

    def playable(self) -> list[int]:
        return [c for c in range(self.width) if len(self.columns[c]) < self.height]

    def picture(self) -> list[str]:
        wide = len(str(self.width))
        return [
            " ".join(
                ("XO"[who] if (who := self.at(c, row)) is not None else ".").rjust(wide)
                for c in range(self.width)
            )
            for row in reversed(range(self.height))
        ]


@pytest.mark.parametrize(("width", "height"), [(7, 6), (5, 4), (4, 4), (8, 7), (10, 3), (3, 9)])
def test_bitboards_agree_with_a_plain_grid(width: int, height: int) -> None:
    game = Connect4(width, height)
    rng = random.Random(width * 100 + height)
    outcomes = {0: 0, 1: 0, DRAW: 0}
    for _ in range(300):
        state, grid = game.initial_state(), Grid(width, height)
        while not game.is_terminal(state):
            assert list(game.actions(state)) == grid.playable()
            assert game.to_move(state) == grid.moves % 2
            col = rng.choice(game.actions(state))
            state = game.result(state, col)
            grid.drop(col)
            winner = grid.winner()
            expected = winner if winner is not None else DRAW if not grid.playable() else UNDECIDED
            assert state.outcome == expected, "\n".join(grid.picture())
            assert state.moves == grid.moves
        assert game.render(state).splitlines()[: game.height] == grid.picture()
        outcomes[state.outcome] += 1
    if width * height >= 20:
        assert outcomes[0] and outcomes[1]  # both players won some games


# --- the model ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game",
    [C4, PONS, Connect4(5, 4), Connect4(4, 4, "pons"), Connect4(9, 2), Connect4(1, 8)],
    ids=["7x6", "7x6-pons", "5x4", "4x4-pons", "9x2", "1x8"],
)
def test_conformance(game: Connect4) -> None:
    report = check_game(game, playouts=40)
    assert report.terminals == 40


def test_perft_from_the_empty_board() -> None:
    def perft(state: Connect4State, depth: int) -> int:
        if depth == 0:
            return 1
        if C4.is_terminal(state):
            return 0
        return sum(perft(C4.result(state, a), depth - 1) for a in C4.actions(state))

    # No game ends and no column fills before ply 7, so depths 1..6 are 7**d.  At ply 7
    # the seven positions with one column holding all six stones have a full column.
    counts = [perft(C4.initial_state(), d) for d in range(1, 8)]
    assert counts == [7, 49, 343, 2401, 16807, 117649, 823536]


@pytest.mark.parametrize(
    ("moves", "winner"),
    [
        ("1212121", 0),  # vertical
        ("21212131", 1),  # vertical, second player
        ("1122334", 0),  # horizontal
        ("4455667", 0),  # horizontal, at the right edge
        ("7766554", 0),  # horizontal, drawn from the right
        ("12132435", 1),  # horizontal, second player, above X's three
    ],
)
def test_wins_from_moves(moves: str, winner: int) -> None:
    state = C4.moves_from_string(moves)
    assert state.outcome == winner and C4.is_terminal(state)
    assert C4.actions(state) == ()
    assert C4.render(state).endswith(f"{'XO'[winner]} wins")


@pytest.mark.parametrize(
    ("board", "col", "wins"),
    [
        # diagonal up to the right, completed at its top
        ("....... ....... ....... ..XX... .XXO... XOOO..O", 3, True),
        # diagonal down to the right, completed at its top left
        ("....... ....... ....... OX..... OXX.... XOOX..O", 0, True),
        # diagonal up to the right, completed in the middle
        ("....... ....... ...X... ...O... .XOO... XOXX..O", 2, True),
        # a horizontal four completed in the middle
        ("....... ....... ....... ....... ....... XX.XOOO", 2, True),
        # no vertical wrap: two at the top of column 1, two at the bottom of column 2
        ("X...... X...... O...... O...... X...... OX....O", 1, False),
        # no row-major wrap: the end of the bottom row and the start of the next one
        ("....... ....... ....... ....... X...... OO.O.XX", 1, False),
    ],
)
def test_win_detection_drops_the_last_stone(board: str, col: int, wins: bool) -> None:
    state = picture(board)
    assert not C4.is_terminal(state) and C4.to_move(state) == 0
    child = C4.result(state, col)
    assert child.outcome == (0 if wins else UNDECIDED)
    assert C4.is_winning_move(state, col) is wins
    assert (col in C4.winning_moves(state)) is wins


def test_a_full_column_is_illegal() -> None:
    state = C4.moves_from_string("444444")
    assert C4.actions(state) == (0, 1, 2, 4, 5, 6)
    with pytest.raises(IllegalActionError, match="legal moves: 1, 2, 3, 5, 6, 7"):
        play(C4, state, "4")
    assert C4.winning_moves(state) == ()


def test_a_full_board_without_four_is_a_draw() -> None:
    state = C4.initial_state()
    for i, ch in enumerate(DRAWN_GAME):
        assert not C4.is_terminal(state), f"over after {i} moves"
        state = play(C4, state, ch)
    assert state.outcome == DRAW and state.moves == 42 and C4.is_terminal(state)
    assert state.mask == C4.board_mask
    assert (C4.utility(state, 0), C4.utility(state, 1)) == (0.0, 0.0)
    assert (PONS.utility(state, 0), C4.score(state)) == (0.0, 0)
    assert C4.render(state).endswith("\ndraw")


def test_utilities_and_scores() -> None:
    x_won = C4.moves_from_string("1212121")  # X's fourth stone, 7 stones on the board
    assert (C4.utility(x_won, 0), C4.utility(x_won, 1)) == (1.0, -1.0)
    assert (PONS.utility(x_won, 0), PONS.utility(x_won, 1)) == (18.0, -18.0)
    assert C4.score(x_won) == -18 == PONS.score(x_won)  # for O, who would move next
    o_won = C4.moves_from_string("21212131")  # O's fourth stone, 8 stones
    assert PONS.utility(o_won, 1) == 18.0 == -PONS.utility(o_won, 0)
    late = C4.moves_from_string("112233574")  # X's fifth stone: 22 - 5
    assert late.outcome == 0 and PONS.utility(late, 0) == 17.0 == (44 - 9) // 2
    with pytest.raises(ValueError, match="non-terminal"):
        C4.utility(C4.initial_state(), 0)
    with pytest.raises(ValueError, match="non-terminal"):
        C4.score(C4.initial_state())


def test_pons_score_formula_on_every_terminal_of_random_games() -> None:
    rng = random.Random(7)
    for game in (PONS, Connect4(5, 5, "pons"), Connect4(4, 4, "pons")):
        lo, hi = game.utility_range
        top = 0.0
        for _ in range(300):
            state = game.initial_state()
            while not game.is_terminal(state):
                state = game.result(state, rng.choice(game.actions(state)))
            mover = game.to_move(state)
            assert game.utility(state, mover) == game.score(state)
            assert game.utility(state, 1 - mover) == -game.score(state)
            if state.outcome != DRAW:
                winner = 1 - mover
                stones = (state.moves + 1 - winner) // 2  # the winner's stones
                left = (game.cells + 1 - winner) // 2 - stones  # still in the winner's hand
                assert game.utility(state, winner) == left + 1
                assert game.score(state) == -((game.cells + 1 - (state.moves - 1)) // 2)
            assert lo <= game.utility(state, 0) <= hi
            top = max(top, abs(game.utility(state, 0)))
        assert top <= hi == (game.cells - 5) // 2


def test_utility_range() -> None:
    assert C4.utility_range == (-1.0, 1.0)
    assert PONS.utility_range == (-18.0, 18.0)  # reached: see test_utilities_and_scores
    small = Connect4(5, 4, "pons")
    assert small.utility_range == (-7.0, 7.0)
    assert small.utility(small.moves_from_string("1212121"), 0) == 7.0
    odd = Connect4(5, 5, "pons")  # 25 cells: X's quickest win 10, O's 9
    assert odd.utility_range == (-10.0, 10.0)
    assert odd.utility(odd.moves_from_string("1212121"), 0) == 10.0
    assert odd.utility(odd.moves_from_string("21212131"), 1) == 9.0
    assert Connect4(2, 2, "pons").utility_range == (-1.0, 1.0)  # nobody can win; kept non-empty


# --- the benchmark data ---------------------------------------------------------------------


def negamax(game: Connect4, state: Connect4State, alpha: float, beta: float) -> float:
    """The mover's exact value: plain fail-soft alpha-beta over actions(), nothing else."""
    if game.is_terminal(state):
        return game.utility(state, game.to_move(state))
    best = -math.inf
    for action in game.actions(state):
        value = -negamax(game, game.result(state, action), -beta, -alpha)
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


def minimax(game: Connect4, state: Connect4State) -> float:
    """The mover's value by the textbook recursion (no pruning, no memo)."""
    if game.is_terminal(state):
        return game.utility(state, game.to_move(state))
    return max(-minimax(game, game.result(state, a)) for a in game.actions(state))


def test_pons_scoring_makes_the_minimax_value_the_benchmark_score() -> None:
    positions = load_positions(data_file("Test_L3_R1"))[:30]
    plain = 0
    for moves, score in positions:
        state = PONS.moves_from_string(moves)
        assert negamax(PONS, state, -math.inf, math.inf) == score, moves
        if 42 - state.moves <= 8:  # few moves left: the unpruned tree is small
            assert minimax(PONS, state) == score, moves
            plain += 1
        # winloss scoring keeps only the sign (the weak solution)
        assert negamax(C4, C4.moves_from_string(moves), -1, 1) == (score > 0) - (score < 0)
    assert plain >= 15


@pytest.mark.parametrize("name", DATA_FILES)
def test_data_files_read_as_documented(name: str) -> None:
    positions = load_positions(data_file(name))
    assert len(positions) == 1000
    for moves, score in positions:
        state = C4.moves_from_string(moves)
        assert not C4.is_terminal(state) and state.moves == len(moves)
        # nobody wins sooner than at once: |score| <= the score of an immediate win
        assert abs(score) <= (43 - state.moves) // 2, moves
        if C4.winning_moves(state):
            assert score == (43 - state.moves) // 2, moves


def test_load_positions_reports_bad_lines(tmp_path: Path) -> None:
    path = tmp_path / "set"
    path.write_text("4453 -2\n\n12 0\n", "utf-8")
    assert load_positions(path) == [("4453", -2), ("12", 0)]
    path.write_text("4453 -2\n44x3 1\n", "utf-8")
    with pytest.raises(GameFormatError, match=r"set:2: expected 'MOVES SCORE'"):
        load_positions(path)
    path.write_text("4453\n", "utf-8")
    with pytest.raises(GameFormatError, match="set:1"):
        load_positions(path)


# --- text in and out ------------------------------------------------------------------------


def test_moves_from_string() -> None:
    state = moves_from_string("4453")
    assert state == C4.moves_from_string("4 4 5 3") == C4.moves_from_string("4,4,5,3")
    assert state.moves == 4 and C4.to_move(state) == 0
    assert moves_from_string("") == C4.initial_state()
    small = moves_from_string("11", width=4, height=4)
    assert small.mask == 0b11


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4448", r"illegal move '8' \(move 4 of '4448'\); legal moves: 1, 2, 3, 4, 5, 6, 7"),
        ("40", r"illegal move '0' \(move 2 of '40'\)"),
        ("4a", r"illegal move 'a' \(move 2 of '4a'\)"),
        ("4,-1", r"illegal move '-' \(move 2 of '4,-1'\)"),
        ("1111111", r"illegal move '1' \(move 7 of '1111111'\); legal moves: 2, 3, 4, 5, 6, 7"),
        ("12121212", r"\(move 8 of '12121212'\); legal moves: \(none: the game is over\)"),
        ("4\u0663", "illegal move '\u0663'"),  # a non-ASCII digit
    ],
)
def test_moves_from_string_errors(text: str, message: str) -> None:
    with pytest.raises(IllegalActionError, match=message):
        C4.moves_from_string(text)


def test_split_moves() -> None:
    assert C4.split_moves("4453") == ["4", "4", "5", "3"]
    assert C4.split_moves(" 4 4, 5 ,3 ") == ["4", "4", "5", "3"]
    assert C4.split_moves("44 53") == ["4", "4", "5", "3"]
    assert C4.split_moves("") == []
    wide = Connect4(width=12)
    assert wide.split_moves("10 1,12") == ["10", "1", "12"]
    assert wide.moves_from_string("10 1 12").moves == 3


def test_actions_are_typed_as_1_based_columns() -> None:
    state = C4.initial_state()
    assert C4.actions(state) == tuple(range(7))
    assert [C4.format_action(state, a) for a in C4.actions(state)] == list("1234567")
    assert play(C4, state, "4") == C4.result(state, 3)
    with pytest.raises(IllegalActionError, match="legal moves: 1, 2, 3, 4, 5, 6, 7"):
        play(C4, state, "8")


def test_render() -> None:
    state = C4.moves_from_string("4453")
    assert C4.render(state) == (
        ". . . . . . .\n"
        ". . . . . . .\n"
        ". . . . . . .\n"
        ". . . . . . .\n"
        ". . . O . . .\n"
        ". . O X X . .\n"
        "1 2 3 4 5 6 7\n"
        "X to move"
    )
    assert C4.render(C4.moves_from_string("445")).endswith("O to move")
    wide = Connect4(10, 2)
    assert wide.render(wide.moves_from_string("10")).splitlines() == [
        " .  .  .  .  .  .  .  .  .  .",
        " .  .  .  .  .  .  .  .  .  X",
        " 1  2  3  4  5  6  7  8  9 10",
        "O to move",
    ]
    assert (C4.player_name(0), C4.player_name(1)) == ("X", "O")


# --- helpers for engines --------------------------------------------------------------------


def random_positions(game: Connect4, count: int, seed: int) -> list[Connect4State]:
    rng = random.Random(seed)
    states: list[Connect4State] = []
    while len(states) < count:
        state = game.initial_state()
        while not game.is_terminal(state) and len(states) < count:
            states.append(state)
            state = game.result(state, rng.choice(game.actions(state)))
        states.append(state)
    return states


def test_key_is_unique_and_ignores_move_order() -> None:
    seen: dict[int, Connect4State] = {}
    for state in random_positions(C4, 60_000, seed=3):
        key = C4.key(state)
        assert isinstance(key, int)
        assert seen.setdefault(key, state) == state, (state, seen[key])
    assert len(seen) > 30_000
    # transpositions: the same stones reached in another order give the same key
    a, b = C4.moves_from_string("1234"), C4.moves_from_string("3214")
    assert a == b and C4.key(a) == C4.key(b)
    assert C4.key(C4.moves_from_string("12")) != C4.key(C4.moves_from_string("21"))


def test_key_tells_apart_every_position_of_a_small_board() -> None:
    game = Connect4(4, 3)
    seen = {game.initial_state()}
    stack = [game.initial_state()]
    while stack:
        state = stack.pop()
        for child in (game.result(state, a) for a in game.actions(state)):
            if child not in seen:
                seen.add(child)
                stack.append(child)
    assert len(seen) > 1000
    assert len({game.key(state) for state in seen}) == len(seen)


def test_order_hint_is_centre_first() -> None:
    state = C4.initial_state()
    assert C4.order_hint(state, C4.actions(state)) == [3, 2, 4, 1, 5, 0, 6]
    assert C4.order_hint(state, [0, 6, 5, 3]) == [3, 5, 0, 6]
    six = Connect4(width=6)
    assert six.order_hint(six.initial_state(), range(6)) == [3, 2, 4, 1, 5, 0]
    assert Connect4(width=1).order_hint(Connect4(width=1).initial_state(), [0]) == [0]


def test_winning_and_noisy_moves_agree_with_trying_every_move() -> None:
    for state in random_positions(C4, 5000, seed=11):
        if C4.is_terminal(state):
            assert C4.winning_moves(state) == C4.noisy_actions(state) == ()
            continue
        mover = C4.to_move(state)
        wins = tuple(a for a in C4.actions(state) if C4.result(state, a).outcome == mover)
        assert C4.winning_moves(state) == wins
        assert all(C4.is_winning_move(state, a) == (a in wins) for a in C4.actions(state))
        # the opponent's immediate wins: let the opponent move here instead (a "pass")
        passed = Connect4State(state.position ^ state.mask, state.mask, state.moves + 1, UNDECIDED)
        threats = tuple(a for a in C4.actions(state) if C4.result(passed, a).outcome == 1 - mover)
        assert C4.noisy_actions(state) == tuple(sorted(set(wins) | set(threats)))
        assert C4.winning_cells(state, mover).bit_count() >= len(wins)


def test_noisy_actions_example() -> None:
    state = C4.moves_from_string("4455")  # two in a row each: nothing urgent yet
    assert C4.noisy_actions(state) == ()
    state = C4.moves_from_string("44556")  # X threatens both ends of its bottom-row three
    assert C4.noisy_actions(state) == (2, 6) and C4.winning_moves(state) == ()
    assert C4.winning_moves(C4.result(state, 0)) == (2, 6)


def test_evaluate_is_strictly_inside_the_range_and_symmetric() -> None:
    values = set()
    for state in random_positions(PONS, 3000, seed=5):
        for p in (0, 1):
            value = PONS.evaluate(state, p)
            if PONS.is_terminal(state):
                assert value == PONS.utility(state, p)
            else:
                assert -1.0 < value < 1.0
                assert C4.evaluate(state, p) == value  # the same heuristic in both scorings
                values.add(value)
        assert PONS.evaluate(state, 0) == -PONS.evaluate(state, 1)
    assert len(values) > 100
    threat = C4.moves_from_string("44556")  # X has an open three on the bottom row
    assert C4.evaluate(threat, 0) > 0.1 > 0 > -0.1 > C4.evaluate(threat, 1)
    # the threats count: the same stones with O's blocking stone score less for X
    blocked = C4.moves_from_string("44576")  # O took 7 before X got 6
    assert C4.evaluate(threat, 0) > C4.evaluate(blocked, 0)
    assert C4.evaluate(C4.moves_from_string("4"), 0) > C4.evaluate(C4.moves_from_string("1"), 0)


# --- options --------------------------------------------------------------------------------


def test_registry_options() -> None:
    game = load("connect4")
    assert isinstance(game, Connect4) and (game.width, game.height, game.scoring) == (
        7,
        6,
        "pons",  # the standard solver score is the default a user of `plies solve` sees
    )
    small = load("connect4", **parse_options("connect4", ["width=5", "height=4", "scoring=Pons"]))
    assert isinstance(small, Connect4)
    assert (small.width, small.height, small.scoring) == (5, 4, "pons")
    assert small.actions(small.initial_state()) == (0, 1, 2, 3, 4)
    with pytest.raises(GameFormatError, match="scoring='best' is not a valid winloss or pons"):
        parse_options("connect4", ["scoring=best"])
    with pytest.raises(GameFormatError, match="width and height >= 1"):
        load("connect4", width=0)
    with pytest.raises(GameFormatError, match="scoring must be one of winloss, pons"):
        Connect4(scoring="fast")


def test_4x4_board_plays_to_the_end() -> None:
    game = Connect4(4, 4)
    state = game.moves_from_string("1234123421432143")  # rows XOXO XOXO OXOX OXOX
    assert state.moves == 16 and state.outcome == DRAW
    assert game.render(state).splitlines()[-2:] == ["1 2 3 4", "draw"]


def test_value_bounds_contain_the_exact_score() -> None:
    game = Connect4(scoring="pons")
    for moves, score in load_positions(data_file("Test_L3_R1"))[:300]:
        state = game.moves_from_string(moves)
        mover = game.to_move(state)
        lo, hi = game.value_bounds(state, mover)
        assert lo <= score <= hi, moves
        assert game.value_bounds(state, 1 - mover) == (-hi, -lo)


def test_value_bounds_are_sound_one_move_later() -> None:
    game = Connect4(scoring="pons")
    for moves, _ in load_positions(data_file("Test_L3_R1"))[:40]:
        state = game.moves_from_string(moves)
        for column in game.actions(state):
            child = game.result(state, column)
            exact = plies.alphabeta(game, child, player=0).value  # no bounds: plain search
            lo, hi = game.value_bounds(child, 0)
            assert lo <= exact <= hi, (moves, column)


@pytest.mark.parametrize(
    ("name", "count"), [("Test_L3_R1", 50), ("Test_L2_R1", 20), ("Test_L1_R1", 10)]
)
def test_the_generic_engine_solves_the_benchmark_positions(name: str, count: int) -> None:
    game = Connect4(scoring="pons")
    for moves, score in load_positions(data_file(name))[:count]:
        state = game.moves_from_string(moves)
        result = plies.alphabeta(game, state, tt=True, ordering=True, pvs=True, bisection=True)
        assert result.value == score, moves
        child = game.result(state, result.action)  # the move chosen keeps the score
        after = plies.alphabeta(
            game, child, player=game.to_move(state), tt=True, ordering=True, bisection=True
        )
        assert after.value == score, moves


def test_full_window_and_bisection_agree_on_the_benchmark_positions() -> None:
    game = Connect4(scoring="pons")
    for moves, score in load_positions(data_file("Test_L2_R1"))[:10]:
        state = game.moves_from_string(moves)
        full = plies.alphabeta(game, state, tt=True, ordering=True, pvs=True)
        assert full.value == score, moves


def test_sufficient_actions_keep_a_best_move() -> None:
    game = Connect4(scoring="pons")
    for moves, score in load_positions(data_file("Test_L3_R1"))[:60]:
        state = game.moves_from_string(moves)
        mover = game.to_move(state)
        kept = game.sufficient_actions(state, game.actions(state))
        assert set(kept) <= set(game.actions(state))
        if not kept:  # every move loses: the bounds already know the score
            assert game.value_bounds(state, mover) == (score, score), moves
            continue
        best = max(plies.alphabeta(game, game.result(state, a), player=mover).value for a in kept)
        assert best == score, moves


def test_analyze_gives_the_score_of_every_column() -> None:
    game = Connect4(scoring="pons")
    moves, score = load_positions(data_file("Test_L2_R1"))[3]
    state = game.moves_from_string(moves)
    craft = plies.analyze(game, state, tt=True, ordering=True, bisection=True)
    assert craft.value == score
    mover = game.to_move(state)
    for column, value in (craft.action_values or {}).items():
        child = game.result(state, column)
        exact = plies.alphabeta(game, child, player=mover, tt=True, ordering=True, pvs=True).value
        assert value == exact, (moves, column)
