"""The documentation site: its generated reference pages read what they document from the
code, and the site builds with warnings as errors and every reference resolved.

The CLI reference, the table of hooks and the web API's examples are written at build
time by ``docs/_ext/plies_docs.py`` from ``docs/_ext/reference_data.py``; the tests here
hold the code to what those pages need (a help text for every option, a table row for
every member of the game model, an example for every endpoint), without Sphinx.  The last
test builds the whole site, as ``make docs`` does; it needs Sphinx and the site's
extensions (the ``docs`` dependency group, which ``make test`` installs).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
sys.path.insert(0, str(DOCS / "_ext"))

import reference_data  # noqa: E402  (docs/_ext, put on the path above)

from plies.game import FACTS, HOOKS, METHODS, REQUIRED  # noqa: E402


def test_every_option_of_every_command_has_a_help_text() -> None:
    root = reference_data.plies_command()
    missing = [
        f"{command.name} {option.names[0]}"
        for command in root.walk()
        for option in command.options
        if not option.help
    ]
    assert missing == []


def test_the_cli_reference_lists_every_command_of_plies() -> None:
    from plies.cli.registry import BUILTIN

    names = {command.name for command in reference_data.plies_command().walk()}
    assert {f"plies {name}" for name in BUILTIN} <= names
    assert {"plies ggp", "plies ggp serve", "plies ggp match"} <= names  # plies' own plug-in
    solve = next(c for c in reference_data.plies_command().walk() if c.name == "plies solve")
    depth = next(o for o in solve.options if "--depth" in o.names)
    assert depth.metavar == "DEPTH" and depth.help
    algorithm = next(o for o in solve.options if "--algorithm" in o.names)
    assert algorithm.metavar == "ALGORITHM" and "alphabeta" in (algorithm.choices or [])


def test_the_cli_reference_gives_the_exit_statuses_main_returns() -> None:
    from plies.cli.main import BROKEN_PIPE

    page = (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    statuses = re.findall(r"^\| (\d+) \|", page, re.MULTILINE)
    assert statuses == ["0", "1", "2", "130", str(BROKEN_PIPE)]


def test_the_table_of_hooks_has_a_row_for_every_member_of_the_game_model() -> None:
    members = reference_data.game_members()
    kinds = {m.name: m.kind for m in members}
    expected = {
        **dict.fromkeys(REQUIRED, "required"), **dict.fromkeys(FACTS, "fact"),
        **dict.fromkeys(METHODS, "method"), **dict.fromkeys(HOOKS, "hook"),
    }
    assert kinds == expected
    signatures = {m.name: m.signature for m in members}
    assert signatures["utility"] == "utility(state, player)"
    assert signatures["order_hint"] == "order_hint(state, actions) -> actions reordered"
    assert signatures["zero_sum"] == "zero_sum: bool"
    assert all(m.default for m in members if m.kind != "required")


def _web_api_examples() -> list[str]:
    text = (DOCS / "reference" / "web-api.md").read_text(encoding="utf-8")
    block = re.search(r"```\{plies-web-api\}\n(.*?)```", text, re.DOTALL)
    assert block is not None, "web-api.md has no {plies-web-api} block"
    return [line.split()[0] for line in block[1].splitlines() if line.strip()]


def test_every_endpoint_of_the_web_api_has_an_example_on_its_page() -> None:
    assert _web_api_examples() == ["games", *reference_data.endpoints()]


def test_the_example_answers_are_real_and_shortened() -> None:
    answer = reference_data.example_answer("state", {"game": "tictactoe", "moves": ["5"]})
    assert '"legal": ["1", "2", "3", "... (5 more)"]' in answer
    moved = reference_data.example_answer("move", {"game": "nim", "depth": 1})
    assert '"state": "(the answer of POST /api/state for the position)"' in moved


def test_the_uci_page_names_every_command_and_option_of_plies_uci() -> None:
    from plies.uci import UciEngine

    lines: list[str] = []
    engine = UciEngine(lines.append)
    engine.handle("uci")
    options = [line[len("option name "):line.index(" type ")] for line in lines
               if line.startswith("option name ")]
    page = (DOCS / "reference" / "uci.md").read_text(encoding="utf-8")
    commands = [*engine._commands, "quit"]
    assert [c for c in commands if f"| `{c}" not in page] == []
    assert [o for o in options if f"| `{o}` |" not in page] == []


def test_the_api_reference_documents_every_public_name() -> None:
    import plies
    import plies.errors

    pages = "\n".join(
        path.read_text(encoding="utf-8") for path in sorted((DOCS / "reference").glob("api*.md"))
    )
    documented = set(re.findall(r"^\.\. auto\w+:: (plies[\w.]*)", pages, re.MULTILINE))
    names = {f"plies.{name}" for name in plies.__all__ if name != "games"} | {"plies.games"}
    assert sorted(names - documented) == []
    subpackages = {
        "plies.game", "plies.games", "plies.search", "plies.policy", "plies.plugins",
        "plies.errors", "plies.check", "plies.imperfect", "plies.wrappers",
    }
    assert sorted(subpackages - documented) == []
    errors = [
        name for name, obj in vars(plies.errors).items()
        if isinstance(obj, type) and issubclass(obj, Exception)
        and obj.__module__ == "plies.errors"
    ]
    assert [e for e in errors if not {f"plies.{e}", f"plies.errors.{e}"} & documented] == []


def test_the_site_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    # In a process of its own: docs/conf.py hides the plug-ins of this environment from
    # the registries, which must not leak into the other tests.
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-b", "html",
         "-d", str(tmp_path / "doctrees"), str(DOCS), str(tmp_path / "html")],
        capture_output=True, text=True, timeout=900, check=False,
    )
    assert done.returncode == 0, done.stderr[-5000:]
    html = tmp_path / "html"
    assert (html / "index.html").is_file()
    alphabeta = (html / "reference" / "api-search.html").read_text(encoding="utf-8")
    assert 'id="plies.alphabeta"' in alphabeta and "strict_cutoffs" in alphabeta
    cli = (html / "reference" / "cli.html").read_text(encoding="utf-8")
    assert "plies ggp serve" in cli and "--strict-cutoffs" in cli
