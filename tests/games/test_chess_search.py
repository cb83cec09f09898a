"""The selective search on chess: quiescence, check and singular extensions, null move
and late-move reductions, held to published mates and to constructed positions."""

from __future__ import annotations

from typing import Any

import pytest

import plies
from plies.games.chess import Chess
from plies.policy import selective_craft
from plies.search import Limit
from plies.search.mate import MateDistance
from tests.games.test_chess import HORIZON, MATES

ENGINE = {"tt": True, "ordering": True, "pvs": True}
EVERGREEN = MATES[-1]  # Anderssen - Dufresne, 22.Bf5+ Ke8 23.Bd7+ Kf8 24.Bxe7#


def mate_search(fen: str, depth: int, **switches: Any) -> tuple[str, int | None, int]:
    """The move, the plies to mate (None: no mate seen) and the nodes of a search."""
    game = Chess(fen)
    mated = MateDistance(game)
    r = plies.alphabeta(mated, mated.root(game.initial_state()), Limit(depth=depth),
                        **ENGINE, **switches)
    return r.action.uci(), mated.distance(r.value), r.stats.nodes


@pytest.mark.parametrize(("source", "fen", "n", "first"), MATES, ids=[m[0][:40] for m in MATES])
def test_forward_pruning_still_finds_every_published_mate_at_depth_2n_minus_1(
    source: str, fen: str, n: int, first: tuple[str, ...]
) -> None:
    """The engine's whole selective search (what ``plies uci`` runs) loses no mate."""
    craft = selective_craft(Chess(fen), singular=50)
    move, plies_to_mate, _ = mate_search(fen, 2 * n - 1, **craft)
    assert move in first
    assert plies_to_mate == 2 * n - 1


@pytest.mark.parametrize("mate", MATES[-3:], ids=lambda m: m[0][:30])
def test_check_extensions_see_a_mate_in_three_at_depth_four(
    mate: tuple[str, str, int, tuple[str, ...]]
) -> None:
    _, fen, _, first = mate
    move, plies_to_mate, _ = mate_search(fen, 4, quiescence=0, extensions=True)
    assert (move, plies_to_mate) == (first[0], 5)


def test_without_check_extensions_depth_four_misses_the_evergreen_mate() -> None:
    move, plies_to_mate, _ = mate_search(EVERGREEN[1], 4, quiescence=0)
    assert plies_to_mate is None and move != "d3f5"


def test_singular_extension_finds_the_evergreen_mate_the_same_search_misses() -> None:
    """22.Bf5+ is the one move that wins: after it every black reply is forced and the
    table's move at those nodes beats the rest by far, so it is singular and searched a
    ply deeper, which reaches 24.Bxe7# at depth 4.  The same search (no check
    extensions, no quiescence) without the singular test plays 22.Be2 and sees no mate."""
    fen = EVERGREEN[1]
    assert mate_search(fen, 4, quiescence=0)[:2] == ("d3e2", None)
    assert mate_search(fen, 4, quiescence=0, singular=50)[:2] == ("d3f5", 5)


def test_quiescence_in_the_window_escapes_the_horizon_effect() -> None:
    """At depth 1 the queen takes a pawn defended by a pawn (the horizon hides the
    recapture); with quiescence the capture is searched on and refused."""
    game = Chess(HORIZON)
    s = game.initial_state()
    naive = plies.alphabeta(game, s, Limit(depth=1), **ENGINE)
    quiet = plies.alphabeta(game, s, Limit(depth=1), quiescence=4, **ENGINE)
    assert game.format_action(s, naive.action) == "Qxd5"
    assert game.format_action(s, quiet.action) != "Qxd5"
    assert quiet.value < naive.value
    assert quiet.stats.seldepth > 1  # the recapture was searched past the horizon


def test_quiescence_in_the_window_gives_the_quiescent_evaluation_on_chess() -> None:
    game = Chess("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    s = game.initial_state()
    for depth in (1, 2):
        wrapped = plies.alphabeta(plies.Quiescent(game, depth=3), s, Limit(depth=depth))
        inside = plies.alphabeta(game, s, Limit(depth=depth), quiescence=3, **ENGINE)
        assert (inside.value, inside.action) == (wrapped.value, wrapped.action)


@pytest.mark.parametrize("switch", [{"null_move": 2}, {"reductions": True}], ids=str)
def test_forward_pruning_searches_fewer_nodes_in_a_middlegame(switch: dict[str, Any]) -> None:
    """Node counts are deterministic: the point of the switch is fewer of them."""
    game = Chess("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8")
    s = game.initial_state()
    base = plies.alphabeta(game, s, Limit(depth=4), quiescence=2, **ENGINE)
    pruned = plies.alphabeta(game, s, Limit(depth=4), quiescence=2, **ENGINE, **switch)
    assert pruned.stats.nodes < base.stats.nodes
