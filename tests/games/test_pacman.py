"""Pacman and its ghosts: the rules, the score, the evaluation, and the family searching it."""

from __future__ import annotations

import math
import random

import pytest

import plies
from plies import CHANCE, Limit
from plies.errors import GameFormatError, IllegalActionError
from plies.games import load, parse_options
from plies.games.pacman import (
    EAST,
    GHOST_KINDS,
    GHOST_POINTS,
    LAYOUTS,
    LOSE_POINTS,
    LOST,
    NORTH,
    PLAYING,
    SCARED_TIME,
    SCORE_ONLY,
    SOUTH,
    STOP,
    WEST,
    WIN_POINTS,
    WON,
    Pacman,
    PacmanState,
    PacmanWeights,
    directional_ghost,
    ghost_model,
    ghost_policy,
    pacman,
    random_ghost,
)
from plies.wrappers import OpponentsAsChance
from tests.clirun import plain_pipe, run  # noqa: F401  (plain_pipe: an autouse fixture)
from tests.conformance import check_game

ROUNDS = "round"


def play(game: Pacman, state: PacmanState, *actions: str) -> PacmanState:
    for action in actions:
        state = game.result(state, action)
    return state


# --- the conformance check --------------------------------------------------------------------


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("ghosts", [1, 4])
def test_conformance(layout: str, ghosts: int) -> None:
    check_game(Pacman(layout, ghosts=ghosts, max_moves=60), playouts=10)


def test_registered_as_pacman_with_its_options() -> None:
    game = load("pacman")
    assert isinstance(game, Pacman)
    assert (game.layout, game.ghosts, game.max_moves) == ("smallClassic", 2, 200)
    options = parse_options("pacman", ["layout=TINY", "ghosts=1", "max_moves=30"])
    assert options == {"layout": "tiny", "ghosts": 1, "max_moves": 30}
    own = load("pacman", **parse_options("pacman", ["layout=%%%%%/%P.G%/%%%%%"]))
    assert isinstance(own, Pacman) and own.maze.width == 5 and own.num_players == 3
    with pytest.raises(GameFormatError, match="not a valid layout name"):
        parse_options("pacman", ["layout=bigClassic"])
    plain = load("pacman", **parse_options("pacman", ["evaluation=score"]))
    assert isinstance(plain, Pacman) and plain.weights == SCORE_ONLY
    with pytest.raises(GameFormatError, match="not a valid features or score"):
        parse_options("pacman", ["evaluation=learned"])


def test_the_ghost_option_makes_ghosts_players_or_chance() -> None:
    assert GHOST_KINDS == ("minimax", "random", "directional")
    assert isinstance(load("pacman", **parse_options("pacman", ["ghost=minimax"])), Pacman)
    for kind in ("random", "directional"):
        options = parse_options("pacman", ["layout=tiny", "ghosts=2", f"ghost={kind}"])
        game = load("pacman", **options)
        assert isinstance(game, OpponentsAsChance) and game.players == {1, 2}
        pac = game.game
        assert isinstance(pac, Pacman) and (pac.layout, pac.ghosts) == ("tiny", 2)
        s = game.initial_state()
        assert game.to_move(s) == 0
        s = game.result(s, EAST)
        assert game.to_move(s) == CHANCE and game.chance_player(s) == 1
        assert list(game.chance_outcomes(s)) == ghost_policy(pac, kind)(s)
    with pytest.raises(GameFormatError, match="not a valid minimax or random or directional"):
        parse_options("pacman", ["ghost=smart"])
    with pytest.raises(GameFormatError, match="accepted: minimax, random, directional"):
        pacman(ghost="smart")
    with pytest.raises(GameFormatError, match="has no policy"):
        ghost_policy(Pacman("tiny"), "minimax")


