"""The front end's old paths (``plies.engine``, the command modules beside their
subsystems, tournaments in ``plies.parallel``) still work for one release, with a
:class:`DeprecationWarning` that names the new place (:mod:`plies._compat`)."""

from __future__ import annotations

import importlib
import sys
import warnings

import pytest

# (old module, new module, a name read through the old one)
MOVED_MODULES = [
    ("plies.engine", "plies.policy", "plan"),
    ("plies.engine.policy", "plies.policy.plan", "SearchRequest"),
    ("plies.engine.playing", "plies.policy.session", "play_defaults"),
    ("plies.engine.text", "plies.policy.text", "number"),
    ("plies.engine.games", "plies.policy.games", "position"),
    ("plies.engine.args", "plies.cli.args", "search_arguments"),
    ("plies.demo", "plies.cli.demo", "run"),
    ("plies.playcli", "plies.cli.play", "cmd_play"),
    ("plies.checkcli", "plies.cli.check", "register"),
    ("plies.viz.cli", "plies.cli.tree", "output_format"),
    ("plies.web.cli", "plies.cli.web", "listen"),
    ("plies.parallel.cli", "plies.cli.tournament", "progress_bar"),
    ("plies.uci.cli", "plies.cli.uci", "run"),
    ("plies.learn.cli", "plies.cli.learn", "register"),
    ("plies.parallel.tournament", "plies.tournament.tournament", "schedule"),
    ("plies.parallel.agents", "plies.tournament.agents", "AgentSpec"),
    ("plies.parallel.elo", "plies.tournament.elo", "fit_elo"),
    ("plies.parallel.plot", "plies.tournament.plot", "plot_elo"),
    ("plies.parallel.search", "plies.search.parallel", "parallel_alphabeta"),
]


# plies.parallel loads its old module plies.parallel.tournament itself, quietly (see the
# last test): only reading a name through it warns.
LOADED_BY_THEIR_PACKAGE = {"plies.parallel.tournament"}


@pytest.mark.parametrize(
    ("old", "new", "name"), [m for m in MOVED_MODULES if m[0] not in LOADED_BY_THEIR_PACKAGE]
)
def test_importing_an_old_module_warns(old: str, new: str, name: str) -> None:
    for loaded in [m for m in sys.modules if m == old or m.startswith(old + ".")]:
        del sys.modules[loaded]  # an old package's submodules are shims too
    with pytest.warns(DeprecationWarning, match=rf"{old} is deprecated: use {new}\b"):
        importlib.import_module(old)


@pytest.mark.parametrize(("old", "new", "name"), MOVED_MODULES)
def test_an_old_module_path_warns_and_forwards(old: str, new: str, name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # importing it: tested above
        module = importlib.import_module(old)
    with pytest.warns(DeprecationWarning, match=rf"{old} is deprecated: use {new}") as caught:
        value = getattr(module, name)
    assert value is getattr(importlib.import_module(new), name)
    assert caught[0].filename == __file__


@pytest.mark.parametrize("module", ["plies.policy", "plies.policy.session"])
def test_engine_search_is_the_old_name_of_search_session(module: str) -> None:
    from plies.policy import SearchSession

    with pytest.warns(DeprecationWarning, match=r"EngineSearch is deprecated: use "
                      r"plies\.policy\.session\.SearchSession") as caught:
        old = getattr(importlib.import_module(module), "EngineSearch")  # noqa: B009
    assert old is SearchSession
    assert caught[0].filename == __file__


def test_the_old_engine_package_still_serves_engine_search() -> None:
    from plies.policy import SearchSession

    with pytest.warns(DeprecationWarning) as caught:
        from plies.engine import EngineSearch  # type: ignore[attr-defined]
    assert EngineSearch is SearchSession
    messages = [str(w.message) for w in caught]
    assert any("plies.engine is deprecated: use plies.policy" in m for m in messages)
    assert any("EngineSearch is deprecated" in m for m in messages)


@pytest.mark.parametrize(
    "name",
    ["AgentSpec", "EloFit", "GameRecord", "TournamentResult", "fit_elo", "parse_agent",
     "tournament"],
)
def test_tournament_names_from_plies_parallel_warn_and_forward(name: str) -> None:
    import plies.parallel
    import plies.tournament

    with pytest.warns(DeprecationWarning, match=rf"plies\.parallel\.{name} is deprecated: "
                      rf"use plies\.tournament\.{name}") as caught:
        value = getattr(plies.parallel, name)
    assert value is getattr(plies.tournament, name)
    assert caught[0].filename == __file__


def test_the_tournament_function_is_not_hidden_by_its_old_module() -> None:
    """``plies.parallel.tournament`` is both an old module and an old function name."""
    import plies.parallel.tournament  # noqa: F401
    from plies.tournament import tournament

    with pytest.warns(DeprecationWarning):
        from plies.parallel import tournament as old
    assert old is tournament
    with pytest.warns(DeprecationWarning):
        from plies.parallel.tournament import schedule  # the module still forwards
    assert callable(schedule)
