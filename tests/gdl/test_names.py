"""Names that moved to break the ground <-> strata import cycle stay where they were.

Relations (``Pred``, ``pred_of``, ``pred_name``) live with the terms, Tarjan's
``strongly_connected`` with the stratification; grounding imports both and still offers
them under their old names.
"""

from __future__ import annotations

import plies.gdl.ground as ground
import plies.gdl.strata as strata
import plies.gdl.terms as terms


def test_the_old_names_in_ground_are_the_moved_ones() -> None:
    assert ground.pred_of is terms.pred_of
    assert ground.pred_name is terms.pred_name
    assert ground.Pred == terms.Pred
    assert ground.strongly_connected is strata.strongly_connected


def test_relations_of_atoms() -> None:
    assert terms.pred_of("terminal") == "terminal"
    assert terms.pred_of(("cell", "1", "1", "b")) == ("cell", 3)
    assert terms.pred_of(("open2",)) == ("open2", 0)
    assert terms.pred_name(("cell", 3)) == "cell/3"
    assert terms.pred_name("terminal") == "terminal"


def test_strongly_connected_lists_dependencies_first() -> None:
    edges = {"a": ["b"], "b": ["c", "a"], "c": [], "d": ["a"]}
    order = strata.strongly_connected(["d", "a", "b", "c"], edges)
    assert [sorted(component) for component in order] == [["c"], ["a", "b"], ["d"]]
