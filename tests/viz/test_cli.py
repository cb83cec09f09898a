"""``plies tree``, run in-process: every format by extension, and one-line errors."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from plies.cli import main
from plies.viz import SearchTree
from tests.clirun import fail, plain_pipe, run  # noqa: F401 (autouse fixture)

FIG = "src/plies/games/trees/aima-fig-5-2.tree"


def test_svg_for_the_aima_figure(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "fig.svg"
    out = run(capsys, "tree", FIG, "--out", str(path))
    assert out == (
        f"wrote {path} (svg): 11 nodes searched, 2 pruned; value 3 for MAX; "
        "chosen path a1 b1\n"
    )
    root = ET.parse(path).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert sum(1 for e in root.iter() if "cut" in (e.get("class") or "").split()) == 2


@pytest.mark.parametrize("suffix", [".json", ".JSON"])
def test_json_file(capsys: pytest.CaptureFixture[str], tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"tree{suffix}"
    run(capsys, "tree", "tictactoe", "--moves", "5 1", "--depth", "2", "--out", str(path))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["game"] == "tictactoe" and data["algorithm"] == "alphabeta"
    assert data["player"] == "X" and data["root"]["mover"] == "X"
    assert data["stats"]["depth"] == 2


def test_the_engine_search_is_drawn(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "engine.json"
    out = run(capsys, "tree", "tictactoe", "--moves", "5 1", "--depth", "2", "--engine",
              "--out", str(path))
    assert out == (
        f"wrote {path} (json): 38 nodes searched (30 in the search of the root drawn), "
        "24 pruned; value 0 for X; chosen path 2 7\n"
    )
    data = json.loads(path.read_text(encoding="utf-8"))
    nodes, stack = [], [data["root"]]
    while stack:
        node = stack.pop()
        nodes.append(node)
        stack.extend(node["children"])
    assert sum(node["visits"] == 2 for node in nodes) == 4  # PVS re-searches
    assert any(note.startswith("moves tried: 3") for node in nodes for note in node["notes"])


@pytest.mark.parametrize("suffix", [".dot", ".gv"])
def test_dot_file(capsys: pytest.CaptureFixture[str], tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"tree{suffix}"
    run(capsys, "tree", "aima-5-2", "-a", "minimax", "--out", str(path))
    text = path.read_text(encoding="utf-8")
    assert text.startswith("digraph search_tree {") and text.count(" -> ") == 12


def test_stdout_is_json_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(run(capsys, "tree", FIG, "--algorithm", "minimax"))
    assert data["value"] == 3.0 and data["pv"] == ["a1", "b1"]
    assert data["stats"]["nodes"] == 13


def test_format_overrides_and_dash_is_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "tree", FIG, "--out", "-", "--format", "svg")
    ET.fromstring(out.encode("utf-8"))
    assert run(capsys, "tree", FIG, "--format", "dot").startswith("digraph")


def test_game_options_and_search_options(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "nim.json"
    run(
        capsys, "tree", "nim", "--option", "piles=1,2,2", "--algorithm", "bounded",
        "--player", "1", "--out", str(path),
    )
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["algorithm"] == "bounded" and data["player"] == "P1"
    run(capsys, "tree", "sticks", "--option", "sticks=5", "--threshold", "1", "--out", str(path))
    assert json.loads(path.read_text(encoding="utf-8"))["algorithm"] == "bounded"
    run(capsys, "tree", "pig", "--depth", "2", "--out", str(path))  # auto: expectiminimax
    assert json.loads(path.read_text(encoding="utf-8"))["algorithm"] == "expectiminimax"


def test_o_is_a_game_option_in_every_command(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``-o KEY=VALUE`` is a game option in ``tree`` as in ``solve``; the picture goes to
    ``--out``."""
    data = json.loads(run(capsys, "solve", "nim", "-o", "piles=1,2", "--json"))
    assert data["value"] == 1.0
    def drawn(*argv: str) -> dict[str, object]:
        tree = json.loads(run(capsys, "tree", "nim", *argv))
        for timing in ("elapsed", "nps"):
            del tree["stats"][timing]
        return tree  # type: ignore[no-any-return]

    short = drawn("-o", "piles=1,2")
    assert short == drawn("--option", "piles=1,2")
    assert short["stats"] != drawn("-o", "piles=1,1")["stats"]


def test_o_as_the_output_still_works_for_one_release_with_a_warning(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "fig.svg"
    assert main(["tree", FIG, "-o", str(path)]) == 0
    captured = capsys.readouterr()
    assert path.read_text().startswith("<?xml")
    assert f"'-o {path}' as the output is deprecated" in captured.err
    assert f"--out {path}" in captured.err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--out", "tree.png"], "cannot tell the format of 'tree.png'"),
        (["--out", "tree"], "use one of .svg, .json, .dot, .gv"),
        # A picture shows one complete search: tree does not offer budgets at all.
        (["--time", "1"], "unrecognized arguments: --time 1"),
        (["--nodes", "100"], "unrecognized arguments: --nodes 100"),
        (["--max-nodes", "0"], "--max-nodes must be at least 1"),
        (["--format", "png"], "invalid choice: 'png'"),
    ],
)
def test_bad_arguments(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert message in fail(capsys, "tree", FIG, *argv)


def test_too_many_nodes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "ttt.svg"
    message = fail(capsys, "tree", "tictactoe", "--out", str(path))
    assert message == (
        "the search visited more than 2,000 nodes; use a smaller --depth or a larger --max-nodes"
    )
    assert not path.exists()
    message = fail(capsys, "tree", "tictactoe", "--depth", "2", "--max-nodes", "20")
    assert "more than 20 nodes" in message


def test_unwritable_output(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    message = fail(capsys, "tree", FIG, "--out", str(tmp_path / "missing" / "fig.svg"))
    assert message.startswith("cannot write ") and "no directory" in message


def test_game_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert "unknown game 'chezz'" in fail(capsys, "tree", "chezz")
    assert "illegal move '10'" in fail(capsys, "tree", "tictactoe", "--moves", "10")
    assert "cannot search chance nodes" in fail(capsys, "tree", "pig", "-a", "alphabeta")


def test_plies_tree_rps_player_0_draws_the_matrix_stage(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # `plies tree rps --player 0` said "unknown algorithm 'simultaneous'"
    path = tmp_path / "rps.json"
    out = run(capsys, "tree", "rps", "--player", "0", "--out", str(path))
    assert out.startswith(f"wrote {path} (json): 10 nodes searched; value 0 for Row")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["algorithm"] == "simultaneous"
    assert (data["root"]["kind"], data["root"]["mover"]) == ("simultaneous", "everyone")
    assert len(data["root"]["children"]) == 9


def test_a_root_that_reached_its_known_value_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """With --engine the root's value is found by bisection first; the last pass stops at
    the first move that reaches it, and the picture says why (not a utility bound: AIMA's
    figure 5.2 goes from -14 to 14)."""
    path = tmp_path / "engine.json"
    run(capsys, "tree", "aima-5-2", "--engine", "--out", str(path))
    tree = SearchTree.from_json(json.loads(path.read_text(encoding="utf-8")))
    assert {(n.action, n.pruned_by) for n in tree.pruned_nodes()} == {
        ("a2", "v=3 cannot be improved on"), ("a3", "v=3 cannot be improved on"),
    }
