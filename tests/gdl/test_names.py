"""Names that moved between the modules of ``plies.gdl`` stay where they were.

Relations (``Pred``, ``pred_of``, ``pred_name``) live with the terms, Tarjan's
``strongly_connected`` with the stratification (to break the ground <-> strata cycle);
grounding, the propnet, the top-down compiler and the validator were split into modules
a reader can hold in their head, and each old module still offers every public name it
had, as the very same object.
"""

from __future__ import annotations

import importlib
import inspect

import pytest

import plies.gdl.ground as ground
import plies.gdl.strata as strata
import plies.gdl.terms as terms

# old module -> {public name it had: the module that defines it now}
MOVED: dict[str, dict[str, str]] = {
    "ground": {
        **dict.fromkeys(
            ["TRUE", "DOES", "NEXT", "INIT", "LEGAL", "GOAL", "ROLE", "TERMINAL"], "terms"
        ),
        **dict.fromkeys(
            ["Binding", "subst", "match", "Builder", "builder", "Matcher", "matcher"],
            "matching",
        ),
        **dict.fromkeys(
            ["MAX_BODY", "GroundingError", "Literal", "NormalRule", "normalise", "reaching"],
            "normal",
        ),
        "FactBase": "bottomup",
        **dict.fromkeys(
            ["MAX_ATOMS", "MAX_LITERALS", "MAX_DEPTH", "DEFAULT_BUDGET", "GroundRule",
             "deepest", "Grounding", "natural_key", "ground"],
            "ground",
        ),
    },
    "propnet": {
        **dict.fromkeys(
            ["Formula", "negate", "conjuncts", "make_and", "make_or", "factor", "Network",
             "bitset"],
            "formula",
        ),
        **dict.fromkeys(["generate", "Compiled", "compile_network"], "netcompile"),
        "build_network": "propnet",
    },
    "tdcompile": {
        "MAX_ANSWERS": "tabling",
        "Tabling": "tabling",
        "Program": "tdcompile",
        "compile_program": "tdcompile",
    },
    "validator": {
        "Level": "diagnostic",
        "Diagnostic": "diagnostic",
        "KEYWORD_ARITY": "rulecheck",
        "check": "validator",
        "validate": "validator",
    },
}


@pytest.mark.parametrize("old", sorted(MOVED))
def test_every_public_name_stays_importable_from_its_old_module(old: str) -> None:
    module = importlib.import_module(f"plies.gdl.{old}")
    for name, new in MOVED[old].items():
        home = importlib.import_module(f"plies.gdl.{new}")
        assert getattr(module, name) is getattr(home, name), (old, name)
        assert name in module.__all__, (old, name)
    assert all(hasattr(module, name) for name in module.__all__)


def test_moved_names_are_defined_in_their_new_module() -> None:
    for names in MOVED.values():
        for name, new in names.items():
            value = importlib.import_module(f"plies.gdl.{new}").__dict__[name]
            if inspect.isfunction(value) or type(value) is type:  # not aliases
                assert value.__module__ == f"plies.gdl.{new}", name


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