@pytest.mark.parametrize("kind", ["random", "directional"])
def test_expectimax_over_the_ghost_kind_counts_depth_in_rounds(kind: str) -> None:
    # Depth 2 rounds = Pacman, every ghost, Pacman, every ghost, then evaluate: the
    # value of expectiminimax over ghost_model equals this hand-written expectimax.
    game = Pacman("tiny", ghosts=2, max_moves=40)
    model = ghost_model(game, kind)
    policy = ghost_policy(game, kind)

    def value(state: PacmanState, plies_left: int) -> float:
        if game.is_terminal(state) or plies_left == 0:
            return game.evaluate(state, 0)
        if state.mover == 0:
            return max(value(game.result(state, a), plies_left - 1) for a in game.actions(state))
        return sum(p * value(game.result(state, a), plies_left - 1) for a, p in policy(state))

    for s in states_along_a_playout(game, 12, seed=5)[::3]:
        if s.mover != 0:
            continue
        result = plies.expectiminimax(model, s, Limit(depth=2, unit=ROUNDS))
        assert result.value == pytest.approx(value(s, 2 * game.num_players))
        assert result.stats.depth == 2


def test_ghost_kind_play_samples_the_ghosts_and_expectimax_plays_pacman(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run(
        capsys, "play", "pacman", "-o", "layout=tiny", "-o", "ghosts=1",
        "-o", "ghost=directional", "-a", "expectiminimax", "--depth", "2", "--unit", "round",
        "--human", "none", "--seed", "1",
    )
    assert "Pacman (expectiminimax) plays" in out and "chance: " in out
    assert "game over: Pacman" in out and "% % % % % % %" in out  # the maze is drawn


def test_every_built_in_layout_can_be_cleared() -> None:
    # Every pellet and capsule is reachable from Pacman's start: a maze can be won.
    for name in LAYOUTS:
        game = Pacman(name)
        start = game.initial_state()
        for mask in (start.food, start.capsules):
            cells = [c for c in range(mask.bit_length()) if mask >> c & 1]
            assert all(game.distance(start.pacman, c) < math.inf for c in cells), name


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        ("%%%/%P%/%%", "rows must all be 3 characters long"),
        ("%%%%/%PX%/%%%%", "unknown character 'X'"),
        ("%%%%/%..%/%G.%", "exactly one P, got 0"),
        ("%%%%/%P.%/%%%%", "at least one G"),
    ],
)
def test_a_bad_layout_says_what_is_accepted(layout: str, message: str) -> None:
    with pytest.raises(GameFormatError, match=message):
        Pacman(layout)


def test_bad_numbers_and_names_are_refused() -> None:
    with pytest.raises(GameFormatError, match="unknown Pacman layout 'bigClassic'; built-in: tiny"):
        Pacman("bigClassic")
    with pytest.raises(GameFormatError, match=r"ghosts must be 1\.\.4, got 5"):
        Pacman(ghosts=5)
    with pytest.raises(GameFormatError, match="max_moves must be at least 1"):
        Pacman(max_moves=0)


# --- the rules --------------------------------------------------------------------------------


def test_walls_limit_the_moves_and_ghosts_may_not_stop() -> None:
    game = Pacman("tiny", ghosts=1)
    s = game.initial_state()
    assert game.actions(s) == [SOUTH, EAST, STOP]  # the project's order, Stop last
    s = game.result(s, STOP)
    assert game.to_move(s) == 1 and game.actions(s) == [SOUTH, WEST]
    with pytest.raises(ValueError, match="cannot move 'North'"):
        game.result(s, NORTH)


def test_a_walled_in_ghost_stops() -> None:
    game = Pacman("%%%%%/%P. %/%%%%%/%G%%%/%%%%%", ghosts=1)
    s = game.result(game.initial_state(), STOP)
    assert game.actions(s) == [STOP]


def test_eating_a_pellet_scores_ten_and_every_move_costs_one() -> None:
    game = Pacman("tiny", ghosts=1)
    s = game.initial_state()
    food = s.food.bit_count()
    s = game.result(s, EAST)
    assert (s.score, s.food.bit_count(), s.moves, s.mover) == (10 - 1, food - 1, 1, 1)
    s = play(game, s, WEST, WEST)  # the ghost moves, then Pacman goes back: nothing to eat
    assert s.score == 8 and s.moves == 2


