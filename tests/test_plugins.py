"""plies.plugins: the lazy registry every open table of plies is built on."""

from __future__ import annotations

import sys
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from plies import plugins
from plies.plugins import Entry, PluginError, Registry, UnknownEntryError, import_target


@pytest.fixture
def modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A directory on sys.path for throw-away modules; they leave sys.modules afterwards."""
    monkeypatch.syspath_prepend(str(tmp_path))
    before = set(sys.modules)
    yield tmp_path
    for name in set(sys.modules) - before:
        if name.startswith("plugtest_"):
            del sys.modules[name]


def write(where: Path, name: str, body: str) -> None:
    (where / f"{name}.py").write_text(textwrap.dedent(body), encoding="utf-8")


COUNTING = """
    import builtins
    builtins.plugtest_imports = getattr(builtins, "plugtest_imports", 0) + 1
    VALUE = "{value}"
"""


def imports() -> int:
    import builtins

    return int(getattr(builtins, "plugtest_imports", 0))


@pytest.fixture(autouse=True)
def _reset_counter() -> Iterator[None]:
    import builtins

    builtins.plugtest_imports = 0  # type: ignore[attr-defined]
    yield
    del builtins.plugtest_imports  # type: ignore[attr-defined]


def registry(
    builtins: dict[str, str] | None = None, declared: list[Entry] | None = None, **kwargs: object
) -> Registry[object]:
    found = list(declared or [])
    return Registry(
        "plies.test", builtins or {}, kind="widget", discover=lambda: found, **kwargs  # type: ignore[arg-type]
    )


def test_names_import_nothing_and_load_imports_one_entry_once(modules: Path) -> None:
    write(modules, "plugtest_a", COUNTING.format(value="a"))
    write(modules, "plugtest_b", COUNTING.format(value="b"))
    reg = registry(
        {"a": "plugtest_a:VALUE"}, [Entry("b", "plugtest_b:VALUE", "plies-b")]
    )
    assert reg.names() == ["a", "b"]
    assert "a" in reg and "b" in reg and "c" not in reg
    assert imports() == 0 and "plugtest_a" not in sys.modules
    assert reg.load("a") == "a" and reg.load("a") == "a"
    assert imports() == 1 and "plugtest_b" not in sys.modules
    assert reg.load("b") == "b"
    assert imports() == 2


def test_names_lists_builtins_in_table_order_then_plugins_then_runtime_entries() -> None:
    reg = registry(
        {"zeta": "os:sep", "alpha": "os:sep"},
        [Entry("mid", "os:sep", "d1"), Entry("beta", "os:sep", "d2")],
    )
    reg.register("omega", "os:sep")
    reg.register("aaa", object())
    assert reg.names() == ["zeta", "alpha", "beta", "mid", "omega", "aaa"]


def test_unknown_name_lists_the_known_ones_or_raises_the_registrys_own_error() -> None:
    reg = registry({"one": "os:sep"}, [Entry("two", "os:sep", "d")])
    with pytest.raises(UnknownEntryError, match=r"^unknown widget 'three'; known: one, two$"):
        reg.load("three")
    custom = registry({"one": "os:sep"}, unknown=lambda name, known: KeyError(name, known))
    with pytest.raises(KeyError) as caught:
        custom.load("three")
    assert caught.value.args == ("three", ["one"])


def test_a_plugin_that_fails_to_import_breaks_only_itself(modules: Path) -> None:
    write(modules, "plugtest_good", COUNTING.format(value="good"))
    write(modules, "plugtest_bad", "import plugtest_nowhere\n")
    reg = registry(
        {"good": "plugtest_good:VALUE"},
        [Entry("bad", "plugtest_bad:Thing", "plies-bad"),
         Entry("gone", "plugtest_good:MISSING", "plies-gone")],
    )
    with pytest.raises(PluginError) as caught:
        reg.load("bad")
    message = str(caught.value)
    assert "\n" not in message
    assert message == (
        "plug-in widget 'bad' (plugtest_bad:Thing, from distribution plies-bad) cannot be "
        "used: ModuleNotFoundError: No module named 'plugtest_nowhere'"
    )
    with pytest.raises(PluginError) as again:  # the failure is kept, not retried
        reg.load("bad")
    assert again.value is caught.value
    values, failed = reg.load_all()
    assert values == {"good": "good"}
    assert sorted(failed) == ["bad", "gone"]
    assert "AttributeError" in str(failed["gone"]) and "plies-gone" in str(failed["gone"])
    assert {str(p) for p in reg.problems()} == {str(e) for e in failed.values()}


def test_a_plugin_reusing_a_builtin_name_is_ignored_and_reported(modules: Path) -> None:
    write(modules, "plugtest_own", COUNTING.format(value="own"))
    reg = registry(
        {"own": "plugtest_own:VALUE"}, [Entry("own", "plugtest_elsewhere:X", "plies-copycat")]
    )
    assert reg.names() == ["own"]
    assert reg.load("own") == "own"
    [problem] = reg.problems()
    assert reg.ignored() == [problem]
    assert str(problem) == (
        "plug-in widget 'own' (plugtest_elsewhere:X, from distribution plies-copycat) is "
        "ignored: 'own' is a built-in widget"
    )


def test_a_name_two_plugins_declare_is_refused_naming_both() -> None:
    reg = registry(declared=[Entry("twin", "a:X", "plies-a"), Entry("twin", "b:Y", "plies-b")])
    assert reg.names() == ["twin"] and "twin" in reg
    with pytest.raises(PluginError) as caught:
        reg.load("twin")
    assert str(caught.value) == (
        "plug-in widget 'twin' is declared 2 times (a:X, from distribution plies-a; b:Y, "
        "from distribution plies-b); none is used: uninstall all but one"
    )
    _, failed = reg.load_all()
    assert list(failed) == ["twin"]


def test_adapt_checks_each_value_and_a_plugin_failing_it_is_a_plugin_error() -> None:
    def must_be_text(name: str, obj: object) -> str:
        if not isinstance(obj, str):
            raise TypeError(f"{name} is {type(obj).__name__}, not text")
        return obj.upper()

    reg: Registry[str] = Registry(
        "plies.test", {"sep": "os:sep", "broken": "os:getcwd"}, kind="widget",
        adapt=must_be_text,
        discover=lambda: [Entry("path", "os:path", "plies-path")],
    )
    assert reg.load("sep") == "/".upper()
    with pytest.raises(PluginError, match=r"\(os:path, from distribution plies-path\) cannot be "
                       r"used: TypeError: path is module, not text$"):
        reg.load("path")
    with pytest.raises(TypeError):  # a built-in that fails is a bug: it propagates as it is
        reg.load("broken")


def test_register_at_run_time() -> None:
    reg = registry({"one": "os:sep"})
    thing = object()
    reg.register("thing", thing)
    reg.register("lazy", "plugtest_never_imported:X")
    assert reg.load("thing") is thing
    assert reg.entry("lazy") == Entry("lazy", "plugtest_never_imported:X")
    with pytest.raises(PluginError, match=r"registered at run time\) cannot be used"):
        reg.load("lazy")
    with pytest.raises(ValueError, match="'one': the name is taken"):
        reg.register("one", thing)
    with pytest.raises(ValueError, match="is not module:attribute"):
        reg.register("odd", "not a target")
    reg.register("lazy", "os:sep", replace=True)
    assert reg.load("lazy") == "/"
    reg.register("one", thing, replace=True)
    assert reg.load("one") is thing and reg.names() == ["one", "thing", "lazy"]
    reg.unregister("thing")
    assert "thing" not in reg
    with pytest.raises(KeyError):
        reg.unregister("never")


def test_view_reads_the_registry_as_a_mapping() -> None:
    reg = registry({"sep": "os:sep"}, [Entry("curdir", "os:curdir", "d")])
    view = reg.view()
    assert list(view) == ["sep", "curdir"] and len(view) == 2 and "sep" in view
    assert dict(view) == {"sep": "/", "curdir": "."}
    with pytest.raises(KeyError):
        view["nothing"]


def test_targets_are_module_attribute_or_a_module_with_extras_ignored() -> None:
    import os.path

    assert import_target("os.path") is os.path
    assert import_target("os:path.join") is os.path.join
    assert import_target(" os : sep [extra1, extra2] ") == os.sep
    with pytest.raises(ValueError, match="is not module:attribute"):
        import_target("os:sep:more")


def test_loading_from_several_threads_imports_once(modules: Path) -> None:
    write(modules, "plugtest_slow", "import time\ntime.sleep(0.05)\n" + textwrap.dedent(
        COUNTING.format(value="slow")))
    reg = registry(declared=[Entry("slow", "plugtest_slow:VALUE", "d")])
    results: list[object] = []
    threads = [threading.Thread(target=lambda: results.append(reg.load("slow"))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == ["slow"] * 4 and imports() == 1


def test_entry_points_of_installed_distributions(
    modules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A distribution on sys.path that declares the group is read (once), named in errors,
    and forgotten again by refresh()."""
    dist = modules / "plies_plugtest-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: plies-plugtest\nVersion: 1.0\n", encoding="utf-8"
    )
    (dist / "entry_points.txt").write_text(
        "[plies.test-installed]\nfound = plugtest_found:VALUE\nbroken = plugtest_nothere:X\n",
        encoding="utf-8",
    )
    write(modules, "plugtest_found", COUNTING.format(value="found"))
    plugins.refresh()
    try:
        reg: Registry[object] = Registry("plies.test-installed", kind="widget")
        assert reg.names() == ["broken", "found"]
        assert reg.entry("found") == Entry("found", "plugtest_found:VALUE", "plies-plugtest")
        assert reg.load("found") == "found"
        with pytest.raises(PluginError, match="from distribution plies-plugtest"):
            reg.load("broken")
        (dist / "entry_points.txt").unlink()
        assert reg.names() == ["broken", "found"]  # read once per process ...
        plugins.refresh()
        assert reg.names() == []  # ... until refreshed
    finally:
        monkeypatch.undo()
        plugins.refresh()
