"""The weakened levels of ``UCI_LimitStrength``: the Elo scale and Stockfish's pick."""

from __future__ import annotations

import itertools
import random

from hypothesis import given
from hypothesis import strategies as st

from plies.uci.strength import ELO_MAX, ELO_MIN, LEVELS, SPREAD_CAP, pick, strength


def test_the_scale_grows_in_nodes_and_shrinks_in_weakness_with_the_elo() -> None:
    levels = [strength(elo) for elo in range(ELO_MIN, ELO_MAX + 1, 25)]
    assert all(a.nodes <= b.nodes and a.weakness >= b.weakness
               for a, b in itertools.pairwise(levels))
    for elo, nodes, weakness in LEVELS:  # the anchors themselves, exactly
        assert (strength(elo).nodes, strength(elo).weakness) == (nodes, weakness)
    assert strength(ELO_MIN - 500) == strength(ELO_MIN)  # clamped
    assert strength(ELO_MAX + 500).elo == ELO_MAX


scores = st.lists(st.integers(-3000, 3000), min_size=1, max_size=6).map(
    lambda xs: sorted((float(x) for x in xs), reverse=True)
)


@given(scores, st.integers(0, 120), st.integers(0, 2**32))
def test_a_pick_is_a_line_and_never_strays_past_what_the_weakness_allows(
    values: list[float], weakness: int, seed: int
) -> None:
    lines = [(value, i) for i, value in enumerate(values)]
    chosen = pick(lines, weakness, random.Random(seed))
    gap = values[0] - values[chosen]
    # A line is pushed up by weakness/128 of its gap and at most weakness/128 of a pawn:
    # it beats the best only if gap * (1 - w/128) <= SPREAD_CAP * w/128.
    assert gap * (128 - weakness) <= SPREAD_CAP * weakness + 1e-9
    if weakness == 0:
        assert chosen == 0


def test_a_weak_pick_is_not_always_the_best_of_close_lines() -> None:
    rng = random.Random(3)
    lines = [(30.0, "a"), (10.0, "b"), (0.0, "c"), (-20.0, "d")]
    chosen = {pick(lines, 100, rng) for _ in range(200)}
    assert len(chosen) > 1
    assert {pick(lines, 0, rng) for _ in range(20)} == {"a"}