def test_walking_into_a_ghost_loses() -> None:
    game = Pacman("%%%%%/%PG.%/%%%%%", ghosts=1)
    s = game.result(game.initial_state(), EAST)
    assert s.outcome == LOST and game.is_terminal(s)
    assert s.score == -1 - LOSE_POINTS
    assert game.utility(s, 0) == -501 and game.utility(s, 1) == 501


def test_a_ghost_that_reaches_pacman_catches_him() -> None:
    game = Pacman("%%%%%%/%P G.%/%%%%%%", ghosts=1)
    s = play(game, game.initial_state(), EAST)
    assert not game.is_terminal(s)
    s = game.result(s, WEST)
    assert s.outcome == LOST and s.score == -501


def test_two_ghosts_on_pacman_catch_him_once() -> None:
    game = Pacman("%%%%%/%PG.%/%%%%%", ghosts=2)  # both ghosts start on the one G
    s = game.result(game.initial_state(), EAST)
    assert s.outcome == LOST and s.score == -1 - LOSE_POINTS


def test_a_capsule_scares_the_ghosts_and_pacman_eats_one() -> None:
    game = Pacman("%%%%%%%/%Po G.%/%%%%%%%", ghosts=1)
    s = game.result(game.initial_state(), EAST)
    assert s.scared == (SCARED_TIME,) and s.capsules == 0 and s.score == -1
    s = game.result(s, WEST)  # a scared ghost's timer runs down on its own moves
    assert s.scared == (SCARED_TIME - 1,)
    assert "S" in game.render(s).splitlines()[1]
    s = game.result(s, EAST)  # onto the scared ghost: eaten, sent home, no longer scared
    assert s.outcome == PLAYING and s.score == -2 + GHOST_POINTS
    assert s.ghosts == game.ghost_starts and s.scared == (0,)


def test_eating_the_last_pellet_wins() -> None:
    game = Pacman("%%%%%/%P.G%/%%%%%", ghosts=1)
    s = game.result(game.initial_state(), EAST)
    assert s.outcome == WON and game.is_terminal(s)
    assert s.score == -1 + 10 + WIN_POINTS
    assert "Pacman wins" in game.render(s)


def test_a_win_beats_a_loss_in_the_same_move() -> None:
    # As in the project: the last pellet is eaten where a ghost stands; Pacman still wins.
    game = Pacman("%%%%%/%P.G%/%%%%%", ghosts=1)
    start = game.initial_state()
    s = game.result(start._replace(ghosts=(start.pacman + 1,)), EAST)
    assert s.outcome == WON and s.score == 509


def test_the_move_cap_ends_the_game_after_the_ghosts_answer() -> None:
    game = Pacman("tiny", ghosts=2, max_moves=2)
    s = play(game, game.initial_state(), STOP, SOUTH, SOUTH, STOP)
    assert s.moves == 2 and not game.is_terminal(s)  # the ghosts answer the last move
    s = play(game, s, NORTH, NORTH)
    assert game.is_terminal(s) and s.outcome == PLAYING
    assert game.utility(s, 0) == -2 and game.utility(s, 2) == 2
    assert "out of moves" in game.render(s)


def test_utilities_and_facts() -> None:
    assert Pacman("tiny", ghosts=1).zero_sum and not Pacman("tiny", ghosts=2).zero_sum
    game = Pacman("tiny", ghosts=2, max_moves=50)
    # 9 pellets and a win, 2 ghosts eaten once per capsule; or 50 moves and a loss
    assert game.utility_range == (-(90.0 + 500 + 400), 90.0 + 500 + 400)
    s = game.initial_state()
    assert game.key(s) == s and hash(s) == hash(game.initial_state())
    assert game.result(s, EAST) != s and s == game.initial_state()  # result does not mutate


def test_actions_as_text() -> None:
    game = Pacman("tiny", ghosts=1)
    s = game.initial_state()
    assert [game.parse_action(s, t) for t in ("east", " S ", "x", "STOP")] == [
        EAST, SOUTH, STOP, STOP,
    ]
    with pytest.raises(IllegalActionError, match="legal moves: South, East, Stop"):
        game.parse_action(s, "North")
    assert game.player_name(0) == "Pacman" and game.player_name(2) == "Ghost 2"


# --- the evaluation ---------------------------------------------------------------------------


def test_features_use_maze_distances() -> None:
    game = Pacman("tiny", ghosts=1)
    s = game.initial_state()
    f = game.features(s)
    assert f["food_closeness"] == 1.0 and f["food_left"] == 9 and f["capsules_left"] == 1
    # The ghost is 4 cells east along the top corridor.
    assert f["ghost_closeness"] == pytest.approx(1 / 5) and f["scared_closeness"] == 0
    # Around the wall block: (1,1) to (3,5) is 6 steps, though 6 also by Manhattan; and
    # (1,2) to (3,2) is 2 by Manhattan but 4 through the maze.
    width = game.maze.width
    assert game.distance(1 * width + 2, 3 * width + 2) == 4


def test_the_cached_nearest_food_is_the_nearest_pellet_by_maze_distance() -> None:
    # food_distance scans cells by distance and caches by (cell, food); it must agree
    # with the plain minimum over every pellet, computed and cached.
    for layout in ("smallClassic", "trickyClassic"):
        game = Pacman(layout, ghosts=2, max_moves=80)
        for s in states_along_a_playout(game, 150, seed=11):
            pellets = [c for c in range(game.maze.width * game.maze.height) if s.food >> c & 1]
            plain = min((game.distance(s.pacman, c) for c in pellets), default=math.inf)
            assert game.food_distance(s.pacman, s.food) == plain  # computed
            assert game.food_distance(s.pacman, s.food) == plain  # cached


def test_evaluate_is_the_weighted_sum_and_the_utility_at_the_end() -> None:
    weights = PacmanWeights(1.0, -2.0, 5.0, -10.0, 50.0, -20.0)
    game = Pacman("tiny", ghosts=1, weights=weights)
    s = game.initial_state()
    assert game.evaluate(s, 0) == pytest.approx(0 - 18 + 5 - 2 + 0 - 20)
    assert game.evaluate(s, 1) == -game.evaluate(s, 0)
    assert Pacman("tiny", ghosts=1, weights=SCORE_ONLY).evaluate(s, 0) == 0
    won = Pacman("%%%%%/%P.G%/%%%%%", ghosts=1, weights=weights)
    end = won.result(won.initial_state(), EAST)
    assert won.evaluate(end, 0) == won.utility(end, 0) == 509


# --- searching it -----------------------------------------------------------------------------


def states_along_a_playout(game: Pacman, steps: int, seed: int) -> list[PacmanState]:
    rng = random.Random(seed)
    s = game.initial_state()
    seen = [s]
    for _ in range(steps):
        if game.is_terminal(s):
            break
        s = game.result(s, rng.choice(game.actions(s)))
        if game.to_move(s) == 0:
            seen.append(s)
    return seen


@pytest.mark.parametrize(("layout", "ghosts"), [("tiny", 1), ("tiny", 2), ("test", 2)])
@pytest.mark.parametrize("depth", [1, 2])
def test_alphabeta_equals_minimax_in_rounds(layout: str, ghosts: int, depth: int) -> None:
    game = Pacman(layout, ghosts=ghosts, max_moves=40)
    limit = Limit(depth=depth, unit=ROUNDS)
    for s in states_along_a_playout(game, 30, seed=depth):
        slow = plies.minimax(game, s, limit)
        fast = plies.alphabeta(game, s, limit)
        assert fast.value == pytest.approx(slow.value)
        assert fast.action == slow.action
        assert fast.stats.nodes <= slow.stats.nodes


def test_a_round_is_pacman_and_every_ghost() -> None:
    game = Pacman("smallClassic", ghosts=2)
    result = plies.alphabeta(game, game.initial_state(), Limit(depth=2, unit=ROUNDS))
    assert len(result.pv) == 2 * 3  # Pacman, ghost 1, ghost 2, twice


def test_expectimax_with_ghosts_as_chance() -> None:
    game = Pacman("tiny", ghosts=2, max_moves=40)
    model = OpponentsAsChance(game, [1, 2])
    for s in states_along_a_playout(game, 20, seed=3):
        limit = Limit(depth=1, unit=ROUNDS)
        result = plies.expectiminimax(model, s, limit)
        # By hand: Pacman's best move against the mean over both ghosts' uniform moves.
        def mean_after(state: PacmanState, ghost: int) -> float:
            if game.is_terminal(state):
                return game.evaluate(state, 0)
            if ghost > 2:
                return game.evaluate(state, 0)
            moves = game.actions(state)
            return sum(mean_after(game.result(state, a), ghost + 1) for a in moves) / len(moves)

        best = max(mean_after(game.result(s, a), 1) for a in game.actions(s))
        assert result.value == pytest.approx(best)
        # Random ghosts are never worse for Pacman than ghosts that hunt him (paranoid).
        paranoid = plies.alphabeta(game, s, limit).value
        assert result.value >= paranoid - 1e-9


def test_a_directional_ghost_mostly_closes_in() -> None:
    game = Pacman("tiny", ghosts=1)
    s = game.result(game.initial_state(), STOP)  # the ghost at the top right: West or South
    odds = dict(directional_ghost(game)(s))
    # West (4 steps from Pacman after it) is nearer than South (6): 0.8 + 0.2 / 2 on it.
    assert odds == pytest.approx({WEST: 0.9, SOUTH: 0.1})
    assert dict(random_ghost(game)(s)) == {WEST: 0.5, SOUTH: 0.5}
    scared = s._replace(scared=(5,))
    assert dict(directional_ghost(game)(scared)) == pytest.approx({WEST: 0.1, SOUTH: 0.9})
    with pytest.raises(ValueError, match="probabilities"):
        directional_ghost(game, attack=1.5)


def test_expectimax_against_directional_ghosts_lies_between() -> None:
    # No ghost model is worse for Pacman than paranoid minimax's (a mean is never below the
    # minimum); and on this maze ghosts that mostly hunt him are worse than random ones.
    game = Pacman("tiny", ghosts=2, max_moves=40)
    s = game.initial_state()
    for depth in (1, 2):
        limit = Limit(depth=depth, unit=ROUNDS)
        paranoid = plies.alphabeta(game, s, limit).value
        hunted = plies.expectiminimax(
            OpponentsAsChance(game, [1, 2], policy=directional_ghost(game, 1.0)), s, limit
        ).value
        directional = plies.expectiminimax(
            OpponentsAsChance(game, [1, 2], policy=directional_ghost(game)), s, limit
        ).value
        uniform = plies.expectiminimax(OpponentsAsChance(game, [1, 2]), s, limit).value
        assert paranoid - 1e-9 <= hunted and paranoid - 1e-9 <= directional <= uniform + 1e-9


# --- why Pacman starves -----------------------------------------------------------------------

# Pacman (P) next to one pellet, the other far out of sight; the ghost is walled in.
STARVING = (
    "%%%%%%%%%%%%\n"
    "%.P       .%\n"
    "%%%%%%%%%%%%\n"
    "%G%%%%%%%%%%\n"
    "%%%%%%%%%%%%"
)


def turn(game: Pacman, s: PacmanState, action: str) -> PacmanState:
    """Pacman's ``action``, then the walled-in ghost's only move, Stop."""
    s = game.result(s, action)
    return s if game.is_terminal(s) else game.result(s, STOP)


def pacman_walk(weights: PacmanWeights, moves: int) -> tuple[list[int], PacmanState]:
    """Pacman's columns over ``moves`` moves of alpha-beta at depth 3 rounds."""
    game = Pacman(STARVING, ghosts=1, max_moves=100, weights=weights)
    s = game.initial_state()
    columns = []
    for _ in range(moves):
        action = plies.alphabeta(game, s, Limit(depth=3, unit=ROUNDS)).action
        assert action is not None
        s = turn(game, s, action)
        columns.append(s.pacman % game.maze.width)
    return columns, s


def test_why_pacman_starves_with_the_plain_score() -> None:
    # With the score as evaluation, eating the pellet now (West, then anything) and
    # eating it later (East, West, West) both end the 3-round horizon at +10 - 3.  The
    # tie goes to the first action, East; from there only West reaches the pellet in
    # time, so Pacman comes back, and the same tie sends him East again: he dithers
    # between columns 2 and 3 next to the pellet and never eats it.
    columns, s = pacman_walk(SCORE_ONLY, 8)
    assert columns == [3, 2, 3, 2, 3, 2, 3, 2]
    assert s.food.bit_count() == 2 and s.score == -8


def test_an_evaluation_that_rewards_closeness_to_food_eats() -> None:
    # The fix: food closeness (1 / distance to the nearest pellet) breaks the tie.  After
    # eating now Pacman ends the horizon nearer the far pellet than after eating later,
    # so eating now is strictly better; he eats, then walks to the far pellet and wins.
    columns, s = pacman_walk(PacmanWeights(), 1)
    assert columns == [1] and s.food.bit_count() == 1
    game = Pacman(STARVING, ghosts=1, max_moves=100)
    while not game.is_terminal(s):
        action = plies.alphabeta(game, s, Limit(depth=3, unit=ROUNDS)).action
        assert action is not None
        s = turn(game, s, action)
    assert s.outcome == WON and s.score == 20 + WIN_POINTS - 10


@pytest.mark.parametrize(
    ("evaluation", "final"),
    [("score", "game over: Ghost 1 wins (Pacman -2, Ghost 1 2)"),
     ("features", "game over: Pacman wins (Pacman 510,")],
)
def test_why_pacman_starves_as_a_command(
    capsys: pytest.CaptureFixture[str], evaluation: str, final: str
) -> None:
    # The documented commands: with the plain score Pacman dithers East/West for the
    # whole game and eats one pellet at the last moment (10 - 12 moves = -2); with the
    # features he eats at once, walks to the far pellet and wins (20 + 500 - 10 = 510).
    out = run(
        capsys, "play", "pacman", "-o", "layout=" + STARVING.replace("\n", "/"),
        "-o", "ghosts=1", "-o", "max_moves=12", "-o", f"evaluation={evaluation}",
        "--depth", "3", "--unit", "round", "--human", "none",
    )
    assert final in out
    pacman_moves = [line.split()[3] for line in out.splitlines() if "Pacman (alphabeta)" in line]
    if evaluation == "score":
        assert pacman_moves[:10] == ["East:", "West:"] * 5
    else:
        assert pacman_moves[:2] == ["West:", "East:"]


@pytest.mark.parametrize("ghosts", [1, 2])
def test_a_depth_in_rounds_is_num_players_plies_in_pacman(ghosts: int) -> None:
    # Every player moves once a round (a walled-in ghost plays Stop), so d rounds from
    # Pacman's move are d * num_players plies: the same tree, value, move and node count
    # (benchmarks/pacman_games.py relies on it to use the compiled workers).
    game = Pacman("smallClassic", ghosts=ghosts, max_moves=40)
    model = ghost_model(game, "directional")
    for s in states_along_a_playout(game, 60, seed=7)[::10]:
        if s.mover != 0 or game.is_terminal(s):
            continue
        rounds, in_plies = Limit(depth=2, unit=ROUNDS), Limit(depth=2 * game.num_players)
        for search, searched in ((plies.minimax, game), (plies.expectiminimax, model)):
            a, b = search(searched, s, rounds), search(searched, s, in_plies)
            assert (a.value, a.action, a.stats.nodes) == (b.value, b.action, b.stats.nodes)
